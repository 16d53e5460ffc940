//! The Understand prompt (seeds/003 §5 and §7): `standing_constraints`,
//! `previous_decisions`, `known_entities`, `recent_conversation`,
//! `pending_clarification` when Alfred asked something last turn, and
//! `current_message` last (laid out for the prompt cache).
//!
//! Understand is the memory manager, so it alone sees everything: the turns of
//! its wider window annotated with the entities each touched, its own earlier
//! decisions with their reasons, every known entity with its state and reason,
//! and which entities are about to leave the window ("at risk").

use crate::context::entity::parse_ref;
use crate::context::snapshot::ContextSnapshot;
use crate::context::state::{AnnotatedTurn, EntityNote};

use super::entities::{collapse_alike, compact_refs, plural};
use super::entity_table::{render_decision_log, render_known_entities};
use super::section::{Prompt, PromptNode, Section};

/// Everything Understand's prompt is built from.
#[derive(Debug, Clone)]
pub struct UnderstandInput<'a> {
    pub user_message: &'a str,
    pub snapshot: &'a ContextSnapshot,
    /// The last turns, already capped at `understand_window`, oldest first.
    pub recent_turns: &'a [AnnotatedTurn],
    /// What Alfred asked last turn, if the user is answering a question.
    pub pending_clarification: Option<String>,
    pub system: &'a str,
}

/// Section names of the Understand prompt, in order (the last is optional).
///
/// Laid out for the prompt cache: what changes rarely first (the rules, the
/// decision log), then the recent turns (a new turn adds to their end
/// between folds), then the entity table, whose states change every turn,
/// and the message last.
pub const UNDERSTAND_SECTIONS: [&str; 6] = [
    "standing_constraints",
    "previous_decisions",
    "recent_conversation",
    "known_entities",
    "pending_clarification",
    "current_message",
];

/// Builds Understand's prompt.
pub fn build_understand(input: &UnderstandInput<'_>) -> Prompt {
    let s = input.snapshot;
    let mut sections = vec![
        Section::new(
            "standing_constraints",
            &super::constraints::render_standing(s, super::constraints::Reader::Understand),
        ),
        Section::new("previous_decisions", &render_decision_log(&s.decisions)),
        Section::new("recent_conversation", &render_recent(input)),
        Section::new("known_entities", &render_known_entities(s)),
    ];
    if let Some(q) = input
        .pending_clarification
        .as_deref()
        .map(str::trim)
        .filter(|q| !q.is_empty())
    {
        sections.push(Section::new(
            "pending_clarification",
            &format!(
                "Alfred asked: \"{q}\"\nThe current message is probably the answer; resolve its references against this question."
            ),
        ));
    }
    sections.push(Section::new(
        "current_message",
        &format!("\"{}\"", input.user_message.trim()),
    ));
    Prompt::new(PromptNode::Understand, input.system, sections)
}

/// `recent_conversation`: each past turn with the entities it touched,
/// oldest first (the message is `current_message`; the entities at risk of
/// leaving the window are listed under `known_entities`).
fn render_recent(input: &UnderstandInput<'_>) -> String {
    let s = input.snapshot;
    let mut out = Vec::new();
    for t in input.recent_turns {
        out.push(super::narrative::turn_heading(t.turn));
        out.push(format!("User: \"{}\"", t.user.trim()));
        out.push(format!("Alfred: {}", t.assistant.trim()));
        out.push("\nEntities this turn:".to_string());
        out.push(render_notes(&t.entities, s));
        out.push(String::new());
    }
    if out.is_empty() {
        out.push("No earlier turns: the current message is the first.".to_string());
    }
    out.join("\n").trim_end().to_string()
}

/// The entities a turn touched: `- recipe_1: updated (Kerala Cod Curry)`;
/// more than [`COLLAPSE_OVER`](super::entities::COLLAPSE_OVER) of one type and action become a range line.
fn render_notes(notes: &[EntityNote], s: &ContextSnapshot) -> String {
    if notes.is_empty() {
        return "- none".to_string();
    }
    fn kind(n: &EntityNote) -> Option<(&'static str, &str)> {
        let t = parse_ref(&n.r#ref)
            .map(|p| p.table.entity_type())
            .unwrap_or("entity");
        Some((t, n.action.as_str()))
    }
    let mut out = Vec::new();
    for row in collapse_alike(notes, kind) {
        if let [n] = row.as_slice() {
            let label = match s.entities.find(&n.r#ref) {
                Some((_, v)) if v.label != v.r#ref => format!(" ({})", v.label),
                Some(_) => String::new(),
                None => " (no longer tracked)".to_string(),
            };
            out.push(format!("- {}: {}{label}", n.r#ref, n.action));
            continue;
        }
        let refs: Vec<&str> = row.iter().map(|m| m.r#ref.as_str()).collect();
        let (t, action) = kind(row[0]).unwrap_or_default();
        out.push(format!(
            "- {}: {action} ({})",
            compact_refs(&refs),
            plural(t, row.len())
        ));
    }
    out.join("\n")
}
