//! One frame: the layout, the chat and the message box, then the panels and
//! overlays on top. Reads the model; the only state it keeps is the chat's
//! layout cache, a render-side memo.

use ratatui::Frame;

use super::chat::{ChatLayoutCache, ChatPane, render_chat, render_input};
use super::commands::COMMANDS;
use super::keymap::Keymap;
use super::model::{Model, Overlay, Pane};
use super::view::{self, KeyHelp};

/// Render-side memo state, owned by the app loop.
#[derive(Default)]
pub struct Caches {
    pub chat: ChatLayoutCache,
}

/// Lines of the chat transcript and the height of its view, as last drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChatExtent {
    pub total: usize,
    pub height: usize,
}

/// Draws a frame; returns the chat's extent so scrolling can be exact.
pub fn draw(
    frame: &mut Frame,
    model: &Model,
    keymap: &Keymap,
    caches: &mut Caches,
) -> Option<ChatExtent> {
    if model.overlay.as_ref().is_some_and(Overlay::is_full_screen) {
        // Nothing under a full-screen view shows: draw only the view.
        view::render_overlay(frame, model, &key_help(keymap));
        return None;
    }
    let layout = view::layout(frame.area(), model);
    let mut extent = None;
    if let Some(area) = layout.chat() {
        let pane = ChatPane {
            messages: &model.chat,
            scroll: model.chat_scroll,
            focused: model.focus == Pane::Chat,
            theme: &model.theme,
            streaming: model.is_running(),
        };
        render_chat(frame, area, pane, &mut caches.chat);
        let height = usize::from(super::chat::content_area(area).height);
        extent = Some(ChatExtent {
            total: caches.chat.total_lines(),
            height,
        });
    }
    if let Some(area) = layout.input() {
        render_input(
            frame,
            area,
            &model.input,
            model.focus == Pane::Input,
            model.is_running(),
            &model.theme,
        );
    }
    view::render_panels_with(frame, &layout, model, &key_help(keymap));
    extent
}

/// The hint line, the help's bindings and the slash commands.
pub fn key_help(keymap: &Keymap) -> KeyHelp {
    KeyHelp {
        commands: COMMANDS
            .iter()
            .map(|(c, d)| (c.to_string(), d.to_string()))
            .collect(),
        ..KeyHelp::of(keymap)
    }
}
