//! Reading a journal back: the whole session ([`decode`]) or, for the
//! writer, only where the file stands; a torn last line is left out and
//! said so ([`Loaded::torn_at`]). Pure: the caller reads the bytes.
//!
//! A read goes in steps: the lines cut and a torn last one set aside
//! ([`split_lines`]), the header ([`read_header`]), the voided commits
//! ([`voided_commits`]), then each event line applied in order by a
//! [`Reader`] (parsed on a second thread, ahead of it), and the context
//! decoded once at the end ([`Reader::finish`]).

use std::collections::HashSet;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::super::delta::{At, Delta, at_path, kept_items};
use super::super::file::{SessionFile, SessionNote, title_from};
use super::super::unreadable::Unreadable;
use super::error::{LineError, ReadError};
use super::format::{
    Cursor, JOURNAL_VERSION, Line, MARK, PLAIN, Piece, each_prompt_value, each_text,
};
use crate::context::ContextState;
use crate::context::snapshot::EntityView;
use crate::record::{PromptsRecord, TurnRecord};

impl Cursor {
    /// The text a stored string stands for.
    fn unpack(&self, stored: &Arc<str>) -> Result<Arc<str>, LineError> {
        let Some(id) = stored.strip_prefix(MARK) else {
            return Ok(stored.clone());
        };
        let id: usize = id
            .parse()
            .map_err(|_| LineError::BadReference(id.to_string()))?;
        self.texts
            .get(id)
            .cloned()
            .ok_or(LineError::MissingText(id))
    }

