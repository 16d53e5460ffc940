//! The prompt inspector's state and transitions: which turn, which of its
//! prompts (Understand, Think, each Act iteration, Reply, Summarize's), which
//! part of it (the system message, each section, the raw response) is under
//! the cursor and which are open.
//!
//! Pure, like `update`. The prompts themselves stay in the session's turn
//! records; the state holds only positions.

use crossterm::event::KeyEvent;

use super::action::Action;
use super::keymap::{KeyContext, Keymap};
use super::model::{Level, Model, Overlay};
use super::reply::Reply;

pub use super::state::inspector::{InspectorState, PromptSlot, part_count, prompt, slots};

/// Opens the inspector on the inspected turn (the latest turn when live),
/// or closes it.
pub fn toggle(m: &mut Model) {
    if matches!(m.overlay, Some(Overlay::Inspector(_))) {
        m.overlay = None;
        return;
    }
    let index = match &m.panels.inspect {
        Some(i) => i.index,
        None if !m.session.transcript.is_empty() => m.session.transcript.len() - 1,
        None => {
            m.chrome.status = Some((
                Level::Info,
                "no prompts yet — send a message, then inspect what was sent".into(),
            ));
            return;
        }
    };
    m.overlay = Some(Overlay::Inspector(InspectorState::at(index)));
}

/// A key while the inspector is open: moves its own cursor and folds,
/// reading the turn's prompts from the session.
pub fn on_key(st: &mut InspectorState, m: &Model, keymap: &Keymap, key: KeyEvent) -> Reply {
    let Some(record) = m.session.transcript.get(st.index) else {
        return Reply::Close;
    };
    let prompts = slots(record).len();
    let parts = st.current(record).map_or(0, |(_, p)| part_count(p));
    let page = (m.chrome.size.1 as isize / 2).max(1);
    match keymap.action(key, KeyContext::PANEL) {
        Some(Action::Cancel | Action::Prompts) => return Reply::Close,
        Some(Action::Quit) => return Reply::Quit,
        Some(Action::Copy) => return Reply::Copy,
        Some(Action::ScrollUp) => st.move_cursor(st.cursor.saturating_sub(1)),
        Some(Action::ScrollDown) => st.move_cursor((st.cursor + 1).min(parts.saturating_sub(1))),
        Some(Action::ScrollTop) => st.move_cursor(0),
        Some(Action::ScrollBottom) => st.move_cursor(parts.saturating_sub(1)),
        Some(Action::PageUp) => st.scroll -= page,
        Some(Action::PageDown) => st.scroll += page,
        Some(Action::MoveLeft) => st.select(st.selected.saturating_sub(1)),
        Some(Action::MoveRight) => st.select((st.selected + 1).min(prompts.saturating_sub(1))),
        Some(Action::InspectPrev) => *st = InspectorState::at(st.index.saturating_sub(1)),
        Some(Action::InspectNext) => {
            let last = m.session.transcript.len().saturating_sub(1);
            *st = InspectorState::at((st.index + 1).min(last));
        }
        Some(Action::Select) if st.is_open(st.cursor) => {
            st.opened.remove(&st.cursor);
            st.cursor_folded = true;
        }
        Some(Action::Select) => {
            st.opened.insert(st.cursor);
            st.cursor_folded = false;
        }
        _ => {}
    }
    Reply::Stay
}
