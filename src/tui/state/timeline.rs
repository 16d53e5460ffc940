//! The entity timeline's state: the grid, the filters, the cursor and the
//! `why` of the selected cell. Plain data; the keys that change it are in
//! `tui::timeline`.

use std::sync::Arc;

use crate::context::timeline::{Timeline, TimelineRow};
use crate::tui::line_edit::LineEdit;

/// The timeline screen's state.
#[derive(Debug, Clone, PartialEq)]
pub struct TimelineState {
    pub grid: Arc<Timeline>,
    /// The transcript index of each column.
    pub records: Vec<usize>,
    /// The entity types present, for the type filter.
    pub types: Vec<String>,
    /// Index in `types`; `None` shows every type.
    pub type_index: Option<usize>,
    /// The text filter (ref or label).
    pub text: LineEdit,
    /// The text filter is being typed.
    pub editing: bool,
    /// The rows shown after the filters (indices into `grid.rows`).
    pub shown: Vec<usize>,
    /// The cursor: a position in `shown`, and a column.
    pub row: usize,
    pub col: usize,
    /// The first row and column in view.
    pub row_offset: usize,
    pub col_offset: usize,
    /// `why` of the cell under the cursor.
    pub why: String,
}

impl TimelineState {
    /// The type filter in effect.
    pub fn type_filter(&self) -> Option<&str> {
        self.type_index
            .and_then(|i| self.types.get(i))
            .map(String::as_str)
    }

    /// The entity, turn and state under the cursor.
    pub fn selected(&self) -> Option<(&TimelineRow, u32, Option<crate::context::EntityState>)> {
        let row = *self.shown.get(self.row)?;
        let turn = *self.grid.turns.get(self.col)?;
        Some((&self.grid.rows[row], turn, self.grid.cell(row, self.col)))
    }
}
