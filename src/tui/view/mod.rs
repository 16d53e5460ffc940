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
pub mod footer;
mod help;
mod hints;
mod history;
pub mod inspector;
mod key_help;
mod layout;
mod narrative;
mod overlays;
mod pipeline_bar;
mod sessions;
mod standing;
mod tabs;
mod text;
pub mod timeline;
mod title;
mod too_small;
pub mod whatif;

#[cfg(test)]
mod bars_tests;
#[cfg(test)]
mod diff_tests;
#[cfg(test)]
mod inspector_tests;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod panels_tests;
#[cfg(test)]
mod seed_tests;
#[cfg(test)]
pub(crate) mod test_support;
#[cfg(test)]
mod timeline_tests;
#[cfg(test)]
mod travel_tests;
#[cfg(test)]
mod whatif_tests;

use ratatui::Frame;

pub use diff_panel::DiffPanel;
pub use entities::EntityPanel;
pub use help::HelpOverlay;
pub use hints::KeyHints;
pub use history::HistoryPanel;
pub use key_help::KeyHelp;
pub use layout::{
    Arrangement, MIN_SIZE, MainLayout, ScreenLayout, WIDE_WIDTH, input_height, layout,
};
pub use narrative::NarrativePanel;
pub use overlays::render_overlay;
pub use pipeline_bar::{PipelineBarView, SPINNER};
pub use sessions::SessionPicker;
pub use tabs::PaneTabs;
pub use text::{truncate, width, wrap};
pub use title::TitleBar;
pub use too_small::TooSmallNote;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

use crate::tui::action::Action;
use crate::tui::model::{Model, Overlay, Pane, Scroll};

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
    let theme = &model.chrome.theme;
    let m = match layout {
        ScreenLayout::TooSmall { area } => {
            let size = (area.width, area.height);
            frame.render_widget(TooSmallNote { size, theme }, *area);
            return;
        }
        ScreenLayout::Main(m) => m,
    };
    let position = model.panels.travel_position(model.session.context.turn);
    let viewing = position.map(|(turn, of)| {
        format!(
            "viewing turn {turn} of {of} — {} next, {} back to live",
            keys.key(Action::InspectNext),
            keys.key(Action::Cancel)
        )
    });
    let title = TitleBar {
        header: &model.chrome.header,
        turn: model.panels.shown_snapshot().turn,
        running: model
            .turn
            .is_running()
            .then(|| model.session.context.turn + 1),
        viewing: viewing.as_deref(),
        status: model.chrome.status.as_ref(),
        theme,
    };
    frame.render_widget(title, m.title);
    if let (Some(area), Arrangement::Tabs { shown }) = (m.tabs, m.arrangement) {
        frame.render_widget(PaneTabs { shown, theme }, area);
    }
    let focused = |pane: Pane| model.chrome.focus == pane;
    let snapshot = model.panels.shown_snapshot();
    let stamp = position.map(|(turn, of)| format!(" turn {turn} of {of} · stored "));
    if let Some(area) = m.entities {
        if let Some(Overlay::WhatIf(st)) = &model.overlay {
            let panel = whatif::WhatIfPanel {
                state: st,
                current: &model.session.context.policy,
                scroll: offset(model.panels.entities_scroll),
                focused: true,
                theme,
            };
            frame.render_widget(panel, area);
        } else if model.panels.show_diff {
            let panel = DiffPanel {
                snapshot,
                diff: model.panels.shown_diff(),
                scroll: offset(model.panels.entities_scroll),
                focused: focused(Pane::Entities),
                theme,
            };
            frame.render_widget(panel, area);
        } else {
            let panel = EntityPanel {
                snapshot,
                diff: model.panels.shown_diff(),
                scroll: offset(model.panels.entities_scroll),
                focused: focused(Pane::Entities),
                theme,
            };
            frame.render_widget(panel, area);
        }
    }
    if let Some(area) = m.narrative {
        let panel = NarrativePanel {
            narrative: &snapshot.narrative,
            running: model
                .turn
                .running
                .as_ref()
                .filter(|_| model.panels.inspect.is_none()),
            scroll: offset(model.panels.narrative_scroll),
            focused: focused(Pane::Narrative),
            theme,
        };
        frame.render_widget(panel, area);
    }
    if let Some(area) = m.history {
        let panel = HistoryPanel {
            conversation: &snapshot.conversation,
            scroll: offset(model.panels.history_scroll),
            focused: focused(Pane::History),
            theme,
        };
        frame.render_widget(panel, area);
    }
    let retry = footer::retry_key(model, keys);
    // Travelling, the bar is the viewed turn's, from its record: the live
    // turn's timings would be read as that turn's.
    let viewed = model
        .panels
        .inspect
        .as_ref()
        .and_then(|i| model.session.transcript.get(i.index))
        .map(crate::tui::model::PipelineBar::of_record);
    let idle = crate::tui::model::TurnState::Idle;
    let bar = PipelineBarView {
        bar: viewed.as_ref().unwrap_or(&model.turn.bar),
        turn: if viewed.is_some() {
            &idle
        } else {
            &model.turn.state
        },
        spinner: model.turn.spinner,
        now: Some(std::time::Instant::now()),
        retry_key: retry.as_deref(),
        theme,
    };
    frame.render_widget(bar, m.pipeline);
    if let Some(text) = &stamp {
        for area in [m.entities, m.narrative, m.history].into_iter().flatten() {
            stamp_panel(frame.buffer_mut(), area, text, theme.status_bar);
        }
    }
    let hints = footer::footer_hints(model, keys);
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

