//! Standing constraints in a turn: a brain's changes applied after
//! Understand, and what they cover recomputed after Understand and after
//! Act, so the record, the panels and the reply agree in the turn a
//! constraint is said and for every recipe loaded later.
//!
//! Recipes whose content no step loaded (a read of a few columns, a recipe
//! known from an earlier turn) are looked up in the kitchen, read-only.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::context::{ConstraintChanges, ConstraintOutcome, ContextState, RecipeFacts};
use crate::kitchen::Kitchen;
use crate::turn::{KitchenAction, TurnError};

use super::support::lock;

/// Applies a brain's constraint changes and recomputes what the standing
/// constraints cover.
pub(crate) fn apply(
    state: &mut ContextState,
    changes: &ConstraintChanges,
    kitchen: &Mutex<Kitchen>,
) -> Result<ConstraintOutcome, TurnError> {
    let outcome = state.apply_constraints(changes);
    refresh(state, kitchen, !outcome.added.is_empty())?;
    Ok(outcome)
}

/// Recomputes what the standing constraints cover; with `all`, recipes
/// known from earlier turns are looked up too.
pub(crate) fn refresh(
    state: &mut ContextState,
    kitchen: &Mutex<Kitchen>,
    all: bool,
) -> Result<(), TurnError> {
    let wanted = state.recipes_without_facts(all);
    let facts = if wanted.is_empty() {
        BTreeMap::new()
    } else {
        fetch_facts(state, kitchen, &wanted)?
    };
    state.refresh_constraints(&|r| facts.get(r).cloned());
    Ok(())
}

/// This turn's constraint changes in words, for the turn narrative:
/// "added no cod (“let's not do cod this week”)", "lifted no cod (“actually
/// cod is fine”)".
pub(crate) fn describe(state: &ContextState, outcome: &ConstraintOutcome) -> Vec<String> {
    let named = |id: &str| state.constraints.get(id);
    let mut out: Vec<String> = outcome
        .added
        .iter()
        .filter_map(|id| named(id))
        .map(|c| format!("added {} (“{}”)", c.label, c.clause))
        .collect();
    out.extend(outcome.lifted.iter().filter_map(|id| named(id)).map(|c| {
        let by = c.lifted.as_ref().map_or("", |l| l.by.as_str());
        format!("lifted {} ({by})", c.label)
    }));
    out
}

/// The facts of recipe refs, from their rows in the kitchen.
pub(crate) fn fetch_facts(
    state: &ContextState,
    kitchen: &Mutex<Kitchen>,
    refs: &[String],
) -> Result<BTreeMap<String, RecipeFacts>, TurnError> {
    let ids: Vec<String> = refs
        .iter()
        .filter_map(|r| state.registry.row_id(r).map(str::to_string))
        .collect();
    let rows = lock(kitchen)
        .recipe_contents(&ids)
        .map_err(TurnError::kitchen(KitchenAction::Read))?;
    Ok(rows
        .iter()
        .filter_map(|row| {
            let id = row.get("id")?.as_str()?;
            let r = state.registry.ref_for_row(id)?;
            let label = state.registry.get(r).map_or(r, |e| e.label.as_str());
            Some((r.to_string(), RecipeFacts::from_content(label, row)?))
        })
        .collect())
}
