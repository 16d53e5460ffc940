//! Meal planning: the seeds' narrowing (turn 3 decided node by node on a
//! hand-built state, in many phrasings), then days, saving, ambiguity and
//! bringing an option back, through the real pipeline.

use serde_json::Value;

use crate::pipeline::{ActAction, Decision, StepType};

use super::test_fixture::{act, apply, reply, think, turn_three, understand};
use crate::fixtures::Conversation;

const TURN_THREE: &[&str] = &[
    "let's not do the french toast or wings",
    "Skip the wings and French Toast",
    "no french toast, and I don't feel like wings",
    "drop the toast and the wings",
    "LEAVE OUT THE WINGS AND THE FRENCH TOAST!!",
    "not in the mood for wings or french toast",
    "let's exclude the french toast and the wings",
    "lets not do the french toast or the wings this week",
];

/// The constraint covering `r` after `m` is applied at turn 3, with its
/// clause and the turn it began to cover `r`.
fn ruled_out(state: &crate::context::ContextState, r: &str) -> Option<(String, u32)> {
    state
        .constraints
        .covering(r)
        .map(|(c, since)| (c.clause.clone(), since))
}

#[test]
fn turn_three_phrasings_rule_out_french_toast_and_wings_in_the_users_words() {
    for m in TURN_THREE {
        let mut state = turn_three();
        let u = understand(&state, m);
        assert!(!u.constraints.add.is_empty(), "{m}: {u:?}");
        assert!(
            u.entity_curation.demote.is_empty(),
            "{m}: constraints, not demotions"
        );
        apply(&mut state, &u);
        for r in ["recipe_5", "recipe_6"] {
            let (clause, since) = ruled_out(&state, r).unwrap_or_else(|| panic!("{m}: {r}"));
            assert_eq!(since, 3, "{m}: {r} is ruled out the turn it is said");
            assert!(
                m.to_lowercase().contains(&clause.to_lowercase()),
                "{m}: the clause is the user's words, got {clause:?}"
            );
        }
        for cod in ["recipe_1", "recipe_2", "recipe_7"] {
            let (clause, since) = ruled_out(&state, cod).unwrap_or_else(|| panic!("{m}: {cod}"));
            assert_eq!(
                (clause.as_str(), since),
                ("let's not do cod this week", 2),
                "{m}"
            );
        }
        for kept in ["recipe_3", "recipe_4", "recipe_8", "recipe_9"] {
            assert!(ruled_out(&state, kept).is_none(), "{m}: {kept}");
        }
        assert!(!u.needs_clarification, "{m}");
        assert!(
            u.referenced_entities.is_empty(),
            "{m}: ruled-out refs are not touched"
        );
    }
    let mut state = turn_three();
    let m = "no french toast, and I don't feel like wings lol";
    let u = understand(&state, m);
    apply(&mut state, &u);
    assert_eq!(ruled_out(&state, "recipe_5").unwrap().0, "no french toast");
    assert_eq!(
        ruled_out(&state, "recipe_6").unwrap().0,
        "I don't feel like wings"
    );
    let snap = state.snapshot();
    let reasons: Vec<Option<&str>> = snap
        .entities
        .excluded
        .iter()
        .map(|e| e.reason.as_deref())
        .collect();
    assert_eq!(
        reasons,
        [Some("“no french toast”"), Some("“I don't feel like wings”")],
        "only what this turn ruled out is excluded this turn"
    );
}

#[test]
fn turn_three_plans_one_analyze_step_and_no_read() {
    for m in TURN_THREE {
        let mut state = turn_three();
        let u = understand(&state, m);
        apply(&mut state, &u);
        let t = think(&state, m, &u);
        assert_eq!(t.decision, Decision::PlanDirect, "{m}");
        let kinds: Vec<(StepType, &str)> = t
            .steps
            .iter()
            .map(|s| (s.step_type, s.subdomain.as_str()))
            .collect();
        assert_eq!(kinds, vec![(StepType::Analyze, "recipes")], "{m}");
    }
}

