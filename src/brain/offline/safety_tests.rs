//! The safety invariant, end to end through the pipeline: a message with
//! no change verb never writes to the kitchen, whatever Alfred offered or
//! asked before it; and the unasked writes users met are regression tests.
//!
//! One frame asks for a change without a verb: a saved recipe said plainly
//! with a day ("wednesday paneer", "the cod with miso, friday") goes on the
//! plan. The random words below name no saved recipe on their own, so the
//! property is about everything else; the frame's own limits (weighed or
//! asked, it writes nothing) are tested on their own below.

use proptest::prelude::*;
use serde_json::Value;

use crate::scenario::writes_of;

use crate::fixtures::Conversation;

/// Where a conversation stands before the random message: nothing yet, a
/// proposal, an unsaved draft (save offered), two drafts, a list shown, a
/// saved plan, a "which one do you mean?" about showing something (an
/// answer to one about a change completes that change, asked in words).
const SETUPS: &[&[&str]] = &[
    &[],
    &["can you help me plan some meals?"],
    &["give me a thai basil chicken recipe"],
    &["give me 2 chicken dinner ideas"],
    &["show me my recipes"],
    &[
        "let's do the paneer on sunday and the curry on wednesday",
        "save the plan",
    ],
    &["show me my recipes", "show me the curry"],
];

/// Words people type that ask for no change: questions, pronouns,
/// ordinals, dishes, hedges, chatter. No change verb, and no word that is
/// a "yes" on its own.
const WORDS: &[&str] = &[
    "night",
    "before",
    "next",
    "half",
    "dozen",
    "sorry",
    "what",
    "about",
    "which",
    "the",
    "2nd",
    "one",
    "it",
    "that",
    "hmm",
    "how",
    "long",
    "does",
    "is",
    "saved",
    "should",
    "i",
    "chickpeas",
    "tofu",
    "curry",
    "tonight",
    "for",
    "dinner",
    "wait",
    "third",
    "first",
    "last",
    "those",
    "quickest",
    "much",
    "rice",
    "have",
    "eggs",
    "in",
    "my",
    "fridge",
    "not",
    "unsure",
    "yet",
    "maybe",
    "thai",
    "basil",
    "beef",
    "with",
    "something",
    "spicy",
    "lol",
    "would",
    "be",
    "wednesday",
    "week",
    "list",
    "shopping",
    "recipe",
    "tell",
    "me",
    "more",
    "there",
    "any",
    "left",
    "was",
    "lunch",
    "tomorrow",
];

fn message(words: &[usize], question: bool) -> String {
    let mut m = words
        .iter()
        .map(|i| WORDS[i % WORDS.len()])
        .collect::<Vec<_>>()
        .join(" ");
    if question {
        m.push('?');
    }
    m
}

/// A write that is the plain plan form: one meal planned, no question,
/// a day named, and every other word of the message in what was planned
/// (the recipe's name the reply says back) or saying nothing. After a
/// list was shown, a place in it ("tonight 2nd", "the first one
/// wednesday") names a recipe as well as its name does.
fn plain_plan(m: &str, wrote: &[String], reply: &str, listed: bool) -> bool {
    const DAYS: &[&str] = &["wednesday", "tomorrow", "tonight"];
    const NOTHING: &[&str] = &["the", "for", "dinner", "lunch", "with", "in"];
    const PLACES: &[&str] = &["2nd", "one", "first", "third", "last"];
    let reply = reply.to_lowercase();
    let words: Vec<&str> = m.split_whitespace().collect();
    let place = |w: &&str| listed && PLACES.contains(w);
    wrote == ["meal_plans:create"]
        && !m.ends_with('?')
        && words.iter().any(|w| DAYS.contains(w))
        && words
            .iter()
            .all(|w| DAYS.contains(w) || NOTHING.contains(w) || place(w) || reply.contains(w))
}

/// The setups whose last reply shows a list to pick from: ideas, the
/// saved recipes, the plan just saved (its second slot is "the 2nd"), the
/// two curries asked between ("wednesday 2nd" picks Thai Yellow Curry).
const LISTS: &[usize] = &[3, 4, 5, 6];

fn writes(sim: &Conversation) -> Vec<String> {
    let rec: Value = sim.json();
    writes_of(&rec)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A message without a change verb writes nothing, in any state —
    /// but for the plain plan form ("thai curry wednesday"), a message of
    /// a saved recipe's name and a day with nothing else said, which puts
    /// that recipe on the plan.
    #[test]
    fn no_message_without_a_change_verb_writes(
        setup in 0..SETUPS.len(),
        words in proptest::collection::vec(0usize..WORDS.len(), 1..8),
        question in any::<bool>(),
    ) {
        let mut sim = Conversation::new();
        for m in SETUPS[setup] {
            sim.say(m);
        }
        let m = message(&words, question);
        sim.say(&m);
        let wrote = writes(&sim);
        prop_assert!(
            wrote.is_empty() || plain_plan(&m, &wrote, sim.reply(), LISTS.contains(&setup)),
            "{m:?} after {:?} wrote {wrote:?}: {}", SETUPS[setup], sim.reply()
        );
    }
}

