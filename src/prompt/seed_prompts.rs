//! Prompt-side fixtures of the seeds' worked example: the seed kitchen's
//! session context and one call of each builder at turn 4, shared by the
//! snapshot tests and the node tests.

use serde_json::json;

use crate::context::narrative::{ConversationPhase, StepExecutionSummary};
use crate::context::snapshot::ContextSnapshot;

use super::fixtures::{MESSAGE, SeedExample};
use super::*;
use crate::glance::{Dashboard, NamedCount, Profile, SessionContext};

pub const SYSTEM: &str = "You are Alfred, a kitchen assistant.";

/// Think at turn 4 of the example.
pub fn think(ex: &SeedExample, snapshot: &ContextSnapshot) -> Prompt {
    build_think(&ThinkInput {
        user_message: MESSAGE,
        session: &ex.session,
        snapshot,
        mode: "PLAN",
        max_steps: 8,
        pending_proposal: None,
        system: SYSTEM,
    })
}

/// Understand at turn 4 of the example.
pub fn understand(ex: &SeedExample, snapshot: &ContextSnapshot) -> Prompt {
    build_understand(&UnderstandInput {
        user_message: MESSAGE,
        snapshot,
        recent_turns: &ex.annotated,
        pending_clarification: None,
        system: SYSTEM,
    })
}

/// The four options left after turn 4's first step.
pub fn remaining_rows() -> serde_json::Value {
    json!([
        {"ref": "recipe_3", "name": "Air Fryer Paneer Tikka", "cuisine": "indian", "servings": 2},
        {"ref": "recipe_4", "name": "Chicken Tikka Bites", "cuisine": "indian", "servings": 4},
        {"ref": "recipe_8", "name": "Thai Pad See Ew", "cuisine": "thai", "servings": 2},
        {"ref": "recipe_9", "name": "Thai Yellow Curry", "cuisine": "thai", "servings": 2}
    ])
}

/// The data of turn 4's first step.
pub fn first_step_data() -> Vec<StepData> {
    vec![StepData {
        step_index: 0,
        description: "Drop French Toast and Wings from the cod-free options".into(),
        content: remaining_rows(),
    }]
}

/// Act for turn 4's second step.
pub fn act(snapshot: &ContextSnapshot, data: &[StepData]) -> Prompt {
    let step = PlanStepView {
        description: "Suggest which of the remaining recipes suit Sunday and Wednesday".into(),
        step_type: "analyze".into(),
        subdomain: "recipes".into(),
    };
    let prior = [PriorStep {
        description: "Drop French Toast and Wings from the cod-free options".into(),
        step_type: "analyze".into(),
        outcome: "4 recipes remain".into(),
        note: Some("recipe_3, recipe_4, recipe_8, recipe_9 remain".into()),
    }];
    build_act(&ActInput {
        user_message: MESSAGE,
        today: "2026-01-13",
        step_index: 1,
        total_steps: 2,
        step,
        prior_steps: &prior,
        snapshot,
        data,
        this_step_calls: &[],
        subdomain_schema: "recipes(ref, name, cuisine, difficulty, prep_time_minutes, \
                           cook_time_minutes, servings, tags[])",
        system: SYSTEM,
    })
}

/// Reply at turn 4 after both steps.
pub fn reply(snapshot: &ContextSnapshot) -> Prompt {
    let remaining = ["recipe_3", "recipe_4", "recipe_8", "recipe_9"].map(String::from);
    let steps = [StepExecutionSummary {
        description: "Drop French Toast and Wings from the cod-free options".into(),
        step_type: Some(crate::context::plan::StepType::Analyze),
        subdomain: "recipes".into(),
        outcome: "4 recipes remain".into(),
        note: None,
        entities_affected: remaining.to_vec(),
    }];
    build_reply(&ReplyInput {
        user_message: MESSAGE,
        snapshot,
        turn_number: 4,
        goal: "Drop French Toast and Wings and present the remaining options",
        path: ReplyPath::Normal,
        steps: &steps,
        data: &first_step_data(),
        phase: ConversationPhase::Narrowing,
        system: SYSTEM,
    })
}

fn counts(pairs: &[(&str, u32)]) -> Vec<NamedCount> {
    pairs
        .iter()
        .map(|(name, count)| NamedCount {
            name: name.to_string(),
            count: *count,
        })
        .collect()
}

/// The session context of the seed kitchen (`assets/seed/`), at 2026-01-13.
pub fn seed_session() -> SessionContext {
    let strings = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut s = SessionContext {
        today: "2026-01-13".into(),
        profile: Profile {
            allergies: strings(&["shellfish"]),
            favorite_cuisines: strings(&["indian", "thai", "mexican"]),
            disliked_ingredients: strings(&["mushroom"]),
            cooking_skill_level: "beginner".into(),
            household_adults: 2,
            nutrition_goals: strings(&["high-protein"]),
            cooking_frequency: "2-3 times a week, usually Sunday and Wednesday".into(),
            available_equipment: strings(&["air-fryer", "stovetop", "oven", "rice-cooker"]),
            time_budget_minutes: Some(45),
            preferred_complexity: "simple".into(),
            planning_rhythm: "cooks Sunday and Wednesday; leftovers for lunch".into(),
            ..Profile::default()
        },
        dashboard: Dashboard {
            recipes_total: 9,
            recipes_by_cuisine: counts(&[
                ("indian", 3),
                ("fusion", 3),
                ("thai", 2),
                ("malaysian", 1),
            ]),
            inventory_total: 59,
            inventory_by_location: counts(&[
                ("pantry", 36),
                ("fridge", 9),
                ("freezer", 5),
                ("cabinet", 5),
                ("counter", 4),
            ]),
            expiring_soon: strings(&["milk (2 days)", "coriander (2 days)"]),
            meal_slots_next_7_days: 2,
            meal_days_covered_next_7_days: 2,
            shopping_open: 5,
            tasks_open: 4,
        },
        ..SessionContext::default()
    };
    s.preferences.insert(
        "meal_plans".into(),
        "I cook 2-3 times per week, usually Sunday and Wednesday. Make enough for leftovers for lunch the next day.".into(),
    );
    s.preferences.insert(
        "recipes".into(),
        "Keep recipes to 5-7 steps max. Metric measurements preferred.".into(),
    );
    s
}
