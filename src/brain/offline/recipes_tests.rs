//! Recipes: generate, edit in place, save (promotion), reads rerouted to a
//! pending artifact, ordinals, what isn't saved, edits of saved recipes —
//! each in several phrasings, through the real pipeline.

use serde_json::Value;

use crate::fixtures::Conversation;

fn ingredient_names(sim: &Conversation, r: &str) -> Vec<String> {
    let content = sim
        .state
        .registry
        .artifact(r)
        .or_else(|| sim.state.rows.get(r).map(|v| &**v))
        .cloned()
        .unwrap_or_default();
    content["ingredients"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l["name"].as_str().map(String::from))
        .collect()
}

#[test]
fn generate_phrasings_make_one_pending_recipe() {
    for m in [
        "give me a thai basil chicken recipe",
        "Can you make me a Thai basil chicken?",
        "I want a thai basil chicken recipe please",
        "thai basil chicken recipe",
        "how about a recipe for thai basil chicken",
    ] {
        let mut sim = Conversation::new();
        let rec = sim.say(m);
        assert_eq!(rec.steps.len(), 1, "{m}: {:?}", rec.steps);
        sim.expect("steps generate:recipes");
        sim.expect("pending gen_recipe_1");
        assert_eq!(
            sim.state
                .registry
                .get("gen_recipe_1")
                .map(|e| e.label.as_str()),
            Some("Thai Basil Chicken"),
            "{m}"
        );
        let reply = sim.reply();
        assert!(
            reply.contains("serves 2")
                && reply.contains("Steps:")
                && reply.contains("not saved yet"),
            "{reply}"
        );
        let steps = sim.state.registry.artifact("gen_recipe_1").unwrap()["instructions"]
            .as_array()
            .unwrap()
            .len();
        assert!((5..=7).contains(&steps), "the user's 5–7 steps");
    }
}

#[test]
fn edit_phrasings_change_the_pending_recipe_in_place() {
    for m in [
        "add a squeeze of lime",
        "can you add lime juice to it",
        "put some lime in",
        "Add LIME!",
        "add lime to that recipe",
    ] {
        let mut sim = Conversation::new();
        sim.say_confirming("give me a thai basil chicken recipe");
        sim.say_confirming(m);
        sim.expect("steps generate:recipes");
        sim.expect("no-read recipes");
        sim.expect("pending gen_recipe_1");
        sim.expect("not-active gen_recipe_2");
        let names = ingredient_names(&sim, "gen_recipe_1");
        assert!(names.iter().any(|n| n.contains("lime")), "{m}: {names:?}");
        assert!(
            sim.reply().contains("Thai Basil Chicken"),
            "{}",
            sim.reply()
        );
    }
}

#[test]
fn save_phrasings_promote_the_same_ref() {
    for m in [
        "save it",
        "save that recipe",
        "keep it",
        "yes please",
        "Save!",
    ] {
        let mut sim = Conversation::new();
        sim.run_confirming(&[
            "give me a thai basil chicken recipe",
            "add a squeeze of lime",
        ]);
        sim.say_confirming(m);
        sim.expect("steps write:recipes");
        sim.expect("action gen_recipe_1 created");
        assert!(sim.state.registry.pending_artifacts().is_empty(), "{m}");
        assert!(sim.state.registry.row_id("gen_recipe_1").is_some(), "{m}");
        let calls = sim.calls();
        assert_eq!(calls.len(), 1, "{m}: {calls:?}");
        assert_eq!(calls[0].1["data"][0]["ref"], "gen_recipe_1");
    }
}

#[test]
fn a_set_aside_artifact_is_read_back_by_its_gen_ref() {
    let mut sim = Conversation::new();
    sim.run_confirming(&[
        "give me a shakshuka recipe",
        "not feeling the shakshuka today",
        "what's in my pantry?",
    ]);
    sim.expect("background gen_recipe_1");
    sim.say_confirming("show me that shakshuka");
    let calls = sim.calls();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].0, "db_read");
    assert_eq!(calls[0].1["table"], "recipes");
    assert_eq!(
        calls[0].1["filters"][0],
        serde_json::json!({"field": "id", "op": "=", "value": "gen_recipe_1"})
    );
    assert!(sim.reply().contains("**Shakshuka**"), "{}", sim.reply());
    sim.say_confirming("add feta");
    assert!(ingredient_names(&sim, "gen_recipe_1").contains(&"feta".to_string()));
    sim.say_confirming("save it");
    sim.expect("action gen_recipe_1 created");
}

#[test]
fn a_cached_artifact_is_shown_without_a_read() {
    let mut sim = Conversation::new();
    sim.run(&["give me a shakshuka recipe", "what's in my fridge?"]);
    sim.say("show me the shakshuka");
    sim.expect("steps analyze:recipes");
    sim.expect("no-read recipes");
    assert!(sim.reply().contains("**Shakshuka**"), "{}", sim.reply());
}

