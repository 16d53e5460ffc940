//! The turn record: the public JSON contract of one turn (DESIGN.md, "The turn
//! record"). It is what the panels render, what a session stores per turn, and
//! what `alfred run --json` prints, one per line.
//!
//! Fields may be added; none of the contract's may be renamed or removed.

use std::collections::BTreeMap;

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

use crate::context::snapshot::{ConversationView, NarrativeView};
use crate::context::{
    ConstraintOutcome, ConstraintView, ContextSnapshot, ContextState, CurationOutcome,
    DecisionLogEntry, EntitiesView, PolicyKind,
};
use crate::prompt::{CacheUse, Prompt, SectionTokens};
use crate::turn::{Decision, LedgerError, Node, TurnError, Usage, UsageSource};

/// How a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnStatus {
    #[default]
    Ok,
    Failed,
}

/// One tool call of a step: `{ "tool": "db_read", "table": "recipes", "rows": 9 }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallRecord {
    pub tool: String,
    pub table: String,
    pub rows: usize,
    /// The refusal the model was shown, when the call failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A write held back because it touched an entity a standing constraint
/// covers (and the message did not name it): nothing of it was written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldBack {
    /// The table written: "meal_plans".
    pub table: String,
    /// create, update or delete.
    pub op: String,
    /// The row's name: "Sun Jan 18 [dinner]", "sesame seeds".
    pub row_label: String,
    /// The covered entity the write touched: "recipe_2".
    pub covered: String,
    pub covered_label: String,
    /// The covering constraint: its id, short name and the user's words.
    pub constraint: String,
    pub constraint_label: String,
    pub clause: String,
    /// The draft (`gen_…`) the write would have saved; it stays unsaved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft: Option<String>,
    /// A meal plan's day, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// One executed step.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRecord {
    pub step_type: String,
    pub subdomain: String,
    pub description: String,
    pub outcome: String,
    #[serde(default)]
    pub group: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub tool_calls: Vec<ToolCallRecord>,
    #[serde(default)]
    pub entities_affected: Vec<String>,
}

/// Why a request was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallAttempt {
    /// The node's question.
    Answer,
    /// The question again, with the problem of the first answer quoted.
    Repair,
}

/// One request a node sent to the model and what came back, exactly as it
/// came: the inspector's view of a call, kept for failed calls too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallRecord {
    pub attempt: CallAttempt,
    pub model: String,
    /// `json_schema`, `json_object` or `text`.
    pub format: String,
    pub streamed: bool,
    /// The budget sent as `max_tokens`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// The answer's text as received (a streamed answer's parts joined),
    /// before any parsing; what had arrived when a call failed.
    pub raw: String,
    /// `stop`, `length`, …; none when the answer never finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// The HTTP status of the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// From sending to the first byte of the answer's body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_byte_ms: Option<f64>,
    /// From sending to the last byte (or to the failure).
    pub total_ms: f64,
    /// Tokens, as the server reported them (else estimated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Prompt tokens the server took from its cache, when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_tokens: Option<u64>,
    /// What was wrong with the answer (the problem a repair quoted), or why
    /// the call failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

impl CallRecord {
    /// "answer · json_schema, streamed · stop · first byte 2.39 s · 18.04 s
    /// · 965 + 330 tokens (reported), at most 1024": the call on one line.
    pub fn summary(&self) -> String {
        let secs = |ms: f64| {
            if ms < 1000.0 {
                format!("{ms:.0} ms")
            } else {
                format!("{:.2} s", ms / 1000.0)
            }
        };
        let attempt = match self.attempt {
            CallAttempt::Answer => "answer",
            CallAttempt::Repair => "repair",
        };
        let mut parts = vec![
            attempt.to_string(),
            format!(
                "{}{}",
                self.format,
                if self.streamed { ", streamed" } else { "" }
            ),
        ];
        parts.push(match (&self.finish_reason, self.status) {
            (Some(f), _) => format!("finish {f}"),
            (None, Some(s)) if s >= 400 => format!("HTTP {s}"),
            (None, _) => "unfinished".into(),
        });
        if let Some(first) = self.first_byte_ms {
            parts.push(format!("first byte {}", secs(first)));
        }
        parts.push(format!("total {}", secs(self.total_ms)));
        if let Some(u) = self.usage {
            let source = match u.source {
                UsageSource::Reported => "reported",
                UsageSource::Estimated => "estimated",
            };
            let cached = self
                .cached_tokens
                .filter(|n| *n > 0)
                .map(|n| format!(", {n} cached"))
                .unwrap_or_default();
            parts.push(format!(
                "{} + {} tokens ({source}{cached})",
                u.prompt_tokens, u.completion_tokens
            ));
        }
        if let Some(max) = self.max_tokens {
            parts.push(format!("at most {max}"));
        }
        parts.join(" · ")
    }

