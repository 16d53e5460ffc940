//! `ContextState`: the three layers of one session and their policy.
//!
//! The pipeline works on a copy of this state during a turn and hands the new
//! state back when the turn succeeds; a failed turn leaves it untouched.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::active::{EntityState, classify};
use super::conversation::{ConversationLayer, ConversationTurn};
use super::curation::{self, CurationOutcome, DecisionLog, EntityCuration};
use super::fold::{Compressor, FoldKind, FoldRequest};
use super::narrative::{NarrativeLayer, TurnExecutionSummary};
use super::policy::ContextPolicy;
use super::registry::SessionIdRegistry;
use super::snapshot::{
    ContextSnapshot, ConversationView, DroppedView, EntitiesView, EntityView, NarrativeView,
};

/// The context of one session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContextState {
    /// The last turn started (0 before the first message).
    pub turn: u32,
    pub policy: ContextPolicy,
    pub registry: SessionIdRegistry,
    pub narrative: NarrativeLayer,
    pub conversation: ConversationLayer,
    pub decision_log: DecisionLog,
    /// The last `understand_window` turns, annotated with their entities,
    /// for Understand (which looks further back than Think).
    #[serde(default)]
    pub understand_turns: VecDeque<AnnotatedTurn>,
    /// The last content seen of each active entity (ref → row with refs),
    /// so a later turn can use rows already loaded instead of re-reading.
    /// Pruned to the active set at the end of every turn.
    #[serde(default)]
    pub rows: BTreeMap<String, Value>,
}

/// A past turn as Understand sees it: what was said and which refs it touched.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnnotatedTurn {
    pub turn: u32,
    pub user: String,
    /// The assistant's reply as context sees it (its summary when long).
    pub assistant: String,
    pub entities: Vec<EntityNote>,
}

/// A ref touched in a turn, with what happened to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityNote {
    #[serde(rename = "ref")]
    pub r#ref: String,
    pub action: String,
}

impl ContextState {
    /// A fresh context under `policy`.
    pub fn new(policy: ContextPolicy) -> Self {
        Self {
            policy,
            ..Self::default()
        }
    }

    /// Starts the next turn and returns its number.
    pub fn begin_turn(&mut self) -> u32 {
        self.turn += 1;
        self.turn
    }

    /// Applies Understand's curation at the current turn.
    pub fn apply_curation(&mut self, c: &EntityCuration) -> CurationOutcome {
        curation::apply_curation(
            &mut self.registry,
            &mut self.decision_log,
            c,
            self.turn,
            self.policy.decision_log_cap,
        )
    }

    /// The user's pin. False for an unknown ref.
    pub fn pin(&mut self, r: &str) -> bool {
        curation::pin(
            &mut self.registry,
            &mut self.decision_log,
            r,
            self.turn,
            self.policy.decision_log_cap,
        )
    }

    /// The user's unpin. False for an unknown or unpinned ref.
    pub fn unpin(&mut self, r: &str) -> bool {
        curation::unpin(
            &mut self.registry,
            &mut self.decision_log,
            r,
            self.turn,
            self.policy.decision_log_cap,
        )
    }

    /// Changes the policy and re-applies the windows.
    pub fn set_policy(&mut self, policy: ContextPolicy) {
        self.policy = policy;
        self.narrative.trim_to(self.policy.narrative_full_turns());
        self.conversation.reapply(&self.policy);
    }

    /// Records the finished turn in the narrative and conversation layers.
    /// Older items await folding: see [`fold_requests`](Self::fold_requests).
    pub fn record_turn(&mut self, summary: TurnExecutionSummary, exchange: ConversationTurn) {
        let entities = exchange
            .entities_mentioned
            .iter()
            .map(|r| EntityNote {
                r#ref: r.clone(),
                action: self
                    .registry
                    .get(r)
                    .map(|e| e.action.as_str().to_string())
                    .unwrap_or_else(|| "dropped".to_string()),
            })
            .collect();
        self.understand_turns.push_back(AnnotatedTurn {
            turn: exchange.turn,
            user: exchange.user.clone(),
            assistant: exchange.assistant_for_context().to_string(),
            entities,
        });
        while self.understand_turns.len() > self.policy.understand_window.max(1) {
            self.understand_turns.pop_front();
        }
        self.narrative
            .push(summary, self.policy.narrative_full_turns());
        self.conversation.push(exchange, &self.policy);
    }

