//! Recipes: finding saved recipes by what they are ("any thai ones", "my
//! chicken recipes, quickest first", "what can I make tonight without
//! going to the shops"), comparing the ones just shown ("which of those is
//! quickest", "out of the first two which needs less shopping") and
//! questions about one of them ("the 2nd one, what do I need for it", "how
//! much coconut milk does that one take", "is it spicy?").
//!
//! Never writes: every ask reads the recipes (and the inventory when what is
//! missing matters), then an analysis picks and orders them.

pub mod act;
pub mod reply;

use serde::{Deserialize, Serialize};

use super::super::lexicon::Cues;
use super::super::text::{Words, find, is_filler, number, ordinal, stem};
use super::super::think_ctx::{self, step};
use super::Topic;
use crate::pipeline::{StepType, ThinkOutput};

/// What the user asks about their recipes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Ask {
    /// Saved recipes that are what the words say, in an order.
    Find(Find),
    /// The best of some recipes just shown, by one measure.
    Compare { among: Among, by: By },
    /// A question about one recipe (or the ones just shown), at the
    /// servings said ("enough yogurt for the tikka at 6 servings"), else
    /// at the recipe's own.
    About {
        which: Which,
        what: Detail,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        servings: Option<u32>,
    },
}

/// What a search keeps.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Find {
    /// Words every recipe found must match (cuisine, tag, kind, diet,
    /// ingredient or name): "thai", "chicken", "air fryer".
    pub words: Vec<String>,
    /// Words no recipe found may match: "spicy" in "anything not spicy".
    pub not: Vec<String>,
    /// Cookable from the kitchen as it is ("without going to the shops").
    pub ready: bool,
    /// Recipes that use these (the items just shown, or what goes off soon).
    pub using: Option<Using>,
    /// For an evening meal ("tonight"): breakfasts are left out.
    pub dinner: bool,
    /// The order asked for ("quickest first").
    pub by: Option<By>,
}

/// What a search's recipes should use up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Using {
    /// The inventory items just shown ("which recipes use those").
    Shown,
    /// What goes off in the next few days.
    Expiring,
}

/// A measure to compare recipes by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum By {
    Quickest,
    Slowest,
    ServesMost,
    FewestMissing,
}

/// Which recipes a comparison is among.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Among {
    /// The list just shown ("of those", "of whats left").
    Shown,
    /// The first n of it ("out of the first two").
    First(usize),
    /// Those whose name or ingredients hold a word ("the cod ones").
    Matching(String),
}

/// Which recipe a question is about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Which {
    /// "the 2nd one" (0-based) in the last list shown.
    Nth(usize),
    /// "the last one".
    Last,
    /// "the one after that": next in the order last talked about.
    Next,
    /// "the kerala one", "the wings one".
    Named(String),
    /// A saved recipe by its whole name, as the reader linked it.
    Titled(String),
    /// "it", "that one", "those": what was just shown.
    Shown,
    /// "the other one", "the one that isnt": of two just shown, the one
    /// the last reply did not put first.
    Other,
    /// "the slower one", "the quickest one": of those just shown, the one
    /// that ranks first.
    Ranked(By),
}

/// What a question asks of a recipe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Detail {
    /// "what do I need for it", "what goes in it".
    Ingredients,
    /// "how much coconut milk does that one take".
    AmountOf(String),
    /// "is it spicy?".
    Spicy,
    /// "do I have everything for that one", "what do I need to buy".
    Missing,
    /// "how long does the pad see ew take".
    Time,
    /// "how many does it serve", "will it feed 4".
    #[serde(rename = "serves")]
    Serves,
}

/// The kind of a detail question, carried to "and the last one?".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DetailKind {
    #[default]
    Ingredients,
    Spicy,
    Missing,
}

