//! Act for a use: each item's rows lowered by its amount (a share of what
//! the row holds, in the row's unit) or taken out (all of it, or as much as
//! there was), sent as `{"add": -N}` deltas so another session's change to
//! the same row meanwhile still counts. Anything unclear — two different
//! items answering one name, a vague amount, units that do not compare, a
//! share of a row with no amount — is one short question, asked before
//! anything is written.
//!
//! Several items make up to three calls a step (one delete for every row
//! taken out, one update per row lowered); Think plans one write step per
//! three items.

use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::ActAction;

use super::super::super::act_ctx::{ActCtx, call, complete, filter, id_filter};
use super::super::super::quantity::Quantity;
use super::super::super::text::{fmt_number, is_filler, join_list, near, plural_noun, stem, stems};
use super::super::super::world::{num_field, text_field};
use super::super::{Named, best, known_rows};
use super::act::{left_after, shown_refs};
use super::uses::Used;

/// Items one write step handles.
pub const PER_STEP: usize = 3;

/// What one item's use does to the kitchen.
#[derive(Debug, Clone, PartialEq)]
enum Change {
    /// These rows are used up.
    Remove(Vec<String>),
    /// This row is lowered by this much (in its unit).
    Lower { id: String, by: f64 },
    /// What to ask instead.
    Ask(String),
    /// Nothing in the kitchen answers the name.
    Missing(String),
}

/// The next call of a use's write step, or its completion.
pub fn act(items: &[Used], c: &ActCtx<'_>) -> ActAction {
    // This use's write steps done before this one (a plan of several
    // requests puts other steps before them).
    let k = c
        .req
        .input
        .prior_steps
        .iter()
        .filter(|p| p.step_type == "write" && p.description.starts_with(WRITE_STEP))
        .count();
    act_chunk(items, c, k)
}

/// How a use's write step is described: "Lower or remove milk in the
/// inventory".
pub const WRITE_STEP: &str = "Lower or remove ";

/// The same for the `k`-th write step of the items (from 0).
pub fn act_chunk(items: &[Used], c: &ActCtx<'_>, k: usize) -> ActAction {
    let done = c.req.this_step_results.len();
    // This step's rows (deleted ones as they were) count as known, so an
    // item already handled is recognised and skipped.
    let handled: Vec<&str> = c
        .step_rows()
        .into_iter()
        .filter_map(|r| r.get("id")?.as_str())
        .collect();
    let mut rows = known_rows(c, Table::Inventory);
    rows.extend(c.step_rows());
    // Questions first, over every item: nothing is written when one needs
    // an answer.
    if done == 0 {
        for u in items {
            if let Change::Ask(q) = change(c, &rows, u) {
                return ActAction::AskUser { question: q };
            }
        }
    }
    let chunk = chunk(items, k);
    let mut removed: Vec<String> = Vec::new();
    let mut lowered: Vec<(String, f64)> = Vec::new();
    let mut missing: Vec<String> = Vec::new();
    for u in chunk {
        match change(c, &rows, u) {
            Change::Remove(ids) => {
                removed.extend(ids.into_iter().filter(|i| !handled.contains(&i.as_str())))
            }
            Change::Lower { id, by } if !handled.contains(&id.as_str()) => lowered.push((id, by)),
            Change::Missing(what) => missing.push(what),
            _ => {}
        }
    }
    if !removed.is_empty() {
        removed.sort();
        removed.dedup();
        return call(
            "db_delete",
            json!({"table": "inventory", "filters": [id_filter(&removed)]}),
        );
    }
    if let Some((id, by)) = lowered.first() {
        return call(
            "db_update",
            json!({"table": "inventory", "filters": [filter("id", "=", json!(id))],
                "data": {"quantity": {"add": -((by * 1e6).round() / 1e6)}}}),
        );
    }
    complete(summary(c, &missing), Value::Null, None)
}

