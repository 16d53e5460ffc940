//! Reply for stock: amounts with where they are, dates with how far off,
//! and what changed.

use serde_json::Value;

use crate::context::{Offer, OfferKind, Table};
use crate::pipeline::StepType;

use super::super::super::reply_ctx::ReplyCtx;
use super::super::super::text::{fmt_number, join_list};
use super::super::super::world::{num_field, text_field};
use super::super::when::short_date;
use super::super::{Named, best, shown, why_unchanged};
use super::super::{Said, outcomes, rows_of_kind};
use super::Ask;

/// "in the fridge", "on the counter".
fn at(place: &str) -> String {
    match place {
        "counter" | "shelf" => format!("on the {place}"),
        _ => format!("in the {place}"),
    }
}

/// "1 l", "2 cans".
pub(in super::super) fn qty(row: &Value) -> String {
    let q = num_field(row, "quantity")
        .map(fmt_number)
        .unwrap_or_default();
    let unit = text_field(row, "unit").unwrap_or_default();
    let many = num_field(row, "quantity").is_some_and(|n| n != 1.0);
    let unit = if many && !matches!(unit, "g" | "kg" | "ml" | "l" | "pcs" | "") {
        super::super::super::text::plural_noun(unit)
    } else {
        unit.to_string()
    };
    format!("{q} {unit}")
}

/// "jasmine rice (2 kg) in the pantry".
fn amount(row: &Value) -> String {
    let name = text_field(row, "name").unwrap_or("?");
    let place = text_field(row, "location").unwrap_or("kitchen");
    format!("{name} ({}) {}", qty(row), at(place))
}

/// "milk (fridge) — goes off Thu Jan 15".
fn dated(row: &Value) -> String {
    let name = text_field(row, "name").unwrap_or("?");
    let place = text_field(row, "location").unwrap_or("kitchen");
    match text_field(row, "expiry_date") {
        Some(d) => format!(
            "{name} ({}) {} — goes off {}",
            qty(row),
            at(place),
            short_date(d)
        ),
        None => format!(
            "{name} ({}) {} — no use-by date, it keeps",
            qty(row),
            at(place)
        ),
    }
}

