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
//! writer sets it aside before appending. Pure except [`Journal`], which owns
//! the file handle and is used by the persist actor only.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::delta::{At, Delta, Op, at_path, kept_items};
use super::error::SessionError;
use super::file::{SessionFile, SessionNote, title_from};
use super::llm::LlmSettings;
use super::migrate::Unreadable;
use crate::context::ContextState;
use crate::context::archive::TurnDigest;
use crate::context::snapshot::EntityView;
use crate::record::{PromptsRecord, TurnRecord, TurnStatus};
use crate::text_key::TextKeys;

/// The schema version of a journal file.
pub const JOURNAL_VERSION: u32 = 5;

/// Texts shorter than this stay in place.
const INLINE_MAX: usize = 64;

/// What marks a reference into the text table (`"\u{1}12"`); a text that
/// begins with it is always stored in the table, so none is mistaken.
const MARK: char = '\u{1}';

/// One entry of the text table: a string or a list of ids.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
enum Piece {
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
enum Line {
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
    type Error = String;

    fn try_from(r: RawLine) -> Result<Line, String> {
        fn need<T>(v: Option<T>, field: &str) -> Result<T, String> {
            v.ok_or_else(|| format!("missing field `{field}`"))
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
struct Cursor {
    /// A text's key (see [`Cursor::key`]) → its id in the table (writing
    /// only: a hash, so the index costs no copy of the texts).
    ids: HashMap<u128, u32>,
    /// The hashers of a text's key.
    keys: TextKeys,
    /// The table, id → the text it stands for (reading only; each text is
    /// built once and shared by every prompt that holds it).
    texts: Vec<Arc<str>>,
    /// Entries in the table.
    count: u32,
    /// The last record as JSON, less what turn lines write plainly.
    rest: Value,
    /// The context as JSON.
    state: Value,
    title: String,
    turns: usize,
    /// Notes in the file.
    notes: usize,
    /// The schema of the file's header: a note line goes only into a file
    /// of schema 5 or later (an older alfred would not read it).
    version: u32,
    /// Whether lines will be written after these (a reader keeps no `ids`).
    writing: bool,
}

impl Cursor {
    fn starting(session: &SessionFile) -> Result<(Cursor, String), String> {
        let state = serde_json::to_value(&session.context).map_err(|e| e.to_string())?;
        let header = Line::Header {
            schema_version: JOURNAL_VERSION,
            id: session.id.clone(),
            title: String::new(),
            created_at: session.created_at.clone(),
            llm: session.llm.clone(),
            context: state.clone(),
        };
        let cursor = Cursor {
            state,
            rest: Value::Null,
            version: JOURNAL_VERSION,
            writing: true,
            ..Cursor::default()
        };
        Ok((cursor, line_text(&header)?))
    }

    /// A text's key in the index.
    fn key(&self, text: &str) -> u128 {
        self.keys.key(text)
    }

    /// Stores `text` in the table (new pieces go to `new`) and returns its
    /// reference; short texts stay as they are.
    fn pack(&mut self, text: &str, new: &mut Vec<(u32, Piece)>) -> String {
        if text.len() < INLINE_MAX && !text.starts_with(MARK) {
            return text.to_string();
        }
        let key = self.key(text);
        if let Some(id) = self.ids.get(&key) {
            return format!("{MARK}{id}");
        }
        if !text.contains('\n') {
            let id = self.piece(text, new);
            return format!("{MARK}{id}");
        }
        let lines: Vec<u32> = text.split('\n').map(|l| self.piece(l, new)).collect();
        let id = self.add(key, Piece::Lines(lines), new);
        format!("{MARK}{id}")
    }

    fn piece(&mut self, line: &str, new: &mut Vec<(u32, Piece)>) -> u32 {
        let key = self.key(line);
        match self.ids.get(&key) {
            Some(id) => *id,
            None => self.add(key, Piece::Line(line.to_string()), new),
        }
    }

    fn add(&mut self, key: u128, piece: Piece, new: &mut Vec<(u32, Piece)>) -> u32 {
        let id = self.count;
        self.count += 1;
        self.ids.insert(key, id);
        new.push((id, piece));
        id
    }

    /// The text a stored string stands for.
    fn unpack(&self, stored: &Arc<str>) -> Result<Arc<str>, String> {
        let Some(id) = stored.strip_prefix(MARK) else {
            return Ok(stored.clone());
        };
        let id: usize = id
            .parse()
            .map_err(|_| format!("bad text reference {id:?}"))?;
        self.texts
            .get(id)
            .cloned()
            .ok_or_else(|| format!("text reference {id} is not in the file"))
    }

    /// Reads a table entry from a line.
    fn learn(&mut self, id: u32, piece: Piece) -> Result<(), String> {
        if id as usize != self.texts.len() {
            return Err(format!("text {id} out of order"));
        }
        let whole = matches!(piece, Piece::Lines(_));
        let text: Arc<str> = match piece {
            Piece::Line(l) => l.into(),
            Piece::Lines(ids) => {
                let mut text = String::new();
                for (n, i) in ids.iter().enumerate() {
                    if n > 0 {
                        text.push('\n');
                    }
                    let line = self
                        .texts
                        .get(*i as usize)
                        .ok_or_else(|| format!("text reference {i} is not in the file"))?;
                    text.push_str(line);
                }
                text.into()
            }
        };
        if self.writing {
            let key = self.key(&text);
            self.ids.entry(key).or_insert(id);
        }
        // A writer needs the lines only, to join the texts made of them.
        self.texts.push(if whole && self.writing {
            Arc::from("")
        } else {
            text
        });
        self.count += 1;
        Ok(())
    }

    /// The change from the cursor's context to `s`, and the cursor moved to
    /// it. The archive's digests already in the cursor are kept as they are
    /// (only new ones are written out) when its turn numbers and its first
    /// and last digests say it only grew at the back and gave way at the
    /// front; otherwise the context is compared whole.
    fn state_delta(&mut self, s: &ContextState) -> Result<Option<Delta>, String> {
        let digests = s.archive.digests();
        let old = self
            .state
            .pointer("/archive/turns")
            .and_then(Value::as_array);
        let Some(dropped) = old.and_then(|old| archive_dropped(old, digests)) else {
            let value = serde_json::to_value(s).map_err(|e| e.to_string())?;
            let d = Delta::between(&self.state, &value);
            self.state = value;
            return Ok(d);
        };
        let mut value = s.to_value_without_archive().map_err(|e| e.to_string())?;
        let Some(Value::Object(mut archive)) =
            self.state.as_object_mut().and_then(|m| m.remove("archive"))
        else {
            unreachable!("an archive array above")
        };
        let Some(Value::Array(mut turns)) = archive.remove("turns") else {
            unreachable!("an archive array above")
        };
        let mut d = Delta::between(&self.state, &value);
        let kept = turns.len() - dropped;
        let mut ops = Vec::new();
        if dropped > 0 {
            turns.drain(..dropped);
            ops.push(Op::Drop(dropped));
        }
        if kept > 0 && digests.len() > kept {
            ops.push(Op::Copy(kept));
        }
        for digest in digests.iter().skip(kept) {
            let v = serde_json::to_value(digest).map_err(|e| e.to_string())?;
            turns.push(v.clone());
            ops.push(Op::New(v));
        }
        if !ops.is_empty() {
            let change = (
                "archive".to_string(),
                Delta::Object {
                    set: vec![("turns".to_string(), Delta::Edit(ops))],
                    del: Vec::new(),
                },
            );
            match &mut d {
                Some(Delta::Object { set, .. }) => set.push(change),
                None => {
                    d = Some(Delta::Object {
                        set: vec![change],
                        del: Vec::new(),
                    })
                }
                Some(_) => unreachable!("two objects differ key by key"),
            }
        }
        archive.insert("turns".into(), Value::Array(turns));
        if let Value::Object(m) = &mut value {
            m.insert("archive".into(), Value::Object(archive));
        }
        self.state = value;
        Ok(d)
    }

    /// The line of a turn, and the cursor moved past it.
    fn turn_line(
        &mut self,
        record: &TurnRecord,
        state: Option<&ContextState>,
        at: &str,
        commit: Option<&str>,
    ) -> Result<String, String> {
        let mut texts = Vec::new();
        let mut prompts = record.prompts.clone();
        each_text(&mut prompts, &mut |t| *t = self.pack(t, &mut texts).into());
        // Prompts whose token report is their sections' (as the pipeline
        // makes them) go into the record's delta without it; others are
        // written whole, in order (a JSON value would sort the report).
        let derived = prompts.all().all(|r| r.tokens == r.full.tokens());
        let rest = rest_of(record, derived.then_some(&prompts))?;
        let record_delta = Delta::between(&self.rest, &rest);
        let state = match state.filter(|_| record.status == TurnStatus::Ok) {
            Some(s) => {
                let mut d = self.state_delta(s)?;
                if let (Some(d), Some(r)) = (&mut d, &record_delta) {
                    d.echo_from(r);
                }
                d
            }
            None => None,
        };
        let line = Line::Turn {
            at: at.to_string(),
            turn: record.turn,
            user: record.user.clone(),
            reply: record.reply.clone(),
            commit: commit.map(str::to_string),
            texts,
            record: record_delta,
            prompts: (!derived).then_some(prompts),
            state,
        };
        self.rest = rest;
        self.turns += 1;
        if self.title.is_empty() {
            self.title = title_from(&record.user);
        }
        line_text(&line)
    }
}

/// The record as JSON, less what a turn line writes plainly, with
/// `prompts` (their texts packed, their token reports left out) in place of
/// its own when given.
fn rest_of(record: &TurnRecord, prompts: Option<&PromptsRecord>) -> Result<Value, String> {
    let mut bare = TurnRecord {
        prompts: PromptsRecord::default(),
        user: String::new(),
        reply: String::new(),
        ..record.clone()
    };
    bare.turn = 0;
    let mut v = serde_json::to_value(&bare).map_err(|e| e.to_string())?;
    if let Value::Object(m) = &mut v {
        for k in PLAIN {
            m.remove(k);
        }
        m.remove("prompts");
        if let Some(p) = prompts {
            let mut p = serde_json::to_value(p).map_err(|e| e.to_string())?;
            each_prompt_value(&mut p, &mut |r| {
                for k in TOKEN_REPORT {
                    r.remove(k);
                }
            });
            m.insert("prompts".into(), p);
        }
    }
    Ok(v)
}

/// A prompt record's token report, left out of the delta when its sections
/// give it.
const TOKEN_REPORT: [&str; 3] = ["sections", "system_tokens", "total_tokens"];

/// Each prompt record of a prompts JSON value.
fn each_prompt_value(prompts: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
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
const PLAIN: [&str; 3] = ["user", "reply", "turn"];

/// The last turn's background, and for each entry of this turn's the one
/// of those it keeps as it was, if any.
struct Kept {
    old: Vec<Arc<EntityView>>,
    map: Vec<Option<usize>>,
}

/// The turn record `rest` stands for, with the fields written plainly; its
/// prompts' texts are still packed. `rest` is borrowed, not copied (the
/// plain fields go in for the read and come out after).
fn record_of(
    rest: &mut Value,
    turn: u32,
    user: String,
    reply: String,
    kept: Option<Kept>,
) -> Result<TurnRecord, String> {
    // With the last turn's background and which of its entries stay, only
    // the others are read (the array is set aside for the whole read).
    let set_aside = match (&kept, rest.pointer_mut("/entities/background")) {
        (Some(_), Some(slot)) => Some(std::mem::take(slot)),
        _ => None,
    };
    let Value::Object(m) = rest else {
        return Err("the record is not an object".into());
    };
    let packed = m.insert("prompts".into(), Value::Object(Map::new()));
    m.insert("user".into(), Value::String(user));
    m.insert("reply".into(), Value::String(reply));
    m.insert("turn".into(), Value::from(turn));
    if set_aside.is_some()
        && let Some(Value::Object(e)) = m.get_mut("entities")
    {
        e.insert("background".into(), Value::Array(Vec::new()));
    }
    let record = TurnRecord::deserialize(&*rest).map_err(|e| e.to_string());
    let background = set_aside.as_ref().map(|v| match (kept, v) {
        (Some(Kept { old, map }), Value::Array(items)) if map.len() == items.len() => map
            .iter()
            .zip(items)
            .map(|(i, item)| match i.and_then(|i| old.get(i)) {
                Some(e) => Ok(Arc::clone(e)),
                None => EntityView::deserialize(item).map(Arc::new),
            })
            .collect::<Result<Vec<_>, _>>(),
        _ => Vec::deserialize(v),
    });
    if let (Some(v), Some(slot)) = (set_aside, rest.pointer_mut("/entities/background")) {
        *slot = v;
    }
    let Value::Object(m) = rest else {
        unreachable!("an object above")
    };
    for k in PLAIN {
        m.remove(k);
    }
    let mut record = record?;
    if let Some(b) = background {
        record.entities.background = b.map_err(|e| format!("background: {e}"))?;
    }
    if let Some(mut p) = packed {
        // The token reports go in for the read and come out after.
        each_prompt_value(&mut p, &mut |r| {
            r.insert("sections".into(), Value::Object(Map::new()));
            r.insert("total_tokens".into(), Value::from(0));
        });
        let read = PromptsRecord::deserialize(&p).map_err(|e| format!("prompts: {e}"));
        each_prompt_value(&mut p, &mut |r| {
            r.remove("sections");
            r.remove("total_tokens");
        });
        record.prompts = read?;
        for r in record.prompts.all_mut() {
            r.tokens = r.full.tokens();
        }
        m.insert("prompts".into(), p);
    } else {
        m.remove("prompts");
    }
    Ok(record)
}

/// How many of the archive's digests in `old` (as JSON) gave way at the
/// front if `new` is `old` grown at the back, or `None`: the turn numbers
/// must follow on, and the first and last digests kept must be equal.
fn archive_dropped(old: &[Value], new: &VecDeque<TurnDigest>) -> Option<usize> {
    let turn_of = |v: &Value| v.get("turn").and_then(Value::as_u64);
    let dropped = match new.front() {
        Some(first) => old
            .iter()
            .take_while(|v| turn_of(v).is_some_and(|t| t < u64::from(first.turn)))
            .count(),
        None => old.len(),
    };
    let kept = &old[dropped..];
    if kept.len() > new.len()
        || kept
            .iter()
            .zip(new)
            .any(|(o, n)| turn_of(o) != Some(u64::from(n.turn)))
    {
        return None;
    }
    let same = |o: &Value, n: &TurnDigest| serde_json::to_value(n).is_ok_and(|n| n == *o);
    match (kept.first(), kept.last()) {
        (Some(first), Some(last)) => {
            (same(first, &new[0]) && same(last, &new[kept.len() - 1])).then_some(dropped)
        }
        _ => Some(dropped),
    }
}

/// Every long text of a turn's prompts: system prompts, sections, answers.
fn each_text(p: &mut PromptsRecord, f: &mut dyn FnMut(&mut Arc<str>)) {
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

fn each_text_try(
    p: &mut PromptsRecord,
    f: &mut dyn FnMut(&mut Arc<str>) -> Result<(), String>,
) -> Result<(), String> {
    let mut failed = None;
    each_text(p, &mut |t| {
        if failed.is_none()
            && let Err(e) = f(t)
        {
            failed = Some(e);
        }
    });
    failed.map_or(Ok(()), Err)
}

fn line_text(line: &Line) -> Result<String, String> {
    let mut text = serde_json::to_string(line).map_err(|e| e.to_string())?;
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

/// A journal read back.
#[derive(Debug)]
pub struct Loaded {
    pub session: SessionFile,
    /// The commit of the last turn, when no `done` or `void` settled it: the
    /// kitchen decides whether that turn happened ([`Journal::settle`]).
    pub pending: Option<String>,
    /// The length of the good lines when the last line was torn.
    pub torn_at: Option<usize>,
    cursor: Cursor,
}

/// Reads a journal.
pub fn decode(bytes: &[u8]) -> Result<Loaded, Unreadable> {
    read(bytes, false)
}

/// Reads a journal; `writing` when lines will be appended after it (the
/// session it gives then has no turns: only the cursor is wanted).
fn read(bytes: &[u8], writing: bool) -> Result<Loaded, Unreadable> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Unreadable::Corrupt(format!(
            "not UTF-8: invalid byte at offset {}",
            e.valid_up_to()
        ))
    })?;
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut offset = 0;
    for piece in text.split_inclusive('\n') {
        lines.push((offset, piece));
        offset += piece.len();
    }
    let mut torn_at = None;
    if let Some((at, last)) = lines.last()
        && (!last.ends_with('\n') || serde_json::from_str::<Line>(last).is_err())
    {
        torn_at = Some(*at);
        lines.pop();
    }
    let corrupt = |n: usize, e: String| Unreadable::Corrupt(format!("line {}: {e}", n + 1));
    let mut iter = lines.into_iter().enumerate();
    let Some((_, (_, first))) = iter.next() else {
        return Err(Unreadable::Corrupt("the header line is torn".into()));
    };
    let (mut session, mut cursor) = match serde_json::from_str::<Line>(first) {
        Ok(Line::Header {
            schema_version,
            id,
            title,
            created_at,
            llm,
            context,
        }) => {
            if schema_version > JOURNAL_VERSION {
                return Err(Unreadable::Newer(schema_version));
            }
            let state: ContextState = serde_json::from_value(context.clone())
                .map_err(|e| corrupt(0, format!("context: {e}")))?;
            let mut session =
                SessionFile::new(id, jiff::Timestamp::UNIX_EPOCH, llm, state.policy.clone());
            session.context = state;
            session.created_at = created_at.clone();
            session.updated_at = created_at;
            session.title = title.clone();
            let cursor = Cursor {
                state: context,
                rest: Value::Null,
                title,
                version: schema_version,
                writing,
                ..Cursor::default()
            };
            (session, cursor)
        }
        Ok(_) => return Err(corrupt(0, "the first line is not a header".into())),
        Err(e) => return Err(corrupt(0, e.to_string())),
    };
    // Which commits are voided: a voided turn is read for its texts only.
    let mut voided = std::collections::HashSet::new();
    for (_, (_, line)) in iter.clone() {
        if line.starts_with(r#"{"k":"void""#)
            && let Ok(Line::Void { commit }) = serde_json::from_str(line)
        {
            voided.insert(commit);
        }
    }
    let mut pending: Option<String> = None;
    // The context is rebuilt as JSON and decoded once, at the end.
    let mut context_dirty = false;
    // Lines are parsed on a second thread, ahead of the one that applies
    // them in order.
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, Result<Line, String>)>(64);
        scope.spawn(move || {
            for (n, (_, line)) in iter {
                let parsed = serde_json::from_str::<Line>(line).map_err(|e| e.to_string());
                if tx.send((n, parsed)).is_err() {
                    break;
                }
            }
        });
        for (n, line) in rx {
            let line = line.map_err(|e| corrupt(n, e))?;
            match line {
                Line::Header { .. } => return Err(corrupt(n, "a second header".into())),
                Line::Turn {
                    at,
                    turn,
                    user,
                    reply,
                    commit,
                    texts,
                    record,
                    prompts,
                    state,
                } => {
                    for (id, piece) in texts {
                        cursor.learn(id, piece).map_err(|e| corrupt(n, e))?;
                    }
                    if commit.as_ref().is_some_and(|c| voided.contains(c)) {
                        continue;
                    }
                    pending = commit;
                    // The context first: its echoes name values of the
                    // record's delta, which its own application uses up.
                    if let Some(d) = state {
                        let echoes = record.as_ref().map(Delta::written).unwrap_or_default();
                        d.apply(&mut cursor.state, &echoes)
                            .map_err(|e| corrupt(n, e))?;
                        context_dirty = true;
                    }
                    // Which background entries stay the last turn's (shared,
                    // not read again).
                    let kept = session.transcript.last().and_then(|last| {
                        let old = &last.entities.background;
                        let map = match at_path(record.as_ref(), &["entities", "background"]) {
                            At::Untouched => (0..old.len()).map(Some).collect(),
                            At::Changed(Delta::Edit(ops)) => kept_items(ops, old.len())?,
                            _ => return None,
                        };
                        Some(Kept {
                            old: old.clone(),
                            map,
                        })
                    });
                    if let Some(d) = record {
                        d.apply(&mut cursor.rest, &[]).map_err(|e| corrupt(n, e))?;
                    }
                    if writing {
                        // A writer needs where the file stands, not its turns.
                        if session.title.is_empty() {
                            session.title = title_from(&user);
                        }
                        session.updated_at = at;
                        cursor.turns += 1;
                        continue;
                    }
                    let mut record = record_of(&mut cursor.rest, turn, user, reply, kept)
                        .map_err(|e| corrupt(n, e))?;
                    if let Some(p) = prompts {
                        record.prompts = p;
                    }
                    each_text_try(&mut record.prompts, &mut |t| {
                        *t = cursor.unpack(t)?;
                        Ok(())
                    })
                    .map_err(|e| corrupt(n, e))?;
                    if session.title.is_empty() {
                        session.title = title_from(&record.user);
                    }
                    session.transcript.push(record);
                    session.updated_at = at;
                    cursor.turns += 1;
                }
                Line::Done { commit } => {
                    if pending.as_ref() == Some(&commit) {
                        pending = None;
                    }
                }
                // Its turn was never applied.
                Line::Void { .. } => {}
                Line::Title { title } => session.title = title,
                Line::Note { turn, text } => {
                    session.notes.push(SessionNote { turn, text });
                    cursor.notes += 1;
                }
                Line::State { state } => {
                    state
                        .apply(&mut cursor.state, &[])
                        .map_err(|e| corrupt(n, e))?;
                    context_dirty = true;
                }
            }
        }
        Ok(())
    })?;
    if context_dirty {
        session.context = serde_json::from_value(cursor.state.clone())
            .map_err(|e| Unreadable::Corrupt(format!("context: {e}")))?;
    }
    cursor.title = session.title.clone();
    Ok(Loaded {
        session,
        pending,
        torn_at,
        cursor,
    })
}

/// The whole file of `session`, as a journal: what a migration or a first
/// save writes (atomically).
fn encode_all(session: &SessionFile) -> Result<(Vec<u8>, Cursor), String> {
    let (mut cursor, mut text) = Cursor::starting(session)?;
    text.push_str(&cursor.lines_to(session)?);
    Ok((text.into_bytes(), cursor))
}

/// What a journal needs to start a session's file: the session before its
/// first turn.
#[derive(Debug, Clone)]
pub struct SessionHead {
    pub id: String,
    pub created_at: String,
    pub llm: LlmSettings,
    pub title: String,
    pub context: ContextState,
}

impl SessionHead {
    /// The head of `session` as it is now.
    pub fn of(session: &SessionFile) -> SessionHead {
        SessionHead {
            id: session.id.clone(),
            created_at: session.created_at.clone(),
            llm: session.llm.clone(),
            title: session.title.clone(),
            context: session.context.clone(),
        }
    }

