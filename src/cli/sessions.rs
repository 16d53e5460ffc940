//! `alfred sessions list | show | export | rename | rm` (`import` is in
//! [`super::import`]).
//!
//! Owns the user-facing words around saved sessions: the table, the grep
//! listing, the warnings for unreadable files, the confirmation before a
//! removal. The files themselves belong to [`crate::session`]; this module
//! must not read or write them directly. The clock and the local time zone
//! are read here and passed in.

use super::output::{emit, emit_with};

use jiff::tz::TimeZone;

use crate::session::export::{display_time, show_text, to_markdown, write_json};
use crate::session::{SessionProblem, SessionSummary};

use super::{CliError, ExportFormat, GlobalArgs, Outcome, SessionsCommand, Startup, confirm};
use crate::text::{one_line, visible};

/// Widest title shown in the table, in characters.
const TITLE_WIDTH: usize = 40;

/// Runs `alfred sessions …`; `global` is what the command line said (for
/// the import's hint on how to open the new session).
pub fn run(
    cmd: &SessionsCommand,
    startup: &Startup,
    global: &GlobalArgs,
) -> Result<Outcome, CliError> {
    let store = super::open::store(&startup.paths);
    let tz = TimeZone::system();
    match cmd {
        SessionsCommand::List { grep: None } => {
            let report = store.list();
            if report.sessions.is_empty() {
                eprintln!("No saved sessions yet in {}.", store.dir().display());
            } else {
                emit(&visible(&table(&report.sessions, &tz)));
            }
            warn_about(&report.problems);
        }
        SessionsCommand::List { grep: Some(word) } => {
            let report = store.grep(word);
            if report.hits.is_empty() {
                eprintln!("No session mentions \"{}\".", one_line(word));
            }
            for hit in &report.hits {
                emit(&format!("{}\n", one_line(&summary_line(&hit.session, &tz))));
                for line in &hit.lines {
                    emit(&format!("    {}\n", one_line(line)));
                }
            }
            warn_about(&report.problems);
        }
        SessionsCommand::Show { id } => {
            let (session, pending) = store.load_pending(&store.resolve(id)?)?;
            emit(&visible(&show_text(&session, pending.is_some(), &tz)));
        }
        SessionsCommand::Export { id, format, to } => {
            let session = store.load(&store.resolve(id)?)?;
            match format {
                ExportFormat::Md => emit(&visible(&to_markdown(&session, &tz))),
                // Streamed: a long session's JSON is never one string.
                ExportFormat::Json => emit_with(|out| write_json(&session, out)),
                ExportFormat::Otlp => emit(&send_traces(&session, to.as_deref(), startup)?),
            }
        }
        SessionsCommand::Rename { id, name } => {
            let session = store.rename(&store.resolve(id)?, name)?;
            emit(&format!(
                "Renamed session {} to \"{}\".\n",
                session.id,
                one_line(&session.title)
            ));
        }
        SessionsCommand::Rm { id, yes } => {
            let id = store.resolve(id)?;
            // Hold the lock while asking, so nobody opens it in between.
            let lock = store.lock(&id)?;
            let session = store.load(&id)?;
            let question = format!(
                "Delete session {id} \"{}\" ({})? It cannot be undone.",
                one_line(&session.title),
                crate::text::count(session.turn_count(), "turn", "turns")
            );
            if !*yes && !confirm(&question)? {
                eprintln!("Kept session {id}.");
                return Ok(Outcome::Done);
            }
            store.remove_held(lock)?;
            emit(&format!("Deleted session {id}.\n"));
        }
        SessionsCommand::Import {
            alfred_state,
            title,
            prompt_logs,
        } => {
            return super::import::run(
                alfred_state.as_deref(),
                title.as_deref(),
                prompt_logs.as_deref(),
                startup,
                global,
            );
        }
    }
    Ok(Outcome::Done)
}

/// The `list` table: id, title, turns, updated (local time), llm; newest first.
fn table(sessions: &[SessionSummary], tz: &TimeZone) -> String {
    let rows: Vec<[String; 5]> = sessions
        .iter()
        .map(|s| {
            [
                s.id.clone(),
                fit(display_title(&s.title), TITLE_WIDTH),
                turns_cell(s),
                display_time(&s.updated_at, tz),
                s.llm.label(),
            ]
        })
        .collect();
    let head = ["ID", "TITLE", "TURNS", "UPDATED", "LLM"].map(String::from);
    let mut widths = head.clone().map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&head).chain(&rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .enumerate()
            .map(|(i, (cell, w))| {
                // Turns are right-aligned; everything else left.
                if i == 2 {
                    format!("{cell:>w$}")
                } else {
                    format!("{cell:<w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A session's turns for the table: the completed ones, then what else is
/// recorded: "3", "1 (+2 failed)", "4 (+1 pending)".
fn turns_cell(s: &SessionSummary) -> String {
    match attempts(s) {
        Some(more) => format!("{} (+{more})", s.turns),
        None => s.turns.to_string(),
    }
}

/// The attempts that are not completed turns, in words ("2 failed, 1
/// pending"; failed includes cancelled), if any.
fn attempts(s: &SessionSummary) -> Option<String> {
    let mut parts = Vec::new();
    if s.failed > 0 {
        parts.push(format!("{} failed", s.failed));
    }
    if s.pending {
        parts.push("1 pending".to_string());
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// One session on one line, for grep results.
fn summary_line(s: &SessionSummary, tz: &TimeZone) -> String {
    let more = attempts(s).map(|m| format!(" (+{m})")).unwrap_or_default();
    format!(
        "{}  {} ({}{more}, {}, {})",
        s.id,
        display_title(&s.title),
        crate::text::count(s.turns, "turn", "turns"),
        display_time(&s.updated_at, tz),
        s.llm.label()
    )
}

fn display_title(title: &str) -> &str {
    if title.is_empty() {
        "(untitled)"
    } else {
        title
    }
}

/// Cuts `text` to `width` characters with "…".
fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let cut: String = text.chars().take(width - 1).collect();
    format!("{}…", cut.trim_end())
}

/// Sends a saved session's turns to a collector, each as one trace with
/// its original times; says how many went where.
fn send_traces(
    session: &crate::session::SessionFile,
    to: Option<&str>,
    startup: &Startup,
) -> Result<String, CliError> {
    let mut config = startup.config.clone();
    if let Some(url) = to {
        config.telemetry.otlp_endpoint = Some(url.to_string());
    }
    let telemetry = super::open::telemetry(&config)?.ok_or_else(|| {
        CliError::Unavailable(
            "--format otlp needs a collector: give --to URL (e.g. http://localhost:6006 for \
             Phoenix) or set [telemetry] otlp_endpoint"
                .into(),
        )
    })?;
    for record in &session.transcript {
        crate::record::TurnObserver::turn_ended(&*telemetry, &session.id, record);
    }
    telemetry
        .flush()
        .map_err(|e| CliError::Unavailable(e.to_string()))?;
    let n = session.transcript.len();
    Ok(format!(
        "Sent {n} turn{} of session {} to {} ({n} trace{}).\n",
        if n == 1 { "" } else { "s" },
        session.id,
        telemetry.url(),
        if n == 1 { "" } else { "s" },
    ))
}

/// Unreadable files, after the output, on stderr.
fn warn_about(problems: &[SessionProblem]) {
    for p in problems {
        eprintln!("warning: {p}");
    }
}
