//! The command line: what the user can ask for, and the one place that dispatches it.
//!
//! This module owns the public command surface (DESIGN.md, "Command line"), the
//! startup every command shares (paths, then config, then folders, then logs)
//! and the mapping of outcomes and errors to exit codes: 0 done, 1 error or a
//! failed turn, 2 a usage error (clap's). It must not hold
//! command logic: each arm of [`dispatch`] hands over to the module that owns
//! the work. Errors are printed here, once, as one line plus cause lines.

mod args;
mod doctor;
mod eval;
mod import;
mod kitchen;
mod open;
mod output;
mod run;
mod sessions;
mod tui;
pub mod watch;

use std::ffi::OsString;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[cfg(test)]
use clap::CommandFactory;
#[cfg(test)]
use clap::error::ErrorKind;

pub use args::*;

use crate::config::{Config, ConfigError};
use crate::kitchen::KitchenError;
use crate::logging::{self, LogGuard};
use crate::paths::{Paths, PathsError};

/// How a command ended when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Finished: exit 0.
    Done,
    /// The command ran but part of it failed (a turn): exit 1.
    Failed,
}

impl From<Outcome> for ExitCode {
    fn from(outcome: Outcome) -> Self {
        match outcome {
            Outcome::Done => ExitCode::SUCCESS,
            Outcome::Failed => ExitCode::FAILURE,
        }
    }
}

/// Why a command could not run.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad arguments, or `--help` / `--version` (clap models those as errors too).
    #[error(transparent)]
    Usage(clap::Error),
    /// The file locations could not be resolved or created.
    #[error(transparent)]
    Paths(#[from] PathsError),
    /// The configuration is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The kitchen store could not be opened, migrated or seeded.
    #[error(transparent)]
    Kitchen(#[from] KitchenError),
    /// A saved session could not be found, read, locked or written.
    #[error(transparent)]
    Session(#[from] crate::session::SessionError),
    /// Something the command needs is not available, in words.
    #[error("{0}")]
    Unavailable(String),
    /// A destructive command needs a yes the user could not give.
    #[error("not confirmed: {0}")]
    NeedsConfirmation(String),
    /// A file to import could not be read or is not Alfred's state (one
    /// line: the problem is told whole, not as a cause).
    #[error("cannot import {source_name}: {problem}")]
    Import {
        /// The file as given, or the database and user.
        source_name: String,
        /// Why.
        problem: ImportProblem,
    },
}

/// Why a file could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportProblem {
    /// The file could not be read.
    #[error("{0}")]
    Read(std::io::Error),
    /// The file is not Alfred's state.
    #[error("{0}")]
    State(#[from] crate::session::alfred_state::ImportError),
    /// The database could not be read, or the user has no conversation.
    #[error("{0}")]
    Database(String),
    /// Alfred's prompt logs could not be read.
    #[error("its prompt logs could not be read: {0}")]
    Logs(String),
}

/// What every command starts from: resolved paths, the layered config, logging.
#[derive(Debug)]
pub struct Startup {
    /// Where files live.
    pub paths: Paths,
    /// The configuration, all layers applied.
    pub config: Config,
    /// Keeps the log writer alive; `None` when logging could not start.
    pub log: Option<LogGuard>,
}

/// The binary's entry point: parses `std::env::args_os()`, runs, reports.
pub fn main() -> ExitCode {
    install_panic_hook();
    run(std::env::args_os())
}

/// Turns a panic (always a bug) into one clear line on stderr and an entry in the log.
///
/// The default report with its backtrace is kept for `RUST_BACKTRACE=1`. The
/// terminal UI chains its own restoring hook in front of this one.
fn install_panic_hook() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        tracing::error!(%info, "panic");
        if std::env::var_os("RUST_BACKTRACE").is_some() {
            default_hook(info);
        } else {
            let payload = info.payload();
            let message = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("unknown cause");
            let place = info
                .location()
                .map(|l| format!(" (at {}:{})", l.file(), l.line()))
                .unwrap_or_default();
            eprintln!(
                "error: alfred crashed, which is a bug: {message}{place}. \
                 Please report it; RUST_BACKTRACE=1 shows more."
            );
        }
    }));
}

