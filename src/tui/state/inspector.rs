//! The prompt inspector's state: which turn, which prompt, which part is
//! under the cursor and which are open, and where each prompt of a record
//! lives. Plain data; the keys that change it are in `tui::inspector`.

use std::collections::BTreeSet;

use crate::prompt::PromptNode;
use crate::record::{PromptRecord, TurnRecord};

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
    pub(crate) fn at(index: usize) -> Self {
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
    pub(crate) fn move_cursor(&mut self, to: usize) {
        self.cursor = to;
        self.cursor_folded = false;
        self.scroll = 0;
    }

    /// Selects another prompt: everything folds again.
    pub(crate) fn select(&mut self, to: usize) {
        *self = Self {
            selected: to,
            ..Self::at(self.index)
        };
    }
}
