//! Kitchen tool calls that must not go through: per-turn rollback, refusals
//! with guidance (bad names, filter-less writes, invented refs), injection
//! attempts, and read limits.

use alfred::context::Table;
use alfred::context::registry::SessionIdRegistry;
use alfred::kitchen::{ToolCall, ToolError};
use serde_json::{Value, json};
#[path = "support/kitchen_calls.rs"]
mod kitchen_calls;

use kitchen_calls::{filter, recipe_count, refuse, run, seeded, stores};

#[test]
fn a_failed_turn_rolls_its_writes_back() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let add = |name: &str| json!({"table": "recipes", "data": {"name": name}});
        k.begin_turn().unwrap();
        run(k, &mut reg, 1, "db_create", add("Doomed Dal"));
        assert_eq!(recipe_count(k), 10);
        k.rollback_turn().unwrap();
        assert_eq!(recipe_count(k), 9);
        {
            let mut turn = k.turn().unwrap();
            run(&mut turn, &mut reg, 2, "db_create", add("Dropped Dal"));
            // The guard is dropped without commit.
        }
        assert_eq!(recipe_count(k), 9);
        let mut turn = k.turn().unwrap();
        run(&mut turn, &mut reg, 3, "db_create", add("Kept Dal"));
        // A refused call inside the turn leaves the turn's earlier writes alone.
        let bad = json!({"table": "recipes", "data": [{"name": "Half"}, {"name": "Batch", "servings": "many"}]});
        assert!(
            turn.execute(&ToolCall::new("db_create", bad), &mut reg, 3)
                .is_err()
        );
        turn.commit().unwrap();
        let names: Vec<String> = run(
            k,
            &mut reg,
            4,
            "db_read",
            json!({"table": "recipes",
            "filters": filter("name", "ilike", json!("%dal%"))}),
        )
        .rows
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
        assert_eq!(names, ["Kept Dal"]);
    }
}

#[test]
fn bad_names_and_filterless_writes_are_refused_with_guidance() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let err = refuse(k, &mut reg, "db_read", json!({"table": "recipe"}));
        assert!(
            err.to_string()
                .starts_with("unknown table \"recipe\"; tables are: recipes,"),
            "{err}"
        );
        let err = refuse(
            k,
            &mut reg,
            "db_read",
            json!({"table": "recipes", "filters": filter("colour", "=", json!("red"))}),
        );
        assert!(
            err.to_string()
                .starts_with("unknown column \"colour\" in table recipes; columns are: id, name,"),
            "{err}"
        );
        let err = refuse(
            k,
            &mut reg,
            "db_read",
            json!({"table": "recipes", "filters": filter("name", "like", json!("%a%"))}),
        );
        assert!(
            err.to_string()
                .starts_with("unknown operator \"like\"; use one of: =, !=,"),
            "{err}"
        );
        let err = refuse(
            k,
            &mut reg,
            "db_update",
            json!({"table": "recipes", "data": {"servings": 4}}),
        );
        assert_eq!(
            err.to_string(),
            "db_update needs at least one filter (to touch every row, say which rows)"
        );
        let err = refuse(
            k,
            &mut reg,
            "db_delete",
            json!({"table": "recipes", "filters": []}),
        );
        assert!(
            err.to_string()
                .starts_with("db_delete needs at least one filter"),
            "{err}"
        );
        let err = refuse(
            k,
            &mut reg,
            "db_create",
            json!({"table": "recipes", "data": {"name": "X", "colour": "red"}}),
        );
        assert!(
            err.to_string().starts_with("unknown column \"colour\""),
            "{err}"
        );
        assert_eq!(recipe_count(k), 9);
    }
}

#[test]
fn invented_refs_are_refused() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        run(k, &mut reg, 1, "db_read", json!({"table": "recipes"}));
        let err = refuse(
            k,
            &mut reg,
            "db_read",
            json!({"table": "recipes", "filters": filter("id", "=", json!("recipe_42"))}),
        );
        assert!(
            err.to_string().starts_with("unknown ref \"recipe_42\""),
            "{err}"
        );
        let err = refuse(
            k,
            &mut reg,
            "db_read",
            json!({"table": "recipes", "filters": filter("id", "in", json!(["recipe_1", "recipe_10"]))}),
        );
        assert!(err.to_string().contains("recipe_10"), "{err}");
        let err = refuse(
            k,
            &mut reg,
            "db_create",
            json!({"table": "tasks", "data": {"title": "Prep", "recipe_id": "recipe_77"}}),
        );
        assert!(
            err.to_string().starts_with("unknown ref \"recipe_77\""),
            "{err}"
        );
        run(
            k,
            &mut reg,
            1,
            "db_read",
            json!({"table": "inventory", "limit": 1}),
        );
        let err = refuse(
            k,
            &mut reg,
            "db_create",
            json!({"table": "tasks", "data": {"title": "Prep", "recipe_id": "inv_1"}}),
        );
        assert_eq!(
            err.to_string(),
            "ref \"inv_1\" points at inventory, but recipe_id expects a ref to recipes"
        );
        assert_eq!(k.stats().unwrap().rows(Table::Tasks), 4);
    }
}

