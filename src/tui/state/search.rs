//! The chat search's state: the query, its matches and the one shown.
//! Plain data; the keys that change it are in `tui::search`.

use crate::tui::line_edit::LineEdit;

/// The search line and its matches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChatSearch {
    pub query: LineEdit,
    /// The query is being typed (keys go to it).
    pub editing: bool,
    /// Messages holding the query (indices into the chat), oldest first.
    pub matches: Vec<usize>,
    /// The match shown (index into `matches`).
    pub current: Option<usize>,
}

impl ChatSearch {
    /// "2 of 5", "no match", or "" before anything is typed.
    pub fn position(&self) -> String {
        match (self.current, self.matches.len()) {
            _ if self.query.text().trim().is_empty() => String::new(),
            (_, 0) => "no match".to_string(),
            (Some(i), n) => format!("{} of {n}", i + 1),
            (None, n) => format!("{n} matches"),
        }
    }
}
