//! The shape of `config.toml`: every section as a type with its defaults,
//! the checks on values that the file and the overrides share, and the
//! redacted summary shown by `doctor` and the log. Pure; the layers that
//! fill it are `load` and `overrides`.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize};

use super::keys::KeysConfig;
use crate::context::ContextPolicy;
use crate::store_url::{is_postgres_url, shown_url};

/// The whole of `config.toml`. Every key has a default; a partial file is fine.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// `[llm]`: the backend, its endpoint, models, temperatures and prices.
    pub llm: LlmConfig,
    /// `[context]`: the knobs of the three context layers.
    pub context: ContextPolicy,
    /// `[pipeline]`: limits of one turn.
    pub pipeline: PipelineConfig,
    /// `[ui]`: the terminal UI.
    pub ui: UiConfig,
    /// `[kitchen]`: the kitchen store.
    pub kitchen: KitchenConfig,
    /// `[store]`: where the kitchen is (a Postgres database instead of
    /// `kitchen.db`).
    pub store: StoreConfig,
    /// `[keys]`: key bindings of the terminal UI (action → keys).
    pub keys: KeysConfig,
    /// `[telemetry]`: turns sent as OpenTelemetry traces (off by default).
    pub telemetry: TelemetryConfig,
}

/// `[telemetry]`: each turn sent as an OpenTelemetry trace over OTLP/HTTP.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetryConfig {
    /// The collector's base URL (`http://localhost:6006` for Phoenix,
    /// `http://localhost:4318` for Jaeger); unset sends nothing.
    pub otlp_endpoint: Option<String>,
    /// Send the messages, prompts, reply, entity labels and the user's
    /// clauses too (default false: counts, timings, refs and models only).
    pub capture_content: bool,
}

impl TelemetryConfig {
    /// The endpoint, when telemetry is on.
    pub fn endpoint(&self) -> Option<&str> {
        self.otlp_endpoint
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
    }
}

/// Which brain answers: the OpenAI-compatible backend or the offline rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// OpenAI when the API key variable is set, else offline.
    #[default]
    Auto,
    /// Deterministic rules, no network.
    Offline,
    /// An OpenAI-compatible HTTP API.
    #[serde(rename = "openai")]
    OpenAi,
}

impl Backend {
    /// The spellings accepted in config, `ALFRED_LLM` and `--llm`.
    pub const NAMES: [&'static str; 3] = ["auto", "offline", "openai"];

    /// The config spelling of this backend.
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Offline => "offline",
            Backend::OpenAi => "openai",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Backend {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Backend::Auto),
            "offline" => Ok(Backend::Offline),
            "openai" => Ok(Backend::OpenAi),
            _ => Err(format!("expected one of: {}", Backend::NAMES.join(", "))),
        }
    }
}

/// `[llm]`: how alfred talks to a language model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LlmConfig {
    /// `auto`, `offline` or `openai`.
    pub backend: Backend,
    /// Root of the OpenAI-compatible API.
    pub base_url: String,
    /// The NAME of the environment variable holding the API key.
    pub api_key_env: String,
    /// When set, this model serves every node (overrides `[llm.models]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The longest silence of a server: before its first byte, or between
    /// two parts of a streamed answer.
    pub timeout_secs: u64,
    /// The longest one call may take from sending to its last byte.
    pub call_timeout_secs: u64,
    /// Retries of a failed request (429, 5xx, refused connections; a timeout is not retried).
    pub max_retries: u32,
    /// Tokens the model accepts in one prompt.
    pub context_window: u32,
    /// `[llm.models]`: the model of each node.
    pub models: PerNode<String>,
    /// `[llm.temperature]`: the sampling temperature of each node.
    pub temperature: PerNode<f32>,
    /// `[llm.max_tokens]`: the most tokens each node's answer may have.
    pub max_tokens: PerNode<u32>,
    /// `[llm.prices]`: USD per million tokens, by model; merged over the defaults.
    #[serde(deserialize_with = "merge_prices")]
    pub prices: BTreeMap<String, ModelPrice>,
}

