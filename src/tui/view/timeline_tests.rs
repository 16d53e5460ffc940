//! The entity timeline on screen over the real meal-planning session.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::test_support::render_frame;
use crate::tui::event::Event;
use crate::tui::model::Pane;
use crate::tui::test_records;
use crate::tui::timeline;
use crate::tui::update::update;

#[test]
fn the_timeline_shows_each_entity_at_each_turn_with_the_why_of_the_cell() {
    let mut m = test_records::model(5, 100, 30);
    m.chrome.focus = Pane::Entities;
    timeline::toggle(&mut m);
    let screen = render_frame(&m, 100, 30);
    insta::assert_snapshot!("timeline_meal_planning_100x30", screen);
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[0].contains("Entity timeline ·"), "{}", lines[0]);
    assert!(lines[0].contains("5 turns"), "{}", lines[0]);
    let row = |r: &str| {
        lines
            .iter()
            .find(|l| l.contains(&format!("{r} ")))
            .copied()
            .unwrap_or_else(|| panic!("no row {r}:\n{screen}"))
    };
    // recipe_5: read at turn 2, excluded at 3, background after.
    let five = row("recipe_5");
    assert!(five.contains("Chai French Toast"), "{five}");
    assert!(five.contains("│   ● ✕ · ·"), "{five}");
    assert!(screen.contains("● recent"), "the legend:\n{screen}");
    assert!(
        screen.contains("f type · / text · Enter show the turn"),
        "{screen}"
    );
    assert!(
        screen.contains("· turn 5 ·"),
        "the selected cell:\n{screen}"
    );

    // Filtered to the plans: generated at 4 (pending), saved at 5.
    let keymap = crate::tui::keymap::Keymap::default_keys();
    for c in "/gen_meal\r".chars() {
        let code = if c == '\r' {
            KeyCode::Enter
        } else {
            KeyCode::Char(c)
        };
        update(
            &mut m,
            &keymap,
            Event::Key(KeyEvent::new(code, KeyModifiers::NONE)),
        );
    }
    let screen = render_frame(&m, 100, 30);
    insta::assert_snapshot!("timeline_filtered_plans_100x30", screen);
    let first = screen.lines().next().unwrap_or_default();
    assert!(
        first.contains("2 of 129 entities · 5 turns · “gen_meal”"),
        "{first}"
    );
    let plan = screen
        .lines()
        .find(|l| l.contains("gen_meal_1 "))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(plan.contains("│       ◌ ●"), "{plan}");
}

#[test]
fn narrow_screens_scroll_the_turns_to_keep_the_cursor_in_view() {
    let mut m = test_records::model(5, 50, 16);
    m.chrome.focus = Pane::Entities;
    timeline::toggle(&mut m);
    let screen = render_frame(&m, 50, 16);
    insta::assert_snapshot!("timeline_narrow_50x16", screen);
    assert!(screen.contains("Entity timeline"), "{screen}");
}
