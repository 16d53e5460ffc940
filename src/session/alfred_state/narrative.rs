//! Alfred's narrative keys (alfred-original.md §3, §4.1) as alfred's:
//! `turn_summaries` as the narrative layer's summaries,
//! `understand_decision_log` as the decision log, and
//! `pending_clarification` as the question the last turn's dialogue waits on.

use serde_json::Value;

use super::read::{Need, Obj, shape};
use super::report::ImportReport;
use crate::context::curation::{DecisionAction, DecisionLogEntry};
use crate::context::dialogue::{Question, QuestionKind};
use crate::context::plan::{Decision, StepType};
use crate::context::{
    ConversationPhase, ConversationTurn, StepExecutionSummary, TurnExecutionSummary,
};

/// Alfred's decision log entries, oldest first; entries that cannot be
/// read are left out (reported).
pub(super) fn decision_log(state: Obj<'_>, report: &mut ImportReport) -> Vec<DecisionLogEntry> {
    let Some(items) = state.list(
        "understand_decision_log",
        Need::Expected,
        "the decision log starts empty",
        report,
    ) else {
        return Vec::new();
    };
    let path = "understand_decision_log[]";
    items
        .iter()
        .filter_map(|item| {
            let Some(map) = item.as_object() else {
                report.defaulted(
                    path,
                    format!("holds {}, not an entry: left out", shape(item)),
                );
                return None;
            };
            let o = Obj { map, path };
            o.skip_unknown(&["turn", "ref", "action", "reason"], report);
            let out = "the entry is left out";
            let action = match o.text("action", Need::Expected, out, report)? {
                "retain" => DecisionAction::Retain,
                "demote" => DecisionAction::Demote,
                "drop" => DecisionAction::Drop,
                "clear_all" => DecisionAction::ClearAll,
                other => {
                    report.defaulted(
                        o.key_path("action"),
                        format!("is `{other}`, not retain, demote, drop or clear_all: {out}"),
                    );
                    return None;
                }
            };
            let turn = o.turn("turn", Need::Expected, out, report)?;
            let r = match action {
                DecisionAction::ClearAll => "*".to_string(),
                _ => o.text("ref", Need::Expected, out, report)?.to_string(),
            };
            // Alfred logs a demotion with the curation summary, which may be null.
            let reason = o.text("reason", Need::Optional, "logged without a reason", report);
            Some(DecisionLogEntry {
                turn,
                r#ref: r,
                action,
                reason: reason.unwrap_or_default().trim().to_string(),
            })
        })
        .collect()
}

/// The keys of one of Alfred's turn summaries.
const SUMMARY_KEYS: [&str; 8] = [
    "turn_num",
    "think_decision",
    "think_goal",
    "steps",
    "entity_curation",
    "conversation_phase",
    "user_expressed",
    "blocked_reason",
];

/// Alfred's `turn_summaries`, oldest first, each with the words of its turn
/// when that turn is among `turns`.
pub(super) fn turn_summaries(
    state: Obj<'_>,
    turns: &[ConversationTurn],
    report: &mut ImportReport,
) -> Vec<TurnExecutionSummary> {
    let Some(items) = state.list(
        "turn_summaries",
        Need::Expected,
        "the Narrative panel shows no turn summaries",
        report,
    ) else {
        return Vec::new();
    };
    let path = "turn_summaries[]";
    let mut out: Vec<TurnExecutionSummary> = items
        .iter()
        .filter_map(|item| {
            let Some(map) = item.as_object() else {
                report.defaulted(
                    path,
                    format!("holds {}, not a summary: left out", shape(item)),
                );
                return None;
            };
            one_summary(Obj { map, path }, turns, report)
        })
        .collect();
    out.sort_by_key(|s| s.turn_number);
    // One summary per turn: the later one wins.
    out.reverse();
    out.dedup_by_key(|s| s.turn_number);
    out.reverse();
    out
}

