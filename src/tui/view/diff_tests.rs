//! The turn diff on screen, over the real meal-planning records: turn 2 → 3
//! ("not the french toast or wings") live and through time travel.

use super::DiffPanel;
use super::test_support::{render_frame, render_widget};
use crate::context::diff;
use crate::tui::model::Pane;
use crate::tui::test_records;
use crate::tui::theme::Theme;
use crate::tui::travel;

/// The index of the first line containing `needle`.
fn at(lines: &[&str], needle: &str, screen: &str) -> usize {
    lines
        .iter()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in\n{screen}"))
}

#[test]
fn turns_2_to_3_move_recipe_5_and_6_to_excluded_with_their_reasons() {
    let records = test_records::meal_planning();
    let (before, after) = (records[1].0.snapshot(), records[2].0.snapshot());
    let d = diff(&before, &after);
    let theme = Theme::dark();
    let panel = DiffPanel {
        snapshot: &after,
        diff: Some(&d),
        scroll: 0,
        focused: true,
        theme: &theme,
    };
    let screen = render_widget(panel, 72, 40);
    insta::assert_snapshot!("diff_turn2_to_3_72x40", screen);
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[0].contains("Changes · turn 2 → 3"), "{}", lines[0]);
    for (r, label, reason) in [
        ("recipe_5", "Chai French Toast", "french toast"),
        ("recipe_6", "Dry Rub Wings", "wings"),
    ] {
        let row = at(&lines, &format!("✕ {r} "), &screen);
        assert!(lines[row].contains(label), "{}", lines[row]);
        assert!(lines[row].contains("recent → excluded"), "{}", lines[row]);
        let why = lines[row + 1];
        assert!(
            why.contains("why: ruled out by c") && why.contains(reason),
            "reason under {r}: {why}"
        );
    }
    assert!(screen.contains("Narrative"), "{screen}");
    assert!(screen.contains("+ turn 3 kept in full"), "{screen}");
    // The default policy folds in epochs of five turns: turn 1 is still in
    // full at turn 3 (the seeds' fold-every-turn replay shows the fold).
    assert!(
        !screen.contains("folded into the earlier summary"),
        "{screen}"
    );
}

#[test]
fn d_shows_the_inspected_turn_against_the_one_before() {
    let mut m = test_records::model(4, 120, 40);
    m.chrome.focus = Pane::Entities;
    m.panels.show_diff = true;
    let live = render_frame(&m, 120, 40);
    assert!(live.contains("Changes · turn 3 → 4"), "{live}");
    travel::step(&mut m, true);
    let screen = render_frame(&m, 120, 40);
    insta::assert_snapshot!("diff_inspected_turn3_120x40", screen);
    assert!(screen.contains("Changes · turn 2 → 3"), "{screen}");
    assert!(screen.contains("recipe_5"), "{screen}");
    assert!(screen.contains("viewing turn 3 of 4"), "{screen}");
    // The first turn compares with an empty context: everything is new.
    travel::step(&mut m, true);
    travel::step(&mut m, true);
    let first = render_frame(&m, 120, 40);
    assert!(first.contains("Changes · turn 1 "), "{first}");
    assert!(first.contains("turn 1 against an empty context"), "{first}");
}

#[test]
fn a_saved_recipe_changed_this_turn_is_marked_changed_not_no_changes() {
    let records = test_records::run(&[
        "mushroom risotto recipie pls",
        "save it",
        "add chilli flakes to the saved one too",
    ]);
    let (before, after) = (records[1].0.snapshot(), records[2].0.snapshot());
    let d = diff(&before, &after);
    let changed = d
        .change_of("gen_recipe_1")
        .unwrap_or_else(|| panic!("the risotto's change is missing: {:?}", d.entities));
    assert_eq!(changed.kind, crate::context::ChangeKind::Written);
    assert!(changed.reason.contains("turn 3"), "{}", changed.reason);
}
