//! The Entities panel: layer 1, which entities are in working memory and why.
//!
//! Sections Recent / Retained / Pending / Excluded this turn / Dropped this
//! turn, the Standing constraints (`standing.rs`), then the background
//! count. Each row shows ref, label, type,
//! `[action]` and `t{last_ref_turn}`, marked with this turn's change from the
//! diff (`+` new, `↑` promoted, `✕` excluded, `↓` not kept, `↘` aged out,
//! `×` dropped, `→` moved); reasons
//! wrap under their row. A draft holding what a standing constraint rules
//! out is marked `✕`, with what it holds under it. Large same-type groups collapse to one row. Columns
//! are measured in cells, so wide labels keep everything aligned.
//! A view: it reads the snapshot and diff, and writes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::entity_rows::{
    Counts, Row, changes_text, count, counts_text, dropped_rows, mark, section_rows,
};
use super::text::{ScrolledPanel, fit, labeled, one_line, width, wrap_hanging, wrap_styled};
use crate::context::{ChangeKind, ContextDiff, ContextSnapshot, EntityState};
use crate::tui::theme::Theme;

/// The Entities panel over a snapshot and the diff from the previous turn.
pub struct EntityPanel<'a> {
    pub snapshot: &'a ContextSnapshot,
    pub diff: Option<&'a ContextDiff>,
    /// Lines scrolled from the top.
    pub scroll: usize,
    pub focused: bool,
    pub theme: &'a Theme,
}

/// How much of `type [action] tN` fits beside the labels.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    Full,
    NoType,
    TurnOnly,
    Nothing,
}

struct Section {
    title: String,
    state: EntityState,
    rows: Vec<Row>,
}

/// Column widths shared by every row of the panel.
struct Columns {
    width: usize,
    ref_w: usize,
    turn_w: usize,
    detail: Detail,
}

impl EntityPanel<'_> {
    /// The panel's content laid out for `width` cells.
    pub fn lines(&self, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let e = &self.snapshot.entities;
        let mut out = self.summary(width);
        let sections = self.sections();
        let standing = super::standing::standing_lines(self.snapshot, width, t);
        if sections.is_empty() && e.background.is_empty() && standing.is_empty() {
            out.push(Line::default());
            out.extend(wrap_styled(
                "No entities yet — refs appear here as Alfred reads, creates or mentions them.",
                width,
                t.dim,
            ));
            return out;
        }
        let cols = Columns::new(&sections, width);
        for s in &sections {
            out.push(Line::default());
            let style = t.state(s.state).add_modifier(Modifier::BOLD);
            out.push(Line::styled(one_line(&s.title), style));
            for row in &s.rows {
                out.push(self.row_line(row, s.state, &cols));
                out.extend(self.reason_lines(row, s.state, width));
                out.extend(self.ruled_out_lines(row, width));
            }
        }
        out.extend(standing);
        out.push(Line::default());
        out.push(self.background_line());
        out
    }

    /// "turn 3 · window 2 · ✕2 excluded (recipe_5, recipe_6)", wrapped.
    fn summary(&self, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let s = self.snapshot;
        let head = format!("turn {} · window {}", s.turn, s.window);
        let Some(d) = self.diff else {
            return vec![Line::styled(head, t.dim)];
        };
        let text = if d.entities.is_empty() {
            "no changes".to_string()
        } else {
            changes_text(d)
        };
        labeled(
            Span::styled(format!("{head} · "), t.dim),
            &text,
            t.accent,
            width,
            2,
        )
    }

    fn sections(&self) -> Vec<Section> {
        let e = &self.snapshot.entities;
        let live = |title: &str, state, group, reasons| Section {
            title: format!("{title} ({})", e.count(state)),
            state,
            rows: section_rows(group, self.diff, reasons),
        };
        let all = [
            live("Recent", EntityState::Recent, &e.recent, false),
            live("Retained", EntityState::Retained, &e.retained, true),
            live("Pending, unsaved", EntityState::Pending, &e.pending, true),
            live(
                "Excluded this turn",
                EntityState::Excluded,
                &e.excluded,
                true,
            ),
            Section {
                title: format!("Dropped this turn ({})", e.dropped_detail.len()),
                state: EntityState::Dropped,
                rows: dropped_rows(&e.dropped_detail),
            },
        ];
        all.into_iter().filter(|s| !s.rows.is_empty()).collect()
    }

    fn row_line(&self, row: &Row, state: EntityState, cols: &Columns) -> Line<'static> {
        let t = self.theme;
        // A draft holding what the user ruled out is marked so, whatever
        // else changed: saving it asks first.
        let gutter = match (row.change, &row.ruled_out) {
            (_, Some(_)) => Span::styled(
                format!("{} ", mark(ChangeKind::Excluded).0),
                t.state(EntityState::Excluded),
            ),
            (Some(k), None) => Span::styled(format!("{} ", mark(k).0), t.change(k)),
            (None, None) => Span::raw("  "),
        };
        let meta = cols.meta(row);
        let meta_w = width(&meta);
        let gap = usize::from(meta_w > 0);
        let fields = cols
            .width
            .saturating_sub(2 + meta_w + gap)
            .max(cols.ref_w.min(cols.width.saturating_sub(2)));
        let ref_style = t.state(state);
        let mut spans = vec![gutter];
        if row.collapsed {
            let refs = super::text::truncate(&one_line(&row.refs), fields);
            let rest = fields.saturating_sub(width(&refs));
            spans.push(Span::styled(refs, ref_style));
            spans.push(Span::styled(
                fit(&format!("  {}", one_line(&row.label)), rest),
                t.text,
            ));
        } else {
            let ref_w = cols.ref_w.min(fields);
            let label_w = fields.saturating_sub(ref_w + 1);
            spans.push(Span::styled(fit(&row.refs, ref_w), ref_style));
            spans.push(Span::raw(" ".repeat(usize::from(fields > ref_w))));
            spans.push(Span::styled(fit(&one_line(&row.label), label_w), t.text));
        }
        if meta_w > 0 {
            spans.push(Span::raw(" "));
            spans.push(Span::styled(meta, t.dim));
        }
        Line::from(spans)
    }

    /// The reason under a row, with this turn's change word: "excluded: …".
    fn reason_lines(&self, row: &Row, state: EntityState, width: usize) -> Vec<Line<'static>> {
        let Some(reason) = row.reason.as_deref().filter(|r| !r.trim().is_empty()) else {
            return Vec::new();
        };
        let t = self.theme;
        const INDENT: usize = 4;
        // A row read and ruled out in the same turn is new *and* excluded.
        let tag = row.change.map(|k| match (k, state) {
            (ChangeKind::New, EntityState::Excluded) => "new, excluded: ".to_string(),
            _ => format!("{}: ", mark(k).1),
        });
        let tag_w = tag.as_deref().map(super::text::width).unwrap_or(0);
        let avail = width.saturating_sub(INDENT);
        let style = t.text.add_modifier(Modifier::ITALIC);
        let mut tag =
            tag.map(|s| Span::styled(s, row.change.map(|k| t.change(k)).unwrap_or_default()));
        wrap_hanging(reason, avail.saturating_sub(tag_w), avail)
            .into_iter()
            .map(|l| {
                let mut spans = vec![Span::raw(" ".repeat(INDENT))];
                spans.extend(tag.take());
                spans.push(Span::styled(l, style));
                Line::from(spans)
            })
            .collect()
    }

    /// Under a draft holding what the user ruled out: "✕ holds Miso Glazed
    /// Air Fryer Cod — ruled out by “no fish this week”".
    fn ruled_out_lines(&self, row: &Row, width: usize) -> Vec<Line<'static>> {
        let Some(text) = row.ruled_out.as_deref() else {
            return Vec::new();
        };
        const INDENT: usize = 4;
        let style = self.theme.state(EntityState::Excluded);
        let avail = width.saturating_sub(INDENT);
        wrap_hanging(text, avail, avail)
            .into_iter()
            .map(|l| Line::from(vec![Span::raw(" ".repeat(INDENT)), Span::styled(l, style)]))
            .collect()
    }

    /// "Background: 12 · ↘3 aged out" (changes into the background this turn).
    fn background_line(&self) -> Line<'static> {
        let t = self.theme;
        let n = self.snapshot.entities.background.len();
        let mut spans = vec![Span::styled(
            format!("Background: {n}"),
            t.state(EntityState::Background)
                .add_modifier(Modifier::BOLD),
        )];
        let mut counts = Counts::new();
        for c in self.diff.iter().flat_map(|d| &d.entities) {
            if c.to == EntityState::Background {
                count(&mut counts, c.kind);
            }
        }
        if !counts.is_empty() {
            spans.push(Span::styled(
                format!(" · {} this turn", counts_text(&counts)),
                t.dim,
            ));
        }
        Line::from(spans)
    }
}

