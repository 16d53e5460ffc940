//! A session file of either form: a journal, or an older one-document file
//! (schema 1–3) read through [`migrate`](super::super::migrate). Which form
//! the bytes are is decided here, once, for the store, the listing and the
//! writer.

use super::super::file::SessionFile;
use super::super::migrate::{Header, decode_document, decode_document_header};
use super::super::unreadable::Unreadable;
use super::decode::decode;
use super::format::{JOURNAL_VERSION, is_journal};
use super::glimpse::glimpse;
use crate::record::TurnStatus;

/// Decodes a whole session file, whichever its form: a journal, or an
/// older one-document file migrated in memory.
pub fn decode_session(bytes: &[u8]) -> Result<SessionFile, Unreadable> {
    decode_pending(bytes).map(|(session, _)| session)
}

/// Decodes a whole session file, whichever its form, and the commit of a
/// turn a crash left pending (journals only).
pub fn decode_pending(bytes: &[u8]) -> Result<(SessionFile, Option<String>), Unreadable> {
    if is_journal(bytes) {
        return decode(bytes).map(|l| (l.session, l.pending));
    }
    decode_document(bytes)
        .map(|s| (s, None))
        .map_err(not_a_journal_version)
}

/// Reads a session file's header, whichever its form, and counts its turns
/// without keeping them.
pub fn decode_header(bytes: &[u8]) -> Result<Header, Unreadable> {
    if !is_journal(bytes) {
        return decode_document_header(bytes).map_err(not_a_journal_version);
    }
    let g = glimpse(bytes)?;
    let ok = g.statuses.iter().filter(|s| **s == TurnStatus::Ok).count();
    let pending_ok = g.pending && g.statuses.last() == Some(&TurnStatus::Ok);
    Ok(Header {
        schema_version: g.schema_version,
        title: g.title,
        created_at: g.created_at,
        updated_at: g.updated_at,
        llm: g.llm,
        turns: ok - usize::from(pending_ok),
        failed: g.statuses.len() - ok,
        pending: g.pending,
    })
}

/// A document refused as newer whose schema number is a journal's: the
/// versions after the last one-document schema are journals, so no alfred
/// wrote that document.
fn not_a_journal_version(why: Unreadable) -> Unreadable {
    match why {
        Unreadable::Newer(v) if v <= JOURNAL_VERSION => Unreadable::Corrupt(format!(
            "schema_version {v} is a journal's, but the file is one JSON document"
        )),
        other => other,
    }
}
