//! Tasks: the to-do list — what is open or due, a new task, one marked
//! done, one moved to another day, one deleted.

pub mod act;
pub mod plan;
pub mod reply;

use serde::{Deserialize, Serialize};

use crate::context::Table;

use super::super::lexicon::Cues;
use super::super::text::{Words, find_any, is_filler, stem};
use super::super::world::World;
use super::Topic;
use super::when::{Day, day_in, is_when_word};

/// What the user asks of their tasks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Ask {
    /// "what tasks do I have", "what's due before the weekend".
    List { window: Window, about: Vec<String> },
    /// "add a task to defrost the chicken tomorrow".
    Add { title: String, due: Option<Day> },
    /// "mark the air fryer one done", "tick off the paneer task".
    Done { about: Vec<String> },
    /// "make the defrost one thursday not tomorrow".
    Move { about: Vec<String>, due: Day },
    /// "delete the new one".
    Delete { about: Vec<String> },
}

/// Which open tasks a listing covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    All,
    Today,
    /// Due by tomorrow ("what's on for tmrw").
    Tomorrow,
    ThisWeek,
    BeforeWeekend,
}

impl Ask {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Ask::List { .. } => "tasks_list",
            Ask::Add { .. } => "tasks_add",
            Ask::Done { .. } => "tasks_done",
            Ask::Move { .. } => "tasks_move",
            Ask::Delete { .. } => "tasks_delete",
        }
    }
}

const TASK_WORDS: &[&str] = &[
    "task",
    "tasks",
    "todo",
    "todos",
    "to do",
    "to-do",
    "reminder",
    "reminders",
    "chores",
];
const ADD: &[&str] = &[
    "add a task",
    "add task",
    "new task",
    "add a reminder",
    "set a reminder",
    "remind me to",
    "dont let me forget to",
    "do not let me forget to",
    "i need to remember to",
    "need to remember to",
    "remember to",
    "must remember to",
    "dont forget to",
    "make a task",
    "create a task",
    "put a task",
    "add one for",
    "add one to",
    "and one to",
    "another one to",
    "and one for",
    "another one for",
    "one for",
    "add a todo",
    "add to my todo",
];
const DONE: &[&str] = &[
    "mark",
    "tick off",
    "tick",
    "cross off",
    "check off",
    "done with",
    "finished with",
    "completed",
    "complete",
    "did the",
    "ive done",
    "done the",
    "thats done",
    "its done",
    "is done",
    "are done",
    "all done with",
];
const MOVE: &[&str] = &[
    "move",
    "make the",
    "change the",
    "push",
    "reschedule",
    "make it",
    "change it",
];
const DELETE: &[&str] = &["delete", "remove", "get rid of", "drop", "cancel", "scrap"];

/// Words that say nothing about which task.
const NOT_ABOUT: &[&str] = &[
    "task",
    "tasks",
    "todo",
    "todos",
    "reminder",
    "mark",
    "done",
    "tick",
    "off",
    "cross",
    "check",
    "complete",
    "completed",
    "finished",
    "move",
    "push",
    "change",
    "make",
    "delete",
    "remove",
    "open",
    "still",
    "btw",
    "ya",
    "yeah",
    "yes",
    "ok",
    "okay",
    "left",
    "due",
    "new",
    "already",
    "isnt",
    "there",
    "theres",
    "with",
    "list",
    "reschedule",
    "cancel",
    "drop",
    "scrap",
    "get",
    "rid",
    "ive",
    "did",
    "thing",
    "instead",
    "week",
    "weekend",
];

/// The words that say which task: "the air fryer one" → air, fryer.
fn about(w: &Words) -> Vec<String> {
    w.words
        .iter()
        .filter(|x| !is_filler(x) && !NOT_ABOUT.contains(&x.as_str()) && !is_when_word(x))
        .map(|x| stem(x))
        .collect()
}

/// The skill's reading of a message.
pub fn read(w: &Words, cues: Cues) -> Option<Ask> {
    let tasky = w.has_any(TASK_WORDS);
    let carrying = cues.topic == Topic::Tasks;
    if let Some((i, p)) = find_any(&w.words, ADD) {
        let bare_one = (p.ends_with("one for") || p.ends_with("one to")) && !carrying;
        if !bare_one {
            let rest = &w.words[i + p.split_whitespace().count()..];
            let title = title_of(rest);
            if !title.is_empty() {
                return Some(Ask::Add {
                    title,
                    due: day_in(rest),
                });
            }
        }
    }
    if !tasky && !carrying {
        return None;
    }
    let elsewhere = &[
        "shopping",
        "bought",
        "recipe",
        "plan",
        "fridge",
        "freezer",
        "pantry",
        "inventory",
        "list",
    ];
    if !tasky && w.has_any(elsewhere) {
        return None;
    }
    // Carrying on from a turn about tasks, a bare "mark it done" or "delete
    // the new one" is about them; naming something else is not.
    let pointing = tasky || about(w).is_empty() || w.has("one");
    if w.has_any(DELETE) && pointing {
        return Some(Ask::Delete { about: about(w) });
    }
    if w.has_any(DONE) && pointing && !w.question_mark {
        return Some(Ask::Done { about: about(w) });
    }
    if let Some(due) = day_in(&w.words)
        && w.has_any(MOVE)
    {
        return Some(Ask::Move {
            about: about(w),
            due,
        });
    }
    let asking = w.question_mark
        || w.has_any(&[
            "isnt there",
            "still open",
            "already",
            "is there",
            "any more",
            "whats",
        ]);
    (tasky || asking).then(|| Ask::List {
        window: window(w),
        about: about(w),
    })
}

