//! Links a message to the kitchen's closed world: the saved recipe its
//! words name ("the yellow curry" is Thai Yellow Curry, "wings" is Dry
//! Rub Wings), read against the names the kitchen holds this turn.
//!
//! A reading that the closed world contradicts is read again: a new
//! recipe drafted for a name the kitchen already has ("lets have the
//! yellow curry tmrw" plans the saved one), a stock question about a dish
//! ("can i make the french toast").
//!
//! Pure: words and names in, a link or a reading out.

use crate::pipeline::KitchenNames;

use super::consent::{asks_for_change, asks_information};
use super::lexicon::Intent;
use super::several::Part;
use super::skills::days::{When, days_at, days_in, is_day_word};
use super::skills::planning::{Ask as PlanningAsk, PUT, Pick, Slot, meal_of};
use super::skills::recipes::{Ask as RecipesAsk, Detail, Which};
use super::skills::shopping::Ask as ShoppingAsk;
use super::skills::stock::Ask as StockAsk;
use super::skills::{Named, SkillAsk};
use super::text::{Words, is_filler, near, stem};
use super::vocab::{is_food_word, is_known};

/// Words of a recipe's name that say how it is cooked, not which it is.
const WEAK: &[&str] = &["air", "fryer", "the", "with", "and", "of", "a", "in"];

/// What a message's words name among the saved recipes.
#[derive(Debug, Clone, PartialEq)]
pub enum Linked {
    None,
    /// One recipe, by its saved name.
    One(String),
    /// Several fit as well as each other ("the curry", "tikka").
    Several(Vec<String>),
}

/// The stemmed words of a name.
pub fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| stem(&w.to_lowercase()))
        .collect()
}

/// The saved recipe `words` name. A recipe fits by the words of its name
/// the message holds (a typo's distance apart); the best fit wins when it
/// is the only one, and counts when it holds two of the name's words, or
/// one that no other recipe's name has ("wings", "pedas").
pub fn recipe(words: &[String], names: &[String]) -> Linked {
    named_by(words, names, WEAK)
}

/// The open task `words` name, by the words of its title ("the air fryer
/// one", "paneer one").
pub fn task(words: &[String], titles: &[String]) -> Linked {
    named_by(
        words,
        titles,
        &[
            "the", "a", "of", "and", "in", "with", "up", "before", "it", "to",
        ],
    )
}

/// The names `words` name, scored as [`recipe`] says, `weak` words of a
/// name counting for nothing.
fn named_by(words: &[String], names: &[String], weak: &[&str]) -> Linked {
    let said: Vec<String> = words
        .iter()
        .filter(|w| !is_filler(w))
        .map(|w| stem(w))
        .collect();
    let named: Vec<Vec<String>> = names.iter().map(|n| tokens(n)).collect();
    let holds = |t: &String| said.iter().any(|s| near(s, t));
    let scored: Vec<(usize, usize, bool)> = named
        .iter()
        .enumerate()
        .map(|(i, toks)| {
            let hits: Vec<&String> = toks
                .iter()
                .filter(|t| !weak.contains(&t.as_str()) && holds(t))
                .collect();
            let own = hits.iter().any(|t| {
                named
                    .iter()
                    .enumerate()
                    .all(|(j, other)| j == i || !other.contains(t))
            });
            (i, hits.len(), own)
        })
        .filter(|&(_, n, own)| n >= 2 || (n == 1 && own))
        .collect();
    let Some(best) = scored.iter().map(|s| s.1).max() else {
        // One shared word ("curry", "tikka"): each recipe that has it.
        let shared: Vec<String> = named
            .iter()
            .enumerate()
            .filter(|(_, toks)| toks.iter().any(|t| !weak.contains(&t.as_str()) && holds(t)))
            .map(|(i, _)| names[i].clone())
            .collect();
        return match shared.len() {
            0 | 1 => Linked::None,
            _ => Linked::Several(shared),
        };
    };
    let top: Vec<String> = scored
        .iter()
        .filter(|s| s.1 == best)
        .map(|s| names[s.0].clone())
        .collect();
    match top.as_slice() {
        [one] => Linked::One(one.clone()),
        _ => Linked::Several(top),
    }
}

/// A named item trimmed to the words of it a kitchen row has: "yogurt
/// think" is the greek yogurt, "milk good" the milk. The longest run of
/// the name's words that one row's name holds; the name as it was when a
/// row holds it all, or none holds any of it.
fn trimmed(name: &str, rows: &[String]) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let rows: Vec<Vec<String>> = rows.iter().map(|r| tokens(r)).collect();
    let held = |span: &[&str]| {
        rows.iter()
            .any(|row| span.iter().all(|w| row.iter().any(|t| t == &stem(w))))
    };
    if words.is_empty() || held(&words) {
        return name.to_string();
    }
    for len in (1..words.len()).rev() {
        for start in 0..=words.len() - len {
            let span = &words[start..start + len];
            if span.iter().all(|w| !is_filler(w)) && held(span) {
                return span.join(" ");
            }
        }
    }
    name.to_string()
}

