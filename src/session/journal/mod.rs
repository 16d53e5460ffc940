//! The session file as a journal (schema [`JOURNAL_VERSION`]): JSON Lines, appended to, so a
//! save costs the new turn only.
//!
//! The first line is the header (id, title, creation time, LLM, the context
//! the session started with); then one line per event, each a JSON object
//! tagged `k`:
//! - `turn`: its number, message and reply written plainly first (so a
//!   listing or a search reads them and cuts the rest off unread), the
//!   `commit` id of its kitchen writes when it has any (pending until
//!   settled), new entries of the file's text table (each long prompt text,
//!   and each line of one, is stored once), the record as a [`Delta`]
//!   against the record before — its prompts' texts as references into the
//!   table, their token reports left out when their sections give them —
//!   and the context after it as a [`Delta`] when it succeeded, naming by
//!   echo what the record's delta already wrote; the archive's digests
//!   already written are not compared again;
//! - `done` / `void`: the pending commit landed in the kitchen / did not (the
//!   turn it named is dropped, as if never sent);
//! - `note`: a `/why` answer kept in the chat (schema 5; a file of an older
//!   schema is written whole with the new header before its first note);
//! - `title`: a rename; `state`: the context changed between turns (pin,
//!   clear, policy).
//!
//! A last line without its newline, or that does not parse, is a write torn
//! by a crash: loading leaves it out and says so ([`Loaded::torn_at`]); the
//! writer sets it aside before appending. An older one-document file
//! (schema 1–3) is read through [`migrate`](super::migrate) and written
//! whole as a journal on the first save ([`decode_session`] and its
//! siblings read a file of either form). Pure except [`Journal`], which owns
//! the file handle and is used by the persist actor only.
//!
//! The files, each importing only those above it in this list:
//! - `error`: why a journal cannot be read ([`LineError`], [`ReadError`]);
//! - `format`: the lines, the text table's entries, the `Cursor`
//!   (where the file stands), shared by both sides;
//! - `encode`: the lines that bring the file to a session;
//! - `decode`: a journal read back ([`decode`], [`Loaded`]);
//! - `glimpse`: what a listing or a search reads ([`glimpse`]);
//! - `any_form`: a file of either form ([`decode_session`],
//!   [`decode_pending`], [`decode_header`]);
//! - `writer`: the [`Journal`] that owns the file.
//!
//! [`Delta`]: super::delta::Delta

mod any_form;
mod decode;
mod encode;
mod error;
mod format;
mod glimpse;
mod writer;

pub use any_form::{decode_header, decode_pending, decode_session};
pub use decode::{Loaded, decode};
pub use error::{LineError, ReadError};
pub use format::{JOURNAL_VERSION, is_journal};
pub use glimpse::{Glimpse, glimpse};
pub use writer::{AppendedTurn, Journal, SessionHead};

#[cfg(test)]
mod tests;
