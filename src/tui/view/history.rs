//! The History panel: layer 3, what was said.
//!
//! One chronological order, oldest at the top and the newest turn at the
//! bottom, nearest the input box: the folded earlier turns (one tidy line
//! each, with how many turns the fold holds), the bullet tier of the tiered
//! policy, then the recent turns (a short reply word for word; a long one
//! by its opening, with the one-sentence summary the prompts carry in its
//! place — the chat has it in full), with its time when known (an
//! imported turn's). The panel
//! is anchored at its bottom: its scroll counts lines up from the newest.
//! A view: it reads the `ConversationView`, writes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::text::{ScrolledPanel, labeled, without_strong, wrap_styled};
use crate::context::fold::clip_words;
use crate::context::snapshot::ConversationView;
use crate::tui::theme::Theme;

/// Characters of a long reply shown before its summary.
const OPENING_CHARS: usize = 160;

/// The History panel.
pub struct HistoryPanel<'a> {
    pub conversation: &'a ConversationView,
    /// Lines scrolled up from the bottom (the newest turn).
    pub scroll: usize,
    pub focused: bool,
    pub theme: &'a Theme,
}

impl HistoryPanel<'_> {
    /// How many turns the earlier summary holds: those before the first
    /// bullet or recent turn.
    fn folded(&self) -> usize {
        let c = self.conversation;
        let first = c.recent.first().map_or(0, |t| t.turn as usize);
        first.saturating_sub(1).saturating_sub(c.bullets.len())
    }

    /// The panel's content laid out for `width` cells, oldest first.
    pub fn lines(&self, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let c = self.conversation;
        if c.recent.is_empty() && c.bullets.is_empty() && c.earlier.trim().is_empty() {
            return wrap_styled(
                "Nothing said yet — each exchange appears here word for word, older ones folded.",
                width,
                t.dim,
            );
        }
        let mut blocks: Vec<Vec<Line<'static>>> = Vec::new();
        let earlier = c.earlier.trim();
        if !earlier.is_empty() {
            let n = self.folded();
            let head = if n > 0 {
                format!(
                    "Earlier · {n} turn{} folded ({} characters)",
                    if n == 1 { "" } else { "s" },
                    earlier.chars().count()
                )
            } else {
                format!("Earlier · folded ({} characters)", earlier.chars().count())
            };
            let mut b = vec![Line::styled(head, t.heading)];
            for line in earlier.lines().map(str::trim).filter(|l| !l.is_empty()) {
                b.extend(labeled(Span::raw(""), line, t.dim, width, 2));
            }
            blocks.push(b);
        }
        if !c.bullets.is_empty() {
            let mut b = vec![Line::styled(
                format!("Condensed · {} turns, one line each", c.bullets.len()),
                t.heading,
            )];
            for bullet in &c.bullets {
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
        for turn in &c.recent {
            let head = match turn.at.as_deref().map(short_time) {
                Some(at) if !at.is_empty() => format!("Turn {} · {at}", turn.turn),
                _ => format!("Turn {}", turn.turn),
            };
            let mut b = vec![Line::styled(head, t.heading)];
            b.extend(labeled(
                Span::styled("User: ", t.user),
                turn.user.trim(),
                t.text,
                width,
                2,
            ));
            let summary = turn
                .assistant_summary
                .as_deref()
                .filter(|s| !s.trim().is_empty());
            let (label, reply) = match summary {
                Some(_) => (
                    "Alfred (opening): ",
                    clip_words(&without_strong(&turn.assistant), OPENING_CHARS),
                ),
                None => ("Alfred: ", without_strong(turn.assistant.trim())),
            };
            b.extend(labeled(
                Span::styled(label, t.alfred),
                &reply,
                t.text,
                width,
                2,
            ));
            if let Some(s) = summary {
                b.extend(labeled(
                    Span::styled("in prompts as: ", t.dim),
                    s.trim(),
                    t.dim.add_modifier(Modifier::ITALIC),
                    width,
                    2,
                ));
            }
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

/// A turn's time as its source wrote it, to the minute when it reads as an
/// ISO date and time ("2025-03-14T19:02:11.5" → "2025-03-14 19:02").
fn short_time(at: &str) -> String {
    let at = at.trim();
    let b = at.as_bytes();
    let iso = b.len() >= 16
        && b[4] == b'-'
        && b[7] == b'-'
        && matches!(b[10], b'T' | b' ')
        && b[13] == b':'
        && at.is_char_boundary(16);
    if iso {
        format!("{} {}", &at[..10], &at[11..16])
    } else {
        clip_words(at, 25)
    }
}

impl Widget for HistoryPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self.lines(ScrolledPanel::inner_width(area));
        let c = self.conversation;
        let mut parts = Vec::new();
        if !c.recent.is_empty() {
            parts.push(format!("{} recent", c.recent.len()));
        }
        if !c.bullets.is_empty() {
            parts.push(format!("{} condensed", c.bullets.len()));
        }
        if !c.earlier.trim().is_empty() {
            match self.folded() {
                0 => parts.push("earlier folded".to_string()),
                n => parts.push(format!("{n} folded")),
            }
        }
        let title = if parts.is_empty() {
            " History ".to_string()
        } else {
            format!(" History · {} ", parts.join(" · "))
        };
        // Anchored at the bottom: the newest turn shows first.
        let height = usize::from(area.height.saturating_sub(2));
        let top = lines
            .len()
            .saturating_sub(height)
            .saturating_sub(self.scroll);
        ScrolledPanel {
            title: Line::from(title),
            lines,
            scroll: top,
            focused: self.focused,
            theme: self.theme,
        }
        .render(area, buf);
    }
}
