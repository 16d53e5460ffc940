//! Stock: what the kitchen holds — how much of something, what is going
//! off and when, and what was used up, finished or thrown out.

pub mod act;
pub mod answers;
pub mod cooked;
pub mod lower;
pub mod plan;
pub mod reply;
pub mod split;
pub mod uses;

use serde::{Deserialize, Serialize};

use super::super::consent::asks_information;
use super::super::items::location;
use super::super::lexicon::Cues;
use super::super::text::{Words, find_any};
use super::when::Day;
use super::{Named, Topic, named_items};
pub use uses::Used;

/// What the user asks about their stock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Ask {
    /// "what's going off soon", "anything in the fridge to use up asap".
    Expiring { location: Option<String> },
    /// "when does the milk go off", "and the yoghurt?".
    ExpiryOf { items: Vec<Named> },
    /// "how much rice have I got", "do we have soy sauce", "which chicken
    /// is in the freezer".
    HowMuch {
        items: Vec<Named>,
        location: Option<String>,
    },
    /// "I used 500g of the jasmine rice", "finished the milk", "used the
    /// last of the milk and 2 bananas", "ate half the paneer": less of
    /// each, or none.
    Use { items: Vec<Used> },
    /// "used 200g", "used half": an amount with no item to bind it to.
    UsedWhat { said: String },
    /// "move the naan to the freezer", "took the chicken out of the
    /// freezer to thaw": the rows named, to another place.
    Move { items: Vec<Named>, to: String },
    /// "set the yogurt to 240 g", "the peas are more like 400 g": the
    /// amount a row holds, said afresh (in the row's unit when the two
    /// compare).
    Set {
        item: Named,
        quantity: f64,
        unit: Option<String>,
    },
    /// "took 2 of the chicken thighs out of the freezer to the fridge":
    /// part of one row, to another place (the row itself when all of it
    /// goes).
    MovePart {
        item: Named,
        quantity: f64,
        unit: Option<String>,
        to: String,
    },
    /// "the milk goes off on the 14th": a row's use-by date, said afresh.
    SetExpiry { item: Named, day: Day },
    /// "made the tikka bites last night": what a saved recipe takes, at
    /// the servings said, out of the stock.
    Cooked {
        recipe: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        servings: Option<u32>,
    },
}

impl Ask {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Ask::Expiring { .. } => "stock_expiring",
            Ask::ExpiryOf { .. } => "stock_expiry_of",
            Ask::HowMuch { .. } => "stock_how_much",
            Ask::Use { .. } => "stock_use",
            Ask::UsedWhat { .. } => "stock_used_what",
            Ask::Move { .. } => "stock_move",
            Ask::Set { .. } => "stock_set",
            Ask::SetExpiry { .. } => "stock_set_expiry",
            Ask::MovePart { .. } => "stock_move_part",
            Ask::Cooked { .. } => "stock_cooked",
        }
    }

    /// The items the ask names.
    pub fn items(&self) -> Vec<Named> {
        match self {
            Ask::Expiring { .. } | Ask::UsedWhat { .. } | Ask::Cooked { .. } => Vec::new(),
            Ask::ExpiryOf { items } | Ask::HowMuch { items, .. } | Ask::Move { items, .. } => {
                items.clone()
            }
            Ask::Use { items } => items.iter().map(|u| u.item.clone()).collect(),
            Ask::Set { item, .. } | Ask::SetExpiry { item, .. } | Ask::MovePart { item, .. } => {
                vec![item.clone()]
            }
        }
    }

    /// The topic a follow-up ("and the noodles?") carries on.
    pub fn topic(&self) -> Topic {
        match self {
            Ask::Expiring { .. } | Ask::ExpiryOf { .. } | Ask::SetExpiry { .. } => Topic::Expiry,
            Ask::HowMuch { .. }
            | Ask::Use { .. }
            | Ask::UsedWhat { .. }
            | Ask::Move { .. }
            | Ask::MovePart { .. }
            | Ask::Cooked { .. }
            | Ask::Set { .. } => Topic::Amounts,
        }
    }
}

