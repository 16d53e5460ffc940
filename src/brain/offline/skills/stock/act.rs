//! Act for stock: find the rows an ask is about, then lower or remove the
//! one used.

use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::{ActAction, StepType};

use super::super::super::act_ctx::{ActCtx, call, complete, filter, id_filter};
use super::super::super::world::text_field;
use super::super::Named;
use super::super::when::days_after;
use super::super::{best, known_rows, table_of_ref};
use super::Ask;

/// Days ahead that count as "going off soon".
pub const SOON_DAYS: i64 = 4;

/// The next call of a stock step, or its completion.
pub fn act(ask: &Ask, c: &ActCtx<'_>) -> ActAction {
    if let Ask::Cooked { recipe, servings } = ask {
        return super::cooked::act(recipe, *servings, c);
    }
    let done = c.req.this_step_results.len();
    match c.req.step.step_type {
        StepType::Read if done == 0 => call("db_read", read_params(ask, c)),
        StepType::Analyze => {
            let rows: Vec<Value> = matching(ask, c, &known_rows(c, Table::Inventory))
                .into_iter()
                .cloned()
                .collect();
            let n = rows.len();
            complete(
                format!("Found {n} matching items"),
                Value::Array(rows),
                None,
            )
        }
        StepType::Write if matches!(ask, Ask::MovePart { .. }) => match ask {
            Ask::MovePart {
                item,
                quantity,
                unit,
                to,
            } => super::split::act(item, *quantity, unit.as_deref(), to, c),
            _ => complete("Nothing to change".into(), Value::Null, None),
        },
        StepType::Write if done == 0 => match ask {
            Ask::Use { items } => super::lower::act(items, c),
            Ask::Move { items, to } => move_rows(items, to, c),
            Ask::Set {
                item,
                quantity,
                unit,
            } => set_row(item, *quantity, unit.as_deref(), c),
            Ask::SetExpiry { item, day } => set_expiry(item, *day, c),
            _ => complete("Nothing to change".into(), Value::Null, None),
        },
        StepType::Write if matches!(ask, Ask::Use { .. }) => match ask {
            Ask::Use { items } => super::lower::act(items, c),
            _ => complete("Nothing to change".into(), Value::Null, None),
        },
        StepType::Write => {
            let removed = c
                .req
                .input
                .this_step_calls
                .last()
                .is_some_and(|v| v.tool == "db_delete");
            let names: Vec<String> = c
                .step_rows()
                .iter()
                .filter_map(|r| text_field(r, "name").map(String::from))
                .collect();
            let verb = match ask {
                Ask::Set { .. } | Ask::SetExpiry { .. } => {
                    let names = super::super::super::text::join_list(&names, "and");
                    return complete(format!("Set {names}"), Value::Null, None);
                }
                Ask::Move { to, .. } => {
                    let names = super::super::super::text::join_list(&names, "and");
                    return complete(format!("Moved {names} to the {to}"), Value::Null, None);
                }
                _ if removed => "Removed",
                _ => "Lowered",
            };
            complete(
                format!(
                    "{verb} {}",
                    super::super::super::text::join_list(&names, "and")
                ),
                Value::Null,
                None,
            )
        }
        _ => {
            let n = c.step_rows().len();
            complete(format!("Found {n} matching items"), Value::Null, None)
        }
    }
}

/// The refs of the inventory items the last reply presented.
pub fn shown_refs(c: &ActCtx<'_>) -> Vec<String> {
    c.reading
        .before
        .presented
        .iter()
        .filter(|r| table_of_ref(r) == Some(Table::Inventory))
        .cloned()
        .collect()
}

fn read_params(ask: &Ask, c: &ActCtx<'_>) -> Value {
    let today = c.req.input.today;
    let (items, place): (&[Named], Option<&String>) = match ask {
        Ask::Expiring { location } => {
            let mut filters = vec![filter(
                "expiry_date",
                "<=",
                json!(days_after(today, SOON_DAYS).unwrap_or_else(|| today.to_string())),
            )];
            if let Some(l) = location {
                filters.push(filter("location", "=", json!(l)));
            }
            return json!({"table": "inventory", "filters": filters, "order_by": "expiry_date"});
        }
        Ask::ExpiryOf { items } => (items, None),
        Ask::HowMuch { items, location } => (items, location.as_ref()),
        Ask::Use { items } => {
            let named: Vec<Named> = items.iter().map(|u| u.item.clone()).collect();
            return read_named(c, &named, None);
        }
        Ask::UsedWhat { .. } | Ask::Cooked { .. } => (&[], None),
        Ask::Move { items, .. } => (items, None),
        Ask::Set { item, .. } | Ask::SetExpiry { item, .. } | Ask::MovePart { item, .. } => {
            (std::slice::from_ref(item), None)
        }
    };
    read_named(c, items, place)
}

