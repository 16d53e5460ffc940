//! The context state as the offline brain's rules read it: every live entity
//! with its state at the current turn, its label, and its content (a pending
//! artifact's content, else the last row loaded).
//!
//! A read-only view built per request; it never changes the state.

use serde_json::Value;

use crate::context::{ContextState, EntityState, RefAction, RefEntry, Table};

use super::text::{is_filler, stem, stems};

/// One live entity and its state at the current turn.
#[derive(Debug, Clone)]
pub struct Ent<'a> {
    pub r: &'a str,
    pub e: &'a RefEntry,
    pub state: EntityState,
}

impl Ent<'_> {
    /// Active: recent, retained or pending.
    pub fn active(&self) -> bool {
        self.state.is_active()
    }

    /// Generated, created or edited by the user this session.
    pub fn made(&self) -> bool {
        self.e.is_pending()
            || matches!(
                self.e.action,
                RefAction::Generated | RefAction::Created | RefAction::Updated
            )
    }

    /// The label's words that can identify it (stemmed, no filler).
    pub fn label_stems(&self) -> Vec<String> {
        stems(&self.e.label)
            .into_iter()
            .filter(|w| !is_filler(w))
            .collect()
    }
}

/// Every live entity of a context state, classified at one turn.
pub struct World<'a> {
    pub state: &'a ContextState,
    pub turn: u32,
    /// In registration order.
    pub ents: Vec<Ent<'a>>,
}

impl<'a> World<'a> {
    /// The view of `state` at `turn`.
    pub fn new(state: &'a ContextState, turn: u32) -> Self {
        let ents = state
            .registry
            .entries()
            .into_iter()
            .map(|(r, e)| Ent {
                r,
                e,
                state: state.state_of(r, e, turn).0,
            })
            .collect();
        Self { state, turn, ents }
    }

    /// Marks refs as excluded in this view (demotions decided this turn).
    pub fn exclude(&mut self, refs: &[String]) {
        for e in self
            .ents
            .iter_mut()
            .filter(|e| refs.iter().any(|r| r == e.r))
        {
            e.state = EntityState::Excluded;
        }
    }

    /// The entity of a ref.
    pub fn get(&self, r: &str) -> Option<&Ent<'a>> {
        self.ents.iter().find(|e| e.r == r)
    }

    /// Live entities of one table, in any state, in registration order.
    pub fn of(&self, table: Table) -> impl Iterator<Item = &Ent<'a>> {
        self.ents.iter().filter(move |e| e.e.table == table)
    }

    /// Entities of one table whose rows are still in the kitchen (not
    /// deleted): what a plan or a list shows.
    pub fn live_of(&self, table: Table) -> impl Iterator<Item = &Ent<'a>> {
        self.of(table).filter(|e| e.e.action != RefAction::Deleted)
    }

    /// The entities created last: those saved or added at the latest turn
    /// anything was (a save counts at the turn it was promoted).
    pub fn last_created(&self) -> Vec<&Ent<'a>> {
        let when = |e: &Ent<'_>| e.e.promoted_turn.unwrap_or(e.e.turn_created);
        let created: Vec<&Ent<'a>> = self
            .ents
            .iter()
            .filter(|e| e.e.action == RefAction::Created)
            .collect();
        let latest = created.iter().map(|e| when(e)).max();
        created
            .into_iter()
            .filter(|e| Some(when(e)) == latest)
            .collect()
    }

    /// Active entities, in registration order.
    pub fn active(&self) -> impl Iterator<Item = &Ent<'a>> {
        self.ents.iter().filter(|e| e.active())
    }

    /// Active entities of one table.
    pub fn active_of(&self, table: Table) -> Vec<&Ent<'a>> {
        self.active().filter(|e| e.e.table == table).collect()
    }

    /// Generated artifacts not yet saved.
    pub fn pending(&self) -> Vec<&Ent<'a>> {
        self.ents.iter().filter(|e| e.e.is_pending()).collect()
    }

    /// A ref's content: the pending artifact, else the last row loaded.
    pub fn content(&self, r: &str) -> Option<&'a Value> {
        self.state
            .registry
            .artifact(r)
            .or_else(|| self.state.rows.get(r).map(|v| &**v))
    }

    /// A ref's label (the ref itself when unknown).
    pub fn label(&self, r: &str) -> String {
        self.get(r)
            .map(|e| e.e.label.clone())
            .unwrap_or_else(|| r.to_string())
    }

    /// Active entities of `table` whose content is loaded, with it.
    pub fn loaded(&self, table: Table) -> Vec<(&'a str, &'a Value)> {
        // A deleted row is remembered, but it is no longer in the kitchen.
        self.active()
            .filter(|e| e.e.table == table && e.e.action != RefAction::Deleted)
            .filter_map(|e| self.content(e.r).map(|c| (e.r, c)))
            .collect()
    }

    /// The ingredient names of a recipe's content (lowercase).
    pub fn ingredient_names(&self, r: &str) -> Vec<String> {
        self.content(r).map(ingredient_names).unwrap_or_default()
    }
}

pub use crate::context::constraints::ingredient_names;

/// Every word a recipe can be matched by: name, ingredients, cuisine, tags.
pub fn recipe_vocabulary(label: &str, content: Option<&Value>) -> Vec<String> {
    let mut out = stems(label);
    if let Some(c) = content {
        for n in ingredient_names(c) {
            out.extend(stems(&n));
        }
        if let Some(cuisine) = c.get("cuisine").and_then(Value::as_str) {
            out.push(stem(&cuisine.to_lowercase()));
        }
        if let Some(tags) = c.get("tags").and_then(Value::as_array) {
            out.extend(tags.iter().filter_map(Value::as_str).flat_map(stems));
        }
    }
    out
}

/// A string field of a row.
pub fn text_field<'v>(row: &'v Value, key: &str) -> Option<&'v str> {
    row.get(key).and_then(Value::as_str)
}

/// The strings of a JSON array (none when it is absent or not an array).
pub fn texts(list: Option<&Value>) -> Vec<String> {
    list.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// A number field of a row.
pub fn num_field(row: &Value, key: &str) -> Option<f64> {
    row.get(key).and_then(Value::as_f64)
}
