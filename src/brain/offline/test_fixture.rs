//! Test support: the seeds' worked example built by hand as context state —
//! turn 1 proposed, turn 2 ("let's not do cod this week") read the 9 seed
//! recipes (with their ingredient lines) and the 59 inventory items — and
//! helpers that call each node of the brain directly.

use serde_json::{Value, json};

use crate::context::{
    AnnotatedTurn, ConstraintChanges, ContextPolicy, ContextState, ConversationTurn, EntityNote,
    MatchKind, NewConstraint, RefAction, Rule, Table, TurnExecutionSummary,
};
use crate::pipeline::{
    ActAction, ActRequest, CallLog, ThinkOutput, ThinkRequest, ThinkStep, UnderstandOutput,
    UnderstandRequest,
};
use crate::prompt::act::{ActInput, PlanStepView, StepData};
use crate::prompt::reply::{ReplyInput, ReplyPath};
use crate::prompt::think::ThinkInput;
use crate::prompt::understand::UnderstandInput;
use crate::prompt::{Dashboard, NamedCount, Profile, Prompt, PromptNode, SessionContext};

/// The proposal Alfred made at turn 1.
pub const PROPOSAL: &str = "You usually cook on Sundays and Wednesdays, and you like simple, \
     beginner-friendly meals with leftovers for lunch. Want to pick from your saved recipes (you \
     have 9), or try something new?";

