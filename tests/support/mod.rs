//! Shared by the LLM tests and bench: the fake OpenAI-compatible server, an
//! `[llm]` config pointing at the fake, the LLM brain, helpers that run one
//! turn and collect its events, and how a turn ended (the kitchen and
//! requests are in `turns.rs`, which the pipeline test shares).
#![allow(dead_code)]

pub mod doctor;
pub mod fake_answers;
pub mod fake_openai;
pub mod meal_planning;
pub mod otlp;
pub mod serve;
pub mod turns;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use alfred::brain::llm::LlmBrain;
use alfred::config::{Backend, LlmConfig};
use alfred::context::ContextState;
use alfred::kitchen::Kitchen;
use alfred::pipeline::{Brain, PipelineEvent, TurnResult};
use alfred::record::TurnRecord;

#[allow(unused_imports)]
pub use fake_openai::{FakeOpenAi, Fault, Node, Persona, Recorded, SENT_KEY};
#[allow(unused_imports)]
pub use turns::{fresh, inventory_rows, kitchen, reply_chunks, request, run_request};

/// The test key: it must reach the fake only in the Authorization header.
pub const KEY: &str = "sk-test-7f3a9c1e5b";

/// `[llm]` for the fake: the default per-node models and temperatures, a
/// timeout long enough for a loaded CI machine (fault tests shorten it).
pub fn llm_config(fake: &FakeOpenAi) -> LlmConfig {
    LlmConfig {
        backend: Backend::OpenAi,
        base_url: format!("{}/", fake.base_url()),
        api_key_env: "ALFRED_TEST_KEY".into(),
        timeout_secs: 30,
        max_retries: 3,
        ..LlmConfig::default()
    }
}

/// The LLM brain for `config`, with short backoff delays.
pub fn brain(config: &LlmConfig) -> Arc<LlmBrain> {
    let brain = LlmBrain::new(config, Some(KEY.to_string()))
        .expect("brain")
        .with_backoff(Duration::from_millis(20));
    Arc::new(brain)
}

/// Runs turn 1 on `state` to its end; returns the result and every event.
pub async fn turn(
    brain: Arc<dyn Brain>,
    kitchen: Arc<Mutex<Kitchen>>,
    state: ContextState,
    message: &str,
) -> (TurnResult, Vec<PipelineEvent>) {
    run_request(brain, kitchen, request(1, state, message)).await
}

/// True when `text` holds something shaped like a UUID (a row id).
pub fn has_uuid(text: &str) -> bool {
    let b = text.as_bytes();
    let groups = [8, 4, 4, 4, 12];
    (0..b.len()).any(|start| {
        let mut i = start;
        for (g, len) in groups.iter().enumerate() {
            if i + len > b.len() || !b[i..i + len].iter().all(u8::is_ascii_hexdigit) {
                return false;
            }
            i += len;
            if g < 4 {
                if b.get(i) != Some(&b'-') {
                    return false;
                }
                i += 1;
            }
        }
        true
    })
}

/// Runs one turn of the LLM brain on `config`, on a fresh session and
/// kitchen.
pub async fn turn_on(config: &LlmConfig, message: &str) -> (TurnResult, Vec<PipelineEvent>) {
    let (_dir, kitchen) = kitchen();
    turn(brain(config), kitchen, fresh(), message).await
}

/// The record of a turn that succeeded (panics on a failure).
pub fn done(result: &TurnResult) -> &TurnRecord {
    match result {
        TurnResult::Done { record, .. } => record,
        TurnResult::Failed { record } => panic!("the turn failed: {:?}", record.error),
    }
}

/// The error of a failed turn (panics on success).
pub fn failure(result: &TurnResult) -> String {
    match result {
        TurnResult::Failed { record } => record.error.clone().unwrap_or_default(),
        TurnResult::Done { .. } => panic!("the turn should have failed"),
    }
}
