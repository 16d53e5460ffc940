//! Panels and overlays at fixed sizes: help, the session picker,
//! wide-character labels, scrolling, the conversation tiers, empty states.

use serde_json::json;
use unicode_width::UnicodeWidthStr;

use super::test_support::{column_of, render_widget};
use super::{EntityPanel, HelpOverlay, HistoryPanel, NarrativePanel, SessionPicker};
use crate::context::snapshot::ConversationView;
use crate::context::{
    ContextPolicy, ContextSnapshot, ContextState, ConversationTurn, RefAction, Table, diff,
};
use crate::tui::model::SessionItem;
use crate::tui::theme::Theme;

type Pairs = Vec<(String, String)>;

fn help_lists() -> (Pairs, Pairs) {
    let pairs = |v: &[(&str, &str)]| {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let bindings = pairs(&[
        ("Enter", "send the message"),
        ("Alt+Enter", "new line in the message"),
        ("Tab · Shift+Tab", "focus the next / previous pane"),
        (
            "↑ ↓ PgUp PgDn",
            "scroll the focused pane, or browse sent messages in the input",
        ),
        ("z", "zoom the focused pane"),
        ("Esc", "cancel the running turn, close an overlay"),
        ("r", "retry a failed turn"),
        ("?", "this help"),
        ("Ctrl+C · q (panel)", "quit"),
    ]);
    let commands = pairs(&[
        ("/new", "start a new session"),
        ("/sessions", "switch to another saved session"),
        (
            "/pin REF",
            "keep an entity in working memory (\"pinned by user\")",
        ),
        (
            "/why REF",
            "explain why an entity is (or is not) in working memory",
        ),
        (
            "/clear",
            "start fresh: forget every entity (the transcript stays)",
        ),
    ]);
    (bindings, commands)
}

#[test]
fn help_overlay_lists_keys_and_commands() {
    let theme = Theme::dark();
    let (bindings, commands) = help_lists();
    let help = HelpOverlay {
        bindings: &bindings,
        commands: &commands,
        scroll: 0,
        theme: &theme,
    };
    let screen = render_widget(help, 80, 26);
    insta::assert_snapshot!("help_overlay_80x26", screen);
    for (k, _) in bindings.iter().chain(&commands) {
        assert!(screen.contains(k.as_str()), "{k} listed");
    }
    let help = HelpOverlay {
        bindings: &bindings,
        commands: &commands,
        scroll: 3,
        theme: &theme,
    };
    let small = render_widget(help, 50, 12);
    assert!(
        small.contains("↓ more") && small.contains("↑ 3 above"),
        "{small}"
    );
}

#[test]
fn every_bound_key_shows_whole_in_the_help() {
    let theme = Theme::dark();
    let keys = super::KeyHelp::default();
    for (w, h) in [(140, 40), (80, 24)] {
        let mut seen = String::new();
        for scroll in 0..80 {
            let help = HelpOverlay {
                bindings: &keys.bindings,
                commands: &[],
                scroll,
                theme: &theme,
            };
            seen.push_str(&render_widget(help, w, h));
        }
        for (k, _) in &keys.bindings {
            assert!(seen.contains(k.as_str()), "{k} shown whole at {w}x{h}");
        }
    }
}

#[test]
fn session_picker_highlights_the_selection() {
    let theme = Theme::dark();
    let items: Vec<SessionItem> = (1..=4)
        .map(|i| SessionItem {
            id: format!("s-{i}a9"),
            title: [
                "Meal planning",
                "Pantry clean-out",
                "麻婆豆腐 night 🌶️",
                "Thai week",
            ][i - 1]
                .into(),
            turns: i * 2 - 1,
            updated: format!("2026-01-1{i} 19:0{i}"),
        })
        .collect();
    let picker = SessionPicker {
        items: &items,
        selected: 2,
        theme: &theme,
    };
    let screen = render_widget(picker, 80, 12);
    insta::assert_snapshot!("session_picker_80x12", screen);
    let row = screen
        .lines()
        .find(|l| l.contains("▶"))
        .expect("selected row");
    assert!(
        row.contains("s-3a9") && row.contains("麻婆豆腐 night 🌶️") && row.contains("5 turns"),
        "{row}"
    );
}

/// Entities with CJK and emoji labels, and one too long for its column.
fn wide_labels() -> (ContextSnapshot, crate::context::ContextDiff) {
    let mut s = ContextState::new(ContextPolicy::default());
    let before = s.snapshot();
    let t = s.begin_turn();
    for (i, label) in [
        "麻婆豆腐 🌶️ Mapo Tofu",
        "Air Fryer Paneer Tikka",
        "カレーうどん Curry Udon with a very long name that must be cut",
        "Crème brûlée 🍮",
        "👩‍🍳 Chef's Special",
    ]
    .iter()
    .enumerate()
    {
        s.registry
            .register_row(Table::Recipes, &format!("r{i}"), label, RefAction::Read, t);
    }
    s.registry
        .register_generated(Table::Recipes, "김치찌개 Kimchi Stew", json!({}), t);
    let after = s.snapshot();
    let d = diff(&before, &after);
    (after, d)
}

#[test]
fn cjk_and_emoji_labels_keep_the_columns_aligned() {
    let (snap, d) = wide_labels();
    let theme = Theme::dark();
    let panel = EntityPanel {
        snapshot: &snap,
        diff: Some(&d),
        scroll: 0,
        focused: false,
        theme: &theme,
    };
    let screen = render_widget(panel, 72, 16);
    insta::assert_snapshot!("entities_wide_labels_72x16", screen);
    let rows: Vec<&str> = screen.lines().filter(|l| l.contains("recipe_")).collect();
    assert_eq!(rows.len(), 6, "{screen}");
    // Every row is exactly as wide as the panel, the labels start in one
    // column and the turn column ends in one column, whatever the glyphs.
    let starts = [
        "麻婆豆腐",
        "Air Fryer",
        "カレーうどん",
        "Crème",
        "👩‍🍳",
        "김치찌개",
    ];
    let label_cols: Vec<Option<usize>> = rows
        .iter()
        .zip(starts)
        .map(|(l, s)| column_of(l, s))
        .collect();
    assert!(
        label_cols
            .iter()
            .all(|c| c.is_some() && *c == label_cols[0]),
        "{label_cols:?}\n{screen}"
    );
    let turn_cols: Vec<Option<usize>> = rows.iter().map(|l| column_of(l, "t1 │")).collect();
    assert!(
        turn_cols.iter().all(|c| c.is_some() && *c == turn_cols[0]),
        "{turn_cols:?}\n{screen}"
    );
    assert!(rows.iter().all(|l| l.width() == 72), "{screen}");
    assert!(screen.contains("麻婆豆腐 🌶️ Mapo Tofu"), "{screen}");
    assert!(screen.contains('…'), "the long label is cut: {screen}");
}

#[test]
fn entity_panel_scrolls_with_markers() {
    let (snap, d) = wide_labels();
    let theme = Theme::dark();
    let panel = EntityPanel {
        snapshot: &snap,
        diff: Some(&d),
        scroll: 2,
        focused: true,
        theme: &theme,
    };
    let screen = render_widget(panel, 50, 8);
    insta::assert_snapshot!("entities_scrolled_50x8", screen);
    assert!(
        screen
            .lines()
            .next()
            .is_some_and(|l| l.contains("↑ 2 above")),
        "{screen}"
    );
    assert!(
        screen.lines().last().is_some_and(|l| l.contains("↓ more")),
        "{screen}"
    );
    let panel = EntityPanel {
        snapshot: &snap,
        diff: Some(&d),
        scroll: 999,
        focused: true,
        theme: &theme,
    };
    let end = render_widget(panel, 50, 8);
    assert!(
        !end.contains("↓ more") && end.contains("Background: 0"),
        "clamped to the end: {end}"
    );
}

#[test]
fn empty_panels_say_what_will_appear() {
    let theme = Theme::dark();
    let snap = ContextSnapshot::default();
    let panels = [
        render_widget(
            EntityPanel {
                snapshot: &snap,
                diff: None,
                scroll: 0,
                focused: false,
                theme: &theme,
            },
            40,
            7,
        ),
        render_widget(
            NarrativePanel {
                running: None,
                narrative: &snap.narrative,
                scroll: 0,
                focused: false,
                theme: &theme,
            },
            40,
            5,
        ),
        render_widget(
            HistoryPanel {
                conversation: &snap.conversation,
                scroll: 0,
                focused: false,
                theme: &theme,
            },
            40,
            5,
        ),
    ];
    let all = panels.concat();
    insta::assert_snapshot!("empty_panels_40", all);
    assert!(all.contains("No entities yet"));
    assert!(all.contains("Nothing yet — the narrative of each"));
    assert!(all.contains("Nothing said yet"));
}

#[test]
fn history_is_one_chronological_order_with_the_newest_at_the_bottom() {
    let turn = |n: u32, user: &str, assistant: &str, summary: Option<&str>| ConversationTurn {
        turn: n,
        user: user.to_string(),
        assistant: assistant.to_string(),
        assistant_summary: summary.map(str::to_string),
        entities_mentioned: Vec::new(),
        at: None,
    };
    let long = "Here is the full plan. ".repeat(40);
    let view = ConversationView {
        recent: vec![
            turn(
                11,
                "plan the week",
                &long,
                Some("Planned four dinners around the pantry."),
            ),
            turn(
                12,
                "swap wednesday for the curry",
                "Done — Wednesday is now Thai Yellow Curry.",
                None,
            ),
        ],
        bullets: vec![
            "Turn 9: \"what's expiring?\" → milk and paneer".to_string(),
            "Turn 10: \"use the paneer\" → suggested tikka".to_string(),
        ],
        earlier: "Turn 1: \"help me plan\" → You usually cook on Sundays\n…\nTurn 8: \"no cod\" → Got it, no cod"
            .to_string(),
    };
    let theme = Theme::dark();
    let panel = HistoryPanel {
        conversation: &view,
        scroll: 0,
        focused: true,
        theme: &theme,
    };
    let screen = render_widget(panel, 50, 30);
    insta::assert_snapshot!("history_tiers_50x30", screen);
    // The title says what the panel holds: 2 recent, 2 condensed, 8 folded.
    assert!(
        screen.contains("History · 2 recent · 2 condensed · 8 folded"),
        "{screen}"
    );
    // A long reply by its opening, cut at a word, and what the prompts carry.
    assert!(
        screen.contains("Alfred (opening): Here is the full plan."),
        "{screen}"
    );
    assert!(screen.contains("in prompts as: Planned four"), "{screen}");
    assert!(
        !screen.contains("pla…") && !screen.contains("Here is th…"),
        "{screen}"
    );
    // Oldest at the top, the newest turn at the bottom, nearest the input.
    let order = [
        "Earlier · 8 turns folded",
        "Turn 1: \"help me plan\"",
        "Condensed · 2 turns",
        "• Turn 9",
        "• Turn 10",
        "Turn 11",
        "Turn 12",
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|s| screen.find(s).unwrap_or(usize::MAX))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}\n{screen}");
}

