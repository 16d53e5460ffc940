//! The one mutation point: `update(model, event) -> effects`.
//!
//! Pure: no IO, no await, no spawn. Keys become actions through the keymap;
//! pipeline events of the running turn update the chat, the pipeline bar and
//! the panels; everything that needs the outside world is returned as an
//! [`Effect`] for the app loop.

use crossterm::event::{KeyEvent, MouseEventKind};

use crate::pipeline::{Node, PipelineEvent};

use super::action::Action;
use super::commands;
use super::copy;
use super::effect::Effect;
use super::event::Event;
use super::inspector;
use super::keymap::Keymap;
use super::model::{Level, Model, NodeStatus, Overlay, Pane, PipelineBar, Role, TurnState};
use super::running::RunningTurn;
use super::scroll::{Dir, STEP, WHEEL, page, scroll, scroll_target};
use super::search;
use super::timeline;
use super::travel;
use super::whatif;

/// Applies one event; returns the IO to perform.
pub fn update(m: &mut Model, keymap: &Keymap, ev: Event) -> Vec<Effect> {
    match ev {
        Event::Key(key) => on_key(m, keymap, key),
        Event::Paste(text) => {
            if let Some(Overlay::Timeline(st)) = &mut m.overlay {
                timeline::on_paste(st, &text);
            } else if m.chat.search.as_ref().is_some_and(|s| s.editing) && m.overlay.is_none() {
                search::on_paste(m, &text);
            } else if m.chrome.focus == Pane::Input && m.overlay.is_none() {
                m.chat
                    .input
                    .insert_str(text.replace("\r\n", "\n").replace('\r', "\n"));
                m.chat.fit_wrap();
            }
            Vec::new()
        }
        Event::Mouse(me) => {
            match me.kind {
                MouseEventKind::ScrollUp => scroll(m, scroll_target(m), Dir::Up(WHEEL)),
                MouseEventKind::ScrollDown => scroll(m, scroll_target(m), Dir::Down(WHEEL)),
                _ => {}
            }
            Vec::new()
        }
        Event::Resize(w, h) => {
            m.chrome.size = (w, h);
            Vec::new()
        }
        Event::Tick => on_tick(m),
        Event::StatusExpired(text) => {
            if m.chrome.status.as_ref().is_some_and(|(_, t)| *t == text) {
                m.chrome.status = None;
            }
            Vec::new()
        }
        Event::Pipeline(pe) => on_pipeline(m, pe),
        Event::SaveFailed(reason) => {
            m.chrome.status = Some((
                Level::Error,
                format!(
                    "save failed: {reason} — the session is kept in memory and saved again after the next turn"
                ),
            ));
            Vec::new()
        }
        Event::SessionsListed(items) => {
            if items.is_empty() {
                m.chrome.status = Some((Level::Info, "no saved sessions yet".into()));
            } else {
                let selected = items.iter().position(|i| i.id == m.session.id).unwrap_or(0);
                m.overlay = Some(Overlay::Sessions { items, selected });
            }
            Vec::new()
        }
        Event::SessionOpened(session) => {
            let title = if session.title.is_empty() {
                "a new session".to_string()
            } else {
                session.title.clone()
            };
            m.session = std::sync::Arc::new(*session);
            m.chat.set_input("");
            m.load_transcript();
            m.overlay = None;
            m.chrome.status = Some((Level::Info, format!("opened {title}")));
            Vec::new()
        }
        Event::Done(text) => {
            m.chrome.status = Some((Level::Info, text));
            Vec::new()
        }
        Event::Failed(text) => {
            m.chrome.status = Some((Level::Error, text));
            Vec::new()
        }
        Event::Warned(text) => {
            m.chrome.status = Some((Level::Warn, text));
            Vec::new()
        }
        // The runner records finished, failed and cancelled turns in the
        // session file itself; the session here follows for the screen.
        Event::TurnCancelled(record) => {
            push_turn(m, *record, None);
            Vec::new()
        }
        Event::AlfredCommitted { record, state } => alfred_committed(m, record, *state),
    }
}

