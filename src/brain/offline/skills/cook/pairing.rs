//! "would it be good with peas?", "what would you add to it?", "would the
//! yellow curry work with tofu instead of chicken?": a question about what
//! goes with the recipe in front of us. It never writes; the answer asks
//! whether to make the change, and a "yes" (or "ok yeah chuck some in")
//! makes it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::taxonomy::ingredient_matches;
use crate::pipeline::{ActAction, StepType, ThinkOutput};

use super::super::super::act_ctx::{ActCtx, complete};
use super::super::super::hints;
use super::super::super::reading::focused_recipe;
use super::super::super::reply_ctx::ReplyCtx;
use super::super::super::resolve::{RECIPES, Resolved, by_label};
use super::super::super::text::{Words, find_any, is_filler};
use super::super::super::think_ctx::{Ctx, plan as think_plan, step};
use super::super::{Confirm, Said};
use super::build::read_dish;
use super::dishes::{DISHES, Kind};

/// What the question asks about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ask {
    /// The ingredient asked about ("peas"); `None` for "what would you add".
    pub item: Option<String>,
    /// "instead of chicken".
    pub instead_of: Option<String>,
    /// Words that may name the recipe ("the yellow curry").
    pub recipe_words: Vec<String>,
}

/// The openings of such a question.
const ASKING: &[&str] = &[
    "would it be good with",
    "would it be nice with",
    "would it work with",
    "would it go with",
    "would that be good with",
    "would that work with",
    "is it good with",
    "is it nice with",
    "does it go with",
    "does that go with",
    "how about with",
    "what would you add",
    "what would go with",
    "what goes with",
    "what goes well with",
    "what else could i add",
    "what else would you add",
    "what could i add",
    "what should i add",
    "anything youd add",
    "anything to add",
    "could i add",
    "can i add",
    "would adding",
];

/// Reads such a question, or `None`.
pub fn read(w: &Words) -> Option<Ask> {
    let question = w.question_mark || w.words.first().is_some_and(|f| f == "would" || f == "what");
    if !question {
        return None;
    }
    let (item, rest_from) = if let Some((at, p)) = find_any(&w.words, ASKING) {
        let after = at + p.split_whitespace().count();
        (item_after(&w.words[after..]), at)
    } else {
        // "would the yellow curry work with tofu", "would peas work in it".
        let would = w.words.first().is_some_and(|f| f == "would");
        let (at, p) = find_any(
            &w.words,
            &[
                "work with",
                "go with",
                "be good with",
                "be nice with",
                "work in",
                "be good in",
            ],
        )?;
        if !would {
            return None;
        }
        let after = at + p.split_whitespace().count();
        match item_after(&w.words[after..]) {
            Some(i) if !matches!(i.as_str(), "it" | "that") => (Some(i), at),
            _ => (item_after(&w.words[1..at]), at),
        }
    };
    let instead_of = find_any(&w.words, &["instead of", "rather than", "in place of"])
        .and_then(|(at, p)| item_after(&w.words[at + p.split_whitespace().count()..]));
    let recipe_words: Vec<String> = w.words[..rest_from]
        .iter()
        .filter(|x| !is_filler(x) && !matches!(x.as_str(), "would" | "work" | "good" | "nice"))
        .cloned()
        .collect();
    Some(Ask {
        item,
        instead_of,
        recipe_words,
    })
}

/// The ingredient in the first words ("peas?", "some cashews in it").
fn item_after(words: &[String]) -> Option<String> {
    let item: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .skip_while(|x| matches!(*x, "a" | "an" | "some" | "the" | "more" | "to" | "it"))
        .take_while(|x| {
            !matches!(
                *x,
                "in" | "instead" | "rather" | "on" | "to" | "too" | "with" | "or"
            )
        })
        .collect();
    (!item.is_empty()).then(|| item.join(" "))
}

pub fn plan(c: &Ctx<'_>) -> ThinkOutput {
    think_plan(
        "Answer what goes with the recipe",
        vec![step(
            format!(
                "Look at the recipe in front of us {}",
                hints::profile_note(c.session, &[])
            ),
            StepType::Analyze,
            "recipes",
            0,
        )],
    )
}

/// The kind of step data the answer reads.
const KIND: &str = "pairing";

/// What Act found, as the step's data: the recipe asked about, the item
/// asked about, and what else would suit it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Looked {
    kind: String,
    /// The recipe's label; `None` when no recipe is in front of us.
    label: Option<String>,
    saved: bool,
    item: Option<Looking>,
    instead_of: Option<String>,
    suggest: Vec<String>,
}

/// The ingredient asked about.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Looking {
    said: String,
    kind: Option<Kind>,
    /// The recipe already has it.
    has: bool,
    /// Why the user must not have it (allergy, dislike).
    avoid: Option<String>,
}

