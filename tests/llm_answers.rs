//! What the LLM brain does with each kind of answer a real server sends,
//! through whole turns against the fake server: answers cut at `max_tokens`
//! (`finish_reason: "length"`) on the reply and on a structured call, empty
//! or out-of-range answers refused field by field in every mode, every
//! request kept raw in the record (repairs and failed nodes too), the three
//! clocks of a streamed call, and the budgets sent.

mod support;

use std::time::{Duration, Instant};

use alfred::pipeline::TurnResult;
use alfred::record::{CallAttempt, TurnRecord};
use serde_json::json;

use support::{FakeOpenAi, Fault, Node, done, failure, reply_chunks, turn_on};

fn record(result: &TurnResult) -> &TurnRecord {
    match result {
        TurnResult::Done { record, .. } | TurnResult::Failed { record } => record,
    }
}

#[tokio::test]
async fn a_reply_cut_at_its_limit_is_kept_and_marked_cut() {
    let fake = FakeOpenAi::start();
    let text = "Here are nine recipes you can cook this week from what you have on hand today";
    fake.reply(text);
    fake.fault_on(Node::Reply, Fault::Length);
    let mut config = support::llm_config(&fake);
    config.max_tokens.reply = 300;
    let (result, events) = turn_on(&config, "what can I cook?").await;
    let r = done(&result);
    let shown = reply_chunks(&events).concat();
    assert!(
        text.starts_with(&shown) && shown.len() < text.len(),
        "{shown}"
    );
    assert_eq!(r.reply, shown, "the record keeps what the user read");
    assert_eq!(
        r.reply_cut.as_deref(),
        Some("cut off at the 300-token limit (llm.max_tokens.reply)")
    );
    let call = &r.prompts.reply.as_ref().unwrap().calls[0];
    assert_eq!(call.finish_reason.as_deref(), Some("length"));
    assert_eq!(call.max_tokens, Some(300));
    assert_eq!(call.raw, shown);
    // The reply's request carried the budget.
    assert_eq!(fake.requests_of(Node::Reply)[0].body["max_tokens"], 300);
    // The next turn's model is told the reply stopped short.
    let TurnResult::Done { state, .. } = &result else {
        unreachable!()
    };
    let last = state.conversation.recent().last().unwrap();
    assert!(
        last.assistant
            .ends_with("[cut off: the reply reached its token limit]"),
        "{}",
        last.assistant
    );
}

#[tokio::test]
async fn a_structured_answer_cut_at_its_limit_is_asked_again_shorter() {
    let fake = FakeOpenAi::start();
    fake.answer(
        Node::Think,
        json!({"goal": "Plan the week's meals with what is on hand", "decision": "propose",
               "proposal_message": "Shall I plan five dinners?"}),
    );
    fake.answer(
        Node::Think,
        json!({"goal": "Plan meals", "decision": "propose", "proposal_message": "Five dinners?"}),
    );
    fake.fault_on(Node::Think, Fault::Length);
    let mut config = support::llm_config(&fake);
    config.max_tokens.think = 200;
    let (result, _) = turn_on(&config, "plan my meals").await;
    let r = done(&result);
    let think = r.prompts.think.as_ref().unwrap();
    assert_eq!(think.calls.len(), 2, "{:#?}", think.calls);
    let (first, repair) = (&think.calls[0], &think.calls[1]);
    assert_eq!(first.attempt, CallAttempt::Answer);
    assert_eq!(first.finish_reason.as_deref(), Some("length"));
    let problem = first.problem.as_deref().unwrap();
    assert!(
        problem.starts_with(
            "it was cut off at the 200-token limit (llm.max_tokens.think) before the JSON was \
             complete, so it is not valid JSON"
        ),
        "{problem}"
    );
    assert_eq!(repair.attempt, CallAttempt::Repair);
    assert_eq!(repair.finish_reason.as_deref(), Some("stop"));
    assert!(repair.problem.is_none());
    let asked = fake.requests_of(Node::Think)[1].last_user();
    assert!(
        asked.contains(problem) && asked.contains("shorter"),
        "{asked}"
    );
    // The first answer, cut as it came, is what the repair quoted back.
    assert_eq!(
        fake.requests_of(Node::Think)[1].body["messages"][2]["content"],
        first.raw.as_str()
    );
    assert_eq!(r.goal, "Plan meals");
}

