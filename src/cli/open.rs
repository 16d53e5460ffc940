//! What the TUI and `alfred run` share before the first turn: the brain, the
//! kitchen, and the session (new, given, or the most recent), locked for
//! this process.

use std::sync::{Arc, Mutex};

use crate::brain;
use crate::config::Config;
use crate::kitchen::Kitchen;
use crate::paths::Paths;
use crate::pipeline::{Brain, SystemPrompts, TurnSettings};
use crate::session::lock::SessionLock;
use crate::session::{LlmSettings, SessionError, SessionFile, SessionStore};

use super::{CliError, SessionChoice, Startup};

/// The session a command works on, with its lock.
pub struct Opened {
    pub session: SessionFile,
    pub lock: SessionLock,
    /// True when the session was created now.
    pub created: bool,
    /// The message of a turn a crash cut before it was saved (dropped from
    /// the session, nothing of it in the kitchen): to offer again.
    pub unsent: Option<String>,
}

/// Opens the session the user chose: `--new`, `--session ID` (or a unique
/// prefix), else the one the terminal UI last had open, else the most
/// recently written one, else a new one. The config's
/// `[context]` policy applies to a resumed session too.
///
/// A turn a crash left pending is settled against the kitchen (`kitchen`
/// says whether its writes landed) before anything reads the session.
pub fn open_session(
    store: &SessionStore,
    choice: &SessionChoice,
    llm: &LlmSettings,
    config: &Config,
    kitchen: &Mutex<Kitchen>,
) -> Result<Opened, SessionError> {
    let existing = if choice.new {
        None
    } else if let Some(id) = &choice.session {
        Some(store.resolve(id)?)
    } else {
        store
            .last_opened()
            .or_else(|| store.most_recent().map(|s| s.id))
    };
    match existing {
        Some(id) => {
            let landed = |commit: &str| {
                let known = crate::pipeline::support::lock(kitchen)
                    .has_commit(commit)
                    .map_err(|e| e.to_string())?;
                // A Postgres kitchen without alfred_turn_commits cannot
                // tell: the turn is kept as it was saved.
                Ok(known.unwrap_or_else(|| {
                    tracing::warn!(%commit, "the kitchen keeps no commit stamps; keeping the last turn as saved");
                    true
                }))
            };
            let (mut session, lock, unsent) = store.open_settled(&id, &landed)?;
            if session.context.policy != config.context {
                tracing::info!(session = %id, "applying the config's [context] policy to the resumed session");
                session.context.set_policy(config.context.clone());
            }
            Ok(Opened {
                session,
                lock,
                created: false,
                unsent,
            })
        }
        None => {
            let (session, lock) =
                store.create(jiff::Timestamp::now(), llm.clone(), config.context.clone())?;
            Ok(Opened {
                session,
                lock,
                created: true,
                unsent: None,
            })
        }
    }
}

/// The brain, the kitchen and the turn settings for a command that runs turns.
pub struct Engine {
    pub brain: Arc<dyn Brain>,
    pub kitchen: Arc<Mutex<Kitchen>>,
    pub settings: Arc<TurnSettings>,
    pub llm: LlmSettings,
}

/// Chooses the brain, opens (and first-run seeds) the kitchen, loads the
/// prompt templates (with the user's overrides).
pub fn engine(
    startup: &Startup,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<Engine, CliError> {
    let config = &startup.config;
    // Load the tokenizer now, off this thread, so the first turn does not wait for it.
    std::thread::spawn(|| crate::prompt::count_tokens("warm up"));
    let brain = brain::select(config, env).map_err(|e| CliError::Unavailable(e.to_string()))?;
    let kitchen = super::kitchen::open_kitchen(&startup.paths, config)?;
    let settings = turn_settings(startup);
    let llm = LlmSettings::from_config(&config.llm, config.resolved_backend(env));
    Ok(Engine {
        brain,
        kitchen: Arc::new(Mutex::new(kitchen)),
        settings: Arc::new(settings),
        llm,
    })
}

/// The pipeline's limits and prompt templates (with the user's overrides;
/// problems with an override are warned about on stderr).
pub fn turn_settings(startup: &Startup) -> TurnSettings {
    let (prompts, used, warnings) = SystemPrompts::load(&startup.paths.prompts_dir);
    for path in used {
        tracing::info!(path, "prompt template overridden");
    }
    for w in warnings {
        eprintln!("warning: {w}");
    }
    TurnSettings {
        max_steps: startup.config.pipeline.max_steps as usize,
        max_tool_calls_per_step: startup.config.pipeline.max_tool_calls_per_step as usize,
        prompts,
    }
}

/// The multi-thread runtime a command's turns run on.
pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Unavailable(format!("cannot start the async runtime: {e}")))
}

/// The session store of these paths.
pub fn store(paths: &Paths) -> SessionStore {
    SessionStore::new(paths.sessions_dir.clone())
}
