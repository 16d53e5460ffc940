//! The LLM brain's own state: the endpoint it calls, its config (never the
//! key), the strict schemas of its structured nodes, and what it learned of
//! the server. The nodes' calls are `impl LlmBrain` blocks in `call`,
//! `structured`, `record` and `judge`; the `Brain` trait is in `mod.rs`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::errors;
use super::schema::StrictSchema;
use super::server::{self, ServerInfo};
use super::setup::{Endpoint, LlmSetupError};
use super::wire::CompressOutput;
use crate::config::{LlmConfig, LlmNode};
use crate::pipeline::{ActAction, SUBDOMAINS, SummarizeOutput, ThinkOutput, UnderstandOutput};

/// The strict schema of each structured node, built once.
#[derive(Debug)]
pub(super) struct Schemas {
    pub(super) understand: StrictSchema,
    pub(super) think: StrictSchema,
    pub(super) act: StrictSchema,
    pub(super) summarize: StrictSchema,
    pub(super) compress: StrictSchema,
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
    pub(super) endpoint: Endpoint,
    /// Models, temperatures, prices, the key's variable name (never the key).
    pub(super) config: LlmConfig,
    pub(super) schemas: Schemas,
    /// Set for good once the server refused `json_schema`.
    pub(super) json_object_only: AtomicBool,
    /// Set for good once the server refused to stream a structured answer.
    pub(super) unstreamed_only: AtomicBool,
    /// What the server is and holds, learned once (`server`).
    pub(super) server: tokio::sync::OnceCell<ServerInfo>,
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
    pub(super) fn context<'a>(&'a self, model: &'a str) -> errors::Context<'a> {
        errors::Context {
            server: &self.endpoint.shown,
            model,
            key_var: &self.config.api_key_env,
            timeout: self.endpoint.timeout,
        }
    }
}

/// The config's models, each once, in node order.
pub(super) fn configured_models(config: &LlmConfig) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for node in LlmNode::ALL {
        let m = config.model_for(node);
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}
