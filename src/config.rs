//! The typed configuration: built-in defaults < config.toml < environment < flags.
//!
//! This module owns the shape of `config.toml`, its defaults, the friendly
//! messages for a bad file (naming the file, the key and the line), and the
//! `ALFRED_*` environment and command-line overrides. It must not decide where
//! the file lives (that is `paths`), must not touch the process environment
//! directly (lookups come in as closures, so tests stay pure), and must never
//! hold an API key: only the *name* of the variable that holds it.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize};

use crate::context::ContextPolicy;
use crate::paths::Paths;

/// Environment variable overriding `llm.backend`.
pub const ENV_BACKEND: &str = "ALFRED_LLM";
/// Environment variable overriding `llm.model`.
pub const ENV_MODEL: &str = "ALFRED_MODEL";
/// Environment variable overriding `llm.base_url`.
pub const ENV_BASE_URL: &str = "ALFRED_BASE_URL";
/// Environment variable overriding `llm.api_key_env`.
pub const ENV_API_KEY_ENV: &str = "ALFRED_API_KEY_ENV";
/// Environment variable overriding `llm.timeout_secs`.
pub const ENV_TIMEOUT_SECS: &str = "ALFRED_TIMEOUT_SECS";

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
    /// Seconds before one request is abandoned.
    pub timeout_secs: u64,
    /// Retries of a failed request (429, 5xx, timeouts).
    pub max_retries: u32,
    /// Tokens the model accepts in one prompt.
    pub context_window: u32,
    /// `[llm.models]`: the model of each node.
    pub models: PerNode<String>,
    /// `[llm.temperature]`: the sampling temperature of each node.
    pub temperature: PerNode<f32>,
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
            max_retries: 3,
            context_window: 128_000,
            models: PerNode::default(),
            temperature: PerNode::default(),
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

    /// The key of this node in `[llm.models]` and `[llm.temperature]`.
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

/// Values given on the command line (`--llm`, `--model`, `--base-url`): the last layer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `--llm`.
    pub backend: Option<Backend>,
    /// `--model`.
    pub model: Option<String>,
    /// `--base-url`.
    pub base_url: Option<String>,
}

/// Why the configuration could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `--config FILE` named a file that does not exist.
    #[error(
        "config file {} does not exist (named by --config); create it \
         (config.example.toml lists every key) or leave out --config",
        path.display()
    )]
    Missing {
        /// The file.
        path: PathBuf,
    },
    /// The file exists but could not be read.
    #[error("cannot read config file {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid TOML, has an unknown key, a bad value, or breaks a rule.
    #[error("config error in {}: {problem}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the key.
        problem: Problem,
    },
    /// An `ALFRED_*` environment variable has a value that cannot be used.
    #[error("environment variable {var}={value:?} is not valid: {reason}")]
    Env {
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
        /// What is expected instead.
        reason: String,
    },
    /// A command-line flag has a value that cannot be used.
    #[error("{flag} {value:?} is not valid: {reason}")]
    Flag {
        /// The flag, e.g. `--base-url`.
        flag: &'static str,
        /// Its value.
        value: String,
        /// What is expected instead.
        reason: String,
    },
}

