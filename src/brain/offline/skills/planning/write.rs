//! The calls a planning write makes: new slots created in one call, days
//! already planned given their new recipe (or, past what a step's calls
//! allow, deleted and created again), two days' recipes traded, a meal
//! moved, the days named cleared. The call plan is worked out again before
//! each call and stays the same between them.

use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::ActAction;

use super::super::super::act_ctx::{ActCtx, complete, filter};
use super::super::super::text::{join_list, near, stems};
use super::super::super::world::{text_field, texts};
use super::super::known_rows;
use super::super::when::{Day, short_date};
use super::Ask;
use super::act::{recipe, shown_recipe};

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
pub fn deletes(c: &ActCtx<'_>) -> usize {
    c.req
        .this_step_results
        .iter()
        .filter(|r| r.tool == "db_delete")
        .count()
}

/// The meal plan as this step found it: the rows it created are not slots
/// to replace, the ones it changed keep their place, and the ones it
/// deleted are gone (a delete's calls are counted out in `act`), so the
/// call plan stays the same between its calls.
struct Slots<'a> {
    rows: Vec<&'a Value>,
    today: &'a str,
}

impl<'a> Slots<'a> {
    fn new(c: &ActCtx<'a>) -> Self {
        let not_slots: Vec<&str> = c
            .req
            .this_step_results
            .iter()
            .filter(|r| r.tool == "db_create" || r.tool == "db_delete")
            .flat_map(|r| r.rows.iter())
            .filter_map(|r| r.get("id")?.as_str())
            .collect();
        let rows = known_rows(c, Table::MealPlans)
            .into_iter()
            .filter(|r| {
                r.get("id")
                    .and_then(Value::as_str)
                    .is_none_or(|id| !not_slots.contains(&id))
            })
            .collect();
        Self {
            rows,
            today: c.req.input.today,
        }
    }

    /// The date of a day said; a day no date matches soon ("sunday the
    /// 18th" in a month whose 18th is a Friday) is asked about, never put
    /// on today.
    fn date_of(&self, d: Day) -> Result<String, ActAction> {
        d.date(self.today).ok_or_else(|| ActAction::AskUser {
            question: format!(
                "Which date do you mean? No date in the next few months falls {}.",
                d.word()
            ),
        })
    }

    /// The slot planned on `date` for `meal` (dinner, else the day's
    /// first, when no meal is said).
    fn on(&self, date: &str, meal: Option<&str>) -> Option<&'a Value> {
        let on_day: Vec<&Value> = self
            .rows
            .iter()
            .copied()
            .filter(|r| text_field(r, "date") == Some(date))
            .collect();
        let of = |m: &str| {
            on_day
                .iter()
                .copied()
                .find(|r| text_field(r, "meal_type") == Some(m))
        };
        match meal {
            Some(m) => of(m),
            None => of("dinner").or(on_day.first().copied()),
        }
    }

    /// The id of [`Slots::on`].
    fn id_on(&self, date: &str, meal: Option<&str>) -> Option<String> {
        self.on(date, meal)
            .and_then(|r| r.get("id")?.as_str().map(String::from))
    }
}

