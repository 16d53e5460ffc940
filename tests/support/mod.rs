//! Shared by the LLM tests and bench: the fake OpenAI-compatible server, a
//! seeded kitchen in a temp folder, an `[llm]` config pointing at the fake,
//! and a helper that runs one turn and collects its events.
#![allow(dead_code)]

pub mod fake_answers;
pub mod fake_openai;
pub mod meal_planning;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use alfred::brain::llm::LlmBrain;
use alfred::config::{Backend, LlmConfig};
use alfred::context::ContextState;
use alfred::kitchen::Kitchen;
use alfred::pipeline::{
    Brain, PipelineEvent, TurnId, TurnRequest, TurnResult, TurnSettings, run_turn,
};
use tokio::sync::mpsc;

#[allow(unused_imports)]
pub use fake_openai::{FakeOpenAi, Fault, Node, Recorded};

/// The test key: it must reach the fake only in the Authorization header.
pub const KEY: &str = "sk-test-7f3a9c1e5b";

/// A seeded kitchen store in a temp folder (kept alive by the `TempDir`).
pub fn kitchen() -> (tempfile::TempDir, Arc<Mutex<Kitchen>>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut k = Kitchen::open(dir.path().join("kitchen.db")).expect("open kitchen");
    k.seed_if_empty(jiff::civil::date(2026, 1, 13))
        .expect("seed");
    (dir, Arc::new(Mutex::new(k)))
}

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

/// The request of turn `id` on `state`.
pub fn request(id: u64, state: ContextState, message: &str) -> TurnRequest {
    TurnRequest {
        id: TurnId(id),
        message: message.into(),
        state,
        today: "2026-01-13".into(),
        started_at: "2026-01-13T10:00:00Z".into(),
    }
}

/// Runs one turn to its end; returns the result and every event.
pub async fn turn(
    brain: Arc<dyn Brain>,
    kitchen: Arc<Mutex<Kitchen>>,
    state: ContextState,
    message: &str,
) -> (TurnResult, Vec<PipelineEvent>) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let result = run_turn(
        brain,
        kitchen,
        Arc::new(TurnSettings::default()),
        request(1, state, message),
        tx,
    )
    .await;
    let mut events = Vec::new();
    while let Ok(e) = rx.try_recv() {
        events.push(e);
    }
    (result, events)
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
