//! Act's write steps: save pending artifacts (promoting their gen refs),
//! add or remove inventory and shopping items, change a saved recipe's
//! ingredient lines, and fill the shopping list with what the chosen
//! recipes still need.
//!
//! Each step makes at most three calls and then completes; the rows the
//! calls return become the step's data (the pipeline keeps them).

use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::ActAction;

use super::act_ctx::{ActCtx, call, complete, filter, id_filter};
use super::curate::planning_options;
use super::edit_apply::apply_edit;
use super::edits::EditOp;
use super::items::Item;
use super::lexicon::Intent;
use super::options::{in_kitchen, kitchen_names, same_item};
use super::skills::memory::Ask as MemoryAsk;
use super::text::join_list;
use super::world::{ingredient_names, text_field};

/// Write steps.
pub fn act_write(c: &ActCtx<'_>) -> ActAction {
    let done = c.req.this_step_results.len();
    match (&c.intent, c.req.step.subdomain.as_str()) {
        (Intent::Edit(op), "recipes") => edit_saved(c, op, done),
        (Intent::InventoryAdd(items, loc), _) => inventory_add(c, items, loc.as_deref(), done),
        (Intent::InventoryRemove(items), _) => inventory_remove(c, items, done),
        (Intent::ShoppingMissing, _) => shopping_missing(c, done),
        (Intent::Memory(MemoryAsk::Delete), _) => delete(c, done),
        (_, sub) => save(c, sub, done),
    }
}

fn written_summary(c: &ActCtx<'_>, verb: &str) -> String {
    let rows = c.step_rows();
    let names: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            let named = text_field(r, "name").map(|name| {
                if r.get("quantity").is_some() && r.get("location").is_some() {
                    super::render::ingredient_text(r)
                } else {
                    name.to_string()
                }
            });
            named.or_else(|| {
                r.get("id")
                    .and_then(Value::as_str)
                    .map(|x| c.world.label(x))
            })
        })
        .collect();
    if names.is_empty() {
        "Nothing was written".to_string()
    } else {
        format!("{verb} {}", join_list(&names, "and"))
    }
}

/// "save it": db_create naming each pending artifact by its gen ref.
fn save(c: &ActCtx<'_>, sub: &str, done: usize) -> ActAction {
    let table = match sub {
        "meal_plans" => Table::MealPlans,
        "shopping" => Table::ShoppingList,
        "inventory" => Table::Inventory,
        "tasks" => Table::Tasks,
        _ => Table::Recipes,
    };
    if done > 0 {
        return complete(written_summary(c, "Saved"), Value::Null, None);
    }
    let targets: Vec<String> = c
        .referenced_in(table)
        .into_iter()
        .filter(|r| c.world.get(r).is_some_and(|e| e.e.is_pending()))
        .collect();
    if targets.is_empty() {
        return complete("Nothing was waiting to be saved".into(), Value::Null, None);
    }
    let data: Vec<Value> = targets.iter().map(|r| json!({"ref": r})).collect();
    call("db_create", json!({"table": table.name(), "data": data}))
}

/// Where an item usually lives when the user did not say, from its name's
/// words (never a part of a word: "rice" holds "ice" and lives in the
/// pantry).
fn default_location(name: &str) -> &'static str {
    const COLD: &[&str] = &[
        "egg",
        "milk",
        "butter",
        "cheese",
        "yogurt",
        "yoghurt",
        "paneer",
        "feta",
        "cream",
        "chicken",
        "beef",
        "pork",
        "lamb",
        "fish",
        "salmon",
        "cod",
        "prawn",
        "tofu",
        "spinach",
        "herb",
        "coriander",
        "basil",
        "lettuce",
        "ham",
        "mince",
    ];
    // Words that keep a food on the shelf whatever else the name says
    // ("coconut milk", "peanut butter", "chicken stock", "dried basil").
    const SHELF: &[&str] = &[
        "coconut", "paste", "sauce", "peanut", "stock", "powder", "dried", "ground", "oil",
        "tinned", "canned",
    ];
    let words: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| crate::context::taxonomy::singular(&w.to_lowercase()))
        .collect();
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    if has(SHELF) {
        "pantry"
    } else if has(&["frozen", "ice"]) {
        "freezer"
    } else if has(COLD) {
        "fridge"
    } else {
        "pantry"
    }
}

