//! Test helpers for the views: render a widget or the whole screen into a
//! `TestBackend` and read the buffer (or a line) back as text; the seeds'
//! turn-3 state.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::text::Line;
use ratatui::widgets::Widget;
use serde_json::json;
use unicode_width::UnicodeWidthStr;

use super::{ScreenLayout, layout, render_panels};
use crate::context::{
    ConstraintChanges, ContextDiff, ContextPolicy, ContextSnapshot, ContextState,
    ConversationPhase, ConversationTurn, EntityCuration, Extractive, MatchKind, NewConstraint,
    RecipeFacts, RefAction, RefDecision, RetentionDecision, Rule, StepExecutionSummary, Table,
    TurnExecutionSummary, diff,
};
use crate::session::SessionFile;
use crate::tui::chat::wrap::grapheme_width;
use crate::tui::model::Model;
use crate::tui::theme::Theme;

pub use crate::prompt::fixtures::RECIPES;
use crate::prompt::fixtures::inventory_names;

/// A buffer's rows as a terminal shows them: a wide glyph hides the cells
/// after it (widths by ratatui's own rule).
pub fn buffer_rows(buf: &Buffer) -> Vec<String> {
    let area = buf.area;
    (area.top()..area.bottom())
        .map(|y| {
            let (mut row, mut hidden) = (String::new(), 0);
            for x in area.left()..area.right() {
                if hidden > 0 {
                    hidden -= 1;
                    continue;
                }
                let symbol = buf[(x, y)].symbol();
                row.push_str(symbol);
                hidden = grapheme_width(symbol).saturating_sub(1);
            }
            row
        })
        .collect()
}

/// The terminal's buffer as lines of text, wide characters counted once
/// (as a terminal shows them), trailing spaces trimmed.
pub fn buffer_to_string(terminal: &Terminal<TestBackend>) -> String {
    buffer_rows(terminal.backend().buffer())
        .iter()
        .map(|row| format!("{}\n", row.trim_end()))
        .collect()
}

/// A line's text, without its styles.
pub fn text_of(line: &Line<'_>) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// Renders one widget filling a `width`×`height` screen.
pub fn render_widget(widget: impl Widget, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|f| f.render_widget(widget, f.area()))
        .expect("draw");
    buffer_to_string(&terminal)
}

/// Renders the panels of `model` (chat and input left empty) at a size.
pub fn render_screen(model: &Model, width: u16, height: u16) -> (String, ScreenLayout) {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    let mut shown = None;
    terminal
        .draw(|f| {
            let l = layout(f.area(), model);
            render_panels(f, &l, model);
            shown = Some(l);
        })
        .expect("draw");
    let l = shown.expect("drawn");
    (buffer_to_string(&terminal), l)
}

/// A model over a snapshot, with the dark theme and the offline brain.
pub fn model_with(snapshot: ContextSnapshot, diff: Option<ContextDiff>) -> Model {
    let mut session = SessionFile::new(
        "s-7f3a".to_string(),
        jiff::Timestamp::UNIX_EPOCH,
        Default::default(),
        ContextPolicy::default(),
    );
    session.title = "Meal planning".to_string();
    let mut m = Model::new(session, "offline", Theme::dark());
    m.panels.snapshot = snapshot;
    m.panels.diff = diff;
    m
}

/// The display column where `needle` starts in `line`.
pub fn column_of(line: &str, needle: &str) -> Option<usize> {
    line.find(needle).map(|i| line[..i].width())
}

fn step(
    step_type: &str,
    subdomain: &str,
    description: &str,
    outcome: &str,
) -> StepExecutionSummary {
    StepExecutionSummary {
        description: description.to_string(),
        step_type: crate::context::plan::StepType::from_word(step_type),
        subdomain: subdomain.to_string(),
        outcome: outcome.to_string(),
        ..Default::default()
    }
}