/// What is wrong inside a config file; every variant names the key or line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Not valid TOML.
    Syntax {
        /// 1-based line of the error.
        line: Option<usize>,
        /// The parser's message.
        message: String,
    },
    /// A key that no section knows (often a typo).
    UnknownKey {
        /// The unknown key.
        key: String,
        /// Dotted path of its table; empty at the top level.
        section: String,
        /// 1-based line of the key.
        line: Option<usize>,
        /// The keys that table accepts.
        expected: Vec<String>,
    },
    /// A known key with a value of the wrong type or out of its set.
    BadValue {
        /// Dotted path of the key, when it could be located.
        key: Option<String>,
        /// 1-based line of the value.
        line: Option<usize>,
        /// What was found and what was expected.
        message: String,
    },
    /// A value that parses but breaks a rule; the message names the key.
    Rule(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |line: &Option<usize>| line.map(|l| format!(" (line {l})")).unwrap_or_default();
        match self {
            Problem::Syntax { line, message } => write!(f, "invalid TOML{}: {message}", at(line)),
            Problem::UnknownKey {
                key,
                section,
                line,
                expected,
            } => {
                let place = if section.is_empty() {
                    "at the top level".to_string()
                } else {
                    format!("in [{section}]")
                };
                write!(f, "unknown key `{key}` {place}{}", at(line))?;
                if !expected.is_empty() {
                    write!(f, "; expected one of: {}", expected.join(", "))?;
                }
                Ok(())
            }
            Problem::BadValue {
                key: Some(key),
                line,
                message,
            } => {
                write!(f, "key `{key}`{}: {message}", at(line))
            }
            Problem::BadValue {
                key: None,
                line,
                message,
            } => {
                write!(f, "bad value{}: {message}", at(line))
            }
            Problem::Rule(message) => f.write_str(message),
        }
    }
}

impl Config {
    /// Builds the configuration from every layer: defaults < file < env < flags.
    pub fn resolve(
        paths: &Paths,
        explicit: bool,
        env: impl Fn(&str) -> Option<String>,
        overrides: &Overrides,
    ) -> Result<Config, ConfigError> {
        let mut config = Config::load(paths, explicit)?;
        config.apply_env(env)?;
        config.apply_overrides(overrides)?;
        Ok(config)
    }