    fn session(&self) -> SessionFile {
        let mut s = SessionFile::new(
            self.id.clone(),
            jiff::Timestamp::UNIX_EPOCH,
            self.llm.clone(),
            self.context.policy.clone(),
        );
        s.created_at = self.created_at.clone();
        s.updated_at = self.created_at.clone();
        s.title = self.title.clone();
        s.context = self.context.clone();
        s
    }
}

/// One turn to append.
#[derive(Debug, Clone)]
pub struct AppendedTurn {
    pub record: TurnRecord,
    /// The context after it (kept only when the turn succeeded).
    pub state: Option<ContextState>,
    /// When it was recorded (RFC 3339, the session's `updated_at`).
    pub at: String,
    /// The kitchen commit its writes go under, when it has any.
    pub commit: Option<String>,
}

impl Cursor {
    /// The lines that bring the file to `session`: its turns past the
    /// file's (none pending; the context with the last), then a rename or a
    /// context change.
    fn lines_to(&mut self, session: &SessionFile) -> Result<String, String> {
        let mut text = String::new();
        let n = session.transcript.len();
        for i in self.turns..n {
            let record = &session.transcript[i];
            let (state, at) = if i + 1 == n {
                (Some(&session.context), session.updated_at.as_str())
            } else {
                (None, record.started_at.as_str())
            };
            text.push_str(&self.turn_line(record, state, at, None)?);
        }
        text.push_str(&self.catch_up(session)?);
        Ok(text)
    }