#[test]
fn a_draft_holding_a_ruled_out_recipe_is_marked_with_what_it_holds() {
    use crate::context::{ConstraintChanges, MatchKind, NewConstraint, RecipeFacts, Rule};
    let mut s = ContextState::new(ContextPolicy::default());
    let t = s.begin_turn();
    let miso = s.registry.register_row(
        Table::Recipes,
        "r-2",
        "Miso Glazed Air Fryer Cod",
        RefAction::Read,
        t,
    );
    let paneer = s.registry.register_row(
        Table::Recipes,
        "r-3",
        "Air Fryer Paneer Tikka",
        RefAction::Read,
        t,
    );
    let t = s.begin_turn();
    for (r, date) in [(&miso, "2026-01-18"), (&paneer, "2026-01-14")] {
        s.registry.register_generated(
            Table::MealPlans,
            &format!("{date} [dinner]"),
            json!({"date": date, "meal_type": "dinner", "recipe_id": r}),
            t,
        );
    }
    let before = s.snapshot();
    s.begin_turn();
    s.apply_constraints(&ConstraintChanges {
        add: vec![NewConstraint {
            clause: "no fish this week".into(),
            rule: Rule::Exclude,
            kind: MatchKind::Ingredient,
            value: "fish".into(),
            refs: Vec::new(),
        }],
        ..ConstraintChanges::default()
    });
    let facts = |label: &str, ingredient: &str| {
        RecipeFacts::from_content(label, &json!({"name": label, "ingredients": [ingredient]}))
    };
    let (cod, tikka) = (
        facts("Miso Glazed Air Fryer Cod", "cod fillet"),
        facts("Air Fryer Paneer Tikka", "paneer"),
    );
    s.refresh_constraints(&|r| {
        if r == miso {
            cod.clone()
        } else {
            tikka.clone()
        }
    });
    let after = s.snapshot();
    let pending = &after.entities.pending;
    assert_eq!(pending[0].holds_ruled_out.len(), 1, "{pending:?}");
    assert!(pending[1].holds_ruled_out.is_empty(), "{pending:?}");
    let d = diff(&before, &after);
    let theme = Theme::dark();
    let screen = render_widget(
        EntityPanel {
            snapshot: &after,
            diff: Some(&d),
            scroll: 0,
            focused: false,
            theme: &theme,
        },
        72,
        30,
    );
    let lines: Vec<&str> = screen.lines().collect();
    let row = lines
        .iter()
        .position(|l| l.contains("gen_meal_1"))
        .unwrap_or_else(|| panic!("no draft row in\n{screen}"));
    assert!(lines[row].contains("✕ gen_meal_1"), "{}", lines[row]);
    let other = lines
        .iter()
        .position(|l| l.contains("gen_meal_2"))
        .unwrap_or_else(|| panic!("no second draft in\n{screen}"));
    assert!(!lines[other].contains('✕'), "{}", lines[other]);
    // What it holds is said under it, before the next row.
    let holds = lines
        .iter()
        .position(|l| l.contains("holds Miso Glazed Air Fryer Cod — ruled out by “no fish"))
        .unwrap_or_else(|| panic!("nothing said of what it holds in\n{screen}"));
    assert!(row < holds && holds < other, "{screen}");
}