impl Ask {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Ask::Find(_) => "recipes_find",
            Ask::Compare { .. } => "recipes_compare",
            Ask::About { .. } => "recipes_about",
        }
    }

    /// The topic a follow-up carries on.
    pub fn topic(&self) -> Topic {
        match self {
            Ask::About { what, .. } => Topic::Recipes(match what {
                Detail::Spicy => DetailKind::Spicy,
                Detail::Missing => DetailKind::Missing,
                Detail::Ingredients | Detail::AmountOf(_) | Detail::Time | Detail::Serves => {
                    DetailKind::Ingredients
                }
            }),
            Ask::Find(_) | Ask::Compare { .. } => Topic::Recipes(DetailKind::Ingredients),
        }
    }

    /// True when the kitchen's stock matters to the answer.
    fn needs_inventory(&self) -> bool {
        match self {
            Ask::Find(f) => f.ready || f.using.is_some() || f.by == Some(By::FewestMissing),
            Ask::Compare { by, .. } => *by == By::FewestMissing,
            Ask::About { what, .. } => !matches!(what, Detail::Spicy),
        }
    }
}

const QUICKEST: &[&str] = &[
    "quickest",
    "fastest",
    "quicker",
    "faster",
    "shortest",
    "least time",
    "whats quick",
    "what is quick",
    "whats fast",
    "which is quick",
    "which are quick",
    "which ones are quick",
];
const SLOWEST: &[&str] = &["longer", "longest", "slowest", "slower", "more time"];
const SERVES_MOST: &[&str] = &[
    "serves the most",
    "serves most",
    "serves more",
    "most portions",
    "more portions",
    "most servings",
    "feeds the most",
    "feeds more",
    "makes the most",
    "makes more",
    "biggest",
];
const FEWEST_MISSING: &[&str] = &[
    "cheap",
    "cheapest",
    "budget",
    "fewest",
    "less shopping",
    "least shopping",
    "needs less",
    "needs the least",
    "least to buy",
    "less to buy",
    "fewer things",
];

/// The measure a message compares by.
fn by(w: &Words) -> Option<By> {
    if w.has_any(FEWEST_MISSING) {
        Some(By::FewestMissing)
    } else if w.has_any(SERVES_MOST) {
        Some(By::ServesMost)
    } else if w.has_any(SLOWEST) {
        Some(By::Slowest)
    } else if w.has_any(QUICKEST) {
        Some(By::Quickest)
    } else {
        None
    }
}

const READY: &[&str] = &[
    "right now",
    "whats in the",
    "what is in the",
    "what ive got in",
    "what i have in",
    "without going to the shops",
    "without going shopping",
    "without shopping",
    "without going out",
    "no shopping",
    "with what i have",
    "with what ive got",
    "from what i have",
    "from what ive got",
    "already have",
    "without buying",
];
const EXPIRING: &[&str] = &[
    "about to turn",
    "about to go",
    "going off",
    "goes off",
    "expiring",
    "use up",
    "using up",
    "needs using",
];
/// Words that are part of asking, never what a recipe must match.
const NOT_FILTER: &[&str] = &[
    "recipe",
    "recipes",
    "recipies",
    "saved",
    "show",
    "list",
    "got",
    "gonna",
    "plan",
    "cook",
    "cooking",
    "wht",
    "wat",
    "ones",
    "anything",
    "something",
    "stuff",
    "can",
    "could",
    "right",
    "now",
    "tonight",
    "dinner",
    "lunch",
    "breakfast",
    "tea",
    "next",
    "day",
    "days",
    "week",
    "first",
    "quickest",
    "fastest",
    "quick",
    "which",
    "use",
    "uses",
    "using",
    "those",
    "them",
    "these",
    "there",
    "good",
    "nice",
    "idea",
    "ideas",
    "options",
    "option",
    "mine",
    "have",
    "ive",
    "does",
    "do",
    "left",
    "shops",
    "shop",
    "going",
    "without",
    "eat",
    "are",
    "is",
    "any",
    "of",
    "my",
    "want",
    "need",
    "easy",
    "done",
    "hey",
    "pls",
    "please",
    "thx",
    "lol",
    "tho",
    "btw",
    "ok",
    "okay",
    "yeah",
    "hmm",
    "um",
    "cos",
    "fancy",
    "even",
    "about",
    "turn",
    "off",
    "expiring",
    "in",
    "the",
    "tomorrow",
    "today",
    "supper",
    "brunch",
    "simple",
    "fast",
    "should",
    "cheap",
    "cheapest",
    "budget",
];