fn trim_named(items: Vec<Named>, rows: &[String]) -> Vec<Named> {
    items
        .into_iter()
        .map(|n| match n {
            Named::Item(name) => Named::Item(trimmed(&name, rows)),
            shown => shown,
        })
        .collect()
}

/// The items a reading names about the stock or the list, trimmed to the
/// rows the kitchen holds (words around a name that no row has are not
/// part of it).
pub fn trim_items(intent: Intent, kitchen: &KitchenNames) -> Intent {
    let inv = &kitchen.inventory;
    let shop = &kitchen.shopping;
    match intent {
        Intent::Several(parts) => Intent::Several(
            parts
                .into_iter()
                .map(|p| Part {
                    intent: trim_items(p.intent, kitchen),
                    words: p.words,
                })
                .collect(),
        ),
        Intent::Skill(SkillAsk::Stock(ask)) => Intent::Skill(SkillAsk::Stock(match ask {
            StockAsk::ExpiryOf { items } => StockAsk::ExpiryOf {
                items: trim_named(items, inv),
            },
            StockAsk::HowMuch { items, location } => StockAsk::HowMuch {
                items: trim_named(items, inv),
                location,
            },
            StockAsk::Move { items, to } => StockAsk::Move {
                items: trim_named(items, inv),
                to,
            },
            StockAsk::Use { items } => StockAsk::Use {
                items: items
                    .into_iter()
                    .map(|mut u| {
                        if let Named::Item(name) = &u.item {
                            u.item = Named::Item(trimmed(name, inv));
                        }
                        u
                    })
                    .collect(),
            },
            other => other,
        })),
        Intent::Skill(SkillAsk::Shopping(ask)) => Intent::Skill(SkillAsk::Shopping(match ask {
            ShoppingAsk::Remove { items } => ShoppingAsk::Remove {
                items: trim_named(items, shop),
            },
            ShoppingAsk::MarkBought { items } => ShoppingAsk::MarkBought {
                items: trim_named(items, shop),
            },
            ShoppingAsk::Has { items } => ShoppingAsk::Has {
                items: trim_named(items, shop),
            },
            other => other,
        })),
        other => other,
    }
}

/// True when every food word of the message, and every word no list
/// knows (a dish's own name: "traybake"), is a word of `name`.
fn covers(name: &str, words: &[String]) -> bool {
    let own = tokens(name);
    words
        .iter()
        .filter(|x| !is_filler(x) && x.chars().all(char::is_alphabetic))
        .filter(|x| is_food_word(x) || !is_known(x))
        .all(|x| {
            let x = stem(x);
            own.iter().any(|t| near(t, &x))
        })
}

/// True when every word of `dish` is a word of `name`.
fn covers_all(name: &str, dish: &str) -> bool {
    let own = tokens(name);
    tokens(dish)
        .iter()
        .filter(|x| !is_filler(x))
        .all(|x| own.iter().any(|t| near(t, x)))
}

/// Words that ask for a recipe the kitchen does not have yet.
const NEW: &[&str] = &[
    "new",
    "another",
    "different",
    "something",
    "idea",
    "ideas",
    "recipe",
    "recipes",
    "invent",
    "create",
    "suggest",
    "some",
    "any",
    "similar",
    "like",
    "version",
    "without",
    "but",
];

/// Saying you will cook it: "i want", "we're having", "fancy".
const WANT: &[&str] = &[
    "want", "wanna", "fancy", "lets", "doing", "having", "making", "cooking", "eating", "do",
    "make", "cook", "eat", "go with", "ill have", "id like",
];

/// Openers that ask for advice, not for the thing: "should we have …".
const ADVICE: &[&str] = &[
    "should", "what", "whats", "which", "how", "why", "is", "are",
];

/// Words that leave a plan open: the user thinks aloud, weighs or asks.
/// "lets do …" too: the documented way to build a plan together and look
/// it over before it is saved.
pub const HEDGES: &[&str] = &[
    "maybe",
    "perhaps",
    "how about",
    "what about",
    "could",
    "should",
    "might",
    "idk",
    "or",
    "thinking",
    "wonder",
    "not sure",
    "if",
    "lets do",
    "let's do",
    "lets go with",
];

/// Words that take a clause off the plan ("thursday just leave it").
const HOLD: &[&str] = &[
    "not", "dont", "no", "leave", "skip", "nothing", "never", "without", "except",
];

/// Words a clause of days alone may hold besides its days ("both
/// tomorrow", "and wed dinner too").
const WITH_DAYS: &[&str] = &[
    "both",
    "too",
    "also",
    "then",
    "night",
    "nite",
    "evening",
    "morning",
    "dinner",
    "dinners",
    "lunch",
    "lunches",
    "breakfast",
    "again",
    "as",
    "well",
];

