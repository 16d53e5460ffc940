//! The persist actor: one task owns the sessions folder's writes and applies
//! saves in order, so the UI and the pipeline never wait on the disk.
//!
//! [`spawn_persist`] starts the task and returns a [`PersistHandle`] (cheap to
//! clone) and the receiver of [`PersistEvent`]s. `save` only queues; `flush`
//! waits until everything queued is on disk (call it on quit: "drained on
//! quit"). Each save is written with [`write_atomic`] on a blocking thread.
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

use super::atomic::write_atomic;
use super::error::SessionError;
use super::file::{SessionFile, is_valid_id};
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
            }
            Request::Save(session) => self.save(session).await,
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

    async fn save(&mut self, session: Arc<SessionFile>) {
        let id = session.id.clone();
        if !is_valid_id(&id) {
            return self.report_failure(id.clone(), SessionError::InvalidId { id });
        }
        if !self.locks.contains_key(&id) {
            return self.report_failure(id.clone(), SessionError::NotLocked { id });
        }
        let path = self.dir.join(format!("{id}.json"));
        let started = Instant::now();
        let written = tokio::task::spawn_blocking(move || {
            // `to_bytes` writes the current schema version whatever the session says.
            let bytes = session.to_bytes()?;
            write_atomic(&path, &bytes)?;
            Ok::<u64, SessionError>(bytes.len() as u64)
        })
        .await;
        match written {
            Ok(Ok(bytes)) => {
                self.unsaved.remove(&id);
                let duration = started.elapsed();
                tracing::debug!(%id, bytes, ?duration, "session saved");
                let _ = self.events.send(PersistEvent::Saved {
                    id,
                    bytes,
                    duration,
                });
            }
            Ok(Err(error)) => self.report_failure(id, error),
            Err(join) => {
                let error = SessionError::io(
                    "save",
                    self.dir.join(format!("{id}.json")),
                    std::io::Error::other(format!("the save task stopped: {join}")),
                );
                self.report_failure(id, error);
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
