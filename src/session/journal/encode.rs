//! Writing lines: a turn, a rename, a context change as the line that
//! brings the file from where its [`Cursor`] stands, each long text stored
//! once in the text table, the record and the context as [`Delta`]s; and a
//! whole session as a journal ([`encode_all`]). Pure: the writer puts the
//! text on disk.

use std::collections::VecDeque;

use serde_json::{Map, Value};

use super::super::delta::{Delta, Op};
use super::super::file::{SessionFile, title_from};
use super::format::{
    Cursor, INLINE_MAX, JOURNAL_VERSION, Line, MARK, PLAIN, Piece, each_prompt_value, each_text,
    line_text,
};
use crate::context::ContextState;
use crate::context::archive::TurnDigest;
use crate::record::{PromptsRecord, TurnRecord, TurnStatus};

impl Cursor {
    /// The cursor of a new file of `session`, and its header line.
    pub(super) fn starting(session: &SessionFile) -> serde_json::Result<(Cursor, String)> {
        let state = serde_json::to_value(&session.context)?;
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

    /// The change from the cursor's context to `s`, compared whole, and the
    /// cursor moved to it.
    fn whole_state_delta(&mut self, s: &ContextState) -> serde_json::Result<Option<Delta>> {
        let value = serde_json::to_value(s)?;
        let d = Delta::between(&self.state, &value);
        self.state = value;
        Ok(d)
    }

    /// The change from the cursor's context to `s`, and the cursor moved to
    /// it. The archive's digests already in the cursor are kept as they are
    /// (only new ones are written out) when its turn numbers and its first
    /// and last digests say it only grew at the back and gave way at the
    /// front; otherwise the context is compared whole.
    fn state_delta(&mut self, s: &ContextState) -> serde_json::Result<Option<Delta>> {
        let digests = s.archive.digests();
        let old = self
            .state
            .pointer("/archive/turns")
            .and_then(Value::as_array);
        let Some(dropped) = old.and_then(|old| archive_dropped(old, digests)) else {
            return self.whole_state_delta(s);
        };
        let mut value = s.to_value_without_archive()?;
        let Some((mut archive, mut turns)) = take_archive(&mut self.state) else {
            // Not reached: the archive's turns were found above.
            return self.whole_state_delta(s);
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
            let v = serde_json::to_value(digest)?;
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
    pub(super) fn turn_line(
        &mut self,
        record: &TurnRecord,
        state: Option<&ContextState>,
        at: &str,
        commit: Option<&str>,
    ) -> serde_json::Result<String> {
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
fn rest_of(record: &TurnRecord, prompts: Option<&PromptsRecord>) -> serde_json::Result<Value> {
    let mut bare = TurnRecord {
        prompts: PromptsRecord::default(),
        user: String::new(),
        reply: String::new(),
        ..record.clone()
    };
    bare.turn = 0;
    let mut v = serde_json::to_value(&bare)?;
    if let Value::Object(m) = &mut v {
        for k in PLAIN {
            m.remove(k);
        }
        m.remove("prompts");
        if let Some(p) = prompts {
            let mut p = serde_json::to_value(p)?;
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

/// The archive of a context (as JSON) taken out of it, and its digests
/// taken out of the archive; `None`, and `state` untouched, when it has no
/// list of digests.
fn take_archive(state: &mut Value) -> Option<(Map<String, Value>, Vec<Value>)> {
    let Value::Object(m) = state else {
        return None;
    };
    let has_turns = m
        .get("archive")
        .and_then(|a| a.get("turns"))
        .is_some_and(Value::is_array);
    if !has_turns {
        return None;
    }
    let Some(Value::Object(mut archive)) = m.remove("archive") else {
        return None;
    };
    let Some(Value::Array(turns)) = archive.remove("turns") else {
        return None;
    };
    Some((archive, turns))
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

/// The whole file of `session`, as a journal: what a migration or a first
/// save writes (atomically).
pub(super) fn encode_all(session: &SessionFile) -> serde_json::Result<(Vec<u8>, Cursor)> {
    let (mut cursor, mut text) = Cursor::starting(session)?;
    text.push_str(&cursor.lines_to(session)?);
    Ok((text.into_bytes(), cursor))
}

impl Cursor {
    /// The lines that bring the file to `session`: its turns past the
    /// file's (none pending; the context with the last), then a rename or a
    /// context change.
    pub(super) fn lines_to(&mut self, session: &SessionFile) -> serde_json::Result<String> {
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
    fn catch_up(&mut self, session: &SessionFile) -> serde_json::Result<String> {
        let mut out = String::new();
        if session.transcript.len() == self.turns {
            let value = serde_json::to_value(&session.context)?;
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
