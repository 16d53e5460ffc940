//! The turn diff, in place of the Entities panel (`d`): what changed in
//! working memory from the turn before to the turn shown — entities added,
//! removed and moved between states (recent → excluded, pending → recent…),
//! each with its reason; narrative turns added and folded; conversation
//! turns folded into the summary.
//!
//! A view: it reads a `ContextDiff` (or, for a first turn with nothing
//! before it, compares the snapshot with an empty one) and writes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::change_rows::{ChangeRow, change_rows, summary};
use super::entity_rows::mark;
use super::text::{ScrolledPanel, fit, one_line, width, wrap_hanging, wrap_styled};
use crate::context::{ContextDiff, ContextSnapshot, diff};
use crate::tui::theme::Theme;

/// The diff panel.
pub struct DiffPanel<'a> {
    /// The turn shown.
    pub snapshot: &'a ContextSnapshot,
    /// Its changes against the turn before; `None` compares with nothing.
    pub diff: Option<&'a ContextDiff>,
    pub scroll: usize,
    pub focused: bool,
    pub theme: &'a Theme,
}

impl DiffPanel<'_> {
    /// The diff the panel shows.
    fn changes(&self) -> std::borrow::Cow<'_, ContextDiff> {
        match self.diff {
            Some(d) => std::borrow::Cow::Borrowed(d),
            None => std::borrow::Cow::Owned(diff(&ContextSnapshot::default(), self.snapshot)),
        }
    }

    /// The panel's content laid out for `width` cells.
    pub fn lines(&self, width: usize) -> Vec<Line<'static>> {
        diff_lines(&self.changes(), width, self.theme)
    }
}

/// The lines of diff `d` for `width` cells.
fn diff_lines(d: &ContextDiff, width: usize, t: &Theme) -> Vec<Line<'static>> {
    let head = if d.from_turn == 0 {
        format!("turn {} against an empty context", d.to_turn)
    } else {
        format!("turn {} against turn {}", d.to_turn, d.from_turn)
    };
    let mut out = vec![Line::styled(head, t.dim)];
    out.extend(wrap_styled(&summary(d), width, t.accent));
    let rows = change_rows(d);
    out.push(Line::default());
    out.push(Line::styled(
        format!("Entities ({} changes)", d.entities.len()),
        t.heading,
    ));
    if rows.is_empty() {
        out.push(Line::styled("  none moved", t.dim));
    }
    out.extend(change_lines(&rows, width, t));
    out.push(Line::default());
    out.push(Line::styled("Narrative", t.heading));
    out.extend(turn_notes(
        &[
            (&d.narrative_added, "kept in full", true),
            (
                &d.narrative_folded,
                "folded into the earlier summary",
                false,
            ),
        ],
        width,
        t,
    ));
    out.push(Line::default());
    out.push(Line::styled("Conversation", t.heading));
    out.extend(turn_notes(
        &[(
            &d.conversation_folded,
            "folded into the history summary",
            false,
        )],
        width,
        t,
    ));
    out
}

/// Each row: mark, refs, label and move on one line, the reason under it.
pub fn change_lines(rows: &[ChangeRow], width: usize, t: &Theme) -> Vec<Line<'static>> {
    let ref_w = rows
        .iter()
        .map(|r| super::text::width(&r.refs))
        .max()
        .unwrap_or(6)
        .clamp(6, 16);
    let mut out = Vec::new();
    for row in rows {
        let (glyph, _) = mark(row.kind);
        let moved_w = width
            .saturating_sub(2 + ref_w + 1)
            .min(self::width(&row.moved));
        let label_w = width.saturating_sub(2 + ref_w + 1 + moved_w + 1);
        out.push(Line::from(vec![
            Span::styled(format!("{glyph} "), t.change(row.kind)),
            Span::styled(fit(&row.refs, ref_w), t.state(row.to)),
            Span::raw(" "),
            Span::styled(fit(&one_line(&row.label), label_w), t.text),
            Span::raw(" "),
            Span::styled(fit(&row.moved, moved_w), t.dim),
        ]));
        if row.reason.trim().is_empty() {
            continue;
        }
        let tag = "why: ".to_string();
        let avail = width.saturating_sub(4);
        let style = t.text.add_modifier(Modifier::ITALIC);
        let mut lead = Some(Span::styled(tag.clone(), t.change(row.kind)));
        for l in wrap_hanging(&row.reason, avail.saturating_sub(self::width(&tag)), avail) {
            let mut spans = vec![Span::raw("    ")];
            spans.extend(lead.take());
            spans.push(Span::styled(l, style));
            out.push(Line::from(spans));
        }
    }
    out
}

/// "+ turn 3 kept in full", "⤵ turns 1, 2 folded into …", or "  no change".
fn turn_notes(notes: &[(&Vec<u32>, &str, bool)], width: usize, t: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for (turns, what, added) in notes.iter().filter(|(turns, _, _)| !turns.is_empty()) {
        let (glyph, style) = if *added {
            ("+ ", t.new)
        } else {
            ("⤵ ", t.demoted)
        };
        let list: Vec<String> = turns.iter().map(u32::to_string).collect();
        let noun = if turns.len() == 1 { "turn" } else { "turns" };
        let text = format!("{noun} {} {what}", list.join(", "));
        let mut lead = Some(Span::styled(glyph, style));
        for l in wrap_hanging(&text, width.saturating_sub(2), width.saturating_sub(2)) {
            out.push(Line::from(vec![
                lead.take().unwrap_or_else(|| Span::raw("  ")),
                Span::styled(l, t.text),
            ]));
        }
    }
    if out.is_empty() {
        out.push(Line::styled("  no change", t.dim));
    }
    out
}

impl Widget for DiffPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        // Computed once for the lines and the title (with nothing before
        // the turn it is a whole diff against an empty snapshot).
        let d = self.changes();
        let lines = diff_lines(&d, ScrolledPanel::inner_width(area), self.theme);
        let title = if d.from_turn == 0 {
            format!(" Changes · turn {} ", d.to_turn)
        } else {
            format!(" Changes · turn {} → {} ", d.from_turn, d.to_turn)
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