/// `alfred watch`: a state the app committed. A new turn is shown as a
/// turn of alfred's is (its exchange in the chat, the panels' change
/// markers counted from the state before it) and kept as a record; a
/// rewrite of the same turn updates the panels.
fn alfred_committed(
    m: &mut Model,
    record: Option<Box<crate::record::TurnRecord>>,
    state: crate::context::ContextState,
) -> Vec<Effect> {
    let Some(record) = record else {
        m.session_mut().context = state;
        m.panels.set_snapshot(m.session.context.snapshot());
        m.chrome.status = Some((
            Level::Info,
            format!("Alfred updated turn {}", m.session.context.turn),
        ));
        return vec![Effect::Save];
    };
    let turn = record.turn;
    m.panels.baseline = Some(m.session.context.snapshot());
    m.chat.push_message(Role::User, record.user.clone(), turn);
    m.chat
        .push_message(Role::Alfred, record.reply.clone(), turn);
    push_turn(m, *record, Some(state));
    m.panels.set_snapshot(m.session.context.snapshot());
    m.chrome.status = Some((Level::Info, format!("Alfred committed turn {turn}")));
    vec![Effect::Save]
}

fn on_tick(m: &mut Model) -> Vec<Effect> {
    if m.turn.is_running() {
        m.turn.spinner = m.turn.spinner.wrapping_add(1);
        return Vec::new();
    }
    // Demo with --auto: type and send the next message whenever idle.
    if m.chrome
        .demo
        .as_ref()
        .is_some_and(|d| d.auto_secs.is_some())
        && m.overlay.is_none()
        && demo_next(m)
    {
        return submit(m);
    }
    Vec::new()
}

fn on_key(m: &mut Model, keymap: &Keymap, key: KeyEvent) -> Vec<Effect> {
    let ctx = m.key_context();
    if m.overlay.is_some() {
        return super::overlay_keys::on_key(m, keymap, key);
    }
    if m.chat.search.as_ref().is_some_and(|s| s.editing) {
        return search::on_key(m, keymap, key);
    }
    match keymap.action(key, ctx) {
        Some(action) => on_action(m, action),
        None if ctx.typing => {
            m.chat.history_cursor = None;
            m.chat.input.input(key);
            Vec::new()
        }
        None => Vec::new(),
    }
}

/// Carries out a user intent.
pub fn on_action(m: &mut Model, action: Action) -> Vec<Effect> {
    match action {
        Action::Submit => return submit(m),
        Action::Newline => m.chat.input.insert_newline(),
        Action::Cancel => return cancel(m),
        Action::Quit => return super::quit::quit(m),
        Action::FocusNext | Action::FocusPrev => {
            let order = Pane::ORDER;
            let i = order.iter().position(|p| *p == m.chrome.focus).unwrap_or(0);
            let next = if action == Action::FocusNext {
                (i + 1) % order.len()
            } else {
                (i + order.len() - 1) % order.len()
            };
            m.chrome.focus = order[next];
            if m.chrome.zoom.is_some() && m.chrome.focus != Pane::Input {
                m.chrome.zoom = Some(m.chrome.focus);
            }
        }
        Action::FocusChat
        | Action::FocusEntities
        | Action::FocusNarrative
        | Action::FocusHistory => {
            m.chrome.focus = match action {
                Action::FocusChat => Pane::Chat,
                Action::FocusEntities => Pane::Entities,
                Action::FocusNarrative => Pane::Narrative,
                _ => Pane::History,
            };
            if m.chrome.zoom.is_some() {
                m.chrome.zoom = Some(m.chrome.focus);
            }
        }
        Action::ScrollUp => scroll(m, scroll_target(m), Dir::Up(STEP)),
        Action::ScrollDown => scroll(m, scroll_target(m), Dir::Down(STEP)),
        Action::PageUp => scroll(m, scroll_target(m), Dir::Up(page(m))),
        Action::PageDown => scroll(m, scroll_target(m), Dir::Down(page(m))),
        Action::ScrollTop => scroll(m, scroll_target(m), Dir::Top),
        Action::ScrollBottom => scroll(m, scroll_target(m), Dir::Bottom),
        Action::Zoom => {
            let pane = scroll_target(m);
            m.chrome.zoom = if m.chrome.zoom == Some(pane) {
                None
            } else {
                Some(pane)
            };
        }
        Action::Help => m.overlay = Some(Overlay::Help { scroll: 0 }),
        Action::HistoryPrev => history(m, true),
        Action::HistoryNext => history(m, false),
        Action::Retry => return retry(m),
        Action::DemoNext => {
            if !demo_next(m) {
                // Not presenting: a space is just a space.
                m.chat.input.insert_char(' ');
            }
        }
        Action::Suggest => {
            if !m.chat.suggest() {
                m.chrome.status =
                    Some((Level::Info, "no suggestion to put in the box here".into()));
            }
        }
        Action::InspectPrev => travel::step(m, true),
        Action::InspectNext => travel::step(m, false),
        Action::Timeline => timeline::toggle(m),
        Action::Prompts => inspector::toggle(m),
        Action::WhatIf => whatif::toggle(m),
        // Cursor moves and picks of the full-screen views; nothing on panels.
        Action::MoveLeft | Action::MoveRight | Action::Filter | Action::Select => {}
        Action::Search => search::open(m),
        Action::Copy => return copy::copy(m),
        Action::SearchNext => search::jump(m, true),
        Action::SearchPrev => search::jump(m, false),
        Action::ToggleDiff => {
            m.panels.show_diff = !m.panels.show_diff;
            m.panels.entities_scroll = Default::default();
        }
    }
    Vec::new()
}

