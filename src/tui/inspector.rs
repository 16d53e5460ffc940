//! The prompt inspector's state and transitions: which turn, which of its
//! prompts (Understand, Think, each Act iteration, Reply, Summarize's), which
//! part of it (the system message, each section, the raw response) is under
//! the cursor and which are open.
//!
//! Pure, like `update`. The prompts themselves stay in the session's turn
//! records; the state holds only positions.

use std::collections::BTreeSet;

use crossterm::event::KeyEvent;

use crate::prompt::PromptNode;
use crate::record::{PromptRecord, TurnRecord};

use super::action::Action;
use super::effect::Effect;
use super::keymap::{KeyContext, Keymap};
use super::model::{Level, Model, Overlay};

/// Where one prompt of a turn record lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptSlot {
    Understand,
    Think,
    /// Index into `prompts.act`.
    Act(usize),
    Reply,
    /// Index into `prompts.summarize`.
    Summarize(usize),
}

/// The prompts of a record, in pipeline order, with their labels.
pub fn slots(record: &TurnRecord) -> Vec<(String, PromptSlot)> {
    let p = &record.prompts;
    let mut out = Vec::new();
    if p.understand.is_some() {
        out.push(("Understand".to_string(), PromptSlot::Understand));
    }
    if p.think.is_some() {
        out.push(("Think".to_string(), PromptSlot::Think));
    }
    for (i, a) in p.act.iter().enumerate() {
        let label = format!("Act {}.{}", a.step, a.iteration);
        out.push((label, PromptSlot::Act(i)));
    }
    if p.reply.is_some() {
        out.push(("Reply".to_string(), PromptSlot::Reply));
    }
    for (i, s) in p.summarize.iter().enumerate() {
        let label = match s.full.node {
            PromptNode::SummarizeReply => "Summarize reply",
            PromptNode::CompressNarrative => "Compress narrative",
            PromptNode::CompressConversation => "Compress history",
            _ => "Summarize",
        };
        out.push((label.to_string(), PromptSlot::Summarize(i)));
    }
    out
}

/// The prompt in a slot.
pub fn prompt(record: &TurnRecord, slot: PromptSlot) -> Option<&PromptRecord> {
    let p = &record.prompts;
    match slot {
        PromptSlot::Understand => p.understand.as_ref(),
        PromptSlot::Think => p.think.as_ref(),
        PromptSlot::Act(i) => p.act.get(i).map(|a| &a.prompt),
        PromptSlot::Reply => p.reply.as_ref(),
        PromptSlot::Summarize(i) => p.summarize.get(i),
    }
}

/// The parts of a prompt the cursor moves over: the system message, each
/// section, the response, then each request sent for it.
pub fn part_count(p: &PromptRecord) -> usize {
    p.full.sections.len() + 2 + p.calls.len()
}

/// The inspector's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InspectorState {
    /// The transcript index of the turn inspected.
    pub index: usize,
    /// The prompt selected in the list.
    pub selected: usize,
    /// The part under the cursor (0: system, then sections, last: response).
    pub cursor: usize,
    /// Parts opened with Enter (they stay open when the cursor leaves).
    pub opened: BTreeSet<usize>,
    /// The cursor's part was folded with Enter.
    pub cursor_folded: bool,
    /// Lines scrolled from the cursor's part (page keys).
    pub scroll: isize,
}

impl InspectorState {
    fn at(index: usize) -> Self {
        Self {
            index,
            selected: 0,
            cursor: 0,
            opened: BTreeSet::new(),
            cursor_folded: false,
            scroll: 0,
        }
    }

    /// True when part `i` shows its text: the one under the cursor (unless
    /// folded), and those opened.
    pub fn is_open(&self, i: usize) -> bool {
        self.opened.contains(&i) || (i == self.cursor && !self.cursor_folded)
    }

    /// The selected prompt of `record`, with its label.
    pub fn current<'a>(&self, record: &'a TurnRecord) -> Option<(String, &'a PromptRecord)> {
        let (label, slot) = slots(record).into_iter().nth(self.selected)?;
        prompt(record, slot).map(|p| (label, p))
    }

    /// Moves the cursor to part `to`: only that part opens by default.
    fn move_cursor(&mut self, to: usize) {
        self.cursor = to;
        self.cursor_folded = false;
        self.scroll = 0;
    }

    /// Selects another prompt: everything folds again.
    fn select(&mut self, to: usize) {
        *self = Self {
            selected: to,
            ..Self::at(self.index)
        };
    }
}

/// Opens the inspector on the inspected turn (the latest turn when live),
/// or closes it.
pub fn toggle(m: &mut Model) {
    if matches!(m.overlay, Some(Overlay::Inspector(_))) {
        m.overlay = None;
        return;
    }
    let index = match &m.inspect {
        Some(i) => i.index,
        None if !m.session.transcript.is_empty() => m.session.transcript.len() - 1,
        None => {
            m.status = Some((
                Level::Info,
                "no prompts yet — send a message, then inspect what was sent".into(),
            ));
            return;
        }
    };
    m.overlay = Some(Overlay::Inspector(InspectorState::at(index)));
}

/// A key while the inspector is open.
pub fn on_key(m: &mut Model, keymap: &Keymap, key: KeyEvent) -> Vec<Effect> {
    let Some(Overlay::Inspector(mut st)) = m.overlay.take() else {
        return Vec::new();
    };
    let ctx = KeyContext {
        typing: false,
        input_empty: true,
    };
    let Some(record) = m.session.transcript.get(st.index) else {
        return Vec::new();
    };
    let prompts = slots(record).len();
    let parts = st.current(record).map_or(0, |(_, p)| part_count(p));
    let page = (m.size.1 as isize / 2).max(1);
    match keymap.action(key, ctx) {
        Some(Action::Cancel | Action::Prompts) => return Vec::new(),
        Some(Action::Quit) => return super::update::on_action(m, Action::Quit),
        Some(Action::ScrollUp) => st.move_cursor(st.cursor.saturating_sub(1)),
        Some(Action::ScrollDown) => st.move_cursor((st.cursor + 1).min(parts.saturating_sub(1))),
        Some(Action::ScrollTop) => st.move_cursor(0),
        Some(Action::ScrollBottom) => st.move_cursor(parts.saturating_sub(1)),
        Some(Action::PageUp) => st.scroll -= page,
        Some(Action::PageDown) => st.scroll += page,
        Some(Action::MoveLeft) => st.select(st.selected.saturating_sub(1)),
        Some(Action::MoveRight) => st.select((st.selected + 1).min(prompts.saturating_sub(1))),
        Some(Action::InspectPrev) => st = InspectorState::at(st.index.saturating_sub(1)),
        Some(Action::InspectNext) => {
            let last = m.session.transcript.len().saturating_sub(1);
            st = InspectorState::at((st.index + 1).min(last));
        }
        Some(Action::Copy) => {
            m.overlay = Some(Overlay::Inspector(st));
            return super::copy::copy(m);
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
    m.overlay = Some(Overlay::Inspector(st));
    Vec::new()
}
