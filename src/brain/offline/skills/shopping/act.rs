//! Act for the shopping list: read it, then delete what was asked.

use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::{ActAction, StepType};

use super::super::super::act::{ActCtx, call, complete, id_filter};
use super::super::super::text::join_list;
use super::super::super::world::text_field;
use super::super::Named;
use super::super::{best, known_rows, table_of_ref};
use super::Ask;

/// The next call of a shopping step, or its completion.
pub fn act(ask: &Ask, c: &ActCtx<'_>) -> ActAction {
    let done = c.req.this_step_results.len();
    match c.req.step.step_type {
        // The whole list, every time: the reply says what is still on it,
        // and a list half from memory would leave items out.
        StepType::Read if done == 0 => call("db_read", json!({"table": "shopping_list"})),
        StepType::Write if done == 0 => {
            let refs = meant(ask, c);
            if refs.is_empty() {
                return complete(
                    "No such item on the shopping list".into(),
                    Value::Null,
                    None,
                );
            }
            call(
                "db_delete",
                json!({"table": "shopping_list", "filters": [id_filter(&refs)]}),
            )
        }
        _ => {
            let names: Vec<String> = c
                .step_rows()
                .iter()
                .filter_map(|r| text_field(r, "name").map(String::from))
                .collect();
            let verb = if c.req.step.step_type == StepType::Write {
                "Removed"
            } else {
                "Found"
            };
            complete(
                format!("{verb} {}", join_list(&names, "and")),
                Value::Null,
                None,
            )
        }
    }
}

/// The list's rows an ask is about.
pub fn meant(ask: &Ask, c: &ActCtx<'_>) -> Vec<String> {
    let rows = known_rows(c, Table::ShoppingList);
    let id = |r: &&Value| r.get("id").and_then(Value::as_str).map(String::from);
    match ask {
        Ask::ClearAll => rows.iter().filter_map(id).collect(),
        Ask::ClearBought => rows
            .iter()
            .filter(|r| r.get("is_purchased").and_then(Value::as_bool) == Some(true))
            .filter_map(id)
            .collect(),
        Ask::Remove { items } | Ask::Has { items } => {
            let mut out = Vec::new();
            for n in items {
                let found: Vec<String> = match n {
                    Named::Item(x) => best(&rows, x).iter().filter_map(id).collect(),
                    Named::Shown => shown_names(c)
                        .iter()
                        .flat_map(|name| best(&rows, name))
                        .filter_map(|r| id(&r))
                        .collect(),
                };
                for f in found {
                    if !out.contains(&f) {
                        out.push(f);
                    }
                }
            }
            out
        }
    }
}

/// The names of what the last reply presented (shopping items, or the
/// pantry items "them" points at).
fn shown_names(c: &ActCtx<'_>) -> Vec<String> {
    c.reading
        .before
        .presented
        .iter()
        .filter(|r| {
            matches!(
                table_of_ref(r),
                Some(Table::ShoppingList | Table::Inventory)
            )
        })
        .map(|r| c.world.label(r))
        .collect()
}
