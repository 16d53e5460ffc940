//! Time travel: which stored turn the panels show instead of the live
//! context, and moving between stored turns.
//!
//! Every successful turn of the transcript stores its final snapshot; the
//! panels can show any of them, with that turn's changes against the
//! successful turn before it. Failed turns store no context and are skipped.
//! Pure: called from `update`, it reads the session and writes the model.

use super::model::{Level, Model, Role};

pub use super::state::travel::{
    Inspected, Step, inspected, step_target, stored_turns, stores_context,
};

/// Moves the inspected turn one step (`back` towards older turns).
pub fn step(m: &mut Model, back: bool) {
    let from = m.panels.inspect.as_ref().map(|i| i.index);
    match step_target(&m.session, from, back) {
        Step::To(index) => {
            m.panels.inspect = inspected(&m.session, index);
            m.chrome.status = None;
            // The chat shows the same turn: its message at the top.
            let turn = m.session.transcript[index].turn;
            let message = m
                .chat
                .messages
                .iter()
                .rposition(|c| c.role == Role::User && c.turn == turn);
            if let Some(i) = message {
                super::scroll::chat_to_message(m, i);
            }
        }
        Step::Live => go_live(m),
        Step::Stay if back => {
            let text = if from.is_some() {
                "this is the first stored turn"
            } else {
                "no earlier turn to inspect yet"
            };
            m.chrome.status = Some((Level::Info, text.into()));
        }
        Step::Stay => {
            m.chrome.status = Some((Level::Info, "already showing the live context".into()))
        }
    }
}

/// Back to the live context.
pub fn go_live(m: &mut Model) {
    m.panels.inspect = None;
    m.chat.scroll.follow = true;
    m.chrome.status = Some((Level::Info, "back to the live context".into()));
}
