//! Progress events of a running turn, for the TUI and `alfred run`.
//!
//! Every event carries the turn's id; a consumer ignores ids it no longer
//! waits for (a cancelled turn's late events). Events are emitted when things
//! happen, never ahead of time and never for steps that do not exist.

use crate::context::{ContextSnapshot, ContextState, TurnExecutionSummary};
use crate::record::TurnRecord;
pub use crate::turn::{Node, TurnId};

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
