//! The overlays drawn over the frame: the help window, the session picker,
//! the entity timeline and the prompt inspector (full screen), and the
//! policy what-if box (over the chat, its comparison being in the Entities
//! panel). Views: they read the model, write nothing.

use ratatui::Frame;
use ratatui::layout::Rect;

use super::{
    HelpOverlay, KeyHelp, ScreenLayout, SessionPicker, inspector, layout, timeline, whatif,
};
use crate::tui::action::Action;
use crate::tui::model::{Model, Overlay};

/// Draws the open overlay (help or the session picker) over the whole frame.
pub fn render_overlay(frame: &mut Frame, model: &Model, keys: &KeyHelp) {
    let theme = &model.chrome.theme;
    let area = frame.area();
    match &model.overlay {
        None => {}
        Some(Overlay::Help { scroll }) => {
            let help = HelpOverlay {
                bindings: &keys.bindings,
                commands: &keys.commands,
                scroll: *scroll,
                theme,
            };
            frame.render_widget(help, area);
        }
        Some(Overlay::Sessions { items, selected }) => {
            let picker = SessionPicker {
                items,
                selected: *selected,
                theme,
            };
            frame.render_widget(picker, area);
        }
        Some(Overlay::Timeline(state)) => {
            let keys_line = format!(
                "{} type · {} text · {} show the turn",
                keys.key(Action::Filter),
                keys.key(Action::Search),
                keys.key(Action::Select)
            );
            let view = timeline::TimelineView {
                state,
                theme,
                keys_line: &keys_line,
            };
            frame.render_widget(view, area);
        }
        Some(Overlay::WhatIf(state)) => {
            let keys_line = format!(
                "{}{} choose · {}{} change · {} apply · {} discard",
                keys.key(Action::ScrollUp),
                keys.key(Action::ScrollDown),
                keys.key(Action::MoveLeft),
                keys.key(Action::MoveRight),
                keys.key(Action::Select),
                keys.key(Action::Cancel),
            );
            let host = whatif_host(frame.area(), model);
            let height = whatif::BOX_HEIGHT.min(host.height);
            let area = Rect {
                y: host.bottom() - height,
                height,
                ..host
            };
            let view = whatif::WhatIfBox {
                state,
                current: &model.session.context.policy,
                theme,
                keys_line: &keys_line,
            };
            frame.render_widget(view, area);
        }
        Some(Overlay::Inspector(state)) => {
            let record = model.session.transcript.get(state.index);
            let offline = record.is_some_and(|r| {
                r.llm.starts_with("offline")
                    || (r.llm.is_empty() && model.chrome.header.llm == "offline")
            });
            let keys_line = format!(
                "{}{} part · {}{} prompt · {} fold · {} {} turn · {} close",
                keys.key(Action::ScrollUp),
                keys.key(Action::ScrollDown),
                keys.key(Action::MoveLeft),
                keys.key(Action::MoveRight),
                keys.key(Action::Select),
                keys.key(Action::InspectPrev),
                keys.key(Action::InspectNext),
                keys.key(Action::Cancel),
            );
            let view = inspector::InspectorView {
                state,
                record,
                context_window: model.chrome.context_window,
                offline,
                theme,
                keys_line: &keys_line,
            };
            frame.render_widget(view, area);
        }
    }
}

/// Where the what-if box goes: over the bottom of the chat when the chat
/// is beside the panels, else over the bottom of the screen's main area.
fn whatif_host(area: Rect, model: &Model) -> Rect {
    match layout(area, model) {
        ScreenLayout::Main(m) => m.chat.or(m.entities).unwrap_or(m.title),
        ScreenLayout::TooSmall { area } => area,
    }
}
