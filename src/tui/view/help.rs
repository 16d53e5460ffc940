//! The help overlay: every key binding and slash command in a centered box,
//! scrollable when it does not fit.
//!
//! The lists come from the caller (the keymap's `describe()` and the slash
//! commands), so help always shows the keys actually bound. A view: it reads
//! the lists, writes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Widget};

use super::text::{ScrolledPanel, fit, one_line, width, wrap_hanging};
use crate::tui::theme::Theme;

/// The help overlay.
pub struct HelpOverlay<'a> {
    /// `(keys, description)`: "Ctrl+C · q (panel)", "quit".
    pub bindings: &'a [(String, String)],
    /// `(slash command, description)`: "/pin REF", "keep an entity…".
    pub commands: &'a [(String, String)],
    /// Lines scrolled from the top.
    pub scroll: usize,
    pub theme: &'a Theme,
}

impl HelpOverlay<'_> {
    /// The box's content laid out for `max` cells. Keys are never cut: a
    /// key list wider than the key column (two fifths of the box) takes a
    /// line of its own, its description under it.
    pub fn lines(&self, max: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let mut out = Vec::new();
        // The commands first: a handful, and no key hints at them.
        let groups = [("Commands", self.commands), ("Keys", self.bindings)];
        for (title, items) in groups.into_iter().filter(|(_, i)| !i.is_empty()) {
            if !out.is_empty() {
                out.push(Line::default());
            }
            out.push(Line::styled(title, t.heading));
            let key_w = items
                .iter()
                .map(|(k, _)| width(&one_line(k)))
                .max()
                .unwrap_or(0)
                .min(max * 2 / 5)
                .max(1);
            let indent = key_w + 3;
            let room = max.saturating_sub(indent);
            let pad = || Span::raw(" ".repeat(key_w + 2));
            for (keys, what) in items {
                let keys = one_line(keys);
                let rows = wrap_hanging(what, room, room);
                if width(&keys) > key_w {
                    let key_rows =
                        wrap_hanging(&keys, max.saturating_sub(1), max.saturating_sub(3));
                    for (i, row) in key_rows.into_iter().enumerate() {
                        let lead = if i == 0 { " " } else { "   " };
                        out.push(Line::styled(format!("{lead}{row}"), t.accent));
                    }
                    for row in rows {
                        out.push(Line::from(vec![
                            pad(),
                            Span::styled(format!(" {row}"), t.text),
                        ]));
                    }
                    continue;
                }
                for (i, row) in rows.into_iter().enumerate() {
                    let lead = if i == 0 {
                        Span::styled(format!(" {} ", fit(&keys, key_w)), t.accent)
                    } else {
                        pad()
                    };
                    out.push(Line::from(vec![
                        lead,
                        Span::styled(format!(" {row}"), t.text),
                    ]));
                }
            }
        }
        if out.is_empty() {
            out.push(Line::styled("No key bindings to show.", t.dim));
        }
        out
    }

    /// The box for `area`: as wide as its widest line needs (at most 100
    /// columns), as tall as its content allows.
    pub fn area(&self, area: Rect) -> Rect {
        let widest = area.width.saturating_sub(4).min(100);
        let frame = widest.saturating_sub(
            u16::try_from(ScrolledPanel::inner_width(Rect {
                width: widest,
                ..area
            }))
            .unwrap_or(0),
        );
        let inner = |w: u16| ScrolledPanel::inner_width(Rect { width: w, ..area });
        let natural = self
            .lines(inner(widest))
            .iter()
            .map(Line::width)
            .max()
            .unwrap_or(0);
        let w = (u16::try_from(natural)
            .unwrap_or(u16::MAX)
            .saturating_add(frame))
        .min(widest);
        let content = self.lines(inner(w)).len();
        let h = u16::try_from(content + 2)
            .unwrap_or(u16::MAX)
            .min(area.height.saturating_sub(2));
        area.centered(Constraint::Length(w), Constraint::Length(h))
    }
}

impl Widget for HelpOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = self.area(area.intersection(buf.area));
        if area.is_empty() {
            return;
        }
        Clear.render(area, buf);
        let lines = self.lines(ScrolledPanel::inner_width(area));
        ScrolledPanel {
            title: Line::from(" Help · Esc closes "),
            lines,
            scroll: self.scroll,
            focused: true,
            theme: self.theme,
        }
        .render(area, buf);
    }
}