/// A panel's lines at `width`, as drawn (and copied): the Entities panel
/// (or the turn diff in its place), the Narrative, the History. Empty for
/// the chat and the message box.
pub fn panel_lines(model: &Model, pane: Pane, width: usize) -> Vec<Line<'static>> {
    let snapshot = model.panels.shown_snapshot();
    let theme = &model.chrome.theme;
    match pane {
        Pane::Entities if model.panels.show_diff => DiffPanel {
            snapshot,
            diff: model.panels.shown_diff(),
            scroll: 0,
            focused: false,
            theme,
        }
        .lines(width),
        Pane::Entities => EntityPanel {
            snapshot,
            diff: model.panels.shown_diff(),
            scroll: 0,
            focused: false,
            theme,
        }
        .lines(width),
        Pane::Narrative => NarrativePanel {
            narrative: &snapshot.narrative,
            running: model
                .turn
                .running
                .as_ref()
                .filter(|_| model.panels.inspect.is_none()),
            scroll: 0,
            focused: false,
            theme,
        }
        .lines(width),
        Pane::History => HistoryPanel {
            conversation: &snapshot.conversation,
            scroll: 0,
            focused: false,
            theme,
        }
        .lines(width),
        Pane::Chat | Pane::Input => Vec::new(),
    }
}

/// Lines of a panel's content and lines in its view at the model's screen
/// size, laid out as drawn: what scrolling clamps to, measured without
/// drawing. `None` for the chat, the message box, or a panel not on screen.
pub fn panel_extent(model: &Model, pane: Pane) -> Option<(usize, usize)> {
    let screen = Rect::new(0, 0, model.chrome.size.0, model.chrome.size.1);
    let ScreenLayout::Main(m) = layout(screen, model) else {
        return None;
    };
    let area = match pane {
        Pane::Entities => m.entities,
        Pane::Narrative => m.narrative,
        Pane::History => m.history,
        Pane::Chat | Pane::Input => None,
    }?;
    let w = text::ScrolledPanel::inner_width(area);
    let total = match (&model.overlay, pane) {
        // The what-if comparison stands in the Entities panel.
        (Some(Overlay::WhatIf(st)), Pane::Entities) => whatif::WhatIfPanel {
            state: st,
            current: &model.session.context.policy,
            scroll: 0,
            focused: true,
            theme: &model.chrome.theme,
        }
        .lines(w)
        .len(),
        _ => panel_lines(model, pane, w).len(),
    };
    Some((total, usize::from(area.height.saturating_sub(2))))
}
