//! What a use names: each item after the verb with its own amount — "used
//! the last of the milk and 2 bananas" is all of the milk and two bananas,
//! "ate half the paneer" half of what there is, "chuck the coriander" all of
//! it. An amount with no item to bind to ("used 200g") is kept apart so
//! the skill can ask what it was of.

use serde::{Deserialize, Serialize};

use super::super::super::items::{parse_item, unit_word};
use super::super::super::quantity::{Quantity, lead};
use super::super::super::text::{Words, find_any, is_filler, stem};
use super::super::{Named, POINTING};
use super::{NOT_ITEM, USE};

/// One item used and how much of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Used {
    pub item: Named,
    /// Unsaid is all of it: "finished the milk", "chuck the coriander".
    pub amount: Quantity,
}

/// Words that end an item phrase: why, when, or what happens next.
#[rustfmt::skip]
const ENDS: &[&str] = &[
    "its", "it", "is", "cause", "because", "for", "last", "this", "tonight", "tonite", "today",
    "yesterday", "so", "as", "in", "with", "at", "earlier", "already", "they", "theyd",
    "theyre", "were", "was", "had", "has", "have", "gone", "went", "which", "that", "thats",
    "coz", "cuz", "bc", "since", "after", "before", "lol", "when", "while", "to", "into",
];
/// Words that open a clause of its own after a list of items.
#[rustfmt::skip]
const CLAUSE: &[&str] = &[
    "stick", "put", "add", "take", "remove", "show", "what", "whats", "how", "is", "are", "do",
    "does", "can", "could", "mark", "plan", "i", "we", "im", "its", "it", "they", "thats", "so",
    "cause", "because", "need", "please", "pls", "pop", "and", "also", "then", "buy", "get",
    "tell", "whens", "when", "will", "should", "lets",
];

/// The items a use names, each with its amount; `Err` with the words of
/// an amount that names no item ("used 200g", "used half").
pub fn read(w: &Words) -> Option<Result<Vec<Used>, String>> {
    let phrases = phrases(w)?;
    let mut out: Vec<Used> = Vec::new();
    for (k, (phrase, cooked)) in phrases.iter().enumerate() {
        let (said, skip) = lead(phrase);
        let rest: Vec<String> = phrase[skip..]
            .iter()
            .skip_while(|x| matches!(x.as_str(), "up" | "off"))
            .take_while(|x| !ENDS.contains(&x.as_str()))
            .cloned()
            .collect();
        let item = parse_item(&rest);
        let amount = match said {
            Quantity::Unsaid => item.as_ref().map(|i| i.amount.clone()).unwrap_or_else(|| {
                super::super::super::items::bare_amount(&rest).map_or(
                    Quantity::Unsaid,
                    |(quantity, unit)| Quantity::Amount { quantity, unit },
                )
            }),
            other => other,
        };
        let amount = match amount {
            Quantity::Unsaid if *cooked => Quantity::Vague {
                said: "some".into(),
            },
            other => other,
        };
        let name = item.map(|i| name_of(&i.name)).unwrap_or_default();
        // "used 200g": the unit the item parse took for a name.
        let amount = match amount {
            Quantity::Amount {
                quantity,
                unit: None,
            } if name.is_empty() => Quantity::Amount {
                quantity,
                unit: rest.last().and_then(|u| unit_word(u)).map(String::from),
            },
            other => other,
        };
        let item = if name.is_empty() {
            // "used half of it", "finished them": what was just shown —
            // unless an item named before it is what "it" means.
            let pointing = phrase.iter().any(|x| POINTING.contains(&x.as_str()))
                || (phrases.len() == 1
                    && w.words
                        .iter()
                        .any(|x| matches!(x.as_str(), "them" | "it" | "those")));
            // "the bananas have gone brown so i binned them": the food
            // the message named before its verb.
            let before_verb = super::super::super::vocab::food_mentions(&w.words)
                .into_iter()
                .next()
                .filter(|_| phrases.len() == 1)
                .map(|f| Named::Item(name_of(&f)));
            match (pointing, &amount) {
                (true, _) if out.is_empty() && k == 0 => before_verb.unwrap_or(Named::Shown),
                (true, _) => continue,
                (false, Quantity::Unsaid) => continue,
                (false, a) => return Some(Err(a.words())),
            }
        } else {
            Named::Item(name)
        };
        if !out.iter().any(|u| u.item == item) {
            out.push(Used { item, amount });
        }
    }
    (!out.is_empty()).then_some(Ok(out))
}

/// The item's name as the kitchen reads it: stems, with no filler.
fn name_of(name: &str) -> String {
    Words::new(name)
        .words
        .iter()
        .filter(|x| !is_filler(x) && !NOT_ITEM.contains(&x.as_str()))
        .map(|x| stem(x))
        .collect::<Vec<_>>()
        .join(" ")
}

/// "the bread is finish", "the eggs are all gone", "the milk ran out": the
/// item comes first.
const DONE_AFTER: &[&str] = &[
    "is finish",
    "is finished",
    "are finish",
    "are finished",
    "is gone",
    "are gone",
    "is all gone",
    "are all gone",
    "is used up",
    "are used up",
    "is all used",
    "ran out",
    "has run out",
    "have run out",
    "run out",
];

