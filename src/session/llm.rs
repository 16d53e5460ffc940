//! `LlmSettings`: which brain a session talked to, and nothing secret.
//!
//! Owns what a session records about its LLM (backend, model, base URL) and
//! the cleaning of the base URL: `user:password@` and `?query` are removed
//! because either may carry a key. The key itself, and the name of the
//! variable holding it, never come here.

use serde::{Deserialize, Serialize};

use crate::config::{Backend, LlmConfig};

/// Which brain a session talked to. Never a key: only where and which model.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmSettings {
    /// The backend in effect: "offline" or "openai" ("unknown" for migrated files).
    pub backend: String,
    /// The model that served every node, when one was forced.
    #[serde(default)]
    pub model: Option<String>,
    /// The API root, without credentials or query string.
    #[serde(default)]
    pub base_url: String,
}

impl LlmSettings {
    /// Settings with the base URL stripped of `user:password@` and `?query`.
    pub fn new(backend: &str, model: Option<String>, base_url: &str) -> Self {
        Self {
            backend: backend.to_string(),
            model,
            base_url: public_base_url(base_url),
        }
    }

    /// The settings of the `[llm]` config under the backend in effect
    /// (`Config::resolved_backend`); the key and its variable's name stay out.
    pub fn from_config(llm: &LlmConfig, backend_in_effect: Backend) -> Self {
        Self::new(backend_in_effect.as_str(), llm.model.clone(), &llm.base_url)
    }

    /// "openai gpt-4.1-mini", "offline": for tables and headers.
    pub fn label(&self) -> String {
        match &self.model {
            Some(m) if !m.is_empty() => format!("{} {m}", self.backend),
            _ => self.backend.clone(),
        }
    }
}

/// A base URL fit to store or print: `user:password@` and `?query` (and
/// `#fragment`) removed, since either may carry a key.
pub fn public_base_url(url: &str) -> String {
    let url = url.trim();
    let url = url.split(['?', '#']).next().unwrap_or("");
    let (scheme, rest) = match url.split_once("://") {
        Some((s, r)) => (Some(s), r),
        None => (None, url),
    };
    let (authority, path) = rest.find('/').map_or((rest, ""), |i| rest.split_at(i));
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    match scheme {
        Some(s) => format!("{s}://{host}{path}"),
        None => format!("{host}{path}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_lose_credentials_and_queries() {
        assert_eq!(
            public_base_url("https://bob:sk-1@api.example.com/v1?key=sk-2#x"),
            "https://api.example.com/v1"
        );
        assert_eq!(
            public_base_url("http://localhost:11434/v1"),
            "http://localhost:11434/v1"
        );
        assert_eq!(public_base_url("host@x"), "x");
    }
}
