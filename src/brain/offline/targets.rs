//! The words of a message that can name an entity: what is left once
//! filler, command verbs, days, ordinals and the items of an edit are taken
//! out ("add more garlic to that recipe" → nothing, so "that recipe" points
//! back; "show me that shakshuka" → "shakshuka").
//!
//! Pure word filtering; the matching itself is `resolve.rs`.

use super::edits::EditOp;
use super::text::{is_filler, ordinal, weekday_abbrev};

/// Command and chatter words that never name an entity.
const NOT_NAMES: &[&str] = &[
    "show",
    "see",
    "open",
    "view",
    "display",
    "pull",
    "save",
    "keep",
    "store",
    "add",
    "put",
    "throw",
    "toss",
    "chuck",
    "pop",
    "bung",
    "stick",
    "lob",
    "stir",
    "remove",
    "take",
    "forget",
    "mind",
    "never",
    "nevermind",
    "scratch",
    "scrap",
    "drop",
    "skip",
    "bring",
    "back",
    "include",
    "go",
    "pick",
    "choose",
    "ill",
    "well",
    "looks",
    "look",
    "good",
    "great",
    "sounds",
    "perfect",
    "only",
    "just",
    "recipe",
    "recipes",
    "plan",
    "meal",
    "meals",
    "dinner",
    "lunch",
    "breakfast",
    "thanks",
    "tell",
    "details",
    "full",
    "cook",
    "made",
    "tonight",
    "tomorrow",
    "squeeze",
    "pinch",
    "extra",
    "fine",
    "actually",
    "changed",
    "change",
    "mind",
    "sure",
    "yes",
    "yeah",
    "please",
    "first",
    "second",
    "third",
    "last",
    "latter",
    "former",
    "number",
    "option",
    "ones",
    "can",
    "you",
    "could",
    "would",
    "that",
    "those",
    "these",
    "him",
    "her",
    "idea",
    "ideas",
    "nice",
    "love",
    "sounds",
    "ok",
    "okay",
    "alright",
    "cool",
    "awesome",
    "reinstate",
    "into",
    "onto",
    "instead",
    "swap",
    "replace",
    "use",
    "using",
    "swap",
    "for",
    "dish",
    "sunday",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "again",
    "without",
    "leave",
    "out",
    "skip",
    "remove",
    "minus",
    "hold",
    "less",
    "lot",
    "little",
];

/// The words that can name a saved recipe: the talk around it ("i was
/// thinking", "um", "you know") left out.
pub fn name_words(words: &[String]) -> Vec<String> {
    content_words(words)
        .into_iter()
        .filter(|x| !super::vocab::is_chatter(x) && !TALK.contains(&x.as_str()))
        .collect()
}

/// Words of talk around a plan weighed aloud, never part of a name.
const TALK: &[&str] = &[
    "thinking",
    "thought",
    "think",
    "know",
    "hey",
    "guess",
    "wondering",
    "reckon",
    "feel",
    "feeling",
    "fancy",
    "mood",
];

/// The words that can name an entity.
pub fn content_words(words: &[String]) -> Vec<String> {
    words
        .iter()
        .filter(|w| !is_filler(w))
        .filter(|w| !NOT_NAMES.contains(&w.as_str()))
        .filter(|w| weekday_abbrev(w).is_none() && ordinal(w).is_none())
        .filter(|w| w.parse::<f64>().is_err())
        .cloned()
        .collect()
}

/// The words of an edit request that point at the recipe, without the
/// ingredients being added, removed or swapped.
pub fn edit_words(words: &[String], op: &EditOp) -> Vec<String> {
    let mut item_words: Vec<String> = Vec::new();
    let mut push = |s: &str| item_words.extend(s.split_whitespace().map(String::from));
    for part in op.parts() {
        match part {
            EditOp::Add(items) => items.iter().for_each(|i| {
                push(&i.phrase);
                push(&i.name);
            }),
            EditOp::Remove(names) => names.iter().for_each(|n| push(n)),
            EditOp::Swap { from, to } => {
                push(from);
                push(to);
            }
            _ => {}
        }
    }
    let stem_item: Vec<String> = item_words.iter().map(|w| super::text::stem(w)).collect();
    words
        .iter()
        .filter(|w| !item_words.contains(w) && !stem_item.contains(&super::text::stem(w)))
        .filter(|w| {
            !matches!(
                w.as_str(),
                "spicier"
                    | "milder"
                    | "spicy"
                    | "hotter"
                    | "vegetarian"
                    | "veggie"
                    | "double"
                    | "halve"
                    | "half"
                    | "people"
                    | "servings"
                    | "serves"
                    | "portions"
                    | "heat"
                    | "kick"
                    | "less"
                    | "more"
                    | "tone"
                    | "scale"
            )
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::edits::parse_edit;
    use super::super::text::Words;
    use super::*;

    fn w(s: &str) -> Vec<String> {
        Words::new(s).words
    }

    #[test]
    fn names_survive_commands_and_days_do_not() {
        assert_eq!(content_words(&w("show me that shakshuka")), ["shakshuka"]);
        assert_eq!(
            content_words(&w("let's do the paneer on Sunday")),
            ["paneer"]
        );
        assert!(content_words(&w("save only the first one")).is_empty());
        assert!(content_words(&w("looks good, save the plan")).is_empty());
    }

    #[test]
    fn edit_items_are_not_targets() {
        let words = w("add more garlic to that recipe");
        let op = parse_edit(&Words::new("add more garlic to that recipe")).unwrap();
        assert!(content_words(&edit_words(&words, &op)).is_empty());
        let words = w("add feta to the shakshuka");
        let op = parse_edit(&Words::new("add feta to the shakshuka")).unwrap();
        assert_eq!(content_words(&edit_words(&words, &op)), ["shakshuka"]);
    }
}
