//! The rules that turn words into intents for the kitchen, planning and
//! recipes: which synonyms win, in which order, and what each intent
//! carries (items, a location, what to generate).
//!
//! Lexical only, like the rest of the lexicon: no state is read here.

use super::edits::{EditOp, parse_edit};
use super::items::{Item, exclusions, has_trigger, location, parse_item, requirements};
use super::lexicon::{Cues, GenerateAsk, Intent};
use super::skills::{SkillAsk, shopping};
use super::synonyms::*;
use super::text::{Words, find_any, is_filler, number, weekday_abbrev};
use super::vocab::{food_mentions, is_food};

/// Words after the first occurrence of any of `verbs`.
fn after<'a>(words: &'a [String], verbs: &[&str]) -> Option<&'a [String]> {
    let (i, p) = find_any(words, verbs)?;
    Some(&words[i + p.split_whitespace().count()..])
}

/// Items following `verbs` in the message, one per segment.
pub(super) fn items_after(w: &Words, verbs: &[&str]) -> Vec<Item> {
    let mut segs: Vec<Vec<String>> = Vec::new();
    let mut started = false;
    for seg in &w.segments {
        if !started {
            if let Some(rest) = after(seg, verbs) {
                started = true;
                segs.push(rest.to_vec());
            }
        } else if let Some(rest) = after(seg, verbs).filter(|r| !r.is_empty()) {
            // "just got back, picked up 500g of paneer": the verb again.
            segs.push(rest.to_vec());
        } else if seg.first().is_some_and(|x| {
            // "… and then show me it": a clause of its own ends the list.
            matches!(
                x.as_str(),
                "show"
                    | "tell"
                    | "read"
                    | "what"
                    | "whats"
                    | "how"
                    | "is"
                    | "are"
                    | "do"
                    | "does"
                    | "can"
                    | "could"
                    | "send"
                    | "give"
                    | "let"
                    | "lets"
                    | "remind"
                    | "mark"
                    | "take"
                    | "remove"
                    | "clear"
                    | "plan"
                    | "save"
            )
        }) {
            break;
        } else {
            segs.push(seg.clone());
        }
    }
    // "put them in the fridge", "pop it in": a verb and a pronoun are not
    // an item.
    // The verb's own clause ("just got back") is judged by the old rule; a
    // clause after it that only names a thing is a list's element.
    let items: Vec<(Item, bool)> = segs
        .iter()
        .enumerate()
        .filter_map(|(k, seg)| parse_item(seg).map(|i| (i, k > 0 && list_element(seg))))
        .filter(|(i, _)| {
            let first = i.name.split_whitespace().next().unwrap_or_default();
            !matches!(
                first,
                "put" | "pop" | "stick" | "them" | "it" | "those" | "these" | "that" | "all"
            )
        })
        .map(|(i, clean)| (food_in(i), clean))
        .collect();
    // Leftover words ("just got back from the shop") are no item when the
    // message names food elsewhere; a list's own element ("bin bags", "a
    // sponge") is, food or not.
    if items.iter().any(|(i, _)| is_food(&i.name)) {
        items
            .into_iter()
            .filter(|(i, clean)| is_food(&i.name) || *clean)
            .map(|(i, _)| i)
            .collect()
    } else {
        items.into_iter().map(|(i, _)| i).collect()
    }
}

/// True when a clause is only a thing named, as in a list ("bin bags", "a
/// sponge to the list", "2 tins of tomatoes"), not a clause of its own
/// ("just got back from the shop").
fn list_element(seg: &[String]) -> bool {
    let mut words: Vec<&str> = seg.iter().map(String::as_str).collect();
    // The destination said at the end: "… to the list", "… on my list".
    if let Some(i) = words
        .iter()
        .position(|w| matches!(*w, "to" | "on" | "onto"))
        && words[i + 1..]
            .iter()
            .all(|w| matches!(*w, "the" | "my" | "our" | "shopping" | "list" | "grocery"))
        && words[i + 1..].contains(&"list")
    {
        words.truncate(i);
    }
    let name: Vec<&&str> = words
        .iter()
        .skip_while(|w| matches!(**w, "a" | "an" | "some") || number(w).is_some())
        .collect();
    !name.is_empty()
        && name.len() <= 3
        && name
            .iter()
            .all(|w| !super::text::is_filler(w) && !super::vocab::is_chatter(w))
}

