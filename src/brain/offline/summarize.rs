//! Summarize's brain-made parts: the tone, what Alfred acknowledged, where
//! the conversation is heading, the analysis conclusions, and a one-sentence
//! summary of a long reply (built from the reply's own first line and the
//! steps' outcomes, so it never names anything the reply did not).
//!
//! Everything else Summarize does is the pipeline's.

use crate::context::conversation::SUMMARY_THRESHOLD_CHARS;
use crate::pipeline::{Decision, SummarizeOutput, SummarizeRequest};
use crate::turn::StepType;

use super::text::clip;

/// Summarize's output for one turn.
pub fn decide(req: &SummarizeRequest<'_>) -> SummarizeOutput {
    let clarifying = req.understand.needs_clarification || req.think.decision == Decision::Clarify;
    let tone = if clarifying {
        "clarifying"
    } else if req.think.decision == Decision::Propose
        || req
            .steps
            .iter()
            .any(|s| s.step_type != Some(StepType::Read))
    {
        "collaborative"
    } else if req.steps.is_empty() {
        "conversational"
    } else {
        "informative"
    };
    let conclusions: Vec<&str> = req
        .steps
        .iter()
        .filter(|s| s.step_type == Some(StepType::Analyze) && !s.outcome.trim().is_empty())
        .map(|s| s.outcome.trim())
        .collect();
    SummarizeOutput {
        assistant_summary: long_reply_summary(req),
        tone: tone.to_string(),
        what_we_acknowledged: acknowledged(req, clarifying),
        natural_next: natural_next(req, clarifying).to_string(),
        analysis_conclusions: (!conclusions.is_empty()).then(|| conclusions.join("; ")),
    }
}

/// How Alfred answered: asked, proposed, or confirmed and presented.
fn acknowledged(req: &SummarizeRequest<'_>, clarifying: bool) -> String {
    if clarifying {
        return "Asked which one the user meant before doing anything".to_string();
    }
    if req.think.decision == Decision::Propose {
        return "Proposed how to go about it and waited for the user's choice".to_string();
    }
    let demoted: Vec<&str> = req
        .understand
        .entity_curation
        .demote
        .iter()
        .map(|d| d.reason.as_str())
        .filter(|r| !r.is_empty())
        .collect();
    let mut parts = Vec::new();
    if !demoted.is_empty() {
        parts.push(format!("Confirmed the exclusions ({})", demoted.join("; ")));
    }
    if let Some(s) = req.steps.last().filter(|s| !s.outcome.trim().is_empty()) {
        parts.push(format!("presented: {}", s.outcome.trim()));
    }
    let joined = parts.join("; ");
    let mut c = joined.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => "Answered briefly".to_string(),
    }
}

/// Where the conversation is heading after this turn.
fn natural_next(req: &SummarizeRequest<'_>, clarifying: bool) -> &'static str {
    let last = req.steps.last();
    let last_type = last.map_or("", |s| s.kind());
    let last_sub = last.map_or("", |s| s.subdomain.as_str());
    match (clarifying, req.think.decision, last_type, last_sub) {
        (true, _, _, _) => "User says which one they meant",
        (_, Decision::Propose, _, _) => "User chooses saved recipes or something new",
        (_, _, "generate", "meal_plans") => "User saves the plan or swaps a day",
        (_, _, "generate", _) => "User saves the recipe or tweaks it",
        (_, _, "analyze", "recipes") => "User picks recipes for the week or narrows further",
        (_, _, "write", "meal_plans") => "User moves on, maybe to the shopping list",
        (_, _, "write", _) => "User moves on or adds more",
        (_, _, _, "inventory") => "User cooks from what's there or adds items",
        _ => "User continues the conversation",
    }
}

/// One sentence for a reply over the threshold: its opening line plus what
/// the steps produced.
fn long_reply_summary(req: &SummarizeRequest<'_>) -> Option<String> {
    let reply = req.reply.trim();
    if reply.chars().count() <= SUMMARY_THRESHOLD_CHARS {
        return None;
    }
    let first = reply.lines().next().unwrap_or_default().trim();
    let first = first.trim_end_matches([':', '.', '!', '?']);
    let first = clip(first, 160).replace("**", "");
    let outcome = req
        .steps
        .iter()
        .rev()
        .map(|s| s.outcome.trim())
        .find(|o| !o.is_empty());
    Some(match outcome {
        Some(o) => format!("{first} ({}).", o.trim_end_matches('.')),
        None => format!("{first}."),
    })
}