/// Where the item ends in "the milk ran out", "the eggs are all gone": a
/// thing said to be finished now. Not "the brioche is gone by then isnt
/// it" (a worry about later), nor "ran out of eggs" (the item after).
pub fn done_after(seg: &[String]) -> Option<usize> {
    let (i, p) = find_any(seg, DONE_AFTER)?;
    let rest = &seg[i + p.split_whitespace().count()..];
    let later = rest.first().is_some_and(|x| {
        matches!(
            x.as_str(),
            "by" | "before" | "till" | "until" | "soon" | "when" | "if"
        )
    }) || seg
        .iter()
        .any(|x| matches!(x.as_str(), "isnt" | "wont" | "will"));
    (i > 0 && !later && super::super::super::vocab::food_mentions(rest).is_empty()).then_some(i)
}

/// The words after each use verb, one phrase per item: the rest of the
/// verb's clause, then each clause after it that is only an item ("and 2
/// bananas"), or that has a use verb of its own ("and i ate a banana").
/// Each phrase comes with whether it was cooked with ("made a curry with
/// the coconut milk"): an item cooked with, no amount said, is some of it,
/// not all.
fn phrases(w: &Words) -> Option<Vec<(Vec<String>, bool)>> {
    let mut out: Vec<(Vec<String>, bool)> = Vec::new();
    let mut cooked = false;
    for seg in &w.segments {
        if let Some(i) = done_after(seg) {
            out.push((seg[..i].to_vec(), false));
            continue;
        }
        if let Some((i, p)) = find_any(seg, USE) {
            cooked = p == "cooked with";
            out.push((seg[i + p.split_whitespace().count()..].to_vec(), cooked));
            continue;
        }
        if let Some(after) = made_with(seg) {
            cooked = true;
            out.push((after.to_vec(), cooked));
            continue;
        }
        if out.is_empty() {
            continue;
        }
        if seg.first().is_none_or(|x| CLAUSE.contains(&x.as_str())) {
            break;
        }
        out.push((seg.clone(), cooked));
    }
    (!out.is_empty()).then_some(out)
}

/// Verbs of cooking that use what comes after "with": "made tikka w half
/// the paneer", "did a curry with the last of the coconut milk".
const MADE: &[&str] = &["made", "cooked", "baked", "whipped"];

/// The words after "with" in a clause that cooked something with them.
pub fn made_with(seg: &[String]) -> Option<&[String]> {
    let verb = seg.iter().position(|x| MADE.contains(&x.as_str()))?;
    let with = seg[verb..].iter().position(|x| x == "with")? + verb;
    Some(&seg[with + 1..]).filter(|rest| !rest.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(s: &str) -> Vec<(String, Quantity)> {
        match read(&Words::new(s)) {
            Some(Ok(v)) => v
                .into_iter()
                .map(|u| {
                    let n = match u.item {
                        Named::Item(x) => x,
                        Named::Shown => "(shown)".into(),
                    };
                    (n, u.amount)
                })
                .collect(),
            other => panic!("{s}: {other:?}"),
        }
    }
    fn n(q: f64, unit: Option<&str>) -> Quantity {
        Quantity::Amount {
            quantity: q,
            unit: unit.map(String::from),
        }
    }

    #[test]
    fn each_amount_binds_to_its_item() {
        assert_eq!(
            uses("used the last of the milk and 2 bananas"),
            [
                ("milk".into(), Quantity::All),
                ("banana".into(), n(2.0, None))
            ]
        );
        assert_eq!(
            uses("ate a couple of bananas, half the paneer and 200g rice"),
            [
                ("banana".into(), n(2.0, None)),
                ("paneer".into(), Quantity::Share { of: 0.5 }),
                ("rice".into(), n(200.0, Some("g"))),
            ]
        );
        assert_eq!(
            uses("used two limes n like half a bag of frozen peas"),
            [
                ("lime".into(), n(2.0, None)),
                ("frozen pea".into(), n(0.5, Some("bag"))),
            ]
        );
        assert_eq!(
            uses("finished the milk"),
            [("milk".into(), Quantity::Unsaid)]
        );
        assert_eq!(uses("ate a banana"), [("banana".into(), n(1.0, None))]);
        assert_eq!(
            uses("used a quarter of the jasmine rice for dinner"),
            [("jasmine rice".into(), Quantity::Share { of: 0.25 })]
        );
        assert_eq!(
            uses("used some of the greek yogurt"),
            [(
                "greek yogurt".into(),
                Quantity::Vague {
                    said: "some".into()
                }
            )]
        );
        assert_eq!(
            uses("used half of it"),
            [("(shown)".into(), Quantity::Share { of: 0.5 })]
        );
        assert_eq!(
            uses("were out of milk actually, finished it this morning"),
            [("milk".into(), Quantity::Unsaid)]
        );
        assert_eq!(
            uses("made tikka w half the paneer"),
            [("paneer".into(), Quantity::Share { of: 0.5 })]
        );
        assert_eq!(
            uses("made a curry with the coconut milk"),
            [(
                "coconut milk".into(),
                Quantity::Vague {
                    said: "some".into()
                }
            )]
        );
        assert_eq!(
            uses("chucked the spring onions theyd gone slimy"),
            [("spring onion".into(), Quantity::Unsaid)]
        );
        assert_eq!(
            uses("used the last of the bananas, stick them on the shopping list"),
            [("banana".into(), Quantity::All)]
        );
    }

    #[test]
    fn an_amount_with_no_item_is_kept_apart() {
        assert_eq!(read(&Words::new("used 200g")), Some(Err("200 g".into())));
        assert_eq!(read(&Words::new("i used half")), Some(Err("half".into())));
    }
}
