//! Working memory: pantry reads, adds and recall from memory; forget and
//! start fresh; retention of goal entities across detours (seed 003); and
//! curation that only ever names live refs.

use crate::context::ContextState;

use super::test_fixture::{turn_three, understand};
use crate::fixtures::Conversation;

#[test]
fn pantry_phrasings_read_the_pantry_only() {
    for m in [
        "what's in my pantry?",
        "What's in the pantry",
        "show me my pantry",
        "pantry?",
        "whats in my PANTRY",
    ] {
        let mut sim = Conversation::new();
        sim.say(m);
        sim.expect("steps read:inventory");
        let calls = sim.calls();
        assert_eq!(calls.len(), 1, "{m}");
        assert_eq!(
            calls[0].1["filters"][0],
            serde_json::json!({"field": "location", "op": "=", "value": "pantry"}),
            "{m}"
        );
        assert!(sim.reply().contains("36 items"), "{m}: {}", sim.reply());
    }
}

#[test]
fn a_loaded_location_is_listed_without_a_read() {
    let mut sim = Conversation::new();
    sim.run(&[
        "can you help me plan some meals?",
        "let's not do cod this week",
    ]);
    sim.say("what's in my fridge?");
    sim.expect("steps analyze:inventory");
    sim.expect("no-read inventory");
    assert!(sim.reply().contains("paneer (250 g)"), "{}", sim.reply());
}

#[test]
fn adding_to_the_kitchen_in_several_phrasings() {
    for m in [
        "add 12 eggs to my fridge",
        "put a dozen eggs in the fridge",
        "I bought 12 eggs",
        "Add twelve eggs to the fridge.",
    ] {
        let mut sim = Conversation::new();
        sim.say(m);
        // What the kitchen holds is looked up first, to top it up.
        sim.expect("steps read:inventory, write:inventory");
        let calls: Vec<_> = sim
            .calls()
            .into_iter()
            .filter(|c| c.0 == "db_create")
            .collect();
        let row = &calls[0].1["data"][0];
        assert_eq!(
            (row["name"].as_str(), row["quantity"].as_f64()),
            (Some("egg"), Some(12.0)),
            "{m}: {row}"
        );
        assert_eq!(
            (row["unit"].as_str(), row["location"].as_str()),
            (Some("pcs"), Some("fridge")),
            "{m}"
        );
        assert!(sim.reply().contains("12 eggs"), "{}", sim.reply());
    }
}

#[test]
fn recall_phrasings_answer_from_memory() {
    for m in [
        "what did I just add?",
        "What did we add",
        "remind me what I added",
        "what did i just add",
    ] {
        let mut sim = Conversation::new();
        sim.run(&["what's in my pantry?", "add 12 eggs to my fridge"]);
        sim.say(m);
        sim.expect("no-read inventory");
        assert!(sim.calls().is_empty(), "{m}");
        assert!(
            sim.reply().contains("12 eggs") && sim.reply().contains("fridge"),
            "{m}: {}",
            sim.reply()
        );
    }
}

#[test]
fn forget_phrasings_drop_the_last_discussed_entity() {
    for m in [
        "forget that",
        "never mind that recipe",
        "Forget it.",
        "scratch that",
        "nevermind",
    ] {
        let mut sim = Conversation::new();
        sim.run(&["what's in my fridge?", "give me a shakshuka recipe"]);
        sim.say(m);
        sim.expect("dropped gen_recipe_1");
        sim.expect("steps none");
        assert!(sim.state.registry.get("gen_recipe_1").is_none(), "{m}");
        assert!(
            sim.state.registry.get("inv_1").is_some(),
            "{m}: only that is forgotten"
        );
        assert!(
            sim.reply().contains("forgotten Shakshuka") && !sim.reply().contains("still in"),
            "a draft was never in the kitchen: {}",
            sim.reply()
        );
    }
}

/// "actually nvm" right after a plan row was written forgets the row, and
/// the reply says the row is still on the plan: forgetting is no undo, and
/// the kitchen is not touched.
#[test]
fn forgetting_a_saved_row_says_it_is_still_in_the_kitchen() {
    let mut sim = Conversation::new();
    sim.run(&[
        "what recipes do i have",
        "show me the 2nd",
        "put that one on sunday",
    ]);
    sim.expect("writes meal_plans:create");
    sim.say("actually nvm");
    sim.expect("dropped meal_1");
    sim.expect("steps none");
    assert!(
        sim.reply().contains("forgotten Sun") && sim.reply().contains("still in your meal plan"),
        "{}",
        sim.reply()
    );
}

