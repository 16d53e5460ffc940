//! `ContextSnapshot`: everything the panels show at a turn, in the shape of
//! the turn record (DESIGN.md, "The turn record").
//!
//! A snapshot is plain data: stored per turn in the session, printed by
//! `alfred run --json`, compared by `diff`, explained by `why`.

use serde::{Deserialize, Serialize};

use super::active::{Cause, EntityState};
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
    pub background: Vec<EntityView>,
    /// Refs dropped at this turn.
    pub dropped: Vec<String>,
    /// The same refs with label and reason.
    #[serde(default)]
    pub dropped_detail: Vec<DroppedView>,
}

impl EntitiesView {
    /// Each live entity with its state.
    pub fn all(&self) -> impl Iterator<Item = (EntityState, &EntityView)> {
        let groups = [
            (EntityState::Recent, &self.recent),
            (EntityState::Retained, &self.retained),
            (EntityState::Pending, &self.pending),
            (EntityState::Excluded, &self.excluded),
            (EntityState::Background, &self.background),
        ];
        groups
            .into_iter()
            .flat_map(|(s, v)| v.iter().map(move |e| (s, e)))
    }

    /// The state and view of one ref, if live.
    pub fn find(&self, r: &str) -> Option<(EntityState, &EntityView)> {
        self.all().find(|(_, e)| e.r#ref == r)
    }

    /// Number of active entities (recent + retained + pending).
    pub fn active_count(&self) -> usize {
        self.recent.len() + self.retained.len() + self.pending.len()
    }

    /// The group of a state (empty for dropped).
    pub fn group(&self, state: EntityState) -> &[EntityView] {
        match state {
            EntityState::Recent => &self.recent,
            EntityState::Retained => &self.retained,
            EntityState::Pending => &self.pending,
            EntityState::Excluded => &self.excluded,
            EntityState::Background => &self.background,
            EntityState::Dropped => &[],
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

/// Everything the panels show at a turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextSnapshot {
    pub turn: u32,
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
