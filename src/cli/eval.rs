//! `alfred eval`: the arena. Replays scenarios under each policy with the
//! offline brain (or the LLM when `--llm openai` is given), judges them and
//! prints the table or the JSON report.

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use crate::brain::{self, offline::OfflineBrain};
use crate::config::Backend;
use crate::eval::report::PolicyEntry;
use crate::eval::{self, Bench, Report, Scenario};
use crate::pipeline::Brain;

use super::open::{runtime, store, turn_settings};
use super::{CliError, EvalArgs, Outcome, Startup};

/// The kitchen's date in every run, so figures compare across days.
pub const EVAL_TODAY: jiff::civil::Date = jiff::civil::date(2026, 1, 13);

/// Runs the arena and prints the report.
pub fn run(
    args: &EvalArgs,
    startup: &Startup,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<Outcome, CliError> {
    let config = &startup.config;
    let contenders = eval::contenders(&config.context, &args.window, &args.policies)
        .map_err(CliError::Unavailable)?;
    let sessions = store(&startup.paths);
    let scenarios: Vec<Scenario> = if args.scenarios.is_empty() {
        eval::built_in()
    } else {
        args.scenarios
            .iter()
            .map(|name| eval::scenarios::resolve(name, &sessions))
            .collect::<Result<_, _>>()
            .map_err(CliError::Unavailable)?
    };
    // The offline brain unless the LLM was asked for by name.
    let brain: Arc<dyn Brain> = if config.llm.backend == Backend::OpenAi {
        brain::select(config, env).map_err(|e| CliError::Unavailable(e.to_string()))?
    } else {
        Arc::new(OfflineBrain::default())
    };
    let judge = if args.llm_judge {
        Some(eval::llm_judge::LlmJudge::from_config(config, env).map_err(CliError::Unavailable)?)
    } else {
        None
    };
    let bench = Bench {
        brain: brain.clone(),
        settings: Arc::new(turn_settings(startup)),
        today: EVAL_TODAY,
    };
    let runtime = runtime()?;
    let live = std::io::stderr().is_terminal();
    let total = scenarios.len() * contenders.len();
    let mut done = 0;
    let results = runtime.block_on(async {
        let mut runs = eval::run_all(&bench, &scenarios, &contenders, &mut |s, c| {
            done += 1;
            if live {
                eprint!("\r\x1b[2K[{done}/{total}] {} · {}", s.name, c.name);
            }
        })
        .await
        .map_err(CliError::Unavailable)?;
        if let Some(judge) = &judge {
            for (i, (result, run)) in runs.iter_mut().enumerate() {
                if live {
                    eprint!(
                        "\r\x1b[2K[{}/{total}] judging {} · {}",
                        i + 1,
                        result.scenario,
                        result.policy
                    );
                }
                let recall = judge.judge(run).await.map_err(CliError::Unavailable)?;
                result.llm_recall = Some(recall);
            }
        }
        Ok::<_, CliError>(runs.into_iter().map(|(r, _)| r).collect::<Vec<_>>())
    })?;
    if live {
        eprint!("\r\x1b[2K");
    }
    let report = Report::new(
        brain.name(),
        judge
            .as_ref()
            .map_or_else(|| "rules".to_string(), |j| format!("rules + {}", j.name())),
        EVAL_TODAY.to_string(),
        args.cached_price.0,
        contenders
            .into_iter()
            .map(|c| PolicyEntry {
                name: c.name,
                baseline: c.baseline,
                context: c.policy,
            })
            .collect(),
        results,
    );
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let text = if args.json {
        serde_json::to_string_pretty(&report).map_err(|e| CliError::Unavailable(e.to_string()))?
    } else {
        report.table()
    };
    let _ = writeln!(out, "{}", text.trim_end());
    Ok(Outcome::Done)
}
