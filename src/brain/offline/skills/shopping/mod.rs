//! Shopping: showing the list, adding to it (by name, "a dozen" of what was
//! just asked about, or what a recipe is missing), marking things bought,
//! taking things off, clearing what was bought or the whole list, and "is X
//! on the list?".

pub mod act;
pub mod reply;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::super::dialogue::Before;
use super::super::items::{Item, bare_amount};
use super::super::lexicon::Cues;
use super::super::text::Words;
use super::super::world::World;
use super::Topic;
use super::recipes::Which;
use super::{Named, named_items};
use crate::context::Table;

/// What the user asks of the shopping list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Ask {
    /// "take the olive oil off", "take it off too".
    Remove { items: Vec<Named> },
    /// "clear the bought stuff".
    ClearBought,
    /// "clear the whole list".
    ClearAll,
    /// "is olive oil on there?", "what was the thai basil for?".
    Has { items: Vec<Named> },
    /// "what was the thai basil for": the item and the recipe it is for.
    WhatFor { items: Vec<Named> },
    /// "whats still on there", "read me the list".
    Show,
    /// "stick eggs on the list", "add a dozen to the shopping list" (of
    /// what was just asked about: `items` empty, `amount` said).
    Add {
        items: Vec<Item>,
        amount: Option<f64>,
    },
    /// "add whatever i'm missing for the assam pedas".
    Missing { which: Which },
    /// "mark them as bought".
    MarkBought { items: Vec<Named> },
    /// "actually nvm put it back" right after a removal: the rows the last
    /// turn took off (refs), put back as they were.
    PutBack { refs: Vec<String> },
    /// "change the tomatoes on the list to 6", "make it 12 eggs not 6": a
    /// new amount for a row already on the list.
    SetAmount {
        item: Named,
        quantity: f64,
        unit: Option<String>,
    },
}

impl Ask {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Ask::Remove { .. } => "shopping_remove",
            Ask::ClearBought => "shopping_clear_bought",
            Ask::ClearAll => "shopping_clear_all",
            Ask::Has { .. } => "shopping_has",
            Ask::WhatFor { .. } => "shopping_what_for",
            Ask::Show => "shopping_show",
            Ask::Add { .. } => "shopping_add",
            Ask::Missing { .. } => "shopping_missing",
            Ask::MarkBought { .. } => "shopping_mark_bought",
            Ask::PutBack { .. } => "shopping_put_back",
            Ask::SetAmount { .. } => "shopping_set_amount",
        }
    }
}

const LIST: &[&str] = &[
    "shopping list",
    "grocery list",
    "groceries",
    "grocery",
    "shopping",
    "the list",
    "my list",
    "on there",
    "off the list",
    "list",
];
const REMOVE: &[&str] = &[
    "take",
    "remove",
    "delete",
    "cross off",
    "drop",
    "get rid of",
    "scratch",
];
const NOT_ITEM: &[&str] = &[
    "take",
    "remove",
    "delete",
    "cross",
    "drop",
    "get",
    "rid",
    "scratch",
    "off",
    "back",
    "list",
    "shopping",
    "there",
    "need",
    "dont",
    "already",
    "too",
    "then",
    "yeah",
    "ok",
    "okay",
    "on",
    "right",
    "thought",
    "had",
    "some",
    "i",
    "is",
    "are",
    "needs",
    "wait",
    "still",
    "ya",
    "please",
    "mark",
    "as",
    "bought",
    "purchased",
    "got",
    "tick",
    "check",
    "again",
    "was",
    "what",
    "for",
    "why",
];
/// The items named, segment by segment; "it"/"them" for what was shown.
fn named(w: &Words) -> Vec<Named> {
    named_items(w, NOT_ITEM)
}

/// The food a message names, each as the rules name items ("tomatoes" →
/// "tomato"); empty when it names none.
fn food_named(w: &Words) -> Vec<Named> {
    super::super::vocab::food_mentions(&w.words)
        .iter()
        .map(|f| Named::Item(super::super::text::stems(f).join(" ")))
        .collect()
}

/// Verbs that put something on the list.
pub const ADD: &[&str] = &[
    "add", "put", "stick", "pop", "chuck", "bung", "throw", "need", "buy", "get", "grab",
];
/// Amounts said without an item ("a dozen"): of what was just asked about.
/// A number said is read first ("half a dozen" is 6, "two dozen" 24).
const BARE_AMOUNTS: &[(&str, f64)] = &[
    ("dozen", 12.0),
    ("couple", 2.0),
    ("few", 3.0),
    ("some", 1.0),
    ("more", 1.0),
];

