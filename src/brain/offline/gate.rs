//! The last look at a reading before anything is written: a write only
//! goes ahead for what the message really asked to change.
//!
//! - An item the user says they already have ("we have sugar right", "we
//!   got tons of rice") is asked about, not added: the add becomes a look
//!   at how much there is.
//! - A name that reads as neither food nor a household thing ("him", "the
//!   shortfall", "the thing") is never written as a row: one short
//!   question names it instead.
//! - A use or a removal the user only wonders about ("can i use the
//!   chickpeas for a curry?", "should i use up the potatoes") is a look at
//!   the stock, not a write.
//!
//! Pure: a reading in, the reading to act on (and the question to ask, if
//! any) out.

use super::items::Item;
use super::lexicon::Intent;
use super::several::Part;
use super::skills::shopping::Ask as ShoppingAsk;
use super::skills::stock::Ask as StockAsk;
use super::skills::{Named, SkillAsk};
use super::text::{Words, is_filler, stem};
use super::vocab::{is_chatter, is_food, links_to_nothing, may_be_food};

/// How people open or turn a sentence: never an item.
const DISCOURSE: &[&str] = &[
    "oh", "ah", "actually", "wait", "hmm", "ok", "okay", "so", "well",
];

/// Things for the house people put on a shopping list beside food, that
/// are things on their own ("foil", "a sponge").
const HOUSEHOLD: &[&str] = &[
    "foil",
    "sponge",
    "soap",
    "detergent",
    "bleach",
    "napkin",
    "tissue",
    "battery",
    "candle",
    "shampoo",
    "toothpaste",
    "wipe",
    "lighter",
    "straw",
    "glove",
    "bulb",
];

/// Words that are things for the house only with a kind in front ("bin
/// bags", "kitchen roll"): alone, "bag" or "roll" is an amount's unit.
const HOUSEHOLD_OF_A_KIND: &[&str] = &[
    "bag", "towel", "roll", "film", "wrap", "paper", "liquid", "tablet", "cloth", "match",
    "filter", "cup", "plate", "spray",
];

/// The kinds that make [`HOUSEHOLD_OF_A_KIND`] words things.
const HOUSEHOLD_KIND: &[&str] = &[
    "bin",
    "trash",
    "rubbish",
    "freezer",
    "sandwich",
    "zip",
    "ziplock",
    "kitchen",
    "toilet",
    "paper",
    "cling",
    "baking",
    "parchment",
    "dish",
    "dishwasher",
    "washing",
    "laundry",
    "hand",
    "tin",
    "aluminium",
    "aluminum",
    "coffee",
    "tea",
];

/// Subjects of "have" that say the kitchen has it.
const HOLDERS: &[&str] = &["we", "i", "u", "you", "still", "weve", "ive", "already"];

/// Words between "have" and the item that still say "have it" ("tons
/// of", "loads of", "some", "plenty of").
const HAVE_FILL: &[&str] = &[
    "tons", "ton", "loads", "load", "lots", "lot", "plenty", "of", "some", "the", "a", "an",
    "enough", "heaps", "still", "any", "already", "our", "my",
];

/// Words that turn "have" into not having ("dont have", "have no").
const NOT: &[&str] = &[
    "dont", "not", "no", "out", "never", "havent", "hardly", "barely", "need", "run", "ran",
    "without", "none", "if",
];

/// The reading to act on, and the question to ask instead of a write.
pub struct Gated {
    pub intent: Intent,
    pub question: Option<String>,
}

impl Gated {
    /// A reading that goes ahead as it is.
    fn plain(intent: Intent) -> Self {
        Self {
            intent,
            question: None,
        }
    }
}

