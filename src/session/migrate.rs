//! Reading a one-document session file (schema 1–3, the form before the
//! journal): checks, schema versions and the v1 → v2 migration.
//!
//! Owns the decision of what a document's bytes are: a session of a known
//! schema, an older one to migrate in memory, a newer one to refuse (and
//! leave alone), or garbage, with the reason in words (serde's message with
//! line and column, "empty file", "not UTF-8"). Knows nothing of journals:
//! which form a file is, and what a document claiming a journal's schema
//! number is, the journal decides ([`super::journal::decode_session`]), and
//! it reads documents through this module, never the other way round. Must
//! not touch the disk: the store reads the bytes and decides what to do with
//! a bad file.
//!
//! Version 1 (before LLM settings were recorded) differs from version 2 in
//! three ways: the transcript was stored under `turns`, `title` was optional
//! (absent or `null` until the user named the session), and there was no
//! `llm` object. Migration renames `turns` to `transcript`, derives a missing
//! title from the first user message, and records the LLM as
//! `{ "backend": "unknown" }` since v1 never said. Files are rewritten in the
//! new format only by the next save.

use serde::Deserialize;
use serde::de::{self, SeqAccess, Visitor};
use serde_json::{Value, json};

use super::file::{DOCUMENT_VERSION, SessionFile, title_from};
use super::llm::LlmSettings;
use super::unreadable::Unreadable;
use crate::record::TurnStatus;

/// What a listing needs from a file, read without keeping its turns.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub schema_version: u32,
    pub title: String,
    pub created_at: String,
    pub updated_at: String,
    pub llm: LlmSettings,
    /// Turns completed: recorded as ok and settled (a pending last turn
    /// is not one yet).
    pub turns: usize,
    /// Attempts that failed or were cancelled (recorded, not turns).
    pub failed: usize,
    /// The last turn is recorded but its kitchen commit not settled yet.
    pub pending: bool,
}

/// Decodes a one-document session (schema 1–3), migrating older schemas in
/// memory.
pub fn decode_document(bytes: &[u8]) -> Result<SessionFile, Unreadable> {
    let text = text_of(bytes)?;
    // The common case, a current file, is one typed pass.
    let typed_error = match serde_json::from_str::<SessionFile>(text) {
        Ok(mut s) => {
            check_version(s.schema_version)?;
            s.schema_version = DOCUMENT_VERSION;
            return Ok(s);
        }
        Err(e) => e,
    };
    match version_of(text)? {
        1 => {
            let value: Value = serde_json::from_str(text).map_err(corrupt)?;
            let value = migrate_v1(value).map_err(Unreadable::Corrupt)?;
            serde_json::from_value(value)
                .map_err(|e| Unreadable::Corrupt(format!("version-1 file: {e}")))
        }
        _ => Err(corrupt(typed_error)),
    }
}

/// Reads a one-document session's header and counts its turns without
/// keeping them.
pub fn decode_document_header(bytes: &[u8]) -> Result<Header, Unreadable> {
    let text = text_of(bytes)?;
    let h = match serde_json::from_str::<HeaderRepr>(text) {
        Ok(h) => h,
        Err(e) => {
            // A newer schema may have changed a header field's type.
            version_of(text)?;
            return Err(corrupt(e));
        }
    };
    let version = h.schema_version.ok_or_else(no_version)?;
    check_version(version)?;
    let turns = h.transcript.or(h.turns).unwrap_or_default();
    let title = h.title.unwrap_or_else(|| {
        turns
            .first_user
            .as_deref()
            .map(title_from)
            .unwrap_or_default()
    });
    Ok(Header {
        schema_version: version,
        title,
        created_at: h.created_at.clone().unwrap_or_default(),
        updated_at: h.updated_at.or(h.created_at).unwrap_or_default(),
        llm: h.llm.unwrap_or_else(unknown_llm),
        turns: turns.count - turns.failed,
        failed: turns.failed,
        pending: false,
    })
}

/// Turns a version-1 session (as JSON) into a version-2 one.
pub fn migrate_v1(value: Value) -> Result<Value, String> {
    let Value::Object(mut obj) = value else {
        return Err("version-1 file: not a JSON object".into());
    };
    let turns = obj.remove("turns").unwrap_or_else(|| json!([]));
    if obj.get("title").is_none_or(Value::is_null) {
        let first_user = turns
            .get(0)
            .and_then(|t| t.get("user"))
            .and_then(Value::as_str)
            .unwrap_or("");
        obj.insert("title".into(), Value::String(title_from(first_user)));
    }
    if !obj.contains_key("llm") {
        let llm = serde_json::to_value(unknown_llm()).map_err(|e| e.to_string())?;
        obj.insert("llm".into(), llm);
    }
    obj.insert("transcript".into(), turns);
    obj.insert("schema_version".into(), json!(DOCUMENT_VERSION));
    Ok(Value::Object(obj))
}

