//! Planning by day: "put the paneer on wednesday", "swap friday for the
//! pad see ew", "move them to friday", "take the cod off sunday". Saved straight to the meal plan — a
//! day that already has that meal is replaced, never doubled. ("let's do
//! the paneer on sunday" still drafts a plan to look over first.)

pub mod act;
pub mod plan;
pub mod reply;
pub mod slots;
pub mod write;

use serde::{Deserialize, Serialize};

use super::super::consent::is_question;
use super::super::lexicon::Cues;
use super::super::text::{Words, find_any, is_filler, stem};
use super::days::{days_at, is_day_word};
use super::when::Day;
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
    Move {
        from: Option<Day>,
        to: Day,
        /// The recipe's words when named ("move the wings to friday").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recipe: Option<Vec<String>>,
    },
    /// Two days trade their planned meals ("swap monday and tuesday").
    Exchange {
        days: (Day, Day),
        meal: Option<String>,
    },
    /// "whats on thursday", "anything planned next week", "and friday?"
    /// after a plan: what the plan holds on those days; nothing written.
    Look {
        days: Vec<Day>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        next_week: bool,
    },
    /// The days' planned meals taken off the plan ("take the cod off
    /// sunday", "clear friday", "clear tue and wed"); `recipe` names the
    /// one meant, when the words do.
    Remove {
        days: Vec<Day>,
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
            Ask::Exchange { .. } => "plan_exchange",
            Ask::Remove { .. } => "plan_remove",
            Ask::Look { .. } => "plan_look",
        }
    }
}

