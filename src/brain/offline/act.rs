//! Act, the step executor: for each iteration of a step, the next CRUD call
//! or the step's completion. Read and write steps are here; analyze and
//! generate steps (no tool calls) are in `act_make.rs`.
//!
//! A step re-derives what to do from the intent (the same reading Think
//! used), Understand's resolved refs and the step itself, so no hidden
//! channel is needed. A refused call is never retried blindly: the step
//! stops with the refusal as its reason.

use crate::context::archive::SEARCH_HISTORY;
use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::{ActAction, ActRequest, BlockedReason, StepType};

use super::act_ctx::{ActCtx, call, complete, filter, id_filter};
use super::act_make::{act_analyze, act_generate};
use super::act_write::act_write;
use super::lexicon::Intent;
use super::reading::after_understand;
use super::text::{plural, stems};

/// Act's decision for one iteration of a step.
pub fn decide(req: &ActRequest<'_>) -> ActAction {
    if let Some(err) = req.last_error {
        return ActAction::Blocked {
            reason_code: BlockedReason::ToolFailure,
            details: format!("the kitchen refused the call: {err}"),
        };
    }
    let (world, reading, intent) = after_understand(
        req.input.user_message,
        req.input.snapshot,
        req.state,
        req.understand,
    );
    let mut c = ActCtx {
        req,
        world,
        reading,
        intent,
    };
    for_its_part(&mut c);
    if let Intent::Skill(ask) = &c.intent {
        return super::skills::act(ask, &c);
    }
    match req.step.step_type {
        StepType::Read => act_read(&c),
        StepType::Write => act_write(&c),
        StepType::Analyze => act_analyze(&c),
        StepType::Generate => act_generate(&c),
    }
}

/// A message of several requests: the step is one part's, by its group,
/// and acts on that part's reading. What an earlier part planned is what a
/// later part points at ("put the wings on friday and the paneer on
/// saturday, and add whats missing").
fn for_its_part(c: &mut ActCtx<'_>) {
    let Intent::Several(parts) = &c.intent else {
        return;
    };
    let Some(p) = parts
        .get(super::several::part_of(c.req.step.group))
        .cloned()
    else {
        return;
    };
    let planned: Vec<String> = c
        .data_rows()
        .into_iter()
        .filter(|row| row.get("recipe_id").is_some())
        .filter_map(|row| row.get("id").and_then(Value::as_str).map(String::from))
        .collect();
    c.reading = c.reading.part(&p);
    c.intent = p.intent;
    if !planned.is_empty() {
        if planned.len() >= 2 {
            c.reading.before.listed = planned.clone();
        }
        c.reading.before.presented = planned;
    }
}

/// Read steps: one call, then complete with a count.
fn act_read(c: &ActCtx<'_>) -> ActAction {
    let results = c.req.this_step_results;
    if !results.is_empty() {
        let rows: usize = results.iter().map(|r| r.count).sum();
        let table = results.last().map_or(Table::Recipes, |r| r.table);
        let served = results
            .iter()
            .any(|r| r.notes.iter().any(|n| n.contains("not saved yet")));
        let summary = match (rows, served) {
            (0, _) => format!("No {} matched", table.name().replace('_', " ")),
            (n, true) => format!("Read {} (not saved yet)", plural(n, "generated item")),
            (n, false) => format!("Found {}", plural(n, noun(table))),
        };
        return complete(summary, Value::Null, None);
    }
    if c.req.step.subdomain == "history" {
        if c.req.input.this_step_calls.is_empty() {
            return call(SEARCH_HISTORY, json!({"query": c.req.input.user_message}));
        }
        let found = c.req.this_step_history.len();
        let summary = match found {
            0 => "Nothing in the history matched".to_string(),
            n => format!("Found {} in the history", plural(n, "match")),
        };
        return complete(summary, Value::Null, None);
    }
    let params = match c.req.step.subdomain.as_str() {
        "recipes" => read_recipes(c),
        "inventory" => read_inventory(c),
        "meal_plans" => read_meal_plans(c),
        "shopping" => {
            json!({"table": "shopping_list", "filters": [filter("is_purchased", "=", json!(false))]})
        }
        other => json!({"table": other}),
    };
    call("db_read", params)
}