/// A saved recipe with a day plans it when said plainly; weighed, asked
/// about or unclear, it writes nothing.
#[test]
fn a_recipe_with_a_day_plans_only_when_said_plainly() {
    for m in [
        "wednesday paneer",
        "ok assam pedas thursday dinner",
        "the wings sat and sun",
    ] {
        let mut sim = Conversation::new();
        sim.say_confirming(m);
        assert_eq!(writes(&sim), ["meal_plans:create"], "{m}: {}", sim.reply());
    }
    for m in [
        "wednesday paneer?",
        "maybe the wings on saturday",
        "how about the pad see ew on friday",
        "is the paneer on wednesday",
        "what about the curry on friday",
        "not the wings on friday",
        "the curry on friday",
        // A word besides the recipe's: which dish, or something else?
        "curry basil thai wednesday",
        "curry something thai wednesday",
    ] {
        let mut sim = Conversation::new();
        sim.say_confirming(m);
        assert!(writes(&sim).is_empty(), "{m} wrote: {}", sim.reply());
    }
}

#[test]
fn a_question_after_a_clarifying_question_edits_nothing() {
    let mut sim = Conversation::new();
    sim.run(&["show me my recipes", "add some garlic to that recipe"]);
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    sim.say("wait how long does the third one take?");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    let reply = sim.reply().to_lowercase();
    assert!(!reply.contains("about the third"), "{reply}");
}

#[test]
fn a_new_request_while_a_draft_waits_is_not_consent_to_save_it() {
    let mut sim = Conversation::new();
    sim.say("give me a thai basil chicken recipe");
    sim.say("ok what about something with chickpeas");
    assert!(writes(&sim).is_empty(), "saved: {}", sim.reply());
    assert!(
        sim.reply().to_lowercase().contains("chickpea"),
        "{}",
        sim.reply()
    );
    sim.say("hmm not sure about saving either of them yet");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    sim.say("should i save it?");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
}

#[test]
fn an_answer_completes_the_change_it_was_asked_about() {
    let mut sim = Conversation::new();
    sim.run(&["show me my recipes", "add some garlic to the curry"]);
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    let question = sim.dialogue().question.clone();
    assert!(
        question.is_some_and(|q| q.candidates.len() == 2),
        "{}",
        sim.reply()
    );
    sim.say("the thai one");
    let wrote = writes(&sim);
    assert!(
        wrote.contains(&"recipe_ingredients:create".to_string()),
        "{wrote:?}"
    );
    assert!(sim.reply().contains("Thai Yellow Curry"), "{}", sim.reply());
}

#[test]
fn a_plain_yes_to_an_offer_does_what_was_offered() {
    let mut sim = Conversation::new();
    sim.say("give me a thai basil chicken recipe");
    let offer = &sim.last().narrative.turns.last().unwrap().dialogue;
    assert!(offer.offer.is_some(), "{:?}", offer);
    sim.say("yes please");
    assert!(
        writes(&sim).contains(&"recipes:create".to_string()),
        "{}",
        sim.reply()
    );
}

#[test]
fn questions_about_the_kitchen_write_nothing() {
    let mut sim = Conversation::new();
    for m in [
        "which chicken have i got in the freezer",
        "just got back from the shops",
        "how much rice have i got",
        "is it saved?",
    ] {
        sim.say(m);
        assert!(writes(&sim).is_empty(), "{m}: {}", sim.reply());
    }
}

#[test]
fn an_edit_that_changes_nothing_writes_nothing_and_claims_nothing() {
    let mut sim = Conversation::new();
    sim.run(&["show me my recipes", "the 8th one"]);
    sim.say("take the mushrooms out of it");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    assert!(!sim.reply().starts_with("Done"), "{}", sim.reply());
}

#[test]
fn an_amount_used_of_it_takes_that_much_off_and_keeps_the_rest() {
    let mut sim = Conversation::new();
    sim.run_confirming(&[
        "hw much jasmine rice have i got",
        "used 200g of it last nite",
    ]);
    assert_eq!(writes(&sim), vec!["inventory:update"], "{}", sim.reply());
    assert!(sim.reply().contains("1.8 kg"), "{}", sim.reply());
}

#[test]
fn a_draft_saved_then_planned_is_planned_and_the_reply_says_so() {
    let mut sim = Conversation::new();
    sim.run(&["can u do me a quick noodle thing w chicken", "ok save it"]);
    sim.say("put it on wed");
    assert_eq!(writes(&sim), vec!["meal_plans:create"], "{}", sim.reply());
    assert!(
        sim.reply().contains("Quick Chicken Noodles"),
        "{}",
        sim.reply()
    );
    assert!(
        !sim.reply().contains('?') || sim.reply().contains("shopping list"),
        "{}",
        sim.reply()
    );
}

#[test]
fn nvm_take_them_off_takes_off_what_was_just_added() {
    let mut sim = Conversation::new();
    sim.say_confirming("stick eggs on the list");
    sim.say_confirming("actually nvm take them off");
    assert_eq!(
        writes(&sim),
        vec!["shopping_list:delete"],
        "{}",
        sim.reply()
    );
    assert!(sim.reply().contains("eggs"), "{}", sim.reply());
}