/// Verbs of having got something in the shop.
const GOT: &[&str] = &[
    "got",
    "grabbed",
    "picked up",
    "found",
    "bought",
    "in the basket",
    "in the trolley",
    "in the cart",
    "have the",
    "have got",
];

/// In the shop, with the list in mind: the food a message names, linked
/// to the list's rows still to buy. "got the olive oil and tomatoes" marks
/// those bought, "got everything else" marks the rest. Only when every
/// food named is on the list (else it is stock bought, or a question).
pub fn in_shop(w: &Words, world: &World<'_>) -> Option<Ask> {
    if !w.has_any(GOT) || super::super::consent::asks_information(w) {
        return None;
    }
    let to_buy: Vec<&Value> = world
        .loaded(Table::ShoppingList)
        .into_iter()
        .map(|(_, row)| row)
        .filter(|row| !bought(row))
        .collect();
    if to_buy.is_empty() {
        return None;
    }
    let food = food_named(w);
    if food.is_empty() {
        let rest = w.has_any(&[
            "everything else",
            "the rest",
            "everything",
            "all of it",
            "the lot",
        ]);
        return rest.then(|| Ask::MarkBought {
            items: to_buy
                .iter()
                .filter_map(|row| super::super::world::text_field(row, "name"))
                .map(|n| Named::Item(n.to_string()))
                .collect(),
        });
    }
    let linked = food.iter().all(|f| match f {
        Named::Item(x) => to_buy.iter().any(|row| super::holds(row, x)),
        Named::Shown => false,
    });
    linked.then_some(Ask::MarkBought { items: food })
}

/// "remove olive oil too dont need it" with no list named: the item is on
/// the shopping list the session has seen, and not in the kitchen's stock.
pub fn refine(w: &Words, world: &World<'_>, before: &Before) -> Option<Ask> {
    if let Some(ask) = in_shop(w, world) {
        return Some(ask);
    }
    let taking_off = (w.has("take") || w.has("come")) && w.has("off");
    if !taking_off
        && !w.has_any(&[
            "remove",
            "take off",
            "take the",
            "get rid of",
            "delete",
            "scratch",
            "dont need",
            "no longer need",
            "cross off",
        ])
    {
        return None;
    }
    // "yeah take those off then", after "i have onions dont i": the items
    // the last reply showed, by name.
    let shown: Vec<String> = before
        .dialogue
        .presented
        .iter()
        .map(|s| s.label.clone())
        .collect();
    // The food named, when the message names some ("take the yogurt off i
    // dont need it" is the yogurt); else the words left once verbs go.
    let food = food_named(w);
    let said = if food.is_empty() { named(w) } else { food };
    let items: Vec<Named> = said
        .into_iter()
        .flat_map(|n| match n {
            Named::Shown => shown.iter().cloned().map(Named::Item).collect(),
            item => vec![item],
        })
        .collect();
    let on = |table: Table, name: &str| {
        world
            .loaded(table)
            .iter()
            .any(|(_, row)| super::holds(row, name))
    };
    // "ok take the limes back off then", after adding them to the list and
    // asking whether there are limes at home: the list's row this session
    // added, though the kitchen has limes too.
    let added_now = |name: &str| {
        world.of(Table::ShoppingList).any(|e| {
            e.e.action == crate::context::RefAction::Created
                && world
                    .state
                    .rows
                    .get(e.r)
                    .is_some_and(|row| super::holds(row, name))
        })
    };
    let all_listed = !items.is_empty()
        && items.iter().all(|n| match n {
            Named::Item(x) => {
                on(Table::ShoppingList, x) && (!on(Table::Inventory, x) || added_now(x))
            }
            Named::Shown => false,
        });
    all_listed.then_some(Ask::Remove { items })
}

