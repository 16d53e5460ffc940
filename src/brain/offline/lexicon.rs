//! What the user wants, from their words alone: the intents the offline brain
//! knows and the synonyms that signal each one.
//!
//! [`classify`] is lexical and state-free (apart from cues about what Alfred
//! asked last turn), so every node — Understand, Think, Act, Reply — reaches
//! the same intent for the same message. Which entity a phrase names is not
//! decided here: that is `resolve.rs`, over the context state.

use serde::{Deserialize, Serialize};

use crate::context::{OfferKind, QuestionKind};

use super::dialogue::Before;
use super::edits::EditOp;
use super::intent_rules::{planning_intent, recipe_intent, stock_intent};
use super::items::{Exclusion, Item};
use super::skills::talk::Ask as TalkAsk;
use super::skills::{self, SkillAsk, Topic};
use super::synonyms::SAVE;
use super::text::{Words, is_filler};

/// What Alfred offered or asked last turn, from its dialogue state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cues {
    /// Alfred proposed (saved recipes or something new?).
    pub proposal: bool,
    /// Alfred asked which entity the user meant.
    pub which: bool,
    /// Alfred offered to save something.
    pub offered_save: bool,
    /// Alfred offered to put what's missing on the shopping list.
    pub offered_shopping: bool,
    /// Alfred offered to find recipes that use what it just showed.
    pub offered_recipes: bool,
    /// Alfred asked which recipes go on the plan.
    pub asked_plan: bool,
    /// The skill the user's last message was about.
    pub topic: Topic,
}

impl Cues {
    /// The cues of what the last turn left open.
    pub fn from_before(before: &Before) -> Self {
        Self {
            proposal: before.offered(OfferKind::PlanFromSaved),
            which: before.asked(QuestionKind::WhichOne),
            offered_save: before.offered(OfferKind::SaveDraft),
            offered_shopping: before.offered(OfferKind::AddMissing),
            offered_recipes: before.offered(OfferKind::FindRecipes),
            asked_plan: before.asked(QuestionKind::WhichDays),
            topic: topic_before(before),
        }
    }
}

/// The skill the last exchange was about: the last message's own, unless
/// the reply showed tasks ("and one for making the paneer tikka on
/// thursday" read alone is a plan, but the reply added a task).
fn topic_before(before: &Before) -> Topic {
    let asked = match classify(&Words::new(&before.user), Cues::default()) {
        Intent::Skill(ask) => ask.topic(),
        Intent::Several(parts) => match parts.last().map(|p| &p.intent) {
            Some(Intent::Skill(ask)) => ask.topic(),
            _ => Topic::None,
        },
        Intent::ShowPlan => Topic::Planning,
        _ => Topic::None,
    };
    // What the reply showed, else what the turn wrote ("got the olive oil"
    // marked the list's rows: the next "add limes" is the list's too).
    // A turn that only asked or chatted keeps the topic of the one
    // before ("chuck lemons on as well" after a question in the shop).
    let shown = match skills::topic_of_refs(&before.dialogue.presented_refs()) {
        Topic::None => match skills::topic_of_refs(&before.written) {
            Topic::None => skills::topic_of_refs(&before.touched),
            t => t,
        },
        t => t,
    };
    // Task rows shown are only ever tasks; a plan's reply names recipes
    // too, so only tasks overrule the message's own reading.
    if asked == Topic::None || shown == Topic::Tasks {
        shown
    } else {
        asked
    }
}

/// How much the user asked for when generating.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenerateAsk {
    /// 1 to 4 recipes.
    pub count: usize,
    /// The dish words: "thai basil chicken", "chicken", "" (any).
    pub dish: String,
    /// "dinner", "lunch", "breakfast" when said.
    pub meal: Option<String>,
    /// Ingredients to leave out ("without coconut").
    pub without: Vec<String>,
    /// "quick", "fast".
    #[serde(default)]
    pub quick: bool,
    /// A recipe the user pasted: drafted as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pasted: Option<skills::cook::paste::Pasted>,
}

