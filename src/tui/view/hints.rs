//! The key-hint line: "Enter send · Tab focus · F1 help · Ctrl+C quit".
//!
//! Whole hints are dropped from the end when the row is too narrow (a cut
//! hint reads as a wrong key); a single hint that still does not fit is
//! truncated with "…". A view: it reads the hints it is given.

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
        let mut spans: Vec<Span<'static>> = Vec::new();
        let mut used = 0;
        for (i, (keys, what)) in self.hints.iter().enumerate() {
            let sep = if i == 0 { "" } else { " · " };
            let gap = if what.is_empty() { "" } else { " " };
            let w = width(sep) + width(keys) + width(gap) + width(what);
            if used + w > max {
                if i == 0 {
                    let text = truncate(&format!("{keys} {what}"), max);
                    return Line::styled(text, t.accent);
                }
                break;
            }
            used += w;
            spans.push(Span::styled(sep, t.dim));
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