/// Parses `args`, dispatches, prints any error, and returns the exit code.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    match parse_and_dispatch(args) {
        Ok(outcome) => outcome.into(),
        Err(CliError::Usage(err)) => {
            // Help and version go to stdout with exit 0; usage errors to stderr.
            let _ = err.print();
            ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2))
        }
        Err(err) => {
            report(&err);
            ExitCode::FAILURE
        }
    }
}

/// Parses `args` (the first is the program name) and runs the command.
pub fn parse_and_dispatch<I, T>(args: I) -> Result<Outcome, CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = Cli::try_parse_args(args).map_err(CliError::Usage)?;
    dispatch(cli, |var| std::env::var(var).ok())
}

/// Runs a parsed command; `env` looks up environment variables.
pub fn dispatch(cli: Cli, env: impl Fn(&str) -> Option<String>) -> Result<Outcome, CliError> {
    let startup = start(&cli.global, &env)?;
    let (paths, config) = (&startup.paths, &startup.config);
    let outcome = match &cli.command {
        None => tui::run(&startup, &cli.session, None, false, &env)?,
        Some(Command::Run(args)) => run::run(args, &startup, &env)?,
        Some(Command::Sessions(cmd)) => sessions::run(cmd, &startup, &cli.global)?,
        Some(Command::Eval(args)) => eval::run(args, &startup, &env)?,
        Some(Command::Demo(args)) => {
            tui::run(&startup, &SessionChoice::default(), Some(args), false, &env)?
        }
        Some(Command::Watch) => tui::run(&startup, &SessionChoice::default(), None, true, &env)?,
        Some(Command::Kitchen(cmd)) => kitchen::run(cmd, paths, config)?,
        Some(Command::Doctor) => doctor::run(&startup, &env)?,
    };
    tracing::info!(?outcome, "alfred finished");
    // Dropping the startup flushes the log.
    drop(startup);
    Ok(outcome)
}

