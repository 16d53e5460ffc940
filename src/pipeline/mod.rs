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
    ActRequest, Brain, BrainError, BrainFuture, CallLog, CompressRequest, Decided, ReplyRequest,
    ReplySink, SummarizeRequest, ThinkRequest, UnderstandRequest, Usage, UsageSource,
};
pub use events::{Node, PipelineEvent, TurnId};

/// The longest message one turn takes, in bytes (32 KiB: several pages of
/// text; a longer paste is almost always a mistake, and would fill the
/// prompts of every node and the session with it).
pub const MAX_MESSAGE_BYTES: usize = 32 * 1024;

/// Why `message` cannot be sent, in words: it is blank, or over
/// [`MAX_MESSAGE_BYTES`].
pub fn message_refused(message: &str) -> Option<String> {
    if message.trim().is_empty() {
        return Some("That message is empty: there is nothing to send.".into());
    }
    let len = message.len();
    (len > MAX_MESSAGE_BYTES).then(|| {
        format!(
            "That message is {:.1} KiB; a turn takes at most {} KiB. Shorten it or send it \
             in parts — nothing was sent.",
            len as f64 / 1024.0,
            MAX_MESSAGE_BYTES / 1024
        )
    })
}
pub use run::{TurnRequest, TurnResult, TurnSettings, run_turn};
pub use runner::{NoLedger, Running, TurnLedger, TurnRunner};
pub use support::EventSink;
pub use templates::SystemPrompts;
pub use types::{
    ActAction, BlockedReason, Decision, EntityMention, ReplyOutput, Resolution, SUBDOMAINS,
    StepType, SummarizeOutput, ThinkOutput, ThinkStep, UnderstandOutput,
};
