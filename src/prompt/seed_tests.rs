//! The seeds' worked example through every builder: exact section order,
//! what each node may and may not see, token bookkeeping, and insta
//! snapshots of the full user text (`src/prompt/snapshots/`).

use super::fixtures::{MESSAGE, REASONS, seed_example};
use super::seed_prompts::{SYSTEM, act, first_step_data, reply, think, understand};
use super::*;

/// The lines under a `### heading` up to the next blank line or heading.
fn block<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with(heading));
    assert!(lines.next().is_some(), "no `{heading}` in:\n{text}");
    lines
        .take_while(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect()
}

fn text<'a>(p: &'a Prompt, name: &str) -> &'a str {
    &p.section(name)
        .unwrap_or_else(|| panic!("no section {name}"))
        .text
}

#[test]
fn think_prompt_replays_the_seed_entity_context() {
    let ex = seed_example();
    let p = think(&ex, &ex.state.snapshot());
    assert_eq!(p.node, PromptNode::Think);
    assert_eq!(p.section_names(), THINK_SECTIONS);

    let ent = text(&p, "entity_context");
    let recent = block(ent, "### Recent (last 2 turns) — already loaded");
    for line in [
        "- recipe_3: Air Fryer Paneer Tikka (recipe) [read]",
        "- recipe_4: Chicken Tikka Bites (recipe) [read]",
        "- recipe_8: Thai Pad See Ew (recipe) [read]",
        "- recipe_9: Thai Yellow Curry (recipe) [read]",
    ] {
        assert!(recent.contains(&line), "{line} not recent in:\n{ent}");
    }
    assert!(
        recent
            .iter()
            .any(|l| l.starts_with("- inv_1..inv_59: 59 inventory items [read]"))
    );
    assert_eq!(recent.len(), 5, "{recent:?}");
    assert_eq!(
        block(ent, "### Long-term memory"),
        ["- gen_meal_1: Weekly Plan (meal_plan) [created] (turn 1)"]
    );
    assert_eq!(
        block(ent, "### Excluded this turn"),
        [
            "- recipe_5: Chai French Toast (recipe)",
            "- recipe_6: Dry Rub Wings (recipe)"
        ]
    );
    assert_eq!(
        block(ent, "### Viable"),
        ["recipe_3, recipe_4, recipe_8, recipe_9, gen_meal_1"]
    );
    // The cod recipes were demoted last turn: background, only counted.
    assert!(!ent.contains("recipe_1:") && !ent.contains("Kerala"));
    assert!(ent.contains("Background: 3 entities (not loaded; ask to re-read if needed)"));

    insta::assert_snapshot!("think_seed_turn_4", p.user_text());
}

#[test]
fn think_prompt_replays_the_seed_story_and_task() {
    let ex = seed_example();
    let p = think(&ex, &ex.state.snapshot());
    let story = text(&p, "turn_narrative");
    // Oldest first, headings without ages: a new turn only adds to the end.
    let two = story
        .find("### Turn 2\n**User asked:** \"lets pick from my saved recipes\"")
        .expect("turn 2 in full");
    let three = story
        .find("### Turn 3\n**User asked:** \"lets not do cod this week?\"")
        .expect("turn 3 in full");
    assert!(two < three, "{story}");
    assert!(
        !story.contains("### Turn 1\n"),
        "turn 1 is folded:\n{story}"
    );
    assert!(!story.contains("(last turn)"), "{story}");
    // What changes every turn is said at the end, in current_task.
    assert!(!story.contains("### This turn"), "{story}");
    let task = text(&p, "current_task");
    assert!(
        task.contains("### This turn — Understand: demoted recipe_5, recipe_6\n"),
        "{task}"
    );
    let earlier = block(story, "### Earlier (compressed)");
    assert!(
        earlier
            .first()
            .is_some_and(|l| l.starts_with("Turn 1: Start a weekly meal plan"))
    );

    let talk = text(&p, "conversation_history");
    for (user, alfred) in [
        (
            "can you help me plan some meals?",
            "Absolutely! You usually cook on Sundays",
        ),
        (
            "lets pick from my saved recipes",
            "You have 9 saved recipes: Kerala Cod Curry",
        ),
        (
            "lets not do cod this week?",
            "Here are 6 recipes that fit your pantry (no cod)",
        ),
    ] {
        assert!(
            talk.contains(&format!("User: {user}\nAlfred: {alfred}")),
            "{talk}"
        );
    }
    assert!(talk.contains(&format!(
        "User: {MESSAGE}\n→ (current turn, being processed)"
    )));

    let task = text(&p, "current_task");
    assert!(task.contains(&format!(
        "**User says:** \"{MESSAGE}\"\n**Today:** 2026-01-13\n**Mode:** PLAN (max 8 steps)"
    )));
    assert!(task.contains("already loaded — reference them by ref, do not plan a read for them"));

    let session = text(&p, "session_context");
    assert!(session.contains("**Constraints:** Allergies: shellfish | Dislikes: mushroom"));
    // The dashboard's counts change nearly every turn: they sit apart, near
    // the end, so the prompt cache keeps the profile before them.
    let dashboard = text(&p, "kitchen_dashboard");
    assert!(
        dashboard.contains("- **Recipes:** 9 saved (indian: 3, fusion: 3, thai: 2, malaysian: 1)")
    );
    assert!(!session.contains("Kitchen Dashboard"));
}

