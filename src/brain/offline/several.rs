//! Two requests in one message — "we're out of milk, add it to the list",
//! "ok save it and put it on wed", "paneer on wednesday, and whats quick for
//! friday?" — read as parts, each with its own intent.
//!
//! Each part is planned by its own rules; its steps take the groups
//! `k * PART_GROUPS ..` so they run after the earlier part's, and Act and
//! Reply find a step's part from its group. A message is only split when
//! every part reads as a request of its own and the parts ask for
//! different things; corrections ("actually nvm thursday, move them to
//! friday"), exclusions and new recipes are read whole.

use serde::{Deserialize, Serialize};

use super::lexicon::{Cues, Intent, classify_whole};
use super::skills::SkillAsk;
use super::text::Words;

/// The groups one part's steps may use: part `k` plans in
/// `k * PART_GROUPS .. (k + 1) * PART_GROUPS`.
pub const PART_GROUPS: u32 = 10;

/// At most this many parts; a longer message is read whole.
const MAX_PARTS: usize = 3;

/// One request of a message that makes several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// The part's words ("add milk to the list": a pronoun that stood for
    /// an earlier part's items is replaced by them).
    pub words: String,
    pub intent: Intent,
}

/// The part a step of a several-part plan belongs to.
pub fn part_of(group: u32) -> usize {
    (group / PART_GROUPS) as usize
}

/// How a segment's own reading counts when splitting.
#[derive(PartialEq)]
enum Weight {
    /// A request of its own.
    Strong,
    /// Chatter, a pronoun, an "ok": part of the request around it.
    Weak,
    /// A correction, exclusion or new recipe: the message is read whole.
    Whole,
}

fn weight(i: &Intent) -> Weight {
    match i {
        Intent::Skill(SkillAsk::Cook(_)) => Weight::Whole,
        Intent::Skill(_)
        | Intent::InventoryRemove(_)
        | Intent::InventoryAdd(..)
        | Intent::Save
        | Intent::Assign
        | Intent::ShoppingMissing
        | Intent::HaveItem(_)
        | Intent::ShowPlan
        | Intent::Pantry(_)
        | Intent::ListRecipes
        | Intent::WhatCanIMake => Weight::Strong,
        weak if weak.says_nothing() => Weight::Weak,
        _ => Weight::Whole,
    }
}

/// Words that make a segment a request of its own: a verb or a question
/// word at its head. A segment without one ("milk to the list" in "add eggs
/// and milk to the list") carries on the one before.
const HEADS: &[&str] = &[
    "add",
    "put",
    "take",
    "remove",
    "mark",
    "clear",
    "save",
    "keep",
    "plan",
    "show",
    "make",
    "cook",
    "buy",
    "need",
    "used",
    "use",
    "finished",
    "ran",
    "out",
    "move",
    "swap",
    "change",
    "delete",
    "tick",
    "chuck",
    "pop",
    "stick",
    "bin",
    "throw",
    "whats",
    "what",
    "how",
    "when",
    "is",
    "are",
    "do",
    "does",
    "have",
    "got",
    "any",
    "which",
    "can",
    "could",
    "tell",
    "read",
    "check",
    "list",
    "whatever",
    "whatevers",
    "anything",
    "gimme",
    "give",
    "set",
    "schedule",
];

/// What a reading asks, for telling one request from two: meals put on
/// days are one request however they are phrased; a look in two places is
/// two ("whats in the fridge and whats in the freezer").
fn family(i: &Intent) -> String {
    match i {
        Intent::Assign
        | Intent::Skill(SkillAsk::Planning(super::skills::planning::Ask::Put { .. })) => {
            "plan".into()
        }
        Intent::Pantry(place) => format!("pantry {}", place.as_deref().unwrap_or("")),
        other => other.name().into(),
    }
}

/// Words that say nothing of their own between requests.
const TALK: &[&str] = &[
    "no", "nah", "wait", "hmm", "hm", "ok", "okay", "actually", "sorry", "oh", "um", "right",
    "yeah", "yes", "so", "and", "also", "oops",
];

