//! Small pieces every part of a turn uses: the event sink, lock recovery,
//! token estimates and timing.

use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use serde::Serialize;
use tokio::sync::mpsc;

use crate::prompt::section::count_texts;
use crate::prompt::{Prompt, count_tokens};

use super::brain::{Brain, Decided, Usage, UsageSource};
use super::events::{PipelineEvent, TurnId};

/// Sends events tagged with the turn's id; a closed receiver is fine.
#[derive(Debug, Clone)]
pub struct EventSink {
    id: TurnId,
    tx: mpsc::UnboundedSender<PipelineEvent>,
}

impl EventSink {
    /// A sink for turn `id`.
    pub fn new(id: TurnId, tx: mpsc::UnboundedSender<PipelineEvent>) -> Self {
        Self { id, tx }
    }

    /// Builds and sends an event for this turn.
    pub fn send(&self, make: impl FnOnce(TurnId) -> PipelineEvent) {
        let _ = self.tx.send(make(self.id));
    }
}

/// Locks a mutex, recovering the data if a panicking thread poisoned it.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Counts a prompt's tokens on a blocking thread while its request is out:
/// the tokenizer (about 1 ms for a 30 KB prompt) stays off the critical
/// path of a turn. [`Counting::apply`] hands the counts back.
pub struct Counting(Option<tokio::task::JoinHandle<Vec<usize>>>);

impl Counting {
    /// Starts counting `prompt` for `brain`'s decision on it: beside the
    /// request when the brain [waits](Brain::waits) on a server, else at
    /// once (there is nothing to overlap, and concurrent steps then run in
    /// the same order every time).
    pub fn beside(prompt: &mut Prompt, brain: &dyn Brain) -> Self {
        if prompt.is_counted() || !brain.waits() {
            prompt.count();
            return Self(None);
        }
        let texts = prompt.texts();
        Self(Some(tokio::task::spawn_blocking(move || {
            count_texts(&texts)
        })))
    }

    /// Sets the counts on `prompt`; if the count was lost (its thread
    /// panicked), counts here instead.
    pub async fn apply(self, prompt: &mut Prompt) {
        match self.0 {
            Some(handle) => match handle.await {
                Ok(counts) => prompt.set_counts(&counts),
                Err(_) => prompt.count(),
            },
            None => prompt.count(),
        }
    }
}

/// Tokens of a call the brain did not report: the prompt's count and the
/// tokenizer's count of the answer.
pub fn estimate_usage(prompt: &Prompt, response: &str) -> Usage {
    Usage {
        prompt_tokens: prompt.total_tokens_now() as u64,
        completion_tokens: count_tokens(response) as u64,
        source: UsageSource::Estimated,
        cost_usd: None,
    }
}

/// A decision's usage (the brain's report, else the estimate) and the
/// decision as the JSON text the turn record keeps.
pub fn usage_of<T: Serialize>(prompt: &Prompt, d: &Decided<T>) -> (Usage, String) {
    let response = serde_json::to_string(&d.value).unwrap_or_default();
    (
        d.usage.unwrap_or_else(|| estimate_usage(prompt, &response)),
        response,
    )
}

/// Milliseconds since `since`, to two decimals.
pub fn ms(since: Instant) -> f64 {
    (since.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0
}