/// The write of a move: the rows each name answers, to their new place;
/// nothing found, or two different items for one name, is said or asked
/// before anything is written.
fn move_rows(items: &[Named], to: &str, c: &ActCtx<'_>) -> ActAction {
    let rows = known_rows(c, Table::Inventory);
    let shown = shown_refs(c);
    let mut ids: Vec<String> = Vec::new();
    for n in items {
        let found = answering(n, &rows, &shown);
        let mut names: Vec<&str> = found.iter().filter_map(|r| text_field(r, "name")).collect();
        names.dedup();
        match (found.as_slice(), n) {
            ([], Named::Item(x)) => {
                return complete(format!("No {x} in the kitchen to move"), Value::Null, None);
            }
            ([], Named::Shown) => {
                return ActAction::AskUser {
                    question: format!("What should I move to the {to}?"),
                };
            }
            _ if names.len() > 1 => {
                return ActAction::AskUser {
                    question: format!(
                        "Which one should go in the {to}: {}?",
                        super::super::super::text::join_list(
                            &names.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                            "or"
                        )
                    ),
                };
            }
            _ => ids.extend(
                found
                    .iter()
                    .filter_map(|r| r.get("id")?.as_str().map(String::from)),
            ),
        }
    }
    call(
        "db_update",
        json!({"table": "inventory", "filters": [id_filter(&ids)], "data": {"location": to}}),
    )
}

/// The write of an amount said afresh: the one row the name answers, its
/// quantity in its own unit when the unit said compares (500 g of a row
/// in kg is 0.5), else in the unit said. Nothing found, or two rows, is
/// said or asked before anything is written.
fn set_row(item: &Named, quantity: f64, unit: Option<&str>, c: &ActCtx<'_>) -> ActAction {
    let which = format!(
        "Which one is {}",
        super::super::super::text::fmt_number(quantity)
    );
    let (row, id) = match row_to_change(item, &which, c) {
        Ok(found) => found,
        Err(instead) => return instead,
    };
    let had_unit = text_field(row, "unit").unwrap_or("");
    let data = match unit {
        Some(u) if u != had_unit => match left_after(0.0, had_unit, -quantity, Some(u)) {
            Some(q) => json!({"quantity": q}),
            None => json!({"quantity": quantity, "unit": u}),
        },
        _ => json!({"quantity": quantity}),
    };
    call(
        "db_update",
        json!({"table": "inventory", "filters": [id_filter(&[id.to_string()])], "data": data}),
    )
}

/// The write of a use-by date: the one row the name answers, to the date
/// the day names; none found, or two rows for one name, is said or asked
/// before anything is written.
fn set_expiry(item: &Named, day: super::super::when::Day, c: &ActCtx<'_>) -> ActAction {
    let Some(date) = day.date(c.req.input.today) else {
        return complete(
            format!("No date for {}'s use-by", said_as(item)),
            Value::Null,
            None,
        );
    };
    let which = format!(
        "Which one goes off on {}",
        super::super::when::short_date(&date)
    );
    let (_, id) = match row_to_change(item, &which, c) {
        Ok(found) => found,
        Err(instead) => return instead,
    };
    call(
        "db_update",
        json!({"table": "inventory", "filters": [id_filter(&[id.to_string()])], "data": {"expiry_date": date}}),
    )
}

/// The one loaded inventory row a name answers, with its id; else what to
/// do instead: say none is there, or ask `which` of several ("Which one
/// is 240: the greek yogurt in the fridge or …?").
fn row_to_change<'a>(
    item: &Named,
    which: &str,
    c: &ActCtx<'a>,
) -> Result<(&'a Value, &'a str), ActAction> {
    let rows = known_rows(c, Table::Inventory);
    let found = answering(item, &rows, &shown_refs(c));
    let row = match found.as_slice() {
        [] => {
            return Err(complete(
                format!("No {} in the kitchen to change", said_as(item)),
                Value::Null,
                None,
            ));
        }
        [one] => *one,
        many => {
            return Err(ActAction::AskUser {
                question: format!("{which}: {}?", places(many)),
            });
        }
    };
    match row.get("id").and_then(Value::as_str) {
        Some(id) => Ok((row, id)),
        None => Err(complete("Nothing to change".into(), Value::Null, None)),
    }
}

/// An item as the user named it: its words, or "that" for what was shown.
pub(super) fn said_as(item: &Named) -> String {
    match item {
        Named::Item(x) => x.clone(),
        Named::Shown => "that".to_string(),
    }
}