    /// The call as the inspector opens it: its summary, its problem, and
    /// the text exactly as it came.
    pub fn detail(&self) -> String {
        let mut out = self.summary();
        if let Some(p) = &self.problem {
            out.push_str(&format!("\nproblem: {p}"));
        }
        out.push_str("\n\n");
        if self.raw.is_empty() {
            out.push_str("(nothing arrived)");
        } else {
            out.push_str(&self.raw);
        }
        out
    }
}

/// One prompt as the record keeps it: tokens per section (the contract) and
/// the full prompt, so any past turn can be inspected exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptRecord {
    #[serde(flatten)]
    pub tokens: SectionTokens,
    /// The prompt as sent (or, offline, as it would have been sent).
    pub full: Prompt,
    /// The decision the pipeline used, as JSON (structured nodes), or the
    /// reply's text. What the model sent, exactly, is in `calls`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// Every request sent for this prompt (none for the offline brain).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<CallRecord>,
    /// Prompt tokens the server took from its prompt cache: what it
    /// reported, else alfred's estimate (then `cached_estimated`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached_estimated: bool,
}

impl PromptRecord {
    /// The tokens this prompt spent: what its requests reported, else the
    /// estimate the pipeline made (the prompt and its response counted).
    pub fn tokens_spent(&self) -> u64 {
        let mut reported = self.calls.iter().filter_map(|c| c.usage).peekable();
        if reported.peek().is_some() {
            return reported
                .map(|u| u.prompt_tokens + u.completion_tokens)
                .sum();
        }
        let response = self.response.as_deref().unwrap_or_default();
        (self.tokens.total_tokens + crate::prompt::count_tokens(response)) as u64
    }

    /// Records a prompt, its response and the requests sent for it; a
    /// prompt not counted yet is counted here.
    pub fn new(mut prompt: Prompt, response: Option<String>, calls: Vec<CallRecord>) -> Self {
        prompt.count();
        Self {
            tokens: prompt.tokens(),
            full: prompt,
            response,
            calls,
            cached_tokens: None,
            cached_estimated: false,
        }
    }

    /// Prompt tokens the requests reported, when any did.
    fn reported_prompt_tokens(&self) -> Option<u64> {
        let mut reported = self.calls.iter().filter_map(|c| c.usage).peekable();
        reported.peek()?;
        Some(reported.map(|u| u.prompt_tokens).sum())
    }

    /// The prompt against the server's cache, once the cached figure is
    /// set ([`TurnRecord::fill_cache`]).
    pub fn cache(&self) -> Option<CacheUse> {
        let cached = self.cached_tokens? as usize;
        let total = match self.reported_prompt_tokens() {
            Some(n) if !self.cached_estimated => n as usize,
            _ => self.tokens.total_tokens,
        };
        Some(CacheUse {
            total,
            cached: cached.min(total),
            estimated: self.cached_estimated,
        })
    }
}

/// One Act iteration's prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActPromptRecord {
    /// 1-based step number.
    pub step: usize,
    /// 1-based iteration within the step.
    pub iteration: usize,
    #[serde(flatten)]
    pub prompt: PromptRecord,
}

