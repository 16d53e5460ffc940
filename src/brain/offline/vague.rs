//! Requests too vague to act on — "change it" with nothing in front of us,
//! "remove it", "sort the other thing out", "add some to that recipe" —
//! and the last resort when nothing reads at all.
//!
//! A vague request never writes: Alfred asks one short question, and the
//! answer fills the request in ("the tomatoes. off the shopping list" after
//! "remove it" reads as "remove the tomatoes. off the shopping list").

use serde::{Deserialize, Serialize};

use super::targets::content_words;
use super::text::{Words, stem};

/// What a vague request wants done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Vague {
    /// "change it", "sort it out", "fix that".
    Change,
    /// "remove it", "take that off", "get rid of them".
    Remove,
    /// "add some to that recipe", "put it in".
    Add,
    /// "hm and the other thing".
    Other,
}

const CHANGE: &[&str] = &[
    "change", "edit", "fix", "sort", "update", "tweak", "alter", "adjust", "modify", "redo",
    "swap", "move", "handle", "deal",
];
const REMOVE: &[&str] = &[
    "remove", "take", "delete", "drop", "ditch", "bin", "rid", "clear",
];
const ADD: &[&str] = &["add", "put", "chuck", "throw", "pop", "stick", "include"];

/// Words a vague request may hold besides its verb: pointers at nothing
/// in particular and the small talk around them.
const EMPTY: &[&str] = &[
    "hm", "hmm", "um", "umm", "uh", "er", "u", "pls", "plz", "thing", "things", "stuff", "bit",
    "other", "another", "one", "ones", "sort", "out", "off", "away", "get", "rid", "deal", "with",
    "handle", "as", "well", "too", "also", "please", "can", "could", "would", "you", "ya", "ok",
    "okay", "and", "yeah", "right", "quick", "quickly", "actually", "now", "then",
];

/// The vague request `w` makes, if that is all it makes: a change verb with
/// nothing but pronouns around it, or "the other thing" on its own.
pub fn read(w: &Words) -> Option<Vague> {
    if w.words.len() > 10 {
        return None;
    }
    let rest: Vec<String> = content_words(&w.words)
        .into_iter()
        .filter(|x| !EMPTY.contains(&x.as_str()))
        .filter(|x| {
            ![CHANGE, REMOVE, ADD]
                .iter()
                .any(|l| l.contains(&x.as_str()))
        })
        .collect();
    if !rest.is_empty() {
        return None;
    }
    let has = |list: &[&str]| w.words.iter().any(|x| list.contains(&x.as_str()));
    if has(ADD) {
        Some(Vague::Add)
    } else if has(REMOVE) {
        Some(Vague::Remove)
    } else if has(CHANGE) {
        Some(Vague::Change)
    } else if w.has_any(&["other thing", "that thing", "the thing", "other one"]) {
        Some(Vague::Other)
    } else {
        None
    }
}

/// The short question a vague request gets. `focus` is the one recipe in
/// front of us, `shown` the list the last reply presented.
pub fn question(v: Vague, focus: Option<&str>, shown: &[String]) -> String {
    let which = match shown {
        [a, b] => Some(format!("{a} or {b}")),
        [a, b, c] => Some(format!("{a}, {b} or {c}")),
        _ => None,
    };
    match (v, focus, which) {
        (Vague::Add, Some(r), _) => format!("What should I add to {r}, and how much?"),
        (Vague::Add, None, Some(list)) => {
            format!("Which one, {list}, and what should I add?")
        }
        (Vague::Add, None, None) => {
            "What should I add, and where: the shopping list, the pantry or a recipe?".into()
        }
        (Vague::Remove, _, _) => "What should I take off, and from where: the shopping list, \
                                  the pantry, the meal plan or a recipe?"
            .into(),
        (Vague::Change, Some(r), _) => format!("What should I change in {r}?"),
        (Vague::Change, None, _) => {
            "What should I change: a recipe, the meal plan, the shopping list or the pantry?".into()
        }
        (Vague::Other, _, _) => "Which other thing do you mean: a recipe, the meal plan, the \
                                 shopping list or the pantry?"
            .into(),
    }
}

/// The request filled in by the answer to its question: the answer takes
/// the place of the pronoun ("remove it" + "the tomatoes" → "remove the
/// tomatoes"), or follows the verb when there is none.
pub fn fill(request: &Words, answer: &Words) -> Words {
    const POINTERS: &[&str] = &["it", "that", "them", "this", "those", "some", "something"];
    let mut out: Vec<String> = Vec::new();
    let mut placed = false;
    let mut skip = 0;
    for (i, x) in request.words.iter().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let phrase = request.words[i..]
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>();
        if !placed && phrase.len() == 3 && phrase[1..] == ["other", "thing"][..] {
            out.extend(answer.words.iter().cloned());
            placed = true;
            skip = 2;
        } else if !placed && POINTERS.contains(&x.as_str()) {
            out.extend(answer.words.iter().cloned());
            placed = true;
        } else {
            out.push(x.clone());
        }
    }
    if !placed {
        out.extend(answer.words.iter().cloned());
    }
    let mut filled = Words::new(&out.join(" "));
    filled.question_mark = answer.question_mark;
    filled
}

