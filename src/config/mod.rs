//! The typed configuration: built-in defaults < config.toml < environment < flags.
//!
//! `shape` holds the shape of `config.toml` (every section as a type with
//! its defaults), the checks on values that the file and the overrides share,
//! and the redacted summary shown by `doctor` and the log. The layers live in
//! the other submodules: `load` reads the file and explains a bad one (naming the
//! file, the key and the line, found by `locate`); `overrides` applies the `ALFRED_*` environment
//! variables and the command-line flags, and resolves the `auto` backend.
//! Every public item is re-exported here, so callers name `config::X` only.
//!
//! It must not decide where the file lives (that is `paths`), must not touch
//! the process environment directly (lookups come in as closures, so tests
//! stay pure), and must never hold an API key: only the *name* of the variable
//! that holds it.

mod keys;
mod load;
mod locate;
mod overrides;
mod problem;
mod shape;
#[cfg(test)]
mod tests;

pub use keys::{DEFAULT_KEYS, KeysConfig};
pub use load::ConfigError;
pub use overrides::{
    ENV_API_KEY_ENV, ENV_BACKEND, ENV_BASE_URL, ENV_MODEL, ENV_OTLP_ENDPOINT, ENV_TIMEOUT_SECS,
    Overrides,
};
pub use problem::Problem;
pub use shape::*;
