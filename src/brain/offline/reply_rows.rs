//! Replies over rows: rows written (saved, added, removed), the plan, what
//! was asked to be shown, the inventory, what was just added, what isn't
//! saved, plain reads — and the lines they share (an edit in the past
//! tense, the plan's slots).

use crate::context::plan::StepType;
use serde_json::Value;

use super::facts::Facts;
use super::lexicon::Intent;
use super::render::{
    ingredient_text, inventory_text, item_text, recipe_block, serving_time, slot_day, slot_line,
};
use super::reply_ctx::ReplyCtx;
use super::skills::memory::Ask as MemoryAsk;
use super::text::{join_list, pick, plural, plural_noun};
use super::world::text_field;

/// The answer when the plan has no slots.
const NOTHING_PLANNED: &str =
    "There's nothing on the plan yet — want to pick some recipes for the week?";

pub(super) fn written_reply(c: &ReplyCtx<'_>, f: &Facts<'_>) -> String {
    let parts: Vec<String> = f
        .written
        .iter()
        .map(|(sub, rows)| written_part(c, sub, rows))
        .collect();
    if parts.is_empty() {
        return "Done.".to_string();
    }
    let pending = &c.req.input.snapshot.entities.pending;
    let bridge = if !pending.is_empty() {
        pending_note(pending)
    } else {
        let options: &[&str] = match f.written.first().map(|(s, _)| s.as_str()) {
            Some("meal_plans") => {
                return format!(
                    "{}\n\nWant me to put what's missing on your shopping list?",
                    parts.join("\n\n")
                );
            }
            Some("inventory") if matches!(c.reading.intent, Intent::InventoryRemove(_)) => {
                &["Anything else?", "What's next?"]
            }
            Some("inventory") => &["Anything else to add?", "Anything else?"],
            Some("recipes") => &["Want to put it on this week's plan?", "What's next?"],
            _ => &["What's next?", "Anything else?"],
        };
        pick(options, c.turn, 0).to_string()
    };
    format!("{}\n\n{bridge}", parts.join("\n\n"))
}

/// What one write step did, in a sentence (with the rows when useful).
fn written_part(c: &ReplyCtx<'_>, sub: &str, rows: &[Value]) -> String {
    if rows.is_empty() {
        // Nothing was written: say what the step found instead.
        let outcome = c
            .req
            .input
            .steps
            .iter()
            .rev()
            .find(|s| s.step_type == Some(StepType::Write))
            .map(|s| s.outcome.trim().trim_end_matches('.').to_string())
            .filter(|o| !o.is_empty())
            .unwrap_or_else(|| "Nothing needed changing".to_string());
        return format!("{outcome}.");
    }
    let names: Vec<String> = rows.iter().map(item_label).collect();
    match (sub, &c.reading.intent) {
        (_, Intent::Memory(MemoryAsk::Delete)) => {
            let what = if sub == "meal_plans" {
                "your plan"
            } else {
                "your recipes"
            };
            format!("Done — deleted {} from {what}.", join_list(&names, "and"))
        }
        ("recipes", Intent::Edit(_)) => {
            let label = c.first_referenced_label();
            let full = rows.iter().find(|r| r.get("instructions").is_some());
            let block = full
                .map(|r| format!("\n\n{}", recipe_block(r)))
                .unwrap_or_default();
            format!("Done — {}, and it's saved.{block}", change_text(c, &label))
        }
        ("recipes", _) => format!("Done — saved {} to your recipes.", join_list(&names, "and")),
        ("meal_plans", _) => {
            let slots: Vec<&Value> = rows.iter().collect();
            format!("Done — your plan is saved:\n{}", slot_lines(c, &slots))
        }
        ("inventory", Intent::InventoryRemove(_)) => {
            format!(
                "Done — removed {} from your inventory.",
                join_list(&names, "and")
            )
        }
        ("inventory", _) => inventory_written(c, rows),
        ("shopping", _) => format!("Added {} to your shopping list.", join_list(&names, "and")),
        _ => format!("Done — {}.", join_list(&names, "and")),
    }
}

fn item_label(r: &Value) -> String {
    text_field(r, "name")
        .map(String::from)
        .or_else(|| r.get("date").map(|_| slot_day(r)))
        .unwrap_or_else(|| "it".to_string())
}