/// The intents of the offline brain, checked in this order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "intent", content = "with", rename_all = "snake_case")]
pub enum Intent {
    Empty,
    /// An ask one of the skills recognised (tasks, …).
    Skill(SkillAsk),
    /// Forget, start over, delete, what isn't saved, what was just added,
    /// a look back: the memory skill's asks.
    Memory(skills::memory::Ask),
    /// "save it", "save only the first one", "looks good, save the plan".
    Save,
    /// "add the missing ingredients to my shopping list".
    ShoppingMissing,
    InventoryRemove(Vec<Item>),
    InventoryAdd(Vec<Item>, Option<String>),
    /// "what's in my pantry?"; the location when one was named.
    Pantry(Option<String>),
    /// "do I have eggs?".
    HaveItem(String),
    /// "ok back to the meal plan", "show me the plan".
    ShowPlan,
    /// "can you help me plan some meals?".
    PlanMeals,
    /// "bring back the wings".
    Include,
    /// "let's do the paneer on sunday and the curry on wednesday".
    Assign,
    WhatCanIMake,
    /// "which ones use coconut milk?".
    FindByIngredient(String),
    Generate(GenerateAsk),
    /// "show me my recipes", "what's left?", "from my saved recipes".
    ListRecipes,
    Edit(EditOp),
    Exclude(Vec<Exclusion>),
    /// "show me that shakshuka".
    Show,
    /// Hello, thanks, yes, no, help: the small-talk skill's asks.
    Talk(skills::talk::Ask),
    /// "change it", "remove it", "hm and the other thing" with nothing to
    /// point at: one short question, never a write.
    Vague(super::vague::Vague),
    /// "we're out of milk, add it to the list": two or three requests,
    /// each with its own reading.
    Several(Vec<super::several::Part>),
    Unknown,
}

impl Intent {
    /// True for a reading that asks for nothing of its own: a hello, a
    /// thanks, a bare yes, a pointer at nothing, words not understood.
    pub fn says_nothing(&self) -> bool {
        matches!(
            self,
            Intent::Unknown
                | Intent::Vague(_)
                | Intent::Empty
                | Intent::Talk(TalkAsk::Affirm | TalkAsk::Thanks | TalkAsk::Greeting)
        )
    }

    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Intent::Empty => "empty",
            Intent::Skill(ask) => ask.name(),
            Intent::Memory(ask) => ask.name(),
            Intent::Talk(ask) => ask.name(),
            Intent::Save => "save",
            Intent::ShoppingMissing => "shopping_missing",
            Intent::InventoryRemove(_) => "inventory_remove",
            Intent::InventoryAdd(..) => "inventory_add",
            Intent::Pantry(_) => "pantry",
            Intent::HaveItem(_) => "have_item",
            Intent::ShowPlan => "show_plan",
            Intent::PlanMeals => "plan_meals",
            Intent::Include => "include",
            Intent::Assign => "assign",
            Intent::WhatCanIMake => "what_can_i_make",
            Intent::FindByIngredient(_) => "find_by_ingredient",
            Intent::Generate(_) => "generate",
            Intent::ListRecipes => "list_recipes",
            Intent::Edit(_) => "edit",
            Intent::Exclude(_) => "exclude",
            Intent::Show => "show",
            Intent::Vague(_) => "vague",
            Intent::Several(_) => "several",
            Intent::Unknown => "unknown",
        }
    }
}

/// Classifies a message (already split into words) given what Alfred asked.
pub fn classify(w: &Words, cues: Cues) -> Intent {
    let whole = classify_whole(w, cues);
    match super::several::split(w, cues, &whole) {
        Some(parts) => Intent::Several(parts),
        None => whole,
    }
}

