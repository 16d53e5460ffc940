//! The Reply prompt (seeds/001 "For Reply"): `standing_constraints`,
//! `reply_guidance`, `entity_context`, `conversation_flow`,
//! `execution_results`, in that order (laid out for the prompt cache: the
//! guidance changes only with the reply's path).
//!
//! Reply must sound mid-conversation: it sees the last exchange, the phase and
//! what changed, and is told to acknowledge, name the change, present and
//! bridge — never to greet again. It reports only what execution shows.

use crate::context::narrative::{ConversationPhase, StepExecutionSummary};
use crate::context::snapshot::ContextSnapshot;

use super::act::StepData;
use super::data::render_step_data;
use super::profile::clip;
pub use super::reply_text::ReplyPath;
use super::reply_text::{render_guidance, render_present};
use super::section::{Prompt, PromptNode};

/// Everything Reply's prompt is built from.
#[derive(Debug, Clone)]
pub struct ReplyInput<'a> {
    pub user_message: &'a str,
    pub snapshot: &'a ContextSnapshot,
    pub turn_number: u32,
    pub goal: &'a str,
    pub path: ReplyPath,
    /// This turn's executed steps.
    pub steps: &'a [StepExecutionSummary],
    pub data: &'a [StepData],
    pub phase: ConversationPhase,
    pub system: &'a str,
}

/// Section names of the Reply prompt, in order.
///
/// Laid out for the prompt cache: the rules, the guidance (one of four
/// texts) and the entities (shared with the turn before) first, this
/// exchange after.
pub const REPLY_SECTIONS: [&str; 5] = [
    "standing_constraints",
    "reply_guidance",
    "entity_context",
    "conversation_flow",
    "execution_results",
];

/// The last assistant line shown in the flow is cut to this many characters.
const LAST_REPLY_CHARS: usize = 600;

/// Builds Reply's prompt.
pub fn build_reply(input: &ReplyInput<'_>) -> Prompt {
    let bodies = [
        super::constraints::render_standing(input.snapshot, super::constraints::Reader::Planner),
        render_guidance(&input.path, is_mid_conversation(input)),
        render_present(input.snapshot, input.steps),
        render_flow(input),
        render_results(input),
    ];
    Prompt::with_sections(PromptNode::Reply, input.system, REPLY_SECTIONS, bodies)
}

/// True once there is an earlier exchange to continue from.
fn is_mid_conversation(input: &ReplyInput<'_>) -> bool {
    let c = &input.snapshot.conversation;
    !c.recent.is_empty() || !c.earlier.trim().is_empty() || input.turn_number > 1
}

/// A phase with what it means for the reply.
fn phase_line(phase: ConversationPhase) -> String {
    let meaning = match phase {
        ConversationPhase::Exploring => "the user is looking around, open to ideas",
        ConversationPhase::Narrowing => "the user is filtering down options",
        ConversationPhase::Confirming => "the user is about to commit",
        ConversationPhase::Executing => "we are carrying out what the user decided",
    };
    format!("**Phase:** {} ({meaning})", phase.as_str())
}

/// `conversation_flow`: where we are, the last exchange, this exchange, how
/// to continue.
fn render_flow(input: &ReplyInput<'_>) -> String {
    let s = input.snapshot;
    let mid = is_mid_conversation(input);
    let mut out = vec!["## Where We Are in This Conversation".to_string()];
    out.push(if mid {
        format!(
            "**Session:** turn {} — mid-conversation.",
            input.turn_number
        )
    } else {
        format!(
            "**Session:** turn {} — the first exchange.",
            input.turn_number
        )
    });
    out.push(phase_line(input.phase));
    let last_summary = s.narrative.turns.last();
    if let Some(tone) = last_summary
        .map(|t| t.tone.trim())
        .filter(|t| !t.is_empty())
    {
        out.push(format!("**Tone so far:** {tone}"));
    }
    if let Some(last) = s.conversation.recent.last() {
        out.push("\n**Last exchange:**".to_string());
        out.push(format!("- User: \"{}\"", last.user.trim()));
        out.push(format!(
            "- You: {}",
            clip(last.assistant_for_context().trim(), LAST_REPLY_CHARS)
        ));
        if let Some(next) = last_summary
            .map(|t| t.natural_next.trim())
            .filter(|n| !n.is_empty())
        {
            out.push(format!("- Where it was heading: {next}"));
        }
    }
    out.push("\n**This exchange:**".to_string());
    out.push(format!("- User: \"{}\"", input.user_message.trim()));
    if mid {
        out.push("- You are mid-conversation, not starting fresh.".to_string());
        out.push("\n**How to continue:**".to_string());
        out.push("- Acknowledge their choice briefly (\"Got it\" / \"No problem\").".to_string());
        out.push("- Name what changed — what was dropped, added or saved.".to_string());
        out.push("- Present the result naturally.".to_string());
        out.push("- Bridge to one next step (\"Ready to pick?\").".to_string());
        out.push("- Never greet or reintroduce yourself mid-conversation.".to_string());
    } else {
        out.push("\n**How to start:**".to_string());
        out.push("- One short, warm line at most, then answer.".to_string());
        out.push("- Present the result and offer one next step.".to_string());
    }
    out.join("\n")
}

/// `execution_results`: goal, status, steps with outcomes, then the data.
fn render_results(input: &ReplyInput<'_>) -> String {
    let status = match &input.path {
        ReplyPath::Normal => "✅ Success".to_string(),
        ReplyPath::Propose { .. } => "📝 Proposal — nothing has been done yet".to_string(),
        ReplyPath::Clarify { .. } => {
            "❓ Needs clarification — nothing has been done yet".to_string()
        }
        ReplyPath::Blocked { reason } => format!("⚠️ Blocked — {}", reason.trim()),
    };
    let mut out = vec![
        "## What Happened This Turn".to_string(),
        format!("**Goal:** {}", input.goal.trim()),
        format!("**Status:** {status}"),
        "\n## Steps".to_string(),
    ];
    if input.steps.is_empty() {
        out.push("No steps ran this turn.".to_string());
    }
    for (i, s) in input.steps.iter().enumerate() {
        let kind = match s.kind() {
            "generate" => "generate (NOT YET SAVED)".to_string(),
            "write" => "write (SAVED)".to_string(),
            other => other.to_string(),
        };
        out.push(format!(
            "{}. ✅ [{kind}] {} — {}",
            i + 1,
            s.description.trim(),
            s.outcome.trim()
        ));
        if let Some(n) = s.note.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
            out.push(format!("   Note: {n}"));
        }
    }
    out.push("\n## Data".to_string());
    out.push(render_step_data(
        input.data,
        |i| input.steps.get(i).map(|s| s.kind()),
        "No data rows this turn.",
    ));
    out.join("\n")
}
