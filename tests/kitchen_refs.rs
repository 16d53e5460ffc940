//! Kitchen tool calls through the registry: refs in and out, the actions
//! they carry, gen-ref promotion, read rerouting and FK label enrichment.
//! Rollback, refusals and limits are in `kitchen_guards.rs`.

use alfred::context::registry::SessionIdRegistry;
use alfred::context::{RefAction, Table};
use alfred::kitchen::{Kitchen, ToolError, ToolResult};
use serde_json::json;
#[path = "support/kitchen_calls.rs"]
mod kitchen_calls;

use kitchen_calls::{filter, recipe_count, refuse, run, stores};

fn refs(r: &ToolResult) -> Vec<&str> {
    r.rows
        .iter()
        .map(|row| row["id"].as_str().unwrap())
        .collect()
}

#[test]
fn kitchen_is_send() {
    fn assert_send<T: Send>() {}
    assert_send::<Kitchen>();
}

#[test]
fn in_and_not_in_take_refs_and_touch_only_returned_rows() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        run(k, &mut reg, 1, "db_read", json!({"table": "recipes"}));
        let some = run(
            k,
            &mut reg,
            2,
            "db_read",
            json!({"table": "recipes", "filters": filter("id", "in", json!(["recipe_8", "recipe_3"]))}),
        );
        assert_eq!(refs(&some), ["recipe_3", "recipe_8"]);
        let rest = run(
            k,
            &mut reg,
            3,
            "db_read",
            json!({"table": "recipes", "filters": filter("id", "not_in", json!(["recipe_1", "recipe_2", "recipe_7"]))}),
        );
        assert_eq!(
            refs(&rest),
            [
                "recipe_3", "recipe_4", "recipe_5", "recipe_6", "recipe_8", "recipe_9"
            ]
        );
        assert_eq!(reg.get("recipe_1").unwrap().last_ref_turn, 1);
        assert_eq!(reg.get("recipe_8").unwrap().last_ref_turn, 3);
        assert_eq!(
            reg.len(),
            9,
            "recipes have no FK targets here; nothing else registered"
        );
    }
}

#[test]
fn create_update_delete_carry_refs_and_actions() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let made = run(
            k,
            &mut reg,
            1,
            "db_create",
            json!({"table": "inventory",
            "data": {"name": "eggs", "quantity": 12, "unit": "pcs", "location": "fridge"}}),
        );
        let inv = refs(&made)[0].to_string();
        assert_eq!(reg.get(&inv).unwrap().action, RefAction::Created);
        // Linked to the catalog by alias, with the catalog's category.
        assert_eq!(made.rows[0]["_ingredient_id_label"], "egg");
        assert_eq!(made.rows[0]["category"], "protein");

        let changed = run(
            k,
            &mut reg,
            2,
            "db_update",
            json!({"table": "inventory",
            "filters": filter("id", "=", json!(inv)), "data": {"quantity": 10}}),
        );
        assert_eq!(refs(&changed), [inv.as_str()]);
        assert_eq!(changed.rows[0]["quantity"], 10);
        assert_eq!(reg.get(&inv).unwrap().action, RefAction::Updated);
        assert_eq!(reg.get(&inv).unwrap().last_ref_turn, 2);

        let row_id = reg.row_id(&inv).unwrap().to_string();
        let gone = run(
            k,
            &mut reg,
            3,
            "db_delete",
            json!({"table": "inventory",
            "filters": filter("id", "in", json!([inv]))}),
        );
        assert_eq!(gone.count, 1);
        assert_eq!(reg.get(&inv).unwrap().action, RefAction::Deleted);
        assert_eq!(reg.row_id(&inv), Some(row_id.as_str()), "mapping kept");
        let again = run(
            k,
            &mut reg,
            4,
            "db_read",
            json!({"table": "inventory",
            "filters": filter("name", "=", json!("eggs"))}),
        );
        assert_eq!(again.count, 0);
        assert_eq!(again.notes, ["no inventory rows matched"]);
    }
}

