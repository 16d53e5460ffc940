//! What an import of Alfred's state did, in words a user can act on: what
//! landed where (counts), which keys were not known (skipped), which known
//! keys have no place here (read but not shown), and which expected values
//! were missing or of the wrong shape (defaulted) — and the note the new
//! session shows first in its chat.
//!
//! Pure: strings only.

use std::fmt::Write;

use crate::text::count;

/// One thing the report says about one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Where in the state: `content_archive`, `id_registry.ref_labels.recipe_3`,
    /// `recent_turns[].routing`.
    pub key: String,
    /// What about it, and what the import did instead.
    pub text: String,
    /// How many times it was found (per-item keys are told once).
    pub times: usize,
}

impl Finding {
    /// "`key` text" (with "(in 3 items)" when found more than once).
    pub fn line(&self) -> String {
        let times = if self.times > 1 {
            format!(" (in {} items)", self.times)
        } else {
            String::new()
        };
        format!("`{}`{times} {}", self.key, self.text)
    }
}

/// Where the state came from inside the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// True when the file held a whole `conversations` row.
    pub row: bool,
    /// The row's `user_id`.
    pub user_id: Option<String>,
    /// The row's `title`.
    pub title: Option<String>,
    /// Alfred's session id (`session_id`, or the registry's).
    pub session_id: Option<String>,
    /// When Alfred last saved it (`last_active_at`, the row's or the state's).
    pub last_active_at: Option<String>,
    /// How many of the state's keys are Alfred's (0: not Alfred's state?).
    pub alfred_keys: usize,
}

/// What landed where.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// The turn Alfred was at (`current_turn`).
    pub turn: u32,
    /// Live refs in the registry.
    pub entities: usize,
    pub recent: usize,
    /// Retained beyond the window with a reason (Alfred's `ref_active_reason`).
    pub retained: usize,
    pub pending: usize,
    pub excluded: usize,
    pub background: usize,
    pub recent_turns: usize,
    pub turn_summaries: usize,
    pub decisions: usize,
    pub history_summary: bool,
    pub reasoning_summary: bool,
    pub pending_clarification: bool,
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    pub origin: Origin,
    pub counts: Counts,
    /// Keys the import does not know: skipped.
    pub skipped: Vec<Finding>,
    /// Alfred's keys that alfred has no place for: read, not shown.
    pub not_shown: Vec<Finding>,
    /// Expected keys missing or of the wrong shape: defaulted.
    pub defaulted: Vec<Finding>,
    /// The import was read from the database that is also this session's
    /// kitchen, so the rows behind its refs are here.
    pub from_kitchen: bool,
    /// Refs of Alfred's registry that could not be kept, with why.
    pub skipped_refs: Vec<(String, String)>,
    /// Where Alfred's code does other than its prompts say, and the import
    /// follows the code.
    pub as_alfred_does: Vec<Finding>,
    /// What became of Alfred's prompt logs, when some were given.
    pub logs: Option<String>,
}

impl ImportReport {
    /// Notes a key the import does not know.
    pub(super) fn skip(&mut self, key: impl Into<String>, text: impl Into<String>) {
        add(&mut self.skipped, key.into(), text.into());
    }

    /// Notes where the import follows Alfred's code rather than its prompt.
    pub(super) fn as_alfred_does(&mut self, key: impl Into<String>, text: impl Into<String>) {
        add(&mut self.as_alfred_does, key.into(), text.into());
    }

    /// Notes a known key that has no place here.
    pub(super) fn not_shown(&mut self, key: impl Into<String>, text: impl Into<String>) {
        add(&mut self.not_shown, key.into(), text.into());
    }

    /// Notes an expected value that was missing or of the wrong shape.
    pub(super) fn defaulted(&mut self, key: impl Into<String>, text: impl Into<String>) {
        add(&mut self.defaulted, key.into(), text.into());
    }

    /// What was imported, one line per layer.
    pub fn summary_lines(&self) -> Vec<String> {
        let c = &self.counts;
        let mut entities = format!(
            "{} — {} recent, {} retained with reasons, {} pending, {} background",
            c.entities, c.recent, c.retained, c.pending, c.background
        );
        if c.excluded > 0 {
            let _ = write!(entities, ", {} excluded", c.excluded);
        }
        let yes = |b: bool| if b { "yes" } else { "no" };
        let mut lines = vec![
            format!(
                "turn:          {} (what you say next is turn {})",
                c.turn,
                c.turn + 1
            ),
            format!("entities:      {entities}"),
            format!(
                "conversation:  {}, earlier summary: {}",
                count(c.recent_turns, "recent turn", "recent turns"),
                yes(c.history_summary)
            ),
            format!(
                "narrative:     {}, earlier summary: {}",
                count(c.turn_summaries, "turn summary", "turn summaries"),
                yes(c.reasoning_summary)
            ),
            format!("decision log:  {}", count(c.decisions, "entry", "entries")),
        ];
        if let Some(logs) = &self.logs {
            lines.push(format!("prompt logs:   {logs}"));
        }
        if c.pending_clarification {
            lines.push(format!(
                "waiting on:    Alfred's question of turn {} (in the Narrative panel)",
                c.turn
            ));
        }
        lines
    }

