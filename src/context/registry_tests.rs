//! Tests of `registry.rs`.

use serde_json::json;

use super::entity::{RefAction, Table};
use super::registry::*;

fn uuid(n: u32) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

#[test]
fn reads_get_per_type_counters_and_stable_refs() {
    let mut reg = SessionIdRegistry::new();
    let r1 = reg.register_row(Table::Recipes, &uuid(1), "Cod Curry", RefAction::Read, 2);
    let i1 = reg.register_row(Table::Inventory, &uuid(2), "rice", RefAction::Read, 2);
    let r2 = reg.register_row(Table::Recipes, &uuid(3), "Paneer", RefAction::Read, 2);
    assert_eq!(
        (r1.as_str(), i1.as_str(), r2.as_str()),
        ("recipe_1", "inv_1", "recipe_2")
    );
    // Reading the same row again keeps the ref and refreshes recency.
    let again = reg.register_row(Table::Recipes, &uuid(1), "Cod Curry", RefAction::Read, 4);
    assert_eq!(again, "recipe_1");
    assert_eq!(reg.get("recipe_1").unwrap().last_ref_turn, 4);
    assert_eq!(reg.get("recipe_1").unwrap().turn_created, 2);
    assert_eq!(reg.ref_for_row(&uuid(3)), Some("recipe_2"));
    assert_eq!(reg.row_id("inv_1"), Some(uuid(2).as_str()));
}

#[test]
fn an_update_is_not_a_read() {
    let mut reg = SessionIdRegistry::new();
    reg.register_row(Table::Recipes, &uuid(1), "Cod Curry", RefAction::Read, 1);
    reg.register_row(Table::Recipes, &uuid(1), "Cod Curry", RefAction::Updated, 2);
    assert_eq!(reg.get("recipe_1").unwrap().action, RefAction::Updated);
}

#[test]
fn generated_refs_promote_in_place_on_save() {
    let mut reg = SessionIdRegistry::new();
    let g = reg.register_generated(
        Table::Recipes,
        "Thai Basil Chicken",
        json!({"name": "Thai Basil Chicken", "steps": ["a"]}),
        1,
    );
    assert_eq!(g, "gen_recipe_1");
    assert!(reg.artifact(&g).is_some());
    let saved = reg
        .register_created(Table::Recipes, &uuid(9), " thai basil chicken ", None, 3)
        .unwrap();
    assert_eq!(
        saved,
        Created {
            r#ref: g.clone(),
            promoted: true
        }
    );
    let e = reg.get(&g).unwrap();
    assert_eq!(e.action, RefAction::Created);
    assert_eq!(e.promoted_turn, Some(3));
    assert_eq!(reg.row_id(&g), Some(uuid(9).as_str()));
    assert!(reg.artifact(&g).is_none());
    assert!(reg.pending_artifacts().is_empty());
}

#[test]
fn created_without_a_matching_artifact_gets_a_new_ref() {
    let mut reg = SessionIdRegistry::new();
    reg.register_generated(Table::Recipes, "Shakshuka", json!({"name": "Shakshuka"}), 1);
    let c = reg
        .register_created(Table::Recipes, &uuid(4), "Dal", None, 2)
        .unwrap();
    assert_eq!(
        c,
        Created {
            r#ref: "recipe_1".into(),
            promoted: false
        }
    );
    assert_eq!(reg.pending_artifacts().len(), 1);
    // An explicit gen ref of another table is refused, naming both.
    let err = reg
        .register_created(Table::Tasks, &uuid(5), "x", Some("gen_recipe_1"), 2)
        .unwrap_err();
    assert!(err.to_string().contains("gen_recipe_1"), "{err}");
}

#[test]
fn removed_refs_are_never_reused() {
    let mut reg = SessionIdRegistry::new();
    reg.register_row(Table::Recipes, &uuid(1), "A", RefAction::Read, 1);
    assert!(reg.remove("recipe_1", "user said forget it", 2).is_some());
    assert!(reg.get("recipe_1").is_none());
    assert_eq!(reg.dropped()["recipe_1"].reason, "user said forget it");
    let again = reg.register_row(Table::Recipes, &uuid(1), "A", RefAction::Read, 3);
    assert_eq!(again, "recipe_2");
}

#[test]
fn linked_refs_stay_in_the_background_until_referenced() {
    let mut reg = SessionIdRegistry::new();
    let ing = reg.register_linked(Table::Ingredients, &uuid(7), "", 2);
    assert_eq!(reg.get(&ing).unwrap().label, ing);
    assert_eq!(reg.get(&ing).unwrap().last_ref_turn, 0);
    reg.register_linked(Table::Ingredients, &uuid(7), "garlic", 2);
    assert_eq!(reg.get(&ing).unwrap().label, "garlic");
    // A read of a linked row turns it into a read ref.
    reg.register_row(Table::Ingredients, &uuid(7), "garlic", RefAction::Read, 3);
    assert_eq!(reg.get(&ing).unwrap().action, RefAction::Read);
    assert_eq!(reg.get(&ing).unwrap().last_ref_turn, 3);
}

#[test]
fn serde_round_trip_rebuilds_the_row_index() {
    let mut reg = SessionIdRegistry::new();
    reg.register_row(Table::Recipes, &uuid(1), "A", RefAction::Read, 1);
    reg.register_generated(Table::Recipes, "B", json!({"name": "B"}), 1);
    reg.retain("recipe_1", "ongoing goal", RetainedBy::Understand, 2);
    reg.register_row(Table::Inventory, &uuid(2), "rice", RefAction::Read, 2);
    reg.remove("inv_1", "gone", 3);
    let text = serde_json::to_string(&reg).unwrap();
    assert!(!text.contains("by_row"));
    let back: SessionIdRegistry = serde_json::from_str(&text).unwrap();
    assert_eq!(back, reg);
    assert_eq!(back.ref_for_row(&uuid(1)), Some("recipe_1"));
}

#[test]
fn reorder_since_gives_new_refs_the_steps_order() {
    let mut reg = SessionIdRegistry::new();
    reg.register_row(Table::Recipes, &uuid(1), "old", RefAction::Read, 1);
    let mark = reg.mark();
    // Two steps ran at once; the inventory answer arrived first.
    reg.register_row(Table::Inventory, &uuid(2), "rice", RefAction::Read, 2);
    reg.register_linked(Table::Ingredients, &uuid(3), "rice", 2);
    reg.register_row(Table::Recipes, &uuid(4), "curry", RefAction::Read, 2);
    reg.reorder_since(mark, &["recipe_2".to_string(), "inv_1".to_string()]);
    let order: Vec<&str> = reg.entries().into_iter().map(|(r, _)| r).collect();
    assert_eq!(order, ["recipe_1", "recipe_2", "inv_1", "ing_1"]);
}
