//! The turn narrative as text (seeds/001 "What We've Done"): past turns'
//! [`TurnExecutionSummary`]s, this turn's curation by Understand, and the
//! compressed earlier story.
//!
//! Shared by Think (`<turn_narrative>`) and Act (`<prior_turn_context>`).
//! Shows which refs Understand demoted or kept, never why: reasons belong to
//! Understand alone.

use crate::context::active::Cause;
use crate::context::curation::DecisionAction;
use crate::context::dialogue::Dialogue;
use crate::context::narrative::TurnExecutionSummary;
use crate::context::snapshot::ContextSnapshot;

use super::entities::compact_refs;

/// "### Turn 4": no age beside it. The last turn is the last listed, and
/// an age would change every turn as turns pass, where the heading now
/// never changes (a prompt cache keeps it).
pub(crate) fn turn_heading(turn: u32) -> String {
    format!("### Turn {turn}")
}

/// One past turn: User asked / Goal / Steps / Result / Understand decided /
/// Note. `with_result` is false when the prompt shows the reply in full
/// elsewhere (Think's conversation history); a conclusion that only repeats
/// the last step's outcome is left out.
pub fn render_turn_summary(t: &TurnExecutionSummary, with_result: bool) -> String {
    let mut out = vec![
        turn_heading(t.turn_number),
        format!("**User asked:** \"{}\"", t.user_message.trim()),
    ];
    if !t.goal.trim().is_empty() {
        out.push(format!("**Goal:** {}", t.goal.trim()));
    }
    if t.steps.is_empty() {
        out.push("**Steps:** none (answered from context)".to_string());
    } else {
        out.push("**Steps:**".to_string());
        for (i, s) in t.steps.iter().enumerate() {
            let outcome = if s.outcome.trim().is_empty() {
                String::new()
            } else {
                format!(" → {}", s.outcome.trim())
            };
            out.push(format!(
                "  {}. [{}] {}{outcome}",
                i + 1,
                s.kind(),
                s.description.trim()
            ));
        }
    }
    let last_outcome = t.steps.last().map(|s| s.outcome.trim());
    let standing = t.standing.join("; ");
    let conclusion = t
        .analysis_conclusions
        .as_deref()
        .filter(|c| Some(c.trim()) != last_outcome);
    let optional = [
        (
            "Result",
            Some(t.response_summary.as_str()).filter(|_| with_result),
        ),
        ("Conclusion", conclusion),
        ("Understand decided", t.curation_summary.as_deref()),
        ("Standing constraints", Some(standing.as_str())),
        ("Stopped short", t.blocked_reason.as_deref()),
    ];
    for (label, value) in optional {
        if let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) {
            out.push(format!("**{label}:** {v}"));
        }
    }
    let notes: Vec<&str> = t
        .steps
        .iter()
        .filter_map(|s| s.note.as_deref().map(str::trim))
        .filter(|n| !n.is_empty())
        .collect();
    if !notes.is_empty() {
        out.push(format!("**Note:** {}", notes.join(" ")));
    }
    out.join("\n")
}