/// Resolves paths (`--data-dir`, else `ALFRED_HOME`), loads the config (reported
/// before anything else runs), creates the folders and starts logging.
pub fn start(
    global: &GlobalArgs,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<Startup, CliError> {
    let data_dir = global.data_dir.clone().or_else(|| {
        env(ENV_HOME)
            .filter(|dir| !dir.trim().is_empty())
            .map(PathBuf::from)
    });
    let paths = Paths::resolve(data_dir.as_deref(), global.config.as_deref())?;
    paths.check_folders()?;
    let config = Config::resolve(&paths, global.config.is_some(), env, &global.overrides())?;
    // Every command refuses a bad `[keys]` table, as it refuses the rest of
    // a bad config, not only the terminal UI that uses it.
    keymap(&paths, &config)?;
    paths.ensure_dirs()?;
    let log = match logging::init(&paths.log_dir, env(logging::ENV_LOG).as_deref()) {
        Ok(guard) => Some(guard),
        Err(err) => {
            eprintln!("warning: logging is off: {}", one_line(&err));
            None
        }
    };
    tracing::info!(version = env!("CARGO_PKG_VERSION"), "alfred starting");
    tracing::info!(config_file = %paths.config_file.display(), data_dir = %paths.data_dir.display(), "paths");
    for line in config.redacted_summary().lines() {
        tracing::info!("config {line}");
    }
    tracing::info!(backend = %config.resolved_backend(env), "backend in effect");
    Ok(Startup { paths, config, log })
}

/// The terminal UI's key bindings from the config's `[keys]` table, or the
/// config error naming the file and the bad binding.
fn keymap(paths: &Paths, config: &Config) -> Result<crate::tui::keymap::Keymap, CliError> {
    crate::tui::keymap::Keymap::from_config(&config.keys).map_err(|e| {
        CliError::Unavailable(format!(
            "config error in {}: {e}",
            paths.config_file.display()
        ))
    })
}

/// Asks a yes/no question on the terminal; refuses to guess without one.
fn confirm(question: &str) -> Result<bool, CliError> {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(CliError::NeedsConfirmation(
            "standard input is not a terminal, so alfred cannot ask; pass --yes to confirm".into(),
        ));
    }
    eprint!("{question} [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    stdin
        .lock()
        .read_line(&mut answer)
        .map_err(|e| CliError::NeedsConfirmation(format!("could not read the answer: {e}")))?;
    Ok(matches!(answer.trim().to_lowercase().as_str(), "y" | "yes"))
}

/// Prints an error as `error: …` followed by one `caused by: …` line per cause.
pub fn report(err: &dyn std::error::Error) {
    eprintln!("error: {err}");
    let mut cause = err.source();
    while let Some(c) = cause {
        eprintln!("  caused by: {c}");
        cause = c.source();
    }
}

/// An error and its causes on one line, for warnings.
fn one_line(err: &dyn std::error::Error) -> String {
    let mut line = err.to_string();
    let mut cause = err.source();
    while let Some(c) = cause {
        line.push_str(": ");
        line.push_str(&c.to_string());
        cause = c.source();
    }
    line
}

/// Lets the brain learn its server before the first turn (its kind and
/// context, for the title and the inspector), for at most 3 s: a server
/// that is slow to say is asked again by the first call.
async fn prepare(brain: &dyn crate::pipeline::Brain) {
    let _ = tokio::time::timeout(std::time::Duration::from_secs(3), brain.prepare()).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Backend;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_args(std::iter::once("alfred").chain(args.iter().copied()))
    }

    fn kind(args: &[&str]) -> ErrorKind {
        parse(args).expect_err("should be rejected").kind()
    }

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn bare_alfred_opens_the_tui() {
        let cli = parse(&[]).unwrap();
        assert_eq!(cli.command, None);
        assert_eq!(cli.session, SessionChoice::default());
        let cli = parse(&["--session", "abc"]).unwrap();
        assert_eq!(cli.session.session.as_deref(), Some("abc"));
        assert_eq!(
            kind(&["--new", "--session", "abc"]),
            ErrorKind::ArgumentConflict
        );
        assert_eq!(kind(&["--new", "doctor"]), ErrorKind::ArgumentConflict);
    }

    #[test]
    fn run_takes_repeated_messages_or_a_script() {
        let cli = parse(&["run", "-m", "hi", "-m", "more", "--json"]).unwrap();
        let Some(Command::Run(run)) = cli.command else {
            panic!("not run")
        };
        assert_eq!(run.messages, ["hi", "more"]);
        assert!(run.json);
        assert_eq!(
            kind(&["run", "-m", "hi", "--script", "f"]),
            ErrorKind::ArgumentConflict
        );
        assert_eq!(
            kind(&["run", "--new", "--session", "x", "-m", "a"]),
            ErrorKind::ArgumentConflict
        );
        assert_eq!(kind(&["run"]), ErrorKind::MissingRequiredArgument);
        parse(&["run", "--script", "turns.txt", "--session", "x"]).unwrap();
    }

    #[test]
    fn global_flags_go_before_or_after_the_command() {
        let cli = parse(&[
            "eval",
            "--llm",
            "offline",
            "--model",
            "m",
            "--base-url",
            "http://x",
        ])
        .unwrap();
        assert_eq!(cli.global.llm, Some(Backend::Offline));
        let o = cli.global.overrides();
        assert_eq!(
            (o.model.as_deref(), o.base_url.as_deref()),
            (Some("m"), Some("http://x"))
        );
        let cli = parse(&["--data-dir", "d", "--config", "c.toml", "doctor"]).unwrap();
        assert_eq!(cli.global.data_dir, Some(PathBuf::from("d")));
        assert_eq!(cli.global.config, Some(PathBuf::from("c.toml")));
        assert_eq!(kind(&["--llm", "gpt"]), ErrorKind::InvalidValue);
    }

    #[test]
    fn subcommand_arguments_parse() {
        let cli = parse(&["eval", "a", "b", "--window", "1,2,4", "--llm-judge"]).unwrap();
        let Some(Command::Eval(eval)) = cli.command else {
            panic!("not eval")
        };
        assert_eq!(
            (eval.scenarios.len(), eval.window.clone()),
            (2, vec![1, 2, 4])
        );
        let cli = parse(&["sessions", "export", "s1", "--format", "json"]).unwrap();
        let want = SessionsCommand::Export {
            id: "s1".into(),
            format: ExportFormat::Json,
            to: None,
        };
        assert_eq!(cli.command, Some(Command::Sessions(want)));
        let cli = parse(&[
            "sessions",
            "export",
            "s1",
            "--format",
            "otlp",
            "--to",
            "http://localhost:6006",
        ])
        .unwrap();
        let want = SessionsCommand::Export {
            id: "s1".into(),
            format: ExportFormat::Otlp,
            to: Some("http://localhost:6006".into()),
        };
        assert_eq!(cli.command, Some(Command::Sessions(want)));
        let cli = parse(&["kitchen", "reset", "--yes"]).unwrap();
        assert_eq!(
            cli.command,
            Some(Command::Kitchen(KitchenCommand::Reset { yes: true }))
        );
        let cli = parse(&["demo", "--auto", "3"]).unwrap();
        assert_eq!(
            cli.command,
            Some(Command::Demo(DemoArgs {
                script: None,
                auto: Some(3)
            }))
        );
        assert_eq!(kind(&["demo", "--auto", "0"]), ErrorKind::ValueValidation);
        assert_eq!(
            kind(&["sessions", "rename", "s1"]),
            ErrorKind::MissingRequiredArgument
        );
        let cli = parse(&[
            "sessions",
            "import",
            "--alfred-state",
            "s.json",
            "--title",
            "T",
        ])
        .unwrap();
        let want = SessionsCommand::Import {
            alfred_state: Some(PathBuf::from("s.json")),
            title: Some("T".into()),
            prompt_logs: None,
        };
        assert_eq!(cli.command, Some(Command::Sessions(want)));
        // Without a file, the import reads --store's --user (checked when run).
        assert_eq!(
            parse(&["sessions", "import"]).expect("parses").command,
            Some(Command::Sessions(SessionsCommand::Import {
                alfred_state: None,
                title: None,
                prompt_logs: None,
            }))
        );
    }

    #[test]
    fn dispatch_reports_config_errors_before_anything_runs() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("home");
        let cli = parse(&["--data-dir", dir.to_str().unwrap(), "doctor"]).unwrap();
        let env = |var: &str| (var == "ALFRED_LLM").then(|| "gpt".to_string());
        let err = dispatch(cli, env).unwrap_err();
        assert!(
            matches!(
                &err,
                CliError::Config(ConfigError::Env {
                    var: "ALFRED_LLM",
                    ..
                })
            ),
            "{err:?}"
        );
        assert!(
            !dir.exists(),
            "no folder is created before the config is valid"
        );
    }

    #[test]
    fn errors_and_causes_fold_into_one_line() {
        let io = std::io::Error::other("disk on fire");
        let err = PathsError::CreateDir {
            what: "log",
            path: "/x".into(),
            source: io,
        };
        let line = one_line(&err);
        assert!(
            line.starts_with("cannot create the log directory /x"),
            "{line}"
        );
        assert!(line.ends_with(": disk on fire"), "{line}");
    }
}