    /// The folds waiting to be done (at most one per layer).
    pub fn fold_requests(&self) -> Vec<FoldRequest> {
        [
            self.narrative.fold_request(),
            self.conversation.fold_request(),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Applies a fold's result; with compression disabled in the policy the
    /// extractive fallback is used whatever the result.
    pub fn complete_fold(&mut self, request: &FoldRequest, result: Option<String>) {
        let result = if self.policy.compress_older_turns {
            result
        } else {
            None
        };
        match request.kind {
            FoldKind::Narrative => self.narrative.complete_fold(request, result),
            FoldKind::Conversation => self.conversation.complete_fold(request, result),
        }
    }

    /// Performs every waiting fold with `compressor`.
    pub fn fold_all(&mut self, compressor: &mut dyn Compressor) {
        for req in self.fold_requests() {
            let out = if self.policy.compress_older_turns {
                compressor.compress(&req)
            } else {
                None
            };
            self.complete_fold(&req, out);
        }
    }

    /// Remembers rows a tool returned (each with its ref under `id`).
    pub fn remember_rows<'a>(&mut self, rows: impl IntoIterator<Item = &'a Value>) {
        for row in rows {
            if let Some(r) = row.get("id").and_then(Value::as_str)
                && self.registry.is_live_ref(r)
            {
                self.rows.insert(r.to_string(), row.clone());
            }
        }
    }

    /// Keeps only the rows of active entities (recent, retained, pending).
    pub fn prune_rows(&mut self) {
        let active: std::collections::BTreeSet<String> = self
            .entity_states()
            .into_iter()
            .filter(|(_, s)| s.is_active())
            .map(|(r, _)| r)
            .collect();
        self.rows.retain(|r, _| active.contains(r));
    }

    /// The state of every live entity at the current turn.
    pub fn entity_states(&self) -> Vec<(String, EntityState)> {
        self.registry
            .entries()
            .into_iter()
            .map(|(r, e)| (r.to_string(), classify(e, self.turn, &self.policy).0))
            .collect()
    }

    /// Everything the panels show, at the current turn.
    pub fn snapshot(&self) -> ContextSnapshot {
        snapshot_at(self, self.turn)
    }
}

/// Builds the snapshot of `state` as seen at `turn` (normally the current one;
/// another turn gives the what-if view of the same registry).
pub fn snapshot_at(state: &ContextState, turn: u32) -> ContextSnapshot {
    let mut entities = EntitiesView::default();
    let mut rows: Vec<(EntityState, EntityView)> = state
        .registry
        .entries()
        .into_iter()
        .map(|(r, e)| {
            let (s, cause) = classify(e, turn, &state.policy);
            let view = EntityView {
                r#ref: r.to_string(),
                label: e.label.clone(),
                entity_type: e.table.entity_type().to_string(),
                action: e.action.as_str().to_string(),
                last_ref_turn: e.last_ref_turn,
                turn_created: e.turn_created,
                reason: cause.short_reason(),
                pinned: e.is_pinned(),
                cause,
            };
            (s, view)
        })
        .collect();
    // Most recently referenced first, then registration order.
    rows.sort_by_key(|(_, v)| std::cmp::Reverse(v.last_ref_turn));
    for (s, v) in rows {
        match s {
            EntityState::Recent => entities.recent.push(v),
            EntityState::Retained => entities.retained.push(v),
            EntityState::Pending => entities.pending.push(v),
            EntityState::Excluded => entities.excluded.push(v),
            EntityState::Background | EntityState::Dropped => entities.background.push(v),
        }
    }
    for (r, d) in state.registry.dropped() {
        if d.turn == turn {
            entities.dropped.push(r.clone());
            entities.dropped_detail.push(DroppedView {
                r#ref: r.clone(),
                label: d.label.clone(),
                entity_type: d.table.entity_type().to_string(),
                turn: d.turn,
                reason: d.reason.clone(),
            });
        }
    }
    ContextSnapshot {
        turn,
        policy: state.policy.policy,
        window: state.policy.turn_retention_window,
        entities,
        narrative: NarrativeView {
            turns: state.narrative.recent().cloned().collect(),
            earlier: state.narrative.earlier().to_string(),
        },
        conversation: ConversationView {
            recent: state.conversation.recent().cloned().collect(),
            bullets: state
                .conversation
                .bullets()
                .map(super::fold::Foldable::fold_line)
                .collect(),
            earlier: state.conversation.history_summary().to_string(),
        },
        decisions: state
            .decision_log
            .last(state.policy.decision_log_shown)
            .into_iter()
            .cloned()
            .collect(),
    }
}
