//! Read-modify-write between processes: several `alfred run` processes at
//! once on one kitchen, each using the same item again and again. Every
//! relative change counts (none lost, none doubled), on SQLite and on
//! Postgres; and a change set to a value that another process changed
//! meanwhile fails its turn with a sentence instead of overwriting it.

#[path = "support/pg_cluster.rs"]
mod pg_cluster;
#[path = "support/sandbox.rs"]
mod sandbox;

use std::process::Output;

use alfred::context::registry::SessionIdRegistry;
use alfred::kitchen::{Kitchen, KitchenError, ToolCall, ToolResult};
use sandbox::{Sandbox, stderr};
use serde_json::{Value, json};

const USER: &str = "8d1c0d5e-4f5a-4c1e-9d55-6a0e2a7c3b11";
const PROCESSES: usize = 4;
const TURNS: usize = 10;
const MESSAGE: &str = "i used 10g of the jasmine rice";

/// Runs `PROCESSES` processes of `TURNS` messages each at once, each on a
/// session of its own; their outputs.
fn at_once(sandbox: &Sandbox, store: &[&str], message: &str) -> Vec<Output> {
    let children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            let mut args: Vec<&str> = vec!["--llm", "offline"];
            args.extend_from_slice(store);
            args.extend_from_slice(&["run", "--new", "--json"]);
            for _ in 0..TURNS {
                args.extend_from_slice(&["-m", message]);
            }
            sandbox
                .bare()
                .arg("--data-dir")
                .arg(sandbox.data_dir())
                .args(&args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn alfred")
        })
        .collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().expect("wait"))
        .collect()
}

/// The turns that reported ok, over all outputs.
fn ok_turns(outputs: &[Output]) -> usize {
    outputs
        .iter()
        .flat_map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .into_owned()
                .lines()
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(&l).ok())
        .filter(|r| r["status"] == "ok")
        .count()
}

/// Every turn ok, and the rice down by exactly 10 g a turn.
fn check(outputs: &[Output], before_kg: f64, after_kg: f64) {
    for o in outputs {
        assert!(o.status.success(), "a process failed:\n{}", stderr(o));
    }
    assert_eq!(
        ok_turns(outputs),
        PROCESSES * TURNS,
        "every turn reported ok"
    );
    let expected = before_kg - 0.01 * (PROCESSES * TURNS) as f64;
    assert!(
        (after_kg - expected).abs() < 1e-6,
        "{before_kg} kg less {} × 10 g is {expected} kg, the kitchen has {after_kg} kg",
        PROCESSES * TURNS
    );
}

fn rice_sqlite(sandbox: &Sandbox) -> f64 {
    let db = rusqlite::Connection::open(sandbox.data_dir().join("kitchen.db")).unwrap();
    db.query_row(
        "SELECT quantity FROM inventory WHERE name = 'jasmine rice'",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

#[test]
fn four_processes_using_the_same_rice_on_sqlite_lose_no_use() {
    let sandbox = Sandbox::new();
    // The first run seeds the kitchen.
    let first = sandbox.run(&["--llm", "offline", "run", "--new", "-m", "hi"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let before = rice_sqlite(&sandbox);
    let outputs = at_once(&sandbox, &[], MESSAGE);
    check(&outputs, before, rice_sqlite(&sandbox));
}

fn rice_postgres(url: &str) -> f64 {
    let rows = pg_cluster::sql(
        url,
        &format!(
            "SELECT quantity::float8 FROM inventory WHERE name = 'jasmine rice' \
             AND user_id = '{USER}'"
        ),
    );
    rows[0][0].as_deref().unwrap().parse().unwrap()
}

#[test]
fn four_processes_using_the_same_rice_on_postgres_lose_no_use() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    let sandbox = Sandbox::new();
    let store = ["--store", url.as_str(), "--user", USER];
    let init = sandbox.run(&[&store[..], &["kitchen", "init"]].concat());
    assert!(init.status.success(), "{}", stderr(&init));
    let before = rice_postgres(&url);
    let outputs = at_once(&sandbox, &store, MESSAGE);
    check(&outputs, before, rice_postgres(&url));
}

/// Two kitchens on one `kitchen.db`, as two processes have them, and the
/// folder that holds it.
fn two_kitchens(seeded: bool) -> (tempfile::TempDir, Kitchen, Kitchen) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kitchen.db");
    let mut mine = Kitchen::open(&path).unwrap();
    if seeded {
        mine.seed_if_empty("2026-11-27".parse().unwrap()).unwrap();
    }
    let theirs = Kitchen::open(&path).unwrap();
    (dir, mine, theirs)
}

/// Runs one tool call that must be accepted.
fn call(k: &mut Kitchen, reg: &mut SessionIdRegistry, tool: &str, params: Value) -> ToolResult {
    k.execute(&ToolCall::new(tool, params), reg, 1)
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

/// The commit's conflict sentence.
fn conflict(k: &mut Kitchen) -> String {
    match k.commit_turn() {
        Err(KitchenError::Conflict(why)) => why,
        other => panic!("a conflict, not {other:?}"),
    }
}

/// Reads the rice and sets it to `quantity`.
fn set_rice(k: &mut Kitchen, reg: &mut SessionIdRegistry, quantity: f64) {
    let found = call(
        k,
        reg,
        "db_read",
        json!({"table": "inventory", "filters": [{"field": "name", "op": "=", "value": "jasmine rice"}]}),
    );
    let r = found.rows[0]["id"].as_str().unwrap().to_string();
    call(
        k,
        reg,
        "db_update",
        json!({"table": "inventory", "filters": [{"field": "id", "op": "=", "value": r}], "data": {"quantity": quantity}}),
    );
}

#[test]
fn a_value_another_process_changed_meanwhile_is_not_overwritten() {
    let (dir, mut mine, mut theirs) = two_kitchens(true);
    // My turn reads the rice and sets it to a value…
    mine.begin_turn().unwrap();
    set_rice(&mut mine, &mut SessionIdRegistry::new(), 1.5);
    // …while another process sets it to another, and commits first.
    set_rice(&mut theirs, &mut SessionIdRegistry::new(), 0.4);
    let why = conflict(&mut mine);
    assert!(
        why.contains("jasmine rice changed while this turn ran"),
        "{why}"
    );
    assert!(why.contains("0.4 now, not the 2 this turn read"), "{why}");
    assert!(why.contains("nothing of this turn was saved"), "{why}");
    let db = rusqlite::Connection::open(dir.path().join("kitchen.db")).unwrap();
    let q: f64 = db
        .query_row(
            "SELECT quantity FROM inventory WHERE name = 'jasmine rice'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(q, 0.4, "the other process's value stands");
}

#[test]
fn a_slot_another_process_planned_meanwhile_fails_the_turn_in_words() {
    let (_dir, mut mine, mut theirs) = two_kitchens(false);
    let plan = json!({"table": "meal_plans", "data": {"date": "2031-01-07", "meal_type": "dinner", "notes": "x"}});
    mine.begin_turn().unwrap();
    call(
        &mut mine,
        &mut SessionIdRegistry::new(),
        "db_create",
        plan.clone(),
    );
    call(
        &mut theirs,
        &mut SessionIdRegistry::new(),
        "db_create",
        plan,
    );
    let why = conflict(&mut mine);
    assert!(
        why.contains("another session saved a meal_plans row with the same date and meal_type"),
        "{why}"
    );
    assert!(!why.contains("UNIQUE constraint"), "{why}");
}