/// "add 12 eggs to my fridge": new rows are created; an item already in
/// the loaded inventory (same item, place and unit) is topped up instead.
fn inventory_add(c: &ActCtx<'_>, items: &[Item], loc: Option<&str>, done: usize) -> ActAction {
    // "put half the paneer in the freezer": a share of what is there is
    // no amount to add.
    if done == 0
        && let Some(i) = items.iter().find(|i| {
            matches!(
                i.amount,
                super::quantity::Quantity::Share { .. } | super::quantity::Quantity::All
            )
        })
    {
        let place = loc.map_or("the kitchen".to_string(), |l| format!("the {l}"));
        return ActAction::AskUser {
            question: format!("How much {} should I add to {place}?", i.name),
        };
    }
    // The kitchen as it was before this step: the calls are worked out
    // again each iteration, and a row this step created is not one to top
    // up ("4 tomatoes and a bunch of thai basil" created the basil, then
    // topped it up to 2 bunches).
    let made: Vec<&Value> = c
        .step_rows()
        .into_iter()
        .filter_map(|r| r.get("id"))
        .collect();
    let rows: Vec<&Value> = c
        .inventory_rows()
        .into_iter()
        .filter(|r| r.get("id").is_none_or(|id| !made.contains(&id)))
        .collect();
    let mut calls = Vec::new();
    let mut fresh = Vec::new();
    for i in items {
        let unit = i.unit_or_default();
        let place = loc.unwrap_or_else(|| default_location(&i.name));
        let quantity = i.quantity.unwrap_or(1.0);
        // Unsaid, the place is wherever the kitchen already keeps it.
        let same = rows.iter().find(|r| {
            same_item(text_field(r, "name").unwrap_or_default(), &i.name)
                && loc.is_none_or(|l| text_field(r, "location") == Some(l))
                && text_field(r, "unit") == Some(unit.as_str())
        });
        match same.and_then(|r| Some((r.get("id")?.as_str()?, r))) {
            // More of what is there: a change by the amount bought, so
            // another session's change to the same row meanwhile is kept.
            Some((r, _)) => {
                calls.push(json!({"tool": "db_update", "params": {"table": "inventory",
                    "filters": [filter("id", "=", json!(r))], "data": {"quantity": {"add": quantity}}}}));
            }
            None => fresh.push(
                json!({"name": i.name, "quantity": quantity, "unit": unit, "location": place}),
            ),
        }
    }
    if !fresh.is_empty() {
        calls.insert(
            0,
            json!({"tool": "db_create", "params": {"table": "inventory", "data": fresh}}),
        );
    }
    calls.truncate(3);
    next_call(&calls, done)
        .unwrap_or_else(|| complete(written_summary(c, "Added"), Value::Null, None))
}

/// "we're out of milk": delete the rows that are exactly that item.
fn inventory_remove(c: &ActCtx<'_>, items: &[Item], done: usize) -> ActAction {
    if done > 0 {
        return complete(written_summary(c, "Removed"), Value::Null, None);
    }
    let mut refs: Vec<String> = c
        .inventory_rows()
        .iter()
        .filter(|r| {
            let name = text_field(r, "name").unwrap_or_default();
            items.iter().any(|i| same_item(name, &i.name))
        })
        .filter_map(|r| r.get("id").and_then(Value::as_str).map(String::from))
        .filter(|r| {
            c.world
                .get(r)
                .is_some_and(|e| e.e.table == Table::Inventory)
        })
        .collect();
    refs.sort();
    refs.dedup();
    if refs.is_empty() {
        let names: Vec<String> = items.iter().map(|i| i.name.clone()).collect();
        return complete(
            format!("No {} in the inventory to remove", join_list(&names, "or")),
            Value::Null,
            None,
        );
    }
    call(
        "db_delete",
        json!({"table": "inventory", "filters": [id_filter(&refs)]}),
    )
}

