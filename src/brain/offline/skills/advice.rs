//! Advice: general cooking questions about a food, answered from a small
//! kitchen-knowledge table (`assets/knowledge/advice.toml`) — can it be
//! frozen, how long it keeps, how to cook it, the safe temperature, how to
//! thaw it, what to use instead, how to tell it has gone off. Nothing is
//! read from the kitchen and nothing is written.
//!
//! A food the table has no note on falls back to its catalog category's
//! general note, said as general; a food with neither is said plainly.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::context::taxonomy::singular;
use crate::pipeline::ThinkOutput;

use super::super::consent::is_question;
use super::super::text::{Words, find_any};
use super::super::think_ctx::plan as think_plan;
use super::super::vocab::food_mentions;
use super::Said;

const TABLE: &str = include_str!("../../../../assets/knowledge/advice.toml");
const CATALOG: &str = include_str!("../../../../assets/seed/ingredients.json");

/// What the question is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Freeze,
    Keeps,
    Cook,
    Safe,
    Thaw,
    Swap,
    Signs,
}

/// A general question about one food.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ask {
    pub kind: Kind,
    /// The food as said ("chicken thighs").
    pub food: String,
}

impl Ask {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        "advice"
    }
}

/// One food's notes (or one category's general notes).
#[derive(Debug, Default, Deserialize)]
struct Notes {
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    category: Option<String>,
    freeze: Option<String>,
    keeps: Option<String>,
    cook: Option<String>,
    safe: Option<String>,
    thaw: Option<String>,
    swap: Option<String>,
    signs: Option<String>,
}

impl Notes {
    fn get(&self, kind: Kind) -> Option<&str> {
        match kind {
            Kind::Freeze => self.freeze.as_deref(),
            Kind::Keeps => self.keeps.as_deref(),
            Kind::Cook => self.cook.as_deref(),
            Kind::Safe => self.safe.as_deref(),
            Kind::Thaw => self.thaw.as_deref(),
            Kind::Swap => self.swap.as_deref(),
            Kind::Signs => self.signs.as_deref(),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
struct Table {
    #[serde(default)]
    food: BTreeMap<String, Notes>,
    #[serde(default)]
    category: BTreeMap<String, Notes>,
}

#[derive(Debug, Deserialize)]
struct CatalogRow {
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    category: String,
}

struct Knowledge {
    table: Table,
    /// Every name and alias (singular), to the table's key.
    names: BTreeMap<String, String>,
    /// Catalog names and aliases (singular), to their category.
    categories: BTreeMap<String, String>,
}

static KNOWN: LazyLock<Knowledge> = LazyLock::new(|| {
    let table: Table = toml::from_str(TABLE).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "the advice table does not parse; general questions go unanswered");
        Table::default()
    });
    let mut names = BTreeMap::new();
    for (key, notes) in &table.food {
        names.insert(singular(key), key.clone());
        for a in &notes.aliases {
            names.entry(singular(a)).or_insert_with(|| key.clone());
        }
    }
    let rows: Vec<CatalogRow> = serde_json::from_str(CATALOG).unwrap_or_default();
    let mut categories = BTreeMap::new();
    for r in &rows {
        if table.food.contains_key(&r.name) {
            for a in &r.aliases {
                names.entry(singular(a)).or_insert_with(|| r.name.clone());
            }
        }
    }
    for r in rows {
        categories.insert(singular(&r.name), r.category.clone());
        for a in r.aliases {
            categories.entry(singular(&a)).or_insert(r.category.clone());
        }
    }
    Knowledge {
        table,
        names,
        categories,
    }
});

