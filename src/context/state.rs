//! `ContextState`: the three layers of one session and their policy.
//!
//! The pipeline works on a copy of this state during a turn and hands the new
//! state back when the turn succeeds; a failed turn leaves it untouched.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::active::{Cause, EntityState, classify};
use super::archive::Archive;
use super::constraints::{ConstraintChanges, ConstraintOutcome, Constraints, RecipeFacts};
use super::conversation::{ConversationLayer, ConversationTurn};
use super::curation::{self, CurationOutcome, DecisionLog, EntityCuration};
use super::entity::Table;
use super::fold::{Compressor, FoldKind, FoldRequest};
use super::narrative::{NarrativeLayer, TurnExecutionSummary};
use super::policy::ContextPolicy;
use super::registry::{RefEntry, SessionIdRegistry};
use super::snapshot::{
    ConstraintView, ContextSnapshot, ConversationView, DroppedView, EntitiesView, EntityView,
    NarrativeView, RuledOutInside,
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
    /// What the user ruled out or asked for, until they lift it; outside
    /// every window and fold.
    #[serde(default)]
    pub constraints: Constraints,
    /// Every turn, compactly: the cold tier `search_history` reads.
    #[serde(default)]
    pub archive: Archive,
    /// The last `understand_window` turns, annotated with their entities,
    /// for Understand (which looks further back than Think).
    #[serde(default)]
    pub understand_turns: VecDeque<AnnotatedTurn>,
    /// The last content seen of each active entity (ref → row with refs),
    /// so a later turn can use rows already loaded instead of re-reading.
    /// Pruned to the active set at the end of every turn.
    #[serde(default)]
    /// Each row is shared (`Arc`): a turn's concurrent Act steps copy the
    /// context when one writes while another's call still reads it, and the
    /// copy then costs the keys, not every row's JSON again.
    pub rows: BTreeMap<String, Arc<Value>>,
    /// Refs an import of Alfred's state found and could not keep, with why
    /// (its cooking log, say): named in its narrative, explained by `/why`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub import_skipped: BTreeMap<String, String>,
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
    /// The state as JSON less its archive (`to_value` of the state is this
    /// with `"archive"` added): the archive only grows at the back and gives
    /// way at the front, so the session journal adds its new digests to the
    /// JSON it has instead of writing every one again each turn.
    pub fn to_value_without_archive(&self) -> serde_json::Result<Value> {
        // Destructured whole: a new field cannot be forgotten here.
        let ContextState {
            turn,
            policy,
            registry,
            narrative,
            conversation,
            decision_log,
            constraints,
            archive: _,
            understand_turns,
            rows,
            import_skipped,
        } = self;
        let mut fields = serde_json::Map::new();
        let mut put = |name: &str, v: serde_json::Result<Value>| -> serde_json::Result<()> {
            fields.insert(name.to_string(), v?);
            Ok(())
        };
        put("turn", serde_json::to_value(turn))?;
        put("policy", serde_json::to_value(policy))?;
        put("registry", serde_json::to_value(registry))?;
        put("narrative", serde_json::to_value(narrative))?;
        put("conversation", serde_json::to_value(conversation))?;
        put("decision_log", serde_json::to_value(decision_log))?;
        put("constraints", serde_json::to_value(constraints))?;
        put("understand_turns", serde_json::to_value(understand_turns))?;
        put("rows", serde_json::to_value(rows))?;
        if !import_skipped.is_empty() {
            put("import_skipped", serde_json::to_value(import_skipped))?;
        }
        Ok(Value::Object(fields))
    }

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

    /// Applies Understand's curation at the current turn. A fresh start
    /// (`clear_all`) lifts every standing constraint too.
    pub fn apply_curation(&mut self, c: &EntityCuration) -> CurationOutcome {
        if c.clear_all {
            self.constraints.lift_all(self.turn, "start over");
        }
        curation::apply_curation(
            &mut self.registry,
            &mut self.decision_log,
            c,
            self.turn,
            self.policy.decision_log_cap,
        )
    }

    /// Applies a brain's constraint changes at the current turn. What a
    /// lift or an exception releases comes back into working memory (it is
    /// referenced now): the user wants it again.
    pub fn apply_constraints(&mut self, changes: &ConstraintChanges) -> ConstraintOutcome {
        let outcome = self.constraints.apply(changes, &self.registry, self.turn);
        for r in &outcome.released {
            self.registry.touch(r, self.turn);
        }
        outcome
    }

    /// Recomputes what the standing constraints cover, judging each recipe
    /// by its loaded content, else by `more` (facts fetched elsewhere).
    pub fn refresh_constraints(&mut self, more: &dyn Fn(&str) -> Option<RecipeFacts>) {
        if self.constraints.active().next().is_none() {
            return;
        }
        let (registry, rows) = (&self.registry, &self.rows);
        let facts = |r: &str| {
            let label = registry.get(r).map(|e| e.label.as_str()).unwrap_or(r);
            registry
                .artifact(r)
                .or_else(|| rows.get(r).map(|v| &**v))
                .and_then(|c| RecipeFacts::from_content(label, c))
                .or_else(|| more(r))
        };
        self.constraints.refresh(registry, &facts, self.turn);
    }

    /// Recipe refs no loaded content can judge, for the caller to fetch
    /// facts of when constraints stand: every such recipe when `all` (a
    /// constraint was just added), else those touched this turn (their
    /// content may have changed; older ones keep their judgement).
    pub fn recipes_without_facts(&self, all: bool) -> Vec<String> {
        if self.constraints.active().next().is_none() {
            return Vec::new();
        }
        self.registry
            .entries()
            .into_iter()
            .filter(|(_, e)| e.table == Table::Recipes && e.row_id.is_some())
            .filter(|(_, e)| all || e.last_ref_turn == self.turn || e.turn_created == self.turn)
            .filter(|(r, _)| {
                self.rows
                    .get(*r)
                    .and_then(|c| RecipeFacts::from_content(r, c))
                    .is_none()
            })
            .map(|(r, _)| r.to_string())
            .collect()
    }

    /// The state of a live entity at `turn`, and why. A standing
    /// constraint rules out before any window or retention applies.
    pub fn state_of(&self, r: &str, e: &RefEntry, turn: u32) -> (EntityState, Cause) {
        if let Some((c, since)) = self.constraints.covering(r) {
            let cause = Cause::RuledOut {
                constraint: c.id.clone(),
                clause: c.clause.clone(),
                since_turn: since,
            };
            let state = if since == turn {
                EntityState::Excluded
            } else {
                EntityState::Background
            };
            return (state, cause);
        }
        classify(e, turn, &self.policy)
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
                    .map(RefEntry::action_label)
                    .unwrap_or_else(|| "dropped".to_string()),
            })
            .collect();
        self.understand_turns.push_back(AnnotatedTurn {
            turn: exchange.turn,
            user: exchange.user.clone(),
            assistant: exchange.assistant_for_context().to_string(),
            entities,
        });
        let (keep, every) = (
            self.policy.understand_window.max(1),
            self.policy.fold_every(),
        );
        if super::fold::epoch_ends(self.understand_turns.len(), keep, every) {
            let drop = self.understand_turns.len() - keep;
            self.understand_turns.drain(..drop);
        }
        self.narrative
            .push_in_epochs(summary, self.policy.narrative_full_turns(), every);
        self.conversation.push(exchange, &self.policy);
    }

    /// The folds waiting to be done (at most one per layer), each cut to the
    /// policy's `earlier_max_chars`.
    pub fn fold_requests(&self) -> Vec<FoldRequest> {
        [
            self.narrative.fold_request(),
            self.conversation.fold_request(),
        ]
        .into_iter()
        .flatten()
        .map(|mut r| {
            r.max_chars = self.policy.earlier_max_chars;
            r
        })
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

    /// True when a fold is worth a compressor: compression is on and the
    /// extractive summary would have to shed lines. Until then the folded
    /// turns are kept as their lines, and no prompt is spent on them.
    pub fn needs_compression(&self, request: &FoldRequest) -> bool {
        self.policy.compress_older_turns && !request.fits_extractive()
    }

    /// Performs every waiting fold with `compressor` (when it needs one).
    pub fn fold_all(&mut self, compressor: &mut dyn Compressor) {
        for req in self.fold_requests() {
            let out = if self.needs_compression(&req) {
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
                self.rows.insert(r.to_string(), Arc::new(row.clone()));
            }
        }
    }

    /// Keeps only the rows of active entities (recent, retained, pending)
    /// and of those a standing constraint rules out, which come back without
    /// a re-read when the user lifts it.
    pub fn prune_rows(&mut self) {
        let keep: std::collections::BTreeSet<String> = self
            .entity_states()
            .into_iter()
            .filter(|(r, s)| s.is_active() || self.constraints.covering(r).is_some())
            .map(|(r, _)| r)
            .collect();
        self.rows.retain(|r, _| keep.contains(r));
    }

    /// The state of every live entity at the current turn.
    pub fn entity_states(&self) -> Vec<(String, EntityState)> {
        self.registry
            .entries()
            .into_iter()
            .map(|(r, e)| (r.to_string(), self.state_of(r, e, self.turn).0))
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
            let (s, cause) = state.state_of(r, e, turn);
            let view = EntityView {
                r#ref: r.to_string(),
                label: e.label.clone(),
                entity_type: e.table.entity_type().to_string(),
                action: e.action_label(),
                last_ref_turn: e.last_ref_turn,
                turn_created: e.turn_created,
                reason: cause.short_reason(),
                pinned: e.is_pinned(),
                cause,
                holds_ruled_out: ruled_out_inside(state, r, s),
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
            EntityState::Background | EntityState::Dropped => {
                entities.background.push(std::sync::Arc::new(v))
            }
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
        constraints: constraint_views(state, turn),
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

/// What a pending draft holds that an active constraint rules out.
fn ruled_out_inside(state: &ContextState, r: &str, s: EntityState) -> Vec<RuledOutInside> {
    if s != EntityState::Pending {
        return Vec::new();
    }
    let Some(content) = state.registry.artifact(r) else {
        return Vec::new();
    };
    state
        .constraints
        .covered_inside(content)
        .into_iter()
        .filter_map(|inside| {
            let (c, _) = state.constraints.covering(&inside)?;
            Some(RuledOutInside {
                label: state
                    .registry
                    .get(&inside)
                    .map_or_else(|| inside.clone(), |e| e.label.clone()),
                r#ref: inside,
                constraint: c.id.clone(),
                clause: c.clause.clone(),
            })
        })
        .collect()
}

/// The constraints in force at `turn`, and those lifted at it.
fn constraint_views(state: &ContextState, turn: u32) -> Vec<ConstraintView> {
    let label = |r: &str| {
        state
            .registry
            .get(r)
            .map(|e| e.label.clone())
            .unwrap_or_else(|| r.to_string())
    };
    let seq = |r: &str| state.registry.get(r).map_or(u64::MAX, |e| e.seq);
    state
        .constraints
        .all()
        .iter()
        .filter(|c| c.since_turn <= turn)
        .filter(|c| c.lifted.as_ref().is_none_or(|l| l.turn >= turn))
        .map(|c| {
            let mut covers: Vec<String> = c.covers.keys().cloned().collect();
            covers.sort_by_key(|r| seq(r));
            ConstraintView {
                id: c.id.clone(),
                clause: c.clause.clone(),
                since_turn: c.since_turn,
                rule: c.rule,
                matches: c.matches.clone(),
                label: if c.label.is_empty() {
                    c.name(&label)
                } else {
                    c.label.clone()
                },
                covers,
                except: c.except.clone(),
                status: if c.lifted.as_ref().is_some_and(|l| l.turn <= turn) {
                    super::ConstraintStatus::Lifted
                } else {
                    super::ConstraintStatus::Active
                },
                lifted_by: c
                    .lifted
                    .as_ref()
                    .filter(|l| l.turn <= turn)
                    .map(|l| l.by.clone()),
            }
        })
        .collect()
}
