//! Keys while an overlay is open: the overlay's own handler changes its
//! state against a read-only model, and its [`Reply`] is carried out here —
//! the one place an overlay's key reaches the rest of the UI.

use crossterm::event::KeyEvent;

use super::effect::Effect;
use super::keymap::Keymap;
use super::model::{Level, Model, Overlay};
use super::reply::Reply;
use super::{copy, inspector, pickers, quit, timeline, travel, whatif};

/// A key while an overlay is open.
pub fn on_key(m: &mut Model, keymap: &Keymap, key: KeyEvent) -> Vec<Effect> {
    let Some(mut overlay) = m.overlay.take() else {
        return Vec::new();
    };
    let reply = match &mut overlay {
        Overlay::Help { scroll } => pickers::help_key(scroll, m, keymap, key),
        Overlay::Sessions { items, selected } => {
            pickers::sessions_key(items, selected, m, keymap, key)
        }
        Overlay::Timeline(st) => timeline::on_key(st, m, keymap, key),
        Overlay::Inspector(st) => inspector::on_key(st, m, keymap, key),
        Overlay::WhatIf(st) => whatif::on_key(st, m, keymap, key),
    };
    m.overlay = Some(overlay);
    carry_out(m, reply)
}

/// Does what the overlay asked.
fn carry_out(m: &mut Model, reply: Reply) -> Vec<Effect> {
    match reply {
        Reply::Stay => {}
        Reply::Close => m.overlay = None,
        Reply::CloseSaying(level, text) => {
            m.overlay = None;
            m.chrome.status = Some((level, text));
        }
        Reply::Quit => {
            m.overlay = None;
            return quit::quit(m);
        }
        Reply::Copy => return copy::copy(m),
        Reply::Inspect(index) => {
            m.overlay = None;
            m.panels.inspect = travel::inspected(&m.session, index);
            m.chrome.status = Some((Level::Info, "the panels show the turn you picked".into()));
        }
        Reply::ApplyPolicy => return whatif::apply(m),
        Reply::OpenSession(id) => {
            m.overlay = None;
            return vec![Effect::OpenSession(id)];
        }
    }
    Vec::new()
}
