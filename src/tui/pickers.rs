//! Keys of the small overlays: the help window (scrolls, closes) and the
//! session picker (moves, opens the picked session). Pure; called from
//! `update` while one of them is open.

use crossterm::event::KeyEvent;

use super::action::Action;
use super::effect::Effect;
use super::keymap::{KeyContext, Keymap};
use super::model::{Model, Overlay};
use super::scroll::page;

/// A key while the help or the session picker is open.
pub fn on_key(m: &mut Model, keymap: &Keymap, key: KeyEvent, overlay: Overlay) -> Vec<Effect> {
    let action = keymap.action(key, KeyContext::PANEL);
    match (overlay, action) {
        (_, Some(Action::Quit)) => super::quit::quit(m),
        (Overlay::Sessions { items, selected }, Some(Action::Select)) => {
            m.overlay = None;
            match items.get(selected) {
                Some(item) if item.id != m.session.id => vec![Effect::OpenSession(item.id.clone())],
                _ => Vec::new(),
            }
        }
        (Overlay::Sessions { items, selected }, Some(a)) => {
            let last = items.len().saturating_sub(1);
            let selected = match a {
                Action::ScrollUp => selected.saturating_sub(1),
                Action::ScrollDown => (selected + 1).min(last),
                Action::Cancel => {
                    m.overlay = None;
                    return Vec::new();
                }
                _ => selected,
            };
            m.overlay = Some(Overlay::Sessions { items, selected });
            Vec::new()
        }
        (Overlay::Help { .. }, Some(Action::Cancel | Action::Help | Action::Select)) => {
            m.overlay = None;
            Vec::new()
        }
        (Overlay::Help { scroll }, Some(a)) => {
            let page = page(m);
            let scroll = match a {
                Action::ScrollUp => scroll.saturating_sub(1),
                Action::ScrollDown => scroll + 1,
                Action::PageUp => scroll.saturating_sub(page),
                Action::PageDown => scroll + page,
                Action::ScrollTop => 0,
                _ => scroll,
            };
            // The view clamps to the help's length; this only bounds the count.
            m.overlay = Some(Overlay::Help {
                scroll: scroll.min(64),
            });
            Vec::new()
        }
        _ => Vec::new(),
    }
}