impl Default for LlmConfig {
    fn default() -> Self {
        Self {
            backend: Backend::Auto,
            base_url: "https://api.openai.com/v1".into(),
            api_key_env: "OPENAI_API_KEY".into(),
            model: None,
            timeout_secs: 60,
            call_timeout_secs: 300,
            max_retries: 3,
            context_window: 128_000,
            models: PerNode::default(),
            temperature: PerNode::default(),
            max_tokens: PerNode::default(),
            prices: default_prices(),
        }
    }
}

impl LlmConfig {
    /// The model a node uses: `llm.model` when set, else its `[llm.models]` entry.
    pub fn model_for(&self, node: LlmNode) -> &str {
        self.model.as_deref().unwrap_or(self.models.get(node))
    }

    /// The sampling temperature of a node.
    pub fn temperature_for(&self, node: LlmNode) -> f32 {
        *self.temperature.get(node)
    }

    /// The output budget of a node (`max_tokens` of its requests).
    pub fn max_tokens_for(&self, node: LlmNode) -> u32 {
        *self.max_tokens.get(node)
    }

    /// The price of a model, if known.
    pub fn price_for(&self, model: &str) -> Option<&ModelPrice> {
        self.prices.get(model)
    }
}

/// The pipeline calls that ask an LLM; Act is split by step type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LlmNode {
    /// Understand: references and curation.
    Understand,
    /// Think: the plan.
    Think,
    /// Act on a read step.
    ActRead,
    /// Act on a write step.
    ActWrite,
    /// Act on an analyze step.
    ActAnalyze,
    /// Act on a generate step.
    ActGenerate,
    /// Reply: the streamed answer.
    Reply,
    /// Summarize: compression of older turns.
    Summarize,
}

impl LlmNode {
    /// Every node, in config order.
    pub const ALL: [LlmNode; 8] = [
        LlmNode::Understand,
        LlmNode::Think,
        LlmNode::ActRead,
        LlmNode::ActWrite,
        LlmNode::ActAnalyze,
        LlmNode::ActGenerate,
        LlmNode::Reply,
        LlmNode::Summarize,
    ];

    /// The key of this node in `[llm.models]`, `[llm.temperature]` and
    /// `[llm.max_tokens]`.
    pub fn key(self) -> &'static str {
        match self {
            LlmNode::Understand => "understand",
            LlmNode::Think => "think",
            LlmNode::ActRead => "act_read",
            LlmNode::ActWrite => "act_write",
            LlmNode::ActAnalyze => "act_analyze",
            LlmNode::ActGenerate => "act_generate",
            LlmNode::Reply => "reply",
            LlmNode::Summarize => "summarize",
        }
    }
}

/// One value per LLM node: `[llm.models]` and `[llm.temperature]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[serde(bound(deserialize = "T: Deserialize<'de>, PerNode<T>: Default"))]
pub struct PerNode<T> {
    /// Understand.
    pub understand: T,
    /// Think.
    pub think: T,
    /// Act, read steps.
    pub act_read: T,
    /// Act, write steps.
    pub act_write: T,
    /// Act, analyze steps.
    pub act_analyze: T,
    /// Act, generate steps.
    pub act_generate: T,
    /// Reply.
    pub reply: T,
    /// Summarize.
    pub summarize: T,
}

impl<T> PerNode<T> {
    /// The value of one node.
    pub fn get(&self, node: LlmNode) -> &T {
        match node {
            LlmNode::Understand => &self.understand,
            LlmNode::Think => &self.think,
            LlmNode::ActRead => &self.act_read,
            LlmNode::ActWrite => &self.act_write,
            LlmNode::ActAnalyze => &self.act_analyze,
            LlmNode::ActGenerate => &self.act_generate,
            LlmNode::Reply => &self.reply,
            LlmNode::Summarize => &self.summarize,
        }
    }
}

impl Default for PerNode<String> {
    fn default() -> Self {
        let (big, mini) = ("gpt-4.1".to_string(), "gpt-4.1-mini".to_string());
        Self {
            understand: big.clone(),
            think: big.clone(),
            act_read: mini.clone(),
            act_write: mini.clone(),
            act_analyze: big.clone(),
            act_generate: big,
            reply: mini.clone(),
            summarize: mini,
        }
    }
}

