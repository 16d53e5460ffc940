//! The seeds' meal-planning conversation through the LLM brain, against the
//! fake OpenAI-compatible server over real HTTP, with scripted model
//! outputs: the layers end up exactly as the offline brain leaves them
//! (cod, then french toast and wings excluded with reasons; no re-read),
//! the scenario's expectations hold, and every request is what a strict
//! server wants (json_schema strict, Think's sections, per-node models and
//! temperatures, refs and never row ids).

mod support;

use alfred::context::snapshot::{EntitiesView, EntityView};
use alfred::fixtures::offline_brain;
use alfred::pipeline::{TurnResult, UsageSource};
use alfred::scenario::{check, parse_script};

use support::meal_planning::{FRENCH_TOAST, MESSAGES, WINGS, script};
use support::{FakeOpenAi, KEY, Node, fresh, has_uuid, reply_chunks, turn};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_meal_planning_conversation_gives_the_offline_brains_layers() {
    let fake = FakeOpenAi::start();
    script(&fake);
    let brain = support::brain(&support::llm_config(&fake));
    let (_dir, kitchen) = support::kitchen();
    let (_offline_dir, offline_kitchen) = support::kitchen();
    let text = std::fs::read_to_string("assets/scenarios/meal-planning.txt").unwrap();
    let scenario = parse_script(&text);
    let mut state = fresh();
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
            offline_brain(),
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
            layers(&record.entities),
            layers(&offline.entities),
            "{message}: the layers differ from the offline brain's"
        );
        assert_eq!(record.entities, offline.entities, "{message}");
        assert_eq!(record.decision, offline.decision, "{message}");
        // The reply streamed in pieces that make up the whole.
        let chunks = reply_chunks(&events);
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

/// The entity layer in one line per state: refs with their reasons.
fn layers(e: &EntitiesView) -> Vec<String> {
    let line = |state: &str, views: Vec<&EntityView>| {
        let refs: Vec<String> = views
            .into_iter()
            .map(|v| match &v.reason {
                Some(r) => format!("{} ({r})", v.r#ref),
                None => v.r#ref.clone(),
            })
            .collect();
        format!("{state}: {}", refs.join(", "))
    };
    vec![
        line("recent", e.recent.iter().collect()),
        line("retained", e.retained.iter().collect()),
        line("pending", e.pending.iter().collect()),
        line("excluded", e.excluded.iter().collect()),
        line("background", e.background().collect()),
        format!("dropped: {}", e.dropped.join(", ")),
    ]
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
    // Three turns fold one line per layer, which the extractive summary
    // keeps whole: no prompt is spent compressing it.
    assert_eq!(count(Node::Compress), 0, "nothing needed compressing yet");
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

/// A session whose earlier summary is full: the fold waiting from the last
/// turn is compressed by the model (over HTTP, with its schema) before
/// Understand reads the layers, and the model's summary replaces the lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_earlier_summary_is_compressed_by_the_model() {
    use alfred::context::{ConversationTurn, Extractive, TurnExecutionSummary};
    let fake = FakeOpenAi::start();
    fake.answer(
        Node::Compress,
        serde_json::json!({"summary": "The user planned meals, ruled out cod, and saved a plan."}),
    );
    fake.answer(
        Node::Compress,
        serde_json::json!({"summary": "The user planned meals, ruled out cod, and saved a plan."}),
    );
    let brain = support::brain(&support::llm_config(&fake));
    let (_dir, kitchen) = support::kitchen();
    let mut state = fresh();
    state.policy.full_detail_turns = 1;
    state.policy.narrative_turns = 1;
    // Fold every turn, so turn 12's fold is waiting when the turn runs.
    state.policy.fold_every = 1;
    for t in 1..=12 {
        state.begin_turn();
        let user =
            format!("message {t}: a long question about what to cook this week with the pantry");
        state.record_turn(
            TurnExecutionSummary {
                turn_number: t,
                user_message: user.clone(),
                goal: format!("Answer question {t} about cooking this week"),
                ..TurnExecutionSummary::default()
            },
            ConversationTurn {
                turn: t,
                user,
                assistant: format!("Reply {t}: here is what you could cook this week."),
                ..ConversationTurn::default()
            },
        );
        if t < 12 {
            state.fold_all(&mut Extractive);
        }
    }
    let waiting = state.fold_requests();
    assert!(
        waiting.iter().all(|f| state.needs_compression(f)),
        "the summaries are full: {waiting:?}"
    );
    let (result, _) = turn(brain, kitchen, state, "hello").await;
    let TurnResult::Done { state, .. } = result else {
        panic!("the turn failed: {result:?}");
    };
    let compress: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.node == Node::Compress)
        .collect();
    assert_eq!(compress.len(), 2, "one per layer");
    for r in &compress {
        assert_eq!(r.body["response_format"]["json_schema"]["strict"], true);
        assert!(r.message("user").contains("message 11"), "{}", r.raw);
    }
    assert!(
        state
            .conversation
            .history_summary()
            .starts_with("The user planned meals"),
        "{}",
        state.conversation.history_summary()
    );
}

/// A streamed answer is read to its end after `[DONE]`, so its connection
/// goes back to the pool and later calls of the conversation reuse it
/// instead of opening one per call (over TLS, a handshake per call).
///
/// What is certain, whatever the machine's load, is only that some call
/// reuses a connection: the pool takes a connection back in a task of its
/// own once the answer is read, and a call that leaves before that task has
/// run opens a new one (a busy machine once gave 3 connections for the 4
/// calls of one turn). Across the conversation's calls, every one of them
/// would have to leave before any earlier connection came back. With reuse
/// broken (each answer's connection closed or left unread), every call
/// opens its own and this fails. How many connections a turn takes on a
/// quiet machine is a figure of `cargo bench --bench llm`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_of_a_conversation_reuse_connections() {
    let fake = FakeOpenAi::start();
    script(&fake);
    let brain = support::brain(&support::llm_config(&fake));
    let (_dir, kitchen) = support::kitchen();
    let mut state = fresh();
    for message in MESSAGES {
        let (result, _) = turn(brain.clone(), kitchen.clone(), state, message).await;
        let TurnResult::Done { state: next, .. } = result else {
            panic!("{message}: the turn failed: {result:?}");
        };
        state = *next;
    }
    let calls = fake.requests().len();
    assert!(calls >= 8, "{calls} calls");
    let opened = fake.connections();
    assert!(
        opened < calls,
        "{opened} connections for {calls} calls: no connection was reused"
    );
}