/// Every prompt of the turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PromptsRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub understand: Option<PromptRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub think: Option<PromptRecord>,
    #[serde(default)]
    pub act: Vec<ActPromptRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<PromptRecord>,
    /// Summarize's prompts: the reply summary and the compressions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summarize: Vec<PromptRecord>,
}

impl PromptsRecord {
    /// The tokens one node's prompts spent.
    pub fn tokens_of(&self, node: Node) -> u64 {
        let one = |p: &Option<PromptRecord>| p.as_ref().map_or(0, PromptRecord::tokens_spent);
        match node {
            Node::Understand => one(&self.understand),
            Node::Think => one(&self.think),
            Node::Act => self.act.iter().map(|a| a.prompt.tokens_spent()).sum(),
            Node::Reply => one(&self.reply),
            Node::Summarize => self.summarize.iter().map(PromptRecord::tokens_spent).sum(),
        }
    }

    /// Every prompt of the turn.
    pub fn all(&self) -> impl Iterator<Item = &PromptRecord> {
        self.understand
            .iter()
            .chain(&self.think)
            .chain(self.act.iter().map(|a| &a.prompt))
            .chain(&self.reply)
            .chain(&self.summarize)
    }

    /// Every prompt of the turn, to change.
    pub fn all_mut(&mut self) -> impl Iterator<Item = &mut PromptRecord> {
        self.understand
            .iter_mut()
            .chain(&mut self.think)
            .chain(self.act.iter_mut().map(|a| &mut a.prompt))
            .chain(&mut self.reply)
            .chain(&mut self.summarize)
    }

    /// Makes each text equal to one of `earlier`'s prompts share it (the
    /// system prompts and unchanged sections of the turn before): what a
    /// session does with each turn it keeps.
    pub fn share_texts(&mut self, earlier: &PromptsRecord) {
        let known: std::collections::HashMap<&str, &std::sync::Arc<str>> = earlier
            .all()
            .flat_map(|r| {
                std::iter::once(&r.full.system).chain(r.full.sections.iter().map(|s| &s.text))
            })
            .map(|t| (&**t, t))
            .collect();
        let share = |t: &mut std::sync::Arc<str>| {
            if let Some(k) = known.get(&**t) {
                *t = std::sync::Arc::clone(k);
            }
        };
        for r in self.all_mut() {
            share(&mut r.full.system);
            r.full.sections.iter_mut().for_each(|s| share(&mut s.text));
        }
    }
}

/// One turn, as stored and printed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    pub turn: u32,
    pub user: String,
    pub reply: String,
    /// Why the reply is not whole: "cut off at the 1024-token limit
    /// (llm.max_tokens.reply)". The model stopped mid-reply; what it wrote
    /// is kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_cut: Option<String>,
    pub status: TurnStatus,
    /// Why the turn failed, in words a user can act on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub decision: Option<Decision>,
    pub goal: String,
    pub steps: Vec<StepRecord>,
    pub entities: EntitiesView,
    /// The standing constraints: in force, or lifted this turn.
    #[serde(default)]
    pub constraints: Vec<ConstraintView>,
    pub narrative: NarrativeView,
    pub conversation: ConversationView,
    /// The policy the snapshot was computed under.
    #[serde(default)]
    pub policy: PolicyKind,
    #[serde(default)]
    pub window: u32,
    /// The decision-log entries Understand is shown.
    #[serde(default)]
    pub decisions: Vec<DecisionLogEntry>,
    /// What this turn's curation did (applied, unknown refs, skipped).
    #[serde(default)]
    pub curation: CurationOutcome,
    /// What this turn did to the standing constraints (added, lifted,
    /// rejected).
    #[serde(default, skip_serializing_if = "ConstraintOutcome::is_empty")]
    pub constraint_changes: ConstraintOutcome,
    /// Writes held back because they touched what a standing constraint
    /// rules out: one per row and covered entity.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_back: Vec<HeldBack>,
    pub prompts: PromptsRecord,
    /// Per node, plus "total".
    pub timings_ms: BTreeMap<String, f64>,
    pub usage: Usage,
    /// Cost from the price table, when the models are priced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// The brain that answered: "offline", "gpt-4.1-mini @ localhost".
    #[serde(default)]
    pub llm: String,
    /// When the turn started (RFC 3339).
    #[serde(default)]
    pub started_at: String,
    /// Next messages worth sending, made from the context layers and the
    /// kitchen as this turn left them (`pipeline::suggest`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
}

