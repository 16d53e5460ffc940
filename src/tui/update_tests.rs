//! Update transitions, with no terminal: keys in, model and effects out.

use crossterm::event::{KeyCode, KeyModifiers};

use crate::context::{ContextPolicy, ContextState, RefAction, Table};
use crate::pipeline::{Node, PipelineEvent, TurnId};
use crate::record::{TurnRecord, TurnStatus};

use super::action::Action;
use super::effect::Effect;
use super::event::Event;
use super::keymap::Keymap;
use super::model::{Level, NodeStatus, Overlay, Pane, Role, TurnState};
use super::test_update::{chars, model, pipe, press_with, send};
use super::update::update;

fn done_record(turn: u32, user: &str, reply: &str) -> (TurnRecord, ContextState) {
    let mut state = ContextState::new(ContextPolicy::default());
    state.begin_turn();
    state.registry.register_row(
        Table::Recipes,
        "r-1",
        "Chai French Toast",
        RefAction::Read,
        turn,
    );
    let mut record = TurnRecord {
        turn,
        user: user.into(),
        reply: reply.into(),
        started_at: "2026-01-13T10:00:01Z".into(),
        ..TurnRecord::default()
    };
    record.set_snapshot(state.snapshot());
    (record, state)
}

#[test]
fn a_message_over_the_limit_stays_in_the_box_with_the_reason() {
    let mut m = model();
    let paste = "eggs ".repeat(crate::pipeline::MAX_MESSAGE_BYTES / 5 + 100);
    m.chat.set_input(&paste);
    let effects = press_with(&mut m, KeyCode::Enter, KeyModifiers::NONE);
    assert!(effects.is_empty(), "nothing sent: {effects:?}");
    assert!(m.chat.input_text() == paste, "the message stays in the box");
    assert!(
        matches!(m.turn.state, TurnState::Idle),
        "{:?}",
        m.turn.state
    );
    let (level, text) = m.chrome.status.clone().expect("a reason");
    assert_eq!(level, Level::Warn);
    assert!(
        text.contains("at most 32 KiB") && text.contains("nothing was sent"),
        "{text}"
    );
    // At the limit it goes.
    m.chat
        .set_input(&"e".repeat(crate::pipeline::MAX_MESSAGE_BYTES));
    let effects = press_with(&mut m, KeyCode::Enter, KeyModifiers::NONE);
    assert!(
        matches!(effects.as_slice(), [Effect::StartTurn { .. }]),
        "{effects:?}"
    );
}

#[test]
fn enter_sends_and_the_reply_streams_into_the_chat() {
    let mut m = model();
    let effects = send(&mut m, "no cod this week");
    let id = TurnId(1);
    assert_eq!(
        effects,
        vec![Effect::StartTurn {
            id,
            message: "no cod this week".into()
        }]
    );
    assert_eq!(m.chat.input_text(), "");
    assert!(matches!(m.turn.state, TurnState::Running { .. }));
    assert_eq!(
        m.chat.messages.last().map(|c| (c.role, c.text.as_str())),
        Some((Role::User, "no cod this week"))
    );

    pipe(
        &mut m,
        PipelineEvent::NodeStarted {
            id,
            node: Node::Understand,
        },
    );
    assert_eq!(m.turn.bar.status(Node::Understand), NodeStatus::Running);
    pipe(
        &mut m,
        PipelineEvent::ReplyChunk {
            id,
            text: "Here are ".into(),
        },
    );
    pipe(
        &mut m,
        PipelineEvent::ReplyChunk {
            id: TurnId(99),
            text: "STALE".into(),
        },
    );
    pipe(
        &mut m,
        PipelineEvent::ReplyChunk {
            id,
            text: "6 recipes.".into(),
        },
    );
    assert_eq!(
        m.chat.messages.last().map(|c| (c.role, c.text.as_str())),
        Some((Role::Alfred, "Here are 6 recipes."))
    );

    let (record, state) = done_record(1, "no cod this week", "Here are 6 recipes.");
    let effects = pipe(
        &mut m,
        PipelineEvent::TurnDone {
            id,
            record: Box::new(record),
            state: Box::new(state),
        },
    );
    // The runner saved the turn before announcing it: nothing more to do.
    assert_eq!(effects, vec![]);
    assert_eq!(m.turn.state, TurnState::Idle);
    assert_eq!(m.session.transcript.len(), 1);
    assert_eq!(m.session.title, "no cod this week");
    assert_eq!(
        m.panels.snapshot.entities.recent.len(),
        1,
        "the panels show the new state"
    );
    assert_eq!(m.turn.bar.status(Node::Think), NodeStatus::Skipped);
    assert_eq!(m.chat.messages.len(), 2);
}

