//! The turn's vocabulary: what a turn is made of, named once, below the
//! pipeline, the record and the session — each depends down on it. The
//! pipeline's nodes and a run's id, Think's decisions and step types (from
//! `context/plan.rs`, where the narrative keeps them),
//! token usage, and why a turn fails ([`TurnError`], with the brain's
//! [`BrainError`] and the ledger's [`LedgerError`]). Plain data, no IO.

use std::error::Error;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::kitchen::KitchenError;

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

pub use crate::context::plan::{Decision, StepType};

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

/// What can go wrong inside a brain, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrainError {
    #[error("the model server is rate limiting requests: {0}")]
    RateLimited(String),
    #[error("the model server did not answer in time: {0}")]
    Timeout(String),
    #[error("the model server failed: {0}")]
    Server(String),
    #[error("the model's answer could not be used: {0}")]
    InvalidOutput(String),
    #[error("cannot reach the model server: {0}")]
    Unreachable(String),
    #[error("{0}")]
    Other(String),
}

/// What the turn was asking of the kitchen store when it failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KitchenAction {
    /// Opening the turn's transaction, before any node runs.
    Start,
    /// Reading the kitchen for Think's view or a constraint's recipes.
    Read,
    /// Committing the turn's writes, after the session has the record.
    Save,
}

/// Why a ledger could not record or settle a turn (the session's own
/// error, kept as it was, for the runner to log or to fail the turn with).
#[derive(Debug)]
pub struct LedgerError(Box<dyn Error + Send + Sync>);

impl LedgerError {
    /// Wraps the session's error (or a message) as it is.
    pub fn new(source: impl Into<Box<dyn Error + Send + Sync>>) -> Self {
        Self(source.into())
    }
}

impl fmt::Display for LedgerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Error for LedgerError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.0.source()
    }
}

/// Why a turn failed. Its `Display` is the `error` of the turn's record
/// (part of the record's contract) and what the user is shown.
#[derive(Debug)]
pub enum TurnError {
    /// A node's brain failed: "think failed: the model server failed: …".
    Brain { node: Node, source: BrainError },
    /// The brain failed to compress a fold left over from an earlier turn,
    /// before Understand (no node has started: the brain's words alone).
    PendingFold(BrainError),
    /// The kitchen store failed at one of the turn's uses of it.
    Kitchen {
        doing: KitchenAction,
        source: KitchenError,
    },
    /// The turn's date (`YYYY-MM-DD`) is not a date.
    BadDate { date: String, source: jiff::Error },
    /// The session could not record the finished turn; the turn did not
    /// happen.
    NotSaved(LedgerError),
    /// The kitchen's answer to the turn's commit was lost (the connection
    /// dropped), and the kitchen could not be asked since whether the
    /// turn's commit stamp is there: the session keeps the turn pending.
    Unconfirmed(KitchenError),
    /// An earlier turn's save is still unconfirmed: no turn runs until the
    /// session is opened again and settles it.
    Unsettled,
    /// The user stopped the turn.
    Cancelled,
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::Brain { node, source } => write!(f, "{} failed: {source}", node.as_str()),
            TurnError::PendingFold(source) => write!(f, "{source}"),
            TurnError::Kitchen { doing, source } => {
                let what = match doing {
                    KitchenAction::Start => "could not start the turn",
                    KitchenAction::Read => "could not be read",
                    KitchenAction::Save => "could not save the turn's changes",
                };
                write!(f, "the kitchen store {what}: {source}")
            }
            TurnError::BadDate { date, source } => write!(f, "bad date {date}: {source}"),
            TurnError::NotSaved(source) => write!(f, "the session could not be saved: {source}"),
            TurnError::Unconfirmed(source) => write!(
                f,
                "the connection to the kitchen was lost while the turn's changes were being \
                 saved, and the kitchen could not be asked whether they landed ({source}); the \
                 session keeps the turn as pending — quit and open the session again, which \
                 checks the kitchen, before sending it again"
            ),
            TurnError::Unsettled => f.write_str(
                "an earlier turn's save is not confirmed yet; quit and open the session again, \
                 which checks the kitchen, before sending more",
            ),
            TurnError::Cancelled => f.write_str("cancelled by the user"),
        }
    }
}

impl Error for TurnError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            TurnError::Brain { source, .. } | TurnError::PendingFold(source) => Some(source),
            TurnError::Kitchen { source, .. } => Some(source),
            TurnError::BadDate { source, .. } => Some(source),
            TurnError::NotSaved(source) => Some(source),
            TurnError::Unconfirmed(source) => Some(source),
            TurnError::Cancelled | TurnError::Unsettled => None,
        }
    }
}

impl TurnError {
    /// The kitchen store failed while `doing` something for the turn.
    pub fn kitchen(doing: KitchenAction) -> impl FnOnce(KitchenError) -> Self {
        move |source| TurnError::Kitchen { doing, source }
    }
}

#[cfg(test)]
#[path = "turn_tests.rs"]
mod tests;
