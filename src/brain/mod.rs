//! The brains that decide at each pipeline node, and the choice between them.
//!
//! [`offline`] decides by deterministic rules (no key, no network); [`llm`]
//! talks to any OpenAI-compatible server.

use std::sync::Arc;

use crate::config::{Backend, Config};
use crate::pipeline::Brain;

pub mod llm;
pub mod offline;

/// Why no brain could be chosen, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// `--llm openai` without a key in the configured variable.
    #[error(
        "the OpenAI-compatible backend needs an API key in the environment variable {0}; \
         set it (a local server such as Ollama accepts any non-empty value, e.g. {0}=ollama) \
         or run with --llm offline"
    )]
    MissingKey(String),
    /// The key or the endpoint cannot be used.
    #[error(transparent)]
    Setup(#[from] llm::LlmSetupError),
}

/// The brain the config asks for (`--llm auto` picks the LLM backend when the
/// key variable is set, else the offline brain).
pub fn select(
    config: &Config,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Arc<dyn Brain>, SelectError> {
    match config.resolved_backend(&env) {
        Backend::OpenAi => {
            let var = &config.llm.api_key_env;
            let key = env(var)
                .map(|k| k.trim().to_string())
                .filter(|k| !k.is_empty())
                .ok_or_else(|| SelectError::MissingKey(var.clone()))?;
            let brain = llm::LlmBrain::new(&config.llm, Some(key))?;
            tracing::info!(brain = %brain.name(), "LLM brain ready");
            Ok(Arc::new(brain))
        }
        Backend::Offline | Backend::Auto => Ok(Arc::new(offline::OfflineBrain::default())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn openai() -> Config {
        let mut config = Config::default();
        config.llm.backend = Backend::OpenAi;
        config.llm.base_url = "http://localhost:11434/v1/".into();
        config.llm.model = Some("llama3.1".into());
        config
    }

    #[test]
    fn openai_without_a_key_says_which_variable_to_set() {
        let err = select(&openai(), |_| Some("   ".into())).err().unwrap();
        assert_eq!(err, SelectError::MissingKey("OPENAI_API_KEY".into()));
        let msg = err.to_string();
        assert!(
            msg.contains("OPENAI_API_KEY") && msg.contains("--llm offline"),
            "{msg}"
        );
    }

    #[test]
    fn openai_with_a_key_is_the_llm_brain_named_by_model_and_host() {
        let env = |v: &str| (v == "OPENAI_API_KEY").then(|| " sk-local \n".to_string());
        let brain = select(&openai(), env).unwrap();
        assert_eq!(brain.name(), "llama3.1 @ localhost:11434");
        let err = select(&openai(), |_| Some("sk\u{7}x".into()))
            .err()
            .unwrap();
        assert!(matches!(err, SelectError::Setup(_)), "{err:?}");
    }

    #[test]
    fn auto_without_a_key_is_offline() {
        let brain = select(&Config::default(), |_| None).unwrap();
        assert_eq!(brain.name(), "offline");
    }
}