#[test]
fn a_saved_artifact_promotes_in_place_and_children_use_its_gen_ref() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let g = reg.register_generated(
            Table::Recipes,
            "Thai Basil Chicken",
            json!({"name": "Thai Basil Chicken", "cuisine": "thai"}),
            1,
        );
        let saved = run(
            k,
            &mut reg,
            2,
            "db_create",
            json!({"table": "recipes",
            "data": {"name": "Thai Basil Chicken", "cuisine": "thai", "instructions": ["Fry", "Serve"]}}),
        );
        assert_eq!(refs(&saved), [g.as_str()]);
        assert!(
            saved.notes.iter().any(|n| n.contains("saved gen_recipe_1")),
            "{:?}",
            saved.notes
        );
        assert_eq!(reg.get(&g).unwrap().action, RefAction::Created);
        assert!(reg.row_id(&g).is_some());
        let lines = run(
            k,
            &mut reg,
            2,
            "db_create",
            json!({"table": "recipe_ingredients", "data": [
                {"recipe_id": g, "name": "chicken thigh", "quantity": 400, "unit": "g"},
                {"recipe_id": "gen_recipe_1", "name": "thai basil", "quantity": 1, "unit": "bunch"}
            ]}),
        );
        assert_eq!(lines.count, 2);
        assert!(
            lines
                .rows
                .iter()
                .all(|r| r["recipe_id"] == g && r["_recipe_id_label"] == "Thai Basil Chicken")
        );
        let back = run(
            k,
            &mut reg,
            3,
            "db_read",
            json!({"table": "recipes",
            "filters": filter("id", "=", json!(g))}),
        );
        assert_eq!(
            back.rows[0]["ingredients"][1],
            json!({"name": "thai basil", "quantity": 1, "unit": "bunch"})
        );
        assert_eq!(back.rows[0]["instructions"], json!(["Fry", "Serve"]));
        assert_eq!(recipe_count(k), 10);
    }
}

#[test]
fn a_payload_may_name_the_artifact_it_saves() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        reg.register_generated(
            Table::Recipes,
            "Shakshuka",
            json!({
                "name": "Shakshuka", "servings": 2, "steps_note": "kept in the artifact only",
                "ingredients": [{"name": "eggs", "quantity": 4, "unit": "pcs"}, "chopped tomatoes"]
            }),
            1,
        );
        let g2 = reg.register_generated(Table::Recipes, "Dal", json!({"name": "Dal"}), 1);
        let saved = run(
            k,
            &mut reg,
            2,
            "db_create",
            json!({"table": "recipes",
            "data": {"id": "gen_recipe_1", "servings": 3}}),
        );
        assert_eq!(refs(&saved), ["gen_recipe_1"]);
        assert_eq!(saved.rows[0]["servings"], 3);
        assert_eq!(saved.rows[0]["ingredients"].as_array().unwrap().len(), 2);
        assert!(
            saved.notes.iter().any(|n| n.contains("steps_note")),
            "{:?}",
            saved.notes
        );
        // An explicit ref wins over a different name.
        let other = run(
            k,
            &mut reg,
            2,
            "db_create",
            json!({"table": "recipes",
            "data": {"ref": g2, "name": "Tadka Dal"}}),
        );
        assert_eq!(refs(&other), [g2.as_str()]);
        assert_eq!(reg.get(&g2).unwrap().label, "Tadka Dal");
        let err = refuse(
            k,
            &mut reg,
            "db_create",
            json!({"table": "recipes", "data": {"id": "gen_recipe_1"}}),
        );
        assert!(err.to_string().contains("already saved"), "{err}");
        // One artifact saved twice in a batch is refused before anything is written.
        let g3 = reg.register_generated(Table::Recipes, "Soup", json!({"name": "Soup"}), 2);
        let twice = json!({"table": "recipes", "data": [{"id": g3}, {"ref": g3}]});
        let err = refuse(k, &mut reg, "db_create", twice);
        assert!(
            err.to_string().contains("same artifact gen_recipe_3"),
            "{err}"
        );
        assert!(reg.artifact(&g3).is_some());
        assert_eq!(recipe_count(k), 11);
    }
}

