//! `alfred doctor`: is everything alfred needs in place? One line per check,
//! each `ok` with what was found or `FIX` with what to do; exit 0 when every
//! check is ok, 1 otherwise.
//!
//! Checks the config file, that the data folder is writable, the kitchen
//! store (schema version, row counts), the sessions folder, and the LLM
//! backend in effect — for the OpenAI-compatible one, whether its key
//! variable is set and whether the endpoint answers (with its latency and
//! the models it lists). Never prints the key.

use std::io::Write;
use std::path::Path;

use crate::brain::llm::{self, EndpointCheck, SEED_LARGEST_PROMPT, ServerInfo, ServerKind};
use crate::config::{Backend, Config, LlmConfig, LlmNode};
use crate::context::Table;
use crate::kitchen::Kitchen;
use crate::session::LlmSettings;
use crate::text::thousands;

use super::open::store;
use super::{CliError, Outcome, Startup};

/// One line of the report.
struct Check {
    what: &'static str,
    /// `Ok(what was found)` or `Err(what to do)`.
    result: Result<String, String>,
}

impl Check {
    fn new(what: &'static str, result: Result<String, String>) -> Self {
        Self { what, result }
    }
}

/// Runs every check and prints the report on stdout.
pub fn run(startup: &Startup, env: &impl Fn(&str) -> Option<String>) -> Result<Outcome, CliError> {
    let paths = &startup.paths;
    let mut checks = vec![
        check_config(&paths.config_file),
        check_writable(&paths.data_dir),
        match startup.config.store.postgres() {
            Some((url, user)) => check_postgres(url, user, startup.config.store.role_claims()),
            None => check_kitchen(&paths.kitchen_db),
        },
        check_sessions(startup),
    ];
    checks.extend(check_llm(&startup.config, env));
    let mut out = std::io::stdout().lock();
    for c in &checks {
        let (mark, text) = match &c.result {
            Ok(found) => ("ok", found),
            Err(fix) => ("FIX", fix),
        };
        let _ = writeln!(out, "{mark:<4} {:<9} {text}", c.what);
    }
    let failed = checks.iter().filter(|c| c.result.is_err()).count();
    tracing::info!(checks = checks.len(), failed, "doctor finished");
    Ok(if failed == 0 {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}

/// The config was loaded before doctor ran (a bad one stops alfred first).
fn check_config(file: &Path) -> Check {
    let found = if file.is_file() {
        format!("{} is valid", file.display())
    } else {
        format!("no file at {}; using the defaults", file.display())
    };
    Check::new("config", Ok(found))
}

fn check_writable(dir: &Path) -> Check {
    let probe = dir.join(format!(".doctor-{}", std::process::id()));
    let result = std::fs::write(&probe, b"ok")
        .and_then(|()| std::fs::remove_file(&probe))
        .map(|()| format!("{} is writable", dir.display()))
        .map_err(|e| {
            format!(
                "cannot write in {} ({e}); fix its permissions or choose another folder with \
                 --data-dir or ALFRED_HOME",
                dir.display()
            )
        });
    Check::new("data", result)
}

/// The counts doctor shows for a kitchen.
fn counts(s: &crate::kitchen::KitchenStats) -> String {
    [
        (Table::Recipes, "recipes"),
        (Table::Inventory, "inventory items"),
        (Table::MealPlans, "meal-plan slots"),
        (Table::ShoppingList, "shopping items"),
        (Table::Tasks, "tasks"),
    ]
    .iter()
    .map(|(t, noun)| format!("{} {noun}", s.rows(*t)))
    .collect::<Vec<_>>()
    .join(", ")
}

/// A Postgres kitchen: the server answers, the schema has every kitchen
/// table, the user's row counts, and whether row-level security stands
/// between the connection and the user's rows. Reads only.
fn check_postgres(url: &str, user: &str, claims: bool) -> Check {
    let opened = Kitchen::open_postgres_with(url, user, claims).and_then(|k| {
        let pg = k.postgres();
        let stamps = pg.is_some_and(|pg| pg.stamps());
        let rls = match pg.map(|pg| pg.row_security()) {
            Some(Ok(rls)) => rls,
            Some(Err(e)) => {
                tracing::warn!(error = %e, "could not read the row-level security settings");
                None
            }
            None => None,
        };
        Ok((k.stats()?, stamps, rls))
    });
    let result = opened
        .map_err(|e| e.to_string())
        .and_then(|(s, stamps, rls)| {
            let stamps = if stamps {
                "turn commits stamped"
            } else {
                "no alfred_turn_commits table: turns commit unstamped"
            };
            let found = format!(
                "{} — schema has every kitchen table ({stamps}); user's rows: {}; {} catalog \
             ingredients",
                s.location,
                counts(&s),
                s.rows(Table::Ingredients)
            );
            let empty = Table::ALL
                .into_iter()
                .filter(|t| !matches!(t, Table::Ingredients | Table::Preferences))
                .all(|t| s.rows(t) == 0);
            match rls {
                None => Ok(found),
                Some(rls) if claims => Ok(format!(
                    "{found}; row-level security is on for {} kitchen tables and {} does not \
                 bypass it: these are the rows the app shows user {user} (alfred connects \
                 with their JWT claims)",
                    rls.tables, rls.role
                )),
                Some(rls) if empty => Err(format!(
                    "{found} — but row-level security is on for {} kitchen tables and {} does not \
                 bypass it, and alfred connects without the user's JWT claims \
                 ([store] role_claims = false), so their rows are hidden, not missing: set \
                 role_claims = true in config.toml, or connect as a role that bypasses RLS",
                    rls.tables, rls.role
                )),
                Some(rls) => Ok(format!(
                    "{found}; row-level security is on for {} kitchen tables and {} does not \
                 bypass it; alfred connects without the user's JWT claims \
                 ([store] role_claims = false)",
                    rls.tables, rls.role
                )),
            }
        });
    Check::new("kitchen", result)
}

fn check_kitchen(db: &Path) -> Check {
    if !db.exists() {
        return Check::new(
            "kitchen",
            Ok(format!(
                "{} does not exist yet; the first run creates it with the sample kitchen",
                db.display()
            )),
        );
    }
    let result = Kitchen::open(db)
        .and_then(|k| k.stats())
        .map(|s| {
            format!(
                "{} opens (schema v{}): {}",
                db.display(),
                s.schema_version,
                counts(&s)
            )
        })
        .map_err(|e| {
            format!(
                "{} cannot be opened ({e}); move it aside and run `alfred kitchen reset` to \
                 start from the sample kitchen",
                db.display()
            )
        });
    Check::new("kitchen", result)
}

fn check_sessions(startup: &Startup) -> Check {
    let dir = &startup.paths.sessions_dir;
    let report = store(&startup.paths).list();
    let n = report.sessions.len();
    let result = match report.problems.first() {
        None => Ok(format!("{}: {n} session{}", dir.display(), plural(n))),
        Some(first) => Err(format!(
            "{}: {n} session{} listed, {} file{} could not be read (first: {first}); \
             look at or delete the files named",
            dir.display(),
            plural(n),
            report.problems.len(),
            plural(report.problems.len())
        )),
    };
    Check::new("sessions", result)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The backend in effect and, for the OpenAI-compatible one, its key and
/// endpoint.
fn check_llm(config: &Config, env: &impl Fn(&str) -> Option<String>) -> Vec<Check> {
    let llm = &config.llm;
    if config.resolved_backend(env) != Backend::OpenAi {
        let why = if llm.backend == Backend::Auto {
            format!(" (set {} to use a model)", llm.api_key_env)
        } else {
            String::new()
        };
        return vec![Check::new(
            "llm",
            Ok(format!("offline brain — no network needed{why}")),
        )];
    }
    let server = format!(
        "OpenAI-compatible server at {}",
        LlmSettings::new("openai", None, &llm.base_url).base_url
    );
    let var = &llm.api_key_env;
    let key = env(var)
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty());
    let Some(key) = key else {
        return vec![
            Check::new("llm", Ok(server)),
            Check::new(
                "key",
                Err(format!(
                    "{var} is not set: export {var}=<your key> (a local server such as Ollama \
                     accepts any non-empty value), or run with --llm offline"
                )),
            ),
        ];
    };
    let mut checks = vec![
        Check::new("llm", Ok(server)),
        Check::new("key", Ok(format!("{var} is set (not shown)"))),
    ];
    checks.extend(check_endpoint(llm, key));
    checks
}

/// Asks the endpoint (on a runtime of its own: doctor is not async).
fn check_endpoint(llm: &LlmConfig, key: String) -> Vec<Check> {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            return vec![Check::new(
                "endpoint",
                Err(format!(
                    "cannot start the async runtime to ask the server: {e}"
                )),
            )];
        }
    };
    match runtime.block_on(llm::check_endpoint(llm, Some(key))) {
        Ok(found) => vec![
            Check::new("endpoint", Ok(describe(&found))),
            Check::new("server", Ok(server_line(&found.server))),
            check_context(llm, &found.server),
            check_models(llm, &found),
        ],
        Err(sentence) => vec![Check::new("endpoint", Err(sentence))],
    }
}