/// The search words of a message: what is left once asking words,
/// fillers and the ready/expiring phrases are taken out; "air fryer" stays
/// one phrase.
fn search_words(w: &Words) -> (Vec<String>, Vec<String>) {
    let mut words: Vec<String> = Vec::new();
    let mut not: Vec<String> = Vec::new();
    let skip_phrases: Vec<&str> = READY.iter().chain(EXPIRING).copied().collect();
    let mut skip = vec![false; w.words.len()];
    for p in &skip_phrases {
        if let Some(i) = find(&w.words, p) {
            let n = p.split(' ').count();
            for s in skip.iter_mut().skip(i).take(n) {
                *s = true;
            }
        }
    }
    let mut negate = false;
    let mut i = 0;
    while i < w.words.len() {
        let x = w.words[i].as_str();
        if skip[i] {
            i += 1;
            continue;
        }
        if matches!(
            x,
            "not" | "nothing" | "no" | "without" | "non" | "isnt" | "arent"
        ) {
            negate = true;
            i += 1;
            continue;
        }
        let phrase = if x == "air" && w.words.get(i + 1).is_some_and(|n| n.starts_with("fr")) {
            i += 1;
            "air fryer".to_string()
        } else if x == "stir" && w.words.get(i + 1).is_some_and(|n| n.starts_with("fr")) {
            i += 1;
            "stir fry".to_string()
        } else {
            x.to_string()
        };
        i += 1;
        let keep = !NOT_FILTER.contains(&phrase.as_str())
            && super::super::text::weekday_index(&phrase).is_none()
            && !super::super::items::is_store_word(&phrase)
            && !is_filler(&phrase)
            && !is_filler(&stem(&phrase))
            && number(&phrase).is_none()
            && ordinal(&phrase).is_none()
            && !["veg"].contains(&phrase.as_str())
            // Words that link to nothing are filler, never a search term.
            && !super::super::vocab::links_to_nothing(&phrase);
        if keep {
            if negate {
                not.push(stem(&phrase));
            } else {
                words.push(stem(&phrase));
            }
        }
        // "not a curry", "not too spicy": the "not" reaches past filler.
        if keep || !(is_filler(&phrase) || phrase == "too") {
            negate = false;
        }
    }
    (words, not)
}

/// True when the message asks for saved recipes by what they are.
fn asks_to_find(w: &Words) -> bool {
    let recipes = w.has_any(&["recipes", "recipies", "my recipe", "recipe have i"]);
    let asking = w.has_any(&[
        "show", "list", "what", "wht", "wat", "which", "any", "got", "have", "saved",
    ]);
    let can_cook = (w.has_any(&["i can", "can i", "could i", "i could", "can we", "we can"])
        && w.has_any(&["make", "cook", "do"])
        && w.has_any(&["what", "wht", "wat", "anything", "which", "any"]))
        || w.has_any(&["what have i got", "what ive got", "wht have i got"]);
    let ones = w.has_any(&["ones", "curries"]) && w.has_any(&["any", "what", "wht", "which"]);
    (recipes && asking) || can_cook || ones
}

/// "whats good for dinner", "any ideas for lunch tomorrow", "im starving
/// what can i cook": asking what to eat. A meal or hunger word with a word
/// that asks for ideas; a plain "what" with a day ("whats for dinner
/// tomorrow") asks about the plan instead.
fn suggesting(w: &Words, day: bool) -> bool {
    const MEAL: &[&str] = &[
        "dinner",
        "lunch",
        "breakfast",
        "supper",
        "brunch",
        "tonight",
        "eat",
        "hungry",
        "starving",
        "famished",
        "cook",
    ];
    const FOR_IDEAS: &[&str] = &[
        "ideas",
        "idea",
        "suggest",
        "suggestion",
        "suggestions",
        "recommend",
        "inspiration",
        "hungry",
        "starving",
        "famished",
        "something",
        "anything",
        "options",
        "whats good",
        "what is good",
    ];
    const ASKING: &[&str] = &["what", "whats", "any", "should"];
    const WRITING: &[&str] = &["put", "add", "plan", "schedule", "move", "save", "swap"];
    let week = w.has_any(&["week", "weekend"]);
    // "what can i do for friday": what to cook on a day, whatever the
    // words for the meal.
    const FOR_A_DAY: &[&str] = &[
        "what can i do for",
        "what could i do for",
        "what can we do for",
        "what could we do for",
        "what should i do for",
        "what should we have",
        "what shall we have",
        "what can i make for",
        "what could i make for",
        "what can i cook for",
        "what could i cook for",
        "what should i make for",
        "what should i cook for",
    ];
    if w.has_any(FOR_A_DAY) && !week {
        return true;
    }
    // "i fancy something spicy", "craving anything with noodles".
    let craving = w.has_any(&[
        "fancy",
        "craving",
        "in the mood for",
        "feel like",
        "feeling like",
    ]) && w.has_any(&["something", "anything", "smth"])
        && !super::super::items::has_trigger(&w.words);
    if craving {
        return true;
    }
    // "give me 2 chicken dinner ideas", "got any ideas": new recipes.
    let new_ones = w.has_any(super::super::synonyms::GENERATE_VERBS)
        || w.has_any(&["new", "ideas", "idea", "inspiration"]);
    w.has_any(MEAL)
        && !new_ones
        && !w.has_any(WRITING)
        && (w.has_any(FOR_IDEAS) || (w.has_any(ASKING) && !day && !week))
}

