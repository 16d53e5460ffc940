//! What the record and the log keep of each request: the [`CallRecord`]
//! the inspector shows (raw text, finish reason, timings, tokens, the
//! problem), and one debug line per answer.

use crate::config::LlmNode;
use crate::pipeline::Usage;
use crate::record::{CallAttempt, CallRecord};

use super::call::{Exchange, finish_name};
use super::client::LlmBrain;
use super::wire::Request;

/// The request a record is about.
pub struct Call<'a> {
    pub node: LlmNode,
    /// The schema's name; `reply` for the streamed text.
    pub schema: &'a str,
    pub attempt: CallAttempt,
    pub request: &'a Request<'a>,
}

fn ms(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 100_000.0).round() / 100.0
}

impl LlmBrain {
    /// The record of one request and what came back, logged as one line.
    pub(super) fn record(
        &self,
        call: &Call<'_>,
        got: &Exchange,
        usage: Option<Usage>,
        problem: Option<String>,
    ) -> CallRecord {
        let cached = got.cached;
        let finish = got.finish.map(finish_name);
        let tokens = usage.unwrap_or_default();
        tracing::debug!(
            node = call.node.key(),
            schema = call.schema,
            attempt = ?call.attempt,
            model = call.request.model,
            status = got.status.unwrap_or(0),
            first_byte_ms = got.first_byte.map_or(-1.0, ms),
            total_ms = ms(got.total),
            prompt_tokens = tokens.prompt_tokens,
            completion_tokens = tokens.completion_tokens,
            tokens_reported = got.usage.is_some(),
            cached_tokens = cached.unwrap_or(0),
            finish = finish.unwrap_or("none"),
            chars = got.text.chars().count(),
            problem = problem.as_deref().unwrap_or(""),
            "model answer"
        );
        CallRecord {
            attempt: call.attempt,
            model: call.request.model.to_string(),
            format: call.request.format.name().to_string(),
            streamed: call.request.stream,
            max_tokens: got.max_tokens.or(call.request.max_tokens),
            raw: got.text.clone(),
            finish_reason: finish.map(str::to_string),
            status: got.status,
            first_byte_ms: got.first_byte.map(ms),
            total_ms: ms(got.total),
            usage,
            cached_tokens: cached,
            problem,
        }
    }
}
