//! `diff(a, b)`: what changed in working memory between two snapshots —
//! entities added, dropped and moved between states, each with its reason;
//! narrative entries added and folded; conversation turns folded.

use serde::{Deserialize, Serialize};

use super::active::{Cause, EntityState};
use super::plan::StepType;
use super::snapshot::{ContextSnapshot, EntityView};

/// The kind of an entity change, as the panels mark it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// A ref that did not exist before.
    New,
    /// A pending artifact saved: same ref, now a row.
    Promoted,
    /// Ruled out by a standing constraint (the user's words).
    Excluded,
    /// Not kept by Understand (demoted, with its reason).
    Demoted,
    /// Left the recent window with nothing to keep it: not recent any more.
    /// Not a demotion.
    AgedOut,
    /// Came (back) into the active set.
    Activated,
    /// Moved between two active states (recent → retained…).
    Moved,
    /// Removed from the registry.
    Dropped,
    /// Changed by this turn's writes (a saved row updated or deleted, a
    /// draft edited) while its place in working memory stayed the same.
    Written,
}

/// One entity's change between two snapshots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityChange {
    #[serde(rename = "ref")]
    pub r#ref: String,
    pub label: String,
    pub kind: ChangeKind,
    /// `None` when the ref did not exist in `a`.
    pub from: Option<EntityState>,
    pub to: EntityState,
    pub reason: String,
}

/// What changed between two snapshots.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextDiff {
    pub from_turn: u32,
    pub to_turn: u32,
    pub entities: Vec<EntityChange>,
    /// Narrative turns that appeared in full.
    pub narrative_added: Vec<u32>,
    /// Narrative turns that left the full window (folded).
    pub narrative_folded: Vec<u32>,
    /// Conversation turns that left the full tier.
    pub conversation_folded: Vec<u32>,
}

impl ContextDiff {
    /// The change of one ref, if it changed.
    pub fn change_of(&self, r: &str) -> Option<&EntityChange> {
        self.entities.iter().find(|c| c.r#ref == r)
    }
}

/// Compares snapshot `a` (before) with `b` (after).
pub fn diff(a: &ContextSnapshot, b: &ContextSnapshot) -> ContextDiff {
    let mut entities = Vec::new();
    // What this turn's write and generate steps touched (between turns;
    // two policies over the same turn differ only in where things sit).
    let written: Vec<&str> = b
        .narrative
        .turns
        .iter()
        .filter(|t| t.turn_number == b.turn && a.turn < b.turn)
        .flat_map(|t| &t.steps)
        .filter(|s| matches!(s.step_type, Some(StepType::Write | StepType::Generate)))
        .flat_map(|s| s.entities_affected.iter().map(String::as_str))
        .collect();
    for (to, view) in b.entities.all() {
        let before = a.entities.find(&view.r#ref);
        let change = match before {
            None => Some((ChangeKind::New, None)),
            Some((from, old))
                if from == EntityState::Pending
                    && old.action == "generated"
                    && view.action == "created" =>
            {
                Some((ChangeKind::Promoted, Some(from)))
            }
            Some((from, _)) if from == to && written.contains(&view.r#ref.as_str()) => {
                Some((ChangeKind::Written, Some(from)))
            }
            Some((from, _)) if from == to => None,
            // An exclusion settling into the background is not news.
            Some((from, old))
                if !from.is_active() && !to.is_active() && old.cause.same_origin(&view.cause) =>
            {
                None
            }
            Some((from, _)) => Some((classify_move(from, to, &view.cause), Some(from))),
        };
        if let Some((kind, from)) = change {
            entities.push(EntityChange {
                r#ref: view.r#ref.clone(),
                label: view.label.clone(),
                kind,
                from,
                to,
                reason: reason_for(kind, view, b.turn),
            });
        }
    }
    for d in &b.entities.dropped_detail {
        let from = a.entities.find(&d.r#ref).map(|(s, _)| s);
        entities.push(EntityChange {
            r#ref: d.r#ref.clone(),
            label: d.label.clone(),
            kind: ChangeKind::Dropped,
            from,
            to: EntityState::Dropped,
            reason: d.reason.clone(),
        });
    }
    let turns_of = |s: &ContextSnapshot| {
        s.narrative
            .turns
            .iter()
            .map(|t| t.turn_number)
            .collect::<Vec<_>>()
    };
    let (na, nb) = (turns_of(a), turns_of(b));
    let conv_a: Vec<u32> = a.conversation.recent.iter().map(|t| t.turn).collect();
    let conv_b: Vec<u32> = b.conversation.recent.iter().map(|t| t.turn).collect();
    ContextDiff {
        from_turn: a.turn,
        to_turn: b.turn,
        entities,
        narrative_added: nb.iter().filter(|t| !na.contains(t)).copied().collect(),
        narrative_folded: na.iter().filter(|t| !nb.contains(t)).copied().collect(),
        conversation_folded: conv_a
            .iter()
            .filter(|t| !conv_b.contains(t))
            .copied()
            .collect(),
    }
}

fn classify_move(from: EntityState, to: EntityState, cause: &Cause) -> ChangeKind {
    match (from.is_active(), to.is_active()) {
        (_, false) if matches!(cause, Cause::RuledOut { .. }) => ChangeKind::Excluded,
        (_, false) if matches!(cause, Cause::Demoted { .. }) => ChangeKind::Demoted,
        (true, false) => ChangeKind::AgedOut,
        (false, true) => ChangeKind::Activated,
        _ => ChangeKind::Moved,
    }
}

fn reason_for(kind: ChangeKind, view: &EntityView, turn: u32) -> String {
    if kind == ChangeKind::Promoted {
        return format!("saved at turn {turn}; the same ref now names the row");
    }
    if kind == ChangeKind::Written {
        return match view.action.as_str() {
            "updated" | "deleted" | "created" => format!("{} at turn {turn}", view.action),
            "generated" => format!("draft changed at turn {turn}, not saved yet"),
            _ => format!("changed at turn {turn}"),
        };
    }
    match &view.cause {
        Cause::InWindow { last_ref_turn, .. } if kind == ChangeKind::New => {
            format!("{} at turn {last_ref_turn}", view.action)
        }
        Cause::InWindow { last_ref_turn, .. } => format!("referenced at turn {last_ref_turn}"),
        Cause::Retained {
            reason,
            pinned: true,
            ..
        } => reason.clone(),
        Cause::Retained { reason, .. } => format!("retained: {reason}"),
        Cause::Warm { last_ref_turn, .. } => format!("warm: last touched at turn {last_ref_turn}"),
        Cause::Unsaved { .. } => "generated, not saved yet".to_string(),
        Cause::Demoted { reason, turn } => {
            format!("not kept by Understand at turn {turn}: {reason}")
        }
        Cause::RuledOut {
            clause,
            constraint,
            since_turn,
        } => format!("ruled out by {constraint} “{clause}” (turn {since_turn})"),
        Cause::Aged {
            last_ref_turn,
            window,
            ..
        } => {
            format!(
                "not recent any more: last used at turn {last_ref_turn}, outside the window of {window}"
            )
        }
        Cause::LinkedOnly => "linked from another row, never referenced directly".to_string(),
        Cause::Baseline => "baseline keeps everything".to_string(),
    }
}