/// Act: the recipe asked about, whether it already has the item, and what
/// else would suit it.
pub fn act(ask: &Ask, c: &ActCtx<'_>) -> ActAction {
    let named = match by_label(&c.world, &ask.recipe_words, RECIPES) {
        Resolved::One(r) if !ask.recipe_words.is_empty() => Some(r),
        _ => None,
    };
    let mut looked = Looked {
        kind: KIND.to_string(),
        instead_of: ask.instead_of.clone(),
        ..Looked::default()
    };
    let Some(r) = named.or_else(|| focused_recipe(&c.world)) else {
        return complete("No recipe in front of us".into(), to_data(&looked), None);
    };
    let label = c.world.label(&r);
    let lines = c.world.ingredient_names(&r);
    let has = |name: &str| {
        lines
            .iter()
            .any(|l| ingredient_matches(l, &crate::context::taxonomy::singular(name)))
    };
    let avoid = hints::avoid_of(&c.req.step.description);
    looked.item = ask.item.as_ref().map(|said| {
        let food = read_dish(said).foods.first().map(|n| n.food);
        let line = food.map_or(said.as_str(), |f| f.line.0);
        Looking {
            said: said.clone(),
            kind: food.map(|f| f.kind),
            has: has(said),
            avoid: avoid.reason(line),
        }
    });
    looked.suggest = suggestions(&label, c.world.content(&r))
        .into_iter()
        .filter(|s| !has(s))
        .take(2)
        .collect();
    looked.saved = c.world.get(&r).is_some_and(|e| !e.e.is_pending());
    let summary = format!("Looked at {label}");
    looked.label = Some(label);
    complete(summary, to_data(&looked), None)
}

fn to_data(looked: &Looked) -> Value {
    serde_json::to_value(looked).unwrap_or(Value::Null)
}

/// What suits a recipe: by its dish family, else by cuisine, else fresh
/// finishing touches.
fn suggestions(label: &str, content: Option<&Value>) -> Vec<String> {
    let tags: Vec<&str> = content
        .and_then(|c| c.get("tags"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let family = DISHES
        .iter()
        .find(|d| tags.contains(&d.key))
        .map(|d| d.key)
        .or_else(|| read_dish(label).dish.map(|d| d.key));
    let list: &[&str] = match family {
        Some("stir fry" | "noodles" | "fried rice") => {
            &["cashews", "spring onion", "chilli flakes", "lime"]
        }
        Some("curry") => &["spinach", "lime", "coriander", "chilli flakes"],
        Some("soup" | "stew") => &["crusty bread", "spinach", "chilli flakes"],
        Some("pasta" | "pasta bake" | "risotto") => {
            &["spinach", "frozen peas", "lemon", "chilli flakes"]
        }
        Some("salad") => &["avocado", "toasted seeds", "feta"],
        Some("smoothie") => &["banana", "spinach", "oats"],
        Some("porridge" | "pancakes") => &["banana", "berries", "cinnamon"],
        Some("dessert") => &["yogurt", "cinnamon"],
        _ => &["lime", "coriander", "chilli flakes"],
    };
    list.iter().map(|s| s.to_string()).collect()
}

/// The answer, and the change a "yes" makes.
pub fn reply(c: &ReplyCtx<'_>) -> Said {
    let looked: Looked = c
        .req
        .data
        .iter()
        .rev()
        .find(|d| d.content.get("kind").and_then(Value::as_str) == Some(KIND))
        .and_then(|d| serde_json::from_value(d.content.clone()).ok())
        .unwrap_or_default();
    let Some(label) = looked.label.as_deref() else {
        return Said::text(
            "Which recipe do you mean? Show me one and I'll tell you what goes with it.".into(),
        );
    };
    // The answer, then the question whose "yes" makes `change`.
    let confirming = |answer: String, question: String, change: String| Said {
        confirm: Some(Confirm {
            question: question.clone(),
            change,
        }),
        ..Said::text(format!("{answer} {question}"))
    };
    let Some(item) = &looked.item else {
        return match looked.suggest.as_slice() {
            [a, b, ..] => confirming(
                format!("I'd add {a} to {label}, and maybe some {b}."),
                format!("Want me to add the {a}?"),
                format!("add {a} to it"),
            ),
            [a] => confirming(
                format!("I'd add {a} to {label}."),
                "Want me to?".into(),
                format!("add {a} to it"),
            ),
            [] => Said::text(format!("{label} is good as it is — I wouldn't add much.")),
        };
    };
    let said = &item.said;
    if let Some(why) = &item.avoid {
        return Said::text(format!("I'd leave {said} out of {label} — {why}."));
    }
    if item.has {
        return Said::text(format!(
            "{label} already has {said} in it. Anything else you'd change?"
        ));
    }
    let how = match item.kind {
        Some(Kind::Protein) => "cook it through before the sauce goes in",
        Some(Kind::Veg) => "stir them in for the last few minutes so they stay bright",
        Some(Kind::Fruit) => "add it at the end",
        _ => "add it near the end",
    };
    match &looked.instead_of {
        Some(old) => confirming(
            format!("Yes — {said} would work in {label} in place of the {old}; {how}."),
            if looked.saved {
                format!("Want me to make a {said} version of it?")
            } else {
                format!("Want me to swap the {old} for {said}?")
            },
            format!("swap the {old} for {said}"),
        ),
        None => confirming(
            format!("Yes — {said} would go well in {label}; {how}."),
            "Want me to add some?".into(),
            format!("add {said} to it"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(s: &str) -> Option<Ask> {
        read(&Words::new(s))
    }

    #[test]
    fn questions_about_what_goes_with_it_are_read() {
        assert_eq!(
            ask("would it be good with peas?").unwrap().item.as_deref(),
            Some("peas")
        );
        assert_eq!(ask("what would you add to it?").unwrap().item, None);
        let a = ask("would the yellow curry work with tofu instead of chicken?").unwrap();
        assert_eq!(a.item.as_deref(), Some("tofu"));
        assert_eq!(a.instead_of.as_deref(), Some("chicken"));
        assert_eq!(a.recipe_words, vec!["yellow", "curry"]);
        assert!(ask("add peas to it").is_none());
        assert!(ask("what's in my pantry?").is_none());
    }
}