    /// Reads a table entry from a line.
    fn learn(&mut self, id: u32, piece: Piece) -> Result<(), LineError> {
        if id as usize != self.texts.len() {
            return Err(LineError::TextOutOfOrder(id));
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
                        .ok_or(LineError::MissingText(*i as usize))?;
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
}

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
) -> Result<TurnRecord, LineError> {
    // With the last turn's background and which of its entries stay, only
    // the others are read (the array is set aside for the whole read).
    let set_aside = match (&kept, rest.pointer_mut("/entities/background")) {
        (Some(_), Some(slot)) => Some(std::mem::take(slot)),
        _ => None,
    };
    let Value::Object(m) = rest else {
        return Err(LineError::RecordNotObject);
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
    let record = TurnRecord::deserialize(&*rest).map_err(LineError::Record);
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
    // Still the object above, the plain fields in it.
    let Value::Object(m) = rest else {
        return Err(LineError::RecordNotObject);
    };
    for k in PLAIN {
        m.remove(k);
    }
    let mut record = record?;
    if let Some(b) = background {
        record.entities.background = b.map_err(LineError::Background)?;
    }
    if let Some(mut p) = packed {
        // The token reports go in for the read and come out after.
        each_prompt_value(&mut p, &mut |r| {
            r.insert("sections".into(), Value::Object(Map::new()));
            r.insert("total_tokens".into(), Value::from(0));
        });
        let read = PromptsRecord::deserialize(&p).map_err(LineError::Prompts);
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

/// [`each_text`] with a step that can fail: the first failure stops it.
fn each_text_try(
    p: &mut PromptsRecord,
    f: &mut dyn FnMut(&mut Arc<str>) -> Result<(), LineError>,
) -> Result<(), LineError> {
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

/// A journal read back.
#[derive(Debug)]
pub struct Loaded {
    /// The session the lines add up to (no turns when read for the writer).
    pub session: SessionFile,
    /// The commit of the last turn, when no `done` or `void` settled it: the
    /// kitchen decides whether that turn happened
    /// ([`Journal::settle`](super::Journal::settle)).
    pub pending: Option<String>,
    /// The length of the good lines when the last line was torn.
    pub torn_at: Option<usize>,
    /// Where the file stands after its last good line.
    pub(super) cursor: Cursor,
}

/// Reads a journal.
pub fn decode(bytes: &[u8]) -> Result<Loaded, Unreadable> {
    read(bytes, false).map_err(Unreadable::from)
}

/// Reads a journal; `writing` when lines will be appended after it (the
/// session it gives then has no turns: only the cursor is wanted).
pub(super) fn read(bytes: &[u8], writing: bool) -> Result<Loaded, ReadError> {
    let text = std::str::from_utf8(bytes)?;
    let (lines, torn_at) = split_lines(text);
    let mut lines = lines.into_iter().enumerate();
    let Some((_, first)) = lines.next() else {
        return Err(ReadError::TornHeader);
    };
    let (session, cursor) = read_header(first, writing)?;
    let mut reader = Reader {
        session,
        cursor,
        voided: voided_commits(lines.clone().map(|(_, line)| line)),
        pending: None,
        context_dirty: false,
        writing,
    };
    // Lines are parsed on a second thread, ahead of the one that applies
    // them in order.
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, serde_json::Result<Line>)>(64);
        scope.spawn(move || {
            for (n, line) in lines {
                if tx.send((n, serde_json::from_str::<Line>(line))).is_err() {
                    break;
                }
            }
        });
        for (n, line) in rx {
            line.map_err(LineError::from)
                .and_then(|line| reader.apply(line))
                .map_err(|e| ReadError::at(n, e))?;
        }
        Ok::<(), ReadError>(())
    })?;
    reader.finish(torn_at)
}

/// The lines of `text`, and where a torn last line began (one without its
/// newline, or that does not parse), which is left out.
fn split_lines(text: &str) -> (Vec<&str>, Option<usize>) {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let torn = lines
        .last()
        .is_some_and(|last| !last.ends_with('\n') || serde_json::from_str::<Line>(last).is_err());
    if !torn {
        return (lines, None);
    }
    lines.pop();
    let good_len = lines.iter().map(|l| l.len()).sum();
    (lines, Some(good_len))
}

/// The session the header line starts, and the cursor after it.
fn read_header(first: &str, writing: bool) -> Result<(SessionFile, Cursor), ReadError> {
    let header = serde_json::from_str::<Line>(first).map_err(|e| ReadError::at(0, e))?;
    let Line::Header {
        schema_version,
        id,
        title,
        created_at,
        llm,
        context,
    } = header
    else {
        return Err(ReadError::at(0, LineError::FirstNotHeader));
    };
    if schema_version > JOURNAL_VERSION {
        return Err(ReadError::Newer(schema_version));
    }
    let state: ContextState = serde_json::from_value(context.clone())
        .map_err(|e| ReadError::at(0, LineError::Context(e)))?;
    let mut session = SessionFile::new(id, jiff::Timestamp::UNIX_EPOCH, llm, state.policy.clone());
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
    Ok((session, cursor))
}

/// The commits that `void` lines drop: a voided turn is read for its texts
/// only.
fn voided_commits<'a>(lines: impl Iterator<Item = &'a str>) -> HashSet<String> {
    let mut voided = HashSet::new();
    for line in lines {
        if line.starts_with(r#"{"k":"void""#)
            && let Ok(Line::Void { commit }) = serde_json::from_str(line)
        {
            voided.insert(commit);
        }
    }
    voided
}

/// The fields of a turn line, as read.
struct TurnLine {
    at: String,
    turn: u32,
    user: String,
    reply: String,
    commit: Option<String>,
    texts: Vec<(u32, Piece)>,
    record: Option<Delta>,
    prompts: Option<PromptsRecord>,
    state: Option<Delta>,
}

/// A read in progress: the session so far, where the file stands, and what
/// the lines after the header have said.
struct Reader {
    session: SessionFile,
    cursor: Cursor,
    /// Commits a `void` line drops (see [`voided_commits`]).
    voided: HashSet<String>,
    /// The commit of the last turn kept, until a `done` settles it.
    pending: Option<String>,
    /// The context is rebuilt as JSON and decoded once, at the end.
    context_dirty: bool,
    /// Only where the file stands is wanted, not its turns.
    writing: bool,
}

impl Reader {
    /// Applies one event line after the header.
    fn apply(&mut self, line: Line) -> Result<(), LineError> {
        match line {
            Line::Header { .. } => return Err(LineError::SecondHeader),
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
            } => self.turn(TurnLine {
                at,
                turn,
                user,
                reply,
                commit,
                texts,
                record,
                prompts,
                state,
            })?,
            Line::Done { commit } => {
                if self.pending.as_ref() == Some(&commit) {
                    self.pending = None;
                }
            }
            // Its turn was never applied.
            Line::Void { .. } => {}
            Line::Title { title } => self.session.title = title,
            Line::Note { turn, text } => {
                self.session.notes.push(SessionNote { turn, text });
                self.cursor.notes += 1;
            }
            Line::State { state } => {
                state
                    .apply(&mut self.cursor.state, &[])
                    .map_err(LineError::Delta)?;
                self.context_dirty = true;
            }
        }
        Ok(())
    }

    /// Applies a turn line: its texts learnt, and, unless its commit is
    /// voided, the context and the record moved on and the turn rebuilt.
    fn turn(&mut self, t: TurnLine) -> Result<(), LineError> {
        for (id, piece) in t.texts {
            self.cursor.learn(id, piece)?;
        }
        if t.commit.as_ref().is_some_and(|c| self.voided.contains(c)) {
            return Ok(());
        }
        self.pending = t.commit;
        // The context first: its echoes name values of the record's delta,
        // which its own application uses up.
        if let Some(d) = t.state {
            let echoes = t.record.as_ref().map(Delta::written).unwrap_or_default();
            d.apply(&mut self.cursor.state, &echoes)
                .map_err(LineError::Delta)?;
            self.context_dirty = true;
        }
        let kept = self.kept_background(t.record.as_ref());
        if let Some(d) = t.record {
            d.apply(&mut self.cursor.rest, &[])
                .map_err(LineError::Delta)?;
        }
        if self.writing {
            // A writer needs where the file stands, not its turns.
            if self.session.title.is_empty() {
                self.session.title = title_from(&t.user);
            }
            self.session.updated_at = t.at;
            self.cursor.turns += 1;
            return Ok(());
        }
        let mut record = record_of(&mut self.cursor.rest, t.turn, t.user, t.reply, kept)?;
        if let Some(p) = t.prompts {
            record.prompts = p;
        }
        let cursor = &self.cursor;
        each_text_try(&mut record.prompts, &mut |text| {
            *text = cursor.unpack(text)?;
            Ok(())
        })?;
        if self.session.title.is_empty() {
            self.session.title = title_from(&record.user);
        }
        self.session.transcript.push(record);
        self.session.updated_at = t.at;
        self.cursor.turns += 1;
        Ok(())
    }

    /// Which background entries of the next turn stay the last turn's
    /// (shared, not read again), by the record's delta.
    fn kept_background(&self, record: Option<&Delta>) -> Option<Kept> {
        let last = self.session.transcript.last()?;
        let old = &last.entities.background;
        let map = match at_path(record, &["entities", "background"]) {
            At::Untouched => (0..old.len()).map(Some).collect(),
            At::Changed(Delta::Edit(ops)) => kept_items(ops, old.len())?,
            _ => return None,
        };
        Some(Kept {
            old: old.clone(),
            map,
        })
    }

    /// The journal read: the context decoded when a line changed it.
    fn finish(self, torn_at: Option<usize>) -> Result<Loaded, ReadError> {
        let Reader {
            mut session,
            mut cursor,
            pending,
            context_dirty,
            ..
        } = self;
        if context_dirty {
            session.context =
                serde_json::from_value(cursor.state.clone()).map_err(ReadError::Context)?;
        }
        cursor.title = session.title.clone();
        Ok(Loaded {
            session,
            pending,
            torn_at,
            cursor,
        })
    }
}