#[test]
fn an_answer_to_which_cod_one_plans_the_one_named_not_the_first_listed() {
    let mut sim = Conversation::new();
    sim.say("any recipes w the paneer");
    sim.say_confirming("put that on fri");
    sim.say("actually nvm swap fri for the cod one");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    sim.say_confirming("the miso one");
    assert_eq!(writes(&sim), vec!["meal_plans:update"], "{}", sim.reply());
    assert!(
        sim.reply().contains("Miso Glazed Air Fryer Cod"),
        "{}",
        sim.reply()
    );
    assert!(!sim.reply().contains("Kerala"), "{}", sim.reply());
}

#[test]
fn an_add_said_bare_beside_a_recipe_asks_whether_the_recipe_or_the_list_is_meant() {
    let mut sim = Conversation::new();
    sim.say("show me the pad see ew");
    sim.say("yes add eggs and a new brioche");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    assert!(
        sim.reply().contains("to the recipe Thai Pad See Ew?")
            && sim
                .reply()
                .contains("add eggs and a new brioche to the shopping list"),
        "{}",
        sim.reply()
    );
    // Said with where it goes, the list is the list.
    sim.say("add eggs to the shopping list");
    assert_eq!(
        writes(&sim),
        vec!["shopping_list:create"],
        "{}",
        sim.reply()
    );
}

#[test]
fn a_task_just_added_is_what_it_and_that_reminder_point_at() {
    let mut sim = Conversation::new();
    sim.say("add a reminder to buy coconut milk friday");
    assert_eq!(writes(&sim), vec!["tasks:create"], "{}", sim.reply());
    assert!(sim.reply().contains("Buy coconut milk"), "{}", sim.reply());
    assert!(!sim.reply().contains("milk friday"), "{}", sim.reply());
    sim.say("delete it");
    assert_eq!(writes(&sim), vec!["tasks:delete"], "{}", sim.reply());
}

#[test]
fn a_draft_put_on_the_plan_is_never_a_saved_recipe_sharing_a_word() {
    for m in ["put it on tonight", "thai basil chicken tonight"] {
        let mut sim = Conversation::new();
        sim.say("give me a thai basil chicken recipe");
        sim.say(m);
        assert!(writes(&sim).is_empty(), "{m}: {}", sim.reply());
        assert!(
            sim.reply().contains("Thai Basil Chicken") && sim.reply().contains("save it"),
            "{m}: {}",
            sim.reply()
        );
    }
}

#[test]
fn a_saved_recipe_edit_and_its_undo_say_what_they_wrote() {
    let mut sim = Conversation::new();
    sim.run_confirming(&["mushroom risotto recipie pls", "save it"]);
    sim.say_confirming("add chilli flakes to the saved one too");
    let outcome = |sim: &Conversation| sim.last().steps.last().unwrap().outcome.clone();
    assert_eq!(writes(&sim), vec!["recipe_ingredients:create"]);
    assert!(
        outcome(&sim).starts_with("Added chilli flakes"),
        "{}",
        outcome(&sim)
    );
    sim.say_confirming("hmm actually nvm take it back out");
    assert_eq!(writes(&sim), vec!["recipe_ingredients:delete"]);
    assert!(
        outcome(&sim).starts_with("Took the chilli flakes out"),
        "{}",
        outcome(&sim)
    );
}

#[test]
fn a_vague_request_gets_a_short_question_and_its_answer_fills_it_in() {
    let mut sim = Conversation::new();
    for m in ["remove it", "change it", "hm and the other thing"] {
        sim.say_confirming(m);
        assert!(writes(&sim).is_empty(), "{m}: {}", sim.reply());
        assert!(sim.reply().ends_with('?'), "{m}: {}", sim.reply());
        assert!(
            !sim.reply().contains("didn't catch"),
            "{m}: {}",
            sim.reply()
        );
    }
    sim.say_confirming("remove it");
    sim.say_confirming("the tomatoes. off the shopping list");
    assert_eq!(
        writes(&sim),
        vec!["shopping_list:delete"],
        "{}",
        sim.reply()
    );
    assert!(sim.reply().contains("tomato"), "{}", sim.reply());
    // A question of the user's own after it is answered, not taken as what
    // to add.
    sim.run_confirming(&["any thai ones", "add some to that recipe"]);
    assert!(sim.reply().contains("Thai Pad See Ew"), "{}", sim.reply());
    sim.say_confirming("wait how long does the second one take?");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
}

#[test]
fn put_it_back_after_a_removal_puts_back_that_item_only() {
    let mut sim = Conversation::new();
    sim.say("is olive oil on there");
    sim.say_confirming("take it off too");
    assert_eq!(writes(&sim), vec!["shopping_list:delete"]);
    sim.say_confirming("actually nvm put it back");
    assert_eq!(
        writes(&sim),
        vec!["shopping_list:create"],
        "{}",
        sim.reply()
    );
    assert!(
        sim.reply().contains("olive oil (1 bottle)"),
        "{}",
        sim.reply()
    );
    assert!(!sim.reply().contains("broccoli"), "{}", sim.reply());
    // Nothing came off last turn: nothing to put back, nothing written.
    sim.say_confirming("put it back");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
}

#[test]
fn the_last_resort_offers_three_things_to_try() {
    let mut sim = Conversation::new();
    let reply = sim.say("blorp zorp").reply.clone();
    assert!(reply.contains("didn't catch"), "{reply}");
    assert_eq!(reply.matches("try \"").count(), 1, "{reply}");
    assert_eq!(
        reply.matches('"').count(),
        6,
        "three things to try: {reply}"
    );
}