/// Up/Down in the message box: browse sent messages when the cursor is on the
/// first (Up) or last (Down) line; otherwise move the cursor.
fn history(m: &mut Model, back: bool) {
    let row = m.chat.input.cursor().0;
    let last_row = m.chat.input.lines().len().saturating_sub(1);
    let at_edge = if back { row == 0 } else { row == last_row };
    if !at_edge || m.chat.sent.is_empty() {
        let key = if back {
            crossterm::event::KeyCode::Up
        } else {
            crossterm::event::KeyCode::Down
        };
        m.chat.input.input(KeyEvent::from(key));
        return;
    }
    let (index, draft) = match m.chat.history_cursor.take() {
        Some((i, draft)) => (Some(i), draft),
        None => (None, m.chat.input_text()),
    };
    let next = match (index, back) {
        (None, true) => Some(m.chat.sent.len() - 1),
        (Some(i), true) => Some(i.saturating_sub(1)),
        (Some(i), false) if i + 1 < m.chat.sent.len() => Some(i + 1),
        _ => None,
    };
    match next {
        Some(i) => {
            let text = m.chat.sent[i].clone();
            m.chat.set_input(&text);
            m.chat.history_cursor = Some((i, draft));
        }
        None => m.chat.set_input(&draft),
    }
}

fn demo_next(m: &mut Model) -> bool {
    let Some(demo) = m.chrome.demo.as_mut() else {
        return false;
    };
    let Some(msg) = demo.messages.get(demo.next).cloned() else {
        m.chrome.status = Some((Level::Info, "the demo script is done".into()));
        return false;
    };
    demo.next += 1;
    m.chat.set_input(&msg);
    true
}

/// Sends the message in the box, or runs its slash command.
fn submit(m: &mut Model) -> Vec<Effect> {
    let text = m.chat.input_text().trim().to_string();
    if text.is_empty() {
        return Vec::new();
    }
    if text.starts_with('/') {
        m.chat.set_input("");
        return commands::run(m, &text);
    }
    if let Some(whose) = &m.chrome.watching {
        m.chrome.status = Some((
            Level::Warn,
            format!(
                "read-only: watching Alfred's conversation of {whose}; talk to Alfred in its app \
                 (slash commands such as /why work here)"
            ),
        ));
        return Vec::new();
    }
    if m.turn.is_running() {
        m.chrome.status = Some((
            Level::Warn,
            "Alfred is still working — wait, or press Esc to cancel the turn".into(),
        ));
        return Vec::new();
    }
    // Too long: said where the message is, and the message stays in the box.
    if let Some(why) = crate::pipeline::message_refused(&text) {
        m.chrome.status = Some((Level::Warn, why));
        return Vec::new();
    }
    m.chat.set_input("");
    m.chat.history_cursor = None;
    m.chat.sent.push(text.clone());
    start_turn(m, text)
}

