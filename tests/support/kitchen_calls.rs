//! Shared by the kitchen tests: a seeded store in a temp dir, tool calls
//! that must succeed or must be refused, and small query helpers.
#![allow(dead_code)]

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
