//! Think for planning by day: read the recipes and the plan from today on,
//! then write the slots.

use crate::context::Table;
use crate::pipeline::{StepType, ThinkOutput};

use super::super::super::hints;
use super::super::super::think_ctx::{self, Ctx, step};
use super::Ask;

/// The plan for a planning ask.
pub fn plan(ask: &Ask, c: &Ctx<'_>) -> ThinkOutput {
    // "for 4 people on saturday": the servings said, else the household.
    let servings = super::servings_said(&c.reading).unwrap_or_else(|| hints::household(c.session));
    let loaded = !c.world.loaded(Table::Recipes).is_empty();
    let recipes = step(
        if loaded {
            "Read the saved recipes not loaded yet"
        } else {
            "Read the saved recipes"
        }
        .into(),
        StepType::Read,
        "recipes",
        0,
    );
    let slots = step(
        "Read the meal plan from today on".into(),
        StepType::Read,
        "meal_plans",
        0,
    );
    let (goal, write) = match ask {
        Ask::Look { .. } => {
            return think_ctx::plan(
                "Say what the plan holds on the days asked",
                vec![
                    recipes,
                    step(
                        "Read the meal plan for the days asked".into(),
                        StepType::Read,
                        "meal_plans",
                        0,
                    ),
                ],
            );
        }
        Ask::Put { .. } => (
            "Put the recipes on the plan",
            format!("Save the slots, replacing a day's meal already planned (serves {servings})"),
        ),
        Ask::Swap { .. } => (
            "Swap the day's meal",
            format!("Replace the day's meal with the recipe named (serves {servings})"),
        ),
        Ask::Move { to, .. } => {
            let goal = format!("Move the planned meal to {}", to.word());
            let steps = vec![
                slots,
                step(
                    "Move the planned meal to the day named".into(),
                    StepType::Write,
                    "meal_plans",
                    1,
                ),
            ];
            return think_ctx::plan(&goal, steps);
        }
        Ask::Exchange { .. } => (
            "Swap the two days' meals",
            "Give each day the other day's planned meal".to_string(),
        ),
        Ask::Remove { .. } => (
            "Take the meal off the plan",
            "Take the day's planned meal off the plan".to_string(),
        ),
    };
    let mut steps = Vec::new();
    if !matches!(ask, Ask::Move { .. }) {
        steps.push(recipes);
    }
    steps.push(slots);
    steps.push(step(write, StepType::Write, "meal_plans", 1));
    think_ctx::plan(goal, steps)
}