    /// Reads `paths.config_file` over the defaults.
    ///
    /// A missing file means "all defaults", unless `--config` named it
    /// (`explicit`), which is then an error.
    pub fn load(paths: &Paths, explicit: bool) -> Result<Config, ConfigError> {
        let path = &paths.config_file;
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => {
                return Ok(Config::default());
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ConfigError::Missing { path: path.clone() });
            }
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.clone(),
                    source,
                });
            }
        };
        Config::from_toml(&text).map_err(|problem| ConfigError::Invalid {
            path: path.clone(),
            problem,
        })
    }

    /// Parses config text over the defaults and checks its rules.
    pub fn from_toml(text: &str) -> Result<Config, Problem> {
        let config: Config = toml::from_str(text).map_err(|e| locate::describe(text, &e))?;
        config.validate().map_err(Problem::Rule)?;
        Ok(config)
    }

    /// Checks the values make sense; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        let llm = &self.llm;
        check_base_url(&llm.base_url).map_err(|r| format!("llm.base_url: {r}"))?;
        check_env_name(&llm.api_key_env).map_err(|r| format!("llm.api_key_env: {r}"))?;
        if llm.model.as_deref().is_some_and(|m| m.trim().is_empty()) {
            return Err("llm.model: must not be empty; remove the key to use [llm.models]".into());
        }
        if llm.timeout_secs == 0 {
            return Err("llm.timeout_secs: must be greater than 0".into());
        }
        if llm.context_window == 0 {
            return Err("llm.context_window: must be greater than 0".into());
        }
        for node in LlmNode::ALL {
            if llm.models.get(node).trim().is_empty() {
                return Err(format!("llm.models.{}: must not be empty", node.key()));
            }
            let t = llm.temperature_for(node);
            if !(0.0..=2.0).contains(&t) {
                return Err(format!(
                    "llm.temperature.{}: {t:?} is outside 0.0..=2.0",
                    node.key()
                ));
            }
        }
        for (model, price) in &llm.prices {
            if !(price.input_per_mtok >= 0.0 && price.output_per_mtok >= 0.0) {
                return Err(format!(
                    "llm.prices.{}: prices cannot be negative",
                    locate::key(model)
                ));
            }
        }
        if self.pipeline.max_steps == 0 {
            return Err("pipeline.max_steps: must be at least 1".into());
        }
        if self.pipeline.max_tool_calls_per_step == 0 {
            return Err("pipeline.max_tool_calls_per_step: must be at least 1".into());
        }
        self.context.validate()
    }

    /// Applies the `ALFRED_*` variables; empty values count as unset.
    pub fn apply_env(&mut self, env: impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        let get = |var: &str| {
            env(var)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let bad = |var: &'static str, value: &str, reason: String| ConfigError::Env {
            var,
            value: value.to_string(),
            reason,
        };
        if let Some(v) = get(ENV_BACKEND) {
            self.llm.backend = v.parse().map_err(|r| bad(ENV_BACKEND, &v, r))?;
        }
        if let Some(v) = get(ENV_MODEL) {
            self.llm.model = Some(v);
        }
        if let Some(v) = get(ENV_BASE_URL) {
            check_base_url(&v).map_err(|r| bad(ENV_BASE_URL, &v, r))?;
            self.llm.base_url = v;
        }
        if let Some(v) = get(ENV_API_KEY_ENV) {
            check_env_name(&v).map_err(|r| bad(ENV_API_KEY_ENV, &v, r))?;
            self.llm.api_key_env = v;
        }
        if let Some(v) = get(ENV_TIMEOUT_SECS) {
            self.llm.timeout_secs = match v.parse::<u64>() {
                Ok(secs) if secs > 0 => secs,
                _ => {
                    return Err(bad(
                        ENV_TIMEOUT_SECS,
                        &v,
                        "expected whole seconds > 0".into(),
                    ));
                }
            };
        }
        Ok(())
    }

    /// Applies `--llm`, `--model` and `--base-url`, the last layer.
    pub fn apply_overrides(&mut self, overrides: &Overrides) -> Result<(), ConfigError> {
        if let Some(backend) = overrides.backend {
            self.llm.backend = backend;
        }
        if let Some(model) = &overrides.model {
            if model.trim().is_empty() {
                return Err(ConfigError::Flag {
                    flag: "--model",
                    value: model.clone(),
                    reason: "a model name is required".into(),
                });
            }
            self.llm.model = Some(model.trim().to_string());
        }
        if let Some(url) = &overrides.base_url {
            check_base_url(url).map_err(|reason| ConfigError::Flag {
                flag: "--base-url",
                value: url.clone(),
                reason,
            })?;
            self.llm.base_url = url.clone();
        }
        Ok(())
    }

    /// The backend in effect: `auto` becomes `openai` when the key variable is set.
    ///
    /// Never returns [`Backend::Auto`].
    pub fn resolved_backend(&self, env: impl Fn(&str) -> Option<String>) -> Backend {
        match self.llm.backend {
            Backend::Auto => {
                let has_key = env(&self.llm.api_key_env).is_some_and(|k| !k.trim().is_empty());
                if has_key {
                    Backend::OpenAi
                } else {
                    Backend::Offline
                }
            }
            other => other,
        }
    }

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
             kitchen: seed_on_first_run={}",
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
        )
    }
}

/// The base URL must be HTTP(S).
fn check_base_url(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() => Ok(()),
        _ => Err("must start with http:// or https:// and name a host".into()),
    }
}

/// `api_key_env` must look like an environment variable name.
fn check_env_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.contains(['=', '\0']) || name.chars().any(char::is_whitespace) {
        return Err(format!("{name:?} is not an environment variable name"));
    }
    Ok(())
}

