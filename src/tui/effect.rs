//! `Effect`: the IO the update asks the app loop to do. The update itself
//! never awaits, spawns or touches the disk.

use crate::pipeline::TurnId;

/// Work for the app loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Run a turn on a copy of the session's context.
    StartTurn { id: TurnId, message: String },
    /// Abort the running turn's task (its writes are rolled back) and
    /// record the cancellation in the transcript.
    AbortTurn {
        id: TurnId,
        turn: u32,
        message: String,
    },
    /// Queue a save of the session.
    Save,
    /// List saved sessions for the picker.
    ListSessions,
    /// Open another session (after saving this one).
    OpenSession(String),
    /// Start a new session.
    NewSession,
    /// Write the session as Markdown or JSON into the exports folder.
    Export { markdown: bool },
    /// Put text on the clipboard: an OSC 52 sequence written to the
    /// terminal (it must allow clipboard writes).
    CopyToClipboard(String),
    /// Leave: save, drain the persist queue, restore the terminal.
    Quit,
}