fn describe(found: &EndpointCheck) -> String {
    let listed = found
        .listed
        .as_ref()
        .map(|l| format!("; it lists {} model{}", l.len(), plural(l.len())))
        .unwrap_or_default();
    format!(
        "answered {} in {}{listed}",
        found.asked,
        latency(found.latency)
    )
}

/// "0.4 ms", "37 ms", "1.2 s": never "0 ms" for an answer that took time.
fn latency(d: std::time::Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.1} ms")
    } else if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}

/// "llama.cpp (build b4567), context 16,384 tokens (/props n_ctx)".
fn server_line(server: &ServerInfo) -> String {
    let version = server
        .version
        .as_deref()
        .map(|v| format!(" (version {v})"))
        .unwrap_or_default();
    let context = match (server.context, server.context_from) {
        (Some(n), Some(from)) => format!(", context {} tokens ({from})", thousands(n as usize)),
        _ => ", which does not publish its context".into(),
    };
    format!("{}{version}{context}", server.kind.name())
}

/// The server's context (or, unpublished, `llm.context_window`) against
/// the largest prompt of the seed conversation and the largest answer
/// budget.
fn check_context(llm: &LlmConfig, server: &ServerInfo) -> Check {
    if server.kind == ServerKind::Ollama && server.context.is_none() {
        return Check::new("context", Err(ollama_unknown_context()));
    }
    let (window, from) = match server.context {
        Some(n) => (n, server.kind.name().to_string()),
        None => (llm.context_window, "llm.context_window".to_string()),
    };
    let answer = LlmNode::ALL
        .iter()
        .map(|n| llm.max_tokens_for(*n))
        .max()
        .unwrap_or(0);
    let needed = SEED_LARGEST_PROMPT + answer;
    let (prompt, answer) = (
        thousands(SEED_LARGEST_PROMPT as usize),
        thousands(answer as usize),
    );
    let result = if window >= needed {
        Ok(format!(
            "{} tokens ({from}) hold the seed conversation's largest prompt (about {prompt} \
             tokens) and the largest answer budget ({answer}, [llm.max_tokens])",
            thousands(window as usize)
        ))
    } else {
        let fix = match server.context {
            Some(_) => server.kind.context_knob().to_string(),
            None => {
                "raise llm.context_window if the model holds more, or use one that does".to_string()
            }
        };
        Err(format!(
            "{} tokens ({from}) is too small: the seed conversation's largest prompt is about \
             {prompt} tokens and an answer may take {answer} more ([llm.max_tokens]), {} in \
             all; most turns would fail. To fix it, {fix} (at least {}).",
            thousands(window as usize),
            thousands(needed as usize),
            thousands(needed.next_power_of_two() as usize)
        ))
    };
    Check::new("context", result)
}

