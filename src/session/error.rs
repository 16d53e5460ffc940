//! `SessionError`: every way a session can fail to open, load or save, in
//! words a user can act on.
//!
//! Owns the messages only; the code that fails builds the variants. Every IO
//! error names the file and what alfred was doing, and says what to try.

use std::io;
use std::path::PathBuf;

/// Why a session operation failed.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// No session has this id (or no id starts with this prefix).
    #[error("no session \"{id}\"; `alfred sessions list` shows them")]
    NotFound {
        /// The id or prefix as given.
        id: String,
    },
    /// A prefix matches more than one session.
    #[error(
        "\"{prefix}\" matches {} sessions ({}); give more of the id",
        matches.len(),
        matches.join(", ")
    )]
    Ambiguous {
        /// The prefix as given.
        prefix: String,
        /// The ids it matches (at most a few are kept).
        matches: Vec<String>,
    },
    /// Another process has the session open.
    #[error(
        "session {id} is open in another alfred ({}); close that one or wait for it \
         to finish, or start a fresh session with --new",
        pid.map_or("pid unknown".to_string(), |p| format!("pid {p}"))
    )]
    Locked {
        /// The session.
        id: String,
        /// The holder's pid, as it wrote it into the lock file.
        pid: Option<u32>,
    },
    /// The persist actor was asked to save a session whose lock it does not hold.
    #[error(
        "not saving session {id}: this alfred does not hold its lock, so another \
         process may be writing it; open the session (which takes the lock) before saving"
    )]
    NotLocked {
        /// The session.
        id: String,
    },
    /// The file was written by a newer alfred; it is left untouched.
    #[error(
        "{} was written by a newer alfred (schema version {found}; this alfred reads \
         up to {known}); upgrade alfred to open it",
        path.display()
    )]
    NewerSchema {
        /// The session file.
        path: PathBuf,
        /// Its schema version.
        found: u32,
        /// The newest version this build knows.
        known: u32,
    },
    /// The file could not be understood; it was moved aside (when `moved_to` is set).
    #[error("{} is unreadable ({reason}){}", path.display(), moved_note(moved_to))]
    Corrupt {
        /// The session file as found.
        path: PathBuf,
        /// What is wrong: serde's message with line and column, "empty file", "not UTF-8".
        reason: String,
        /// Where it was moved, so nothing is lost.
        moved_to: Option<PathBuf>,
    },
    /// A file operation failed.
    #[error("cannot {action} {}: {source}; {}", path.display(), hint(source))]
    Io {
        /// What alfred was doing, as a verb phrase ("write", "read", "lock").
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: io::Error,
    },
    /// The session could not be turned into JSON (a bug: every field is plain data).
    #[error("cannot encode session {id} as JSON: {source}")]
    Encode {
        /// The session.
        id: String,
        /// What serde said.
        #[source]
        source: serde_json::Error,
    },
    /// The id cannot name a file in the sessions folder.
    #[error("\"{id}\" is not a session id (letters, digits, '-' and '_' only)")]
    InvalidId {
        /// The id as given.
        id: String,
    },
    /// Saves failed and the newest state of these sessions is only in memory.
    #[error("not saved: {}", unsaved.iter().map(|(id, e)| format!("session {id}: {e}")).collect::<Vec<_>>().join("; "))]
    NotSaved {
        /// Each session whose latest save failed, with the error.
        unsaved: Vec<(String, String)>,
    },
    /// The persist actor is gone (its task ended or panicked).
    #[error("the session saver has stopped, so recent changes may not be on disk")]
    PersistStopped,
}

impl SessionError {
    /// An IO error with the file and what was being done.
    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        SessionError::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

/// What the user can do about an IO error, by kind.
fn hint(err: &io::Error) -> &'static str {
    match err.kind() {
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
            "the disk is full: free some space (the session is kept in memory and the next save retries)"
        }
        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => {
            "check the folder's permissions, or choose another folder with --data-dir DIR"
        }
        io::ErrorKind::NotFound => {
            "the sessions folder may have been moved or deleted; restart alfred to recreate it"
        }
        _ => "check the disk and the folder, then try again",
    }
}

fn moved_note(moved_to: &Option<PathBuf>) -> String {
    match moved_to {
        Some(p) => format!("; moved aside to {}", p.display()),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_say_what_to_do() {
        let e = SessionError::NotFound { id: "x".into() };
        assert_eq!(
            e.to_string(),
            "no session \"x\"; `alfred sessions list` shows them"
        );
        let e = SessionError::Locked {
            id: "s".into(),
            pid: Some(42),
        };
        assert!(e.to_string().contains("pid 42"), "{e}");
        assert!(e.to_string().contains("--new"), "{e}");
        let full = io::Error::from(io::ErrorKind::StorageFull);
        let e = SessionError::io("write", "/d/s.json", full);
        assert!(e.to_string().contains("disk is full"), "{e}");
        let e = SessionError::NewerSchema {
            path: "/d/s.json".into(),
            found: 9,
            known: 2,
        };
        assert!(e.to_string().contains("newer alfred"), "{e}");
        assert!(e.to_string().contains("upgrade"), "{e}");
    }
}
