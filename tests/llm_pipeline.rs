//! The seeds' meal-planning conversation through the LLM brain, against the
//! fake OpenAI-compatible server over real HTTP, with scripted model
//! outputs: the layers end up exactly as the offline brain leaves them
//! (cod, then french toast and wings excluded with reasons; no re-read),
//! the scenario's expectations hold, and every request is what a strict
//! server wants (json_schema strict, Think's sections, per-node models and
//! temperatures, refs and never row ids).

mod support;

use std::sync::Arc;

use alfred::brain::offline::OfflineBrain;
use alfred::context::{ContextPolicy, ContextState};
use alfred::pipeline::{PipelineEvent, TurnResult, UsageSource};
use alfred::scenario::{check, parse_script};
use serde_json::{Value, json};

use support::{FakeOpenAi, KEY, Node, has_uuid, turn};

const FRENCH_TOAST: &str = "user said no french toast";
const WINGS: &str = "user said no wings";
const COD: &str = "user said no cod this week";

fn options(refs: &[(&str, &str)]) -> Value {
    refs.iter()
        .map(|(r, name)| json!({"ref": r, "name": name}))
        .collect()
}

/// What the model answers, turn by turn (the offline brain's decisions, as
/// a model would write them).
fn script(fake: &FakeOpenAi) {
    // 1. "can you help me plan some meals?" → a proposal.
    fake.answer(
        Node::Understand,
        json!({"what_user_expressed": "wants help planning meals"}),
    );
    fake.answer(
        Node::Think,
        json!({
            "goal": "Plan meals for the week", "decision": "propose",
            "proposal_message": "Pick from your saved recipes, or try something new?"
        }),
    );
    fake.reply("You usually cook on Sundays and Wednesdays. Want to pick from your saved recipes (you have 9), or try something new?");
    // 2. "let's not do cod this week" → read both tables at once, then analyze.
    fake.answer(Node::Understand, json!({
        "entity_mentions": [{"text": "cod", "resolution": "unknown", "resolved_ref": null, "candidates": []}],
        "what_user_expressed": "wants to exclude cod"
    }));
    fake.answer(Node::Think, json!({
        "goal": "Leave out cod and show what's left", "decision": "plan_direct",
        "steps": [
            {"description": "Read the saved recipes", "step_type": "read", "subdomain": "recipes", "group": 0},
            {"description": "Read the inventory", "step_type": "read", "subdomain": "inventory", "group": 0},
            {"description": "Leave out cod and show what's left", "step_type": "analyze", "subdomain": "recipes", "group": 1}
        ]
    }));
    fake.answer_act(
        "Read the saved recipes",
        vec![
            json!({"action": "tool_call", "tool": "db_read", "params": {"table": "recipes"}}),
            json!({"action": "step_complete", "result_summary": "Found 9 recipes"}),
        ],
    );
    fake.answer_act(
        "Read the inventory",
        vec![
            json!({"action": "tool_call", "tool": "db_read", "params": {"table": "inventory"}}),
            json!({"action": "step_complete", "result_summary": "Found 59 items"}),
        ],
    );
    fake.answer_act("Leave out cod", vec![json!({
        "action": "step_complete", "result_summary": "6 recipes fit without cod",
        "data": {
            "options": options(&[("recipe_3", "Air Fryer Paneer Tikka"), ("recipe_4", "Chicken Tikka Bites"),
                ("recipe_5", "Chai French Toast"), ("recipe_6", "Dry Rub Wings"),
                ("recipe_8", "Thai Pad See Ew"), ("recipe_9", "Thai Yellow Curry")]),
            "excluded": {"recipe_1": COD, "recipe_2": COD, "recipe_7": COD}
        }
    })]);
    fake.reply("Got it — no cod this week. Here are the 6 options left:\n- Air Fryer Paneer Tikka\n- Chicken Tikka Bites\n- Chai French Toast\n- Dry Rub Wings\n- Thai Pad See Ew\n- Thai Yellow Curry\n\nWhich ones sound good?");
    // 3. "let's not do the french toast or wings" → demote, analyze what is loaded.
    fake.answer(Node::Understand, json!({
        "entity_mentions": [
            {"text": "french toast", "resolution": "inferred", "resolved_ref": "recipe_5", "candidates": []},
            {"text": "wings", "resolution": "inferred", "resolved_ref": "recipe_6", "candidates": []}
        ],
        "entity_curation": {"demote": [
            {"ref": "recipe_1", "reason": COD}, {"ref": "recipe_2", "reason": COD}, {"ref": "recipe_7", "reason": COD},
            {"ref": "recipe_5", "reason": FRENCH_TOAST}, {"ref": "recipe_6", "reason": WINGS}
        ], "curation_summary": "Demoted recipe_1, recipe_2, recipe_7, recipe_5, recipe_6"},
        "what_user_expressed": "wants to exclude french toast and wings"
    }));
    fake.answer(Node::Think, json!({
        "goal": "Leave out french toast and wings and show what's left", "decision": "plan_direct",
        "steps": [{"description": "Narrow the options without french toast and wings", "step_type": "analyze", "subdomain": "recipes", "group": 0}]
    }));
    fake.answer_act("Narrow the options", vec![json!({
        "action": "step_complete", "result_summary": "4 recipes fit without french toast or wings",
        "data": {
            "options": options(&[("recipe_3", "Air Fryer Paneer Tikka"), ("recipe_4", "Chicken Tikka Bites"),
                ("recipe_8", "Thai Pad See Ew"), ("recipe_9", "Thai Yellow Curry")]),
            "excluded": {"Chai French Toast": FRENCH_TOAST, "Dry Rub Wings": WINGS}
        }
    })]);
    fake.reply("Got it — no Chai French Toast or Dry Rub Wings this week.\n\nThat leaves 4 solid options:\n- Air Fryer Paneer Tikka\n- Chicken Tikka Bites\n- Thai Pad See Ew\n- Thai Yellow Curry\n\nWhich two should we put on Sunday and Wednesday?");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_meal_planning_conversation_gives_the_offline_brains_layers() {
    let fake = FakeOpenAi::start();
    script(&fake);
    let brain = support::brain(&support::llm_config(&fake));
    let (_dir, kitchen) = support::kitchen();
    let (_offline_dir, offline_kitchen) = support::kitchen();
    let text = std::fs::read_to_string("assets/scenarios/meal-planning.txt").unwrap();
    let scenario = parse_script(&text);
    let mut state = ContextState::new(ContextPolicy::default());
    let mut offline_state = state.clone();
    for expected in scenario.iter().take(3) {
        let message = expected.message.as_str();
        let sent_before = fake.requests().len();
        let (result, events) = turn(brain.clone(), kitchen.clone(), state.clone(), message).await;
        let TurnResult::Done {
            record,
            state: next,
        } = result
        else {
            panic!("{message}: the turn failed: {result:?}");
        };
        let json = serde_json::to_value(&*record).unwrap();
        for e in &expected.expectations {
            check(&json, &e.text)
                .unwrap_or_else(|found| panic!("{message}: `{}`: {found}", e.text));
        }
        let (offline, _) = turn(
            Arc::new(OfflineBrain::new()),
            offline_kitchen.clone(),
            offline_state.clone(),
            message,
        )
        .await;
        let TurnResult::Done {
            record: offline,
            state: offline_next,
        } = offline
        else {
            panic!("{message}: the offline turn failed");
        };
        assert_eq!(
            record.entities, offline.entities,
            "{message}: the layers differ from the offline brain's"
        );
        assert_eq!(record.decision, offline.decision, "{message}");
        // The reply streamed in pieces that make up the whole.
        let chunks: Vec<&str> = events
            .iter()
            .filter_map(|e| match e {
                PipelineEvent::ReplyChunk { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert!(chunks.len() > 3, "{message}: {chunks:?}");
        assert_eq!(chunks.concat(), record.reply);
        // Usage is the server's (the fake reports a quarter of each body's
        // length as prompt tokens), priced.
        let reported: u64 = fake.requests()[sent_before..]
            .iter()
            .map(|r| (r.raw.len() as u64).div_ceil(4))
            .sum();
        assert_eq!(record.usage.prompt_tokens, reported, "{message}");
        assert!(record.cost_usd.unwrap_or(0.0) > 0.0, "{message}");
        if record.steps.is_empty() {
            // (A turn with steps is marked estimated by the pipeline's Act
            // accounting, which starts each step from an estimated zero.)
            assert_eq!(record.usage.source, UsageSource::Reported, "{message}");
        }
        assert!(
            record.llm.starts_with("gpt-4.1, gpt-4.1-mini @ 127.0.0.1:"),
            "{}",
            record.llm
        );
        state = *next;
        offline_state = *offline_next;
    }
    // Turn 3: recipe_5 and recipe_6 excluded with the user's reasons, and
    // the analysis worked from the rows loaded at turn 2.
    let excluded: Vec<(String, Option<String>)> = state
        .snapshot()
        .entities
        .excluded
        .iter()
        .map(|e| (e.r#ref.clone(), e.reason.clone()))
        .collect();
    assert!(
        excluded.contains(&("recipe_5".into(), Some(FRENCH_TOAST.into()))),
        "{excluded:?}"
    );
    assert!(
        excluded.contains(&("recipe_6".into(), Some(WINGS.into()))),
        "{excluded:?}"
    );
    let requests = fake.requests();
    let last_act = requests.iter().rev().find(|r| r.node == Node::Act).unwrap();
    assert!(
        last_act.message("user").contains("Already loaded"),
        "turn 3 analyzed what turn 2 read"
    );
    check_requests(&requests);
}

/// What every request must look like.
fn check_requests(requests: &[support::Recorded]) {
    let count = |n: Node| requests.iter().filter(|r| r.node == n).count();
    assert_eq!(count(Node::Understand), 3);
    assert_eq!(count(Node::Think), 3);
    assert_eq!(
        count(Node::Act),
        5 + 1,
        "2 per read step, 1 per analysis; no re-read at turn 3"
    );
    assert_eq!(count(Node::Reply), 3);
    assert_eq!(count(Node::Summarize), 3);
    assert!(count(Node::Compress) >= 1, "older turns were folded");
    for r in requests {
        assert_eq!(r.status, 200, "{:?} was refused: {}", r.node, r.raw);
        assert!(!has_uuid(&r.raw), "a row id reached the model: {}", r.raw);
        assert!(!r.raw.contains(KEY));
        let auth: Vec<&str> = r
            .headers
            .iter()
            .filter(|(k, _)| k == "authorization")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(auth, [format!("Bearer {KEY}")]);
        let (model, temperature) = match r.node {
            Node::Understand => ("gpt-4.1", 0.2),
            Node::Think => ("gpt-4.1", 0.35),
            Node::Reply => ("gpt-4.1-mini", 0.6),
            Node::Summarize | Node::Compress => ("gpt-4.1-mini", 0.3),
            Node::Act if r.message("user").contains("Type: read") => ("gpt-4.1-mini", 0.25),
            Node::Act => ("gpt-4.1", 0.25),
            Node::Other => panic!("an unexpected request: {}", r.raw),
        };
        assert_eq!(r.body["model"], model, "{:?}", r.node);
        let t = r.body["temperature"].as_f64().unwrap();
        assert!(
            (t - temperature).abs() < 1e-6,
            "{:?}: temperature {t}",
            r.node
        );
        if r.node == Node::Reply {
            assert_eq!(r.body["stream"], true);
            assert_eq!(r.body["stream_options"]["include_usage"], true);
            continue;
        }
        let format = &r.body["response_format"];
        assert_eq!(format["type"], "json_schema", "{:?}", r.node);
        assert_eq!(format["json_schema"]["strict"], true);
        assert_eq!(
            format["json_schema"]["schema"]["additionalProperties"],
            false
        );
        let system = r.message("system");
        assert!(!system.is_empty() && !r.message("user").is_empty());
    }
    let think = requests
        .iter()
        .find(|r| r.node == Node::Think)
        .unwrap()
        .message("user");
    for section in [
        "session_context",
        "entity_context",
        "turn_narrative",
        "conversation_history",
        "current_task",
    ] {
        assert!(
            think.contains(&format!("<{section}>")) && think.contains(&format!("</{section}>")),
            "Think lacks {section}"
        );
    }
    let act = requests.iter().find(|r| r.node == Node::Act).unwrap();
    assert_eq!(
        act.body["response_format"]["json_schema"]["name"],
        "act_action"
    );
}

#[test]
fn the_uuid_detector_can_fail() {
    assert!(has_uuid("\"id\": \"3f2b8c1e-9a4d-4f6b-8e2a-1c5d7e9f0a3b\""));
    assert!(!has_uuid("recipe_3 inv_12 gen_meal_1 2026-01-13"));
}
