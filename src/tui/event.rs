//! `Event`: what happened — input from the terminal, progress of the turn,
//! results of the IO the app did for us. Named by what happened, never by key.

use crossterm::event::{KeyEvent, MouseEvent};

use crate::pipeline::PipelineEvent;
use crate::session::SessionFile;

use super::model::SessionItem;

/// Something the update reacts to.
#[derive(Debug)]
pub enum Event {
    Key(KeyEvent),
    Paste(String),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// The animation tick (only while a turn runs) or the demo timer.
    Tick,
    /// Progress of a running turn.
    Pipeline(PipelineEvent),
    /// A save failed (the session is still in memory; the next save retries).
    SaveFailed(String),
    /// The saved sessions, for the picker.
    SessionsListed(Vec<SessionItem>),
    /// Another session is now open (from `/new` or the picker).
    SessionOpened(Box<SessionFile>),
    /// A command the app ran finished: a line for the status bar.
    Done(String),
    /// A command the app ran failed, in words.
    Failed(String),
    /// Something off the chat's path went wrong (traces not sent): a
    /// warning for the status bar; the chat goes on.
    Warned(String),
    /// The status line with this text has been up long enough.
    StatusExpired(String),
    /// A cancelled turn, recorded as failed ("cancelled by the user").
    TurnCancelled(Box<crate::record::TurnRecord>),
    /// `alfred watch`: the app committed a state: a new turn (its record),
    /// or a rewrite of the turn already shown (no record).
    AlfredCommitted {
        record: Option<Box<crate::record::TurnRecord>>,
        state: Box<crate::context::ContextState>,
    },
}
