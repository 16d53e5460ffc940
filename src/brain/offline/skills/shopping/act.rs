//! Act for the shopping list: read it (and, for what a recipe is missing,
//! the recipes and the kitchen), then add, mark bought or delete.

use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::{ActAction, StepType};

use super::super::super::act_ctx::{ActCtx, call, complete, id_filter};
use super::super::super::items::Item;
use super::super::super::lexicon::{Cues, Intent, classify};
use super::super::super::text::Words;
use super::super::super::text::join_list;
use super::super::super::world::{num_field, text_field};
use super::super::Named;
use super::super::recipes::{self, Detail, Which};
use super::super::{SkillAsk, best, known_rows, table_of_ref};
use super::{Ask, bought, ticked_row, waiting_row};

/// The next call of a shopping step, or its completion.
pub fn act(ask: &Ask, c: &ActCtx<'_>) -> ActAction {
    let done = c.req.this_step_results.len();
    match c.req.step.step_type {
        // The whole list, every time: the reply says what is still on it,
        // and a list half from memory would leave items out.
        StepType::Read if done == 0 => {
            let table = match c.req.step.subdomain.as_str() {
                "recipes" => "recipes",
                "inventory" => "inventory",
                _ => "shopping_list",
            };
            call("db_read", json!({"table": table}))
        }
        // A row ticked off and asked for again: set back to not bought,
        // one call a row, before the new rows are made.
        StepType::Write if matches!(ask, Ask::Add { items, .. } if !reopened(items, c).is_empty()) =>
        {
            let Ask::Add { items, .. } = ask else {
                unreachable!("matched above")
            };
            let (id, data) = reopened(items, c).swap_remove(0);
            call(
                "db_update",
                json!({"table": "shopping_list", "filters": [id_filter(&[id])], "data": data}),
            )
        }
        // Then the rest, once.
        StepType::Write
            if done > 0
                && matches!(ask, Ask::Add { .. })
                && c.req
                    .this_step_results
                    .iter()
                    .all(|r| r.tool == "db_update") =>
        {
            let Ask::Add { items, amount } = ask else {
                unreachable!("matched above")
            };
            let rows = added(items, *amount, c);
            if rows.is_empty() {
                return finished(ask, c);
            }
            call("db_create", json!({"table": "shopping_list", "data": rows}))
        }
        StepType::Write
            if done == 0
                && matches!(
                    ask,
                    Ask::Add { .. } | Ask::Missing { .. } | Ask::PutBack { .. }
                ) =>
        {
            let items = match ask {
                Ask::Add { items, amount } => added(items, *amount, c),
                Ask::PutBack { refs } => taken_off(refs, c),
                Ask::Missing { which } => missing_items(which, c),
                _ => Vec::new(),
            };
            let off = super::left_off(&c.req.step.description);
            if items.is_empty() && !off.is_empty() {
                let why = off
                    .iter()
                    .map(|(i, a)| format!("{i} (allergic to {a})"))
                    .collect::<Vec<_>>()
                    .join(", ");
                return complete(format!("Left off {why}"), Value::Null, None);
            }
            if items.is_empty() {
                let why = match ask {
                    Ask::Missing { .. } => "No missing ingredients to add",
                    Ask::Add { items, .. } if !items.is_empty() => "Already on the list",
                    Ask::PutBack { .. } => "Nothing was taken off the list last turn",
                    _ => "No item named to add",
                };
                return complete(why.into(), Value::Null, None);
            }
            call(
                "db_create",
                json!({"table": "shopping_list", "data": items}),
            )
        }
        // Marking bought or taking off: the rows the ask is about.
        StepType::Write if done == 0 => {
            let mut refs = meant(ask, c);
            // A row already ticked off stays as it is: there is nothing to
            // mark again.
            if matches!(ask, Ask::MarkBought { .. }) && !refs.is_empty() {
                let rows = known_rows(c, Table::ShoppingList);
                refs.retain(|r| {
                    !rows.iter().any(|v| {
                        v.get("id").and_then(Value::as_str) == Some(r.as_str()) && bought(v)
                    })
                });
                if refs.is_empty() {
                    return complete("Already marked bought".into(), Value::Null, None);
                }
            }
            if refs.is_empty() {
                return complete(
                    "No such item on the shopping list".into(),
                    Value::Null,
                    None,
                );
            }
            let filters = json!([id_filter(&refs)]);
            match ask {
                Ask::SetAmount { quantity, unit, .. } => {
                    let mut data = json!({ "quantity": quantity });
                    if let Some(unit) = unit {
                        data["unit"] = json!(unit);
                    }
                    call(
                        "db_update",
                        json!({"table": "shopping_list", "filters": [id_filter(&refs[..1])],
                               "data": data}),
                    )
                }
                Ask::MarkBought { .. } => call(
                    "db_update",
                    json!({"table": "shopping_list", "filters": filters,
                           "data": {"is_purchased": true}}),
                ),
                _ => call(
                    "db_delete",
                    json!({"table": "shopping_list", "filters": filters}),
                ),
            }
        }
        _ => finished(ask, c),
    }
}

