//! What each node decides: the typed outputs a brain returns for Understand,
//! Think, Act, Reply and Summarize.
//!
//! Field names follow seeds/001, seeds/003 and the original's contracts. Every
//! type is serde + JSON Schema, so the LLM brain can ask for it as structured
//! output and the offline brain produces exactly the same shape.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::{ConstraintChanges, Dialogue, EntityCuration};
pub use crate::turn::{Decision, StepType};

/// How a mention in the user's message was resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    Exact,
    Inferred,
    Ambiguous,
    Unknown,
}

/// A phrase of the user's message that names an entity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EntityMention {
    /// The words as the user wrote them: "the french toast", "it".
    pub text: String,
    pub resolution: Resolution,
    /// The ref it resolves to, when resolved.
    pub resolved_ref: Option<String>,
    /// Candidate refs when ambiguous.
    pub candidates: Vec<String>,
}

/// Understand: references resolved and working memory curated.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnderstandOutput {
    /// Refs the message refers to (touched: they become recent).
    pub referenced_entities: Vec<String>,
    pub entity_mentions: Vec<EntityMention>,
    /// What stays in working memory, what leaves, and why.
    pub entity_curation: EntityCuration,
    /// Standing constraints the user stated, lifted or made an exception to
    /// in this message.
    pub constraints: ConstraintChanges,
    /// True when Alfred must ask before doing anything.
    pub needs_clarification: bool,
    pub clarification_questions: Vec<String>,
    /// The user's intent in a few words: "wants to exclude french toast and wings".
    pub what_user_expressed: String,
    /// The offline brain's reading of the message (its intent and what it
    /// carries), made once here and carried to Think, Act and Reply; shown
    /// in the inspector. Not part of the LLM's schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub reading: Option<serde_json::Value>,
}

/// The subdomains a step can work in.
pub const SUBDOMAINS: [&str; 7] = [
    "recipes",
    "inventory",
    "shopping",
    "meal_plans",
    "tasks",
    "preferences",
    "history",
];

/// One step of Think's plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ThinkStep {
    pub description: String,
    pub step_type: StepType,
    /// One of [`SUBDOMAINS`].
    pub subdomain: String,
    /// Steps with the same group may run concurrently; groups run in order.
    #[schemars(range(max = 7))]
    pub group: u32,
}

/// Think: the plan for this turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ThinkOutput {
    pub goal: String,
    pub decision: Decision,
    /// At most eight (the pipeline keeps `pipeline.max_steps` of them).
    #[schemars(length(max = 8))]
    pub steps: Vec<ThinkStep>,
    /// The proposal shown to the user when `decision` is propose.
    pub proposal_message: Option<String>,
    /// The questions asked when `decision` is clarify.
    pub clarification_questions: Vec<String>,
}

/// Why a step could not go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BlockedReason {
    InsufficientInfo,
    PlanInvalid,
    ToolFailure,
}

/// One Act iteration's decision. Act loops on a step until it completes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ActAction {
    /// Call a CRUD tool: db_read, db_create, db_update, db_delete.
    ToolCall { tool: String, params: Value },
    /// The step is done.
    StepComplete {
        /// One line: "Found 9 recipes", "6 recipes fit without cod".
        result_summary: String,
        /// Analyze/generate output (artifacts under `artifacts`, or keyed by
        /// the gen ref being edited). Null for read/write steps.
        #[serde(default)]
        data: Value,
        /// A note carried to the next step.
        #[serde(default)]
        note_for_next_step: Option<String>,
    },
    /// Stop and ask the user.
    AskUser { question: String },
    /// The step cannot go on.
    Blocked {
        reason_code: BlockedReason,
        details: String,
    },
}

/// Reply: the text the user reads.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ReplyOutput {
    pub response: String,
    /// What the reply presented, offered and asked, when the brain knows
    /// (the offline brain does); otherwise the pipeline derives it from the
    /// text and the turn's decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub dialogue: Option<Dialogue>,
    /// The model was stopped at this many tokens (`llm.max_tokens.reply`)
    /// before it finished: the reply is cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub cut_at_tokens: Option<u32>,
}

/// Summarize's brain-made parts: the conversation flow and a one-sentence
/// summary of a long reply. Everything else Summarize does is deterministic.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SummarizeOutput {
    /// One sentence, for replies longer than the summary threshold.
    pub assistant_summary: Option<String>,
    /// collaborative / informative / clarifying.
    pub tone: String,
    /// "Confirmed, presented the remaining four".
    pub what_we_acknowledged: String,
    /// "User picks finals or filters more".
    pub natural_next: String,
    /// "4 recipes fit the constraints".
    pub analysis_conclusions: Option<String>,
}

/// Why a step stopped the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    AskUser(String),
    Blocked(String),
}
