//! A saved recipe cooked ("made the tikka bites last night"): what it
//! takes, at the servings said, out of the stock. Each ingredient line the
//! stock holds in a unit that compares with the line's (grams with kilos,
//! millilitres with litres, counts with counts) is a use that `lower`
//! carries out; a line measured another way ("2 tsp garam masala" of a
//! jar) is named in the reply and left as it was.

use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::{ActAction, StepType};

use super::super::super::act_ctx::{ActCtx, call, complete};
use super::super::super::quantity::Quantity;
use super::super::super::text::plural;
use super::super::super::world::{num_field, text_field};
use super::super::recipes::act::in_base;
use super::super::{Named, best, known_rows};
use super::uses::Used;

/// Write steps planned, three ingredients a step: with the two reads,
/// five of the eight steps a plan may hold, so a request said beside it
/// still has room.
pub const WRITES: usize = 3;

/// The most ingredients one cooked recipe takes out of the stock.
pub const MOST: usize = WRITES * super::lower::PER_STEP;

/// The saved recipe called `name`, among the rows known.
pub fn recipe<'a>(rows: &[&'a Value], name: &str) -> Option<&'a Value> {
    let name = name.to_lowercase();
    rows.iter()
        .copied()
        .find(|r| text_field(r, "name").is_some_and(|n| n.to_lowercase() == name))
}

/// The uses a recipe cooked makes of the stock, and the lines it leaves
/// as they were ("garam masala (2 tsp)").
pub fn lines(recipe: &Value, stock: &[&Value], servings: Option<u32>) -> (Vec<Used>, Vec<String>) {
    let own = num_field(recipe, "servings").unwrap_or(0.0);
    let factor = match servings {
        Some(n) if own > 0.0 => f64::from(n) / own,
        _ => 1.0,
    };
    let mut used = Vec::new();
    let mut left = Vec::new();
    let lines = recipe
        .get("ingredients")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for l in &lines {
        let Some(name) = text_field(l, "name") else {
            continue;
        };
        let Some(row) = best(stock, name).first().copied() else {
            continue;
        };
        let unit = text_field(l, "unit").unwrap_or("");
        let need = num_field(l, "quantity").and_then(|q| in_base(q * factor, unit));
        let row_unit = text_field(row, "unit").unwrap_or("");
        let per = in_base(1.0, row_unit);
        match (need, per) {
            (Some((need, family)), Some((per, row_family)))
                if family == row_family && per > 0.0 =>
            {
                used.push(Used {
                    item: Named::item(text_field(row, "name").unwrap_or(name)),
                    amount: Quantity::Amount {
                        quantity: (need / per * 1e6).round() / 1e6,
                        unit: Some(row_unit.to_string()).filter(|u| !u.is_empty()),
                    },
                });
            }
            _ => {
                let amount = num_field(l, "quantity")
                    .map(|q| {
                        format!(
                            "{} {unit}",
                            super::super::super::text::fmt_number(q * factor)
                        )
                    })
                    .unwrap_or_default();
                left.push(format!("{name} ({})", amount.trim()).replace(" ()", ""));
            }
        }
    }
    // Past what the write steps can carry: named, left as they were.
    for u in used.drain(MOST.min(used.len())..) {
        if let Named::Item(name) = &u.item {
            left.push(format!("{name} (more than {MOST} at once)"));
        }
    }
    (used, left)
}

/// How the plan describes the read of the recipe cooked.
pub fn read_step(recipe: &str) -> String {
    format!("Read {recipe}")
}

/// How the plan describes each write of a recipe cooked.
pub fn write_step(recipe: &str) -> String {
    format!("Take what {recipe} used out of the inventory")
}

/// The next call of a cooked recipe's step, or its completion.
pub fn act(name: &str, servings: Option<u32>, c: &ActCtx<'_>) -> ActAction {
    let done = c.req.this_step_results.len();
    let table = if c.req.step.subdomain == "recipes" {
        "recipes"
    } else {
        "inventory"
    };
    match c.req.step.step_type {
        StepType::Read if done == 0 => call("db_read", json!({ "table": table })),
        StepType::Read => {
            let n = c.step_rows().len();
            let what = if table == "recipes" { "recipe" } else { "item" };
            complete(format!("Found {}", plural(n, what)), Value::Null, None)
        }
        _ => {
            // The rows as this ask's read steps found them (the recipe's,
            // then the stock's right after it), so every write step counts
            // the same uses in the same order, wherever a plan of several
            // requests put them.
            let data = c.req.input.data;
            let at = data
                .iter()
                .rev()
                .find(|d| d.description == read_step(name))
                .map(|d| d.step_index);
            let read = |k: Option<usize>| -> Vec<&Value> {
                data.iter()
                    .find(|d| Some(d.step_index) == k)
                    .and_then(|d| d.content.as_array())
                    .map(|a| a.iter().collect())
                    .unwrap_or_default()
            };
            let mut recipes = read(at);
            recipes.extend(known_rows(c, Table::Recipes));
            let Some(row) = recipe(&recipes, name) else {
                return complete(format!("No saved recipe called {name}"), Value::Null, None);
            };
            let mut stock = read(at.map(|k| k + 1));
            if stock.is_empty() {
                stock = known_rows(c, Table::Inventory);
            }
            let (used, _) = lines(row, &stock, servings);
            let k = c
                .req
                .input
                .prior_steps
                .iter()
                .filter(|p| p.description == write_step(name))
                .count();
            // A write step past the last use says what the whole did, not
            // "Nothing to change" (the history keeps the last step's word).
            if k * super::lower::PER_STEP >= used.len() && k > 0 {
                return complete(
                    format!("Took what {name} used out of the inventory"),
                    Value::Null,
                    None,
                );
            }
            super::lower::act_chunk(&used, c, k)
        }
    }
}