/// Looks at `intent`'s writes against the words that asked for them.
pub fn gate(intent: Intent, words: &Words) -> Gated {
    match intent {
        Intent::Several(parts) => {
            let mut out = Vec::new();
            let mut question = None;
            for p in parts {
                let g = gate(p.intent, &Words::new(&p.words));
                question = question.or(g.question);
                match g.intent {
                    Intent::Several(inner) => out.extend(inner),
                    // Two clauses read as the same look answer once.
                    intent if out.iter().any(|o| o.intent == intent) => {}
                    intent => out.push(Part {
                        words: p.words,
                        intent,
                    }),
                }
            }
            Gated {
                intent: Intent::Several(out),
                question,
            }
        }
        Intent::Skill(SkillAsk::Shopping(ShoppingAsk::Add { items, amount })) => {
            adds(items, words, true, |items| {
                Intent::Skill(SkillAsk::Shopping(ShoppingAsk::Add { items, amount }))
            })
        }
        Intent::InventoryAdd(items, loc) => adds(items, words, false, |items| {
            Intent::InventoryAdd(items, loc.clone())
        }),
        Intent::Skill(SkillAsk::Stock(StockAsk::Use { items })) if wonders(words) => {
            Gated::plain(look(items.into_iter().map(|u| u.item).collect()))
        }
        Intent::InventoryRemove(items) if wonders(words) => {
            Gated::plain(look(items.iter().map(|i| Named::item(&i.name)).collect()))
        }
        Intent::Skill(SkillAsk::Stock(StockAsk::Use { items })) if not_yet(words) => {
            Gated::plain(Intent::Skill(SkillAsk::Stock(StockAsk::ExpiryOf {
                items: items.into_iter().map(|u| u.item).collect(),
            })))
        }
        // "the paneer is finish soon?": it has not run out yet; when it
        // goes off is the question.
        Intent::InventoryRemove(items) if not_yet(words) => {
            Gated::plain(Intent::Skill(SkillAsk::Stock(StockAsk::ExpiryOf {
                items: items.iter().map(|i| Named::item(&i.name)).collect(),
            })))
        }
        intent => Gated::plain(intent),
    }
}

/// An add of `items`: the ones the kitchen is said to have become a look
/// at the stock; a name that is nothing to buy becomes a question.
fn adds(
    items: Vec<Item>,
    words: &Words,
    shopping: bool,
    rebuild: impl Fn(Vec<Item>) -> Intent,
) -> Gated {
    if items.is_empty() {
        return Gated::plain(rebuild(items));
    }
    // "oh", "um": how people talk, never an item.
    let items: Vec<Item> = items
        .into_iter()
        .filter(|i| {
            !i.name
                .split_whitespace()
                .all(|w| is_chatter(w) || is_filler(w) || DISCOURSE.contains(&w))
        })
        .collect();
    // "fish sauce though", "coconut milk two": words after the food that
    // name nothing are not part of it.
    let items: Vec<Item> = items
        .into_iter()
        .map(trailing_trimmed)
        .map(|i| if shopping { with_its_kind(i) } else { i })
        .collect();
    let (mut had, wanted): (Vec<Item>, Vec<Item>) =
        items.into_iter().partition(|i| said_to_have(words, i));
    // "rice" and "rice already": one thing.
    let names: Vec<String> = had.iter().map(|i| i.name.clone()).collect();
    had.retain(|i| {
        !names
            .iter()
            .any(|n| n != &i.name && i.name.starts_with(&format!("{n} ")))
    });
    let unknown: Vec<&Item> = wanted
        .iter()
        .filter(|i| !(may_be_food(&i.name) || (shopping && household(&i.name))))
        .collect();
    if let Some(first) = unknown.first() {
        let place = if shopping {
            "the shopping list"
        } else {
            "the kitchen"
        };
        let question = format!(
            "What should I put on {place} for “{}”? It doesn't read as food or something for \
             the house, so I haven't added anything yet.",
            first.phrase.trim()
        );
        return Gated {
            intent: rebuild(wanted),
            question: Some(question),
        };
    }
    let looked =
        (!had.is_empty()).then(|| look(had.iter().map(|i| Named::item(&i.name)).collect()));
    match (wanted.is_empty(), looked) {
        (_, None) => Gated::plain(rebuild(wanted)),
        (true, Some(look)) => Gated::plain(look),
        (false, Some(look)) => Gated {
            intent: Intent::Several(vec![
                Part {
                    words: words.words.join(" "),
                    intent: rebuild(wanted),
                },
                Part {
                    words: format!(
                        "how much {} have i got",
                        had.iter()
                            .map(|i| i.name.as_str())
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ),
                    intent: look,
                },
            ]),
            question: None,
        },
    }
}