/// A message that names a task the session already knows ("make the
/// defrost one thursday") with a verb for it, though it never says "task".
pub fn refine(w: &Words, world: &World<'_>) -> Option<Ask> {
    let about = about(w);
    if about.is_empty() || !w.has_any(&["one", "task", "reminder"]) {
        return None;
    }
    let named = world.ents.iter().any(|e| {
        e.e.table == Table::Tasks && {
            let label = e.label_stems();
            about.iter().any(|a| label.contains(a))
        }
    });
    if !named {
        return None;
    }
    if w.has_any(DELETE) {
        return Some(Ask::Delete { about });
    }
    if w.has_any(DONE) {
        return Some(Ask::Done { about });
    }
    let due = day_in(&w.words)?;
    w.has_any(MOVE).then_some(Ask::Move { about, due })
}

fn window(w: &Words) -> Window {
    if w.has_any(&[
        "before the weekend",
        "before weekend",
        "by friday",
        "before saturday",
    ]) {
        Window::BeforeWeekend
    } else if w.has_any(&["this week", "next few days", "coming up"]) {
        Window::ThisWeek
    } else if w.has_any(&["today", "tonight"]) {
        Window::Today
    } else if w.has_any(&["tomorrow", "tmrw", "tmr", "tomoz", "tomorow", "2moro"]) {
        Window::Tomorrow
    } else {
        Window::All
    }
}

/// "to defrost the chicken tomorrow" → "Defrost the chicken": the words of
/// the task without when it is due.
fn title_of(rest: &[String]) -> String {
    let mut words: Vec<&str> = rest.iter().map(String::as_str).collect();
    if words.first() == Some(&"to") {
        words.remove(0);
    }
    // Drop the day and the words tied to it ("on thursday", "wed night",
    // "by friday", "tomorrow morning").
    let mut kept: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let next_is_day = words.get(i + 1).is_some_and(|n| Day::of_word(n).is_some());
        if Day::of_word(w).is_some() {
            i += 1;
            while words
                .get(i)
                .is_some_and(|n| super::when::DAY_PARTS.contains(n))
            {
                i += 1;
            }
            continue;
        }
        if matches!(w, "on" | "by" | "for" | "this" | "next" | "due") && next_is_day {
            i += 1;
            continue;
        }
        kept.push(w);
        i += 1;
    }
    while kept
        .last()
        .is_some_and(|w| matches!(*w, "please" | "pls" | "thanks" | "too" | "as" | "well"))
    {
        kept.pop();
    }
    let text = kept.join(" ");
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(s: &str) -> Option<Ask> {
        read(&Words::new(s), Cues::default())
    }

    #[test]
    fn tasks_as_people_type_them() {
        assert!(matches!(
            ask("what tasks do i have"),
            Some(Ask::List {
                window: Window::All,
                ..
            })
        ));
        assert!(matches!(
            ask("what tasks are due before the weekend"),
            Some(Ask::List {
                window: Window::BeforeWeekend,
                ..
            })
        ));
        assert!(matches!(
            ask("whats left on my todo"),
            Some(Ask::List { .. })
        ));
        assert_eq!(
            ask("add a task to defrost the chicken tomorrow"),
            Some(Ask::Add {
                title: "Defrost the chicken".into(),
                due: Some(Day::Tomorrow)
            })
        );
        assert_eq!(
            ask("remind me to defrost chicken saturday night"),
            Some(Ask::Add {
                title: "Defrost chicken".into(),
                due: Some(Day::Weekday(5))
            })
        );
        assert_eq!(
            ask("add a task to take the chicken out the freezer wed night for the curry"),
            Some(Ask::Add {
                title: "Take the chicken out the freezer for the curry".into(),
                due: Some(Day::Weekday(2))
            })
        );
        let tasks = Cues {
            topic: Topic::Tasks,
            ..Cues::default()
        };
        assert_eq!(
            read(&Words::new("mark the air fryer one done"), tasks),
            Some(Ask::Done {
                about: vec!["air".into(), "fryer".into()]
            })
        );
        assert!(matches!(
            ask("and tick off the paneer task"),
            Some(Ask::Done { .. })
        ));
        assert!(matches!(
            read(
                &Words::new("actually make the defrost one thursday not tomorrow"),
                tasks
            ),
            Some(Ask::Move {
                due: Day::Weekday(3),
                ..
            })
        ));
        assert_eq!(ask("what can i make tonight"), None);
        assert_eq!(
            ask("and one for friday"),
            None,
            "no task was being talked about"
        );
        let carrying = Cues {
            topic: Topic::Tasks,
            ..Cues::default()
        };
        assert!(matches!(
            read(
                &Words::new("and one for making the paneer tikka on thursday"),
                carrying
            ),
            Some(Ask::Add {
                due: Some(Day::Weekday(3)),
                ..
            })
        ));
    }
}