    /// The lines that bring the file to `session` when the file already has
    /// at least its turns: a rename, a context changed between turns.
    /// Turns the file has beyond the session's are left alone (the session
    /// in hand is older than the file), and so is its context.
    fn catch_up(&mut self, session: &SessionFile) -> Result<String, String> {
        let mut out = String::new();
        if session.transcript.len() == self.turns {
            let value = serde_json::to_value(&session.context).map_err(|e| e.to_string())?;
            if let Some(d) = Delta::between(&self.state, &value) {
                out.push_str(&line_text(&Line::State { state: d })?);
                self.state = value;
            }
        }
        if session.transcript.len() >= self.turns && session.title != self.title {
            out.push_str(&line_text(&Line::Title {
                title: session.title.clone(),
            })?);
            self.title = session.title.clone();
        }
        for note in session.notes.iter().skip(self.notes) {
            out.push_str(&line_text(&Line::Note {
                turn: note.turn,
                text: note.text.clone(),
            })?);
            self.notes += 1;
        }
        Ok(out)
    }
}

/// The open journal of one session: the persist actor's writer.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    /// `None` until the file exists as a journal (new, or still a
    /// one-document file to migrate on the first write).
    cursor: Option<Cursor>,
}

impl Journal {
    /// The writer of `path`. A journal file is read to continue after its
    /// last line; a torn last line is moved aside to `<name>.torn-<time>`
    /// and cut off. A missing or one-document file is written whole on the
    /// first save.
    pub fn open(path: PathBuf, now: jiff::Timestamp) -> Result<Journal, SessionError> {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Journal { path, cursor: None });
            }
            Err(e) => return Err(SessionError::io("read", &path, e)),
        };
        if !is_journal(&bytes) {
            return Ok(Journal { path, cursor: None });
        }
        let loaded = read(&bytes, true).map_err(|why| refused(&path, why))?;
        if let Some(at) = loaded.torn_at {
            set_torn_tail_aside(&path, &bytes[at..], at as u64, now)?;
        }
        let mut cursor = loaded.cursor;
        // The writer never reads a text back.
        cursor.texts = Vec::new();
        Ok(Journal {
            path,
            cursor: Some(cursor),
        })
    }

    /// Brings the file to `session`: new turns appended (none pending), a
    /// rename or a context change as a line; the whole file written
    /// atomically the first time. Returns the bytes written.
    pub fn sync(&mut self, session: &SessionFile) -> Result<u64, SessionError> {
        let Some(cursor) = &mut self.cursor else {
            return self.write_whole(session);
        };
        // A note line needs a file of schema 5: an older one is written
        // whole, with the new header, first.
        if cursor.version < JOURNAL_VERSION && session.notes.len() > cursor.notes {
            return self.write_whole(session);
        }
        let text = cursor.lines_to(session).map_err(encode)?;
        self.append(text.as_bytes(), false)
    }

    /// Appends one turn, pending under `commit` when given, and waits until
    /// it is on disk. The first write of a session that has no journal yet
    /// writes it whole first: from `head` for a new one, from the file for
    /// one in the older one-document form.
    pub fn append_turn(
        &mut self,
        head: &SessionHead,
        turn: &AppendedTurn,
    ) -> Result<u64, SessionError> {
        let mut written = 0;
        if self.cursor.is_none() {
            let base = match std::fs::read(&self.path) {
                Ok(bytes) => {
                    super::migrate::decode(&bytes).map_err(|why| refused(&self.path, why))?
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => head.session(),
                Err(e) => return Err(SessionError::io("read", &self.path, e)),
            };
            written += self.write_whole(&base)?;
        }
        let cursor = self.cursor.as_mut().expect("written whole above");
        let state = turn
            .state
            .as_ref()
            .filter(|_| turn.record.status == TurnStatus::Ok);
        let text = cursor
            .turn_line(&turn.record, state, &turn.at, turn.commit.as_deref())
            .map_err(encode)?;
        Ok(written + self.append(text.as_bytes(), true)?)
    }

    /// Settles the pending commit: `done` when the kitchen has it, `void`
    /// (the turn dropped) when not.
    pub fn settle(&mut self, commit: &str, landed: bool) -> Result<u64, SessionError> {
        let line = if landed {
            Line::Done {
                commit: commit.to_string(),
            }
        } else {
            Line::Void {
                commit: commit.to_string(),
            }
        };
        let text = line_text(&line).map_err(encode)?;
        let written = self.append(text.as_bytes(), true)?;
        if !landed {
            // Rare (the kitchen refused the commit): rather than keep a
            // copy of where the file stood before every turn, the next
            // write starts again from the file, which leaves the turn out.
            self.cursor = None;
        }
        Ok(written)
    }

    fn write_whole(&mut self, session: &SessionFile) -> Result<u64, SessionError> {
        let (bytes, cursor) = encode_all(session).map_err(encode)?;
        super::atomic::write_atomic(&self.path, &bytes)?;
        self.cursor = Some(cursor);
        Ok(bytes.len() as u64)
    }

    fn append(&mut self, bytes: &[u8], durable: bool) -> Result<u64, SessionError> {
        if bytes.is_empty() {
            return Ok(0);
        }
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(|e| SessionError::io("open", &self.path, e))?;
        // A file an older install left readable by others is made private
        // before anything more is written into it.
        crate::paths::private::narrow_open(&file, &self.path);
        let len_before = file.metadata().map(|m| m.len()).ok();
        let written = file
            .write_all(bytes)
            .and_then(|()| if durable { file.sync_data() } else { Ok(()) });
        if let Err(e) = written {
            // Leave no half line behind: the file ends where it ended.
            if let Some(len) = len_before {
                let _ = file.set_len(len);
            }
            self.cursor = None;
            return Err(SessionError::io("write", &self.path, e));
        }
        Ok(bytes.len() as u64)
    }
}

