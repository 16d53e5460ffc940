//! Act for planning by day: find the recipes meant, then create or replace
//! the day's slot (or move it).

use serde_json::{Value, json};

use crate::context::{QuestionKind, Table};
use crate::pipeline::{ActAction, StepType};

use super::super::super::act_ctx::{ActCtx, call, complete, filter};
use super::super::super::reading::focused_recipe;
use super::super::super::text::{join_list, near, plural, plural_noun, stems};
use super::super::super::world::{recipe_vocabulary, text_field};
use super::super::known_rows;
use super::super::table_of_ref;
use super::super::when::{Day, short_date};
use super::{Ask, Pick};

/// The next call of a planning step, or its completion.
pub fn act(ask: &Ask, c: &ActCtx<'_>) -> ActAction {
    let done = c.req.this_step_results.len();
    match (c.req.step.step_type, c.req.step.subdomain.as_str()) {
        (StepType::Read, "recipes") if done == 0 => {
            let loaded = c.loaded_refs(Table::Recipes, |_| true);
            let filters: Vec<Value> = if loaded.is_empty() {
                Vec::new()
            } else {
                vec![filter("id", "not_in", json!(loaded))]
            };
            call("db_read", json!({"table": "recipes", "filters": filters}))
        }
        (StepType::Read, _) if done == 0 => {
            let loaded = c.loaded_refs(Table::MealPlans, |_| true);
            let mut filters = vec![filter("date", ">=", json!(c.req.input.today))];
            // An exchange reads its two days again: its second call works
            // from this turn's copies, which its first call does not change.
            let whole = matches!(ask, Ask::Exchange { .. });
            if !loaded.is_empty() && !whole {
                filters.push(filter("id", "not_in", json!(loaded)));
            }
            call(
                "db_read",
                json!({"table": "meal_plans", "filters": filters, "order_by": "date"}),
            )
        }
        // A delete made leaves the rows it took out of the plan worked out
        // again, so the calls left start after it.
        (StepType::Write, _) => match calls(ask, c) {
            Ok(calls) => match calls.get(done - deletes(c)) {
                Some((tool, params)) => call(tool, params.clone()),
                None => complete(summary(ask, c), Value::Null, None),
            },
            // A step that has written says what it wrote; it never turns
            // into a question that hides the write.
            Err(_) if done > 0 => complete(summary(ask, c), Value::Null, None),
            Err(stop) => stop,
        },
        _ => complete(read_outcome(c), Value::Null, None),
    }
}

/// What a read step found, saying so when working memory already held the
/// rest ("None new: 9 recipes already in working memory"), so a read that
/// skipped the loaded rows never looks like one that found nothing.
fn read_outcome(c: &ActCtx<'_>) -> String {
    let (table, noun) = match c.req.step.subdomain.as_str() {
        "recipes" => (Table::Recipes, "recipe"),
        _ => (Table::MealPlans, "planned meal"),
    };
    let rows = c.step_rows();
    let read: Vec<&str> = rows
        .iter()
        .filter_map(|r| r.get("id").and_then(Value::as_str))
        .collect();
    let before = c
        .loaded_refs(table, |_| true)
        .iter()
        .filter(|r| !read.contains(&r.as_str()))
        .count();
    let found = plural(rows.len(), noun);
    match (rows.len(), before) {
        (0, 0) => format!("Found no {}", plural_noun(noun)),
        (_, 0) => format!("Found {found}"),
        (0, b) => format!("None new: {} already in working memory", plural(b, noun)),
        (_, b) => format!("Found {found} more ({b} already in working memory)"),
    }
}

fn summary(ask: &Ask, c: &ActCtx<'_>) -> String {
    let slots: Vec<String> = c
        .step_rows()
        .iter()
        .map(|r| {
            let recipe = text_field(r, "recipe_id")
                .map(|x| c.world.label(x))
                .unwrap_or_default();
            format!(
                "{} {}: {recipe}",
                short_date(text_field(r, "date").unwrap_or_default()),
                text_field(r, "meal_type").unwrap_or("dinner")
            )
        })
        .collect();
    match (ask, slots.is_empty()) {
        (Ask::Remove { .. }, true) => "Nothing was taken off the plan".to_string(),
        (Ask::Remove { .. }, false) => format!("Took {} off the plan", join_list(&slots, "and")),
        (_, true) => "Nothing was planned".to_string(),
        (_, false) => format!("Planned {}", join_list(&slots, "and")),
    }
}