/// An item whose words hold a food phrase after other words ("bought 6
/// eggs") read again from the amount or food that starts it.
fn food_in(item: Item) -> Item {
    if is_food(&item.name) && !item.name.split_whitespace().any(|w| number(w).is_some()) {
        return item;
    }
    let words: Vec<String> = item.phrase.split_whitespace().map(str::to_string).collect();
    let Some(food) = food_mentions(&words).into_iter().next() else {
        return item;
    };
    let first = food.split_whitespace().next().unwrap_or_default();
    let Some(at) = words.iter().position(|w| w == first) else {
        return item;
    };
    // Start at the amount just before the food ("6 eggs", "a litre of milk").
    let start = (at.saturating_sub(3)..at)
        .find(|&i| number(&words[i]).is_some() || matches!(words[i].as_str(), "a" | "an"))
        .unwrap_or(at);
    parse_item(&words[start..]).unwrap_or(item)
}

/// Shopping list, inventory adds and removals, pantry questions.
pub(super) fn stock_intent(w: &Words) -> Option<Intent> {
    if w.has_any(SHOPPING) {
        return Some(shopping_intent(w));
    }
    let loc = location(&w.words);
    let store_word = loc.is_some() || w.has_any(&["inventory", "my kitchen", "in stock"]);
    if !store_word
        && let Some(rest) = after(&w.words, HAVE_ASK)
        && let Some(item) = parse_item(rest)
        && super::vocab::may_be_food(&item.name)
    {
        return Some(Intent::HaveItem(item.name));
    }
    if w.has_any(REMOVE_STOCK) || (store_word && w.has_any(STORE_REMOVE_VERBS)) {
        let items = items_after(w, STOCK_REMOVE_VERBS);
        if !items.is_empty() {
            return Some(Intent::InventoryRemove(items));
        }
    }
    // "got 6 lemons in the fruit bowl": bought, with an amount.
    let got_some = matches!(
        w.words.first().map(String::as_str),
        Some("got" | "bought" | "grabbed")
    ) && w
        .words
        .get(1)
        .is_some_and(|x| super::text::number(x).is_some() || x == "a" || x == "an");
    // "still got some coconut milk?" asks; "bought eggs, can you add
    // them?" asks for the add.
    let asks_only = w.question_mark
        && !w.has_any(&[
            "can you",
            "could you",
            "can u",
            "could u",
            "will you",
            "would you",
            "please",
            "pls",
        ]);
    if !asks_only && ((store_word && w.has_any(STORE_ADD_VERBS)) || w.has_any(BOUGHT) || got_some) {
        let items = items_after(w, STOCK_ADD_VERBS);
        if !items.is_empty() {
            return Some(Intent::InventoryAdd(items, loc.map(String::from)));
        }
    }
    if store_word && (w.has_any(PANTRY_ASK) || w.words.len() <= 4) {
        return Some(Intent::Pantry(loc.map(String::from)));
    }
    None
}

/// "add the missing ingredients to my shopping list"; any other message
/// about the list the shopping skill did not read shows it.
fn shopping_intent(w: &Words) -> Intent {
    if w.has_any(SHOPPING_MISSING) {
        return Intent::ShoppingMissing;
    }
    Intent::Skill(SkillAsk::Shopping(shopping::Ask::Show))
}