const GENERATE: &[&str] = &[
    "come up with",
    "give me a",
    "gimme",
    "make me",
    "recipe for",
    "new recipe",
    "create",
    "invent",
    "idea for",
];
const RULING_OUT: &[&str] = &[
    "not feeling",
    "doesnt eat",
    "dont eat",
    "hates",
    "leave out",
    "skip",
    "allergic",
];

/// Which recipe a question points at.
pub fn which(w: &Words) -> Option<Which> {
    let ws = &w.words;
    for (i, x) in ws.iter().enumerate() {
        if let Some(n) = ordinal(x) {
            let next = ws.get(i + 1).map(String::as_str);
            if matches!(next, Some("one") | None | Some("recipe")) || i > 0 && ws[i - 1] == "the" {
                return Some(Which::Nth(n));
            }
        }
    }
    if w.has_any(&["last one", "the last", "last recipe"]) {
        return Some(Which::Last);
    }
    if w.has_any(&[
        "other one",
        "the other",
        "one that isnt",
        "one that isn't",
        "one thats not",
        "one that's not",
        "one that is not",
    ]) {
        return Some(Which::Other);
    }
    // "the slower one", "the quickest": ranked among those shown.
    let ranked = ws.iter().enumerate().find_map(|(i, x)| {
        let by = match x.as_str() {
            "quicker" | "quickest" | "faster" | "fastest" | "shorter" | "shortest" => By::Quickest,
            "slower" | "slowest" | "longer" | "longest" => By::Slowest,
            _ => return None,
        };
        let pointed = ws.get(i + 1).is_some_and(|n| n == "one") || i > 0 && ws[i - 1] == "the";
        pointed.then_some(by)
    });
    if let Some(by) = ranked {
        return Some(Which::Ranked(by));
    }
    if w.has_any(&["one after", "after that", "next one", "the next"]) {
        return Some(Which::Next);
    }
    // "the kerala one", "the wings one": the word before "one".
    if let Some(i) = find(ws, "one").filter(|i| *i >= 2 && ws[i - 2] == "the") {
        let name = &ws[i - 1];
        if !is_filler(name) && !["other", "new", "same", "that", "this"].contains(&name.as_str()) {
            return Some(Which::Named(stem(name)));
        }
    }
    if w.has_any(super::POINTING) {
        return Some(Which::Shown);
    }
    None
}