#[test]
fn injection_attempts_are_just_values_or_unknown_columns() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let r = run(
            k,
            &mut reg,
            1,
            "db_read",
            json!({"table": "recipes",
            "filters": filter("name", "=", json!("x'; DROP TABLE recipes; --"))}),
        );
        assert_eq!(r.count, 0);
        assert_eq!(recipe_count(k), 9, "the table still exists");
        let err = refuse(
            k,
            &mut reg,
            "db_read",
            json!({"table": "recipes",
            "filters": filter("name; DROP TABLE recipes", "=", json!("x"))}),
        );
        assert!(matches!(err, ToolError::UnknownColumn { .. }), "{err}");
        let err = refuse(
            k,
            &mut reg,
            "db_read",
            json!({"table": "recipes; DROP TABLE recipes"}),
        );
        assert!(matches!(err, ToolError::UnknownTable { .. }), "{err}");
        let err = refuse(
            k,
            &mut reg,
            "db_read",
            json!({"table": "recipes", "order_by": "name; DROP TABLE recipes"}),
        );
        assert!(matches!(err, ToolError::UnknownColumn { .. }), "{err}");
        let saved = run(
            k,
            &mut reg,
            1,
            "db_create",
            json!({"table": "recipes", "data": {"name": "Robert'); DROP TABLE recipes;--"}}),
        );
        assert_eq!(saved.rows[0]["name"], "Robert'); DROP TABLE recipes;--");
        assert_eq!(recipe_count(k), 10);
    }
}

#[test]
fn read_limits_default_to_100_and_cap_at_1000() {
    for mut store in stores() {
        eprintln!("store: {}", store.name);
        let k = &mut store.kitchen;
        let mut reg = SessionIdRegistry::new();
        let many: Vec<Value> = (0..1000)
            .map(|i| json!({"name": format!("item {i}"), "quantity": 1, "unit": "pcs"}))
            .collect();
        let made = run(
            k,
            &mut reg,
            1,
            "db_create",
            json!({"table": "inventory", "data": many}),
        );
        assert_eq!(made.count, 1000);
        let mut fresh = SessionIdRegistry::new();
        let default = run(k, &mut fresh, 2, "db_read", json!({"table": "inventory"}));
        assert_eq!(default.count, 100);
        assert!(
            default.notes[0].starts_with("more rows match than the 100 returned"),
            "{:?}",
            default.notes
        );
        let capped = run(
            k,
            &mut fresh,
            2,
            "db_read",
            json!({"table": "inventory", "limit": 5000}),
        );
        assert_eq!(capped.count, 1000);
        assert_eq!(
            capped.notes[0],
            "limit 5000 is above the maximum; capped at 1000"
        );
        let err = refuse(
            k,
            &mut fresh,
            "db_read",
            json!({"table": "inventory", "limit": 0}),
        );
        assert!(
            err.to_string().contains("limit must be at least 1"),
            "{err}"
        );
        let desc = run(
            k,
            &mut fresh,
            2,
            "db_read",
            json!({"table": "inventory", "limit": 1,
            "order_by": "created_at", "order_dir": "desc", "columns": ["name"]}),
        );
        assert_eq!(desc.rows[0]["name"], "item 999");
        assert_eq!(
            desc.rows[0].as_object().unwrap().len(),
            2,
            "id and the requested column"
        );
    }
}

#[test]
fn an_open_turn_holds_no_lock_and_shows_nothing_to_others_until_committed() {
    let (dir, mut k) = seeded();
    let mut other = alfred::kitchen::Kitchen::open(dir.path().join("kitchen.db")).unwrap();
    let mut reg = SessionIdRegistry::new();
    let mut reg2 = SessionIdRegistry::new();
    let add = |name: &str| json!({"table": "recipes", "data": {"name": name}});
    k.begin_turn().unwrap();
    run(&mut k, &mut reg, 1, "db_create", add("Slow Dal"));
    // The turn reads its own write; nobody else sees it yet.
    assert_eq!(recipe_count(&k), 10);
    assert_eq!(recipe_count(&other), 9);
    // While the turn is open (a model thinking), another process writes at once.
    let started = std::time::Instant::now();
    run(&mut other, &mut reg2, 1, "db_create", add("Quick Soup"));
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    // The turn sees the other write too, and commits on top of it, stamped.
    assert_eq!(recipe_count(&k), 11);
    let stamp = alfred::kitchen::CommitStamp {
        commit_id: "c-1".into(),
        session_id: "s".into(),
        turn: 1,
    };
    assert_eq!(k.has_commit("c-1").unwrap(), Some(false));
    k.commit_stamped(Some(&stamp)).unwrap();
    assert_eq!(recipe_count(&other), 11);
    assert_eq!(other.has_commit("c-1").unwrap(), Some(true));
    // A dropped turn leaves neither writes nor a stamp.
    k.begin_turn().unwrap();
    run(&mut k, &mut reg, 2, "db_create", add("Never Dal"));
    k.rollback_turn().unwrap();
    assert_eq!(recipe_count(&other), 11);
    assert_eq!(other.has_commit("c-2").unwrap(), Some(false));
}

#[test]
fn several_processes_opening_a_new_store_at_once_seed_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kitchen.db");
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut k = alfred::kitchen::Kitchen::open(&path).map_err(|e| e.to_string())?;
                k.seed_if_empty(kitchen_calls::today())
                    .map(|r| r.is_some())
                    .map_err(|e| e.to_string())
            })
        })
        .collect();
    let seeded: Vec<bool> = threads
        .into_iter()
        .map(|t| t.join().unwrap().expect("every opener succeeds"))
        .collect();
    assert_eq!(seeded.iter().filter(|s| **s).count(), 1, "{seeded:?}");
    let k = alfred::kitchen::Kitchen::open(&path).unwrap();
    assert_eq!(recipe_count(&k), 9);
}
