//! Kitchen store on a real file: seeding, every filter operator, the seeds'
//! cod exclusion, the dashboard and stats. Refs, writes, turns and refusals
//! are in `kitchen_refs.rs`.

use alfred::context::registry::SessionIdRegistry;
use alfred::context::{RefAction, Table};
use alfred::kitchen::{Kitchen, SCHEMA_VERSION, ToolCall, ToolResult};
use jiff::civil::date;
use serde_json::{Value, json};
#[path = "support/kitchen_calls.rs"]
mod kitchen_calls;

use kitchen_calls::{filter, run, seeded, stores, today};

const COD: [&str; 3] = [
    "Kerala Cod Curry",
    "Miso Glazed Air Fryer Cod",
    "Cod Assam Pedas",
];
const FILE_ORDER: [&str; 9] = [
    "Kerala Cod Curry",
    "Miso Glazed Air Fryer Cod",
    "Air Fryer Paneer Tikka",
    "Chicken Tikka Bites",
    "Chai French Toast",
    "Dry Rub Wings",
    "Cod Assam Pedas",
    "Thai Pad See Ew",
    "Thai Yellow Curry",
];

/// A `db_read` at turn 1 that must succeed.
fn read(k: &mut Kitchen, reg: &mut SessionIdRegistry, params: Value) -> ToolResult {
    run(k, reg, 1, "db_read", params)
}

fn names(r: &ToolResult) -> Vec<&str> {
    r.rows
        .iter()
        .map(|row| {
            row.get("name")
                .or_else(|| row.get("title"))
                .and_then(Value::as_str)
                .unwrap_or("?")
        })
        .collect()
}

/// Recipe names matching one filter, in default (file) order — the same
/// on every store.
fn recipes_where(field: &str, op: &str, value: Value) -> Vec<String> {
    let mut answers = Vec::new();
    for mut store in stores() {
        let mut reg = SessionIdRegistry::new();
        let r = read(
            &mut store.kitchen,
            &mut reg,
            json!({"table": "recipes", "filters": filter(field, op, value.clone())}),
        );
        let names: Vec<String> = names(&r).into_iter().map(String::from).collect();
        answers.push((store.name, names));
    }
    let (_, first) = answers[0].clone();
    for (name, got) in &answers[1..] {
        assert_eq!(
            got, &first,
            "{name} answers {field} {op} {value} unlike sqlite"
        );
    }
    first
}

#[test]
fn first_run_seeding_fills_the_sample_kitchen() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let stats = k.stats().unwrap();
        assert_eq!(stats.rows(Table::Recipes), 9);
        assert_eq!(stats.rows(Table::Inventory), 59);
        assert_eq!(stats.rows(Table::Preferences), 1);
        assert_eq!(stats.rows(Table::MealPlans), 0);
        assert_eq!(stats.rows(Table::ShoppingList), 5);
        assert_eq!(stats.rows(Table::Tasks), 4);
        // kitchen.db is migrated by alfred; a Postgres schema is not.
        let version = if store.name == "sqlite" {
            SCHEMA_VERSION as i64
        } else {
            0
        };
        assert_eq!(stats.schema_version, version);
        let ctx = k.session_context(today()).unwrap();
        let by_cuisine: Vec<(&str, u32)> = ctx
            .dashboard
            .recipes_by_cuisine
            .iter()
            .map(|c| (c.name.as_str(), c.count))
            .collect();
        assert_eq!(
            by_cuisine,
            vec![("fusion", 3), ("indian", 3), ("thai", 2), ("malaysian", 1)]
        );
        assert_eq!(ctx.profile.cooking_skill_level, "beginner");
        assert_eq!(ctx.profile.allergies, vec!["shellfish"]);
        assert_eq!(ctx.profile.time_budget_minutes, Some(45));
        assert!(ctx.preferences["meal_plans"].starts_with("I cook 2-3 times per week"));
        assert_eq!(ctx.dashboard.meal_slots_next_7_days, 0);
        // Every recipe line and inventory item is linked to the catalog.
        let mut reg = SessionIdRegistry::new();
        let unlinked = read(
            k,
            &mut reg,
            json!({"table": "inventory",
            "filters": [{"field": "ingredient_id", "op": "is_null"}]}),
        );
        assert_eq!(unlinked.count, 0);
    }
}