/// The cue words of each kind, tried in this order.
const CUES: &[(Kind, &[&str])] = &[
    (
        Kind::Swap,
        &[
            "instead of",
            "sub for",
            "substitute",
            "swap for",
            "alternative to",
            "alternative for",
            "replacement for",
            "use instead",
            "replace",
        ],
    ),
    (
        Kind::Thaw,
        &["thaw", "defrost", "defrosting", "thawing", "unfreeze"],
    ),
    (
        Kind::Freeze,
        &["freeze", "freezes", "freezable", "freezing", "froze"],
    ),
    (
        Kind::Safe,
        &[
            "safe temp",
            "internal temp",
            "core temp",
            "what temp",
            "temperature",
            "cooked through",
            "undercooked",
            "is it done",
            "when its done",
            "when it is done",
            "safe to eat",
        ],
    ),
    (
        Kind::Signs,
        &[
            "gone off",
            "is off",
            "its off",
            "go off how",
            "is bad",
            "gone bad",
            "smells",
            "smell",
            "past the date",
            "past its date",
            "after the date",
            "out of date",
            "mouldy",
            "moldy",
            "slimy",
        ],
    ),
    (
        Kind::Cook,
        &[
            "how long do i cook",
            "how long to cook",
            "how long should i cook",
            "how do i cook",
            "how to cook",
            "how should i cook",
            "how long do i bake",
            "how long to bake",
            "how long do i roast",
            "how long to roast",
            "how long do i boil",
            "how long to boil",
            "how long do i fry",
            "how long to fry",
            "how long in the air fryer",
            "how long in the oven",
            "how long do they take",
            "how long does it take to cook",
        ],
    ),
    (
        Kind::Keeps,
        &[
            "how long does",
            "how long do",
            "how long will",
            "how long is",
            "how long can i keep",
            "how long can you keep",
            "keep for",
            "last for",
        ],
    ),
];

/// The words that make a message a question for advice when it has no
/// question mark.
const ASKING: &[&str] = &[
    "can i", "can you", "could i", "should i", "is it", "is it ok", "how", "what", "whats", "do i",
    "does", "will", "any", "is there",
];

/// A general question about a food: a cue of one kind and a food named,
/// asked as a question, not about a recipe, a task or the plan.
pub fn read(w: &Words) -> Option<Ask> {
    let asking = w.question_mark || is_question(w) || w.has_any(ASKING);
    if !asking
        || w.has_any(&[
            "recipe", "recipes", "remind", "task", "todo", "plan", "list", "draft", "it take",
        ])
    {
        return None;
    }
    let (kind, at, cue_end) = CUES.iter().find_map(|(kind, cues)| {
        find_any(&w.words, cues).map(|(i, p)| (*kind, i, i + p.split(' ').count()))
    })?;
    // "can u do tofu instead of the chicken" asks for a change; "what can
    // i use instead of X" asks what would do.
    if kind == Kind::Swap && !w.has_any(&["what", "whats", "which", "any", "good", "best", "ideas"])
    {
        return None;
    }
    // "how long does the paneer keep": a keep question names keeping.
    if kind == Kind::Keeps
        && !w.has_any(&[
            "keep",
            "last",
            "good for",
            "stay good",
            "fridge",
            "freezer",
            "ok for",
        ])
    {
        return None;
    }
    // The food nearest the cue: after it ("sub for greek yogurt"), else
    // before it ("can paneer be frozen").
    // "instead of it in a curry": "it" is the food said before.
    let pointing = w
        .words
        .get(cue_end)
        .is_some_and(|x| matches!(x.as_str(), "it" | "that" | "them" | "those" | "this"));
    let after = if pointing {
        Vec::new()
    } else {
        food_mentions(&w.words[cue_end..])
    };
    let before = food_mentions(&w.words[..at]).into_iter().last();
    let food = if pointing {
        before?
    } else {
        after.into_iter().next().or(before)?
    };
    // "cooked rice", "leftover chicken": the state said before the food.
    let first = food.split(' ').next().unwrap_or_default();
    let state = w
        .words
        .iter()
        .position(|x| x == first)
        .and_then(|i| i.checked_sub(1))
        .map(|i| w.words[i].as_str())
        .filter(|x| {
            matches!(
                *x,
                "cooked" | "leftover" | "raw" | "uncooked" | "canned" | "tinned"
            )
        });
    let food = match state {
        Some(s) => format!("{s} {food}"),
        None => food,
    };
    Some(Ask { kind, food })
}

/// Think's plan: nothing to read or write.
pub fn plan(ask: &Ask) -> ThinkOutput {
    think_plan(
        &format!("Answer a general question about {}", ask.food),
        vec![],
    )
}

