//! Summarize's deterministic work: the turn's phase, its
//! `TurnExecutionSummary`, the conversation exchange, and the step records.

use crate::context::conversation::SUMMARY_THRESHOLD_CHARS;
use crate::context::dialogue::{offer_in, presented_in};
use crate::context::fold::truncate_chars;
use crate::context::{
    ConversationPhase, ConversationTurn, CurationOutcome, DecisionAction, Dialogue, Question,
    QuestionKind, Shown, StepExecutionSummary, TurnExecutionSummary,
};
use crate::record::StepRecord;

use super::act::{StepOutcome, Stop};
use super::types::{Decision, StepType, SummarizeOutput, ThinkOutput, UnderstandOutput};

/// The phase of the conversation, from what the turn did: a proposal or a
/// question (or nothing run) is exploring; any write is executing; a draft is
/// confirming; an analysis is narrowing.
pub fn phase(think: &ThinkOutput, steps: &[StepOutcome]) -> ConversationPhase {
    let ran = |t: StepType| {
        steps
            .iter()
            .any(|s| s.step.step_type == t && s.stop.is_none())
    };
    if think.decision != Decision::PlanDirect || steps.is_empty() {
        ConversationPhase::Exploring
    } else if ran(StepType::Write) {
        ConversationPhase::Executing
    } else if ran(StepType::Generate) {
        ConversationPhase::Confirming
    } else if ran(StepType::Analyze) {
        ConversationPhase::Narrowing
    } else {
        ConversationPhase::Exploring
    }
}

/// The narrative view of each executed step.
pub fn step_summaries(steps: &[StepOutcome]) -> Vec<StepExecutionSummary> {
    steps
        .iter()
        .map(|s| StepExecutionSummary {
            description: s.step.description.clone(),
            step_type: Some(s.step.step_type),
            subdomain: s.step.subdomain.clone(),
            outcome: s.summary.clone(),
            note: s.note.clone(),
            entities_affected: s.entities.clone(),
        })
        .collect()
}

/// The turn record's view of each executed step.
pub fn step_records(steps: &[StepOutcome]) -> Vec<StepRecord> {
    steps
        .iter()
        .map(|s| StepRecord {
            step_type: s.step.step_type.as_str().to_string(),
            subdomain: s.step.subdomain.clone(),
            description: s.step.description.clone(),
            outcome: s.summary.clone(),
            group: s.step.group,
            note: s.note.clone(),
            tool_calls: s.calls.clone(),
            entities_affected: s.entities.clone(),
        })
        .collect()
}

/// Everything the turn's summary is built from.
pub struct TurnFacts<'a> {
    pub turn: u32,
    pub user_message: &'a str,
    pub reply: &'a str,
    pub understand: &'a UnderstandOutput,
    pub curation: &'a CurationOutcome,
    /// Standing constraints added or lifted, in words.
    pub standing: &'a [String],
    pub think: &'a ThinkOutput,
    pub steps: &'a [StepOutcome],
    pub flow: &'a SummarizeOutput,
    pub phase: ConversationPhase,
    /// What the reply presented, offered and asked.
    pub dialogue: &'a Dialogue,
}

