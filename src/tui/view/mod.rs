//! The views: the layout of the screen and one small widget per pane, each
//! drawing borrowed state — `&Model`, a `ContextSnapshot`, a `ContextDiff`.
//!
//! Views read, never write: scroll offsets and selections live in the model
//! and only `update` changes them (a view clamps an offset past the end when
//! drawing, without storing it). The chat pane and the input box are drawn by
//! the chat module into [`ScreenLayout::chat`] and [`ScreenLayout::input`];
//! [`render_panels`] draws everything else.

mod change_rows;
mod diff_panel;
mod entities;
mod entity_rows;
mod help;
mod hints;
mod history;
pub mod inspector;
mod layout;
mod narrative;
mod pipeline_bar;
mod sessions;
mod tabs;
mod text;
pub mod timeline;
mod title;
mod too_small;
pub mod whatif;

#[cfg(test)]
mod tests_bars;
#[cfg(test)]
mod tests_diff;
#[cfg(test)]
mod tests_inspector;
#[cfg(test)]
mod tests_layout;
#[cfg(test)]
mod tests_panels;
#[cfg(test)]
mod tests_seed;
#[cfg(test)]
mod tests_support;
#[cfg(test)]
mod tests_timeline;
#[cfg(test)]
mod tests_travel;
#[cfg(test)]
mod tests_whatif;

use ratatui::Frame;

pub use diff_panel::DiffPanel;
pub use entities::EntityPanel;
pub use help::HelpOverlay;
pub use hints::{DEFAULT_HINTS, KeyHints};
pub use history::HistoryPanel;
pub use layout::{
    Arrangement, MIN_SIZE, MainLayout, ScreenLayout, WIDE_WIDTH, input_height, layout,
};
pub use narrative::NarrativePanel;
pub use pipeline_bar::{PipelineBarView, SPINNER};
pub use sessions::SessionPicker;
pub use tabs::PaneTabs;
pub use text::{truncate, width, wrap};
pub use title::TitleBar;
pub use too_small::TooSmallNote;

use std::collections::BTreeMap;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

use crate::tui::action::Action;
use crate::tui::keymap::Keymap;
use crate::tui::model::{Model, Overlay, Pane, Scroll};
use crate::tui::travel;

/// The key texts the views show: the hint line, and the help overlay's
/// bindings and slash commands. Built by the app from its keymap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyHelp {
    /// `(keys, what)` for the hint line: ("Enter", "send").
    pub hints: Vec<(String, String)>,
    /// The hint line while time travelling: ("]", "next")…
    pub travel_hints: Vec<(String, String)>,
    /// `(keys, description)` for the help overlay.
    pub bindings: Vec<(String, String)>,
    /// `(slash command, description)` for the help overlay.
    pub commands: Vec<(String, String)>,
    /// The key to name for each action in on-screen markers ("]").
    pub keys: BTreeMap<Action, String>,
}

impl KeyHelp {
    /// The key named for `action`, or "?" when it has none. Arrow keys
    /// are named by their arrows ("↑").
    pub fn key(&self, action: Action) -> &str {
        match self.keys.get(&action).map_or("?", String::as_str) {
            "Up" => "↑",
            "Down" => "↓",
            "Left" => "←",
            "Right" => "→",
            other => other,
        }
    }

    /// The key texts of a keymap (hints, help, markers); no commands.
    pub fn of(keymap: &Keymap) -> Self {
        let hint = |a: Action, what: &str| keymap.first_key(a).map(|k| (k, what.to_string()));
        let panel = |a: Action, what: &str| keymap.panel_key(a).map(|k| (k, what.to_string()));
        let hints = [
            hint(Action::Submit, "send"),
            hint(Action::FocusNext, "focus"),
            hint(Action::Help, "help"),
            hint(Action::Cancel, "cancel"),
            hint(Action::Quit, "quit"),
        ];
        let travel_hints = [
            panel(Action::InspectPrev, "back"),
            panel(Action::InspectNext, "next"),
            panel(Action::ToggleDiff, "diff"),
            panel(Action::Timeline, "timeline"),
            panel(Action::Prompts, "prompts"),
            panel(Action::WhatIf, "what-if"),
            panel(Action::Copy, "copy"),
            hint(Action::Cancel, "live"),
            hint(Action::FocusNext, "focus"),
            hint(Action::Help, "help"),
        ];
        Self {
            hints: hints.into_iter().flatten().collect(),
            travel_hints: travel_hints.into_iter().flatten().collect(),
            bindings: keymap.describe(),
            commands: Vec::new(),
            keys: Action::ALL
                .iter()
                .filter_map(|a| keymap.panel_key(*a).map(|k| (*a, k)))
                .collect(),
        }
    }
}

impl Default for KeyHelp {
    /// The default keymap's hints; no commands.
    fn default() -> Self {
        let mut help = Self::of(&Keymap::default_keys());
        help.hints = DEFAULT_HINTS
            .iter()
            .map(|(k, w)| (k.to_string(), w.to_string()))
            .collect();
        help
    }
}