    /// The findings, under a heading each (nothing when there are none).
    pub fn finding_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let groups = [
            ("Skipped (keys this import does not know):", &self.skipped),
            (
                "Read but not shown (Alfred's keys alfred has no place for):",
                &self.not_shown,
            ),
            (
                "Defaulted (expected but missing or of the wrong shape):",
                &self.defaulted,
            ),
            (
                "As Alfred's code does it (where its prompts say otherwise):",
                &self.as_alfred_does,
            ),
        ];
        for (head, findings) in groups {
            if findings.is_empty() {
                continue;
            }
            out.push(head.to_string());
            out.extend(findings.iter().map(|f| format!("  - {}", f.line())));
        }
        out
    }

    /// The note the new session shows first: where it came from, what was
    /// imported and skipped (counts), and what to expect. `source` names
    /// the file (or the store) it was read from.
    pub fn note(&self, source: &str) -> String {
        let c = &self.counts;
        let o = &self.origin;
        let mut from = format!("Imported from Alfred's saved conversation state ({source}");
        if let Some(id) = &o.session_id {
            let _ = write!(from, ", Alfred session {id}");
        }
        if let Some(user) = &o.user_id {
            let _ = write!(from, ", user {user}");
        }
        if let Some(title) = &o.title {
            let _ = write!(from, ", titled “{title}”");
        }
        if let Some(at) = &o.last_active_at {
            let _ = write!(from, ", last active {at}");
        }
        from.push_str(").");
        let mut text = format!(
            "{from} Alfred was at turn {}: {} in the Entities panel ({} recent, {} retained with \
             Alfred's reasons, {} pending, {} excluded, {} background); {} and {} earlier summary \
             in History; {} in Narrative.",
            c.turn,
            count(c.entities, "entity", "entities"),
            c.recent,
            c.retained,
            c.pending,
            c.excluded,
            c.background,
            count(c.recent_turns, "recent turn", "recent turns"),
            if c.history_summary { "the" } else { "no" },
            count(c.turn_summaries, "turn summary", "turn summaries"),
        );
        text.push_str(&self.findings_in_brief());
        let rows = if self.from_kitchen {
            "The rows behind these refs are in this kitchen: it is the database the \
             conversation was read from."
        } else {
            "The rows behind these refs are in Alfred's database, not in this kitchen."
        };
        let records = match &self.logs {
            Some(logs) if logs.contains("has a record") => format!(
                "From Alfred's prompt logs, {logs}: the prompt inspector (p) shows them. Earlier \
                 turns have no records: what was said is in the History panel"
            ),
            Some(logs) => format!(
                "Prompt logs: {logs}. There are no turn records: what was said is in the History \
                 panel"
            ),
            None => "There are no turn records: what was said is in the History panel".into(),
        };
        let _ = write!(
            text,
            " {records}, and what you say next is turn {}. `/why REF` explains an entity from \
             Alfred's own reasons. {rows}",
            c.turn + 1
        );
        text
    }

    /// The findings in a sentence each: the keys skipped and defaulted by
    /// name (a few), those read but not shown by count.
    fn findings_in_brief(&self) -> String {
        let mut text = String::new();
        let keys = |f: &[Finding]| {
            let mut names: Vec<&str> = f.iter().map(|f| f.key.as_str()).take(6).collect();
            names.dedup();
            let more = f.len().saturating_sub(6);
            let mut s = names.join(", ");
            if more > 0 {
                let _ = write!(s, " and {more} more");
            }
            s
        };
        if !self.skipped.is_empty() {
            let _ = write!(
                text,
                " Skipped {} not known here: {}.",
                count(self.skipped.len(), "key", "keys"),
                keys(&self.skipped)
            );
        }
        if !self.not_shown.is_empty() {
            let _ = write!(
                text,
                " {} of Alfred's read but not shown.",
                count(self.not_shown.len(), "key", "keys")
            );
        }
        if !self.defaulted.is_empty() {
            let _ = write!(
                text,
                " Defaulted {} missing or of the wrong shape: {}.",
                count(self.defaulted.len(), "value", "values"),
                keys(&self.defaulted)
            );
        }
        for f in &self.as_alfred_does {
            let _ = write!(text, " {}: {}", f.key, f.text);
        }
        text
    }
}

/// Adds a finding, or counts it again when the same key says the same.
fn add(findings: &mut Vec<Finding>, key: String, text: String) {
    match findings.iter_mut().find(|f| f.key == key && f.text == text) {
        Some(f) => f.times += 1,
        None => findings.push(Finding {
            key,
            text,
            times: 1,
        }),
    }
}