#[test]
fn a_second_seed_does_nothing_and_reset_reseeds() {
    let (dir, mut k) = seeded();
    assert_eq!(k.seed_if_empty(today()).unwrap(), None);
    assert_eq!(k.stats().unwrap().rows(Table::Recipes), 9);
    drop(k);
    // The file keeps its rows across opens.
    let mut k = Kitchen::open(dir.path().join("kitchen.db")).unwrap();
    assert_eq!(k.seed_if_empty(today()).unwrap(), None);
    let mut reg = SessionIdRegistry::new();
    k.execute(
        &ToolCall::new(
            "db_delete",
            json!({"table": "recipes",
        "filters": [{"field": "cuisine", "op": "=", "value": "thai"}]}),
        ),
        &mut reg,
        1,
    )
    .unwrap();
    assert_eq!(k.stats().unwrap().rows(Table::Recipes), 7);
    let report = k.reset(today()).unwrap();
    assert_eq!((report.recipes, report.inventory, report.tasks), (9, 59, 4));
    assert_eq!(k.stats().unwrap().rows(Table::Recipes), 9);
    assert_eq!(
        k.stats().unwrap().rows(Table::Ingredients),
        report.ingredients as u64
    );
}

#[test]
fn op_eq() {
    assert_eq!(
        recipes_where("cuisine", "=", json!("thai")),
        ["Thai Pad See Ew", "Thai Yellow Curry"]
    );
}

#[test]
fn op_ne_keeps_everything_else() {
    assert_eq!(
        recipes_where("cuisine", "!=", json!("indian")),
        [
            "Miso Glazed Air Fryer Cod",
            "Chai French Toast",
            "Dry Rub Wings",
            "Cod Assam Pedas",
            "Thai Pad See Ew",
            "Thai Yellow Curry"
        ]
    );
}

#[test]
fn op_gt() {
    assert_eq!(
        recipes_where("cook_time_minutes", ">", json!(20)),
        ["Dry Rub Wings", "Cod Assam Pedas", "Thai Yellow Curry"]
    );
}

#[test]
fn op_lt() {
    assert_eq!(
        recipes_where("prep_time_minutes", "<", json!("15")),
        [
            "Miso Glazed Air Fryer Cod",
            "Chai French Toast",
            "Dry Rub Wings"
        ]
    );
}

#[test]
fn op_ge() {
    assert_eq!(
        recipes_where("prep_time_minutes", ">=", json!(20)),
        ["Air Fryer Paneer Tikka", "Cod Assam Pedas"]
    );
}

#[test]
fn op_le() {
    assert_eq!(
        recipes_where("cook_time_minutes", "<=", json!(10)),
        [
            "Miso Glazed Air Fryer Cod",
            "Chai French Toast",
            "Thai Pad See Ew"
        ]
    );
}

#[test]
fn op_in() {
    assert_eq!(
        recipes_where("cuisine", "in", json!(["thai", "malaysian"])),
        ["Cod Assam Pedas", "Thai Pad See Ew", "Thai Yellow Curry"]
    );
}

#[test]
fn op_not_in_with_three_values() {
    assert_eq!(
        recipes_where("cuisine", "not_in", json!(["indian", "thai", "fusion"])),
        ["Cod Assam Pedas"]
    );
}

#[test]
fn op_ilike_is_case_insensitive() {
    assert_eq!(
        recipes_where("name", "ilike", json!("%CURRY%")),
        ["Kerala Cod Curry", "Thai Yellow Curry"]
    );
}

