//! The turn pipeline: Understand → Think → Act → Reply → Summarize.
//!
//! A [`Brain`] decides at each node; the pipeline does the deterministic work
//! shared by every brain (curation applied, the tool loop and its circuit
//! breakers, concurrent steps of one group, the turn narrative, windows
//! rolled), emits [`PipelineEvent`]s, and returns the new context state only
//! when the turn succeeds.

pub mod act;
pub mod brain;
pub mod events;
pub mod run;
pub mod runner;
pub(crate) mod standing;
pub mod summarize;
pub mod support;
pub mod templates;
pub mod types;

pub use brain::{
    ActRequest, Brain, BrainError, BrainFuture, CompressRequest, Decided, ReplyRequest, ReplySink,
    SummarizeRequest, ThinkRequest, UnderstandRequest, Usage, UsageSource,
};
pub use events::{Node, PipelineEvent, TurnId};
pub use run::{TurnRequest, TurnResult, TurnSettings, run_turn};
pub use runner::{NoLedger, Running, TurnLedger, TurnRunner};
pub use support::EventSink;
pub use templates::SystemPrompts;
pub use types::{
    ActAction, BlockedReason, Decision, EntityMention, ReplyOutput, Resolution, SUBDOMAINS,
    StepType, SummarizeOutput, ThinkOutput, ThinkStep, UnderstandOutput,
};
