//! The second half of the Reply prompt: what to present (`entity_context`)
//! and how to say it (`reply_guidance`, one variant per [`ReplyPath`]).
//!
//! Reply is shown refs with labels so it can name things, and what was
//! dropped this turn so it can acknowledge it — but not Understand's reasons.

use serde::{Deserialize, Serialize};

use crate::context::narrative::StepExecutionSummary;
use crate::context::snapshot::{ContextSnapshot, EntityView};

use super::entities::{first_seen, items, list, named};

/// Which kind of reply the pipeline chose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "path", rename_all = "snake_case")]
pub enum ReplyPath {
    /// The plan ran; present its results.
    Normal,
    /// Think proposed instead of acting; nothing ran yet.
    Propose { message: String },
    /// Something must be asked before acting.
    Clarify { questions: Vec<String> },
    /// The turn stopped short.
    Blocked { reason: String },
}

/// `entity_context` for Reply: long-term memory, unsaved drafts, what this
/// turn touched, and what was dropped this turn — what changes least first,
/// each list in the order its entities first appeared (for the prompt
/// cache).
pub fn render_present(s: &ContextSnapshot, steps: &[StepExecutionSummary]) -> String {
    let e = &s.entities;
    let mut touched: Vec<&EntityView> = Vec::new();
    for r in steps.iter().flat_map(|st| &st.entities_affected) {
        let found = e.recent.iter().chain(&e.retained).find(|v| &v.r#ref == r);
        if let Some(v) = found
            && !touched.iter().any(|t| t.r#ref == v.r#ref)
        {
            touched.push(v);
        }
    }
    let (heading, present): (&str, Vec<&EntityView>) = if touched.is_empty() {
        ("## In Context (recent)", e.recent.iter().collect())
    } else {
        ("## Entities to Present (touched this turn)", touched)
    };
    let with_action = |v: &EntityView| format!("{} [{}]", named(v), v.action);
    let mut out = Vec::new();
    if !e.retained.is_empty() {
        out.push("## Long-term memory".to_string());
        out.push(list(&items(first_seen(&e.retained)), named));
    }
    if !e.pending.is_empty() {
        out.push("\n## Generated (NOT YET SAVED)".to_string());
        out.push(list(&items(first_seen(&e.pending)), named));
    }
    out.push(format!("\n{heading}"));
    if present.is_empty() {
        out.push("None.".to_string());
    } else {
        out.push(list(&items(present), with_action));
    }
    let dropped: Vec<String> = e
        .excluded
        .iter()
        .map(named)
        .chain(
            e.dropped_detail
                .iter()
                .map(|d| format!("{}: {} ({})", d.r#ref, d.label, d.entity_type)),
        )
        .collect();
    if !dropped.is_empty() {
        out.push("\n## Dropped this turn".to_string());
        out.extend(dropped.iter().map(|d| format!("- {d}")));
        out.push("Name what was dropped when you acknowledge the change.".to_string());
    }
    out.join("\n").trim_start().to_string()
}

/// `reply_guidance`: the path's instructions plus the house rules.
pub fn render_guidance(path: &ReplyPath, mid_conversation: bool) -> String {
    let mut out = vec!["## How to Reply".to_string()];
    match path {
        ReplyPath::Normal => out.extend(
            [
                "- Lead with the outcome, in the user's terms.",
                "- Report only what the execution results show; an analysis is not a saved change.",
                "- Anything NOT YET SAVED is a draft: show it in full and offer to save it.",
                "- Say something was saved only when it is marked SAVED.",
            ]
            .map(String::from),
        ),
        ReplyPath::Propose { message } => {
            out.push(format!(
                "- You are proposing; nothing has been done yet. The proposal: \"{}\"",
                message.trim()
            ));
            out.push(
                "- Present it in a sentence or two and ask the user to confirm or adjust.".into(),
            );
            out.push("- Do not describe any of it as done.".into());
        }
        ReplyPath::Clarify { questions } => {
            out.push("- Before acting, ask only this:".into());
            out.extend(questions.iter().map(|q| format!("  - {}", q.trim())));
            out.push("- Keep it short; do not guess and do not claim any action.".into());
        }
        ReplyPath::Blocked { reason } => {
            out.push(format!("- The turn stopped short: {}", reason.trim()));
            out.push(
                "- Say plainly what was done and what was not, and offer a way forward.".into(),
            );
        }
    }
    out.push("- Use names, never refs or ids (the recipe's name, not recipe_3).".into());
    out.push("- End with at most one natural next step.".into());
    if mid_conversation {
        out.push("- Never greet or reintroduce yourself mid-conversation.".into());
    }
    out.join("\n")
}
