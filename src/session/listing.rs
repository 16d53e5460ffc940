//! Listing the sessions folder: summaries newest first, and honest problems.
//!
//! Owns what a listing shows ([`SessionSummary`], [`SessionProblem`],
//! [`ListReport`]) and the folder scan behind it, including the cleanup of
//! temp files a crash left behind. Reads one file at a time and keeps only its
//! header and turn count, never a transcript. Unreadable files are handed to
//! the store's refusal, which moves them aside.

use std::fmt;
use std::path::{Path, PathBuf};

use jiff::Timestamp;

use super::error::SessionError;
use super::file::id_of;
use super::journal::decode_header;
use super::llm::LlmSettings;
use super::store::SessionStore;

/// Temp files older than this are leftovers of a crash.
const STALE_TEMP_SECS: i64 = 3600;

/// One session in a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSummary {
    pub id: String,
    /// Empty when the session has no message yet.
    pub title: String,
    /// Turns completed: recorded as ok and settled.
    pub turns: usize,
    /// Attempts that failed or were cancelled (recorded, not counted in
    /// `turns`).
    pub failed: usize,
    /// The last turn is recorded but not settled yet (its kitchen commit
    /// unconfirmed); it is not counted in `turns`.
    pub pending: bool,
    pub created_at: String,
    pub updated_at: String,
    pub llm: LlmSettings,
    pub path: PathBuf,
}

/// A file in the folder that could not be listed or loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionProblem {
    pub path: PathBuf,
    pub reason: String,
    /// Where the file was moved aside to, if it was.
    pub moved_to: Option<PathBuf>,
}

impl SessionProblem {
    /// The problem an error of reading a session file is: a corrupt file
    /// (moved aside or not) or one written by a newer alfred. Any other
    /// error is given back.
    pub fn of_unreadable(e: SessionError) -> Result<SessionProblem, SessionError> {
        match e {
            SessionError::Corrupt {
                path,
                reason,
                moved_to,
            } => Ok(SessionProblem {
                path,
                reason,
                moved_to,
            }),
            SessionError::NewerSchema { path, found, known } => Ok(SessionProblem {
                path,
                reason: format!(
                    "written by a newer alfred (schema version {found}; this alfred reads up \
                     to {known}); upgrade alfred to open it"
                ),
                moved_to: None,
            }),
            other => Err(other),
        }
    }
}

impl fmt::Display for SessionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)?;
        match &self.moved_to {
            Some(to) => write!(f, "; moved aside to {}", to.display()),
            None => Ok(()),
        }
    }
}

/// The sessions, newest first, and the files that could not be read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListReport {
    pub sessions: Vec<SessionSummary>,
    pub problems: Vec<SessionProblem>,
}

impl SessionStore {
    /// Every session, newest first by `updated_at`, and every problem.
    ///
    /// Reads one file at a time and keeps only its header and turn count.
    /// Listing checks each file's JSON syntax and header; the rest of a file
    /// is checked when it is loaded.
    pub fn list(&self) -> ListReport {
        let mut report = ListReport::default();
        for path in self.session_paths(&mut report.problems) {
            match self.read_summary(&path) {
                Ok((summary, _)) => report.sessions.push(summary),
                Err(problem) => report.problems.push(problem),
            }
        }
        report.sessions.sort_by(newest_first);
        report
    }

    /// The newest session that lists cleanly; problems go to the log.
    pub fn most_recent(&self) -> Option<SessionSummary> {
        let report = self.list();
        for p in &report.problems {
            tracing::warn!(problem = %p, "session file skipped");
        }
        report.sessions.into_iter().next()
    }

    /// The `<id>.json` files of the folder; cleans stale temp files on the way.
    pub(super) fn session_paths(&self, problems: &mut Vec<SessionProblem>) -> Vec<PathBuf> {
        let entries = match std::fs::read_dir(self.dir()) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
            Err(e) => {
                problems.push(SessionProblem {
                    path: self.dir().to_path_buf(),
                    reason: format!("cannot read the sessions folder: {e}"),
                    moved_to: None,
                });
                return Vec::new();
            }
        };
        let mut paths = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(".tmp") {
                self.clean_if_stale(&path);
            } else if id_of(&path).is_some() {
                paths.push(path);
            }
        }
        paths.sort();
        paths
    }

    /// The summary of one file and the bytes it was read from, or why there
    /// is none.
    pub(super) fn read_summary(
        &self,
        path: &Path,
    ) -> Result<(SessionSummary, Vec<u8>), SessionProblem> {
        let id = id_of(path).unwrap_or_default();
        let bytes = std::fs::read(path).map_err(|e| SessionProblem {
            path: path.to_path_buf(),
            reason: format!("cannot read: {e}"),
            moved_to: None,
        })?;
        let h = decode_header(&bytes).map_err(|why| {
            SessionProblem::of_unreadable(self.refuse(path, why)).unwrap_or_else(|other| {
                SessionProblem {
                    path: path.to_path_buf(),
                    reason: other.to_string(),
                    moved_to: None,
                }
            })
        })?;
        let summary = SessionSummary {
            id,
            title: h.title,
            turns: h.turns,
            failed: h.failed,
            pending: h.pending,
            created_at: h.created_at,
            updated_at: h.updated_at,
            llm: h.llm,
            path: path.to_path_buf(),
        };
        Ok((summary, bytes))
    }

    /// Removes a temp file a crash left behind, once it is an hour old.
    fn clean_if_stale(&self, path: &Path) {
        let modified = std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| Timestamp::try_from(t).ok());
        if let Some(modified) = modified
            && self.now().as_second() - modified.as_second() > STALE_TEMP_SECS
        {
            match std::fs::remove_file(path) {
                Ok(()) => {
                    tracing::info!(file = %path.display(), "removed a temp file left by a crash")
                }
                Err(e) => {
                    tracing::debug!(file = %path.display(), error = %e, "could not remove a stale temp file")
                }
            }
        }
    }
}

/// Listing order: newest `updated_at` first, then id, descending.
pub(super) fn newest_first(a: &SessionSummary, b: &SessionSummary) -> std::cmp::Ordering {
    let time = |s: &SessionSummary| s.updated_at.parse::<Timestamp>().ok();
    (time(b), &b.id).cmp(&(time(a), &a.id))
}