/// Planning: show the plan, start one, bring an option back, assign days.
pub(super) fn planning_intent(w: &Words) -> Option<Intent> {
    let creating = w.has_any(&[
        "make a",
        "create a",
        "new",
        "start a",
        "help me plan",
        "plan some",
    ]);
    if w.has_any(SHOW_PLAN) && !creating {
        return Some(Intent::ShowPlan);
    }
    if w.has_any(PLAN_MEALS) && exclusions(&w.segments, false).is_empty() {
        return Some(Intent::PlanMeals);
    }
    if (w.has_any(INCLUDE) || w.segments.iter().any(|s| super::constraints::lifts(s)))
        && !w.has_any(&["recipe for", "give me"])
    {
        return Some(Intent::Include);
    }
    let days = w
        .words
        .iter()
        .any(|x| weekday_abbrev(x).is_some() || matches!(x.as_str(), "tonight" | "tomorrow"));
    let generating =
        w.has_any(GENERATE_VERBS) || w.has_any(&["recipe", "recipes", "ideas", "idea"]);
    let content = w.words.iter().any(|x| {
        !is_filler(x)
            && weekday_abbrev(x).is_none()
            && !matches!(x.as_str(), "tonight" | "tomorrow" | "dinner" | "lunch")
    });
    let question = matches!(
        w.words.first().map(String::as_str),
        Some("what" | "which" | "whats" | "should")
    );
    let requiring = !requirements(&w.words, false).is_empty();
    // "my mate's over sat and hes allergic to nuts": a day and a rule-out;
    // nothing to put on the day.
    let ruling_out = !w.has_any(&["what", "whats", "which", "ideas", "could i", "can i"])
        && exclusions(&w.segments, false).iter().any(|e| {
            super::vocab::is_food(&e.term) || crate::context::taxonomy::is_family(&e.term)
        });
    if days && content && !generating && !question && !requiring && !ruling_out {
        // "no wings on friday or saturday": a clause of days alone carries
        // the refusal before it.
        let only_days = |s: &Vec<String>| {
            s.iter()
                .all(|x| super::skills::days::is_day_word(x) || is_filler(x))
        };
        let excluding = w.segments.iter().any(|s| has_trigger(s))
            && w.segments.iter().all(|s| has_trigger(s) || only_days(s));
        if !excluding {
            return Some(Intent::Assign);
        }
    }
    if w.has_any(PICK) && !generating && !w.segments.iter().any(|s| has_trigger(s)) {
        return Some(Intent::Assign);
    }
    None
}

/// Recipes: what can I make, find by ingredient, generate, list, edit,
/// exclude, show.
pub(super) fn recipe_intent(w: &Words, cues: Cues) -> Option<Intent> {
    if let Some(rest) = after(&w.words, WHAT_CAN_I_MAKE) {
        return Some(match with_term(rest) {
            Some(t) => Intent::FindByIngredient(t),
            None => Intent::WhatCanIMake,
        });
    }
    let first = w.words.first().map(String::as_str);
    let asking = matches!(
        first,
        Some("which" | "what" | "any" | "anything" | "do" | "are" | "is")
    ) || w.has_any(ASKING_WITH);
    if asking
        && !w.has_any(GENERATE_VERBS)
        && let Some(t) = with_term(&w.words)
    {
        return Some(Intent::FindByIngredient(t));
    }
    let mine = w.has_any(LIST_RECIPES);
    if !mine && let Some(ask) = generate_request(w) {
        return Some(Intent::Generate(ask));
    }
    if mine || (cues.proposal && w.has_any(&["saved", "mine", "my own", "existing"])) {
        return Some(Intent::ListRecipes);
    }
    let this_week = w.has_any(&["this week", "this weekend", "for the week"]);
    let mut ex = exclusions(&w.segments, this_week);
    ex.extend(requirements(&w.words, this_week));
    if let Some(op) = parse_edit(w) {
        // A change needs a recipe to change: with no draft on offer and
        // nothing pointed at, "no more dairy for me" rules dairy out.
        let in_front = cues.offered_save
            || w.has_any(&[
                "it",
                "that",
                "this one",
                "this recipe",
                "the recipe",
                "in there",
            ]);
        // "i think we need more rice": with no recipe in front, more of a
        // food needed is for the shopping list (asked first when hedged).
        if let EditOp::Add(items) = &op
            && !in_front
            && w.has_any(&["need", "needs", "low on", "running low", "buy", "get more"])
            && items.iter().all(|i| super::vocab::may_be_food(&i.name))
        {
            return Some(Intent::Skill(super::skills::SkillAsk::Shopping(
                super::skills::shopping::Ask::Add {
                    items: items.clone(),
                    amount: None,
                },
            )));
        }
        if in_front || ex.is_empty() {
            return Some(Intent::Edit(op));
        }
    }
    if !ex.is_empty() {
        return Some(Intent::Exclude(ex));
    }
    w.has_any(SHOW).then_some(Intent::Show)
}