/// The intent of `w` read as one request.
pub fn classify_whole(w: &Words, cues: Cues) -> Intent {
    if w.is_empty() {
        return Intent::Empty;
    }
    // A general question about a food ("what could i use instead of
    // coconut milk") is never a request for a recipe.
    if let Some(ask) = skills::advice::read(w)
        && !(cues.offered_save && ask.kind == skills::advice::Kind::Swap)
    {
        return Intent::Skill(SkillAsk::Advice(ask));
    }
    if let Some(ask) =
        skills::recipes::using_shown(w).or_else(|| skills::recipes::search_but_not(w))
    {
        return Intent::Skill(SkillAsk::Recipes(ask));
    }
    // "can you make it for 4 people": the recipe in front of us, scaled;
    // no new dish.
    if w.has_any(&["it", "that", "this", "that one", "this one"])
        && let Some(op @ super::edits::EditOp::Scale { .. }) = super::edits::parse_edit(w)
    {
        return Intent::Edit(op);
    }
    if let Some(ask) = skills::cook::request(w) {
        return Intent::Generate(ask);
    }
    // While drafting, "what about something with chickpeas" is another idea.
    if cues.offered_save
        && let Some(ask) = skills::cook::another(w)
    {
        return Intent::Generate(ask);
    }
    // With a draft on offer, a change asked in words is a change to it
    // ("bit less spicy pls and add spinach", "chuck some peas in").
    if cues.offered_save
        && !w.has_any(ELSEWHERE)
        && !w
            .words
            .iter()
            .any(|x| super::text::weekday_abbrev(x).is_some())
        && super::consent::asks_for_change(w)
        && let Some(op) = super::edits::parse_edit(w)
    {
        return Intent::Edit(op);
    }
    if let Some(ask) = skills::read(w, cues) {
        return Intent::Skill(ask);
    }
    if let Some(ask) = skills::memory::read(w) {
        return Intent::Memory(ask);
    }
    if let Some(ask) = skills::talk::help(w) {
        return Intent::Talk(ask);
    }
    if w.has_any(SAVE) {
        // "hmm not sure about saving either of them yet" holds the save.
        let holding = w.has_any(&[
            "not sure",
            "not yet",
            "hold off",
            "maybe later",
            "dont save",
            "do not save",
            "no need to save",
            "not saving",
            "dont want to save",
        ]);
        return if holding {
            Intent::Talk(TalkAsk::Decline)
        } else {
            Intent::Save
        };
    }
    if let Some(i) = stock_intent(w) {
        return i;
    }
    if let Some(i) = planning_intent(w) {
        return i;
    }
    if let Some(i) = recipe_intent(w, cues) {
        return i;
    }
    if let Some(ask) = food_question(w) {
        return Intent::Skill(ask);
    }
    short_reply(w, cues)
}

/// A question that names food and asks nothing else of it ("got limes?",
/// "any feta left"): read as how much of it there is.
fn food_question(w: &Words) -> Option<SkillAsk> {
    const HAVING: &[&str] = &[
        "got", "have", "left", "still", "any", "there", "some", "stock", "rn", "atm", "we", "in",
        "the", "is", "are", "do", "i",
    ];
    // A part of a longer message has lost its "?": "any garlic left" and
    // "garlic left" still ask.
    let asks = super::consent::is_question(w)
        || w.words.first().is_some_and(|x| x == "any")
        || w.words.last().is_some_and(|x| x == "left");
    if !asks {
        return None;
    }
    let food = super::vocab::food_mentions(&w.words);
    let food_words: Vec<&str> = food.iter().flat_map(|f| f.split(' ')).collect();
    let other = w.words.iter().any(|x| {
        !food_words.contains(&x.as_str()) && !HAVING.contains(&x.as_str()) && !is_filler(x)
    });
    if food.is_empty() || other {
        return None;
    }
    let asked = Words::new(&format!("how much {} do i have", food.join(" and ")));
    skills::stock::read(&asked, Cues::default()).map(SkillAsk::Stock)
}

