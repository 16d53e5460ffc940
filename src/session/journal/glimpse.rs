//! What a listing or a search reads of a journal ([`glimpse`]): the header
//! and each turn's message and reply, every line cut short before its bulk
//! and read for a few fields only.

use serde::Deserialize;

use super::super::file::title_from;
use super::super::llm::LlmSettings;
use super::super::unreadable::Unreadable;
use super::error::{LineError, ReadError};
use super::format::JOURNAL_VERSION;
use crate::record::TurnStatus;

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
    /// The header's schema version.
    pub schema_version: u32,
    /// The title: the last rename, else from the first turn's message.
    pub title: String,
    /// When the session was created (RFC 3339).
    pub created_at: String,
    /// The time of the last turn kept (the creation time before any).
    pub updated_at: String,
    /// The brain the session talks to.
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
    let text = std::str::from_utf8(bytes).map_err(ReadError::from)?;
    let mut out = Glimpse::default();
    let mut pending: Option<(String, String, String)> = None;
    // A record delta that does not touch the status keeps the last one's.
    let mut status = TurnStatus::Ok;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let g: Glance = match glance_of(line) {
            Ok(g) if line.ends_with('\n') => g,
            // A torn last line is left out, as loading does.
            _ if n > 0 && n + 1 == text.split_inclusive('\n').count() => break,
            Ok(_) => return Err(ReadError::at(n, LineError::Torn).into()),
            Err(e) => return Err(ReadError::at(n, e).into()),
        };
        match g.k.as_str() {
            "header" if n == 0 => {
                let v = g.schema_version.unwrap_or_default();
                if v > JOURNAL_VERSION {
                    return Err(ReadError::Newer(v).into());
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
                status = super::super::turn_status::status_of_line(line).unwrap_or(status);
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
                return Err(ReadError::at(n, LineError::KindNotHeader(other.to_string())).into());
            }
            other => {
                return Err(ReadError::at(n, LineError::UnknownKind(other.to_string())).into());
            }
        }
    }
    out.pending = pending.is_some();
    Ok(out)
}