/// An item without the words after its food that link to nothing
/// ("though", "too", "two"), when what is left reads as food.
fn trailing_trimmed(mut item: Item) -> Item {
    let words: Vec<&str> = item.name.split_whitespace().collect();
    let mut end = words.len();
    while end > 1
        && (links_to_nothing(words[end - 1]) || super::text::number(words[end - 1]).is_some())
    {
        end -= 1;
    }
    let kept = words[..end].join(" ");
    if end < words.len() && is_food(&kept) {
        item.name = kept;
    }
    item
}

/// A thing for the house named with its kind again when the kind was
/// trimmed off as no food ("toilet roll" read as "roll").
fn with_its_kind(mut item: Item) -> Item {
    let said: Vec<String> = item.phrase.split_whitespace().map(stem).collect();
    let name = stem(&item.name);
    let Some(at) = said.iter().position(|w| *w == name) else {
        return item;
    };
    if at > 0 && HOUSEHOLD_KIND.contains(&said[at - 1].as_str()) {
        let whole = format!(
            "{} {}",
            item.phrase.split_whitespace().nth(at - 1).unwrap_or(""),
            item.name
        );
        if household(&whole) {
            item.name = whole;
        }
    }
    item
}

/// A look at how much of `items` there is.
fn look(items: Vec<Named>) -> Intent {
    Intent::Skill(SkillAsk::Stock(StockAsk::HowMuch {
        items,
        location: None,
    }))
}

/// True for a thing for the house: "bin bags", "foil", "kitchen roll".
fn household(name: &str) -> bool {
    let words: Vec<String> = name.split_whitespace().map(stem).collect();
    let Some(last) = words.last() else {
        return false;
    };
    let last = last.as_str();
    HOUSEHOLD.contains(&last)
        || (HOUSEHOLD_OF_A_KIND.contains(&last)
            && words[..words.len() - 1]
                .iter()
                .any(|w| HOUSEHOLD_KIND.contains(&w.as_str())))
}

/// True when the message says the kitchen already has `item`: a "have"
/// or "got" held by we, I or "still", the item after it with nothing but
/// amounts between ("we have sugar right", "we got tons of rice"), and no
/// "dont", "no" or "out" before it.
fn said_to_have(words: &Words, item: &Item) -> bool {
    let name: Vec<String> = item.name.split_whitespace().map(stem).collect();
    let Some(head) = name.last() else {
        return false;
    };
    let w: Vec<String> = words.words.iter().map(|x| stem(x)).collect();
    for (at, x) in w.iter().enumerate() {
        if x != head {
            continue;
        }
        // The item's whole name ends here.
        let start = at + 1 - name.len().min(at + 1);
        if w[start..=at] != name[..] {
            continue;
        }
        let mut k = start;
        while k > 0 && HAVE_FILL.contains(&w[k - 1].as_str()) {
            k -= 1;
        }
        if k == 0 || !matches!(w[k - 1].as_str(), "have" | "got" | "has") {
            continue;
        }
        let verb = k - 1;
        let from = verb.saturating_sub(3);
        let before = &w[from..verb];
        let held = before.iter().any(|b| HOLDERS.contains(&b.as_str()))
            || matches!(w[verb].as_str(), "got") && verb > 0 && w[verb - 1] == "weve";
        let denied = before.iter().any(|b| NOT.contains(&b.as_str()));
        if held && !denied {
            return true;
        }
    }
    false
}

/// True when the words say a thing will run out, not that it has ("is
/// finish soon", "nearly gone", "about to go").
fn not_yet(words: &Words) -> bool {
    words.has_any(&["soon", "nearly", "almost", "about to", "going to", "gonna"])
}

