//! Reply for tasks: the open tasks with their due days, or what changed.

use serde_json::Value;

use crate::context::Table;
use crate::pipeline::StepType;

use super::super::super::reply_ctx::ReplyCtx;
use super::super::super::text::{plural, stems};
use super::super::super::world::text_field;
use super::super::{Said, rows_of_kind, shown, why_unchanged};
use super::act::due_text;
use super::{Ask, Window};

/// "- Defrost the chicken (due Wed Jan 14)".
fn line(row: &Value) -> String {
    let title = text_field(row, "title").unwrap_or("(untitled)");
    match due_text(row) {
        Some(d) => format!("- {title} (due {d})"),
        None => format!("- {title}"),
    }
}

fn open(row: &&Value) -> bool {
    row.get("completed").and_then(Value::as_bool) != Some(true)
}

/// The reply for a tasks ask.
pub fn reply(ask: &Ask, c: &ReplyCtx<'_>) -> Said {
    let read: Vec<&Value> = rows_of_kind(c, Table::Tasks, StepType::Read);
    let written: Vec<&Value> = rows_of_kind(c, Table::Tasks, StepType::Write);
    match ask {
        Ask::List { window, about } => list(&read, *window, about),
        Ask::Add { .. } => match written.first() {
            Some(row) => Said {
                text: format!(
                    "Added to your tasks:\n{}\n\nWant me to add anything else?",
                    line(row)
                ),
                presented: shown(&[row]),
                offer: None,
                confirm: None,
            },
            None => unchanged(c, &read),
        },
        Ask::Done { .. } => match written.first() {
            Some(row) => {
                let left: Vec<&Value> = read
                    .iter()
                    .copied()
                    .filter(open)
                    .filter(|r| r.get("id") != row.get("id"))
                    .collect();
                let title = text_field(row, "title").unwrap_or("that task");
                let mut text = format!("Done — ticked off \"{title}\".");
                if !left.is_empty() {
                    text.push_str(&format!(
                        "\n\nStill open ({}):\n{}",
                        left.len(),
                        left.iter().map(|r| line(r)).collect::<Vec<_>>().join("\n")
                    ));
                }
                Said {
                    text,
                    presented: shown(&[row]),
                    offer: None,
                    confirm: None,
                }
            }
            None => unchanged(c, &read),
        },
        Ask::Move { .. } => match written.first() {
            Some(row) => Said {
                text: format!(
                    "Moved \"{}\" to {}.",
                    text_field(row, "title").unwrap_or("the task"),
                    due_text(row).unwrap_or_else(|| "that day".into())
                ),
                presented: shown(&[row]),
                offer: None,
                confirm: None,
            },
            None => unchanged(c, &read),
        },
        Ask::Delete { .. } => match written.first() {
            Some(row) => Said::text(format!(
                "Deleted the task \"{}\".",
                text_field(row, "title").unwrap_or("that one")
            )),
            None => unchanged(c, &read),
        },
    }
}

/// Nothing was changed: say what the step found and what is open.
fn unchanged(c: &ReplyCtx<'_>, read: &[&Value]) -> Said {
    let why = why_unchanged(c, "I couldn't tell which task you meant");
    if why.contains("already ticked off") {
        return Said::text(format!("{why}, so nothing changed."));
    }
    let open: Vec<&Value> = read.iter().copied().filter(open).collect();
    let mut text = format!("{why}, so nothing changed.");
    if !open.is_empty() {
        text.push_str(&format!(
            " Your open tasks:\n{}\n\nWhich one did you mean?",
            open.iter().map(|r| line(r)).collect::<Vec<_>>().join("\n")
        ));
    }
    Said {
        text,
        presented: shown(&open),
        offer: None,
        confirm: None,
    }
}

fn list(read: &[&Value], window: Window, about: &[String]) -> Said {
    let open: Vec<&Value> = read.iter().copied().filter(open).collect();
    let matching: Vec<&Value> = open
        .iter()
        .copied()
        .filter(|r| {
            let words = stems(text_field(r, "title").unwrap_or_default());
            about.iter().any(|a| words.contains(a))
        })
        .collect();
    let when = match window {
        Window::All => "",
        Window::Today => " due today",
        Window::Tomorrow => " due by tomorrow",
        Window::ThisWeek => " due this week",
        Window::BeforeWeekend => " due before the weekend",
    };
    if !about.is_empty() && !matching.is_empty() {
        let text = match matching.as_slice() {
            [one] => format!("Yes — this one is still open:\n{}", line(one)),
            many => format!(
                "Yes — {} are open:\n{}",
                plural(many.len(), "task"),
                many.iter().map(|r| line(r)).collect::<Vec<_>>().join("\n")
            ),
        };
        return Said {
            text,
            presented: shown(&matching),
            offer: None,
            confirm: None,
        };
    }
    if open.is_empty() {
        return Said::text(format!("No open tasks{when} — you're all caught up."));
    }
    Said {
        text: format!(
            "Your open tasks{when} ({}):\n{}",
            open.len(),
            open.iter().map(|r| line(r)).collect::<Vec<_>>().join("\n")
        ),
        presented: shown(&open),
        offer: None,
        confirm: None,
    }
}