pub(super) fn plan_reply(c: &ReplyCtx<'_>, p: &Value) -> String {
    let slots: Vec<&Value> = p["slots"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    if slots.is_empty() {
        return NOTHING_PLANNED.to_string();
    }
    let unsaved = slots.iter().any(|s| s["saved"] == Value::Bool(false));
    let returning = c
        .reading
        .words
        .has_any(&["back", "where were we", "resume", "continue"]);
    let lead = match c.reading.intent {
        Intent::ShowPlan if returning => pick(
            &[
                "Sure — here's where we were:",
                "Back to the plan — here it is:",
            ],
            c.turn,
            0,
        ),
        _ => "Here's what's planned:",
    };
    let tail = if unsaved {
        "It's not saved yet — say \"save it\" when you're happy.".to_string()
    } else {
        "Want to change a day, or put what's missing on the shopping list?".to_string()
    };
    format!("{lead}\n{}\n\n{tail}", slot_lines(c, &slots))
}

pub(super) fn show_reply(c: &ReplyCtx<'_>, items: &[&Value]) -> String {
    let mut blocks = Vec::new();
    let mut pending = false;
    for v in items {
        let r = v.get("id").and_then(Value::as_str).unwrap_or_default();
        pending |= c.is_pending(r);
        if v.get("date").is_some() {
            let name = c.label(text_field(v, "recipe_id").unwrap_or_default());
            blocks.push(slot_line(v, &name));
        } else if v.get("location").is_some() {
            blocks.push(format!("- {}", item_text(v)));
        } else {
            blocks.push(recipe_block(v));
        }
    }
    let lead = pick(
        &["Here it is:", "Sure — here you go:", "Here's that one:"],
        c.turn,
        0,
    );
    let tail = if pending {
        "It's not saved yet — want me to save it, or change something?".to_string()
    } else {
        "Want to put it on the plan, or tweak it?".to_string()
    };
    format!("{lead}\n\n{}\n\n{tail}", blocks.join("\n\n"))
}

pub(super) fn inventory_reply(c: &ReplyCtx<'_>, items: &[Value], loc: Option<&str>) -> String {
    let place = loc.map_or("kitchen".to_string(), String::from);
    if let Intent::HaveItem(x) = &c.reading.intent {
        return if items.is_empty() {
            format!("No {x} in the kitchen right now — want me to add some to the shopping list?")
        } else {
            let found: Vec<String> = items.iter().map(item_text).collect();
            format!("Yes — you have {}.", join_list(&found, "and"))
        };
    }
    if items.is_empty() {
        return format!("Your {place} looks empty right now. Want to add something?");
    }
    let lead = pick(
        &[
            "Here's what's in your",
            "Here's your",
            "This is what's in your",
        ],
        c.turn,
        0,
    );
    format!(
        "{lead} {place} ({}):\n{}\n\n{}",
        plural(items.len(), "item"),
        inventory_text(items),
        pick(
            &[
                "Want ideas that use what's there?",
                "Anything you'd like to cook with these?"
            ],
            c.turn,
            1
        )
    )
}

pub(super) fn recall_reply(r: &Value) -> String {
    let items: Vec<&Value> = r["items"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    if items.is_empty() {
        return "You haven't added anything yet this session.".to_string();
    }
    let things: Vec<String> = items
        .iter()
        .map(|i| {
            let mut v = (*i).clone();
            if let Some(l) = i.get("label") {
                v["name"] = l.clone();
            }
            ingredient_text(&v)
        })
        .collect();
    let place = items.first().and_then(|i| text_field(i, "location"));
    match place {
        Some(p) => format!("You just added {} to your {p}.", join_list(&things, "and")),
        None => format!(
            "The last thing you added was {}.",
            join_list(&things, "and")
        ),
    }
}

pub(super) fn unsaved_reply(c: &ReplyCtx<'_>, u: &Value) -> String {
    let pending: Vec<String> = u["pending"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["label"].as_str().map(String::from))
        .collect();
    if pending.is_empty() {
        return "Everything's saved — nothing is waiting.".to_string();
    }
    let saved: Vec<String> = u["saved"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["label"].as_str().map(String::from))
        .collect();
    let mut out = format!(
        "{} not saved yet:\n",
        if pending.len() == 1 {
            "One thing is"
        } else {
            "These are"
        }
    );
    out.push_str(
        &pending
            .iter()
            .map(|p| format!("- {p}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    if !saved.is_empty() {
        out.push_str(&format!(
            "\n\n(Already saved: {}.)",
            join_list(&saved, "and")
        ));
    }
    out.push_str("\n\n");
    let it = if pending.len() == 1 { "it" } else { "them" };
    let ask = pick(
        &["Want me to save {it}?", "Shall I save {it} now?"],
        c.turn,
        0,
    );
    out.push_str(&ask.replace("{it}", it));
    out
}

pub(super) fn read_reply(c: &ReplyCtx<'_>, sub: &str, rows: &[Value]) -> String {
    match sub {
        "inventory" => {
            let loc = match &c.reading.intent {
                Intent::Pantry(l) => l.clone(),
                _ => None,
            };
            inventory_reply(c, rows, loc.as_deref())
        }
        "meal_plans" => {
            let slots: Vec<&Value> = rows.iter().collect();
            if slots.is_empty() {
                return NOTHING_PLANNED.to_string();
            }
            format!("Here's what's planned:\n{}", slot_lines(c, &slots))
        }
        "shopping" => {
            if rows.is_empty() {
                return "Your shopping list is empty.".to_string();
            }
            let lines: Vec<String> = rows.iter().map(|r| format!("- {}", item_text(r))).collect();
            format!(
                "Your shopping list ({}):\n{}",
                plural(rows.len(), "item"),
                lines.join("\n")
            )
        }
        _ => recipes_read_reply(c, rows),
    }
}

fn recipes_read_reply(c: &ReplyCtx<'_>, rows: &[Value]) -> String {
    // What the user asked for by name is shown; anything else a standing
    // constraint rules out is named in a note, not offered.
    let named = &c.req.understand.referenced_entities;
    let mut ruled_out: Vec<String> = Vec::new();
    let rows: Vec<Value> = rows
        .iter()
        .filter(|row| {
            let r = row.get("id").and_then(Value::as_str).unwrap_or_default();
            let out = !named.iter().any(|n| n == r) && is_ruled_out(c, r);
            if out {
                ruled_out.push(c.label(r));
            }
            !out
        })
        .cloned()
        .collect();
    let them = if ruled_out.len() == 1 { "it" } else { "them" };
    if rows.is_empty() && !ruled_out.is_empty() {
        return format!(
            "Only {} would fit, and you ruled {them} out — say so if you want {them} back.",
            join_list(&ruled_out, "and")
        );
    }
    let reply = recipes_listing(c, &rows);
    if ruled_out.is_empty() {
        return reply;
    }
    format!(
        "{reply}\n\n({} would fit too, but you ruled {them} out.)",
        join_list(&ruled_out, "and")
    )
}

/// True when a standing constraint rules `r` out now.
pub(super) fn is_ruled_out(c: &ReplyCtx<'_>, r: &str) -> bool {
    c.constraints(crate::context::ConstraintStatus::Active)
        .any(|k| k.covers.iter().any(|x| x == r))
}

fn recipes_listing(c: &ReplyCtx<'_>, rows: &[Value]) -> String {
    if rows.is_empty() {
        if let Intent::FindByIngredient(x) = &c.reading.intent {
            // Words that name no food ("use up soon"): not read, not
            // searched for.
            if super::vocab::food_mentions(&super::text::Words::new(x).words).is_empty() {
                return super::reader::decline::Declined {
                    unread: c.req.input.user_message.trim().to_string(),
                    ..Default::default()
                }
                .reply();
            }
            return format!(
                "None of your saved recipes use {} — want me to come up with one?",
                super::text::plural_noun(x)
            );
        }
        let said = super::targets::name_words(&c.reading.words.words);
        // Words that name food, not a recipe ("the tomatoes can go too"):
        // say what it could not tell, and what it can do with them.
        if !super::vocab::food_mentions(&said).is_empty() {
            return super::reply::last_resort(c);
        }
        if said.is_empty() {
            return "I couldn't find that in your saved recipes — want me to create one?"
                .to_string();
        }
        // "the 24th", "leftovers": words that are no dish's name are not
        // searched for as one; what could not be read is said instead.
        let no_dish = said.iter().all(|w| {
            w.chars().any(|c| c.is_ascii_digit())
                || super::vocab::is_known_word(w) && !super::vocab::is_food_word(w)
        });
        if no_dish {
            return super::reply::last_resort(c);
        }
        return format!(
            "None of your saved recipes is \"{}\" — want me to create one?",
            said.join(" ")
        );
    }
    if rows.len() <= 2 {
        let refs: Vec<&Value> = rows.iter().collect();
        return show_reply(c, &refs);
    }
    let lines: Vec<String> = rows
        .iter()
        .map(|r| {
            let st = serving_time(r);
            let name = text_field(r, "name").unwrap_or("?");
            if st.is_empty() {
                format!("- {name}")
            } else {
                format!("- {name} ({st})")
            }
        })
        .collect();
    format!(
        "Here are {}:\n{}\n\nWant the full recipe for any of them?",
        plural(rows.len(), "recipe"),
        lines.join("\n")
    )
}

/// "Air Fryer Chicken Fajitas is not saved yet.", "The plan for Sun Jan 18
/// and Wed Jan 14 is not saved yet."
fn pending_note(pending: &[crate::context::EntityView]) -> String {
    let meals: Vec<String> = pending
        .iter()
        .filter(|v| v.entity_type == "meal_plan")
        .map(|v| v.label.split(" [").next().unwrap_or(&v.label).to_string())
        .collect();
    let others: Vec<String> = pending
        .iter()
        .filter(|v| v.entity_type != "meal_plan")
        .map(|v| v.label.clone())
        .collect();
    let mut parts = Vec::new();
    if !meals.is_empty() {
        parts.push(format!("the plan for {}", join_list(&meals, "and")));
    }
    if !others.is_empty() {
        parts.push(join_list(&others, "and"));
    }
    let verb = if parts.len() > 1 || others.len() > 1 {
        "are"
    } else {
        "is"
    };
    let text = format!("{} {verb} not saved yet.", parts.join(" and "));
    let mut chars = text.chars();
    chars
        .next()
        .map(|f| f.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Rows added to (or topped up in) the inventory, in a sentence.
fn inventory_written(c: &ReplyCtx<'_>, rows: &[Value]) -> String {
    let place = rows
        .first()
        .and_then(|r| text_field(r, "location"))
        .unwrap_or("kitchen");
    let updated = |r: &&Value| {
        let id = r.get("id").and_then(Value::as_str).unwrap_or_default();
        c.req
            .input
            .snapshot
            .entities
            .find(id)
            .is_some_and(|(_, v)| v.action == "updated")
    };
    let added: Vec<String> = rows
        .iter()
        .filter(|r| !updated(r))
        .map(ingredient_text)
        .collect();
    let topped: Vec<String> = rows.iter().filter(updated).map(item_text).collect();
    let mut parts = Vec::new();
    if !added.is_empty() {
        parts.push(format!(
            "added {} to your {place}",
            join_list(&added, "and")
        ));
    }
    if !topped.is_empty() {
        parts.push(format!("topped up {}", join_list(&topped, "and")));
    }
    let text = parts.join(" and ");
    let mut chars = text.chars();
    let first = chars
        .next()
        .map(|f| f.to_uppercase().collect::<String>())
        .unwrap_or_default();
    format!("{first}{}.", chars.as_str())
}

/// What an edit did to `label`, in the past tense: "added a squeeze of
/// lime to Thai Basil Chicken", "took the eggs out of Shakshuka".
pub(super) fn change_text(c: &ReplyCtx<'_>, label: &str) -> String {
    let names =
        |n: &[String]| join_list(&n.iter().map(|x| plural_noun(x)).collect::<Vec<_>>(), "and");
    match &c.reading.intent {
        Intent::Edit(op) => op.past(Some(label)),
        Intent::Exclude(ex) => {
            let terms: Vec<String> = ex.iter().map(|e| e.term.clone()).collect();
            format!("took the {} out of {label}", names(&terms))
        }
        _ => format!("updated {label}"),
    }
}

pub(super) fn slot_lines(c: &ReplyCtx<'_>, slots: &[&Value]) -> String {
    let mut sorted: Vec<&&Value> = slots.iter().collect();
    sorted.sort_by(|a, b| a["date"].as_str().cmp(&b["date"].as_str()));
    sorted
        .iter()
        .map(|s| {
            let name = text_field(s, "recipe_name")
                .map(String::from)
                .unwrap_or_else(|| c.label(text_field(s, "recipe_id").unwrap_or("?")));
            slot_line(s, &name)
        })
        .collect::<Vec<_>>()
        .join("\n")
}
