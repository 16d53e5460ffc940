//! Reply for the shopping list: what came off, what is left, or whether
//! an item is on it.

use serde_json::Value;

use crate::context::Table;
use crate::pipeline::StepType;

use super::super::super::reply_ctx::ReplyCtx;
use super::super::super::text::{fmt_number, join_list};
use super::super::super::world::{num_field, text_field};
use super::super::{Named, best, shown};
use super::super::{Said, rows_of_kind, why_unchanged};
use super::{Ask, bought, waiting_row};

fn line(row: &Value) -> String {
    let name = text_field(row, "name").unwrap_or("?");
    let ticked = if bought(row) { " — bought" } else { "" };
    // A row with no amount is its name alone.
    let Some(q) = num_field(row, "quantity").map(fmt_number) else {
        return format!("- {name}{ticked}");
    };
    let unit = text_field(row, "unit").unwrap_or_default();
    format!("- {name} ({q} {unit}){ticked}")
}

/// "Your shopping list (3):" and a line per row.
fn listing(title: &str, rows: &[&Value]) -> String {
    let lines: Vec<String> = rows.iter().map(|r| line(r)).collect();
    format!("{title} ({}):\n{}", rows.len(), lines.join("\n"))
}

/// The reply for a shopping ask.
pub fn reply(ask: &Ask, c: &ReplyCtx<'_>) -> Said {
    let read = rows_of_kind(c, Table::ShoppingList, StepType::Read);
    let gone = rows_of_kind(c, Table::ShoppingList, StepType::Write);
    let gone_ids: Vec<&Value> = gone.iter().filter_map(|r| r.get("id")).collect();
    let left: Vec<&Value> = read
        .iter()
        .copied()
        .filter(|r| r.get("id").is_none_or(|i| !gone_ids.contains(&i)))
        .collect();
    let rest = if left.is_empty() {
        "The list is empty now.".to_string()
    } else {
        listing("Still on the list", &left)
    };
    let made = rows_of_kind(c, Table::ShoppingList, StepType::Write);
    let names = |rows: &[&Value]| -> Vec<String> {
        rows.iter()
            .filter_map(|r| text_field(r, "name").map(String::from))
            .collect()
    };
    match ask {
        Ask::Show => {
            let text = if read.is_empty() {
                "Your shopping list is empty.".to_string()
            } else {
                listing("Your shopping list", &read)
            };
            Said {
                text,
                presented: shown(&read),
                offer: None,
                confirm: None,
            }
        }
        Ask::Add { .. } | Ask::Missing { .. } | Ask::PutBack { .. } => {
            // Asked-for things already waiting on the list: said, not added
            // again.
            let waiting: Vec<&Value> = match ask {
                Ask::Add { items, .. } => items
                    .iter()
                    .filter(|i| !made.iter().any(|m| text_field(m, "name") == Some(&i.name)))
                    .filter_map(|i| waiting_row(&i.name, &read))
                    .collect(),
                _ => Vec::new(),
            };
            // What Think left off: the household is allergic to it.
            let off: Vec<(String, String)> = c
                .req
                .think
                .steps
                .iter()
                .flat_map(|s| super::left_off(&s.description))
                .collect();
            let allergic = if off.is_empty() {
                String::new()
            } else {
                format!(
                    "Left off: {} — the household is allergic to {}. Say “add {} anyway” if you still want {}.",
                    join_list(
                        &off.iter().map(|(i, _)| i.clone()).collect::<Vec<_>>(),
                        "and"
                    ),
                    join_list(
                        &{
                            let mut a: Vec<String> = off.iter().map(|(_, a)| a.clone()).collect();
                            a.dedup();
                            a
                        },
                        "and"
                    ),
                    off[0].0,
                    if off.len() == 1 && !off[0].0.ends_with('s') {
                        "it"
                    } else {
                        "them"
                    },
                )
            };
            let already = if waiting.is_empty() {
                String::new()
            } else {
                format!(
                    "Already on the list, so not added again:\n{}",
                    waiting
                        .iter()
                        .map(|r| line(r))
                        .collect::<Vec<_>>()
                        .join("\n")
                )
            };
            if made.is_empty() && !allergic.is_empty() {
                return Said::text(allergic);
            }
            if made.is_empty() && !waiting.is_empty() {
                return Said {
                    presented: shown(&waiting),
                    ..Said::text(format!("{already}\n\nWant more of it, or something else?"))
                };
            }
            if made.is_empty() {
                let why = why_unchanged(c, "");
                let text = if why.contains("which recipe") || why.contains("mean") {
                    "Which recipe should I shop for?".to_string()
                } else if matches!(ask, Ask::PutBack { .. }) {
                    "Nothing came off the list just now, so there's nothing to put back. What should I add?".to_string()
                } else if matches!(ask, Ask::Missing { .. }) {
                    "Nothing to add — the kitchen has everything it needs, or it's on the list already.".to_string()
                } else {
                    "What should I put on the shopping list?".to_string()
                };
                return Said::text(text);
            }
            // A row set back to not bought was on the list already.
            let total = read.len()
                + made
                    .iter()
                    .filter(|m| !read.iter().any(|r| r.get("id") == m.get("id")))
                    .count();
            let head = match ask {
                Ask::Missing { .. } => {
                    let mut fors: Vec<String> = made
                        .iter()
                        .filter_map(|r| text_field(r, "notes"))
                        .map(|n| n.trim_start_matches("for ").to_string())
                        .collect();
                    fors.dedup();
                    format!(
                        "Put what {} is missing on the list:",
                        join_list(&fors, "and")
                    )
                }
                Ask::PutBack { .. } => "Put back on the list:".to_string(),
                _ => "Added to the shopping list:".to_string(),
            };
            let already = if already.is_empty() {
                already
            } else {
                format!("\n\n{already}")
            };
            let already = if allergic.is_empty() {
                already
            } else {
                format!("{already}\n\n{allergic}")
            };
            Said {
                text: format!(
                    "{head}\n{}{already}\n\nThat's {} on the list now.",
                    made.iter().map(|r| line(r)).collect::<Vec<_>>().join("\n"),
                    super::super::super::text::plural(total, "item")
                ),
                presented: shown(&made),
                offer: None,
                confirm: None,
            }
        }
        Ask::SetAmount { item, .. } => {
            let Some(row) = made.first() else {
                let what = match item {
                    Named::Item(x) => x.clone(),
                    Named::Shown => "that".into(),
                };
                return Said {
                    presented: shown(&read),
                    ..Said::text(format!(
                        "There's no {what} on the list to change, so nothing changed.\n\n{rest}"
                    ))
                };
            };
            Said {
                presented: shown(&made),
                ..Said::text(format!("Changed it on the list:\n{}", line(row)))
            }
        }
        Ask::MarkBought { items } => {
            let ticked: Vec<String> = items
                .iter()
                .filter_map(|n| match n {
                    Named::Item(x) => best(&read, x).first().copied(),
                    Named::Shown => None,
                })
                .filter(|r| bought(r))
                .filter_map(|r| text_field(r, "name").map(String::from))
                .collect();
            if made.is_empty() && !ticked.is_empty() {
                return Said {
                    presented: shown(&read),
                    ..Said::text(format!(
                        "{} {} already ticked off as bought, so nothing changed.\n\n{rest}",
                        super::super::super::text::capitalise_first(&join_list(&ticked, "and")),
                        if ticked.len() == 1 { "is" } else { "are" }
                    ))
                };
            }
            if made.is_empty() {
                return Said {
                    text: format!(
                        "I couldn't find those on the list, so nothing changed.\n\n{rest}"
                    ),
                    presented: shown(&read),
                    offer: None,
                    confirm: None,
                };
            }
            Said {
                text: format!(
                    "Marked {} as bought. Say “clear the bought ones” to take them off.",
                    join_list(&names(&made), "and")
                ),
                presented: shown(&made),
                offer: None,
                confirm: None,
            }
        }
        Ask::Has { items } | Ask::WhatFor { items } => {
            let mut text = Vec::new();
            let mut hits = Vec::new();
            for n in items {
                match n {
                    Named::Item(x) => match best(&read, x).first() {
                        Some(r) => {
                            let why = text_field(r, "notes")
                                .map(|n| format!(" ({n})"))
                                .unwrap_or_default();
                            // Asked to add what is there: it is there already.
                            let adding = c.reading.words.has_any(&["add", "put", "stick"]);
                            let yes = if c.reading.words.has_any(&["what", "why"]) || adding {
                                ""
                            } else {
                                "Yes — "
                            };
                            let already = if adding { "already " } else { "" };
                            text.push(format!(
                                "{yes}{} is {already}on the list{why}.",
                                line(r).trim_start_matches("- ")
                            ));
                            hits.push(*r);
                        }
                        None => text.push(format!("No, {x} isn't on the list.")),
                    },
                    Named::Shown => {}
                }
            }
            // "what was the thai basil for?" — "Thai Yellow Curry": that
            // recipe is what "that one" means next.
            let recipes = rows_of_kind(c, Table::Recipes, StepType::Read);
            let for_recipes: Vec<&Value> = hits
                .iter()
                .filter_map(|h| text_field(h, "notes"))
                .flat_map(|note| {
                    let note = note.to_lowercase();
                    recipes.iter().copied().filter(move |r| {
                        text_field(r, "name").is_some_and(|n| note.contains(&n.to_lowercase()))
                    })
                })
                .collect();
            let asked_what_for = matches!(ask, Ask::WhatFor { .. });
            Said {
                text: text.join("\n"),
                presented: if asked_what_for && !for_recipes.is_empty() {
                    shown(&for_recipes)
                } else {
                    shown(&hits)
                },
                offer: None,
                confirm: None,
            }
        }
        Ask::Remove { .. } | Ask::ClearBought | Ask::ClearAll => {
            let gone = &made;
            if gone.is_empty() {
                let what = match ask {
                    Ask::ClearBought => "Nothing on the list is marked bought".to_string(),
                    _ => "I couldn't find that on the shopping list".to_string(),
                };
                return Said {
                    text: format!("{what}, so nothing changed.\n\n{rest}"),
                    presented: shown(&left),
                    offer: None,
                    confirm: None,
                };
            }
            let names: Vec<String> = gone
                .iter()
                .filter_map(|r| text_field(r, "name").map(String::from))
                .collect();
            Said {
                text: format!("Took {} off the list.\n\n{rest}", join_list(&names, "and")),
                presented: shown(&left),
                offer: None,
                confirm: None,
            }
        }
    }
}
