//! The rows of a change list before they are laid out: one per changed
//! entity — or one per large group of same-type refs that made the same
//! move for the same reason — with its mark, its move ("recent → excluded")
//! and its reason. Shared by the turn diff and the policy what-if.
//!
//! Pure data building over a `ContextDiff`; the panels draw the rows.

use std::collections::BTreeMap;

use super::entity_rows::{COLLAPSE_OVER, Counts, counts_text, group_key, ranges_of, shared_reason};
use crate::context::{ChangeKind, ContextDiff, EntityChange, EntityState, parse_ref};

/// One row of a change list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeRow {
    pub kind: ChangeKind,
    /// "recipe_5", or "inv_1..inv_59" for a group.
    pub refs: String,
    /// The label, or "59 inventory items" for a group.
    pub label: String,
    /// "recent → excluded", "new → recent".
    pub moved: String,
    /// The state it ends in (for its colour).
    pub to: EntityState,
    /// Why, in words; a group's shared reason or "N different reasons".
    pub reason: String,
}

/// The order changes are listed in: what left working memory first.
fn rank(kind: ChangeKind) -> u8 {
    match kind {
        ChangeKind::Excluded => 0,
        ChangeKind::Demoted => 1,
        ChangeKind::Dropped => 2,
        ChangeKind::AgedOut => 3,
        ChangeKind::Moved => 4,
        ChangeKind::Activated => 5,
        ChangeKind::Promoted => 6,
        ChangeKind::New => 7,
        ChangeKind::Written => 8,
    }
}

/// "recent → excluded"; a ref that did not exist comes from "new".
pub fn move_text(c: &EntityChange) -> String {
    let from = c.from.map_or("new", EntityState::as_str);
    format!("{from} → {}", c.to.as_str())
}

/// The diff's entity changes as rows, most telling first, large groups of
/// the same move collapsed.
pub fn change_rows(diff: &ContextDiff) -> Vec<ChangeRow> {
    let mut groups: BTreeMap<(u8, String, String), Vec<&EntityChange>> = BTreeMap::new();
    for c in &diff.entities {
        let key = (rank(c.kind), move_text(c), group_key(&c.r#ref));
        groups.entry(key).or_default().push(c);
    }
    let mut rows = Vec::new();
    for ((_, moved, key), changes) in groups {
        if changes.len() > COLLAPSE_OVER {
            rows.push(group_row(&key, moved, &changes));
            continue;
        }
        rows.extend(changes.iter().map(|c| ChangeRow {
            kind: c.kind,
            refs: c.r#ref.clone(),
            label: c.label.clone(),
            moved: moved.clone(),
            to: c.to,
            reason: c.reason.clone(),
        }));
    }
    rows
}

fn group_row(key: &str, moved: String, changes: &[&EntityChange]) -> ChangeRow {
    let first = changes[0];
    let numbers: Vec<u32> = changes
        .iter()
        .filter_map(|c| parse_ref(&c.r#ref).map(|p| p.number))
        .collect();
    let what = parse_ref(&first.r#ref)
        .map(|p| super::entity_rows::plural(p.table.entity_type()))
        .unwrap_or_else(|| "entities".to_string());
    let reason = shared_reason(changes.iter().map(|c| c.reason.as_str())).unwrap_or_default();
    ChangeRow {
        kind: first.kind,
        refs: ranges_of(key, numbers),
        label: format!("{} {what}", changes.len()),
        moved,
        to: first.to,
        reason,
    }
}

/// "✕2 excluded · +59 new": the changes counted by kind.
pub fn summary(diff: &ContextDiff) -> String {
    if diff.entities.is_empty() {
        return "no entity changes".to_string();
    }
    // Counted in list order (what left working memory first).
    let mut counts = Counts::new();
    for c in &diff.entities {
        counts.entry(rank(c.kind)).or_insert((c.kind, 0)).1 += 1;
    }
    counts_text(&counts)
}