fn record(
    s: &mut ContextState,
    summary: TurnExecutionSummary,
    user: &str,
    reply: &str,
    refs: &[&str],
) {
    let exchange = ConversationTurn {
        turn: summary.turn_number,
        user: user.to_string(),
        assistant: reply.to_string(),
        assistant_summary: None,
        entities_mentioned: refs.iter().map(|r| r.to_string()).collect(),
        at: None,
    };
    s.record_turn(summary, exchange);
    s.fold_all(&mut Extractive);
}

/// The seeds' conversation through turn 3: the snapshots after turns 2 and
/// 3, and the diff between them.
pub fn seed_turn3() -> (ContextSnapshot, ContextSnapshot, ContextDiff) {
    let (s, before) = seed_state();
    let after = s.snapshot();
    let d = diff(&before, &after);
    (before, after, d)
}

/// Turns 4 and 5 after the seeds: nothing is mentioned at turn 4; at turn 5
/// the user keeps the paneer tikka for Sunday and forgets the plan, and
/// everything read at turn 2 ages out of the window.
pub fn seed_turn5() -> (ContextSnapshot, ContextDiff) {
    let (mut s, _) = seed_state();
    let t = s.begin_turn();
    let quiet = TurnExecutionSummary {
        turn_number: t,
        user_message: "what wine goes with curry?".into(),
        response_summary: "Suggested an off-dry riesling".into(),
        ..Default::default()
    };
    record(
        &mut s,
        quiet,
        "what wine goes with curry?",
        "An off-dry riesling.",
        &[],
    );
    let before = s.snapshot();
    s.begin_turn();
    s.apply_curation(&EntityCuration {
        retain_active: vec![RetentionDecision {
            r#ref: "recipe_3".into(),
            reason: "user picked it for Sunday".into(),
        }],
        drop: vec![RefDecision::new("gen_meal_1", "user said forget the plan")],
        ..Default::default()
    });
    let after = s.snapshot();
    let d = diff(&before, &after);
    (after, d)
}

