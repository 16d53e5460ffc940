//! How much of an item a phrase says, beyond a plain number and unit: a
//! share of what is there ("half the paneer", "a quarter of the rice"),
//! all of it ("the last of the milk", "all the lemons", "the rest of"), or
//! an amount said without a number ("some", "a bit of", "most of", "a
//! few").
//!
//! Decisions:
//! - "half the X" / "half of the X" is half of what the kitchen holds;
//!   "half a X" is an amount (half a bag, half a dozen = 6).
//! - "most of", "some", "a bit of", "a little", "a lot of" are vague: a use
//!   of them asks how much rather than guessing.
//! - "a few" is vague for a use (it asks) and three for a purchase, as the
//!   shopping list has always read it.
//! - "a couple (of)" is two.
//!
//! Pure: words in, a [`Quantity`] and the number of words it took out.

use serde::{Deserialize, Serialize};

use super::text::number;

/// How much of an item was said.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Quantity {
    /// Nothing said: "the milk".
    #[default]
    Unsaid,
    /// A number, with its unit when given: "2", "500 g", "a can", "half a
    /// dozen" (6).
    Amount { quantity: f64, unit: Option<String> },
    /// A share of what there is: "half the paneer" (0.5).
    Share { of: f64 },
    /// All of it: "the last of the milk", "all the lemons".
    All,
    /// Said without a number: "some", "a bit of", "most of", "a few".
    Vague { said: String },
}

/// Words that soften an amount without changing it: "like half a bag",
/// "about 200g".
const HEDGES: &[&str] = &[
    "like",
    "about",
    "around",
    "roughly",
    "approx",
    "approximately",
    "maybe",
    "nearly",
    "almost",
    "probably",
    "prob",
    "only",
    "just",
    "abt",
];

/// Words that may close the lead before the item's name ("of the", "my").
const OWNERS: &[&str] = &["of", "the", "my", "our", "that", "those", "these", "this"];

/// Shares said as words: "a quarter of", "two thirds of".
fn share_word(w: &str) -> Option<f64> {
    Some(match w {
        "quarter" => 0.25,
        "third" => 1.0 / 3.0,
        "quarters" => 0.25,
        "thirds" => 1.0 / 3.0,
        _ => return None,
    })
}

/// Vague amounts, by their first word.
fn vague_word(w: &str) -> Option<&'static str> {
    Some(match w {
        "some" => "some",
        "bit" => "a bit",
        "little" => "a little",
        "most" => "most",
        "few" => "a few",
        "lot" | "lots" => "a lot",
        "bunch" => "a bunch",
        _ => return None,
    })
}

/// The quantity said at the start of `words` — a share, all of it, or a
/// vague amount — and how many words it took (hedges included, and the
/// "of the" that closes it). A plain number or unit is left for the item's
/// own amount: `(Quantity::Unsaid, hedges)`.
pub fn lead(words: &[String]) -> (Quantity, usize) {
    let at = |i: usize| words.get(i).map(String::as_str);
    let mut i = 0;
    while at(i).is_some_and(|w| HEDGES.contains(&w)) {
        i += 1;
    }
    let start = i;
    // "the last of the milk", "the rest of", "all (of) the", "the whole".
    if at(i) == Some("the") && matches!(at(i + 1), Some("last" | "rest" | "whole")) {
        i += 1;
    }
    let closed = |mut j: usize| {
        while at(j).is_some_and(|w| OWNERS.contains(&w)) {
            j += 1;
        }
        j
    };
    match at(i) {
        Some("last") if at(i + 1).and_then(number).is_some() => {
            // "the last 2 eggs": the number is the amount.
            return (Quantity::Unsaid, i + 1);
        }
        Some("last" | "rest") if matches!(at(i + 1), Some("of" | "bit")) => {
            let j = if at(i + 1) == Some("bit") {
                i + 2
            } else {
                i + 1
            };
            return (Quantity::All, closed(j));
        }
        Some("whole" | "all" | "every" | "entire") => return (Quantity::All, closed(i + 1)),
        _ => {}
    }
    i = start;
    // "half the paneer", "half of it"; "half a bag" is an amount.
    if at(i) == Some("half") && !matches!(at(i + 1), Some("a" | "an" | "dozen")) {
        let next = at(i + 1);
        if next.is_none_or(|n| OWNERS.contains(&n) || matches!(n, "it" | "them")) {
            return (Quantity::Share { of: 0.5 }, closed(i + 1));
        }
    }
    // "a quarter of", "a third of", "two thirds of", "three quarters of".
    let (count, k) = match at(i) {
        Some("a" | "an" | "one") => (1.0, i + 1),
        Some(w) => match number(w) {
            Some(n) if n >= 1.0 && share_word(at(i + 1).unwrap_or_default()).is_some() => {
                (n, i + 1)
            }
            _ => (1.0, i),
        },
        None => return (Quantity::Unsaid, i),
    };
    if let Some(s) = at(k).and_then(share_word) {
        return (Quantity::Share { of: count * s }, closed(k + 1));
    }
    // "some", "a bit of", "a little bit of", "most of", "a few".
    let v = if matches!(at(i), Some("a" | "an")) {
        i + 1
    } else {
        i
    };
    if let Some(said) = at(v).and_then(vague_word) {
        // "a bunch of coriander" is a unit; "some" alone before a name is
        // how people say an item with no amount ("got some milk").
        let unit_like = said == "a bunch";
        let bare_some = said == "some" && !matches!(at(v + 1), Some("of"));
        if !unit_like && !bare_some {
            let mut j = v + 1;
            if at(j) == Some("bit") {
                j += 1;
            }
            return (
                Quantity::Vague {
                    said: said.to_string(),
                },
                closed(j),
            );
        }
    }
    (Quantity::Unsaid, start)
}

