//! Suggestions: two or three next messages a turn's record offers, made
//! from the context layers as the turn left them and the kitchen's names,
//! so they show whichever brain answered. Each is worded the way the
//! offline reader reads with confidence in that context
//! (`tests/suggestions.rs` sends every one as the next message and checks
//! it is done, not asked about).

use std::sync::Mutex;

use crate::context::{ContextState, Table};
use crate::kitchen::Kitchen;

use super::brain::KitchenNames;
use super::support::lock;

/// At most this many a turn.
pub const MAX: usize = 3;

/// A tour of the layers for a session with nothing said yet, and the
/// offers after any turn that leaves room: what goes off, the list, the
/// recipes.
pub const OPENING: [&str; 3] = [
    "what's going off soon?",
    "what's on the shopping list?",
    "show me my recipes",
];

/// The next messages worth offering after the turn `state` ends with.
pub fn suggestions(state: &ContextState, names: &KitchenNames) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut offer = |s: String| {
        if out.len() < MAX && !out.contains(&s) {
            out.push(s);
        }
    };
    let last = state.narrative.recent().last();
    let label = |r: &str| state.registry.get(r).map(|e| (e.table, e));
    let shown: Vec<_> = last
        .map(|t| t.dialogue.presented_refs())
        .unwrap_or_default()
        .iter()
        .filter_map(|r| label(r))
        .collect();
    let recipes: Vec<_> = shown
        .iter()
        .filter(|(t, _)| *t == Table::Recipes)
        .map(|(_, e)| *e)
        .collect();
    let waiting = last.is_some_and(|t| t.dialogue.question.is_some());
    // A question waits on its answer: offer nothing that talks over it.
    if waiting {
        return out;
    }
    // A recipe the turn just planned is not offered for the plan again.
    let planned = last.is_some_and(|t| {
        t.steps.iter().any(|s| {
            s.subdomain == "meal_plans" && s.step_type == Some(crate::pipeline::StepType::Write)
        })
    });
    match recipes.as_slice() {
        [] => {}
        [one] if one.is_pending() => offer(format!("save {}", one.label.to_lowercase())),
        [_] if planned => {}
        [one] => {
            offer(format!(
                "put {} on the plan for tomorrow",
                one.label.to_lowercase()
            ));
        }
        [first, second, ..] => {
            offer(format!("show me {}", second.label.to_lowercase()));
            if !first.is_pending() {
                offer(format!(
                    "put {} on the plan for tomorrow",
                    first.label.to_lowercase()
                ));
            }
        }
    }
    let topic = shown.first().map(|(t, _)| *t);
    match topic {
        Some(Table::ShoppingList) => {
            if let Some(row) = names.shopping.first() {
                offer(format!("mark the {row} on the list as bought"));
            }
        }
        Some(Table::Inventory) => {
            if let Some(row) = names.inventory.first() {
                offer(format!("how much {row} have i got"));
            }
            offer("what's going off soon?".into());
        }
        _ => {}
    }
    for s in OPENING {
        offer(s.into());
    }
    out
}

/// The names of what the kitchen holds, for the reader. A kitchen that
/// cannot be read leaves them empty: the turn goes on, and the read that
/// fails later says why.
pub fn kitchen_names(kitchen: &Mutex<Kitchen>) -> KitchenNames {
    let tables = [
        Table::Recipes,
        Table::Inventory,
        Table::ShoppingList,
        Table::Tasks,
    ];
    let read = lock(kitchen).labels(&tables);
    match read.map(<[Vec<String>; 4]>::try_from) {
        Ok(Ok([recipes, inventory, shopping, tasks])) => KitchenNames {
            recipes,
            inventory,
            shopping,
            tasks,
        },
        Ok(Err(_)) => KitchenNames::default(),
        Err(e) => {
            tracing::warn!(error = %e, "kitchen names not read");
            KitchenNames::default()
        }
    }
}