/// One thing the offline brain can do, the words that point at it, and a
/// message that does it.
struct Can {
    cues: &'static [&'static str],
    example: &'static str,
}

const CAN: &[Can] = &[
    Can {
        cues: &[
            "pantry", "fridge", "freezer", "cupboard", "have", "got", "left", "stock",
        ],
        example: "what's in my fridge?",
    },
    Can {
        cues: &["shopping", "list", "buy", "shop", "groceries", "store"],
        example: "add eggs to the shopping list",
    },
    Can {
        cues: &[
            "plan",
            "week",
            "dinner",
            "dinners",
            "lunch",
            "breakfast",
            "monday",
            "friday",
        ],
        example: "plan dinners for this week",
    },
    Can {
        cues: &["recipe", "recipes", "cook", "make", "dish", "saved"],
        example: "show me my recipes",
    },
    Can {
        cues: &[
            "new", "idea", "create", "invent", "give", "quick", "noodle", "curry", "soup",
        ],
        example: "give me a quick noodle recipe",
    },
    Can {
        cues: &[
            "task", "tasks", "todo", "remind", "reminder", "defrost", "prep",
        ],
        example: "what tasks do I have?",
    },
    Can {
        cues: &[
            "expire", "expiring", "off", "soon", "date", "old", "spoil", "turn",
        ],
        example: "what's going off soon?",
    },
];

/// The two or three things closest to what `w` says, by the words it
/// shares with each; three everyday ones when it shares none. `turn` turns
/// the everyday ones so the reply does not repeat itself.
pub fn closest(w: &Words, turn: u32) -> Vec<&'static str> {
    let scored = sharing(w);
    let mut out: Vec<&str> = scored.clone();
    let start = turn as usize % CAN.len();
    for k in 0..CAN.len() {
        if out.len() >= 3 || (out.len() >= 2 && !scored.is_empty()) {
            break;
        }
        let e = CAN[(start + k) % CAN.len()].example;
        if !out.contains(&e) {
            out.push(e);
        }
    }
    out
}

/// Up to three things the offline brain does that share a word with `w`,
/// most words shared first; none when it shares none.
pub fn sharing(w: &Words) -> Vec<&'static str> {
    let said: Vec<String> = w.words.iter().map(|x| stem(x)).collect();
    let mut scored: Vec<(usize, usize)> = CAN
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let hits = c
                .cues
                .iter()
                .filter(|cue| said.iter().any(|s| *s == stem(cue)))
                .count();
            (hits, i)
        })
        .filter(|(hits, _)| *hits > 0)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored
        .iter()
        .take(3)
        .map(|(_, i)| CAN[*i].example)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_of(s: &str) -> Option<Vague> {
        read(&Words::new(s))
    }

    #[test]
    fn vague_requests_are_read_and_real_ones_are_not() {
        assert_eq!(read_of("change it"), Some(Vague::Change));
        assert_eq!(read_of("remove it"), Some(Vague::Remove));
        assert_eq!(
            read_of("can u sort the other thing out too"),
            Some(Vague::Change)
        );
        assert_eq!(read_of("hm and the other thing"), Some(Vague::Other));
        assert_eq!(read_of("add some to that recipe"), Some(Vague::Add));
        for s in [
            "remove the eggs",
            "change it to 4 servings",
            "add milk to the list",
            "asdf qwer",
            "thanks",
        ] {
            assert_eq!(read_of(s), None, "{s}");
        }
    }

    #[test]
    fn an_answer_fills_the_request_in() {
        let f = |r: &str, a: &str| fill(&Words::new(r), &Words::new(a)).words.join(" ");
        assert_eq!(
            f("remove it", "the tomatoes. off the shopping list"),
            "remove the tomatoes off the shopping list"
        );
        assert_eq!(
            f("can u sort the other thing out too", "the olive oil"),
            "can you sort the olive oil out too"
        );
        assert_eq!(f("change", "the meal plan"), "change the meal plan");
    }

    #[test]
    fn the_closest_things_follow_the_words() {
        let c = closest(&Words::new("blorp my fridge shopping"), 0);
        assert_eq!(c, ["what's in my fridge?", "add eggs to the shopping list"]);
        let none = closest(&Words::new("asdf qwer"), 0);
        assert_eq!(none.len(), 3);
        assert_ne!(none, closest(&Words::new("asdf qwer"), 1));
    }
}
