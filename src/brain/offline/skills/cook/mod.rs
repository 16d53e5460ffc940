//! Cooking something new: recognises a request for a dish ("can u do me a
//! shrimp stir fry", "mango smoothie pls", "and a side salad to go with",
//! "something warm n cosy, maybe a soup?") and builds it from the dish
//! family's recipe with what the request named (see `dishes.rs`,
//! `build.rs`).
//!
//! The request travels as the lexicon's `Intent::Generate`, whose plan,
//! act and reply draft it as an unsaved recipe.

pub mod build;
pub mod dishes;
pub mod pairing;
pub mod paste;

use serde::{Deserialize, Serialize};

use super::super::lexicon::GenerateAsk;
use super::super::text::{Words, find_any, weekday_abbrev};
use build::{dish_in, read_dish, read_words};

/// What a message asks of the cook, besides a new dish (which travels as
/// the lexicon's `Intent::Generate`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
pub enum Ask {
    /// "would it be good with peas?"
    Pairing(pairing::Ask),
}

impl Ask {
    pub fn name(&self) -> &'static str {
        match self {
            Ask::Pairing(_) => "pairing",
        }
    }
}

/// The cook's reading of a message.
pub fn read(w: &Words) -> Option<Ask> {
    pairing::read(w).map(Ask::Pairing)
}

/// Words that ask for something to be made.
#[rustfmt::skip]
const ASKING: &[&str] = &[
    "make", "cook", "do me", "can you do", "can u do", "could you do", "come up", "i want", "want a",
    "gimme", "give me", "get a", "can i get", "could i get", "can i have", "how about", "what about",
    "maybe", "fancy", "recipe", "recipie", "recipy", "idea", "whip", "something", "new", "pls",
    "please", "plz", "i need", "need a", "id like", "lets have", "lets do", "up for", "craving",
    "feel like", "in the mood", "go for", "and a", "and an", "then",
];

/// Words before a dish name that point at one that exists ("the curry",
/// "my soups", "any salads").
const POINTING: &[&str] = &[
    "the", "that", "this", "my", "those", "these", "your", "which", "any", "all", "our", "of",
    "no", "not", "without", "hate", "hates", "dont", "saved",
];

/// Words that rule a dish out when they come before it.
const NEGATING: &[&str] = &[
    "no", "not", "dont", "without", "hate", "hates", "skip", "exclude", "avoid", "nothing", "never",
];

/// Messages that start like a question about what exists.
const QUESTION_START: &[&str] = &[
    "what", "whats", "which", "is", "are", "does", "do", "how", "any", "show", "list", "find",
];

/// A request for a new dish of a named family, or `None`.
pub fn request(w: &Words) -> Option<GenerateAsk> {
    let stemmed: Vec<String> = w
        .words
        .iter()
        .map(|x| crate::context::taxonomy::singular(x))
        .collect();
    let (_, at) = dish_in(&stemmed)?;
    // Walk back over what describes the dish ("a quick thai chicken").
    let mut start = at;
    while start > 0 && describes(&w.words[start - 1]) {
        start -= 1;
    }
    let before = start.checked_sub(1).map(|i| w.words[i].as_str());
    if before.is_some_and(|b| POINTING.contains(&b)) {
        return None;
    }
    // "not in the mood for curry", "sick of salads".
    let negated = w.words[at.saturating_sub(5)..at]
        .iter()
        .any(|x| NEGATING.contains(&x.as_str()))
        || w.has_any(&["sick of", "tired of", "fed up", "rule out", "leave out"]);
    // "used half the paneer in a curry last night": a use told, the dish
    // is what it went into.
    let told_use = w.has_any(&[
        "used",
        "finished",
        "ate",
        "cooked",
        "made",
        "had",
        "went into",
        "put in",
    ]) && !w.has_any(&["can i", "can you", "can u", "could you", "recipe", "how"]);
    if negated || told_use && !w.has_any(ASKING) {
        return None;
    }
    let asking = w.has_any(ASKING);
    let indefinite = matches!(before, Some("a" | "an" | "some"));
    let opens = start == 0 || w.segments.iter().any(|s| s.first() == w.words.get(start));
    let question = w
        .words
        .first()
        .is_some_and(|f| QUESTION_START.contains(&f.as_str()))
        && !w.has_any(&["how about", "what about", "can you", "can u", "could you"]);
    let planning = w.words.iter().any(|x| weekday_abbrev(x).is_some());
    let shopping = w.has_any(&["shopping", "the list", "my list", "grocery"]);
    if question || planning || shopping || !(asking || indefinite || opens) {
        return None;
    }
    let mut req = read_words(&w.words);
    let mut ask = ask_for(w, String::new(), req.quick);
    req.foods.retain(|n| {
        !ask.without
            .iter()
            .any(|x| n.food.names.contains(&x.as_str()))
    });
    ask.dish = dish_phrase(&req);
    (!ask.dish.is_empty()).then_some(ask)
}