#[test]
fn start_fresh_phrasings_clear_everything() {
    for m in [
        "start fresh",
        "let's start over",
        "clear everything",
        "Start over please",
        "let's start from scratch",
    ] {
        let mut sim = Conversation::new();
        sim.run(&["what's in my pantry?", "give me a shakshuka recipe"]);
        sim.say(m);
        assert!(sim.state.registry.is_empty(), "{m}");
        sim.expect("dropped gen_recipe_1 inv_1");
        assert!(
            sim.reply().to_lowercase().contains("fresh start"),
            "{}",
            sim.reply()
        );
    }
}

#[test]
fn the_plan_and_its_recipes_are_retained_across_a_detour() {
    let mut sim = Conversation::new();
    sim.run_confirming(&[
        "can you help me plan some meals?",
        "let's not do cod this week",
        "let's do the paneer on sunday and the curry on wednesday",
        "save it",
        "what's in my fridge?",
    ]);
    let retained: Vec<(String, String)> = sim
        .last()
        .curation
        .applied
        .iter()
        .map(|d| (d.r#ref.clone(), d.reason.clone()))
        .filter(|(_, reason)| reason.contains("weekly plan"))
        .collect();
    assert_eq!(
        retained.iter().map(|(r, _)| r.as_str()).collect::<Vec<_>>(),
        ["recipe_3", "recipe_9"],
        "{retained:?}"
    );
    sim.run_confirming(&["and the freezer?", "what's on my shopping list?"]);
    sim.expect("retained gen_meal_1 gen_meal_2 recipe_3 recipe_9");
    sim.expect("reason gen_meal_1 ~ user's ongoing weekly plan");
    sim.say_confirming("ok back to the meal plan");
    sim.expect("no-read meal_plans");
    sim.expect("recent gen_meal_1 gen_meal_2");
}

#[test]
fn a_recipe_being_worked_on_is_retained_once_saved() {
    let mut sim = Conversation::new();
    sim.run_confirming(&[
        "give me a thai basil chicken recipe",
        "save it",
        "what's in my pantry?",
        "and the fridge?",
        "and the freezer?",
    ]);
    sim.expect("retained gen_recipe_1");
    sim.expect("reason gen_recipe_1 ~ working on");
    sim.say_confirming("add more garlic to that recipe");
    sim.expect("steps write:recipes");
    // The saved steps stay as they were (no recipes update); the recipe is
    // read back by id after its lines change, so the panel shows them.
    sim.expect("writes recipe_ingredients:update");
    assert!(sim.reply().contains("more garlic"), "{}", sim.reply());
}

#[test]
fn on_topic_messages_touch_instead_of_retaining() {
    let mut state = turn_three();
    state.turn = 4;
    let u = understand(
        &state,
        "let's do the paneer on sunday and the curry on wednesday",
    );
    assert!(
        u.referenced_entities.contains(&"recipe_3".to_string()),
        "{u:?}"
    );
    assert!(
        u.entity_curation
            .retain_active
            .iter()
            .all(|r| !u.referenced_entities.contains(&r.r#ref))
    );
}

fn live_refs_only(state: &ContextState, message: &str) {
    let u = understand(state, message);
    let live = |r: &str| state.registry.get(r).is_some();
    for r in &u.referenced_entities {
        assert!(live(r), "{message}: referenced {r}");
    }
    let c = &u.entity_curation;
    for r in c
        .retain_active
        .iter()
        .map(|x| &x.r#ref)
        .chain(c.demote.iter().map(|x| &x.r#ref))
        .chain(c.drop.iter().map(|x| &x.r#ref))
    {
        assert!(live(r), "{message}: curated {r}");
    }
}

#[test]
fn curation_names_only_live_refs() {
    let state = turn_three();
    for m in [
        "save recipe_99",
        "forget gen_recipe_4",
        "show me recipe_3",
        "no chicken",
        "let's do the lasagna on friday",
        "forget that",
        "the first one",
        "bring back the cod curry",
        "",
    ] {
        live_refs_only(&state, m);
    }
}

#[test]
fn loaded_items_are_topped_up_not_duplicated() {
    let mut sim = Conversation::new();
    sim.say("what's in my pantry?");
    sim.say("I bought 2 cans of chickpeas");
    let calls = sim.calls();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].0, "db_update", "{calls:?}");
    // The amount bought, applied to what is there at commit.
    assert_eq!(
        calls[0].1["data"]["quantity"],
        serde_json::json!({"add": 2.0})
    );
    assert!(
        sim.reply()
            .to_lowercase()
            .contains("topped up chickpeas (4 cans)"),
        "{}",
        sim.reply()
    );
}

#[test]
fn have_questions_check_the_kitchen() {
    let mut sim = Conversation::new();
    sim.say("do I have any eggs?");
    assert!(sim.reply().starts_with("No eggs"), "{}", sim.reply());
    sim.say("do we have paneer?");
    assert!(
        sim.reply().starts_with("Yes — you have paneer (250 g)"),
        "{}",
        sim.reply()
    );
    let mut sim = Conversation::new();
    sim.run(&[
        "can you help me plan some meals?",
        "let's not do cod this week",
    ]);
    sim.say("have I got coconut milk?");
    sim.expect("steps analyze:inventory");
    sim.expect("no-read inventory");
    assert!(
        sim.reply().contains("coconut milk (3 cans)"),
        "{}",
        sim.reply()
    );
}

#[test]
fn a_read_that_skips_what_is_loaded_says_so_rather_than_found_nothing() {
    let mut sim = Conversation::new();
    sim.run(&["what can i cook tonight", "put the paneer tikka on friday"]);
    let outcomes: Vec<&str> = sim
        .last()
        .steps
        .iter()
        .map(|s| s.outcome.as_str())
        .collect();
    assert_eq!(
        outcomes[..2],
        [
            "None new: 9 recipes already in working memory",
            "Found no planned meals"
        ],
        "{outcomes:?}"
    );
    let mut fresh = Conversation::new();
    fresh.say("put the paneer tikka on friday");
    assert_eq!(fresh.last().steps[0].outcome, "Found 9 recipes");
}

#[test]
fn a_planned_meal_is_taken_off_by_day_and_only_the_one_named() {
    let mut sim = Conversation::new();
    sim.run_confirming(&["put the miso cod on sunday", "and the paneer on friday"]);
    sim.say_confirming("take the wings off friday");
    sim.expect("writes none");
    assert!(
        sim.reply().contains("No \"wing") && sim.reply().contains("Air Fryer Paneer Tikka"),
        "{}",
        sim.reply()
    );
    sim.say_confirming("take the miso cod off sunday");
    sim.expect("writes meal_plans:delete");
    assert!(
        sim.reply().starts_with("Done — taken off the plan:"),
        "{}",
        sim.reply()
    );
    assert!(
        sim.reply().contains("Miso Glazed Air Fryer Cod"),
        "{}",
        sim.reply()
    );
    sim.say_confirming("whats on the plan");
    assert!(
        !sim.reply().contains("Miso Glazed Air Fryer Cod"),
        "a meal taken off is not listed: {}",
        sim.reply()
    );
    assert!(
        sim.reply().contains("Air Fryer Paneer Tikka"),
        "{}",
        sim.reply()
    );
    sim.say_confirming("clear saturday");
    sim.expect("writes none");
    sim.say_confirming("clear friday dinner pls");
    sim.expect("writes meal_plans:delete");
    assert!(
        sim.reply().contains("Air Fryer Paneer Tikka"),
        "{}",
        sim.reply()
    );
}

#[test]
fn two_recipes_named_before_any_is_loaded_are_looked_up_and_an_ambiguous_one_asked() {
    let mut sim = Conversation::new();
    sim.run(&[
        "can you help me plan some meals?",
        "let's do the paneer on sunday and the curry on wednesday",
    ]);
    sim.expect("writes none");
    assert!(
        sim.reply()
            .contains("which curry for Wednesday: Kerala Cod Curry or Thai Yellow Curry?"),
        "{}",
        sim.reply()
    );
    sim.say("the thai one");
    sim.expect("writes none");
    assert!(
        sim.reply().contains("Air Fryer Paneer Tikka") && sim.reply().contains("Thai Yellow Curry"),
        "{}",
        sim.reply()
    );
    // Unambiguous names are drafted at once.
    let mut sim = Conversation::new();
    sim.run(&[
        "can you help me plan some meals?",
        "lets do the pad see ew on monday and wings friday",
    ]);
    assert!(
        sim.reply().contains("Thai Pad See Ew") && sim.reply().contains("Dry Rub Wings"),
        "{}",
        sim.reply()
    );
}