/// What a turn's reply presented (numbered, with refs, so "the 2nd one"
/// can be resolved), offered and asked.
fn render_dialogue(d: &Dialogue) -> Vec<String> {
    let mut out = Vec::new();
    if !d.presented.is_empty() {
        let list = d.numbered(true).join("; ");
        out.push(format!("**Presented, in order:** {list}"));
    }
    if let Some(o) = &d.offer {
        let items: Vec<String> = o
            .items
            .iter()
            .map(|s| format!("{} {}", s.r#ref, s.label))
            .collect();
        out.push(
            format!("**Offered:** {} {}", o.kind.describe(), items.join(", "))
                .trim_end()
                .to_string(),
        );
    }
    if let Some(q) = &d.question {
        out.push(format!("**Asked, awaiting an answer:** {}", q.text.trim()));
    }
    out
}

/// This turn's curation as one line: "Understand: demoted recipe_5, recipe_6;
/// kept gen_meal_1" — from the excluded refs and this turn's decisions.
pub fn this_turn_curation(s: &ContextSnapshot) -> Option<String> {
    let now: Vec<_> = s.decisions.iter().filter(|d| d.turn == s.turn).collect();
    let refs_for = |action: DecisionAction| -> Vec<&str> {
        now.iter()
            .filter(|d| d.action == action)
            .map(|d| d.r#ref.as_str())
            .collect()
    };
    let mut demoted = refs_for(DecisionAction::Demote);
    let mut ruled_out = Vec::new();
    for v in &s.entities.excluded {
        if matches!(v.cause, Cause::RuledOut { .. }) {
            ruled_out.push(v.r#ref.as_str());
        } else if !demoted.contains(&v.r#ref.as_str()) {
            demoted.push(&v.r#ref);
        }
    }
    let mut forgot = refs_for(DecisionAction::Drop);
    forgot.extend(s.entities.dropped.iter().map(String::as_str));
    forgot.sort_unstable();
    forgot.dedup();
    let mut parts = Vec::new();
    if now.iter().any(|d| d.action == DecisionAction::ClearAll) {
        parts.push("cleared working memory (fresh start)".to_string());
    } else if !forgot.is_empty() {
        parts.push(format!("forgot {}", compact_refs(&forgot)));
    }
    let verbs = [
        ("ruled out (the user's standing constraints)", ruled_out),
        ("demoted", demoted),
        ("kept", refs_for(DecisionAction::Retain)),
        ("pinned (by the user)", refs_for(DecisionAction::Pin)),
        ("unpinned (by the user)", refs_for(DecisionAction::Unpin)),
    ];
    for (verb, refs) in verbs {
        if !refs.is_empty() {
            parts.push(format!("{verb} {}", compact_refs(&refs)));
        }
    }
    (!parts.is_empty()).then(|| format!("Understand: {}", parts.join("; ")))
}

/// What the last reply left open (its presented list, offer, question):
/// what this message can point at or answer. Older turns' lists and offers
/// no longer stand. None when it left nothing open.
pub fn render_left_open(s: &ContextSnapshot) -> Option<String> {
    let last = s
        .narrative
        .turns
        .last()
        .filter(|t| s.turn.saturating_sub(t.turn_number) <= 1)?;
    let lines = render_dialogue(&last.dialogue);
    (!lines.is_empty()).then(|| {
        format!(
            "### What your last reply (turn {}) left open\n{}",
            last.turn_number,
            lines.join("\n")
        )
    })
}

/// `<turn_narrative>` for Think, oldest first: the compressed earlier
/// story, then the recent turns. In that order a new turn adds to the end
/// of what the last prompt said, and what changes with each turn (this
/// turn's curation, what the last reply left open) is said at the end of
/// the prompt instead (`current_task`), so a prompt cache keeps the rest.
pub fn render_turn_narrative(s: &ContextSnapshot) -> String {
    let mut out = vec!["## What We've Done".to_string()];
    let n = &s.narrative;
    if n.turns.is_empty() && n.earlier.trim().is_empty() {
        out.push("Nothing yet — this is the start of the conversation.".to_string());
    }
    if !n.earlier.trim().is_empty() {
        out.push(format!("\n### Earlier (compressed)\n{}", n.earlier.trim()));
    }
    let in_full = |turn: u32| s.conversation.recent.iter().any(|c| c.turn == turn);
    for t in &n.turns {
        let summary = render_turn_summary(t, !in_full(t.turn_number));
        out.push(format!("\n{summary}"));
    }
    out.join("\n")
}

/// `<prior_turn_context>` for Act: the last turn's steps and outcomes, then
/// what the user said this turn and how Understand curated it.
pub fn render_prior_turn(s: &ContextSnapshot, user_message: &str) -> String {
    let mut out = vec!["## What happened before this plan\n".to_string()];
    match s.narrative.turns.last() {
        Some(t) => {
            out.push(render_turn_summary(t, true));
            if let Some(open) = render_left_open(s) {
                out.push(open);
            }
        }
        None if !s.narrative.earlier.trim().is_empty() => {
            out.push(format!("Earlier: {}", s.narrative.earlier.trim()))
        }
        None => out.push("This is the first turn of the conversation.".to_string()),
    }
    out.push(format!(
        "\n### This turn\nUser then said: \"{}\"",
        user_message.trim()
    ));
    if let Some(line) = this_turn_curation(s) {
        out.push(line);
    }
    out.join("\n")
}