/// A file the writer cannot continue, in words.
fn refused(path: &Path, why: Unreadable) -> SessionError {
    SessionError::Corrupt {
        path: path.to_path_buf(),
        reason: match why {
            Unreadable::Corrupt(r) => r,
            Unreadable::Newer(v) => format!("written by a newer alfred (schema {v})"),
        },
        moved_to: None,
    }
}

fn encode(reason: String) -> SessionError {
    SessionError::io("encode", PathBuf::new(), std::io::Error::other(reason))
}

/// Moves a torn last line to `<name>.torn-<time>` and cuts the file there.
fn set_torn_tail_aside(
    path: &Path,
    tail: &[u8],
    good_len: u64,
    now: jiff::Timestamp,
) -> Result<(), SessionError> {
    let aside = PathBuf::from(format!(
        "{}.torn-{}",
        path.display(),
        now.strftime("%Y%m%dT%H%M%SZ")
    ));
    tracing::warn!(file = %path.display(), aside = %aside.display(), bytes = tail.len(), "a torn last line was set aside");
    super::atomic::write_atomic(&aside, tail)?;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| SessionError::io("open", path, e))?;
    crate::paths::private::narrow_open(&file, path);
    file.set_len(good_len)
        .and_then(|()| file.sync_all())
        .map_err(|e| SessionError::io("cut the torn line of", path, e))
}

