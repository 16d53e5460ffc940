//! `SessionStore`: forgiving, honest reading of the sessions folder.
//!
//! Owns loading, resolving ids (a unique prefix will do), opening (lock,
//! then load), creating, renaming and removing sessions, and the refusal of
//! bad files (listing is in `listing`, search in `grep`). A file that cannot
//! be read is reported by name with the reason and moved aside to
//! `<name>.corrupt-<UTC time>`, never deleted or overwritten; the other
//! sessions still list and open. A file written by a newer alfred is refused
//! and left where it is.
//!
//! Must not write a session that another process holds the lock of. Saves during a
//! chat go through the persist actor; only the CLI's rename and import write
//! from here.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jiff::Timestamp;

use super::atomic::{move_aside, sync_dir};
use super::error::SessionError;
use super::file::id_of;
use super::file::{SessionFile, is_valid_id, new_id};
use super::journal::{Journal, decode_pending};
use super::llm::LlmSettings;
use super::lock::SessionLock;
use super::unreadable::Unreadable;
use crate::context::ContextPolicy;

/// The file in the sessions folder that names the session the terminal UI
/// last had open.
const LAST_OPENED: &str = "last-opened";

/// The clock used for housekeeping names and ages (never for session times).
pub type Clock = Arc<dyn Fn() -> Timestamp + Send + Sync>;

/// The sessions folder.
#[derive(Clone)]
pub struct SessionStore {
    dir: PathBuf,
    clock: Clock,
}

impl fmt::Debug for SessionStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionStore")
            .field("dir", &self.dir)
            .finish()
    }
}