#[test]
fn only_understand_sees_the_reasons_and_the_decision_log() {
    let ex = seed_example();
    let after = ex.state.snapshot();
    let prompts = [
        think(&ex, &after),
        act(&after, &first_step_data()),
        reply(&after),
    ];
    for p in &prompts {
        let all = p.user_text();
        for reason in REASONS {
            assert!(
                !all.contains(reason),
                "{:?} leaks `{reason}`:\n{all}",
                p.node
            );
        }
        assert!(
            !all.contains("| Decision |"),
            "{:?} shows the decision log",
            p.node
        );
    }
    let u = understand(&ex, &after);
    let all = u.user_text();
    for reason in REASONS {
        assert!(all.contains(reason), "Understand misses `{reason}`:\n{all}");
    }
    let log = text(&u, "previous_decisions");
    assert!(log.starts_with("| Turn | Ref | Decision | Reason |"));
    assert!(log.contains("| 3 | gen_meal_1 | retain | user's ongoing weekly plan |"));
    assert!(log.contains("| 4 | recipe_5 | demote | user said no french toast |"));
    let known = text(&u, "known_entities");
    assert!(known.contains("| recipe_6 | recipe | Dry Rub Wings | excluded | read | 2 | 3 | user doesn't feel like wings |"));
    assert!(known.contains("| gen_meal_1 | meal_plan | Weekly Plan | retained | created | 1 | 1 | user's ongoing weekly plan |"));
}

#[test]
fn understand_prompt_annotates_turns_and_flags_what_is_at_risk() {
    let ex = seed_example();
    let p = understand(&ex, &ex.before_curation);
    let without_question: Vec<&str> = UNDERSTAND_SECTIONS
        .into_iter()
        .filter(|n| *n != "pending_clarification")
        .collect();
    assert_eq!(p.section_names(), without_question);
    let recent = text(&p, "recent_conversation");
    assert!(recent.starts_with("### Turn 1\nUser: \"can you help me plan some meals?\""));
    assert!(recent.contains("### Turn 3\n"));
    assert!(recent.contains("- inv_1..inv_59: read (59 inventory items)"));
    assert!(recent.contains("- recipe_5: analyzed (Chai French Toast)"));
    // The message is its own section, last.
    assert!(!recent.contains(MESSAGE), "{recent}");
    assert_eq!(
        p.sections.last().map(|s| (s.name.as_str(), &*s.text)),
        Some(("current_message", format!("\"{MESSAGE}\"").as_str()))
    );
    // Inventory was read at turn 2: with a window of 2 it leaves after turn 4.
    let known = text(&p, "known_entities");
    let risk = block(known, "At risk");
    assert_eq!(risk.len(), 1, "{risk:?}");
    assert!(risk[0].starts_with("- inv_1..inv_59: 59 inventory items"));
    assert!(known.contains("| inv_1..inv_59 | inventory | 59 inventory items | recent, at risk |"));
    assert!(!known.contains("| recipe_3 | recipe | Air Fryer Paneer Tikka | recent ←"));

    let with_question = build_understand(&UnderstandInput {
        pending_clarification: Some("Which day should the curry go on?".into()),
        ..UnderstandInput {
            user_message: MESSAGE,
            snapshot: &ex.before_curation,
            recent_turns: &ex.annotated,
            pending_clarification: None,
            system: SYSTEM,
        }
    });
    assert_eq!(with_question.section_names(), UNDERSTAND_SECTIONS);
    insta::assert_snapshot!("understand_seed_turn_4", p.user_text());
}