/// Draws every pane except the chat and the input box, with the default
/// key texts (see [`render_panels_with`]).
pub fn render_panels(frame: &mut Frame, layout: &ScreenLayout, model: &Model) {
    render_panels_with(frame, layout, model, &KeyHelp::default());
}

/// Draws the title bar, the tab row, the Entities / Narrative / History
/// panels that are on screen, the pipeline bar, the key hints and any
/// overlay — or only the too-small note. The chat and input areas are left
/// for the chat module: draw those first, so the overlay stays on top.
pub fn render_panels_with(frame: &mut Frame, layout: &ScreenLayout, model: &Model, keys: &KeyHelp) {
    let theme = &model.theme;
    let m = match layout {
        ScreenLayout::TooSmall { area } => {
            let size = (area.width, area.height);
            frame.render_widget(TooSmallNote { size, theme }, *area);
            return;
        }
        ScreenLayout::Main(m) => m,
    };
    let position = travel::position(model);
    let viewing = position.map(|(turn, of)| {
        format!(
            "viewing turn {turn} of {of} — {} next, {} back to live",
            keys.key(Action::InspectNext),
            keys.key(Action::Cancel)
        )
    });
    let title = TitleBar {
        header: &model.header,
        turn: model.shown_snapshot().turn,
        viewing: viewing.as_deref(),
        status: model.status.as_ref(),
        theme,
    };
    frame.render_widget(title, m.title);
    if let (Some(area), Arrangement::Tabs { shown }) = (m.tabs, m.arrangement) {
        frame.render_widget(PaneTabs { shown, theme }, area);
    }
    let focused = |pane: Pane| model.focus == pane;
    let snapshot = model.shown_snapshot();
    let stamp = position.map(|(turn, of)| format!(" turn {turn} of {of} · stored "));
    if let Some(area) = m.entities {
        if let Some(Overlay::WhatIf(st)) = &model.overlay {
            let panel = whatif::WhatIfPanel {
                state: st,
                current: &model.session.context.policy,
                scroll: offset(model.entities_scroll),
                focused: true,
                theme,
            };
            frame.render_widget(panel, area);
        } else if model.show_diff {
            let panel = DiffPanel {
                snapshot,
                diff: model.shown_diff(),
                scroll: offset(model.entities_scroll),
                focused: focused(Pane::Entities),
                theme,
            };
            frame.render_widget(panel, area);
        } else {
            let panel = EntityPanel {
                snapshot,
                diff: model.shown_diff(),
                scroll: offset(model.entities_scroll),
                focused: focused(Pane::Entities),
                theme,
            };
            frame.render_widget(panel, area);
        }
    }
    if let Some(area) = m.narrative {
        let panel = NarrativePanel {
            narrative: &snapshot.narrative,
            scroll: offset(model.narrative_scroll),
            focused: focused(Pane::Narrative),
            theme,
        };
        frame.render_widget(panel, area);
    }
    if let Some(area) = m.history {
        let panel = HistoryPanel {
            conversation: &snapshot.conversation,
            scroll: offset(model.history_scroll),
            focused: focused(Pane::History),
            theme,
        };
        frame.render_widget(panel, area);
    }
    let bar = PipelineBarView {
        bar: &model.bar,
        turn: &model.turn,
        spinner: model.spinner,
        theme,
    };
    frame.render_widget(bar, m.pipeline);
    if let Some(text) = &stamp {
        for area in [m.entities, m.narrative, m.history].into_iter().flatten() {
            stamp_panel(frame.buffer_mut(), area, text, theme.status_bar);
        }
    }
    let hints = if position.is_some() {
        &keys.travel_hints
    } else {
        &keys.hints
    };
    let hints: Vec<(&str, &str)> = hints
        .iter()
        .map(|(k, w)| (k.as_str(), w.as_str()))
        .collect();
    frame.render_widget(
        KeyHints {
            hints: &hints,
            theme,
        },
        m.hints,
    );
    render_overlay(frame, model, keys);
}

/// Draws the open overlay (help or the session picker) over the whole frame.
pub fn render_overlay(frame: &mut Frame, model: &Model, keys: &KeyHelp) {
    let theme = &model.theme;
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
                r.llm.starts_with("offline") || (r.llm.is_empty() && model.header.llm == "offline")
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
                context_window: model.context_window,
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

/// Writes `text` on the bottom border of a panel, from its third column:
/// the time-travel marker, where the scroll marker (right) leaves room.
pub fn stamp_panel(buf: &mut Buffer, area: Rect, text: &str, style: Style) {
    let area = area.intersection(buf.area);
    if area.height < 2 || area.width < 6 {
        return;
    }
    let room = area.width - 4;
    let text = truncate(text, usize::from(room));
    buf.set_line(
        area.x + 2,
        area.bottom() - 1,
        &Line::styled(text, style),
        room,
    );
}

/// A panel's first line: its offset, or the end when following.
fn offset(scroll: Scroll) -> usize {
    if scroll.follow {
        usize::MAX
    } else {
        scroll.offset
    }
}