const EXPIRY: &[&str] = &[
    "going off",
    "go off",
    "goes off",
    "gone off",
    "went off",
    "expire",
    "expiring",
    "expires",
    "expiry",
    "about to turn",
    "use up first",
    "use first",
    "use up asap",
    "need to use up",
    "need using",
    "using up first",
    "still ok",
    "still good",
    "still fresh",
    "still alright",
    "still fine",
    "use soonest",
    "use soon",
    "eat first",
    "goes bad",
    "gone bad",
    "best before",
    "use by",
    "out of date",
    "spoil",
    "going bad",
    "go bad",
    "turn soon",
    "on the turn",
];
const AMOUNT: &[&str] = &[
    "how much",
    "how many",
    "hw many",
    "hw much",
    "do i have",
    "do we have",
    "have i got",
    "have we got",
    "is there any",
    "are there any",
    "got any",
    "any left",
    "is left",
    "are left",
    "whats left of",
    "i have any",
    "i have some",
];
pub const USE: &[&str] = &[
    "finish the",
    "is finish",
    "are finish",
    "is all gone",
    "are all gone",
    "finish it",
    "used",
    "using",
    "usin",
    "finished",
    "ate",
    "were out of",
    "im out of",
    "all out of",
    "we are out of",
    "i am out of",
    "ran out of",
    "run out of",
    "ran out",
    "run out",
    "chuck",
    "chucked",
    "bin",
    "binned",
    "threw out",
    "throw out",
    "toss",
    "tossed",
    "used up",
    "polished off",
    "cooked the",
    "cooked with",
    "went through",
    "got through",
    "drank",
];
/// Asked about a recipe, not the kitchen ("how much yogurt goes in").
const IN_RECIPE: &[&str] = &[
    "goes in",
    "go in",
    "does it need",
    "does that need",
    "it need",
    "it take",
    "does it take",
    "that one",
    "those two",
    "in those",
    "in it",
    "recipe",
    "need for",
    "does the",
    "in the curry",
    "enough",
    "cook with",
    "make with",
    "can i cook",
    "can i make",
    "for that",
];
/// Words that are not the item's name.
pub const NOT_ITEM: &[&str] = &[
    "much",
    "many",
    "hw",
    "got",
    "left",
    "when",
    "whens",
    "eat",
    "eating",
    "going",
    "soon",
    "anything",
    "stuff",
    "first",
    "asap",
    "need",
    "actually",
    "hang",
    "tho",
    "though",
    "lol",
    "oh",
    "hmm",
    "ya",
    "yeah",
    "ugh",
    "wait",
    "thought",
    "already",
    "had",
    "still",
    "enough",
    "before",
    "expire",
    "expiring",
    "expires",
    "expiry",
    "off",
    "gone",
    "go",
    "goes",
    "went",
    "turn",
    "use",
    "used",
    "using",
    "usin",
    "finished",
    "ate",
    "chuck",
    "chucked",
    "bin",
    "binned",
    "threw",
    "throw",
    "toss",
    "tossed",
    "ran",
    "run",
    "last",
    "night",
    "morning",
    "tonight",
    "tonite",
    "today",
    "yesterday",
    "slimy",
    "mouldy",
    "moldy",
    "bad",
    "dodgy",
    "dont",
    "i",
    "we",
    "fridge",
    "freezer",
    "pantry",
    "counter",
    "cupboard",
    "kitchen",
    "inventory",
    "isnt",
    "arent",
    "left",
    "remaining",
    "date",
    "best",
    "polished",
    "cooked",
    "when",
    "does",
    "which",
    "whats",
    "there",
    "theres",
    "get",
    "getting",
    "ive",
    "weve",
    "were",
    "im",
    "lemme",
    "let",
    "see",
    "check",
    "now",
    "should",
    "need",
    "ill",
    "meal",
    "prep",
    "dinner",
    "lunch",
    "breakfast",
];
/// The items named ("when does it go off, and the bananas?" → it, banana).
fn named(w: &Words) -> Vec<Named> {
    named_items(w, NOT_ITEM)
}

/// A use as the words say it: the items and their amounts, or an amount
/// with no item.
pub fn read_use(w: &Words) -> Option<Ask> {
    Some(match uses::read(w)? {
        Ok(items) => Ask::Use { items },
        Err(said) => Ask::UsedWhat { said },
    })
}