pub const PUT: &[&str] = &[
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
/// "lets do the wings on sat": a draft to look over before it is saved.
const DRAFT: &[&str] = &[
    "lets do",
    "let's do",
    "lets go with",
    "how about",
    "what about",
    "maybe",
    "we could",
    "i could",
    "could do",
    "we might",
    "might do",
];
/// Saying you will cook a recipe then: "can we have the curry tmrw", "im
/// making the cod friday". Puts it on the plan, as "put" does.
pub const COMMIT: &[&str] = &[
    "lets have",
    "well have",
    "we'll have",
    "well do",
    "we'll do",
    "im making",
    "i'm making",
    "ill make",
    "i'll make",
    "ill do",
    "gonna make",
    "gonna have",
    "gonna do",
    "going to make",
    "can we do",
    "can we have",
    "could we do",
    "could we have",
    "were having",
    "we're having",
    "cook the",
];
/// Words that are not part of a recipe's name here.
pub const NOT_RECIPE: &[&str] = &[
    "lets",
    "do",
    "have",
    "having",
    "making",
    "gonna",
    "going",
    "ill",
    "im",
    "well",
    "were",
    "could",
    "we",
    "cook",
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
    "brekkie",
    "brekky",
    "brunch",
    "supper",
    "lunches",
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
    "meals",
    "days",
    "round",
    "around",
    "over",
    "cooking",
    "idea",
    "ideas",
    "suggestion",
    "suggestions",
    "inspiration",
];

/// The servings the message said for a plan: the reader's ("just me",
/// "4 each"), else read from the words.
pub fn servings_said(r: &super::super::reading::Reading) -> Option<u32> {
    r.servings.or_else(|| servings(&r.words))
}

/// The servings a plan asks for: "for 4 people", "6 of us", or a bare
/// "for 4" said with the plan ("put it on friday for 4"), not "for 2
/// days" nor "for 7pm".
pub fn servings(w: &Words) -> Option<u32> {
    super::super::edits::servings(w).or_else(|| {
        w.words.windows(2).enumerate().find_map(|(i, p)| {
            let n = super::super::text::number(&p[1])?;
            let next = w.words.get(i + 2).map(String::as_str);
            let counted = matches!(
                next,
                Some(
                    "days"
                        | "day"
                        | "nights"
                        | "weeks"
                        | "pm"
                        | "am"
                        | "mins"
                        | "minutes"
                        | "hours"
                )
            );
            (p[0] == "for" && !counted && (1.0..=24.0).contains(&n) && n.fract() == 0.0)
                .then_some(n as u32)
        })
    })
}

/// The meal a message names ("dinner", "lunch", "breakfast").
pub fn meal_of(words: &[String]) -> Option<String> {
    words.iter().find_map(|w| match w.as_str() {
        "dinner" | "dinners" | "supper" | "tea" => Some("dinner".to_string()),
        "lunch" | "lunches" => Some("lunch".to_string()),
        "breakfast" | "brunch" | "brekkie" | "brekky" => Some("breakfast".to_string()),
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
                && !is_day_word(w)
                && !super::super::vocab::is_chatter(w)
                && !matches!(w.as_str(), "ya" | "yeah" | "yep" | "yh" | "em" | "ok" | "k")
        })
        .map(|w| stem(w))
        .collect()
}

pub fn pick_of(words: &[String]) -> Option<Pick> {
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
    if let Some(ask) = look(w, cues) {
        return Some(ask);
    }
    let whens = days_at(w);
    // Right after a plan, "actually what about saturday instead", "make
    // that friday": the meal just planned moves; no recipe is named.
    let redating = w.has_any(&[
        "instead",
        "make it",
        "make that",
        "what about",
        "how about",
        "rather",
        "change it to",
        "change that to",
        "move it",
        "switch it",
    ]);
    if cues.topic == Topic::Planning
        && redating
        && whens.len() == 1
        && (!is_question(w) || w.has_any(&["what about", "how about"]))
        && recipe_words(&w.words)
            .iter()
            .all(|x| super::super::vocab::links_to_nothing(x) || x == "actually")
    {
        return Some(Ask::Move {
            from: None,
            to: whens[0].1.day,
            recipe: None,
        });
    }
    let day = whens.last()?.1.day;
    if w.has_any(DRAFT) || w.has_any(&["save", "task", "remind", "shopping", "list"]) {
        return None;
    }
    let committed = w.has_any(PUT) || w.has_any(COMMIT);
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
    // "my flatmate cant eat fish, hes over on friday" rules fish out and
    // names a day; it puts nothing on it.
    let rules_out = || {
        super::super::items::exclusions(&w.segments, false)
            .iter()
            .any(|e| {
                super::super::vocab::is_food(&e.term)
                    || crate::context::taxonomy::is_family(&e.term)
            })
    };
    if !committed && !w.has_any(SWAP) && (refusing || rules_out()) {
        return None;
    }
    // "put the first one on sunday" counts in the list shown: the
    // drafting flow resolves ordinals ("on the 15th" is a date).
    let counting = w.words.iter().enumerate().any(|(i, x)| {
        super::super::text::ordinal(x).is_some() && !super::days::is_day_of_month(&w.words, i)
    });
    if counting {
        return None;
    }
    let meal = meal_of(&w.words);
    let off = w.words.iter().any(|x| x == "off" || x == "from");
    if w.has_any(REMOVE) || (off && w.has_any(&["take", "drop"])) {
        let named = recipe_words(&w.words);
        let mut days: Vec<Day> = Vec::new();
        for (_, d) in &whens {
            if !days.contains(&d.day) {
                days.push(d.day);
            }
        }
        return Some(Ask::Remove {
            days,
            meal,
            recipe: (!named.is_empty()).then_some(named),
        });
    }
    if let Some((i, _)) = find_any(&w.words, &["move", "push", "shift"]) {
        let before_move: Vec<Day> = whens
            .iter()
            .filter(|(p, _)| *p < i)
            .map(|(_, d)| d.day)
            .collect();
        let after: Vec<Day> = whens
            .iter()
            .filter(|(p, _)| *p > i)
            .map(|(_, d)| d.day)
            .collect();
        let to = *after.last().unwrap_or(&day);
        // "move the wings from thursday to friday": the first day after
        // the verb is where it was, when two follow.
        let from = match after.as_slice() {
            [from, _, ..] => Some(*from),
            _ => before_move.last().copied(),
        };
        let from = from.filter(|f| *f != to);
        // The recipe named between the verb and where it goes: "move the
        // wings to friday".
        let rest: Vec<String> = w.words[i + 1..]
            .iter()
            .take_while(|x| !matches!(x.as_str(), "to" | "from" | "onto" | "on" | "till"))
            .cloned()
            .collect();
        let named = recipe_words(&rest);
        return Some(Ask::Move {
            from,
            to,
            recipe: (!named.is_empty()).then_some(named),
        });
    }
    if let Some(ask) = swap(w, &whens, meal) {
        return ask;
    }
    // "should i cook the curry tmrw", "can i make the wings on friday":
    // asked whether, not told to, whatever plan words they hold.
    let wonders = super::super::consent::asks_information(w) || super::super::link::can_i_make(w);
    let asked = wonders || is_question(w) && !committed;
    let putting = committed || cues.topic == Topic::Planning || slots::on_a_day(w);
    if asked || !putting {
        return None;
    }
    let slots = slots::read(w, &whens);
    (!slots.is_empty()).then_some(Ask::Put { slots })
}

/// "whats on thursday", "anything planned for next week", "what are we
/// having tmrw", or "and friday?" right after a turn about the plan.
fn look(w: &Words, cues: Cues) -> Option<Ask> {
    const LOOK: &[&str] = &[
        "whats on",
        "what is on",
        "whats planned",
        "what is planned",
        "what have we got on",
        "what have i got on",
        "anything on",
        "anything planned",
        "anything for",
        "is there anything",
        "what are we having",
        "what am i having",
        "what are we eating",
        "whats for dinner",
        "whats for lunch",
        "whats for breakfast",
        "whats the plan",
        "what did i plan",
        "what did we plan",
        "whats happening",
        "do we have anything",
        "do i have anything",
        "got anything",
    ];
    // "and next week?": days alone, nothing named to put on them.
    let follow = cues.topic == Topic::Planning
        && w.words
            .first()
            .is_some_and(|x| x == "and" || x == "what" || x == "whats")
        && w.words.len() <= 5
        && !w.has_any(&["one", "other", "it", "that", "them"])
        && recipe_words(&w.words)
            .iter()
            .all(|x| super::super::vocab::links_to_nothing(x));
    if !(w.has_any(LOOK) || follow)
        || w.has_any(&["recipe", "recipes", "list", "fridge", "freezer"])
    {
        return None;
    }
    if w.has_any(&["put", "plan for", "schedule", "stick"]) && !w.has_any(&["planned"]) {
        return None;
    }
    let next_week = w.has_any(&["next week"]) && !w.has_any(&["next weekend"]);
    let mut days: Vec<Day> = days_at(w).into_iter().map(|(_, d)| d.day).collect();
    days.dedup();
    if days.is_empty() && !next_week {
        return None;
    }
    Some(Ask::Look { days, next_week })
}

/// "swap monday and tuesday" (the two days trade meals), "swap wednesday
/// to the chicken tikka bites", "make sunday the pad see ew instead of the
/// curry" (the day's meal replaced). `None` when no swap is asked;
/// `Some(None)` when one is, but it names nothing to swap in.
fn swap(
    w: &Words,
    whens: &[(usize, super::days::When)],
    meal: Option<String>,
) -> Option<Option<Ask>> {
    let (i, p) = find_any(&w.words, SWAP)?;
    let verb_end = i + p.split_whitespace().count();
    let rest = &w.words[verb_end..];
    let mut days: Vec<Day> = whens
        .iter()
        .filter(|(at, _)| *at >= verb_end)
        .map(|(_, d)| d.day)
        .collect();
    days.dedup();
    if let [a, b] = days.as_slice()
        && recipe_words(rest).is_empty()
        && pick_of(rest).is_none_or(|p| p == Pick::Shown)
        && p != "make"
    {
        return Some(Some(Ask::Exchange {
            days: (*a, *b),
            meal,
        }));
    }
    // The day right after the verb, then the recipe, to the end of that
    // clause ("… bites, the noodles need stuff") or its "instead".
    let (_, first) = whens.iter().find(|(at, _)| *at == verb_end)?;
    let clause_end = super::days::segment_starts(w)
        .iter()
        .zip(&w.segments)
        .map(|(start, seg)| start + seg.len())
        .find(|end| *end > verb_end)
        .unwrap_or(w.words.len());
    let end = rest
        .iter()
        .position(|x| matches!(x.as_str(), "instead" | "because" | "cause" | "as"))
        .unwrap_or(rest.len())
        .min(clause_end - verb_end);
    let recipe = pick_of(&rest[..end]);
    Some(recipe.map(|recipe| Ask::Swap {
        day: first.day,
        meal,
        recipe,
    }))
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
                to: Day::Weekday(4),
                recipe: None
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
                days: vec![Day::Weekday(6)],
                meal: None,
                recipe: Some(vec!["miso".into(), "cod".into()])
            })
        );
        assert_eq!(
            ask("clear friday dinner pls"),
            Some(Ask::Remove {
                days: vec![Day::Weekday(4)],
                meal: Some("dinner".into()),
                recipe: None
            })
        );
        assert_eq!(
            ask("clear tue and wed"),
            Some(Ask::Remove {
                days: vec![Day::Weekday(1), Day::Weekday(2)],
                meal: None,
                recipe: None
            })
        );
        assert_eq!(ask("remove eggs from the shopping list on friday"), None);
        assert_eq!(ask("add a task to defrost the chicken tomorrow"), None);
    }
}
