//! The running turn: the Narrative panel's "Turn N · running" block fills
//! as the pipeline reports progress, the Entities panel's change markers
//! count from the turn's start, and everything settles when the turn ends.

use crossterm::event::KeyCode;

use crate::context::{
    ContextPolicy, ContextState, RefAction, StepExecutionSummary, Table, TurnExecutionSummary,
};
use crate::pipeline::{PipelineEvent, TurnId};
use crate::record::TurnRecord;

use super::model::Model;
use super::test_update::{model, pipe, press, send};
use super::theme::Theme;
use super::view::NarrativePanel;
use super::view::test_support::render_widget;

fn model_after_one_turn() -> Model {
    let mut m = model();
    // Turn 1 read nine recipes: the panel marks them new.
    send(&mut m, "show me my recipes");
    let mut state = ContextState::new(ContextPolicy::default());
    state.begin_turn();
    for i in 0..9 {
        state.registry.register_row(
            Table::Recipes,
            &format!("r-{i}"),
            &format!("Recipe {i}"),
            RefAction::Read,
            1,
        );
    }
    let mut record = TurnRecord {
        turn: 1,
        user: "show me my recipes".into(),
        reply: "Here are 9 recipes.".into(),
        started_at: "2026-01-13T10:00:01Z".into(),
        ..TurnRecord::default()
    };
    record.set_snapshot(state.snapshot());
    pipe(
        &mut m,
        PipelineEvent::TurnDone {
            id: TurnId(1),
            record: Box::new(record),
            state: Box::new(state),
        },
    );
    m
}

fn narrative(m: &Model) -> String {
    let theme = Theme::dark();
    render_widget(
        NarrativePanel {
            narrative: &m.panels.snapshot.narrative,
            running: m.turn.running.as_ref(),
            scroll: 0,
            focused: false,
            theme: &theme,
        },
        70,
        16,
    )
}

fn step(description: &str, step_type: &str) -> StepExecutionSummary {
    StepExecutionSummary {
        description: description.into(),
        step_type: crate::context::plan::StepType::from_word(step_type),
        subdomain: "recipes".into(),
        ..StepExecutionSummary::default()
    }
}

#[test]
fn the_running_block_fills_as_nodes_and_steps_finish() {
    let mut m = model_after_one_turn();
    assert!(
        m.panels
            .diff
            .as_ref()
            .is_some_and(|d| !d.entities.is_empty()),
        "turn 1's nine new recipes are marked"
    );
    send(&mut m, "no cod please");
    let id = TurnId(2);
    pipe(&mut m, PipelineEvent::TurnStarted { id, turn: 2 });
    assert!(
        m.panels
            .diff
            .as_ref()
            .is_some_and(|d| d.entities.is_empty()),
        "a new turn's markers start from its own state, not turn 1's: {:?}",
        m.panels.diff
    );
    let screen = narrative(&m);
    assert!(screen.contains("Turn 2 · running"), "{screen}");
    assert!(screen.contains("asked: “no cod please”"), "{screen}");

    let mut so_far = TurnExecutionSummary {
        user_message: "no cod please".into(),
        what_user_expressed: "wants to exclude cod".into(),
        standing: vec!["added no cod (“no cod please”)".into()],
        ..TurnExecutionSummary::default()
    };
    pipe(
        &mut m,
        PipelineEvent::NarrativeProgress {
            id,
            turn: Box::new(so_far.clone()),
        },
    );
    let screen = narrative(&m);
    assert!(
        screen.contains("expressed: wants to exclude cod"),
        "{screen}"
    );
    assert!(screen.contains("standing: added no cod"), "{screen}");
    assert!(!screen.contains("goal:"), "no plan before Think: {screen}");

    so_far.goal = "Leave out cod".into();
    so_far.steps = vec![
        step("Read the recipes", "read"),
        step("Leave out cod", "analyze"),
    ];
    pipe(
        &mut m,
        PipelineEvent::NarrativeProgress {
            id,
            turn: Box::new(so_far),
        },
    );
    pipe(
        &mut m,
        PipelineEvent::StepStarted {
            id,
            index: 0,
            total: 2,
            description: "Read the recipes".into(),
            step_type: "read".into(),
        },
    );
    let screen = narrative(&m);
    assert!(screen.contains("goal: Leave out cod"), "{screen}");
    assert!(
        screen.contains("1. read recipes: Read the recipes … running"),
        "{screen}"
    );
    assert!(
        screen.contains("2. analyze recipes: Leave out cod (waiting)"),
        "{screen}"
    );
    insta::assert_snapshot!("running_block_mid_act_70x16", screen);

    pipe(
        &mut m,
        PipelineEvent::StepFinished {
            id,
            index: 0,
            outcome: "Found 9 recipes".into(),
        },
    );
    let screen = narrative(&m);
    assert!(
        screen.contains("1. read recipes → Found 9 recipes"),
        "{screen}"
    );

    // A stale turn's progress changes nothing.
    pipe(
        &mut m,
        PipelineEvent::StepFinished {
            id: TurnId(99),
            index: 1,
            outcome: "STALE".into(),
        },
    );
    assert!(!narrative(&m).contains("STALE"));

    // Esc: the block goes, the markers are turn 1's again.
    press(&mut m, KeyCode::Esc);
    assert!(m.turn.running.is_none());
    assert!(!narrative(&m).contains("running"));
    assert!(
        m.panels
            .diff
            .as_ref()
            .is_some_and(|d| !d.entities.is_empty())
    );
}