/// A plan said plainly, with no verb: every word of each clause is a day,
/// a meal, a word that adds nothing, or a word of the one saved recipe the clause names
/// ("ok assam pedas thursday dinner"). A word besides ("curry basil thai
/// wednesday": which dish has basil?) leaves it a draft to look over.
fn said_plainly(w: &Words, recipes: &[String]) -> bool {
    if plan_verb(w) {
        return true;
    }
    // A clause that holds a day back ("thursday just leave it") plans
    // nothing and says nothing of the plan.
    let planned = w
        .segments
        .iter()
        .filter(|seg| !seg.iter().any(|x| HOLD.contains(&x.as_str())));
    planned.into_iter().all(|seg| {
        let name: Vec<String> = match recipe(seg, recipes) {
            Linked::One(name) => tokens(&name),
            _ => Vec::new(),
        };
        seg.iter()
            .all(|x| adds_nothing_to_a_plan(x) || name.iter().any(|t| near(&stem(x), t)))
    })
}

/// A plan asked for in words: "do the wings on friday", "plan the french
/// toast for thursday", "im making it tmrw".
pub fn plan_verb(w: &Words) -> bool {
    super::consent::asks_for_change(w)
        || w.has_any(super::skills::planning::PUT)
        || w.has_any(super::skills::planning::COMMIT)
        || w.has_any(&["do", "doing", "want", "wanna"])
}

/// A word that adds nothing to a plan said plainly: a day, a meal, a
/// count, a yes, filler of talk. "something", "other", "new" or "not"
/// would.
pub fn adds_nothing_to_a_plan(x: &str) -> bool {
    const PLAIN: &[&str] = &[
        "the", "a", "an", "on", "for", "and", "at", "ok", "okay", "yeah", "yes", "so", "then",
        "too", "both", "also", "again", "please", "pls", "just", "my", "our", "cool", "right",
        "alright", "sure", "great", "today", "tonight", "week", "uh", "um", "er", "i", "guess",
        "only", "but", "of", "us", "people", "ppl", "servings", "portions", "ya", "yep", "yup",
        "fine", "perfect", "sounds", "good",
    ];
    PLAIN.contains(&x)
        || x.chars().count() < 2
        || super::text::number(x).is_some()
        || is_day_word(x)
        || WITH_DAYS.contains(&x)
}

/// The plan a message asks for in its own words: each clause's saved
/// recipe on the days said with it, or in the clause of days alone that
/// follows ("tikka bites and the yellow curry, both tomorrow", "wed
/// kerala cod curry, thu chicken tikka bites"). `None` when the words ask
/// about the plan or no saved recipe has a day.
pub fn plan_slots(w: &Words, recipes: &[String]) -> Option<Framed> {
    // "how about the wings on friday" weighs a plan; "how long is the
    // curry" and "can i make the wings tonight?" ask.
    if asks_information(w) && !w.has_any(&["how about", "what about"]) || can_i_make(w) {
        return None;
    }
    let meal = meal_of(&w.words);
    let mut slots: Vec<Slot> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    let mut last: Vec<String> = Vec::new();
    let place = |names: &[String], days: &[When], slots: &mut Vec<Slot>| {
        for name in names {
            for when in days {
                let slot = Slot {
                    recipe: named(name),
                    day: when.day,
                    meal: when.meal.clone().or_else(|| meal.clone()),
                };
                if !slots.contains(&slot) {
                    slots.push(slot);
                }
            }
        }
    };
    for seg in &w.segments {
        if seg.iter().any(|x| HOLD.contains(&x.as_str())) {
            continue;
        }
        // "the paneer on sunday instead of wednesday": what follows
        // "instead" is no slot.
        let seg = &seg[..seg.iter().position(|x| x == "instead").unwrap_or(seg.len())];
        let days = days_in(seg);
        let only_days = seg
            .iter()
            .all(|x| is_day_word(x) || is_filler(x) || WITH_DAYS.contains(&x.as_str()));
        match (recipe(seg, recipes), days.is_empty()) {
            (Linked::One(name), false) => {
                place(std::slice::from_ref(&name), &days, &mut slots);
                last = vec![name];
            }
            (Linked::One(name), true) => pending.push(name),
            (Linked::Several(_), false) => return Some(Framed::Unclear),
            (_, false) if only_days && !pending.is_empty() => {
                place(&pending, &days, &mut slots);
                last = std::mem::take(&mut pending);
            }
            (_, false) if only_days && !last.is_empty() => place(&last, &days, &mut slots),
            _ => {}
        }
    }
    // "the yellow curry saturday and the wings too": a recipe left
    // without a day goes with the last one named.
    if !slots.is_empty() && !pending.is_empty() {
        let days: Vec<When> = slots
            .iter()
            .filter(|s| last.iter().any(|n| s.recipe == named(n)))
            .map(|s| When {
                day: s.day,
                meal: s.meal.clone(),
            })
            .collect();
        place(&pending, &days, &mut slots);
    }
    // A day holds one meal of each kind: a second recipe on a day with no
    // meal said is its lunch ("tikka bites and the yellow curry, both
    // tomorrow").
    for i in 1..slots.len() {
        let dinner_taken = slots[..i]
            .iter()
            .any(|s| s.day == slots[i].day && s.meal.as_deref().unwrap_or("dinner") == "dinner");
        if slots[i].meal.is_none() && dinner_taken {
            slots[i].meal = Some("lunch".into());
        }
    }
    (!slots.is_empty()).then_some(Framed::Slots(slots))
}

