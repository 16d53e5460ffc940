//! What kind of server answers, and how many tokens it holds for one
//! request — learned once per brain from what each server kind publishes:
//! - llama.cpp: `/v1/models` lists the alias with `owned_by: "llamacpp"`
//!   and `meta.n_ctx`; `/props` has `default_generation_settings.n_ctx`
//!   (the context of one slot, which is what one request gets) and
//!   `build_info`.
//! - Ollama: `/api/version` (at the root, not under `/v1`); the context is
//!   `context_length` in `/api/ps` once the model is loaded (what Ollama
//!   really gives it, `OLLAMA_CONTEXT_LENGTH` included), else `num_ctx` in
//!   `/api/show`'s parameters when the model sets it, else unknown: Ollama's
//!   default (4,096 tokens on most machines) is not published, and Ollama
//!   cuts a longer prompt without an error, so `doctor` warns.
//! - vLLM: `/v1/models` lists each model with `max_model_len`.
//! - OpenAI: the host; it publishes no window (`llm.context_window` holds).
//!
//! Each request has a short deadline; a server that answers none of them
//! is "an OpenAI-compatible server" with no published window. The version
//! a server names is scrubbed of the key (it shows in the title).

use std::time::Duration;

use serde_json::Value;

use super::setup::Endpoint;

/// The kinds of server alfred tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerKind {
    LlamaCpp,
    Ollama,
    Vllm,
    OpenAi,
    /// Answers the OpenAI API and says nothing more.
    Other,
}

impl ServerKind {
    /// "llama.cpp", "Ollama", …
    pub fn name(self) -> &'static str {
        match self {
            ServerKind::LlamaCpp => "llama.cpp",
            ServerKind::Ollama => "Ollama",
            ServerKind::Vllm => "vLLM",
            ServerKind::OpenAi => "OpenAI",
            ServerKind::Other => "an OpenAI-compatible server",
        }
    }

    /// How a user gives this server a larger context.
    pub fn context_knob(self) -> &'static str {
        match self {
            ServerKind::LlamaCpp => "restart llama-server with a larger -c (e.g. -c 16384)",
            ServerKind::Ollama => {
                "set num_ctx for the model (e.g. `PARAMETER num_ctx 16384` in a Modelfile) or \
                 OLLAMA_CONTEXT_LENGTH=16384 for the server"
            }
            ServerKind::Vllm => "restart vLLM with a larger --max-model-len",
            ServerKind::OpenAi | ServerKind::Other => {
                "use a model with a larger window, and set llm.context_window to it"
            }
        }
    }
}

/// What the server told about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerInfo {
    pub kind: ServerKind,
    /// Tokens one request may hold (prompt and answer), when published.
    pub context: Option<u32>,
    /// Where `context` was read: "/props n_ctx", "max_model_len", …
    pub context_from: Option<&'static str>,
    /// The server's version or build, when published.
    pub version: Option<String>,
}

impl ServerInfo {
    /// Nothing known.
    pub fn unknown() -> Self {
        Self {
            kind: ServerKind::Other,
            context: None,
            context_from: None,
            version: None,
        }
    }

    /// "llama.cpp b4567 · 16k context".
    pub fn label(&self) -> String {
        let mut out = self.kind.name().to_string();
        if let Some(v) = &self.version {
            out.push_str(&format!(" {v}"));
        }
        if let Some(n) = self.context {
            out.push_str(&format!(" · {} context", short_tokens(n)));
        }
        out
    }
}

