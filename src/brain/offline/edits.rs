//! Changes to a recipe: how the user asks for them ("add a squeeze of
//! lime", "swap the chicken for tofu", "make it for 4") and how they are
//! applied to a recipe's content.
//!
//! [`parse_edit`] reads words; [`apply_edit`] rewrites a recipe JSON object
//! (name, servings, instructions, ingredients) and says what changed in one
//! line. Pure; never touches the registry.

use super::items::{Item, parse_items};
use super::text::{Words, find, find_any, join_list, number, plural_noun};

/// One change to a recipe.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EditOp {
    Add(Vec<Item>),
    Remove(Vec<String>),
    Swap {
        from: String,
        to: String,
    },
    Scale {
        servings: u32,
    },
    Double,
    Halve,
    Spicier,
    Milder,
    Vegetarian,
    /// Two or more changes in one message ("less spicy and add spinach").
    Several(Vec<EditOp>),
}

impl EditOp {
    /// What the change did, in the past tense ("added a squeeze of lime
    /// to Thai Basil Chicken"); `label` names the recipe (the last of
    /// several changes names it, the others do not).
    pub fn past(&self, label: Option<&str>) -> String {
        let names =
            |n: &[String]| join_list(&n.iter().map(|x| plural_noun(x)).collect::<Vec<_>>(), "and");
        let it = label.unwrap_or("it");
        match self {
            EditOp::Several(ops) => {
                let parts: Vec<String> = ops
                    .iter()
                    .enumerate()
                    .map(|(i, o)| o.past(label.filter(|_| i + 1 == ops.len())))
                    .collect();
                join_list(&parts, "and")
            }
            EditOp::Add(items) => {
                let what: Vec<String> = items.iter().map(|i| i.phrase.clone()).collect();
                match label {
                    Some(l) => format!("added {} to {l}", join_list(&what, "and")),
                    None => format!("added {}", join_list(&what, "and")),
                }
            }
            EditOp::Remove(n) => match label {
                Some(l) => format!("took the {} out of {l}", names(n)),
                None => format!("took the {} out", names(n)),
            },
            EditOp::Swap { from, to } => match label {
                Some(l) => format!("swapped the {from} for {to} in {l}"),
                None => format!("swapped the {from} for {to}"),
            },
            EditOp::Scale { servings } => format!("scaled {it} to serve {servings}"),
            EditOp::Double => format!("doubled {it}"),
            EditOp::Halve => format!("halved {it}"),
            EditOp::Spicier => format!("made {it} spicier"),
            EditOp::Milder => format!("made {it} milder"),
            EditOp::Vegetarian => format!("made {it} vegetarian"),
        }
    }

    /// The single changes this is made of.
    pub fn parts(&self) -> Vec<&EditOp> {
        match self {
            EditOp::Several(ops) => ops.iter().flat_map(|o| o.parts()).collect(),
            op => vec![op],
        }
    }
}

const ADD_VERBS: &[&str] = &[
    "add",
    "chuck in",
    "chuck some",
    "chuck a",
    "chuck the",
    "throw some",
    "throw a",
    "throw the",
    "pop in",
    "pop some",
    "bung in",
    "bung some",
    "stick some",
    "stick in",
    "put in",
    "put some",
    "put a",
    "put",
    "throw in",
    "toss in",
    "stir in",
    "sprinkle",
    "top it with",
    "top with",
    "more",
    "extra",
    "include",
    "mix in",
    "fold in",
];
const REMOVE_VERBS: &[&str] = &["remove", "take out", "take the", "hold the", "minus"];

/// Reads the recipe changes a message asks for: the first one found, and
/// any other its other clauses ask for ("bit less spicy pls and add
/// spinach").
pub fn parse_edit(w: &Words) -> Option<EditOp> {
    let first = parse_one(w)?;
    let mut ops = vec![first.clone()];
    if w.segments.len() > 1 && !matches!(first, EditOp::Add(_)) {
        for seg in &w.segments {
            let clause = Words::new(&seg.join(" "));
            if let Some(op) = parse_one(&clause)
                && !ops.contains(&op)
                && !matches!((&first, &op), (EditOp::Swap { .. }, EditOp::Add(_)))
            {
                ops.push(op);
            }
        }
    }
    Some(if ops.len() == 1 {
        first
    } else {
        EditOp::Several(ops)
    })
}

