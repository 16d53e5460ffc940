//! The Think prompt (seeds/001 "For Think"): `session_context`,
//! `standing_constraints`, `turn_narrative`, `conversation_history`,
//! `entity_context`, `kitchen_dashboard`, `current_task`, in that order:
//! laid out for the prompt cache. What changes rarely comes first (the
//! profile, the user's standing rules), then the story and the
//! conversation, which a new turn only adds to between folds, then what
//! changes every turn (the entities in the window, the kitchen's counts,
//! this turn's curation, what the last reply left open) and the message.
//!
//! Think sees recent versus long-term memory but not Understand's reasons.
//! Pure: the caller passes the snapshot, the session context and today's date.

use crate::context::snapshot::{ContextSnapshot, ConversationView};

use super::constraints::{Reader, render_standing};
use super::entities::render_working_memory;
use super::entities::{compact_refs, viable};
use super::narrative::{render_left_open, render_turn_narrative, this_turn_curation};
use super::profile::{render_dashboard, render_session_context};
use super::section::{Prompt, PromptNode};
use crate::glance::SessionContext;

/// Everything Think's prompt is built from.
#[derive(Debug, Clone)]
pub struct ThinkInput<'a> {
    pub user_message: &'a str,
    pub session: &'a SessionContext,
    pub snapshot: &'a ContextSnapshot,
    /// "PLAN".
    pub mode: &'a str,
    pub max_steps: usize,
    /// The proposal Alfred made last turn, when the user is answering it.
    pub pending_proposal: Option<String>,
    pub system: &'a str,
}

/// Section names of the Think prompt, in order.
pub const THINK_SECTIONS: [&str; 7] = [
    "session_context",
    "standing_constraints",
    "turn_narrative",
    "conversation_history",
    "entity_context",
    "kitchen_dashboard",
    "current_task",
];

/// Builds Think's prompt.
pub fn build_think(input: &ThinkInput<'_>) -> Prompt {
    let s = input.snapshot;
    let bodies = [
        render_session_context(input.session),
        render_standing(s, Reader::Planner),
        render_turn_narrative(s),
        render_conversation(
            &s.conversation,
            input.user_message,
            !s.narrative.earlier.trim().is_empty(),
        ),
        render_working_memory(&s.entities, s.window),
        render_dashboard(&input.session.dashboard),
        render_current_task(input),
    ];
    Prompt::with_sections(PromptNode::Think, input.system, THINK_SECTIONS, bodies)
}

/// `conversation_history`, oldest first: the earlier summary, the bullet
/// tier, the recent turns in full (long replies by their summary), then the
/// current message. In that order a new turn adds to the end (the prompt
/// cache keeps the rest). When `narrated` (the turn narrative's earlier
/// story covers the same turns), the earlier summary is its opening line
/// only: the prompt does not list the folded turns twice.
pub fn render_conversation(c: &ConversationView, user_message: &str, narrated: bool) -> String {
    let mut out = vec!["## Conversation".to_string()];
    if c.recent.is_empty() && c.bullets.is_empty() && c.earlier.trim().is_empty() {
        out.push("(This is the first message of the session.)".to_string());
    }
    let earlier = c.earlier.trim();
    if narrated && earlier.lines().count() > 1 {
        let opening = earlier.lines().next().unwrap_or_default();
        out.push(format!(
            "\n### Earlier\n{opening}\n… (the later folded turns are in turn_narrative, under Earlier)"
        ));
    } else if !earlier.is_empty() {
        out.push(format!("\n### Earlier\n{earlier}"));
    }
    if !c.bullets.is_empty() {
        out.push("\n### Before that (one line per turn)".to_string());
        out.extend(c.bullets.iter().map(|b| format!("- {}", b.trim())));
    }
    if !c.recent.is_empty() && out.len() > 1 {
        out.push("\n### Recent".to_string());
    }
    for t in &c.recent {
        out.push(format!(
            "User: {}\nAlfred: {}\n",
            t.user.trim(),
            t.assistant_for_context().trim()
        ));
    }
    out.push(format!(
        "User: {}\n→ (current turn, being processed)",
        user_message.trim()
    ));
    out.join("\n")
}

/// `current_task`: what the last reply left open, this turn's curation,
/// then the message, today, the mode and the no-re-read rule.
fn render_current_task(input: &ThinkInput<'_>) -> String {
    let s = input.snapshot;
    let mut out = Vec::new();
    if let Some(open) = render_left_open(s) {
        out.push(open);
        out.push(String::new());
    }
    if let Some(line) = this_turn_curation(s) {
        out.push(format!("### This turn — {line}"));
        let viable = viable(&s.entities);
        if !s.entities.excluded.is_empty() && !viable.is_empty() {
            out.push(format!("Remaining viable: {}", compact_refs(&viable)));
        }
        out.push(String::new());
    }
    out.extend([
        format!("**User says:** \"{}\"", input.user_message.trim()),
        format!("**Today:** {}", input.session.today),
        format!("**Mode:** {} (max {} steps)", input.mode, input.max_steps),
    ]);
    if let Some(p) = input
        .pending_proposal
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        out.push(format!(
            "**Awaiting the user's answer to your proposal:** \"{p}\" — read this message as that answer."
        ));
    }
    out.push(String::new());
    out.push(
        "Active entities are already loaded — reference them by ref, do not plan a read for them. \
         Plan only what is still missing."
            .to_string(),
    );
    if !input.snapshot.entities.excluded.is_empty() {
        out.push("Leave the excluded refs out of the plan.".to_string());
    }
    out.join("\n")
}
