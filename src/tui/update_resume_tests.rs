//! Keys where you need them and a faithful resume: the footer names the keys
//! that work where the focus is, a failed turn's hint names the key that
//! retries from there, and a reopened session shows its last turn as it
//! ended (its bar, or its failure with the message back in the box).

use crossterm::event::KeyCode;

use crate::pipeline::{Node, TurnId};
use crate::record::{TurnRecord, TurnStatus};
use crate::tui::model::{Demo, Model, NodeStatus, Overlay, Pane, TurnState};
use crate::tui::theme::Theme;
use crate::tui::view::KeyHelp;
use crate::tui::view::footer::footer_hints;
use crate::tui::view::test_support::render_frame;

use super::effect::Effect;
use super::test_records;
use super::test_update::{ctrl, press};

fn footer(m: &Model) -> String {
    footer_hints(m, &KeyHelp::default())
        .iter()
        .map(|(k, w)| {
            if w.is_empty() {
                k.clone()
            } else {
                format!("{k} {w}")
            }
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A session of two good turns and a third that failed.
fn failed_session() -> crate::session::SessionFile {
    let mut session = test_records::session(2);
    let record = TurnRecord {
        turn: 3,
        user: "plan the cod for friday".into(),
        status: TurnStatus::Failed,
        error: Some("cancelled by the user".into()),
        ..TurnRecord::default()
    };
    let now: jiff::Timestamp = "2026-01-13T10:05:00Z".parse().unwrap();
    session.push_turn(record, None, now);
    session
}

#[test]
fn the_footer_follows_the_focus() {
    let mut m = test_records::model(2, 120, 40);
    let typing = footer(&m);
    assert!(
        typing.starts_with(
            "Enter send · Alt+Enter new line · ↑ last message · Ctrl+S suggestion · /help commands · Tab focus"
        ),
        "{typing}"
    );
    m.chrome.focus = Pane::Entities;
    let entities = footer(&m);
    for hint in [
        "↑/↓ scroll",
        "d diff",
        "t timeline",
        "p prompts",
        "w what-if",
        "[/] turns",
        "y copy",
        "z zoom",
        "? help",
        "q quit",
    ] {
        assert!(entities.contains(hint), "{hint} missing: {entities}");
    }
    assert!(!entities.contains("Enter send"), "{entities}");
    m.chrome.focus = Pane::Chat;
    let chat = footer(&m);
    assert!(
        chat.contains("/ search") && chat.contains("y copy message"),
        "{chat}"
    );
    assert!(!chat.contains("d diff"), "{chat}");
    press(&mut m, KeyCode::Char('z'));
    assert!(footer(&m).contains("z unzoom"), "{}", footer(&m));
    m.overlay = Some(Overlay::Help { scroll: 0 });
    assert_eq!(footer(&m), "↑/↓ scroll · PgUp/PgDn page · Esc close");
}

#[test]
fn a_failed_turn_names_the_key_that_retries_from_where_the_focus_is() {
    let mut m = Model::new(failed_session(), "offline", Theme::dark());
    m.chrome.size = (120, 40);
    assert!(footer(&m).starts_with("Ctrl+R retry"), "{}", footer(&m));
    let screen = render_frame(&m, 120, 40);
    assert!(screen.contains("press Ctrl+R to retry"), "{screen}");
    assert!(!screen.contains("press r to retry"), "{screen}");
    m.chrome.focus = Pane::History;
    assert!(footer(&m).starts_with("r retry"), "{}", footer(&m));
    let screen = render_frame(&m, 120, 40);
    assert!(screen.contains("press r to retry"), "{screen}");
    // Typing, `r` is a letter: the retry is Ctrl+R, as the hint said.
    m.chrome.focus = Pane::Input;
    let effects = ctrl(&mut m, 'r');
    assert_eq!(
        effects,
        vec![Effect::StartTurn {
            id: TurnId(1),
            message: "plan the cod for friday".into()
        }]
    );
}

#[test]
fn a_reopened_session_whose_last_turn_failed_has_its_message_back_and_retries() {
    let m = Model::new(failed_session(), "offline", Theme::dark());
    assert_eq!(m.chat.input_text(), "plan the cod for friday");
    assert!(
        matches!(&m.turn.state, TurnState::Failed { reason, .. } if reason == "cancelled by the user"),
        "{:?}",
        m.turn.state
    );
}

#[test]
fn a_reopened_session_shows_its_last_turn_bar_with_the_tokens_it_spent() {
    let m = test_records::model(3, 120, 40);
    let record = m.session.transcript.last().unwrap();
    assert_eq!(m.turn.state, TurnState::Idle);
    assert_eq!(m.chat.input_text(), "");
    for node in [Node::Understand, Node::Think, Node::Reply] {
        assert!(
            matches!(m.turn.bar.status(node), NodeStatus::Done { tokens, .. } if tokens > 0),
            "{node:?}: {:?}",
            m.turn.bar.status(node)
        );
    }
    // What the live bar added up node by node is the turn's usage.
    assert_eq!(
        m.turn.bar.total_tokens,
        record.usage.prompt_tokens + record.usage.completion_tokens
    );
    assert_eq!(m.turn.bar.total_ms, Some(26.0));
    let screen = render_frame(&m, 120, 40);
    assert!(screen.contains("Understand ✓ 12ms"), "{screen}");
    // The change markers of the last turn are back too.
    assert!(m.panels.diff.is_some(), "the diff against the turn before");
}

#[test]
fn a_demo_shows_its_progress_and_esc_stops_it() {
    let mut m = test_records::model(0, 120, 40);
    m.chrome.demo = Some(Demo {
        messages: vec!["one".into(), "two".into(), "three".into()],
        next: 1,
        auto_secs: None,
    });
    let f = footer(&m);
    assert!(
        f.starts_with("DEMO 1/3 · Space next line · Esc stop demo · Enter send"),
        "{f}"
    );
    press(&mut m, KeyCode::Esc);
    assert!(m.chrome.demo.is_none(), "Esc stopped the demo");
    assert!(!footer(&m).contains("DEMO"), "{}", footer(&m));
}

#[test]
fn after_end_a_step_up_moves_the_panel_at_once() {
    let mut m = test_records::model(3, 120, 30);
    m.chrome.focus = Pane::Entities;
    let (total, height) = crate::tui::view::panel_extent(&m, Pane::Entities).expect("on screen");
    assert!(
        total > height + 2,
        "the panel scrolls: {total} lines in {height}"
    );
    press(&mut m, KeyCode::End);
    assert_eq!(
        m.panels.entities_scroll.offset,
        total - height,
        "at the bottom"
    );
    let bottom = render_frame(&m, 120, 30);
    press(&mut m, KeyCode::Up);
    assert_eq!(m.panels.entities_scroll.offset, total - height - 1);
    assert_ne!(render_frame(&m, 120, 30), bottom, "one step up shows");
    // History is anchored at its newest turn: Home goes to the oldest, and
    // Down comes back from there at once.
    m.chrome.focus = Pane::History;
    let (total, height) = crate::tui::view::panel_extent(&m, Pane::History).expect("on screen");
    assert!(
        total > height + 1,
        "history scrolls: {total} lines in {height}"
    );
    press(&mut m, KeyCode::Home);
    assert_eq!(m.panels.history_scroll.offset, total - height);
    press(&mut m, KeyCode::Down);
    assert_eq!(m.panels.history_scroll.offset, total - height - 1);
}

#[test]
fn clear_counts_what_it_forgot_and_squares_it_with_the_panel() {
    for (turns, drop_first) in [(1, false), (3, false), (3, true), (5, true)] {
        let mut m = test_records::model(turns, 120, 40);
        if drop_first {
            // Something let go earlier in the turn, as "forget that" does.
            let r = m.panels.snapshot.entities.recent[0].r#ref.clone();
            let c = crate::context::EntityCuration {
                drop: vec![crate::context::RefDecision {
                    r#ref: r,
                    reason: "forget that".into(),
                }],
                ..Default::default()
            };
            m.session_mut().context.apply_curation(&c);
            m.panels.set_snapshot(m.session.context.snapshot());
            assert_eq!(m.panels.snapshot.entities.dropped.len(), 1);
        }
        let live = m.panels.snapshot.entities.all().count();
        let dropped_before = m.panels.snapshot.entities.dropped.len();
        super::commands::run(&mut m, "/clear");
        let said = m
            .chrome
            .status
            .as_ref()
            .map(|s| s.1.clone())
            .unwrap_or_default();
        assert!(
            said.starts_with(&format!("started fresh: {live} entities forgotten")),
            "turn {turns}: {said}"
        );
        let dropped = m.panels.snapshot.entities.dropped.len();
        assert_eq!(dropped, live + dropped_before, "turn {turns}");
        if dropped_before > 0 {
            assert!(
                said.contains(&format!("the panel's {dropped} dropped")),
                "turn {turns}: {said}"
            );
        } else {
            assert!(!said.contains("panel"), "turn {turns}: {said}");
        }
    }
}

#[test]
fn why_notes_are_kept_with_the_session_and_come_back_in_place() {
    let mut m = test_records::model(3, 120, 40);
    let effects = super::commands::run(&mut m, "/why recipe_1");
    assert_eq!(effects, vec![Effect::Save], "the note is saved");
    let note = m.chat.messages.last().expect("the note").clone();
    assert_eq!(note.role, crate::tui::model::Role::Note);
    assert!(note.text.contains("recipe_1"), "{}", note.text);
    assert_eq!(m.session.notes.len(), 1);
    // Reopened, with a later turn after the note: the note sits between.
    let mut session = (*m.session).clone();
    let (record, state) = test_records::meal_planning()[3].clone();
    session.push_turn(record, Some(state), "2026-01-13T10:09:00Z".parse().unwrap());
    let reopened = Model::new(session, "offline", Theme::dark());
    let at = reopened
        .chat
        .messages
        .iter()
        .position(|c| c.text == note.text)
        .expect("the note is back");
    assert_eq!(
        reopened.chat.messages[at - 1].turn,
        3,
        "after turn 3's reply"
    );
    assert_eq!(
        reopened.chat.messages[at + 1].turn,
        4,
        "before turn 4's message"
    );
}