#[test]
fn removing_an_ingredient_is_an_edit_not_an_exclusion() {
    for m in [
        "remove the eggs",
        "take out the eggs",
        "without the eggs",
        "leave out the eggs",
    ] {
        let mut sim = Conversation::new();
        sim.say("give me a shakshuka recipe");
        sim.say(m);
        sim.expect("steps generate:recipes");
        sim.expect("pending gen_recipe_1");
        assert!(
            !ingredient_names(&sim, "gen_recipe_1").contains(&"egg".to_string()),
            "{m}"
        );
        assert!(
            sim.last().curation.applied.is_empty(),
            "{m}: nothing demoted"
        );
    }
}

#[test]
fn ordinals_pick_from_the_list_just_shown() {
    for (m, saved, left) in [
        ("save only the first one", "gen_recipe_1", "gen_recipe_2"),
        ("save the second one", "gen_recipe_2", "gen_recipe_1"),
        ("just save the last one", "gen_recipe_2", "gen_recipe_1"),
        ("save the fajitas", "gen_recipe_2", "gen_recipe_1"),
    ] {
        let mut sim = Conversation::new();
        sim.say("give me 2 chicken dinner ideas");
        sim.say(m);
        sim.expect(&format!("action {saved} created"));
        sim.expect(&format!("pending {left}"));
    }
    let mut sim = Conversation::new();
    sim.say_confirming("give me 2 chicken dinner ideas");
    sim.say_confirming("save it");
    assert!(
        sim.reply().contains("which one do you mean"),
        "{}",
        sim.reply()
    );
    sim.say_confirming("both");
    assert!(
        sim.state.registry.pending_artifacts().is_empty(),
        "{}",
        sim.reply()
    );
}

#[test]
fn unsaved_phrasings_list_from_the_registry_without_tools() {
    for m in [
        "what isn't saved yet?",
        "anything unsaved?",
        "what haven't we saved",
        "What's not saved",
        "is everything saved?",
    ] {
        let mut sim = Conversation::new();
        sim.run_confirming(&["give me 2 chicken dinner ideas", "save only the first one"]);
        sim.say_confirming(m);
        sim.expect("steps analyze:recipes");
        assert!(sim.calls().is_empty(), "{m}");
        assert!(
            sim.reply().contains("Air Fryer Chicken Fajitas"),
            "{m}: {}",
            sim.reply()
        );
        assert!(
            !sim.reply().contains("- Thai Basil Chicken"),
            "{m}: {}",
            sim.reply()
        );
    }
}

#[test]
fn a_saved_recipe_is_edited_with_ingredient_lines() {
    let mut sim = Conversation::new();
    sim.run_confirming(&["give me a thai basil chicken recipe", "save it"]);
    sim.say_confirming("add a squeeze of lime to it");
    sim.expect("steps write:recipes");
    let calls = sim.calls();
    assert_eq!(calls[0].1["table"], "recipe_ingredients", "{calls:?}");
    assert!(sim.reply().contains("saved"), "{}", sim.reply());
    sim.say_confirming("add more garlic to that recipe");
    let calls = sim.calls();
    assert!(
        calls
            .iter()
            .any(|(t, p)| t == "db_update" && p["table"] == "recipe_ingredients"),
        "{calls:?}"
    );
    let rows = &sim.state.rows["gen_recipe_1"];
    let garlic = rows["ingredients"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "garlic")
        .cloned();
    assert_eq!(
        garlic.and_then(|g| g["quantity"].as_f64()),
        Some(6.0),
        "{rows}"
    );
}

#[test]
fn a_saved_recipe_gets_a_new_version_for_bigger_changes() {
    let mut sim = Conversation::new();
    sim.run(&["show me my recipes"]);
    sim.say("make the paneer tikka spicier");
    sim.expect("steps generate:recipes");
    sim.expect("no-read recipes");
    sim.expect("pending gen_recipe_1");
    let a: Value = sim
        .state
        .registry
        .artifact("gen_recipe_1")
        .cloned()
        .unwrap();
    assert_eq!(a["parent_recipe_id"], "recipe_3");
    assert!(
        a["name"]
            .as_str()
            .unwrap()
            .contains("Air Fryer Paneer Tikka")
    );
    assert!(sim.reply().contains("new version"), "{}", sim.reply());
}

#[test]
fn several_ideas_and_allergies() {
    let mut sim = Conversation::new();
    sim.say("any prawn curry ideas?");
    let text = sim
        .state
        .registry
        .artifact("gen_recipe_1")
        .map(Value::to_string)
        .unwrap_or_default();
    assert!(
        !text.to_lowercase().contains("\"prawn"),
        "shellfish allergy: {text}"
    );
    let mut sim = Conversation::new();
    sim.say("give me three dinner ideas");
    assert_eq!(
        sim.state.registry.pending_artifacts().len(),
        3,
        "{}",
        sim.reply()
    );
}