fn one_summary(
    o: Obj<'_>,
    turns: &[ConversationTurn],
    report: &mut ImportReport,
) -> Option<TurnExecutionSummary> {
    o.skip_unknown(&SUMMARY_KEYS, report);
    let turn_number = o.turn(
        "turn_num",
        Need::Expected,
        "the summary is left out (its turn is unknown)",
        report,
    )?;
    let said = turns.iter().find(|t| t.turn == turn_number);
    let text = |key: &str, report: &mut ImportReport| {
        o.text(key, Need::Expected, "shown empty", report)
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    let goal = text("think_goal", report);
    let decision = text("think_decision", report);
    let user_expressed = text("user_expressed", report);
    let conversation_phase = phase_of(o, report);
    let steps = steps_of(o, report);
    let (retained_refs, demoted_refs, curation_summary) = curation(o, report);
    let blocked_reason = o
        .text("blocked_reason", Need::Optional, "not shown", report)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    Some(TurnExecutionSummary {
        turn_number,
        user_message: said.map(|t| t.user.clone()).unwrap_or_default(),
        goal,
        decision: Decision::from_word(decision.trim()),
        steps,
        curation_summary,
        retained_refs,
        demoted_refs,
        response_summary: said
            .map(|t| t.assistant_for_context().trim().to_string())
            .unwrap_or_default(),
        conversation_phase,
        what_user_expressed: user_expressed,
        blocked_reason,
        ..TurnExecutionSummary::default()
    })
}

/// A summary's `conversation_phase` (exploring when unknown).
fn phase_of(o: Obj<'_>, report: &mut ImportReport) -> ConversationPhase {
    let effect = "shown as exploring";
    let phase = o.text("conversation_phase", Need::Expected, effect, report);
    match phase.unwrap_or_default().trim() {
        "narrowing" => ConversationPhase::Narrowing,
        "confirming" => ConversationPhase::Confirming,
        "executing" => ConversationPhase::Executing,
        "exploring" | "" => ConversationPhase::Exploring,
        other => {
            report.defaulted(
                o.key_path("conversation_phase"),
                format!(
                    "is `{other}`, not exploring, narrowing, confirming or executing: {effect}"
                ),
            );
            ConversationPhase::Exploring
        }
    }
}

/// A summary's `steps`; items that are not objects are left out (reported).
fn steps_of(o: Obj<'_>, report: &mut ImportReport) -> Vec<StepExecutionSummary> {
    let path = "turn_summaries[].steps[]";
    let items = o.list("steps", Need::Expected, "shown with no steps", report);
    items
        .unwrap_or_default()
        .iter()
        .filter_map(|s| match s.as_object() {
            Some(map) => Some(one_step(Obj { map, path }, report)),
            None => {
                report.defaulted(path, format!("holds {}, not a step: left out", shape(s)));
                None
            }
        })
        .collect()
}

/// The keys of one of Alfred's step summaries.
const STEP_KEYS: [&str; 7] = [
    "step_num",
    "step_type",
    "subdomain",
    "description",
    "outcome",
    "entities_involved",
    "note",
];

fn one_step(o: Obj<'_>, report: &mut ImportReport) -> StepExecutionSummary {
    o.skip_unknown(&STEP_KEYS, report);
    let text = |key: &str, report: &mut ImportReport| {
        o.text(key, Need::Expected, "shown empty", report)
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    StepExecutionSummary {
        description: text("description", report),
        step_type: StepType::from_word(text("step_type", report).trim()),
        subdomain: text("subdomain", report),
        outcome: text("outcome", report),
        note: o
            .text("note", Need::Optional, "not shown", report)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        entities_affected: strings(o, "entities_involved", report),
    }
}

/// The text items of the list at `key` (others are reported).
fn strings(o: Obj<'_>, key: &str, report: &mut ImportReport) -> Vec<String> {
    let items = o
        .list(key, Need::Optional, "none shown", report)
        .unwrap_or_default();
    if items.iter().any(|v| !v.is_string()) {
        report.defaulted(
            o.key_path(key),
            "holds items that are not text: those are left out",
        );
    }
    items
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// A summary's `entity_curation`: retained, demoted, and one line with the
/// reasons ("retained recipe_2 — “for Sunday”; demoted recipe_5").
fn curation(o: Obj<'_>, report: &mut ImportReport) -> (Vec<String>, Vec<String>, Option<String>) {
    let Some(map) = o.object(
        "entity_curation",
        Need::Optional,
        "no curation shown",
        report,
    ) else {
        return (Vec::new(), Vec::new(), None);
    };
    let c = Obj {
        map,
        path: "turn_summaries[].entity_curation",
    };
    c.skip_unknown(&["retained", "demoted", "reasons"], report);
    let retained = strings(c, "retained", report);
    let demoted = strings(c, "demoted", report);
    let reasons = c.object("reasons", Need::Optional, "no reasons shown", report);
    let reason = |r: &str| {
        reasons
            .and_then(|m| m.get(r))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map_or(String::new(), |s| format!(" — “{s}”"))
    };
    let parts: Vec<String> = retained
        .iter()
        .map(|r| format!("retained {r}{}", reason(r)))
        .chain(demoted.iter().map(|r| format!("demoted {r}{}", reason(r))))
        .collect();
    let summary = (!parts.is_empty()).then(|| parts.join("; "));
    (retained, demoted, summary)
}

/// Alfred's `pending_clarification` as the question the summary of `turn`
/// waits on. True when it was placed.
pub(super) fn pending_clarification(
    state: Obj<'_>,
    turn: u32,
    summaries: &mut [TurnExecutionSummary],
    turns: &[ConversationTurn],
    report: &mut ImportReport,
) -> bool {
    let Some(map) = state.object(
        "pending_clarification",
        Need::Optional,
        "no question is shown as waiting",
        report,
    ) else {
        return false;
    };
    let o = Obj {
        map,
        path: "pending_clarification",
    };
    let Some((kind, text, goal)) = question_of(o, report) else {
        return false;
    };
    let Some(summary) = summaries.iter_mut().find(|s| s.turn_number == turn) else {
        report.not_shown(
            "pending_clarification",
            format!(
                "is Alfred's question of turn {turn}, which has no turn summary here to hang on: \
                 not shown"
            ),
        );
        return false;
    };
    // The user's words that raised it, else Think's goal.
    let request = turns
        .iter()
        .find(|t| t.turn == turn)
        .map_or(goal, |t| t.user.clone());
    summary.dialogue.question = Some(Question {
        kind,
        text,
        candidates: Vec::new(),
        request,
    });
    true
}

/// The question a pending clarification asks — a proposal to confirm
/// (`propose`), else questions to answer — with Think's goal; `None`
/// (reported) when it has no words.
fn question_of(o: Obj<'_>, report: &mut ImportReport) -> Option<(QuestionKind, String, String)> {
    o.skip_unknown(&["type", "goal", "questions", "proposal_message"], report);
    let kind = o.text("type", Need::Expected, "read as a question", report);
    let goal = o
        .text("goal", Need::Optional, "", report)
        .unwrap_or_default();
    let questions: Vec<String> = match o.map.get("questions") {
        Some(Value::String(q)) => vec![q.to_string()],
        Some(Value::Array(_)) => strings(o, "questions", report),
        Some(Value::Null) | None => Vec::new(),
        Some(v) => {
            report.defaulted(
                o.key_path("questions"),
                format!("is {}, not a list of questions: left out", shape(v)),
            );
            Vec::new()
        }
    };
    let questions: Vec<&str> = questions
        .iter()
        .map(|q| q.trim())
        .filter(|q| !q.is_empty())
        .collect();
    let proposal = o
        .text("proposal_message", Need::Optional, "left out", report)
        .unwrap_or_default()
        .trim();
    let (kind, text) = match kind {
        Some("propose") if !proposal.is_empty() => (QuestionKind::Confirm, proposal.to_string()),
        Some("propose") => (QuestionKind::Confirm, questions.join(" ")),
        _ => (QuestionKind::Open, questions.join(" ")),
    };
    if text.is_empty() {
        report.defaulted(
            "pending_clarification",
            "has no question or proposal text: no question is shown as waiting",
        );
        return None;
    }
    Some((kind, text, goal.trim().to_string()))
}
