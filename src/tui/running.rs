//! The turn that is running, as the Narrative panel shows it while it
//! runs: the narrative so far (from the pipeline's progress events), which
//! step is running, and the diff baseline to restore if the turn does not
//! finish.
//!
//! Pure state: changed only by `update`, read by the narrative view.

use crate::context::{ContextSnapshot, TurnExecutionSummary};

/// A turn in progress.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunningTurn {
    /// What happened so far: filled in as nodes and steps finish.
    pub summary: TurnExecutionSummary,
    /// The step running now (0-based), if any.
    pub step: Option<usize>,
    /// The diff baseline before the turn began, restored when it fails or
    /// is cancelled (the panels then show the last finished turn again).
    pub previous_baseline: Option<ContextSnapshot>,
}

impl RunningTurn {
    /// A turn that just started.
    pub fn new(turn: u32, message: &str, previous_baseline: Option<ContextSnapshot>) -> Self {
        Self {
            summary: TurnExecutionSummary {
                turn_number: turn,
                user_message: message.to_string(),
                ..TurnExecutionSummary::default()
            },
            step: None,
            previous_baseline,
        }
    }

    /// The narrative so far, as the pipeline reported it.
    pub fn progress(&mut self, summary: TurnExecutionSummary) {
        let turn = self.summary.turn_number;
        self.summary = summary;
        self.summary.turn_number = turn;
    }

    /// A step ended with its outcome.
    pub fn step_finished(&mut self, index: usize, outcome: String) {
        if let Some(s) = self.summary.steps.get_mut(index) {
            s.outcome = outcome;
        }
        if self.step == Some(index) {
            self.step = None;
        }
    }
}