/// The table's key for a food as said: its name or alias, singular, or
/// the name without its first word ("fresh coriander").
fn key_of(food: &str) -> Option<&'static str> {
    let k = &*KNOWN;
    let said = singular(food);
    let words: Vec<&str> = said.split(' ').collect();
    (0..words.len())
        .map(|i| words[i..].join(" "))
        .find_map(|tail| k.names.get(&tail))
        .map(String::as_str)
}

/// The category of a food: its own note's, else the catalog's.
fn category_of(food: &str, key: Option<&str>) -> Option<&'static str> {
    let k = &*KNOWN;
    key.and_then(|key| k.table.food.get(key))
        .and_then(|n| n.category.as_deref())
        .or_else(|| k.categories.get(&singular(food)).map(String::as_str))
}

/// The answer: the food's own note, else its category's general note
/// (said as general), else a plain "no note".
pub fn reply(ask: &Ask) -> Said {
    let k = &*KNOWN;
    let key = key_of(&ask.food);
    let own = key
        .and_then(|key| k.table.food.get(key))
        .and_then(|n| n.get(ask.kind));
    if let Some(text) = own {
        return Said::text(text.to_string());
    }
    let general = category_of(&ask.food, key)
        .and_then(|c| k.table.category.get(c).map(|n| (c, n)))
        .and_then(|(c, n)| n.get(ask.kind).map(|t| (c, t)));
    if let Some((category, text)) = general {
        return Said::text(format!(
            "I have no note on {} itself; for {category} in general: {text}",
            ask.food
        ));
    }
    let what = match ask.kind {
        Kind::Freeze => "freezing",
        Kind::Keeps => "how long it keeps",
        Kind::Cook => "cooking",
        Kind::Safe => "safe temperatures",
        Kind::Thaw => "thawing",
        Kind::Swap => "what to use instead",
        Kind::Signs => "telling when it has gone off",
    };
    Said::text(format!(
        "I don't have a note on {what} for {} — a recipe or the packet will say best.",
        ask.food
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(s: &str) -> Option<Ask> {
        read(&Words::new(s))
    }

    #[test]
    fn the_table_parses_and_covers_the_catalog() {
        let k = &*KNOWN;
        assert!(k.table.food.len() >= 73, "{}", k.table.food.len());
        let rows: Vec<CatalogRow> = serde_json::from_str(CATALOG).unwrap();
        for r in rows {
            assert!(key_of(&r.name).is_some(), "no note on {}", r.name);
        }
        for c in k.categories.values() {
            assert!(k.table.category.contains_key(c), "no notes for {c}");
        }
    }

    #[test]
    fn questions_read_their_kind_and_food() {
        let got = |s: &str| ask(s).map(|a| (a.kind, a.food));
        assert_eq!(
            got("can i freeze the paneer"),
            Some((Kind::Freeze, "paneer".into()))
        );
        assert_eq!(
            got("whats a good swap for greek yogurt?"),
            Some((Kind::Swap, "greek yogurt".into()))
        );
        assert_eq!(
            got("what temp does cod need to get to"),
            Some((Kind::Safe, "cod".into()))
        );
        assert_eq!(
            got("how long do i cook chicken thighs in the air fryer"),
            Some((Kind::Cook, "chicken thighs".into()))
        );
        assert_eq!(
            got("how long does cooked rice keep in the fridge"),
            Some((Kind::Keeps, "cooked rice".into()))
        );
        for s in [
            "remind me to defrost the wings",
            "freeze the bananas",
            "how long does the curry recipe take",
            "add greek yogurt to the list",
        ] {
            assert_eq!(ask(s), None, "{s}");
        }
    }

    #[test]
    fn a_food_without_a_note_gets_its_categorys_said_as_general() {
        let text = reply(&Ask {
            kind: Kind::Freeze,
            food: "chicken thighs".into(),
        })
        .text;
        assert!(!text.starts_with("I have no note"), "{text}");
        let text = reply(&Ask {
            kind: Kind::Cook,
            food: "zzyzx".into(),
        })
        .text;
        assert!(text.starts_with("I don't have a note"), "{text}");
    }
}
