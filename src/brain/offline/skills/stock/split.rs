//! Part of one stock row moved to another place: "took 2 of the chicken
//! thighs out of the freezer into the fridge". The row keeps what stays
//! (lowered by a delta, so another session's change meanwhile counts) and
//! the part goes to the row of the same item already there, or to a new
//! row that keeps the item's use-by date and category. All of it, or more,
//! moves the row itself. An amount in a unit that does not compare with
//! the row's, or two rows for one name, is asked about before anything is
//! written.

use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::{ActAction, StepType};

use super::super::super::act_ctx::{ActCtx, call, complete, filter};
use super::super::super::reply_ctx::ReplyCtx;
use super::super::super::text::fmt_number;
use super::super::super::world::{num_field, text_field};
use super::super::{Named, Said, known_rows, rows_of_kind, shown, why_unchanged};
use super::act::{answering, left_after, places, said_as, shown_refs};

/// The next call of the move, or its completion.
pub fn act(item: &Named, quantity: f64, unit: Option<&str>, to: &str, c: &ActCtx<'_>) -> ActAction {
    let done = c.req.this_step_results.len();
    if done == 0 {
        return first(item, quantity, unit, to, c);
    }
    let Some(source) = c.req.this_step_results[0].rows.first() else {
        return complete("Nothing to change".into(), Value::Null, None);
    };
    let name = text_field(source, "name").unwrap_or("it").to_string();
    // The row itself went: nothing more to write.
    if text_field(source, "location") == Some(to) {
        return complete(format!("Moved {name} to the {to}"), Value::Null, None);
    }
    let row_unit = text_field(source, "unit").unwrap_or("");
    // A share is of what was there: the part beside what is left.
    let part = match unit {
        Some("share") => num_field(source, "quantity")
            .filter(|_| quantity < 1.0)
            .map(|left| left * quantity / (1.0 - quantity)),
        _ => part_of(row_unit, None, quantity, unit),
    };
    let Some(part) = part else {
        return complete("Nothing to change".into(), Value::Null, None);
    };
    if done >= 2 {
        return complete(
            format!("Moved {} {name} to the {to}", amount(part, row_unit)),
            Value::Null,
            None,
        );
    }
    // The same item already kept there, in the same unit, takes the part.
    let there = known_rows(c, Table::Inventory).into_iter().find(|r| {
        text_field(r, "name") == Some(name.as_str())
            && text_field(r, "location") == Some(to)
            && text_field(r, "unit").unwrap_or("") == row_unit
    });
    match there.and_then(|r| r.get("id")?.as_str()) {
        Some(id) => call(
            "db_update",
            json!({"table": "inventory", "filters": [filter("id", "=", json!(id))],
                "data": {"quantity": {"add": round(part)}}}),
        ),
        None => {
            let mut row = json!({"name": name, "quantity": round(part), "location": to});
            for key in ["unit", "category", "expiry_date", "ingredient_id"] {
                if let Some(v) = source.get(key).filter(|v| !v.is_null()) {
                    row[key] = v.clone();
                }
            }
            call("db_create", json!({"table": "inventory", "data": [row]}))
        }
    }
}

/// The first write: the row lowered by the part, or the whole row moved;
/// or the question asked instead.
fn first(item: &Named, quantity: f64, unit: Option<&str>, to: &str, c: &ActCtx<'_>) -> ActAction {
    let rows = known_rows(c, Table::Inventory);
    let found = answering(item, &rows, &shown_refs(c));
    let what = said_as(item);
    let elsewhere: Vec<&Value> = found
        .iter()
        .copied()
        .filter(|r| text_field(r, "location") != Some(to))
        .collect();
    let row = match (elsewhere.as_slice(), found.is_empty()) {
        (_, true) => {
            return complete(
                format!("No {what} in the kitchen to move"),
                Value::Null,
                None,
            );
        }
        ([], false) => {
            return complete(
                format!("The {what} is in the {to} already"),
                Value::Null,
                None,
            );
        }
        ([one], _) => *one,
        (many, _) => {
            return ActAction::AskUser {
                question: format!(
                    "Which one should {} go in the {to} from: {}?",
                    amount(quantity, unit.unwrap_or("")),
                    places(many)
                ),
            };
        }
    };
    let Some(id) = row.get("id").and_then(Value::as_str) else {
        return complete("Nothing to change".into(), Value::Null, None);
    };
    let name = text_field(row, "name").unwrap_or(&what);
    let row_unit = text_field(row, "unit").unwrap_or("");
    let have = num_field(row, "quantity");
    let Some(part) = part_of(row_unit, have, quantity, unit) else {
        return ActAction::AskUser {
            question: format!(
                "How much of the {name}{} goes in the {to}?",
                have.map_or_else(String::new, |h| format!(
                    " ({} in the {})",
                    amount(h, row_unit),
                    text_field(row, "location").unwrap_or("kitchen")
                ))
            ),
        };
    };
    let whole = have.is_none_or(|h| part >= h - 1e-9);
    let data = if whole {
        json!({"location": to})
    } else {
        json!({"quantity": {"add": -round(part)}})
    };
    call(
        "db_update",
        json!({"table": "inventory", "filters": [filter("id", "=", json!(id))], "data": data}),
    )
}

/// The part in the row's own unit: a share of what the row `have`s, or
/// the amount said in a unit that compares (a count, said with no unit,
/// only of a row kept as a count). `None` when they do not compare.
fn part_of(row_unit: &str, have: Option<f64>, quantity: f64, unit: Option<&str>) -> Option<f64> {
    let measured = matches!(row_unit, "g" | "kg" | "ml" | "l");
    let part = match unit.filter(|u| !u.is_empty()) {
        Some("share") if (0.0..1.0).contains(&quantity) => have.map(|h| h * quantity),
        Some("share") => None,
        None if measured => None,
        said => left_after(0.0, row_unit, -quantity, said),
    };
    part.filter(|p| *p > 0.0)
}

fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn amount(q: f64, unit: &str) -> String {
    if unit.is_empty() {
        fmt_number(q)
    } else {
        format!("{} {unit}", fmt_number(q))
    }
}

/// "Moved 2 chicken thigh to the fridge; 2 left in the freezer.", or why
/// nothing moved.
pub fn reply(c: &ReplyCtx<'_>, to: &str) -> Said {
    let written = rows_of_kind(c, Table::Inventory, StepType::Write);
    let Some(first) = written.first() else {
        let why = why_unchanged(c, "I couldn't tell which item you meant");
        return Said::text(format!("{why}, so nothing moved."));
    };
    let name = text_field(first, "name").unwrap_or("it");
    let unit = text_field(first, "unit").unwrap_or("");
    let text = match written.as_slice() {
        [whole] if text_field(whole, "location") == Some(to) => {
            format!("Moved all the {name} to the {to}.")
        }
        [source, dest, ..] => {
            let now_there = num_field(dest, "quantity").map(|q| amount(q, unit));
            let left = num_field(source, "quantity").map(|q| amount(q, unit));
            let from = text_field(source, "location").unwrap_or("kitchen");
            format!(
                "Moved {name} to the {to}{}{}.",
                now_there.map_or_else(String::new, |q| format!(" ({q} there now)")),
                left.map_or_else(String::new, |q| format!("; {q} left in the {from}")),
            )
        }
        _ => {
            let why = why_unchanged(c, "I couldn't move it");
            format!("{why}, so only part of it changed — check the {name} in the kitchen.")
        }
    };
    Said {
        text,
        presented: shown(&written),
        offer: None,
        confirm: None,
    }
}