fn bullets(rows: &[&Value], f: impl Fn(&Value) -> String) -> String {
    rows.iter()
        .map(|r| format!("- {}", f(r)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The reply for a stock ask.
pub fn reply(ask: &Ask, c: &ReplyCtx<'_>) -> Said {
    let mut found: Vec<&Value> = rows_of_kind(c, Table::Inventory, StepType::Read);
    found.extend(rows_of_kind(c, Table::Inventory, StepType::Analyze));
    match ask {
        Ask::Expiring { location } => {
            let place = location
                .as_deref()
                .map_or(String::new(), |l| format!(" in the {l}"));
            if found.is_empty() {
                return Said::text(format!(
                    "Nothing{place} goes off in the next few days — you're fine for now."
                ));
            }
            Said {
                text: format!(
                    "Going off soonest{place}:\n{}\n\nWant a recipe that uses some of these?",
                    bullets(&found, dated)
                ),
                presented: shown(&found),
                offer: Some(Offer {
                    kind: OfferKind::FindRecipes,
                    items: shown(&found),
                }),
                confirm: None,
            }
        }
        Ask::ExpiryOf { items } => {
            let (hits, missing) = split(items, &found);
            let mut text = match hits.as_slice() {
                [] => String::new(),
                [one] => format!("Your {}.", dated(one)),
                many => bullets(many, dated),
            };
            if !missing.is_empty() {
                if !text.is_empty() {
                    text.push_str("\n\n");
                }
                text.push_str(&format!(
                    "There's no {} in the kitchen.",
                    join_list(&missing, "or")
                ));
            }
            Said {
                text,
                presented: shown(&hits),
                offer: None,
                confirm: None,
            }
        }
        Ask::HowMuch { items, location } => {
            let (hits, missing) = split(items, &found);
            let place = location
                .as_deref()
                .map_or("the kitchen".to_string(), |l| format!("the {l}"));
            let mut text = match hits.as_slice() {
                [] => String::new(),
                // "how much paneer is left" asks an amount, "got paneer?"
                // a yes or no.
                [one] if c.reading.words.has_any(&["how much", "how many"]) => {
                    let name = text_field(one, "name").unwrap_or("?");
                    let place = text_field(one, "location").unwrap_or("kitchen");
                    // "3 limes", not "3 pcs of lime".
                    let counted = matches!(text_field(one, "unit"), Some("pcs" | "") | None);
                    match num_field(one, "quantity") {
                        Some(n) if counted => {
                            let noun = if n == 1.0 {
                                name.to_string()
                            } else {
                                super::super::super::text::plural_noun(name)
                            };
                            format!("You have {} {noun} {}.", fmt_number(n), at(place))
                        }
                        _ => format!("You have {} of {name} {}.", qty(one), at(place)),
                    }
                }
                // "do we need milk": what there is, not a yes to the need;
                // "enough cod for four": what there is, the need unknown
                // without a dish.
                [one] if c.reading.words.has_any(&["enough", "sufficient"]) => {
                    format!(
                        "You have {} — whether that's enough depends on the dish: say which recipe and I'll check it.",
                        amount(one)
                    )
                }
                [one] if c.reading.words.has_any(&["need", "buy", "get"]) => {
                    format!("You have {} already.", amount(one))
                }
                [one] => format!("Yes — you have {}.", amount(one)),
                many => format!("You've got:\n{}", bullets(many, amount)),
            };
            if !missing.is_empty() {
                if !text.is_empty() {
                    text.push_str("\n\n");
                }
                text.push_str(&format!(
                    "No {} in {place} right now — want it on the shopping list?",
                    join_list(
                        &missing
                            .iter()
                            .map(|m| super::super::super::text::plural_noun(m))
                            .collect::<Vec<_>>(),
                        "or"
                    )
                ));
            }
            Said {
                text,
                presented: shown(&hits),
                offer: None,
                confirm: None,
            }
        }
        Ask::Use { .. } => used(c),
        Ask::Cooked { recipe, servings } => cooked(c, recipe, *servings, &found),
        Ask::UsedWhat { said } => Said::text(format!("{said} of what?")),
        Ask::Move { to, .. } => moved(c, to),
        Ask::Set { .. } => set(c),
        Ask::SetExpiry { .. } => expiry_set(c),
        Ask::MovePart { to, .. } => super::split::reply(c, to),
    }
}

/// "Updated greek yogurt: 240 g in the fridge now.", or why nothing
/// changed.
fn set(c: &ReplyCtx<'_>) -> Said {
    let written = rows_of_kind(c, Table::Inventory, StepType::Write);
    let Some(row) = written.first() else {
        let why = why_unchanged(c, "I couldn't tell which item you meant");
        return Said::text(format!("{why}, so nothing changed."));
    };
    let name = text_field(row, "name").unwrap_or("it");
    let amount = match (num_field(row, "quantity"), text_field(row, "unit")) {
        (Some(q), Some(u)) => format!("{} {u}", super::super::super::text::fmt_number(q)),
        (Some(q), None) => super::super::super::text::fmt_number(q),
        _ => "changed".to_string(),
    };
    let place = text_field(row, "location")
        .map(|l| format!(" in the {l}"))
        .unwrap_or_default();
    Said {
        text: format!("Updated {name}: {amount}{place} now."),
        presented: shown(&written),
        offer: None,
        confirm: None,
    }
}

/// "Updated milk: use by Wed Jan 14 now.", or why nothing changed.
fn expiry_set(c: &ReplyCtx<'_>) -> Said {
    let written = rows_of_kind(c, Table::Inventory, StepType::Write);
    let Some(row) = written.first() else {
        let why = why_unchanged(c, "I couldn't tell which item you meant");
        return Said::text(format!("{why}, so nothing changed."));
    };
    let name = text_field(row, "name").unwrap_or("it");
    let date = text_field(row, "expiry_date")
        .map(super::super::when::short_date)
        .unwrap_or_else(|| "the day you said".to_string());
    let place = text_field(row, "location")
        .map(|l| format!(" (in the {l})"))
        .unwrap_or_default();
    Said {
        text: format!("Updated {name}{place}: use by {date} now."),
        presented: shown(&written),
        offer: None,
        confirm: None,
    }
}

/// "Moved the naan to the freezer.", or why nothing moved.
fn moved(c: &ReplyCtx<'_>, to: &str) -> Said {
    let written = rows_of_kind(c, Table::Inventory, StepType::Write);
    if written.is_empty() {
        let why = why_unchanged(c, "I couldn't tell which item you meant");
        return Said::text(format!("{why}, so nothing moved."));
    }
    let mut names: Vec<String> = written
        .iter()
        .filter_map(|r| text_field(r, "name").map(String::from))
        .collect();
    names.dedup();
    Said {
        text: format!("Moved {} to the {to}.", join_list(&names, "and")),
        presented: shown(&written),
        offer: None,
        confirm: None,
    }
}

/// "Got it — milk is off the inventory, and that leaves banana (1 pcs) on
/// the counter."
fn used(c: &ReplyCtx<'_>) -> Said {
    let written = rows_of_kind(c, Table::Inventory, StepType::Write);
    let deleted = |r: &Value| {
        r.get("id")
            .and_then(Value::as_str)
            .and_then(|id| c.req.input.snapshot.entities.find(id))
            .is_some_and(|(_, v)| v.action == "deleted")
    };
    let mut gone: Vec<String> = Vec::new();
    let mut left: Vec<&Value> = Vec::new();
    for r in &written {
        if deleted(r) {
            let name = text_field(r, "name").unwrap_or("?").to_string();
            if !gone.contains(&name) {
                gone.push(name);
            }
        } else if num_field(r, "quantity").is_some()
            && !left.iter().any(|l| l.get("id") == r.get("id"))
        {
            left.push(r);
        }
    }
    let missing: Vec<String> = outcomes(c)
        .iter()
        .filter_map(|o| o.split_once("No ").map(|(_, m)| format!("No {m}")))
        .collect();
    if gone.is_empty() && left.is_empty() {
        let why = why_unchanged(c, "I couldn't tell which item you meant");
        return Said::text(format!("{why}, so nothing changed."));
    }
    let mut parts: Vec<String> = Vec::new();
    if !gone.is_empty() {
        let verb = if gone.len() > 1 { "are" } else { "is" };
        parts.push(format!(
            "{} {verb} off the inventory",
            join_list(&gone, "and")
        ));
    }
    if !left.is_empty() {
        let amounts: Vec<String> = left.iter().map(|r| amount(r)).collect();
        parts.push(format!("that leaves {}", join_list(&amounts, "and")));
    }
    let mut text = format!("Got it — {}.", parts.join(", and "));
    for m in missing {
        text.push_str(&format!(" ({m}.)"));
    }
    Said {
        text,
        presented: shown(&left),
        offer: None,
        confirm: None,
    }
}

/// "Took what Chicken Tikka Bites used out of the stock — …", with the
/// lines measured another way than the stock holds them named, left as
/// they were.
fn cooked(c: &ReplyCtx<'_>, name: &str, servings: Option<u32>, stock: &[&Value]) -> Said {
    let recipes = rows_of_kind(c, Table::Recipes, StepType::Read);
    let Some(row) = super::cooked::recipe(&recipes, name) else {
        return Said::text(format!(
            "I couldn't find {name} among your saved recipes, so nothing changed."
        ));
    };
    let (uses, left) = super::cooked::lines(row, stock, servings);
    let at = servings.map_or(String::new(), |n| format!(" (for {n})"));
    let mut said = if uses.is_empty() {
        Said::text(format!(
            "Nothing {name} takes is in the stock in amounts I can count, so nothing changed."
        ))
    } else {
        let mut s = used(c);
        s.text = format!(
            "Took what {name}{at} used out of the stock — {}",
            s.text.trim_start_matches("Got it — ")
        );
        s
    };
    if !left.is_empty() {
        said.text.push_str(&format!(
            "\n\nLeft as they were (measured differently in the stock): {}.",
            join_list(&left, "and")
        ));
    }
    said
}

/// The rows that answer each named item, and the names nothing answered.
fn split<'a>(items: &[Named], found: &[&'a Value]) -> (Vec<&'a Value>, Vec<String>) {
    let mut hits: Vec<&Value> = Vec::new();
    let mut missing = Vec::new();
    for n in items {
        let rows = match n {
            Named::Item(x) => best(found, x),
            Named::Shown => found
                .iter()
                .copied()
                .filter(|r| {
                    !items
                        .iter()
                        .any(|o| matches!(o, Named::Item(x) if best(&[r], x).len() == 1))
                })
                .collect(),
        };
        match (rows.is_empty(), n) {
            (true, Named::Item(x)) => missing.push(x.clone()),
            (true, Named::Shown) => {}
            (false, _) => {
                for r in rows {
                    if !hits.iter().any(|h| h.get("id") == r.get("id")) {
                        hits.push(r);
                    }
                }
            }
        }
    }
    // "hello, how long is the paneer good": words that name no food are
    // no missing item once a row was found.
    if !hits.is_empty() {
        missing.retain(|x| crate::brain::offline::vocab::may_be_food(x));
    }
    (hits, missing)
}