/// Adds or removes ingredient lines of a saved recipe (new lines created,
/// existing ones given their new quantity, removed ones deleted), then
/// rewrites its instructions to match: at most three calls.
fn edit_saved(c: &ActCtx<'_>, op: &EditOp, done: usize) -> ActAction {
    let Some(r) = c.referenced_in(Table::Recipes).into_iter().next() else {
        return complete("No recipe to change".into(), Value::Null, None);
    };
    let label = c.world.label(&r);
    let content = c.world.content(&r).cloned().unwrap_or(Value::Null);
    let (new, summary) = apply_edit(&content, op);
    // An edit that changes nothing ("it had no tomatoes to take out")
    // writes nothing, so the reply cannot claim it did. (Once this step
    // has written, the content is the changed one.)
    if done == 0 && new == content {
        return complete(summary, Value::Null, None);
    }
    let mut calls = line_calls(&r, &content, &new, op);
    calls.truncate(2);
    // Always last: set the instructions, or, when only lines were added
    // (the saved steps stay the user's own) or the steps did not change,
    // read the recipe back. Either answer is the recipe row with its new
    // lines, which refreshes the cached row.
    let additive = op.parts().iter().all(|p| matches!(p, EditOp::Add(_)));
    let id = [id_filter(std::slice::from_ref(&r))];
    if additive || new.get("instructions") == content.get("instructions") {
        calls.push(json!({"tool": "db_read", "params": {"table": "recipes", "filters": id}}));
    } else {
        calls.push(
            json!({"tool": "db_update", "params": {"table": "recipes", "filters": id,
            "data": {"instructions": new.get("instructions").cloned().unwrap_or(json!([]))}}}),
        );
    }
    // Once written, the recipe has been read back with the change in it:
    // applying the change again would describe something else, so the
    // outcome says the change asked for.
    next_call(&calls, done).unwrap_or_else(|| {
        let did = op.past(Some(&label));
        let mut chars = did.chars();
        let did: String = chars
            .next()
            .into_iter()
            .flat_map(char::to_uppercase)
            .chain(chars)
            .collect();
        complete(format!("{did} (saved)"), Value::Null, None)
    })
}

/// The next of a step's planned calls (`{tool, params}`), once `done` ran.
fn next_call(calls: &[Value], done: usize) -> Option<ActAction> {
    let next = calls.get(done)?;
    Some(call(
        next["tool"].as_str().unwrap_or_default(),
        next["params"].clone(),
    ))
}

fn line_names(v: &Value) -> Vec<(String, Value)> {
    v.get("ingredients")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|l| Some((l.get("name")?.as_str()?.to_string(), l.clone())))
                .collect()
        })
        .unwrap_or_default()
}