#[test]
fn act_prompt_carries_the_plan_the_window_and_the_data() {
    let ex = seed_example();
    let snap = ex.state.snapshot();
    let p = act(&snap, &first_step_data());
    assert_eq!(p.section_names(), ACT_SECTIONS);
    let step = text(&p, "step_context");
    assert!(step.contains("**Step 2 of 2** | Type: analyze | Subdomain: recipes"));
    assert!(step.contains("1. ✅ [analyze] Drop French Toast and Wings from the cod-free options — 4 recipes remain\n   Note: recipe_3"));
    assert_eq!(
        text(&p, "entity_context"),
        text(&think(&ex, &snap), "entity_context")
    );
    let prior = text(&p, "prior_turn_context");
    assert!(prior.contains("### Turn 3\n"));
    assert!(prior.contains(&format!(
        "User then said: \"{MESSAGE}\"\nUnderstand: demoted recipe_5, recipe_6"
    )));
    let data = text(&p, "data_to_analyze");
    let mut lines = data.lines();
    assert_eq!(
        lines.next(),
        Some("### Step 1: Drop French Toast and Wings from the cod-free options (4 rows)")
    );
    assert!(
        lines
            .next()
            .is_some_and(|row| row.starts_with('{') && row.contains("\"ref\":\"recipe_3\""))
    );
    assert_eq!(data.lines().filter(|l| l.starts_with('{')).count(), 4);
    assert_eq!(
        text(&act(&snap, &[]), "data_to_analyze"),
        "No data from earlier steps."
    );
    insta::assert_snapshot!("act_seed_turn_4", p.user_text());
}

#[test]
fn reply_prompt_continues_the_conversation() {
    let ex = seed_example();
    let p = reply(&ex.state.snapshot());
    assert_eq!(p.section_names(), REPLY_SECTIONS);
    let flow = text(&p, "conversation_flow");
    assert!(flow.contains("**Session:** turn 4 — mid-conversation."));
    assert!(flow.contains("**Phase:** narrowing"));
    assert!(flow.contains("- User: \"lets not do cod this week?\"\n- You: Here are 6 recipes"));
    assert!(flow.contains("Never greet or reintroduce yourself mid-conversation."));
    let results = text(&p, "execution_results");
    assert!(results.contains("**Status:** ✅ Success"));
    assert!(results.contains(
        "1. ✅ [analyze] Drop French Toast and Wings from the cod-free options — 4 recipes remain"
    ));
    let ent = text(&p, "entity_context");
    assert_eq!(block(ent, "## Entities to Present").len(), 4);
    assert_eq!(
        block(ent, "## Dropped this turn")[..2],
        [
            "- recipe_5: Chai French Toast (recipe)",
            "- recipe_6: Dry Rub Wings (recipe)"
        ]
    );
    assert!(
        !ent.contains("inv_"),
        "inventory was not touched this turn:\n{ent}"
    );
    insta::assert_snapshot!("reply_seed_turn_4", p.user_text());
}

#[test]
fn every_section_reports_its_own_tokens() {
    let ex = seed_example();
    let snap = ex.state.snapshot();
    for p in [
        think(&ex, &snap),
        understand(&ex, &snap),
        act(&snap, &first_step_data()),
        reply(&snap),
    ] {
        let p = p.counted();
        assert_eq!(p.system_tokens, count_tokens(SYSTEM));
        for s in &p.sections {
            assert!(s.tokens > 0, "{:?}/{} is empty", p.node, s.name);
            assert_eq!(s.tokens, count_tokens(&s.text), "{:?}/{}", p.node, s.name);
        }
        let sum: usize = p.sections.iter().map(|s| s.tokens).sum();
        assert_eq!(p.total_tokens, p.system_tokens + sum);
        let report = p.tokens();
        assert_eq!(report.total_tokens, p.total_tokens);
        assert_eq!(report.sections.len(), p.sections.len());
    }
}