#[test]
fn two_requests_in_one_message_both_happen_and_the_reply_says_both() {
    let mut sim = Conversation::new();
    sim.say_confirming("we're out of milk, add it to the list");
    assert_eq!(
        writes(&sim),
        vec!["inventory:delete", "shopping_list:create"],
        "{}",
        sim.reply()
    );
    // No amount said, none written: the row is the name alone.
    assert!(sim.reply().contains("- milk\n"), "{}", sim.reply());
    // The plan steps of the second part run after the first part's.
    let groups: Vec<u32> = sim.last().steps.iter().map(|s| s.group).collect();
    assert!(groups.windows(2).all(|g| g[0] <= g[1]), "{groups:?}");

    let mut sim = Conversation::new();
    sim.run_confirming(&["can you come up with a chicken traybake"]);
    sim.say_confirming("ok save it and put it on wed");
    assert_eq!(
        writes(&sim),
        vec!["recipes:create", "meal_plans:create"],
        "{}",
        sim.reply()
    );
    assert!(sim.reply().contains("Wed"), "{}", sim.reply());
}

#[test]
fn a_plan_put_and_a_question_in_one_message_plans_and_answers() {
    let mut sim = Conversation::new();
    sim.say_confirming("ok dinners now. paneer on wednesday, and whats quick for friday?");
    assert_eq!(writes(&sim), vec!["meal_plans:create"], "{}", sim.reply());
    assert!(
        sim.reply().contains("Air Fryer Paneer Tikka"),
        "{}",
        sim.reply()
    );
    assert!(sim.reply().contains("quickest"), "{}", sim.reply());
}

#[test]
fn recipes_that_use_the_expiring_items_say_only_the_items_each_one_uses() {
    let mut sim = Conversation::new();
    sim.run(&["whats expiring soon", "ok which recipes use those"]);
    let reply = sim.reply().to_string();
    let line = |name: &str| {
        reply
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} not in {reply}"))
            .to_string()
    };
    // A staple in a recipe (salt, oil) used to count as every item.
    assert!(!line("Kerala Cod Curry").contains("brioche"), "{reply}");
    assert!(line("Chai French Toast").contains("brioche"), "{reply}");
}

#[test]
fn a_can_used_is_one_can_not_the_whole_stock() {
    let mut sim = Conversation::new();
    sim.say_confirming("used a can of coconut milk last night");
    assert_eq!(writes(&sim), vec!["inventory:update"], "{}", sim.reply());
    assert!(
        sim.reply().contains("coconut milk (2 cans)"),
        "{}",
        sim.reply()
    );
    // One pantry row read for that does not make the pantry known: a can of
    // chickpeas tops up the chickpeas, not a second row.
    sim.say_confirming("add a can of chickpeas to the pantry");
    assert_eq!(writes(&sim), vec!["inventory:update"], "{}", sim.reply());
    assert!(
        sim.reply().contains("chickpeas (3 cans)"),
        "{}",
        sim.reply()
    );
}

#[test]
fn never_mind_in_front_of_a_question_answers_it_and_forgets_nothing() {
    let mut sim = Conversation::new();
    sim.run(&["whats on my shopping list", "and the other thing"]);
    sim.say("nvm. how much rice have i got");
    assert!(sim.reply().contains("jasmine rice"), "{}", sim.reply());
    assert!(!sim.reply().contains("forgotten"), "{}", sim.reply());
}

#[test]
fn items_put_away_are_added_once_and_them_means_those_items() {
    let mut sim = Conversation::new();
    sim.say_confirming("put 4 tomatos and a bunch of thai basil in the fridge");
    // The basil was created, then topped up by a second call to 2 bunches.
    assert_eq!(writes(&sim), vec!["inventory:create"], "{}", sim.reply());
    assert!(!sim.reply().contains("2 bunches"), "{}", sim.reply());
    sim.say_confirming("mark them as bought on the shopping list");
    assert!(sim.reply().contains("thai basil"), "{}", sim.reply());
    assert!(sim.reply().contains("tomato"), "{}", sim.reply());
}

#[test]
fn cods_fine_lifts_the_fish_rule_and_the_comparison_counts_the_cod_again() {
    let mut sim = Conversation::new();
    sim.run(&[
        "gonna plan the week, wht recipes have i got saved",
        "leave out anything with fish, and the breakfast one",
        "ok of whats left which is quickest",
    ]);
    assert!(!sim.reply().contains("Cod"), "{}", sim.reply());
    sim.say("actually cod's fine, forgot i have loads in the freezer. so whats quickest now");
    assert!(
        sim.reply()
            .starts_with("Miso Glazed Air Fryer Cod is the quickest"),
        "{}",
        sim.reply()
    );
    assert!(
        !sim.reply().contains("French Toast"),
        "breakfast is still out: {}",
        sim.reply()
    );
}

