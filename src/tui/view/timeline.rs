//! The entity timeline, full screen (`t`): one row per entity (ref and
//! label), one column per stored turn, each cell the entity's state by
//! colour and glyph — ● recent, ◆ retained, ◌ pending, ✕ excluded,
//! · background, ⊘ dropped, blank when absent. A cell cursor; its `why`
//! under the grid; the filters in the title.
//!
//! Only the rows and columns in view are drawn, so the cost of a frame does
//! not grow with the session. A view: it reads the timeline state (cursor,
//! offsets, filters, the why text computed by `update`) and writes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Widget};

use super::text::{fit, one_line, truncate, width, wrap_styled};
use crate::context::EntityState;
use crate::tui::state::timeline::TimelineState;
use crate::tui::theme::Theme;

/// Lines under the grid: a rule, three of why, the legend.
const FOOTER: u16 = 5;
/// Cells per turn column: the glyph and a space.
const CELL: usize = 2;

/// The glyph of a state.
pub fn glyph(state: EntityState) -> &'static str {
    match state {
        EntityState::Recent => "●",
        EntityState::Retained => "◆",
        EntityState::Pending => "◌",
        EntityState::Excluded => "✕",
        EntityState::Background => "·",
        EntityState::Dropped => "⊘",
    }
}

/// Where things go on a screen of a given size; shared with `update`, which
/// keeps the cursor in view with the same numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub inner: Rect,
    pub ref_w: usize,
    pub label_w: usize,
    /// Entity rows in view.
    pub rows: usize,
    /// Turn columns in view.
    pub cols: usize,
}

impl Geometry {
    /// The layout for a full-screen `area`.
    pub fn of(area: Rect) -> Self {
        let inner = Block::bordered()
            .padding(Padding::horizontal(1))
            .inner(area);
        let w = usize::from(inner.width);
        let ref_w = (w / 5).clamp(4, 14);
        let label_w = (w.saturating_sub(ref_w + 3) / 3).clamp(4, 24);
        let left = ref_w + 1 + label_w + 3;
        Self {
            inner,
            ref_w,
            label_w,
            rows: usize::from(inner.height.saturating_sub(1 + FOOTER)),
            cols: (w.saturating_sub(left) / CELL).max(1),
        }
    }

    /// Cells before the grid: "ref label │ ".
    fn left(&self) -> usize {
        self.ref_w + 1 + self.label_w + 3
    }
}

/// The timeline screen.
pub struct TimelineView<'a> {
    pub state: &'a TimelineState,
    pub theme: &'a Theme,
    /// "f type · / text · Enter show the turn · Esc close", from the keymap.
    pub keys_line: &'a str,
}