/// Words that ask when food goes off.
const GOES_OFF: &[&str] = &[
    "expire",
    "expires",
    "expiry",
    "expired",
    "expiring",
    "go off",
    "goes off",
    "gone off",
    "go bad",
    "goes bad",
    "gone bad",
    "use by",
    "best before",
    "still good",
    "old",
    "finish",
    "spoil",
    "last",
    "dead",
    "rotten",
];

/// Words that rule out or tell, not ask: a look would answer nothing.
const TELLS: &[&str] = &[
    "allergic",
    "allergy",
    "allergies",
    "cant have",
    "can't have",
    "cant eat",
    "hate",
    "hates",
    "dont like",
    "doesnt like",
    "vegan",
    "vegetarian",
];

/// A reading that found nothing to do, read as the look its words allow:
/// the stock of the food it names (how much, where, and when it goes off
/// when asked), else the plan of the days it names. A look never writes,
/// and it answers the question most such messages ask ("and how are we
/// for tea?", "the paneer in fridge, when it go bad?", "what is the
/// dinner for thursday again"); anything else stays unread.
pub fn unread_as_look(intent: Intent, w: &Words, kitchen: &KitchenNames) -> Intent {
    // "what is the dinner for thursday again", "wat about lunch tomorow":
    // a day asked about, with no recipe to put on it.
    let asks_of_a_day = intent == Intent::Assign
        && (asks_information(w)
            || w.segments
                .iter()
                .any(|seg| asks_information(&Words::new(&seg.join(" "))))
            || w.has_any(&["what about", "wat about"]))
        && recipe(&w.words, &kitchen.recipes) == Linked::None
        && !w.words.iter().any(|x| {
            super::skills::POINTING.contains(&x.as_str())
                || super::resolve::ordinal_pick(std::slice::from_ref(x)).is_some()
        });
    if asks_of_a_day
        && super::vocab::food_mentions(&w.words).is_empty()
        && let Some(look) = plan_look(w)
    {
        return look;
    }
    // "show my list", "show me the plan": a show that names no recipe but
    // one part of the kitchen shows that part.
    if intent == Intent::Show
        && recipe(&w.words, &kitchen.recipes) == Linked::None
        && let Some(topic) = topic_alone(w)
    {
        return topic;
    }
    if !(intent == Intent::Unknown || asks_of_a_day) || w.has_any(TELLS) {
        return intent;
    }
    if intent == Intent::Unknown
        && let Some(topic) = topic_alone(w)
    {
        return topic;
    }
    let food = super::vocab::food_mentions(&w.words);
    if !food.is_empty() {
        let mut items: Vec<Named> = Vec::new();
        for f in food {
            let item = Named::item(&trimmed(&f, &kitchen.inventory));
            if !items.contains(&item) {
                items.push(item);
            }
        }
        return Intent::Skill(SkillAsk::Stock(if w.has_any(GOES_OFF) {
            StockAsk::ExpiryOf { items }
        } else {
            StockAsk::HowMuch {
                items,
                location: None,
            }
        }));
    }
    plan_look(w).unwrap_or(intent)
}

/// "and wed", "sun and mon": days and nothing more, the days of a request
/// said in an earlier clause.
fn days_alone(w: &Words) -> bool {
    let days = days_in(&w.words).len();
    days > 0
        && w.words
            .iter()
            .filter(|x| {
                !matches!(
                    x.as_str(),
                    "and"
                        | "on"
                        | "for"
                        | "the"
                        | "then"
                        | "too"
                        | "dinner"
                        | "lunch"
                        | "breakfast"
                )
            })
            .count()
            <= days
}

/// A look at the plan of the days the words name, if they name any.
fn plan_look(w: &Words) -> Option<Intent> {
    let days: Vec<_> = days_in(&w.words).into_iter().map(|d| d.day).collect();
    (!days.is_empty()).then(|| {
        Intent::Skill(SkillAsk::Planning(PlanningAsk::Look {
            days,
            next_week: w.has_any(&["next week"]),
        }))
    })
}

/// Words that say the user now has a thing they went to buy.
const BOUGHT: &[&str] = &[
    "got",
    "grabbed",
    "picked up",
    "bought",
    "found",
    "in the basket",
    "in the trolley",
    "in the cart",
];

/// The shopping row a food mention names: every word of the mention is
/// the row's, and so is the row's last word, the thing itself ("tomatoes"
/// is the tomato row, "the yogurt" the greek yogurt row; "the basmati" is
/// not enough for "basmati rice").
pub fn on_list(mention: &str, rows: &[String]) -> Option<String> {
    let said = tokens(mention);
    rows.iter()
        .find(|row| {
            let own = tokens(row);
            !said.is_empty()
                && said.iter().all(|x| own.iter().any(|y| near(x, y)))
                && own
                    .last()
                    .is_some_and(|head| said.iter().any(|x| near(x, head)))
        })
        .cloned()
}