#[tokio::test]
async fn cut_twice_names_the_limit_and_the_knob() {
    let fake = FakeOpenAi::start();
    fake.fault_on(Node::Think, Fault::Length);
    fake.fault_on(Node::Think, Fault::Length);
    let (result, _) = turn_on(&support::llm_config(&fake), "plan my meals").await;
    let error = failure(&result);
    assert!(
        error.contains(
            "the think answer of gpt-4.1 was cut off at its 1024-token limit twice \
             (llm.max_tokens.think). Raise llm.max_tokens.think"
        ),
        "{error}"
    );
    // The failed node is in the record with both requests, raw.
    let think = record(&result).prompts.think.as_ref().unwrap();
    assert!(think.response.is_none());
    assert_eq!(think.calls.len(), 2);
    assert!(think.calls.iter().all(|c| c.problem.is_some()));
    assert!(record(&result).timings_ms.contains_key("think"));
}

#[tokio::test]
async fn an_empty_answer_in_json_object_mode_is_repaired_field_by_field() {
    let fake = FakeOpenAi::start();
    fake.reject_json_schema();
    // The first is spent on the refused json_schema request.
    fake.fault_on(Node::Understand, Fault::Content("{}".into()));
    fake.fault_on(Node::Understand, Fault::Content("{}".into()));
    let (result, _) = turn_on(&support::llm_config(&fake), "hello").await;
    let r = done(&result);
    let understand = r.prompts.understand.as_ref().unwrap();
    // The refused json_schema request, the empty answer, the repair.
    let formats: Vec<&str> = understand.calls.iter().map(|c| c.format.as_str()).collect();
    assert_eq!(formats, ["json_schema", "json_object", "json_object"]);
    assert_eq!(understand.calls[0].status, Some(400));
    assert_eq!(understand.calls[1].raw, "{}");
    let problem = understand.calls[1].problem.as_deref().unwrap();
    assert!(
        problem.starts_with(
            "it does not match the understand_output schema: \"clarification_questions\" is \
             missing; \"constraints\" is missing"
        ),
        "{problem}"
    );
    assert_eq!(fake.count(Node::Understand), 3);
}

#[tokio::test]
async fn an_out_of_range_group_is_refused_and_the_schema_bounds_it() {
    let fake = FakeOpenAi::start();
    let plan = |group: u64| {
        json!({"goal": "Show recipes", "decision": "plan_direct", "steps": [
            {"description": "Read recipes", "step_type": "read", "subdomain": "recipes",
             "group": group}]})
    };
    fake.answer(Node::Think, plan(4_501_269_387_021));
    fake.answer(Node::Think, plan(0));
    let (result, _) = turn_on(&support::llm_config(&fake), "show recipes").await;
    let r = done(&result);
    let calls = &r.prompts.think.as_ref().unwrap().calls;
    assert_eq!(
        calls[0].problem.as_deref(),
        Some(
            "it does not match the think_output schema: \"steps[0].group\" is 4501269387021, \
             above the maximum 7"
        )
    );
    let sent = &fake.requests_of(Node::Think)[0].body["response_format"]["json_schema"]["schema"];
    let group = &sent["properties"]["steps"]["items"]["properties"]["group"];
    assert_eq!(
        (&group["minimum"], &group["maximum"]),
        (&json!(0), &json!(7))
    );
    assert_eq!(r.steps.len(), 1);
}

#[tokio::test]
async fn every_request_is_streamed_with_its_budget_and_timed() {
    let fake = FakeOpenAi::start();
    let (result, _) = turn_on(&support::llm_config(&fake), "hello").await;
    let r = done(&result);
    for req in fake.requests() {
        assert_eq!(req.body["stream"], true, "{:?}", req.node);
        assert!(req.body["max_tokens"].as_u64().is_some(), "{:?}", req.node);
    }
    assert_eq!(
        fake.requests_of(Node::Understand)[0].body["max_tokens"],
        1024
    );
    let understand = &r.prompts.understand.as_ref().unwrap().calls[0];
    assert!(understand.streamed);
    assert_eq!(understand.status, Some(200));
    assert_eq!(understand.finish_reason.as_deref(), Some("stop"));
    let first = understand.first_byte_ms.unwrap();
    assert!(
        first > 0.0 && first <= understand.total_ms,
        "{understand:?}"
    );
    let usage = understand.usage.unwrap();
    assert!(usage.prompt_tokens > 0 && usage.completion_tokens > 0);
    // The raw text is the answer as sent, not the decision re-serialised.
    let sent = &understand.raw;
    let parsed: serde_json::Value = serde_json::from_str(sent).unwrap();
    assert!(parsed["entity_curation"].is_object());
    assert_eq!(
        r.usage.prompt_tokens,
        r.prompts
            .all()
            .flat_map(|p| &p.calls)
            .map(|c| c.usage.unwrap().prompt_tokens)
            .sum::<u64>(),
        "the turn's usage is the sum of its requests'"
    );
}