/// What a question asks of a recipe.
fn detail(w: &Words) -> Option<Detail> {
    if w.has_any(&["spicy", "spice", "heat", "too hot", "hot"]) {
        return Some(Detail::Spicy);
    }
    if w.has_any(&[
        "how many does it",
        "how many does that",
        "how many does this",
        "how many people",
        "how many will",
        "how many servings",
        "how many portions",
        "does it serve",
        "does it feed",
        "will it feed",
        "it feeds",
        "it serves",
        "serves how many",
        "feeds how many",
    ]) {
        return Some(Detail::Serves);
    }
    if w.has_any(&[
        "how long does",
        "how long do",
        "how long is",
        "how long will",
        "how long it",
        "how long that",
        "how long this",
        "how long for",
        "how long to",
        "how much time",
        "how many minutes",
        "cooking time",
        "how quick is",
        "how fast is",
    ]) {
        return Some(Detail::Time);
    }
    if let Some(i) = find(&w.words, "how much").or_else(|| find(&w.words, "how many")) {
        let stop = [
            "does", "do", "goes", "go", "is", "in", "for", "it", "that", "needed", "will", "would",
            "are", "they", "those", "this", "should", "did",
        ];
        let item: Vec<String> = w.words[i + 2..]
            .iter()
            .take_while(|x| !stop.contains(&x.as_str()))
            .filter(|x| !is_filler(x))
            .map(|x| stem(x))
            .collect();
        let in_recipe = w.has_any(&[
            "goes in",
            "go in",
            "take",
            "takes",
            "does it need",
            "does that",
            "does the",
            "in it",
            "in those",
            "in them",
            "in that",
            "in the",
            "for it",
            "for that",
            "needed",
            "does it use",
            "it need",
            "it use",
            "one need",
            "one use",
            "recipe",
        ]);
        if !item.is_empty() && in_recipe {
            return Some(Detail::AmountOf(item.join(" ")));
        }
    }
    // "is there enough chicken for it", "got enough coconut milk for the
    // curry": how much of one thing it takes, against what there is.
    if let Some(i) = find(&w.words, "enough") {
        let item: Vec<String> = w.words[i + 1..]
            .iter()
            .take_while(|x| !matches!(x.as_str(), "for" | "to" | "in" | "left"))
            .filter(|x| !is_filler(x))
            .map(|x| stem(x))
            .collect();
        if !item.is_empty() && !super::super::vocab::food_mentions(&item).is_empty() {
            return Some(Detail::AmountOf(item.join(" ")));
        }
    }
    // "do i have enough stuff for the pad see ew", "got all the things
    // for it": having, what is needed, and for what.
    const NEEDED: &[&str] = &[
        "enough",
        "everything",
        "stuff",
        "ingredients",
        "things",
        "bits",
        "need",
    ];
    let having = w
        .words
        .iter()
        .position(|x| matches!(x.as_str(), "have" | "got" | "hav"));
    let needed_for = w.words.iter().enumerate().any(|(i, x)| {
        x == "for"
            && having.is_some_and(|h| h < i)
            && w.words[i.saturating_sub(2)..i]
                .iter()
                .any(|n| NEEDED.contains(&n.as_str()))
            && super::super::vocab::food_mentions(&w.words[having.unwrap_or(0)..i]).is_empty()
    });
    if needed_for {
        return Some(Detail::Missing);
    }
    if w.has_any(&[
        "got stuff for",
        "have stuff for",
        "got the stuff for",
        "have the stuff for",
        "got what i need",
        "have what i need",
        "got enough for",
        "have enough for",
        "got the ingredients",
        "have the ingredients",
        "have everything",
        "got everything",
        "everything for",
        "need to buy",
        "have to buy",
        "need to get",
        "need to pick up",
        "am i missing",
        "im missing",
        "missing for",
        "buy anything",
    ]) {
        return Some(Detail::Missing);
    }
    if w.has_any(&[
        "what do i need",
        "wht do i need",
        "wat do i need",
        "what goes in",
        "wht goes in",
        "what goes into",
        "whats in it",
        "whats in that",
        "whats in the",
        "ingredients",
        "what does it need",
        "what does it take",
        "whats it need",
    ]) {
        return Some(Detail::Ingredients);
    }
    None
}

/// "find me something to cook with those", "any recipes using them":
/// saved recipes that use what was just shown, never a new dish.
pub fn using_shown(w: &Words) -> Option<Ask> {
    let pointing = w.has_any(&[
        "with those",
        "with them",
        "with these",
        "use those",
        "use them",
        "use these",
        "using those",
        "using them",
        "using these",
        "with that stuff",
        "with all that",
    ]);
    let cooking = w.has_any(&[
        "cook",
        "make",
        "recipe",
        "recipes",
        "something",
        "anything",
        "dinner",
        "lunch",
        "eat",
    ]);
    (pointing && cooking && !w.has_any(&["new", "invent", "create"])).then(|| {
        Ask::Find(Find {
            using: Some(Using::Shown),
            ..Find::default()
        })
    })
}

