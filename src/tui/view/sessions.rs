//! The session picker: saved sessions in a centered list (id, title, turns,
//! last update), the selected one highlighted and kept in view.
//!
//! A view: it reads the items and the selection; moving the selection is
//! `update`'s job.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

use super::text::{fit, one_line, width};
use crate::tui::model::SessionItem;
use crate::tui::theme::Theme;

/// The session picker overlay.
pub struct SessionPicker<'a> {
    pub items: &'a [SessionItem],
    pub selected: usize,
    pub theme: &'a Theme,
}

impl SessionPicker<'_> {
    /// The box for `area`: up to 96 columns, as tall as the list allows.
    pub fn area(&self, area: Rect) -> Rect {
        let w = area.width.saturating_sub(4).min(96);
        let rows = self.items.len().max(1) + 3;
        let h = u16::try_from(rows)
            .unwrap_or(u16::MAX)
            .min(area.height.saturating_sub(2));
        area.centered(Constraint::Length(w), Constraint::Length(h))
    }

    /// One row: marker, id, title, turns, updated — in the columns of `cols`.
    fn row(&self, cells: [String; 4], cols: &Cols, selected: bool) -> Line<'static> {
        let t = self.theme;
        let [id, title, turns, updated] = cells;
        let tail = if cols.tail {
            format!(
                "  {:>tw$}  {}",
                turns,
                fit(&updated, cols.updated),
                tw = cols.turns
            )
        } else {
            String::new()
        };
        let title_w = cols.max.saturating_sub(2 + cols.id + 1 + width(&tail) + 1);
        let marker = if selected { "▶ " } else { "  " };
        let mut line = Line::from(vec![
            Span::styled(marker, t.accent),
            Span::styled(fit(&id, cols.id), t.dim),
            Span::raw(" "),
            Span::styled(fit(&title, title_w), t.text),
            Span::styled(tail, t.dim),
            Span::raw(" "),
        ]);
        if selected {
            line = line.patch_style(t.title.add_modifier(Modifier::REVERSED));
        }
        line
    }

    fn cells(item: &SessionItem) -> [String; 4] {
        let s = if item.turns == 1 { "" } else { "s" };
        [
            one_line(&item.id),
            one_line(&item.title),
            format!("{} turn{s}", item.turns),
            one_line(&item.updated),
        ]
    }
}

/// Column widths shared by the header and every row.
struct Cols {
    max: usize,
    id: usize,
    turns: usize,
    updated: usize,
    /// Turns and updated are shown (dropped when the box is narrow).
    tail: bool,
}

impl Widget for SessionPicker<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = self.area(area.intersection(buf.area));
        if area.is_empty() {
            return;
        }
        let t = self.theme;
        Clear.render(area, buf);
        let block = Block::bordered()
            .border_style(t.border_focused)
            .title(Line::styled(" Sessions ", t.title))
            .title_bottom(
                Line::styled(" ↑↓ choose · Enter open · Esc close ", t.dim).right_aligned(),
            );
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.is_empty() {
            return;
        }
        let max = usize::from(inner.width);
        if self.items.is_empty() {
            buf.set_line(
                inner.x,
                inner.y,
                &Line::styled("No saved sessions yet.", t.dim),
                inner.width,
            );
            return;
        }
        let cells: Vec<[String; 4]> = self.items.iter().map(SessionPicker::cells).collect();
        let col = |i: usize, title: &str| {
            cells
                .iter()
                .map(|c| width(&c[i]))
                .max()
                .unwrap_or(0)
                .max(width(title))
        };
        let (id, turns, updated) = (
            col(0, "id").min(24),
            col(2, "turns"),
            col(3, "updated").min(20),
        );
        // Marker, id, a title of 12, turns and updated, and a margin.
        let tail = 2 + id + 1 + 12 + 2 + turns + 2 + updated < max;
        let cols = Cols {
            max,
            id,
            turns,
            updated,
            tail,
        };
        let header = ["id", "title", "turns", "updated"].map(String::from);
        let header = self.row(header, &cols, false).patch_style(t.dim);
        buf.set_line(inner.x, inner.y, &header, inner.width);
        let visible = usize::from(inner.height.saturating_sub(1));
        let selected = self.selected.min(self.items.len() - 1);
        let first = (selected + 1).saturating_sub(visible);
        for (row, (i, c)) in cells
            .into_iter()
            .enumerate()
            .skip(first)
            .take(visible)
            .enumerate()
        {
            let line = self.row(c, &cols, i == selected);
            buf.set_line(inner.x, inner.y + 1 + row as u16, &line, inner.width);
        }
    }
}
