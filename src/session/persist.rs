//! The persist actor: one task owns the sessions folder's writes and applies
//! saves in order, so the UI and the pipeline never wait on the disk.
//!
//! [`spawn_persist`] starts the task and returns a [`PersistHandle`] (cheap to
//! clone) and the receiver of [`PersistEvent`]s. `save` only queues; `flush`
//! waits until everything queued is on disk (call it on quit: "drained on
//! quit"). A session file is a [`Journal`]: a save appends what changed
//! since the last one (a new turn, a rename), on a blocking thread; the
//! first save of a new or older-format session writes it whole,
//! atomically. `append_turn` and `settle` are the turn runner's: they
//! answer once the line is on disk.
//!
//! The actor saves only sessions whose [`SessionLock`] it was handed
//! ([`PersistHandle::hold`]), so two processes can never write one session. A
//! failed save is reported and remembered; the session stays in the caller's
//! memory and the next save of it retries.
//!
//! Must not decide what a session contains, and must not be awaited by the UI
//! except through `flush` at the end.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};

use super::error::SessionError;
use super::file::{SessionFile, is_valid_id};
use super::journal::{AppendedTurn, Journal, SessionHead};
use super::lock::SessionLock;

/// What happened to a save; the UI shows failures ("save failed: disk full").
#[derive(Debug)]
pub enum PersistEvent {
    /// The session is on disk.
    Saved {
        id: String,
        /// Size of the file written.
        bytes: u64,
        /// Encoding and writing, fsyncs included.
        duration: Duration,
    },
    /// The session is not on disk; it is still in memory, and the next save retries.
    Failed { id: String, error: SessionError },
}

/// A request to the actor.
enum Request {
    Hold(SessionLock),
    Release(String),
    Save(Arc<SessionFile>),
    /// A turn (the session's last record), pending under a commit when given.
    Append {
        head: Arc<SessionHead>,
        turn: Box<AppendedTurn>,
        done: oneshot::Sender<Result<(), SessionError>>,
    },
    Settle {
        id: String,
        commit: String,
        landed: bool,
        done: oneshot::Sender<Result<(), SessionError>>,
    },
    Flush(oneshot::Sender<Vec<(String, String)>>),
}

/// The handle of the persist actor; clones share the same actor and queue.
#[derive(Debug, Clone)]
pub struct PersistHandle {
    tx: mpsc::UnboundedSender<Request>,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Request::Hold(l) => write!(f, "Hold({})", l.id()),
            Request::Release(id) => write!(f, "Release({id})"),
            Request::Save(s) => write!(f, "Save({})", s.id),
            Request::Append { head, .. } => write!(f, "Append({})", head.id),
            Request::Settle { id, .. } => write!(f, "Settle({id})"),
            Request::Flush(_) => f.write_str("Flush"),
        }
    }
}

/// Starts the actor for `sessions_dir` on the current tokio runtime.
///
/// The actor ends when every handle is dropped, releasing the locks it holds
/// after the last queued save.
pub fn spawn_persist(
    sessions_dir: impl Into<PathBuf>,
) -> (PersistHandle, mpsc::UnboundedReceiver<PersistEvent>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let (events, events_rx) = mpsc::unbounded_channel();
    let actor = Actor {
        dir: sessions_dir.into(),
        locks: HashMap::new(),
        journals: HashMap::new(),
        unsaved: BTreeMap::new(),
        events,
    };
    tokio::spawn(actor.run(rx));
    (PersistHandle { tx }, events_rx)
}

impl PersistHandle {
    /// Hands the lock of an open session to the actor, which may then save it.
    pub fn hold(&self, lock: SessionLock) -> Result<(), SessionError> {
        self.send(Request::Hold(lock))
    }

    /// Releases a session's lock after the saves queued before this call.
    pub fn release(&self, id: &str) -> Result<(), SessionError> {
        self.send(Request::Release(id.to_string()))
    }

