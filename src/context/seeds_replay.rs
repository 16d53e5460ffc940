//! The seeds' worked example (meal planning: no cod, then no french toast or
//! wings, then a plan that must outlive the window), replayed turn by turn
//! through the public context API.

use serde_json::json;

use super::*;

use crate::prompt::fixtures::RECIPES;

fn summary(
    turn: u32,
    user: &str,
    goal: &str,
    outcome: &str,
    phase: ConversationPhase,
) -> TurnExecutionSummary {
    TurnExecutionSummary {
        turn_number: turn,
        user_message: user.to_string(),
        goal: goal.to_string(),
        decision: Some(crate::context::plan::Decision::PlanDirect),
        steps: vec![StepExecutionSummary {
            description: goal.to_string(),
            step_type: Some(crate::context::plan::StepType::Analyze),
            subdomain: "recipes".to_string(),
            outcome: outcome.to_string(),
            ..Default::default()
        }],
        response_summary: outcome.to_string(),
        conversation_phase: phase,
        ..Default::default()
    }
}

fn exchange(turn: u32, user: &str, assistant: &str, refs: &[&str]) -> ConversationTurn {
    ConversationTurn {
        turn,
        user: user.to_string(),
        assistant: assistant.to_string(),
        assistant_summary: None,
        entities_mentioned: refs.iter().map(|r| r.to_string()).collect(),
        at: None,
    }
}

/// Runs turns 1–3 of the example and returns the state and its snapshots.
fn first_three_turns() -> (ContextState, Vec<ContextSnapshot>) {
    let mut s = ContextState::new(ContextPolicy::seeds());
    let mut snaps = Vec::new();

    // Turn 1: a draft plan is generated; nothing is read yet.
    let t = s.begin_turn();
    let plan = s.registry.register_generated(
        Table::MealPlans,
        "Weekly Plan",
        json!({"name": "Weekly Plan", "slots": ["Sun dinner", "Wed dinner"]}),
        t,
    );
    assert_eq!(plan, "gen_meal_1");
    s.record_turn(
        summary(
            t,
            "can you help me plan some meals?",
            "Start a weekly plan",
            "Drafted an empty plan",
            ConversationPhase::Exploring,
        ),
        exchange(
            t,
            "can you help me plan some meals?",
            "Absolutely! You usually cook on Sundays and Wednesdays…",
            &[&plan],
        ),
    );
    s.fold_all(&mut Extractive);
    snaps.push(s.snapshot());

    // Turn 2: "no cod" — Understand keeps the plan; Act reads 9 recipes and 59 items.
    let t = s.begin_turn();
    let out = s.apply_curation(&EntityCuration {
        retain_active: vec![RetentionDecision {
            r#ref: plan.clone(),
            reason: "user's ongoing weekly plan".into(),
        }],
        ..Default::default()
    });
    assert!(out.unknown_refs.is_empty());
    for (i, name) in RECIPES.iter().enumerate() {
        let r =
            s.registry
                .register_row(Table::Recipes, &format!("r-{i}"), name, RefAction::Read, t);
        assert_eq!(r, format!("recipe_{}", i + 1));
    }
    for i in 0..59 {
        s.registry.register_row(
            Table::Inventory,
            &format!("i-{i}"),
            &format!("item {i}"),
            RefAction::Read,
            t,
        );
    }
    s.record_turn(
        summary(
            t,
            "lets not do cod this week",
            "Find cod-free options",
            "6 cod-free recipes fit the pantry",
            ConversationPhase::Narrowing,
        ),
        exchange(
            t,
            "lets not do cod this week",
            "Here are 6 recipes that fit your pantry (no cod)…",
            &["recipe_3", "recipe_4"],
        ),
    );
    s.fold_all(&mut Extractive);
    snaps.push(s.snapshot());

    // Turn 3: "not the french toast or wings" — demoted with reasons, no re-read.
    let t = s.begin_turn();
    s.apply_curation(&EntityCuration {
        demote: vec![
            RefDecision::new("recipe_5", "user said no french toast"),
            RefDecision::new("recipe_6", "user doesn't feel like wings"),
        ],
        curation_summary: Some("Demoted recipe_5, recipe_6".into()),
        ..Default::default()
    });
    s.record_turn(
        summary(
            t,
            "lets not do the french toast or wings",
            "Narrow to remaining options",
            "4 options remain",
            ConversationPhase::Narrowing,
        ),
        exchange(
            t,
            "lets not do the french toast or wings",
            "Got it! No French Toast or Wings this week…",
            &[],
        ),
    );
    s.fold_all(&mut Extractive);
    snaps.push(s.snapshot());
    (s, snaps)
}

