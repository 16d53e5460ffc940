//! The turn record of a sample turn: step, layers, prompts, timings, usage.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::{DISHES, ITEMS, Rng, Topic};
use crate::context::plan::StepType;
use crate::context::{
    ContextState, ConversationTurn, CurationOutcome, EntityCuration, Extractive,
    StepExecutionSummary, TurnExecutionSummary,
};
use crate::prompt::{Prompt, PromptNode, Section};
use crate::record::{
    PromptRecord, PromptsRecord, StepRecord, ToolCallRecord, TurnRecord, TurnStatus,
};
use crate::turn::{Decision, Usage, UsageSource};

const SYSTEM: &str = "You are Alfred, a kitchen assistant. Work only with the refs you are \
    given; never invent ids. Keep the user's constraints across turns. Answer in JSON that \
    matches the schema. Prefer what is already in the pantry; say what is missing.";

/// Finishes the turn on `state` (layers recorded unless it failed) and
/// returns its record with the snapshot taken at the end.
pub(super) fn build(
    state: &mut ContextState,
    topic: &Topic,
    touched: Vec<String>,
    curation: EntityCuration,
    outcome: CurationOutcome,
    rng: &mut Rng,
    now: Timestamp,
) -> TurnRecord {
    let reply = if topic.failed {
        String::new()
    } else {
        format!(
            "Here are {} ideas with {item}: {dish} tops the list since you have most of it. \
             You are missing {}; shall I add it to the shopping list?\n\n\
             1. {dish}\n2. {}\n3. {}",
            2 + rng.below(5),
            ITEMS[rng.below(ITEMS.len())],
            DISHES[rng.below(DISHES.len())],
            DISHES[rng.below(DISHES.len())],
            item = topic.item,
            dish = topic.dish,
        )
    };
    let step = StepRecord {
        step_type: "read".into(),
        subdomain: "recipes".into(),
        description: format!("Find recipes that use {}", topic.item),
        outcome: format!("Found {} recipes", touched.len()),
        group: 0,
        note: Some(format!("{} fits best", topic.dish)),
        tool_calls: vec![ToolCallRecord {
            tool: "db_read".into(),
            table: "recipes".into(),
            rows: touched.len(),
            error: None,
        }],
        entities_affected: touched,
    };
    if !topic.failed {
        record_layers(state, topic, &step, &reply, curation.curation_summary);
    }
    let usage = Usage {
        prompt_tokens: 3000 + rng.below(4000) as u64,
        completion_tokens: 200 + rng.below(600) as u64,
        source: UsageSource::Reported,
        cost_usd: None,
    };
    // Priced like gpt-4.1-mini: any f64, as a real price table gives.
    let cost = usage.prompt_tokens as f64 * 0.4e-6 + usage.completion_tokens as f64 * 1.6e-6;
    let mut record = TurnRecord {
        turn: topic.turn,
        user: topic.user.clone(),
        reply,
        status: if topic.failed {
            TurnStatus::Failed
        } else {
            TurnStatus::Ok
        },
        error: topic
            .failed
            .then(|| "the model did not answer within 60 s (3 retries); try again".into()),
        decision: Some(Decision::PlanDirect),
        goal: format!("Suggest dinners using {}", topic.item),
        steps: vec![step],
        curation: outcome,
        prompts: prompts(state, rng),
        timings_ms: timings(rng),
        usage,
        cost_usd: Some(cost),
        llm: "gpt-4.1-mini @ api.openai.com".into(),
        started_at: now.to_string(),
        ..TurnRecord::default()
    };
    record.set_snapshot(state.snapshot());
    record
}

/// The narrative and conversation of a successful turn, then the folds.
fn record_layers(
    state: &mut ContextState,
    topic: &Topic,
    step: &StepRecord,
    reply: &str,
    curation_summary: Option<String>,
) {
    let summary = TurnExecutionSummary {
        turn_number: topic.turn,
        user_message: topic.user.clone(),
        goal: format!("Suggest dinners using {}", topic.item),
        decision: Some(Decision::PlanDirect),
        steps: vec![StepExecutionSummary {
            description: step.description.clone(),
            step_type: StepType::from_word(&step.step_type),
            subdomain: step.subdomain.clone(),
            outcome: step.outcome.clone(),
            note: step.note.clone(),
            entities_affected: step.entities_affected.clone(),
        }],
        curation_summary,
        response_summary: format!("Offered {} and alternatives", topic.dish),
        tone: "collaborative".into(),
        what_user_expressed: topic.user.clone(),
        natural_next: "User picks one or narrows further".into(),
        ..TurnExecutionSummary::default()
    };
    let exchange = ConversationTurn {
        turn: topic.turn,
        user: topic.user.clone(),
        assistant: reply.to_string(),
        assistant_summary: None,
        entities_mentioned: step.entities_affected.clone(),
        at: None,
    };
    state.record_turn(summary, exchange);
    state.fold_all(&mut Extractive);
}

/// Understand, Think and Reply prompts, with sections drawn from the state.
fn prompts(state: &ContextState, rng: &mut Rng) -> PromptsRecord {
    let entities: Vec<String> = state
        .registry
        .entries()
        .into_iter()
        .rev()
        .take(12)
        .map(|(r, e)| format!("- {r}: {} [{}]", e.label, e.action.as_str()))
        .collect();
    let history: String = state
        .conversation
        .history_summary()
        .chars()
        .take(600)
        .collect();
    let body: std::sync::Arc<str> = format!("{}\n{history}", entities.join("\n")).into();
    let make = |node: PromptNode, names: &[&str], response: String| {
        let sections: Vec<Section> = names
            .iter()
            .map(|n| Section {
                name: (*n).to_string(),
                text: body.clone(),
                tokens: 0,
            })
            .collect();
        let mut prompt = Prompt::new(node, SYSTEM, sections);
        // Estimates: a sample session is about size, not exact counts.
        let counts: Vec<usize> = prompt.texts().iter().map(|t| t.len() / 4).collect();
        prompt.set_counts(&counts);
        Some(PromptRecord::new(prompt, Some(response), Vec::new()))
    };
    let steps = 1 + rng.below(3);
    PromptsRecord {
        understand: make(
            PromptNode::Understand,
            &["entity_context", "recent_turns"],
            r#"{"referenced":[],"curation":{}}"#.into(),
        ),
        think: make(
            PromptNode::Think,
            &["entity_context", "conversation_history"],
            format!(r#"{{"decision":"plan_direct","steps":{steps}}}"#),
        ),
        act: Vec::new(),
        reply: make(
            PromptNode::Reply,
            &["execution_results", "entity_context"],
            "Here are some ideas".into(),
        ),
        summarize: Vec::new(),
    }
}

/// Node timings in milliseconds to the microsecond, and their total (any f64).
fn timings(rng: &mut Rng) -> BTreeMap<String, f64> {
    let mut total = 0.0;
    let mut out = BTreeMap::new();
    for node in ["understand", "think", "act", "reply", "summarize"] {
        let ms = (100_000 + rng.below(2_000_000)) as f64 / 1000.0;
        total += ms;
        out.insert(node.to_string(), ms);
    }
    out.insert("total".into(), total);
    out
}