#[test]
fn op_not_ilike() {
    let rest = recipes_where("name", "not_ilike", json!("%air fryer%"));
    let expected: Vec<&str> = FILE_ORDER
        .into_iter()
        .filter(|n| !n.contains("Air Fryer"))
        .collect();
    assert_eq!(rest, expected);
    assert_eq!(rest.len(), 7);
}

#[test]
fn op_is_null_and_is_not_null() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let q = |op: &str| json!({"table": "tasks", "filters": [{"field": "recipe_id", "op": op}]});
        let none = read(k, &mut reg, q("is_null"));
        assert_eq!(
            names(&none),
            [
                "Deep-clean the air fryer basket",
                "Clear out old leftovers from the fridge"
            ]
        );
        let some = read(k, &mut reg, q("is_not_null"));
        assert_eq!(
            names(&some),
            [
                "Use up the paneer before it expires",
                "Pick up Chinese broccoli and Thai basil"
            ]
        );
    }
}

#[test]
fn op_contains_on_a_list_column_matches_elements() {
    assert_eq!(
        recipes_where("tags", "contains", json!("leftovers")),
        ["Chicken Tikka Bites", "Thai Yellow Curry"]
    );
    // A list means every element must be present; "curry" is no substring match.
    assert_eq!(
        recipes_where("tags", "contains", json!(["air-fryer", "high-protein"])),
        [
            "Miso Glazed Air Fryer Cod",
            "Air Fryer Paneer Tikka",
            "Chicken Tikka Bites",
            "Dry Rub Wings"
        ]
    );
    assert!(recipes_where("tags", "contains", json!("curr")).is_empty());
}

#[test]
fn op_contains_on_a_text_column_is_a_substring() {
    assert_eq!(
        recipes_where("description", "contains", json!("COCONUT")),
        ["Kerala Cod Curry", "Thai Yellow Curry"]
    );
}

#[test]
fn or_filters_are_one_group_anded_with_filters() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let r = read(
            k,
            &mut reg,
            json!({"table": "recipes",
            "filters": [{"field": "difficulty", "op": "=", "value": "easy"}],
            "or_filters": [{"field": "cuisine", "op": "=", "value": "thai"},
                           {"field": "cuisine", "op": "=", "value": "malaysian"}]}),
        );
        assert_eq!(names(&r), ["Thai Pad See Ew", "Thai Yellow Curry"]);
    }
}

#[test]
fn dates_compare_and_recipe_ingredients_filter() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let soon = read(
            k,
            &mut reg,
            json!({"table": "inventory",
            "filters": [{"field": "expiry_date", "op": "<=", "value": "2026-01-16"}]}),
        );
        assert_eq!(names(&soon), ["milk", "coriander", "brioche"]);
    }
    // On every store (recipes_where reads each, and compares them).
    let with_cod = recipes_where("ingredients", "contains", json!("cod"));
    assert_eq!(with_cod, COD.to_vec());
}

#[test]
fn cod_exclusion_reads_six_and_refs_follow_file_order() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        // A fresh registry names the first read's rows in file order.
        let all = read(k, &mut reg, json!({"table": "recipes"}));
        assert_eq!(names(&all), FILE_ORDER);
        let refs: Vec<&str> = all.rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(
            refs,
            (1..=9).map(|n| format!("recipe_{n}")).collect::<Vec<_>>()
        );
        for (r, name) in [
            ("recipe_1", COD[0]),
            ("recipe_2", COD[1]),
            ("recipe_7", COD[2]),
        ] {
            assert_eq!(reg.get(r).unwrap().label, name);
            assert_eq!(reg.get(r).unwrap().action, RefAction::Read);
        }
        let no_cod = read(
            k,
            &mut reg,
            json!({"table": "recipes",
            "filters": [{"field": "name", "op": "not_ilike", "value": "%cod%"}]}),
        );
        let refs: Vec<&str> = no_cod
            .rows
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        assert_eq!(
            refs,
            [
                "recipe_3", "recipe_4", "recipe_5", "recipe_6", "recipe_8", "recipe_9"
            ]
        );
        assert!(names(&no_cod).iter().all(|n| !COD.contains(n)));
        // Reads carry decoded lists and the nested ingredient lines.
        let first = &all.rows[0];
        assert!(first["tags"].as_array().unwrap().contains(&json!("curry")));
        assert_eq!(
            first["ingredients"][0],
            json!({"name": "cod fillet", "quantity": 300, "unit": "g"})
        );
    }
}

