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

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::config::{LlmConfig, LlmNode};
use crate::pipeline::{
    ActAction, ActRequest, Brain, BrainFuture, CompressRequest, Decided, ReplyOutput, ReplyRequest,
    ReplySink, SUBDOMAINS, StepType, SummarizeOutput, SummarizeRequest, ThinkOutput, ThinkRequest,
    UnderstandOutput, UnderstandRequest,
};

pub use judge::{MissingCommitment, RecallVerdict};
pub use probe::{EndpointCheck, check_endpoint};
pub use schema::StrictSchema;
pub use server::{SEED_LARGEST_PROMPT, ServerInfo, ServerKind, short_tokens};
pub use setup::{LlmSetupError, install_crypto_provider};
pub use wire::CompressOutput;

use setup::Endpoint;
use structured::Ask;

/// The strict schema of each structured node, built once.
#[derive(Debug)]
struct Schemas {
    understand: StrictSchema,
    think: StrictSchema,
    act: StrictSchema,
    summarize: StrictSchema,
    compress: StrictSchema,
}

impl Schemas {
    fn new() -> Self {
        let mut think = StrictSchema::of::<ThinkOutput>("think_output");
        // The type says "a string"; the server can enforce the real list.
        think.schema["properties"]["steps"]["items"]["properties"]["subdomain"] = serde_json::json!({
            "type": "string",
            "enum": SUBDOMAINS,
            "description": "The part of the kitchen the step works in.",
        });
        Self {
            understand: StrictSchema::of::<UnderstandOutput>("understand_output"),
            think,
            act: StrictSchema::of::<ActAction>("act_action"),
            summarize: StrictSchema::of::<SummarizeOutput>("summarize_output"),
            compress: StrictSchema::of::<CompressOutput>("compress_output"),
        }
    }
}

/// The brain behind `--llm openai`: one per session.
#[derive(Debug)]
pub struct LlmBrain {
    endpoint: Endpoint,
    /// Models, temperatures, prices, the key's variable name (never the key).
    config: LlmConfig,
    schemas: Schemas,
    /// Set for good once the server refused `json_schema`.
    json_object_only: AtomicBool,
    /// Set for good once the server refused to stream a structured answer.
    unstreamed_only: AtomicBool,
    /// What the server is and holds, learned once (`server`).
    server: tokio::sync::OnceCell<ServerInfo>,
}

impl LlmBrain {
    /// A brain for `config`, sending `api_key` (already read from the
    /// variable `config.api_key_env` names) as a bearer token; `None` or an
    /// empty key sends no `Authorization` header.
    pub fn new(config: &LlmConfig, api_key: Option<String>) -> Result<LlmBrain, LlmSetupError> {
        let endpoint = Endpoint::new(config, api_key.as_deref())?;
        Ok(LlmBrain {
            endpoint,
            config: config.clone(),
            schemas: Schemas::new(),
            json_object_only: AtomicBool::new(false),
            unstreamed_only: AtomicBool::new(false),
            server: tokio::sync::OnceCell::new(),
        })
    }

    /// The same brain with a different first backoff delay (doubled on each
    /// retry); tests and benches use a short one.
    pub fn with_backoff(mut self, base_delay: Duration) -> Self {
        self.endpoint.retry.base_delay = base_delay;
        self
    }

    /// What kind of server answers and the context it publishes, asked
    /// once (a few GETs with short deadlines) and remembered.
    pub async fn server(&self) -> &ServerInfo {
        self.server
            .get_or_init(|| server::learn(&self.endpoint, self.config.model_for(LlmNode::Reply)))
            .await
    }

    /// True once the server has refused `json_schema` and the brain asks for
    /// `json_object` instead.
    pub fn uses_json_object(&self) -> bool {
        self.json_object_only.load(Ordering::Relaxed)
    }

    /// The context of an error sentence about a request to `model`.
    fn context<'a>(&'a self, model: &'a str) -> errors::Context<'a> {
        errors::Context {
            server: &self.endpoint.shown,
            model,
            key_var: &self.config.api_key_env,
            timeout: self.endpoint.timeout,
        }
    }
}

/// The config's models, each once, in node order.
fn configured_models(config: &LlmConfig) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for node in LlmNode::ALL {
        let m = config.model_for(node);
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

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