/// A request for new recipes: a generating verb with recipe words ("give me
/// 2 chicken dinner ideas"), a named dish ("thai basil chicken recipe"), or
/// "something new".
fn generate_request(w: &Words) -> Option<GenerateAsk> {
    let generating = w.has_any(GENERATE_VERBS);
    let ideas = w.has_any(&["ideas", "idea", "suggestions", "inspiration"]);
    if (generating || ideas) && (w.has_any(RECIPE_WORDS) || w.has_any(MAKE_ME)) {
        return Some(generate_ask(w));
    }
    let named_recipe = w.has_any(&["recipe", "recipe for"])
        && !w.has_any(SHOW)
        && !w.has_any(&["that recipe", "this recipe", "the recipe"]);
    if named_recipe && parse_edit(w).is_none() && exclusions(&w.segments, false).is_empty() {
        let ask = generate_ask(w);
        if !ask.dish.is_empty() {
            return Some(ask);
        }
    }
    w.has_any(ANSWER_NEW).then(|| GenerateAsk {
        count: 2,
        dish: String::new(),
        meal: None,
        without: Vec::new(),
        quick: false,
        pasted: None,
    })
}

/// "with chickpeas" → "chickpea".
fn with_term(words: &[String]) -> Option<String> {
    let rest = after(words, WITH_WORDS)?;
    parse_item(rest).map(|i| i.name).filter(|n| !n.is_empty())
}

/// The count, dish words, meal and exclusions of a generate request.
fn generate_ask(w: &Words) -> GenerateAsk {
    let mut count = 1;
    let mut meal = None;
    let mut dish = Vec::new();
    let mut without = Vec::new();
    let mut words = w.words.iter().peekable();
    while let Some(x) = words.next() {
        if matches!(x.as_str(), "without" | "no") {
            if let Some(next) = words.next() {
                without.push(super::text::stem(next));
            }
            continue;
        }
        if let Some(n) = number(x).filter(|n| x != "one" && (1.0..=6.0).contains(n)) {
            count = n as usize;
            continue;
        }
        match x.as_str() {
            "dinner" | "dinners" | "supper" => meal = Some("dinner"),
            "lunch" | "lunches" => meal = Some("lunch"),
            "breakfast" | "breakfasts" | "brunch" => meal = Some("breakfast"),
            _ if NOT_DISH.contains(&x.as_str()) || is_filler(x) => {}
            _ => dish.push(x.clone()),
        }
    }
    let several =
        w.has_any(&["a few", "some ideas", "ideas"]) && !w.has_any(&["an idea", "one idea"]);
    if several && count == 1 {
        count = if w.has_any(&["a couple", "couple of"]) {
            2
        } else {
            3
        };
    }
    GenerateAsk {
        count: count.clamp(1, 4),
        dish: dish.join(" "),
        meal: meal.map(String::from),
        without,
        quick: w.has_any(&["quick", "fast"]),
        pasted: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str) -> Vec<(String, Option<f64>)> {
        items_after(&Words::new(s), &["bought", "got", "picked up"])
            .into_iter()
            .map(|i| (i.name, i.quantity))
            .collect()
    }

    #[test]
    fn leftover_words_are_no_item_when_food_is_named() {
        assert_eq!(
            names("just got home from work, bought 4 lemons and a bag of rice"),
            [
                ("lemon".to_string(), Some(4.0)),
                ("rice".to_string(), Some(1.0))
            ]
        );
        assert_eq!(names("picked up some limes"), [("limes".to_string(), None)]);
    }
}
