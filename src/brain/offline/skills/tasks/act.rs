//! Act for tasks: read them, create one, or change the one the user means.

use serde_json::{Value, json};

use crate::context::Table;
use crate::pipeline::{ActAction, StepType};

use super::super::super::act_ctx::{ActCtx, call, complete, filter};
use super::super::super::resolve::{Resolved, apply_pick, ordinal_pick};
use super::super::super::text::{join_list, stems};
use super::super::super::world::text_field;
use super::super::when::{Day, days_after, short_date};
use super::super::{known_rows, table_of_ref};
use super::{Ask, Window};

/// The next call of a tasks step, or its completion.
pub fn act(ask: &Ask, c: &ActCtx<'_>) -> ActAction {
    let done = c.req.this_step_results.len();
    match c.req.step.step_type {
        StepType::Read if done == 0 => call("db_read", read_params(ask, c)),
        StepType::Write if done == 0 => write(ask, c),
        _ => complete(summary(c), Value::Null, None),
    }
}

fn summary(c: &ActCtx<'_>) -> String {
    let rows = c.step_rows();
    let titles: Vec<String> = rows
        .iter()
        .filter_map(|r| text_field(r, "title").map(String::from))
        .collect();
    match (c.req.step.step_type, titles.len()) {
        (_, 0) => "No tasks matched".to_string(),
        (StepType::Read, n) => format!("Found {n} task{}", if n == 1 { "" } else { "s" }),
        _ => format!("Changed {}", join_list(&titles, "and")),
    }
}

fn read_params(ask: &Ask, c: &ActCtx<'_>) -> Value {
    let today = c.req.input.today;
    let mut filters = Vec::new();
    match ask {
        Ask::List { window, .. } => {
            filters.push(filter("completed", "=", json!(false)));
            let until = match window {
                Window::All => None,
                Window::Today => Some(today.to_string()),
                Window::Tomorrow => days_after(today, 1),
                Window::ThisWeek => days_after(today, 6),
                Window::BeforeWeekend => Day::Weekday(4).date(today),
            };
            if let Some(until) = until {
                filters.push(filter("due_date", "<=", json!(until)));
            }
        }
        // Every task: the one meant is chosen among them, and when none
        // fits the reply lists the open ones in full.
        Ask::Done { .. } | Ask::Move { .. } | Ask::Delete { .. } | Ask::Add { .. } => {}
    }
    json!({"table": "tasks", "filters": filters, "order_by": "due_date"})
}

fn write(ask: &Ask, c: &ActCtx<'_>) -> ActAction {
    let today = c.req.input.today;
    let (about, change) = match ask {
        Ask::Add { title, due } => {
            let mut row = json!({"title": title, "category": category(title), "completed": false});
            if let Some(date) = due.and_then(|d| d.date(today)) {
                row["due_date"] = json!(date);
            }
            return call("db_create", json!({"table": "tasks", "data": [row]}));
        }
        Ask::List { .. } => return complete("Nothing to change".into(), Value::Null, None),
        Ask::Done { about } => (about, Some(json!({"completed": true}))),
        Ask::Move { about, due } => (about, due.date(today).map(|d| json!({"due_date": d}))),
        Ask::Delete { about } => (about, None),
    };
    let candidates = known_rows(c, Table::Tasks);
    let meant = meant(c, &candidates, about, matches!(ask, Ask::Done { .. }));
    let r = match meant.as_slice() {
        [one] => one.clone(),
        [] => {
            return complete(
                format!("No task matched \"{}\"", about.join(" ")),
                Value::Null,
                None,
            );
        }
        several => {
            let titles: Vec<String> = several.iter().map(|r| c.world.label(r)).collect();
            return ActAction::AskUser {
                question: format!("Which task do you mean: {}?", join_list(&titles, "or")),
            };
        }
    };
    // A task already ticked off stays as it is, said so.
    let done_already = matches!(ask, Ask::Done { .. })
        && candidates.iter().any(|row| {
            row.get("id").and_then(Value::as_str) == Some(r.as_str())
                && row
                    .get("completed")
                    .is_some_and(|v| v.as_bool() == Some(true) || v.as_i64() == Some(1))
        });
    if done_already {
        return complete(
            format!("No need: \"{}\" is already ticked off", c.world.label(&r)),
            Value::Null,
            None,
        );
    }
    let target = [filter("id", "=", json!(r))];
    match change {
        Some(data) => call(
            "db_update",
            json!({"table": "tasks", "filters": target, "data": data}),
        ),
        None => call("db_delete", json!({"table": "tasks", "filters": target})),
    }
}

