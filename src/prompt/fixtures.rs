//! The seeds' worked example (seeds/000, 001) as real context-library state,
//! shared by the prompt tests.
//!
//! Four turns: (1) "can you help me plan some meals?" sets up and saves a
//! Weekly Plan (`gen_meal_1`); (2) the user picks from saved recipes — 9
//! recipes and 59 inventory rows are read; (3) "lets not do cod this week?" —
//! Understand demotes the cod recipes and retains the weekly plan, 6 options
//! remain; (4, current) "lets not do the french toast or wings" — Understand
//! demotes `recipe_5` and `recipe_6`. Turn 4 is the seeds' "this turn": it is
//! the first turn at which three exchanges are recorded in full and turn 1
//! has been folded into the earlier narrative.

use serde_json::{Value, json};

use crate::context::curation::{EntityCuration, RefDecision, RetentionDecision};
use crate::context::entity::{RefAction, Table};
use crate::context::fold::Extractive;
use crate::context::narrative::{ConversationPhase, StepExecutionSummary, TurnExecutionSummary};
use crate::context::snapshot::ContextSnapshot;
use crate::context::state::{AnnotatedTurn, ContextState, EntityNote};
use crate::context::{ContextPolicy, ConversationTurn};

use super::seed_prompts::seed_session;
use crate::glance::SessionContext;

/// The current message of the example.
pub const MESSAGE: &str = "lets not do the french toast or wings";
/// Understand's reasons: only Understand may ever see these.
pub const REASONS: [&str; 4] = [
    "user said no french toast",
    "user doesn't feel like wings",
    "user's ongoing weekly plan",
    "user doesn't want cod this week",
];
/// `recipes.json` in file order: `recipe_1` … `recipe_9`.
pub const RECIPES: [&str; 9] = [
    "Kerala Cod Curry",
    "Miso Glazed Air Fryer Cod",
    "Air Fryer Paneer Tikka",
    "Chicken Tikka Bites",
    "Chai French Toast",
    "Dry Rub Wings",
    "Cod Assam Pedas",
    "Thai Pad See Ew",
    "Thai Yellow Curry",
];

/// The example at turn 4.
pub struct SeedExample {
    /// After Understand's turn-4 curation (what Think, Act and Reply see).
    pub state: ContextState,
    /// Turn 4 before the curation (what Understand sees).
    pub before_curation: ContextSnapshot,
    /// Turns 1–3 annotated with their entities, for Understand.
    pub annotated: Vec<AnnotatedTurn>,
    pub session: SessionContext,
}

/// The 59 inventory names of the seed kitchen, in file order.
pub fn inventory_names() -> Vec<String> {
    let rows: Vec<Value> =
        serde_json::from_str(include_str!("../../assets/seed/inventory.json")).unwrap();
    rows.iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect()
}

fn step(kind: &str, sub: &str, desc: &str, outcome: &str, refs: &[&str]) -> StepExecutionSummary {
    StepExecutionSummary {
        description: desc.into(),
        step_type: crate::context::plan::StepType::from_word(kind),
        subdomain: sub.into(),
        outcome: outcome.into(),
        note: None,
        entities_affected: refs.iter().map(|r| r.to_string()).collect(),
    }
}

fn notes(refs: &[&str], action: &str) -> Vec<EntityNote> {
    refs.iter()
        .map(|r| EntityNote {
            r#ref: r.to_string(),
            action: action.into(),
        })
        .collect()
}