impl Columns {
    fn new(sections: &[Section], width: usize) -> Self {
        let rows = || sections.iter().flat_map(|s| &s.rows);
        let ref_w = rows()
            .filter(|r| !r.collapsed)
            .map(|r| super::text::width(&r.refs))
            .max()
            .unwrap_or(6)
            .clamp(6, 14);
        let turn_w = rows()
            .map(|r| super::text::width(&r.turn))
            .max()
            .unwrap_or(2);
        let mut cols = Columns {
            width,
            ref_w,
            turn_w,
            detail: Detail::Full,
        };
        // The most detail that leaves every label room for its first 12 cells.
        for detail in [
            Detail::Full,
            Detail::NoType,
            Detail::TurnOnly,
            Detail::Nothing,
        ] {
            cols.detail = detail;
            if rows().all(|r| cols.label_room(r) >= cols.label_need(r)) {
                break;
            }
        }
        cols
    }

    /// The cells a row's label gets beside its ref and meta.
    fn label_room(&self, row: &Row) -> usize {
        let meta = width(&self.meta(row));
        let fields = self.width.saturating_sub(2 + meta + usize::from(meta > 0));
        if row.collapsed {
            fields.saturating_sub(width(&row.refs) + 2)
        } else {
            fields.saturating_sub(self.ref_w + 1)
        }
    }

    /// The cells a label needs to stay recognisable.
    fn label_need(&self, row: &Row) -> usize {
        width(&row.label).min(24)
    }

    /// "recipe [read] t2", less as space runs out.
    fn meta(&self, row: &Row) -> String {
        let turn = format!("{:>w$}", row.turn, w = self.turn_w);
        match self.detail {
            // A collapsed group names its type in its label already.
            Detail::Full if !row.collapsed => {
                format!("{} [{}] {turn}", one_line(&row.entity_type), row.action)
            }
            Detail::Full | Detail::NoType => format!("[{}] {turn}", row.action),
            Detail::TurnOnly => turn,
            Detail::Nothing => String::new(),
        }
    }
}

impl Widget for EntityPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self.lines(ScrolledPanel::inner_width(area));
        let active = self.snapshot.entities.active_count();
        ScrolledPanel {
            title: Line::from(format!(" Entities · {active} active ")),
            lines,
            scroll: self.scroll,
            focused: self.focused,
            theme: self.theme,
        }
        .render(area, buf);
    }
}