/// "anything with chicken thats not a curry", "something not spicy", "any
/// chicken recipes that arent curries": a search with a part said not to
/// be there. The "not" is this search's, never a standing rule; said with
/// a standing word ("this week", "anymore", "allergic") it is the rule's.
pub fn search_but_not(w: &Words) -> Option<Ask> {
    const OPENERS: &[&str] = &[
        "anything",
        "something",
        "smth",
        "sth",
        "any",
        "ideas",
        "options",
        "recipes",
        "recipe",
    ];
    const TALK: &[&str] = &[
        "idk", "hmm", "ok", "okay", "so", "um", "uh", "well", "got", "is", "there",
    ];
    let opens = w
        .words
        .iter()
        .find(|x| !TALK.contains(&x.as_str()))
        .is_some_and(|x| OPENERS.contains(&x.as_str()))
        || w.has_any(&["what can i make", "what can i cook", "what could i make"]);
    let not = w.has_any(&[
        "thats not",
        "that is not",
        "that isnt",
        "that arent",
        "that are not",
        "which isnt",
        "which arent",
        "but not",
        "not too",
        "nothing too",
        "not spicy",
        "not a",
    ]);
    let standing = w.has_any(&[
        "this week",
        "for the week",
        "anymore",
        "any more",
        "no more",
        "never",
        "allergic",
        "cant eat",
        "doesnt eat",
        "dont eat",
        "hate",
        "hates",
    ]);
    if !opens || !not || standing || w.has_any(GENERATE) {
        return None;
    }
    let (words, not) = search_words(w);
    (!not.is_empty()).then_some(Ask::Find(Find {
        words,
        not,
        ..Find::default()
    }))
}

