//! Progress events of a running turn, for the TUI and `alfred run`.
//!
//! Every event carries the turn's id; a consumer ignores ids it no longer
//! waits for (a cancelled turn's late events). Events are emitted when things
//! happen, never ahead of time and never for steps that do not exist.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::context::{ContextSnapshot, ContextState, TurnExecutionSummary};
use crate::record::TurnRecord;

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

/// What the pipeline reports while a turn runs.
#[derive(Debug, Clone)]
pub enum PipelineEvent {
    /// The turn began (its number is known).
    TurnStarted { id: TurnId, turn: u32 },
    /// A node began.
    NodeStarted { id: TurnId, node: Node },
    /// A node finished, with its time and tokens.
    NodeFinished {
        id: TurnId,
        node: Node,
        duration_ms: f64,
        tokens: u64,
    },
    /// A step is about to run (emitted before executing it).
    StepStarted {
        id: TurnId,
        index: usize,
        total: usize,
        description: String,
        step_type: String,
    },
    /// A tool call returned (or was refused: `rows` is then 0 and `error` set).
    ToolCalled {
        id: TurnId,
        step: usize,
        tool: String,
        table: String,
        rows: usize,
        error: Option<String>,
    },
    /// A step finished, with its outcome ("Found 9 recipes").
    StepFinished {
        id: TurnId,
        index: usize,
        outcome: String,
    },
    /// The turn's narrative so far, as nodes finish: what the user expressed
    /// and the curation (after Understand), the plan (after Think), the
    /// result (after Reply). Steps not yet run have an empty outcome.
    NarrativeProgress {
        id: TurnId,
        turn: Box<TurnExecutionSummary>,
    },
    /// A piece of the reply, as it is produced.
    ReplyChunk { id: TurnId, text: String },
    /// A fresh snapshot of the layers: after Understand, after each step, after Summarize.
    ContextUpdated {
        id: TurnId,
        snapshot: Box<ContextSnapshot>,
    },
    /// The turn succeeded: its record and the new session state.
    TurnDone {
        id: TurnId,
        record: Box<TurnRecord>,
        state: Box<ContextState>,
    },
    /// The turn failed; the session state is unchanged. The record says why.
    TurnFailed { id: TurnId, record: Box<TurnRecord> },
}

impl PipelineEvent {
    /// The id of the turn the event belongs to.
    pub fn id(&self) -> TurnId {
        match self {
            PipelineEvent::TurnStarted { id, .. }
            | PipelineEvent::NodeStarted { id, .. }
            | PipelineEvent::NodeFinished { id, .. }
            | PipelineEvent::StepStarted { id, .. }
            | PipelineEvent::ToolCalled { id, .. }
            | PipelineEvent::StepFinished { id, .. }
            | PipelineEvent::NarrativeProgress { id, .. }
            | PipelineEvent::ReplyChunk { id, .. }
            | PipelineEvent::ContextUpdated { id, .. }
            | PipelineEvent::TurnDone { id, .. }
            | PipelineEvent::TurnFailed { id, .. } => *id,
        }
    }
}
