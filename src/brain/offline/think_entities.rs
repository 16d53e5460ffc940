//! Think's plans for entities already named by Understand: show the plan,
//! save pending artifacts, edit a recipe, show something, recall what was
//! just added.
//!
//! Same rule as `think.rs`: active rows are analyzed, never read again; a
//! pending artifact not in the row cache is read by its gen ref (the
//! pipeline serves that read from the artifact).

use crate::context::Table;
use crate::pipeline::{StepType, ThinkOutput, ThinkStep};

use super::curate::planning_options;
use super::edits::EditOp;
use super::targets::content_words;
use super::text::join_list;
use super::think_ctx::{Ctx, clarify, labels, op_phrase, plan, step, subdomain};

/// True when a ref's content can be used without a read: its row is in the
/// cache (a pending artifact counts only once it was read this way).
fn in_cache(c: &Ctx<'_>, r: &str) -> bool {
    c.world.state.rows.contains_key(r)
}

/// Reads what is not cached, then analyzes everything (or only analyzes).
fn read_then_show(c: &Ctx<'_>, refs: &[String], table: Table, what: &str) -> Vec<ThinkStep> {
    let sub = subdomain(table);
    let missing: Vec<String> = refs.iter().filter(|r| !in_cache(c, r)).cloned().collect();
    if missing.is_empty() {
        return vec![step(
            format!("Show {what} from what is loaded"),
            StepType::Analyze,
            sub,
            0,
        )];
    }
    let mut steps = vec![step(
        format!("Read {}", labels(c, &missing)),
        StepType::Read,
        sub,
        0,
    )];
    if missing.len() < refs.len() {
        steps.push(step(format!("Show {what}"), StepType::Analyze, sub, 1));
    }
    steps
}

/// "ok back to the meal plan".
pub fn show_plan(c: &Ctx<'_>) -> ThinkOutput {
    let meals: Vec<String> = c
        .world
        .live_of(Table::MealPlans)
        .map(|e| e.r.to_string())
        .collect();
    if !meals.is_empty() {
        let pending = meals
            .iter()
            .all(|r| c.world.get(r).is_some_and(|e| e.e.is_pending()));
        let steps = if pending {
            vec![step(
                "Show the plan from the draft slots".into(),
                StepType::Analyze,
                "meal_plans",
                0,
            )]
        } else {
            read_then_show(c, &meals, Table::MealPlans, "the plan")
        };
        return plan("Pick the meal plan back up", steps);
    }
    if !planning_options(&c.world).is_empty() {
        return plan(
            "Pick the meal planning back up",
            vec![step(recap_description(c), StepType::Analyze, "recipes", 0)],
        );
    }
    plan(
        "Show the upcoming meal plan",
        vec![step(
            "Read the meal plan from today on".into(),
            StepType::Read,
            "meal_plans",
            0,
        )],
    )
}

/// "save it": one write step per table, recipes first.
pub fn save_plan(c: &Ctx<'_>) -> ThinkOutput {
    let targets: Vec<&String> = c
        .referenced
        .iter()
        .filter(|r| c.world.get(r).is_some_and(|e| e.e.is_pending()))
        .collect();
    if targets.is_empty() {
        return plan("Save — nothing is waiting to be saved", vec![]);
    }
    let order = [
        Table::Recipes,
        Table::MealPlans,
        Table::ShoppingList,
        Table::Inventory,
        Table::Tasks,
    ];
    let mut steps = Vec::new();
    for table in order {
        let refs: Vec<String> = targets
            .iter()
            .filter(|r| c.world.get(r).is_some_and(|e| e.e.table == table))
            .map(|r| r.to_string())
            .collect();
        if refs.is_empty() {
            continue;
        }
        let what = if table == Table::MealPlans {
            format!("the plan ({})", labels(c, &refs))
        } else {
            labels(c, &refs)
        };
        let g = steps.len() as u32;
        steps.push(step(
            format!("Save {what}"),
            StepType::Write,
            subdomain(table),
            g,
        ));
    }
    plan(
        &format!(
            "Save {}",
            labels(
                c,
                &targets.iter().map(|r| r.to_string()).collect::<Vec<_>>()
            )
        ),
        steps,
    )
}

/// "add a squeeze of lime", "make it spicier".
pub fn edit_plan(c: &Ctx<'_>, op: &EditOp) -> ThinkOutput {
    let target = c
        .referenced
        .iter()
        .find(|r| c.world.get(r).is_some_and(|e| e.e.table == Table::Recipes));
    let Some(r) = target else {
        let recipes: Vec<String> = c
            .world
            .active_of(Table::Recipes)
            .iter()
            .map(|e| e.e.label.clone())
            .collect();
        let q = match recipes.len() {
            0 => "There's no recipe in front of us yet — which one should I change, or shall I create one?".to_string(),
            _ => format!("Which one do you mean: {}?", join_list(&recipes[..recipes.len().min(4)], "or")),
        };
        return clarify("Change a recipe", q);
    };
    let label = c.world.label(r);
    let change = op_phrase(op);
    let goal = format!("Change {label}: {change}");
    let pending = c.world.get(r).is_some_and(|e| e.e.is_pending());
    if pending {
        return plan(
            &goal,
            vec![step(
                format!("Update {label} ({r}): {change}"),
                StepType::Generate,
                "recipes",
                0,
            )],
        );
    }
    if op
        .parts()
        .iter()
        .all(|p| matches!(p, EditOp::Add(_) | EditOp::Remove(_)))
    {
        return plan(
            &goal,
            vec![step(
                format!("Change the saved {label} ({r}): {change}"),
                StepType::Write,
                "recipes",
                0,
            )],
        );
    }
    let mut steps = Vec::new();
    if c.world.content(r).is_none() {
        steps.push(step(format!("Read {label}"), StepType::Read, "recipes", 0));
    }
    let g = steps.len() as u32;
    steps.push(step(
        format!("Create a new version of {label} ({r}): {change}"),
        StepType::Generate,
        "recipes",
        g,
    ));
    plan(&goal, steps)
}

/// "show me that shakshuka", "show me the paneer tikka".
pub fn show_target_plan(c: &Ctx<'_>) -> ThinkOutput {
    let refs: Vec<String> = c.referenced.to_vec();
    if refs.is_empty() {
        let said = content_words(&c.reading.words.words);
        if said.is_empty() {
            return clarify(
                "Show something",
                "What would you like to see — your recipes, the pantry, or the meal plan?"
                    .to_string(),
            );
        }
        let name = said.join(" ");
        return plan(
            &format!("Find {name}"),
            vec![step(
                format!("Look up \"{name}\" in the saved recipes"),
                StepType::Read,
                "recipes",
                0,
            )],
        );
    }
    let table = c.world.get(&refs[0]).map_or(Table::Recipes, |e| e.e.table);
    let same: Vec<String> = refs
        .iter()
        .filter(|r| c.world.get(r).is_some_and(|e| e.e.table == table))
        .cloned()
        .collect();
    let what = labels(c, &same);
    plan(
        &format!("Show {what}"),
        read_then_show(c, &same, table, &what),
    )
}

/// "Recap the options still in play (the user cooks on Sundays and …)".
fn recap_description(c: &Ctx<'_>) -> String {
    let days = super::plan::cooking_days(&c.session.profile, &c.session.preferences);
    if days.is_empty() {
        "Recap the options still in play".to_string()
    } else {
        format!(
            "Recap the options still in play (the user cooks on {})",
            super::plan::days_phrase(&days)
        )
    }
}