/// True when the user only wonders about a use or a removal: a question
/// of their own ("can i use …", "should i use up …", "is it ok to …"),
/// not a request to Alfred ("can you take …").
fn wonders(words: &Words) -> bool {
    let w = &words.words;
    let pair = |a: &str, b: &[&str]| {
        w.windows(2)
            .any(|p| p[0] == a && b.contains(&p[1].as_str()))
    };
    let asks_self = [
        "can", "could", "should", "shall", "do", "will", "would", "must", "may",
    ]
    .iter()
    .any(|m| pair(m, &["i", "we"]));
    let wonder = words.has_any(&[
        "is it ok to",
        "is it okay to",
        "is it fine to",
        "is it safe to",
        "worth using",
        "wondering if",
        "thinking of using",
        "thinking about using",
    ]);
    asks_self || wonder
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str) -> Item {
        Item {
            name: name.to_string(),
            quantity: None,
            unit: None,
            phrase: name.to_string(),
            more: false,
            amount: Default::default(),
        }
    }

    fn has(message: &str, name: &str) -> bool {
        said_to_have(&Words::new(message), &item(name))
    }

    #[test]
    fn what_the_kitchen_is_said_to_have() {
        assert!(has("and sugar we have sugar right", "sugar"));
        assert!(has("oh and rice, we got tons of rice already", "rice"));
        assert!(has("i still have loads of pasta", "pasta"));
        assert!(has("weve got olive oil dont we", "olive oil"));
        assert!(!has("we dont have any sugar", "sugar"));
        assert!(!has("we have no milk left", "milk"));
        assert!(!has("we're out of ketchup", "ketchup"));
        assert!(!has("put butter on the list", "butter"));
        assert!(!has("we still have regular milk dont we", "oat milk"));
        assert!(!has("i need to have eggs for the bake sale", "egg"));
    }

    #[test]
    fn words_after_the_food_are_not_its_name() {
        assert_eq!(
            trailing_trimmed(item("fish sauce though")).name,
            "fish sauce"
        );
        assert_eq!(
            trailing_trimmed(item("coconut milk two")).name,
            "coconut milk"
        );
        assert_eq!(trailing_trimmed(item("toilet roll")).name, "toilet roll");
        assert_eq!(trailing_trimmed(item("bin bag")).name, "bin bag");
        let mut roll = item("roll");
        roll.phrase = "toilet roll".into();
        assert_eq!(with_its_kind(roll).name, "toilet roll");
    }

    #[test]
    fn household_things_are_not_leftover_words() {
        for thing in [
            "bin bag",
            "foil",
            "sponge",
            "kitchen roll",
            "cling film",
            "dish soap",
        ] {
            assert!(household(thing), "{thing}");
        }
        for word in ["bag", "roll", "him", "shortfall", "thing", "paper"] {
            assert!(!household(word), "{word}");
        }
    }

    #[test]
    fn a_name_that_is_nothing_to_buy_is_asked_about() {
        let add = |names: &[&str]| {
            Intent::Skill(SkillAsk::Shopping(ShoppingAsk::Add {
                items: names.iter().map(|n| item(n)).collect(),
                amount: None,
            }))
        };
        let g = gate(add(&["him"]), &Words::new("add him to the list"));
        assert!(g.question.is_some_and(|q| q.contains("him")));
        let g = gate(
            add(&["butter", "bin bag"]),
            &Words::new("butter and bin bags on the list"),
        );
        assert!(g.question.is_none());
        assert_eq!(g.intent, add(&["butter", "bin bag"]));
    }

    #[test]
    fn an_item_said_to_be_there_is_looked_up_not_added() {
        let add = |names: &[&str]| {
            Intent::Skill(SkillAsk::Shopping(ShoppingAsk::Add {
                items: names.iter().map(|n| item(n)).collect(),
                amount: None,
            }))
        };
        let g = gate(
            add(&["butter", "sugar"]),
            &Words::new("put butter on the list and sugar we have sugar right"),
        );
        let Intent::Several(parts) = g.intent else {
            panic!("{:?}", g.intent);
        };
        assert_eq!(parts[0].intent, add(&["butter"]));
        assert!(matches!(
            parts[1].intent,
            Intent::Skill(SkillAsk::Stock(StockAsk::HowMuch { .. }))
        ));
    }

    #[test]
    fn wondering_about_a_use_is_not_a_request() {
        assert!(wonders(&Words::new("can i use the chickpeas for a curry")));
        assert!(wonders(&Words::new("should i use up the potatoes first")));
        assert!(wonders(&Words::new("is it ok to use the old milk")));
        assert!(!wonders(&Words::new("can you take the milk off")));
        assert!(!wonders(&Words::new("used the last of the milk")));
    }

    #[test]
    fn running_out_soon_is_not_run_out() {
        let read = |m: &str| {
            gate(
                Intent::InventoryRemove(vec![item("paneer")]),
                &Words::new(m),
            )
            .intent
            .name()
        };
        assert_eq!(read("the paneer is finish soon"), "stock_expiry_of");
        assert_eq!(read("paneer is nearly gone"), "stock_expiry_of");
        assert_eq!(read("the paneer is finish"), "inventory_remove");
    }
}