/// Records a finished turn in the layers and in the annotated list.
fn finish(
    state: &mut ContextState,
    annotated: &mut Vec<AnnotatedTurn>,
    summary: TurnExecutionSummary,
    assistant: &str,
    entities: Vec<EntityNote>,
) {
    let turn = state.turn;
    let user = summary.user_message.clone();
    let exchange = ConversationTurn {
        turn,
        user: user.clone(),
        assistant: assistant.into(),
        assistant_summary: None,
        entities_mentioned: entities.iter().map(|e| e.r#ref.clone()).collect(),
        at: None,
    };
    state.record_turn(summary, exchange);
    state.fold_all(&mut Extractive);
    annotated.push(AnnotatedTurn {
        turn,
        user,
        assistant: assistant.into(),
        entities,
    });
}

fn turn_one(state: &mut ContextState, annotated: &mut Vec<AnnotatedTurn>) {
    let t = state.begin_turn();
    let plan = json!({"name": "Weekly Plan", "days": ["Sunday", "Wednesday"], "slot": "dinner"});
    let g = state
        .registry
        .register_generated(Table::MealPlans, "Weekly Plan", plan, t);
    state
        .registry
        .register_created(Table::MealPlans, "mp-1", "Weekly Plan", Some(&g), t)
        .unwrap();
    let summary = TurnExecutionSummary {
        turn_number: t,
        user_message: "can you help me plan some meals?".into(),
        goal: "Start a weekly meal plan around the user's cooking days".into(),
        decision: Some(crate::context::plan::Decision::PlanDirect),
        steps: vec![
            step(
                "generate",
                "meal_plans",
                "Draft a Sunday and Wednesday dinner plan",
                "Drafted Weekly Plan",
                &[&g],
            ),
            step(
                "write",
                "meal_plans",
                "Save the weekly plan",
                "Saved Weekly Plan",
                &[&g],
            ),
        ],
        response_summary:
            "Set up a Sunday/Wednesday Weekly Plan; asked whether to use saved recipes".into(),
        conversation_phase: ConversationPhase::Exploring,
        tone: "collaborative".into(),
        natural_next: "User chooses saved recipes or new ideas".into(),
        ..Default::default()
    };
    let reply = "Absolutely! You usually cook on Sundays and Wednesdays, and you like simple, \
                 beginner-friendly meals with leftovers for lunch. I've set up a Weekly Plan with \
                 those two dinners. Would you like to pick from your saved recipes, or try something new?";
    finish(state, annotated, summary, reply, notes(&[&g], "created"));
}

fn turn_two(state: &mut ContextState, annotated: &mut Vec<AnnotatedTurn>) {
    let t = state.begin_turn();
    let mut refs = Vec::new();
    for (i, name) in RECIPES.iter().enumerate() {
        let id = format!("r-{}", i + 1);
        refs.push(
            state
                .registry
                .register_row(Table::Recipes, &id, name, RefAction::Read, t),
        );
    }
    for (i, name) in inventory_names().iter().enumerate() {
        let id = format!("i-{}", i + 1);
        refs.push(
            state
                .registry
                .register_row(Table::Inventory, &id, name, RefAction::Read, t),
        );
    }
    let r: Vec<&str> = refs.iter().map(String::as_str).collect();
    let summary = TurnExecutionSummary {
        turn_number: t,
        user_message: "lets pick from my saved recipes".into(),
        goal: "Show the saved recipes against what is in the kitchen".into(),
        decision: Some(crate::context::plan::Decision::PlanDirect),
        steps: vec![
            step(
                "read",
                "recipes",
                "Read saved recipes",
                "Found 9 recipes",
                &r[..9],
            ),
            step(
                "read",
                "inventory",
                "Read inventory",
                "Found 59 items",
                &r[9..],
            ),
        ],
        response_summary: "Listed the 9 saved recipes; asked what the user is not in the mood for"
            .into(),
        conversation_phase: ConversationPhase::Exploring,
        tone: "collaborative".into(),
        natural_next: "User filters the options".into(),
        ..Default::default()
    };
    let reply = format!(
        "You have 9 saved recipes: {}. Your pantry covers most of them. Anything you're not in \
         the mood for this week?",
        RECIPES.join(", ")
    );
    finish(state, annotated, summary, &reply, notes(&r, "read"));
}

fn turn_three(state: &mut ContextState, annotated: &mut Vec<AnnotatedTurn>) {
    let t = state.begin_turn();
    let cod = ["recipe_1", "recipe_2", "recipe_7"];
    let curation = EntityCuration {
        retain_active: vec![RetentionDecision {
            r#ref: "gen_meal_1".into(),
            reason: REASONS[2].into(),
        }],
        demote: cod
            .iter()
            .map(|r| RefDecision::new(r, REASONS[3]))
            .collect(),
        curation_summary: Some("Demoted recipe_1, recipe_2, recipe_7; kept gen_meal_1".into()),
        ..Default::default()
    };
    state.apply_curation(&curation);
    let options = [
        "recipe_3", "recipe_4", "recipe_5", "recipe_6", "recipe_8", "recipe_9",
    ];
    for r in options {
        state.registry.touch(r, t);
    }
    let mut analyze = step(
        "analyze",
        "recipes",
        "Check the cod-free recipes against the inventory",
        "6 recipes fit without cod",
        &options,
    );
    analyze.note = Some(
        "recipe_3, recipe_4, recipe_5, recipe_6, recipe_8, recipe_9 are the cod-free options"
            .into(),
    );
    let summary = TurnExecutionSummary {
        turn_number: t,
        user_message: "lets not do cod this week?".into(),
        goal: "Find cod-free options that fit the pantry".into(),
        decision: Some(crate::context::plan::Decision::PlanDirect),
        steps: vec![analyze],
        curation_summary: curation.curation_summary.clone(),
        retained_refs: vec!["gen_meal_1".into()],
        demoted_refs: cod.iter().map(|r| r.to_string()).collect(),
        analysis_conclusions: Some("6 cod-free recipes fit the pantry".into()),
        response_summary: "Presented 6 cod-free options and invited refinement".into(),
        conversation_phase: ConversationPhase::Narrowing,
        tone: "collaborative".into(),
        natural_next: "User picks finals or filters more".into(),
        ..Default::default()
    };
    let reply = "Here are 6 recipes that fit your pantry (no cod): Air Fryer Paneer Tikka, Chicken \
                 Tikka Bites, Chai French Toast, Dry Rub Wings, Thai Pad See Ew, Thai Yellow Curry.";
    let mut touched = notes(&cod, "demoted");
    touched.extend(notes(&options, "analyzed"));
    finish(state, annotated, summary, reply, touched);
}

/// Builds the example up to turn 4, Understand's curation applied.
pub fn seed_example() -> SeedExample {
    let mut state = ContextState::new(ContextPolicy::seeds());
    let mut annotated = Vec::new();
    turn_one(&mut state, &mut annotated);
    turn_two(&mut state, &mut annotated);
    turn_three(&mut state, &mut annotated);
    state.begin_turn();
    let before_curation = state.snapshot();
    state.apply_curation(&EntityCuration {
        demote: vec![
            RefDecision::new("recipe_5", REASONS[0]),
            RefDecision::new("recipe_6", REASONS[1]),
        ],
        curation_summary: Some("Demoted recipe_5, recipe_6".into()),
        ..Default::default()
    });
    SeedExample {
        state,
        before_curation,
        annotated,
        session: seed_session(),
    }
}
