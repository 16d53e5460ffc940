//! Planning by day: "put the paneer on wednesday", "swap friday for the
//! pad see ew", "move them to friday", "take the cod off sunday". Saved straight to the meal plan — a
//! day that already has that meal is replaced, never doubled. ("let's do
//! the paneer on sunday" still drafts a plan to look over first.)

pub mod act;
pub mod plan;
pub mod reply;

use serde::{Deserialize, Serialize};

use super::super::consent::is_question;
use super::super::lexicon::Cues;
use super::super::text::{Words, find_any, is_filler, stem};
use super::when::{DAY_PARTS, Day, day_in};
use super::{POINTING, Topic};

/// What the user asks of the meal plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Ask {
    /// Recipes on days, saved now.
    Put { slots: Vec<Slot> },
    /// A day's meal replaced by another recipe.
    Swap {
        day: Day,
        meal: Option<String>,
        recipe: Pick,
    },
    /// A planned meal moved to another day.
    Move { from: Option<Day>, to: Day },
    /// A day's planned meal taken off the plan ("take the cod off sunday",
    /// "clear friday"); `recipe` names the one meant, when the words do.
    Remove {
        day: Day,
        meal: Option<String>,
        recipe: Option<Vec<String>>,
    },
}

/// One recipe on one day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Slot {
    pub recipe: Pick,
    pub day: Day,
    pub meal: Option<String>,
}

/// Which recipe: by the words of its name, the one just shown ("it"), or
/// one to choose among ("something with chicken").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    Named(Vec<String>),
    Shown,
    /// "and the other one sunday": the one of the two listed not yet on
    /// the plan.
    Other,
    Search(Vec<String>),
}

impl Ask {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Ask::Put { .. } => "plan_put",
            Ask::Swap { .. } => "plan_swap",
            Ask::Move { .. } => "plan_move",
            Ask::Remove { .. } => "plan_remove",
        }
    }
}

pub(super) const PUT: &[&str] = &[
    "put", "stick", "pop", "plan", "schedule", "add", "pencil", "book", "slot", "have the",
];
const SWAP: &[&str] = &["swap", "change", "replace", "switch", "make"];
/// Taking a meal off: these alone, or "take"/"drop" with "off" or "from".
const REMOVE: &[&str] = &[
    "remove",
    "clear",
    "cancel",
    "delete",
    "scrap",
    "unplan",
    "get rid of",
];
const DRAFT: &[&str] = &[
    "lets do",
    "let's do",
    "lets go with",
    "how about",
    "what about",
    "maybe",
];
/// Words that are not part of a recipe's name here.
const NOT_RECIPE: &[&str] = &[
    "put",
    "stick",
    "pop",
    "plan",
    "plans",
    "schedule",
    "add",
    "pencil",
    "book",
    "slot",
    "swap",
    "change",
    "replace",
    "switch",
    "make",
    "move",
    "anyway",
    "then",
    "tonights",
    "dinner",
    "dinners",
    "lunch",
    "breakfast",
    "both",
    "for",
    "on",
    "ok",
    "okay",
    "yeah",
    "go",
    "nah",
    "actually",
    "nvm",
    "wait",
    "instead",
    "meal",
    "week",
    "cool",
    "hmm",
    "please",
    "too",
    "keep",
    "so",
    "gets",
    "used",
    "can",
    "wait",
    "take",
    "off",
    "from",
    "remove",
    "clear",
    "cancel",
    "delete",
    "drop",
    "scrap",
    "plan",
    "get",
    "rid",
    "of",
    "u",
    "pls",
];

fn meal_of(words: &[String]) -> Option<String> {
    words.iter().find_map(|w| match w.as_str() {
        "dinner" | "dinners" | "supper" | "tea" => Some("dinner".to_string()),
        "lunch" | "lunches" => Some("lunch".to_string()),
        "breakfast" | "brunch" => Some("breakfast".to_string()),
        _ => None,
    })
}

/// The recipe words of a stretch of words (no days, meals or verbs).
fn recipe_words(words: &[String]) -> Vec<String> {
    words
        .iter()
        .filter(|w| {
            !is_filler(w)
                && !NOT_RECIPE.contains(&w.as_str())
                && Day::of_word(w).is_none()
                && !DAY_PARTS.contains(&w.as_str())
        })
        .map(|w| stem(w))
        .collect()
}

