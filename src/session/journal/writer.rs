//! The writer: [`Journal`], the open journal of one session, which owns its
//! file handle and is used by the persist actor only. Continues a journal
//! after its last line (a torn one set aside first), writes a new or older
//! file whole the first time, appends each save's lines.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::super::error::SessionError;
use super::super::file::SessionFile;
use super::super::llm::LlmSettings;
use super::super::unreadable::Unreadable;
use super::any_form::decode_session;
use super::decode::read;
use super::encode::encode_all;
use super::format::{Cursor, JOURNAL_VERSION, Line, is_journal, line_text};
use crate::context::ContextState;
use crate::record::{TurnRecord, TurnStatus};

/// What a journal needs to start a session's file: the session before its
/// first turn.
#[derive(Debug, Clone)]
pub struct SessionHead {
    /// The session's id (its file is `<id>.json`).
    pub id: String,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// The brain it talks to.
    pub llm: LlmSettings,
    /// Its title so far (empty until the first turn or a rename).
    pub title: String,
    /// The context it starts with.
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

    /// The session this head starts: no turns yet.
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
    /// The turn as recorded.
    pub record: TurnRecord,
    /// The context after it (kept only when the turn succeeded).
    pub state: Option<ContextState>,
    /// When it was recorded (RFC 3339, the session's `updated_at`).
    pub at: String,
    /// The kitchen commit its writes go under, when it has any.
    pub commit: Option<String>,
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
        let loaded = read(&bytes, true).map_err(|why| refused(&path, why.into()))?;
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
            return self.rewrite(session);
        };
        // A note line needs a file of schema 5: an older one is written
        // whole, with the new header, first.
        if cursor.version < JOURNAL_VERSION && session.notes.len() > cursor.notes {
            return self.rewrite(session);
        }
        let text = cursor
            .lines_to(session)
            .map_err(|e| encode_failed(&self.path, e))?;
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
        let (written, mut cursor) = match self.cursor.take() {
            Some(cursor) => (0, cursor),
            None => {
                let base = match std::fs::read(&self.path) {
                    Ok(bytes) => decode_session(&bytes).map_err(|why| refused(&self.path, why))?,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => head.session(),
                    Err(e) => return Err(SessionError::io("read", &self.path, e)),
                };
                self.write_whole(&base)?
            }
        };
        let state = turn
            .state
            .as_ref()
            .filter(|_| turn.record.status == TurnStatus::Ok);
        let line = cursor.turn_line(&turn.record, state, &turn.at, turn.commit.as_deref());
        self.cursor = Some(cursor);
        let text = line.map_err(|e| encode_failed(&self.path, e))?;
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
        let text = line_text(&line).map_err(|e| encode_failed(&self.path, e))?;
        let written = self.append(text.as_bytes(), true)?;
        if !landed {
            // Rare (the kitchen refused the commit): rather than keep a
            // copy of where the file stood before every turn, the next
            // write starts again from the file, which leaves the turn out.
            self.cursor = None;
        }
        Ok(written)
    }

    /// Writes the whole file of `session` and continues after it.
    fn rewrite(&mut self, session: &SessionFile) -> Result<u64, SessionError> {
        let (written, cursor) = self.write_whole(session)?;
        self.cursor = Some(cursor);
        Ok(written)
    }

    /// Writes the whole file of `session` (atomically): the bytes written
    /// and the cursor after them.
    fn write_whole(&self, session: &SessionFile) -> Result<(u64, Cursor), SessionError> {
        let (bytes, cursor) = encode_all(session).map_err(|e| encode_failed(&self.path, e))?;
        super::super::atomic::write_atomic(&self.path, &bytes)?;
        Ok((bytes.len() as u64, cursor))
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

/// A line serde could not encode, for the session of the file at `path`
/// (named `<id>.json`).
fn encode_failed(path: &Path, source: serde_json::Error) -> SessionError {
    let id = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    SessionError::Encode { id, source }
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
    super::super::atomic::write_atomic(&aside, tail)?;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| SessionError::io("open", path, e))?;
    crate::paths::private::narrow_open(&file, path);
    file.set_len(good_len)
        .and_then(|()| file.sync_all())
        .map_err(|e| SessionError::io("cut the torn line of", path, e))
}