impl TurnRecord {
    /// Sets each prompt's cached tokens: what the server reported, else
    /// the estimate of `model` (a prefix cache fed every prompt in the order
    /// they were sent, which this call continues).
    pub fn fill_cache(&mut self, model: &mut crate::prompt::PrefixCache) {
        for p in self.prompts.all_mut() {
            let estimate = model.send(&p.full);
            let reported: Vec<u64> = p.calls.iter().filter_map(|c| c.cached_tokens).collect();
            if reported.is_empty() {
                p.cached_tokens = Some(estimate.cached as u64);
                p.cached_estimated = true;
            } else {
                p.cached_tokens = Some(reported.iter().sum());
                p.cached_estimated = false;
            }
        }
    }

    /// The turn's prompts against the server's cache, once filled.
    pub fn cache(&self) -> Option<CacheUse> {
        CacheUse::sum_of(self.prompts.all().filter_map(PromptRecord::cache))
    }

    /// The context snapshot this record carries.
    pub fn snapshot(&self) -> ContextSnapshot {
        ContextSnapshot {
            turn: self.turn,
            policy: self.policy,
            window: self.window,
            entities: self.entities.clone(),
            constraints: self.constraints.clone(),
            narrative: self.narrative.clone(),
            conversation: self.conversation.clone(),
            decisions: self.decisions.clone(),
        }
    }

    /// Marks the turn failed: its `error` is the failure in words (the one
    /// place a [`TurnError`] becomes the record's string).
    pub fn set_failed(&mut self, error: &TurnError) {
        self.status = TurnStatus::Failed;
        self.error = Some(error.to_string());
    }

    /// Copies a snapshot's layers into the record.
    pub fn set_snapshot(&mut self, snap: ContextSnapshot) {
        self.policy = snap.policy;
        self.window = snap.window;
        self.entities = snap.entities;
        self.constraints = snap.constraints;
        self.narrative = snap.narrative;
        self.conversation = snap.conversation;
        self.decisions = snap.decisions;
    }
}

/// Sees each turn's record once the turn has ended (done or failed). It
/// must return at once: an exporter queues the record and sends it later.
pub trait TurnObserver: Send + Sync {
    /// The turn of session `session_id` ended with `record`.
    fn turn_ended(&self, session_id: &str, record: &TurnRecord);

    /// A problem to tell the user once (a collector that did not take the
    /// traces), if one came up since.
    fn problem(&self) -> Option<String> {
        None
    }
}

/// Where the runner records turns: the session file, or nothing.
pub trait TurnLedger: Send + Sync {
    /// The session's id (stamped with the kitchen commit).
    fn session_id(&self) -> String;

    /// Writes `record` (and the context after it when it succeeded), pending
    /// under `commit` when given; resolves once it is on disk.
    fn record(
        &self,
        record: TurnRecord,
        state: Option<ContextState>,
        commit: Option<String>,
    ) -> BoxFuture<'_, Result<(), LedgerError>>;

    /// Settles a pending commit: `landed` keeps the turn, else drops it.
    fn settle(&self, commit: String, landed: bool) -> BoxFuture<'_, Result<(), LedgerError>>;
}

/// A ledger that keeps nothing: evaluations and tests without a session.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoLedger;

impl TurnLedger for NoLedger {
    fn session_id(&self) -> String {
        String::new()
    }

    fn record(
        &self,
        _: TurnRecord,
        _: Option<ContextState>,
        _: Option<String>,
    ) -> BoxFuture<'_, Result<(), LedgerError>> {
        Box::pin(async { Ok(()) })
    }

    fn settle(&self, _: String, _: bool) -> BoxFuture<'_, Result<(), LedgerError>> {
        Box::pin(async { Ok(()) })
    }
}