impl TimelineView<'_> {
    fn title(&self) -> String {
        let s = self.state;
        let total = s.grid.rows.len();
        let shown = if s.shown.len() == total {
            format!("{total} entities")
        } else {
            format!("{} of {total} entities", s.shown.len())
        };
        let mut title = format!(" Entity timeline · {shown} · {} turns", s.grid.turns.len());
        if let Some(t) = s.type_filter() {
            title.push_str(&format!(" · type {t}"));
        }
        if !s.text.text().is_empty() {
            title.push_str(&format!(" · “{}”", one_line(s.text.text())));
        }
        title.push(' ');
        title
    }

    fn header(&self, g: &Geometry, buf: &mut Buffer) {
        let t = self.theme;
        let s = self.state;
        let y = g.inner.y;
        let head = format!("{} {} │", fit("ref", g.ref_w), fit("label", g.label_w));
        buf.set_string(g.inner.x, y, head, t.dim);
        let x0 = g.inner.x + g.left() as u16;
        let mut free_from = 0usize;
        for (i, col) in (s.col_offset..s.grid.turns.len()).take(g.cols).enumerate() {
            let turn = s.grid.turns[col];
            let at = i * CELL;
            let label = turn.to_string();
            let cursor = col == s.col;
            if (cursor || turn.is_multiple_of(5) || i == 0) && at >= free_from {
                let style = if cursor {
                    t.title.add_modifier(Modifier::REVERSED)
                } else {
                    t.dim
                };
                let room = (g.cols * CELL).saturating_sub(at);
                buf.set_string(x0 + at as u16, y, truncate(&label, room), style);
                free_from = at + width(&label) + 1;
            }
        }
    }

    fn rows(&self, g: &Geometry, buf: &mut Buffer) {
        let t = self.theme;
        let s = self.state;
        let x0 = g.inner.x + g.left() as u16;
        let visible = s.shown.iter().enumerate().skip(s.row_offset).take(g.rows);
        for (i, (pos, &row)) in visible.enumerate() {
            let y = g.inner.y + 1 + i as u16;
            let entity = &s.grid.rows[row];
            let on_row = pos == s.row;
            let lead = if on_row {
                t.title.add_modifier(Modifier::REVERSED)
            } else {
                t.text
            };
            let state_now = s.grid.cell(row, s.col);
            let ref_style = state_now.map_or(t.dim, |st| t.state(st));
            let ref_style = if on_row { lead } else { ref_style };
            buf.set_string(g.inner.x, y, fit(&entity.r#ref, g.ref_w), ref_style);
            let label = fit(&one_line(&entity.label), g.label_w);
            buf.set_string(g.inner.x + g.ref_w as u16 + 1, y, label, lead);
            buf.set_string(x0 - 2, y, "│", t.border);
            for (j, col) in (s.col_offset..s.grid.turns.len()).take(g.cols).enumerate() {
                let x = x0 + (j * CELL) as u16;
                let cell = s.grid.cell(row, col);
                let (text, mut style) = match cell {
                    Some(st) => (
                        glyph(st),
                        t.state(st).remove_modifier(Modifier::CROSSED_OUT),
                    ),
                    None => (" ", Style::default()),
                };
                if on_row && col == s.col {
                    style = style.add_modifier(Modifier::REVERSED);
                    buf.set_string(x, y, if cell.is_none() { " " } else { text }, style);
                } else {
                    buf.set_string(x, y, text, style);
                }
            }
        }
    }

    fn footer(&self, g: &Geometry, buf: &mut Buffer) {
        let t = self.theme;
        let s = self.state;
        let w = usize::from(g.inner.width);
        let top = g.inner.bottom().saturating_sub(FOOTER);
        buf.set_string(g.inner.x, top, "─".repeat(w), t.border);
        let keys = truncate(&format!(" {} ", self.keys_line), w.saturating_sub(2));
        let x = g.inner.right().saturating_sub(width(&keys) as u16 + 1);
        buf.set_string(x, top, keys, t.accent);
        let mut why: Vec<Line> = Vec::new();
        if let Some((entity, turn, state)) = s.selected() {
            let word = state.map_or("absent", EntityState::as_str);
            why.push(Line::from(vec![
                Span::styled(entity.r#ref.clone(), t.heading),
                Span::styled(format!(" · turn {turn} · {word}"), t.dim),
            ]));
        } else {
            why.push(Line::styled("No entity matches the filters.", t.dim));
        }
        why.extend(wrap_styled(&s.why, w, t.text));
        for (i, line) in why.iter().take(3).enumerate() {
            buf.set_line(g.inner.x, top + 1 + i as u16, line, g.inner.width);
        }
        let last = if s.editing {
            Line::from(vec![
                Span::styled("/", t.accent),
                Span::styled(format!("{}▌", s.text.text()), t.text),
                Span::styled("  Enter keeps the filter · Esc clears it", t.dim),
            ])
        } else {
            let mut spans = Vec::new();
            for st in [
                EntityState::Recent,
                EntityState::Retained,
                EntityState::Pending,
                EntityState::Excluded,
                EntityState::Background,
                EntityState::Dropped,
            ] {
                let style = t.state(st).remove_modifier(Modifier::CROSSED_OUT);
                spans.push(Span::styled(format!("{} ", glyph(st)), style));
                spans.push(Span::styled(format!("{}  ", st.as_str()), t.dim));
            }
            Line::from(spans)
        };
        buf.set_line(
            g.inner.x,
            g.inner.bottom().saturating_sub(1),
            &last,
            g.inner.width,
        );
    }
}

impl Widget for TimelineView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.width < 20 || area.height < 10 {
            return;
        }
        Clear.render(area, buf);
        let t = self.theme;
        Block::bordered()
            .padding(Padding::horizontal(1))
            .border_style(t.border_focused)
            .title(Line::styled(self.title(), t.title))
            .title(Line::styled(" Esc closes ", t.dim).right_aligned())
            .render(area, buf);
        let g = Geometry::of(area);
        self.header(&g, buf);
        self.rows(&g, buf);
        self.footer(&g, buf);
    }
}