#[test]
fn turn_three_analysis_keeps_four_options_and_leaves_the_ruled_out_out() {
    let m = "let's not do the french toast or wings";
    let mut state = turn_three();
    let u = understand(&state, m);
    apply(&mut state, &u);
    let t = think(&state, m, &u);
    let ActAction::StepComplete {
        data,
        result_summary,
        ..
    } = act(&state, m, &u, &t.steps[0])
    else {
        panic!("the analysis completes at once");
    };
    let viable: Vec<&str> = data["viable"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(viable, ["recipe_3", "recipe_4", "recipe_8", "recipe_9"]);
    assert!(result_summary.starts_with("4 recipes"), "{result_summary}");
    let options = data["options"].to_string();
    for out in ["recipe_1\"", "recipe_5\"", "recipe_6\"", "recipe_7\""] {
        assert!(!options.contains(out), "{out} is offered: {options}");
    }
}

#[test]
fn turn_three_reply_acknowledges_names_the_dropped_and_bridges() {
    for m in TURN_THREE {
        let mut state = turn_three();
        let u = understand(&state, m);
        apply(&mut state, &u);
        let t = think(&state, m, &u);
        let ActAction::StepComplete { data, .. } = act(&state, m, &u, &t.steps[0]) else {
            panic!("analysis");
        };
        let text = reply(&state, m, &u, &t, data);
        let lower = text.to_lowercase();
        let opening = ["got it", "okay", "sure thing", "right"];
        assert!(opening.iter().any(|o| lower.starts_with(o)), "{m}: {text}");
        assert!(
            text.contains("Chai French Toast") && text.contains("Dry Rub Wings"),
            "{m}: {text}"
        );
        assert!(text.contains("4 solid options"), "{text}");
        for name in [
            "Air Fryer Paneer Tikka",
            "Chicken Tikka Bites",
            "Thai Pad See Ew",
            "Thai Yellow Curry",
        ] {
            assert!(
                text.contains(&format!("- {name} (serves")),
                "{name}: {text}"
            );
        }
        assert!(text.contains("Sunday and Wednesday"), "{text}");
        assert!(
            !lower.contains("hello") && !lower.contains("happy to help"),
            "{text}"
        );
    }
}

#[test]
fn no_cod_phrasings_read_recipes_and_inventory_together() {
    for m in [
        "let's not do cod this week",
        "No cod this week please",
        "skip anything with cod",
        "I don't want cod",
        "rule out cod",
        "without cod this week",
    ] {
        let mut sim = Conversation::new();
        sim.say("can you help me plan some meals?");
        let rec = sim.say(m);
        let steps: Vec<(String, String, u32)> = rec
            .steps
            .iter()
            .map(|s| (s.step_type.clone(), s.subdomain.clone(), s.group))
            .collect();
        assert_eq!(
            steps,
            [
                ("read", "recipes", 0),
                ("read", "inventory", 0),
                ("analyze", "recipes", 1)
            ]
            .map(|(a, b, g)| (a.to_string(), b.to_string(), g))
            .to_vec(),
            "{m}"
        );
        assert!(rec.reply.contains("6 options"), "{m}: {}", rec.reply);
        assert!(
            !rec.reply.contains("- Kerala Cod Curry"),
            "{m}: {}",
            rec.reply
        );
    }
}

#[test]
fn the_proposal_comes_from_the_profile() {
    for m in [
        "can you help me plan some meals?",
        "Help me plan my week",
        "meal plan please",
        "what should we cook this week?",
    ] {
        let mut sim = Conversation::new();
        let rec = sim.say(m);
        assert_eq!(rec.decision, Some(Decision::Propose), "{m}");
        for part in [
            "Sundays and Wednesdays",
            "leftovers for lunch",
            "saved recipes (you have 9)",
            "something new?",
        ] {
            assert!(rec.reply.contains(part), "{m}: {part}: {}", rec.reply);
        }
    }
}

fn planned(sim: &Conversation) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = sim
        .state
        .registry
        .pending_artifacts()
        .iter()
        .filter_map(|(_, e)| {
            let c = e.pending.as_ref()?;
            Some((
                c["date"].as_str()?.to_string(),
                c["recipe_id"].as_str()?.to_string(),
            ))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn assigning_days_drafts_one_slot_per_recipe() {
    // Weighed aloud: a draft to look over.
    for m in [
        "how about the paneer on sunday and the curry on wednesday",
        "maybe paneer on Sunday, Thai curry on Wednesday",
        "what about sunday: paneer tikka. wednesday: yellow curry",
    ] {
        let mut sim = Conversation::new();
        sim.run(&[
            "can you help me plan some meals?",
            "let's not do cod this week",
            "no french toast or wings",
        ]);
        let rec = sim.say(m);
        assert_eq!(rec.steps.len(), 1, "{m}");
        assert_eq!(rec.steps[0].step_type, "generate", "{m}");
        let want = vec![
            ("2026-01-14".to_string(), "recipe_9".to_string()),
            ("2026-01-18".to_string(), "recipe_3".to_string()),
        ];
        assert_eq!(planned(&sim), want, "{m}: {}", sim.reply());
        assert!(sim.reply().contains("not saved yet"), "{}", sim.reply());
    }
    // Said plainly, with no verb and the curry the options leave clear:
    // planned, as a person who names the dish and the day means it.
    let mut sim = Conversation::new();
    sim.run(&[
        "can you help me plan some meals?",
        "let's not do cod this week",
        "no french toast or wings",
    ]);
    sim.say("curry wednesday and paneer sunday");
    sim.expect("writes meal_plans:create");
    assert!(
        sim.reply().contains("Thai Yellow Curry") && sim.reply().contains("Air Fryer Paneer Tikka"),
        "{}",
        sim.reply()
    );
}

#[test]
fn picks_without_days_use_the_cooking_days() {
    let mut sim = Conversation::new();
    sim.run(&[
        "can you help me plan some meals?",
        "let's not do cod this week",
    ]);
    sim.say("let's go with the paneer and the pad see ew");
    assert_eq!(
        planned(&sim),
        vec![
            ("2026-01-14".to_string(), "recipe_8".to_string()),
            ("2026-01-18".to_string(), "recipe_3".to_string())
        ],
        "{}",
        sim.reply()
    );
}

#[test]
fn saving_the_plan_in_several_phrasings() {
    for m in [
        "save it",
        "looks good, save the plan",
        "Save the plan please",
        "yes",
    ] {
        let mut sim = Conversation::new();
        sim.run_confirming(&[
            "can you help me plan some meals?",
            "let's not do cod this week",
            "let's do the paneer on sunday and the curry on wednesday",
        ]);
        sim.say_confirming(m);
        sim.expect("steps write:meal_plans");
        sim.expect("action gen_meal_1 created");
        sim.expect("action gen_meal_2 created");
        assert!(sim.state.registry.pending_artifacts().is_empty(), "{m}");
    }
}

#[test]
fn an_ambiguous_name_asks_which_and_the_answer_carries_on() {
    let mut sim = Conversation::new();
    sim.run_confirming(&["show me my recipes", "give me a thai basil chicken recipe"]);
    let rec = sim.say_confirming("show me the chicken");
    // Understand asked: the pipeline records no plan (Think did not run).
    assert!(
        matches!(rec.decision, None | Some(Decision::Clarify)),
        "{:?}",
        rec.decision
    );
    assert!(rec.reply.contains("which one do you mean"), "{}", rec.reply);
    assert!(
        rec.reply.contains("Chicken Tikka Bites") && rec.reply.contains("Thai Basil Chicken"),
        "{}",
        rec.reply
    );
    assert!(rec.steps.is_empty());
    let rec = sim.say_confirming("the thai basil one");
    assert!(
        rec.reply.contains("**Thai Basil Chicken**"),
        "{}",
        rec.reply
    );
    assert!(
        !rec.reply.contains("**Chicken Tikka Bites**"),
        "{}",
        rec.reply
    );
    // With both recipes active, an edit asks too, and an ordinal answers.
    let mut sim = Conversation::new();
    sim.run_confirming(&["give me a thai basil chicken recipe", "show me my recipes"]);
    let rec = sim.say_confirming("add lime to the chicken");
    assert!(rec.reply.contains("which one do you mean"), "{}", rec.reply);
    assert!(rec.steps.is_empty());
    // The question lists Thai Basil Chicken first (registration order).
    assert!(
        rec.reply
            .contains("Thai Basil Chicken or Chicken Tikka Bites"),
        "{}",
        rec.reply
    );
    let rec = sim.say_confirming("the first one");
    assert!(
        rec.reply.contains("added lime to Thai Basil Chicken"),
        "{}",
        rec.reply
    );
    sim.expect("pending gen_recipe_1");
}

#[test]
fn bringing_an_option_back_lifts_its_demotion() {
    let mut sim = Conversation::new();
    sim.run(&[
        "can you help me plan some meals?",
        "let's not do cod this week",
        "no french toast or wings",
    ]);
    for m in ["actually, bring back the wings", "wings are fine after all"] {
        let mut s2 = Conversation::new();
        s2.run(&[
            "can you help me plan some meals?",
            "let's not do cod this week",
            "no french toast or wings",
        ]);
        let rec = s2.say(m);
        assert!(
            rec.reply.contains("Dry Rub Wings is back in"),
            "{m}: {}",
            rec.reply
        );
        s2.expect("recent recipe_6");
        s2.expect("active-count recipe 5");
        s2.expect("no-read recipes");
    }
}

#[test]
fn a_missing_pick_is_asked_for_and_the_answer_fills_the_plan() {
    let mut sim = Conversation::new();
    sim.run(&[
        "can you help me plan some meals?",
        "let's not do cod this week",
    ]);
    let rec = sim.say("let's plan sunday");
    assert_eq!(rec.decision, Some(Decision::Clarify), "{}", rec.reply);
    assert!(rec.reply.contains("which recipes"), "{}", rec.reply);
    sim.say("the paneer and the pad see ew");
    sim.expect("steps generate:meal_plans");
    sim.expect("pending gen_meal_1 gen_meal_2");
}

#[test]
fn a_recipe_not_in_memory_is_looked_up_by_name_and_the_whole_plan_shown() {
    let mut sim = Conversation::new();
    sim.run_confirming(&[
        "give me 2 chicken dinner ideas",
        "save both",
        "put the first one on sunday",
    ]);
    // The first pick was put on the plan in words; "let's do" drafts the
    // next with the whole plan shown.
    let rec = sim.say_confirming("and let's do the pad see ew on wednesday");
    let steps: Vec<String> = rec
        .steps
        .iter()
        .map(|s| format!("{}:{}", s.step_type, s.subdomain))
        .collect();
    assert_eq!(
        steps,
        ["generate:meal_plans", "analyze:meal_plans"],
        "{}",
        rec.reply
    );
    assert!(
        rec.reply.contains("Wed Jan 14 (dinner): Thai Pad See Ew"),
        "{}",
        rec.reply
    );
    let rec = sim.say_confirming("and let's do the fajitas on monday");
    assert_eq!(rec.steps.len(), 2, "{:?}", rec.steps);
    for slot in [
        "Sun Jan 18 (dinner): Thai Basil Chicken",
        "Wed Jan 14 (dinner): Thai Pad See Ew",
        "Mon Jan 19 (dinner): Air Fryer Chicken Fajitas",
    ] {
        assert!(rec.reply.contains(slot), "{slot}: {}", rec.reply);
    }
}

#[test]
fn delete_removes_a_saved_recipe_and_throws_away_a_draft() {
    for m in [
        "delete the fajitas",
        "Delete the fajitas recipe",
        "remove the fajitas from my recipes",
    ] {
        let mut sim = Conversation::new();
        sim.run_confirming(&["give me 2 chicken dinner ideas", "save both"]);
        sim.say_confirming(m);
        sim.expect("steps write:recipes");
        sim.expect("action gen_recipe_2 deleted");
        assert!(
            sim.reply().contains("deleted Air Fryer Chicken Fajitas"),
            "{m}: {}",
            sim.reply()
        );
    }
    let mut sim = Conversation::new();
    sim.say_confirming("give me a shakshuka recipe");
    sim.say_confirming("delete it");
    sim.expect("dropped gen_recipe_1");
    sim.expect("steps none");
    assert!(sim.reply().contains("never saved"), "{}", sim.reply());
}

#[test]
fn asking_for_a_diet_rules_out_what_does_not_fit_until_lifted() {
    let mut sim = Conversation::new();
    sim.run(&["can you help me plan some meals?", "from my saved ones"]);
    let rec = sim.say("vegetarian for the kids");
    assert!(rec.reply.contains("vegetarian"), "{}", rec.reply);
    assert!(
        rec.reply.contains("Air Fryer Paneer Tikka"),
        "{}",
        rec.reply
    );
    sim.expect("excluded recipe_1 recipe_4 recipe_6 recipe_8 recipe_9");
    sim.expect("reason recipe_4 ~ vegetarian for the kids");
    sim.expect("recent recipe_3 recipe_5");
    sim.say("lets start over");
    sim.expect("not-active recipe_1");
}

/// A recipe kept "chosen for Wed" says what is true once Wednesday is
/// swapped for another recipe: the panel must not go on claiming it.
#[test]
fn a_swapped_out_recipe_is_no_longer_called_chosen_for_the_day() {
    let mut sim = Conversation::new();
    sim.run_confirming(&["show me my recipies", "the 2nd one", "put it on wednesday"]);
    sim.expect("reply ~ Wed Jan 14 (dinner): Miso Glazed Air Fryer Cod");
    sim.say_confirming("actually swap wed for the wings");
    sim.expect("reply ~ Wed Jan 14 (dinner): Dry Rub Wings");
    sim.say_confirming("whats the plan looking like");
    sim.expect("reason recipe_2 ~ was chosen for Wed Jan 14 [dinner] until the plan changed");
}

#[test]
fn hurried_abbreviations_read_as_the_words_they_stand_for() {
    let mut sim = Conversation::new();
    let rec = sim.say("wat recipes do i hav").clone();
    assert!(
        rec.reply.contains("Kerala Cod Curry") && rec.reply.contains("Thai Yellow Curry"),
        "all the recipes, not a search for \"hav\": {}",
        rec.reply
    );
    let rec = sim.say("no cod this wk pls").clone();
    let labels: Vec<&str> = rec.constraints.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["no cod"], "{}", rec.reply);
    assert!(!rec.reply.contains("wk"), "{}", rec.reply);
}

#[test]
fn a_saved_recipe_named_with_a_day_and_a_will_is_planned_not_invented() {
    for m in [
        "lets have the yellow curry tomorrow night",
        "can we have the yellow curry tmrw",
        "were having the yellow curry tomorrow",
    ] {
        let mut sim = Conversation::new();
        sim.say_confirming(m);
        sim.expect("writes meal_plans:create");
        assert!(
            sim.reply().contains("Thu Jan 15") || sim.reply().contains("Wed Jan 14"),
            "{m}: {}",
            sim.reply()
        );
        assert!(
            sim.reply().contains("Thai Yellow Curry"),
            "{m}: {}",
            sim.reply()
        );
    }
}

#[test]
fn a_new_dish_with_a_saved_recipes_word_is_still_a_new_dish() {
    let mut sim = Conversation::new();
    sim.say("i want a chicken fried rice");
    sim.expect("writes none");
    assert!(
        sim.reply().to_lowercase().contains("fried rice"),
        "{}",
        sim.reply()
    );
}

#[test]
fn asking_whether_a_saved_dish_can_be_made_checks_what_it_needs() {
    let mut sim = Conversation::new();
    sim.say("can i make the french toast");
    sim.expect("writes none");
    assert!(
        sim.reply().contains("Chai French Toast") && sim.reply().contains("egg"),
        "{}",
        sim.reply()
    );
}

#[test]
fn it_is_the_recipe_the_last_message_named_when_none_was_shown() {
    let mut sim = Conversation::new();
    sim.say("the yellow curry - is the paste ok?");
    // Since the reader stands in front, "it" after a question about a
    // recipe is no longer tied to that recipe by name: Alfred asks first,
    // and writes nothing (issue 48's note lists it as lost).
    let rec = sim.say("ok put it on thursday").clone();
    assert!(
        !rec.steps.iter().any(|s| s.step_type == "write"),
        "{:?}",
        rec.steps
    );
    assert!(
        sim.reply().contains("on the plan for Thursday"),
        "{}",
        sim.reply()
    );
    // "em" after the wings in the freezer points at them, as "them"
    // does: the one recipe they make goes on tonight.
    let mut sim = Conversation::new();
    sim.say("do we still have the wings in the freezer");
    sim.say("ya put em on for tn");
    sim.expect("writes meal_plans:create");
    assert!(
        sim.reply().contains("Dry Rub Wings") && sim.reply().contains("Tue Jan 13"),
        "{}",
        sim.reply()
    );
}

/// "the leftovers" on a day is the same dish again, for lunch unless a
/// meal is said; "thursdays leftovers" says whose, it plans nothing on
/// Thursday.
#[test]
fn leftovers_on_a_day_are_the_same_dish_again_for_lunch() {
    let mut sim = Conversation::new();
    sim.run_confirming(&[
        "show me the pad see ew",
        "put it on thursday, and the leftovers for friday lunch",
    ]);
    sim.expect("writes meal_plans:create");
    sim.expect("reply ~ Thu Jan 15 (dinner): Thai Pad See Ew");
    sim.expect("reply ~ Fri Jan 16 (lunch): Thai Pad See Ew");
    for m in [
        "leftovers monday lunch",
        "and use the leftovers on monday",
        "sundays leftovers for monday",
    ] {
        let mut sim = Conversation::new();
        sim.run_confirming(&["plan the kerala curry for sunday", m]);
        sim.expect("writes meal_plans:create");
        sim.expect("reply ~ Mon Jan 19 (lunch): Kerala Cod Curry");
        sim.expect("reply !~ Sun");
    }
}