#[test]
fn the_other_one_is_the_one_of_the_two_not_yet_planned() {
    let mut sim = Conversation::new();
    sim.run_confirming(&[
        "wht about the thai ones",
        "which of them needs the fewest things i dont have",
        "put that one on thursday",
    ]);
    assert!(sim.reply().contains("Thai Yellow Curry"), "{}", sim.reply());
    sim.say_confirming("and the other one sunday");
    assert_eq!(writes(&sim), vec!["meal_plans:create"], "{}", sim.reply());
    assert!(
        sim.reply().contains("Sun") && sim.reply().contains("Thai Pad See Ew"),
        "{}",
        sim.reply()
    );
}

#[test]
fn a_list_of_items_run_out_of_is_each_item_and_a_later_clause_is_no_item() {
    let mut sim = Conversation::new();
    sim.say_confirming("we ran out of garlic and lemons, chuck them on the list");
    assert_eq!(
        writes(&sim),
        vec!["inventory:delete", "shopping_list:create"],
        "{}",
        sim.reply()
    );
    // It was one item called "garlic lemon", which matched nothing.
    assert!(!sim.reply().contains("garlic lemon"), "{}", sim.reply());
    sim.say_confirming("put milk and eggs on the list and then show me it");
    assert!(!sim.reply().contains("show (1 pack)"), "{}", sim.reply());
    sim.say_confirming("what tasks have i got, and whats planned this week");
    assert!(sim.reply().contains("Deep-clean"), "{}", sim.reply());
    assert!(
        sim.reply().contains("plan"),
        "the plan part is answered too: {}",
        sim.reply()
    );
}

#[test]
fn the_second_part_points_at_what_the_first_part_planned() {
    let mut sim = Conversation::new();
    sim.say_confirming("whats on my list");
    // After a look at the list, a day named is the plan's, not the list's.
    sim.say_confirming(
        "no wait, put the wings on friday and the kerala curry on saturday, and add whats missing",
    );
    assert_eq!(
        writes(&sim),
        vec!["meal_plans:create", "shopping_list:create"],
        "{}",
        sim.reply()
    );
    assert!(sim.reply().contains("green chili"), "{}", sim.reply());
    assert!(!sim.reply().contains("wings (1 pack)"), "{}", sim.reply());
}

#[test]
fn an_item_just_added_to_the_list_comes_off_the_list_though_the_kitchen_has_it() {
    let mut sim = Conversation::new();
    sim.run_confirming(&[
        "add fish sauce n limes to shoping list",
        "wait i have limes dont i",
    ]);
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    sim.say_confirming("ok take the limes back off then");
    assert_eq!(
        writes(&sim),
        vec!["shopping_list:delete"],
        "{}",
        sim.reply()
    );
    assert!(sim.reply().contains("lime"), "{}", sim.reply());
}

#[test]
fn yeah_take_those_off_means_the_items_just_shown_on_the_list() {
    let mut sim = Conversation::new();
    sim.say_confirming("add 1kg chicken thighs, a bag of spinach and 2 onions to the list");
    sim.say("hang on i have onions dont i");
    sim.say_confirming("yeah take those off then");
    assert_eq!(
        writes(&sim),
        vec!["shopping_list:delete"],
        "{}",
        sim.reply()
    );
    assert!(sim.reply().contains("onion"), "{}", sim.reply());
    assert!(
        sim.reply().contains("spinach"),
        "still on the list: {}",
        sim.reply()
    );
}

#[test]
fn after_a_task_was_added_the_talk_stays_on_tasks() {
    let mut sim = Conversation::new();
    sim.run_confirming(&[
        "add a task to use up the bananas by friday",
        "and one for making the paneer tikka on thursday",
    ]);
    sim.say_confirming("wait theres already a paneer one isnt there");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    assert!(sim.reply().contains("Use up the paneer"), "{}", sim.reply());
    sim.say_confirming("delete the new one then");
    assert_eq!(writes(&sim), vec!["tasks:delete"], "{}", sim.reply());
    assert!(
        sim.reply().contains("Making the paneer tikka"),
        "{}",
        sim.reply()
    );
}

#[test]
fn an_ingredient_and_a_day_without_a_verb_asks_before_planning() {
    let mut sim = Conversation::new();
    sim.say("basil for tonight");
    assert!(writes(&sim).is_empty(), "wrote {:?}", writes(&sim));
    // Asked first, naming the day (the older rules read it; the reader
    // did not).
    assert!(
        sim.reply().contains("on the plan for today"),
        "{}",
        sim.reply()
    );
    // A bare "yes" to that question puts it on; a "no" writes nothing.
    sim.say("yes");
    assert_eq!(writes(&sim), ["meal_plans:create"], "{}", sim.reply());
    assert!(sim.reply().contains("Thai Yellow Curry"), "{}", sim.reply());
    let mut sim = Conversation::new();
    sim.say("basil for tonight");
    sim.say("nah");
    assert!(writes(&sim).is_empty(), "wrote {:?}", writes(&sim));
    // Said with a verb, or by the dish's name, it is planned as before.
    let mut sim = Conversation::new();
    sim.say("put the yellow curry on for tonight");
    assert_eq!(writes(&sim), ["meal_plans:create"], "{}", sim.reply());
}

