//! The command line: what the user can ask for, and the one place that dispatches it.
//!
//! This module owns the public command surface (DESIGN.md, "Command line"), the
//! startup every command shares (paths, then config, then folders, then logs)
//! and the mapping of outcomes and errors to exit codes: 0 done, 1 error,
//! 2 "not built yet" (clap's own usage errors also exit 2). It must not hold
//! command logic: each arm of [`dispatch`] hands over to the module that owns
//! the work. Errors are printed here, once, as one line plus cause lines.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::config::{Backend, Config, ConfigError, Overrides};
use crate::logging::{self, LogGuard};
use crate::paths::{Paths, PathsError};

/// Environment variable that works like `--data-dir` (the flag wins).
pub const ENV_HOME: &str = "ALFRED_HOME";

const AFTER_HELP: &str = "\
Examples:
  alfred                               open the most recent session
  alfred --new                         start a fresh session
  alfred run -m \"what can I cook tonight?\" --json
  alfred --llm offline demo            a demo with no API key and no network
  alfred sessions list --grep soup

Files live in your platform's config and data folders, or all under --data-dir DIR.
With --llm auto (the default) Alfred uses the OpenAI-compatible API when OPENAI_API_KEY
is set (see llm.api_key_env in config.example.toml) and the offline brain otherwise.";

/// Chat with Alfred, a kitchen assistant, and watch its three context layers live.
///
/// Alfred helps with recipes, inventory, meal plans and shopping. Beside the
/// chat, panels show what it keeps in mind: the entities in working memory
/// (and why), the narrative of each turn, and the conversation history.
///
/// With no command, alfred opens the terminal UI on your most recent session
/// (a new one if there is none).
#[derive(Debug, Clone, Parser)]
#[command(name = "alfred", version, after_help = AFTER_HELP)]
pub struct Cli {
    /// Options every command accepts.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// Which session the terminal UI opens.
    #[command(flatten)]
    pub session: SessionChoice,
    /// What to do; none opens the terminal UI.
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// Parses arguments (the first is the program name), rejecting `--new` /
    /// `--session` before a command, where they would silently do nothing.
    pub fn try_parse_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let cli = Cli::try_parse_from(args)?;
        if cli.command.is_some() && cli.session != SessionChoice::default() {
            let msg = "--new and --session before a command apply only to the terminal UI; \
                       put them after the command, e.g. `alfred run --new -m MSG`";
            return Err(Cli::command().error(ErrorKind::ArgumentConflict, msg));
        }
        Ok(cli)
    }
}

/// Options accepted before or after any command.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// Read the config from FILE instead of config.toml in the config folder.
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Keep every file (config, kitchen, sessions, logs) under DIR [env: ALFRED_HOME].
    // ALFRED_HOME is read in `start` rather than by clap, so an empty value
    // counts as unset and tests can inject it.
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Which brain answers: offline (rules, no network), openai (the API), or auto (openai when its key is set).
    #[arg(long, global = true, value_name = "BACKEND", value_parser = backend_parser())]
    pub llm: Option<Backend>,
    /// Use model NAME for every pipeline node (overrides [llm.models]).
    #[arg(long, global = true, value_name = "NAME")]
    pub model: Option<String>,
    /// Root URL of the OpenAI-compatible API, e.g. http://localhost:11434/v1.
    #[arg(long, global = true, value_name = "URL")]
    pub base_url: Option<String>,
}

impl GlobalArgs {
    /// The flags that override config values (the last layer).
    pub fn overrides(&self) -> Overrides {
        Overrides {
            backend: self.llm,
            model: self.model.clone(),
            base_url: self.base_url.clone(),
        }
    }
}

/// `--new` or `--session ID`; neither means the most recent session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
#[group(multiple = false)]
pub struct SessionChoice {
    /// Start a new session.
    #[arg(long)]
    pub new: bool,
    /// Open the session ID (see `alfred sessions list`).
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
}

/// The commands; each one's doc comment is its help text.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum Command {
    /// Run turns without the UI and print the replies (headless)
    Run(RunArgs),
    /// List, show, export, rename or remove saved sessions
    #[command(subcommand)]
    Sessions(SessionsCommand),
    /// Score context policies on scripted scenarios
    Eval(EvalArgs),
    /// Open the UI on a new session that types a demo script's messages
    Demo(DemoArgs),
    /// Inspect or re-seed the kitchen store (recipes, inventory, plans)
    #[command(subcommand)]
    Kitchen(KitchenCommand),
    /// Check config, paths, the kitchen store and LLM reachability
    Doctor,
}

/// `alfred run`: headless turns.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct RunArgs {
    /// Which session the turns belong to.
    #[command(flatten)]
    pub session: SessionChoice,
    /// A message to send; repeat for several turns, in order.
    #[arg(
        short = 'm',
        long = "message",
        value_name = "MSG",
        conflicts_with = "script"
    )]
    #[arg(required_unless_present = "script")]
    pub messages: Vec<String>,
    /// Send each non-empty line of FILE as one turn.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Print one turn record (JSON) per line instead of the replies.
    #[arg(long)]
    pub json: bool,
}

