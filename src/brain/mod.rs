//! The brains that decide at each pipeline node, and the choice between them.
//!
//! [`offline`] decides by deterministic rules (no key, no network); the LLM
//! brain talks to any OpenAI-compatible server.

use std::sync::Arc;

use crate::config::{Backend, Config};
use crate::pipeline::Brain;

pub mod offline;

/// Why no brain could be chosen, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    #[error(
        "the OpenAI-compatible backend is not built yet; run with --llm offline (or unset {0} so that --llm auto picks the offline brain)"
    )]
    LlmNotBuilt(String),
}

/// The brain the config asks for (`--llm auto` picks the LLM backend when the
/// key variable is set, else the offline brain).
pub fn select(
    config: &Config,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Arc<dyn Brain>, SelectError> {
    match config.resolved_backend(env) {
        Backend::OpenAi => Err(SelectError::LlmNotBuilt(config.llm.api_key_env.clone())),
        Backend::Offline | Backend::Auto => Ok(Arc::new(offline::OfflineBrain::default())),
    }
}
