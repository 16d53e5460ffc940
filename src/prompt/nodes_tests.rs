//! Builder edge cases beyond the worked example: the first turn, every reply
//! path, generated drafts, tool calls, the tiered conversation, forgotten refs.

use serde_json::json;

use crate::context::curation::{EntityCuration, RefDecision};
use crate::context::entity::{RefAction, Table};
use crate::context::fold::Extractive;
use crate::context::narrative::{ConversationPhase, StepExecutionSummary};
use crate::context::policy::PolicyKind;
use crate::context::snapshot::ContextSnapshot;
use crate::context::state::{AnnotatedTurn, ContextState, EntityNote};
use crate::context::{ContextPolicy, ConversationTurn, TurnExecutionSummary};

use super::*;

fn reply_with(
    snapshot: &ContextSnapshot,
    path: ReplyPath,
    steps: &[StepExecutionSummary],
    data: &[StepData],
) -> Prompt {
    build_reply(&ReplyInput {
        user_message: "make me a thai curry",
        snapshot,
        turn_number: snapshot.turn,
        goal: "Draft a Thai curry",
        path,
        steps,
        data,
        phase: ConversationPhase::Exploring,
        system: "s",
    })
}

fn first_turn() -> ContextState {
    let mut s = ContextState::new(ContextPolicy::default());
    s.begin_turn();
    s
}

#[test]
fn the_first_turn_says_so_everywhere() {
    let s = first_turn();
    let snap = s.snapshot();
    let p = build_think(&ThinkInput {
        user_message: "hi",
        session: &SessionContext::default(),
        snapshot: &snap,
        mode: "PLAN",
        max_steps: 4,
        pending_proposal: Some("Plan Sunday and Wednesday dinners".into()),
        system: "s",
    });
    let text = p.user_text();
    assert!(text.contains("No entities in context yet"));
    assert!(text.contains("Nothing yet — this is the start of the conversation."));
    assert!(text.contains("(This is the first message of the session.)"));
    assert!(text.contains(
        "**Awaiting the user's answer to your proposal:** \"Plan Sunday and Wednesday dinners\""
    ));
    let r = reply_with(&snap, ReplyPath::Normal, &[], &[]);
    let flow = &r.section("conversation_flow").unwrap().text;
    assert!(flow.contains("**Session:** turn 1 — the first exchange."));
    assert!(flow.contains("**How to start:**"));
    assert!(!r.user_text().contains("Never greet"));
    assert!(r.user_text().contains("No steps ran this turn."));
}

#[test]
fn each_reply_path_sets_status_and_guidance() {
    let snap = first_turn().snapshot();
    let cases = [
        (
            ReplyPath::Propose {
                message: "Plan two dinners".into(),
            },
            "📝 Proposal — nothing has been done yet",
            "The proposal: \"Plan two dinners\"",
        ),
        (
            ReplyPath::Clarify {
                questions: vec!["Which day?".into(), "How spicy?".into()],
            },
            "❓ Needs clarification",
            "  - Which day?\n  - How spicy?",
        ),
        (
            ReplyPath::Blocked {
                reason: "the store is unavailable".into(),
            },
            "⚠️ Blocked — the store is unavailable",
            "The turn stopped short: the store is unavailable",
        ),
        (ReplyPath::Normal, "✅ Success", "Lead with the outcome"),
    ];
    for (path, status, guidance) in cases {
        let p = reply_with(&snap, path, &[], &[]);
        assert!(
            p.section("execution_results")
                .unwrap()
                .text
                .contains(&format!("**Status:** {status}")),
            "{status}"
        );
        assert!(
            p.section("reply_guidance").unwrap().text.contains(guidance),
            "{guidance}"
        );
    }
}

#[test]
fn a_generated_draft_is_shown_whole_and_marked_unsaved() {
    let mut s = first_turn();
    let g = s.registry.register_generated(
        Table::Recipes,
        "Thai Green Curry",
        json!({"name": "Thai Green Curry"}),
        1,
    );
    let steps = [StepExecutionSummary {
        description: "Draft a Thai curry".into(),
        step_type: Some(crate::context::plan::StepType::Generate),
        subdomain: "recipes".into(),
        outcome: format!("Drafted {g}"),
        note: None,
        entities_affected: vec![g.clone()],
    }];
    let instructions: Vec<String> = (1..=30).map(|n| format!("step {n}")).collect();
    let data = [StepData {
        step_index: 0,
        description: "Draft a Thai curry".into(),
        content: json!({"name": "Thai Green Curry", "instructions": instructions}),
    }];
    let p = reply_with(&s.snapshot(), ReplyPath::Normal, &steps, &data);
    let results = &p.section("execution_results").unwrap().text;
    assert!(
        results
            .contains("1. ✅ [generate (NOT YET SAVED)] Draft a Thai curry — Drafted gen_recipe_1")
    );
    assert!(
        results
            .contains("### Step 1: Draft a Thai curry — generated, NOT YET SAVED (shown in full)")
    );
    assert!(results.contains("\"step 30\""));
    let ent = &p.section("entity_context").unwrap().text;
    assert!(
        ent.contains("## Generated (NOT YET SAVED)\n- gen_recipe_1: Thai Green Curry (recipe)"),
        "{ent}"
    );
    let think_ent = super::entities::render_working_memory(&s.snapshot().entities, 2);
    assert!(think_ent.contains(
        "### Pending (unsaved)\n- gen_recipe_1: Thai Green Curry (recipe) — needs save confirmation"
    ));
}