/// The parts of `w` when it makes two or three different requests; `whole`
/// is its reading as one request.
pub fn split(w: &Words, cues: Cues, whole: &Intent) -> Option<Vec<Part>> {
    if w.segments.len() < 2 || w.segments.len() > 8 || weight(whole) == Weight::Whole {
        return None;
    }
    // "she doesnt eat seafood, what could i make": what is ruled out
    // applies to the whole message.
    let talk = |s: &Vec<String>| s.iter().all(|x| TALK.contains(&x.as_str()));
    // "remove the basil from my list and add fish sauce" is two list
    // changes: a segment that names a list or a shelf rules nothing out.
    let names_a_store = |s: &Vec<String>| {
        super::items::location(s).is_some()
            || s.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "list" | "shopping" | "inventory" | "todo" | "tasks"
                )
            })
    };
    if w.segments
        .iter()
        .any(|s| !talk(s) && !names_a_store(s) && super::items::has_trigger(s))
        || w.has_any(&[
            "doesnt eat",
            "dont eat",
            "cant eat",
            "cannot eat",
            "allergic",
            "intolerant",
            "vegetarian",
            "vegan",
        ])
    {
        return None;
    }
    let spans = spans(w)?;
    let n = w.segments.len();
    // Each segment's own reading, in the light of the one before ("add
    // broccolini to the list and take the chinese broccoli off": off the
    // list; "put the pad see ew on monday, how long does it take": "it" is
    // the pad see ew) …
    let mut reads: Vec<Seg> = Vec::with_capacity(n);
    let mut carried = cues;
    let mut items: Vec<String> = Vec::new();
    for seg in &w.segments {
        let said = with_items(&Words::new(&seg.join(" ")), &items);
        // "no wait, take the eggs off …": a word or two of talk.
        if said.words.iter().all(|x| TALK.contains(&x.as_str())) {
            reads.push(Seg {
                said,
                intent: Intent::Unknown,
                strength: Weight::Weak,
                cues,
            });
            continue;
        }
        // Its own reading first ("what tasks have i got, and whats planned
        // this week": the plan, not more tasks), then the carried one.
        let alone = Seg::new(said.clone(), classify_whole(&said, cues), cues);
        let read = if alone.strength == Weight::Strong {
            alone
        } else {
            Seg::new(said.clone(), classify_whole(&said, carried), carried)
        };
        if read.strength == Weight::Strong {
            if let Intent::Skill(ask) = &read.intent {
                carried.topic = ask.topic();
            }
            items = items_of(&read.intent);
        }
        reads.push(read);
    }
    // … and of the one after ("mark the air fryer one done, and add a
    // task …": the task).
    for i in (0..n.saturating_sub(1)).rev() {
        if reads[i].strength != Weight::Weak {
            continue;
        }
        if let Intent::Skill(ask) = &reads[i + 1].intent {
            let mut after = cues;
            after.topic = ask.topic();
            let again = Seg::new(
                reads[i].said.clone(),
                classify_whole(&reads[i].said, after),
                after,
            );
            if again.strength == Weight::Strong {
                reads[i] = again;
            }
        }
    }
    // Segments joined while they ask the same thing or say nothing of
    // their own: (first word, end, reading, cues it was read with).
    let mut parts: Vec<(usize, usize, Option<Intent>, Cues)> = Vec::new();
    for (read, &(start, end)) in reads.into_iter().zip(&spans) {
        // "the cod ones, which is quickest": a comparison over what the
        // message just asked for is one request.
        let compares = matches!(
            read.intent,
            Intent::Skill(SkillAsk::Recipes(
                super::skills::recipes::Ask::Compare { .. }
            ))
        );
        let after_list = parts.last().is_some_and(|p| {
            matches!(
                p.2,
                Some(Intent::Skill(SkillAsk::Recipes(_))) | Some(Intent::ListRecipes)
            ) || p.2.is_none()
        });
        if compares && after_list {
            return None;
        }
        match read.strength {
            Weight::Whole => return None,
            Weight::Weak => match parts.last_mut() {
                Some(last) => last.1 = end,
                None => parts.push((start, end, None, read.cues)),
            },
            Weight::Strong => match parts.last_mut() {
                Some(last) if last.2.is_none() => {
                    last.1 = end;
                    last.2 = Some(read.intent);
                    last.3 = read.cues;
                }
                Some(last)
                    if last
                        .2
                        .as_ref()
                        .is_some_and(|i| family(i) == family(&read.intent)) =>
                {
                    last.1 = end;
                }
                _ => parts.push((start, end, Some(read.intent), read.cues)),
            },
        }
    }
    if parts.len() < 2 || parts.len() > MAX_PARTS {
        return None;
    }
    let last = parts.len() - 1;
    let mut out: Vec<Part> = Vec::new();
    for (k, (start, end, _, cues)) in parts.into_iter().enumerate() {
        // "no wait, put the wings on friday": the part without its talk.
        let lead = w.words[start..end]
            .iter()
            .take_while(|x| TALK.contains(&x.as_str()))
            .count()
            .min(end - start - 1);
        let mut said = Words::new(&w.words[start + lead..end].join(" "));
        said.question_mark = k == last && w.question_mark;
        if let Some(items) = out.last().map(|p| items_of(&p.intent)) {
            said = with_items(&said, &items);
        }
        let intent = classify_whole(&said, cues);
        if weight(&intent) != Weight::Strong
            || out
                .last()
                .is_some_and(|p| family(&p.intent) == family(&intent))
        {
            return None;
        }
        out.push(Part {
            words: said.joined(),
            intent,
        });
    }
    Some(out)
}

/// One segment's reading: its words (a pronoun replaced by what the
/// segment before named), its intent, how it counts, and the cues it was
/// read with.
struct Seg {
    said: Words,
    intent: Intent,
    strength: Weight,
    cues: Cues,
}

