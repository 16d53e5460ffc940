//! Keys of the small overlays: the help window (scrolls, closes) and the
//! session picker (moves, opens the picked session). Pure; called from
//! `update` while one of them is open.

use crossterm::event::KeyEvent;

use super::action::Action;
use super::keymap::{KeyContext, Keymap};
use super::model::{Model, SessionItem};
use super::reply::Reply;
use super::scroll::page;

/// A key while the session picker is open: moves the selection.
pub fn sessions_key(
    items: &[SessionItem],
    selected: &mut usize,
    m: &Model,
    keymap: &Keymap,
    key: KeyEvent,
) -> Reply {
    let last = items.len().saturating_sub(1);
    match keymap.action(key, KeyContext::PANEL) {
        Some(Action::Quit) => Reply::Quit,
        Some(Action::Cancel) => Reply::Close,
        Some(Action::Select) => match items.get(*selected) {
            Some(item) if item.id != m.session.id => Reply::OpenSession(item.id.clone()),
            _ => Reply::Close,
        },
        Some(Action::ScrollUp) => {
            *selected = selected.saturating_sub(1);
            Reply::Stay
        }
        Some(Action::ScrollDown) => {
            *selected = (*selected + 1).min(last);
            Reply::Stay
        }
        _ => Reply::Stay,
    }
}

/// A key while the help is open: scrolls it.
pub fn help_key(scroll: &mut usize, m: &Model, keymap: &Keymap, key: KeyEvent) -> Reply {
    let page = page(m);
    let to = match keymap.action(key, KeyContext::PANEL) {
        Some(Action::Quit) => return Reply::Quit,
        Some(Action::Cancel | Action::Help | Action::Select) => return Reply::Close,
        Some(Action::ScrollUp) => scroll.saturating_sub(1),
        Some(Action::ScrollDown) => *scroll + 1,
        Some(Action::PageUp) => scroll.saturating_sub(page),
        Some(Action::PageDown) => *scroll + page,
        Some(Action::ScrollTop) => 0,
        _ => *scroll,
    };
    // The view clamps to the help's length; this only bounds the count.
    *scroll = to.min(64);
    Reply::Stay
}
