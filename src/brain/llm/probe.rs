//! The reachability check `alfred doctor` runs: does the endpoint answer,
//! how fast, and which models does it list?
//!
//! Asks `GET {base}/models` first (cheap, free, lists the models); a server
//! that does not serve it (404, 405) is asked for a 1-token completion
//! instead. One attempt each, so the latency is the server's. Never reports
//! the key, not even one the server lists or says back.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::config::{LlmConfig, LlmNode};

use super::client::configured_models;
use super::errors::{Context, brain_error};
use super::http::{CallFailure, Failure};
use super::server::{ServerInfo, learn};
use super::setup::Endpoint;
use super::wire::{Format, Message, Request, parse_answer};

/// What the check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointCheck {
    /// What was asked: `GET /models` or `a 1-token completion`.
    pub asked: &'static str,
    /// From sending to the full answer.
    pub latency: Duration,
    /// The model ids the server lists, when it served `/models`.
    pub listed: Option<Vec<String>>,
    /// What kind of server it is and the context it publishes.
    pub server: ServerInfo,
}

impl EndpointCheck {
    /// The configured models the server does not list (empty when it lists
    /// none or lists them all).
    pub fn missing<'a>(&self, config: &'a LlmConfig) -> Vec<&'a str> {
        let Some(listed) = &self.listed else {
            return Vec::new();
        };
        configured_models(config)
            .into_iter()
            .filter(|m| !listed.iter().any(|l| l == m))
            .collect()
    }
}

/// Checks the endpoint of `config` with `api_key`; the error is a sentence.
pub async fn check_endpoint(
    config: &LlmConfig,
    api_key: Option<String>,
) -> Result<EndpointCheck, String> {
    let endpoint = Endpoint::new(config, api_key.as_deref()).map_err(|e| e.to_string())?;
    let model = config.model_for(LlmNode::Reply);
    let cx = Context {
        server: &endpoint.shown,
        model,
        key_var: &config.api_key_env,
        timeout: endpoint.timeout,
    };
    let sentence = |failure: Failure, started: Instant| {
        let f = CallFailure {
            failure: endpoint.scrubbed(failure),
            retries: 0,
            elapsed: started.elapsed(),
        };
        brain_error(&f, cx).to_string()
    };
    let started = Instant::now();
    let found = match endpoint.get("models").await {
        Ok(resp) => {
            let body = resp
                .bytes()
                .await
                .map_err(|e| sentence(Failure::from_reqwest(&e), started))?;
            let latency = started.elapsed();
            EndpointCheck {
                asked: "GET /models",
                latency,
                listed: Some(
                    model_ids(&body)
                        .iter()
                        .map(|id| endpoint.scrub.text(id))
                        .collect(),
                ),
                server: ServerInfo::unknown(),
            }
        }
        Err(Failure::Status { status, .. }) if matches!(status.as_u16(), 404 | 405) => {
            one_token(&endpoint, model)
                .await
                .map_err(|f| sentence(f, started))?
        }
        Err(f) => return Err(sentence(f, started)),
    };
    Ok(EndpointCheck {
        server: learn(&endpoint, model).await,
        ..found
    })
}

/// Asks `model` for one token.
async fn one_token(endpoint: &Endpoint, model: &str) -> Result<EndpointCheck, Failure> {
    let messages = [Message::User("Say ok.".into())];
    let body = Request {
        model,
        temperature: 0.0,
        messages: &messages,
        format: Format::Text,
        stream: false,
        max_tokens: Some(1),
    }
    .body()
    .map_err(Failure::Broken)?;
    let started = Instant::now();
    let mut retry_free = endpoint.clone();
    retry_free.retry.max_retries = 0;
    let resp = retry_free
        .post_json("chat/completions", body, endpoint.timeout)
        .await
        .map_err(|f| f.failure)?;
    let bytes = resp.bytes().await.map_err(|e| Failure::from_reqwest(&e))?;
    parse_answer(&bytes).map_err(Failure::Broken)?;
    Ok(EndpointCheck {
        asked: "a 1-token completion",
        latency: started.elapsed(),
        listed: None,
        server: ServerInfo::unknown(),
    })
}

/// The ids of a `/models` answer: `{"data": [{"id": …}, …]}`.
fn model_ids(body: &[u8]) -> Vec<String> {
    let v: Value = serde_json::from_slice(body).unwrap_or_default();
    v["data"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|m| m["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_models_are_read_and_missing_ones_named() {
        let ids = model_ids(br#"{"object":"list","data":[{"id":"gpt-4.1"},{"id":"x"}]}"#);
        assert_eq!(ids, ["gpt-4.1", "x"]);
        assert!(model_ids(b"nonsense").is_empty());
        let check = EndpointCheck {
            asked: "GET /models",
            latency: Duration::ZERO,
            listed: Some(ids),
            server: ServerInfo::unknown(),
        };
        assert_eq!(check.missing(&LlmConfig::default()), ["gpt-4.1-mini"]);
        let unlisted = EndpointCheck {
            listed: None,
            ..check
        };
        assert!(unlisted.missing(&LlmConfig::default()).is_empty());
    }
}
