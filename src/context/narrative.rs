//! Layer 2, the turn narrative: what happened each turn and why.
//!
//! Summarize builds a [`TurnExecutionSummary`] per turn (seeds/001); the layer
//! keeps the last `narrative_turns` in full and folds older ones into
//! `earlier_execution_summary`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::dialogue::Dialogue;
use super::fold::{Compressor, FoldKind, FoldRequest, Foldable, FoldingWindow, clip_words};
use super::plan::{Decision, StepType};

/// Where the conversation is heading, for Reply's continuity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConversationPhase {
    #[default]
    Exploring,
    Narrowing,
    Confirming,
    Executing,
}

impl ConversationPhase {
    /// The lowercase word used in prompts and panels.
    pub fn as_str(self) -> &'static str {
        match self {
            ConversationPhase::Exploring => "exploring",
            ConversationPhase::Narrowing => "narrowing",
            ConversationPhase::Confirming => "confirming",
            ConversationPhase::Executing => "executing",
        }
    }
}

/// Summary of one executed step.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct StepExecutionSummary {
    /// From Think's plan.
    pub description: String,
    /// read / analyze / generate / write (none in an entry that lost it).
    #[serde(with = "super::plan::optional_word")]
    #[schemars(with = "String")]
    pub step_type: Option<StepType>,
    pub subdomain: String,
    /// "Found 9 recipes" / "6 recipes fit without cod".
    pub outcome: String,
    /// Act's note_for_next_step.
    pub note: Option<String>,
    /// Refs the step touched.
    pub entities_affected: Vec<String>,
}

impl StepExecutionSummary {
    /// The step type's word ("write"), or "" when the entry has none.
    pub fn kind(&self) -> &'static str {
        self.step_type.map_or("", StepType::as_str)
    }
}

/// What happened in a turn. Built by Summarize; read by Think, Act and Reply.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct TurnExecutionSummary {
    pub turn_number: u32,
    pub user_message: String,
    /// From Think.
    pub goal: String,
    /// plan_direct / propose / clarify (none before Think decided).
    #[serde(with = "super::plan::optional_word")]
    #[schemars(with = "String")]
    pub decision: Option<Decision>,
    pub steps: Vec<StepExecutionSummary>,
    /// Understand's curation: "Demoted recipe_5, recipe_6".
    pub curation_summary: Option<String>,
    /// Standing constraints stated or lifted this turn, in the user's words,
    /// and writes they held back: "added no cod (“let's not do cod this
    /// week”)", "held back putting Kerala Cod Curry on Sunday (“no fish this
    /// week”)".
    pub standing: Vec<String>,
    pub retained_refs: Vec<String>,
    pub demoted_refs: Vec<String>,
    /// "4 recipes fit the constraints".
    pub analysis_conclusions: Option<String>,
    /// What the user saw, in one line.
    pub response_summary: String,
    pub conversation_phase: ConversationPhase,
    /// collaborative / informative / clarifying.
    pub tone: String,
    /// "Wants to exclude French Toast and Wings".
    pub what_user_expressed: String,
    /// "Confirmed, presented the remaining four".
    pub what_we_acknowledged: String,
    /// "User picks finals or filters more".
    pub natural_next: String,
    /// Why the turn stopped short, when it did.
    pub blocked_reason: Option<String>,
    /// What the reply presented, offered and asked: what the next message
    /// can point at ("the 2nd one") or answer ("yes", "the curry").
    #[serde(skip_serializing_if = "Dialogue::is_empty")]
    pub dialogue: Dialogue,
}

impl Foldable for TurnExecutionSummary {
    fn turn(&self) -> u32 {
        self.turn_number
    }

    fn fold_line(&self) -> String {
        let did = if self.steps.is_empty() {
            String::new()
        } else {
            let outcomes: Vec<&str> = self
                .steps
                .iter()
                .map(|s| s.outcome.as_str())
                .filter(|o| !o.is_empty())
                .collect();
            format!(" → {}", outcomes.join("; "))
        };
        let goal = if self.goal.is_empty() {
            &self.user_message
        } else {
            &self.goal
        };
        clip_words(
            &format!(
                "Turn {}: {}{} ({})",
                self.turn_number,
                goal,
                did,
                self.conversation_phase.as_str()
            ),
            240,
        )
    }

    fn fold_text(&self) -> String {
        let mut out = format!(
            "Turn {} — user asked: \"{}\"; goal: {}; decision: {}.",
            self.turn_number,
            self.user_message,
            self.goal,
            self.decision.map_or("", Decision::as_str)
        );
        for (i, s) in self.steps.iter().enumerate() {
            out.push_str(&format!(
                "\n  {}. [{}] {} → {}",
                i + 1,
                s.kind(),
                s.description,
                s.outcome
            ));
        }
        if let Some(c) = &self.curation_summary {
            out.push_str(&format!("\n  Curation: {c}"));
        }
        if let Some(a) = &self.analysis_conclusions {
            out.push_str(&format!("\n  Conclusion: {a}"));
        }
        out.push_str(&format!(
            "\n  Result: {} (phase {})",
            self.response_summary,
            self.conversation_phase.as_str()
        ));
        out
    }
}

/// The narrative layer: recent summaries in full, older ones folded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NarrativeLayer {
    window: FoldingWindow<TurnExecutionSummary>,
}

impl NarrativeLayer {
    /// The layer as another system left it (an import): `earlier` as the
    /// folded older turns, `summaries` (oldest first) kept up to `keep`; any
    /// beyond await the next fold.
    pub fn restore(earlier: &str, summaries: Vec<TurnExecutionSummary>, keep: usize) -> Self {
        let mut layer = Self::default();
        layer.window.earlier = earlier.trim().to_string();
        for s in summaries {
            layer.push(s, keep);
        }
        layer
    }

    /// Adds this turn's summary; older ones beyond `keep` await folding.
    pub fn push(&mut self, summary: TurnExecutionSummary, keep: usize) {
        self.window.push(summary, keep);
    }

    /// [`NarrativeLayer::push`], folding in epochs of `every` turns
    /// ([`FoldingWindow::push_in_epochs`]).
    pub fn push_in_epochs(&mut self, summary: TurnExecutionSummary, keep: usize, every: usize) {
        self.window.push_in_epochs(summary, keep, every);
    }

    /// Re-applies a window size (after a policy change).
    pub fn trim_to(&mut self, keep: usize) {
        self.window.trim_to(keep);
    }

    /// The summaries kept in full, oldest first.
    pub fn recent(
        &self,
    ) -> impl DoubleEndedIterator<Item = &TurnExecutionSummary> + ExactSizeIterator {
        self.window.items.iter()
    }

    /// Summaries that left the window but are not folded yet.
    pub fn awaiting_fold(&self) -> &[TurnExecutionSummary] {
        &self.window.folding
    }

    /// `earlier_execution_summary`: the folded older turns.
    pub fn earlier(&self) -> &str {
        &self.window.earlier
    }

    /// The fold to perform, if any.
    pub fn fold_request(&self) -> Option<FoldRequest> {
        self.window.fold_request(FoldKind::Narrative)
    }

    /// Applies a fold's result (`None`: extractive fallback).
    pub fn complete_fold(&mut self, request: &FoldRequest, result: Option<String>) {
        self.window.complete_fold(request, result);
    }

    /// Folds now with the given compressor.
    pub fn fold_with(&mut self, compressor: &mut dyn Compressor) {
        self.window.fold_with(FoldKind::Narrative, compressor);
    }
}