/// The seed kitchen's session context (profile from `preferences.json`).
pub fn session() -> SessionContext {
    let prefs: Value =
        serde_json::from_str(include_str!("../../../assets/seed/preferences.json")).expect("prefs");
    let profile: Profile = serde_json::from_value(prefs.clone()).unwrap_or_default();
    let preferences = prefs["subdomain_guidance"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    let count = |name: &str, count: u32| NamedCount {
        name: name.into(),
        count,
    };
    SessionContext {
        today: "2026-01-13".into(),
        profile,
        preferences,
        dashboard: Dashboard {
            recipes_total: 9,
            inventory_total: 59,
            inventory_by_location: vec![
                count("pantry", 36),
                count("fridge", 9),
                count("freezer", 5),
                count("cabinet", 5),
                count("counter", 4),
            ],
            ..Dashboard::default()
        },
    }
}

fn record(
    state: &mut ContextState,
    user: &str,
    assistant: &str,
    decision: &str,
    refs: Vec<String>,
    presented: Vec<crate::context::Shown>,
) {
    let turn = state.turn;
    state.understand_turns.push_back(AnnotatedTurn {
        turn,
        user: user.into(),
        assistant: assistant.into(),
        entities: refs
            .iter()
            .map(|r| EntityNote {
                r#ref: r.clone(),
                action: "read".into(),
            })
            .collect(),
    });
    let summary = TurnExecutionSummary {
        turn_number: turn,
        user_message: user.into(),
        decision: crate::context::plan::Decision::from_word(decision),
        ..TurnExecutionSummary::default()
    };
    let mut summary = summary;
    summary.dialogue.presented = presented;
    let exchange = ConversationTurn {
        turn,
        user: user.into(),
        assistant: assistant.into(),
        assistant_summary: None,
        entities_mentioned: refs,
        at: None,
    };
    state.narrative.push(summary, 2);
    state.conversation.push(exchange, &state.policy.clone());
}

/// The example at the start of turn 3 (before Understand).
pub fn turn_three() -> ContextState {
    let mut s = ContextState::new(ContextPolicy::default());
    s.begin_turn();
    record(
        &mut s,
        "can you help me plan some meals?",
        PROPOSAL,
        "propose",
        Vec::new(),
        Vec::new(),
    );
    s.begin_turn();
    let mut refs = Vec::new();
    let recipes: Vec<Value> =
        serde_json::from_str(include_str!("../../../assets/seed/recipes.json")).expect("recipes");
    for (i, row) in recipes.iter().enumerate() {
        let name = row["name"].as_str().unwrap_or_default();
        let r =
            s.registry
                .register_row(Table::Recipes, &format!("r-{i}"), name, RefAction::Read, 2);
        let mut row = row.clone();
        row["id"] = json!(r);
        s.rows.insert(r.clone(), std::sync::Arc::new(row));
        refs.push(r);
    }
    let inventory: Vec<Value> =
        serde_json::from_str(include_str!("../../../assets/seed/inventory.json"))
            .expect("inventory");
    for (i, row) in inventory.iter().enumerate() {
        let name = row["name"].as_str().unwrap_or_default();
        let r = s.registry.register_row(
            Table::Inventory,
            &format!("i-{i}"),
            name,
            RefAction::Read,
            2,
        );
        let mut row = row.clone();
        row["id"] = json!(r);
        s.rows.insert(r.clone(), std::sync::Arc::new(row));
        refs.push(r);
    }
    // "no cod" stands from turn 2: the cod recipes are ruled out there
    // (and their rows let go, as the pipeline does at the end of a turn).
    s.apply_constraints(&ConstraintChanges {
        add: vec![NewConstraint {
            clause: "let's not do cod this week".into(),
            rule: Rule::Exclude,
            kind: MatchKind::Ingredient,
            value: "cod".into(),
            refs: Vec::new(),
        }],
        ..ConstraintChanges::default()
    });
    s.refresh_constraints(&|_| None);
    s.prune_rows();
    let reply = "Got it — no cod this week. Here are the 6 options left:\n- Air Fryer Paneer Tikka\n\
                 - Chicken Tikka Bites\n- Chai French Toast\n- Dry Rub Wings\n- Thai Pad See Ew\n- Thai Yellow Curry";
    // The six options the reply shows, as the pipeline records them.
    let shown: Vec<crate::context::Shown> = recipes
        .iter()
        .enumerate()
        .filter_map(|(i, row)| {
            let name = row["name"].as_str().unwrap_or_default();
            reply
                .contains(name)
                .then(|| crate::context::Shown::new(refs[i].clone(), name))
        })
        .collect();
    record(
        &mut s,
        "let's not do cod this week",
        reply,
        "plan_direct",
        refs,
        shown,
    );
    s.begin_turn();
    s
}

fn prompt(node: PromptNode) -> Prompt {
    Prompt::new(node, "", vec![])
}

/// Understand's decision for `message` on `state`.
pub fn understand(state: &ContextState, message: &str) -> UnderstandOutput {
    let snapshot = state.snapshot();
    let turns: Vec<AnnotatedTurn> = state.understand_turns.iter().cloned().collect();
    let input = UnderstandInput {
        user_message: message,
        snapshot: &snapshot,
        recent_turns: &turns,
        pending_clarification: None,
        system: "",
    };
    let p = prompt(PromptNode::Understand);
    super::understand::decide(&UnderstandRequest {
        input: &input,
        prompt: &p,
        state,
        kitchen: &crate::pipeline::KitchenNames::default(),
        calls: &CallLog::default(),
    })
}

/// Applies Understand's output as the pipeline does (touch, curate, then
/// the standing constraints, judged by the loaded rows).
pub fn apply(state: &mut ContextState, u: &UnderstandOutput) {
    let turn = state.turn;
    for r in &u.referenced_entities {
        state.registry.touch(r, turn);
    }
    state.apply_curation(&u.entity_curation);
    state.apply_constraints(&u.constraints);
    state.refresh_constraints(&|_| None);
}

/// Think's decision for `message` after Understand's output was applied.
pub fn think(state: &ContextState, message: &str, u: &UnderstandOutput) -> ThinkOutput {
    let snapshot = state.snapshot();
    let s = session();
    let input = ThinkInput {
        user_message: message,
        session: &s,
        snapshot: &snapshot,
        mode: "PLAN",
        max_steps: 8,
        pending_proposal: None,
        system: "",
    };
    let p = prompt(PromptNode::Think);
    super::think::decide(&ThinkRequest {
        input: &input,
        prompt: &p,
        understand: u,
        state,
        calls: &CallLog::default(),
    })
}

/// Act's first decision for a step, with no earlier data.
pub fn act(
    state: &ContextState,
    message: &str,
    u: &UnderstandOutput,
    step: &ThinkStep,
) -> ActAction {
    let snapshot = state.snapshot();
    let input = ActInput {
        user_message: message,
        today: "2026-01-13",
        step_index: 0,
        total_steps: 1,
        step: PlanStepView {
            description: step.description.clone(),
            step_type: step.step_type.as_str().into(),
            subdomain: step.subdomain.clone(),
        },
        prior_steps: &[],
        snapshot: &snapshot,
        data: &[],
        this_step_calls: &[],
        subdomain_schema: "",
        system: "",
    };
    let p = prompt(PromptNode::Act);
    super::act::decide(&ActRequest {
        input: &input,
        prompt: &p,
        step,
        this_step_results: &[],
        this_step_history: &[],
        last_error: None,
        understand: u,
        state,
        calls: &CallLog::default(),
    })
}

/// Reply's text for one analyze step's data.
pub fn reply(
    state: &ContextState,
    message: &str,
    u: &UnderstandOutput,
    t: &ThinkOutput,
    data: Value,
) -> String {
    let snapshot = state.snapshot();
    let data = [StepData {
        step_index: 0,
        description: t
            .steps
            .first()
            .map(|s| s.description.clone())
            .unwrap_or_default(),
        content: data,
    }];
    let input = ReplyInput {
        user_message: message,
        snapshot: &snapshot,
        turn_number: state.turn,
        goal: &t.goal,
        path: ReplyPath::Normal,
        steps: &[],
        data: &data,
        phase: crate::context::ConversationPhase::Narrowing,
        system: "",
    };
    let p = prompt(PromptNode::Reply);
    super::reply::compose(&crate::pipeline::ReplyRequest {
        input: &input,
        prompt: &p,
        think: t,
        understand: u,
        data: &data,
        changed: &[],
        calls: &CallLog::default(),
    })
    .0
}
