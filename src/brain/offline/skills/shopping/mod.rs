//! Shopping: taking things off the list, clearing what was bought or the
//! whole list, and "is X on there?". (Adding and showing the list are the
//! lexicon's `ShoppingAdd` and `ShoppingList`.)

pub mod act;
pub mod reply;

use serde::{Deserialize, Serialize};

use super::super::lexicon::Cues;
use super::super::text::Words;
use super::Topic;
use super::{Named, named_items};

/// What the user asks of the shopping list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Ask {
    /// "take the olive oil off", "take it off too".
    Remove { items: Vec<Named> },
    /// "clear the bought stuff".
    ClearBought,
    /// "clear the whole list".
    ClearAll,
    /// "is olive oil on there?".
    Has { items: Vec<Named> },
}

impl Ask {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Ask::Remove { .. } => "shopping_remove",
            Ask::ClearBought => "shopping_clear_bought",
            Ask::ClearAll => "shopping_clear_all",
            Ask::Has { .. } => "shopping_has",
        }
    }
}

const LIST: &[&str] = &[
    "shopping list",
    "shopping",
    "the list",
    "my list",
    "on there",
    "off the list",
    "list",
];
const REMOVE: &[&str] = &[
    "take",
    "remove",
    "delete",
    "cross off",
    "drop",
    "get rid of",
    "scratch",
];
const NOT_ITEM: &[&str] = &[
    "take", "remove", "delete", "cross", "drop", "get", "rid", "scratch", "off", "back", "list",
    "shopping", "there", "need", "dont", "already", "too", "then", "yeah", "ok", "okay", "on",
    "right", "thought", "had", "some", "i", "is", "are", "needs", "wait", "still", "ya", "please",
];
/// The items named, segment by segment; "it"/"them" for what was shown.
fn named(w: &Words) -> Vec<Named> {
    named_items(w, NOT_ITEM)
}

/// The skill's reading of a message.
pub fn read(w: &Words, cues: Cues) -> Option<Ask> {
    let listy = w.has_any(LIST);
    let carrying = cues.topic == Topic::Shopping;
    if !listy && !carrying {
        return None;
    }
    if w.has_any(&["clear", "empty", "wipe", "start the list over", "new list"]) {
        if w.has_any(&["bought", "ticked", "done", "got", "purchased"]) {
            return Some(Ask::ClearBought);
        }
        if listy {
            return Some(Ask::ClearAll);
        }
    }
    let off = w.has_any(&["off", "remove", "delete", "get rid of", "scratch"]);
    if off && w.has_any(REMOVE) || (listy && w.has("off")) {
        let items = named(w);
        if !items.is_empty() {
            return Some(Ask::Remove { items });
        }
    }
    let asking = w.question_mark || w.has_any(&["is it on", "is there", "already"]);
    if asking && (w.has_any(&["on there", "on the list", "on my list", "on it"]) || listy) {
        let items = named(w);
        if !items.is_empty() && !w.has_any(&["whats", "what"]) {
            return Some(Ask::Has { items });
        }
    }
    None
}

/// Think for the shopping list: read it, then take off what was asked.
pub fn plan(ask: &Ask) -> crate::pipeline::ThinkOutput {
    use super::super::think::{self, step};
    use crate::pipeline::StepType;
    let read = step(
        "Read the shopping list".into(),
        StepType::Read,
        "shopping",
        0,
    );
    let (goal, write) = match ask {
        Ask::Has { .. } => return think::plan("Check the shopping list", vec![read]),
        Ask::Remove { .. } => (
            "Take the items off the shopping list",
            "Delete the items named",
        ),
        Ask::ClearBought => ("Clear what was bought", "Delete the items marked bought"),
        Ask::ClearAll => ("Clear the shopping list", "Delete every item on the list"),
    };
    think::plan(
        goal,
        vec![read, step(write.into(), StepType::Write, "shopping", 1)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(s: &str) -> Option<Ask> {
        read(&Words::new(s), Cues::default())
    }

    #[test]
    fn the_list_as_people_type_it() {
        let item = |s: &str| Named::Item(s.into());
        assert_eq!(
            ask("take tomatos off the list"),
            Some(Ask::Remove {
                items: vec![item("tomato")]
            })
        );
        assert_eq!(
            ask("the tomatoes. off the shopping list"),
            Some(Ask::Remove {
                items: vec![item("tomato")]
            })
        );
        let on_the_list = Cues {
            topic: Topic::Shopping,
            ..Cues::default()
        };
        assert_eq!(
            read(
                &Words::new("and clear the bought stuff while ur at it"),
                on_the_list
            ),
            Some(Ask::ClearBought)
        );
        assert_eq!(
            ask("ok just clear the whole list, starting fresh"),
            Some(Ask::ClearAll)
        );
        assert_eq!(
            ask("is olive oil on there"),
            None,
            "without a question mark it is not read as asking"
        );
        assert_eq!(
            ask("is olive oil on the list?"),
            Some(Ask::Has {
                items: vec![item("olive oil")]
            })
        );
        assert_eq!(ask("whats on the shopping list"), None);
        let carrying = Cues {
            topic: Topic::Shopping,
            ..Cues::default()
        };
        assert_eq!(
            read(&Words::new("take it off too"), carrying),
            Some(Ask::Remove {
                items: vec![Named::Shown]
            })
        );
        assert_eq!(
            read(&Words::new("take the olive oil off"), carrying),
            Some(Ask::Remove {
                items: vec![item("olive oil")]
            })
        );
    }
}