/// A move of stock from one place to another: "move the naan to the
/// freezer", "stick the paneer in the freezer", "froze the bread", "took
/// the chicken out of the freezer to thaw" (to the fridge). An amount
/// said ("put 6 eggs in the fridge") is an add, not a move; a question is
/// not a move.
fn read_move(w: &Words) -> Option<Ask> {
    const MOVE: &[&str] = &[
        "move",
        "moved",
        "shift",
        "shifted",
        "transfer",
        "transferred",
    ];
    const PUT: &[&str] = &["put", "stick", "stuck", "pop", "popped", "chuck", "chucked"];
    const FREEZE: &[&str] = &["freeze", "froze", "freezing"];
    const THAW: &[&str] = &["thaw", "defrost", "defrosting", "thawing"];
    if w.question_mark || asks_information(w) || w.has_any(&["can i", "should i", "can you freeze"])
    {
        return None;
    }
    let verb = w.words.iter().position(|x| {
        MOVE.contains(&x.as_str()) || PUT.contains(&x.as_str()) || FREEZE.contains(&x.as_str())
    });
    let out_of = find_any(&w.words, &["out of the", "out the", "from the"]);
    let (to, start, end) = match (verb, out_of) {
        // "took the chicken thighs out of the freezer to thaw".
        (_, Some((i, p)))
            if w.has_any(THAW) || w.has_any(&["into the fridge", "to the fridge"]) =>
        {
            let from = location(&w.words[i + p.split(' ').count()..])?;
            let to = if from == "freezer" {
                "fridge"
            } else {
                location(&w.words[i + 1..]).filter(|l| *l != from)?
            };
            let took = w.words[..i].iter().rposition(|x| {
                matches!(
                    x.as_str(),
                    "took" | "take" | "taken" | "got" | "get" | "moved" | "move"
                )
            })?;
            (to.to_string(), took + 1, i)
        }
        (Some(v), _) if FREEZE.contains(&w.words[v].as_str()) => {
            ("freezer".to_string(), v + 1, w.words.len())
        }
        (Some(v), _) => {
            let at = w.words[v + 1..]
                .iter()
                .position(|x| matches!(x.as_str(), "to" | "into" | "in" | "inside"))?
                + v
                + 1;
            let to = location(&w.words[at..])?;
            let put = PUT.contains(&w.words[v].as_str());
            // "put 6 eggs in the fridge" adds them, and so does putting
            // the shopping away ("put the tomatoes in the fridge"); "stick
            // the paneer in the freezer" or "put it back in the fridge"
            // moves what is there.
            let away = to != "freezer" && !w.has("back");
            if put
                && (away
                    || w.words[v + 1..at]
                        .iter()
                        .any(|x| super::super::text::number(x).is_some())
                    || !w.words[v + 1..at]
                        .iter()
                        .any(|x| x == "the" || x == "my" || x == "our"))
            {
                return None;
            }
            (to.to_string(), v + 1, at)
        }
        // "take the naan out to thaw", "get the chicken out to defrost":
        // out of the freezer, into the fridge.
        (None, None) if w.has_any(THAW) => {
            let took = w.words.iter().position(|x| {
                matches!(
                    x.as_str(),
                    "take" | "took" | "taken" | "taking" | "get" | "got" | "getting"
                )
            })?;
            let out = w.words[took..].iter().position(|x| x == "out")? + took;
            ("fridge".to_string(), took + 1, out)
        }
        _ => return None,
    };
    let part = Words::new(&w.words[start..end.max(start)].join(" "));
    let items: Vec<Named> = named(&part)
        .into_iter()
        .filter(|n| *n != Named::Shown || end > start)
        .collect();
    (!items.is_empty()).then_some(Ask::Move { items, to })
}