/// "change the tomatoes on the list to 6", "update the eggs to 12", "make
/// the tomatoes 6 not 4": a change verb, the thing, then the new amount.
fn set_amount(w: &Words) -> Option<Ask> {
    let (at, p) = super::super::text::find_any(&w.words, &["change", "update", "make", "set"])?;
    if w.question_mark || w.has_any(&["make it for", "make that for"]) {
        return None;
    }
    let rest = &w.words[at + p.split_whitespace().count()..];
    // The new amount: after "to", or the last number said.
    let to = rest.iter().rposition(|x| x == "to");
    let (thing, amount): (&[String], &[String]) = match to {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => {
            let n = rest
                .iter()
                .position(|x| super::super::text::number(x).is_some())?;
            (&rest[..n], &rest[n..])
        }
    };
    let amount: Vec<String> = amount
        .iter()
        .take_while(|x| !matches!(x.as_str(), "not" | "instead" | "pls" | "please" | "thanks"))
        .cloned()
        .collect();
    let quantity = amount.first().and_then(|x| super::super::text::number(x))?;
    let thing: Vec<String> = thing
        .iter()
        .take_while(|x| !matches!(x.as_str(), "on" | "in" | "from"))
        .filter(|x| !matches!(x.as_str(), "the" | "my" | "our" | "of"))
        .cloned()
        .collect();
    // "make the tomatoes 6 tomatoes": the thing may come after the number.
    let name = if thing.is_empty() {
        amount[1..].join(" ")
    } else {
        thing.join(" ")
    };
    if name.is_empty() || !super::super::vocab::may_be_food(&name) {
        return None;
    }
    let unit = amount
        .get(1)
        .and_then(|u| super::super::items::unit_word(u))
        .map(String::from);
    Some(Ask::SetAmount {
        item: Named::item(&name),
        quantity,
        unit,
    })
}

/// True when a list row is ticked off as bought.
pub fn bought(row: &Value) -> bool {
    row.get("is_purchased").and_then(Value::as_bool) == Some(true)
}

/// The row still to buy that a thing asked to be added names ("tomatoes"
/// → the tomato row, "yogurt" → the greek yogurt row), if one is waiting.
pub fn waiting_row<'a>(name: &str, rows: &[&'a Value]) -> Option<&'a Value> {
    let waiting: Vec<&'a Value> = rows.iter().copied().filter(|r| !bought(r)).collect();
    let names: Vec<String> = waiting
        .iter()
        .filter_map(|r| super::super::world::text_field(r, "name").map(String::from))
        .collect();
    let found = super::super::link::on_list(name, &names)?;
    waiting
        .into_iter()
        .find(|r| super::super::world::text_field(r, "name") == Some(found.as_str()))
}

/// The row already ticked off that a thing asked to be added names, when
/// none of that name is still to buy: bought again, it is set back to
/// not bought rather than listed twice.
pub fn ticked_row<'a>(name: &str, rows: &[&'a Value]) -> Option<&'a Value> {
    let ticked: Vec<&'a Value> = rows.iter().copied().filter(|r| bought(r)).collect();
    let names: Vec<String> = ticked
        .iter()
        .filter_map(|r| super::super::world::text_field(r, "name").map(String::from))
        .collect();
    let found = super::super::link::on_list(name, &names)?;
    ticked
        .into_iter()
        .find(|r| super::super::world::text_field(r, "name") == Some(found.as_str()))
}

