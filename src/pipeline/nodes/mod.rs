//! The nodes of a turn, one file each: [`understand`], [`think`], [`act`],
//! [`reply`] and [`summarize`]. Each is an `impl Run` block that builds its
//! prompt, asks the brain through [`Run::call_node`](super::run::Run) (count
//! the prompt, call, record a failure), and records what it decided; the
//! order they run in is `run.rs`'s. The deterministic work of Act and
//! Summarize, the same for every brain, is `pipeline/act.rs` and
//! `pipeline/summarize.rs`. [`Acted`] is what Act hands the two closing
//! nodes.

mod act;
mod reply;
mod summarize;
mod think;
mod understand;

use crate::context::{
    ContextSnapshot, ContextState, ConversationPhase, RefAction, StepExecutionSummary,
};
use crate::pipeline::act::StepOutcome;
use crate::pipeline::summarize as narrative;
use crate::pipeline::types::{ThinkOutput, UnderstandOutput};
use crate::record::HeldBack;

/// The turn as Reply and Summarize both read it: what Understand, Think and
/// Act decided and did, and the context after Act (neither node changes it
/// before Summarize records the turn).
pub(in crate::pipeline) struct Acted<'t> {
    understand: &'t UnderstandOutput,
    think: &'t ThinkOutput,
    steps: &'t [StepOutcome],
    /// The narrative view of each step.
    summaries: Vec<StepExecutionSummary>,
    phase: ConversationPhase,
    snapshot: ContextSnapshot,
    /// Refs this turn created, updated, generated or deleted.
    changed: Vec<String>,
    /// Writes held back for touching what a standing constraint rules out.
    held: Vec<HeldBack>,
    /// Writes made past a standing constraint because the message named
    /// what they touch.
    through: Vec<HeldBack>,
    turn: u32,
}

impl<'t> Acted<'t> {
    /// The narrative view of each step, as it ran.
    pub(in crate::pipeline) fn summaries(&self) -> Vec<StepExecutionSummary> {
        self.summaries.clone()
    }

    pub(in crate::pipeline) fn new(
        state: &ContextState,
        understand: &'t UnderstandOutput,
        think: &'t ThinkOutput,
        steps: &'t [StepOutcome],
        turn: u32,
    ) -> Self {
        Self {
            understand,
            think,
            steps,
            summaries: narrative::step_summaries(steps),
            phase: narrative::phase(think, steps),
            snapshot: state.snapshot(),
            changed: changed_refs(state, turn),
            held: steps.iter().flat_map(|s| s.held.clone()).collect(),
            through: steps.iter().flat_map(|s| s.through.clone()).collect(),
            turn,
        }
    }
}

/// Refs this turn created, updated, generated or deleted.
fn changed_refs(state: &ContextState, turn: u32) -> Vec<String> {
    state
        .registry
        .entries()
        .into_iter()
        .filter(|(_, e)| e.last_ref_turn == turn)
        .filter(|(_, e)| !matches!(e.action, RefAction::Read | RefAction::Linked))
        .map(|(r, _)| r.to_string())
        .collect()
}