/// The seeds' state after turn 3, and the snapshot after turn 2.
fn seed_state() -> (ContextState, ContextSnapshot) {
    let mut s = ContextState::new(ContextPolicy::seeds());
    let t = s.begin_turn();
    let plan = s.registry.register_generated(
        Table::MealPlans,
        "Weekly Plan",
        json!({"name": "Weekly Plan", "slots": ["Sun dinner", "Wed dinner"]}),
        t,
    );
    let turn1 = TurnExecutionSummary {
        turn_number: t,
        user_message: "can you help me plan some meals?".into(),
        goal: "Start a weekly meal plan".into(),
        decision: Some(crate::context::plan::Decision::Propose),
        steps: vec![step(
            "generate",
            "meal_plans",
            "Draft an empty weekly plan",
            "Drafted an empty plan for Sun and Wed",
        )],
        response_summary: "Offered to plan from saved recipes or new ideas".into(),
        conversation_phase: ConversationPhase::Exploring,
        ..Default::default()
    };
    record(
        &mut s,
        turn1,
        "can you help me plan some meals?",
        "Absolutely! You usually cook on Sundays and Wednesdays, and you like simple, beginner-friendly meals with leftovers for lunch. Would you like to pick from your saved recipes, or try something new?",
        &[&plan],
    );

    let t = s.begin_turn();
    s.apply_curation(&EntityCuration {
        retain_active: vec![RetentionDecision {
            r#ref: plan.clone(),
            reason: "user's ongoing weekly plan".into(),
        }],
        ..Default::default()
    });
    for (i, name) in RECIPES.iter().enumerate() {
        s.registry
            .register_row(Table::Recipes, &format!("r-{i}"), name, RefAction::Read, t);
    }
    for (i, name) in inventory_names().iter().enumerate() {
        s.registry.register_row(
            Table::Inventory,
            &format!("i-{i}"),
            name,
            RefAction::Read,
            t,
        );
    }
    // "no cod" stands from turn 2: the cod recipes are ruled out there.
    s.apply_constraints(&ConstraintChanges {
        add: vec![NewConstraint {
            clause: "lets not do cod this week".into(),
            rule: Rule::Exclude,
            kind: MatchKind::Ingredient,
            value: "cod".into(),
            refs: Vec::new(),
        }],
        ..Default::default()
    });
    s.refresh_constraints(&|r| {
        let cod = ["recipe_1", "recipe_2", "recipe_7"].contains(&r);
        Some(RecipeFacts {
            label: r.to_string(),
            ingredients: vec![if cod { "cod fillet" } else { "onion" }.to_string()],
            ..Default::default()
        })
    });
    let turn2 = TurnExecutionSummary {
        turn_number: t,
        user_message: "lets not do cod this week?".into(),
        goal: "Find cod-free options that fit the pantry".into(),
        decision: Some(crate::context::plan::Decision::PlanDirect),
        steps: vec![
            step("read", "recipes", "Read saved recipes", "Found 9 recipes"),
            step("read", "inventory", "Read the pantry", "Found 59 items"),
            step(
                "analyze",
                "recipes",
                "Exclude cod and match the pantry",
                "6 cod-free recipes fit",
            ),
        ],
        retained_refs: vec![plan.clone()],
        curation_summary: Some(format!("Retained {plan} (user's ongoing weekly plan)")),
        standing: vec!["added no cod (“lets not do cod this week”)".into()],
        analysis_conclusions: Some("6 recipes work with the inventory, no cod".into()),
        response_summary: "Presented 6 cod-free options".into(),
        conversation_phase: ConversationPhase::Narrowing,
        natural_next: "User narrows the list or picks".into(),
        ..Default::default()
    };
    record(
        &mut s,
        turn2,
        "lets not do cod this week?",
        "Here are 6 recipes that fit your pantry (no cod): Air Fryer Paneer Tikka, Chicken Tikka Bites, Chai French Toast, Dry Rub Wings, Pad See Ew, Yellow Curry.",
        &[
            "recipe_3", "recipe_4", "recipe_5", "recipe_6", "recipe_8", "recipe_9",
        ],
    );
    let before = s.snapshot();

    s.begin_turn();
    let entity = |clause: &str, r: &str| NewConstraint {
        clause: clause.into(),
        rule: Rule::Exclude,
        kind: MatchKind::Entity,
        value: String::new(),
        refs: vec![r.into()],
    };
    s.apply_constraints(&ConstraintChanges {
        add: vec![
            entity("lets not do the french toast", "recipe_5"),
            entity("I don't feel like wings", "recipe_6"),
        ],
        ..Default::default()
    });
    s.refresh_constraints(&|_| None);
    let t = s.turn;
    let turn3 = TurnExecutionSummary {
        turn_number: t,
        user_message: "lets not do the french toast or wings".into(),
        goal: "Narrow to the remaining options".into(),
        decision: Some(crate::context::plan::Decision::PlanDirect),
        steps: vec![step(
            "analyze",
            "recipes",
            "Apply the user's exclusions",
            "4 options remain: recipe_3, recipe_4, recipe_8, recipe_9",
        )],
        standing: vec![
            "added not Chai French Toast (“lets not do the french toast”)".into(),
            "added not Dry Rub Wings (“I don't feel like wings”)".into(),
        ],
        response_summary: "Acknowledged and presented the remaining 4 options".into(),
        conversation_phase: ConversationPhase::Narrowing,
        natural_next: "User picks finals or filters more".into(),
        ..Default::default()
    };
    record(
        &mut s,
        turn3,
        "lets not do the french toast or wings",
        "Got it — no French toast or wings. That leaves four solid options: Air Fryer Paneer Tikka, Chicken Tikka Bites, Thai Pad See Ew and Thai Yellow Curry. Want me to slot two of them into Sunday and Wednesday?",
        &["recipe_3", "recipe_4", "recipe_8", "recipe_9"],
    );
    (s, before)
}

/// Draws a whole frame of `model` (chat, input, panels, overlays) with the
/// default keymap, as the app draws it.
pub fn render_frame(model: &Model, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    let keymap = crate::tui::keymap::Keymap::default_keys();
    let mut caches = crate::tui::draw::Caches::default();
    terminal
        .draw(|f| {
            crate::tui::draw::draw(f, model, &keymap, &mut caches);
        })
        .expect("draw");
    buffer_to_string(&terminal)
}
