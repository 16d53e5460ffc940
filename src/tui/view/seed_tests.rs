//! The seeds' turn-3 state (no cod since turn 2, no french toast or wings
//! now) through the panels: what a developer sees when the user rules
//! things out.

use super::test_support::{model_with, render_screen, render_widget, seed_turn3, seed_turn5};
use super::{EntityPanel, HistoryPanel, NarrativePanel};
use crate::context::{ContextDiff, ContextSnapshot};
use crate::tui::theme::Theme;

/// The Entities panel over `snapshot` and `diff`, drawn at a size.
fn entities_screen(
    snapshot: &ContextSnapshot,
    diff: &ContextDiff,
    focused: bool,
    width: u16,
    height: u16,
) -> String {
    let theme = Theme::dark();
    let panel = EntityPanel {
        snapshot,
        diff: Some(diff),
        scroll: 0,
        focused,
        theme: &theme,
    };
    render_widget(panel, width, height)
}

/// The first row of `screen` holding `needle`; panics showing the screen.
fn row_of(screen: &str, needle: &str) -> usize {
    screen
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in\n{screen}"))
}

#[test]
fn seed_turn3_entities_show_the_exclusions_and_what_stands() {
    let (_, after, d) = seed_turn3();
    let screen = entities_screen(&after, &d, true, 60, 34);
    insta::assert_snapshot!("seed_turn3_entities_60x34", screen);
    assert!(
        screen.contains("Background: 3"),
        "the cod recipes: {screen}"
    );

    let lines: Vec<&str> = screen.lines().collect();
    let at = |needle: &str| row_of(&screen, needle);
    let excluded = at("Excluded this turn (2)");
    for (r, label, reason) in [
        (
            "recipe_5",
            "Chai French Toast",
            "excluded: “lets not do the french toast”",
        ),
        (
            "recipe_6",
            "Dry Rub Wings",
            "excluded: “I don't feel like wings”",
        ),
    ] {
        let row = at(&format!("✕ {r}"));
        assert!(row > excluded, "{r} listed under Excluded this turn");
        assert!(
            lines[row].contains(label) && lines[row].contains("[read]"),
            "{}",
            lines[row]
        );
        assert!(
            lines[row + 1].contains(reason),
            "reason under {r}: {}",
            lines[row + 1]
        );
    }
    assert!(
        lines[1].contains("turn 3 · window 2 · ✕2 excluded"),
        "{}",
        lines[1]
    );
    // 59 inventory rows collapse into one line; nothing else mentions inv_.
    let inv: Vec<&&str> = lines.iter().filter(|l| l.contains("inv_")).collect();
    assert_eq!(inv.len(), 1, "{inv:?}");
    assert!(
        inv[0].contains("inv_1..inv_59  59 inventory items"),
        "{}",
        inv[0]
    );
    assert!(inv[0].ends_with(" [read] t2 │"), "{}", inv[0]);
    // The four remaining recipes are listed one per row; no cod recipe is.
    let recent = at("Recent (63)");
    for r in ["recipe_3", "recipe_4", "recipe_8", "recipe_9"] {
        assert!(at(&format!("  {r} ")) > recent, "{r} under Recent");
    }
    assert!(!screen.contains("recipe_1 "), "{screen}");
    assert!(at("Pending, unsaved (1)") > recent);
    assert!(lines[at("gen_meal_1") + 1].contains("needs save confirmation"));
    // What stands, in the user's words, with what it covers now.
    let standing = at("Standing (3)");
    assert!(standing > excluded);
    assert!(
        lines[standing + 1].contains("no cod · t2 → Kerala Cod Curry"),
        "{screen}"
    );
    assert!(screen.contains("“lets not do cod this week”"), "{screen}");
    assert!(
        screen.contains("not Dry Rub Wings · t3 → Dry Rub Wings"),
        "{screen}"
    );
}

