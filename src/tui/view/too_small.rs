//! The note that replaces the whole screen when the terminal is smaller than
//! alfred needs: "Terminal too small: 38×10 — alfred needs at least 40×12".

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Widget;

use super::layout::MIN_SIZE;
use super::text::{width, wrap};
use crate::tui::theme::Theme;

/// The too-small note for a terminal of `size` (columns, rows).
pub struct TooSmallNote<'a> {
    pub size: (u16, u16),
    pub theme: &'a Theme,
}

impl TooSmallNote<'_> {
    /// The note's text.
    pub fn text(&self) -> String {
        format!(
            "Terminal too small: {}×{} — alfred needs at least {}×{}",
            self.size.0, self.size.1, MIN_SIZE.0, MIN_SIZE.1
        )
    }
}

impl Widget for TooSmallNote<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let lines = wrap(&self.text(), usize::from(area.width));
        let shown = lines.len().min(usize::from(area.height));
        let top = area.y + (area.height - shown as u16) / 2;
        for (i, line) in lines.iter().take(shown).enumerate() {
            let w = width(line).min(usize::from(area.width)) as u16;
            let x = area.x + (area.width - w) / 2;
            buf.set_line(
                x,
                top + i as u16,
                &Line::styled(line.clone(), self.theme.accent),
                w,
            );
        }
    }
}
