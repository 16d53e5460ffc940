//! The entity timeline: one row per entity that ever appeared in a session,
//! one column per stored turn, each cell the entity's state at that turn
//! (recent, retained, pending, excluded, background, dropped — or nothing,
//! before it existed and after it was dropped). And `why` for one cell.
//!
//! Pure: built from the entity views a session stores per turn, no IO. The
//! grid is one flat vector, so a session of 500 turns × 2,000 entities is a
//! megabyte and a lookup is an index.

use std::collections::HashMap;

use super::active::EntityState;
use super::entity::parse_ref;
use super::snapshot::{ContextSnapshot, EntitiesView};
use super::why::explain;

/// One entity's row: who it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineRow {
    pub r#ref: String,
    /// The label it had when last seen.
    pub label: String,
    /// "recipe", "inventory"… (the entity type of the turn record).
    pub entity_type: String,
    /// The first column it appears in.
    pub first_col: usize,
}

/// The grid: rows × columns of states.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    /// The turn number of each column, oldest first.
    pub turns: Vec<u32>,
    /// The entities, in order of first appearance (then type and number).
    pub rows: Vec<TimelineRow>,
    /// `cells[row * turns.len() + col]`; `None` where the entity was absent.
    cells: Vec<Option<EntityState>>,
}

impl Timeline {
    /// The state of `row` at column `col` (`None`: absent, or out of range).
    pub fn cell(&self, row: usize, col: usize) -> Option<EntityState> {
        if col >= self.turns.len() {
            return None;
        }
        self.cells
            .get(row * self.turns.len() + col)
            .copied()
            .flatten()
    }

    /// The entity types present, in table order ("recipe", "inventory"…).
    pub fn types(&self) -> Vec<String> {
        let mut types: Vec<(usize, &str)> = self
            .rows
            .iter()
            .map(|r| (type_rank(&r.r#ref), r.entity_type.as_str()))
            .collect();
        types.sort_unstable();
        types.dedup_by(|a, b| a.1 == b.1);
        types.into_iter().map(|(_, t)| t.to_string()).collect()
    }

    /// The rows matching a type (when given) and a text (in ref or label,
    /// ignoring case), in order.
    pub fn filter(&self, entity_type: Option<&str>, text: &str) -> Vec<usize> {
        let needle = text.trim().to_lowercase();
        self.rows
            .iter()
            .enumerate()
            .filter(|(_, r)| entity_type.is_none_or(|t| r.entity_type == t))
            .filter(|(_, r)| {
                needle.is_empty()
                    || r.r#ref.to_lowercase().contains(&needle)
                    || r.label.to_lowercase().contains(&needle)
            })
            .map(|(i, _)| i)
            .collect()
    }
}

/// Table order of a ref's type (unknown refs last), for stable listings.
fn type_rank(r: &str) -> usize {
    parse_ref(r)
        .and_then(|p| super::entity::Table::ALL.iter().position(|t| *t == p.table))
        .unwrap_or(usize::MAX)
}

/// Builds the grid from each stored turn's entities, oldest first.
pub fn build<'a>(columns: &[(u32, &'a EntitiesView)]) -> Timeline {
    // Pass 1: every ref, where it first appears and its last label.
    let mut index: HashMap<&'a str, usize> = HashMap::new();
    let mut rows: Vec<TimelineRow> = Vec::new();
    for (col, &(_, e)) in columns.iter().enumerate() {
        let live = e.all().map(|(_, v)| (&v.r#ref, &v.label, &v.entity_type));
        let dropped = e
            .dropped_detail
            .iter()
            .map(|d| (&d.r#ref, &d.label, &d.entity_type));
        for (r, label, entity_type) in live.chain(dropped) {
            match index.get(r.as_str()) {
                Some(&i) => rows[i].label.clone_from(label),
                None => {
                    index.insert(r.as_str(), rows.len());
                    rows.push(TimelineRow {
                        r#ref: r.clone(),
                        label: label.clone(),
                        entity_type: entity_type.clone(),
                        first_col: col,
                    });
                }
            }
        }
    }
    // First appearance, then table order and number; a stable sort keeps
    // discovery order for the rest.
    rows.sort_by_cached_key(|r| {
        let number = parse_ref(&r.r#ref).map_or(u32::MAX, |p| p.number);
        (r.first_col, type_rank(&r.r#ref), number)
    });
    for (i, row) in rows.iter().enumerate() {
        if let Some(slot) = index.get_mut(row.r#ref.as_str()) {
            *slot = i;
        }
    }
    // Pass 2: the cells.
    let width = columns.len();
    let mut cells = vec![None; rows.len() * width];
    for (col, (_, e)) in columns.iter().enumerate() {
        let dropped = e.dropped.iter().map(|r| (r, EntityState::Dropped));
        for (r, state) in e.all().map(|(s, v)| (&v.r#ref, s)).chain(dropped) {
            if let Some(&row) = index.get(r.as_str()) {
                cells[row * width + col] = Some(state);
            }
        }
    }
    Timeline {
        turns: columns.iter().map(|(t, _)| *t).collect(),
        rows,
        cells,
    }
}

/// Why `r` is in its state at column `col`: `why` over the stored turns.
pub fn why_at(columns: &[(u32, &EntitiesView)], col: usize, r: &str) -> String {
    let Some((turn, entities)) = columns.get(col) else {
        return "No turn there.".to_string();
    };
    let snap = ContextSnapshot {
        turn: *turn,
        entities: (*entities).clone(),
        ..ContextSnapshot::default()
    };
    if let Some(text) = explain(&snap, r) {
        return text;
    }
    let dropped = columns[..col]
        .iter()
        .rev()
        .find_map(|(_, e)| e.dropped_detail.iter().find(|d| d.r#ref == r));
    match dropped {
        Some(d) => format!(
            "{r} ({}) is gone at turn {turn}: it was dropped at turn {} — “{}”.",
            d.label, d.turn, d.reason
        ),
        None => format!("{r} did not exist yet at turn {turn}."),
    }
}

#[cfg(test)]
#[path = "timeline_tests.rs"]
mod tests;