/// What a listing or a search reads of one line.
#[derive(Debug, Deserialize)]
struct Glance {
    k: String,
    #[serde(default)]
    at: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    turn: Option<u32>,
    #[serde(default)]
    user: Option<String>,
    #[serde(default)]
    reply: Option<String>,
    #[serde(default)]
    commit: Option<String>,
    #[serde(default)]
    schema_version: Option<u32>,
    #[serde(default)]
    created_at: Option<String>,
    #[serde(default)]
    llm: Option<LlmSettings>,
}

/// The few fields of a line a listing reads. A turn line writes them
/// first; the rest (its texts and deltas, most of the line) is cut off
/// unread. (`,"` never occurs inside a JSON string, whose quotes are all
/// escaped, so the first `,"texts":`-like key found is the key.)
fn glance_of(line: &str) -> serde_json::Result<Glance> {
    if line.starts_with(r#"{"k":"turn""#) {
        let bulk = line.match_indices(",\"").map(|(i, _)| i).find(|&i| {
            let key = &line[i + 2..];
            ["texts\":", "record\":", "prompts\":", "state\":"]
                .iter()
                .any(|k| key.starts_with(k))
        });
        if let Some(cut) = bulk {
            return serde_json::from_str(&format!("{}}}", &line[..cut]));
        }
    }
    serde_json::from_str(line)
}

