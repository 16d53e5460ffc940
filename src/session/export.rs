//! Sessions as text: the `show` view, the Markdown export and the JSON export.
//!
//! Owns the words and layout of a session printed for a person: per turn the
//! user message, the reply (or the failure), and the entity layer summarised
//! ("entities: 13 recent, 1 retained, 2 excluded (recipe_5, recipe_6), 0
//! pending"). Pure: returns strings; the CLI prints them. The time zone for
//! display comes in as an argument.

use std::fmt::Write;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::error::SessionError;
use super::file::SessionFile;
use crate::context::EntityView;
use crate::context::fold::Foldable;
use crate::record::{TurnRecord, TurnStatus};

/// An RFC 3339 time as "2026-11-22 14:30" in `tz`; unparsable text as is.
pub fn display_time(rfc3339: &str, tz: &TimeZone) -> String {
    match rfc3339.parse::<Timestamp>() {
        Ok(t) => t
            .to_zoned(tz.clone())
            .strftime("%Y-%m-%d %H:%M")
            .to_string(),
        Err(_) => rfc3339.to_string(),
    }
}

/// The entity layer of a turn on one line.
pub fn entity_line(record: &TurnRecord) -> String {
    let e = &record.entities;
    let mut line = format!(
        "entities: {} recent, {} retained, {} excluded{}, {} pending",
        e.recent.len(),
        e.retained.len(),
        e.excluded.len(),
        refs_in_parens(e.excluded.iter().map(|v| v.r#ref.as_str())),
        e.pending.len()
    );
    if !e.dropped.is_empty() {
        let dropped = refs_in_parens(e.dropped.iter().map(String::as_str));
        let _ = write!(line, ", {} dropped{dropped}", e.dropped.len());
    }
    line
}

/// The `alfred sessions show` text: a header, then every turn plainly, the
/// notes kept in the chat where they were made. `pending` when the last
/// turn is recorded but not settled (see [`crate::session::journal`]): it is
/// shown as pending, not as a turn that happened.
pub fn show_text(session: &SessionFile, pending: bool, tz: &TimeZone) -> String {
    let mut out = header_line(session, pending, tz);
    let mut notes = session.notes.iter().peekable();
    let last = session.transcript.len().saturating_sub(1);
    for (i, r) in session.transcript.iter().enumerate() {
        // Notes made before this turn, where the chat shows them.
        while let Some(n) = notes.next_if(|n| n.turn < r.turn) {
            let _ = writeln!(out);
            push_labelled(&mut out, "note:  ", &n.text);
        }
        let status = if pending && i == last {
            "pending (recorded; the kitchen has not confirmed its changes yet — opening \
             the session settles it)"
        } else {
            status_word(r)
        };
        let _ = writeln!(out, "\nTurn {} · {status}", r.turn);
        push_labelled(&mut out, "user:  ", &r.user);
        if !r.reply.is_empty() {
            push_labelled(&mut out, "alfred:", &r.reply);
        }
        if let Some(err) = &r.error {
            push_labelled(&mut out, "error: ", err);
        }
        let _ = writeln!(out, "  {}", entity_line(r));
    }
    for n in notes {
        let _ = writeln!(out);
        push_labelled(&mut out, "note:  ", &n.text);
    }
    out
}

/// A readable Markdown transcript with each turn's context layers.
pub fn to_markdown(session: &SessionFile, tz: &TimeZone) -> String {
    let mut out = String::new();
    let title = if session.title.is_empty() {
        "Untitled session"
    } else {
        &session.title
    };
    let _ = writeln!(out, "# {title}\n");
    let _ = writeln!(out, "- id: `{}`", session.id);
    let _ = writeln!(out, "- created: {}", display_time(&session.created_at, tz));
    let _ = writeln!(out, "- updated: {}", display_time(&session.updated_at, tz));
    let url = &session.llm.base_url;
    let at = if url.is_empty() {
        String::new()
    } else {
        format!(" ({url})")
    };
    let _ = writeln!(out, "- llm: {}{at}", session.llm.label());
    let _ = writeln!(out, "- turns: {}", session.turn_count());
    if let Some(c) = session_cache(session) {
        let _ = writeln!(
            out,
            "- prompt cache: {:.0}% of prompt tokens cached ({}; {})",
            c.share() * 100.0,
            c.describe(),
            c.source()
        );
    }
    for r in &session.transcript {
        let _ = writeln!(out, "\n## Turn {} — {}\n", r.turn, status_word(r));
        let _ = writeln!(out, "**User**\n\n{}\n", quote(&r.user));
        if !r.reply.is_empty() {
            let _ = writeln!(out, "**Alfred**\n\n{}\n", r.reply.trim_end());
        }
        if let Some(err) = &r.error {
            let _ = writeln!(out, "**Failed:** {err}\n");
        }
        if let Some(c) = r.cache() {
            let _ = writeln!(out, "**Prompt cache:** {} ({})\n", c.describe(), c.source());
        }
        push_layers(&mut out, r);
    }
    out
}

/// Every turn's prompts against the server's prompt cache, added up (none
/// when no turn has the figures: sessions recorded before they were kept).
pub fn session_cache(session: &SessionFile) -> Option<crate::prompt::CacheUse> {
    crate::prompt::CacheUse::sum_of(session.transcript.iter().filter_map(|r| r.cache()))
}

/// The session as pretty JSON (the file's content, migrated if it was older).
pub fn to_json(session: &SessionFile) -> Result<String, SessionError> {
    serde_json::to_string_pretty(session).map_err(|source| SessionError::Encode {
        id: session.id.clone(),
        source,
    })
}

/// Writes the session as `alfred sessions export --format json` prints it:
/// the pretty JSON of [`to_json`] with the characters a terminal would act
/// on escaped (as [`crate::text::json_safe`] does), and a final newline.
///
/// Streamed turn by turn into `out` (give it a buffer): the text of a long
/// session is never held whole in memory.
pub fn write_json(session: &SessionFile, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut ser =
        serde_json::Serializer::with_formatter(&mut *out, crate::text::SafePretty::default());
    serde::Serialize::serialize(session, &mut ser)?;
    out.write_all(b"\n")
}

/// The turns of a session in words: the completed ones, then the failed
/// (or cancelled) attempts and a pending turn, if any: "3 turns",
/// "1 turn (+2 failed, 1 pending)".
pub fn turns_words(session: &SessionFile, pending: bool) -> String {
    let failed = session
        .transcript
        .iter()
        .filter(|r| r.status == TurnStatus::Failed)
        .count();
    let pending_ok = pending
        && session
            .transcript
            .last()
            .is_some_and(|r| r.status == TurnStatus::Ok);
    let completed = session.turn_count() - failed - usize::from(pending_ok);
    let mut more = Vec::new();
    if failed > 0 {
        more.push(format!("{failed} failed"));
    }
    if pending_ok {
        more.push("1 pending".to_string());
    }
    let turns = crate::text::count(completed, "turn", "turns");
    if more.is_empty() {
        turns
    } else {
        format!("{turns} (+{})", more.join(", "))
    }
}

fn header_line(session: &SessionFile, pending: bool, tz: &TimeZone) -> String {
    let title = if session.title.is_empty() {
        "(untitled)"
    } else {
        &session.title
    };
    format!(
        "{}  \"{title}\"\n{} · {} · created {} · updated {}\n",
        session.id,
        turns_words(session, pending),
        session.llm.label(),
        display_time(&session.created_at, tz),
        display_time(&session.updated_at, tz),
    )
}

fn push_layers(out: &mut String, r: &TurnRecord) {
    let e = &r.entities;
    let _ = writeln!(out, "**Context after this turn**\n");
    let plain = |v: &EntityView| {
        format!(
            "`{}` {} ({}, turn {})",
            v.r#ref, v.label, v.action, v.last_ref_turn
        )
    };
    let reasoned = |v: &EntityView| {
        let why = v.reason.as_deref().unwrap_or("no reason recorded");
        format!("`{}` {} — {why}", v.r#ref, v.label)
    };
    push_group(out, "Recent", e.recent.iter().map(plain));
    push_group(out, "Retained", e.retained.iter().map(reasoned));
    push_group(out, "Pending", e.pending.iter().map(reasoned));
    push_group(out, "Excluded", e.excluded.iter().map(reasoned));
    push_group(
        out,
        "Dropped",
        e.dropped_detail
            .iter()
            .map(|d| format!("`{}` {} — {}", d.r#ref, d.label, d.reason)),
    );
    let _ = writeln!(out, "- Background: {}", e.background.len());
    if let Some(latest) = r.narrative.turns.last() {
        let _ = writeln!(out, "- Narrative: {}", latest.fold_line());
    }
    if !r.conversation.earlier.trim().is_empty() {
        let _ = writeln!(
            out,
            "\nEarlier conversation, summarised:\n\n{}",
            quote(&r.conversation.earlier)
        );
    }
}

fn push_group(out: &mut String, name: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        let _ = writeln!(out, "- {name}: none");
    } else {
        let _ = writeln!(out, "- {name} ({}): {}", items.len(), items.join("; "));
    }
}

/// `label text`, continuation lines aligned under the text.
fn push_labelled(out: &mut String, label: &str, text: &str) {
    let pad = " ".repeat(label.chars().count() + 3);
    for (i, line) in text.trim_end().lines().enumerate() {
        if i == 0 {
            let _ = writeln!(out, "  {label} {line}");
        } else {
            let _ = writeln!(out, "{pad}{line}");
        }
    }
}

fn quote(text: &str) -> String {
    text.trim_end()
        .lines()
        .map(|l| format!("> {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn status_word(r: &TurnRecord) -> &'static str {
    match r.status {
        TurnStatus::Ok => "ok",
        TurnStatus::Failed => "failed",
    }
}

fn refs_in_parens<'a>(refs: impl Iterator<Item = &'a str>) -> String {
    let refs: Vec<&str> = refs.collect();
    if refs.is_empty() {
        String::new()
    } else {
        format!(" ({})", refs.join(", "))
    }
}

/// Where an export went, and whether it is a new file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    pub path: std::path::PathBuf,
    /// False when the same text was already there (nothing written).
    pub written: bool,
}

/// Writes `text` into `dir` as `<stem>.<ext>`; an earlier export with
/// other text is never overwritten: the new one is `<stem>-2.<ext>`, `-3`…
/// The same text already there is left as it is.
///
/// The folder is alfred's own: created readable by its user only (0700),
/// and made so if an older install left it wider. Exports are written 0600.
pub fn save_export(
    dir: &std::path::Path,
    stem: &str,
    ext: &str,
    text: &str,
) -> Result<Exported, String> {
    if !dir.is_dir() {
        crate::paths::private::create_dir(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    } else if let Err(e) = crate::paths::private::restrict(dir, true) {
        // Another user's folder: the export is written all the same.
        tracing::warn!(dir = %dir.display(), error = %e, "could not make the exports folder private");
    }
    for n in 1..1000 {
        let name = match n {
            1 => format!("{stem}.{ext}"),
            n => format!("{stem}-{n}.{ext}"),
        };
        let path = dir.join(name);
        match std::fs::read(&path) {
            Ok(old) if old == text.as_bytes() => {
                return Ok(Exported {
                    path,
                    written: false,
                });
            }
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                super::atomic::write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())?;
                return Ok(Exported {
                    path,
                    written: true,
                });
            }
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        }
    }
    Err(format!(
        "{} already holds 999 exports named {stem}; move some away",
        dir.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::sample::sample_session;

    #[test]
    fn entity_lines_count_each_group_and_name_the_excluded() {
        let s = sample_session(10, 1);
        let r = &s.transcript[9];
        let line = entity_line(r);
        let e = &r.entities;
        assert!(
            line.starts_with(&format!(
                "entities: {} recent, {} retained",
                e.recent.len(),
                e.retained.len()
            )),
            "{line}"
        );
        assert!(!e.excluded.is_empty(), "turn 10 demotes a ref");
        assert!(
            line.contains(&format!("excluded ({}", e.excluded[0].r#ref)),
            "{line}"
        );
    }

    #[test]
    fn show_and_markdown_carry_every_turn() {
        let s = sample_session(25, 2);
        let utc = TimeZone::UTC;
        let show = show_text(&s, false, &utc);
        assert_eq!(show.matches("\nTurn ").count(), 25);
        assert!(show.contains("Turn 25 · failed"), "{show}");
        assert!(show.contains("error:  the model did not answer"));
        let md = to_markdown(&s, &utc);
        assert_eq!(md.matches("\n## Turn ").count(), 25);
        assert!(
            md.contains("- Excluded (1): `"),
            "excluded refs come with reasons"
        );
        assert!(md.contains("— user said no"), "{md}");
        assert!(md.contains("- Narrative: Turn "));
        assert!(md.contains("Earlier conversation, summarised:"));
        assert_eq!(
            display_time("2026-11-22T14:30:05Z", &utc),
            "2026-11-22 14:30"
        );
    }

    #[test]
    fn markdown_gives_each_turns_and_the_sessions_prompt_cache() {
        let s = crate::tui::test_records::session(3);
        let md = to_markdown(&s, &TimeZone::UTC);
        // The offline brain has no server: the figures are alfred's estimate.
        assert_eq!(md.matches("**Prompt cache:** ").count(), 3, "{md}");
        let whole = session_cache(&s).expect("figures");
        assert!(whole.estimated && whole.cached > 0, "{whole:?}");
        assert!(
            md.contains(&format!(
                "- prompt cache: {:.0}% of prompt tokens cached ({}; estimated)",
                whole.share() * 100.0,
                whole.describe()
            )),
            "{md}"
        );
        let sum: usize = s
            .transcript
            .iter()
            .filter_map(|r| r.cache())
            .map(|c| c.cached)
            .sum();
        assert_eq!(whole.cached, sum);
    }

    #[test]
    fn show_puts_each_note_where_the_chat_has_it() {
        let mut s = sample_session(3, 1);
        let note = |turn: u32, text: &str| crate::session::SessionNote {
            turn,
            text: text.into(),
        };
        s.notes = vec![note(0, "imported"), note(2, "why recipe_1")];
        let show = show_text(&s, false, &TimeZone::UTC);
        let at = |needle: &str| {
            show.find(needle)
                .unwrap_or_else(|| panic!("{needle} in {show}"))
        };
        assert!(at("note:   imported") < at("\nTurn 1 "));
        assert!(at("\nTurn 2 ") < at("note:   why recipe_1"));
        assert!(at("note:   why recipe_1") < at("\nTurn 3 "));
    }

    #[test]
    fn the_streamed_json_is_the_text_printed_before() {
        let mut s = sample_session(12, 3);
        s.transcript[2].user = "a\u{7f}b\u{9b}2J \u{202e}txt \u{1b}[2J 😀".into();
        s.title = "soup \u{2066}plan".into();
        let before = format!("{}\n", crate::text::json_safe(&to_json(&s).unwrap()));
        let mut streamed = Vec::new();
        write_json(&s, &mut streamed).unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), before);
        assert!(before.contains("\\u202e") && before.contains('😀'));
    }

    #[test]
    fn an_export_never_overwrites_an_earlier_one() {
        let dir = tempfile::tempdir().unwrap();
        let first = save_export(dir.path(), "s-turn2", "md", "one").unwrap();
        assert_eq!(first.path, dir.path().join("s-turn2.md"));
        assert!(first.written);
        let same = save_export(dir.path(), "s-turn2", "md", "one").unwrap();
        assert_eq!(same.path, first.path);
        assert!(!same.written, "the same text is not written twice");
        let other = save_export(dir.path(), "s-turn2", "md", "two").unwrap();
        assert_eq!(other.path, dir.path().join("s-turn2-2.md"));
        assert_eq!(std::fs::read_to_string(&first.path).unwrap(), "one");
        assert_eq!(std::fs::read_to_string(&other.path).unwrap(), "two");
    }
}