/// "got the tomatoes and olive oil": things on the shopping list, said to
/// be got, are ticked off as bought — not a stock question nor a new
/// pantry row. Every food named must be on the list.
pub fn bought_off_list(intent: Intent, w: &Words, kitchen: &KitchenNames) -> Intent {
    let misread = matches!(
        intent,
        Intent::Unknown
            | Intent::Show
            | Intent::InventoryAdd(..)
            | Intent::Skill(SkillAsk::Stock(StockAsk::HowMuch { .. }))
    );
    if !misread || !w.has_any(BOUGHT) || w.question_mark || asks_information(w) {
        return intent;
    }
    let food = super::vocab::food_mentions(&w.words);
    let rows: Option<Vec<String>> = food.iter().map(|f| on_list(f, &kitchen.shopping)).collect();
    match rows {
        Some(rows) if !rows.is_empty() => {
            Intent::Skill(SkillAsk::Shopping(ShoppingAsk::MarkBought {
                items: rows.into_iter().map(Named::Item).collect(),
            }))
        }
        _ => intent,
    }
}

/// "list", "plan?", "tasks", "fridge": a message that is only the name of
/// one part of the kitchen shows that part.
fn topic_alone(w: &Words) -> Option<Intent> {
    use super::skills::tasks::{Ask as TasksAsk, Window};
    let said: Vec<&str> = w
        .words
        .iter()
        .map(String::as_str)
        .filter(|x| !is_filler(x) && !super::vocab::is_chatter(x))
        .filter(|x| {
            !matches!(
                *x,
                "my" | "the" | "show" | "me" | "pls" | "please" | "whats" | "on"
            )
        })
        .collect();
    let only = |of: &[&str]| !said.is_empty() && said.iter().all(|x| of.contains(x));
    if only(&["list", "shopping", "shop"]) {
        Some(Intent::Skill(SkillAsk::Shopping(ShoppingAsk::Show)))
    } else if only(&["plan", "week", "meals", "menu", "planned", "meal"]) {
        Some(Intent::ShowPlan)
    } else if only(&[
        "tasks", "task", "todo", "todos", "to", "do", "jobs", "chores",
    ]) {
        Some(Intent::Skill(SkillAsk::Tasks(TasksAsk::List {
            window: Window::All,
            about: Vec::new(),
        })))
    } else if only(&["expiring", "expiry", "going", "off"]) {
        Some(Intent::Skill(SkillAsk::Stock(StockAsk::Expiring {
            location: None,
        })))
    } else if let [place] = said.as_slice()
        && matches!(*place, "fridge" | "freezer" | "pantry" | "cupboard")
    {
        Some(Intent::Pantry(Some((*place).to_string())))
    } else if only(&["inventory", "stock", "stocks"]) {
        Some(Intent::Pantry(None))
    } else {
        None
    }
}

/// Words that say a task was done.
const DONE: &[&str] = &[
    "done",
    "did",
    "tick",
    "ticked",
    "cross",
    "crossed",
    "finished",
    "can go",
    "sorted",
    "cleaned",
    "descaled",
    "completed",
    "mark it",
    "scrubbed",
    "washed",
    "wiped",
    "tidied",
    "emptied",
    "is clean",
    "clean now",
    "all clean",
    "spotless",
];

/// "paneer one done", "cleaned the air fryer basket, tick it", "scrubbed
/// the air fryer basket": one open task named by its title's words, said
/// to be done, is ticked off — when nothing else was read from the words.
pub fn task_done(intent: Intent, w: &Words, kitchen: &KitchenNames) -> Intent {
    use super::skills::tasks::Ask as TasksAsk;
    // "finished the air fryer clean, tick it" read as using something up
    // that the kitchen does not hold.
    let no_item = || named_by(&w.words, &kitchen.inventory, WEAK) == Linked::None;
    let misread = match &intent {
        Intent::Unknown
        | Intent::Skill(SkillAsk::Stock(StockAsk::HowMuch { .. }))
        | Intent::Skill(SkillAsk::Tasks(TasksAsk::List { .. })) => true,
        Intent::Skill(SkillAsk::Stock(_)) => no_item(),
        _ => false,
    };
    // Done said in the task's own verb: "cleaned" for "Deep-clean …",
    // "used up" for "Use up …".
    let own_verb = |title: &str| {
        tokens(title).iter().any(|t| {
            w.words
                .iter()
                .any(|x| [format!("{t}ed"), format!("{t}d")].contains(x) && t.chars().count() > 2)
        })
    };
    if !misread || super::consent::a_clause_asks(w) || asks_information(w) || denies_done(w) {
        return intent;
    }
    match task(&w.words, &kitchen.tasks) {
        Linked::One(title) if w.has_any(DONE) || own_verb(&title) => {
            Intent::Skill(SkillAsk::Tasks(TasksAsk::Done {
                about: tokens(&title),
            }))
        }
        _ => intent,
    }
}

/// "the air fryer isnt done yet", "havent cleaned it": not done.
pub fn denies_done(w: &Words) -> bool {
    w.has_any(&[
        "not",
        "isnt",
        "arent",
        "havent",
        "hasnt",
        "didnt",
        "dont",
        "never",
        "yet",
        "still need",
        "still have",
        "need to",
        "have to",
        "gotta",
        "should",
    ])
}

