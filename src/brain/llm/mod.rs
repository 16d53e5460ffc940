//! The LLM brain: every node decided by a model behind an OpenAI-compatible
//! chat completions API (OpenAI, Ollama, vLLM, llama.cpp, LM Studio).
//!
//! How a node is asked:
//! - Understand, Think, Act, Summarize and the compressions send the
//!   pipeline's prompt (`system` + `user_text()`; Act and Summarize add a
//!   few blocks, see `messages`) and demand structured output: a strict
//!   `json_schema` generated from the node's output type (`schema`), parsed,
//!   checked, repaired once (`structured`).
//! - Reply streams: server-sent events decoded in `sse`, each delta sent to
//!   the reply sink as it arrives (`stream`).
//! - Each node uses its own model and temperature (`[llm.models]`,
//!   `[llm.temperature]`; Act by step type). Usage comes from the server when
//!   it reports it, else from the tokenizer, priced from `[llm.prices]`.
//! - Requests go out through `http` (reqwest, one retry policy: 429 and 5xx
//!   with backoff, jitter and a capped `Retry-After`); failures become
//!   sentences in `errors`. Dropping a future closes its connection, so an
//!   aborted turn aborts its request.
//!
//! The API key is handed in by the caller and lives only in the HTTP
//! client's `Authorization` header and in the scrubber that takes it out of
//! what servers say back; it is never stored elsewhere or logged. A server
//! that says it back, in an error or in an answer, has it replaced by
//! `[API key removed]` where its text enters the brain (`scrub`).
//! This module must not touch the store, the session or the registry.

mod call;
mod client;
mod errors;
mod http;
mod judge;
mod messages;
mod probe;
mod record;
mod retry;
mod schema;
mod scrub;
mod server;
mod setup;
mod sse;
mod stream;
mod structured;
mod usage;
mod validate;
mod wire;

use crate::config::LlmNode;
use crate::pipeline::{
    ActAction, ActRequest, Brain, BrainFuture, CompressRequest, Decided, ReplyOutput, ReplyRequest,
    ReplySink, StepType, SummarizeOutput, SummarizeRequest, ThinkOutput, ThinkRequest,
    UnderstandOutput, UnderstandRequest,
};

pub use judge::{MissingCommitment, RecallVerdict};
pub use probe::{EndpointCheck, check_endpoint};
pub use schema::StrictSchema;
pub use server::{SEED_LARGEST_PROMPT, ServerInfo, ServerKind, short_tokens};
pub use setup::{LlmSetupError, install_crypto_provider};
pub use wire::CompressOutput;

pub use client::LlmBrain;
use client::configured_models;
use structured::Ask;

/// The Act node of a step type.
fn act_node(step_type: StepType) -> LlmNode {
    match step_type {
        StepType::Read => LlmNode::ActRead,
        StepType::Write => LlmNode::ActWrite,
        StepType::Analyze => LlmNode::ActAnalyze,
        StepType::Generate => LlmNode::ActGenerate,
    }
}

impl Brain for LlmBrain {
    /// "gpt-4.1-mini @ localhost:11434"; several models are listed in node order.
    fn name(&self) -> String {
        let mut name = format!(
            "{} @ {}",
            configured_models(&self.config).join(", "),
            self.endpoint.host
        );
        if let Some(info) = self.server.get()
            && info.kind != ServerKind::Other
        {
            name.push_str(&format!(" ({})", info.label()));
        }
        name
    }

    fn prepare(&self) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            self.server().await;
        })
    }

    fn waits(&self) -> bool {
        true
    }

    fn context_window(&self) -> Option<u32> {
        let published = self.server.get().and_then(|s| s.context);
        Some(published.unwrap_or(self.config.context_window))
    }

    fn understand<'a>(
        &'a self,
        req: &'a UnderstandRequest<'a>,
    ) -> BrainFuture<'a, UnderstandOutput> {
        Box::pin(self.decide(Ask::prompt(
            LlmNode::Understand,
            &self.schemas.understand,
            req.prompt,
            req.calls,
        )))
    }

    fn think<'a>(&'a self, req: &'a ThinkRequest<'a>) -> BrainFuture<'a, ThinkOutput> {
        Box::pin(self.decide(Ask::prompt(
            LlmNode::Think,
            &self.schemas.think,
            req.prompt,
            req.calls,
        )))
    }

    fn act<'a>(&'a self, req: &'a ActRequest<'a>) -> BrainFuture<'a, ActAction> {
        Box::pin(self.decide(Ask {
            node: act_node(req.step.step_type),
            schema: &self.schemas.act,
            system: &req.prompt.system,
            user: messages::act_user_text(req),
            calls: req.calls,
        }))
    }

    fn reply<'a>(
        &'a self,
        req: &'a ReplyRequest<'a>,
        sink: &'a ReplySink,
    ) -> BrainFuture<'a, ReplyOutput> {
        Box::pin(self.stream_reply(req.prompt, sink, req.calls))
    }

    fn summarize<'a>(&'a self, req: &'a SummarizeRequest<'a>) -> BrainFuture<'a, SummarizeOutput> {
        Box::pin(self.decide(Ask {
            node: LlmNode::Summarize,
            schema: &self.schemas.summarize,
            system: &req.prompt.system,
            user: messages::summarize_user_text(req),
            calls: req.calls,
        }))
    }

    fn compress<'a>(&'a self, req: &'a CompressRequest<'a>) -> BrainFuture<'a, Option<String>> {
        Box::pin(async move {
            let out: Decided<CompressOutput> = self
                .decide(Ask::prompt(
                    LlmNode::Summarize,
                    &self.schemas.compress,
                    req.prompt,
                    req.calls,
                ))
                .await?;
            let summary = out.value.summary.trim().to_string();
            Ok(Decided {
                value: (!summary.is_empty()).then_some(summary),
                usage: out.usage,
            })
        })
    }
}
