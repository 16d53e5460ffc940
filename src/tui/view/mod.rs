//! The views: the layout of the screen and one small widget per pane, each
//! drawing borrowed state — `&Model`, a `ContextSnapshot`, a `ContextDiff`.
//!
//! Views read, never write: scroll offsets and selections live in the model
//! and only `update` changes them (a view clamps an offset past the end when
//! drawing, without storing it). The chat pane and the input box are drawn by
//! the chat module into [`ScreenLayout::chat`] and [`ScreenLayout::input`];
//! [`render_panels`] draws everything else.

mod entities;
mod entity_rows;
mod help;
mod hints;
mod history;
mod layout;
mod narrative;
mod pipeline_bar;
mod sessions;
mod tabs;
mod text;
mod title;
mod too_small;

#[cfg(test)]
mod tests_bars;
#[cfg(test)]
mod tests_layout;
#[cfg(test)]
mod tests_panels;
#[cfg(test)]
mod tests_seed;
#[cfg(test)]
mod tests_support;

use ratatui::Frame;

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

use crate::tui::model::{Model, Overlay, Pane, Scroll};

/// The key texts the views show: the hint line, and the help overlay's
/// bindings and slash commands. Built by the app from its keymap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyHelp {
    /// `(keys, what)` for the hint line: ("Enter", "send").
    pub hints: Vec<(String, String)>,
    /// `(keys, description)` for the help overlay.
    pub bindings: Vec<(String, String)>,
    /// `(slash command, description)` for the help overlay.
    pub commands: Vec<(String, String)>,
}

impl Default for KeyHelp {
    /// The default keymap's hints; no commands.
    fn default() -> Self {
        let pairs: Vec<(String, String)> = DEFAULT_HINTS
            .iter()
            .map(|(k, w)| (k.to_string(), w.to_string()))
            .collect();
        Self {
            hints: pairs.clone(),
            bindings: pairs,
            commands: Vec::new(),
        }
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
    let title = TitleBar {
        header: &model.header,
        turn: model.snapshot.turn,
        status: model.status.as_ref(),
        theme,
    };
    frame.render_widget(title, m.title);
    if let (Some(area), Arrangement::Tabs { shown }) = (m.tabs, m.arrangement) {
        frame.render_widget(PaneTabs { shown, theme }, area);
    }
    let focused = |pane: Pane| model.focus == pane;
    if let Some(area) = m.entities {
        let panel = EntityPanel {
            snapshot: &model.snapshot,
            diff: model.diff.as_ref(),
            scroll: offset(model.entities_scroll),
            focused: focused(Pane::Entities),
            theme,
        };
        frame.render_widget(panel, area);
    }
    if let Some(area) = m.narrative {
        let panel = NarrativePanel {
            narrative: &model.snapshot.narrative,
            scroll: offset(model.narrative_scroll),
            focused: focused(Pane::Narrative),
            theme,
        };
        frame.render_widget(panel, area);
    }
    if let Some(area) = m.history {
        let panel = HistoryPanel {
            conversation: &model.snapshot.conversation,
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
    let hints: Vec<(&str, &str)> = keys
        .hints
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
    }
}

/// A panel's first line: its offset, or the end when following.
fn offset(scroll: Scroll) -> usize {
    if scroll.follow {
        usize::MAX
    } else {
        scroll.offset
    }
}
