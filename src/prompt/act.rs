//! The Act prompt for one step (seeds/001 "For Act"): `standing_constraints`,
//! `entity_context`, `prior_turn_context`, `schema`, `data_to_analyze`,
//! `step_context`, in that order (laid out for the prompt cache).
//!
//! Act sees the same historical window as Think (recent versus long-term, no
//! reasons), the plan's prior steps, the data earlier steps produced this turn
//! and the tool calls already made in this step. Pure text assembly.

use serde::{Deserialize, Serialize};

use crate::context::snapshot::ContextSnapshot;

pub use super::data::StepData;
use super::data::render_step_data;
use super::entities::render_working_memory;
use super::narrative::render_prior_turn;
use super::section::{Prompt, PromptNode};

/// The step Act is executing, as Think planned it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanStepView {
    pub description: String,
    /// read / analyze / generate / write.
    pub step_type: String,
    pub subdomain: String,
}

/// A step of this plan that already ran.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriorStep {
    pub description: String,
    pub step_type: String,
    /// "Found 9 recipes".
    pub outcome: String,
    /// Act's note_for_next_step.
    pub note: Option<String>,
}

/// A tool call already made in this step, with a one-line result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallView {
    pub tool: String,
    pub table: String,
    /// "9 rows", "created recipe_10", "no rows matched".
    pub summary: String,
}

/// Everything one Act prompt is built from.
#[derive(Debug, Clone)]
pub struct ActInput<'a> {
    pub user_message: &'a str,
    pub today: &'a str,
    /// 0-based.
    pub step_index: usize,
    pub total_steps: usize,
    pub step: PlanStepView,
    pub prior_steps: &'a [PriorStep],
    pub snapshot: &'a ContextSnapshot,
    pub data: &'a [StepData],
    pub this_step_calls: &'a [ToolCallView],
    pub subdomain_schema: &'a str,
    pub system: &'a str,
}

/// Section names of the Act prompt, in order.
///
/// Laid out for the prompt cache: what a whole turn shares first (the
/// rules, the entities, the turn so far), then what a subdomain shares, then
/// what this step alone has.
pub const ACT_SECTIONS: [&str; 6] = [
    "standing_constraints",
    "schema",
    "entity_context",
    "prior_turn_context",
    "data_to_analyze",
    "step_context",
];

/// Builds the Act prompt for one step.
pub fn build_act(input: &ActInput<'_>) -> Prompt {
    let s = input.snapshot;
    let schema = if input.subdomain_schema.trim().is_empty() {
        format!("No schema for subdomain `{}`.", input.step.subdomain)
    } else {
        input.subdomain_schema.to_string()
    };
    let bodies = [
        super::constraints::render_standing(s, super::constraints::Reader::Planner),
        schema,
        render_working_memory(&s.entities, s.window),
        render_prior_turn(s, input.user_message),
        render_step_data(
            input.data,
            |i| input.prior_steps.get(i).map(|p| p.step_type.as_str()),
            "No data from earlier steps.",
        ),
        render_step_context(input),
    ];
    Prompt::with_sections(PromptNode::Act, input.system, ACT_SECTIONS, bodies)
}

/// `step_context`: this step, the plan's prior steps, this step's tool calls.
fn render_step_context(input: &ActInput<'_>) -> String {
    let step = &input.step;
    let mut out = vec![
        "## Current Step".to_string(),
        format!(
            "**Step {} of {}** | Type: {} | Subdomain: {}",
            input.step_index + 1,
            input.total_steps.max(input.step_index + 1),
            step.step_type,
            step.subdomain
        ),
        format!("**Your job:** {}", step.description.trim()),
        format!("**User's request:** \"{}\"", input.user_message.trim()),
        format!("**Today:** {}", input.today),
        "\n## Prior Steps (this plan)".to_string(),
    ];
    if input.prior_steps.is_empty() {
        out.push("None — this is the first step.".to_string());
    }
    for (i, p) in input.prior_steps.iter().enumerate() {
        let outcome = match p.outcome.trim() {
            "" => String::new(),
            o => format!(" — {o}"),
        };
        out.push(format!(
            "{}. ✅ [{}] {}{outcome}",
            i + 1,
            p.step_type,
            p.description.trim()
        ));
        if let Some(note) = p.note.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
            out.push(format!("   Note: {note}"));
        }
    }
    out.push("\n## Tool calls so far (this step)".to_string());
    if input.this_step_calls.is_empty() {
        out.push("None yet.".to_string());
    }
    for (i, c) in input.this_step_calls.iter().enumerate() {
        out.push(format!(
            "{}. {} {} → {}",
            i + 1,
            c.tool,
            c.table,
            c.summary.trim()
        ));
    }
    out.join("\n")
}