#[test]
fn seed_turn2_marks_the_new_reads_and_counts_them_on_the_collapsed_line() {
    let (before, _, _) = seed_turn3();
    let empty = ContextSnapshot::default();
    let d = crate::context::diff(&empty, &before);
    let screen = entities_screen(&before, &d, false, 60, 30);
    insta::assert_snapshot!("seed_turn2_entities_new_60x30", screen);
    assert!(
        screen.contains("+ inv_1..inv_59  59 inventory items (+59 new)"),
        "{screen}"
    );
    for r in [
        "recipe_3", "recipe_4", "recipe_5", "recipe_6", "recipe_8", "recipe_9",
    ] {
        assert!(screen.contains(&format!("+ {r} ")), "{r}: {screen}");
    }
    // "No cod" is ruled out the turn it is said, not one turn later.
    assert!(screen.contains("Excluded this turn (3)"), "{screen}");
    assert!(
        screen.contains("new, excluded: “lets not do cod this week”"),
        "{screen}"
    );
}

#[test]
fn seed_turn3_narrative_newest_first() {
    let (_, after, _) = seed_turn3();
    let theme = Theme::dark();
    let panel = NarrativePanel {
        running: None,
        narrative: &after.narrative,
        scroll: 0,
        focused: false,
        theme: &theme,
    };
    let screen = render_widget(panel, 60, 30);
    insta::assert_snapshot!("seed_turn3_narrative_60x30", screen);
    let t3 = screen.find("Turn 3 · narrowing").expect("turn 3");
    let t2 = screen.find("Turn 2 · narrowing").expect("turn 2");
    let earlier = screen.find("Earlier (compressed)").expect("earlier");
    assert!(t3 < t2 && t2 < earlier, "{screen}");
    assert!(
        screen.contains("standing: added not Chai French Toast"),
        "{screen}"
    );
    assert!(
        screen.contains(" 1. read recipes → Found 9 recipes"),
        "{screen}"
    );
}

#[test]
fn seed_turn3_history_oldest_first_newest_nearest_the_input() {
    let (_, after, _) = seed_turn3();
    let theme = Theme::dark();
    let panel = HistoryPanel {
        conversation: &after.conversation,
        scroll: 0,
        focused: false,
        theme: &theme,
    };
    let screen = render_widget(panel, 60, 30);
    insta::assert_snapshot!("seed_turn3_history_60x30", screen);
    let t3 = screen.find("Turn 3").expect("turn 3");
    let t2 = screen.find("Turn 2").expect("turn 2");
    assert!(t2 < t3, "{screen}");
    assert!(screen.contains("History · 3 recent"), "{screen}");
    assert!(
        screen.contains("User: lets not do the french toast or wings"),
        "{screen}"
    );
}

#[test]
fn seed_turn3_wide_screen_120x40() {
    let (_, after, d) = seed_turn3();
    let mut model = model_with(after, Some(d));
    model.chrome.status = Some((crate::tui::model::Level::Info, "saved".to_string()));
    let (screen, layout) = render_screen(&model, 120, 40);
    insta::assert_snapshot!("seed_turn3_wide_120x40", screen);
    let chat = layout.chat().expect("chat shown beside the panels");
    assert_eq!((chat.x, chat.width), (0, 66));
    assert!(
        screen
            .lines()
            .next()
            .is_some_and(|l| l.starts_with("alfred · Meal planning · turn 3 · offline"))
    );
    assert!(screen.lines().next().is_some_and(|l| l.ends_with("saved")));
}

#[test]
fn seed_turn5_shows_retained_dropped_and_aged_out() {
    let (after, d) = seed_turn5();
    let screen = entities_screen(&after, &d, true, 60, 28);
    insta::assert_snapshot!("seed_turn5_entities_60x28", screen);
    let lines: Vec<&str> = screen.lines().collect();
    let at = |needle: &str| row_of(&screen, needle);
    assert!(
        !screen.contains("Recent ("),
        "everything aged out: {screen}"
    );
    let retained = at("→ recipe_3");
    assert!(retained > at("Retained (1)"));
    assert!(lines[retained + 1].contains("moved: user picked it for Sunday"));
    let dropped = at("× gen_meal_1");
    assert!(dropped > at("Dropped this turn (1)"));
    assert!(lines[dropped].contains("Weekly Plan") && lines[dropped].contains("[dropped] t5"));
    assert!(lines[dropped + 1].contains("dropped: user said forget the plan"));
    // Leaving the window is ageing out, not a demotion.
    assert!(
        screen.contains("Background: 67 · ↘62 aged out this turn"),
        "{screen}"
    );
    assert!(!screen.contains("demoted"), "{screen}");
}
