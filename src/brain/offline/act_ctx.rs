//! What every Act rule reads and answers with: the context (the request,
//! the world, the step's reading and intent) with its lookups of this
//! turn's rows, and the tool-call, completion and filter builders.

use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::{ActAction, ActRequest};

use super::lexicon::Intent;
use super::reading::Reading;
use super::world::World;

/// Everything an Act rule looks at.
pub struct ActCtx<'a> {
    pub req: &'a ActRequest<'a>,
    pub world: World<'a>,
    pub reading: Reading,
    pub intent: Intent,
}

impl<'a> ActCtx<'a> {
    /// Refs Understand resolved that belong to `table`.
    pub fn referenced_in(&self, table: Table) -> Vec<String> {
        self.req
            .understand
            .referenced_entities
            .iter()
            .filter(|r| self.world.get(r).is_some_and(|e| e.e.table == table))
            .cloned()
            .collect()
    }

    /// Rows this turn's earlier steps produced (arrays flattened).
    pub fn data_rows(&self) -> Vec<&'a Value> {
        let mut out = Vec::new();
        for d in self.req.input.data {
            if let Value::Array(items) = &d.content {
                out.extend(items.iter());
            }
        }
        out
    }

    /// This turn's data row of a ref, if an earlier step returned it.
    pub fn data_row(&self, r: &str) -> Option<&'a Value> {
        self.data_rows()
            .into_iter()
            .find(|v| v.get("id").and_then(Value::as_str) == Some(r))
    }

    /// This turn's data rows, then the inventory rows loaded in earlier
    /// turns: what the kitchen is known to hold.
    pub fn inventory_rows(&self) -> Vec<&'a Value> {
        let mut rows = self.data_rows();
        rows.extend(
            self.world
                .loaded(Table::Inventory)
                .into_iter()
                .map(|(_, v)| v),
        );
        rows
    }

    /// Rows returned by this step's calls so far.
    pub fn step_rows(&self) -> Vec<&'a Value> {
        self.req
            .this_step_results
            .iter()
            .flat_map(|r| r.rows.iter())
            .collect()
    }

    /// Loaded refs of a table (active with content), optionally filtered.
    pub fn loaded_refs(&self, table: Table, keep: impl Fn(&Value) -> bool) -> Vec<String> {
        self.world
            .loaded(table)
            .into_iter()
            .filter(|(r, row)| keep(row) && self.world.get(r).is_some_and(|e| e.e.row_id.is_some()))
            .map(|(r, _)| r.to_string())
            .collect()
    }
}

/// A tool call.
pub fn call(tool: &str, params: Value) -> ActAction {
    ActAction::ToolCall {
        tool: tool.to_string(),
        params,
    }
}

/// The step is done.
pub fn complete(summary: String, data: Value, note: Option<String>) -> ActAction {
    ActAction::StepComplete {
        result_summary: summary,
        data,
        note_for_next_step: note,
    }
}

/// `{field, op, value}`.
pub fn filter(field: &str, op: &str, value: Value) -> Value {
    json!({"field": field, "op": op, "value": value})
}

/// An id filter: `=` for one ref, `in` for several.
pub fn id_filter(refs: &[String]) -> Value {
    match refs {
        [one] => filter("id", "=", json!(one)),
        many => filter("id", "in", json!(many)),
    }
}
