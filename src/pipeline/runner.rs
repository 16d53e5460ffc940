//! The turn runner: the one place a turn is started, cancelled, committed
//! and recorded. The TUI, `alfred run`, `alfred eval` and the test
//! harnesses all go through it; none of them touches the kitchen.
//!
//! The commit protocol, so that after a crash at any instant the kitchen
//! and the session agree:
//! 1. the turn runs; its kitchen writes stay in the kitchen's turn log
//!    (nothing on disk, no lock held while a model thinks);
//! 2. the record is appended to the session, pending under a fresh commit
//!    id when the turn wrote anything, and is on disk before step 3;
//! 3. the kitchen commits the writes and the commit id in one transaction;
//! 4. the session gets a `done` line (or `void`, when step 3 failed);
//! 5. only then is the turn announced as done ([`PipelineEvent::TurnDone`])
//!    — printed, drawn, counted.
//!
//! A crash before 2 leaves nothing anywhere; between 2 and 3, a pending
//! turn that the kitchen does not know, dropped when the session is opened;
//! between 3 and 4, a pending turn the kitchen knows, kept. A failed or
//! cancelled turn is recorded (steps 2 without a commit) and its writes are
//! dropped.

use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::kitchen::{CommitStamp, Kitchen};
use crate::prompt::{PrefixCache, Slots};
use crate::record::{TurnObserver, TurnRecord};
use crate::turn::{KitchenAction, TurnError};

use super::brain::Brain;
use super::events::{PipelineEvent, TurnId};
use super::run::{TurnRequest, TurnResult, TurnSettings, execute_turn};
use super::support::lock;

pub use crate::record::{NoLedger, TurnLedger};

/// What a turn needs besides its request.
#[derive(Clone)]
pub struct TurnRunner {
    brain: Arc<dyn Brain>,
    kitchen: Arc<Mutex<Kitchen>>,
    settings: Arc<TurnSettings>,
    /// Set when a turn's commit could not be confirmed either way: the
    /// session holds it pending, and no later turn may be appended after
    /// it until opening the session settles it.
    unsettled: Arc<std::sync::atomic::AtomicBool>,
    /// The server's prompt cache as alfred models it (one slot per node),
    /// fed every recorded prompt in order: the estimate of cached tokens
    /// when the server does not report them.
    cache: Arc<Mutex<PrefixCache>>,
    /// Told of each turn that ends (the trace exporter), if any.
    observer: Option<Arc<dyn TurnObserver>>,
}

/// How many times the kitchen is asked for a commit stamp after the answer
/// to the commit was lost, and the wait before each new try.
const STAMP_TRIES: u32 = 3;
const STAMP_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// What the kitchen says of a commit whose answer may have been lost.
enum Landed {
    Yes,
    No(crate::kitchen::KitchenError),
    Unknown(crate::kitchen::KitchenError),
}

/// Where a started turn is: cancellable until it starts committing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Thinking,
    Committing,
    Cancelled,
}

/// A turn under way.
pub struct Running {
    pub id: TurnId,
    task: JoinHandle<TurnResult>,
    phase: Arc<Mutex<Phase>>,
    turn: u32,
    message: String,
    ledger: Arc<dyn TurnLedger>,
}

impl std::fmt::Debug for Running {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Running").field("id", &self.id).finish()
    }
}

impl TurnRunner {
    pub fn new(
        brain: Arc<dyn Brain>,
        kitchen: Arc<Mutex<Kitchen>>,
        settings: Arc<TurnSettings>,
    ) -> Self {
        Self {
            brain,
            kitchen,
            settings,
            unsettled: Arc::default(),
            cache: Arc::new(Mutex::new(PrefixCache::new(Slots::PerNode))),
            observer: None,
        }
    }

    /// What the observer has to tell the user, once (see
    /// [`TurnObserver::problem`]).
    pub fn observer_problem(&self) -> Option<String> {
        self.observer.as_ref().and_then(|o| o.problem())
    }

