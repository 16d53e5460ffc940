//! Understand's curation: retain with a reason, demote, drop, clear all —
//! applied to the registry and written to the capped decision log.
//!
//! Unknown refs are reported, never applied. A user's pin outranks
//! Understand's demotion (the demotion is skipped and reported); an explicit
//! drop or `clear_all` still removes a pinned ref, because the user asked to
//! forget.

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::registry::{PINNED_REASON, RetainedBy, SessionIdRegistry};

/// Why an older entity should stay active.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RetentionDecision {
    /// The ref to keep active, e.g. `gen_meal_1`.
    #[serde(rename = "ref")]
    pub r#ref: String,
    /// Why, for future Understand passes: "user's ongoing weekly plan".
    pub reason: String,
}

/// A demotion or drop with its reason. Accepts a bare ref string too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RefDecision {
    /// The ref concerned.
    #[serde(rename = "ref")]
    pub r#ref: String,
    /// Why: "user said no french toast".
    pub reason: String,
}

impl<'de> Deserialize<'de> for RefDecision {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            Bare(String),
            Full {
                #[serde(rename = "ref")]
                r: String,
                #[serde(default)]
                reason: String,
            },
        }
        Ok(match Form::deserialize(d)? {
            Form::Bare(r) => RefDecision {
                r#ref: r,
                reason: String::new(),
            },
            Form::Full { r, reason } => RefDecision { r#ref: r, reason },
        })
    }
}

impl RefDecision {
    /// A decision with a reason.
    pub fn new(r: &str, reason: &str) -> Self {
        Self {
            r#ref: r.to_string(),
            reason: reason.to_string(),
        }
    }
}

/// Understand's curation of working memory for this turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EntityCuration {
    /// Older entities to keep active beyond the recent window, with reasons.
    pub retain_active: Vec<RetentionDecision>,
    /// Entities to remove from the active set (kept in the registry).
    pub demote: Vec<RefDecision>,
    /// Entities to forget entirely ("forget that").
    pub drop: Vec<RefDecision>,
    /// Fresh start: forget every entity.
    pub clear_all: bool,
    /// One line for the decision log: "Demoted recipe_5, recipe_6".
    pub curation_summary: Option<String>,
}

impl EntityCuration {
    /// True when the curation changes nothing.
    pub fn is_empty(&self) -> bool {
        self.retain_active.is_empty()
            && self.demote.is_empty()
            && self.drop.is_empty()
            && !self.clear_all
    }
}

/// What a decision did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionAction {
    Retain,
    Demote,
    Drop,
    ClearAll,
    Pin,
    Unpin,
}

impl DecisionAction {
    /// The word shown in logs and prompts.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionAction::Retain => "retain",
            DecisionAction::Demote => "demote",
            DecisionAction::Drop => "drop",
            DecisionAction::ClearAll => "clear_all",
            DecisionAction::Pin => "pin",
            DecisionAction::Unpin => "unpin",
        }
    }
}

/// One entry of the decision log: what was decided about which ref, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionLogEntry {
    pub turn: u32,
    #[serde(rename = "ref")]
    pub r#ref: String,
    pub action: DecisionAction,
    pub reason: String,
}

/// The capped history of curation decisions, read by the next Understand.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionLog {
    entries: VecDeque<DecisionLogEntry>,
}

impl DecisionLog {
    /// Appends an entry and drops the oldest beyond `cap`.
    pub fn push(&mut self, entry: DecisionLogEntry, cap: usize) {
        self.entries.push_back(entry);
        while self.entries.len() > cap.max(1) {
            self.entries.pop_front();
        }
    }

    /// All entries, oldest first.
    pub fn entries(
        &self,
    ) -> impl DoubleEndedIterator<Item = &DecisionLogEntry> + ExactSizeIterator {
        self.entries.iter()
    }