/// The skill's reading of a message.
pub fn read(w: &Words, cues: Cues) -> Option<Ask> {
    if w.has_any(GENERATE) {
        return None;
    }
    let on_recipes = matches!(cues.topic, Topic::Recipes(_));
    let measure = by(w);
    // "no fish", "cod's fine": the exclusions' to rule in or out.
    let ruling_out = w.has_any(RULING_OUT)
        || w.words
            .windows(2)
            .any(|p| p[0] == "no" && !["shopping", "more"].contains(&p[1].as_str()));
    let day = w
        .words
        .iter()
        .any(|x| super::super::text::weekday_index(x).is_some() || x == "tomorrow");
    // "ok what about with chickpeas" after a search: the same search for
    // the food named now.
    let follow_up = on_recipes
        && !ruling_out
        && measure.is_none()
        && w.has_any(&[
            "what about",
            "how about",
            "and with",
            "any with",
            "ones with",
            "and ones",
        ]);
    // "too much rice, what do i do with it": recipes that use the food,
    // least to buy first.
    let use_food = w.has_any(&["do with", "make with", "cook with", "use up"])
        && w.has_any(&["what", "whats", "ideas", "how", "any"])
        && !w.has_any(GENERATE);
    if follow_up || use_food {
        let food = super::super::vocab::food_mentions(&w.words);
        if !food.is_empty() {
            return Some(Ask::Find(Find {
                words: food.iter().map(|f| stem(f)).collect(),
                by: (!follow_up).then_some(By::FewestMissing),
                ..Find::default()
            }));
        }
    }
    let suggesting = suggesting(w, day);
    let finding = (asks_to_find(w) && !day || suggesting) && !ruling_out;
    // A question about one of them ("anything not spicy i can do" is a
    // search).
    let adding = w.has_any(super::shopping::ADD) && !w.has_any(&["need to buy", "do i need"]);
    if let Some(what) = detail(w)
        .filter(|d| !(finding && *d == Detail::Spicy))
        // "nothing too spicy" rules out; "bit less spicy" changes a recipe;
        // "is it spicy?" asks.
        .filter(|d| {
            *d != Detail::Spicy
                || (!ruling_out
                    && (super::super::consent::is_question(w)
                        || w.has_any(&[
                            "is it",
                            "is that",
                            "is this",
                            "are they",
                            "how spicy",
                            "how hot",
                        ])))
        })
        .filter(|d| !(adding && *d == Detail::Missing))
    {
        if let Some(which) = which(w) {
            return Some(Ask::About {
                which,
                what,
                servings: None,
            });
        }
        if matches!(
            what,
            Detail::AmountOf(_) | Detail::Spicy | Detail::Time | Detail::Serves | Detail::Missing
        ) {
            return Some(Ask::About {
                which: Which::Shown,
                what,
                servings: None,
            });
        }
    }
    // "and the last one?" carries on the last question: only the pointing
    // words are said, and no question of Alfred's is waiting on them.
    let only_pointing = w.words.iter().all(|x| {
        is_filler(x)
            || ordinal(x).is_some()
            || ["last", "next", "after", "wht", "wat"].contains(&x.as_str())
    });
    // "the second one tonight then": a day makes it the plan's.
    let dated = !super::days::days_at(w).is_empty();
    if on_recipes
        && only_pointing
        && !dated
        && !cues.which
        && measure.is_none()
        && let Some(which @ (Which::Nth(_) | Which::Last | Which::Next)) = which(w)
    {
        let what = match cues.topic {
            Topic::Recipes(DetailKind::Spicy) => Detail::Spicy,
            Topic::Recipes(DetailKind::Missing) => Detail::Missing,
            _ => Detail::Ingredients,
        };
        return Some(Ask::About {
            which,
            what,
            servings: None,
        });
    }
    if let Some(by) = measure {
        // "and the cheapest?" right after recipes: the same recipes, by
        // this measure.
        let comparing = w.has_any(&["which", "whats", "what", "wht", "wat", "out of", "of the"])
            || (on_recipes && w.words.len() <= 5 && w.has_any(&["and", "or", "how about"]));
        let listing = w.has_any(&["recipes", "recipies", "show me", "list"]);
        // "skip the french toast. which of the rest is quickest": the
        // ruling out is its own clause; Understand rules it out first.
        let own_clause = w.segments.iter().any(|s| {
            let seg = Words::new(&s.join(" "));
            self::by(&seg).is_some() && !seg.has_any(RULING_OUT) && !seg.has("no")
        });
        if !listing && (!ruling_out || own_clause) && comparing {
            return Some(Ask::Compare {
                among: among(w),
                by,
            });
        }
    }
    if !finding {
        return None;
    }
    let (words, not) = search_words(w);
    let using = if w.has_any(EXPIRING) {
        Some(Using::Expiring)
    } else if w.has_any(&[
        "use those",
        "use them",
        "with those",
        "with them",
        "use these",
    ]) {
        Some(Using::Shown)
    } else {
        None
    };
    // Asked what to eat with no order given: "something quick" puts the
    // quickest first, else what the kitchen can make with least to buy.
    let measure = match measure {
        None if suggesting && w.has_any(&["quick", "fast", "easy", "simple"]) => Some(By::Quickest),
        None if suggesting => Some(By::FewestMissing),
        m => m,
    };
    let find = Find {
        words,
        not,
        ready: w.has_any(READY),
        using,
        // "tonight" unless another day is named ("dinner tmrw").
        dinner: w.has_any(&["tonight", "dinner", "tonite", "for tea", "supper"])
            && !w.words.iter().any(|x| {
                super::when::Day::of_word(x).is_some_and(|d| d != super::when::Day::Today)
            }),
        by: measure,
    };
    // A plain "show me my recipes" is the lexicon's listing ("what recipes
    // have I got saved" is this skill's: the lexicon reads "have I got").
    let plain = find == Find::default()
        && !suggesting
        && !w.has_any(&["have i got", "ive got", "got saved"]);
    (!plain).then_some(Ask::Find(find))
}

/// Which recipes a comparison is among.
fn among(w: &Words) -> Among {
    let ws = &w.words;
    if let Some(i) = find(ws, "first")
        && let Some(n) = ws.get(i + 1).and_then(|x| number(x))
    {
        return Among::First(n as usize);
    }
    // "the cod ones": the word before "ones".
    if let Some(i) = find(ws, "ones").filter(|i| *i >= 2 && ws[i - 2] == "the") {
        let name = &ws[i - 1];
        if !is_filler(name) {
            return Among::Matching(stem(name));
        }
    }
    Among::Shown
}