/// The recipe_ingredients calls that turn `old` lines into `new` ones.
fn line_calls(r: &str, old: &Value, new: &Value, op: &EditOp) -> Vec<Value> {
    let before = line_names(old);
    let after = line_names(new);
    let mut out = Vec::new();
    let created: Vec<Value> = after
        .iter()
        .filter(|(n, _)| !before.iter().any(|(b, _)| b == n))
        .map(|(n, l)| json!({"recipe_id": r, "name": n, "quantity": l.get("quantity"), "unit": l.get("unit")}))
        .collect();
    if !created.is_empty() {
        out.push(json!({"tool": "db_create", "params": {"table": "recipe_ingredients", "data": created}}));
    }
    for (n, l) in &after {
        let Some((_, b)) = before.iter().find(|(x, _)| x == n) else {
            continue;
        };
        if b.get("quantity") != l.get("quantity") {
            out.push(
                json!({"tool": "db_update", "params": {"table": "recipe_ingredients",
                "filters": [filter("recipe_id", "=", json!(r)), filter("name", "=", json!(n))],
                "data": {"quantity": l.get("quantity")}}}),
            );
        }
    }
    if op
        .parts()
        .iter()
        .any(|p| matches!(p, EditOp::Remove(_) | EditOp::Swap { .. }))
    {
        for (n, _) in before
            .iter()
            .filter(|(n, _)| !after.iter().any(|(a, _)| a == n))
        {
            out.push(
                json!({"tool": "db_delete", "params": {"table": "recipe_ingredients",
                "filters": [filter("recipe_id", "=", json!(r)), filter("name", "=", json!(n))]}}),
            );
        }
    }
    out
}

/// The recipes whose missing ingredients go on the shopping list: the
/// plan's, else the options in play, else the recipe in focus.
fn chosen_recipes(c: &ActCtx<'_>) -> Vec<String> {
    let mut out: Vec<String> = c
        .world
        .live_of(Table::MealPlans)
        .filter_map(|m| {
            c.world
                .content(m.r)?
                .get("recipe_id")?
                .as_str()
                .map(String::from)
        })
        .collect();
    if out.is_empty() {
        out = planning_options(&c.world);
    }
    if out.is_empty() {
        out.extend(super::reading::focused_recipe(&c.world));
    }
    out.dedup();
    out
}

fn shopping_missing(c: &ActCtx<'_>, done: usize) -> ActAction {
    if done > 0 {
        return complete(written_summary(c, "Added"), Value::Null, None);
    }
    let kitchen = kitchen_names(c.inventory_rows());
    let mut items: Vec<Value> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for r in chosen_recipes(c) {
        let Some(content) = c.world.content(&r) else {
            continue;
        };
        for n in ingredient_names(content) {
            if in_kitchen(&n, &kitchen) || names.contains(&n) {
                continue;
            }
            names.push(n.clone());
            items.push(json!({"name": n, "quantity": 1, "unit": "pack", "source": "recipe",
                              "notes": format!("for {}", c.world.label(&r)), "is_purchased": false}));
        }
    }
    if items.is_empty() {
        return complete(
            "The kitchen already has everything".into(),
            Value::Null,
            None,
        );
    }
    call(
        "db_create",
        json!({"table": "shopping_list", "data": items}),
    )
}

/// "delete the fajitas": db_delete of the saved rows Understand named.
fn delete(c: &ActCtx<'_>, done: usize) -> ActAction {
    if done > 0 {
        return complete(written_summary(c, "Deleted"), Value::Null, None);
    }
    let refs: Vec<String> = c
        .req
        .understand
        .referenced_entities
        .iter()
        .filter(|r| c.world.get(r).is_some_and(|e| e.e.row_id.is_some()))
        .cloned()
        .collect();
    let Some(table) = refs.first().and_then(|r| c.world.get(r)).map(|e| e.e.table) else {
        return complete("Nothing to delete".into(), Value::Null, None);
    };
    call(
        "db_delete",
        json!({"table": table.name(), "filters": [id_filter(&refs)]}),
    )
}

#[cfg(test)]
mod tests {
    use super::default_location;

    #[test]
    fn an_items_usual_place_is_read_from_whole_words() {
        for (name, place) in [
            ("rice", "pantry"),
            ("basmati rice", "pantry"),
            ("lemon juice", "pantry"),
            ("ice cream", "freezer"),
            ("frozen peas", "freezer"),
            ("eggs", "fridge"),
            ("greek yogurt", "fridge"),
            ("coconut milk", "pantry"),
            ("peanut butter", "pantry"),
            ("chicken stock", "pantry"),
            ("chicken thighs", "fridge"),
        ] {
            assert_eq!(default_location(name), place, "{name}");
        }
    }
}
