//! The prompt inspector through `update`: opening it on the turn shown,
//! choosing prompts, moving over parts, folding, changing turns.

use crossterm::event::KeyCode;

use super::inspector::{InspectorState, slots};
use super::model::{Model, Overlay, Pane};
use super::test_records;
use super::test_update::press;

fn state(m: &Model) -> &InspectorState {
    match &m.overlay {
        Some(Overlay::Inspector(st)) => st,
        other => panic!("the inspector is not open: {other:?}"),
    }
}

fn label(m: &Model) -> String {
    let st = state(m);
    let record = &m.session.transcript[st.index];
    st.current(record).map(|(l, _)| l).unwrap_or_default()
}

#[test]
fn p_opens_the_latest_turn_and_arrows_choose_prompts_and_parts() {
    let mut m = test_records::model(3, 120, 40);
    m.chrome.focus = Pane::Chat;
    press(&mut m, KeyCode::Char('p'));
    assert_eq!(state(&m).index, 2, "the live turn's record");
    assert_eq!(label(&m), "Understand");
    assert!(
        state(&m).is_open(0) && !state(&m).is_open(1),
        "only the cursor's part"
    );
    press(&mut m, KeyCode::Right);
    assert_eq!(label(&m), "Think");
    press(&mut m, KeyCode::Down);
    assert_eq!(state(&m).cursor, 1);
    assert!(
        !state(&m).is_open(0) && state(&m).is_open(1),
        "the open part follows"
    );
    // Enter folds the cursor's part; again opens it and keeps it open.
    press(&mut m, KeyCode::Enter);
    assert!(!state(&m).is_open(1));
    press(&mut m, KeyCode::Enter);
    assert!(state(&m).is_open(1));
    press(&mut m, KeyCode::Down);
    assert!(
        state(&m).is_open(1) && state(&m).is_open(2),
        "opened parts stay open"
    );
    // The cursor stops at the response, the last part.
    let record = m.session.transcript[2].clone();
    let parts = state(&m)
        .current(&record)
        .map(|(_, p)| p.full.sections.len() + 2);
    for _ in 0..20 {
        press(&mut m, KeyCode::Down);
    }
    assert_eq!(Some(state(&m).cursor + 1), parts);
    // Past the last prompt nothing moves; another prompt folds all again.
    let n = slots(&record).len();
    for _ in 0..n + 3 {
        press(&mut m, KeyCode::Right);
    }
    assert_eq!(state(&m).selected, n - 1);
    assert_eq!(state(&m).cursor, 0);
    assert!(state(&m).opened.is_empty());
    press(&mut m, KeyCode::Esc);
    assert!(m.overlay.is_none());
}

#[test]
fn brackets_change_the_turn_and_the_inspected_turn_is_the_start() {
    let mut m = test_records::model(3, 120, 40);
    m.chrome.focus = Pane::Entities;
    press(&mut m, KeyCode::Char('['));
    press(&mut m, KeyCode::Char('['));
    assert_eq!(m.panels.inspect.as_ref().map(|i| i.turn), Some(1));
    press(&mut m, KeyCode::Char('p'));
    assert_eq!(state(&m).index, 0);
    press(&mut m, KeyCode::Char(']'));
    assert_eq!(state(&m).index, 1);
    press(&mut m, KeyCode::Char(']'));
    press(&mut m, KeyCode::Char(']'));
    assert_eq!(state(&m).index, 2, "clamped at the last turn");
    press(&mut m, KeyCode::PageDown);
    assert!(state(&m).scroll > 0);
    press(&mut m, KeyCode::Char('p'));
    assert!(m.overlay.is_none(), "p closes it");
}

#[test]
fn nothing_to_inspect_before_the_first_turn() {
    let mut m = test_records::model(0, 120, 40);
    m.chrome.focus = Pane::Chat;
    press(&mut m, KeyCode::Char('p'));
    assert!(m.overlay.is_none());
    assert!(
        m.chrome
            .status
            .as_ref()
            .is_some_and(|s| s.1.contains("no prompts yet"))
    );
}