/// The skill's reading of a message.
pub fn read(w: &Words, cues: Cues) -> Option<Ask> {
    if let Some(ask) = read_move(w) {
        return Some(ask);
    }
    let place = location(&w.words).map(String::from);
    let in_recipe = w.has_any(IN_RECIPE);
    if w.has_any(EXPIRY) && !w.has_any(&["cook", "make", "recipe", "recipes"]) {
        let items = named(w);
        let about_one = w.has_any(&[
            "when",
            "whens",
            "still",
            "will",
            "how long",
            "does the",
            "is the",
            "about the",
        ]);
        return Some(if about_one && !items.is_empty() {
            Ask::ExpiryOf { items }
        } else {
            Ask::Expiring { location: place }
        });
    }
    let asking = asks_information(w) || w.has_any(&["dont i", "didnt i", "dont we"]);
    // "the paneer needs using up": a reason, not a use.
    let should_use = w.has_any(&[
        "needs using",
        "need using",
        "needs to be used",
        "needs eating",
        "gets used",
        "get used",
        "so it",
        "so that",
        "before it goes",
        "to use it",
        "to use up",
    ]) || (w
        .words
        .iter()
        .any(|x| super::super::text::weekday_abbrev(x).is_some())
        && w.has_any(&["put", "plan", "stick"]));
    // "chuck a couple of lemons on as well" puts them on (the list), it
    // throws nothing out.
    let puts_on = w
        .words
        .iter()
        .position(|x| matches!(x.as_str(), "chuck" | "throw" | "bung" | "pop"))
        .is_some_and(|i| {
            let rest = &w.words[i..];
            rest.iter().any(|x| x == "on" || x == "onto")
                || (rest.iter().any(|x| x == "in" || x == "into") && location(rest).is_some())
        });
    let using = !puts_on
        && (w.has_any(USE)
            || w.segments.iter().any(|s| uses::done_after(s).is_some())
            || w.segments.iter().any(|s| uses::made_with(s).is_some()));
    // "any ideas for lunch using the chicken": a dish to find, nothing
    // used yet.
    let for_a_dish = w.has_any(&[
        "idea",
        "ideas",
        "recipe",
        "recipes",
        "something",
        "anything",
        "dish",
        "meal",
        "meals",
    ]) && w.has_any(&["using", "usin", "use"])
        && !w.has_any(&["used", "made", "cooked", "baked", "ate", "finished"]);
    if using && !asking && !in_recipe && !should_use && !for_a_dish {
        return read_use(w);
    }
    let elsewhere = w.has_any(&[
        "dish", "recipe", "recipes", "ones", "use", "uses", "make", "cook", "shopping", "list",
        "plan", "were we", "on there", "that",
    ]);
    let follow_up = matches!(cues.topic, Topic::Amounts | Topic::Expiry)
        && w.words.len() <= 5
        && w.words.first().is_some_and(|x| x == "and")
        && !elsewhere;
    let amount =
        w.has_any(AMOUNT) || (w.has_any(&["dont i", "didnt i", "dont we"]) && w.has("have"));
    if (amount || follow_up) && !in_recipe && !elsewhere && (asking || follow_up) {
        let items: Vec<Named> = named(w)
            .into_iter()
            .filter(|n| *n != Named::Shown)
            .collect();
        if items.is_empty() {
            return None;
        }
        if follow_up && cues.topic == Topic::Expiry && !w.has_any(AMOUNT) {
            return Some(Ask::ExpiryOf { items });
        }
        return Some(Ask::HowMuch {
            items,
            location: place,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::super::quantity::Quantity;
    use super::*;

    fn ask(s: &str) -> Option<Ask> {
        read(&Words::new(s), Cues::default())
    }
    fn item(s: &str) -> Named {
        Named::Item(s.into())
    }

    #[test]
    fn moves_name_the_place_and_leave_adds_and_questions_alone() {
        let moved = |s: &str, what: &str, to: &str| {
            assert_eq!(
                ask(s),
                Some(Ask::Move {
                    items: vec![item(what)],
                    to: to.into()
                }),
                "{s}"
            );
        };
        moved("can u move the butter to the fridge", "butter", "fridge");
        moved(
            "got the cod out the freezer to thaw for tonight",
            "cod",
            "fridge",
        );
        moved("popped the rice in the freezer", "rice", "freezer");
        moved("froze the bananas", "banana", "freezer");
        for s in [
            "put 2 tins of tomatoes in the pantry",
            "put the milk in the fridge",
            "can i freeze the paneer?",
            "should i move the cod to the fridge tonight",
        ] {
            assert!(!matches!(ask(s), Some(Ask::Move { .. })), "{s}");
        }
    }

    #[test]
    fn stock_as_people_type_it() {
        assert_eq!(
            ask("whats going off soon"),
            Some(Ask::Expiring { location: None })
        );
        assert_eq!(
            ask("wats going off first in the fridge, might do a side with it"),
            Some(Ask::Expiring {
                location: Some("fridge".into())
            })
        );
        assert_eq!(
            ask("anything about to expire?"),
            Some(Ask::Expiring { location: None })
        );
        assert_eq!(
            ask("when does the milk go off"),
            Some(Ask::ExpiryOf {
                items: vec![item("milk")]
            })
        );
        assert_eq!(
            ask("when does it go off, and the bananas?"),
            Some(Ask::ExpiryOf {
                items: vec![Named::Shown, item("banana")]
            })
        );
        assert_eq!(
            ask("how much rice have i got"),
            Some(Ask::HowMuch {
                items: vec![item("rice")],
                location: None
            })
        );
        assert_eq!(
            ask("which chicken have i got in the freezer"),
            Some(Ask::HowMuch {
                items: vec![item("chicken")],
                location: Some("freezer".into())
            })
        );
        assert_eq!(
            ask("hw many eggs"),
            Some(Ask::HowMuch {
                items: vec![item("egg")],
                location: None
            })
        );
        assert_eq!(
            ask("i used 500g of the jasmine rice for meal prep"),
            Some(Ask::Use {
                items: vec![Used {
                    item: item("jasmine rice"),
                    amount: Quantity::Amount {
                        quantity: 500.0,
                        unit: Some("g".into())
                    }
                }]
            })
        );
        assert_eq!(
            ask("we're out of milk actually, finished it this morning"),
            Some(Ask::Use {
                items: vec![Used {
                    item: item("milk"),
                    amount: Quantity::Unsaid
                }]
            })
        );
        assert_eq!(
            ask("and chuck the coriander its gone slimy"),
            Some(Ask::Use {
                items: vec![Used {
                    item: item("coriander"),
                    amount: Quantity::Unsaid
                }]
            })
        );
        assert_eq!(ask("how much yogurt goes in"), None);
        assert_eq!(ask("what can i make tonight"), None);
        let amounts = Cues {
            topic: Topic::Amounts,
            ..Cues::default()
        };
        assert_eq!(
            read(&Words::new("and the noodles?"), amounts),
            Some(Ask::HowMuch {
                items: vec![item("noodle")],
                location: None
            })
        );
    }
}
