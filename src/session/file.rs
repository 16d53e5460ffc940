//! `SessionFile`: a session whole, its one-document JSON form (schema
//! [`DOCUMENT_VERSION`]: what `sessions export --format json` writes, and
//! what `sessions/<id>.json` was before it became a journal), its id and its
//! title.
//!
//! Owns the format and the rules of what goes into it: every turn is kept
//! exactly as recorded (failed turns included), the context state changes only
//! with a successful turn, and no secret is ever stored. Pure: times come in
//! as arguments, and nothing here touches the disk.

use jiff::{Timestamp, Unit};
use serde::{Deserialize, Serialize, Serializer};

use super::error::SessionError;
use super::llm::LlmSettings;
use crate::context::{ContextPolicy, ContextState};
use crate::record::{TurnRecord, TurnStatus};

/// The version of the one-document form of a session: what `sessions
/// export --format json` writes, and the newest whole-file session this
/// build reads (versions 1–3; version 3 writes each turn's background
/// entities as a change against the turn before, see [`super::codec`]).
/// Session files on disk are journals of
/// [`JOURNAL_VERSION`](super::journal::JOURNAL_VERSION).
pub const DOCUMENT_VERSION: u32 = 3;

/// Titles are cut to this many characters (the "…" included).
const TITLE_MAX_CHARS: usize = 60;

/// One session as stored in `sessions/<id>.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionFile {
    /// Always [`DOCUMENT_VERSION`] in memory (older files are migrated on load),
    /// and written as [`DOCUMENT_VERSION`] whatever it holds.
    #[serde(serialize_with = "current_version")]
    pub schema_version: u32,
    /// `20261122-143005-7f3a`: creation time (UTC) and 4 random hex digits.
    pub id: String,
    /// From the first user message until the user renames it; may be empty.
    pub title: String,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339; the time of the last turn (a rename does not change it).
    pub updated_at: String,
    /// The brain the session talked to.
    pub llm: LlmSettings,
    /// The context layers after the last successful turn.
    pub context: ContextState,
    /// Every turn, failed ones included, exactly as recorded.
    #[serde(with = "super::codec")]
    pub transcript: Vec<TurnRecord>,
    /// What the user asked of the app between turns and kept in the chat
    /// (`/why` answers), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<SessionNote>,
}

/// A note kept in the chat: made after `turn` turns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionNote {
    pub turn: u32,
    pub text: String,
}

