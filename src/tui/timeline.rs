//! The entity timeline's state and transitions: opening it over the stored
//! turns, the cell cursor, the type and text filters, and the `why` of the
//! selected cell.
//!
//! Pure, like `update`: the grid is computed once on opening (by
//! `context::timeline::build`) and shared; each key changes the cursor or
//! the filters, and recomputes the one `why` text the view shows.

use std::sync::Arc;

use crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::context::EntitiesView;
use crate::context::timeline::{build, why_at};
use crate::session::SessionFile;

use super::action::Action;
use super::keymap::{KeyContext, Keymap};
use super::line_edit::LineEdit;
use super::model::{Level, Model, Overlay};
use super::reply::Reply;
use super::travel;
use super::view::timeline::Geometry;

pub use super::state::timeline::TimelineState;

/// The stored turns' entities, oldest first, with their transcript indices.
fn columns(m: &Model) -> (Vec<usize>, Vec<(u32, &EntitiesView)>) {
    let records = travel::stored_turns(&m.session);
    let cols = entities_at(&m.session, &records);
    (records, cols)
}

/// The turn and entities of each transcript record in `records`.
fn entities_at<'a>(session: &'a SessionFile, records: &[usize]) -> Vec<(u32, &'a EntitiesView)> {
    records
        .iter()
        .filter_map(|&i| session.transcript.get(i).map(|r| (r.turn, &r.entities)))
        .collect()
}

/// Opens the timeline (or closes it when open).
pub fn toggle(m: &mut Model) {
    if matches!(m.overlay, Some(Overlay::Timeline(_))) {
        m.overlay = None;
        return;
    }
    let (records, cols) = columns(m);
    if cols.is_empty() {
        m.chrome.status = Some((
            Level::Info,
            "no turns yet — the timeline fills as you chat".into(),
        ));
        return;
    }
    let grid = build(&cols);
    let col = m
        .panels
        .inspect
        .as_ref()
        .and_then(|i| records.iter().position(|r| *r == i.index))
        .unwrap_or(records.len() - 1);
    let mut st = TimelineState {
        types: grid.types(),
        shown: (0..grid.rows.len()).collect(),
        grid: Arc::new(grid),
        records,
        type_index: None,
        text: LineEdit::default(),
        editing: false,
        row: 0,
        col,
        row_offset: 0,
        col_offset: 0,
        why: String::new(),
    };
    settle(m, &mut st);
    m.overlay = Some(Overlay::Timeline(Box::new(st)));
}

/// A key while the timeline is open: moves its own cursor and filters,
/// reading the session; the rest it asks for.
pub fn on_key(st: &mut TimelineState, m: &Model, keymap: &Keymap, key: KeyEvent) -> Reply {
    let ctx = KeyContext {
        typing: st.editing,
        input_empty: false,
    };
    let action = keymap.action(key, ctx);
    if st.editing {
        match action {
            Some(Action::Submit) => st.editing = false,
            Some(Action::Cancel) => {
                st.editing = false;
                st.text = LineEdit::default();
                refilter(st);
            }
            Some(Action::Quit) => return Reply::Quit,
            _ => {
                if st.text.input(key) {
                    refilter(st);
                }
            }
        }
        settle(m, st);
        return Reply::Stay;
    }
    let page = Geometry::of(screen(m)).rows.max(1);
    let last_row = st.shown.len().saturating_sub(1);
    let last_col = st.grid.turns.len().saturating_sub(1);
    match action {
        Some(Action::Cancel | Action::Timeline) => return Reply::Close,
        Some(Action::Quit) => return Reply::Quit,
        Some(Action::ScrollUp) => st.row = st.row.saturating_sub(1),
        Some(Action::ScrollDown) => st.row = (st.row + 1).min(last_row),
        Some(Action::PageUp) => st.row = st.row.saturating_sub(page),
        Some(Action::PageDown) => st.row = (st.row + page).min(last_row),
        Some(Action::ScrollTop) => st.row = 0,
        Some(Action::ScrollBottom) => st.row = last_row,
        Some(Action::MoveLeft | Action::InspectPrev) => st.col = st.col.saturating_sub(1),
        Some(Action::MoveRight | Action::InspectNext) => st.col = (st.col + 1).min(last_col),
        Some(Action::Filter) => {
            st.type_index = match st.type_index {
                None if !st.types.is_empty() => Some(0),
                Some(i) if i + 1 < st.types.len() => Some(i + 1),
                _ => None,
            };
            refilter(st);
        }
        Some(Action::Search) => st.editing = true,
        Some(Action::Copy) => return Reply::Copy,
        Some(Action::Select) => {
            return match st.records.get(st.col) {
                Some(&index) => Reply::Inspect(index),
                None => Reply::Close,
            };
        }
        _ => {}
    }
    settle(m, st);
    Reply::Stay
}

/// Text typed or pasted into the filter while it is being edited.
pub fn on_paste(st: &mut TimelineState, text: &str) {
    if st.editing {
        st.text.paste(text);
        refilter(st);
    }
}

/// Recomputes the rows shown after a filter change, keeping the cursor's
/// entity when it is still shown.
fn refilter(st: &mut TimelineState) {
    let current = st.shown.get(st.row).copied();
    st.shown = st.grid.filter(st.type_filter(), st.text.text());
    st.row = current
        .and_then(|r| st.shown.iter().position(|s| *s == r))
        .unwrap_or(0);
    st.row_offset = 0;
}

/// The whole screen, as the timeline is drawn over it.
fn screen(m: &Model) -> Rect {
    Rect::new(0, 0, m.chrome.size.0, m.chrome.size.1)
}

/// Clamps the cursor, scrolls it into view, and explains its cell.
fn settle(m: &Model, st: &mut TimelineState) {
    let g = Geometry::of(screen(m));
    st.row = st.row.min(st.shown.len().saturating_sub(1));
    st.col = st.col.min(st.grid.turns.len().saturating_sub(1));
    st.row_offset = in_view(st.row, st.row_offset, g.rows);
    st.col_offset = in_view(st.col, st.col_offset, g.cols);
    st.why = match st.shown.get(st.row) {
        Some(&row) => {
            let cols = entities_at(&m.session, &st.records);
            why_at(&cols, st.col, &st.grid.rows[row].r#ref)
        }
        None => String::new(),
    };
}

/// The first position in view so that `cursor` is visible in `visible` slots.
fn in_view(cursor: usize, offset: usize, visible: usize) -> usize {
    let visible = visible.max(1);
    if cursor < offset {
        cursor
    } else if cursor >= offset + visible {
        cursor + 1 - visible
    } else {
        offset
    }
}