#[test]
fn a_failed_turn_is_shown_and_can_be_retried() {
    let mut m = model();
    send(&mut m, "add eggs");
    let mut record = TurnRecord {
        turn: 1,
        user: "add eggs".into(),
        status: TurnStatus::Failed,
        ..TurnRecord::default()
    };
    record.error = Some("reply failed: the model server did not answer in time".into());
    let effects = pipe(
        &mut m,
        PipelineEvent::TurnFailed {
            id: TurnId(1),
            record: Box::new(record),
        },
    );
    assert_eq!(effects, vec![]);
    let last = m.chat.messages.last().unwrap();
    assert_eq!(last.role, Role::Error);
    assert!(
        last.text.contains("did not answer in time"),
        "{}",
        last.text
    );
    assert!(matches!(&m.turn.state, TurnState::Failed { message, .. } if message == "add eggs"));
    assert_eq!(m.session.transcript.len(), 1, "the failure is recorded");
    assert_eq!(m.session.context.turn, 0, "and changes nothing else");
    let effects = press_with(&mut m, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert_eq!(
        effects,
        vec![Effect::StartTurn {
            id: TurnId(2),
            message: "add eggs".into()
        }]
    );
    assert_eq!(m.chat.input_text(), "", "the retried message left the box");
}

#[test]
fn esc_cancels_the_turn_and_returns_the_message() {
    let mut m = model();
    send(&mut m, "plan my week");
    pipe(
        &mut m,
        PipelineEvent::ReplyChunk {
            id: TurnId(1),
            text: "Sure, ".into(),
        },
    );
    let effects = press_with(&mut m, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(
        effects,
        vec![Effect::AbortTurn {
            id: TurnId(1),
            turn: 1,
            message: "plan my week".into()
        }]
    );
    assert_eq!(m.chat.input_text(), "plan my week");
    assert!(m.chat.messages.is_empty(), "nothing of the turn is kept");
    // The runner records the attempt as cancelled: the status says so
    // rather than that nothing was kept.
    let status = m
        .chrome
        .status
        .as_ref()
        .map(|(_, s)| s.as_str())
        .unwrap_or_default();
    assert!(
        status.contains("the attempt is recorded as cancelled"),
        "{status}"
    );
    assert!(!status.contains("nothing was kept"), "{status}");
    assert_eq!(m.turn.state, TurnState::Idle);
    // Late events of the cancelled turn are ignored.
    pipe(
        &mut m,
        PipelineEvent::ReplyChunk {
            id: TurnId(1),
            text: "late".into(),
        },
    );
    assert!(m.chat.messages.is_empty());
}

#[test]
fn sending_while_a_turn_runs_is_refused_with_a_hint() {
    let mut m = model();
    send(&mut m, "first");
    let effects = send(&mut m, "second");
    assert!(effects.is_empty());
    assert!(matches!(&m.chrome.status, Some((Level::Warn, s)) if s.contains("Esc")));
    assert_eq!(
        m.chat.input_text(),
        "second",
        "the message stays in the box"
    );
}

#[test]
fn keys_move_focus_zoom_open_help_and_quit() {
    let mut m = model();
    press_with(&mut m, KeyCode::Char('?'), KeyModifiers::NONE);
    assert_eq!(
        m.overlay,
        Some(Overlay::Help { scroll: 0 }),
        "? on an empty box opens help"
    );
    press_with(&mut m, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(m.overlay, None);
    chars(&mut m, "why?");
    assert_eq!(m.chat.input_text(), "why?", "? is text once typing");
    press_with(&mut m, KeyCode::Tab, KeyModifiers::NONE);
    press_with(&mut m, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(m.chrome.focus, Pane::Entities);
    press_with(&mut m, KeyCode::Char('z'), KeyModifiers::NONE);
    assert_eq!(m.chrome.zoom, Some(Pane::Entities));
    press_with(&mut m, KeyCode::Char('j'), KeyModifiers::NONE);
    assert_eq!(
        m.panels.entities_scroll.offset, 0,
        "j on a panel whose content fits: nothing to scroll"
    );
    press_with(&mut m, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(m.chrome.zoom, None);
    let effects = press_with(&mut m, KeyCode::Char('q'), KeyModifiers::NONE);
    assert_eq!(effects, vec![Effect::Quit]);
    assert!(m.chrome.quitting);
}

#[test]
fn up_and_down_browse_sent_messages_and_keep_the_draft() {
    let mut m = model();
    m.chat.sent = vec!["one".into(), "two".into()];
    chars(&mut m, "draft");
    press_with(&mut m, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(m.chat.input_text(), "two");
    press_with(&mut m, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(m.chat.input_text(), "one");
    press_with(&mut m, KeyCode::Down, KeyModifiers::NONE);
    press_with(&mut m, KeyCode::Down, KeyModifiers::NONE);
    assert_eq!(m.chat.input_text(), "draft");
}

#[test]
fn alt_enter_adds_a_line_and_paste_keeps_newlines() {
    let mut m = model();
    chars(&mut m, "a");
    press_with(&mut m, KeyCode::Enter, KeyModifiers::ALT);
    chars(&mut m, "b");
    update(
        &mut m,
        &Keymap::default_keys(),
        Event::Paste("\r\nc\r\nd".into()),
    );
    assert_eq!(m.chat.input_text(), "a\nb\nc\nd");
    let big = "x".repeat(1_000_000);
    update(&mut m, &Keymap::default_keys(), Event::Paste(big));
    assert!(m.chat.input_text().len() > 1_000_000);
}

#[test]
fn slash_commands_rename_pin_and_explain() {
    let mut m = model();
    assert_eq!(send(&mut m, "/rename Weekly planning"), vec![Effect::Save]);
    assert_eq!(m.session.title, "Weekly planning");
    assert!(send(&mut m, "/pin recipe_9").is_empty());
    assert!(matches!(&m.chrome.status, Some((Level::Warn, s)) if s.contains("no entity recipe_9")));
    m.session_mut().context.registry.register_row(
        Table::Recipes,
        "r-1",
        "Chai French Toast",
        RefAction::Read,
        1,
    );
    m.session_mut().context.turn = 1;
    assert_eq!(send(&mut m, "/pin recipe_1"), vec![Effect::Save]);
    assert!(m.panels.snapshot.entities.recent[0].pinned);
    send(&mut m, "/why recipe_1");
    let note = m.chat.messages.last().unwrap();
    assert_eq!(note.role, Role::Note);
    assert!(
        note.text.contains("recipe_1 (Chai French Toast)"),
        "{}",
        note.text
    );
    assert_eq!(
        send(&mut m, "/export json"),
        vec![Effect::Export { markdown: false }]
    );
    assert_eq!(send(&mut m, "/sessions"), vec![Effect::ListSessions]);
    send(&mut m, "/frobnicate");
    assert!(matches!(&m.chrome.status, Some((Level::Warn, s)) if s.contains("unknown command")));
}

#[test]
fn demo_mode_types_the_next_message_on_space() {
    let mut m = model();
    m.chrome.demo = Some(super::model::Demo {
        messages: vec!["hello".into(), "no cod".into()],
        next: 0,
        auto_secs: None,
    });
    press_with(&mut m, KeyCode::Char(' '), KeyModifiers::NONE);
    assert_eq!(m.chat.input_text(), "hello");
    // With text in the box, space is a space.
    press_with(&mut m, KeyCode::Char(' '), KeyModifiers::NONE);
    assert_eq!(m.chat.input_text(), "hello ");
    assert_eq!(
        super::update::on_action(&mut m, Action::Submit),
        vec![Effect::StartTurn {
            id: TurnId(1),
            message: "hello".into()
        }]
    );
}

#[test]
fn the_help_window_scrolls_and_closes() {
    let mut m = model();
    press_with(&mut m, KeyCode::F(1), KeyModifiers::NONE);
    assert_eq!(m.overlay, Some(Overlay::Help { scroll: 0 }));
    press_with(&mut m, KeyCode::Down, KeyModifiers::NONE);
    press_with(&mut m, KeyCode::Down, KeyModifiers::NONE);
    press_with(&mut m, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(m.overlay, Some(Overlay::Help { scroll: 1 }));
    press_with(&mut m, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(m.overlay, None);
    assert_eq!(
        m.chrome.focus,
        Pane::Input,
        "closing help does not move the focus"
    );
}

#[test]
fn enter_is_the_select_action_in_the_help_and_the_session_picker() {
    use super::model::SessionItem;
    let mut m = model();
    press_with(&mut m, KeyCode::F(1), KeyModifiers::NONE);
    press_with(&mut m, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(m.overlay, None, "Enter closes the help");
    let item = |id: &str| SessionItem {
        id: id.into(),
        title: id.into(),
        turns: 1,
        updated: String::new(),
    };
    let items = vec![item(&m.session.id.clone()), item("20260101-090000-beef")];
    update(
        &mut m,
        &Keymap::default_keys(),
        Event::SessionsListed(items),
    );
    press_with(&mut m, KeyCode::Down, KeyModifiers::NONE);
    let effects = press_with(&mut m, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(
        effects,
        vec![Effect::OpenSession("20260101-090000-beef".into())]
    );
    assert_eq!(m.overlay, None);
}

#[test]
fn alt_numbers_focus_a_panel_from_anywhere_and_numbers_from_a_panel() {
    let mut m = model();
    assert_eq!(m.chrome.focus, Pane::Input);
    press_with(&mut m, KeyCode::Char('2'), KeyModifiers::ALT);
    assert_eq!(m.chrome.focus, Pane::Entities);
    press_with(&mut m, KeyCode::Char('3'), KeyModifiers::NONE);
    assert_eq!(m.chrome.focus, Pane::Narrative);
    press_with(&mut m, KeyCode::Char('4'), KeyModifiers::NONE);
    assert_eq!(m.chrome.focus, Pane::History);
    press_with(&mut m, KeyCode::Char('1'), KeyModifiers::NONE);
    assert_eq!(m.chrome.focus, Pane::Chat);
    // While typing, a plain digit is text.
    press_with(&mut m, KeyCode::Tab, KeyModifiers::NONE);
    while m.chrome.focus != Pane::Input {
        press_with(&mut m, KeyCode::Tab, KeyModifiers::NONE);
    }
    press_with(&mut m, KeyCode::Char('2'), KeyModifiers::NONE);
    assert_eq!(
        (m.chrome.focus, m.chat.input_text().as_str()),
        (Pane::Input, "2")
    );
}

#[test]
fn a_warning_from_off_the_chat_path_is_a_warning_line() {
    let mut m = model();
    let effects = update(
        &mut m,
        &Keymap::default_keys(),
        Event::Warned("traces not sent to 127.0.0.1:9: network error — see the log".into()),
    );
    assert!(effects.is_empty());
    assert_eq!(
        m.chrome.status,
        Some((
            Level::Warn,
            "traces not sent to 127.0.0.1:9: network error — see the log".to_string()
        ))
    );
}
