//! Reading `config.toml`: the file over the defaults, its rules, and friendly errors.
//!
//! This module owns [`Config::load`] and [`Config::from_toml`], the rules a
//! parsed file must keep ([`Config::validate`]) and the error types
//! ([`ConfigError`], [`Problem`]); `locate` finds the key and line a toml
//! error points at. It must not decide where the file lives (the path comes
//! from `paths`), must not read the environment or apply flags (that is
//! `overrides`), and must not exit or panic on a bad file: every mistake is
//! returned as a typed error.

use std::path::PathBuf;

use super::locate;
use super::problem::Problem;
use super::shape::{Config, LlmNode, check_base_url, check_env_name};
use crate::paths::Paths;

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
    /// The file is not valid TOML, has unknown keys, bad values, or breaks
    /// rules: every problem found, each naming its key.
    #[error("{}", invalid_text(path, problems))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the key; at least one.
        problems: Vec<Problem>,
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

/// "config error in FILE: …", or every problem on its own line.
fn invalid_text(path: &std::path::Path, problems: &[Problem]) -> String {
    match problems {
        [one] => format!("config error in {}: {one}", path.display()),
        many => {
            let mut text = format!("{} config errors in {}:", many.len(), path.display());
            for p in many {
                text.push_str(&format!("\n  - {p}"));
            }
            text
        }
    }
}

impl Config {
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
        Config::check_toml(&text).map_err(|problems| ConfigError::Invalid {
            path: path.clone(),
            problems,
        })
    }

    /// Parses config text over the defaults and checks its rules; the first
    /// problem found.
    pub fn from_toml(text: &str) -> Result<Config, Problem> {
        Config::check_toml(text).map_err(|mut problems| problems.remove(0))
    }

    /// Parses config text over the defaults and checks its rules, finding
    /// every problem, not only the first: each bad key is set aside and the
    /// rest read again, and every rule is checked.
    pub fn check_toml(text: &str) -> Result<Config, Vec<Problem>> {
        /// More than this many is more than anyone reads.
        const MAX_PROBLEMS: usize = 20;
        let mut problems = Vec::new();
        let mut table: Option<toml::Table> = None;
        loop {
            let current = match &table {
                None => text.to_string(),
                Some(t) => toml::to_string(t).unwrap_or_default(),
            };
            match toml::from_str::<Config>(&current) {
                Ok(config) => {
                    problems.extend(config.rule_problems().into_iter().map(Problem::Rule));
                    return if problems.is_empty() {
                        Ok(config)
                    } else {
                        Err(problems)
                    };
                }
                Err(e) => {
                    let (mut problem, path) = locate::describe_at(&current, &e);
                    if table.is_some() {
                        // Lines of the file, not of the text read again.
                        let line = path.as_deref().and_then(|p| locate::line_of_path(text, p));
                        problem.set_line(line);
                    }
                    let syntax = matches!(problem, Problem::Syntax { .. });
                    problems.push(problem);
                    let Some(path) = path.filter(|_| !syntax && problems.len() < MAX_PROBLEMS)
                    else {
                        return Err(problems);
                    };
                    let t = match &mut table {
                        Some(t) => t,
                        None => match text.parse::<toml::Table>() {
                            Ok(t) => table.insert(t),
                            Err(_) => return Err(problems),
                        },
                    };
                    if !remove_path(t, &path) {
                        return Err(problems);
                    }
                }
            }
        }
    }

    /// Checks the values make sense; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        match self.rule_problems().into_iter().next() {
            Some(first) => Err(first),
            None => Ok(()),
        }
    }

    /// Every rule the values break, each message naming its key.
    pub fn rule_problems(&self) -> Vec<String> {
        [
            self.validate_llm(),
            self.validate_pipeline(),
            self.context.validate(),
            self.store.validate(),
        ]
        .into_iter()
        .filter_map(Result::err)
        .collect()
    }

    fn validate_pipeline(&self) -> Result<(), String> {
        if self.pipeline.max_steps == 0 {
            return Err("pipeline.max_steps: must be at least 1".into());
        }
        if self.pipeline.max_tool_calls_per_step == 0 {
            return Err("pipeline.max_tool_calls_per_step: must be at least 1".into());
        }
        Ok(())
    }

    fn validate_llm(&self) -> Result<(), String> {
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
            let n = llm.max_tokens_for(node);
            if !(16..=1_000_000).contains(&n) {
                return Err(format!(
                    "llm.max_tokens.{}: {n} is outside 16..=1000000",
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
        Ok(())
    }
}

/// Removes the key at `path` from `table`; false when it is not there.
fn remove_path(table: &mut toml::Table, path: &[String]) -> bool {
    match path {
        [] => false,
        [last] => table.remove(last).is_some(),
        [first, rest @ ..] => match table.get_mut(first) {
            Some(toml::Value::Table(inner)) => remove_path(inner, rest),
            Some(_) => table.remove(first).is_some(),
            None => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> Problem {
        Config::from_toml(text).expect_err("config should be rejected")
    }

    #[test]
    fn every_problem_is_reported_with_its_line_not_only_the_first() {
        let text = "[llm]\nmodel = 5\ntimeout_secs = 0\nbogus = 1\n[ui]\ntheme = \"pink\"\n\
                    [pipeline]\nmax_steps = 0\n";
        let problems = Config::check_toml(text).expect_err("rejected");
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(said.len(), 5, "{said:#?}");
        assert!(
            said[0].starts_with("unknown key `bogus` in [llm] (line 4)"),
            "{said:#?}"
        );
        assert!(said[1].starts_with("key `llm.model` (line 2)"), "{said:#?}");
        assert!(said[2].starts_with("key `ui.theme` (line 6)"), "{said:#?}");
        assert_eq!(said[3], "llm.timeout_secs: must be greater than 0");
        assert_eq!(said[4], "pipeline.max_steps: must be at least 1");
        let err = ConfigError::Invalid {
            path: "c.toml".into(),
            problems,
        };
        assert!(
            err.to_string()
                .starts_with("5 config errors in c.toml:\n  - unknown key")
        );
        // One problem reads as before.
        let one = Config::check_toml("[llm]\nmodel = 5\n").expect_err("rejected");
        assert_eq!(one.len(), 1);
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
             expected one of: llm, context, pipeline, ui, kitchen, store, keys, telemetry"
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
}
