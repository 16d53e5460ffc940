//! Amend: a new amount for what the last turn just wrote ("actually make
//! that 2 cans", "oops i meant 500g", "change it to 3"). Read only when the
//! last turn wrote shopping-list or inventory rows and the message names
//! one of them, or there was exactly one; the row is updated in place and
//! nothing else changes.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::{ActAction, StepType, ThinkOutput};

use super::super::act_ctx::{ActCtx, call, complete, filter};
use super::super::dialogue::Before;
use super::super::items::{bare_amount, unit_word};
use super::super::reply_ctx::ReplyCtx;
use super::super::text::{Words, fmt_number, number, stems};
use super::super::think_ctx::{plan as think_plan, step};
use super::super::world::{World, text_field};
use super::{Said, rows_of_kind, table_of_ref};

/// The row and its new amount.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ask {
    /// The row the last turn wrote.
    pub r#ref: String,
    /// Its label, for the plan and the reply.
    pub label: String,
    pub quantity: f64,
    /// The unit said ("cans"), if any; else the row keeps its unit.
    pub unit: Option<String>,
}

impl Ask {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        "amend_amount"
    }

    fn table(&self) -> Option<Table> {
        table_of_ref(&self.r#ref)
    }
}

/// Words that correct what was just said, whatever else the message says.
const CORRECTING: &[&str] = &[
    "make that",
    "make it",
    "make them",
    "change that to",
    "change it to",
    "change to",
    "i meant",
    "meant",
    "should be",
    "should have been",
];

/// Words that correct only when the message asks nothing of its own
/// ("actually 3", but not "actually add 3 more eggs").
const CORRECTING_ALONE: &[&str] = &["actually", "oops", "sorry", "instead", "not", "no"];

/// A request of its own: more of something, another write.
const OWN_REQUEST: &[&str] = &[
    "more", "another", "extra", "add", "also", "too", "bought", "got", "used", "put", "plan",
    "remove", "take", "and",
];

/// The amend a message asks for after `before`, if any.
pub fn read(w: &Words, world: &World<'_>, before: &Before) -> Option<Ask> {
    let correcting =
        w.has_any(CORRECTING) || (w.has_any(CORRECTING_ALONE) && !w.has_any(OWN_REQUEST));
    if !correcting {
        return None;
    }
    let written: Vec<&String> = before
        .written
        .iter()
        .filter(|r| {
            matches!(
                table_of_ref(r),
                Some(Table::ShoppingList | Table::Inventory)
            )
        })
        .collect();
    // The amount: the first number, with the unit right after it.
    let at = w.words.iter().position(|x| number(x).is_some())?;
    let (quantity, unit) = bare_amount(&w.words[at..])?;
    if quantity <= 0.0 {
        return None;
    }
    // Words after the amount that are neither its unit nor filler name
    // the row ("make that 2 cans of chickpeas").
    let named: Vec<String> = w.words[at..]
        .iter()
        .skip(1)
        .filter(|x| unit_word(x).is_none() && !super::super::text::is_filler(x))
        .filter(|x| !matches!(x.as_str(), "please" | "instead" | "actually"))
        .map(|x| x.to_string())
        .collect();
    let label_of = |r: &str| world.label(r);
    let pick: Vec<&String> = if named.is_empty() {
        written.clone()
    } else {
        written
            .iter()
            .copied()
            .filter(|r| {
                let have = stems(&label_of(r));
                stems(&named.join(" "))
                    .iter()
                    .all(|n| have.iter().any(|h| super::super::text::near(h, n)))
            })
            .collect()
    };
    let [one] = pick.as_slice() else {
        return None;
    };
    Some(Ask {
        r#ref: (*one).clone(),
        label: label_of(one),
        quantity,
        unit,
    })
}

/// Think's plan: one write on the row's table.
pub fn plan(ask: &Ask) -> ThinkOutput {
    let sub = match ask.table() {
        Some(Table::Inventory) => "inventory",
        _ => "shopping",
    };
    think_plan(
        "Change the amount of what was just added",
        vec![step(
            format!("Set {} to {}", ask.label, said(ask)),
            StepType::Write,
            sub,
            0,
        )],
    )
}

/// Act: update the row's quantity (and unit, when one was said).
pub fn act(ask: &Ask, c: &ActCtx<'_>) -> ActAction {
    let Some(table) = ask.table() else {
        return complete("Nothing to change".into(), Value::Null, None);
    };
    if !c.req.this_step_results.is_empty() {
        return complete(
            format!("Set {} to {}", ask.label, said(ask)),
            Value::Null,
            None,
        );
    }
    let mut data = json!({ "quantity": ask.quantity });
    if let Some(u) = &ask.unit {
        data["unit"] = json!(u);
    }
    call(
        "db_update",
        json!({"table": table.name(), "filters": [filter("id", "=", json!(ask.r#ref))],
               "data": data}),
    )
}

/// "2 can", as said.
fn said(ask: &Ask) -> String {
    match &ask.unit {
        Some(u) => format!("{} {u}", fmt_number(ask.quantity)),
        None => fmt_number(ask.quantity),
    }
}

/// "Changed: chickpeas on the shopping list is now 2 cans."
pub fn reply(ask: &Ask, c: &ReplyCtx<'_>) -> Said {
    let table = ask.table().unwrap_or(Table::ShoppingList);
    let place = match table {
        Table::Inventory => "in the kitchen",
        _ => "on the shopping list",
    };
    match rows_of_kind(c, table, StepType::Write).first() {
        Some(row) => {
            let name = text_field(row, "name").unwrap_or(&ask.label);
            let amount = super::stock::reply::qty(row);
            Said {
                text: format!("Changed — {name} {place} is now {}.", amount.trim()),
                presented: super::shown(&[row]),
                offer: None,
                confirm: None,
            }
        }
        None => Said::text(format!(
            "I couldn't change {} {place}: {}",
            ask.label,
            super::why_unchanged(c, "it isn't there any more.")
        )),
    }
}
