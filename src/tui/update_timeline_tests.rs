//! The entity timeline through `update`: opening it over a real session,
//! moving the cell cursor, filtering by type and text, picking a turn.

use crossterm::event::KeyCode;

use super::model::{Model, Overlay, Pane};
use super::test_records;
use super::test_update::{chars, press};
use super::timeline::TimelineState;

fn state(m: &Model) -> &TimelineState {
    match &m.overlay {
        Some(Overlay::Timeline(st)) => st,
        other => panic!("the timeline is not open: {other:?}"),
    }
}

fn selected(m: &Model) -> (String, u32) {
    let (row, turn, _) = state(m).selected().expect("a cell");
    (row.r#ref.clone(), turn)
}

#[test]
fn t_opens_the_timeline_on_the_last_turn_and_arrows_move_the_cell() {
    let mut m = test_records::model(5, 120, 40);
    m.chrome.focus = Pane::Chat;
    press(&mut m, KeyCode::Char('t'));
    let st = state(&m);
    assert_eq!(st.grid.turns, vec![1, 2, 3, 4, 5]);
    assert_eq!(st.col, 4, "starts on the last turn");
    assert_eq!(selected(&m).1, 5);
    assert!(!st.why.is_empty());
    press(&mut m, KeyCode::Left);
    press(&mut m, KeyCode::Left);
    assert_eq!(selected(&m).1, 3);
    press(&mut m, KeyCode::Down);
    assert_eq!(state(&m).row, 1);
    press(&mut m, KeyCode::Char('['));
    assert_eq!(selected(&m).1, 2, "[ moves a turn back too");
    for _ in 0..9 {
        press(&mut m, KeyCode::Right);
    }
    assert_eq!(selected(&m).1, 5, "clamped at the last turn");
    press(&mut m, KeyCode::Esc);
    assert!(m.overlay.is_none());
}

#[test]
fn f_cycles_types_and_slash_filters_by_text_with_the_why_of_the_cell() {
    let mut m = test_records::model(5, 120, 40);
    m.chrome.focus = Pane::Entities;
    press(&mut m, KeyCode::Char('t'));
    let all = state(&m).shown.len();
    let types = state(&m).types.clone();
    assert_eq!(
        types.first().map(String::as_str),
        Some("recipe"),
        "{types:?}"
    );
    press(&mut m, KeyCode::Char('f'));
    assert_eq!(state(&m).type_filter(), Some("recipe"));
    assert!(state(&m).shown.len() < all);
    for _ in 0..types.len() {
        press(&mut m, KeyCode::Char('f'));
    }
    assert_eq!(state(&m).type_filter(), None, "back to all");
    assert_eq!(state(&m).shown.len(), all);
    // Text filter: "/", type, Enter keeps it.
    press(&mut m, KeyCode::Char('/'));
    assert!(state(&m).editing);
    chars(&mut m, "toast");
    press(&mut m, KeyCode::Enter);
    assert!(!state(&m).editing);
    assert_eq!(state(&m).shown.len(), 1);
    // recipe_5 at turn 3: excluded, by the user's standing constraint.
    press(&mut m, KeyCode::Left);
    press(&mut m, KeyCode::Left);
    assert_eq!(selected(&m), ("recipe_5".to_string(), 3));
    let why = &state(&m).why;
    assert!(
        why.contains("excluded at turn 3") && why.contains("the french toast"),
        "{why}"
    );
    // q typed into the filter is text, not quit.
    press(&mut m, KeyCode::Char('/'));
    chars(&mut m, "q");
    assert!(!m.chrome.quitting);
    assert_eq!(state(&m).shown.len(), 0);
    press(&mut m, KeyCode::Esc);
    assert_eq!(state(&m).text.text(), "", "Esc clears the text filter");
    assert_eq!(state(&m).shown.len(), all);
}

#[test]
fn enter_shows_the_picked_turn_in_the_panels() {
    let mut m = test_records::model(5, 120, 40);
    m.chrome.focus = Pane::Entities;
    press(&mut m, KeyCode::Char('t'));
    press(&mut m, KeyCode::Left);
    press(&mut m, KeyCode::Enter);
    assert!(m.overlay.is_none());
    assert_eq!(m.panels.inspect.as_ref().map(|i| i.turn), Some(4));
    // Reopened while inspecting: the cursor starts on the inspected turn.
    press(&mut m, KeyCode::Char('t'));
    assert_eq!(selected(&m).1, 4);
    press(&mut m, KeyCode::Char('t'));
    assert!(m.overlay.is_none(), "t closes it again");
}

#[test]
fn an_empty_session_has_no_timeline_yet() {
    let mut m = test_records::model(0, 120, 40);
    m.chrome.focus = Pane::Chat;
    press(&mut m, KeyCode::Char('t'));
    assert!(m.overlay.is_none());
    assert!(
        m.chrome
            .status
            .as_ref()
            .is_some_and(|s| s.1.contains("no turns yet"))
    );
}
