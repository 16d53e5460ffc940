//! Policy what-if on screen: the settings box (over the chat) and, in place
//! of the Entities panel, the turn's active set under the tried policy
//! beside the current one — counts per state, then every entity that would
//! move ("recent → background") with why, and what the history and the
//! narrative would keep in full.
//!
//! Views: they read the `WhatIfState` computed by `update`, write nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Widget};

use super::change_rows::change_rows;
use super::diff_panel::change_lines;
use super::text::{ScrolledPanel, fit, labeled, wrap, wrap_styled};
use crate::context::{ContextSnapshot, EntityState};
use crate::tui::state::whatif::{FIELDS, WhatIfState, summary, value};
use crate::tui::theme::Theme;

/// Rows the settings box takes.
pub const BOX_HEIGHT: u16 = 9;

/// The settings box.
pub struct WhatIfBox<'a> {
    pub state: &'a WhatIfState,
    /// The policy in effect.
    pub current: &'a crate::context::ContextPolicy,
    pub theme: &'a Theme,
    /// "↑↓ choose · ←→ change · Enter apply · Esc discard".
    pub keys_line: &'a str,
}

impl Widget for WhatIfBox<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.height < 4 || area.width < 20 {
            return;
        }
        Clear.render(area, buf);
        let t = self.theme;
        let block = Block::bordered()
            .padding(Padding::horizontal(1))
            .border_style(t.border_focused)
            .title(Line::styled(" What if… (policy) ", t.title))
            .title_bottom(Line::styled(format!(" {} ", self.keys_line), t.accent));
        let inner = block.inner(area);
        block.render(area, buf);
        let w = usize::from(inner.width);
        for (i, name) in FIELDS.iter().enumerate() {
            let y = inner.y + i as u16;
            if y >= inner.bottom() {
                return;
            }
            let on = i == self.state.field;
            let tried = value(&self.state.draft, i);
            let now = value(self.current, i);
            let style = if on {
                t.title.add_modifier(Modifier::REVERSED)
            } else {
                t.text
            };
            let changed = if tried == now { t.dim } else { t.accent };
            let line = Line::from(vec![
                Span::styled(if on { "▶ " } else { "  " }, t.accent),
                Span::styled(fit(name, 18), style),
                Span::styled(format!(" ◀ {tried:^8} ▶ "), changed),
                Span::styled(format!("now {now}"), t.dim),
            ]);
            buf.set_line(inner.x, y, &line, inner.width);
        }
        let note =
            "The Entities panel compares this turn's active set under it with the current one.";
        for (i, l) in wrap(note, w).into_iter().enumerate() {
            let y = inner.y + FIELDS.len() as u16 + 1 + i as u16;
            if y < inner.bottom() {
                buf.set_string(inner.x, y, l, t.dim);
            }
        }
    }
}

/// The comparison, in place of the Entities panel.
pub struct WhatIfPanel<'a> {
    pub state: &'a WhatIfState,
    pub current: &'a crate::context::ContextPolicy,
    pub scroll: usize,
    pub focused: bool,
    pub theme: &'a Theme,
}

const STATES: [EntityState; 5] = [
    EntityState::Recent,
    EntityState::Retained,
    EntityState::Pending,
    EntityState::Excluded,
    EntityState::Background,
];

impl WhatIfPanel<'_> {
    /// The panel's content laid out for `width` cells.
    pub fn lines(&self, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let st = self.state;
        let (a, b) = (&st.before, &st.after);
        let mut out = labeled(
            Span::styled(format!("turn {} · now: ", st.turn), t.dim),
            &summary(self.current),
            t.text,
            width,
            2,
        );
        out.extend(labeled(
            Span::styled("what if: ", t.dim),
            &summary(&st.draft),
            t.accent,
            width,
            2,
        ));
        if st.past {
            out.extend(wrap_styled(
                &format!("(the live registry as seen at turn {})", st.turn),
                width,
                t.dim,
            ));
        }
        out.push(Line::default());
        let active = |s: &ContextSnapshot| s.entities.active_count();
        out.push(Line::styled(
            format!("Active {} → {} under the new policy", active(a), active(b)),
            t.heading,
        ));
        let counts: Vec<String> = STATES
            .iter()
            .map(|s| {
                let (n, m) = (a.entities.count(*s), b.entities.count(*s));
                format!("{} {n} → {m}", s.as_str())
            })
            .collect();
        out.extend(wrap_styled(&counts.join(" · "), width, t.text));
        out.push(Line::default());
        let rows = change_rows(&st.diff);
        out.push(Line::styled(
            format!("Would move ({})", st.diff.entities.len()),
            t.heading,
        ));
        if rows.is_empty() {
            out.push(Line::styled("  nothing moves", t.dim));
        }
        out.extend(change_lines(&rows, width, t));
        out.push(Line::default());
        let kept = |what: &str, now: usize, then: usize| {
            let text = if now == then {
                format!("{what}: {now} turns in full, unchanged")
            } else {
                format!("{what}: {now} turns in full → {then}")
            };
            Line::styled(text, if now == then { t.dim } else { t.accent })
        };
        out.push(kept(
            "History",
            a.conversation.recent.len(),
            b.conversation.recent.len(),
        ));
        out.push(kept(
            "Narrative",
            a.narrative.turns.len(),
            b.narrative.turns.len(),
        ));
        out
    }
}

impl Widget for WhatIfPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self.lines(ScrolledPanel::inner_width(area));
        ScrolledPanel {
            title: Line::from(format!(" What if · turn {} ", self.state.turn)),
            lines,
            scroll: self.scroll,
            focused: self.focused,
            theme: self.theme,
        }
        .render(area, buf);
    }
}
