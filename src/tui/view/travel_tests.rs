//! Time travel on screen: a resumed meal-planning session (real records of
//! the offline brain) viewed at an earlier turn.

use super::test_support::render_frame;
use crate::tui::model::Pane;
use crate::tui::test_records;
use crate::tui::travel;

#[test]
fn viewing_turn_2_of_3_marks_the_title_the_panels_and_the_hints() {
    let mut m = test_records::model(3, 120, 40);
    m.chrome.focus = Pane::Entities;
    travel::step(&mut m, true);
    let screen = render_frame(&m, 120, 40);
    insta::assert_snapshot!("travel_turn2_of_3_120x40", screen);
    let first = screen.lines().next().unwrap_or_default();
    assert!(
        first.contains("viewing turn 2 of 3 — ] next, Esc back to live"),
        "{first}"
    );
    assert_eq!(
        screen.matches("turn 2 of 3 · stored").count(),
        3,
        "every panel is marked:\n{screen}"
    );
    // Turn 2's own snapshot: the recipes just read, marked new, and the cod
    // ones excluded in the turn "no cod" was said.
    assert!(screen.contains("+ recipe_3 "), "{screen}");
    assert!(screen.contains("Excluded this turn (3)"), "{screen}");
    assert!(screen.contains("] next"), "travel hints:\n{screen}");
    // The chat shows the same turn: its message at the top.
    let second = screen.lines().nth(2).unwrap_or_default();
    assert!(second.starts_with("│ you · turn 2"), "{second}");

    travel::go_live(&mut m);
    let live = render_frame(&m, 120, 40);
    assert!(!live.contains("viewing turn"), "{live}");
    assert!(live.contains("Excluded this turn ("), "{live}");
    assert!(live.contains("turn 3 · window 2"), "{live}");
}
