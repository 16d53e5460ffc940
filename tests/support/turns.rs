//! Shared by the pipeline and LLM tests and the LLM bench: a seeded kitchen
//! in a temp folder, a turn request on a fixed day, and one turn run to its
//! end with every event it sent.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use alfred::context::{ContextPolicy, ContextState, Table};
use alfred::kitchen::Kitchen;
use alfred::pipeline::{
    Brain, PipelineEvent, TurnId, TurnRequest, TurnResult, TurnSettings, run_turn,
};
use tokio::sync::mpsc;

/// A seeded kitchen store in a temp folder (kept alive by the `TempDir`).
pub fn kitchen() -> (tempfile::TempDir, Arc<Mutex<Kitchen>>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut k = Kitchen::open(dir.path().join("kitchen.db")).expect("open kitchen");
    k.seed_if_empty(jiff::civil::date(2026, 1, 13))
        .expect("seed");
    (dir, Arc::new(Mutex::new(k)))
}

/// The context of a new session.
pub fn fresh() -> ContextState {
    ContextState::new(ContextPolicy::default())
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
pub async fn run_request(
    brain: Arc<dyn Brain>,
    kitchen: Arc<Mutex<Kitchen>>,
    request: TurnRequest,
) -> (TurnResult, Vec<PipelineEvent>) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let result = run_turn(
        brain,
        kitchen,
        Arc::new(TurnSettings::default()),
        request,
        tx,
    )
    .await;
    let mut events = Vec::new();
    while let Ok(e) = rx.try_recv() {
        events.push(e);
    }
    (result, events)
}

/// The reply's streamed pieces, in order.
pub fn reply_chunks(events: &[PipelineEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            PipelineEvent::ReplyChunk { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// How many inventory rows the store holds.
pub fn inventory_rows(k: &Mutex<Kitchen>) -> u64 {
    k.lock().unwrap().stats().unwrap().rows(Table::Inventory)
}
