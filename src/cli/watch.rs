//! `alfred watch --store URL --user UUID`: the real app, followed live.
//! The TUI opens read-only on a new local session; a thread looks at the
//! user's `conversations` row every [`POLL`] and, each time the app has
//! committed a new state (its `last_active_at` or its state changed), reads
//! it as `sessions import` does. A new turn becomes a turn record of the
//! local session (with its prompts when Alfred's `prompt_logs` hold them),
//! so the panels change with the same markers as a turn of alfred's and the
//! session can be travelled, diffed and asked `/why` later. Nothing is
//! written to the database.

use std::time::Duration;

use crate::context::{ContextPolicy, ContextState};
use crate::kitchen::postgres::PgStore;
use crate::record::TurnRecord;
use crate::session::alfred_state::{self, prompt_logs};

/// How often the row is looked at.
pub const POLL: Duration = Duration::from_millis(400);

/// What one look at the row found.
#[derive(Debug)]
pub enum Seen {
    /// Nothing new since the last look.
    Same,
    /// The app committed a new turn.
    Turn(Box<TurnRecord>, Box<ContextState>),
    /// The app rewrote the state of a turn already seen (its summary, say).
    Updated(Box<ContextState>),
    /// The user has no conversation yet.
    NoRow,
}

/// Follows one user's `conversations` row.
pub struct Watcher {
    store: PgStore,
    policy: ContextPolicy,
    /// The row as last seen: its `last_active_at` and its state.
    last: Option<(String, serde_json::Value)>,
    /// The last turn made a record.
    last_turn: u32,
}

impl Watcher {
    /// Connects (reading only) to the user's conversation.
    pub fn open(
        url: &str,
        user: &str,
        claims: bool,
        policy: ContextPolicy,
    ) -> Result<Self, crate::kitchen::KitchenError> {
        Ok(Self {
            store: PgStore::open_to_read(url, user, claims)?,
            policy,
            last: None,
            last_turn: 0,
        })
    }

    /// Looks at the row once.
    pub fn look(&mut self) -> Result<Seen, String> {
        let Some((at, state)) = self.store.conversation_row().map_err(|e| e.to_string())? else {
            return Ok(Seen::NoRow);
        };
        if self
            .last
            .as_ref()
            .is_some_and(|(a, s)| *a == at && *s == state)
        {
            return Ok(Seen::Same);
        }
        let mut imported = alfred_state::import(&state, &self.policy).map_err(|e| e.to_string())?;
        self.last = Some((at, state));
        let turn = imported
            .context
            .conversation
            .recent()
            .next_back()
            .map_or(0, |t| t.turn);
        if turn <= self.last_turn {
            return Ok(Seen::Updated(Box::new(imported.context)));
        }
        // The turn's prompts, when the app logs them to the database.
        if let Ok(rows) = self.store.logged_calls() {
            let calls: Vec<prompt_logs::LoggedCall> = rows.into_iter().map(|(_, c)| c).collect();
            let turns = prompt_logs::turns(&calls);
            if !turns.is_empty() {
                imported.attach_prompt_logs(&turns);
            }
        }
        let record = match imported.record.take() {
            Some(r) => r,
            None => match imported.turn_record() {
                Some(r) => r,
                None => return Ok(Seen::Updated(Box::new(imported.context))),
            },
        };
        self.last_turn = turn;
        Ok(Seen::Turn(Box::new(record), Box::new(imported.context)))
    }
}