/// The skill's reading of a message.
pub fn read(w: &Words, cues: Cues) -> Option<Ask> {
    let listy = w.has_any(LIST);
    // "put the wings on friday" after a look at the list is the plan's: a
    // day named without the list carries nothing on.
    let dated = w.words.iter().any(|x| {
        super::super::text::weekday_abbrev(x).is_some()
            || matches!(x.as_str(), "tomorrow" | "tonight" | "tmrw" | "tn")
    });
    let carrying = cues.topic == Topic::Shopping && !dated;
    let no_need = w.has_any(&["dont need", "do not need", "no longer need", "dont want"]);
    let adding = w.has_any(ADD) && !no_need;
    if adding
        && w.has_any(&[
            "missing",
            "whatever i need",
            "what i need for",
            "whatevers missing",
        ])
    {
        let which = super::recipes::which(w).unwrap_or(Which::Shown);
        return Some(Ask::Missing { which });
    }
    // "add it all to the list" right after what a recipe is missing: that.
    let after_missing = cues.topic == Topic::Recipes(super::recipes::DetailKind::Missing);
    if adding
        && after_missing
        && !dated
        && super::super::vocab::food_mentions(&w.words).is_empty()
        && w.has_any(&[
            "it all",
            "all of it",
            "them",
            "those",
            "everything",
            "all that",
        ])
    {
        return Some(Ask::Missing {
            which: Which::Shown,
        });
    }
    if !listy && !carrying {
        return None;
    }
    // "mark it done" is a task's word: it marks the list only when the
    // list is named.
    if w.has("mark") && (w.has_any(&["bought", "got", "purchased"]) || (listy && w.has("done")))
        || w.has_any(&[
            "tick off",
            "check off",
            "ticked off",
            "ticked",
            "checked off",
        ]) && (listy || carrying)
    {
        let items = named(w);
        return Some(Ask::MarkBought {
            items: if items.is_empty() {
                vec![Named::Shown]
            } else {
                items
            },
        });
    }
    if w.has_any(&["clear", "empty", "wipe", "start the list over", "new list"]) {
        if w.has_any(&["bought", "ticked", "done", "got", "purchased"]) {
            return Some(Ask::ClearBought);
        }
        if listy {
            return Some(Ask::ClearAll);
        }
    }
    let off = w.has_any(&["off", "remove", "delete", "get rid of", "scratch"]);
    let telling = !super::super::consent::asks_information(w);
    if off && w.has_any(REMOVE)
        || (listy && w.has("off"))
        || (carrying && telling && (w.has("off") || no_need))
    {
        let food = food_named(w);
        let items = if food.is_empty() { named(w) } else { food };
        if !items.is_empty() {
            return Some(Ask::Remove { items });
        }
    }
    if let Some(ask) = set_amount(w) {
        return Some(ask);
    }
    if adding && !w.has_any(&["what do i", "whats on", "what is on"]) {
        let items: Vec<Item> = super::super::intent_rules::items_after(w, ADD)
            .into_iter()
            .filter(|i| {
                let first = i.name.split_whitespace().next().unwrap_or_default();
                !LIST.contains(&i.name.as_str())
                    && !["on", "to", "onto", "list", "shopping"].contains(&first)
            })
            .filter(|i| !BARE_AMOUNTS.iter().any(|(a, _)| *a == i.name))
            .collect();
        let said = super::super::text::find_any(&w.words, ADD)
            .and_then(|(i, p)| bare_amount(&w.words[i + p.split_whitespace().count()..]))
            .map(|(n, _)| n);
        let amount = said.or_else(|| {
            BARE_AMOUNTS
                .iter()
                .find(|(a, _)| w.has_any(&[a]))
                .map(|(_, n)| *n)
        });
        let pointing = w.has_any(super::POINTING);
        // "the soy sauce is nearly gone, put it on the list": "it" is the
        // food said before the verb, not what was shown last.
        let items = match super::super::text::find_any(&w.words, ADD) {
            Some((at, _)) if items.is_empty() && pointing => {
                super::super::vocab::food_mentions(&w.words[..at])
                    .into_iter()
                    .map(|name| Item {
                        name: super::super::super::super::context::taxonomy::singular(&name),
                        quantity: None,
                        unit: None,
                        phrase: name,
                        more: false,
                        amount: Default::default(),
                    })
                    .collect()
            }
            _ => items,
        };
        if !items.is_empty() || amount.is_some() || pointing {
            return Some(Ask::Add { items, amount });
        }
    }
    // "olive oil on the list pls", "2 limes to my list": things and the
    // list, told without a verb.
    if !adding
        && !w.question_mark
        && !super::super::consent::asks_information(w)
        && !w.has_any(&["what", "whats", "is that", "is it", "is there", "already"])
        && let Some((at, _)) = super::super::text::find_any(
            &w.words,
            &["on the", "to the", "on my", "to my", "onto the", "onto my"],
        )
        && w.words
            .get(at + 2)
            .is_some_and(|x| LIST.contains(&x.as_str()))
    {
        let before = Words::new(&w.words[..at].join(" "));
        let items: Vec<Item> = super::super::items::parse_items(&before.segments)
            .into_iter()
            .filter(|i| super::super::vocab::is_food(&i.name))
            .collect();
        if !items.is_empty() {
            return Some(Ask::Add {
                items,
                amount: None,
            });
        }
    }
    // "what was the thai basil for again": is it on there, and why.
    if w.has_any(&["what was", "whats the", "why is", "why do i have"]) && w.has("for")
        || w.has_any(&["why is"])
    {
        let items: Vec<Named> = named(w)
            .into_iter()
            .filter(|n| !matches!(n, Named::Item(x) if x == "what" || x == "for"))
            .collect();
        if !items.is_empty() {
            return Some(Ask::WhatFor { items });
        }
    }
    if w.has_any(&[
        "whats on",
        "what is on",
        "whats still",
        "what is still",
        "read me",
        "show me",
        "hows my",
        "how is my",
        "see the list",
        "whats left on",
        "how many items",
        "how many things",
        "how long is",
        "hows the list",
    ]) {
        return Some(Ask::Show);
    }
    let opens_question = w
        .words
        .first()
        .is_some_and(|f| ["is", "are", "do", "does", "have"].contains(&f.as_str()));
    let asking =
        w.question_mark || opens_question || w.has_any(&["is it on", "is there", "already"]);
    if asking && (w.has_any(&["on there", "on the list", "on my list", "on it"]) || listy) {
        let items = named(w);
        if !items.is_empty() && !w.has_any(&["whats", "what"]) {
            return Some(Ask::Has { items });
        }
    }
    None
}

