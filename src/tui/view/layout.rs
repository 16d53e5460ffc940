//! Where everything goes: the screen split into title bar, main area,
//! pipeline bar, input box and key hints, for any terminal size.
//!
//! Pure geometry over a `Rect` and the `Model` (focus, zoom, input lines);
//! it draws nothing and never panics, even at 0×0. Wide terminals show the
//! chat beside the three stacked panels; narrow ones show one pane at a time
//! under a tab row; a zoomed pane takes the whole main area.

use ratatui::layout::{Constraint, Layout, Rect};

use crate::tui::model::{Model, Pane};

/// Below this width or height the screen only shows a note.
pub const MIN_SIZE: (u16, u16) = (40, 12);
/// From this width on, the chat and the panels sit side by side.
pub const WIDE_WIDTH: u16 = 100;

/// How the main area is arranged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrangement {
    /// Chat on the left, Entities / Narrative / History stacked on the right.
    Wide,
    /// One pane at a time under a tab row; `shown` is the visible one.
    Tabs { shown: Pane },
    /// One pane fills the main area (`model.zoom`).
    Zoomed(Pane),
}

/// The screen's areas when the terminal is big enough.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MainLayout {
    pub arrangement: Arrangement,
    /// "alfred · session · turn N · llm" and the status message (1 row).
    pub title: Rect,
    /// The "Chat | Entities | Narrative | History" row (tabs only).
    pub tabs: Option<Rect>,
    /// Drawn by the chat module; `None` when another pane is shown.
    pub chat: Option<Rect>,
    pub entities: Option<Rect>,
    pub narrative: Option<Rect>,
    pub history: Option<Rect>,
    /// The pipeline bar (1 row).
    pub pipeline: Rect,
    /// The input box, borders included (3–8 rows); drawn by the chat module.
    pub input: Rect,
    /// The key-hint line (1 row).
    pub hints: Rect,
}

/// The screen's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenLayout {
    /// Smaller than [`MIN_SIZE`]: the whole screen is a note saying so.
    TooSmall {
        area: Rect,
    },
    Main(MainLayout),
}

impl ScreenLayout {
    /// The chat pane's area, when it is shown.
    pub fn chat(&self) -> Option<Rect> {
        self.main().and_then(|m| m.chat)
    }

    /// The input box's area (`None` when the terminal is too small).
    pub fn input(&self) -> Option<Rect> {
        self.main().map(|m| m.input)
    }

    /// The main layout, when the terminal is big enough.
    pub fn main(&self) -> Option<&MainLayout> {
        match self {
            ScreenLayout::Main(m) => Some(m),
            ScreenLayout::TooSmall { .. } => None,
        }
    }

    /// The area of a pane, when it is shown (for mouse hit-tests).
    pub fn pane(&self, pane: Pane) -> Option<Rect> {
        let m = self.main()?;
        match pane {
            Pane::Input => Some(m.input),
            Pane::Chat => m.chat,
            Pane::Entities => m.entities,
            Pane::Narrative => m.narrative,
            Pane::History => m.history,
        }
    }
}

/// Computes the layout of `area` for `model`.
pub fn layout(area: Rect, model: &Model) -> ScreenLayout {
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return ScreenLayout::TooSmall { area };
    }
    let input_rows = input_height(area.height, input_rows(model, area.width));
    let [title, main, pipeline, input, hints] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(input_rows),
        Constraint::Length(1),
    ])
    .areas(area);
    let mut out = MainLayout {
        arrangement: Arrangement::Wide,
        title,
        tabs: None,
        chat: None,
        entities: None,
        narrative: None,
        history: None,
        pipeline,
        input,
        hints,
    };
    let zoom = model
        .chrome
        .zoom
        .map(|p| if p == Pane::Input { Pane::Chat } else { p });
    if let Some(pane) = zoom {
        out.arrangement = Arrangement::Zoomed(pane);
        place(&mut out, pane, main);
    } else if area.width >= WIDE_WIDTH {
        let [chat, side] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Fill(1)]).areas(main);
        let [entities, narrative, history] = Layout::vertical([
            Constraint::Percentage(45),
            Constraint::Fill(1),
            Constraint::Fill(1),
        ])
        .areas(side);
        out.chat = Some(chat);
        out.entities = Some(entities);
        out.narrative = Some(narrative);
        out.history = Some(history);
    } else {
        let shown = match model.chrome.focus {
            Pane::Input | Pane::Chat => Pane::Chat,
            other => other,
        };
        let [tabs, pane] =
            Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(main);
        out.arrangement = Arrangement::Tabs { shown };
        out.tabs = Some(tabs);
        place(&mut out, shown, pane);
    }
    ScreenLayout::Main(out)
}

/// Gives `area` to `pane` (never the input, which has its own row).
fn place(out: &mut MainLayout, pane: Pane, area: Rect) {
    match pane {
        Pane::Input | Pane::Chat => out.chat = Some(area),
        Pane::Entities => out.entities = Some(area),
        Pane::Narrative => out.narrative = Some(area),
        Pane::History => out.history = Some(area),
    }
}

/// The rows the message box's text takes at `width` columns: each line's
/// wrapped rows while the box wraps, else one a line.
fn input_rows(model: &Model, width: u16) -> usize {
    let input = &model.chat.input;
    if input.wrap_mode() == ratatui_textarea::WrapMode::None {
        return input.lines().len();
    }
    let inner = usize::from(width.saturating_sub(2)).max(1);
    input
        .lines()
        .iter()
        .map(|l| unicode_width::UnicodeWidthStr::width(l.as_str()) / inner + 1)
        .sum()
}

/// The input box's rows: its lines plus borders, 3 to 8, at most a third
/// of the screen (but never under 3).
pub fn input_height(screen_rows: u16, input_lines: usize) -> u16 {
    let wanted = u16::try_from(input_lines.saturating_add(2)).unwrap_or(u16::MAX);
    wanted.clamp(3, 8).min(screen_rows / 3).max(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_grows_with_its_lines_up_to_a_third_of_the_screen() {
        assert_eq!(input_height(40, 1), 3);
        assert_eq!(input_height(40, 4), 6);
        assert_eq!(input_height(40, 30), 8);
        assert_eq!(input_height(18, 30), 6);
        assert_eq!(input_height(12, 30), 4);
        assert_eq!(input_height(6, 1), 3);
    }
}