/// "third tonight" after "which one do you mean: A or B?": no candidate
/// is the third, so Alfred asks again and writes nothing (it planned the
/// first candidate before).
#[test]
fn a_place_the_question_does_not_have_is_asked_about_again() {
    let asked = || {
        let mut sim = Conversation::new();
        sim.say("show me my recipes");
        sim.say("show me the curry");
        assert!(
            sim.reply().contains("which one do you mean"),
            "{}",
            sim.reply()
        );
        sim
    };
    for m in ["third tonight", "the 5th one on friday"] {
        let mut again = asked();
        again.say(m);
        assert!(writes(&again).is_empty(), "{m} wrote: {}", again.reply());
        assert!(
            again
                .reply()
                .contains("there are only 2: Kerala Cod Curry or Thai Yellow Curry"),
            "{m}: {}",
            again.reply()
        );
    }
    // A place the question has still answers it.
    let mut sim = asked();
    sim.say("the second one");
    assert!(sim.reply().contains("Thai Yellow Curry"), "{}", sim.reply());
    assert!(writes(&sim).is_empty(), "showing writes nothing");
}

/// "undo that" right after milk went on the list takes it off again; it
/// does not ask to put back what nothing took off.
#[test]
fn undo_after_an_add_to_the_list_takes_it_off_again() {
    let mut sim = Conversation::new();
    sim.say_confirming("add milk to the list");
    assert_eq!(writes(&sim), ["shopping_list:create"], "{}", sim.reply());
    sim.say_confirming("undo that");
    assert_eq!(writes(&sim), ["shopping_list:delete"], "{}", sim.reply());
    assert!(
        sim.reply().to_lowercase().contains("milk"),
        "{}",
        sim.reply()
    );
    assert!(!sim.reply().contains("put back"), "{}", sim.reply());
}

/// A change said beside a lookup the older rules would answer ("take 2
/// of the cod out" after naming the dish) is not lost behind the answer:
/// the reply says which words it could not read, that nothing changed,
/// and offers looks this reader carries out; a plain yes takes its one
/// offer.
#[test]
fn a_change_the_answer_would_leave_unread_is_declined_with_options() {
    let mut sim = Conversation::new();
    sim.say("ok doing the miso cod. take 2 of the cod out");
    let reply = sim.reply();
    assert!(writes(&sim).is_empty(), "{reply}");
    assert!(reply.contains("“take 2 of the cod out”"), "{reply}");
    assert!(reply.contains("changed nothing"), "{reply}");
    assert!(
        reply.contains("“how much cod fillet have i got”"),
        "{reply}"
    );
    let goal = sim.json()["goal"].to_string();
    assert!(
        goal.contains("could not be read"),
        "the Narrative says so: {goal}"
    );
    let mut sim = Conversation::new();
    sim.say("keep only the olive oil");
    let reply = sim.reply();
    assert!(writes(&sim).is_empty(), "{reply}");
    assert!(reply.contains("“what's on the shopping list”"), "{reply}");
    sim.say("yes");
    assert!(sim.reply().contains("chinese broccoli"), "{}", sim.reply());
}

/// A rule read in a message that asks something is not kept, and demotes
/// nothing: the reply asks whether to keep it, and a yes keeps it.
#[test]
fn a_question_is_not_taken_for_a_rule() {
    let mut sim = Conversation::new();
    sim.say("will the wings be too hot for her? she's not great with spice");
    let standing = |sim: &Conversation| {
        sim.json()["constraints"]
            .to_string()
            .matches("spic")
            .count()
    };
    assert_eq!(standing(&sim), 0, "{}", sim.reply());
    assert!(
        sim.reply()
            .contains("Should I keep “no spice” as a rule from now on?"),
        "{}",
        sim.reply()
    );
    sim.say("yes");
    assert!(standing(&sim) > 0, "{}", sim.reply());
}

/// A refusal that answers, picks or gives a reason ("ok no fish",
/// "mum says no ice cream. take it off") keeps no rule; one said as a rule
/// ("from now on", "allergic", alone) is kept.
#[test]
fn a_refusal_in_passing_is_asked_about_and_one_said_as_a_rule_is_kept() {
    let standing = |sim: &Conversation| sim.json()["constraints"].to_string();
    let mut sim = Conversation::new();
    sim.say("add milk and ice cream to the list");
    sim.say("mum says no ice cream. take it off");
    assert!(!standing(&sim).contains("cream"), "{}", sim.reply());
    assert_eq!(writes(&sim), ["shopping_list:delete"], "{}", sim.reply());
    let mut sim = Conversation::new();
    sim.say("Ok. And for tonight, it rests some chicken? Not the wings.");
    assert!(!standing(&sim).contains("wing"), "{}", sim.reply());
    for m in [
        "my sister is allergic to nuts",
        "no fish",
        "nothing spicy from now on",
    ] {
        let mut sim = Conversation::new();
        sim.say(m);
        assert!(
            standing(&sim).contains("\"clause\""),
            "{m}: {}",
            sim.reply()
        );
    }
}