/// `alfred sessions …`.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum SessionsCommand {
    /// List saved sessions, most recent first
    List {
        /// Only sessions whose name or messages contain WORD.
        #[arg(long, value_name = "WORD")]
        grep: Option<String>,
    },
    /// Print a session's turns
    Show {
        /// The session (see `alfred sessions list`).
        id: String,
    },
    /// Write a session to stdout as Markdown or JSON
    Export {
        /// The session.
        id: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ExportFormat::Md)]
        format: ExportFormat,
    },
    /// Give a session a name
    Rename {
        /// The session.
        id: String,
        /// Its new name.
        name: String,
    },
    /// Delete a session (asks first)
    Rm {
        /// The session.
        id: String,
        /// Do not ask for confirmation.
        #[arg(long)]
        yes: bool,
    },
}

impl SessionsCommand {
    /// The subcommand's name, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            SessionsCommand::List { .. } => "list",
            SessionsCommand::Show { .. } => "show",
            SessionsCommand::Export { .. } => "export",
            SessionsCommand::Rename { .. } => "rename",
            SessionsCommand::Rm { .. } => "rm",
        }
    }
}

/// How `alfred sessions export` writes a session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// Markdown transcript.
    #[default]
    Md,
    /// The session's turn records as JSON.
    Json,
}

/// `alfred eval`: the evaluation arena.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct EvalArgs {
    /// Scenarios to run (all when none are named).
    #[arg(value_name = "SCENARIO")]
    pub scenarios: Vec<String>,
    /// Compare these retention windows, e.g. --window 1,2,4.
    #[arg(long, value_name = "N,N,...", value_delimiter = ',')]
    pub window: Vec<u32>,
    /// Also ask an LLM to judge the replies (needs the openai backend).
    #[arg(long)]
    pub llm_judge: bool,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `alfred demo`: a scripted session in the UI.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct DemoArgs {
    /// A built-in demo name or a script file (default: the canonical meal-planning demo).
    #[arg(value_name = "SCRIPT")]
    pub script: Option<String>,
    /// Send the next message every SECS seconds instead of waiting for Space.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub auto: Option<u64>,
}

/// `alfred kitchen …`.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum KitchenCommand {
    /// Count what the kitchen store holds, table by table
    Stats,
    /// Wipe the kitchen store and re-seed the sample kitchen (asks first)
    Reset {
        /// Do not ask for confirmation.
        #[arg(long)]
        yes: bool,
    },
}

impl KitchenCommand {
    /// The subcommand's name, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            KitchenCommand::Stats => "stats",
            KitchenCommand::Reset { .. } => "reset",
        }
    }
}

/// `--llm` accepts exactly the config spellings and lists them in the help.
fn backend_parser() -> impl TypedValueParser<Value = Backend> {
    PossibleValuesParser::new(Backend::NAMES).try_map(|s| s.parse::<Backend>())
}

/// How a command ended when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Finished: exit 0.
    Done,
    /// The command exists but is not built yet: exit 2.
    NotBuilt,
}

impl From<Outcome> for ExitCode {
    fn from(outcome: Outcome) -> Self {
        match outcome {
            Outcome::Done => ExitCode::SUCCESS,
            Outcome::NotBuilt => ExitCode::from(2),
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
///
/// One arm per command: later work replaces each `not_built` with the real thing.
pub fn dispatch(cli: Cli, env: impl Fn(&str) -> Option<String>) -> Result<Outcome, CliError> {
    let startup = start(&cli.global, &env)?;
    let outcome = match &cli.command {
        None if cli.session.new => not_built("--new", "the terminal UI"),
        None if cli.session.session.is_some() => not_built("--session", "the terminal UI"),
        None => not_built("", "the terminal UI"),
        Some(Command::Run(_)) => not_built("run", "the turn pipeline"),
        Some(Command::Sessions(cmd)) => {
            not_built(&format!("sessions {}", cmd.name()), "session files")
        }
        Some(Command::Eval(_)) => not_built("eval", "the evaluation arena"),
        Some(Command::Demo(_)) => not_built("demo", "the terminal UI"),
        Some(Command::Kitchen(cmd)) => {
            not_built(&format!("kitchen {}", cmd.name()), "the kitchen store")
        }
        Some(Command::Doctor) => not_built("doctor", "the LLM backend"),
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
    let config = Config::resolve(&paths, global.config.is_some(), env, &global.overrides())?;
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

/// Prints `alfred <what> is not built yet (<comes_with>).` on stderr; exit code 2.
pub fn not_built(what: &str, comes_with: &str) -> Outcome {
    let command = if what.is_empty() {
        "alfred".to_string()
    } else {
        format!("alfred {what}")
    };
    tracing::warn!(command, "not built yet");
    eprintln!("{command} is not built yet ({comes_with}).");
    Outcome::NotBuilt
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

#[cfg(test)]
mod tests {
    use super::*;

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