/// True for a reading a clause of a plan gets read as on its own.
fn plan_like(intent: &Intent) -> bool {
    matches!(
        intent,
        Intent::Assign
            | Intent::Unknown
            | Intent::Show
            | Intent::Generate(_)
            | Intent::Skill(SkillAsk::Planning(PlanningAsk::Put { .. }) | SkillAsk::Recipes(_))
    )
}

/// "can i make the wings tonight?", "could we cook the curry": the user
/// asks whether it can be made, not to plan it.
pub fn can_i_make(w: &Words) -> bool {
    w.has_any(&[
        "can i make",
        "can i cook",
        "can i do",
        "could i make",
        "could i cook",
        "can we make",
        "can we cook",
        "could we make",
        "should i make",
        "should i cook",
        "should we make",
        "should we cook",
        "do i have enough",
        "do i have everything",
        "have i got everything",
        "do we have everything",
    ])
}

/// A plan said in words.
#[derive(Debug, Clone, PartialEq)]
pub enum Framed {
    /// Each recipe one saved recipe, each with its days.
    Slots(Vec<Slot>),
    /// A recipe and a day, the recipe one of several ("the curry on
    /// friday"): the talk so far must say which.
    Unclear,
}

/// The pick of a recipe by its saved name.
pub fn named(name: &str) -> Pick {
    Pick::Named(name.split_whitespace().map(str::to_lowercase).collect())
}