fn pick_of(words: &[String]) -> Option<Pick> {
    if words
        .windows(2)
        .any(|p| p[0] == "other" && matches!(p[1].as_str(), "one" | "recipe" | "dish"))
    {
        return Some(Pick::Other);
    }
    let named = recipe_words(words);
    let searching = find_any(
        words,
        &["something with", "anything with", "something", "one with"],
    );
    if let Some((i, p)) = searching {
        let rest = &words[i + p.split_whitespace().count()..];
        return Some(Pick::Search(recipe_words(rest)));
    }
    if !named.is_empty() {
        return Some(Pick::Named(named));
    }
    words
        .iter()
        .any(|w| POINTING.contains(&w.as_str()))
        .then_some(Pick::Shown)
}

/// The skill's reading of a message.
pub fn read(w: &Words, cues: Cues) -> Option<Ask> {
    let day = day_in(&w.words)?;
    if w.has_any(DRAFT) || w.has_any(&["save", "task", "remind", "shopping", "list"]) {
        return None;
    }
    // "got 6 eggs today, pop them in the fridge": the day is when, the
    // fridge is where; that is the pantry's.
    if super::super::items::location(&w.words).is_some() {
        return None;
    }
    // "no curry on friday" rules something out; "wait no friday" corrects
    // the day.
    let refusing = w.words.windows(2).any(|p| {
        matches!(
            p[0].as_str(),
            "no" | "not" | "skip" | "without" | "nothing" | "dont" | "avoid"
        ) && Day::of_word(&p[1]).is_none()
    });
    if refusing && !w.has_any(PUT) && !w.has_any(SWAP) {
        return None;
    }
    // "put the first one on sunday" counts in the list shown: the
    // drafting flow resolves ordinals.
    if w.words
        .iter()
        .any(|x| super::super::text::ordinal(x).is_some())
    {
        return None;
    }
    let meal = meal_of(&w.words);
    let off = w.words.iter().any(|x| x == "off" || x == "from");
    if w.has_any(REMOVE) || (off && w.has_any(&["take", "drop"])) {
        let named = recipe_words(&w.words);
        return Some(Ask::Remove {
            day,
            meal,
            recipe: (!named.is_empty()).then_some(named),
        });
    }
    if let Some((i, _)) = find_any(&w.words, &["move", "push", "shift"]) {
        let before_move: Vec<Day> = w.words[..i]
            .iter()
            .filter_map(|x| Day::of_word(x))
            .collect();
        let after: Vec<Day> = w.words[i..]
            .iter()
            .filter_map(|x| Day::of_word(x))
            .collect();
        let to = *after.last().unwrap_or(&day);
        let from = before_move.last().copied().filter(|f| *f != to);
        return Some(Ask::Move { from, to });
    }
    if let Some((i, p)) = find_any(&w.words, SWAP) {
        // "swap wednesday to/for X", "make sunday the pad see ew instead
        // of the curry": the day right after the verb, then the recipe.
        let rest = &w.words[i + p.split_whitespace().count()..];
        if let Some(d) = rest.first().and_then(|x| Day::of_word(x)) {
            let seg_end = rest
                .iter()
                .position(|x| matches!(x.as_str(), "instead" | "because" | "cause" | "as"))
                .unwrap_or(rest.len());
            let first_seg = w
                .segments
                .iter()
                .find(|s| s.iter().any(|x| Day::of_word(x) == Some(d)))
                .map_or(rest.len(), |s| s.len());
            let end = seg_end.min(first_seg.saturating_sub(1).max(1));
            let recipe = pick_of(&rest[1..end.max(1)])?;
            return Some(Ask::Swap {
                day: d,
                meal,
                recipe,
            });
        }
    }
    let asked = is_question(w) && !w.has_any(PUT);
    // "the paneer on friday", "tikka bites for sunday": a recipe put on a
    // day in words, even without a verb ("paneer tonight for" is not, and
    // neither is "for wednesday paneer", where no recipe comes first).
    let on_a_day = w.words.windows(2).enumerate().any(|(i, p)| {
        matches!(p[0].as_str(), "on" | "for")
            && Day::of_word(&p[1]).is_some()
            && pick_of(&w.words[..i]).is_some()
    });
    let putting = w.has_any(PUT) || cues.topic == Topic::Planning || on_a_day;
    if asked || !putting {
        return None;
    }
    let mut slots: Vec<Slot> = Vec::new();
    for seg in &w.segments {
        let question = seg.first().is_some_and(|x| {
            matches!(
                x.as_str(),
                "whats" | "what" | "which" | "how" | "is" | "does"
            )
        });
        let d = day_in(seg);
        // "ugh no eggs. put it on wednesday": a clause that names no day
        // and asks for nothing is chatter, not a recipe to plan.
        let segw = Words::new(&seg.join(" "));
        let chatter = d.is_none()
            && w.segments.len() > 1
            && (segw.has_any(&["no", "not", "dont", "without", "ugh", "need", "needs"])
                || !segw.has_any(PUT));
        if question || chatter {
            continue;
        }
        let pick = pick_of(seg);
        match (d, pick, slots.last_mut()) {
            (Some(d), Some(p), _) => slots.push(Slot {
                recipe: p,
                day: d,
                meal: meal_of(seg).or_else(|| meal.clone()),
            }),
            // "… on thursday. wait no friday": the later day corrects.
            (Some(d), None, Some(last)) => last.day = d,
            (None, Some(p), _) => slots.push(Slot {
                recipe: p,
                day,
                meal: meal.clone(),
            }),
            _ => {}
        }
    }
    (!slots.is_empty()).then_some(Ask::Put { slots })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(s: &str) -> Option<Ask> {
        read(&Words::new(s), Cues::default())
    }
    fn named(s: &str) -> Pick {
        Pick::Named(s.split_whitespace().map(String::from).collect())
    }

    #[test]
    fn plans_as_people_type_them() {
        assert_eq!(
            ask(
                "put the paneer tikka on wednesday and the yellow curry on sunday, both for dinner"
            ),
            Some(Ask::Put {
                slots: vec![
                    Slot {
                        recipe: named("paneer tikka"),
                        day: Day::Weekday(2),
                        meal: Some("dinner".into())
                    },
                    Slot {
                        recipe: named("yellow curry"),
                        day: Day::Weekday(6),
                        meal: Some("dinner".into())
                    },
                ]
            })
        );
        assert_eq!(
            ask("cool put it on tommorow for dinner"),
            Some(Ask::Put {
                slots: vec![Slot {
                    recipe: Pick::Shown,
                    day: Day::Tomorrow,
                    meal: Some("dinner".into())
                }]
            })
        );
        assert_eq!(
            ask("and the pad see ew on thursday. wait no friday"),
            Some(Ask::Put {
                slots: vec![Slot {
                    recipe: named("pad see ew"),
                    day: Day::Weekday(4),
                    meal: None
                }]
            })
        );
        assert_eq!(
            ask(
                "actually swap wednesday to the chicken tikka bites, the noodles need stuff i dont have"
            ),
            Some(Ask::Swap {
                day: Day::Weekday(2),
                meal: None,
                recipe: named("chicken tikka bite")
            })
        );
        assert_eq!(
            ask("and make sunday the pad see ew instead of the curry"),
            Some(Ask::Swap {
                day: Day::Weekday(6),
                meal: None,
                recipe: named("pad see ew")
            })
        );
        assert_eq!(
            ask("hmm actually swap wednesday for something with chicken"),
            Some(Ask::Swap {
                day: Day::Weekday(2),
                meal: None,
                recipe: Pick::Search(vec!["chicken".into()])
            })
        );
        assert_eq!(
            ask("nah keep the wings. actually nvm thursday, move them to friday"),
            Some(Ask::Move {
                from: Some(Day::Weekday(3)),
                to: Day::Weekday(4)
            })
        );
        assert_eq!(
            ask("let's do the paneer on sunday and the curry on wednesday"),
            None
        );
        assert_eq!(ask("wait thursday is the 15th yeah?"), None);
        assert_eq!(
            ask("take the miso cod off sunday"),
            Some(Ask::Remove {
                day: Day::Weekday(6),
                meal: None,
                recipe: Some(vec!["miso".into(), "cod".into()])
            })
        );
        assert_eq!(
            ask("clear friday dinner pls"),
            Some(Ask::Remove {
                day: Day::Weekday(4),
                meal: Some("dinner".into()),
                recipe: None
            })
        );
        assert_eq!(ask("remove eggs from the shopping list on friday"), None);
        assert_eq!(ask("add a task to defrost the chicken tomorrow"), None);
    }
}
