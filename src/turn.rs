//! The turn's vocabulary: what a turn is made of, named once, below the
//! pipeline, the record and the session — each depends down on it. The
//! pipeline's nodes and a run's id, Think's decisions and step types, and
//! token usage. Plain data, no IO.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Identifies one run of the pipeline (unique within a process).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TurnId(pub u64);

impl fmt::Display for TurnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

/// The pipeline's nodes, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Node {
    Understand,
    Think,
    Act,
    Reply,
    Summarize,
}

impl Node {
    /// Every node, in pipeline order.
    pub const ALL: [Node; 5] = [
        Node::Understand,
        Node::Think,
        Node::Act,
        Node::Reply,
        Node::Summarize,
    ];

    /// The lowercase name used in records and timings.
    pub fn as_str(self) -> &'static str {
        match self {
            Node::Understand => "understand",
            Node::Think => "think",
            Node::Act => "act",
            Node::Reply => "reply",
            Node::Summarize => "summarize",
        }
    }
}

/// Think's decision about the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Execute the steps now.
    #[default]
    PlanDirect,
    /// Propose first; nothing runs this turn.
    Propose,
    /// Ask a question first; nothing runs this turn.
    Clarify,
}

impl Decision {
    /// The decision a record's word names ("propose"), if any.
    pub fn from_word(word: &str) -> Option<Self> {
        [Decision::PlanDirect, Decision::Propose, Decision::Clarify]
            .into_iter()
            .find(|d| d.as_str() == word)
    }

    /// The snake_case word of the turn record.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::PlanDirect => "plan_direct",
            Decision::Propose => "propose",
            Decision::Clarify => "clarify",
        }
    }
}

/// What a step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepType {
    /// Fetch rows with db_read.
    Read,
    /// Reason over data already loaded; no tool calls needed.
    Analyze,
    /// Create new content (a recipe, a meal plan) that is not saved yet.
    Generate,
    /// Change the store: db_create / db_update / db_delete.
    Write,
}

impl StepType {
    /// The step type a record's word names ("read"), if any.
    pub fn from_word(word: &str) -> Option<Self> {
        [
            StepType::Read,
            StepType::Analyze,
            StepType::Generate,
            StepType::Write,
        ]
        .into_iter()
        .find(|t| t.as_str() == word)
    }

    /// The lowercase word used in prompts and records.
    pub fn as_str(self) -> &'static str {
        match self {
            StepType::Read => "read",
            StepType::Analyze => "analyze",
            StepType::Generate => "generate",
            StepType::Write => "write",
        }
    }
}

/// Where token counts came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UsageSource {
    /// The server said so.
    Reported,
    /// Counted with the tokenizer.
    #[default]
    Estimated,
}

/// Tokens of one call (or a sum of calls), and their cost when priced.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub source: UsageSource,
    /// USD, from the price table of the model that answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

impl Usage {
    /// An empty sum: reported until a call's tokens had to be estimated.
    pub fn sum() -> Self {
        Self {
            source: UsageSource::Reported,
            ..Self::default()
        }
    }

    /// Adds another call's usage; any estimate makes the sum an estimate.
    pub fn add(&mut self, other: Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        if other.source == UsageSource::Estimated {
            self.source = UsageSource::Estimated;
        }
        self.cost_usd = match (self.cost_usd, other.cost_usd) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
        };
    }
}