/// Builds the turn's `TurnExecutionSummary`.
pub fn build_summary(f: &TurnFacts<'_>) -> TurnExecutionSummary {
    let refs_of = |action: DecisionAction| -> Vec<String> {
        f.curation
            .applied
            .iter()
            .filter(|d| d.action == action)
            .map(|d| d.r#ref.clone())
            .collect()
    };
    let curation_summary = f
        .understand
        .entity_curation
        .curation_summary
        .clone()
        .filter(|s| !s.trim().is_empty())
        .or_else(|| describe_curation(f.curation));
    let analysis = f.flow.analysis_conclusions.clone().or_else(|| {
        f.steps
            .iter()
            .rev()
            .find(|s| s.step.step_type == StepType::Analyze)
            .map(|s| s.summary.clone())
    });
    let blocked = f.steps.iter().find_map(|s| match &s.stop {
        Some(Stop::Blocked(r)) => Some(r.clone()),
        _ => None,
    });
    TurnExecutionSummary {
        turn_number: f.turn,
        user_message: f.user_message.to_string(),
        goal: f.think.goal.clone(),
        decision: Some(f.think.decision),
        steps: step_summaries(f.steps),
        curation_summary,
        standing: f.standing.to_vec(),
        retained_refs: refs_of(DecisionAction::Retain),
        demoted_refs: refs_of(DecisionAction::Demote),
        analysis_conclusions: analysis,
        response_summary: response_summary(f.reply, f.flow),
        conversation_phase: f.phase,
        tone: non_empty(&f.flow.tone, "collaborative"),
        what_user_expressed: non_empty(
            &f.understand.what_user_expressed,
            &truncate_chars(f.user_message, 120),
        ),
        what_we_acknowledged: f.flow.what_we_acknowledged.clone(),
        natural_next: f.flow.natural_next.clone(),
        blocked_reason: blocked,
        dialogue: f.dialogue.clone(),
    }
}

/// The dialogue state of a reply whose brain did not state it: the known
/// entities it names, in order; a proposal is an offer to plan from the
/// saved recipes; a clarification (Understand's or Think's, or the
/// question a step stopped to ask) is the open question, with the ambiguous
/// mention's candidates.
pub fn derive_dialogue(
    reply: &str,
    user_message: &str,
    think: &ThinkOutput,
    understand: &UnderstandOutput,
    act_question: Option<&str>,
    known: &[(String, String)],
) -> Dialogue {
    let presented = presented_in(reply, known);
    // What the reply's words offer, whatever Think decided: a proposal
    // whose reply offers nothing of a known kind shows no offer.
    let offer = offer_in(reply, known);
    let asked = understand
        .clarification_questions
        .first()
        .or(think.clarification_questions.first())
        .filter(|_| understand.needs_clarification || think.decision == Decision::Clarify)
        .map(String::as_str)
        .or(act_question);
    let question = asked.map(|text| {
        let mut candidates: Vec<Shown> = understand
            .entity_mentions
            .iter()
            .flat_map(|m| m.candidates.iter())
            .filter_map(|c| known.iter().find(|(r, _)| r == c))
            .map(|(r, l)| Shown::new(r, l))
            .collect();
        // "Which one do you mean: A or B?" from a brain that named no
        // candidates: the ones the question names.
        if candidates.is_empty() {
            let named = presented_in(text, known);
            if named.len() >= 2 {
                candidates = named;
            }
        }
        Question {
            kind: if candidates.is_empty() {
                QuestionKind::Open
            } else {
                QuestionKind::WhichOne
            },
            text: text.to_string(),
            candidates,
            request: user_message.to_string(),
        }
    });
    Dialogue {
        presented,
        offer,
        question,
        listed: Vec::new(),
    }
}

/// The conversation exchange of the turn.
pub fn build_exchange(f: &TurnFacts<'_>) -> ConversationTurn {
    let mut mentioned: Vec<String> = f.understand.referenced_entities.clone();
    for s in f.steps {
        for r in &s.entities {
            if !mentioned.contains(r) {
                mentioned.push(r.clone());
            }
        }
    }
    ConversationTurn {
        turn: f.turn,
        user: f.user_message.to_string(),
        assistant: f.reply.to_string(),
        assistant_summary: long_reply_summary(f.reply, f.flow),
        entities_mentioned: mentioned,
        at: None,
    }
}

/// A long reply keeps a one-sentence summary for context; a short one does not.
fn long_reply_summary(reply: &str, flow: &SummarizeOutput) -> Option<String> {
    if reply.chars().count() <= SUMMARY_THRESHOLD_CHARS {
        return None;
    }
    let s = flow
        .assistant_summary
        .clone()
        .filter(|s| !s.trim().is_empty());
    Some(s.unwrap_or_else(|| first_sentence(reply)))
}

fn response_summary(reply: &str, flow: &SummarizeOutput) -> String {
    // "in one line": a short reply's first sentence, not its list.
    long_reply_summary(reply, flow)
        .unwrap_or_else(|| crate::context::fold::first_sentence(reply, 200))
}

fn first_sentence(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = flat
        .find(['.', '!', '?'])
        .map(|i| i + 1)
        .unwrap_or(flat.len());
    truncate_chars(&flat[..end], 200)
}

pub(crate) fn describe_curation(c: &CurationOutcome) -> Option<String> {
    let mut parts = Vec::new();
    for (action, verb) in [
        (DecisionAction::Demote, "Demoted"),
        (DecisionAction::Retain, "Kept"),
        (DecisionAction::Drop, "Dropped"),
        (DecisionAction::ClearAll, "Cleared everything"),
    ] {
        let refs: Vec<&str> = c
            .applied
            .iter()
            .filter(|d| d.action == action)
            .map(|d| d.r#ref.as_str())
            .collect();
        if refs.is_empty() {
            continue;
        }
        if action == DecisionAction::ClearAll {
            parts.push(verb.to_string());
        } else {
            parts.push(format!("{verb} {}", refs.join(", ")));
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

fn non_empty(s: &str, fallback: &str) -> String {
    if s.trim().is_empty() {
        fallback.to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proposal_whose_reply_offers_nothing_records_no_offer() {
        let think = ThinkOutput {
            decision: Decision::Propose,
            ..ThinkOutput::default()
        };
        let understand = UnderstandOutput::default();
        let known = [("recipe_1".to_string(), "Thai Pad See Ew".to_string())];
        let told = derive_dialogue(
            "Thai Pad See Ew would be quick tonight.",
            "what should I cook",
            &think,
            &understand,
            None,
            &known,
        );
        assert_eq!(told.offer, None, "{:?}", told.lines());
        let offered = derive_dialogue(
            "Shall I plan the week from your saved recipes?",
            "plan my week",
            &think,
            &understand,
            None,
            &known,
        );
        assert_eq!(
            offered.lines().iter().find(|(k, _)| *k == "offered"),
            Some(&("offered", "plan from the saved recipes".to_string()))
        );
    }
}
