//! What the arena runs: the built-in scenarios (embedded, so `alfred eval`
//! works from any folder), script files, and saved sessions (their user
//! messages, replayed).

use std::path::Path;

use crate::headless::script_messages;
use crate::session::journal::decode_session;
use crate::session::{SessionFile, SessionStore, Unreadable};

/// The scenarios shipped in `assets/scenarios/`, by name.
pub const BUILT_IN: [(&str, &str); 13] = [
    (
        "meal-planning",
        include_str!("../../assets/scenarios/meal-planning.txt"),
    ),
    (
        "topic-switch-and-return",
        include_str!("../../assets/scenarios/topic-switch-and-return.txt"),
    ),
    (
        "long-goal",
        include_str!("../../assets/scenarios/long-goal.txt"),
    ),
    (
        "recipe-iteration-topic-switch",
        include_str!("../../assets/scenarios/recipe-iteration-topic-switch.txt"),
    ),
    (
        "forget-and-start-fresh",
        include_str!("../../assets/scenarios/forget-and-start-fresh.txt"),
    ),
    (
        "generate-modify-save",
        include_str!("../../assets/scenarios/generate-modify-save.txt"),
    ),
    (
        "unsaved",
        include_str!("../../assets/scenarios/unsaved.txt"),
    ),
    (
        "pantry-add-recall",
        include_str!("../../assets/scenarios/pantry-add-recall.txt"),
    ),
    (
        "read-rerouting",
        include_str!("../../assets/scenarios/read-rerouting.txt"),
    ),
    (
        "not-understood",
        include_str!("../../assets/scenarios/not-understood.txt"),
    ),
    (
        "long-week",
        include_str!("../../assets/scenarios/long-week.txt"),
    ),
    (
        "busy-fortnight",
        include_str!("../../assets/scenarios/busy-fortnight.txt"),
    ),
    (
        "cold-recall",
        include_str!("../../assets/scenarios/cold-recall.txt"),
    ),
];

/// One conversation to replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// A built-in name, a file stem, or `session <id>`.
    pub name: String,
    pub messages: Vec<String>,
}

/// Every built-in scenario, in the order above.
pub fn built_in() -> Vec<Scenario> {
    BUILT_IN
        .iter()
        .map(|(name, text)| Scenario {
            name: name.to_string(),
            messages: script_messages(text),
        })
        .collect()
}

/// Resolves what the user named: a built-in name, a script file, a session
/// file (`.json`), or the id of a saved session. The error says which were
/// tried.
pub fn resolve(name: &str, sessions: &SessionStore) -> Result<Scenario, String> {
    let trimmed = name.trim_end_matches(".txt");
    if let Some((n, text)) = BUILT_IN.iter().find(|(n, _)| *n == trimmed) {
        return Ok(Scenario {
            name: n.to_string(),
            messages: script_messages(text),
        });
    }
    let path = Path::new(name);
    if path.is_file() {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| name.to_string());
        let messages = if bytes.first().is_some_and(|b| *b == b'{') {
            session_messages(&bytes)
                .map_err(|why| format!("{name} is not a usable session file: {why}"))?
        } else {
            script_messages(&String::from_utf8_lossy(&bytes))
        };
        return non_empty(Scenario {
            name: stem,
            messages,
        });
    }
    if let Ok(id) = sessions.resolve(name) {
        let session = sessions
            .load(&id)
            .map_err(|e| format!("session {id} cannot be replayed: {e}"))?;
        return non_empty(Scenario {
            name: format!("session {id}"),
            messages: user_messages(&session),
        });
    }
    let names: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
    Err(format!(
        "no scenario called \"{name}\": it is not a built-in ({}), a file, or a saved session's id",
        names.join(", ")
    ))
}

fn non_empty(s: Scenario) -> Result<Scenario, String> {
    if s.messages.is_empty() {
        Err(format!("{} has no message to replay", s.name))
    } else {
        Ok(s)
    }
}

/// The user messages of a session file's bytes (a file the user named:
/// read, never moved aside when broken).
fn session_messages(bytes: &[u8]) -> Result<Vec<String>, String> {
    let session = decode_session(bytes).map_err(|e| match e {
        Unreadable::Corrupt(why) => why,
        Unreadable::Newer(v) => format!("it was written by a newer alfred (schema {v})"),
    })?;
    Ok(user_messages(&session))
}

/// A session's user messages, in order (failed turns included: the user did
/// send them).
fn user_messages(session: &SessionFile) -> Vec<String> {
    session
        .transcript
        .iter()
        .map(|t| t.user.clone())
        .filter(|m| !m.trim().is_empty())
        .collect()
}