/// Servings Think wrote into the step ("serves 4").
fn servings(c: &ActCtx<'_>) -> u32 {
    let d = &c.req.step.description;
    d.split("serves ")
        .nth(1)
        .and_then(|t| t.split(|ch: char| !ch.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(2)
}

type Calls = Vec<(&'static str, Value)>;

/// The deletes this step has made.
fn deletes(c: &ActCtx<'_>) -> usize {
    c.req
        .this_step_results
        .iter()
        .filter(|r| r.tool == "db_delete")
        .count()
}

/// Every call the write step makes, in order; or the question to ask
/// instead when the recipe or the slot meant is unclear.
fn calls(ask: &Ask, c: &ActCtx<'_>) -> Result<Calls, ActAction> {
    let today = c.req.input.today;
    // The slots as they were before this step wrote, so the call plan
    // stays the same between its calls: the rows it created are not slots
    // to replace, the ones it changed keep their place, and the ones it
    // deleted are gone (a delete's calls are counted out in `act`).
    let not_slots: Vec<&str> = c
        .req
        .this_step_results
        .iter()
        .filter(|r| r.tool == "db_create" || r.tool == "db_delete")
        .flat_map(|r| r.rows.iter())
        .filter_map(|r| r.get("id")?.as_str())
        .collect();
    let slots: Vec<&Value> = known_rows(c, Table::MealPlans)
        .into_iter()
        .filter(|r| {
            r.get("id")
                .and_then(Value::as_str)
                .is_none_or(|id| !not_slots.contains(&id))
        })
        .collect();
    let slot_on = |date: &str, meal: Option<&str>| -> Option<String> {
        let on_day: Vec<&&Value> = slots
            .iter()
            .filter(|r| text_field(r, "date") == Some(date))
            .collect();
        let hit = match meal {
            Some(m) => on_day
                .iter()
                .find(|r| text_field(r, "meal_type") == Some(m)),
            None => on_day
                .iter()
                .find(|r| text_field(r, "meal_type") == Some("dinner"))
                .or(on_day.first()),
        };
        hit.and_then(|r| r.get("id")?.as_str().map(String::from))
    };
    let date_of = |d: Day| d.date(today).unwrap_or_else(|| today.to_string());
    let mut out: Calls = Vec::new();
    let mut fresh = Vec::new();
    // Slots already planned that a put replaces: (slot, its new row).
    let mut replacing: Vec<(String, Value)> = Vec::new();
    let mut put = |recipe: String, date: String, meal: Option<&str>| {
        let row = json!({"date": date, "meal_type": meal.unwrap_or("dinner"),
                "recipe_id": recipe, "servings": servings(c)});
        match slot_on(&date, meal) {
            Some(slot) => replacing.push((slot, row)),
            None => fresh.push(row),
        }
    };
    match ask {
        Ask::Put { slots: asked } => {
            // One row per date and meal: "wednesday the 14th" is one day.
            let mut seen: Vec<(String, Option<&str>)> = Vec::new();
            for s in asked {
                let date = date_of(s.day);
                let key = (date.clone(), s.meal.as_deref());
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                let r = recipe(c, &s.recipe, s.day)?;
                // A meal unsaid is dinner: "the curry on the 15th" leaves
                // that day's lunch alone.
                put(r, date, Some(s.meal.as_deref().unwrap_or("dinner")));
            }
        }
        Ask::Exchange { days: (a, b), meal } => {
            let (da, db) = (date_of(*a), date_of(*b));
            let row = |date: &str| {
                let id = slot_on(date, meal.as_deref())?;
                slots
                    .iter()
                    .find(|r| r.get("id").and_then(Value::as_str) == Some(id.as_str()))
                    .map(|r| (id, text_field(r, "recipe_id").map(String::from)))
            };
            let update = |id: &str, data: Value| {
                (
                    "db_update",
                    json!({"table": "meal_plans", "filters": [filter("id", "=", json!(id))], "data": data}),
                )
            };
            match (row(&da), row(&db)) {
                // Both planned: the recipes trade places.
                (Some((ia, ra)), Some((ib, rb))) => {
                    out.push(update(&ia, json!({"recipe_id": rb})));
                    out.push(update(&ib, json!({"recipe_id": ra})));
                }
                // One planned: it moves to the other day.
                (Some((id, _)), None) => out.push(update(&id, json!({"date": db}))),
                (None, Some((id, _))) => out.push(update(&id, json!({"date": da}))),
                (None, None) => {
                    return Err(complete(
                        format!(
                            "No meal is planned on {} or {}",
                            short_date(&da),
                            short_date(&db)
                        ),
                        Value::Null,
                        None,
                    ));
                }
            }
        }
        Ask::Swap {
            day,
            meal,
            recipe: pick,
        } => {
            let r = recipe(c, pick, *day)?;
            put(r, date_of(*day), meal.as_deref());
        }
        Ask::Move { from, to } => {
            let from_slot = match from {
                Some(d) => slot_on(&date_of(*d), None),
                None => shown_slot(c),
            };
            let Some(slot) = from_slot else {
                return Err(complete(
                    "No planned meal to move on that day".into(),
                    Value::Null,
                    None,
                ));
            };
            out.push((
                "db_update",
                json!({"table": "meal_plans", "filters": [filter("id", "=", json!(slot))],
                    "data": {"date": date_of(*to)}}),
            ));
        }
        Ask::Remove { days, meal, recipe } => {
            let mut ids: Vec<&str> = Vec::new();
            let mut misses: Vec<String> = Vec::new();
            for day in days {
                match meant_on(
                    c,
                    &slots,
                    &date_of(*day),
                    meal.as_deref(),
                    recipe.as_deref(),
                ) {
                    Ok(found) => ids.extend(found),
                    Err(miss) => misses.push(miss),
                }
            }
            if ids.is_empty() {
                let text = misses.into_iter().next().unwrap_or_default();
                return Err(complete(text, Value::Null, None));
            }
            out.push((
                "db_delete",
                json!({"table": "meal_plans", "filters": [filter("id", "in", json!(ids))]}),
            ));
        }
    }
    // A day already planned gets its new recipe; more changes than a step
    // has calls for go in one delete, then the one create.
    if replacing.len() + usize::from(!fresh.is_empty()) > 3 {
        let ids: Vec<&String> = replacing.iter().map(|(id, _)| id).collect();
        out.push((
            "db_delete",
            json!({"table": "meal_plans", "filters": [filter("id", "in", json!(ids))]}),
        ));
        fresh.extend(replacing.into_iter().map(|(_, row)| row));
    } else {
        for (slot, row) in replacing {
            out.push((
                "db_update",
                json!({"table": "meal_plans", "filters": [filter("id", "=", json!(slot))],
                    "data": {"recipe_id": row["recipe_id"]}}),
            ));
        }
    }
    if !fresh.is_empty() {
        let at = usize::from(out.first().is_some_and(|(t, _)| *t == "db_delete"));
        out.insert(
            at,
            ("db_create", json!({"table": "meal_plans", "data": fresh})),
        );
    }
    Ok(out)
}

/// The slots a removal takes off one date: the recipe named, else the
/// meal (or every meal) of that day; `Err` with why nothing is.
fn meant_on<'a>(
    c: &ActCtx<'_>,
    slots: &[&'a Value],
    date: &str,
    meal: Option<&str>,
    recipe: Option<&[String]>,
) -> Result<Vec<&'a str>, String> {
    let on_day: Vec<&Value> = slots
        .iter()
        .copied()
        .filter(|r| text_field(r, "date") == Some(date))
        .filter(|r| meal.is_none() || text_field(r, "meal_type") == meal)
        .collect();
    let label = |r: &Value| {
        text_field(r, "recipe_id")
            .map(|x| c.world.label(x))
            .unwrap_or_default()
    };
    // "take the cod off sunday" takes the cod, not whatever Sunday has; a
    // day with something else keeps it, and says so.
    let meant: Vec<&str> = on_day
        .iter()
        .filter(|r| {
            recipe.is_none_or(|words| {
                let name = stems(&label(r));
                words.iter().any(|w| name.iter().any(|n| near(n, w)))
            })
        })
        .filter_map(|r| r.get("id").and_then(Value::as_str))
        .collect();
    if !meant.is_empty() {
        return Ok(meant);
    }
    let when = match meal {
        Some(m) => format!("{} ({m})", short_date(date)),
        None => short_date(date),
    };
    let has: Vec<String> = on_day.iter().map(|r| label(r)).collect();
    Err(if has.is_empty() {
        format!("No meal is planned on {when}")
    } else {
        format!(
            "No \"{}\" on {when}: it has {}",
            recipe.unwrap_or_default().join(" "),
            join_list(&has, "and")
        )
    })
}

/// The planned slot of the recipe just shown ("move them to friday").
fn shown_slot(c: &ActCtx<'_>) -> Option<String> {
    let shown = shown_recipe(c)?;
    known_rows(c, Table::MealPlans)
        .iter()
        .find(|r| text_field(r, "recipe_id") == Some(shown.as_str()))
        .and_then(|r| r.get("id")?.as_str().map(String::from))
}

/// Saved recipes (not drafts) the step can choose from.
fn saved(c: &ActCtx<'_>) -> Vec<(String, String, Vec<String>, Vec<String>)> {
    known_rows(c, Table::Recipes)
        .into_iter()
        .filter_map(|r| {
            let id = r.get("id")?.as_str()?;
            if !is_saved_recipe(c, id) {
                return None;
            }
            let name = text_field(r, "name").unwrap_or_default().to_string();
            let label = stems(&name);
            let vocab = recipe_vocabulary(&name, Some(r));
            Some((id.to_string(), name, label, vocab))
        })
        .collect()
}

/// A recipe with a row in the store: a saved one, or a draft since saved
/// (it keeps its `gen_` ref); not a draft waiting to be saved.
fn is_saved_recipe(c: &ActCtx<'_>, r: &str) -> bool {
    table_of_ref(r) == Some(Table::Recipes)
        && (!r.starts_with("gen_") || c.world.get(r).is_some_and(|e| e.e.row_id.is_some()))
}

/// The recipe "it" means: the one Understand resolved, the one just shown,
/// else the one in focus.
fn shown_recipe(c: &ActCtx<'_>) -> Option<String> {
    let saved_ref = |r: &String| is_saved_recipe(c, r);
    c.referenced_in(Table::Recipes)
        .into_iter()
        .find(saved_ref)
        .or_else(|| {
            let shown: Vec<&String> = c
                .reading
                .before
                .presented
                .iter()
                .filter(|r| saved_ref(r))
                .collect();
            (shown.len() == 1).then(|| shown[0].clone())
        })
        .or_else(|| c.reading.before.last_recipe.clone().filter(saved_ref))
        .or_else(|| focused_recipe(&c.world).filter(saved_ref))
        .or_else(|| {
            c.world
                .last_created()
                .into_iter()
                .find(|e| e.e.table == Table::Recipes && e.e.row_id.is_some())
                .map(|e| e.r.to_string())
        })
}

/// What a planning step leaves when only an ingredient or tag matched and
/// nothing asked for a write: the reply asks, and a "yes" puts it on.
pub const CONFIRM_PLAN: &str = "confirm_plan";

/// The saved recipe a pick means, or the question to ask.
fn recipe(c: &ActCtx<'_>, pick: &Pick, when: Day) -> Result<String, ActAction> {
    let date = when
        .date(c.req.input.today)
        .unwrap_or_else(|| c.req.input.today.to_string());
    let day = short_date(&date);
    let day = day.as_str();
    let all = saved(c);
    let ask = |names: Vec<String>| ActAction::AskUser {
        question: format!("Which one for {day}: {}?", join_list(&names, "or")),
    };
    let (words, pool): (Vec<String>, Vec<_>) = match pick {
        Pick::Other => {
            let planned: Vec<String> = c
                .world
                .loaded(Table::MealPlans)
                .iter()
                .filter_map(|(_, row)| text_field(row, "recipe_id").map(String::from))
                .collect();
            let left: Vec<String> = c
                .reading
                .before
                .listed
                .iter()
                .filter(|r| is_saved_recipe(c, r) && !planned.contains(r))
                .cloned()
                .collect();
            return match left.as_slice() {
                [one] => Ok(one.clone()),
                [] => Err(ActAction::AskUser {
                    question: format!("Which recipe should go on {day}?"),
                }),
                many => Err(ask(many.iter().map(|r| c.world.label(r)).collect())),
            };
        }
        Pick::Shown => {
            return shown_recipe(c).ok_or_else(|| ActAction::AskUser {
                question: format!("Which recipe should go on {day}?"),
            });
        }
        Pick::Named(w) => (w.clone(), all.clone()),
        Pick::Search(w) => {
            let pool: Vec<_> = all
                .iter()
                .filter(|(_, _, _, vocab)| w.iter().all(|x| vocab.iter().any(|v| near(v, x))))
                .cloned()
                .collect();
            match &c.reading.answer {
                Some(answer) => (super::recipe_words(&answer.words), pool),
                None if pool.len() == 1 => return Ok(pool[0].0.clone()),
                None if pool.is_empty() => {
                    return Err(ActAction::AskUser {
                        question: format!(
                            "None of your saved recipes has {} — which recipe should go on {day}?",
                            join_list(w, "and")
                        ),
                    });
                }
                None => return Err(ask(pool.iter().map(|p| p.1.clone()).collect())),
            }
        }
    };
    let score = |label: &[String], vocab: &[String]| -> usize {
        words
            .iter()
            .map(|w| {
                if label.iter().any(|l| near(l, w)) {
                    2
                } else {
                    usize::from(vocab.iter().any(|v| near(v, w)))
                }
            })
            .sum()
    };
    let best = pool
        .iter()
        .map(|(_, _, l, v)| score(l, v))
        .max()
        .unwrap_or(0);
    if best == 0 {
        return Err(ActAction::AskUser {
            question: format!(
                "I couldn't find \"{}\" in your saved recipes — which one should go on {day}?",
                words.join(" ")
            ),
        });
    }
    let top: Vec<_> = pool
        .iter()
        .filter(|(_, _, l, v)| score(l, v) == best)
        .collect();
    if let [one] = top.as_slice() {
        // Only an ingredient or tag matched ("basil for tonight"), and
        // nothing asked for a write: a short question, not a plan.
        let by_name = words.iter().any(|w| one.2.iter().any(|l| near(l, w)));
        if !by_name && !c.reading.words.has_any(super::PUT) && c.reading.answer.is_none() {
            return Err(complete(
                format!(
                    "No plan written: only an ingredient or tag matched {}",
                    one.1
                ),
                json!({"kind": CONFIRM_PLAN, "recipe": one.1, "day": day, "day_word": when.word(),
                       "matched": words}),
                None,
            ));
        }
        return Ok(one.0.clone());
    }
    // Several fit and this answers "which one?": the answer chooses
    // ("the miso one" among the cod ones).
    if let Some(answer) = &c.reading.answer {
        let said = super::recipe_words(&answer.words);
        let chosen: Vec<_> = top
            .iter()
            .filter(|(_, _, label, _)| said.iter().any(|w| label.iter().any(|l| near(l, w))))
            .collect();
        if let [one] = chosen.as_slice() {
            return Ok(one.0.clone());
        }
    }
    // Several fit: the one the last reply put first wins — unless that
    // reply asked which of them, when its order means nothing.
    let presented = &c.reading.before.presented;
    let asked_which = c.reading.before.asked(QuestionKind::WhichOne);
    if !asked_which && let Some(r) = presented.iter().find(|p| top.iter().any(|t| &t.0 == *p)) {
        return Ok(r.clone());
    }
    Err(ask(top.iter().map(|t| t.1.clone()).collect()))
}
