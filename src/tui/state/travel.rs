//! Time travel's state: the stored turn the panels show, and which stored
//! turns there are. Pure functions of the session; moving between them is
//! in `tui::travel`.

use crate::context::{ContextDiff, ContextSnapshot, diff};
use crate::record::{TurnRecord, TurnStatus};
use crate::session::SessionFile;

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
