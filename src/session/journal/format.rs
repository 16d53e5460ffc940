//! The journal's format: what its lines are ([`Line`], read through
//! [`RawLine`] in one pass), the text table's entries ([`Piece`]) and
//! references ([`MARK`]), where the file stands after a line ([`Cursor`],
//! shared by the reader and the writer), and the helpers both sides walk a
//! turn's texts with.
//!
//! Imports no sibling but the error file: the encoding, decoding and
//! writing files build on it.

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::super::delta::Delta;
use super::super::llm::LlmSettings;
use super::error::LineError;
use crate::record::PromptsRecord;
use crate::text_key::TextKeys;

/// The schema version of a journal file.
pub const JOURNAL_VERSION: u32 = 5;

/// Texts shorter than this stay in place.
pub(super) const INLINE_MAX: usize = 64;

/// What marks a reference into the text table (`"\u{1}12"`); a text that
/// begins with it is always stored in the table, so none is mistaken.
pub(super) const MARK: char = '\u{1}';

/// One entry of the text table: a string or a list of ids.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub(super) enum Piece {
    /// A line (no newline in it).
    Line(String),
    /// A text: these pieces joined with newlines.
    Lines(Vec<u32>),
}

// Read by hand: an untagged enum is read twice over.
impl<'de> Deserialize<'de> for Piece {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Piece, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Piece;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a text or a list of text ids")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Piece, E> {
                Ok(Piece::Line(v.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Piece, E> {
                Ok(Piece::Line(v))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Piece, A::Error> {
                let mut ids = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(id) = seq.next_element()? {
                    ids.push(id);
                }
                Ok(Piece::Lines(ids))
            }
        }
        d.deserialize_any(V)
    }
}

/// One line of the file. (A turn line is most lines: it is not boxed.)
/// Written tagged by `k`; read through [`RawLine`], in one pass (serde reads
/// a tagged enum twice over).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case", try_from = "RawLine")]
pub(super) enum Line {
    Header {
        schema_version: u32,
        id: String,
        title: String,
        created_at: String,
        llm: LlmSettings,
        context: Value,
    },
    Turn {
        at: String,
        turn: u32,
        user: String,
        reply: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        commit: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        texts: Vec<(u32, Piece)>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        record: Option<Delta>,
        /// The prompts, in the first schema-4 lines only: they are now part
        /// of the record's delta.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompts: Option<PromptsRecord>,
        /// The context's delta; echoes name values of the record's delta.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        state: Option<Delta>,
    },
    Done {
        commit: String,
    },
    Void {
        commit: String,
    },
    Title {
        title: String,
    },
    State {
        state: Delta,
    },
    /// A note kept in the chat (schema 5).
    Note {
        turn: u32,
        text: String,
    },
}

/// Which line a [`RawLine`] is.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Header,
    Turn,
    Done,
    Void,
    Title,
    State,
    Note,
}

/// Any line, its fields as found.
#[derive(Debug, Deserialize)]
struct RawLine {
    k: Kind,
    schema_version: Option<u32>,
    id: Option<String>,
    title: Option<String>,
    created_at: Option<String>,
    llm: Option<LlmSettings>,
    context: Option<Value>,
    at: Option<String>,
    turn: Option<u32>,
    user: Option<String>,
    reply: Option<String>,
    commit: Option<String>,
    #[serde(default)]
    texts: Vec<(u32, Piece)>,
    record: Option<Delta>,
    prompts: Option<PromptsRecord>,
    state: Option<Delta>,
    text: Option<String>,
}

impl TryFrom<RawLine> for Line {
    type Error = LineError;

