//! Scrolling the panes: which pane the scroll keys act on, and moving its
//! offset — exactly for the chat (it knows its extent), clamped by the
//! views for the panels. Pure; called from `update`.

use ratatui::layout::Rect;

use super::chat::{ChatLayoutCache, content_area, first_visible_line};
use super::model::{Model, Pane, Scroll, TurnState};

/// Lines scrolled by one arrow key or wheel notch.
pub const STEP: usize = 1;
pub const WHEEL: usize = 3;

/// The pane scroll keys act on: the focused one, or the chat while typing.
pub fn scroll_target(m: &Model) -> Pane {
    if m.chrome.focus == Pane::Input {
        Pane::Chat
    } else {
        m.chrome.focus
    }
}

/// Lines in a page: half the screen.
pub fn page(m: &Model) -> usize {
    (m.chrome.size.1 as usize / 2).max(1)
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

/// The chat as the view draws it now: its laid-out lines (the memo brought
/// up to date) and the lines its view holds. `None` when the chat is not
/// on screen.
pub fn chat_lines(m: &mut Model) -> Option<(&ChatLayoutCache, usize)> {
    let screen = Rect::new(0, 0, m.chrome.size.0, m.chrome.size.1);
    let text = content_area(super::view::layout(screen, m).chat()?);
    let retry = match m.turn.state {
        TurnState::Failed { .. } => m.chrome.retry_key.as_deref(),
        _ => None,
    };
    let cache = m
        .chat
        .layout
        .lines_for(&m.chat.messages, text.width, &m.chrome.theme, retry);
    Some((cache, usize::from(text.height)))
}

/// Brings message `index` to the top of the chat's view (as far down as the
/// view scrolls); the chat stops following its bottom.
pub fn chat_to_message(m: &mut Model, index: usize) {
    let Some((cache, height)) = chat_lines(m) else {
        return;
    };
    let Some(start) = cache.start_of(index) else {
        return;
    };
    let max = cache.total_lines().saturating_sub(height);
    m.chat.scroll = Scroll {
        offset: start.min(max),
        follow: false,
    };
}

/// The message at the top of the chat's view.
pub fn chat_top_message(m: &mut Model) -> Option<usize> {
    let scroll = m.chat.scroll;
    let (cache, height) = chat_lines(m)?;
    let offset = first_visible_line(scroll, cache.total_lines(), height);
    (cache.total_lines() > 0).then(|| cache.message_at(offset))
}

/// The chat measures its lines as drawn, so scrolling is exact: scrolling
/// up from the bottom starts where the view is; reaching the bottom follows
/// it again.
fn scroll_chat(m: &mut Model, dir: Dir) {
    let (total, height) = chat_lines(m).map_or((0, 0), |(c, h)| (c.total_lines(), h));
    let max = total.saturating_sub(height);
    let s = &mut m.chat.scroll;
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
