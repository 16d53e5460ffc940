//! Think for tasks: read what is needed, then change one task.

use crate::pipeline::{StepType, ThinkOutput};

use super::super::super::think_ctx::{self, step};
use super::Ask;

/// The plan for a tasks ask.
pub fn plan(ask: &Ask) -> ThinkOutput {
    let read = step("Read the open tasks".into(), StepType::Read, "tasks", 0);
    // Which task is meant is chosen from every task, read now: the reply
    // lists the open ones in full when none fits.
    let rest = step("Read the tasks".into(), StepType::Read, "tasks", 0);
    let then = |d: &str| {
        vec![
            rest.clone(),
            step(d.to_string(), StepType::Write, "tasks", 1),
        ]
    };
    match ask {
        Ask::List { .. } => think_ctx::plan("Show the open tasks", vec![read.clone()]),
        Ask::Add { title, .. } => {
            let d = format!("Add the task \"{title}\"");
            think_ctx::plan(&d, vec![step(d.clone(), StepType::Write, "tasks", 0)])
        }
        Ask::Done { .. } => think_ctx::plan(
            "Mark the task done",
            then("Mark the task the user means done"),
        ),
        Ask::Move { .. } => think_ctx::plan(
            "Move the task to the day the user named",
            then("Set the task's due date to the day the user named"),
        ),
        Ask::Delete { .. } => {
            think_ctx::plan("Delete the task", then("Delete the task the user means"))
        }
    }
}