    /// Queues a save of `session` and returns at once.
    ///
    /// Saves are applied in the order queued. Saves of the same session that
    /// are still waiting when the actor gets to them are coalesced: only the
    /// newest is written (each save holds the whole session, so nothing is
    /// lost). A `flush`, `hold` or `release` queued in between keeps both.
    ///
    /// Pass an `Arc<SessionFile>` to avoid copying a long session on the
    /// caller's thread: keep the `Arc` and change it with `Arc::make_mut`,
    /// which copies only while a save of it is still queued or running.
    pub fn save(&self, session: impl Into<Arc<SessionFile>>) -> Result<(), SessionError> {
        self.send(Request::Save(session.into()))
    }

    /// Writes a turn of the session `head` names and waits until it is on
    /// disk; with a commit, the turn stays pending until
    /// [`settle`](Self::settle).
    pub async fn append_turn(
        &self,
        head: Arc<SessionHead>,
        turn: AppendedTurn,
    ) -> Result<(), SessionError> {
        let (done, wait) = oneshot::channel();
        self.send(Request::Append {
            head,
            turn: Box::new(turn),
            done,
        })?;
        wait.await.map_err(|_| SessionError::PersistStopped)?
    }

    /// Settles a pending commit: `landed` keeps the turn, else it is dropped.
    pub async fn settle(&self, id: &str, commit: &str, landed: bool) -> Result<(), SessionError> {
        let (done, wait) = oneshot::channel();
        self.send(Request::Settle {
            id: id.to_string(),
            commit: commit.to_string(),
            landed,
            done,
        })?;
        wait.await.map_err(|_| SessionError::PersistStopped)?
    }

    /// Waits until every save queued before this call has been applied.
    ///
    /// Fails with [`SessionError::NotSaved`] when the newest save of some
    /// session failed (its state is only in memory), and with
    /// [`SessionError::PersistStopped`] when the actor is gone.
    pub async fn flush(&self) -> Result<(), SessionError> {
        let (done, wait) = oneshot::channel();
        self.send(Request::Flush(done))?;
        let unsaved = wait.await.map_err(|_| SessionError::PersistStopped)?;
        if unsaved.is_empty() {
            Ok(())
        } else {
            Err(SessionError::NotSaved { unsaved })
        }
    }

    fn send(&self, request: Request) -> Result<(), SessionError> {
        self.tx
            .send(request)
            .map_err(|_| SessionError::PersistStopped)
    }
}