#[test]
fn the_last_one_counts_in_the_list_after_a_question_about_one_of_it() {
    let mut sim = Conversation::new();
    sim.say("show me my chiken recipes, quickest first");
    let listed: Vec<String> = sim.dialogue().presented_refs();
    assert_eq!(listed.len(), 4, "{}", sim.reply());
    sim.say("the 2nd one, wht do i need for it");
    assert!(
        sim.reply().contains("Chicken Tikka Bites"),
        "{}",
        sim.reply()
    );
    let carried = sim.dialogue();
    let refs: Vec<&str> = carried.listed.iter().map(|s| s.r#ref.as_str()).collect();
    assert_eq!(refs, listed, "the answer about one carries the list on");
    // Two more turns about single recipes: past the 2-turn narrative window.
    sim.say("is it spicy?");
    sim.say("and the last one?");
    assert!(sim.reply().contains("Thai Yellow Curry"), "{}", sim.reply());
    assert!(
        !sim.reply().contains("Chicken Tikka Bites"),
        "{}",
        sim.reply()
    );
    assert!(sim.last().steps.iter().all(|s| s.step_type != "write"));
}

/// "make it for 6" after a question about one recipe, and "can you make it
/// for 4 people" after a card: that recipe scaled as a new version, never
/// a new dish.
#[test]
fn make_it_for_n_scales_the_recipe_in_front_of_us() {
    for (first, then, serves) in [
        (
            "how many people does the wings recipe feed",
            "make it for 6",
            "serves 6",
        ),
        (
            "show me the paneer tikka",
            "can you make it for 4 people",
            "serves 4",
        ),
    ] {
        let mut sim = Conversation::new();
        sim.run(&[first, then]);
        sim.expect("writes none");
        assert!(sim.reply().contains(serves), "{then}: {}", sim.reply());
        assert!(
            sim.reply().contains("new version"),
            "{then}: {}",
            sim.reply()
        );
    }
}

/// "ok the second one tonight then" over a list just shown: that recipe on
/// tonight's plan, as a draft (no change verb was said).
#[test]
fn a_pick_from_the_list_with_a_day_goes_on_the_plan() {
    let mut sim = Conversation::new();
    sim.run_confirming(&["what's quick for tonight", "ok the second one tonight then"]);
    sim.expect("writes meal_plans:create");
    assert!(
        sim.reply()
            .contains("Tue Jan 13 (dinner): Chai French Toast"),
        "{}",
        sim.reply()
    );
}

#[test]
fn a_pick_said_plainly_with_a_day_is_planned_a_hedged_one_drafted() {
    for m in [
        "ya that one tn",
        "ok that one on friday",
        "doing that tomorrow",
    ] {
        let mut sim = Conversation::new();
        sim.run_confirming(&["show me the wings", m]);
        sim.expect("writes meal_plans:create");
        sim.expect("reply ~ Dry Rub Wings");
    }
    for m in ["maybe that one on friday", "that one friday?"] {
        let mut sim = Conversation::new();
        sim.run_confirming(&["show me the wings", m]);
        sim.expect("writes none");
    }
}

/// After a comparison, "the other one" is the one it did not put first,
/// and "the slower one" ranks the recipes shown.
#[test]
fn the_other_one_and_the_slower_one_point_into_what_was_compared() {
    for m in [
        "what about the other one, how long does it take",
        "how long does the slower one take",
    ] {
        let mut sim = Conversation::new();
        sim.run(&[
            "show me the thai recipes",
            "which is quicker out of them",
            m,
        ]);
        sim.expect("writes none");
        sim.expect("reply ~ Thai Yellow Curry takes 40 min");
    }
}

/// A search with a part said not to be there keeps that "not" to the
/// search: no standing rule is recorded. Said with a standing word, it is
/// the rule's.
#[test]
fn a_search_but_not_filters_that_search_and_records_no_rule() {
    for m in [
        "anything with chicken thats not a curry",
        "something with chicken but not a curry",
        "any chicken recipes that arent curries",
    ] {
        let mut sim = Conversation::new();
        sim.say(m);
        let standing = sim.json()["constraints"]
            .to_string()
            .matches("curry")
            .count();
        sim.expect("writes none");
        sim.expect("reply ~ Chicken Tikka Bites");
        sim.expect("not-presented Thai Yellow Curry");
        assert_eq!(standing, 0, "{m}: {}", sim.reply());
    }
    let mut sim = Conversation::new();
    sim.say("no curry this week");
    let standing = sim.json()["constraints"]
        .to_string()
        .matches("curry")
        .count();
    assert!(standing > 0, "{}", sim.reply());
}

#[test]
fn what_can_i_make_keeps_to_the_time_the_stock_and_the_heat_said() {
    let mut sim = Conversation::new();
    sim.say("what can i make in under 25 minutes");
    let reply = sim.reply();
    assert!(reply.contains("in 25 minutes or less"), "{reply}");
    assert!(reply.contains("Thai Pad See Ew"), "25 min: {reply}");
    assert!(!reply.contains("Chicken Tikka Bites"), "30 min: {reply}");
    assert!(!reply.contains("Dry Rub Wings"), "35 min: {reply}");
    let mut sim = Conversation::new();
    sim.say("what can i cook without buying anything");
    let reply = sim.reply();
    assert!(reply.contains("with nothing to buy"), "{reply}");
    assert!(!reply.contains("you'd need"), "{reply}");
}

#[test]
fn recipes_are_found_by_a_food_said_in_the_plural_and_a_recipe_in_talk_is_asked_after() {
    let mut sim = Conversation::new();
    sim.say("which recipes use eggs");
    for name in ["Chai French Toast", "Thai Pad See Ew"] {
        assert!(sim.reply().contains(name), "{name}: {}", sim.reply());
    }
    let mut sim = Conversation::new();
    sim.say("show me the thai yellow curry");
    sim.say("how many time it take?");
    assert!(sim.reply().contains("40 min"), "{}", sim.reply());
    sim.say("can i make it now");
    assert!(sim.reply().contains("Thai Yellow Curry"), "{}", sim.reply());
    assert!(!sim.reply().contains("couldn't"), "{}", sim.reply());
}

#[test]
fn words_that_name_no_dish_are_not_searched_for_as_a_recipe() {
    let mut sim = Conversation::new();
    sim.say("lets plan sunday the 18th to saturday the 24th");
    assert!(
        !sim.reply().contains("None of your saved recipes"),
        "{}",
        sim.reply()
    );
    // A word that may be a dish is still looked for.
    let mut sim = Conversation::new();
    sim.say("show me the shakshuka");
    assert!(sim.reply().contains("shakshuka"), "{}", sim.reply());
}

/// A bare "yes" to a list offered two ways ("Shall I open one of them, or
/// put a couple on the plan?") asks which and how, in words the reader
/// carries out — not thanks; "thanks" stays thanks.
#[test]
fn a_yes_to_a_list_offered_two_ways_asks_which_and_how() {
    let mut sim = Conversation::new();
    sim.say("what can I cook tonight with what's here");
    sim.say("yes");
    let reply = sim.reply();
    assert!(reply.contains("Say “show me "), "{reply}");
    assert!(!reply.contains("Glad that helps"), "{reply}");
    let state = sim.state.clone();
    let names = sim.kitchen_names();
    for suggested in reply.split('“').skip(1).filter_map(|s| s.split('”').next()) {
        assert!(
            crate::brain::offline::reads_as_an_act(&state, &names, suggested),
            "{suggested}"
        );
    }
    sim.say("thanks");
    assert!(!sim.reply().contains("Say “show me"), "{}", sim.reply());
}

#[test]
fn enough_for_a_recipe_at_more_servings_scales_the_recipe_against_the_stock() {
    // Chicken Tikka Bites takes 800 g thigh for 4; the freezer holds 1.5 kg.
    let mut sim = Conversation::on_disk();
    sim.say("is there enough chicken thigh for the tikka bites at 6 servings");
    let reply = sim.reply().to_string();
    assert!(
        reply.contains("At 6 servings") && reply.contains("1.2 kg chicken thigh"),
        "{reply}"
    );
    assert!(reply.contains("so that's enough"), "{reply}");
    sim.say("is there enough chicken thigh for the tikka bites for 8");
    let reply = sim.reply().to_string();
    assert!(
        reply.contains("1.6 kg chicken thigh") && reply.contains("not enough"),
        "{reply}"
    );
}

#[test]
fn a_family_asked_of_a_recipe_is_answered_by_what_belongs_to_it() {
    // The seeded Chai French Toast takes milk and butter: both dairy.
    let mut sim = Conversation::new();
    sim.say("does the chai french toast have dairy");
    let reply = sim.reply();
    assert!(
        reply.starts_with("Chai French Toast has dairy:")
            && reply.contains("milk")
            && reply.contains("butter")
            && !reply.contains("yogurt"),
        "{reply}"
    );
    // None of the family: said, with the made things whose labels hold
    // more than the recipe does.
    let mut sim = Conversation::new();
    sim.say("does the yellow curry have nuts");
    let reply = sim.reply();
    assert!(
        reply.starts_with("Thai Yellow Curry has no nuts among its ingredients.")
            && reply.contains("Check the label of the yellow curry paste"),
        "{reply}"
    );
}
