//! The session a plain `alfred` resumes when none is named: the one the
//! terminal UI last had open, else the newest that lists cleanly.
//!
//! Owns that choice and what it passed over: every file that would have
//! been chosen, or that the listing met, but could not be read, with the
//! reason, so the caller can say so where the user looks. Such files are
//! handled as every unreadable file is (see [`super::store`]): a corrupt one
//! is moved aside whole, a newer one is left where it is. Must not decide
//! what the user is told; the CLI words it.

use super::error::SessionError;
use super::file::SessionFile;
use super::listing::SessionProblem;
use super::lock::SessionLock;
use super::store::SessionStore;

/// What [`SessionStore::open_recent`] found.
#[derive(Debug)]
pub struct Recent {
    /// The session, its lock and the message of a turn a crash dropped (as
    /// [`SessionStore::open_settled`] gives them); `None` when no session
    /// could be opened.
    pub opened: Option<(SessionFile, SessionLock, Option<String>)>,
    /// Files passed over because they could not be read, in the order met.
    pub passed_over: Vec<SessionProblem>,
}

impl SessionStore {
    /// Opens the session the terminal UI last had open, else the newest
    /// one that lists cleanly, settling a pending turn with `landed` (see
    /// [`SessionStore::open_settled`]). A candidate that cannot be read
    /// (corrupt, or written by a newer alfred) is passed over for the next.
    /// Any other error (the session is locked, a disk error) is returned.
    pub fn open_recent(
        &self,
        landed: &dyn Fn(&str) -> Result<bool, String>,
    ) -> Result<Recent, SessionError> {
        let mut passed_over: Vec<SessionProblem> = Vec::new();
        let mut tried: Vec<String> = Vec::new();
        loop {
            let candidate = match self.last_opened().filter(|id| !tried.contains(id)) {
                Some(id) => Some(id),
                None => {
                    let report = self.list();
                    for p in report.problems {
                        if !passed_over.iter().any(|q| q.path == p.path) {
                            passed_over.push(p);
                        }
                    }
                    let mut ids = report.sessions.into_iter().map(|s| s.id);
                    ids.find(|id| !tried.contains(id))
                }
            };
            let Some(id) = candidate else {
                return Ok(Recent {
                    opened: None,
                    passed_over,
                });
            };
            tried.push(id.clone());
            match self.open_settled(&id, landed) {
                Ok(opened) => {
                    return Ok(Recent {
                        opened: Some(opened),
                        passed_over,
                    });
                }
                Err(e) => match SessionProblem::of_unreadable(e) {
                    Ok(problem) => {
                        tracing::warn!(%problem, "session passed over");
                        passed_over.push(problem);
                    }
                    Err(e) => return Err(e),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::ContextPolicy;
    use crate::fixtures::session_store as store;
    use crate::session::LlmSettings;

    /// Writes a session of one turn, updated at `at`, and returns its id.
    fn session(store: &SessionStore, at: &str) -> String {
        let now: jiff::Timestamp = at.parse().expect("time");
        let (mut s, lock) = store
            .create(now, LlmSettings::default(), ContextPolicy::default())
            .expect("create");
        let record = crate::record::TurnRecord {
            turn: 1,
            user: "plan dinners".into(),
            ..Default::default()
        };
        s.push_turn(record, None, now);
        store.write_new(&s, &lock).expect("write");
        s.id
    }

    fn never_asked(_: &str) -> Result<bool, String> {
        Err("no pending turn here".into())
    }

    fn opened_id(recent: &Recent) -> Option<&str> {
        recent.opened.as_ref().map(|(s, ..)| s.id.as_str())
    }

    #[test]
    fn a_corrupt_newest_session_is_passed_over_and_named() {
        let tmp = tempfile::tempdir().expect("tmp");
        let store = store(tmp.path());
        let older = session(&store, "2026-11-20T10:00:00Z");
        let newer = session(&store, "2026-11-21T10:00:00Z");
        std::fs::write(store.path_of(&newer), "{\"k\":\"head").expect("break it");
        let recent = store.open_recent(&never_asked).expect("opens");
        assert_eq!(opened_id(&recent), Some(older.as_str()));
        let [problem] = &recent.passed_over[..] else {
            panic!("{:?}", recent.passed_over)
        };
        assert_eq!(problem.path, store.path_of(&newer));
        let moved = problem.moved_to.as_ref().expect("moved aside");
        assert_eq!(
            std::fs::read_to_string(moved).expect("kept"),
            "{\"k\":\"head",
            "kept as it was"
        );
    }

    #[test]
    fn a_last_opened_session_that_cannot_load_is_passed_over() {
        let tmp = tempfile::tempdir().expect("tmp");
        let store = store(tmp.path());
        let other = session(&store, "2026-11-20T10:00:00Z");
        let last = session(&store, "2026-11-19T10:00:00Z");
        store.mark_opened(&last).expect("mark");
        // The header lists; the turn line does not load.
        let path = store.path_of(&last);
        let text = std::fs::read_to_string(&path).expect("read");
        let header = text.lines().next().expect("header");
        let bad = "{\"k\":\"turn\",\"oops\":1}\n{\"k\":\"title\",\"title\":\"x\"}\n";
        std::fs::write(&path, format!("{header}\n{bad}")).expect("write");
        let recent = store.open_recent(&never_asked).expect("opens");
        assert_eq!(opened_id(&recent), Some(other.as_str()));
        assert_eq!(recent.passed_over.len(), 1, "{:?}", recent.passed_over);
        assert_eq!(recent.passed_over[0].path, path);
    }

    #[test]
    fn nothing_readable_opens_nothing_and_says_why() {
        let tmp = tempfile::tempdir().expect("tmp");
        let store = store(tmp.path());
        let only = session(&store, "2026-11-20T10:00:00Z");
        std::fs::write(store.path_of(&only), "").expect("empty it");
        let recent = store.open_recent(&never_asked).expect("no error");
        assert!(recent.opened.is_none());
        assert_eq!(recent.passed_over.len(), 1);
        assert_eq!(recent.passed_over[0].reason, "empty file");
        // An empty folder: nothing opened, nothing to say.
        let recent = store.open_recent(&never_asked).expect("no error");
        assert!(recent.opened.is_none() && recent.passed_over.is_empty());
    }
}