fn noun(table: Table) -> &'static str {
    match table {
        Table::Recipes => "recipe",
        Table::Inventory => "item",
        Table::MealPlans => "meal-plan slot",
        Table::ShoppingList => "shopping item",
        Table::Tasks => "task",
        _ => "row",
    }
}

fn read_recipes(c: &ActCtx<'_>) -> Value {
    let targets = c.referenced_in(Table::Recipes);
    let uncached: Vec<String> = targets
        .iter()
        .filter(|r| !c.world.state.rows.contains_key(r.as_str()))
        .cloned()
        .collect();
    match &c.intent {
        Intent::Show | Intent::Edit(_) if !uncached.is_empty() => {
            json!({"table": "recipes", "filters": [id_filter(&uncached)]})
        }
        // Several recipes named clause by clause, none loaded: each read
        // at once, by any of their words; the draft step tells them apart.
        Intent::Show | Intent::Assign => {
            let clauses = super::plan::named_clauses(&c.reading.words);
            if c.intent == Intent::Assign && clauses.len() > 1 {
                let or: Vec<Value> = clauses
                    .into_iter()
                    .flat_map(|(words, _)| words)
                    .map(|w| filter("name", "ilike", json!(format!("%{w}%"))))
                    .collect();
                return json!({"table": "recipes", "or_filters": or});
            }
            // Every named word must appear in the name ("pad … ew").
            let filters: Vec<Value> = super::targets::name_words(&c.reading.words.words)
                .iter()
                .map(|w| filter("name", "ilike", json!(format!("%{w}%"))))
                .collect();
            json!({"table": "recipes", "filters": filters})
        }
        // "eggs" finds the recipes that take "egg".
        Intent::FindByIngredient(x) => {
            let like = format!("%{}%", stems(x).join(" "));
            json!({"table": "recipes", "filters": [filter("ingredients", "ilike", json!(like))]})
        }
        // "show me my recipes" lists the store as it is, not memory.
        Intent::ListRecipes if c.reading.lists_everything() => json!({"table": "recipes"}),
        _ => {
            let loaded = c.loaded_refs(Table::Recipes, |_| true);
            if loaded.is_empty() {
                json!({"table": "recipes"})
            } else {
                json!({"table": "recipes", "filters": [filter("id", "not_in", json!(loaded))]})
            }
        }
    }
}

fn read_inventory(c: &ActCtx<'_>) -> Value {
    match &c.intent {
        Intent::Pantry(loc) => {
            let at = |row: &Value| {
                loc.as_deref()
                    .is_none_or(|l| row.get("location").and_then(Value::as_str) == Some(l))
            };
            let loaded = c.loaded_refs(Table::Inventory, at);
            let mut filters = Vec::new();
            if let Some(l) = loc {
                filters.push(filter("location", "=", json!(l)));
            }
            if !loaded.is_empty() {
                filters.push(filter("id", "not_in", json!(loaded)));
            }
            json!({"table": "inventory", "filters": filters})
        }
        Intent::HaveItem(x) => {
            let like = format!("%{}%", stems(x).join(" "));
            json!({"table": "inventory", "filters": [filter("name", "ilike", json!(like))]})
        }
        Intent::InventoryRemove(items) | Intent::InventoryAdd(items, _) => {
            let ors: Vec<Value> = items
                .iter()
                .map(|i| {
                    filter(
                        "name",
                        "ilike",
                        json!(format!("%{}%", stems(&i.name).join(" "))),
                    )
                })
                .collect();
            json!({"table": "inventory", "or_filters": ors})
        }
        _ => {
            let loaded = c.loaded_refs(Table::Inventory, |_| true);
            if loaded.is_empty() {
                json!({"table": "inventory"})
            } else {
                json!({"table": "inventory", "filters": [filter("id", "not_in", json!(loaded))]})
            }
        }
    }
}

fn read_meal_plans(c: &ActCtx<'_>) -> Value {
    let refs: Vec<String> = c
        .referenced_in(Table::MealPlans)
        .into_iter()
        .filter(|r| !c.world.state.rows.contains_key(r.as_str()))
        .collect();
    if refs.is_empty() {
        json!({
            "table": "meal_plans",
            "filters": [filter("date", ">=", json!(c.req.input.today))],
            "order_by": "date",
        })
    } else {
        json!({"table": "meal_plans", "filters": [id_filter(&refs)], "order_by": "date"})
    }
}