    /// The last `n` entries, oldest first.
    pub fn last(&self, n: usize) -> Vec<&DecisionLogEntry> {
        let skip = self.entries.len().saturating_sub(n);
        self.entries.iter().skip(skip).collect()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing was decided yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A curation decision that was not applied, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedDecision {
    #[serde(rename = "ref")]
    pub r#ref: String,
    pub action: DecisionAction,
    pub why: String,
}

/// The result of applying a curation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurationOutcome {
    /// Decisions applied, as logged.
    pub applied: Vec<DecisionLogEntry>,
    /// Refs named by the curation that the registry does not know.
    pub unknown_refs: Vec<String>,
    /// Decisions skipped (conflicts, pins), with the reason.
    pub skipped: Vec<SkippedDecision>,
}

/// Applies Understand's curation at `turn`.
///
/// Order: `clear_all`, then drops, demotions, retentions. A ref named twice
/// keeps the strongest decision (drop > demote > retain) and the weaker one is
/// reported as skipped.
pub fn apply_curation(
    registry: &mut SessionIdRegistry,
    log: &mut DecisionLog,
    curation: &EntityCuration,
    turn: u32,
    log_cap: usize,
) -> CurationOutcome {
    let mut out = CurationOutcome::default();
    let summary = curation.curation_summary.clone().unwrap_or_default();
    let reason_or = |reason: &str, fallback: &str| {
        if reason.trim().is_empty() {
            if summary.trim().is_empty() {
                fallback.to_string()
            } else {
                summary.clone()
            }
        } else {
            reason.trim().to_string()
        }
    };
    let mut record = |out: &mut CurationOutcome, r: &str, action, reason: String| {
        let entry = DecisionLogEntry {
            turn,
            r#ref: r.to_string(),
            action,
            reason,
        };
        log.push(entry.clone(), log_cap);
        out.applied.push(entry);
    };

    if curation.clear_all {
        for r in registry.live_refs() {
            registry.remove(&r, &reason_or("", "fresh start"), turn);
        }
        record(
            &mut out,
            "*",
            DecisionAction::ClearAll,
            reason_or("", "fresh start"),
        );
    }

    let mut decided: Vec<(String, DecisionAction)> = Vec::new();
    let mut check = |out: &mut CurationOutcome, r: &str, action: DecisionAction| -> bool {
        if let Some((_, prior)) = decided.iter().find(|(d, _)| d == r) {
            out.skipped.push(SkippedDecision {
                r#ref: r.to_string(),
                action,
                why: format!("already decided `{}` this turn", prior.as_str()),
            });
            return false;
        }
        decided.push((r.to_string(), action));
        true
    };

    for d in &curation.drop {
        if !registry.is_live_ref(&d.r#ref) {
            if !curation.clear_all {
                note_unknown(&mut out, &d.r#ref);
            }
            continue;
        }
        if !check(&mut out, &d.r#ref, DecisionAction::Drop) {
            continue;
        }
        let reason = reason_or(&d.reason, "user asked to forget it");
        registry.remove(&d.r#ref, &reason, turn);
        record(&mut out, &d.r#ref, DecisionAction::Drop, reason);
    }
    for d in &curation.demote {
        let Some(entry) = registry.get(&d.r#ref) else {
            note_unknown(&mut out, &d.r#ref);
            continue;
        };
        if entry.is_pinned() {
            out.skipped.push(SkippedDecision {
                r#ref: d.r#ref.clone(),
                action: DecisionAction::Demote,
                why: PINNED_REASON.to_string(),
            });
            continue;
        }
        if !check(&mut out, &d.r#ref, DecisionAction::Demote) {
            continue;
        }
        let reason = reason_or(&d.reason, "no longer relevant");
        registry.demote(&d.r#ref, &reason, turn);
        record(&mut out, &d.r#ref, DecisionAction::Demote, reason);
    }
    for d in &curation.retain_active {
        let Some(entry) = registry.get(&d.r#ref) else {
            note_unknown(&mut out, &d.r#ref);
            continue;
        };
        if entry.is_pinned() {
            // Already retained by the user; the pin's reason stands.
            continue;
        }
        if !check(&mut out, &d.r#ref, DecisionAction::Retain) {
            continue;
        }
        let reason = reason_or(&d.reason, "still relevant");
        registry.retain(&d.r#ref, &reason, RetainedBy::Understand, turn);
        record(&mut out, &d.r#ref, DecisionAction::Retain, reason);
    }
    out
}

fn note_unknown(out: &mut CurationOutcome, r: &str) {
    if !out.unknown_refs.iter().any(|u| u == r) {
        out.unknown_refs.push(r.to_string());
    }
}

/// The user's `/pin REF`: retention with the reason "pinned by user".
pub fn pin(
    registry: &mut SessionIdRegistry,
    log: &mut DecisionLog,
    r: &str,
    turn: u32,
    log_cap: usize,
) -> bool {
    if !registry.retain(r, PINNED_REASON, RetainedBy::User, turn) {
        return false;
    }
    log.push(
        DecisionLogEntry {
            turn,
            r#ref: r.to_string(),
            action: DecisionAction::Pin,
            reason: PINNED_REASON.to_string(),
        },
        log_cap,
    );
    true
}

/// The user's `/unpin REF`. False when the ref is unknown or not pinned.
pub fn unpin(
    registry: &mut SessionIdRegistry,
    log: &mut DecisionLog,
    r: &str,
    turn: u32,
    log_cap: usize,
) -> bool {
    if !registry.get(r).is_some_and(|e| e.is_pinned()) {
        return false;
    }
    registry.clear_retention(r);
    log.push(
        DecisionLogEntry {
            turn,
            r#ref: r.to_string(),
            action: DecisionAction::Unpin,
            reason: "unpinned by user".to_string(),
        },
        log_cap,
    );
    true
}
