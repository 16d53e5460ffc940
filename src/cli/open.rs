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
use crate::session::{LlmSettings, SessionError, SessionFile, SessionProblem, SessionStore};

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
    /// Files passed over while choosing the most recent session, because
    /// they could not be read: to tell the user (see [`passed_over_note`]).
    pub passed_over: Vec<SessionProblem>,
}

/// Opens the session the user chose: `--new`, `--session ID` (or a unique
/// prefix), else the one the terminal UI last had open, else the most
/// recently written one that can be read, else a new one. The config's
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
    let (resumed, passed_over) = if choice.new {
        (None, Vec::new())
    } else if let Some(id) = &choice.session {
        let id = store.resolve(id)?;
        (Some(store.open_settled(&id, &landed)?), Vec::new())
    } else {
        let recent = store.open_recent(&landed)?;
        (recent.opened, recent.passed_over)
    };
    match resumed {
        Some((mut session, lock, unsent)) => {
            if session.context.policy != config.context {
                tracing::info!(session = %session.id, "applying the config's [context] policy to the resumed session");
                session.context.set_policy(config.context.clone());
            }
            Ok(Opened {
                session,
                lock,
                created: false,
                unsent,
                passed_over,
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
                passed_over,
            })
        }
    }
}

/// What to tell the user about session files passed over while choosing
/// the most recent one: the first file by name, why, where it is now and
/// what to do, and which session was opened instead. `None` when none was.
pub fn passed_over_note(problems: &[SessionProblem], created: bool) -> Option<String> {
    let first = problems.first()?;
    let name = |p: &std::path::Path| {
        p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let kept = match &first.moved_to {
        Some(to) => format!(
            "it is kept, unchanged, as {} in the sessions folder, to look at or remove",
            name(to)
        ),
        None => "it is left as it is".to_string(),
    };
    let more = match problems.len() {
        1 => String::new(),
        n => format!(" ({} more, named in the log)", n - 1),
    };
    let instead = if created {
        "this is a new session"
    } else {
        "this is the most recent one that opens"
    };
    Some(format!(
        "Could not open session file {}: {}; {kept}{more}. {}.",
        name(&first.path),
        first.reason,
        capitalized(instead)
    ))
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The brain, the kitchen and the turn settings for a command that runs turns.
pub struct Engine {
    pub brain: Arc<dyn Brain>,
    pub kitchen: Arc<Mutex<Kitchen>>,
    pub settings: Arc<TurnSettings>,
    pub llm: LlmSettings,
    /// The trace exporter, when `[telemetry]` names a collector.
    pub telemetry: Option<Arc<crate::telemetry::Telemetry>>,
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
        telemetry: telemetry(config)?,
    })
}

/// The trace exporter `[telemetry]` asks for (none when it names no
/// collector).
pub fn telemetry(
    config: &crate::config::Config,
) -> Result<Option<Arc<crate::telemetry::Telemetry>>, CliError> {
    let Some(endpoint) = config.telemetry.endpoint().map(str::to_string) else {
        return Ok(None);
    };
    let capture = crate::telemetry::spans::Capture {
        content: config.telemetry.capture_content,
    };
    let telemetry = crate::telemetry::Telemetry::new(&endpoint, capture)
        .map_err(|e| CliError::Unavailable(e.to_string()))?;
    tracing::info!(url = telemetry.url(), "turns are sent as traces");
    Ok(Some(Arc::new(telemetry)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn problem(name: &str, reason: &str, moved_to: Option<&str>) -> SessionProblem {
        let dir = PathBuf::from("/home/u/.local/share/alfred/sessions");
        SessionProblem {
            path: dir.join(name),
            reason: reason.into(),
            moved_to: moved_to.map(|m| dir.join(m)),
        }
    }

    #[test]
    fn the_note_names_the_file_the_reason_and_what_to_do() {
        assert_eq!(passed_over_note(&[], true), None);
        let corrupt = problem(
            "20261122-143005-7f3a.json",
            "line 3: expected value at line 1 column 1",
            Some("20261122-143005-7f3a.json.corrupt-20261123T080000Z"),
        );
        assert_eq!(
            passed_over_note(std::slice::from_ref(&corrupt), true).expect("a note"),
            "Could not open session file 20261122-143005-7f3a.json: line 3: expected value at \
             line 1 column 1; it is kept, unchanged, as \
             20261122-143005-7f3a.json.corrupt-20261123T080000Z in the sessions folder, to \
             look at or remove. This is a new session."
        );
        let newer = problem(
            "20261124-090000-0001.json",
            "written by a newer alfred (schema version 6; this alfred reads up to 5); upgrade \
             alfred to open it",
            None,
        );
        let note = passed_over_note(&[newer, corrupt], false).expect("a note");
        assert!(
            note.contains(
                "upgrade alfred to open it; it is left as it is (1 more, named in the log)."
            ),
            "{note}"
        );
        assert!(
            note.ends_with("This is the most recent one that opens."),
            "{note}"
        );
    }
}