/// What version-1 files say about their LLM: nothing.
fn unknown_llm() -> LlmSettings {
    LlmSettings {
        backend: "unknown".into(),
        model: None,
        base_url: String::new(),
    }
}

/// The text of a file: refuses empty files and bytes that are not UTF-8.
fn text_of(bytes: &[u8]) -> Result<&str, Unreadable> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Unreadable::Corrupt("empty file".into()));
    }
    std::str::from_utf8(bytes).map_err(Unreadable::not_utf8)
}

/// The schema version, with a full syntax check of the document.
fn version_of(text: &str) -> Result<u32, Unreadable> {
    #[derive(Deserialize)]
    struct VersionProbe {
        schema_version: Option<u32>,
    }
    let probe: VersionProbe = serde_json::from_str(text).map_err(corrupt)?;
    let version = probe.schema_version.ok_or_else(no_version)?;
    check_version(version)?;
    Ok(version)
}

fn check_version(version: u32) -> Result<(), Unreadable> {
    match version {
        0 => Err(Unreadable::Corrupt(
            "schema_version 0 does not exist".into(),
        )),
        // Past the last one-document schema: newer than any document this
        // build knows. (The journal's reader tells a journal's number apart.)
        v if v > DOCUMENT_VERSION => Err(Unreadable::Newer(v)),
        _ => Ok(()),
    }
}

fn no_version() -> Unreadable {
    Unreadable::Corrupt("no schema_version: not an alfred session file".into())
}

fn corrupt(e: serde_json::Error) -> Unreadable {
    Unreadable::Corrupt(e.to_string())
}

/// The header fields of either version; unknown fields (the context) are skipped.
#[derive(Deserialize)]
struct HeaderRepr {
    schema_version: Option<u32>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    created_at: Option<String>,
    #[serde(default)]
    updated_at: Option<String>,
    #[serde(default)]
    llm: Option<LlmSettings>,
    /// Version 2.
    #[serde(default)]
    transcript: Option<TurnsProbe>,
    /// Version 1.
    #[serde(default)]
    turns: Option<TurnsProbe>,
}

/// A transcript, counted: keeps only the first user message (for v1
/// titles) and how many turns failed.
#[derive(Debug, Default)]
struct TurnsProbe {
    count: usize,
    failed: usize,
    first_user: Option<String>,
}

impl<'de> Deserialize<'de> for TurnsProbe {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct FirstTurn {
            #[serde(default)]
            user: String,
            #[serde(default)]
            status: TurnStatus,
        }
        #[derive(Deserialize)]
        struct Turn {
            #[serde(default)]
            status: TurnStatus,
        }
        struct Counter;
        impl<'de> Visitor<'de> for Counter {
            type Value = TurnsProbe;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of turns")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TurnsProbe, A::Error> {
                let mut probe = TurnsProbe::default();
                if let Some(first) = seq.next_element::<FirstTurn>()? {
                    probe.first_user = Some(first.user);
                    probe.count = 1;
                    probe.failed = usize::from(first.status == TurnStatus::Failed);
                }
                while let Some(turn) = seq.next_element::<Turn>()? {
                    probe.count += 1;
                    probe.failed += usize::from(turn.status == TurnStatus::Failed);
                }
                Ok(probe)
            }
        }
        d.deserialize_seq(Counter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_bytes_get_a_reason() {
        let reason = |b: &[u8]| match decode_document(b) {
            Err(Unreadable::Corrupt(r)) => r,
            other => panic!("{other:?}"),
        };
        assert_eq!(reason(b""), "empty file");
        assert_eq!(reason(b" \n"), "empty file");
        assert!(reason(b"{\"a\": \xff}").starts_with("not UTF-8"));
        let cut = reason(b"{\"schema_version\": 2, \"id\": \"x");
        assert!(cut.contains("line 1 column"), "{cut}");
        assert!(reason(b"{}").contains("no schema_version"));
        assert!(reason(b"{\"schema_version\": 2}").contains("missing field"));
    }

    #[test]
    fn newer_files_are_recognised_even_when_their_shape_changed() {
        let newer = br#"{"schema_version": 99, "title": {"text": "x"}, "transcript": 5}"#;
        assert_eq!(decode_document(newer), Err(Unreadable::Newer(99)));
        assert_eq!(decode_document_header(newer), Err(Unreadable::Newer(99)));
    }

    #[test]
    fn v1_headers_count_turns_and_derive_the_title() {
        let v1 = br#"{"schema_version": 1, "id": "a", "created_at": "2025-01-01T00:00:00Z",
                      "turns": [{"user": "soup ideas\nthanks", "x": [1, {"y": 2}]}, {"user": "b"}],
                      "context": {}}"#;
        let h = decode_document_header(v1).unwrap();
        assert_eq!((h.turns, h.title.as_str()), (2, "soup ideas"));
        assert_eq!(h.updated_at, "2025-01-01T00:00:00Z");
        assert_eq!(h.llm.backend, "unknown");
    }
}
