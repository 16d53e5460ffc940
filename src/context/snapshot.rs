//! `ContextSnapshot`: everything the panels show at a turn, in the shape of
//! the turn record (DESIGN.md, "The turn record").
//!
//! A snapshot is plain data: stored per turn in the session, printed by
//! `alfred run --json`, compared by `diff`, explained by `why`.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::active::{Cause, EntityState};
use super::constraints::{ConstraintMatch, ConstraintStatus, Rule};
use super::conversation::ConversationTurn;
use super::curation::DecisionLogEntry;
use super::narrative::TurnExecutionSummary;
use super::policy::PolicyKind;

/// One entity as the panels and the turn record show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityView {
    #[serde(rename = "ref")]
    pub r#ref: String,
    pub label: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    pub action: String,
    pub last_ref_turn: u32,
    pub turn_created: u32,
    /// Retention reason (retained) or demotion reason (excluded, background).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// Why the entity is in this state, as data (for `why` and diffs).
    pub cause: Cause,
    /// What a draft holds that a standing constraint rules out (a plan
    /// draft's recipe, say): saving it asks first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holds_ruled_out: Vec<RuledOutInside>,
}

/// An entity inside a draft that a standing constraint rules out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuledOutInside {
    #[serde(rename = "ref")]
    pub r#ref: String,
    pub label: String,
    /// The constraint's id and the user's words.
    pub constraint: String,
    pub clause: String,
}

/// A ref dropped at this turn, with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DroppedView {
    #[serde(rename = "ref")]
    pub r#ref: String,
    pub label: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    pub turn: u32,
    pub reason: String,
}

/// The entity layer at a turn, grouped by state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntitiesView {
    pub recent: Vec<EntityView>,
    pub retained: Vec<EntityView>,
    pub pending: Vec<EntityView>,
    pub excluded: Vec<EntityView>,
    /// Shared: a long session's background barely changes from one turn to
    /// the next, and a loaded one keeps each unchanged entry once
    /// ([`EntitiesView::share_background`]).
    pub background: Vec<Arc<EntityView>>,
    /// Refs dropped at this turn.
    pub dropped: Vec<String>,
    /// The same refs with label and reason.
    #[serde(default)]
    pub dropped_detail: Vec<DroppedView>,
    /// Storage only (session files): `background` written as a change
    /// against the previous turn's. `None` everywhere else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_delta: Option<BackgroundDelta>,
}

/// How one turn's background list differs from the turn before.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackgroundDelta {
    /// Refs no longer in the background.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// Entries new to the background, or changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub put: Vec<Arc<EntityView>>,
    /// The full order of refs, when removals and puts do not give it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Vec<String>>,
}