/// "the greek yogurt in the fridge or the greek yogurt in the freezer".
pub(super) fn places(rows: &[&Value]) -> String {
    let each: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "the {} in the {}",
                text_field(r, "name").unwrap_or("?"),
                text_field(r, "location").unwrap_or("kitchen")
            )
        })
        .collect();
    super::super::super::text::join_list(&each, "or")
}

/// A read of the inventory rows named (or just shown), in `place` if said.
fn read_named(c: &ActCtx<'_>, items: &[Named], place: Option<&String>) -> Value {
    let mut ors = Vec::new();
    let mut shown = Vec::new();
    for n in items {
        match n {
            Named::Item(x) => ors.push(filter("name", "ilike", json!(pattern(x)))),
            Named::Shown => shown.extend(shown_refs(c)),
        }
    }
    if !shown.is_empty() {
        ors.push(id_filter(&shown));
    }
    let mut params = json!({"table": "inventory", "or_filters": ors});
    if let Some(l) = place {
        params["filters"] = json!([filter("location", "=", json!(l))]);
    }
    params
}

/// The loaded rows a name answers: the best match of an item's words, or
/// the rows the last reply showed.
pub(super) fn answering<'a>(n: &Named, rows: &[&'a Value], shown: &[String]) -> Vec<&'a Value> {
    match n {
        Named::Item(x) => best(rows, x),
        Named::Shown => rows
            .iter()
            .copied()
            .filter(|r| {
                r.get("id")
                    .and_then(Value::as_str)
                    .is_some_and(|i| shown.iter().any(|s| s == i))
            })
            .collect(),
    }
}

/// The name pattern a read looks items up by: the first word, cut to four
/// letters so a typo further on ("spagetti") still finds the row.
fn pattern(name: &str) -> String {
    let first = name.split_whitespace().next().unwrap_or(name);
    let cut: String = first.chars().take(4).collect();
    format!("%{cut}%")
}

/// The loaded rows an ask is about (for an analyze step).
fn matching<'a>(ask: &Ask, c: &ActCtx<'_>, rows: &[&'a Value]) -> Vec<&'a Value> {
    let today = c.req.input.today;
    let pick = |items: &[Named]| -> Vec<&'a Value> {
        let shown = shown_refs(c);
        items
            .iter()
            .flat_map(|n| answering(n, rows, &shown))
            .collect()
    };
    match ask {
        Ask::Expiring { location } => {
            let until = days_after(today, SOON_DAYS).unwrap_or_default();
            let mut v: Vec<&Value> = rows
                .iter()
                .copied()
                .filter(|r| text_field(r, "expiry_date").is_some_and(|d| d <= until.as_str()))
                .filter(|r| {
                    location
                        .as_deref()
                        .is_none_or(|l| text_field(r, "location") == Some(l))
                })
                .collect();
            v.sort_by_key(|r| text_field(r, "expiry_date").unwrap_or_default().to_string());
            v
        }
        Ask::ExpiryOf { items } => pick(items),
        Ask::HowMuch { items, location } => pick(items)
            .into_iter()
            .filter(|r| {
                location
                    .as_deref()
                    .is_none_or(|l| text_field(r, "location") == Some(l))
            })
            .collect(),
        Ask::Use { items } => {
            let named: Vec<Named> = items.iter().map(|u| u.item.clone()).collect();
            pick(&named)
        }
        Ask::UsedWhat { .. } | Ask::Cooked { .. } => Vec::new(),
        Ask::Move { items, .. } => pick(items),
        Ask::Set { item, .. } | Ask::SetExpiry { item, .. } | Ask::MovePart { item, .. } => {
            pick(std::slice::from_ref(item))
        }
    }
}

/// Grams or millilitres per unit, for taking 500 g off 2 kg.
fn base(unit: &str) -> Option<(f64, &'static str)> {
    Some(match unit {
        "g" => (1.0, "mass"),
        "kg" => (1000.0, "mass"),
        "ml" => (1.0, "volume"),
        "l" => (1000.0, "volume"),
        _ => return None,
    })
}

/// What is left of `had` `unit` after using `quantity` `used_unit` (the
/// row's unit when none was said), in `unit`; `None` when the units cannot
/// be compared.
pub fn left_after(had: f64, unit: &str, quantity: f64, used_unit: Option<&str>) -> Option<f64> {
    let used_unit = used_unit.unwrap_or(unit);
    if used_unit == unit {
        return Some(had - quantity);
    }
    let (a, ka) = base(unit)?;
    let (b, kb) = base(used_unit)?;
    (ka == kb).then(|| (had * a - quantity * b) / a)
}
