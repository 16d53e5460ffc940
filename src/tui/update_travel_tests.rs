//! Time travel through `update`: keys move the inspected turn over the
//! stored snapshots of a real (offline-brain) meal-planning session.

use crossterm::event::{KeyCode, KeyModifiers};

use super::model::{Model, Pane};
use super::test_records;
use super::test_update::press_with;

fn shown(m: &Model) -> Option<u32> {
    m.panels.inspect.as_ref().map(|i| i.turn)
}

#[test]
fn brackets_walk_the_stored_turns_and_esc_returns_to_live() {
    let mut m = test_records::model(3, 120, 40);
    m.chrome.focus = Pane::Entities;
    assert_eq!(m.panels.shown_snapshot().turn, 3);
    press_with(&mut m, KeyCode::Char('['), KeyModifiers::NONE);
    assert_eq!(shown(&m), Some(2));
    assert_eq!(m.panels.shown_snapshot().turn, 2);
    // Turn 2 read the recipes: they are new against turn 1.
    let d = m.panels.shown_diff().expect("a diff");
    assert_eq!((d.from_turn, d.to_turn), (1, 2));
    assert!(d.change_of("recipe_5").is_some(), "{d:?}");
    press_with(&mut m, KeyCode::Char('['), KeyModifiers::NONE);
    assert_eq!(shown(&m), Some(1));
    assert_eq!(m.panels.shown_diff().map(|d| d.from_turn), Some(0));
    // The chat shows the same turn: its message at the top of the view.
    let top = crate::tui::scroll::chat_top_message(&mut m)
        .map(|i| (m.chat.messages[i].role, m.chat.messages[i].turn));
    assert_eq!(top, Some((super::model::Role::User, 1)));
    press_with(&mut m, KeyCode::Char('['), KeyModifiers::NONE);
    assert_eq!(shown(&m), Some(1), "nothing before the first turn");
    assert!(
        m.chrome
            .status
            .as_ref()
            .is_some_and(|s| s.1.contains("first"))
    );
    press_with(&mut m, KeyCode::Char(']'), KeyModifiers::NONE);
    assert_eq!(shown(&m), Some(2));
    press_with(&mut m, KeyCode::Char(']'), KeyModifiers::NONE);
    assert_eq!(shown(&m), None, "past the last stored turn: live");
    press_with(&mut m, KeyCode::Char('['), KeyModifiers::NONE);
    assert_eq!(shown(&m), Some(2));
    press_with(&mut m, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(shown(&m), None);
    assert_eq!(m.panels.shown_snapshot().turn, 3);
    assert!(
        m.chat.scroll.follow,
        "live again: the chat follows its bottom"
    );
}

#[test]
fn alt_arrows_travel_while_typing_and_failed_turns_are_skipped() {
    let mut m = test_records::model(3, 120, 40);
    // A failed turn recorded between turns 1 and 2 stores no context.
    let failed = crate::record::TurnRecord {
        turn: 2,
        user: "boom".into(),
        status: crate::record::TurnStatus::Failed,
        error: Some("cancelled by the user".into()),
        ..Default::default()
    };
    m.session_mut().transcript.insert(1, failed);
    assert_eq!(m.chrome.focus, Pane::Input);
    press_with(&mut m, KeyCode::Left, KeyModifiers::ALT);
    assert_eq!(shown(&m), Some(2));
    assert_eq!(m.panels.inspect.as_ref().map(|i| i.index), Some(2));
    press_with(&mut m, KeyCode::Left, KeyModifiers::ALT);
    assert_eq!(m.panels.inspect.as_ref().map(|i| i.index), Some(0));
    assert_eq!(m.panels.shown_diff().map(|d| d.to_turn), Some(1));
    press_with(&mut m, KeyCode::Right, KeyModifiers::ALT);
    assert_eq!(m.panels.inspect.as_ref().map(|i| i.index), Some(2));
    assert_eq!(
        m.panels.shown_diff().map(|d| (d.from_turn, d.to_turn)),
        Some((1, 2)),
        "the diff skips the failed turn"
    );
    // `[` in the message box is text, not travel.
    press_with(&mut m, KeyCode::Char('['), KeyModifiers::NONE);
    assert_eq!(m.chat.input_text(), "[");
    assert_eq!(m.panels.inspect.as_ref().map(|i| i.index), Some(2));
}

#[test]
fn a_new_session_has_nothing_to_travel_to() {
    let mut m = test_records::model(0, 120, 40);
    m.chrome.focus = Pane::Chat;
    press_with(&mut m, KeyCode::Char('['), KeyModifiers::NONE);
    assert_eq!(shown(&m), None);
    assert!(
        m.chrome
            .status
            .as_ref()
            .is_some_and(|s| s.1.contains("no earlier turn"))
    );
}

#[test]
fn d_toggles_the_diff_in_place_of_entities() {
    let mut m = test_records::model(3, 120, 40);
    press_with(&mut m, KeyCode::Char('d'), KeyModifiers::NONE);
    assert!(!m.panels.show_diff, "d is text in the message box");
    assert_eq!(m.chat.input_text(), "d");
    press_with(&mut m, KeyCode::Char('d'), KeyModifiers::ALT);
    assert!(m.panels.show_diff, "Alt+D works while typing");
    m.chrome.focus = Pane::History;
    press_with(&mut m, KeyCode::Char('d'), KeyModifiers::NONE);
    assert!(!m.panels.show_diff);
    press_with(&mut m, KeyCode::Char('d'), KeyModifiers::NONE);
    assert!(m.panels.show_diff);
    // Esc leaves time travel but keeps the diff on.
    press_with(&mut m, KeyCode::Char('['), KeyModifiers::NONE);
    press_with(&mut m, KeyCode::Esc, KeyModifiers::NONE);
    assert!(m.panels.inspect.is_none() && m.panels.show_diff);
}