impl BackgroundDelta {
    /// The change that turns `prev` into `next`.
    pub fn between(prev: &[Arc<EntityView>], next: &[Arc<EntityView>]) -> Self {
        let before: std::collections::BTreeMap<&str, &Arc<EntityView>> =
            prev.iter().map(|e| (e.r#ref.as_str(), e)).collect();
        let after: std::collections::BTreeSet<&str> =
            next.iter().map(|e| e.r#ref.as_str()).collect();
        let mut delta = BackgroundDelta {
            removed: before
                .keys()
                .filter(|r| !after.contains(*r))
                .map(|r| r.to_string())
                .collect(),
            put: next
                .iter()
                .filter(|e| before.get(e.r#ref.as_str()).is_none_or(|old| *old != *e))
                .cloned()
                .collect(),
            order: None,
        };
        let merged = delta.merged(prev);
        if merged.len() != next.len() || merged.iter().zip(next).any(|(a, b)| a.r#ref != b.r#ref) {
            delta.order = Some(next.iter().map(|e| e.r#ref.clone()).collect());
        }
        delta
    }

    /// Applies the change to `prev`.
    pub fn apply(&self, prev: &[Arc<EntityView>]) -> Result<Vec<Arc<EntityView>>, String> {
        let merged = self.merged(prev);
        let Some(order) = &self.order else {
            return Ok(merged.into_iter().cloned().collect());
        };
        let mut by_ref: std::collections::BTreeMap<&str, &Arc<EntityView>> =
            merged.into_iter().map(|e| (e.r#ref.as_str(), e)).collect();
        order
            .iter()
            .map(|r| {
                by_ref
                    .remove(r.as_str())
                    .cloned()
                    .ok_or_else(|| format!("the background order names {r}, which is not there"))
            })
            .collect()
    }

    /// `prev` without the removed refs, each put replacing its ref in place
    /// or appended: what `apply` gives before any `order`, borrowed, so
    /// `between` checks the order without copying a background.
    fn merged<'a>(&'a self, prev: &'a [Arc<EntityView>]) -> Vec<&'a Arc<EntityView>> {
        let mut out: Vec<&Arc<EntityView>> = prev
            .iter()
            .filter(|e| !self.removed.contains(&e.r#ref))
            .collect();
        for entry in &self.put {
            match out.iter_mut().find(|e| e.r#ref == entry.r#ref) {
                Some(slot) => *slot = entry,
                None => out.push(entry),
            }
        }
        out
    }
}

impl EntitiesView {
    /// Each live entity with its state.
    pub fn all(&self) -> impl Iterator<Item = (EntityState, &EntityView)> {
        let groups = [
            (EntityState::Recent, &self.recent),
            (EntityState::Retained, &self.retained),
            (EntityState::Pending, &self.pending),
            (EntityState::Excluded, &self.excluded),
        ];
        groups
            .into_iter()
            .flat_map(|(s, v)| v.iter().map(move |e| (s, e)))
            .chain(
                self.background
                    .iter()
                    .map(|e| (EntityState::Background, &**e)),
            )
    }

    /// The background entries.
    pub fn background(&self) -> impl Iterator<Item = &EntityView> {
        self.background.iter().map(|e| &**e)
    }

    /// Makes each background entry equal to one of `earlier`'s (same ref)
    /// share it: what a loaded session does turn by turn.
    pub fn share_background(&mut self, earlier: &EntitiesView) {
        let before: std::collections::HashMap<&str, &Arc<EntityView>> = earlier
            .background
            .iter()
            .map(|e| (e.r#ref.as_str(), e))
            .collect();
        for e in &mut self.background {
            if let Some(old) = before.get(e.r#ref.as_str())
                && **old == *e
            {
                *e = Arc::clone(old);
            }
        }
    }

    /// The state and view of one ref, if live.
    pub fn find(&self, r: &str) -> Option<(EntityState, &EntityView)> {
        self.all().find(|(_, e)| e.r#ref == r)
    }

    /// Number of active entities (recent + retained + pending).
    pub fn active_count(&self) -> usize {
        self.recent.len() + self.retained.len() + self.pending.len()
    }

    /// How many entities are in a state (none are dropped).
    pub fn count(&self, state: EntityState) -> usize {
        match state {
            EntityState::Recent => self.recent.len(),
            EntityState::Retained => self.retained.len(),
            EntityState::Pending => self.pending.len(),
            EntityState::Excluded => self.excluded.len(),
            EntityState::Background => self.background.len(),
            EntityState::Dropped => 0,
        }
    }
}

/// The narrative layer at a turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NarrativeView {
    pub turns: Vec<TurnExecutionSummary>,
    pub earlier: String,
}

/// The conversation layer at a turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversationView {
    pub recent: Vec<ConversationTurn>,
    /// Tiered policy: the bullet tier, one line per turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bullets: Vec<String>,
    pub earlier: String,
}

/// A standing constraint as the panels and the turn record show it:
/// `{id, clause, since_turn, matches, covers, status}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstraintView {
    pub id: String,
    /// The user's words, verbatim.
    pub clause: String,
    pub since_turn: u32,
    pub rule: Rule,
    pub matches: ConstraintMatch,
    /// A short name: "no cod", "vegetarian", "only thai".
    pub label: String,
    /// The refs it covers now, in registration order.
    pub covers: Vec<String>,
    /// Refs the user brought back in spite of it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
    pub status: ConstraintStatus,
    /// What lifted it, when lifted at this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifted_by: Option<String>,
}

/// Everything the panels show at a turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextSnapshot {
    pub turn: u32,
    /// The standing constraints: in force, or lifted at this turn.
    #[serde(default)]
    pub constraints: Vec<ConstraintView>,
    pub policy: PolicyKind,
    pub window: u32,
    pub entities: EntitiesView,
    pub narrative: NarrativeView,
    pub conversation: ConversationView,
    /// The decision-log entries Understand is shown.
    #[serde(default)]
    pub decisions: Vec<DecisionLogEntry>,
}

impl ContextSnapshot {
    /// The state of a ref at this snapshot (dropped when dropped here).
    pub fn state_of(&self, r: &str) -> Option<EntityState> {
        if let Some((s, _)) = self.entities.find(r) {
            return Some(s);
        }
        self.entities
            .dropped
            .iter()
            .any(|d| d == r)
            .then_some(EntityState::Dropped)
    }
}