#[test]
fn reads_of_pending_artifacts_are_served_without_the_store() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        run(
            k,
            &mut reg,
            1,
            "db_read",
            json!({"table": "recipes", "limit": 1}),
        );
        let g = reg.register_generated(
            Table::Recipes,
            "Shakshuka",
            json!({"name": "Shakshuka", "servings": 2}),
            2,
        );
        let before = k.statement_count();
        let r = run(
            k,
            &mut reg,
            5,
            "db_read",
            json!({"table": "recipes", "filters": filter("id", "=", json!(g))}),
        );
        assert_eq!(k.statement_count(), before, "no SQL for a rerouted read");
        assert_eq!(
            r.rows,
            [json!({"id": "gen_recipe_1", "name": "Shakshuka", "servings": 2})]
        );
        assert_eq!(reg.get(&g).unwrap().last_ref_turn, 5);
        assert_eq!(
            reg.get("recipe_1").unwrap().last_ref_turn,
            1,
            "nothing else touched"
        );
        let err = refuse(
            k,
            &mut reg,
            "db_read",
            json!({"table": "recipes", "filters": filter("id", "in", json!([g, "recipe_1"]))}),
        );
        assert!(
            matches!(err, ToolError::PendingRef(ref r) if r == "gen_recipe_1"),
            "{err}"
        );
        let err = refuse(
            k,
            &mut reg,
            "db_create",
            json!({"table": "meal_plans", "data": {"date": "2026-01-18", "meal_type": "dinner", "recipe_id": g}}),
        );
        assert!(err.to_string().contains("not saved yet"), "{err}");
    }
}

#[test]
fn fk_targets_are_linked_with_labels_in_one_query_per_table() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let before = k.statement_count();
        let inv = run(k, &mut reg, 1, "db_read", json!({"table": "inventory"}));
        assert_eq!(
            k.statement_count() - before,
            2,
            "rows + one ingredients label query"
        );
        assert_eq!(inv.count, 59);
        assert_eq!(refs(&inv)[0], "inv_1");
        assert_eq!(inv.rows[58]["id"], "inv_59");
        let paneer = &inv.rows[0];
        let ing = paneer["ingredient_id"].as_str().unwrap();
        assert!(ing.starts_with("ing_"), "{ing}");
        assert_eq!(paneer["_ingredient_id_label"], "paneer");
        let e = reg.get(ing).unwrap();
        assert_eq!(
            (e.action, e.label.as_str(), e.last_ref_turn),
            (RefAction::Linked, "paneer", 0)
        );

        run(k, &mut reg, 2, "db_read", json!({"table": "recipes"}));
        run(
            k,
            &mut reg,
            2,
            "db_create",
            json!({"table": "meal_plans",
            "data": {"date": "2026-01-18", "meal_type": "dinner", "recipe_id": "recipe_3"}}),
        );
        let meal = reg
            .entries()
            .into_iter()
            .find(|(r, _)| r.starts_with("meal_"))
            .unwrap()
            .0
            .to_string();
        run(
            k,
            &mut reg,
            2,
            "db_update",
            json!({"table": "tasks",
            "filters": filter("title", "ilike", json!("deep-clean%")), "data": {"meal_plan_id": meal}}),
        );
        let before = k.statement_count();
        let tasks = run(k, &mut reg, 3, "db_read", json!({"table": "tasks"}));
        assert_eq!(
            k.statement_count() - before,
            3,
            "rows + recipes labels + meal_plans labels"
        );
        assert_eq!(tasks.rows[0]["recipe_id"], "recipe_3");
        assert_eq!(tasks.rows[0]["_recipe_id_label"], "Air Fryer Paneer Tikka");
        assert_eq!(tasks.rows[2]["_meal_plan_id_label"], "Sun Jan 18 [dinner]");
        assert_eq!(
            reg.get("recipe_3").unwrap().action,
            RefAction::Read,
            "linking never downgrades"
        );
    }
}