/// 16384 → "16k", 512 → "512", 131072 → "128k".
pub fn short_tokens(n: u32) -> String {
    // 128,000 is a multiple of 1,024 too: a round thousand reads as one.
    if n >= 1000 && n.is_multiple_of(1000) {
        format!("{}k", n / 1000)
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{}k", n / 1024)
    } else if n >= 10_000 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

/// The largest prompt of the seed conversation (the meal-planning demo,
/// run offline): an Act prompt holding the 59 inventory rows, in tokens.
/// `doctor` checks a server's context against it; a test keeps it true.
pub const SEED_LARGEST_PROMPT: u32 = 8_378;

/// How long each question may take: the server is local or it is not
/// worth waiting for.
const ASK: Duration = Duration::from_secs(3);

/// Asks the server what it is, for `model`.
pub async fn learn(endpoint: &Endpoint, model: &str) -> ServerInfo {
    let mut info = ServerInfo::unknown();
    if endpoint.host.ends_with("openai.com") {
        info.kind = ServerKind::OpenAi;
        return info;
    }
    if let Some(models) = get_json(endpoint, &endpoint.url("models")).await {
        read_models(&models, model, &mut info);
    }
    if matches!(info.kind, ServerKind::LlamaCpp | ServerKind::Other)
        && let Some(props) = get_json(endpoint, &endpoint.root_url("props")).await
        && let Some(n) = props["default_generation_settings"]["n_ctx"].as_u64()
    {
        info.kind = ServerKind::LlamaCpp;
        info.context = u32::try_from(n).ok();
        info.context_from = Some("/props n_ctx");
        info.version = props["build_info"].as_str().map(|v| endpoint.scrub.text(v));
    }
    if matches!(info.kind, ServerKind::Ollama | ServerKind::Other)
        && let Some(version) = get_json(endpoint, &endpoint.root_url("api/version")).await
        && let Some(v) = version["version"].as_str()
    {
        info.kind = ServerKind::Ollama;
        info.version = Some(endpoint.scrub.text(v));
        if let Some(ps) = get_json(endpoint, &endpoint.root_url("api/ps")).await
            && let Some(n) = loaded_context(&ps, model)
        {
            info.context = Some(n);
            info.context_from = Some("/api/ps context_length");
        }
    }
    if info.kind == ServerKind::Ollama && info.context.is_none() {
        let show = endpoint
            .http
            .post(endpoint.root_url("api/show"))
            .json(&serde_json::json!({ "model": model }))
            .timeout(ASK)
            .send()
            .await;
        if let Ok(resp) = show
            && let Ok(body) = resp.json::<Value>().await
            && let Some(n) = num_ctx(body["parameters"].as_str().unwrap_or(""))
        {
            info.context = Some(n);
            info.context_from = Some("num_ctx");
        }
    }
    tracing::info!(server = %endpoint.shown, kind = info.kind.name(), context = info.context, "model server");
    info
}

/// Reads a `/models` answer: llama.cpp's `meta.n_ctx`, vLLM's
/// `max_model_len`, Ollama's owners — for `model`, else the first listed.
fn read_models(body: &Value, model: &str, info: &mut ServerInfo) {
    let Some(items) = body["data"].as_array() else {
        return;
    };
    let item = items
        .iter()
        .find(|m| m["id"] == model)
        .or(items.first())
        .unwrap_or(&Value::Null);
    if let Some(n) = item["meta"]["n_ctx"].as_u64() {
        info.kind = ServerKind::LlamaCpp;
        info.context = u32::try_from(n).ok();
        info.context_from = Some("/v1/models meta.n_ctx");
    } else if let Some(n) = item["max_model_len"].as_u64() {
        info.kind = ServerKind::Vllm;
        info.context = u32::try_from(n).ok();
        info.context_from = Some("/v1/models max_model_len");
    } else {
        match item["owned_by"].as_str() {
            Some("llamacpp") => info.kind = ServerKind::LlamaCpp,
            Some("vllm") => info.kind = ServerKind::Vllm,
            Some("library" | "ollama") => info.kind = ServerKind::Ollama,
            _ => {}
        }
    }
}

/// The context Ollama gave `model`, if it is loaded (`/api/ps` lists
/// loaded models as `name` and `model`, tagged: `llama3.1:latest`).
fn loaded_context(ps: &Value, model: &str) -> Option<u32> {
    let tagged = |name: &str| name == model || name.strip_suffix(":latest") == Some(model);
    ps["models"]
        .as_array()?
        .iter()
        .find(|m| m["name"].as_str().is_some_and(tagged) || m["model"].as_str().is_some_and(tagged))
        .and_then(|m| m["context_length"].as_u64())
        .and_then(|n| u32::try_from(n).ok())
}

/// `num_ctx` in Ollama's parameter text ("num_ctx    8192\nstop …").
fn num_ctx(parameters: &str) -> Option<u32> {
    parameters.lines().find_map(|l| {
        let mut words = l.split_whitespace();
        (words.next() == Some("num_ctx"))
            .then(|| words.next()?.parse().ok())
            .flatten()
    })
}

/// GETs `url` and reads JSON, or `None` for anything else.
async fn get_json(endpoint: &Endpoint, url: &str) -> Option<Value> {
    let resp = endpoint.http.get(url).timeout(ASK).send().await.ok()?;
    if !resp.status().is_success() {
        return None;
    }
    resp.json().await.ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_kind_is_read_from_what_it_lists() {
        let mut info = ServerInfo::unknown();
        read_models(
            &json!({"data": [{"id": "gemma3-270m", "owned_by": "llamacpp",
                               "meta": {"n_ctx": 16384, "n_ctx_train": 32768}}]}),
            "whatever",
            &mut info,
        );
        assert_eq!(
            (info.kind, info.context),
            (ServerKind::LlamaCpp, Some(16384))
        );
        let mut info = ServerInfo::unknown();
        read_models(
            &json!({"data": [{"id": "a", "max_model_len": 4096},
                             {"id": "Qwen/Qwen2.5-7B", "owned_by": "vllm", "max_model_len": 32768}]}),
            "Qwen/Qwen2.5-7B",
            &mut info,
        );
        assert_eq!((info.kind, info.context), (ServerKind::Vllm, Some(32768)));
        let mut info = ServerInfo::unknown();
        read_models(
            &json!({"data": [{"id": "llama3.1:8b", "owned_by": "library"}]}),
            "llama3.1:8b",
            &mut info,
        );
        assert_eq!((info.kind, info.context), (ServerKind::Ollama, None));
        let mut info = ServerInfo::unknown();
        read_models(&json!({"data": [{"id": "gpt-4.1"}]}), "gpt-4.1", &mut info);
        assert_eq!(info, ServerInfo::unknown());
    }

    #[test]
    fn ollama_tells_a_loaded_models_context() {
        let ps = json!({"models": [
            {"name": "qwen2.5:0.5b", "model": "qwen2.5:0.5b", "context_length": 2048},
            {"name": "llama3.1:latest", "model": "llama3.1:latest", "context_length": 16384}
        ]});
        assert_eq!(loaded_context(&ps, "llama3.1"), Some(16384));
        assert_eq!(loaded_context(&ps, "llama3.1:latest"), Some(16384));
        assert_eq!(loaded_context(&ps, "qwen2.5:0.5b"), Some(2048));
        assert_eq!(loaded_context(&ps, "mistral"), None, "not loaded");
        assert_eq!(loaded_context(&json!({"models": []}), "llama3.1"), None);
    }

    #[test]
    fn ollama_parameters_and_labels_read_naturally() {
        assert_eq!(
            num_ctx("stop \"<|eot|>\"\nnum_ctx                        8192"),
            Some(8192)
        );
        assert_eq!(num_ctx("temperature 0.7"), None);
        assert_eq!(short_tokens(16384), "16k");
        assert_eq!(short_tokens(131072), "128k");
        assert_eq!(short_tokens(128_000), "128k");
        assert_eq!(short_tokens(512), "512");
        let info = ServerInfo {
            kind: ServerKind::LlamaCpp,
            context: Some(16384),
            context_from: Some("/props n_ctx"),
            version: Some("b4567".into()),
        };
        assert_eq!(info.label(), "llama.cpp b4567 · 16k context");
    }
}
