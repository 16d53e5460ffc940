//! `SessionStore::grep`: which sessions mention a word, and where.
//!
//! Owns the search over titles, user messages and replies (case-insensitive)
//! and the snippets it returns, each with its turn number. Reads one file at
//! a time, keeping only the turns' text, and reports unreadable files the way
//! the listing does.

use serde::Deserialize;

use super::listing::{SessionProblem, SessionSummary, newest_first};
use super::store::SessionStore;

/// Characters of context kept before a match in a snippet.
const BEFORE: usize = 40;
/// Longest snippet, in characters.
const SNIPPET: usize = 120;

/// A session that mentions the word, with the lines that do.
#[derive(Debug, Clone, PartialEq)]
pub struct GrepHit {
    pub session: SessionSummary,
    /// `title: …`, `turn 3 user: …`, `turn 3 reply: …`, in turn order.
    pub lines: Vec<String>,
}

/// The matching sessions (newest first) and the files that could not be read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GrepReport {
    pub hits: Vec<GrepHit>,
    pub problems: Vec<SessionProblem>,
}

/// The text of a turn, as far as grep cares.
#[derive(Deserialize)]
struct TurnText {
    #[serde(default)]
    turn: u32,
    #[serde(default)]
    user: String,
    #[serde(default)]
    reply: String,
}

/// The transcript of either schema version.
#[derive(Deserialize)]
struct Texts {
    #[serde(default)]
    transcript: Option<Vec<TurnText>>,
    #[serde(default)]
    turns: Option<Vec<TurnText>>,
}

impl SessionStore {
    /// The sessions whose title, user messages or replies contain `word`
    /// (case-insensitive), newest first, each with its matching lines.
    pub fn grep(&self, word: &str) -> GrepReport {
        let needle = word.to_lowercase();
        if needle.trim().is_empty() {
            return GrepReport {
                hits: Vec::new(),
                problems: self.list().problems,
            };
        }
        let mut report = GrepReport::default();
        // One read per file: the listing's checks and summary, then the text.
        for path in self.session_paths(&mut report.problems) {
            let (session, bytes) = match self.read_summary(&path) {
                Ok(read) => read,
                Err(problem) => {
                    report.problems.push(problem);
                    continue;
                }
            };
            let texts = if super::journal::is_journal(&bytes) {
                super::journal::glimpse(&bytes)
                    .map(|g| Texts {
                        transcript: Some(
                            g.turns
                                .into_iter()
                                .map(|(turn, user, reply)| TurnText { turn, user, reply })
                                .collect(),
                        ),
                        turns: None,
                    })
                    .map_err(|e| format!("{e:?}"))
            } else {
                serde_json::from_slice::<Texts>(&bytes).map_err(|e| e.to_string())
            };
            let texts = match texts {
                Ok(t) => t,
                Err(e) => {
                    // The header reads but the turns do not: report, do not move.
                    report.problems.push(SessionProblem {
                        path,
                        reason: e,
                        moved_to: None,
                    });
                    continue;
                }
            };
            let mut lines: Vec<String> = snippets(&session.title, &needle)
                .map(|s| format!("title: {s}"))
                .collect();
            for t in texts.transcript.or(texts.turns).unwrap_or_default() {
                for (who, text) in [("user", &t.user), ("reply", &t.reply)] {
                    lines.extend(
                        snippets(text, &needle).map(|s| format!("turn {} {who}: {s}", t.turn)),
                    );
                }
            }
            if !lines.is_empty() {
                report.hits.push(GrepHit { session, lines });
            }
        }
        report
            .hits
            .sort_by(|a, b| newest_first(&a.session, &b.session));
        report
    }
}

/// Each line of `text` containing `needle` (already lowercase), cut to a snippet.
fn snippets<'a>(text: &'a str, needle: &'a str) -> impl Iterator<Item = String> + 'a {
    text.lines().filter_map(move |line| {
        let line = line.trim();
        let lower = line.to_lowercase();
        let at = lower.find(needle)?;
        Some(snippet(line, lower[..at].chars().count()))
    })
}

/// Up to [`SNIPPET`] characters of `line` around the character `at`, with
/// "…" where it was cut.
fn snippet(line: &str, at: usize) -> String {
    let total = line.chars().count();
    let start = at
        .saturating_sub(BEFORE)
        .min(total.saturating_sub(SNIPPET.min(total)));
    let body: String = line.chars().skip(start).take(SNIPPET).collect();
    let head = if start > 0 { "…" } else { "" };
    let tail = if start + SNIPPET < total { "…" } else { "" };
    format!("{head}{}{tail}", body.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_keep_context_and_mark_cuts() {
        let found: Vec<_> = snippets("Soup tonight?\nno\nMore SOUP", "soup").collect();
        assert_eq!(found, ["Soup tonight?", "More SOUP"]);
        let long = format!("{} cod {}", "a".repeat(100), "b".repeat(100));
        let s: Vec<_> = snippets(&long, "cod").collect();
        assert!(s[0].starts_with('…') && s[0].ends_with('…'), "{}", s[0]);
        assert!(s[0].contains("cod"), "{}", s[0]);
        assert!(s[0].chars().count() <= SNIPPET + 2);
    }
}