/// The step's completion: what it did, naming the rows.
fn finished(ask: &Ask, c: &ActCtx<'_>) -> ActAction {
    {
        {
            let names: Vec<String> = c
                .step_rows()
                .iter()
                .filter_map(|r| text_field(r, "name").map(String::from))
                .collect();
            let verb = match (c.req.step.step_type, ask) {
                (StepType::Write, Ask::Add { .. } | Ask::Missing { .. }) => "Added",
                (StepType::Write, Ask::PutBack { .. }) => "Put back",
                (StepType::Write, Ask::MarkBought { .. }) => "Marked bought",
                (StepType::Write, Ask::SetAmount { .. }) => "Changed the amount of",
                (StepType::Write, _) => "Removed",
                _ => "Found",
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
        Ask::ClearBought => rows.iter().filter(|r| bought(r)).filter_map(id).collect(),
        Ask::Show | Ask::Add { .. } | Ask::Missing { .. } | Ask::PutBack { .. } => Vec::new(),
        Ask::SetAmount { item, .. } => named_rows(std::slice::from_ref(item), &rows, c),
        Ask::Remove { items }
        | Ask::Has { items }
        | Ask::WhatFor { items }
        | Ask::MarkBought { items } => named_rows(items, &rows, c),
    }
}

/// The ids of the list rows the named things are.
fn named_rows(items: &[Named], rows: &[&Value], c: &ActCtx<'_>) -> Vec<String> {
    let id = |r: &&Value| r.get("id").and_then(Value::as_str).map(String::from);
    let mut out = Vec::new();
    for n in items {
        let found: Vec<String> = match n {
            Named::Item(x) => best(rows, x).iter().filter_map(id).collect(),
            Named::Shown => shown_names(c)
                .iter()
                .flat_map(|name| best(rows, name))
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

/// A shopping row to create.
fn row(name: &str, quantity: f64, unit: &str, notes: Option<String>) -> Value {
    json!({"name": name, "quantity": quantity, "unit": unit,
           "source": if notes.is_some() { "recipe" } else { "manual" },
           "notes": notes, "is_purchased": false})
}

/// A row added with no amount said: the name alone, as the user said it.
fn unmeasured(name: &str) -> Value {
    let mut out = row(name, 0.0, "", None);
    out["quantity"] = Value::Null;
    out["unit"] = Value::Null;
    out
}

/// The shopping rows the last turn deleted, as they were.
fn taken_off(refs: &[String], c: &ActCtx<'_>) -> Vec<Value> {
    refs.iter()
        .filter(|r| {
            c.world.get(r).is_some_and(|e| {
                e.e.table == Table::ShoppingList && e.e.action == crate::context::RefAction::Deleted
            })
        })
        .filter_map(|r| c.world.state.rows.get(r.as_str()))
        .filter_map(|v| {
            let name = text_field(v, "name")?;
            let quantity = v.get("quantity").and_then(Value::as_f64).unwrap_or(1.0);
            let unit = text_field(v, "unit").unwrap_or("pack");
            let mut out = row(
                name,
                quantity,
                unit,
                text_field(v, "notes").map(String::from),
            );
            out["source"] = v.get("source").cloned().unwrap_or(json!("manual"));
            Some(out)
        })
        .collect()
}

/// The ticked-off rows an add names, each with what sets it back to not
/// bought (and the amount said, if one was).
fn reopened(items: &[Item], c: &ActCtx<'_>) -> Vec<(String, Value)> {
    if (c.reading.words).has_any(&["more", "another", "extra", "again", "second"]) {
        return Vec::new();
    }
    let rows = known_rows(c, Table::ShoppingList);
    // Rows this step already set back.
    let done: Vec<&str> = c
        .req
        .this_step_results
        .iter()
        .filter(|r| r.tool == "db_update")
        .flat_map(|r| &r.rows)
        .filter_map(|r| r.get("id").and_then(Value::as_str))
        .collect();
    items
        .iter()
        .filter(|i| waiting_row(&i.name, &rows).is_none())
        .filter_map(|i| {
            let row = ticked_row(&i.name, &rows)?;
            let id = row.get("id").and_then(Value::as_str)?.to_string();
            if done.contains(&id.as_str()) {
                return None;
            }
            let mut data = json!({"is_purchased": false});
            if let Some(q) = i.quantity {
                data["quantity"] = json!(q);
                data["unit"] = json!(i.unit_or_default());
            }
            Some((id, data))
        })
        .collect()
}

/// The rows an add creates: the items named, or "a dozen" / "them" of what
/// the last message asked about ("hw many eggs" → eggs) or showed.
fn added(items: &[Item], amount: Option<f64>, c: &ActCtx<'_>) -> Vec<Value> {
    if !items.is_empty() {
        // "another bottle of olive oil", "2 more tomatoes": more of a row
        // still to buy is a new row; otherwise a waiting row is not added
        // again.
        let more = (c.reading.words).has_any(&["more", "another", "extra", "again", "second"]);
        let rows = known_rows(c, Table::ShoppingList);
        // Think left off what the household is allergic to.
        let off = super::left_off(&c.req.step.description);
        // A thing named twice ("ill buy sorbet. add sorbet") is one row.
        let mut seen: Vec<&str> = Vec::new();
        return items
            .iter()
            .filter(|i| {
                let first = !seen.contains(&i.name.as_str());
                seen.push(&i.name);
                first
            })
            .filter(|i| !off.iter().any(|(name, _)| *name == i.name))
            .filter(|i| more || waiting_row(&i.name, &rows).is_none())
            .filter(|i| more || ticked_row(&i.name, &rows).is_none())
            .map(|i| match i.quantity {
                Some(q) => row(&i.name, q, &i.unit_or_default(), None),
                // No amount said: none written ("chillies", not "1 pack").
                None => unmeasured(&i.name),
            })
            .collect();
    }
    let (quantity, unit) = match amount {
        Some(n) if n > 1.0 => (n, "pcs"),
        _ => (1.0, "pack"),
    };
    asked_about(c)
        .iter()
        .map(|name| row(name, quantity, unit, None))
        .collect()
}

/// What the user's last message asked about ("do i have cashews tho",
/// "hw many eggs"), else the items the last reply showed.
fn asked_about(c: &ActCtx<'_>) -> Vec<String> {
    let last = Words::new(&c.reading.before.user);
    let named = match classify(&last, Cues::default()) {
        Intent::HaveItem(x) => vec![x],
        Intent::Skill(SkillAsk::Stock(a)) => a
            .items()
            .iter()
            .filter_map(|n| match n {
                Named::Item(x) => Some(x.clone()),
                Named::Shown => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    if !named.is_empty() {
        return named;
    }
    shown_names(c)
}

/// What the recipe asked about needs and neither the kitchen nor the list
/// has, with the recipe's amounts.
fn missing_items(which: &Which, c: &ActCtx<'_>) -> Vec<Value> {
    let ask = recipes::Ask::About {
        which: which.clone(),
        what: Detail::Missing,
        servings: None,
    };
    let found = recipes::act::analyse(&ask, c);
    let listed: Vec<String> = known_rows(c, Table::ShoppingList)
        .iter()
        .filter(|r| !bought(r))
        .filter_map(|r| text_field(r, "name").map(str::to_lowercase))
        .collect();
    let mut out: Vec<Value> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for card in &found.cards {
        // "put it on sunday for 4 and add what i need": the amounts for
        // the servings this turn planned, not the recipe's own.
        let planned: f64 = c
            .data_rows()
            .iter()
            .filter(|r| {
                r.get("meal_type").is_some()
                    && text_field(r, "recipe_id") == Some(card.r#ref.as_str())
            })
            .filter_map(|r| num_field(r, "servings"))
            .sum();
        let scale = if planned > 0.0 && card.servings > 0.0 {
            planned / card.servings
        } else {
            1.0
        };
        for m in &card.missing {
            if names.contains(m)
                || listed
                    .iter()
                    .any(|l| super::super::super::options::same_item(l, m))
            {
                continue;
            }
            names.push(m.clone());
            let line = card.lines.iter().find(|l| &l.name == m);
            let (q, unit) = line
                .and_then(|l| l.amount.split_once(' '))
                .and_then(|(n, u)| Some((n.parse::<f64>().ok()?, u.to_string())))
                .unwrap_or((1.0, "pack".to_string()));
            // Whole things bought whole ("2.5 eggs" is 3); measures to a
            // sensible grain.
            let q = match unit.as_str() {
                "g" | "ml" => (q * scale).round(),
                _ => (q * scale - 1e-9).ceil(),
            };
            out.push(row(m, q, &unit, Some(format!("for {}", card.name))));
        }
    }
    out
}
