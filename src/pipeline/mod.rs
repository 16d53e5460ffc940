//! The turn pipeline: Understand → Think → Act → Reply → Summarize.
//!
//! A [`Brain`] decides at each node; the pipeline does the deterministic work
//! shared by every brain (curation applied, the tool loop and its circuit
//! breakers, writes against a standing constraint held back (`hold.rs`), concurrent steps of one group, the turn narrative, windows
//! rolled), emits [`PipelineEvent`]s, and returns the new context state only
//! when the turn succeeds.

pub mod act;
pub mod brain;
pub mod events;
pub(crate) mod hold;
mod nodes;
pub mod run;
pub mod runner;
pub(crate) mod standing;
pub mod suggest;
pub use suggest::kitchen_names;
pub mod summarize;
pub mod support;
pub mod templates;
pub mod types;

pub use brain::{
    ActRequest, Brain, BrainError, BrainFuture, CallLog, CompressRequest, Decided, KitchenNames,
    ReplyRequest, ReplySink, SummarizeRequest, ThinkRequest, UnderstandRequest, Usage, UsageSource,
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
        let (size, limit) = sizes_over_limit(len);
        format!(
            "That message is {size}; a turn takes at most {limit}. Shorten it or send it in \
             parts — nothing was sent."
        )
    })
}

/// A message's size over the limit and the limit, in KiB to a tenth; in
/// bytes when the KiB figure would round down to the limit's ("32.0 KiB"
/// for 32,769 bytes would read as not over it).
fn sizes_over_limit(len: usize) -> (String, String) {
    let tenths = (len * 10 + 512) / 1024;
    let limit_kib = MAX_MESSAGE_BYTES / 1024;
    if tenths > limit_kib * 10 {
        (
            format!("{}.{} KiB", tenths / 10, tenths % 10),
            format!("{limit_kib} KiB"),
        )
    } else {
        (
            format!("{} bytes", crate::text::thousands(len)),
            format!(
                "{} bytes ({limit_kib} KiB)",
                crate::text::thousands(MAX_MESSAGE_BYTES)
            ),
        )
    }
}

pub use run::{TurnRequest, TurnResult, TurnSettings};
pub use runner::{NoLedger, Running, TurnLedger, TurnRunner, run_turn};
pub use support::EventSink;
pub use templates::SystemPrompts;
pub use types::{
    ActAction, BlockedReason, Decision, EntityMention, ReplyOutput, Resolution, SUBDOMAINS,
    StepType, SummarizeOutput, ThinkOutput, ThinkStep, UnderstandOutput,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_over_the_limit_reads_as_over_it() {
        let refused = |len: usize| message_refused(&"e".repeat(len));
        assert_eq!(refused(MAX_MESSAGE_BYTES), None, "at the limit it goes");
        let just_over = refused(MAX_MESSAGE_BYTES + 1).expect("refused");
        assert!(
            just_over.starts_with(
                "That message is 32,769 bytes; a turn takes at most 32,768 bytes (32 KiB)."
            ),
            "{just_over}"
        );
        // 32.05 KiB still rounds to 32.0: bytes.
        let rounds_down = refused(32 * 1024 + 51).expect("refused");
        assert!(rounds_down.contains("32,819 bytes"), "{rounds_down}");
        // 32.05 KiB and up round to 32.1: KiB.
        let tenth_over = refused(32 * 1024 + 52).expect("refused");
        assert!(
            tenth_over.starts_with("That message is 32.1 KiB; a turn takes at most 32 KiB."),
            "{tenth_over}"
        );
        let large = refused(50_000).expect("refused");
        assert!(large.starts_with("That message is 48.8 KiB;"), "{large}");
        assert!(large.ends_with("nothing was sent."), "{large}");
    }
}
