//! The prompt cache in the turn record, against the fake OpenAI-compatible
//! server over real HTTP. The fake keeps one prompt per node and reports
//! what it reused as each kind of server does: OpenAI and vLLM in
//! `usage.prompt_tokens_details.cached_tokens`, llama.cpp in
//! `timings.cache_n`, Ollama not at all. The record keeps what the server
//! said; when it says nothing, alfred's estimate, marked as one.

mod support;

use std::sync::Arc;

use alfred::pipeline::{NoLedger, TurnResult, TurnRunner, TurnSettings};
use alfred::record::TurnRecord;

use support::meal_planning::{MESSAGES, script};
use support::{FakeOpenAi, Node, Persona, fresh, request};

/// The first three meal-planning turns through one runner (its cache model
/// carries from turn to turn, as a server's cache does).
async fn three_turns(fake: &FakeOpenAi) -> Vec<TurnRecord> {
    script(fake);
    let brain = support::brain(&support::llm_config(fake));
    let (_dir, kitchen) = support::kitchen();
    let runner = TurnRunner::new(brain, kitchen, Arc::new(TurnSettings::default()));
    let mut state = fresh();
    let mut out = Vec::new();
    for (i, message) in MESSAGES.iter().take(3).enumerate() {
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        let result = runner
            .run(
                request(i as u64 + 1, state.clone(), message),
                Arc::new(NoLedger),
                tx,
            )
            .await;
        let TurnResult::Done {
            record,
            state: next,
        } = result
        else {
            panic!("{message}: the turn failed: {result:?}");
        };
        state = *next;
        out.push(*record);
    }
    out
}

/// What the fake said it reused for each Think request, in order.
fn think_cached(fake: &FakeOpenAi) -> Vec<Option<u64>> {
    let mut slot = String::new();
    fake.requests_of(Node::Think)
        .iter()
        .map(|r| {
            let text = support::fake_openai::prompt_text(&r.body);
            let common = slot
                .chars()
                .zip(text.chars())
                .take_while(|(a, b)| a == b)
                .count();
            slot = text;
            Some(common as u64 / 4)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_record_keeps_the_cached_tokens_the_server_reports() {
    for persona in [Persona::Plain, Persona::LlamaCpp { n_ctx: 32_768 }] {
        let fake = FakeOpenAi::start();
        fake.pretend(persona);
        let records = three_turns(&fake).await;
        let think: Vec<_> = records
            .iter()
            .map(|r| r.prompts.think.as_ref().expect("a Think prompt"))
            .collect();
        let reported: Vec<Option<u64>> = think.iter().map(|p| p.cached_tokens).collect();
        assert_eq!(reported, think_cached(&fake), "{persona:?}");
        assert!(think.iter().all(|p| !p.cached_estimated), "{persona:?}");
        // Think's instructions and the profile lead every prompt: from the
        // second turn on, the server reused them.
        assert_eq!(reported[0], Some(0), "{persona:?}: a cold cache");
        let second = think[1].cache().expect("figures");
        assert!(
            second.cached > 300 && second.cached < second.total,
            "{persona:?}: {second:?}"
        );
        assert!(!second.estimated);
        // The turn adds its prompts up, and says it is the server's figure.
        let turn = records[1].cache().expect("the turn's figures");
        assert!(turn.cached >= second.cached && !turn.estimated);
        let json = serde_json::to_value(&records[1]).unwrap();
        assert!(json["prompts"]["think"]["cached_tokens"].as_u64().unwrap() > 300);
        assert!(json["prompts"]["think"].get("cached_estimated").is_none());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_does_not_say_gets_alfreds_estimate_marked_as_one() {
    let fake = FakeOpenAi::start();
    fake.pretend(Persona::Ollama {
        num_ctx: None,
        loaded: None,
    });
    let records = three_turns(&fake).await;
    let think: Vec<_> = records
        .iter()
        .map(|r| r.prompts.think.as_ref().expect("a Think prompt"))
        .collect();
    assert!(think.iter().all(|p| p.cached_estimated));
    assert_eq!(think[0].cached_tokens, Some(0), "a cold cache");
    let second = think[1].cache().expect("figures");
    assert!(second.estimated && second.cached > 300, "{second:?}");
    // The estimate counts in the server's own token count's stead: the
    // prompt's tokens are alfred's count, the same the estimate is in.
    assert_eq!(second.total, think[1].tokens.total_tokens);
    let json = serde_json::to_value(&records[1]).unwrap();
    assert_eq!(json["prompts"]["think"]["cached_estimated"], true);
}