/// Ollama publishes a model's context only once it is loaded (or when the
/// model sets `num_ctx`); its default cuts the seed's prompts without an
/// error.
fn ollama_unknown_context() -> String {
    format!(
        "Ollama does not say how many tokens it gives the model until the model is loaded, \
         and its default is 4,096 (2,048 before Ollama 0.6): the seed conversation's largest \
         prompt is about {} tokens, and Ollama cuts a longer prompt without an error, so \
         Alfred would answer from half a prompt. Start Ollama with \
         OLLAMA_CONTEXT_LENGTH=16384 (or set `PARAMETER num_ctx 16384` in a Modelfile); \
         once the model is loaded, doctor reads what it got from /api/ps.",
        thousands(SEED_LARGEST_PROMPT as usize)
    )
}

fn check_models(llm: &LlmConfig, found: &EndpointCheck) -> Check {
    let missing = found.missing(llm);
    let listed = found.listed.as_deref().unwrap_or_default();
    let result = match (&found.listed, missing.is_empty(), found.server.kind) {
        (None, _, _) => {
            Ok("the server does not list its models; the completion above worked".into())
        }
        (Some(_), true, _) => Ok("every configured model is listed".to_string()),
        (Some(_), false, ServerKind::LlamaCpp) => Ok(format!(
            "llama.cpp serves the one model it was started with ({}) whatever name is asked; \
             the configured names only label the records",
            listed.join(", ")
        )),
        (Some(_), false, ServerKind::Ollama) => Err(format!(
            "not pulled into Ollama: {}; run `ollama pull {}`, or set [llm.models] / --model \
             to one it has",
            missing.join(", "),
            missing[0]
        )),
        (Some(_), false, ServerKind::Vllm) => Err(format!(
            "not served by vLLM: {}; it serves only what it was started with ({}): set \
             --model to that, or restart vLLM with `vllm serve {}`",
            missing.join(", "),
            listed.join(", "),
            missing[0]
        )),
        (Some(_), false, _) => Err(format!(
            "not listed by the server: {}; set [llm.models] / --model to one it lists ({})",
            missing.join(", "),
            first_few(listed)
        )),
    };
    Check::new("models", result)
}

/// Up to five names, then how many more.
fn first_few(names: &[String]) -> String {
    let shown: Vec<&str> = names.iter().take(5).map(String::as_str).collect();
    match names.len().saturating_sub(5) {
        0 => shown.join(", "),
        more => format!("{}, and {more} more", shown.join(", ")),
    }
}