/// What the write step leaves off the list, as its description says it:
/// each item with the allergy it falls under ("prawn", "shellfish").
pub fn left_off(description: &str) -> Vec<(String, String)> {
    let Some((_, rest)) = description.split_once(LEAVE_OFF) else {
        return Vec::new();
    };
    rest.split("; ")
        .filter_map(|p| {
            let (item, why) = p.split_once(" (allergic to ")?;
            Some((item.to_string(), why.trim_end_matches(')').to_string()))
        })
        .collect()
}

/// How the write step's description names what it leaves off.
const LEAVE_OFF: &str = " — leave off: ";

/// Items to add that fall under an allergy of the household's, unless the
/// words say to add them all the same ("add the prawns anyway").
fn allergens(items: &[Item], allergies: &[String], w: &Words) -> Vec<(String, String)> {
    if w.has_any(&[
        "anyway",
        "regardless",
        "all the same",
        "still add",
        "i know",
    ]) {
        return Vec::new();
    }
    items
        .iter()
        .filter_map(|i| {
            allergies
                .iter()
                .find(|a| crate::context::taxonomy::ingredient_matches(&i.name, a))
                .map(|a| (i.name.clone(), a.clone()))
        })
        .collect()
}

/// Think for the shopping list: read it, then take off what was asked.
/// Items the household is allergic to are left off an add, said in the
/// write step's description.
pub fn plan(ask: &Ask, allergies: &[String], w: &Words) -> crate::pipeline::ThinkOutput {
    use super::super::think_ctx::{self, step};
    use crate::pipeline::StepType;
    let read = step(
        "Read the shopping list".into(),
        StepType::Read,
        "shopping",
        0,
    );
    let (goal, write) = match ask {
        // "what was the thai basil for": the recipe its note names, too.
        Ask::Has { .. } => return think_ctx::plan("Check the shopping list", vec![read]),
        Ask::WhatFor { .. } => {
            let recipes = step(
                "Read the saved recipes".into(),
                StepType::Read,
                "recipes",
                0,
            );
            return think_ctx::plan("Check the shopping list", vec![read, recipes]);
        }
        Ask::Show => return think_ctx::plan("Show the shopping list", vec![read]),
        // "Add olive oil to the shopping list": a question about it names
        // what would go on.
        Ask::Add { items, .. } if !items.is_empty() => {
            let names: Vec<String> = items.iter().map(|i| i.name.clone()).collect();
            let goal = format!(
                "Add {} to the shopping list",
                super::super::text::join_list(&names, "and")
            );
            let off = allergens(items, allergies, w);
            let mut what = "Add the items named".to_string();
            if !off.is_empty() {
                what.push_str(LEAVE_OFF);
                what.push_str(
                    &off.iter()
                        .map(|(i, a)| format!("{i} (allergic to {a})"))
                        .collect::<Vec<_>>()
                        .join("; "),
                );
            }
            return think_ctx::plan(
                &goal,
                vec![read, step(what, StepType::Write, "shopping", 1)],
            );
        }
        Ask::Add { .. } => ("Add to the shopping list", "Add the items named"),
        Ask::PutBack { .. } => (
            "Put back what was just taken off the list",
            "Add back the items just removed",
        ),
        Ask::MarkBought { .. } => ("Mark items bought", "Mark the items named as bought"),
        Ask::SetAmount { .. } => (
            "Change an amount on the shopping list",
            "Update the amount of the item named",
        ),
        Ask::Missing { .. } => {
            let look = |what: &str, table: &str| step(what.into(), StepType::Read, table, 0);
            return think_ctx::plan(
                "Put what the recipe is missing on the shopping list",
                vec![
                    read,
                    look("Read the saved recipes", "recipes"),
                    look("Read what the kitchen holds", "inventory"),
                    step(
                        "Add what the recipe needs and the kitchen lacks".into(),
                        StepType::Write,
                        "shopping",
                        1,
                    ),
                ],
            );
        }
        Ask::Remove { .. } => (
            "Take the items off the shopping list",
            "Delete the items named",
        ),
        Ask::ClearBought => ("Clear what was bought", "Delete the items marked bought"),
        Ask::ClearAll => ("Clear the shopping list", "Delete every item on the list"),
    };
    think_ctx::plan(
        goal,
        vec![read, step(write.into(), StepType::Write, "shopping", 1)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(s: &str) -> Option<Ask> {
        read(&Words::new(s), Cues::default())
    }
    #[test]
    fn things_that_are_not_food_go_on_the_list_by_their_whole_names() {
        let Some(Ask::Add { items, .. }) = ask("add oat milk, bin bags and a sponge to the list")
        else {
            panic!("not an add");
        };
        let names: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["oat milk", "bin bags", "sponge"]);
    }

    #[test]
    fn the_list_as_people_type_it() {
        let item = |s: &str| Named::Item(s.into());
        assert_eq!(
            ask("take tomatos off the list"),
            Some(Ask::Remove {
                items: vec![item("tomato")]
            })
        );
        assert_eq!(
            ask("the tomatoes. off the shopping list"),
            Some(Ask::Remove {
                items: vec![item("tomato")]
            })
        );
        let on_the_list = Cues {
            topic: Topic::Shopping,
            ..Cues::default()
        };
        assert_eq!(
            read(
                &Words::new("and clear the bought stuff while ur at it"),
                on_the_list
            ),
            Some(Ask::ClearBought)
        );
        assert_eq!(
            ask("ok just clear the whole list, starting fresh"),
            Some(Ask::ClearAll)
        );
        assert_eq!(
            ask("is olive oil on there"),
            Some(Ask::Has {
                items: vec![item("olive oil")]
            }),
            "a message that opens like a question asks, question mark or not"
        );
        assert_eq!(
            read(
                &Words::new("ugh. stick a dozen on the shopping list"),
                Cues::default()
            ),
            Some(Ask::Add {
                items: Vec::new(),
                amount: Some(12.0)
            })
        );
        for (s, n) in [
            ("stick half a dozen on the list", 6.0),
            ("add a couple to the shopping list", 2.0),
            ("put two dozen on the list pls", 24.0),
        ] {
            assert_eq!(
                ask(s),
                Some(Ask::Add {
                    items: Vec::new(),
                    amount: Some(n)
                }),
                "{s}"
            );
        }
        let Some(Ask::Add { items, .. }) =
            ask("add half a dozen eggs and a couple of limes to the list")
        else {
            panic!("an add");
        };
        let said: Vec<(&str, Option<f64>)> = items
            .iter()
            .map(|i| (i.name.as_str(), i.quantity))
            .collect();
        assert_eq!(said, [("egg", Some(6.0)), ("lime", Some(2.0))]);
        assert!(matches!(
            ask("add whatever i'm missing for the assam pedas"),
            Some(Ask::Missing {
                which: Which::Named(_)
            }) | Some(Ask::Missing {
                which: Which::Shown
            })
        ));
        assert_eq!(
            read(&Words::new("whats still on there"), on_the_list),
            Some(Ask::Show)
        );
        assert_eq!(
            ask("is olive oil on the list?"),
            Some(Ask::Has {
                items: vec![item("olive oil")]
            })
        );
        assert_eq!(ask("whats on the shopping list"), Some(Ask::Show));
        let carrying = Cues {
            topic: Topic::Shopping,
            ..Cues::default()
        };
        assert_eq!(
            read(&Words::new("take it off too"), carrying),
            Some(Ask::Remove {
                items: vec![Named::Shown]
            })
        );
        assert_eq!(
            read(&Words::new("take the olive oil off"), carrying),
            Some(Ask::Remove {
                items: vec![item("olive oil")]
            })
        );
    }
}