#[test]
fn act_lists_this_steps_tool_calls_in_order() {
    let snap = first_turn().snapshot();
    let calls = [
        ToolCallView {
            tool: "db_read".into(),
            table: "inventory".into(),
            summary: "no rows matched".into(),
        },
        ToolCallView {
            tool: "db_read".into(),
            table: "inventory".into(),
            summary: "12 rows".into(),
        },
    ];
    let p = build_act(&ActInput {
        user_message: "what's in the fridge?",
        today: "2026-01-13",
        step_index: 0,
        total_steps: 1,
        step: PlanStepView {
            description: "Read the fridge".into(),
            step_type: "read".into(),
            subdomain: "inventory".into(),
        },
        prior_steps: &[],
        snapshot: &snap,
        data: &[],
        this_step_calls: &calls,
        subdomain_schema: "",
        system: "s",
    });
    let step = &p.section("step_context").unwrap().text;
    assert!(step.contains("**Step 1 of 1** | Type: read | Subdomain: inventory"));
    assert!(step.contains("None — this is the first step."));
    assert!(step.contains("## Tool calls so far (this step)\n1. db_read inventory → no rows matched\n2. db_read inventory → 12 rows"));
    assert_eq!(
        &*p.section("schema").unwrap().text,
        "No schema for subdomain `inventory`."
    );
    assert!(
        p.section("prior_turn_context")
            .unwrap()
            .text
            .contains("This is the first turn of the conversation.")
    );
}

#[test]
fn tiered_conversation_shows_its_bullet_tier() {
    let policy = ContextPolicy {
        policy: PolicyKind::Tiered,
        ..ContextPolicy::default()
    };
    let mut s = ContextState::new(policy);
    for t in 1..=6 {
        s.begin_turn();
        let exchange = ConversationTurn {
            turn: t,
            user: format!("message {t}"),
            assistant: format!("reply {t}"),
            ..Default::default()
        };
        s.record_turn(
            TurnExecutionSummary {
                turn_number: t,
                ..Default::default()
            },
            exchange,
        );
        s.fold_all(&mut Extractive);
    }
    s.begin_turn();
    let text = super::think::render_conversation(&s.snapshot().conversation, "next", false);
    assert!(text.contains("User: message 6\nAlfred: reply 6"));
    assert!(
        text.contains("### Before that (one line per turn)\n- Turn 1: \"message 1\" → reply 1"),
        "{text}"
    );
}

#[test]
fn understand_marks_refs_that_were_forgotten_since() {
    let mut s = first_turn();
    s.registry
        .register_row(Table::Recipes, "a", "Kerala Cod Curry", RefAction::Read, 1);
    s.begin_turn();
    s.apply_curation(&EntityCuration {
        drop: vec![RefDecision::new("recipe_1", "forget it")],
        ..Default::default()
    });
    let turns = [AnnotatedTurn {
        turn: 1,
        user: "show me the cod curry".into(),
        assistant: "Here it is.".into(),
        entities: vec![EntityNote {
            r#ref: "recipe_1".into(),
            action: "read".into(),
        }],
    }];
    let snap = s.snapshot();
    let p = build_understand(&UnderstandInput {
        user_message: "forget that",
        snapshot: &snap,
        recent_turns: &turns,
        pending_clarification: None,
        system: "s",
    });
    let recent = &p.section("recent_conversation").unwrap().text;
    assert!(
        recent.contains("- recipe_1: read (no longer tracked)"),
        "{recent}"
    );
    assert_eq!(
        &*p.section("known_entities").unwrap().text,
        "No entities known yet."
    );
    assert!(
        p.section("previous_decisions")
            .unwrap()
            .text
            .contains("| 2 | recipe_1 | drop | forget it |")
    );
}
