//! Reply over results: what this turn's step data holds (options, a plan,
//! generated or edited recipes, rows written or read) and the paragraph
//! each one becomes — acknowledgement, presentation, bridge.
//!
//! `None` from [`compose_results`] means there was nothing to present; the
//! caller answers conversationally instead.

use serde_json::Value;

use crate::context::taxonomy;
use crate::context::{ConstraintMatch, ConstraintStatus, Rule};

use super::facts::Facts;
use super::lexicon::Intent;
use super::render::{option_line, recipe_block};
use super::reply_ctx::ReplyCtx;
use super::reply_rows::{
    change_text, inventory_reply, plan_reply, read_reply, recall_reply, show_reply, slot_lines,
    unsaved_reply, written_reply,
};
use super::skills::memory::Ask as MemoryAsk;
use super::text::{join_list, pick, plural};
use super::world::{text_field, texts};

/// The reply built from results, or `None` when there are none.
pub fn compose_results(c: &ReplyCtx<'_>, f: &Facts<'_>) -> Option<String> {
    if c.reading.intent == Intent::Memory(MemoryAsk::SearchHistory) {
        return Some(super::skills::memory::reply::history_reply(c));
    }
    if let Some(o) = f.options {
        return Some(options_reply(c, o));
    }
    if !f.edited.is_empty() {
        return Some(edited_reply(c, f));
    }
    if !f.new_recipes.is_empty() {
        return Some(generated_reply(c, &f.new_recipes));
    }
    if !f.new_slots.is_empty() {
        // With the whole plan shown alongside, present all of it.
        let whole: Vec<&Value> = f
            .plan
            .and_then(|p| p["slots"].as_array())
            .map(|a| a.iter().collect())
            .unwrap_or_default();
        let slots = if whole.is_empty() {
            &f.new_slots
        } else {
            &whole
        };
        return Some(plan_draft_reply(c, slots));
    }
    if !f.written.is_empty() {
        return Some(written_reply(c, f));
    }
    if let Some(p) = f.plan {
        return Some(plan_reply(c, p));
    }
    if !f.show.is_empty() {
        return Some(show_reply(c, &f.show));
    }
    if let Some(i) = f.inventory {
        let items: Vec<Value> = i["items"].as_array().cloned().unwrap_or_default();
        return Some(inventory_reply(c, &items, i["location"].as_str()));
    }
    if let Some(r) = f.recall {
        return Some(recall_reply(r));
    }
    if let Some(u) = f.unsaved {
        return Some(unsaved_reply(c, u));
    }
    f.read.first().map(|(sub, rows)| read_reply(c, sub, rows))
}

