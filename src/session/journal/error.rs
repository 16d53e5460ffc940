//! Why a journal cannot be read, in words a user (or the moved-aside
//! report) can act on: which line, and what is wrong with it.
//!
//! Owns the messages only; the reader builds the variants. At the edge of
//! the journal they become an [`Unreadable`], whose reason the store shows
//! and writes into the corrupt-file report. Imports no sibling. (Writing
//! fails only when serde cannot encode a value: that is a
//! [`serde_json::Error`], which the writer reports as
//! [`SessionError::Encode`](super::super::error::SessionError::Encode).)

use super::super::unreadable::Unreadable;

/// What is wrong with one line of a journal.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// Not JSON, or not a line of this schema: serde's message with line
    /// and column.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// A field its kind needs is missing.
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    /// The last line of a listing's read has no newline (a torn write).
    #[error("torn")]
    Torn,
    /// The first line is a line of another kind (as a listing reads it).
    #[error("a {0} line, not a header")]
    KindNotHeader(String),
    /// The first line is not a header (as a load reads it).
    #[error("the first line is not a header")]
    FirstNotHeader,
    /// A header after the first line.
    #[error("a second header")]
    SecondHeader,
    /// A kind of line this build does not know.
    #[error("unknown line kind {0:?}")]
    UnknownKind(String),
    /// A reference into the text table that is not a number.
    #[error("bad text reference {0:?}")]
    BadReference(String),
    /// A reference to a text the table does not have (yet).
    #[error("text reference {0} is not in the file")]
    MissingText(usize),
    /// A table entry whose id is not the next one.
    #[error("text {0} out of order")]
    TextOutOfOrder(u32),
    /// A delta that does not fit the value it is applied to.
    #[error("{0}")]
    Delta(String),
    /// The turn record, rebuilt, is not a JSON object.
    #[error("the record is not an object")]
    RecordNotObject,
    /// The turn record, rebuilt, does not read as one.
    #[error("{0}")]
    Record(serde_json::Error),
    /// The background entities do not read.
    #[error("background: {0}")]
    Background(serde_json::Error),
    /// The prompts do not read.
    #[error("prompts: {0}")]
    Prompts(serde_json::Error),
    /// The context does not read.
    #[error("context: {0}")]
    Context(serde_json::Error),
}

/// Why a journal cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The bytes are not UTF-8 from this offset on.
    #[error("not UTF-8: invalid byte at offset {0}")]
    NotUtf8(usize),
    /// The file has no whole line, not even its header.
    #[error("the header line is torn")]
    TornHeader,
    /// One line is wrong; `line` counts from 1.
    #[error("line {line}: {error}")]
    Line {
        /// The line, counted from 1.
        line: usize,
        /// What is wrong with it.
        #[source]
        error: LineError,
    },
    /// The context the lines add up to does not read.
    #[error("context: {0}")]
    Context(serde_json::Error),
    /// Written by a newer alfred with this schema version: left alone.
    #[error("written by a newer alfred (schema {0})")]
    Newer(u32),
}

impl ReadError {
    /// `error` at the line of index `n` (counted from 0).
    pub fn at(n: usize, error: impl Into<LineError>) -> ReadError {
        ReadError::Line {
            line: n + 1,
            error: error.into(),
        }
    }
}

impl From<std::str::Utf8Error> for ReadError {
    fn from(e: std::str::Utf8Error) -> ReadError {
        ReadError::NotUtf8(e.valid_up_to())
    }
}

impl From<ReadError> for Unreadable {
    fn from(e: ReadError) -> Unreadable {
        match e {
            ReadError::Newer(v) => Unreadable::Newer(v),
            other => Unreadable::Corrupt(other.to_string()),
        }
    }
}
