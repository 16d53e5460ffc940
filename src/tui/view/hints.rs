//! The key-hint line: "Enter send · Tab focus · F1 help · Ctrl+C quit".
//!
//! Whole hints are dropped from the end when the row is too narrow (a cut
//! hint reads as a wrong key), but the one that opens help stays while it
//! fits at all: it is where every other key is found. A single hint that
//! still does not fit is truncated with "…". A view: it reads the hints it
//! is given.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::text::{render_bar, truncate, width};
use crate::tui::theme::Theme;

/// The key-hint line: `(keys, what they do)` pairs.
pub struct KeyHints<'a> {
    pub hints: &'a [(&'a str, &'a str)],
    pub theme: &'a Theme,
}

impl KeyHints<'_> {
    /// The line for `max` cells.
    pub fn line(&self, max: usize) -> Line<'static> {
        let t = self.theme;
        // A hint's cells, with the " · " before it.
        let cells = |(keys, what): &(&str, &str)| {
            let gap = if what.is_empty() { 0 } else { 1 };
            3 + width(keys) + gap + width(what)
        };
        let help = self.hints.iter().position(|(_, what)| *what == "help");
        // The first hint has no separator before it.
        let mut used = 0;
        let mut shown = vec![false; self.hints.len()];
        if let Some(h) = help.filter(|h| cells(&self.hints[*h]) - 3 <= max) {
            shown[h] = true;
            used = cells(&self.hints[h]) - 3;
        }
        for (i, hint) in self.hints.iter().enumerate() {
            if shown[i] {
                continue;
            }
            let w = if used == 0 {
                cells(hint) - 3
            } else {
                cells(hint)
            };
            if used + w > max {
                // Later hints are not tried: they are dropped from the end.
                break;
            }
            used += w;
            shown[i] = true;
        }
        if !shown.contains(&true) {
            let Some((keys, what)) = self.hints.first() else {
                return Line::default();
            };
            return Line::styled(truncate(&format!("{keys} {what}"), max), t.accent);
        }
        let mut spans: Vec<Span<'static>> = Vec::new();
        for (i, (keys, what)) in self.hints.iter().enumerate() {
            if !shown[i] {
                continue;
            }
            if !spans.is_empty() {
                spans.push(Span::styled(" · ", t.dim));
            }
            let gap = if what.is_empty() { "" } else { " " };
            spans.push(Span::styled(keys.to_string(), t.accent));
            spans.push(Span::styled(format!("{gap}{what}"), t.dim));
        }
        Line::from(spans)
    }
}

impl Widget for KeyHints<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        render_bar(area, buf, |max| self.line(max));
    }
}
