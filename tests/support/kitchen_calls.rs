//! Shared by the kitchen tests: a seeded store in a temp dir, and tool calls
//! that must succeed or must be refused.

use alfred::context::registry::SessionIdRegistry;
use alfred::kitchen::{Kitchen, ToolCall, ToolError, ToolResult};
use jiff::civil::date;
use serde_json::Value;
use tempfile::TempDir;

/// A kitchen file seeded with the sample kitchen (today 2026-01-14).
pub fn seeded() -> (TempDir, Kitchen) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut k = Kitchen::open(dir.path().join("kitchen.db")).expect("open");
    k.seed_if_empty(date(2026, 1, 14))
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