fn refs(group: &[EntityView]) -> Vec<&str> {
    group.iter().map(|e| e.r#ref.as_str()).collect()
}

#[test]
fn turn_two_reads_nine_recipes_and_fifty_nine_items() {
    let (_, snaps) = first_three_turns();
    let t2 = &snaps[1];
    let recent = refs(&t2.entities.recent);
    assert_eq!(
        recent.iter().filter(|r| r.starts_with("recipe_")).count(),
        9
    );
    assert_eq!(recent.iter().filter(|r| r.starts_with("inv_")).count(), 59);
    assert!(recent.contains(&"inv_59") && !recent.contains(&"inv_60"));
    assert_eq!(refs(&t2.entities.pending), vec!["gen_meal_1"]);
}

#[test]
fn turn_three_excludes_french_toast_and_wings_with_reasons() {
    let (_, snaps) = first_three_turns();
    let t3 = &snaps[2];
    let excluded: Vec<(&str, Option<&str>)> = t3
        .entities
        .excluded
        .iter()
        .map(|e| (e.r#ref.as_str(), e.reason.as_deref()))
        .collect();
    assert_eq!(
        excluded,
        vec![
            ("recipe_5", Some("user said no french toast")),
            ("recipe_6", Some("user doesn't feel like wings"))
        ]
    );
    let recent = refs(&t3.entities.recent);
    for r in ["recipe_3", "recipe_4", "recipe_8", "recipe_9"] {
        assert!(recent.contains(&r), "{r} should be recent");
    }
    assert!(!recent.contains(&"recipe_5") && !recent.contains(&"recipe_6"));
    // The decision log carries both demotions for the next Understand.
    let logged: Vec<&str> = t3
        .decisions
        .iter()
        .filter(|d| d.turn == 3)
        .map(|d| d.r#ref.as_str())
        .collect();
    assert_eq!(logged, vec!["recipe_5", "recipe_6"]);
}

#[test]
fn narrative_and_conversation_windows_at_turn_three() {
    let (_, snaps) = first_three_turns();
    let t3 = &snaps[2];
    let narrative: Vec<u32> = t3.narrative.turns.iter().map(|t| t.turn_number).collect();
    assert_eq!(narrative, vec![2, 3]);
    assert!(
        t3.narrative.earlier.contains("Start a weekly plan"),
        "{}",
        t3.narrative.earlier
    );
    let conversation: Vec<u32> = t3.conversation.recent.iter().map(|t| t.turn).collect();
    assert_eq!(conversation, vec![1, 2, 3]);
    assert!(t3.conversation.earlier.is_empty());
}

#[test]
fn the_saved_plan_is_retained_beyond_the_window_with_its_reason() {
    let (mut s, _) = first_three_turns();
    // Turn 4: the plan is saved — the gen ref is promoted in place.
    let t = s.begin_turn();
    let saved = s
        .registry
        .register_created(Table::MealPlans, "mp-1", "Weekly Plan", None, t)
        .expect("promotion");
    assert!(saved.promoted);
    assert_eq!(saved.r#ref, "gen_meal_1");
    let before = s.snapshot();
    assert!(refs(&before.entities.recent).contains(&"gen_meal_1"));
    s.record_turn(
        summary(
            t,
            "save the plan",
            "Save the weekly plan",
            "Saved",
            ConversationPhase::Executing,
        ),
        exchange(t, "save the plan", "Saved!", &["gen_meal_1"]),
    );
    s.fold_all(&mut Extractive);
    // Turns 5–7 talk about the pantry; the plan is never mentioned.
    let mut snaps = vec![before];
    for _ in 5..=7 {
        let t = s.begin_turn();
        s.registry.touch("inv_1", t);
        s.record_turn(
            summary(
                t,
                "what's in my pantry?",
                "List pantry",
                "Listed 36 items",
                ConversationPhase::Exploring,
            ),
            exchange(t, "what's in my pantry?", "You have…", &["inv_1"]),
        );
        s.fold_all(&mut Extractive);
        snaps.push(s.snapshot());
    }
    let t7 = snaps.last().unwrap();
    let (state, view) = t7.entities.find("gen_meal_1").unwrap();
    assert_eq!(state, EntityState::Retained);
    assert_eq!(view.reason.as_deref(), Some("user's ongoing weekly plan"));
    assert_eq!(view.action, "created");
    // Recipes read at turn 2 have aged into the background by turn 7.
    assert_eq!(t7.state_of("recipe_3"), Some(EntityState::Background));
    let text = why(&snaps, "gen_meal_1", 7);
    assert!(text.contains("retained at turn 7"), "{text}");
    assert!(text.contains("user's ongoing weekly plan"), "{text}");
}

#[test]
fn diff_from_turn_two_to_three_moves_the_two_recipes_to_excluded() {
    let (_, snaps) = first_three_turns();
    let d = diff(&snaps[1], &snaps[2]);
    for (r, reason) in [
        ("recipe_5", "user said no french toast"),
        ("recipe_6", "user doesn't feel like wings"),
    ] {
        let c = d.change_of(r).unwrap_or_else(|| panic!("{r} changed"));
        assert_eq!(c.kind, ChangeKind::Demoted);
        assert_eq!(
            (c.from, c.to),
            (Some(EntityState::Recent), EntityState::Excluded)
        );
        assert!(c.reason.contains(reason), "{}", c.reason);
    }
    assert!(d.change_of("recipe_3").is_none());
    assert_eq!(d.narrative_added, vec![3]);
    assert_eq!(d.narrative_folded, vec![1]);
    assert!(d.conversation_folded.is_empty());
}

#[test]
fn why_explains_an_exclusion_in_plain_words() {
    let (_, snaps) = first_three_turns();
    let text = why(&snaps, "recipe_5", 3);
    assert!(
        text.contains("recipe_5 (Chai French Toast) is excluded at turn 3"),
        "{text}"
    );
    assert!(
        text.contains("chose not to keep it (demoted at turn 3)"),
        "{text}"
    );
    assert!(text.contains("“user said no french toast”"), "{text}");
    assert!(text.contains("last referenced at turn 2"), "{text}");
    let recent = why(&snaps, "recipe_3", 3);
    assert!(recent.contains("within the window of 2"), "{recent}");
    assert_eq!(
        why(&snaps, "recipe_42", 3),
        "recipe_42 was not known at turn 3."
    );
}

#[test]
fn forget_that_drops_and_why_remembers_the_drop() {
    let (mut s, mut snaps) = first_three_turns();
    let t = s.begin_turn();
    s.apply_curation(&EntityCuration {
        drop: vec![RefDecision::new("gen_meal_1", "user said forget the plan")],
        ..Default::default()
    });
    snaps.push(s.snapshot());
    assert_eq!(snaps[3].entities.dropped, vec!["gen_meal_1".to_string()]);
    let d = diff(&snaps[2], &snaps[3]);
    assert_eq!(d.change_of("gen_meal_1").unwrap().kind, ChangeKind::Dropped);
    s.record_turn(
        summary(
            t,
            "forget the plan",
            "Forget",
            "Dropped",
            ConversationPhase::Exploring,
        ),
        exchange(t, "forget the plan", "Done.", &[]),
    );
    let t = s.begin_turn();
    snaps.push(s.snapshot());
    let text = why(&snaps, "gen_meal_1", t);
    assert!(text.contains("dropped at turn 4"), "{text}");
    assert!(text.contains("user said forget the plan"), "{text}");
}

#[test]
fn start_fresh_clears_everything() {
    let (mut s, _) = first_three_turns();
    s.begin_turn();
    s.apply_curation(&EntityCuration {
        clear_all: true,
        curation_summary: Some("user wants to start fresh".into()),
        ..Default::default()
    });
    let snap = s.snapshot();
    assert_eq!(snap.entities.active_count(), 0);
    assert_eq!(snap.entities.dropped.len(), 69);
    assert!(snap.entities.background.is_empty());
}

#[test]
fn snapshot_serialises_in_the_turn_record_shape() {
    let (_, snaps) = first_three_turns();
    let v = serde_json::to_value(&snaps[2]).unwrap();
    for key in [
        "recent",
        "retained",
        "pending",
        "excluded",
        "background",
        "dropped",
    ] {
        assert!(v["entities"][key].is_array(), "entities.{key}");
    }
    let first_excluded = &v["entities"]["excluded"][0];
    assert_eq!(first_excluded["ref"], "recipe_5");
    assert_eq!(first_excluded["label"], "Chai French Toast");
    assert_eq!(first_excluded["reason"], "user said no french toast");
    let recent = &v["entities"]["recent"][0];
    for key in ["ref", "label", "type", "action", "last_ref_turn"] {
        assert!(!recent[key].is_null(), "recent.{key}");
    }
    assert!(v["narrative"]["turns"].is_array() && v["narrative"]["earlier"].is_string());
    assert_eq!(
        v["conversation"]["recent"][0]["user"],
        "can you help me plan some meals?"
    );
    assert!(v["conversation"]["recent"][0]["assistant"].is_string());
    let back: ContextSnapshot = serde_json::from_value(v).unwrap();
    assert_eq!(back, snaps[2]);
}

#[test]
fn understand_sees_the_last_turns_annotated_with_their_entities() {
    let (s, _) = first_three_turns();
    let turns: Vec<u32> = s.understand_turns.iter().map(|t| t.turn).collect();
    assert_eq!(turns, vec![1, 2, 3]);
    let t2 = &s.understand_turns[1];
    assert_eq!(t2.user, "lets not do cod this week");
    let notes: Vec<(&str, &str)> = t2
        .entities
        .iter()
        .map(|n| (n.r#ref.as_str(), n.action.as_str()))
        .collect();
    assert_eq!(notes, vec![("recipe_3", "read"), ("recipe_4", "read")]);
}