/// A rule read beside another request, in an answer, narrowing a list or
/// said of one of several people is not kept on a guess; "drop the spicy
/// rule. fish one stays" lifts the one it names.
#[test]
fn rules_read_in_passing_are_not_kept_and_a_named_rule_is_dropped() {
    let standing = |sim: &Conversation| sim.json()["constraints"].to_string();
    for turns in [
        &["what can i make", "nah skip the chaat masala"][..],
        &["having 6 over on sunday, one's vegetarian. wings for the rest?"],
        &[
            "show me the wings",
            "yeah just leave out the cayenne, add it",
        ],
        &[
            "show me the wings",
            "is it spicy? one of them cant do spice",
        ],
        &["great, take the chicken out now then"],
        &[
            "what can i make",
            "hmm actually no, kerala. i want something saucy",
        ],
    ] {
        let mut sim = Conversation::new();
        for m in turns {
            sim.say(m);
        }
        assert!(
            !standing(&sim).contains("\"clause\""),
            "{turns:?}: {}",
            sim.reply()
        );
    }
    // Said as a rule beside a search, only the clause that says it is
    // kept: "no fish", not "paneer".
    let mut sim = Conversation::new();
    sim.say("what can i make");
    sim.say("ugh. ok nah no fish then, just stuff w chicken or that paneer");
    let now = standing(&sim);
    assert!(now.contains("fish") && !now.contains("paneer"), "{now}");
    let mut sim = Conversation::new();
    sim.say("no fish this week");
    sim.say("and nothing spicy this week");
    sim.say("stomach's better, you can drop the spicy rule. fish one stays");
    let json = sim.json();
    let active: Vec<&str> = json["constraints"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["status"] == "active")
        .filter_map(|c| c["label"].as_str())
        .collect();
    assert_eq!(active, ["no fish"], "{}", sim.reply());
}

/// An add that leaves something out ("but not the milk"), or that says a
/// count it does not take, is asked about, never written as read by the
/// older rules; "quick" beside a refusal is what is asked for, not a rule.
#[test]
fn exceptions_and_unplaced_counts_are_asked_and_quick_is_no_rule() {
    let mut sim = Conversation::new();
    sim.say("what needs using up");
    sim.say("put all of them on the list but not the milk, we have loads");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    assert!(
        !sim.json()["constraints"].to_string().contains("milk"),
        "{}",
        sim.reply()
    );
    let mut sim = Conversation::new();
    sim.say("add the lime thing to the shopping list, get 3 of them");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    let mut sim = Conversation::new();
    sim.say("for saturday, nothing with fish, quick");
    assert!(
        !sim.reply().contains("quick. That rules out"),
        "{}",
        sim.reply()
    );
}

/// Asked for again, a row the list holds as bought is set back to not
/// bought with the amount said — not listed a second time; "another"
/// still lists a second one.
#[test]
fn a_ticked_row_asked_for_again_is_set_back_not_listed_twice() {
    let mut sim = Conversation::new();
    sim.say("put greek yogurt 500g on the list then");
    assert_eq!(writes(&sim), ["shopping_list:update"], "{}", sim.reply());
    assert!(
        sim.reply().contains("greek yogurt (500 g)"),
        "{}",
        sim.reply()
    );
    let mut sim = Conversation::new();
    sim.say("add another greek yogurt to the list");
    assert_eq!(writes(&sim), ["shopping_list:create"], "{}", sim.reply());
}

/// A name taken with the small words around it, or a size alone, is not
/// written on a yes; "no wait" corrects, it rules nothing out.
#[test]
fn guessed_names_and_self_corrections_write_nothing() {
    let mut sim = Conversation::new();
    sim.say("what do i need to buy for the paneer tikka");
    sim.say("Yes add please, small one");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    let mut sim = Conversation::new();
    sim.say("ok miso cod. no wait, the yellow curry. put that in");
    let standing = sim.json()["constraints"].to_string();
    assert!(!standing.contains("urry"), "{standing}: {}", sim.reply());
}

/// A change to a recipe with no recipe in the talk is declined, the add
/// to the list the words would make offered first — not a question about
/// which recipe to change.
#[test]
fn a_recipe_change_with_no_recipe_in_the_talk_offers_the_list_add() {
    let mut sim = Conversation::new();
    sim.say("add more garlic");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    assert!(
        sim.reply().contains("“add garlic to the shopping list”"),
        "{}",
        sim.reply()
    );
    assert!(
        !sim.reply().contains("which one should I change"),
        "{}",
        sim.reply()
    );
}

/// A refusal after one recipe's card, while Alfred's offer is open, is no
/// narrowing of a list and keeps no rule; a food the stock holds under
/// another name is still found.
#[test]
fn skipping_one_thing_after_a_recipe_card_keeps_no_rule() {
    let mut sim = Conversation::new();
    sim.say("what am i missing for the assam pedas");
    sim.say("omg yes skip the shallots");
    let standing = sim.json()["constraints"].to_string();
    assert!(!standing.contains("shallot"), "{standing}: {}", sim.reply());
    let mut sim = Conversation::new();
    sim.say("how many tea bags have i got left");
    assert!(sim.reply().contains("black tea"), "{}", sim.reply());
}

/// A write past a standing rule, let through because the message names
/// what it touches, is made and said: the reply names the rule it went
/// past.
#[test]
fn a_write_past_a_rule_the_message_names_is_said() {
    let mut sim = Conversation::new();
    sim.say("no fish this week");
    sim.say("put the kerala curry on wednesday");
    assert_eq!(writes(&sim), ["meal_plans:create"], "{}", sim.reply());
    assert!(
        sim.reply()
            .contains("went ahead though you said “no fish this week”: you named it"),
        "{}",
        sim.reply()
    );
    // Nothing ruled out: nothing said.
    let mut sim = Conversation::new();
    sim.say("put the kerala curry on wednesday");
    assert!(!sim.reply().contains("you named it"), "{}", sim.reply());
}

