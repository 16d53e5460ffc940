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

/// Looks at the row every [`POLL`] on a thread of its own (its reads block)
/// and hands the screen what the app committed; a failed look is said once
/// until one succeeds again. Ends when the screen is gone. Each new turn
/// also goes to `observer` (the trace exporter), as the local session
/// `session_id`'s.
pub fn spawn(
    mut watcher: Watcher,
    observer: Option<(std::sync::Arc<dyn crate::record::TurnObserver>, String)>,
) -> tokio::sync::mpsc::UnboundedReceiver<crate::tui::event::Event> {
    use crate::tui::event::Event;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let spawned = std::thread::Builder::new()
        .name("alfred-watch".into())
        .spawn(move || {
            let mut failing = false;
            loop {
                let event = match watcher.look() {
                    Ok(seen) => {
                        failing = false;
                        match seen {
                            Seen::Same | Seen::NoRow => None,
                            Seen::Turn(record, state) => {
                                if let Some((o, session)) = &observer {
                                    o.turn_ended(session, &record);
                                }
                                Some(Event::AlfredCommitted {
                                    record: Some(record),
                                    state,
                                })
                            }
                            Seen::Updated(state) => Some(Event::AlfredCommitted {
                                record: None,
                                state,
                            }),
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "watch: could not read the conversation");
                        // Said once, until a look succeeds again.
                        let first = !std::mem::replace(&mut failing, true);
                        first.then(|| Event::Failed(format!("watch: {e} (still trying)")))
                    }
                };
                if let Some(e) = event
                    && tx.send(e).is_err()
                {
                    return;
                }
                if tx.is_closed() {
                    return;
                }
                std::thread::sleep(POLL);
            }
        });
    if let Err(e) = spawned {
        tracing::warn!(error = %e, "watch: could not start its thread");
    }
    rx
}
