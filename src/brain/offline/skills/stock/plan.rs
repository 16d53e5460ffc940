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

/// "240 g", "2": an amount as a step names it.
fn amount_words(quantity: f64, unit: Option<&str>) -> String {
    let n = super::super::super::text::fmt_number(quantity);
    unit.map_or(n.clone(), |u| format!("{n} {u}"))
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
    // Look the item up, then make the one change `write` says.
    let look_then_write = |what: &str, goal: &str, write: String| {
        think_ctx::plan(
            goal,
            vec![
                look(format!("Look up {what} in the inventory")),
                step(write, StepType::Write, "inventory", 1),
            ],
        )
    };
    match ask {
        Ask::Cooked { recipe, .. } => {
            let mut steps = vec![
                step(
                    super::cooked::read_step(recipe),
                    StepType::Read,
                    "recipes",
                    0,
                ),
                step(
                    "Read what the kitchen holds".into(),
                    StepType::Read,
                    "inventory",
                    0,
                ),
            ];
            for group in 1..=super::cooked::WRITES as u32 {
                steps.push(step(
                    super::cooked::write_step(recipe),
                    StepType::Write,
                    "inventory",
                    group,
                ));
            }
            think_ctx::plan(
                &format!("Take what {recipe} used out of the inventory"),
                steps,
            )
        }
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
                    format!(
                        "{}{} in the inventory",
                        super::lower::WRITE_STEP,
                        names(part)
                    ),
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
            let goal = format!("Move {what} to the {to}");
            look_then_write(&what, &goal, goal.clone())
        }
        Ask::Set {
            item,
            quantity,
            unit,
        } => {
            let what = names(std::slice::from_ref(item));
            let amount = amount_words(*quantity, unit.as_deref());
            look_then_write(
                &what,
                &format!("Set {what} to {amount} in the inventory"),
                format!("Set {what} to {amount}"),
            )
        }
        Ask::MovePart {
            item,
            quantity,
            unit,
            to,
        } => {
            let what = names(std::slice::from_ref(item));
            let amount = amount_words(*quantity, unit.as_deref());
            let goal = format!("Move {amount} of {what} to the {to}");
            look_then_write(&what, &goal, goal.clone())
        }
        Ask::SetExpiry { item, day } => {
            let what = names(std::slice::from_ref(item));
            let write = format!("Set the use-by date of {what} {}", day.word());
            look_then_write(&what, &format!("{write} in the inventory"), write)
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
