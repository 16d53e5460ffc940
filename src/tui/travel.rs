//! Time travel: which stored turn the panels show instead of the live
//! context, and moving between stored turns.
//!
//! Every successful turn of the transcript stores its final snapshot; the
//! panels can show any of them, with that turn's changes against the
//! successful turn before it. Failed turns store no context and are skipped.
//! Pure: called from `update`, it reads the session and writes the model.

use crate::context::{ContextDiff, ContextSnapshot, diff};
use crate::record::{TurnRecord, TurnStatus};
use crate::session::SessionFile;

use super::model::{Level, Model, Role};

/// A stored turn shown in the panels.
#[derive(Debug, Clone, PartialEq)]
pub struct Inspected {
    /// Index of the record in the session's transcript.
    pub index: usize,
    /// The turn number of that record.
    pub turn: u32,
    /// The record's stored snapshot.
    pub snapshot: ContextSnapshot,
    /// That turn against the successful turn before it (against nothing for
    /// the first, so everything in it is new).
    pub diff: ContextDiff,
}

/// True for a record that stored a context (a successful turn).
pub fn stores_context(r: &TurnRecord) -> bool {
    r.status == TurnStatus::Ok && r.error.is_none()
}

/// Transcript indices of the successful turns, oldest first.
pub fn stored_turns(session: &SessionFile) -> Vec<usize> {
    session
        .transcript
        .iter()
        .enumerate()
        .filter(|(_, r)| stores_context(r))
        .map(|(i, _)| i)
        .collect()
}

/// The stored turn at transcript `index`, with its diff.
pub fn inspected(session: &SessionFile, index: usize) -> Option<Inspected> {
    let record = session.transcript.get(index)?;
    if !stores_context(record) {
        return None;
    }
    let snapshot = record.snapshot();
    let before = session.transcript[..index]
        .iter()
        .rev()
        .find(|r| stores_context(r))
        .map(TurnRecord::snapshot)
        .unwrap_or_default();
    let diff = diff(&before, &snapshot);
    Some(Inspected {
        index,
        turn: record.turn,
        snapshot,
        diff,
    })
}

/// The transcript index one step from where the panels are: `back` towards
/// older turns. `None` means live. The stored record of the live turn is not
/// a step of its own: live shows it (with any pin made since).
pub fn step_target(session: &SessionFile, from: Option<usize>, back: bool) -> Step {
    let live_turn = session.context.turn;
    let stored: Vec<usize> = stored_turns(session)
        .into_iter()
        .filter(|i| session.transcript[*i].turn < live_turn)
        .collect();
    match (from, back) {
        (None, true) => stored.last().map_or(Step::Stay, |i| Step::To(*i)),
        (None, false) => Step::Stay,
        (Some(at), true) => stored
            .iter()
            .rev()
            .find(|i| **i < at)
            .map_or(Step::Stay, |i| Step::To(*i)),
        (Some(at), false) => stored
            .iter()
            .find(|i| **i > at)
            .map_or(Step::Live, |i| Step::To(*i)),
    }
}

/// Where a step goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// To the stored turn at this transcript index.
    To(usize),
    /// Back to the live context.
    Live,
    /// Nowhere: already at the end in that direction.
    Stay,
}

/// Moves the inspected turn one step (`back` towards older turns).
pub fn step(m: &mut Model, back: bool) {
    let from = m.inspect.as_ref().map(|i| i.index);
    match step_target(&m.session, from, back) {
        Step::To(index) => {
            m.inspect = inspected(&m.session, index);
            m.status = None;
            // The chat shows the same turn: its message at the top.
            let turn = m.session.transcript[index].turn;
            m.chat_anchor = m
                .chat
                .iter()
                .rposition(|c| c.role == Role::User && c.turn == turn);
        }
        Step::Live => go_live(m),
        Step::Stay if back => {
            let text = if from.is_some() {
                "this is the first stored turn"
            } else {
                "no earlier turn to inspect yet"
            };
            m.status = Some((Level::Info, text.into()));
        }
        Step::Stay => m.status = Some((Level::Info, "already showing the live context".into())),
    }
}

/// Back to the live context.
pub fn go_live(m: &mut Model) {
    m.inspect = None;
    m.chat_anchor = None;
    m.chat_scroll.follow = true;
    m.status = Some((Level::Info, "back to the live context".into()));
}

/// "turn 3 of 9": the inspected turn and the live turn.
pub fn position(m: &Model) -> Option<(u32, u32)> {
    m.inspect
        .as_ref()
        .map(|i| (i.turn, m.session.context.turn.max(i.turn)))
}