/// Think's plan: read the recipes (and the inventory when stock matters),
/// then pick and order them.
pub fn plan(ask: &Ask) -> ThinkOutput {
    let mut steps = vec![step(
        "Read the saved recipes".into(),
        StepType::Read,
        "recipes",
        0,
    )];
    if ask.needs_inventory() {
        steps.push(step(
            "Read what the kitchen holds".into(),
            StepType::Read,
            "inventory",
            0,
        ));
    }
    let (goal, analysis) = match ask {
        Ask::Find(_) => ("Find the saved recipes asked for", "Pick and order them"),
        Ask::Compare { .. } => (
            "Compare the recipes just shown",
            "Rank them by what was asked",
        ),
        Ask::About { .. } => ("Answer about the recipe", "Look at the recipe asked about"),
    };
    steps.push(step(analysis.into(), StepType::Analyze, "recipes", 1));
    think_ctx::plan(goal, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(s: &str) -> Option<Ask> {
        read(&Words::new(s), Cues::default())
    }

    fn found(s: &str) -> Find {
        match ask(s) {
            Some(Ask::Find(f)) => f,
            other => panic!("{s:?} read as {other:?}"),
        }
    }

    #[test]
    fn searches_as_people_type_them() {
        assert_eq!(found("any thai ones").words, vec!["thai"]);
        let f = found("show me my chiken recipes, quickest first");
        assert_eq!(f.words, vec!["chicken"], "respelled");
        assert_eq!(f.by, Some(By::Quickest));
        let f = found("what can i make tonight without going to the shops");
        assert!(f.ready && f.dinner && f.words.is_empty(), "{f:?}");
        let f = found("anything not spicy i can do in the air fryer");
        assert_eq!(
            (f.words, f.not),
            (vec!["air fryer".into()], vec!["spicy".into()])
        );
        assert_eq!(
            found("which of my recipes are vegetarian").words,
            vec!["vegetarian"]
        );
        assert_eq!(
            found("ok which recipes use those").using,
            Some(Using::Shown)
        );
        assert_eq!(
            found("anything i can cook with the stuff thats about to turn").using,
            Some(Using::Expiring)
        );
        assert_eq!(
            found("i want stuff that does leftovers for lunch the next day, what have i got").words,
            vec!["leftover"]
        );
        assert_eq!(
            found("which curries can i make right now").words,
            vec!["curry"]
        );
        assert!(found("which curries can i make right now").ready);
    }

    #[test]
    fn not_searches() {
        for s in [
            "can u make me a quick noodle thing with chicken",
            "give me a thai basil chicken recipe",
            "what could i do wednesday thats not a curry",
            "hmm not feeling curry this week",
            "whats in my pantry",
            "how much chicken have i got",
            "put it on friday",
        ] {
            assert_eq!(ask(s), None, "{s}");
        }
    }

    #[test]
    fn comparisons_and_questions() {
        assert_eq!(
            ask("out of the first two which needs less shopping"),
            Some(Ask::Compare {
                among: Among::First(2),
                by: By::FewestMissing
            })
        );
        assert_eq!(
            ask("what about the cod ones, which is quickest"),
            Some(Ask::Compare {
                among: Among::Matching("cod".into()),
                by: By::Quickest
            })
        );
        assert_eq!(
            ask("which of them makes the most portions, want leftovers for lunch"),
            Some(Ask::Compare {
                among: Among::Shown,
                by: By::ServesMost
            })
        );
        assert_eq!(
            ask("the 2nd one, wht do i need for it"),
            Some(Ask::About {
                which: Which::Nth(1),
                what: Detail::Ingredients,
                servings: None
            })
        );
        assert_eq!(
            ask("how much coconut milk does that one take"),
            Some(Ask::About {
                which: Which::Shown,
                what: Detail::AmountOf("coconut milk".into()),
                servings: None
            })
        );
        assert_eq!(
            ask("is the kerala one spicy"),
            Some(Ask::About {
                which: Which::Named("kerala".into()),
                what: Detail::Spicy,
                servings: None
            })
        );
        assert_eq!(
            ask("do i have everything for that one"),
            Some(Ask::About {
                which: Which::Shown,
                what: Detail::Missing,
                servings: None
            })
        );
        let after_a_question = Cues {
            topic: Topic::Recipes(DetailKind::Ingredients),
            ..Cues::default()
        };
        assert_eq!(
            read(&Words::new("and the last one?"), after_a_question),
            Some(Ask::About {
                which: Which::Last,
                what: Detail::Ingredients,
                servings: None
            })
        );
        assert_eq!(ask("and the last one?"), None);
    }
}
