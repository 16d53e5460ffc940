//! The title bar: "alfred · <session> · turn N · <llm>" (and the kitchen
//! when it is a Postgres database's) on the left, the
//! latest status message on the right, coloured by its level. While time
//! travelling, a highlighted "viewing turn 3 of 9 — …" replaces the turn.
//!
//! The status keeps at most half the row; the title gives way first.
//! A view: it reads the header and status, writes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::text::{one_line, truncate, width};
use crate::tui::model::{Level, SessionHeader};
use crate::tui::theme::Theme;

/// The title bar.
pub struct TitleBar<'a> {
    pub header: &'a SessionHeader,
    /// The turn the panels show.
    pub turn: u32,
    /// The turn under way, when one runs: it is named from the moment its
    /// message is sent, as the chat names it.
    pub running: Option<u32>,
    /// Time travel's marker ("viewing turn 3 of 9 — ] next, Esc back to
    /// live"), shown highlighted right after the app's name.
    pub viewing: Option<&'a str>,
    pub status: Option<&'a (Level, String)>,
    pub theme: &'a Theme,
}

impl TitleBar<'_> {
    fn title_spans(&self) -> Vec<Span<'static>> {
        let t = self.theme;
        let sep = || Span::styled(" · ", t.dim);
        let title = match one_line(self.header.title.trim()) {
            s if s.is_empty() => "new session".to_string(),
            s => s,
        };
        let llm = match one_line(self.header.llm.trim()) {
            s if s.is_empty() => "offline".to_string(),
            s => s,
        };
        let llm_style = if llm == "offline" { t.accent } else { t.text };
        let mut spans = vec![Span::styled("alfred", t.title), sep()];
        if let Some(viewing) = self.viewing {
            spans.push(Span::styled(
                format!(" {} ", one_line(viewing)),
                t.status_bar,
            ));
            spans.push(sep());
        }
        spans.push(Span::styled(title, t.text));
        if self.viewing.is_none() {
            spans.push(sep());
            let turn = match self.running {
                Some(n) => format!("turn {n} (running)"),
                None => format!("turn {}", self.turn),
            };
            spans.push(Span::styled(turn, t.text));
        }
        spans.push(sep());
        spans.push(Span::styled(llm, llm_style));
        if let Some(kitchen) = &self.header.kitchen {
            spans.push(sep());
            spans.push(Span::styled(one_line(kitchen.trim()), t.accent));
        }
        spans
    }
}

impl Widget for TitleBar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let t = self.theme;
        let total = usize::from(area.width);
        let mut status_w = 0;
        if let Some((level, text)) = self.status {
            let style = match level {
                Level::Info => t.note,
                Level::Warn => t.accent,
                Level::Error => t.error,
            };
            let text = truncate(&one_line(text.trim()), total / 2);
            status_w = width(&text);
            let x = area.right().saturating_sub(status_w as u16);
            buf.set_line(x, area.y, &Line::styled(text, style), status_w as u16);
        }
        let room = total.saturating_sub(status_w + usize::from(status_w > 0));
        let mut left = room;
        let mut spans = Vec::new();
        for s in self.title_spans() {
            let w = width(&s.content);
            if w <= left {
                left -= w;
                spans.push(s);
            } else {
                spans.push(Span::styled(truncate(&s.content, left), s.style));
                break;
            }
        }
        buf.set_line(area.x, area.y, &Line::from(spans), room as u16);
    }
}
