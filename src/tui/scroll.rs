//! Scrolling the panes: which pane the scroll keys act on, and moving its
//! offset — exactly for the chat (it knows its extent), clamped by the
//! views for the panels. Pure; called from `update`.

use super::model::{Model, Pane};

/// Lines scrolled by one arrow key or wheel notch.
pub const STEP: usize = 1;
pub const WHEEL: usize = 3;

/// The pane scroll keys act on: the focused one, or the chat while typing.
pub fn scroll_target(m: &Model) -> Pane {
    if m.focus == Pane::Input {
        Pane::Chat
    } else {
        m.focus
    }
}

/// Lines in a page: half the screen.
pub fn page(m: &Model) -> usize {
    (m.size.1 as usize / 2).max(1)
}

/// Where a scroll goes.
pub enum Dir {
    Up(usize),
    Down(usize),
    Top,
    Bottom,
}

/// Scrolls a pane. Scrolling the chat up stops following the bottom;
/// scrolling to the bottom resumes. A panel's offset is kept within its
/// content (measured as drawn), so after End a step up moves at once.
pub fn scroll(m: &mut Model, pane: Pane, dir: Dir) {
    if pane == Pane::Chat {
        return scroll_chat(m, dir);
    }
    let max =
        super::view::panel_extent(m, pane).map(|(total, height)| total.saturating_sub(height));
    let Some(s) = m.scroll_mut(pane) else { return };
    // A panel never follows its bottom (only the chat does): the offset
    // alone moves. History counts its offset up from the bottom (the newest
    // turn is there).
    let dir = if pane == Pane::History {
        match dir {
            Dir::Up(n) => Dir::Down(n),
            Dir::Down(n) => Dir::Up(n),
            Dir::Top => Dir::Bottom,
            Dir::Bottom => Dir::Top,
        }
    } else {
        dir
    };
    let to = match dir {
        Dir::Up(n) => s.offset.saturating_sub(n),
        Dir::Down(n) => s.offset.saturating_add(n),
        Dir::Top => 0,
        Dir::Bottom => max.unwrap_or(usize::MAX / 2),
    };
    s.offset = max.map_or(to, |max| to.min(max));
}

/// The chat knows its extent, so scrolling is exact: scrolling up from the
/// bottom starts where the view is; reaching the bottom follows it again.
fn scroll_chat(m: &mut Model, dir: Dir) {
    let (total, height) = m.chat_extent;
    let max = total.saturating_sub(height);
    let s = &mut m.chat_scroll;
    let at = if s.follow { max } else { s.offset.min(max) };
    let to = match dir {
        Dir::Up(n) => at.saturating_sub(n),
        Dir::Down(n) => at.saturating_add(n),
        Dir::Top => 0,
        Dir::Bottom => max,
    };
    s.offset = to.min(max);
    s.follow = to >= max;
}