/// "prep" for getting food ready, "shopping" for buying, "cleanup" for
/// cleaning, else "other".
fn category(title: &str) -> &'static str {
    let s = stems(title);
    let has = |w: &[&str]| s.iter().any(|x| w.contains(&x.as_str()));
    if has(&["buy", "shop", "pick", "order", "groceries", "grocery"]) {
        "shopping"
    } else if has(&["clean", "wash", "wipe", "tidy", "descale", "empty"]) {
        "cleanup"
    } else if has(&[
        "defrost", "thaw", "marinate", "prep", "soak", "chop", "use", "make", "making", "cook",
        "bake", "take", "freeze",
    ]) {
        "prep"
    } else {
        "other"
    }
}

/// The task refs the words point at. With no words ("mark it done", "the
/// new one"): the task just presented or made; otherwise the tasks whose
/// title or category hold the most of the words.
fn meant(c: &ActCtx<'_>, rows: &[&Value], about: &[String], open_only: bool) -> Vec<String> {
    let id = |r: &&Value| r.get("id").and_then(Value::as_str).map(String::from);
    let done = |r: &Value| {
        r.get("completed")
            .is_some_and(|v| v.as_bool() == Some(true) || v.as_i64() == Some(1))
    };
    // Named in words, a task ticked off already is still the one meant
    // (and is said to be done); otherwise only open tasks are counted.
    let all: Vec<&Value> = rows.to_vec();
    let rows: Vec<&Value> = rows
        .iter()
        .copied()
        .filter(|r| !open_only || !done(r))
        .collect();
    // "done the first one", "tick off the 2nd": counted in the tasks just
    // listed.
    if let Some(pick) = ordinal_pick(&c.reading.words.words) {
        let listed: Vec<String> = c
            .reading
            .before
            .presented
            .iter()
            .filter(|r| table_of_ref(r) == Some(Table::Tasks))
            .cloned()
            .collect();
        match apply_pick(&listed, pick) {
            Resolved::One(r) => return vec![r],
            Resolved::Many(v) => return v,
            _ => {}
        }
    }
    if about.is_empty() {
        let shown = c
            .reading
            .before
            .presented
            .iter()
            .find(|r| table_of_ref(r) == Some(Table::Tasks))
            .cloned();
        let made = c
            .world
            .last_created()
            .into_iter()
            .find(|e| e.e.table == Table::Tasks)
            .map(|e| e.r.to_string());
        let new_one = c
            .reading
            .words
            .has_any(&["new one", "last one", "one i just"]);
        let pick = if new_one {
            made.or(shown)
        } else {
            shown.or(made)
        };
        return match pick {
            Some(r) => vec![r],
            None if rows.len() == 1 => rows.iter().filter_map(id).collect(),
            None => Vec::new(),
        };
    }
    let score = |r: &Value| {
        let mut words = stems(text_field(r, "title").unwrap_or_default());
        words.extend(stems(text_field(r, "category").unwrap_or_default()));
        about.iter().filter(|a| words.contains(a)).count()
    };
    let best = all.iter().map(|r| score(r)).max().unwrap_or(0);
    if best == 0 {
        return Vec::new();
    }
    let at_best: Vec<&Value> = all.iter().copied().filter(|r| score(r) == best).collect();
    let open: Vec<&Value> = at_best.iter().copied().filter(|r| !done(r)).collect();
    let chosen = if open_only && !open.is_empty() {
        open
    } else {
        at_best
    };
    let mut top: Vec<String> = chosen.iter().filter_map(id).collect();
    // Two rows of one task (loaded and read again) are one.
    top.dedup();
    top
}

/// "Thu Jan 15" for a task row's due date.
pub fn due_text(row: &Value) -> Option<String> {
    text_field(row, "due_date").map(short_date)
}