impl Default for PerNode<f32> {
    fn default() -> Self {
        Self {
            understand: 0.2,
            think: 0.35,
            act_read: 0.25,
            act_write: 0.25,
            act_analyze: 0.25,
            act_generate: 0.7,
            reply: 0.6,
            summarize: 0.3,
        }
    }
}

/// What each node writes, with room to spare: the offline brain's longest
/// answers over the seed conversation (as JSON, in tokens) are Understand
/// 225, Think 124, Act 323 (a generated recipe), Reply 134, Summarize 90;
/// a model writes more freely, and a generated meal plan is longer.
impl Default for PerNode<u32> {
    fn default() -> Self {
        Self {
            understand: 1024,
            think: 1024,
            act_read: 512,
            act_write: 1024,
            act_analyze: 2048,
            act_generate: 2048,
            reply: 1024,
            summarize: 512,
        }
    }
}

/// The price of one model in USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelPrice {
    /// USD per million prompt tokens.
    pub input_per_mtok: f64,
    /// USD per million completion tokens.
    pub output_per_mtok: f64,
}

/// The built-in prices; a user's `[llm.prices]` entries are merged over them.
pub fn default_prices() -> BTreeMap<String, ModelPrice> {
    BTreeMap::from([
        (
            "gpt-4.1".into(),
            ModelPrice {
                input_per_mtok: 2.0,
                output_per_mtok: 8.0,
            },
        ),
        (
            "gpt-4.1-mini".into(),
            ModelPrice {
                input_per_mtok: 0.4,
                output_per_mtok: 1.6,
            },
        ),
    ])
}

/// Merges the user's `[llm.prices]` over the defaults instead of replacing them:
/// serde's field default applies only when the whole table is absent.
fn merge_prices<'de, D>(deserializer: D) -> Result<BTreeMap<String, ModelPrice>, D::Error>
where
    D: Deserializer<'de>,
{
    let user = BTreeMap::<String, ModelPrice>::deserialize(deserializer)?;
    let mut prices = default_prices();
    prices.extend(user);
    Ok(prices)
}

/// `[pipeline]`: limits of one turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PipelineConfig {
    /// Most steps Think may plan.
    pub max_steps: u32,
    /// Most tool calls Act may make in one step (a circuit breaker).
    pub max_tool_calls_per_step: u32,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        Self {
            max_steps: 8,
            max_tool_calls_per_step: 3,
        }
    }
}

/// Colour scheme of the terminal UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Light text on a dark terminal.
    #[default]
    Dark,
    /// Dark text on a light terminal.
    Light,
}

/// `[ui]`: the terminal UI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UiConfig {
    /// `dark` or `light`.
    pub theme: Theme,
    /// Capture the mouse (scroll and click panels).
    pub mouse: bool,
}

impl Default for UiConfig {
    fn default() -> Self {
        Self {
            theme: Theme::Dark,
            mouse: true,
        }
    }
}

/// `[kitchen]`: the kitchen store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KitchenConfig {
    /// Fill an empty store with the sample kitchen on first run.
    pub seed_on_first_run: bool,
}

impl Default for KitchenConfig {
    fn default() -> Self {
        Self {
            seed_on_first_run: true,
        }
    }
}

/// `[store]`: the kitchen in a Postgres database with Alfred's schema
/// instead of `kitchen.db`. Unset: the SQLite kitchen in the data folder.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StoreConfig {
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
    pub url: Option<String>,
    /// The Alfred user (a uuid) whose rows are read and written.
    pub user: Option<String>,
    /// Give each connection the user's JWT claims, as the app's requests
    /// carry them, so row-level security shows a role without BYPASSRLS
    /// that user's rows (default true).
    pub role_claims: Option<bool>,
}

impl StoreConfig {
    /// Whether connections carry the user's JWT claims (default true).
    pub fn role_claims(&self) -> bool {
        self.role_claims.unwrap_or(true)
    }