/// One recipe change, if the words ask for one.
fn parse_one(w: &Words) -> Option<EditOp> {
    if let Some(op) = parse_swap(w) {
        return Some(op);
    }
    if w.has_any(&[
        "double it",
        "double the recipe",
        "double that",
        "twice as much",
    ]) {
        return Some(EditOp::Double);
    }
    if w.has_any(&[
        "halve it",
        "half the recipe",
        "halve the recipe",
        "half as much",
    ]) {
        return Some(EditOp::Halve);
    }
    if let Some(n) = servings(w) {
        return Some(EditOp::Scale { servings: n });
    }
    if w.has_any(&[
        "milder",
        "less spicy",
        "not so spicy",
        "less heat",
        "tone down",
        "less hot",
    ]) {
        return Some(EditOp::Milder);
    }
    if w.has_any(&[
        "spicier",
        "more spicy",
        "hotter",
        "more heat",
        "some heat",
        "more kick",
        "a kick",
    ]) {
        return Some(EditOp::Spicier);
    }
    let asks_change = w.has_any(&["make it", "make this", "make that", "turn it", "can it be"]);
    if asks_change && w.has_any(&["vegetarian", "veggie", "meatless", "meat free", "vegan"]) {
        return Some(EditOp::Vegetarian);
    }
    if let Some(names) = removal(w) {
        return Some(EditOp::Remove(names));
    }
    let items = items_after(w, ADD_VERBS);
    (!items.is_empty()).then_some(EditOp::Add(items))
}

/// The items after the first verb, one per segment from there on.
fn items_after(w: &Words, verbs: &[&str]) -> Vec<Item> {
    let mut segs: Vec<Vec<String>> = Vec::new();
    for seg in &w.segments {
        if segs.is_empty() {
            if let Some((i, p)) = find_any(seg, verbs) {
                let rest = seg[i + p.split_whitespace().count()..].to_vec();
                let rest = if p == "more" || p == "extra" {
                    std::iter::once("more".to_string()).chain(rest).collect()
                } else {
                    rest
                };
                segs.push(rest);
            }
        } else {
            segs.push(seg.clone());
        }
    }
    let segs: Vec<Vec<String>> = segs.into_iter().map(|s| item_words(&s)).collect();
    parse_items(&segs)
        .into_iter()
        .filter(|i| {
            !matches!(
                i.name.as_str(),
                "back" | "it" | "them" | "plan" | "double" | "triple" | "spicy" | "heat" | "kick"
            )
        })
        .collect()
}

/// An item's words without where it goes or why ("the bananas in too
/// theyre going off" → "the bananas"; "like double" → "double").
fn item_words(seg: &[String]) -> Vec<String> {
    const ENDS: &[&str] = &[
        "in", "into", "too", "theyre", "its", "because", "cos", "since", "as", "so", "ive", "to",
        "pls", "please", "plz", "then", "on", "onto", "over",
    ];
    let start = usize::from(seg.first().is_some_and(|w| w == "like"));
    let end = seg
        .iter()
        .enumerate()
        .skip(start + 1)
        .find(|(_, w)| ENDS.contains(&w.as_str()))
        .map_or(seg.len(), |(i, _)| i);
    seg[start..end].to_vec()
}

fn removal(w: &Words) -> Option<Vec<String>> {
    let items = items_after(w, REMOVE_VERBS);
    let names: Vec<String> = items.into_iter().map(|i| i.name).collect();
    (!names.is_empty()).then_some(names)
}

fn parse_swap(w: &Words) -> Option<EditOp> {
    let words: Vec<String> = w
        .words
        .iter()
        .map(|x| match x.as_str() {
            "insted" | "instaed" | "instad" | "insteed" => "instead".to_string(),
            _ => x.clone(),
        })
        .collect();
    let words = &words;
    let pair = |a: &[String], b: &[String]| {
        let a = parse_items(&[a.to_vec()]).into_iter().next()?.name;
        let b = parse_items(&[b.to_vec()]).into_iter().next()?.name;
        Some((a, b))
    };
    for (verb, sep, reversed) in [
        ("swap", "for", false),
        ("swap", "with", false),
        ("replace", "with", false),
        ("switch", "to", false),
        ("switch", "for", false),
        ("change", "to", false),
        ("substitute", "for", true),
        ("use", "instead of", true),
        ("do", "instead of", true),
        ("put", "instead of", true),
        ("have", "instead of", true),
        ("use", "not", true),
        ("use", "rather than", true),
    ] {
        let (Some(v), Some(s)) = (find(words, verb), find(words, sep)) else {
            continue;
        };
        if s <= v + 1 {
            continue;
        }
        let first = &words[v + 1..s];
        let second = &words[s + sep.split_whitespace().count()..];
        if let Some((a, b)) = pair(first, second) {
            let (from, to) = if reversed { (b, a) } else { (a, b) };
            return Some(EditOp::Swap { from, to });
        }
    }
    None
}

