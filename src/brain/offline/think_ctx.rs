//! What every planning rule reads and builds: the context (the world at
//! the turn, the message's reading, the session, Understand's refs) and
//! the step, plan and question builders.

use crate::context::Table;
use crate::pipeline::StepType;
use crate::pipeline::{Decision, ThinkOutput, ThinkStep};
use crate::prompt::SessionContext;

use super::edits::EditOp;
use super::reading::Reading;
use super::text::join_list;
use super::world::World;

/// Everything a planning rule looks at.
pub struct Ctx<'a> {
    pub world: World<'a>,
    pub reading: Reading,
    pub session: &'a SessionContext,
    pub referenced: &'a [String],
}

/// A step.
pub fn step(description: String, step_type: StepType, subdomain: &str, group: u32) -> ThinkStep {
    ThinkStep {
        description,
        step_type,
        subdomain: subdomain.to_string(),
        group,
    }
}

/// A plan that runs now.
pub fn plan(goal: &str, steps: Vec<ThinkStep>) -> ThinkOutput {
    ThinkOutput {
        goal: goal.to_string(),
        decision: Decision::PlanDirect,
        steps,
        ..ThinkOutput::default()
    }
}

/// A question before anything runs.
pub fn clarify(goal: &str, question: String) -> ThinkOutput {
    ThinkOutput {
        goal: goal.to_string(),
        decision: Decision::Clarify,
        clarification_questions: vec![question],
        ..ThinkOutput::default()
    }
}

/// The label of a recipe-changing operation, for goals and descriptions.
pub fn op_phrase(op: &EditOp) -> String {
    match op {
        EditOp::Add(items) => format!(
            "add {}",
            join_list(
                &items.iter().map(|i| i.phrase.clone()).collect::<Vec<_>>(),
                "and"
            )
        ),
        EditOp::Remove(n) => format!("take out the {}", join_list(n, "and")),
        EditOp::Swap { from, to } => format!("swap the {from} for {to}"),
        EditOp::Scale { servings } => format!("scale it to {servings} servings"),
        EditOp::Double => "double it".to_string(),
        EditOp::Halve => "halve it".to_string(),
        EditOp::Spicier => "make it spicier".to_string(),
        EditOp::Milder => "make it milder".to_string(),
        EditOp::Vegetarian => "make it vegetarian".to_string(),
        EditOp::Several(ops) => join_list(&ops.iter().map(op_phrase).collect::<Vec<_>>(), "and"),
    }
}

/// The subdomain of a table.
pub fn subdomain(table: Table) -> &'static str {
    match table {
        Table::Recipes | Table::RecipeIngredients | Table::Ingredients => "recipes",
        Table::Inventory => "inventory",
        Table::ShoppingList => "shopping",
        Table::MealPlans => "meal_plans",
        Table::Tasks => "tasks",
        Table::Preferences => "preferences",
    }
}

/// The labels of refs, as a list ("A, B and C").
pub fn labels(c: &Ctx<'_>, refs: &[String]) -> String {
    join_list(
        &refs.iter().map(|r| c.world.label(r)).collect::<Vec<_>>(),
        "and",
    )
}