#[test]
fn history_shows_a_reply_without_its_strong_markers() {
    let view = ConversationView {
        recent: vec![ConversationTurn {
            turn: 4,
            user: "save it".into(),
            assistant: "Saved **Paneer Stir Fry** to your recipes.".into(),
            assistant_summary: None,
            entities_mentioned: Vec::new(),
            at: None,
        }],
        bullets: Vec::new(),
        earlier: String::new(),
    };
    let theme = Theme::dark();
    let screen = render_widget(
        HistoryPanel {
            conversation: &view,
            scroll: 0,
            focused: false,
            theme: &theme,
        },
        60,
        8,
    );
    assert!(
        screen.contains("Alfred: Saved Paneer Stir Fry to your recipes."),
        "{screen}"
    );
    assert!(!screen.contains("**"), "{screen}");
}

#[test]
fn narrative_shows_a_result_without_its_strong_markers() {
    let view = crate::context::snapshot::NarrativeView {
        turns: vec![crate::context::TurnExecutionSummary {
            turn_number: 3,
            user_message: "the 2nd one".into(),
            response_summary: "**Miso Glazed Air Fryer Cod** (serves 2 · 20 min) needs".into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let theme = Theme::dark();
    let screen = render_widget(
        NarrativePanel {
            running: None,
            narrative: &view,
            scroll: 0,
            focused: false,
            theme: &theme,
        },
        80,
        8,
    );
    assert!(
        screen.contains("result: Miso Glazed Air Fryer Cod (serves 2 · 20 min) needs"),
        "{screen}"
    );
    assert!(!screen.contains("**"), "{screen}");
}
