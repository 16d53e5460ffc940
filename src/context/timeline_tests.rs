//! The timeline grid over a small session: reads, a demotion, a retention,
//! a generated artifact that is dropped, and entities arriving late.

use serde_json::json;

use super::*;
use crate::context::{
    ContextPolicy, ContextState, EntityCuration, RefAction, RefDecision, RetentionDecision, Table,
};

/// Five turns; the snapshot after each.
fn session() -> Vec<ContextSnapshot> {
    let mut s = ContextState::new(ContextPolicy::default());
    let mut snaps = Vec::new();
    let t = s.begin_turn();
    for (i, name) in ["Kerala Cod Curry", "Chai French Toast", "Dry Rub Wings"]
        .iter()
        .enumerate()
    {
        s.registry
            .register_row(Table::Recipes, &format!("r{i}"), name, RefAction::Read, t);
    }
    snaps.push(s.snapshot());
    let t = s.begin_turn();
    s.apply_curation(&EntityCuration {
        demote: vec![RefDecision::new("recipe_2", "user said no french toast")],
        retain_active: vec![RetentionDecision {
            r#ref: "recipe_3".into(),
            reason: "user likes wings".into(),
        }],
        ..Default::default()
    });
    s.registry
        .register_generated(Table::MealPlans, "Weekly Plan", json!({"name": "x"}), t);
    snaps.push(s.snapshot());
    let t = s.begin_turn();
    s.registry
        .register_row(Table::Inventory, "i0", "eggs", RefAction::Read, t);
    snaps.push(s.snapshot());
    s.begin_turn();
    s.apply_curation(&EntityCuration {
        drop: vec![RefDecision::new("gen_meal_1", "user said forget the plan")],
        ..Default::default()
    });
    snaps.push(s.snapshot());
    s.begin_turn();
    snaps.push(s.snapshot());
    snaps
}

fn columns(snaps: &[ContextSnapshot]) -> Vec<(u32, &EntitiesView)> {
    snaps.iter().map(|s| (s.turn, &s.entities)).collect()
}

fn row_of(t: &Timeline, r: &str) -> usize {
    t.rows.iter().position(|row| row.r#ref == r).expect(r)
}

#[test]
fn each_cell_is_the_state_at_that_turn() {
    use EntityState::*;
    let snaps = session();
    let t = build(&columns(&snaps));
    assert_eq!(t.turns, vec![1, 2, 3, 4, 5]);
    let states = |r: &str| -> Vec<Option<EntityState>> {
        let row = row_of(&t, r);
        (0..5).map(|c| t.cell(row, c)).collect()
    };
    assert_eq!(
        states("recipe_1"),
        vec![
            Some(Recent),
            Some(Recent),
            Some(Recent),
            Some(Background),
            Some(Background)
        ]
    );
    assert_eq!(
        states("recipe_2"),
        vec![
            Some(Recent),
            Some(Excluded),
            Some(Background),
            Some(Background),
            Some(Background)
        ]
    );
    assert_eq!(states("recipe_3")[3], Some(Retained));
    assert_eq!(
        states("gen_meal_1"),
        vec![None, Some(Pending), Some(Pending), Some(Dropped), None],
        "blank before it existed and after it was dropped"
    );
    assert_eq!(states("inv_1")[..2], [None, None]);
    // Rows in order of first appearance, then type and number.
    let order: Vec<&str> = t.rows.iter().map(|r| r.r#ref.as_str()).collect();
    assert_eq!(
        order,
        ["recipe_1", "recipe_2", "recipe_3", "gen_meal_1", "inv_1"]
    );
    assert_eq!(t.rows[row_of(&t, "inv_1")].first_col, 2);
    assert_eq!(t.cell(0, 99), None, "out of range");
}

#[test]
fn filters_by_type_and_text() {
    let snaps = session();
    let t = build(&columns(&snaps));
    assert_eq!(t.types(), ["recipe", "inventory", "meal_plan"]);
    let refs = |rows: Vec<usize>| -> Vec<String> {
        rows.into_iter().map(|i| t.rows[i].r#ref.clone()).collect()
    };
    assert_eq!(
        refs(t.filter(Some("recipe"), "")),
        ["recipe_1", "recipe_2", "recipe_3"]
    );
    assert_eq!(refs(t.filter(None, "TOAST")), ["recipe_2"]);
    assert_eq!(refs(t.filter(None, "meal_")), ["gen_meal_1"]);
    assert_eq!(
        refs(t.filter(Some("inventory"), "toast")),
        Vec::<String>::new()
    );
    assert_eq!(t.filter(None, "  ").len(), 5);
}

#[test]
fn why_explains_a_cell_including_dropped_and_not_yet_known() {
    let snaps = session();
    let cols = columns(&snaps);
    let why = why_at(&cols, 1, "recipe_2");
    assert!(
        why.contains("excluded at turn 2") && why.contains("user said no french toast"),
        "{why}"
    );
    let why = why_at(&cols, 3, "gen_meal_1");
    assert!(why.contains("dropped at turn 4"), "{why}");
    let why = why_at(&cols, 4, "gen_meal_1");
    assert!(
        why.contains("gone at turn 5") && why.contains("forget the plan"),
        "{why}"
    );
    let why = why_at(&cols, 0, "inv_1");
    assert_eq!(why, "inv_1 did not exist yet at turn 1.");
    assert_eq!(why_at(&cols, 9, "inv_1"), "No turn there.");
}