impl SessionStore {
    /// The store of `sessions_dir` (`Paths::sessions_dir`), on the system clock.
    pub fn new(sessions_dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: sessions_dir.into(),
            clock: Arc::new(Timestamp::now),
        }
    }

    /// The same store with another clock (tests).
    pub fn with_clock(mut self, clock: impl Fn() -> Timestamp + Send + Sync + 'static) -> Self {
        self.clock = Arc::new(clock);
        self
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The housekeeping clock's time.
    pub(super) fn now(&self) -> Timestamp {
        (self.clock)()
    }

    /// Notes the session the terminal UI has open, so that a plain `alfred`
    /// reopens it (not whichever session was written last).
    pub fn mark_opened(&self, id: &str) -> Result<(), SessionError> {
        super::atomic::write_atomic(&self.dir.join(LAST_OPENED), id.as_bytes())
    }

    /// The session the terminal UI last had open, when it still exists.
    pub fn last_opened(&self) -> Option<String> {
        let id = std::fs::read_to_string(self.dir.join(LAST_OPENED)).ok()?;
        let id = id.trim();
        (is_valid_id(id) && self.path_of(id).is_file()).then(|| id.to_string())
    }

    /// The file of session `id`.
    pub fn path_of(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    /// The full id of `id_or_prefix`: an exact id, or a prefix of exactly one.
    pub fn resolve(&self, id_or_prefix: &str) -> Result<String, SessionError> {
        let not_found = || SessionError::NotFound {
            id: id_or_prefix.to_string(),
        };
        if !is_valid_id(id_or_prefix) {
            return Err(not_found());
        }
        if self.path_of(id_or_prefix).is_file() {
            return Ok(id_or_prefix.to_string());
        }
        let mut matches: Vec<String> = self
            .session_paths(&mut Vec::new())
            .iter()
            .filter_map(|p| id_of(p))
            .filter(|id| id.starts_with(id_or_prefix))
            .collect();
        matches.sort();
        match matches.len() {
            0 => Err(not_found()),
            1 => Ok(matches.remove(0)),
            _ => Err(SessionError::Ambiguous {
                prefix: id_or_prefix.to_string(),
                matches: matches.into_iter().take(5).collect(),
            }),
        }
    }

    /// Loads session `id` (exact), migrating older files in memory. A broken
    /// file is moved aside and reported as [`SessionError::Corrupt`].
    pub fn load(&self, id: &str) -> Result<SessionFile, SessionError> {
        self.load_pending(id).map(|(session, _)| session)
    }

    /// [`load`](Self::load), with the commit of the last turn when it is
    /// pending: recorded, its kitchen commit not settled yet (a crash cut
    /// it, or another alfred is committing it now).
    pub fn load_pending(&self, id: &str) -> Result<(SessionFile, Option<String>), SessionError> {
        if !is_valid_id(id) {
            return Err(SessionError::NotFound { id: id.to_string() });
        }
        let path = self.path_of(id);
        let bytes = std::fs::read(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => SessionError::NotFound { id: id.to_string() },
            _ => SessionError::io("read", &path, e),
        })?;
        match decode_pending(&bytes) {
            Ok((mut session, pending)) => {
                if session.id != id {
                    tracing::warn!(file = %path.display(), inner = %session.id, "session id differs from its file name; using the file name");
                    session.id = id.to_string();
                }
                Ok((session, pending))
            }
            Err(why) => Err(self.refuse(&path, why)),
        }
    }

    /// Opens session `id` for a chat and settles a turn a crash left
    /// pending: `landed(commit)` asks the kitchen whether that turn's writes
    /// are there. If they are, the turn is kept (a `done` line); if not, it
    /// is dropped (a `void` line) and its message returned, so the caller
    /// can offer it again. Nothing else changes.
    pub fn open_settled(
        &self,
        id: &str,
        landed: &dyn Fn(&str) -> Result<bool, String>,
    ) -> Result<(SessionFile, SessionLock, Option<String>), SessionError> {
        let lock = self.lock(id)?;
        let (session, pending) = self
            .load_pending(id)
            .inspect_err(|e| self.forget_lock(&lock, e))?;
        let Some(commit) = pending else {
            return Ok((session, lock, None));
        };
        let path = self.path_of(id);
        let kept = landed(&commit).map_err(|e| {
            SessionError::io(
                "settle the last turn of",
                &path,
                std::io::Error::other(format!("the kitchen could not be asked: {e}")),
            )
        })?;
        tracing::info!(%id, %commit, kept, "settled a turn left pending by a crash");
        Journal::open(path, self.now())?.settle(&commit, kept)?;
        if kept {
            return Ok((session, lock, None));
        }
        let message = session.last_user_message().map(str::to_string);
        let session = self.load(id)?;
        Ok((session, lock, message))
    }

    /// Takes the lock of session `id` (see [`SessionLock`]).
    pub fn lock(&self, id: &str) -> Result<SessionLock, SessionError> {
        SessionLock::acquire(&self.dir, id)
    }

    /// Opens session `id` for a chat: takes its lock, then loads it.
    pub fn open(&self, id: &str) -> Result<(SessionFile, SessionLock), SessionError> {
        let lock = self.lock(id)?;
        let session = self.load(id).inspect_err(|e| self.forget_lock(&lock, e))?;
        Ok((session, lock))
    }

    /// Leaves no lock file behind for a session that does not exist.
    fn forget_lock(&self, lock: &SessionLock, e: &SessionError) {
        if matches!(e, SessionError::NotFound { .. }) {
            let _ = std::fs::remove_file(lock.path());
        }
    }

    /// Starts a new session at `now` under a fresh, unused id, locked. Nothing
    /// is written until the first save.
    pub fn create(
        &self,
        now: Timestamp,
        llm: LlmSettings,
        policy: ContextPolicy,
    ) -> Result<(SessionFile, SessionLock), SessionError> {
        // 16 random bits per second: a clash is rare, a run of them is not chance.
        for _ in 0..64 {
            let id = new_id(now);
            if self.path_of(&id).exists() || SessionLock::path_for(&self.dir, &id).exists() {
                continue;
            }
            let lock = self.lock(&id)?;
            return Ok((SessionFile::new(id, now, llm, policy), lock));
        }
        let clash = std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "every fresh id tried is taken",
        );
        Err(SessionError::io("create a session in", &self.dir, clash))
    }

    /// Writes a session made outside a chat (an import) under the lock
    /// `create` gave it, whole and atomically: its context, title and notes.
    pub fn write_new(&self, session: &SessionFile, lock: &SessionLock) -> Result<(), SessionError> {
        debug_assert_eq!(lock.id(), session.id);
        let path = self.path_of(&session.id);
        if path.exists() {
            let taken =
                std::io::Error::new(std::io::ErrorKind::AlreadyExists, "a session is there");
            return Err(SessionError::io("write a new session to", &path, taken));
        }
        Journal::open(path, self.now())?.sync(session)?;
        Ok(())
    }

    /// Renames session `id` under its lock and rewrites it atomically.
    pub fn rename(&self, id: &str, title: &str) -> Result<SessionFile, SessionError> {
        let (mut session, _lock) = self.open(id)?;
        session.set_title(title);
        Journal::open(self.path_of(id), self.now())?.sync(&session)?;
        Ok(session)
    }

    /// Deletes session `id` and its lock file, while holding the lock.
    pub fn remove(&self, id: &str) -> Result<(), SessionError> {
        self.remove_held(self.lock(id)?)
    }

    /// Deletes the session whose lock is `lock` (taken earlier, e.g. before
    /// asking the user), then its lock file, then releases the lock.
    pub fn remove_held(&self, lock: SessionLock) -> Result<(), SessionError> {
        let id = lock.id().to_string();
        let path = self.path_of(&id);
        let removed = std::fs::remove_file(&path);
        // The lock file goes too (a missing session needs none).
        let _ = std::fs::remove_file(lock.path());
        drop(lock);
        removed.map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => SessionError::NotFound { id: id.clone() },
            _ => SessionError::io("delete", &path, e),
        })?;
        sync_dir(&self.dir)
    }

    /// The error for an unusable file; a corrupt one is moved aside first.
    pub(super) fn refuse(&self, path: &Path, why: Unreadable) -> SessionError {
        match why {
            Unreadable::Newer(found) => SessionError::NewerSchema {
                path: path.to_path_buf(),
                found,
                // The journal's version: what this build writes, and
                // the newest it reads.
                known: super::journal::JOURNAL_VERSION,
            },
            Unreadable::Corrupt(reason) => {
                let moved_to = match move_aside(path, self.now()) {
                    Ok(to) => Some(to),
                    Err(e) => {
                        tracing::warn!(file = %path.display(), error = %e, "could not move an unreadable session aside");
                        None
                    }
                };
                tracing::warn!(file = %path.display(), %reason, moved_to = ?moved_to, "unreadable session file");
                SessionError::Corrupt {
                    path: path.to_path_buf(),
                    reason,
                    moved_to,
                }
            }
        }
    }
}
