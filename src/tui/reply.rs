//! What a key in an overlay asks of the rest of the UI.
//!
//! An overlay's key handler changes only its own state, reading the rest of
//! the model; anything beyond it (closing, the status line, quitting,
//! copying, the panels' turn, the session's policy, opening a session) it
//! asks for with a [`Reply`], carried out in one place by
//! `overlay_keys::on_key`.

use super::model::Level;

/// The overlay's answer to a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The overlay stays open.
    Stay,
    /// The overlay closes.
    Close,
    /// The overlay closes and says this.
    CloseSaying(Level, String),
    /// Quit the app.
    Quit,
    /// Copy what the overlay selects; it stays open.
    Copy,
    /// The timeline's pick: the panels show the stored turn at this index
    /// of the transcript.
    Inspect(usize),
    /// What-if: put the drafted policy on the session.
    ApplyPolicy,
    /// The session picker's pick.
    OpenSession(String),
}
