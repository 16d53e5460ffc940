//! Reading a journal back: the whole session ([`decode`]) or, for the
//! writer, only where the file stands; a torn last line is left out and
//! said so ([`Loaded::torn_at`]). Pure: the caller reads the bytes.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::super::delta::{At, Delta, at_path, kept_items};
use super::super::file::{SessionFile, SessionNote, title_from};
use super::super::unreadable::Unreadable;
use super::format::{
    Cursor, JOURNAL_VERSION, Line, MARK, PLAIN, Piece, each_prompt_value, each_text,
};
use crate::context::ContextState;
use crate::context::snapshot::EntityView;
use crate::record::{PromptsRecord, TurnRecord};

impl Cursor {
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

/// A journal read back.
#[derive(Debug)]
pub struct Loaded {
    pub session: SessionFile,
    /// The commit of the last turn, when no `done` or `void` settled it: the
    /// kitchen decides whether that turn happened ([`Journal::settle`]).
    pub pending: Option<String>,
    /// The length of the good lines when the last line was torn.
    pub torn_at: Option<usize>,
    pub(super) cursor: Cursor,
}

/// Reads a journal.
pub fn decode(bytes: &[u8]) -> Result<Loaded, Unreadable> {
    read(bytes, false)
}

/// Reads a journal; `writing` when lines will be appended after it (the
/// session it gives then has no turns: only the cursor is wanted).
pub(super) fn read(bytes: &[u8], writing: bool) -> Result<Loaded, Unreadable> {
    let text = std::str::from_utf8(bytes).map_err(Unreadable::not_utf8)?;
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
