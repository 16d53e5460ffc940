//! Act's analyze and generate steps: conclusions over rows already loaded
//! (options, the plan, the pantry, what isn't saved, what was just added)
//! and new or edited artifacts (recipes, meal-plan slots).
//!
//! No tool calls: each step completes at once. Analyses never mention a ref
//! demoted this turn (a mention would touch it and lift the demotion); they
//! name such recipes by label.

use serde_json::{Map, Value, json};

use crate::context::{RecipeFacts, RefAction, Table};
use crate::pipeline::ActAction;

use super::act_ctx::{ActCtx, complete};
use super::edit_apply::apply_edit;
use super::edits::EditOp;
use super::generate::{GenCtx, generate_recipes};
use super::hints;
use super::lexicon::Intent;
use super::options::{kitchen_names, missing, option_entry, ruled_out_by};
use super::plan::{Slot, days_in, fill_days, meal_type_of, slot_artifact, slot_days, slot_label};
use super::skills::memory::Ask as MemoryAsk;
use super::text::{join_list, plural, stems};
use super::think_ctx::op_phrase;
use super::world::{ingredient_names, text_field};

/// Analyze steps.
pub fn act_analyze(c: &ActCtx<'_>) -> ActAction {
    match (&c.intent, c.req.step.subdomain.as_str()) {
        (Intent::Memory(MemoryAsk::Unsaved), _) => unsaved(c),
        (Intent::Memory(MemoryAsk::Recall), _) => recall(c),
        (Intent::Show, _) => show(c),
        (_, "meal_plans") => plan_view(c),
        (Intent::Pantry(loc), _) => inventory_view(c, loc.as_deref()),
        (Intent::HaveItem(x), _) => have_view(c, x),
        (_, "inventory") => inventory_view(c, None),
        (Intent::FindByIngredient(x), _) => options(c, Some(x)),
        _ => options(c, None),
    }
}

/// Rows of a table: this turn's data first, then loaded active rows.
fn rows_of<'a>(c: &ActCtx<'a>, table: Table, saved_only: bool) -> Vec<(String, &'a Value)> {
    let mut out: Vec<(String, &'a Value)> = Vec::new();
    let mut push = |r: &str, v: &'a Value| {
        let fits = c.world.get(r).is_some_and(|e| {
            e.e.table == table && e.active() && (!saved_only || e.e.row_id.is_some())
        });
        if fits && !out.iter().any(|(x, _)| x == r) {
            out.push((r.to_string(), v));
        }
    };
    for row in c.data_rows() {
        if let Some(r) = row.get("id").and_then(Value::as_str) {
            push(r, row);
        }
    }
    for (r, v) in c.world.loaded(table) {
        push(r, v);
    }
    let seq = |r: &str| c.world.get(r).map_or(u64::MAX, |e| e.e.seq);
    out.sort_by_key(|(r, _)| seq(r));
    out
}