impl Quantity {
    /// The quantity in words: "half", "all", "2 cans", "some".
    pub fn words(&self) -> String {
        match self {
            Quantity::Unsaid => String::new(),
            Quantity::Amount { quantity, unit } => match unit {
                Some(u) => format!("{} {u}", super::text::fmt_number(*quantity)),
                None => super::text::fmt_number(*quantity),
            },
            Quantity::Share { of } if (*of - 0.5).abs() < 1e-9 => "half".into(),
            Quantity::Share { of } if (*of - 0.25).abs() < 1e-9 => "a quarter".into(),
            Quantity::Share { of } => format!("{:.0}%", of * 100.0),
            Quantity::All => "all".into(),
            Quantity::Vague { said } => said.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::offline::text::Words;

    fn q(s: &str) -> (Quantity, usize) {
        lead(&Words::new(s).words)
    }

    #[test]
    fn shares_all_and_vague_amounts() {
        let half = Quantity::Share { of: 0.5 };
        assert_eq!(q("half the paneer"), (half.clone(), 2));
        assert_eq!(q("half of the paneer"), (half.clone(), 3));
        assert_eq!(q("like half of it"), (half.clone(), 3));
        assert_eq!(q("a quarter of the rice").0, Quantity::Share { of: 0.25 });
        assert_eq!(
            q("three quarters of the milk").0,
            Quantity::Share { of: 0.75 }
        );
        assert_eq!(q("the last of the milk"), (Quantity::All, 4));
        assert_eq!(q("all the lemons"), (Quantity::All, 2));
        assert_eq!(q("the rest of the rice"), (Quantity::All, 4));
        assert_eq!(q("the whole bag of peas").0, Quantity::All);
        for (s, said) in [
            ("some of the rice", "some"),
            ("a bit of the yogurt", "a bit"),
            ("a little bit of butter", "a little"),
            ("most of the paneer", "most"),
            ("a few eggs", "a few"),
        ] {
            assert_eq!(q(s).0, Quantity::Vague { said: said.into() }, "{s}");
        }
    }

    #[test]
    fn plain_amounts_are_left_to_the_item() {
        for s in [
            "2 bananas",
            "half a bag of peas",
            "half a dozen eggs",
            "a litre of milk",
            "500g paneer",
            "some milk",
            "a bunch of coriander",
            "milk",
        ] {
            assert_eq!(q(s), (Quantity::Unsaid, 0), "{s}");
        }
        assert_eq!(q("about 200g of rice"), (Quantity::Unsaid, 1));
        assert_eq!(q("the last 2 eggs"), (Quantity::Unsaid, 2));
    }

    #[test]
    fn quantities_in_words() {
        assert_eq!(Quantity::Share { of: 0.5 }.words(), "half");
        let can = Quantity::Amount {
            quantity: 2.0,
            unit: Some("can".into()),
        };
        assert_eq!(can.words(), "2 can");
    }
}