/// Words that send a change somewhere other than the recipe in front of us.
const ELSEWHERE: &[&str] = &[
    "list",
    "shopping",
    "fridge",
    "freezer",
    "pantry",
    "inventory",
    "cupboard",
    "plan",
    "counter",
    "my recipes",
    "task",
    "tasks",
];

/// Short replies (yes, no, thanks, hello) are small talk; a vague request
/// gets a question; anything else is not understood.
fn short_reply(w: &Words, cues: Cues) -> Intent {
    if let Some(ask) = skills::talk::read(w, cues) {
        return Intent::Talk(ask);
    }
    match super::vague::read(w) {
        Some(v) => Intent::Vague(v),
        None => Intent::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::super::skills::memory::Ask as MemoryAsk;
    use super::*;

    fn intent(s: &str) -> Intent {
        classify(&Words::new(s), Cues::default())
    }

    #[test]
    fn a_question_naming_only_food_asks_how_much_and_never_adds() {
        for s in [
            "got limes?",
            "still got any shallots?",
            "eggs?",
            "any paneer left?",
        ] {
            assert!(
                matches!(
                    intent(s),
                    Intent::Skill(SkillAsk::Stock(skills::stock::Ask::HowMuch { .. }))
                ),
                "{s}: {:?}",
                intent(s)
            );
        }
        for s in ["still got some coconut milk?", "we got eggs?"] {
            assert!(!matches!(intent(s), Intent::InventoryAdd(..)), "{s}");
        }
        // Food with a request of its own is not a stock question.
        assert!(food_question(&Words::new("limes for saturday?")).is_none());
    }

    #[test]
    fn memory_commands() {
        for s in [
            "start fresh",
            "Let's start over!",
            "clear everything",
            "START OVER please",
        ] {
            assert_eq!(intent(s), Intent::Memory(MemoryAsk::ClearAll), "{s}");
        }
        for s in [
            "forget that",
            "never mind that recipe",
            "Nevermind.",
            "scratch that",
        ] {
            assert_eq!(intent(s), Intent::Memory(MemoryAsk::Forget), "{s}");
        }
        for s in [
            "what isn't saved yet?",
            "anything unsaved?",
            "what haven't we saved",
            "What's not saved",
        ] {
            assert_eq!(intent(s), Intent::Memory(MemoryAsk::Unsaved), "{s}");
        }
        for s in [
            "what did I just add?",
            "What did we add",
            "remind me what I added",
        ] {
            assert_eq!(intent(s), Intent::Memory(MemoryAsk::Recall), "{s}");
        }
    }

    #[test]
    fn planning_phrases() {
        for s in [
            "can you help me plan some meals?",
            "Help me plan my week",
            "let's do some meal planning",
            "what should I cook this week",
        ] {
            assert_eq!(intent(s), Intent::PlanMeals, "{s}");
        }
        for s in [
            "ok back to the meal plan",
            "where were we?",
            "show me the plan",
            "OK, back to planning",
        ] {
            assert_eq!(intent(s), Intent::ShowPlan, "{s}");
        }
        for s in [
            "let's do the paneer on sunday and the curry on wednesday",
            "Paneer Sunday, curry Wednesday",
            "lets go with the paneer and the pad see ew",
            "put the first one on sunday",
        ] {
            assert_eq!(intent(s), Intent::Assign, "{s}");
        }
    }

    #[test]
    fn exclusion_phrasings() {
        for s in [
            "let's not do cod this week",
            "let's not do the french toast or wings",
            "skip the wings and french toast",
            "no french toast, and I don't feel like wings",
            "drop the toast and the wings",
            "Leave out the wings",
            "not in the mood for curry",
            "rule out anything with cod",
            "exclude the french toast",
        ] {
            assert!(
                matches!(intent(s), Intent::Exclude(_)),
                "{s}: {:?}",
                intent(s)
            );
        }
    }

    #[test]
    fn kitchen_stock() {
        assert_eq!(
            intent("what's in my pantry?"),
            Intent::Pantry(Some("pantry".into()))
        );
        assert_eq!(
            intent("Whats in the FRIDGE"),
            Intent::Pantry(Some("fridge".into()))
        );
        assert_eq!(intent("show me my inventory"), Intent::Pantry(None));
        let Intent::InventoryAdd(items, loc) = intent("add 12 eggs to my fridge") else {
            panic!("not an add");
        };
        assert_eq!(
            (items[0].name.as_str(), loc.as_deref()),
            ("egg", Some("fridge"))
        );
        assert!(matches!(
            intent("I bought 2 litres of milk"),
            Intent::InventoryAdd(..)
        ));
        assert!(matches!(
            intent("we're out of milk"),
            Intent::Skill(SkillAsk::Stock(skills::stock::Ask::Use { .. }))
        ));
        assert!(matches!(
            intent("add lentils to my shopping list"),
            Intent::Skill(SkillAsk::Shopping(skills::shopping::Ask::Add { .. }))
        ));
        assert_eq!(
            intent("what's on my shopping list?"),
            Intent::Skill(SkillAsk::Shopping(skills::shopping::Ask::Show))
        );
        assert!(matches!(
            intent("do I have eggs?"),
            Intent::Skill(SkillAsk::Stock(skills::stock::Ask::HowMuch { .. }))
        ));
    }

    #[test]
    fn recipe_requests() {
        let Intent::Generate(g) = intent("give me a thai basil chicken recipe") else {
            panic!("not generate");
        };
        assert_eq!((g.count, g.dish.as_str()), (1, "thai basil chicken"));
        let Intent::Generate(g) = intent("Give me 2 chicken dinner ideas") else {
            panic!("not generate");
        };
        assert_eq!(
            (g.count, g.dish.as_str(), g.meal.as_deref()),
            (2, "chicken", Some("dinner"))
        );
        assert!(matches!(
            intent("can you make me a shakshuka"),
            Intent::Generate(_)
        ));
        assert!(matches!(intent("add a squeeze of lime"), Intent::Edit(_)));
        assert!(matches!(
            intent("can you add lime juice to it"),
            Intent::Edit(_)
        ));
        assert!(matches!(intent("put some lime in"), Intent::Edit(_)));
        assert!(matches!(
            intent("add more garlic to that recipe"),
            Intent::Edit(_)
        ));
        assert_eq!(intent("show me that shakshuka"), Intent::Show);
        assert_eq!(intent("save it"), Intent::Save);
        assert_eq!(intent("looks good, save the plan"), Intent::Save);
        assert_eq!(intent("save only the first one"), Intent::Save);
        assert_eq!(intent("show me my recipes"), Intent::ListRecipes);
        assert_eq!(intent("what can I make?"), Intent::WhatCanIMake);
        assert!(
            matches!(
                intent("which ones use coconut milk"),
                Intent::Skill(SkillAsk::Recipes(skills::recipes::Ask::Find(_)))
            ),
            "a search by ingredient is the recipes skill's"
        );
    }

    #[test]
    fn short_replies_follow_the_last_question() {
        let proposal = Cues {
            proposal: true,
            ..Cues::default()
        };
        assert_eq!(
            classify(&Words::new("sure"), proposal),
            Intent::Talk(TalkAsk::Affirm)
        );
        assert_eq!(intent("sure"), Intent::Talk(TalkAsk::Thanks));
        assert_eq!(intent("thanks!"), Intent::Talk(TalkAsk::Thanks));
        assert_eq!(intent("hello"), Intent::Talk(TalkAsk::Greeting));
        assert_eq!(intent("nope"), Intent::Talk(TalkAsk::Decline));
        assert_eq!(
            classify(&Words::new("from my saved ones"), proposal),
            Intent::ListRecipes
        );
        assert!(matches!(
            classify(&Words::new("something new"), proposal),
            Intent::Generate(_)
        ));
        assert_eq!(intent("asdf qwer"), Intent::Unknown);
        assert_eq!(intent(""), Intent::Empty);
        assert_eq!(intent("🍕"), Intent::Empty);
    }
}