#[tokio::test]
async fn a_server_that_stops_mid_answer_is_told_from_one_that_never_began() {
    let fake = FakeOpenAi::start();
    fake.reply("Here are the nine recipes you saved, with the ones you can cook tonight first");
    fake.fault_on(Node::Reply, Fault::Stall);
    let mut config = support::llm_config(&fake);
    config.timeout_secs = 1;
    let started = Instant::now();
    let (result, _) = turn_on(&config, "hello").await;
    let error = failure(&result);
    assert!(
        error.starts_with("reply failed: the model server did not answer in time:")
            && error.contains("stopped sending the reply for 1.0 s after 37 characters"),
        "{error}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    let call = &record(&result).prompts.reply.as_ref().unwrap().calls[0];
    assert_eq!(call.raw, "Here are the nine recipes you saved, ");
    assert!(call.finish_reason.is_none());
    assert_eq!(
        call.problem.as_deref(),
        Some(error.trim_start_matches("reply failed: "))
    );

    let fake = FakeOpenAi::start();
    fake.fault_on(Node::Understand, Fault::Hang);
    let mut config = support::llm_config(&fake);
    config.timeout_secs = 1;
    let error = failure(&turn_on(&config, "hello").await.0);
    assert!(
        error.contains("took the understand request but sent nothing for 1.0 s (llm.timeout_secs)")
            && error.contains("-token prompt"),
        "{error}"
    );
}

#[tokio::test]
async fn a_live_but_slow_answer_is_stopped_by_the_call_deadline() {
    let fake = FakeOpenAi::start();
    // Each part comes within the silence deadline; the whole does not.
    fake.fault_on(Node::Understand, Fault::Drip(Duration::from_millis(600)));
    let mut config = support::llm_config(&fake);
    config.timeout_secs = 1;
    config.call_timeout_secs = 2;
    let started = Instant::now();
    let (result, _) = turn_on(&config, "hello").await;
    let elapsed = started.elapsed();
    let error = failure(&result);
    assert!(
        error.contains(
            "did not finish the understand answer within 2.0 s (llm.call_timeout_secs); it was \
             still writing ("
        ) && error.ends_with("Lower llm.max_tokens.understand or raise llm.call_timeout_secs."),
        "{error}"
    );
    assert!(
        elapsed >= Duration::from_secs(2) && elapsed < Duration::from_secs(4),
        "{elapsed:?}"
    );
}

#[tokio::test]
async fn a_prompt_too_large_for_the_servers_context_is_not_sent() {
    let fake = FakeOpenAi::start();
    fake.pretend(support::Persona::LlamaCpp { n_ctx: 512 });
    let (result, _) = turn_on(&support::llm_config(&fake), "hello").await;
    let error = failure(&result);
    assert!(
        error.starts_with("understand failed: The understand prompt is about ")
            && error.contains(&format!(
                "tokens, but llama.cpp at {} holds 512 tokens per request (/props n_ctx): no \
                 room is left for the answer. Nothing was sent. To go on, restart llama-server \
                 with a larger -c",
                fake.base_url()
            )),
        "{error}"
    );
    assert_eq!(fake.count(Node::Understand), 0);
}

#[tokio::test]
async fn an_answer_budget_is_lowered_to_the_room_the_prompt_leaves() {
    let fake = FakeOpenAi::start();
    fake.pretend(support::Persona::LlamaCpp { n_ctx: 1600 });
    let (result, _) = turn_on(&support::llm_config(&fake), "hello").await;
    let r = done(&result);
    let call = &r.prompts.understand.as_ref().unwrap().calls[0];
    let sent = fake.requests_of(Node::Understand)[0].body["max_tokens"]
        .as_u64()
        .unwrap();
    assert!((64..1024).contains(&sent), "{sent}");
    assert_eq!(
        call.max_tokens,
        Some(sent as u32),
        "the record keeps what was sent"
    );
    assert!(
        r.llm.ends_with("(llama.cpp b9999-fake · 1600 context)"),
        "{}",
        r.llm
    );
}