fn start_turn(m: &mut Model, message: String) -> Vec<Effect> {
    let id = m.turn.next_id();
    let turn = m.session.context.turn + 1;
    m.chat.push_message(Role::User, message.clone(), turn);
    m.turn.state = TurnState::Running {
        id,
        message: message.clone(),
        node: None,
    };
    m.turn.bar = PipelineBar::default();
    m.chat.scroll.follow = true;
    m.chrome.status = None;
    vec![Effect::StartTurn { id, message }]
}

fn retry(m: &mut Model) -> Vec<Effect> {
    let TurnState::Failed { message, .. } = m.turn.state.clone() else {
        return Vec::new();
    };
    if m.chat.input_text().trim() == message.trim() {
        m.chat.set_input("");
    }
    start_turn(m, message)
}

/// Esc: close an overlay, else close the chat search, else leave time
/// travel, else cancel the running
/// turn (nothing of it is kept; the message returns to the box), else leave
/// zoom, else stop the demo being presented. Time travel comes before the
/// turn: the marker promises "Esc back to live", and cancelling a turn is
/// not something to do by surprise.
fn cancel(m: &mut Model) -> Vec<Effect> {
    if m.overlay.take().is_some() {
        return Vec::new();
    }
    if m.chat.search.is_some() {
        search::close(m);
        return Vec::new();
    }
    if m.panels.inspect.is_some() {
        travel::go_live(m);
        return Vec::new();
    }
    if let TurnState::Running { id, message, .. } = m.turn.state.clone() {
        // Drop the partial reply and the user's message of this turn.
        let turn = m.session.context.turn + 1;
        while m
            .chat
            .messages
            .last()
            .is_some_and(|c| c.turn == turn && c.role != Role::Note)
        {
            m.chat.messages.pop();
        }
        m.chat.sent.pop();
        m.chat.set_input(&message);
        m.turn.state = TurnState::Idle;
        m.turn.bar = PipelineBar::default();
        end_running(m);
        m.panels.set_snapshot(m.session.context.snapshot());
        m.chrome.focus = Pane::Input;
        m.chrome.status = Some((
            Level::Info,
            "turn cancelled — the kitchen and the panels are as before it; the attempt is \
             recorded as cancelled; your message is back in the box"
                .into(),
        ));
        return vec![Effect::AbortTurn { id, turn, message }];
    }
    if m.chrome.zoom.take().is_some() {
        return Vec::new();
    }
    if m.chrome.demo.take().is_some() {
        m.chrome.status = Some((
            Level::Info,
            "demo stopped — the conversation so far stays".into(),
        ));
    }
    Vec::new()
}

/// Progress of the running turn; events of other turns are ignored.
fn on_pipeline(m: &mut Model, ev: PipelineEvent) -> Vec<Effect> {
    let TurnState::Running { id, .. } = &m.turn.state else {
        return Vec::new();
    };
    if ev.id() != *id {
        return Vec::new();
    }
    match ev {
        PipelineEvent::TurnStarted { turn, .. } => {
            // Change markers count from the state this turn started from.
            let message = match &m.turn.state {
                TurnState::Running { message, .. } => message.clone(),
                _ => String::new(),
            };
            let start = m.session.context.snapshot();
            let previous = m.panels.baseline.replace(start);
            m.turn.running = Some(RunningTurn::new(turn, &message, previous));
            m.panels.set_snapshot(m.panels.snapshot.clone());
        }
        PipelineEvent::NarrativeProgress { turn, .. } => {
            if let Some(r) = &mut m.turn.running {
                r.progress(*turn);
            }
        }
        PipelineEvent::StepFinished { index, outcome, .. } => {
            if let Some(r) = &mut m.turn.running {
                r.step_finished(index, outcome);
            }
        }
        PipelineEvent::NodeStarted { node, .. } => {
            m.turn.bar.set(node, NodeStatus::Running);
            let now = std::time::Instant::now();
            m.turn.bar.node_since = Some(now);
            m.turn.bar.turn_since.get_or_insert(now);
            if let TurnState::Running { node: n, .. } = &mut m.turn.state {
                *n = Some(node);
            }
        }
        PipelineEvent::NodeFinished {
            node,
            duration_ms,
            tokens,
            ..
        } => {
            m.turn.bar.set(
                node,
                NodeStatus::Done {
                    ms: duration_ms,
                    tokens,
                },
            );
            m.turn.bar.node_since = None;
            m.turn.bar.total_tokens += tokens;
        }
        PipelineEvent::StepStarted { index, total, .. } => {
            m.turn.bar.act_step = Some((index + 1, total));
            if let Some(r) = &mut m.turn.running {
                r.step = Some(index);
            }
        }
        PipelineEvent::ToolCalled { .. } => {}
        PipelineEvent::ReplyChunk { text, .. } => {
            let turn = m.session.context.turn + 1;
            match m.chat.messages.last() {
                Some(last) if last.role == Role::Alfred && last.turn == turn => {
                    let i = m.chat.messages.len() - 1;
                    m.chat.append_to(i, &text);
                }
                _ => {
                    m.chat.push_message(Role::Alfred, text, turn);
                }
            }
        }
        PipelineEvent::ContextUpdated { snapshot, .. } => m.panels.set_snapshot(*snapshot),
        PipelineEvent::TurnDone { record, state, .. } => return turn_done(m, *record, *state),
        PipelineEvent::TurnFailed { record, .. } => return turn_failed(m, *record),
    }
    Vec::new()
}