/// `intent` read again against the kitchen's recipes, when they say it
/// misread the message.
pub fn relink(intent: Intent, w: &Words, kitchen: &KitchenNames) -> Intent {
    // "how about the paneer on sunday and the curry on wednesday": one plan
    // in several clauses, weighed as a whole.
    // Parts a skill read in its own words ("put the pad see ew on monday,
    // how long does it take") keep their readings unless weighed.
    if let Intent::Several(parts) = &intent
        && parts.iter().all(|p| plan_like(&p.intent))
        && let Some(framed) = plan_slots(w, &kitchen.recipes)
    {
        let weighed = w.question_mark || w.has_any(HEDGES);
        let skilled = parts.iter().any(|p| matches!(p.intent, Intent::Skill(_)));
        match framed {
            _ if weighed => return Intent::Assign,
            Framed::Slots(slots) if !skilled && said_plainly(w, &kitchen.recipes) => {
                return Intent::Skill(SkillAsk::Planning(PlanningAsk::Put { slots }));
            }
            _ => {}
        }
    }
    if let Intent::Several(parts) = intent {
        let mut parts: Vec<Part> = parts
            .into_iter()
            .map(|p| Part {
                intent: relink(p.intent, &Words::new(&p.words), kitchen),
                words: p.words,
            })
            .collect();
        // "i dont have time tonight, whats the quickest": a clause read as a
        // show of something that links to nothing is talk, beside a clause
        // that asks.
        let talk = |p: &Part| {
            let w = Words::new(&p.words);
            matches!(p.intent, Intent::Show | Intent::Assign | Intent::Unknown)
                && !super::consent::is_bare_consent(&w)
                && !days_alone(&w)
                && recipe(&w.words, &kitchen.recipes) == Linked::None
                && super::vocab::food_mentions(&w.words).is_empty()
                && !w.words.iter().any(|x| {
                    super::skills::POINTING.contains(&x.as_str())
                        || super::resolve::ordinal_pick(std::slice::from_ref(x)).is_some()
                })
        };
        if parts.iter().any(|p| !talk(p)) {
            parts.retain(|p| !talk(p));
        }
        return match parts.len() {
            1 => parts.remove(0).intent,
            _ => Intent::Several(parts),
        };
    }
    let generating = matches!(&intent, Intent::Generate(g) if g.pasted.is_none());
    if can_i_make(w)
        && matches!(
            intent,
            Intent::Assign
                | Intent::Unknown
                | Intent::Show
                | Intent::Skill(SkillAsk::Recipes(RecipesAsk::Find { .. }))
        )
        && let Linked::One(name) = recipe(&w.words, &kitchen.recipes)
    {
        return Intent::Skill(SkillAsk::Recipes(RecipesAsk::About {
            which: Which::Named(name.to_lowercase()),
            what: Detail::Missing,
            servings: None,
        }));
    }
    // "ok assam pedas thursday dinner": saved recipes on days, said
    // plainly, go on the plan.
    // Weighed aloud ("how about the wings on friday?"), a draft to look
    // over.
    // A plan the skill read in its own words keeps its reading.
    let read_as_put = matches!(
        &intent,
        Intent::Skill(SkillAsk::Planning(PlanningAsk::Put { .. }))
    );
    if plan_like(&intent)
        && !read_as_put
        && !matches!(&intent, Intent::Generate(g) if g.pasted.is_some())
    {
        match plan_slots(w, &kitchen.recipes) {
            Some(Framed::Slots(slots))
                if !w.question_mark && !w.has_any(HEDGES) && said_plainly(w, &kitchen.recipes) =>
            {
                return Intent::Skill(SkillAsk::Planning(PlanningAsk::Put { slots }));
            }
            Some(_) => return Intent::Assign,
            None => {}
        }
    }
    let stock_of_dish = matches!(
        &intent,
        Intent::HaveItem(_) | Intent::Skill(SkillAsk::Stock(StockAsk::HowMuch { .. }))
    );
    if !(generating || stock_of_dish) {
        return intent;
    }
    let Linked::One(name) = recipe(&w.words, &kitchen.recipes) else {
        return intent;
    };
    // "a chicken fried rice", "a chicken traybake": a dish with more in
    // it than the saved one's name says is another dish.
    if !covers(&name, &w.words) {
        return intent;
    }
    if let Intent::Generate(g) = &intent
        && !covers_all(&name, &g.dish)
    {
        return intent;
    }
    let name_words: Vec<String> = name.split_whitespace().map(str::to_lowercase).collect();
    if stock_of_dish {
        // "can i make the french toast": a dish, not an item, unless the
        // kitchen holds an item by those words.
        let item = recipe(&w.words, &kitchen.inventory);
        let cooking = w.has_any(&["make", "cook", "do"]);
        return if cooking && item == Linked::None {
            Intent::Skill(SkillAsk::Recipes(RecipesAsk::About {
                which: Which::Named(name.to_lowercase()),
                what: Detail::Missing,
                servings: None,
            }))
        } else {
            intent
        };
    }
    if generating && w.words.iter().any(|x| NEW.contains(&x.as_str())) {
        return intent;
    }
    let advice = w
        .words
        .first()
        .is_some_and(|x| ADVICE.contains(&x.as_str()));
    // A day and a recipe plan it only when the words say to ("lets do",
    // "we're having", "i want"): "wings sat" alone stays a draft.
    let wants = asks_for_change(w) || w.has_any(PUT) || w.has_any(WANT);
    let days = days_at(w);
    if !days.is_empty() && !advice && wants {
        let meal = meal_of(&w.words);
        let mut slots: Vec<Slot> = Vec::new();
        for (_, when) in days {
            if slots.iter().any(|s| s.day == when.day) {
                continue;
            }
            slots.push(Slot {
                recipe: Pick::Named(name_words.clone()),
                day: when.day,
                meal: when.meal.or_else(|| meal.clone()),
            });
        }
        return Intent::Skill(SkillAsk::Planning(PlanningAsk::Put { slots }));
    }
    Intent::Skill(SkillAsk::Recipes(RecipesAsk::About {
        which: Which::Named(name.to_lowercase()),
        what: Detail::Ingredients,
        servings: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        crate::prompt::fixtures::RECIPES.map(String::from).to_vec()
    }

    fn link(message: &str) -> Linked {
        recipe(&Words::new(message).words, &names())
    }

    #[test]
    fn a_recipe_is_named_by_the_words_only_it_has() {
        assert_eq!(
            link("lets have the yellow curry tmrw"),
            Linked::One("Thai Yellow Curry".into())
        );
        assert_eq!(link("wings on sat"), Linked::One("Dry Rub Wings".into()));
        assert_eq!(
            link("i fancy the pad see ew"),
            Linked::One("Thai Pad See Ew".into())
        );
        assert_eq!(
            link("the cod curry"),
            Linked::One("Kerala Cod Curry".into())
        );
        assert_eq!(
            link("the miso one"),
            Linked::One("Miso Glazed Air Fryer Cod".into())
        );
    }

    #[test]
    fn an_item_is_trimmed_to_what_a_row_holds() {
        let rows = ["greek yogurt".to_string(), "milk".to_string()];
        assert_eq!(trimmed("yogurt think", &rows), "yogurt");
        assert_eq!(trimmed("milk good", &rows), "milk");
        assert_eq!(trimmed("greek yogurt", &rows), "greek yogurt");
        assert_eq!(trimmed("pasta", &rows), "pasta");
    }

    fn slots(message: &str) -> Option<Vec<(String, String, String)>> {
        let w = Words::new(message);
        if w.question_mark || w.has_any(HEDGES) {
            return None;
        }
        plan_slots(&w, &names()).and_then(|f| {
            let Framed::Slots(v) = f else { return None };
            let v = v
                .into_iter()
                .map(|s| {
                    let Pick::Named(n) = s.recipe else {
                        panic!("{message}: not a named pick")
                    };
                    (n.join(" "), s.day.word(), s.meal.unwrap_or_default())
                })
                .collect();
            Some(v)
        })
    }

    #[test]
    fn saved_recipes_said_with_days_are_paired_clause_by_clause() {
        let got = slots("wed kerala cod curry, thu chicken tikka bites, fri pad see ew").unwrap();
        let recipes: Vec<&str> = got.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(
            recipes,
            ["kerala cod curry", "chicken tikka bites", "thai pad see ew"]
        );
        assert_ne!(got[0].1, got[1].1);
        // A clause of days alone takes the recipes waiting for one; the
        // second on a day is its lunch.
        let got = slots("tikka bites and the yellow curry, both tomorrow").unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1, got[1].1);
        assert_eq!(got[1].2, "lunch");
        // The meal said with its day stays with it.
        let got = slots("do the chicken bites tomorrow night and the miso cod thursday lunch");
        let got = got.unwrap();
        assert_eq!(got[1].0, "miso glazed air fryer cod");
        assert_eq!(got[1].2, "lunch");
        // A clause that holds a day back plans nothing on it.
        assert_eq!(
            slots("friday uh the wings I guess and thursday just leave it").map(|v| v.len()),
            Some(1)
        );
    }

    #[test]
    fn weighing_asking_or_an_unclear_recipe_plans_nothing() {
        for s in [
            "maybe the wings on friday",
            "what about the pad see ew thursday",
            "is the yellow curry on sunday?",
            "the curry on friday",
            "something quick on friday",
            "wings or pedas on sat",
        ] {
            assert_eq!(slots(s), None, "{s}");
        }
    }

    #[test]
    fn a_message_with_nothing_to_do_is_read_as_the_look_it_allows() {
        let kitchen = KitchenNames {
            recipes: names(),
            inventory: vec!["greek yogurt".into(), "black tea".into()],
            ..KitchenNames::default()
        };
        let look = |m: &str, intent: Intent| unread_as_look(intent, &Words::new(m), &kitchen);
        assert!(matches!(
            look("my yogurt in fridge, when it finish?", Intent::Unknown),
            Intent::Skill(SkillAsk::Stock(StockAsk::ExpiryOf { items })) if items == [Named::item("yogurt")]
        ));
        assert!(matches!(
            look("and how are we for tea", Intent::Unknown),
            Intent::Skill(SkillAsk::Stock(StockAsk::HowMuch { .. }))
        ));
        assert!(matches!(
            look("thank you. what is the dinner for thursday again", Intent::Assign),
            Intent::Skill(SkillAsk::Planning(PlanningAsk::Look { days, .. })) if days.len() == 1
        ));
        // Told, not asked; or a recipe to put on the day: no look.
        assert_eq!(
            look("shes allergic to peanuts", Intent::Unknown),
            Intent::Unknown
        );
        assert_eq!(
            look("what about the wings on thursday", Intent::Assign),
            Intent::Assign
        );
        assert_eq!(look("put it on thursday", Intent::Assign), Intent::Assign);
    }

    #[test]
    fn things_on_the_list_said_to_be_got_are_ticked_off() {
        let kitchen = KitchenNames {
            shopping: vec![
                "tomato".into(),
                "olive oil".into(),
                "thai basil".into(),
                "basmati rice".into(),
            ],
            ..KitchenNames::default()
        };
        let read = |m: &str| bought_off_list(Intent::Unknown, &Words::new(m), &kitchen);
        // The thing itself names its row, without the kind said.
        assert_eq!(
            read("got basil"),
            Intent::Skill(SkillAsk::Shopping(ShoppingAsk::MarkBought {
                items: vec![Named::Item("thai basil".into())]
            }))
        );
        assert_eq!(
            read("got the tomatoes and olive oil"),
            Intent::Skill(SkillAsk::Shopping(ShoppingAsk::MarkBought {
                items: vec![
                    Named::Item("tomato".into()),
                    Named::Item("olive oil".into())
                ]
            }))
        );
        // Asked, or a thing not on the list: read as it was.
        for m in [
            "have i got tomatoes?",
            "got the tomatoes and leeks",
            "got the basmati",
        ] {
            assert_eq!(read(m), Intent::Unknown, "{m}");
        }
    }

    #[test]
    fn a_part_of_the_kitchen_named_alone_is_shown() {
        for (m, name) in [
            ("list", "shopping_show"),
            ("plan?", "show_plan"),
            ("my tasks", "tasks_list"),
            ("expiring?", "stock_expiring"),
            ("fridge", "pantry"),
        ] {
            let got = unread_as_look(Intent::Unknown, &Words::new(m), &KitchenNames::default());
            assert_eq!(got.name(), name, "{m}");
        }
        let got = unread_as_look(
            Intent::Unknown,
            &Words::new("list the fridge"),
            &KitchenNames::default(),
        );
        assert_eq!(got, Intent::Unknown);
    }

    #[test]
    fn a_task_said_to_be_done_by_its_words_is_ticked_off() {
        let kitchen = KitchenNames {
            tasks: vec![
                "Deep-clean the air fryer basket".into(),
                "Use up the paneer before it expires".into(),
                "Pick up Chinese broccoli and Thai basil".into(),
            ],
            ..KitchenNames::default()
        };
        let read = |m: &str| task_done(Intent::Unknown, &Words::new(m), &kitchen).name();
        for m in [
            "paneer one done",
            "i cleaned the air fryer basket last night, tick it",
            "the broccoli task can go",
        ] {
            assert_eq!(read(m), "tasks_done", "{m}");
        }
        for m in ["is the paneer one done?", "paneer one", "done"] {
            assert_eq!(read(m), "unknown", "{m}");
        }
    }

    #[test]
    fn a_shared_word_names_several_and_no_word_names_none() {
        assert!(matches!(link("the curry"), Linked::Several(v) if v.len() == 2));
        assert!(matches!(link("tikka on friday"), Linked::Several(v) if v.len() == 2));
        assert_eq!(link("something quick for dinner"), Linked::None);
        assert_eq!(link("the air fryer one"), Linked::None);
    }
}