/// Hides user:password and query strings a base URL might carry.
fn redact_url(url: &str) -> String {
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

/// Turns a toml deserialization error into a [`Problem`] naming the key.
mod locate {
    use toml::Spanned;
    use toml::de::{DeTable, DeValue};

    use super::Problem;

    /// Describes a toml error, locating the key its span points at.
    pub(super) fn describe(text: &str, err: &toml::de::Error) -> Problem {
        let span = err.span();
        let line = span.as_ref().map(|s| line_of(text, s.start));
        let Ok(doc) = DeTable::parse(text) else {
            return Problem::Syntax {
                line,
                message: err.message().trim().to_string(),
            };
        };
        let path = span
            .and_then(|s| find(doc.get_ref(), s.start, &mut Vec::new()))
            .map(|h| h.path);
        let message = tidy(err.message());
        let quoted = backticked(&message);
        if message.starts_with("unknown field") && !quoted.is_empty() {
            let mut section = path.unwrap_or_default();
            section.pop();
            return Problem::UnknownKey {
                key: quoted[0].clone(),
                section: dotted(&section),
                line,
                expected: quoted[1..].to_vec(),
            };
        }
        let key = path.map(|p| dotted(&p));
        Problem::BadValue { key, line, message }
    }

    /// A key path found at an error's position.
    struct Hit {
        path: Vec<String>,
        /// On the key or its scalar value, not merely inside its table.
        exact: bool,
    }

    /// Finds the key path at a byte offset: a key or scalar value if one is
    /// there, else the deepest table containing it (a header missing a key).
    fn find(table: &DeTable<'_>, at: usize, path: &mut Vec<String>) -> Option<Hit> {
        let mut best = None;
        for (key, value) in table.iter() {
            path.push(key.get_ref().to_string());
            let hit = if key.span().contains(&at) {
                Some(Hit {
                    path: path.clone(),
                    exact: true,
                })
            } else {
                find_in_value(value, at, path)
            };
            path.pop();
            best = better(best, hit);
            if best.as_ref().is_some_and(|h| h.exact) {
                break;
            }
        }
        best
    }

    fn find_in_value(
        value: &Spanned<DeValue<'_>>,
        at: usize,
        path: &mut Vec<String>,
    ) -> Option<Hit> {
        let inside = value.span().contains(&at);
        match value.get_ref() {
            DeValue::Table(inner) => find(inner, at, path).or_else(|| {
                inside.then(|| Hit {
                    path: path.clone(),
                    exact: false,
                })
            }),
            DeValue::Array(items) => items
                .iter()
                .map(|item| find_in_value(item, at, path))
                .fold(None, better),
            _ => inside.then(|| Hit {
                path: path.clone(),
                exact: true,
            }),
        }
    }

    /// Prefers an exact hit, then the deeper path.
    fn better(a: Option<Hit>, b: Option<Hit>) -> Option<Hit> {
        match (a, b) {
            (Some(a), Some(b)) if (b.exact, b.path.len()) > (a.exact, a.path.len()) => Some(b),
            (a, b) => a.or(b),
        }
    }

    /// 1-based line number of a byte offset.
    fn line_of(text: &str, offset: usize) -> usize {
        let end = offset.min(text.len());
        text.as_bytes()[..end]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1
    }

    /// A key path in TOML spelling, quoting segments that are not bare keys.
    pub(super) fn dotted(path: &[String]) -> String {
        path.iter().map(|s| key(s)).collect::<Vec<_>>().join(".")
    }

    /// One key in TOML spelling.
    pub(super) fn key(s: &str) -> String {
        let bare = !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if bare {
            s.to_string()
        } else {
            format!("{s:?}")
        }
    }

    /// Every `quoted` word of a serde message, in order.
    fn backticked(message: &str) -> Vec<String> {
        message
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    /// Serde's words for struct users: fields are keys, variants are values.
    fn tidy(message: &str) -> String {
        let mut m = message
            .trim()
            .replace("unknown variant", "unknown value")
            .replace("missing field", "missing key");
        if let Some(i) = m.find("expected struct ") {
            m.truncate(i);
            m.push_str("expected a table");
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashMap};

    use super::*;
    use crate::context::PolicyKind;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    fn problem(text: &str) -> Problem {
        Config::from_toml(text).expect_err("config should be rejected")
    }

    #[test]
    fn defaults_follow_the_design() {
        let c = Config::default();
        assert_eq!(c.llm.backend, Backend::Auto);
        assert_eq!(c.llm.base_url, "https://api.openai.com/v1");
        assert_eq!(c.llm.api_key_env, "OPENAI_API_KEY");
        assert_eq!((c.llm.timeout_secs, c.llm.max_retries), (60, 3));
        assert_eq!(c.llm.context_window, 128_000);
        assert_eq!(c.llm.model_for(LlmNode::Think), "gpt-4.1");
        assert_eq!(c.llm.model_for(LlmNode::Reply), "gpt-4.1-mini");
        assert_eq!(c.llm.temperature_for(LlmNode::ActGenerate), 0.7);
        assert_eq!(
            c.llm.price_for("gpt-4.1").map(|p| p.output_per_mtok),
            Some(8.0)
        );
        assert_eq!(
            (c.pipeline.max_steps, c.pipeline.max_tool_calls_per_step),
            (8, 3)
        );
        assert_eq!((c.ui.theme, c.ui.mouse), (Theme::Dark, true));
        assert!(c.kitchen.seed_on_first_run);
        assert_eq!(c.context, ContextPolicy::default());
        c.validate().unwrap();
        assert_eq!(Config::from_toml("").unwrap(), c);
    }

    #[test]
    fn partial_file_merges_over_defaults() {
        let c = Config::from_toml(
            "[llm]\ntimeout_secs = 5\n[llm.models]\nreply = \"tiny\"\n\
             [context]\nturn_retention_window = 4\n[ui]\ntheme = \"light\"\n",
        )
        .unwrap();
        assert_eq!(c.llm.timeout_secs, 5);
        assert_eq!(c.llm.max_retries, 3, "untouched key keeps its default");
        assert_eq!(c.llm.models.reply, "tiny");
        assert_eq!(
            c.llm.models.think, "gpt-4.1",
            "sibling of a set key keeps its default"
        );
        assert_eq!(c.context.turn_retention_window, 4);
        assert_eq!(c.context.full_detail_turns, 3);
        assert_eq!(c.ui.theme, Theme::Light);
        assert!(c.ui.mouse);
    }

    #[test]
    fn prices_merge_with_the_defaults() {
        let c = Config::from_toml(
            "[llm.prices.\"gpt-4.1\"]\ninput_per_mtok = 1.0\noutput_per_mtok = 4.0\n\
             [llm.prices.local]\ninput_per_mtok = 0.0\noutput_per_mtok = 0.0\n",
        )
        .unwrap();
        let p = &c.llm.prices;
        assert_eq!(p.len(), 3, "{p:?}");
        assert_eq!(
            p["gpt-4.1"],
            ModelPrice {
                input_per_mtok: 1.0,
                output_per_mtok: 4.0
            }
        );
        assert_eq!(
            p["gpt-4.1-mini"],
            default_prices()["gpt-4.1-mini"],
            "default kept"
        );
        assert_eq!(p["local"].input_per_mtok, 0.0);
    }

    #[test]
    fn a_price_needs_both_fields() {
        let p = problem("[llm.prices.\"my.model\"]\ninput_per_mtok = 1.0\n");
        assert_eq!(
            p.to_string(),
            "key `llm.prices.\"my.model\"` (line 1): missing key `output_per_mtok`"
        );
    }

    #[test]
    fn unknown_key_names_key_section_line_and_choices() {
        let p = problem("[llm]\nbackend = \"auto\"\n\n[context]\nturn_retention_windw = 3\n");
        let Problem::UnknownKey {
            key,
            section,
            line,
            expected,
        } = &p
        else {
            panic!("{p:?}")
        };
        assert_eq!(
            (key.as_str(), section.as_str(), *line),
            ("turn_retention_windw", "context", Some(5))
        );
        assert!(
            expected.contains(&"turn_retention_window".to_string()),
            "{expected:?}"
        );
        let msg = p.to_string();
        assert!(
            msg.starts_with(
                "unknown key `turn_retention_windw` in [context] (line 5); \
                 expected one of: policy, turn_retention_window, "
            ),
            "{msg}"
        );
    }

    #[test]
    fn unknown_keys_in_nested_and_top_level_tables() {
        let p = problem("[context.tiered]\nhot = 1\n");
        assert!(
            p.to_string()
                .starts_with("unknown key `hot` in [context.tiered] (line 2)"),
            "{p}"
        );
        let p = problem("llm.models.replly = \"x\"\n");
        assert!(
            p.to_string()
                .starts_with("unknown key `replly` in [llm.models] (line 1)"),
            "{p}"
        );
        let p = problem("[contxt]\n");
        assert_eq!(
            p.to_string(),
            "unknown key `contxt` at the top level (line 1); \
             expected one of: llm, context, pipeline, ui, kitchen"
        );
    }

    #[test]
    fn wrong_type_names_the_dotted_key() {
        for text in [
            "[context]\nturn_retention_window = \"two\"\n",
            "context.turn_retention_window = \"two\"\n",
            "context = { turn_retention_window = \"two\" }\n",
        ] {
            let msg = problem(text).to_string();
            assert!(
                msg.starts_with("key `context.turn_retention_window` (line"),
                "{text:?} gave {msg}"
            );
            assert!(
                msg.ends_with("invalid type: string \"two\", expected u32"),
                "{msg}"
            );
        }
    }

    #[test]
    fn bad_enum_value_lists_the_choices() {
        let msg = problem("[llm]\nbackend = \"gpt\"\n").to_string();
        assert_eq!(
            msg,
            "key `llm.backend` (line 2): unknown value `gpt`, expected one of `auto`, `offline`, `openai`"
        );
        let msg = problem("[llm.temperature]\nreply = \"hot\"\n").to_string();
        assert!(
            msg.starts_with("key `llm.temperature.reply` (line 2)"),
            "{msg}"
        );
        let msg = problem("llm = 3\n").to_string();
        assert!(
            msg.starts_with("key `llm` (line 1)") && msg.ends_with("a table"),
            "{msg}"
        );
    }

    #[test]
    fn syntax_error_names_the_line() {
        let p = problem("[llm]\n\nbackend = \n");
        assert!(matches!(p, Problem::Syntax { line: Some(3), .. }), "{p:?}");
        assert!(p.to_string().starts_with("invalid TOML (line 3): "), "{p}");
    }

    #[test]
    fn rules_name_the_key() {
        for (text, key) in [
            ("[llm]\ntimeout_secs = 0\n", "llm.timeout_secs"),
            ("[llm]\nbase_url = \"ftp://x\"\n", "llm.base_url"),
            ("[llm]\napi_key_env = \"\"\n", "llm.api_key_env"),
            ("[llm]\nmodel = \" \"\n", "llm.model"),
            ("[llm.temperature]\nthink = 2.5\n", "llm.temperature.think"),
            ("[llm.temperature]\nreply = -0.1\n", "llm.temperature.reply"),
            ("[pipeline]\nmax_steps = 0\n", "pipeline.max_steps"),
            (
                "[context]\ndecision_log_shown = 99\n",
                "context.decision_log_shown",
            ),
        ] {
            let p = problem(text);
            assert!(
                matches!(&p, Problem::Rule(m) if m.contains(key)),
                "{text:?} gave {p:?}"
            );
        }
        let ok = "[llm.temperature]\nthink = 0.0\nreply = 2.0\n[llm]\nbase_url = \"http://localhost:8080/v1\"\n";
        Config::from_toml(ok).unwrap();
    }

    #[test]
    fn load_treats_a_missing_file_as_defaults_unless_named() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = Paths::under(tmp.path());
        assert_eq!(Config::load(&paths, false).unwrap(), Config::default());
        let err = Config::load(&paths, true).unwrap_err();
        assert!(matches!(err, ConfigError::Missing { .. }), "{err:?}");
        let msg = err.to_string();
        assert!(
            msg.contains(&paths.config_file.display().to_string()),
            "{msg}"
        );
        assert!(msg.contains("--config"), "{msg}");
    }

    #[test]
    fn load_errors_name_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = Paths::under(tmp.path());
        std::fs::write(&paths.config_file, "[ui]\nmouse = \"yes\"\n").unwrap();
        let msg = Config::load(&paths, false).unwrap_err().to_string();
        let file = paths.config_file.display().to_string();
        assert_eq!(
            msg,
            format!(
                "config error in {file}: key `ui.mouse` (line 2): invalid type: string \"yes\", expected a boolean"
            )
        );
        std::fs::remove_file(&paths.config_file).unwrap();
        std::fs::create_dir(&paths.config_file).unwrap();
        let err = Config::load(&paths, false).unwrap_err();
        assert!(matches!(err, ConfigError::Read { .. }), "{err:?}");
        assert!(err.to_string().contains(&file));
    }

    #[test]
    fn env_overrides_apply_and_bad_values_name_the_variable() {
        let mut c = Config::default();
        c.apply_env(env_of(&[
            (ENV_BACKEND, "OpenAI"),
            (ENV_MODEL, "m1"),
            (ENV_BASE_URL, "http://localhost:1234/v1"),
            (ENV_API_KEY_ENV, "MY_KEY"),
            (ENV_TIMEOUT_SECS, "9"),
        ]))
        .unwrap();
        assert_eq!(c.llm.backend, Backend::OpenAi);
        assert_eq!(c.llm.model_for(LlmNode::Summarize), "m1");
        assert_eq!(c.llm.base_url, "http://localhost:1234/v1");
        assert_eq!(
            (c.llm.api_key_env.as_str(), c.llm.timeout_secs),
            ("MY_KEY", 9)
        );

        let mut c = Config::default();
        c.apply_env(env_of(&[(ENV_MODEL, ""), (ENV_BACKEND, "  ")]))
            .unwrap();
        assert_eq!(c, Config::default(), "empty values count as unset");

        for (var, value) in [
            (ENV_BACKEND, "gpt"),
            (ENV_TIMEOUT_SECS, "soon"),
            (ENV_TIMEOUT_SECS, "0"),
            (ENV_BASE_URL, "localhost:1234"),
            (ENV_API_KEY_ENV, "MY KEY"),
        ] {
            let err = Config::default()
                .apply_env(env_of(&[(var, value)]))
                .unwrap_err();
            let msg = err.to_string();
            assert!(
                msg.starts_with(&format!("environment variable {var}=")),
                "{msg}"
            );
        }
    }

    #[test]
    fn precedence_is_defaults_file_env_flags() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = Paths::under(tmp.path());
        std::fs::write(
            &paths.config_file,
            "[llm]\nbackend = \"offline\"\nmodel = \"from-file\"\ntimeout_secs = 7\nbase_url = \"http://file\"\n",
        )
        .unwrap();
        let env = env_of(&[(ENV_MODEL, "from-env"), (ENV_BASE_URL, "http://env")]);
        let flags = Overrides {
            base_url: Some("https://flag".into()),
            ..Overrides::default()
        };
        let c = Config::resolve(&paths, false, &env, &flags).unwrap();
        assert_eq!(c.llm.backend, Backend::Offline, "file over default");
        assert_eq!(c.llm.timeout_secs, 7, "file over default");
        assert_eq!(c.llm.model.as_deref(), Some("from-env"), "env over file");
        assert_eq!(c.llm.base_url, "https://flag", "flag over env");
        assert_eq!(c.llm.max_retries, 3, "default");

        let flags = Overrides {
            backend: Some(Backend::OpenAi),
            model: Some("from-flag".into()),
            base_url: None,
        };
        let c = Config::resolve(&paths, false, &env, &flags).unwrap();
        assert_eq!(
            (c.llm.backend, c.llm.model.as_deref()),
            (Backend::OpenAi, Some("from-flag"))
        );
        assert_eq!(c.llm.base_url, "http://env");

        let bad = Overrides {
            base_url: Some("api.example.com".into()),
            ..Overrides::default()
        };
        let msg = Config::resolve(&paths, false, no_env, &bad)
            .unwrap_err()
            .to_string();
        assert!(
            msg.starts_with("--base-url \"api.example.com\" is not valid"),
            "{msg}"
        );
    }

    #[test]
    fn auto_backend_follows_the_key_variable() {
        let mut c = Config::default();
        assert_eq!(c.resolved_backend(no_env), Backend::Offline);
        assert_eq!(
            c.resolved_backend(env_of(&[("OPENAI_API_KEY", " ")])),
            Backend::Offline
        );
        assert_eq!(
            c.resolved_backend(env_of(&[("OPENAI_API_KEY", "sk-1")])),
            Backend::OpenAi
        );
        c.llm.api_key_env = "OTHER".into();
        assert_eq!(
            c.resolved_backend(env_of(&[("OPENAI_API_KEY", "sk-1")])),
            Backend::Offline
        );
        c.llm.backend = Backend::Offline;
        assert_eq!(
            c.resolved_backend(env_of(&[("OTHER", "sk-1")])),
            Backend::Offline
        );
    }

    #[test]
    fn redacted_summary_hides_url_secrets() {
        let mut c = Config::default();
        c.llm.base_url = "https://user:s3cret@proxy.example/v1?api-key=s3cret".into();
        let s = c.redacted_summary();
        assert!(!s.contains("s3cret"), "{s}");
        assert!(s.contains("https://***@proxy.example/v1?***"), "{s}");
        assert!(s.contains("api_key_env=OPENAI_API_KEY"), "{s}");
        assert_eq!(
            redact_url("http://localhost:8080/v1"),
            "http://localhost:8080/v1"
        );
    }

    #[test]
    fn model_override_applies_to_every_node() {
        let c = Config::from_toml("[llm]\nmodel = \"solo\"\n").unwrap();
        assert!(LlmNode::ALL.iter().all(|n| c.llm.model_for(*n) == "solo"));
        assert!(c.redacted_summary().contains("solo for every node"));
        assert_eq!(
            Config::default().llm.model_for(LlmNode::ActRead),
            "gpt-4.1-mini"
        );
    }

    /// Uncomments `# key = value` and `# [section]` lines, leaving prose alone.
    fn uncomment(example: &str) -> String {
        let is_key_line = |rest: &str| {
            rest.split_once(" = ").is_some_and(|(key, _)| {
                !key.is_empty()
                    && key
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-.\"".contains(c))
            })
        };
        example
            .lines()
            .map(|line| match line.strip_prefix("# ") {
                Some(rest)
                    if (rest.starts_with('[') && rest.ends_with(']')) || is_key_line(rest) =>
                {
                    rest
                }
                _ => line,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Dotted paths of every leaf key of a TOML table.
    fn leaf_keys(table: &toml::Table, prefix: &str, out: &mut BTreeSet<String>) {
        for (key, value) in table {
            let path = format!("{prefix}{}", locate::key(key));
            match value {
                toml::Value::Table(inner) => leaf_keys(inner, &format!("{path}."), out),
                _ => {
                    out.insert(path);
                }
            }
        }
    }

    #[test]
    fn example_file_lists_every_key_with_its_default() {
        let example = include_str!("../config.example.toml");
        let live = uncomment(example);
        assert_ne!(live, example, "nothing was uncommented");
        let parsed = Config::from_toml(&live).unwrap_or_else(|p| panic!("{p}\n{live}"));
        assert_eq!(parsed, Config::default());

        let mut in_example = BTreeSet::new();
        leaf_keys(&toml::from_str(&live).unwrap(), "", &mut in_example);
        let mut in_defaults = BTreeSet::new();
        let defaults = toml::to_string(&Config::default()).unwrap();
        leaf_keys(&toml::from_str(&defaults).unwrap(), "", &mut in_defaults);
        assert_eq!(
            in_example, in_defaults,
            "example and defaults differ in keys"
        );
        // `llm.model` has no default, so it is shown doubly commented.
        assert!(
            example.contains("\n## model = "),
            "llm.model is not documented"
        );
        assert_eq!(PolicyKind::default(), parsed.context.policy);
    }
}