impl SessionFile {
    /// An empty session created at `now`.
    pub fn new(id: String, now: Timestamp, llm: LlmSettings, policy: ContextPolicy) -> Self {
        let stamp = stamp(now);
        Self {
            schema_version: DOCUMENT_VERSION,
            id,
            title: String::new(),
            created_at: stamp.clone(),
            updated_at: stamp,
            llm,
            context: ContextState::new(policy),
            transcript: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Records a finished turn at `now`.
    ///
    /// A successful turn replaces the context with `new_state` (when given); a
    /// failed turn is recorded only and leaves the context as it was, whatever
    /// `new_state` holds. The first user message names an untitled session.
    pub fn push_turn(
        &mut self,
        mut record: TurnRecord,
        new_state: Option<ContextState>,
        now: Timestamp,
    ) {
        if self.title.is_empty() {
            self.title = title_from(&record.user);
        }
        if record.status == TurnStatus::Ok
            && let Some(state) = new_state
        {
            self.context = state;
        }
        if let Some(last) = self.transcript.last() {
            record.entities.share_background(&last.entities);
            record.prompts.share_texts(&last.prompts);
        }
        self.transcript.push(record);
        self.updated_at = stamp(now);
    }

    /// Turns recorded, failed ones included.
    pub fn turn_count(&self) -> usize {
        self.transcript.len()
    }

    /// The last thing the user said, if anything.
    pub fn last_user_message(&self) -> Option<&str> {
        self.transcript.last().map(|r| r.user.as_str())
    }

    /// The bytes of the file: compact JSON and a final newline, with the
    /// current schema version whatever the in-memory value says.
    pub fn to_bytes(&self) -> Result<Vec<u8>, SessionError> {
        let mut bytes = serde_json::to_vec(self).map_err(|source| SessionError::Encode {
            id: self.id.clone(),
            source,
        })?;
        bytes.push(b'\n');
        Ok(bytes)
    }

    /// Renames the session, on one line (an empty name falls back to the
    /// first message).
    /// Like a derived title, a given one is cleaned of control and bidi
    /// characters and cut to the title length.
    pub fn set_title(&mut self, title: &str) {
        let title = title_from(&title.split_whitespace().collect::<Vec<_>>().join(" "));
        self.title = if title.is_empty() {
            self.transcript
                .first()
                .map(|r| title_from(&r.user))
                .unwrap_or_default()
        } else {
            title
        };
    }
}

/// Writes [`DOCUMENT_VERSION`]: a file is always written in this build's schema.
fn current_version<S: Serializer>(_in_memory: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u32(DOCUMENT_VERSION)
}

/// A time as stored: RFC 3339, UTC, to the millisecond.
pub fn stamp(now: Timestamp) -> String {
    now.round(Unit::Millisecond).unwrap_or(now).to_string()
}

/// A fresh id from the creation time: `20261122-143005-7f3a` (UTC, then 4
/// random hex digits). Sortable by creation; the store checks it is unused.
pub fn new_id(now: Timestamp) -> String {
    let random = uuid::Uuid::new_v4().as_u128() as u16;
    format!("{}-{random:04x}", now.strftime("%Y%m%d-%H%M%S"))
}

/// The id of a session file path (`<id>.json`), if it is one.
pub(super) fn id_of(path: &std::path::Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let id = name.strip_suffix(".json")?;
    is_valid_id(id).then(|| id.to_string())
}

/// True when `id` can name a file in the sessions folder: ASCII letters,
/// digits, `-` and `_`, 1 to 64 of them (no dots, so no path tricks).
pub fn is_valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The title a message gives a session: its first non-empty line, trimmed,
/// at most 60 characters, cut on a word boundary with "…".
pub fn title_from(message: &str) -> String {
    let message = crate::text::strip(message);
    let line = message
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let line: String = line.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= TITLE_MAX_CHARS {
        return line;
    }
    let room = TITLE_MAX_CHARS - 1;
    let cut: String = line.chars().take(room).collect();
    // Cut at the last space when the next character does not start a new word.
    let next_is_space = line.chars().nth(room).is_some_and(char::is_whitespace);
    let kept = match cut.rfind(' ') {
        _ if next_is_space => cut.as_str(),
        Some(i) if i > 0 => &cut[..i],
        _ => cut.as_str(),
    };
    format!("{}…", kept.trim_end_matches([' ', ',', ';', ':', '-']))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn titles_come_from_the_first_line_cut_on_a_word() {
        assert_eq!(
            title_from("  what can I cook tonight?\nmore"),
            "what can I cook tonight?"
        );
        assert_eq!(title_from("\n\n  second line wins  "), "second line wins");
        assert_eq!(title_from(""), "");
        let long = "plan my meals for the whole week without any cod and nothing spicy please";
        let t = title_from(long);
        assert_eq!(t, "plan my meals for the whole week without any cod and…");
        assert!(t.chars().count() <= 60, "{t}");
        let one_word = "x".repeat(100);
        assert_eq!(title_from(&one_word).chars().count(), 60);
        // Multibyte characters are counted as characters, never split.
        let accents = "é".repeat(70);
        assert_eq!(title_from(&accents).chars().count(), 60);
        // Exactly 60 characters stay whole.
        let sixty = "a".repeat(60);
        assert_eq!(title_from(&sixty), sixty);
    }

    #[test]
    fn ids_are_time_then_four_hex_digits() {
        let id = new_id(at("2026-11-22T14:30:05Z"));
        assert!(id.starts_with("20261122-143005-"), "{id}");
        let hex = &id["20261122-143005-".len()..];
        assert_eq!(hex.len(), 4, "{id}");
        assert!(hex.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
        assert!(is_valid_id(&id));
        assert!(!is_valid_id("../etc/passwd"));
        assert!(!is_valid_id("a.json"));
        assert!(!is_valid_id(""));
        // Ids sort by creation time.
        assert!(new_id(at("2026-11-22T14:30:05Z")) < new_id(at("2026-11-22T14:30:06Z")));
    }

    #[test]
    fn the_bytes_carry_the_current_schema_version() {
        let llm = LlmSettings::default();
        let mut s = SessionFile::new(
            "s".into(),
            at("2026-11-22T14:30:05Z"),
            llm,
            ContextPolicy::default(),
        );
        let current = s.to_bytes().unwrap();
        s.schema_version = 1;
        assert_eq!(s.to_bytes().unwrap(), current);
        let text = String::from_utf8(current).unwrap();
        assert!(
            text.starts_with(&format!("{{\"schema_version\":{DOCUMENT_VERSION},")),
            "{text}"
        );
    }

    #[test]
    fn failed_turns_are_recorded_but_leave_the_context() {
        let llm = LlmSettings::new("offline", None, "https://api.openai.com/v1");
        let t0 = at("2026-11-22T14:30:05Z");
        let mut s = SessionFile::new("s".into(), t0, llm, ContextPolicy::default());
        let mut changed = ContextState::new(ContextPolicy::default());
        changed.turn = 7;
        let failed = TurnRecord {
            turn: 1,
            user: "plan dinner".into(),
            status: TurnStatus::Failed,
            ..TurnRecord::default()
        };
        s.push_turn(failed, Some(changed.clone()), at("2026-11-22T14:31:00Z"));
        assert_eq!(s.context.turn, 0, "a failed turn changes no state");
        assert_eq!((s.turn_count(), s.title.as_str()), (1, "plan dinner"));
        let ok = TurnRecord {
            turn: 1,
            user: "plan lunch".into(),
            ..TurnRecord::default()
        };
        s.push_turn(ok, Some(changed), at("2026-11-22T14:32:00.5Z"));
        assert_eq!(s.context.turn, 7);
        assert_eq!(
            s.title, "plan dinner",
            "the first message names the session"
        );
        assert_eq!(s.last_user_message(), Some("plan lunch"));
        assert_eq!(s.updated_at, "2026-11-22T14:32:00.5Z");
        assert_eq!(s.created_at, "2026-11-22T14:30:05Z");
        s.set_title("  ");
        assert_eq!(s.title, "plan dinner");
    }
}