/// Bringing back what was never ruled out says so; it names no blank
/// ("Sure —  is back in").
#[test]
fn bringing_back_what_was_never_ruled_out_names_no_blank() {
    let mut sim = Conversation::new();
    sim.say("fish is fine btw, she eats fish");
    assert!(writes(&sim).is_empty(), "{}", sim.reply());
    assert!(!sim.reply().contains("—  is back in"), "{}", sim.reply());
    let standing = sim.json()["constraints"].to_string();
    assert!(!standing.contains("fish"), "{standing}: {}", sim.reply());
}

/// Read only by the older rules (the reader passes), a change is asked
/// about first — whatever words ask for it — and a "yes" makes it. These
/// are the wordings fresh sets met where the older rules wrote wrongly:
/// a question about amounts added stock, a pronoun took the wrong row.
#[test]
fn the_older_rules_never_write_on_their_own_reading() {
    for m in [
        "got 10 people coming saturday for the match. wings obviously. how much do i need for 10",
        "can u add eggs n also like. chocolate spread. to the list",
        "I shall put it in the freezer then. And please add eggs, a box of six.",
        "jonno says he ate 2 of the bananas and a lime. also the paneer is his, not ours",
    ] {
        let mut sim = Conversation::new();
        sim.say(m);
        assert!(
            writes(&sim).is_empty(),
            "{m}: {:?} — {}",
            writes(&sim),
            sim.reply()
        );
        assert!(sim.reply().contains('?'), "{m}: {}", sim.reply());
    }
    // The question names the change, and a yes makes it.
    let mut sim = Conversation::new();
    sim.say("can u add eggs n also like. chocolate spread. to the list");
    assert!(sim.reply().contains("eggs"), "{}", sim.reply());
    sim.say("yes");
    assert!(
        writes(&sim).iter().any(|w| w == "shopping_list:create"),
        "{:?} — {}",
        writes(&sim),
        sim.reply()
    );
}

/// A change to rows the kitchen does not hold is never asked about as if
/// it made sense ("should I take stock off the stock?"): the words are
/// declined, naming them, and nothing is written, even after a yes.
#[test]
fn a_change_to_rows_the_kitchen_does_not_hold_is_declined_not_asked() {
    for m in [
        "grilled the wibble tonight, take the wibble out",
        "take the stuff out of the inventory",
    ] {
        let mut sim = Conversation::new();
        sim.say(m);
        let reply = sim.reply().to_string();
        assert!(reply.starts_with("I couldn't read"), "{m}: {reply}");
        sim.say("yes");
        assert!(writes(&sim).is_empty(), "{m}: {}", sim.reply());
    }
}

/// A recipe said cooked takes what it used out of the stock, in the
/// stock's own units; what the stock measures another way is named and
/// left as it was.
#[test]
fn a_recipe_said_cooked_lowers_the_rows_it_used() {
    let mut sim = Conversation::new();
    sim.say("made the chicken tikka bites last night");
    let reply = sim.reply().to_string();
    assert!(
        reply.starts_with("Took what Chicken Tikka Bites used out of the stock"),
        "{reply}"
    );
    // 800 g of the 1.5 kg of chicken thigh, 150 g of the 500 g of yogurt.
    assert!(reply.contains("chicken thigh (0.7 kg)"), "{reply}");
    assert!(reply.contains("greek yogurt (350 g)"), "{reply}");
    assert!(reply.contains("garam masala (2 tsp)"), "{reply}");
    sim.say("how much chicken thigh is left");
    assert!(sim.reply().contains("0.7 kg"), "{}", sim.reply());
}

/// A recipe cooked and a use said beside it are both carried out: the
/// use's write step is counted among its own, wherever the plan puts it.
#[test]
fn a_recipe_cooked_and_a_use_said_with_it_are_both_written() {
    let mut sim = Conversation::new();
    sim.say("cooked the miso cod. used 3 cod fillets");
    let reply = sim.reply().to_string();
    assert!(reply.contains("ginger (145 g)"), "{reply}");
    assert!(reply.contains("cod fillet (1 pcs)"), "{reply}");
    assert!(!reply.contains("nothing changed"), "{reply}");
}

/// A lack is asked about, never kept as a rule; buying is offered first,
/// and a "yes" keeps the rule with the words agreed to, not the "yes".
#[test]
fn a_lack_is_asked_about_with_buying_offered_and_a_yes_keeps_words_not_yes() {
    let mut sim = Conversation::new();
    sim.say("we have no eggs");
    assert_eq!(sim.json()["constraints"].to_string(), "[]");
    let reply = sim.reply();
    assert!(
        reply.contains("Should I keep “no eggs” as a rule")
            && reply.contains("“add eggs to the shopping list”"),
        "{reply}"
    );
    sim.say("yes");
    let kept = sim.json()["constraints"].to_string();
    assert!(
        kept.contains("no eggs") && !kept.contains("\"clause\":\"yes\""),
        "{kept}"
    );
}