    /// The Postgres URL and user, when the kitchen is in Postgres.
    pub fn postgres(&self) -> Option<(&str, &str)> {
        let url = self.url.as_deref().filter(|u| !u.trim().is_empty())?;
        Some((url, self.user.as_deref().unwrap_or("")))
    }

    /// Checks the URL and the user; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        let Some(url) = self.url.as_deref().filter(|u| !u.trim().is_empty()) else {
            if self.user.is_some() {
                return Err(
                    "store.user: set store.url too (the user is whose rows to use in \
                            that database)"
                        .into(),
                );
            }
            return Ok(());
        };
        if !is_postgres_url(url) {
            return Err(format!(
                "store.url: {} is not a postgres:// URL (leave it out to use kitchen.db)",
                shown_url(url)
            ));
        }
        match self.user.as_deref() {
            None => Err(
                "store.user: the Alfred user (a uuid) whose rows to use is needed \
                         with store.url"
                    .into(),
            ),
            Some(u) if uuid::Uuid::parse_str(u.trim()).is_err() => {
                Err(format!("store.user: \"{u}\" is not a uuid"))
            }
            Some(_) => Ok(()),
        }
    }
}

impl Config {
    /// A few lines describing the config for `doctor` and the log; never shows a secret.
    pub fn redacted_summary(&self) -> String {
        let llm = &self.llm;
        let models = match &llm.model {
            Some(model) => format!("{model} for every node"),
            None => LlmNode::ALL
                .iter()
                .map(|n| format!("{}={}", n.key(), llm.models.get(*n)))
                .collect::<Vec<_>>()
                .join(" "),
        };
        let c = &self.context;
        format!(
            "llm: backend={} base_url={} api_key_env={} (key not shown) timeout_secs={} \
             max_retries={} context_window={}\n\
             llm.models: {models}\n\
             context: policy={} turn_retention_window={} full_detail_turns={} \
             narrative_turns={} understand_window={} compress_older_turns={}\n\
             pipeline: max_steps={} max_tool_calls_per_step={}\n\
             ui: theme={} mouse={}\n\
             kitchen: seed_on_first_run={}\n\
             store: {}\n\
             telemetry: {}",
            llm.backend,
            redact_url(&llm.base_url),
            llm.api_key_env,
            llm.timeout_secs,
            llm.max_retries,
            llm.context_window,
            format!("{:?}", c.policy).to_lowercase(),
            c.turn_retention_window,
            c.full_detail_turns,
            c.narrative_turns,
            c.understand_window,
            c.compress_older_turns,
            self.pipeline.max_steps,
            self.pipeline.max_tool_calls_per_step,
            format!("{:?}", self.ui.theme).to_lowercase(),
            self.ui.mouse,
            self.kitchen.seed_on_first_run,
            match self.store.postgres() {
                Some((url, user)) => format!("{} user={user} (password not shown)", shown_url(url)),
                None => "kitchen.db in the data folder".to_string(),
            },
            match self.telemetry.endpoint() {
                Some(url) => format!(
                    "traces to {} ({})",
                    redact_url(url),
                    if self.telemetry.capture_content {
                        "with the content"
                    } else {
                        "no content"
                    }
                ),
                None => "off".to_string(),
            },
        )
    }
}

/// The base URL must be HTTP(S).
pub(super) fn check_base_url(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() => Ok(()),
        _ => Err("must start with http:// or https:// and name a host".into()),
    }
}

/// `api_key_env` must look like an environment variable name.
pub(super) fn check_env_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.contains(['=', '\0']) || name.chars().any(char::is_whitespace) {
        return Err(format!("{name:?} is not an environment variable name"));
    }
    Ok(())
}

/// Hides user:password and query strings a base URL might carry.
pub(super) fn redact_url(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let (authority, path) = rest.find('/').map_or((rest, ""), |i| rest.split_at(i));
    let host = authority
        .rsplit_once('@')
        .map_or(authority.to_string(), |(_, h)| format!("***@{h}"));
    let path = path
        .split_once('?')
        .map_or(path.to_string(), |(p, _)| format!("{p}?***"));
    if scheme.is_empty() {
        format!("{host}{path}")
    } else {
        format!("{scheme}://{host}{path}")
    }
}
