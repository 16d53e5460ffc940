//! [`SessionLedger`]: the turn runner's way into a session file, through the
//! persist actor (so the lock is honoured and writes stay in order).

use std::sync::Arc;

use futures::future::BoxFuture;

use super::file::{SessionFile, stamp};
use super::journal::{AppendedTurn, SessionHead};
use super::persist::PersistHandle;
use crate::context::ContextState;
use crate::record::TurnLedger;
use crate::record::TurnRecord;
use crate::turn::LedgerError;

/// Records a session's turns as the runner finishes them.
#[derive(Debug, Clone)]
pub struct SessionLedger {
    persist: PersistHandle,
    head: Arc<SessionHead>,
}

impl SessionLedger {
    /// The ledger of `session` as it is before the turn.
    pub fn new(persist: PersistHandle, session: &SessionFile) -> Self {
        Self {
            persist,
            head: Arc::new(SessionHead::of(session)),
        }
    }
}

/// When a turn is filed: when it started (an unreadable time files it at
/// the epoch) — the same for the file and for the session in memory.
pub fn filed_at(record: &TurnRecord) -> jiff::Timestamp {
    record
        .started_at
        .parse()
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
}

impl TurnLedger for SessionLedger {
    fn session_id(&self) -> String {
        self.head.id.clone()
    }

    fn record(
        &self,
        record: TurnRecord,
        state: Option<ContextState>,
        commit: Option<String>,
    ) -> BoxFuture<'_, Result<(), LedgerError>> {
        Box::pin(async move {
            let at = stamp(filed_at(&record));
            let turn = AppendedTurn {
                record,
                state,
                at,
                commit,
            };
            self.persist
                .append_turn(self.head.clone(), turn)
                .await
                .map_err(LedgerError::new)
        })
    }

    fn settle(&self, commit: String, landed: bool) -> BoxFuture<'_, Result<(), LedgerError>> {
        Box::pin(async move {
            self.persist
                .settle(&self.head.id, &commit, landed)
                .await
                .map_err(LedgerError::new)
        })
    }
}