/// A journal's header and turn texts, read without rebuilding records.
#[derive(Debug, Clone, Default)]
pub struct Glimpse {
    pub schema_version: u32,
    pub title: String,
    pub created_at: String,
    pub updated_at: String,
    pub llm: LlmSettings,
    /// (turn, user, reply) of every turn kept.
    pub turns: Vec<(u32, String, String)>,
    /// How each turn kept ended (failed and cancelled attempts are
    /// recorded as failed), in the order of `turns`.
    pub statuses: Vec<TurnStatus>,
    /// The last turn is recorded but its kitchen commit not settled yet
    /// (no `done` line): a crash cut it, or it is committing right now.
    pub pending: bool,
}

/// Reads what a listing or a search needs: every line is parsed for a
/// few fields only.
pub fn glimpse(bytes: &[u8]) -> Result<Glimpse, Unreadable> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Unreadable::Corrupt(format!(
            "not UTF-8: invalid byte at offset {}",
            e.valid_up_to()
        ))
    })?;
    let mut out = Glimpse::default();
    let mut pending: Option<(String, String, String)> = None;
    // A record delta that does not touch the status keeps the last one's.
    let mut status = TurnStatus::Ok;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let g: Glance = match glance_of(line) {
            Ok(g) if line.ends_with('\n') => g,
            // A torn last line is left out, as loading does.
            _ if n > 0 && n + 1 == text.split_inclusive('\n').count() => break,
            Ok(_) => return Err(Unreadable::Corrupt(format!("line {}: torn", n + 1))),
            Err(e) => return Err(Unreadable::Corrupt(format!("line {}: {e}", n + 1))),
        };
        match g.k.as_str() {
            "header" if n == 0 => {
                let v = g.schema_version.unwrap_or_default();
                if v > JOURNAL_VERSION {
                    return Err(Unreadable::Newer(v));
                }
                out.schema_version = v;
                out.title = g.title.unwrap_or_default();
                out.created_at = g.created_at.unwrap_or_default();
                out.updated_at = out.created_at.clone();
                out.llm = g.llm.unwrap_or_default();
            }
            "turn" => {
                let user = g.user.unwrap_or_default();
                pending = g
                    .commit
                    .map(|c| (c, out.title.clone(), out.updated_at.clone()));
                if out.title.is_empty() {
                    out.title = title_from(&user);
                }
                out.turns.push((
                    g.turn.unwrap_or_default(),
                    user,
                    g.reply.unwrap_or_default(),
                ));
                status = super::turn_status::status_of_line(line).unwrap_or(status);
                out.statuses.push(status);
                out.updated_at = g.at.unwrap_or_default();
            }
            "void" => {
                if let Some((_, title, updated)) =
                    pending.take_if(|(c, ..)| Some(&*c) == g.commit.as_ref())
                {
                    out.turns.pop();
                    out.statuses.pop();
                    out.title = title;
                    out.updated_at = updated;
                }
            }
            "done" => pending = None,
            "title" => out.title = g.title.unwrap_or_default(),
            "state" | "note" => {}
            other if n == 0 => {
                return Err(Unreadable::Corrupt(format!(
                    "line 1: a {other} line, not a header"
                )));
            }
            other => {
                return Err(Unreadable::Corrupt(format!(
                    "line {}: unknown line kind {other:?}",
                    n + 1
                )));
            }
        }
    }
    out.pending = pending.is_some();
    Ok(out)
}

#[cfg(test)]
#[path = "journal_tests.rs"]
mod tests;