#[test]
fn dashboard_counts_expiry_plans_and_open_items() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let plan = json!([
            {"date": "2026-01-14", "meal_type": "dinner"},
            {"date": "2026-01-14", "meal_type": "lunch"},
            {"date": "2026-01-20", "meal_type": "dinner"},
            {"date": "2026-01-21", "meal_type": "dinner"}
        ]);
        k.execute(
            &ToolCall::new("db_create", json!({"table": "meal_plans", "data": plan})),
            &mut reg,
            1,
        )
        .unwrap();
        let d = k.session_context(today()).unwrap().dashboard;
        assert_eq!(
            (d.meal_slots_next_7_days, d.meal_days_covered_next_7_days),
            (3, 2)
        );
        assert_eq!((d.recipes_total, d.inventory_total), (9, 59));
        assert_eq!(d.inventory_by_location[0].name, "pantry");
        assert_eq!(d.inventory_by_location[0].count, 36);
        assert_eq!(
            d.expiring_soon,
            [
                "milk (2 days)",
                "coriander (2 days)",
                "brioche (2 days)",
                "greek yogurt (3 days)",
                "spring onion (3 days)",
                "banana (3 days)"
            ]
        );
        assert_eq!((d.shopping_open, d.tasks_open), (4, 3));
        // Days later, the same items have expired.
        let later = k.session_context(date(2026, 1, 17)).unwrap().dashboard;
        assert_eq!(later.expiring_soon[0], "milk (expired 1 day ago)");
    }
}

#[test]
fn stats_print_a_table() {
    let (dir, k) = seeded();
    let text = k.stats().unwrap().to_string();
    assert!(text.starts_with(&format!(
        "kitchen store {}",
        dir.path().join("kitchen.db").display()
    )));
    assert!(text.contains("  recipes                   9\n"), "{text}");
    assert!(text.contains("  meal_plans                0\n"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("  total"));
}

/// A recipe with a variation can go on every store: the variation stays,
/// let go of its parent (kitchen.db's ON DELETE SET NULL; Alfred's
/// `parent_recipe_id` has no rule, so the Postgres store clears it first).
#[test]
fn deleting_a_recipe_keeps_its_variation_without_a_parent() {
    for mut store in stores() {
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let base = run(
            k,
            &mut reg,
            1,
            "db_create",
            json!({"table": "recipes", "data": {"name": "Plain Dal", "instructions": ["Simmer."]}}),
        );
        let base_ref = base.rows[0]["id"].clone();
        let spicy = run(
            k,
            &mut reg,
            1,
            "db_create",
            json!({"table": "recipes", "data": {"name": "Spicy Dal", "instructions": ["Simmer hot."],
                   "parent_recipe_id": base_ref}}),
        );
        let spicy_ref = spicy.rows[0]["id"].clone();
        let gone = run(
            k,
            &mut reg,
            2,
            "db_delete",
            json!({"table": "recipes", "filters": filter("id", "=", base_ref)}),
        );
        assert_eq!(gone.count, 1, "{}: the parent went", store.name);
        let left = run(
            k,
            &mut reg,
            3,
            "db_read",
            json!({"table": "recipes", "filters": [{"field": "id", "op": "=", "value": spicy_ref}]}),
        );
        assert_eq!(left.count, 1, "{}: the variation stays", store.name);
        assert_eq!(
            left.rows[0]["parent_recipe_id"],
            Value::Null,
            "{}",
            store.name
        );
    }
}