/// The meal a recipe's tags name ("breakfast", "brunch", "lunch"), when
/// the recipe's row has been read.
fn own_meal(c: &ActCtx<'_>, id: &str) -> Option<&'static str> {
    let row = known_rows(c, Table::Recipes)
        .into_iter()
        .find(|r| r.get("id").and_then(Value::as_str) == Some(id))?;
    let tags = texts(row.get("tags"));
    let has = |t: &str| tags.iter().any(|x| x.eq_ignore_ascii_case(t));
    if has("breakfast") || has("brunch") {
        Some("breakfast")
    } else {
        None
    }
}

/// One call: a tool and its parameters.
fn update(id: &str, data: Value) -> (&'static str, Value) {
    (
        "db_update",
        json!({"table": "meal_plans", "filters": [filter("id", "=", json!(id))], "data": data}),
    )
}

/// Every call the write step makes, in order; or the question to ask
/// instead when the recipe or the slot meant is unclear.
pub fn calls(ask: &Ask, c: &ActCtx<'_>) -> Result<Calls, ActAction> {
    let slots = Slots::new(c);
    let stop = |text: String| complete(text, Value::Null, None);
    match ask {
        Ask::Put { slots: asked } => {
            // One row per date and meal: "wednesday the 14th" is one day.
            let mut puts: Vec<(String, String, String)> = Vec::new();
            for s in asked {
                let r = recipe(c, &s.recipe, s.day)?;
                // A meal unsaid is the recipe's own when its tags say one
                // ("breakfast"), else dinner: "the curry on the 15th" leaves
                // that day's lunch alone.
                let own = own_meal(c, &r);
                let (date, meal) = (
                    slots.date_of(s.day)?,
                    s.meal.as_deref().or(own).unwrap_or("dinner"),
                );
                if puts.iter().any(|(d, m, _)| *d == date && m == meal) {
                    continue;
                }
                puts.push((date, meal.to_string(), r));
            }
            Ok(put_calls(c, &slots, &puts))
        }
        Ask::Swap {
            day,
            meal,
            recipe: pick,
        } => {
            let r = recipe(c, pick, *day)?;
            let date = slots.date_of(*day)?;
            // The day's meal said, else its dinner (or its only meal).
            let meal = slots
                .on(&date, meal.as_deref())
                .and_then(|row| text_field(row, "meal_type"))
                .or(meal.as_deref())
                .unwrap_or("dinner")
                .to_string();
            Ok(put_calls(c, &slots, &[(date, meal, r)]))
        }
        Ask::Exchange { days: (a, b), meal } => {
            let dates = (slots.date_of(*a)?, slots.date_of(*b)?);
            exchange(&slots, dates, meal.as_deref()).map_err(stop)
        }
        Ask::Move { from, to, recipe } => {
            let from_slot = match (from, recipe) {
                (Some(d), _) => slots.id_on(&slots.date_of(*d)?, None),
                // "move the wings to friday": the slot holding them.
                (None, Some(words)) => slot_of_recipe(c, &slots.rows, words),
                (None, None) => shown_slot(c),
            };
            let slot =
                from_slot.ok_or_else(|| stop("No planned meal to move on that day".into()))?;
            Ok(vec![update(&slot, json!({"date": slots.date_of(*to)?}))])
        }
        Ask::Look { .. } => Ok(Vec::new()),
        // "take the curry off": the one planned meal the words name,
        // whatever its day; two of them are asked about by day.
        Ask::Remove {
            days,
            meal,
            recipe: Some(words),
        } if days.is_empty() => {
            let mut dates: Vec<&str> = slots
                .rows
                .iter()
                .filter_map(|r| text_field(r, "date"))
                .filter(|d| *d >= slots.today)
                .collect();
            dates.sort_unstable();
            dates.dedup();
            let mut found: Vec<(&str, &str)> = Vec::new();
            for d in dates {
                if let Ok(ids) = meant_on(c, &slots.rows, d, meal.as_deref(), Some(words)) {
                    found.extend(ids.into_iter().map(|id| (d, id)));
                }
            }
            match found.as_slice() {
                [] => Err(stop(format!("No planned meal is \"{}\"", words.join(" ")))),
                [(_, id)] => Ok(vec![(
                    "db_delete",
                    json!({"table": "meal_plans", "filters": [filter("id", "=", json!(id))]}),
                )]),
                several => {
                    let days: Vec<String> = several.iter().map(|(d, _)| short_date(d)).collect();
                    Err(stop(format!(
                        "No meal taken off: \"{}\" is planned on {} (say which day)",
                        words.join(" "),
                        join_list(&days, "and")
                    )))
                }
            }
        }
        Ask::Remove { days, meal, recipe } => {
            let mut ids: Vec<&str> = Vec::new();
            let mut misses: Vec<String> = Vec::new();
            for day in days {
                let date = slots.date_of(*day)?;
                match meant_on(c, &slots.rows, &date, meal.as_deref(), recipe.as_deref()) {
                    Ok(found) => ids.extend(found),
                    Err(miss) => misses.push(miss),
                }
            }
            if ids.is_empty() {
                return Err(stop(misses.into_iter().next().unwrap_or_default()));
            }
            Ok(vec![(
                "db_delete",
                json!({"table": "meal_plans", "filters": [filter("id", "in", json!(ids))]}),
            )])
        }
    }
}

/// Recipes on (date, meal): new slots in one create; a slot already
/// planned gets its new recipe — or, with more changes than a step has
/// calls for, the old slots go in one delete before the one create.
fn put_calls(c: &ActCtx<'_>, slots: &Slots<'_>, puts: &[(String, String, String)]) -> Calls {
    let servings = servings(c);
    let mut fresh: Vec<Value> = Vec::new();
    let mut replacing: Vec<(String, Value)> = Vec::new();
    for (date, meal, recipe) in puts {
        let row =
            json!({"date": date, "meal_type": meal, "recipe_id": recipe, "servings": servings});
        match slots.id_on(date, Some(meal)) {
            Some(slot) => replacing.push((slot, row)),
            None => fresh.push(row),
        }
    }
    let mut out: Calls = Vec::new();
    if replacing.len() + usize::from(!fresh.is_empty()) > 3 {
        let ids: Vec<&String> = replacing.iter().map(|(id, _)| id).collect();
        out.push((
            "db_delete",
            json!({"table": "meal_plans", "filters": [filter("id", "in", json!(ids))]}),
        ));
        fresh.extend(replacing.into_iter().map(|(_, row)| row));
    } else {
        // Servings said ("… sunday, just me") change the slot's too.
        let said = super::servings_said(&c.reading).is_some();
        for (slot, row) in replacing {
            let data = if said {
                json!({"recipe_id": row["recipe_id"], "servings": row["servings"]})
            } else {
                json!({"recipe_id": row["recipe_id"]})
            };
            out.push(update(&slot, data));
        }
    }
    if !fresh.is_empty() {
        let at = usize::from(out.first().is_some_and(|(t, _)| *t == "db_delete"));
        out.insert(
            at,
            ("db_create", json!({"table": "meal_plans", "data": fresh})),
        );
    }
    out
}

/// "swap monday and tuesday": both planned, the recipes trade places; one
/// planned, it moves to the other day.
fn exchange(
    slots: &Slots<'_>,
    (da, db): (String, String),
    meal: Option<&str>,
) -> Result<Calls, String> {
    let row = |date: &str| {
        let r = slots.on(date, meal)?;
        let id = r.get("id")?.as_str()?.to_string();
        Some((id, text_field(r, "recipe_id").map(String::from)))
    };
    Ok(match (row(&da), row(&db)) {
        (Some((ia, ra)), Some((ib, rb))) => vec![
            update(&ia, json!({"recipe_id": rb})),
            update(&ib, json!({"recipe_id": ra})),
        ],
        (Some((id, _)), None) => vec![update(&id, json!({"date": db}))],
        (None, Some((id, _))) => vec![update(&id, json!({"date": da}))],
        (None, None) => {
            return Err(format!(
                "No meal is planned on {} or {}",
                short_date(&da),
                short_date(&db)
            ));
        }
    })
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
/// The one planned slot whose recipe the words name.
fn slot_of_recipe(c: &ActCtx<'_>, slots: &[&Value], words: &[String]) -> Option<String> {
    let found: Vec<&str> = slots
        .iter()
        .filter(|r| {
            let name = stems(
                &text_field(r, "recipe_id")
                    .map(|x| c.world.label(x))
                    .unwrap_or_default(),
            );
            words.iter().any(|w| name.iter().any(|n| near(n, w)))
        })
        .filter_map(|r| r.get("id").and_then(Value::as_str))
        .collect();
    match found.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

fn shown_slot(c: &ActCtx<'_>) -> Option<String> {
    let shown = shown_recipe(c)?;
    known_rows(c, Table::MealPlans)
        .iter()
        .find(|r| text_field(r, "recipe_id") == Some(shown.as_str()))
        .and_then(|r| r.get("id")?.as_str().map(String::from))
}