    /// The same runner, telling `observer` of each turn that ends.
    pub fn with_observer(mut self, observer: Arc<dyn TurnObserver>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Feeds the prompts of the last turn of a session opened again to the
    /// cache model, so the next turn's estimate starts where the server's
    /// cache would be.
    pub fn warm_cache(&self, transcript: &[TurnRecord]) {
        let mut cache = lock(&self.cache);
        for p in transcript
            .iter()
            .last()
            .into_iter()
            .flat_map(|r| r.prompts.all())
        {
            cache.send(&p.full);
        }
    }

    /// The brain's name, as records give it.
    pub fn brain_name(&self) -> String {
        self.brain.name()
    }

    /// Runs one turn to its end (committed and recorded, or failed and
    /// recorded), sending its events; the last is `TurnDone` or `TurnFailed`.
    pub async fn run(
        &self,
        req: TurnRequest,
        ledger: Arc<dyn TurnLedger>,
        events: mpsc::UnboundedSender<PipelineEvent>,
    ) -> TurnResult {
        let phase = Arc::new(Mutex::new(Phase::Thinking));
        self.run_in(req, ledger, events, &phase).await
    }

    async fn run_in(
        &self,
        req: TurnRequest,
        ledger: Arc<dyn TurnLedger>,
        events: mpsc::UnboundedSender<PipelineEvent>,
        phase: &Mutex<Phase>,
    ) -> TurnResult {
        let id = req.id;
        if self.unsettled.load(std::sync::atomic::Ordering::SeqCst) {
            let record = failed_record(&req, &self.brain.name(), &TurnError::Unsettled);
            let _ = events.send(PipelineEvent::TurnFailed {
                id,
                record: Box::new(record.clone()),
            });
            // Not recorded: a line after the pending turn would settle it.
            return TurnResult::Failed {
                record: Box::new(record),
            };
        }
        let begun = lock(&self.kitchen).begin_turn();
        // Dropped with the future (a cancel): the turn's writes go too.
        let open = OpenTurn {
            kitchen: &self.kitchen,
        };
        let result = match begun {
            Ok(()) => {
                execute_turn(
                    self.brain.clone(),
                    self.kitchen.clone(),
                    self.settings.clone(),
                    req.clone(),
                    events.clone(),
                )
                .await
            }
            Err(e) => TurnResult::Failed {
                record: Box::new(failed_record(
                    &req,
                    &self.brain.name(),
                    &TurnError::Kitchen {
                        doing: KitchenAction::Start,
                        source: e,
                    },
                )),
            },
        };
        {
            // From here on the turn is not cancelled halfway: it commits
            // and records whole. A cancel that came first wins.
            let mut p = lock(phase);
            if *p == Phase::Cancelled {
                drop(p);
                self.drop_writes();
                return result;
            }
            *p = Phase::Committing;
        }
        let result = self.commit(result, &req, &*ledger).await;
        drop(open);
        if let Some(observer) = &self.observer {
            let (TurnResult::Done { record, .. } | TurnResult::Failed { record }) = &result;
            observer.turn_ended(&ledger.session_id(), record);
        }
        let event = match &result {
            TurnResult::Done { record, state } => PipelineEvent::TurnDone {
                id,
                record: record.clone(),
                state: state.clone(),
            },
            TurnResult::Failed { record } => PipelineEvent::TurnFailed {
                id,
                record: record.clone(),
            },
        };
        let _ = events.send(event);
        result
    }

    /// Steps 2–4 of the protocol (see the module doc).
    async fn commit(
        &self,
        result: TurnResult,
        req: &TurnRequest,
        ledger: &dyn TurnLedger,
    ) -> TurnResult {
        let (mut record, state) = match result {
            TurnResult::Done { record, state } => (record, state),
            TurnResult::Failed { mut record } => {
                record.fill_cache(&mut lock(&self.cache));
                self.drop_writes();
                if let Err(e) = ledger.record((*record).clone(), None, None).await {
                    tracing::error!(error = %e, "a failed turn could not be recorded");
                }
                return TurnResult::Failed { record };
            }
        };
        record.fill_cache(&mut lock(&self.cache));
        let writes = lock(&self.kitchen).turn_writes();
        let commit = (writes > 0).then(|| uuid::Uuid::new_v4().to_string());
        if let Err(e) = ledger
            .record((*record).clone(), Some((*state).clone()), commit.clone())
            .await
        {
            // Not on disk: the turn did not happen, its writes neither.
            self.drop_writes();
            let failed = failed_after(&record, req, &TurnError::NotSaved(e));
            return TurnResult::Failed {
                record: Box::new(failed),
            };
        }
        let stamp = commit.as_ref().map(|c| CommitStamp {
            commit_id: c.clone(),
            session_id: ledger.session_id(),
            turn: record.turn,
        });
        let committed = lock(&self.kitchen).commit_stamped(stamp.as_ref());
        // A commit that failed may still have landed (the connection lost
        // after COMMIT was sent): the stamp decides, never a guess.
        let committed = match (committed, &commit) {
            (Err(e), Some(c)) => match self.landed(c, e).await {
                Landed::Yes => Ok(()),
                Landed::No(e) => Err(e),
                Landed::Unknown(e) => {
                    // Left pending in the session, to be settled on open.
                    self.unsettled
                        .store(true, std::sync::atomic::Ordering::SeqCst);
                    let failed = failed_after(&record, req, &TurnError::Unconfirmed(e));
                    return TurnResult::Failed {
                        record: Box::new(failed),
                    };
                }
            },
            (done, _) => done,
        };
        match (committed, commit) {
            (Ok(()), Some(c)) => {
                // A lost `done` line is found again by the stamp on open.
                if let Err(e) = ledger.settle(c, true).await {
                    tracing::warn!(error = %e, "the done line of a committed turn was not written");
                }
            }
            (Ok(()), None) => {}
            (Err(e), commit) => {
                if let Some(c) = commit
                    && let Err(e) = ledger.settle(c, false).await
                {
                    tracing::error!(error = %e, "a turn whose writes failed could not be dropped");
                }
                let failed = failed_after(
                    &record,
                    req,
                    &TurnError::Kitchen {
                        doing: KitchenAction::Save,
                        source: e,
                    },
                );
                if let Err(e) = ledger.record(failed.clone(), None, None).await {
                    tracing::error!(error = %e, "a failed turn could not be recorded");
                }
                return TurnResult::Failed {
                    record: Box::new(failed),
                };
            }
        }
        TurnResult::Done { record, state }
    }

    /// Asks the kitchen whether the turn stamped `commit` landed, after
    /// its commit failed with `error` (a few tries: the connection may
    /// have to be made again).
    async fn landed(&self, commit: &str, error: crate::kitchen::KitchenError) -> Landed {
        let mut last = None;
        for attempt in 0..STAMP_TRIES {
            if attempt > 0 {
                tokio::time::sleep(STAMP_WAIT).await;
            }
            match lock(&self.kitchen).has_commit(commit) {
                Ok(Some(true)) => {
                    tracing::warn!(%commit, %error, "the answer to a commit was lost, but its stamp is in the kitchen: the turn was saved");
                    return Landed::Yes;
                }
                Ok(Some(false)) => return Landed::No(error),
                // No stamps kept: the commit's own error stands.
                Ok(None) => return Landed::No(error),
                Err(e) => {
                    tracing::warn!(%commit, error = %e, "asking the kitchen for a commit stamp failed");
                    last = Some(e);
                }
            }
        }
        tracing::error!(%commit, %error, "whether the turn's commit landed is not known; the session keeps it pending");
        Landed::Unknown(last.unwrap_or(error))
    }

    fn drop_writes(&self) {
        if let Err(e) = lock(&self.kitchen).rollback_turn() {
            tracing::error!(error = %e, "dropping a turn's writes");
        }
    }

    /// Starts a turn on the runtime; its events go to `events`.
    pub fn start(
        &self,
        req: TurnRequest,
        ledger: Arc<dyn TurnLedger>,
        events: mpsc::UnboundedSender<PipelineEvent>,
    ) -> Running {
        let (id, turn, message) = (req.id, req.state.turn + 1, req.message.clone());
        let runner = self.clone();
        let task_ledger = ledger.clone();
        let phase = Arc::new(Mutex::new(Phase::Thinking));
        let task_phase = phase.clone();
        let task =
            tokio::spawn(async move { runner.run_in(req, task_ledger, events, &task_phase).await });
        Running {
            id,
            task,
            phase,
            turn,
            message,
            ledger,
        }
    }

    /// Cancels a turn: stops it, drops its writes, and records it as
    /// cancelled. Returns the record at once; it is on disk when the
    /// returned handle finishes (await it before quitting). A turn already
    /// committing finishes instead (its `TurnDone` or `TurnFailed` follows):
    /// `Err` gives it back.
    pub fn cancel(&self, running: Running) -> Result<(TurnRecord, JoinHandle<()>), Running> {
        {
            let mut p = lock(&running.phase);
            if *p == Phase::Committing {
                drop(p);
                return Err(running);
            }
            *p = Phase::Cancelled;
        }
        running.task.abort();
        let mut record = TurnRecord {
            turn: running.turn,
            user: running.message,
            llm: self.brain.name(),
            started_at: jiff::Timestamp::now().to_string(),
            ..TurnRecord::default()
        };
        record.set_failed(&TurnError::Cancelled);
        let runner = self.clone();
        let kept = record.clone();
        let task = running.task;
        let ledger = running.ledger;
        let done = tokio::spawn(async move {
            // Wait until the turn has really stopped: then no write of it
            // can follow the rollback.
            let _ = task.await;
            runner.drop_writes();
            if let Err(e) = ledger.record(kept, None, None).await {
                tracing::error!(error = %e, "a cancelled turn could not be recorded");
            }
        });
        Ok((record, done))
    }

    /// Waits for a turn to end by itself.
    pub async fn finish(running: Running) {
        let _ = running.task.await;
    }
}

/// Runs one turn through the [`TurnRunner`] with
/// no session to record it in (evaluations, tests, benches): its writes are
/// committed to the kitchen, and its events end with `TurnDone` or
/// `TurnFailed`.
pub async fn run_turn(
    brain: Arc<dyn Brain>,
    kitchen: Arc<Mutex<Kitchen>>,
    settings: Arc<TurnSettings>,
    req: TurnRequest,
    events: mpsc::UnboundedSender<PipelineEvent>,
) -> TurnResult {
    TurnRunner::new(brain, kitchen, settings)
        .run(req, Arc::new(NoLedger), events)
        .await
}

/// Drops an open turn's writes when the turn's future is dropped.
struct OpenTurn<'k> {
    kitchen: &'k Mutex<Kitchen>,
}

impl Drop for OpenTurn<'_> {
    fn drop(&mut self) {
        let mut k = lock(self.kitchen);
        if k.in_turn()
            && let Err(e) = k.rollback_turn()
        {
            tracing::error!(error = %e, "dropping the writes of a stopped turn");
        }
    }
}

/// The record of a turn that failed before it ran.
fn failed_record(req: &TurnRequest, llm: &str, error: &TurnError) -> TurnRecord {
    let mut record = TurnRecord {
        turn: req.state.turn + 1,
        user: req.message.clone(),
        llm: llm.to_string(),
        started_at: req.started_at.clone(),
        ..TurnRecord::default()
    };
    record.set_failed(error);
    record.set_snapshot(req.state.snapshot());
    record
}

/// A finished turn turned into a failed one: its reply and layers go, the
/// session stays as it was.
fn failed_after(record: &TurnRecord, req: &TurnRequest, error: &TurnError) -> TurnRecord {
    let mut failed = record.clone();
    failed.set_failed(error);
    failed.reply.clear();
    failed.set_snapshot(req.state.snapshot());
    failed
}
