//! The policy what-if's state: the draft policy, the field under the
//! cursor and the comparison. Plain data; the keys that change it are in
//! `tui::whatif`.

use crate::context::{ContextDiff, ContextPolicy, ContextSnapshot};

/// The knobs the overlay changes, in display order.
pub const FIELDS: [&str; 4] = [
    "policy",
    "retention window",
    "full detail turns",
    "narrative turns",
];

/// The what-if overlay's state.
#[derive(Debug, Clone, PartialEq)]
pub struct WhatIfState {
    /// The policy being tried.
    pub draft: ContextPolicy,
    /// The field under the cursor (index into [`FIELDS`]).
    pub field: usize,
    /// The turn compared: the one the panels show.
    pub turn: u32,
    /// True when that turn is a past one (the live registry seen then).
    pub past: bool,
    /// The turn under the current policy, and under the draft.
    pub before: ContextSnapshot,
    pub after: ContextSnapshot,
    /// `after` against `before`: who moves, and why.
    pub diff: ContextDiff,
}

/// A field's value under `p`: "windowed", "2".
pub fn value(p: &ContextPolicy, field: usize) -> String {
    match field {
        0 => format!("{:?}", p.policy).to_lowercase(),
        1 => p.turn_retention_window.to_string(),
        2 => p.full_detail_turns.to_string(),
        _ => p.narrative_turns.to_string(),
    }
}

/// "windowed · window 1 · 3 full · 2 narrative".
pub fn summary(p: &ContextPolicy) -> String {
    format!(
        "{} · window {} · {} full · {} narrative",
        value(p, 0),
        p.turn_retention_window,
        p.full_detail_turns,
        p.narrative_turns
    )
}
