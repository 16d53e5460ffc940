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
use super::{Ask, Pick, write};

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
        (StepType::Read, _) if done == 0 && matches!(ask, Ask::Look { .. }) => {
            let (from, to) = look_range(ask, c.req.input.today);
            let filters = vec![
                filter("date", ">=", json!(from)),
                filter("date", "<=", json!(to)),
            ];
            call(
                "db_read",
                json!({"table": "meal_plans", "filters": filters, "order_by": "date"}),
            )
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
        (StepType::Write, _) => match write::calls(ask, c) {
            Ok(calls) => match calls.get(done - write::deletes(c)) {
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

/// The first and last date (`YYYY-MM-DD`) a look asks about: the days
/// named, or Monday to Sunday of next week.
pub fn look_range(ask: &Ask, today: &str) -> (String, String) {
    let Ask::Look { days, next_week } = ask else {
        return (today.to_string(), today.to_string());
    };
    let mut dates: Vec<String> = days.iter().filter_map(|d| d.date(today)).collect();
    if *next_week {
        dates.extend(
            [Day::NextWeek(0).date(today), Day::NextWeek(6).date(today)]
                .into_iter()
                .flatten(),
        );
    }
    dates.sort();
    let first = dates.first().cloned().unwrap_or_else(|| today.to_string());
    let last = dates.last().cloned().unwrap_or_else(|| first.clone());
    (first, last)
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
pub(super) fn shown_recipe(c: &ActCtx<'_>) -> Option<String> {
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

/// A draft asked onto the plan: it is saved first.
fn not_saved(label: &str, day: &str) -> ActAction {
    ActAction::AskUser {
        question: format!(
            "that one isn't saved yet: say \"save it\" first, then I'll put {label} on {day}."
        ),
    }
}

/// The saved recipe a pick means, or the question to ask.
pub(super) fn recipe(c: &ActCtx<'_>, pick: &Pick, when: Day) -> Result<String, ActAction> {
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
            // "put it on thursday" right after a new recipe was drafted:
            // it is not saved, so it cannot go on the plan yet.
            let drafts: Vec<&str> = c
                .world
                .pending()
                .into_iter()
                .filter(|e| e.e.table == Table::Recipes)
                .map(|e| e.r)
                .collect();
            let draft = match drafts.as_slice() {
                [one] => Some(*one),
                _ => None,
            };
            // Several just shown: the first few of them are the choices.
            let shown: Vec<String> = c
                .reading
                .before
                .presented
                .iter()
                .filter(|r| super::super::table_of_ref(r) == Some(Table::Recipes))
                .take(3)
                .map(|r| c.world.label(r))
                .collect();
            return shown_recipe(c).ok_or_else(|| match draft {
                Some(r) => not_saved(&c.world.label(r), day),
                None if shown.len() > 1 => ask(shown),
                None => ActAction::AskUser {
                    question: format!("Which recipe should go on {day}?"),
                },
            });
        }
        Pick::Named(w) => {
            // A draft named whole ("thai basil chicken tonight" right after
            // it was drafted) is not a saved recipe sharing a word of it.
            let named_draft = c
                .world
                .pending()
                .into_iter()
                .filter(|e| e.e.table == Table::Recipes)
                .find(|e| {
                    let label = e.e.label.to_lowercase();
                    let label: Vec<&str> = label.split_whitespace().collect();
                    !w.is_empty() && label.iter().all(|l| w.iter().any(|x| near(l, x)))
                });
            if let Some(e) = named_draft {
                return Err(not_saved(&e.e.label, day));
            }
            (w.clone(), all.clone())
        }
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
