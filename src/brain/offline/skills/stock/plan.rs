//! Think for stock: look the items up (from what is loaded when the whole
//! inventory is), then change the one used.

use crate::context::Table;
use crate::pipeline::{StepType, ThinkOutput};

use super::super::super::think_ctx::{self, Ctx, step};
use super::{Ask, Named};

fn names(items: &[Named]) -> String {
    let v: Vec<String> = items
        .iter()
        .map(|n| match n {
            Named::Item(x) => x.clone(),
            Named::Shown => "the items just shown".to_string(),
        })
        .collect();
    super::super::super::text::join_list(&v, "and")
}

/// The plan for a stock ask.
pub fn plan(ask: &Ask, c: &Ctx<'_>) -> ThinkOutput {
    let all = c.session.dashboard.inventory_total as usize;
    let rows: Vec<&serde_json::Value> = c
        .world
        .loaded(Table::Inventory)
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    let loaded = rows.len();
    // Every item named is among the rows loaded already: no read again.
    let named_loaded = |items: &[Named]| {
        !items.is_empty()
            && items.iter().all(|n| match n {
                Named::Item(x) => !super::super::best(&rows, x).is_empty(),
                Named::Shown => false,
            })
    };
    let found = match ask {
        Ask::ExpiryOf { items } | Ask::HowMuch { items, .. } => named_loaded(items),
        _ => false,
    };
    let kind = if found || (all > 0 && loaded >= all) {
        StepType::Analyze
    } else {
        StepType::Read
    };
    let look = |what: String| step(what, kind, "inventory", 0);
    match ask {
        Ask::Expiring { location } => {
            let place = location.as_deref().unwrap_or("kitchen");
            think_ctx::plan(
                &format!("Show what in the {place} is going off soon"),
                vec![look(format!(
                    "Find the items in the {place} that expire in the next few days"
                ))],
            )
        }
        Ask::ExpiryOf { items } => think_ctx::plan(
            &format!("Say when {} goes off", names(items)),
            vec![look(format!("Look up {} and their dates", names(items)))],
        ),
        Ask::HowMuch { items, .. } => think_ctx::plan(
            &format!("Say how much {} the kitchen holds", names(items)),
            vec![look(format!("Look up {} in the inventory", names(items)))],
        ),
        Ask::Use { items } => {
            let named: Vec<Named> = items.iter().map(|u| u.item.clone()).collect();
            let what = names(&named);
            let mut steps = vec![look(format!("Look up {what} in the inventory"))];
            // Three items a step: a step makes at most three calls.
            let mut group = 0;
            for part in named.chunks(super::lower::PER_STEP) {
                group += 1;
                steps.push(step(
                    format!("Lower or remove {} in the inventory", names(part)),
                    StepType::Write,
                    "inventory",
                    group,
                ));
            }
            think_ctx::plan(
                &format!("Take what was used of {what} off the inventory"),
                steps,
            )
        }
        Ask::Move { items, to } => {
            let what = names(items);
            think_ctx::plan(
                &format!("Move {what} to the {to}"),
                vec![
                    look(format!("Look up {what} in the inventory")),
                    step(
                        format!("Move {what} to the {to}"),
                        StepType::Write,
                        "inventory",
                        1,
                    ),
                ],
            )
        }
        Ask::Set {
            item,
            quantity,
            unit,
        } => {
            let what = names(std::slice::from_ref(item));
            let amount = format!(
                "{}{}",
                super::super::super::text::fmt_number(*quantity),
                unit.as_ref().map(|u| format!(" {u}")).unwrap_or_default()
            );
            think_ctx::plan(
                &format!("Set {what} to {amount} in the inventory"),
                vec![
                    look(format!("Look up {what} in the inventory")),
                    step(
                        format!("Set {what} to {amount}"),
                        StepType::Write,
                        "inventory",
                        1,
                    ),
                ],
            )
        }
        Ask::MovePart {
            item,
            quantity,
            unit,
            to,
        } => {
            let what = names(std::slice::from_ref(item));
            let amount = format!(
                "{}{}",
                super::super::super::text::fmt_number(*quantity),
                unit.as_ref().map(|u| format!(" {u}")).unwrap_or_default()
            );
            think_ctx::plan(
                &format!("Move {amount} of {what} to the {to}"),
                vec![
                    look(format!("Look up {what} in the inventory")),
                    step(
                        format!("Move {amount} of {what} to the {to}"),
                        StepType::Write,
                        "inventory",
                        1,
                    ),
                ],
            )
        }
        Ask::SetExpiry { item, day } => {
            let what = names(std::slice::from_ref(item));
            let when = day.word();
            think_ctx::plan(
                &format!("Set the use-by date of {what} {when} in the inventory"),
                vec![
                    look(format!("Look up {what} in the inventory")),
                    step(
                        format!("Set the use-by date of {what} {when}"),
                        StepType::Write,
                        "inventory",
                        1,
                    ),
                ],
            )
        }
        Ask::UsedWhat { said } => think_ctx::clarify(
            "Take what was used off the inventory",
            format!(
                "{} of what?",
                super::super::super::text::capitalise_first(said)
            ),
        ),
    }
}