fn ack(c: &ReplyCtx<'_>, salt: u32) -> &'static str {
    pick(&["Got it", "Okay", "Sure thing", "Right"], c.turn, salt)
}

fn week(c: &ReplyCtx<'_>) -> &'static str {
    if c.reading.words.has("week") || c.planning() {
        " this week"
    } else {
        ""
    }
}

fn options_bridge(c: &ReplyCtx<'_>, n: usize) -> String {
    let days = c.days();
    let when = if days.is_empty() {
        "the week".to_string()
    } else {
        days
    };
    if n == 0 {
        return "Want me to come up with something new instead?".to_string();
    }
    if !c.planning() {
        return pick(
            &[
                "Want the full recipe for any of them, or something new?",
                "Shall I open one of them, or put a couple on this week's plan?",
            ],
            c.turn,
            0,
        )
        .to_string();
    }
    match c.turn % 3 {
        0 => format!("Want to pick a couple for {when}, or should we narrow down further?"),
        1 => format!("Any of these you'd like for {when}? Or tell me what else to rule out."),
        _ => format!(
            "Which ones sound good for {when} — or anything else you're not in the mood for?"
        ),
    }
}

fn options_reply(c: &ReplyCtx<'_>, o: &Value) -> String {
    let opts: Vec<&Value> = o["options"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let n = opts.len();
    let mut out = options_lead(c, o, n);
    for o in &opts {
        out.push('\n');
        out.push_str(&option_line(o));
    }
    if c.reading.intent == Intent::ListRecipes
        && let Some(line) = ruled_out_line(c)
    {
        out.push_str("\n\n");
        out.push_str(&line);
    }
    out.push_str("\n\n");
    out.push_str(&options_bridge(c, n));
    out
}

/// "Also in your recipes, ruled out for now: …": a listing never hides a
/// saved recipe without saying so.
fn ruled_out_line(c: &ReplyCtx<'_>) -> Option<String> {
    let standing: Vec<_> = c
        .constraints(ConstraintStatus::Active)
        .filter(|k| !k.covers.is_empty())
        .collect();
    let mut labels: Vec<String> = Vec::new();
    for r in standing.iter().flat_map(|k| &k.covers) {
        let l = c.label(r);
        if !labels.contains(&l) {
            labels.push(l);
        }
    }
    if labels.is_empty() {
        return None;
    }
    let why: Vec<&str> = standing.iter().map(|k| k.label.as_str()).collect();
    Some(format!(
        "Also in your recipes, ruled out for now ({}): {}.",
        why.join("; "),
        join_list(&labels, "and")
    ))
}

/// What this turn's new standing constraints rule out: for each, how to
/// say it ("no cod", "vegetarian") and the labels it covers.
fn ruled_out_now(c: &ReplyCtx<'_>) -> Vec<(String, Vec<String>)> {
    let s = c.req.input.snapshot;
    c.constraints(ConstraintStatus::Active)
        .filter(|k| k.since_turn == c.turn)
        .map(|k| {
            // Only what this turn ruled out: covers already out stay unsaid.
            let labels: Vec<String> = k
                .covers
                .iter()
                .filter(|r| s.state_of(r) == Some(crate::context::EntityState::Excluded))
                .map(|r| c.label(r))
                .collect();
            // "no wings" covering one recipe named for them reads "no Dry
            // Rub Wings", as the user would say it.
            let one_named = match (&k.matches, labels.as_slice()) {
                (ConstraintMatch::Ingredient { name }, [l]) => {
                    taxonomy::contains_phrase(&taxonomy::words(l), name)
                }
                _ => false,
            };
            let said = match &k.matches {
                ConstraintMatch::Entity { .. } if !labels.is_empty() => {
                    format!("no {}", join_list(&labels, "or"))
                }
                _ if one_named && k.rule == Rule::Exclude => format!("no {}", labels[0]),
                _ => k.label.clone(),
            };
            (said, labels)
        })
        .collect()
}

/// "Got it — no Chai French Toast or Dry Rub Wings this week. That leaves
/// us with 4 solid options:", "Got it — no cod this week. That rules out
/// Kerala Cod Curry, … Here are the 6 options left:".
fn ruled_out_lead(c: &ReplyCtx<'_>, by_rule: &[(String, Vec<String>)], n: usize) -> String {
    let labels: Vec<String> = by_rule.iter().flat_map(|(_, l)| l.clone()).collect();
    let named_each = by_rule
        .iter()
        .all(|(s, l)| l.len() == 1 && s.contains(l[0].as_str()));
    let said: Vec<String> = by_rule.iter().map(|(s, _)| s.clone()).collect();
    let said = join_said(&said);
    let mut out = format!("{} — {said}{}.", ack(c, 1), week(c));
    if !named_each {
        if labels.is_empty() {
            out.push_str(" None of the options in front of us were affected.");
        } else {
            out.push_str(&format!(" That rules out {}.", join_list(&labels, "and")));
        }
    }
    let left = match n {
        0 => "Nothing's left after that.".to_string(),
        1 => "Here's the one option left:".to_string(),
        _ if named_each => format!("That leaves us with {}:", plural(n, "solid option")),
        _ => format!("Here are the {n} options left:"),
    };
    format!("{out}\n\n{left}")
}

/// "no cod", "no french toast" → "no cod or french toast"; other rules
/// joined by "and".
fn join_said(said: &[String]) -> String {
    let (no, other): (Vec<&String>, Vec<&String>) = said.iter().partition(|s| s.starts_with("no "));
    let mut parts = Vec::new();
    if !no.is_empty() {
        let rest: Vec<String> = no.iter().map(|s| s["no ".len()..].to_string()).collect();
        parts.push(format!("no {}", join_list(&rest, "or")));
    }
    parts.extend(other.into_iter().cloned());
    join_list(&parts, "and")
}

/// "Sure — cod is back on the table. That brings back …": a constraint
/// lifted this turn and what it released.
fn lifted_lead(c: &ReplyCtx<'_>, n: usize) -> Option<String> {
    let s = c.req.input.snapshot;
    let lifted: Vec<_> = c.constraints(ConstraintStatus::Lifted).collect();
    if lifted.is_empty() {
        return None;
    }
    let mut back = Vec::new();
    let mut still = Vec::new();
    let mut why: Vec<String> = Vec::new();
    for r in lifted.iter().flat_map(|k| &k.covers) {
        match s.entities.find(r) {
            Some((state, _)) if state.is_active() => back.push(c.label(r)),
            Some(_) => {
                still.push(c.label(r));
                let other = c
                    .constraints(ConstraintStatus::Active)
                    .find(|k| k.covers.contains(r));
                if let Some(k) = other
                    && !why.contains(&k.label)
                {
                    why.push(k.label.clone());
                }
            }
            None => {}
        }
    }
    // "no wings" over the one recipe named for them: "Dry Rub Wings is back in".
    let named = |k: &&crate::context::ConstraintView| {
        k.covers.len() == 1
            && taxonomy::contains_phrase(
                &taxonomy::words(&c.label(&k.covers[0])),
                k.label.trim_start_matches("no ").trim_start_matches("not "),
            )
    };
    let mut out = if lifted.iter().all(named) && !back.is_empty() {
        let out = format!("{} — {} is back in.", ack(c, 3), join_list(&back, "and"));
        back.clear();
        out
    } else {
        let what: Vec<String> = lifted
            .iter()
            .map(|k| {
                k.label
                    .trim_start_matches("no ")
                    .trim_start_matches("not ")
                    .to_string()
            })
            .collect();
        format!(
            "{} — {} is back on the table.",
            ack(c, 3),
            join_list(&what, "and")
        )
    };
    if !back.is_empty() {
        out.push_str(&format!(" That brings back {}.", join_list(&back, "and")));
    }
    if !still.is_empty() {
        let (verb, them) = if still.len() == 1 {
            ("stays", "it")
        } else {
            ("stay", "them")
        };
        let reason = if why.is_empty() {
            "for another reason".to_string()
        } else {
            format!("too ({})", join_list(&why, "and"))
        };
        out.push_str(&format!(
            " {} {verb} out — you ruled {them} out {reason}.",
            join_list(&still, "and")
        ));
    }
    Some(format!("{out}\n\nThat gives us {}:", plural(n, "option")))
}

/// "Got it — no cod this week. That rules out …" (ruled out by the
/// analysis of rows read this turn).
fn terms_lead(c: &ReplyCtx<'_>, o: &Value, terms: &[String], n: usize) -> String {
    let ruled: Vec<String> = o["excluded"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.keys())
        .filter(|k| k.starts_with("recipe_") || k.starts_with("gen_"))
        .map(|k| c.label(k))
        .collect();
    let mut out = format!("{} — no {}{}.", ack(c, 2), join_list(terms, "or"), week(c));
    if !ruled.is_empty() {
        out.push_str(&format!(" That rules out {}.", join_list(&ruled, "and")));
    }
    let left = match n {
        0 => "Nothing's left after that.".to_string(),
        1 => "Here's the one option left:".to_string(),
        _ => format!("Here are the {n} options left:"),
    };
    format!("{out}\n\n{left}")
}

/// "in 30 minutes or less, with nothing to buy and nothing spicy".
fn make_said(m: &super::reader::acts::MakeFilter) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(n) = m.minutes {
        parts.push(format!("in {n} minutes or less"));
    }
    if m.stocked {
        parts.push("with nothing to buy".into());
    }
    if m.mild {
        parts.push("with nothing spicy".into());
    }
    join_list(&parts, "and")
}

/// The opening of an options reply: acknowledge what was ruled out (or
/// brought back), then introduce the list.
fn options_lead(c: &ReplyCtx<'_>, o: &Value, n: usize) -> String {
    let by_rule = ruled_out_now(c);
    if !by_rule.is_empty() {
        return ruled_out_lead(c, &by_rule, n);
    }
    if let Some(lead) = lifted_lead(c, n) {
        return lead;
    }
    let terms = texts(o.get("terms"));
    if !terms.is_empty() {
        return terms_lead(c, o, &terms, n);
    }
    match &c.reading.intent {
        Intent::Include => {
            let back: Vec<String> = c
                .req
                .understand
                .referenced_entities
                .iter()
                .map(|r| c.label(r))
                .collect();
            // "fish is fine btw" with nothing ruled out: say so, never
            // "Sure —  is back in".
            if back.is_empty() {
                return format!(
                    "Nothing was ruled out, so nothing comes back — all {} are still in:",
                    plural(n, "option")
                );
            }
            format!(
                "Sure — {} is back in. That gives us {}:",
                join_list(&back, "and"),
                plural(n, "option")
            )
        }
        Intent::ShowPlan => {
            format!(
                "Back to the planning — we'd narrowed it down to {}:",
                plural(n, "option")
            )
        }
        // Every saved recipe ruled out: say so, not an empty list.
        Intent::WhatCanIMake if n == 0 && !c.reading.make.is_empty() => format!(
            "None of your saved recipes can be made {}.",
            make_said(&c.reading.make)
        ),
        Intent::WhatCanIMake if n == 0 => {
            let rules: Vec<String> = c
                .constraints(ConstraintStatus::Active)
                .map(|k| k.label.clone())
                .collect();
            if rules.is_empty() {
                "None of your saved recipes can be made right now.".to_string()
            } else {
                format!(
                    "None of your saved recipes fit what you've ruled out ({}).",
                    join_list(&rules, "and")
                )
            }
        }
        Intent::WhatCanIMake if !c.reading.make.is_empty() => format!(
            "Here's what you can make {}, closest to ready first:",
            make_said(&c.reading.make)
        ),
        Intent::WhatCanIMake => "Here's what you can make, closest to ready first:".to_string(),
        Intent::FindByIngredient(x) if n == 0 => {
            format!("None of the recipes in front of us use {x}.")
        }
        Intent::FindByIngredient(x) => format!("{} with {x}:", plural(n, "recipe")),
        // "what's left" narrows what we've talked about; it is not every
        // saved recipe.
        Intent::ListRecipes if !c.planning() && !c.reading.lists_everything() => format!(
            "Of the recipes we've talked about, {} left:",
            if n == 1 {
                "1 is".to_string()
            } else {
                format!("{n} are")
            }
        ),
        Intent::ListRecipes if !c.planning() => format!("You have {}:", plural(n, "saved recipe")),
        _ => format!(
            "Here {} {}:",
            if n == 1 { "is" } else { "are" },
            plural(n, "recipe")
        ),
    }
}

fn edited_reply(c: &ReplyCtx<'_>, f: &Facts<'_>) -> String {
    let mut out = String::new();
    for (r, v) in &f.edited {
        let label = text_field(v, "name").map_or_else(|| c.label(r), String::from);
        out.push_str(&format!(
            "{} — {}. Here's the updated recipe:\n\n{}\n\n",
            pick(&["Done", "Done", "All set"], c.turn, 0),
            change_text(c, &label),
            recipe_block(v)
        ));
    }
    out.push_str(pick(
        &[
            "It's still not saved yet — save it now, or keep tweaking?",
            "Still not saved yet — want to save it, or change anything else?",
        ],
        c.turn,
        0,
    ));
    out
}

fn generated_reply(c: &ReplyCtx<'_>, recipes: &[&Value]) -> String {
    let mut out = String::new();
    let variation = recipes.iter().any(|r| r.get("parent_recipe_id").is_some());
    if variation {
        let original = c.first_referenced_label();
        out.push_str(&format!(
            "Done — {}, as a new version so the saved one stays as it is:\n\n",
            change_text(c, &original)
        ));
    } else if recipes.len() == 1 {
        out.push_str(pick(
            &[
                "Here's one for you:\n\n",
                "Sure — here you go:\n\n",
                "How about this:\n\n",
            ],
            c.turn,
            0,
        ));
    } else {
        out.push_str(&format!("Here are {} ideas:\n\n", recipes.len()));
    }
    let blocks: Vec<String> = recipes.iter().map(|r| recipe_block(r)).collect();
    out.push_str(&blocks.join("\n\n"));
    out.push_str("\n\n");
    out.push_str(if recipes.len() == 1 {
        pick(
            &[
                "It's not saved yet — want me to save it, or tweak something first?",
                "This one's not saved yet — save it, or change anything first?",
            ],
            c.turn,
            0,
        )
    } else {
        "They're not saved yet — save one (\"save the first one\") or both, or ask me to change something."
    });
    out
}

fn plan_draft_reply(c: &ReplyCtx<'_>, slots: &[&Value]) -> String {
    let lead = if slots.len() == 1 {
        pick(&["Good choice", "Sounds tasty", "Nice one"], c.turn, 0)
    } else {
        pick(&["Nice picks", "Love it", "Great choices"], c.turn, 0)
    };
    format!(
        "{lead} — here's the plan:\n{}\n\nIt's not saved yet — say \"save it\" when you're happy, or swap anything.",
        slot_lines(c, slots)
    )
}
