//! The History panel: layer 3, what was said.
//!
//! The recent turns in full, newest first (long replies as their
//! one-sentence summary, marked "(summary)"), the bullet tier of the tiered
//! policy, then the compressed history summary. A view: it reads the
//! `ConversationView`, writes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::text::{ScrolledPanel, labeled, wrap_styled};
use crate::context::snapshot::ConversationView;
use crate::tui::theme::Theme;

/// The History panel.
pub struct HistoryPanel<'a> {
    pub conversation: &'a ConversationView,
    /// Lines scrolled from the top.
    pub scroll: usize,
    pub focused: bool,
    pub theme: &'a Theme,
}

impl HistoryPanel<'_> {
    /// The panel's content laid out for `width` cells.
    pub fn lines(&self, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let c = self.conversation;
        if c.recent.is_empty() && c.bullets.is_empty() && c.earlier.trim().is_empty() {
            return wrap_styled(
                "Nothing said yet — each exchange appears here in full, older ones compressed.",
                width,
                t.dim,
            );
        }
        let mut blocks: Vec<Vec<Line<'static>>> = Vec::new();
        for turn in c.recent.iter().rev() {
            let mut b = vec![Line::styled(format!("Turn {}", turn.turn), t.heading)];
            b.extend(labeled(
                Span::styled("User: ", t.user),
                turn.user.trim(),
                t.text,
                width,
                2,
            ));
            let (label, text) = match turn.assistant_summary.as_deref() {
                Some(s) if !s.trim().is_empty() => ("Alfred (summary): ", s),
                _ => ("Alfred: ", turn.assistant.as_str()),
            };
            b.extend(labeled(
                Span::styled(label, t.alfred),
                text.trim(),
                t.text,
                width,
                2,
            ));
            blocks.push(b);
        }
        if !c.bullets.is_empty() {
            let mut b = vec![Line::styled(
                format!("Condensed ({})", c.bullets.len()),
                t.heading,
            )];
            for bullet in c.bullets.iter().rev() {
                b.extend(labeled(
                    Span::styled("• ", t.dim),
                    bullet.trim(),
                    t.text,
                    width,
                    2,
                ));
            }
            blocks.push(b);
        }
        if !c.earlier.trim().is_empty() {
            let mut b = vec![Line::styled("Earlier (compressed)", t.heading)];
            b.extend(wrap_styled(c.earlier.trim(), width, t.dim));
            blocks.push(b);
        }
        let mut out = Vec::new();
        for (i, b) in blocks.into_iter().enumerate() {
            if i > 0 {
                out.push(Line::default());
            }
            out.extend(b);
        }
        out
    }
}

impl Widget for HistoryPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self.lines(ScrolledPanel::inner_width(area));
        let n = self.conversation.recent.len();
        let title = if n == 0 {
            " History ".to_string()
        } else {
            format!(" History · {n} in full ")
        };
        ScrolledPanel {
            title: Line::from(title),
            lines,
            scroll: self.scroll,
            focused: self.focused,
            theme: self.theme,
        }
        .render(area, buf);
    }
}
