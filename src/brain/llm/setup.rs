//! The brain's HTTP side, built from `[llm]`: the base URL checked and named,
//! the API key checked and placed in the client's default `Authorization`
//! header (marked sensitive, so no debug print or log shows it), and the
//! client's timeouts.
//!
//! The key lives in that header only: it is not kept in the brain, the
//! config or any log line (the [`Scrub`] that takes it out of what servers
//! say back holds it too, and never prints it). Must not read the
//! environment (the caller hands the key in).

use std::time::Duration;

use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};

use crate::config::LlmConfig;

use super::retry::RetryPolicy;
use super::scrub::Scrub;

/// Why the LLM brain could not be built, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmSetupError {
    /// The key cannot go into an HTTP header.
    #[error(
        "the API key in {var} contains a line break or another character that cannot go \
         in an HTTP header; put the key on one line (spaces around it are trimmed)"
    )]
    BadKey { var: String },
    /// The base URL does not parse or has no host.
    #[error(
        "llm.base_url {url:?} is not a usable URL ({reason}); use e.g. http://localhost:11434/v1"
    )]
    BadBaseUrl { url: String, reason: String },
    /// reqwest refused to build the client (TLS setup).
    #[error("the HTTP client could not be built: {0}")]
    Client(String),
}

/// Where requests go and how they are sent.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub(super) http: reqwest::Client,
    /// The API root without a trailing slash: paths are appended to it.
    base: String,
    /// The API root as shown to users: no credentials, no query.
    pub(super) shown: String,
    /// `host[:port]`, for the status bar.
    pub(super) host: String,
    /// The longest silence (`llm.timeout_secs`).
    pub(super) timeout: Duration,
    /// The longest one call may take (`llm.call_timeout_secs`, at least
    /// `timeout`).
    pub(super) call_timeout: Duration,
    pub(super) retry: RetryPolicy,
    /// Takes the key out of anything the server says back.
    pub(super) scrub: Scrub,
}

impl Endpoint {
    /// Builds the client for `config`, with `key` (already read and trimmed by
    /// the caller; `None` sends no `Authorization` header).
    pub fn new(config: &LlmConfig, key: Option<&str>) -> Result<Self, LlmSetupError> {
        install_crypto_provider();
        let base = config.base_url.trim().trim_end_matches('/').to_string();
        let url = reqwest::Url::parse(&base).map_err(|e| LlmSetupError::BadBaseUrl {
            url: config.base_url.clone(),
            reason: e.to_string(),
        })?;
        let host = match (url.host_str(), url.port()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_string(),
            (None, _) => {
                return Err(LlmSetupError::BadBaseUrl {
                    url: config.base_url.clone(),
                    reason: "it names no host".into(),
                });
            }
        };
        let shown = format!(
            "{}://{host}{}",
            url.scheme(),
            url.path().trim_end_matches('/')
        );
        let mut headers = HeaderMap::new();
        if let Some(key) = key.map(str::trim).filter(|k| !k.is_empty()) {
            let bad_key = || LlmSetupError::BadKey {
                var: config.api_key_env.clone(),
            };
            if key.chars().any(char::is_control) {
                return Err(bad_key());
            }
            let mut value =
                HeaderValue::from_str(&format!("Bearer {key}")).map_err(|_| bad_key())?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        let timeout = Duration::from_secs(config.timeout_secs.max(1));
        let http = reqwest::Client::builder()
            .default_headers(headers)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            // No read timeout here: each call times its own silences and
            // its whole length, to say which one ran out (`call`).
            .user_agent(concat!("alfred/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| LlmSetupError::Client(e.to_string()))?;
        Ok(Self {
            http,
            base,
            shown,
            host,
            timeout,
            call_timeout: Duration::from_secs(config.call_timeout_secs).max(timeout),
            retry: RetryPolicy::new(config.max_retries),
            scrub: Scrub::new(key),
        })
    }

    /// The URL of an API path (`chat/completions`, `models`).
    pub(super) fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.base)
    }

    /// The URL of a path at the server's root, outside the OpenAI API
    /// (`props`, `api/version`): the base without its `/v1`.
    pub(super) fn root_url(&self, path: &str) -> String {
        let root = self.base.strip_suffix("/v1").unwrap_or(&self.base);
        format!("{root}/{path}")
    }
}

/// Installs rustls' ring crypto provider for this process (the TLS stack is
/// built without a default one); installing twice is harmless.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(base: &str) -> LlmConfig {
        LlmConfig {
            base_url: base.into(),
            api_key_env: "MY_KEY".into(),
            ..LlmConfig::default()
        }
    }

    #[test]
    fn the_base_url_loses_its_trailing_slash_and_credentials_when_shown() {
        let e = Endpoint::new(&config("http://u:p@localhost:11434/v1/"), Some("k")).unwrap();
        assert_eq!(
            e.url("chat/completions"),
            "http://u:p@localhost:11434/v1/chat/completions"
        );
        assert_eq!(e.shown, "http://localhost:11434/v1");
        assert_eq!(e.host, "localhost:11434");
        let e = Endpoint::new(&config("https://api.openai.com/v1"), None).unwrap();
        assert_eq!(e.host, "api.openai.com");
    }

    #[test]
    fn keys_with_line_breaks_and_bad_urls_are_refused_with_a_sentence() {
        let err = Endpoint::new(&config("http://localhost/v1"), Some("sk-abc\nrest")).unwrap_err();
        assert_eq!(
            err,
            LlmSetupError::BadKey {
                var: "MY_KEY".into()
            }
        );
        let msg = err.to_string();
        assert!(msg.contains("MY_KEY") && !msg.contains("sk-abc"), "{msg}");
        // Spaces and a trailing newline around the key are trimmed, not refused.
        Endpoint::new(&config("http://localhost/v1"), Some("  sk-abc\n")).unwrap();
        let err = Endpoint::new(&config("localhost:11434"), None).unwrap_err();
        assert!(matches!(err, LlmSetupError::BadBaseUrl { .. }), "{err:?}");
    }

    #[test]
    fn the_client_never_prints_the_key() {
        let e = Endpoint::new(&config("http://localhost/v1"), Some("sk-secret-42")).unwrap();
        assert!(!format!("{e:?}").contains("sk-secret-42"));
    }
}
