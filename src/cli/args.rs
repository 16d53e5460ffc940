//! The command surface (DESIGN.md, "Command line"): clap types only.
//!
//! What the user can type, with its help text. No behaviour lives here; the
//! dispatch in the parent module maps each command to the module that owns it.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::config::{Backend, Overrides};

/// Environment variable that works like `--data-dir` (the flag wins).
pub const ENV_HOME: &str = "ALFRED_HOME";

const AFTER_HELP: &str = "\
Examples:
  alfred                               reopen the session you were last in
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
/// With no command, alfred opens the terminal UI on the session you were
/// last in (else the most recently written one; a new one if there is none).
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
    /// Use the kitchen in a Postgres database with Alfred's schema instead of kitchen.db: postgres://USER@HOST/DB.
    #[arg(long, global = true, value_name = "URL")]
    pub store: Option<String>,
    /// The Alfred user (a uuid) whose rows --store reads and writes.
    #[arg(long, global = true, value_name = "UUID")]
    pub user: Option<String>,
    /// Send each turn as an OpenTelemetry trace to this collector (OTLP/HTTP), e.g. http://localhost:6006 for Phoenix.
    #[arg(long, global = true, value_name = "URL")]
    pub otlp: Option<String>,
}

impl GlobalArgs {
    /// The flags that override config values (the last layer).
    pub fn overrides(&self) -> Overrides {
        Overrides {
            backend: self.llm,
            model: self.model.clone(),
            base_url: self.base_url.clone(),
            store: self.store.clone(),
            user: self.user.clone(),
            otlp: self.otlp.clone(),
        }
    }
}

/// `--new` or `--session ID`; neither means the session last open in the
/// terminal UI, else the most recently written one.
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
    /// List, show, export, rename, remove or import saved sessions
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
    /// Follow the real Alfred app live: the UI, read-only, on the conversations row of --store's --user; each state the app commits becomes a turn of a new local session
    Watch,
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
    /// Send each line of FILE as one turn (blank lines and `#` comments are skipped).
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
    /// Write a session to stdout as Markdown or JSON, or send its turns to an OpenTelemetry collector (--format otlp)
    Export {
        /// The session.
        id: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ExportFormat::Md)]
        format: ExportFormat,
        /// With --format otlp: the collector (else [telemetry] otlp_endpoint), e.g. http://localhost:6006.
        #[arg(long, value_name = "URL")]
        to: Option<String>,
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
    /// Make a session of Alfred's saved conversation: from a file, or (without --alfred-state) from the `conversations` row of --store's --user
    Import {
        /// A JSON file holding Alfred's state (a `conversations.state` value, or a whole row).
        #[arg(long, value_name = "FILE")]
        alfred_state: Option<PathBuf>,
        /// The session's name (default: "Alfred state <file name>").
        #[arg(long, value_name = "NAME")]
        title: Option<String>,
        /// A folder of Alfred's prompt logs (`prompt_logs/<run>/`, written with ALFRED_LOG_PROMPTS=1): the logged turn that quotes Alfred's last message becomes that turn's prompts. With --store, the user's `prompt_logs` rows are read without it.
        #[arg(long, value_name = "DIR")]
        prompt_logs: Option<PathBuf>,
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
            SessionsCommand::Import { .. } => "import",
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
    /// Each turn as an OpenTelemetry trace, sent over OTLP/HTTP (--to URL).
    Otlp,
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
    /// Also compare this variation of the config's [context], as key=value
    /// pairs, e.g. --policy "policy=tiered tiered.hot_turns=1" (repeatable).
    #[arg(long = "policy", value_name = "KEY=VALUE ...")]
    pub policies: Vec<String>,
    /// Also ask the [llm] model to judge recall, beside the rule-based judge
    /// (needs its API key variable set, as for --llm openai).
    #[arg(long)]
    pub llm_judge: bool,
    /// The price of a cached prompt token against a new one, for the cost
    /// column (default 0.1).
    #[arg(long, value_name = "RATIO", default_value_t)]
    pub cached_price: crate::eval::cache::CachedPrice,
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
    /// Create the kitchen: kitchen.db, or with --store Alfred's schema in an empty Postgres database, seeded with the sample kitchen for --user
    Init,
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
            KitchenCommand::Init => "init",
            KitchenCommand::Reset { .. } => "reset",
        }
    }
}

/// `--llm` accepts exactly the config spellings and lists them in the help.
fn backend_parser() -> impl TypedValueParser<Value = Backend> {
    PossibleValuesParser::new(Backend::NAMES).try_map(|s| s.parse::<Backend>())
}