impl Seg {
    fn new(said: Words, intent: Intent, cues: Cues) -> Self {
        let headed = said
            .words
            .iter()
            .take(4)
            .any(|x| HEADS.contains(&x.as_str()))
            || family(&intent) == "plan";
        let strength = match weight(&intent) {
            Weight::Strong if !headed => Weight::Weak,
            other => other,
        };
        Self {
            said,
            intent,
            strength,
            cues,
        }
    }
}

/// Where each segment starts and ends in the message's words (the
/// conjunctions between segments are in neither).
fn spans(w: &Words) -> Option<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    let mut at = 0;
    for seg in &w.segments {
        let first = seg.first()?;
        let start = at + w.words[at..].iter().position(|x| x == first)?;
        let end = start + seg.len();
        if w.words.get(start..end)? != seg.as_slice() {
            return None;
        }
        out.push((start, end));
        at = end;
    }
    Some(out)
}

/// The items a part names, for "it" in the next part ("we're out of milk,
/// add it to the list").
fn items_of(intent: &Intent) -> Vec<String> {
    match intent {
        Intent::InventoryRemove(items) | Intent::InventoryAdd(items, _) => {
            items.iter().map(|i| i.name.clone()).collect()
        }
        Intent::HaveItem(x) => vec![x.clone()],
        // "put the cod one on friday, do i need anything for it": the
        // recipe by the words it was named with.
        Intent::Skill(SkillAsk::Planning(super::skills::planning::Ask::Put { slots })) => slots
            .iter()
            .filter_map(|s| match &s.recipe {
                super::skills::planning::Pick::Named(words) => Some(match words.as_slice() {
                    [one] => format!("the {one} one"),
                    many => many.join(" "),
                }),
                _ => None,
            })
            .collect(),
        Intent::Skill(SkillAsk::Stock(a)) => a
            .items()
            .into_iter()
            .filter_map(|n| match n {
                super::skills::Named::Item(x) => Some(x),
                super::skills::Named::Shown => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `w` with its first "it" or "them" replaced by `items`, when `w` does
/// something with items ("chuck them on the list"); "then show me it" means
/// what was just changed, not the item.
fn with_items(w: &Words, items: &[String]) -> Words {
    let showing = w.words.first().is_some_and(|x| {
        matches!(
            x.as_str(),
            "show" | "read" | "list" | "whats" | "what" | "tell" | "then"
        )
    }) && !w.has_any(&["for it", "for them", "in it", "in them"]);
    if items.is_empty() || showing {
        return w.clone();
    }
    let Some(at) = w.words.iter().position(|x| x == "it" || x == "them") else {
        return w.clone();
    };
    let mut words = w.words.clone();
    words.splice(at..=at, [items.join(" and ")]);
    let mut out = Words::new(&words.join(" "));
    out.question_mark = w.question_mark;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(s: &str) -> Vec<(String, String)> {
        let w = Words::new(s);
        split(&w, Cues::default(), &classify_whole(&w, Cues::default()))
            .unwrap_or_default()
            .into_iter()
            .map(|p| (p.words, p.intent.name().to_string()))
            .collect()
    }

    #[test]
    fn two_requests_are_two_parts() {
        let p = parts("we're out of milk, add it to the list");
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!(p[1].0, "add milk to the list");
        let p = parts("ok add broccolini to the list and take the chinese broccoli off");
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!(
            p[1].1, "shopping_remove",
            "off the list, as the part before"
        );
        let p = parts("no wait, take the eggs off the list and add oat milk");
        assert_eq!(
            p.len(),
            2,
            "a word of talk first is not a ruling-out: {p:?}"
        );
        assert_eq!(p[1].1, "shopping_add");
        let p = parts("whats in the fridge and whats in the freezer");
        assert_eq!(p.len(), 2, "two places are two looks: {p:?}");
        let p = parts("show me my recipes and put the wings on saturday");
        assert_eq!(p.len(), 2, "{p:?}");
        let p =
            parts("mark the air fryer one done, and add a task to defrost the chicken thursday");
        assert_eq!(
            p.len(),
            2,
            "a task, read in the light of the part after: {p:?}"
        );
        assert_eq!(p[0].1, "tasks_done");
        let p = parts("put the cod one on friday then, do i need to buy anything for it");
        assert_eq!(p[1].0, "do i need to buy anything for the cod one");
    }

    #[test]
    fn one_request_is_read_whole() {
        for s in [
            "add eggs and milk to the list",
            "tikka bites on sunday and the yellow curry wednesday",
            "nah keep the wings. actually nvm thursday, move them to friday",
            "whats in the fridge",
            "give me a quick noodle recipe, no peanuts",
            "my sister's coming friday and she doesnt eat seafood, what could i make",
            "let's do the paneer on sunday and the curry on wednesday",
            "what about the cod ones, which is quickest",
        ] {
            assert!(parts(s).is_empty(), "{s}: {:?}", parts(s));
        }
    }
}