fn turn_done(
    m: &mut Model,
    record: crate::record::TurnRecord,
    state: crate::context::ContextState,
) -> Vec<Effect> {
    let turn = record.turn;
    // The streamed text becomes the final reply.
    match m.chat.messages.last() {
        Some(last) if last.role == Role::Alfred && last.turn == turn => {
            let i = m.chat.messages.len() - 1;
            if m.chat.messages[i].text != record.reply {
                m.chat.messages[i].text.clear();
                m.chat.append_to(i, &record.reply);
            }
        }
        _ => {
            m.chat
                .push_message(Role::Alfred, record.reply.clone(), turn);
        }
    }
    for node in Node::ALL {
        if m.turn.bar.status(node) == NodeStatus::Waiting {
            m.turn.bar.set(node, NodeStatus::Skipped);
        }
    }
    m.note_cut(&record);
    m.chat.suggestions = record.suggestions.clone();
    (m.turn.bar.node_since, m.turn.bar.turn_since) = (None, None);
    m.turn.bar.total_ms = record.timings_ms.get("total").copied();
    m.turn.bar.cost_usd = record.cost_usd;
    m.turn.bar.cache = record.cache();
    m.panels.baseline = Some(m.session.context.snapshot());
    m.turn.running = None;
    push_turn(m, record, Some(state));
    m.panels.set_snapshot(m.session.context.snapshot());
    m.chrome.header.title = m.session.title.clone();
    m.turn.state = TurnState::Idle;
    Vec::new()
}

fn turn_failed(m: &mut Model, record: crate::record::TurnRecord) -> Vec<Effect> {
    let turn = record.turn;
    let reason = record
        .error
        .clone()
        .unwrap_or_else(|| "unknown reason".into());
    let message = record.user.clone();
    if m.chat
        .messages
        .last()
        .is_some_and(|c| c.role == Role::Alfred && c.turn == turn)
    {
        m.chat.messages.pop();
    }
    m.chat
        .push_message(Role::Error, format!("This turn failed: {reason}"), turn);
    end_running(m);
    push_turn(m, record, None);
    m.panels.set_snapshot(m.session.context.snapshot());
    if m.chat.input.is_empty() {
        m.chat.set_input(&message);
    }
    m.turn.state = TurnState::Failed { reason, message };
    Vec::new()
}

/// A turn that will not finish: its running block goes, and the panels'
/// change markers count from the last finished turn again.
fn end_running(m: &mut Model) {
    (m.turn.bar.node_since, m.turn.bar.turn_since) = (None, None);
    if let Some(r) = m.turn.running.take() {
        m.panels.baseline = r.previous_baseline;
    }
}

/// Follows a finished, failed or cancelled turn in the session on screen,
/// dated as the runner filed it (when it started).
fn push_turn(
    m: &mut Model,
    record: crate::record::TurnRecord,
    state: Option<crate::context::ContextState>,
) {
    let at = crate::session::ledger::filed_at(&record);
    m.session_mut().push_turn(record, state, at);
}