/// The options analysis: viable recipes, what each still needs, and what
/// was ruled out (by ref, or by label when it was demoted this turn).
fn options(c: &ActCtx<'_>, with: Option<&String>) -> ActAction {
    let kitchen = kitchen_names(
        rows_of(c, Table::Inventory, false)
            .into_iter()
            .map(|(_, v)| v)
            .filter(|v| v.is_object()),
    );
    let mut excluded = Map::new();
    for d in &c.req.understand.entity_curation.demote {
        excluded.insert(c.world.label(&d.r#ref), json!(d.reason));
    }
    // Recipes this turn loaded that a standing constraint rules out.
    let constraints = &c.world.state.constraints;
    for row in c.data_rows() {
        let Some(r) = row.get("id").and_then(Value::as_str) else {
            continue;
        };
        let ruled = constraints.covering(r).map(|(k, _)| k).or_else(|| {
            RecipeFacts::from_content(&c.world.label(r), row)
                .and_then(|f| constraints.ruling_out(&f))
        });
        // By label: naming the ref would make the analysis use it.
        if let Some(k) = ruled.filter(|_| r.starts_with("recipe_")) {
            excluded.insert(c.world.label(r), json!(format!("“{}”", k.clause)));
        }
    }
    // What the message rules out by name; what it asks to keep to ("only
    // thai", "vegetarian") is judged by the standing constraints above.
    let exclusions: Vec<_> = match &c.intent {
        Intent::Exclude(ex) => ex
            .iter()
            .filter(|e| e.how != super::items::Refusal::Requires)
            .cloned()
            .collect(),
        _ => Vec::new(),
    };
    // Ruling something out narrows the list just shown, not every recipe.
    let listed = &c.reading.before.listed;
    let narrowing = matches!(c.intent, Intent::Exclude(_)) && !listed.is_empty();
    let mut entries = Vec::new();
    for (r, row) in &rows_of(c, Table::Recipes, true) {
        if narrowing && !listed.contains(r) {
            continue;
        }
        let label = c.world.label(r);
        if excluded.contains_key(label.as_str()) {
            continue;
        }
        if let Some(why) = exclusions.iter().find_map(|e| ruled_out_by(row, &label, e)) {
            excluded.insert(r.clone(), json!(why));
        } else if with.is_none_or(|x| uses(row, x)) {
            let miss = missing(row, &kitchen);
            if c.intent == Intent::WhatCanIMake && !fits(row, &miss, &c.reading.make) {
                continue;
            }
            entries.push((miss.len(), option_entry(r, row, &miss)));
        }
    }
    if c.intent == Intent::WhatCanIMake {
        entries.sort_by_key(|(n, _)| *n);
    }
    let viable: Vec<&str> = entries
        .iter()
        .filter_map(|(_, e)| e["ref"].as_str())
        .collect();
    let terms: Vec<String> = exclusions.iter().map(|e| e.term.clone()).collect();
    let summary = if terms.is_empty() {
        format!("{} to choose from", plural(viable.len(), "recipe"))
    } else {
        let without = join_list(&terms, "or");
        format!("{} fit without {without}", plural(viable.len(), "recipe"))
    };
    let data = json!({
        "kind": "options",
        "viable": viable,
        "options": entries.iter().map(|(_, e)| e).collect::<Vec<_>>(),
        "excluded": excluded,
        "terms": terms,
        "kitchen_checked": !kitchen.is_empty(),
    });
    let note = format!("{summary}; the user picks or narrows further");
    complete(summary, data, Some(note))
}

/// True when a recipe fits what "what can i make" was narrowed to: quick
/// enough, nothing to buy, no heat.
fn fits(row: &Value, missing: &[String], within: &super::reader::acts::MakeFilter) -> bool {
    let minutes = super::world::num_field(row, "prep_time_minutes").unwrap_or(0.0)
        + super::world::num_field(row, "cook_time_minutes").unwrap_or(0.0);
    within.minutes.is_none_or(|m| minutes <= f64::from(m))
        && (!within.stocked || missing.is_empty())
        && (!within.mild
            || !ingredient_names(row)
                .iter()
                .any(|n| crate::context::taxonomy::is_hot(n)))
}

/// True when a recipe row uses the named ingredient.
fn uses(row: &Value, x: &str) -> bool {
    let xs = stems(x);
    ingredient_names(row)
        .iter()
        .any(|n| xs.iter().all(|w| stems(n).contains(w)))
}

/// What a "show" asks for, in full.
fn show(c: &ActCtx<'_>) -> ActAction {
    let refs = c.req.understand.referenced_entities.clone();
    let mut items = Vec::new();
    for r in &refs {
        if let Some(v) = c.data_row(r).or_else(|| c.world.content(r)) {
            let mut v = v.clone();
            if let Value::Object(m) = &mut v {
                m.insert("id".into(), json!(r));
            }
            items.push(v);
        }
    }
    let labels: Vec<String> = refs.iter().map(|r| c.world.label(r)).collect();
    complete(
        format!("Showing {}", join_list(&labels, "and")),
        json!({"kind": "show", "items": items}),
        None,
    )
}

/// The plan's slots, by date, with recipe names.
fn plan_view(c: &ActCtx<'_>) -> ActAction {
    let mut slots: Vec<Value> = Vec::new();
    let meals: Vec<String> = c
        .world
        .live_of(Table::MealPlans)
        .map(|e| e.r.to_string())
        .collect();
    for r in meals {
        let Some(row) = c.data_row(&r).or_else(|| c.world.content(&r)) else {
            continue;
        };
        let recipe = text_field(row, "recipe_id").unwrap_or_default().to_string();
        slots.push(json!({
            "ref": r,
            "date": text_field(row, "date"),
            "meal_type": text_field(row, "meal_type"),
            "slot": slot_label(row),
            "recipe_id": recipe,
            "recipe_name": c.world.label(&recipe),
            "saved": c.world.get(&r).is_some_and(|e| !e.e.is_pending()),
        }));
    }
    slots.sort_by(|a, b| a["date"].as_str().cmp(&b["date"].as_str()));
    let summary = format!("{} planned", plural(slots.len(), "meal"));
    complete(summary, json!({"kind": "plan", "slots": slots}), None)
}

/// The inventory at a location, from this turn's rows and loaded ones.
fn inventory_view(c: &ActCtx<'_>, loc: Option<&str>) -> ActAction {
    let items: Vec<Value> = rows_of(c, Table::Inventory, false)
        .into_iter()
        .filter(|(_, v)| loc.is_none_or(|l| text_field(v, "location") == Some(l)))
        .map(|(r, v)| {
            json!({"ref": r, "name": text_field(v, "name"), "quantity": v.get("quantity"),
                   "unit": text_field(v, "unit"), "location": text_field(v, "location")})
        })
        .collect();
    let place = loc.unwrap_or("kitchen");
    let summary = format!("{} in the {place}", plural(items.len(), "item"));
    complete(
        summary,
        json!({"kind": "inventory", "location": loc, "items": items}),
        None,
    )
}

/// "do I have eggs?" over the loaded inventory.
fn have_view(c: &ActCtx<'_>, x: &str) -> ActAction {
    let want = stems(x);
    let items: Vec<Value> = rows_of(c, Table::Inventory, false)
        .into_iter()
        .map(|(_, v)| v)
        .filter(|v| {
            let name = stems(text_field(v, "name").unwrap_or_default());
            want.iter().all(|w| name.contains(w))
        })
        .cloned()
        .collect();
    let summary = format!("{} matching {x}", plural(items.len(), "item"));
    complete(
        summary,
        json!({"kind": "inventory", "location": null, "items": items}),
        None,
    )
}

/// What was created last, from memory (no read).
fn recall(c: &ActCtx<'_>) -> ActAction {
    let items: Vec<Value> = c
        .world
        .last_created()
        .iter()
        .map(|e| {
            let mut m = Map::new();
            m.insert("ref".into(), json!(e.r));
            m.insert("label".into(), json!(e.e.label));
            m.insert("type".into(), json!(e.e.table.entity_type()));
            if let Some(row) = c.world.content(e.r) {
                for k in ["quantity", "unit", "location", "date", "meal_type"] {
                    if let Some(v) = row.get(k) {
                        m.insert(k.into(), v.clone());
                    }
                }
            }
            Value::Object(m)
        })
        .collect();
    let labels: Vec<String> = items
        .iter()
        .filter_map(|v| v["label"].as_str().map(String::from))
        .collect();
    let summary = if labels.is_empty() {
        "Nothing added yet".to_string()
    } else {
        format!("Last added: {}", join_list(&labels, "and"))
    };
    complete(summary, json!({"kind": "recall", "items": items}), None)
}

/// What isn't saved yet: the pending artifacts, straight from the registry.
fn unsaved(c: &ActCtx<'_>) -> ActAction {
    let pending: Vec<Value> = c
        .world
        .pending()
        .iter()
        .map(|e| {
            let recipe = c
                .world
                .content(e.r)
                .and_then(|v| text_field(v, "recipe_id"))
                .map(|r| format!(" — {}", c.world.label(r)))
                .unwrap_or_default();
            json!({"ref": e.r, "label": format!("{}{recipe}", e.e.label), "type": e.e.table.entity_type()})
        })
        .collect();
    let saved: Vec<Value> = c
        .world
        .ents
        .iter()
        .filter(|e| e.e.promoted_turn.is_some() && e.e.action != RefAction::Deleted)
        .map(|e| json!({"label": e.e.label, "type": e.e.table.entity_type()}))
        .collect();
    let summary = format!("{} not saved yet", plural(pending.len(), "item"));
    complete(
        summary,
        json!({"kind": "unsaved", "pending": pending, "saved": saved}),
        None,
    )
}

/// Generate steps.
pub fn act_generate(c: &ActCtx<'_>) -> ActAction {
    match (&c.intent, c.req.step.subdomain.as_str()) {
        (_, "meal_plans") => meal_plan(c),
        (Intent::Edit(op), _) => edit(c, op),
        (Intent::Generate(ask), _) => {
            let d = &c.req.step.description;
            let mut avoid = hints::avoid_of(d);
            avoid.without.extend(ask.without.iter().cloned());
            let ctx = GenCtx {
                servings: hints::serves(d).unwrap_or(2),
                avoid,
                taken: c
                    .world
                    .of(Table::Recipes)
                    .map(|e| e.e.label.clone())
                    .collect(),
            };
            let recipes = generate_recipes(ask, &ctx);
            let names: Vec<String> = recipes
                .iter()
                .filter_map(|r| r["name"].as_str().map(String::from))
                .collect();
            let summary = format!("Created {} (not saved yet)", join_list(&names, "and"));
            complete(
                summary,
                json!({"artifacts": recipes}),
                Some("generated, not saved yet".into()),
            )
        }
        _ => complete("Nothing to create".into(), Value::Null, None),
    }
}

/// The slots to draft: Understand's recipes (or the one looked up by name
/// this turn) paired with the days Think wrote into the step.
fn plan_slots(c: &ActCtx<'_>) -> Result<Vec<Slot>, ActAction> {
    let mut recipes = c.referenced_in(Table::Recipes);
    let clauses = super::plan::named_clauses(&c.reading.words);
    if recipes.is_empty() && clauses.len() > 1 {
        return looked_up_slots(c, &clauses);
    }
    if recipes.is_empty() {
        recipes.extend(
            c.data_rows()
                .into_iter()
                .filter_map(|v| v.get("id").and_then(Value::as_str))
                .find(|r| c.world.get(r).is_some_and(|e| e.e.table == Table::Recipes))
                .map(String::from),
        );
    }
    let days = slot_days(&days_in(&c.req.step.description), &[], recipes.len());
    let said_with = |r: &str| {
        let u = &c.req.understand;
        u.entity_mentions
            .iter()
            .find(|m| m.resolved_ref.as_deref() == Some(r))
            .map(|m| m.text.clone())
            .unwrap_or_else(|| c.reading.words.joined())
    };
    // One recipe with several days said goes on each of them.
    Ok(recipes
        .iter()
        .cycle()
        .zip(days)
        .map(|(r, day)| Slot {
            recipe: r.clone(),
            recipe_label: c.world.label(r),
            day,
            meal_type: meal_type_of(&said_with(r)),
        })
        .collect())
}

/// Each clause's recipe among the rows this turn read, on the clause's
/// day: one recipe per clause, or a short question when a clause fits
/// several ("Which curry for Wednesday: Kerala Cod Curry or Thai Yellow
/// Curry?").
fn looked_up_slots(
    c: &ActCtx<'_>,
    clauses: &[(Vec<String>, Option<u8>)],
) -> Result<Vec<Slot>, ActAction> {
    let rows: Vec<(String, String)> = c
        .data_rows()
        .into_iter()
        .filter_map(|v| {
            let r = v.get("id")?.as_str()?;
            let name = v.get("name")?.as_str()?;
            (c.world.get(r).is_some_and(|e| e.e.table == Table::Recipes))
                .then(|| (r.to_string(), name.to_string()))
        })
        .collect();
    let named: Vec<u8> = clauses.iter().filter_map(|(_, d)| *d).collect();
    let days = fill_days(&named, &[], clauses.len());
    let mut out = Vec::new();
    for (i, (words, day)) in clauses.iter().enumerate() {
        let day = day.unwrap_or(days[i.min(days.len().saturating_sub(1))]);
        let fits: Vec<&(String, String)> = rows
            .iter()
            .filter(|(_, name)| {
                let stems = super::text::stems(name);
                words.iter().all(|w| {
                    stems
                        .iter()
                        .any(|s| super::text::near(s, &super::text::stem(w)))
                })
            })
            .collect();
        match fits.as_slice() {
            [] => {}
            [(r, name)] => out.push(Slot {
                recipe: r.clone(),
                recipe_label: name.clone(),
                day,
                meal_type: meal_type_of(&words.join(" ")),
            }),
            many => {
                let names: Vec<String> = many.iter().map(|(_, n)| n.clone()).collect();
                return Err(ActAction::AskUser {
                    question: format!(
                        "Which {} for {}: {}?",
                        words.join(" "),
                        super::text::weekday_name(day),
                        join_list(&names, "or")
                    ),
                });
            }
        }
    }
    Ok(out)
}

/// One `meal_plans` artifact per chosen recipe; a slot already drafted for
/// the same date and meal is edited in place.
fn meal_plan(c: &ActCtx<'_>) -> ActAction {
    let slots = match plan_slots(c) {
        Ok(slots) => slots,
        Err(question) => return question,
    };
    if slots.is_empty() {
        return complete(
            "No recipe matched, so nothing was planned".into(),
            Value::Null,
            None,
        );
    }
    let servings = hints::serves(&c.req.step.description).unwrap_or(2);
    let drafts: Vec<(String, Value)> = c
        .world
        .pending()
        .iter()
        .filter(|e| e.e.table == Table::MealPlans)
        .filter_map(|e| Some((e.r.to_string(), c.world.content(e.r)?.clone())))
        .collect();
    let mut new = Vec::new();
    let mut data = Map::new();
    let mut labels = Vec::new();
    for slot in &slots {
        let Some(a) = slot_artifact(slot, c.req.input.today, servings) else {
            continue;
        };
        labels.push(format!("{} {}", slot_label(&a), slot.recipe_label));
        let same = drafts.iter().find(|(_, v)| {
            v.get("date") == a.get("date") && v.get("meal_type") == a.get("meal_type")
        });
        match same {
            Some((g, _)) => {
                data.insert(g.clone(), a);
            }
            None => new.push(a),
        }
    }
    if labels.is_empty() {
        return complete("Could not work out the dates".into(), Value::Null, None);
    }
    if !new.is_empty() {
        data.insert("artifacts".into(), Value::Array(new));
    }
    let summary = format!(
        "Drafted {}: {} (not saved yet)",
        plural(labels.len(), "slot"),
        labels.join("; ")
    );
    complete(
        summary,
        Value::Object(data),
        Some("plan drafted, not saved yet".into()),
    )
}

/// Edits a pending recipe in place, or makes a new version of a saved one.
fn edit(c: &ActCtx<'_>, op: &EditOp) -> ActAction {
    let Some(r) = c.referenced_in(Table::Recipes).into_iter().next() else {
        return complete("No recipe to change".into(), Value::Null, None);
    };
    let label = c.world.label(&r);
    let from_data = c.data_row(&r);
    let Some(content) = c
        .world
        .state
        .registry
        .artifact(&r)
        .or(from_data)
        .or_else(|| c.world.content(&r))
    else {
        return complete(
            format!("{label} has no content to change"),
            Value::Null,
            None,
        );
    };
    let (mut new, what) = apply_edit(content, op);
    if let Value::Object(m) = &mut new {
        m.retain(|k, _| !k.starts_with('_') && k != "id" && k != "created_at");
    }
    if c.world.get(&r).is_some_and(|e| e.e.is_pending()) {
        let summary = format!("{what} — {label} updated (not saved yet)");
        let mut data = Map::new();
        data.insert(r.clone(), new);
        return complete(summary, Value::Object(data), None);
    }
    if let Value::Object(m) = &mut new {
        m.insert("table".into(), json!("recipes"));
        m.insert("parent_recipe_id".into(), json!(r));
        let name = format!("{label} ({})", op_phrase(op).trim_start_matches("make it "));
        m.insert("name".into(), json!(name));
    }
    let summary = format!("{what} — a new version of {label} (not saved yet)");
    complete(summary, json!({"artifacts": [new]}), None)
}