/// The items this write step handles: the step's share of three.
fn chunk(items: &[Used], k: usize) -> &[Used] {
    let from = (k * PER_STEP).min(items.len());
    &items[from..(from + PER_STEP).min(items.len())]
}

/// "Removed milk; lowered banana. No lemongrass in the kitchen to take off".
fn summary(c: &ActCtx<'_>, missing: &[String]) -> String {
    let names = |tool: &str| -> Vec<String> {
        c.req
            .this_step_results
            .iter()
            .filter(|r| r.tool == tool)
            .flat_map(|r| r.rows.iter())
            .filter_map(|r| text_field(r, "name").map(String::from))
            .collect()
    };
    let (gone, less) = (names("db_delete"), names("db_update"));
    let mut parts = Vec::new();
    if !gone.is_empty() {
        parts.push(format!("Removed {}", join_list(&gone, "and")));
    }
    if !less.is_empty() {
        parts.push(format!("Lowered {}", join_list(&less, "and")));
    }
    let mut text = parts.join("; ");
    if !missing.is_empty() {
        if !text.is_empty() {
            text.push_str(". ");
        }
        text.push_str(&format!(
            "No {} in the kitchen to take off",
            join_list(missing, "or")
        ));
    }
    if text.is_empty() {
        "Nothing to change".into()
    } else {
        text
    }
}