/// "ok what about somethin with chikpeas" while drafting: another idea,
/// built around what was named.
pub fn another(w: &Words) -> Option<GenerateAsk> {
    if !w.has_any(&[
        "what about",
        "how about",
        "something with",
        "somethin with",
        "one with",
    ]) {
        return None;
    }
    let req = read_words(&w.words);
    if req.foods.is_empty() {
        return None;
    }
    let mut ask = ask_for(w, dish_phrase(&req), req.quick);
    ask.without.clear();
    Some(ask)
}

/// Adjectives and foods that can stand before a dish name.
fn describes(word: &str) -> bool {
    const ADJECTIVES: &[&str] = &[
        "quick",
        "easy",
        "simple",
        "healthy",
        "light",
        "big",
        "warm",
        "cosy",
        "cozy",
        "hearty",
        "spicy",
        "mild",
        "creamy",
        "fresh",
        "side",
        "nice",
        "homemade",
        "proper",
        "veggie",
        "vegetarian",
        "vegan",
        "little",
        "small",
        "fast",
        "cheap",
        "comforting",
        "sweet",
        "cold",
    ];
    ADJECTIVES.contains(&word)
        || crate::context::taxonomy::cuisine(word).is_some()
        || !read_dish(word).foods.is_empty()
}

/// The request in a few plain words: "quick chicken noodles".
fn dish_phrase(req: &build::Request) -> String {
    let mut parts: Vec<&str> = Vec::new();
    if req.quick {
        parts.push("quick");
    }
    parts.extend(req.cuisine);
    parts.extend(
        req.foods
            .iter()
            .map(|n| n.said)
            .filter(|s| req.dish.is_none_or(|d| !build::names_part(d, s))),
    );
    parts.extend(req.dish.map(|d| d.names[0]));
    parts.join(" ")
}

/// The ask, with what the message rules out ("no nuts", "not the tikka").
fn ask_for(w: &Words, dish: String, quick: bool) -> GenerateAsk {
    let mut without = Vec::new();
    for seg in &w.segments {
        if let Some((i, p)) = find_any(seg, &["without", "no", "not", "nothing with", "minus"]) {
            let rest = &seg[i + p.split_whitespace().count()..];
            if let Some(x) = rest
                .iter()
                .find(|x| !matches!(x.as_str(), "the" | "a" | "any" | "too" | "fancy" | "spicy"))
            {
                without.push(crate::context::taxonomy::singular(x));
            }
        }
    }
    let meal = ["breakfast", "lunch", "dinner", "dessert"]
        .into_iter()
        .find(|m| w.has(m))
        .map(String::from);
    GenerateAsk {
        count: 1,
        dish,
        meal,
        without,
        quick,
        pasted: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dish(s: &str) -> Option<String> {
        request(&Words::new(s)).map(|a| a.dish)
    }

    #[test]
    fn requests_for_a_dish_are_recognised_however_typed() {
        for (s, want) in [
            (
                "can u make me a quick noodle thing with chicken, nothing fancy",
                "quick chicken noodle",
            ),
            ("can you do me a shrimp stir fry", "shrimp stir fry"),
            ("can i get a mango smoothie", "mango smoothie"),
            ("i want a chicken fried rice", "chicken fried rice"),
            ("mushroom risotto recipie pls", "mushroom risotto"),
            ("greek salad then, no olives", "greek salad"),
            ("something warm n cosy for tonight, maybe a soup?", "soup"),
            ("and a side salad to go with", "salad"),
            (
                "nice. and a quick oat porridge for tmrw morning",
                "quick porridge",
            ),
            (
                "can you come up with a chicken traybake",
                "chicken traybake",
            ),
            ("lentil soup recipe? something easy", "lentil soup"),
        ] {
            assert_eq!(dish(s).as_deref(), Some(want), "{s}");
        }
        let a = request(&Words::new(
            "can u come up with a banana dessert? no nuts, she's allergic",
        ))
        .unwrap();
        assert_eq!(a.without, vec!["nut"]);
    }

    #[test]
    fn dishes_that_exist_or_are_ruled_out_are_not_requests() {
        for s in [
            "show me the curry",
            "no curry please",
            "which ones are soups",
            "any thai curries?",
            "put the yellow curry on wednesday",
            "put a curry on friday",
            "i hate salad",
            "what's in the stir fry",
            "add salad to the shopping list",
            "is the soup saved?",
        ] {
            assert_eq!(dish(s), None, "{s}");
        }
    }
}