/// The task's state: the folder, the locks it holds, and failed sessions.
struct Actor {
    dir: PathBuf,
    locks: HashMap<String, SessionLock>,
    /// The open journal of each session saved since it was held.
    journals: HashMap<String, Journal>,
    /// Session → error of its newest save, while that save has failed.
    unsaved: BTreeMap<String, String>,
    events: mpsc::UnboundedSender<PersistEvent>,
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Request>) {
        while let Some(first) = rx.recv().await {
            let mut batch = vec![first];
            while let Ok(more) = rx.try_recv() {
                batch.push(more);
            }
            for request in coalesce(batch) {
                self.handle(request).await;
            }
        }
    }

    async fn handle(&mut self, request: Request) {
        match request {
            Request::Hold(lock) => {
                if !same_dir(lock.sessions_dir(), &self.dir) {
                    let id = lock.id().to_string();
                    self.report_failure(id.clone(), SessionError::NotLocked { id });
                } else {
                    self.locks.insert(lock.id().to_string(), lock);
                }
            }
            Request::Release(id) => {
                self.locks.remove(&id);
                self.journals.remove(&id);
            }
            Request::Save(session) => {
                let id = session.id.clone();
                let _ = self.write(id, move |j| j.sync(&session)).await;
            }
            Request::Append { head, turn, done } => {
                let id = head.id.clone();
                let result = self.write(id, move |j| j.append_turn(&head, &turn)).await;
                let _ = done.send(result);
            }
            Request::Settle {
                id,
                commit,
                landed,
                done,
            } => {
                let result = self.write(id, move |j| j.settle(&commit, landed)).await;
                let _ = done.send(result);
            }
            Request::Flush(done) => {
                let unsaved = self
                    .unsaved
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let _ = done.send(unsaved);
            }
        }
    }

    /// Runs one write on the session's journal (opened on first use) on a
    /// blocking thread, reporting the outcome as an event too.
    async fn write(
        &mut self,
        id: String,
        op: impl FnOnce(&mut Journal) -> Result<u64, SessionError> + Send + 'static,
    ) -> Result<(), SessionError> {
        if !is_valid_id(&id) {
            let error = SessionError::InvalidId { id: id.clone() };
            self.report_failure(id.clone(), error);
            return Err(SessionError::InvalidId { id });
        }
        if !self.locks.contains_key(&id) {
            self.report_failure(id.clone(), SessionError::NotLocked { id: id.clone() });
            return Err(SessionError::NotLocked { id });
        }
        let path = self.dir.join(format!("{id}.json"));
        let journal = self.journals.remove(&id);
        let started = Instant::now();
        let written = tokio::task::spawn_blocking(move || {
            let opened = match journal {
                Some(j) => Ok(j),
                None => Journal::open(path, jiff::Timestamp::now()),
            };
            match opened {
                Ok(mut journal) => {
                    let out = op(&mut journal);
                    (Some(journal), out)
                }
                Err(e) => (None, Err(e)),
            }
        })
        .await
        .unwrap_or_else(|join| {
            let error = SessionError::io(
                "save",
                self.dir.join(format!("{id}.json")),
                std::io::Error::other(format!("the save task stopped: {join}")),
            );
            (None, Err(error))
        });
        let (journal, outcome) = written;
        if let Some(j) = journal {
            self.journals.insert(id.clone(), j);
        }
        match outcome {
            Ok(bytes) => {
                self.unsaved.remove(&id);
                let duration = started.elapsed();
                tracing::debug!(%id, bytes, ?duration, "session saved");
                let _ = self.events.send(PersistEvent::Saved {
                    id,
                    bytes,
                    duration,
                });
                Ok(())
            }
            Err(error) => {
                let message = error.to_string();
                self.report_failure(id, error);
                Err(SessionError::io(
                    "save",
                    &self.dir,
                    std::io::Error::other(message),
                ))
            }
        }
    }

    fn report_failure(&mut self, id: String, error: SessionError) {
        tracing::warn!(%id, %error, "session save failed");
        self.unsaved.insert(id.clone(), error.to_string());
        let _ = self.events.send(PersistEvent::Failed { id, error });
    }
}

/// True when two paths name the same folder (however they are spelled).
fn same_dir(a: &std::path::Path, b: &std::path::Path) -> bool {
    a == b
        || match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
}

/// Drops every save followed, before the next other request, by a newer save
/// of the same session.
fn coalesce(batch: Vec<Request>) -> Vec<Request> {
    let mut newer: HashSet<String> = HashSet::new();
    let mut kept: Vec<Request> = Vec::with_capacity(batch.len());
    for request in batch.into_iter().rev() {
        match &request {
            Request::Save(s) => {
                if !newer.insert(s.id.clone()) {
                    continue;
                }
            }
            _ => newer.clear(),
        }
        kept.push(request);
    }
    kept.reverse();
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::ContextPolicy;
    use crate::session::llm::LlmSettings;

    fn session(id: &str, title: &str) -> SessionFile {
        let now = "2026-11-22T14:30:05Z".parse().unwrap();
        let mut s = SessionFile::new(
            id.into(),
            now,
            LlmSettings::default(),
            ContextPolicy::default(),
        );
        s.title = title.into();
        s
    }

    fn shape(batch: &[Request]) -> Vec<String> {
        batch
            .iter()
            .map(|r| match r {
                Request::Save(s) => format!("{}:{}", s.id, s.title),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn coalescing_keeps_the_newest_save_per_session_between_barriers() {
        let (done, _wait) = oneshot::channel();
        let batch = vec![
            Request::Save(Arc::new(session("a", "1"))),
            Request::Save(Arc::new(session("b", "1"))),
            Request::Save(Arc::new(session("a", "2"))),
            Request::Flush(done),
            Request::Save(Arc::new(session("a", "3"))),
            Request::Release("b".into()),
            Request::Save(Arc::new(session("a", "4"))),
            Request::Save(Arc::new(session("a", "5"))),
        ];
        assert_eq!(
            shape(&coalesce(batch)),
            ["b:1", "a:2", "Flush", "a:3", "Release(b)", "a:5"]
        );
    }
}