    fn try_from(r: RawLine) -> Result<Line, LineError> {
        fn need<T>(v: Option<T>, field: &'static str) -> Result<T, LineError> {
            v.ok_or(LineError::MissingField(field))
        }
        Ok(match r.k {
            Kind::Header => Line::Header {
                schema_version: need(r.schema_version, "schema_version")?,
                id: need(r.id, "id")?,
                title: need(r.title, "title")?,
                created_at: need(r.created_at, "created_at")?,
                llm: need(r.llm, "llm")?,
                context: need(r.context, "context")?,
            },
            Kind::Turn => Line::Turn {
                at: need(r.at, "at")?,
                turn: need(r.turn, "turn")?,
                user: need(r.user, "user")?,
                reply: need(r.reply, "reply")?,
                commit: r.commit,
                texts: r.texts,
                record: r.record,
                prompts: r.prompts,
                state: r.state,
            },
            Kind::Done => Line::Done {
                commit: need(r.commit, "commit")?,
            },
            Kind::Void => Line::Void {
                commit: need(r.commit, "commit")?,
            },
            Kind::Title => Line::Title {
                title: need(r.title, "title")?,
            },
            Kind::State => Line::State {
                state: need(r.state, "state")?,
            },
            Kind::Note => Line::Note {
                turn: need(r.turn, "turn")?,
                text: need(r.text, "text")?,
            },
        })
    }
}

/// Where the file stands after its last line: what the next line is
/// written against. Shared by the reader and the writer.
#[derive(Debug, Clone, Default)]
pub(super) struct Cursor {
    /// A text's key (see [`Cursor::key`]) → its id in the table (writing
    /// only: a hash, so the index costs no copy of the texts).
    pub(super) ids: HashMap<u128, u32>,
    /// The hashers of a text's key.
    pub(super) keys: TextKeys,
    /// The table, id → the text it stands for (reading only; each text is
    /// built once and shared by every prompt that holds it).
    pub(super) texts: Vec<Arc<str>>,
    /// Entries in the table.
    pub(super) count: u32,
    /// The last record as JSON, less what turn lines write plainly.
    pub(super) rest: Value,
    /// The context as JSON.
    pub(super) state: Value,
    /// The title the file has given so far.
    pub(super) title: String,
    /// Turns in the file (voided ones left out).
    pub(super) turns: usize,
    /// Notes in the file.
    pub(super) notes: usize,
    /// The schema of the file's header: a note line goes only into a file
    /// of schema 5 or later (an older alfred would not read it).
    pub(super) version: u32,
    /// Whether lines will be written after these (a reader keeps no `ids`).
    pub(super) writing: bool,
}

impl Cursor {
    /// A text's key in the index.
    pub(super) fn key(&self, text: &str) -> u128 {
        self.keys.key(text)
    }
}

/// Each prompt record of a prompts JSON value.
pub(super) fn each_prompt_value(prompts: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Value::Object(m) = prompts else { return };
    for (k, v) in m.iter_mut() {
        match (k.as_str(), v) {
            ("understand" | "think" | "reply", Value::Object(r)) => f(r),
            ("act" | "summarize", Value::Array(items)) => {
                for item in items {
                    if let Value::Object(r) = item {
                        f(r);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The record's fields a turn line writes plainly, outside its delta.
pub(super) const PLAIN: [&str; 3] = ["user", "reply", "turn"];

/// Every long text of a turn's prompts: system prompts, sections, answers.
pub(super) fn each_text(p: &mut PromptsRecord, f: &mut dyn FnMut(&mut Arc<str>)) {
    for r in p.all_mut() {
        f(&mut r.full.system);
        for s in &mut r.full.sections {
            f(&mut s.text);
        }
        if let Some(resp) = &mut r.response {
            let mut text: Arc<str> = std::mem::take(resp).into();
            f(&mut text);
            *resp = text.to_string();
        }
    }
}

/// A line as written: its JSON and a newline.
pub(super) fn line_text(line: &Line) -> serde_json::Result<String> {
    let mut text = serde_json::to_string(line)?;
    text.push('\n');
    Ok(text)
}

/// True when `bytes` look like a journal (its header line) rather than a
/// one-document session of schema 1–3.
pub fn is_journal(bytes: &[u8]) -> bool {
    let first = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    // A header names itself first: `{"k":"header",…`.
    first.starts_with(br#"{"k":"header""#)
}
