//! `Unreadable`: why a session file's bytes are not a session this build
//! can use.
//!
//! Shared by the readers of both forms, the journal ([`super::journal`]) and
//! the older one-document file ([`super::migrate`]), so that neither imports
//! the other for it. Holds the reason only: the store decides what becomes
//! of the file (left alone when newer, moved aside when corrupt).

/// Why bytes are not a session this build can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// Broken: the reason, for the user and for the moved-aside report.
    Corrupt(String),
    /// Written by a newer alfred with this schema version: leave it alone.
    Newer(u32),
}

impl Unreadable {
    /// Bytes that are not UTF-8, with the offset where they stop being it.
    pub fn not_utf8(e: std::str::Utf8Error) -> Unreadable {
        Unreadable::Corrupt(format!(
            "not UTF-8: invalid byte at offset {}",
            e.valid_up_to()
        ))
    }
}