/// The rows an item names.
fn rows_of<'a>(c: &ActCtx<'_>, rows: &[&'a Value], item: &Named) -> Vec<&'a Value> {
    let mut found: Vec<&Value> = match item {
        Named::Item(x) => best(rows, x),
        Named::Shown => {
            let shown = shown_refs(c);
            rows.iter()
                .copied()
                .filter(|r| {
                    r.get("id")
                        .and_then(Value::as_str)
                        .is_some_and(|i| shown.iter().any(|s| s == i))
                })
                .collect()
        }
    };
    let mut seen: Vec<&Value> = Vec::new();
    found.retain(|r| {
        let id = r.get("id");
        let fresh = !seen.iter().any(|s| s.get("id") == id);
        seen.push(r);
        fresh
    });
    found
}

/// The rows an answer to "which rice did you use: …?" picks ("the
/// jasmine"), else all of them.
fn chosen<'a>(c: &ActCtx<'_>, found: Vec<&'a Value>) -> Vec<&'a Value> {
    let Some(answer) = &c.reading.answer else {
        return found;
    };
    let said: Vec<String> = answer
        .words
        .iter()
        .filter(|w| !is_filler(w))
        .map(|w| stem(w))
        .collect();
    // The rows the answer names most of ("jasmine rice": jasmine rice,
    // not basmati rice).
    let score = |r: &Value| {
        let name = stems(text_field(r, "name").unwrap_or_default());
        said.iter()
            .filter(|w| name.iter().any(|n| near(n, w)))
            .count()
    };
    let best = found.iter().map(|r| score(r)).max().unwrap_or(0);
    if best == 0 {
        return found;
    }
    found.into_iter().filter(|r| score(r) == best).collect()
}

/// The amount an answer gives ("basmati, like 200g" → 200 g), for a use
/// whose request said none or only "some".
fn answered_amount(c: &ActCtx<'_>) -> Option<Quantity> {
    let answer = c.reading.answer.as_ref()?;
    super::super::super::items::parse_items(&answer.segments)
        .into_iter()
        .find_map(|i| {
            Some(Quantity::Amount {
                quantity: i.quantity?,
                unit: i.unit,
            })
        })
}

/// What using `u` does, given the rows known.
fn change(c: &ActCtx<'_>, rows: &[&Value], u: &Used) -> Change {
    let answered;
    let u = match (&u.amount, answered_amount(c)) {
        (Quantity::Unsaid | Quantity::Vague { .. }, Some(amount)) => {
            answered = Used {
                item: u.item.clone(),
                amount,
            };
            &answered
        }
        _ => u,
    };
    let found = chosen(c, rows_of(c, rows, &u.item));
    let what = match &u.item {
        Named::Item(x) => x.clone(),
        Named::Shown => "that".to_string(),
    };
    let ids: Vec<String> = found
        .iter()
        .filter_map(|r| r.get("id").and_then(Value::as_str).map(String::from))
        .collect();
    let Some(row) = found.first() else {
        return Change::Missing(what);
    };
    let mut names: Vec<&str> = found.iter().filter_map(|r| text_field(r, "name")).collect();
    names.sort_unstable();
    names.dedup();
    let all = matches!(u.amount, Quantity::All | Quantity::Unsaid);
    // Two different things answer the name ("rice": jasmine or basmati),
    // or one thing in two places with a part of it used.
    if names.len() > 1 || (ids.len() > 1 && !all) {
        let mut named: Vec<String> = found
            .iter()
            .map(|r| {
                let n = text_field(r, "name").unwrap_or("?");
                match (names.len(), text_field(r, "location")) {
                    (1, Some(l)) => format!("the {n} in the {l}"),
                    _ => n.to_string(),
                }
            })
            .collect();
        named.dedup();
        // "bin it" after a list: which of them, not "which it".
        if matches!(
            what.as_str(),
            "it" | "that" | "this" | "them" | "those" | "these"
        ) {
            return Change::Ask(format!(
                "Which one do you mean: {}?",
                join_list(&named, "or")
            ));
        }
        return Change::Ask(format!(
            "Which {what} did you use: {}?",
            join_list(&named, "or")
        ));
    }
    if all {
        return Change::Remove(ids);
    }
    let name = text_field(row, "name").unwrap_or(&what).to_string();
    let id = ids[0].clone();
    let had = num_field(row, "quantity").filter(|q| *q > 0.0);
    let unit = text_field(row, "unit").unwrap_or_default().to_string();
    let Some(had) = had else {
        return Change::Ask(format!(
            "I don't have an amount for the {name} — how much did you use?"
        ));
    };
    let units = if had != 1.0 && !matches!(unit.as_str(), "g" | "kg" | "ml" | "l" | "pcs") {
        plural_noun(&unit)
    } else {
        unit.clone()
    };
    let have = format!("You have {} {units} of {name}", fmt_number(had));
    let used = match &u.amount {
        Quantity::Amount {
            quantity,
            unit: said,
        } => match left_after(had, &unit, *quantity, said.as_deref()) {
            Some(left) => had - left,
            None => {
                return Change::Ask(format!("{have} — how much of that did you use?"));
            }
        },
        Quantity::Share { of } => share_used(had, &unit, *of),
        Quantity::Vague { .. } => {
            let much = if unit == "pcs" { "many" } else { "much" };
            return Change::Ask(format!("{have} — roughly how {much} did you use?"));
        }
        Quantity::All | Quantity::Unsaid => had,
    };
    if had - used <= 1e-9 {
        Change::Remove(vec![id])
    } else {
        Change::Lower { id, by: used }
    }
}

/// A share of a row in its unit; whole pieces stay whole ("half the 3
/// bananas" is 2, never 1.5).
fn share_used(had: f64, unit: &str, of: f64) -> f64 {
    let exact = had * of;
    if unit == "pcs" && had >= 2.0 && had.fract() == 0.0 {
        exact.round().max(1.0)
    } else {
        exact
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_of_whole_pieces_stay_whole() {
        assert_eq!(share_used(250.0, "g", 0.5), 125.0);
        assert_eq!(share_used(3.0, "pcs", 0.5), 2.0);
        assert_eq!(share_used(12.0, "pcs", 0.25), 3.0);
        assert_eq!(share_used(1.0, "pack", 0.5), 0.5);
        assert_eq!(share_used(2.0, "kg", 0.25), 0.5);
    }
}
