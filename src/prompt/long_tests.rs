//! A 500-turn conversation: the windows keep Think's prompt flat while the
//! registry grows; the naive baseline shows the same test would catch growth.

use crate::context::curation::{EntityCuration, RefDecision, RetentionDecision};
use crate::context::entity::{RefAction, Table};
use crate::context::fold::Extractive;
use crate::context::narrative::{ConversationPhase, StepExecutionSummary};
use crate::context::state::ContextState;
use crate::context::{ContextPolicy, ConversationTurn, TurnExecutionSummary};

use super::seed_prompts::seed_session;
use super::*;

fn message(t: u32) -> String {
    format!("turn {t}: what can I cook with the things I just looked at?")
}

/// Plays one turn: two new rows read, a summary and an exchange recorded.
fn play_turn(state: &mut ContextState) {
    let t = state.begin_turn();
    let recipe = state.registry.register_row(
        Table::Recipes,
        &format!("r{t}"),
        &format!("Recipe number {t}"),
        RefAction::Read,
        t,
    );
    let item = state.registry.register_row(
        Table::Inventory,
        &format!("i{t}"),
        &format!("Pantry item {t}"),
        RefAction::Read,
        t,
    );
    let mut curation = EntityCuration::default();
    if t == 3 {
        curation.retain_active.push(RetentionDecision {
            r#ref: "recipe_1".into(),
            reason: "the user's long-term goal".into(),
        });
    }
    if t.is_multiple_of(10) {
        curation.demote.push(RefDecision::new(
            &format!("recipe_{}", t - 1),
            "user said no",
        ));
    }
    state.apply_curation(&curation);
    let summary = TurnExecutionSummary {
        turn_number: t,
        user_message: message(t),
        goal: format!("Suggest a dish for turn {t}"),
        decision: Some(crate::context::plan::Decision::PlanDirect),
        steps: vec![StepExecutionSummary {
            description: "Read one recipe and one pantry item".into(),
            step_type: Some(crate::context::plan::StepType::Read),
            subdomain: "recipes".into(),
            outcome: "Found 2 rows".into(),
            note: None,
            entities_affected: vec![recipe.clone(), item.clone()],
        }],
        response_summary: format!("Suggested Recipe number {t}"),
        conversation_phase: ConversationPhase::Exploring,
        ..Default::default()
    };
    let exchange = ConversationTurn {
        turn: t,
        user: message(t),
        assistant: format!(
            "You could make Recipe number {t} with Pantry item {t}. Want the steps?"
        ),
        entities_mentioned: vec![recipe, item],
        at: None,
        ..Default::default()
    };
    state.record_turn(summary, exchange);
    state.fold_all(&mut Extractive);
}

/// Think's prompt at the start of the next turn, before it is recorded.
fn think_tokens_at(state: &ContextState, session: &SessionContext) -> (usize, String) {
    let snap = state.snapshot();
    let p = build_think(&ThinkInput {
        user_message: "and what about tomorrow?",
        session,
        snapshot: &snap,
        mode: "PLAN",
        max_steps: 8,
        pending_proposal: None,
        system: "You are Alfred's planner.",
    })
    .counted();
    (p.total_tokens, p.user_text())
}

/// Tokens of Think's prompt at each of `turns` under `policy`.
fn run(policy: ContextPolicy, turns: &[u32]) -> Vec<(u32, usize, String)> {
    let session = seed_session();
    let mut state = ContextState::new(policy);
    let mut out = Vec::new();
    let last = turns.iter().max().copied().unwrap_or(0);
    while state.turn < last {
        if turns.contains(&(state.turn + 1)) {
            // Measure at turn T on a copy that has just begun it.
            let mut probe = state.clone();
            probe.begin_turn();
            let (tokens, text) = think_tokens_at(&probe, &session);
            out.push((probe.turn, tokens, text));
        }
        play_turn(&mut state);
    }
    out
}

#[test]
fn think_prompt_stays_flat_over_500_turns() {
    let sizes = run(ContextPolicy::default(), &[5, 50, 500]);
    for (t, tokens, _) in &sizes {
        println!("think prompt at turn {t}: {tokens} tokens");
    }
    let (t50, t500) = (sizes[1].1 as f64, sizes[2].1 as f64);
    let drift = (t500 - t50).abs() / t50;
    println!("drift 50 → 500: {:.1}%", drift * 100.0);
    assert!(drift < 0.10, "turn 50: {t50}, turn 500: {t500}");
    let text = &sizes[2].2;
    // ~1000 entities are known by now; only the window is listed.
    assert!(text.contains("Background: 99"), "{text}");
    assert!(text.contains(
        "### Long-term memory (retained)\n- recipe_1: Recipe number 1 (recipe) [read] (turn 1)"
    ));
    assert!(text.contains("### Earlier (compressed)\nTurn 1:"));
}

#[test]
fn the_naive_baseline_grows_so_the_flatness_test_can_fail() {
    let sizes = run(ContextPolicy::naive(), &[50, 150]);
    for (t, tokens, _) in &sizes {
        println!("naive think prompt at turn {t}: {tokens} tokens");
    }
    assert!(
        sizes[1].1 as f64 > 1.5 * sizes[0].1 as f64,
        "{:?}",
        (sizes[0].1, sizes[1].1)
    );
}
