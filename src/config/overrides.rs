//! The layers above the file: `ALFRED_*` environment variables, then flags.
//!
//! This module owns the names of the `ALFRED_*` variables, the [`Overrides`]
//! given on the command line, the order of every layer ([`Config::resolve`]:
//! defaults < file < env < flags) and the choice of the backend in effect
//! when `auto` is configured. It must not touch the process environment
//! directly (every lookup comes in as a closure), must not read the file
//! (that is `load`), and must never keep or show the API key: it only asks
//! whether the variable named by `llm.api_key_env` is set.

use super::load::ConfigError;
use super::shape::{Backend, Config, check_base_url, check_env_name};
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
/// The OpenTelemetry variable naming the collector (`telemetry.otlp_endpoint`).
pub const ENV_OTLP_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";

/// Values given on the command line (`--llm`, `--model`, `--base-url`): the last layer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `--llm`.
    pub backend: Option<Backend>,
    /// `--model`.
    pub model: Option<String>,
    /// `--base-url`.
    pub base_url: Option<String>,
    /// `--store`: a Postgres URL.
    pub store: Option<String>,
    /// `--user`: the Alfred user whose rows to use.
    pub user: Option<String>,
    /// `--otlp`: the collector to send traces to.
    pub otlp: Option<String>,
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
        if let Some(v) = get(ENV_OTLP_ENDPOINT) {
            self.telemetry.otlp_endpoint = Some(v);
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
        if let Some(url) = overrides.otlp.as_deref().map(str::trim) {
            self.telemetry.otlp_endpoint = Some(url.to_string());
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
        if let Some(url) = &overrides.store {
            self.store.url = Some(url.trim().to_string());
        }
        if let Some(user) = &overrides.user {
            self.store.user = Some(user.trim().to_string());
        }
        if overrides.store.is_some() || overrides.user.is_some() {
            self.store.validate().map_err(|reason| ConfigError::Flag {
                flag: if overrides.store.is_some() {
                    "--store"
                } else {
                    "--user"
                },
                value: match (&overrides.store, &overrides.user) {
                    (Some(url), _) => crate::kitchen::postgres::shown_url(url),
                    (None, Some(user)) => user.clone(),
                    (None, None) => String::new(),
                },
                reason: reason
                    .replace("store.url", "--store")
                    .replace("store.user", "--user"),
            })?;
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
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::config::LlmNode;

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
            ..Overrides::default()
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
    fn store_flags_are_checked_and_never_echo_a_password() {
        let mut c = Config::default();
        let bad = Overrides {
            store: Some("mysql://bob:hunter2@db/kitchen".into()),
            user: Some("8d1c0d5e-4f5a-4c1e-9d55-6a0e2a7c3b11".into()),
            ..Overrides::default()
        };
        let e = c.apply_overrides(&bad).unwrap_err().to_string();
        assert!(e.contains("--store") && e.contains("postgres://"), "{e}");
        assert!(!e.contains("hunter2"), "the password is not shown: {e}");
        let no_user = Overrides {
            store: Some("postgres://bob:hunter2@db/kitchen".into()),
            ..Overrides::default()
        };
        let e = Config::default()
            .apply_overrides(&no_user)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--user"), "{e}");
        assert!(!e.contains("hunter2"), "{e}");
        let good = Overrides {
            store: Some("postgres://bob:hunter2@db/kitchen".into()),
            user: Some("8d1c0d5e-4f5a-4c1e-9d55-6a0e2a7c3b11".into()),
            ..Overrides::default()
        };
        c.apply_overrides(&good).unwrap();
        assert_eq!(
            c.store.postgres(),
            Some((
                "postgres://bob:hunter2@db/kitchen",
                "8d1c0d5e-4f5a-4c1e-9d55-6a0e2a7c3b11"
            ))
        );
        assert!(!c.redacted_summary().contains("hunter2"));
        assert!(c.redacted_summary().contains("postgres://bob@db/kitchen"));
    }
}