/// "make it for 4", "for 6 people", "4 servings", "there are 5 of us".
pub fn servings(w: &Words) -> Option<u32> {
    let words = &w.words;
    for (i, x) in words.iter().enumerate() {
        let Some(n) = number(x) else { continue };
        let before = i.checked_sub(1).map(|j| words[j].as_str());
        let next = words.get(i + 1).map(String::as_str);
        let of_us = next == Some("of") && words.get(i + 2).is_some_and(|u| u == "us");
        let people = of_us
            || matches!(
                next,
                Some(
                    "people"
                        | "ppl"
                        | "servings"
                        | "serving"
                        | "portions"
                        | "portion"
                        | "persons"
                        | "person"
                        | "peeps"
                        | "adults"
                        | "guests"
                        | "pax"
                )
            );
        let serves = matches!(before, Some("serves" | "serve" | "feed" | "feeds"));
        let for_it =
            before == Some("for") && w.has_any(&["make it", "scale", "make that", "make this"]);
        if (people || serves || for_it) && (1.0..=24.0).contains(&n) {
            return Some(n as u32);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::edit_apply::apply_edit;
    use super::*;

    fn edit(s: &str) -> EditOp {
        parse_edit(&Words::new(s)).unwrap_or_else(|| panic!("no edit in {s}"))
    }

    fn recipe() -> Value {
        json!({
            "name": "Thai Basil Chicken", "servings": 2,
            "instructions": ["a", "b", "c", "d", "e"],
            "ingredients": [
                {"name": "chicken thigh", "quantity": 400, "unit": "g"},
                {"name": "garlic", "quantity": 3, "unit": "clove"}
            ]
        })
    }

    #[test]
    fn edits_parse_from_many_phrasings() {
        assert!(matches!(edit("add a squeeze of lime"), EditOp::Add(_)));
        assert!(matches!(
            edit("Can you add lime juice to it?"),
            EditOp::Add(_)
        ));
        assert!(matches!(edit("put some lime in"), EditOp::Add(_)));
        assert!(matches!(edit("more garlic please"), EditOp::Add(i) if i[0].more));
        assert_eq!(
            edit("swap the chicken for tofu"),
            EditOp::Swap {
                from: "chicken".into(),
                to: "tofu".into()
            }
        );
        assert_eq!(
            edit("use tofu instead of chicken"),
            EditOp::Swap {
                from: "chicken".into(),
                to: "tofu".into()
            }
        );
        assert_eq!(edit("make it for 4 people"), EditOp::Scale { servings: 4 });
        assert_eq!(edit("remove the eggs"), EditOp::Remove(vec!["eggs".into()]));
        assert_eq!(edit("make it spicier"), EditOp::Spicier);
        assert!(parse_edit(&Words::new("what's in my pantry")).is_none());
    }

    #[test]
    fn adding_lime_adds_a_line_and_a_finishing_step() {
        let (r, summary) = apply_edit(&recipe(), &edit("add a squeeze of lime"));
        assert!(summary.contains("squeeze of lime"), "{summary}");
        let names: Vec<&str> = r["ingredients"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"lime juice"));
        assert_eq!(r["instructions"].as_array().unwrap().len(), 6);
    }

    #[test]
    fn more_garlic_increases_the_existing_line() {
        let (r, summary) = apply_edit(&recipe(), &edit("add more garlic to that recipe"));
        assert!(summary.contains("more garlic"), "{summary}");
        assert_eq!(r["ingredients"][1]["quantity"], json!(4.5));
        assert_eq!(r["ingredients"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn swaps_scales_and_removals() {
        let (r, _) = apply_edit(&recipe(), &edit("swap the chicken for tofu"));
        assert_eq!(r["ingredients"][0]["name"], "tofu");
        assert_eq!(r["name"], "Thai Basil Tofu");
        let (r, s) = apply_edit(&recipe(), &edit("make it for 4"));
        assert_eq!(
            (
                r["servings"].as_u64(),
                r["ingredients"][0]["quantity"].as_f64()
            ),
            (Some(4), Some(800.0))
        );
        assert!(s.contains("serve 4"));
        let (r, s) = apply_edit(&recipe(), &EditOp::Remove(vec!["garlic".into()]));
        assert_eq!(r["ingredients"].as_array().unwrap().len(), 1);
        assert!(s.contains("Took out"));
    }
}
