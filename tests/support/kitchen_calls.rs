//! Shared by the kitchen tests: a seeded store in a temp dir (and, where
//! the throwaway Postgres cluster runs, in a fresh Postgres database), tool
//! calls that must succeed or must be refused, and small query helpers.
#![allow(dead_code)]

#[path = "pg_cluster.rs"]
pub mod pg_cluster;

use alfred::context::Table;
use alfred::context::registry::SessionIdRegistry;
use alfred::kitchen::{Kitchen, ToolCall, ToolError, ToolResult};
use jiff::civil::{Date, date};
use serde_json::{Value, json};
use tempfile::TempDir;

/// The day the kitchen is seeded on (expiry dates count from it).
pub fn today() -> Date {
    date(2026, 1, 14)
}

/// A kitchen file seeded with the sample kitchen on [`today`].
pub fn seeded() -> (TempDir, Kitchen) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut k = Kitchen::open(dir.path().join("kitchen.db")).expect("open");
    k.seed_if_empty(today())
        .expect("seed")
        .expect("first run seeds");
    (dir, k)
}

/// The Alfred user whose kitchen the Postgres tests use.
pub const USER: &str = "5f0c6a8e-2b4d-4e1f-9a3c-7d8e9f001122";

/// A seeded kitchen on one store, with what keeps it alive.
pub struct Seeded {
    /// "sqlite" or "postgres", for failure messages.
    pub name: &'static str,
    pub kitchen: Kitchen,
    _dir: Option<TempDir>,
}

/// The sample kitchen on every store this machine runs: a SQLite file, and
/// a fresh Postgres database with Alfred's schema when the throwaway
/// cluster runs (without it, the harness says loudly that it skipped).
pub fn stores() -> Vec<Seeded> {
    let (dir, kitchen) = seeded();
    let mut out = vec![Seeded {
        name: "sqlite",
        kitchen,
        _dir: Some(dir),
    }];
    if let Some((_, k)) = seeded_postgres() {
        out.push(Seeded {
            name: "postgres",
            kitchen: k,
            _dir: None,
        });
    }
    out
}

/// The sample kitchen of [`USER`] in a fresh Postgres database, made by
/// `kitchen init`'s path, and the database's URL; `None` without a cluster.
pub fn seeded_postgres() -> Option<(String, Kitchen)> {
    let url = pg_cluster::cluster()?.fresh_database();
    let mut k = Kitchen::init_postgres(&url, USER).expect("init the Postgres kitchen");
    k.seed_if_empty(today())
        .expect("seed")
        .expect("a new database seeds");
    Some((url, k))
}

/// Runs a tool call that must succeed.
pub fn run(
    k: &mut Kitchen,
    reg: &mut SessionIdRegistry,
    turn: u32,
    tool: &str,
    params: Value,
) -> ToolResult {
    k.execute(&ToolCall::new(tool, params.clone()), reg, turn)
        .unwrap_or_else(|e| panic!("{tool} {params} failed: {e}"))
}

/// Runs a tool call that must be refused; returns the refusal.
pub fn refuse(
    k: &mut Kitchen,
    reg: &mut SessionIdRegistry,
    tool: &str,
    params: Value,
) -> ToolError {
    match k.execute(&ToolCall::new(tool, params.clone()), reg, 1) {
        Ok(r) => panic!("{tool} {params} should fail, returned {} rows", r.count),
        Err(e) => e,
    }
}

/// A `filters` list of one condition.
pub fn filter(field: &str, op: &str, value: Value) -> Value {
    json!([{"field": field, "op": op, "value": value}])
}

/// How many recipes the store holds.
pub fn recipe_count(k: &Kitchen) -> u64 {
    k.stats().unwrap().rows(Table::Recipes)
}
