//! Reply for planning by day: the slots as they now stand.

use serde_json::Value;

use crate::context::{Offer, OfferKind, Shown, Table};
use crate::pipeline::StepType;

use super::super::super::reply_ctx::ReplyCtx;
use super::super::super::world::text_field;
use super::super::when::short_date;
use super::super::{Confirm, Said, rows_of_kind, why_unchanged};
use super::Ask;

/// "- Wed Jan 14 (dinner): Air Fryer Paneer Tikka".
fn line(c: &ReplyCtx<'_>, row: &Value) -> String {
    let recipe = text_field(row, "recipe_id")
        .map(|r| c.label(r))
        .unwrap_or_default();
    // Servings said in the message are said back ("for 4 people").
    let serves = super::servings_said(&c.reading)
        .and(row.get("servings").and_then(Value::as_u64))
        .map(|n| format!(" · serves {n}"))
        .unwrap_or_default();
    format!(
        "- {} ({}): {recipe}{serves}",
        short_date(text_field(row, "date").unwrap_or_default()),
        text_field(row, "meal_type").unwrap_or("dinner")
    )
}

/// A recipe matched only by an ingredient or tag, with nothing asked to
/// write ("basil for tonight"): the question, and the put a "yes" makes.
fn unconfirmed(c: &ReplyCtx<'_>) -> Option<Said> {
    let d = c.req.data.iter().rev().find(|d| {
        d.content.get("kind").and_then(Value::as_str) == Some(super::act::CONFIRM_PLAN)
    })?;
    let field = |k: &str| d.content.get(k).and_then(Value::as_str).unwrap_or_default();
    let (recipe, day) = (field("recipe"), field("day"));
    let matched: Vec<&str> = d
        .content
        .get("matched")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let question = format!("Want {recipe} on the plan for {day}?");
    let why = if matched.is_empty() {
        String::new()
    } else {
        format!(" It's the saved recipe with {}.", matched.join(" and "))
    };
    Some(Said {
        confirm: Some(Confirm {
            question: question.clone(),
            change: format!("put the {recipe} on {}", field("day_word")),
        }),
        ..Said::text(format!("{question}{why}"))
    })
}

/// The reply for a planning ask.
pub fn reply(ask: &Ask, c: &ReplyCtx<'_>) -> Said {
    if let Ask::Look { .. } = ask {
        return looked(ask, c);
    }
    let written = rows_of_kind(c, Table::MealPlans, StepType::Write);
    if let Some(asked) = unconfirmed(c) {
        return asked;
    }
    if written.is_empty() {
        let why = why_unchanged(c, "Nothing was planned");
        return Said::text(format!("{why}, so the plan is unchanged."));
    }
    // Day by day, as a week reads; what was presented keeps the order the
    // message said it in.
    let mut by_day = written.clone();
    by_day.sort_by_key(|r| text_field(r, "date").unwrap_or_default().to_string());
    let lines: Vec<String> = by_day.iter().map(|r| line(c, r)).collect();
    let lead = match ask {
        Ask::Put { .. } => "Done — it's on the plan:",
        Ask::Swap { .. } | Ask::Exchange { .. } => "Swapped — the plan now has:",
        Ask::Move { .. } => "Moved — the plan now has:",
        Ask::Look { .. } => "On the plan:",
        Ask::Remove { .. } => {
            return Said::text(format!(
                "Done — taken off the plan:\n{}\n\nThe recipe itself is still saved.",
                lines.join("\n")
            ));
        }
    };
    let recipes: Vec<Shown> = written
        .iter()
        .filter_map(|r| text_field(r, "recipe_id"))
        .map(|r| Shown::new(r, c.label(r)))
        .collect();
    let them = {
        let mut ids: Vec<&str> = recipes.iter().map(|r| r.r#ref.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() > 1 { "them" } else { "it" }
    };
    Said {
        text: format!(
            "{lead}\n{}\n\nWant me to put what's missing for {them} on the shopping list?",
            lines.join("\n")
        ),
        presented: recipes.clone(),
        offer: Some(Offer {
            kind: OfferKind::AddMissing,
            items: recipes,
        }),
        confirm: None,
    }
}

/// What the plan holds on the days asked, or that nothing is planned then
/// (with an offer to plan).
fn looked(ask: &Ask, c: &ReplyCtx<'_>) -> Said {
    let Ask::Look { days, next_week } = ask else {
        return Said::text(String::new());
    };
    // The read asked for those days only.
    let mut rows: Vec<&Value> = rows_of_kind(c, Table::MealPlans, StepType::Read);
    rows.sort_by_key(|r| text_field(r, "date").unwrap_or_default().to_string());
    rows.dedup_by_key(|r| r.get("id").cloned());
    let mut words: Vec<String> = days.iter().map(|d| d.word()).collect();
    if *next_week {
        words.push("next week".into());
    }
    let when = super::super::super::text::join_list(&words, "and");
    if rows.is_empty() {
        return Said {
            offer: Some(Offer {
                kind: OfferKind::PlanFromSaved,
                items: Vec::new(),
            }),
            ..Said::text(format!(
                "Nothing's planned for {when} yet — want to pick something from your saved recipes?"
            ))
        };
    }
    let lines: Vec<String> = rows.iter().map(|r| line(c, r)).collect();
    Said {
        text: format!("On the plan for {when}:\n{}", lines.join("\n")),
        presented: rows
            .iter()
            .filter_map(|r| text_field(r, "id"))
            .map(|r| Shown::new(r, c.label(r)))
            .collect(),
        offer: None,
        confirm: None,
    }
}
