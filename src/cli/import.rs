//! `alfred sessions import --alfred-state FILE`, or `--store URL --user
//! UUID` (the user's `conversations` row): a new session made from Alfred's
//! saved conversation state, to open in the terminal UI.
//!
//! Owns the words around an import: what was imported, the report, how to
//! open the session. The mapping is [`crate::session::alfred_state`]'s; the
//! file is read whole before anything is written, so a file that is not
//! Alfred's state leaves nothing behind. Writes only the new session.

use std::path::Path;

use crate::session::LlmSettings;
use crate::session::alfred_state::{self, ImportReport, prompt_logs};
use crate::text::{one_line, visible};

use super::output::emit;
use super::{CliError, GlobalArgs, ImportProblem, Outcome, Startup};

/// The backend a session made by an import names (its turns ran in Alfred).
const IMPORTED: &str = "imported";

/// Runs `alfred sessions import --alfred-state FILE [--title NAME]`, or,
/// without a file, imports the `conversations` row of the configured
/// Postgres store's user (reading only).
pub fn run(
    file: Option<&Path>,
    title: Option<&str>,
    logs: Option<&Path>,
    startup: &Startup,
    global: &GlobalArgs,
) -> Result<Outcome, CliError> {
    let policy = &startup.config.context;
    let (name, mut imported) = match file {
        Some(file) => {
            let failed = |problem: ImportProblem| CliError::Import {
                source_name: file.display().to_string(),
                problem,
            };
            let bytes = std::fs::read(file).map_err(|e| failed(ImportProblem::Read(e)))?;
            let imported =
                alfred_state::import_json(&bytes, policy).map_err(|e| failed(e.into()))?;
            let name = file.file_name().map_or_else(
                || file.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            (name, imported)
        }
        None => {
            let (source_name, name, value) = from_database(startup)?;
            let mut imported =
                alfred_state::import(&value, policy).map_err(|e| CliError::Import {
                    source_name,
                    problem: e.into(),
                })?;
            // Read through `--store`, which is this session's kitchen too.
            imported.report.from_kitchen = true;
            (name, imported)
        }
    };
    // Alfred's prompt logs: the folder given, else (read from the store)
    // the user's `prompt_logs` rows, run by run.
    let runs: Vec<Vec<prompt_logs::LoggedCall>> = match logs {
        Some(dir) => vec![prompt_logs::read_folder(dir).map_err(|e| CliError::Import {
            source_name: dir.display().to_string(),
            problem: ImportProblem::Logs(e.to_string()),
        })?],
        None => match (file, startup.config.store.postgres()) {
            (None, Some((url, user))) => {
                let rows =
                    crate::kitchen::postgres::PgStore::prompt_logs(url, user).map_err(|e| {
                        CliError::Import {
                            source_name: format!("the prompt_logs of user {user}"),
                            problem: ImportProblem::Logs(e.to_string()),
                        }
                    })?;
                let mut runs: Vec<(String, Vec<prompt_logs::LoggedCall>)> = Vec::new();
                for (run, call) in rows {
                    match runs.last_mut() {
                        Some((r, calls)) if *r == run => calls.push(call),
                        _ => runs.push((run, vec![call])),
                    }
                }
                runs.into_iter().map(|(_, calls)| calls).collect()
            }
            _ => Vec::new(),
        },
    };
    let turns: Vec<Vec<prompt_logs::LoggedCall>> = runs
        .iter()
        .flat_map(|run| prompt_logs::turns(run))
        .collect();
    if !turns.is_empty() {
        imported.attach_prompt_logs(&turns);
    }
    if imported.report.origin.alfred_keys == 0 {
        eprintln!(
            "warning: {} has none of Alfred's keys (id_registry, recent_turns, current_turn…); \
             the session will be empty — is it Alfred's conversation state?",
            one_line(&name)
        );
    }
    let store = super::open::store(&startup.paths);
    let llm = LlmSettings::new(IMPORTED, None, "");
    let (mut session, lock) = store.create(jiff::Timestamp::now(), llm, policy.clone())?;
    let report = imported.into_session(&mut session, &name, title);
    store.write_new(&session, &lock)?;
    drop(lock);
    // The data dir a flag named must be named again; ALFRED_HOME holds.
    let alfred = match &global.data_dir {
        Some(_) => format!("alfred --data-dir {}", quoted(&startup.paths.data_dir)),
        None => "alfred".to_string(),
    };
    emit(&visible(&printed(
        &report,
        &name,
        &session.id,
        &session.title,
        &alfred,
    )));
    Ok(Outcome::Done)
}

/// The `conversations` row of the store's user: (source, name, state).
fn from_database(startup: &Startup) -> Result<(String, String, serde_json::Value), CliError> {
    let Some((url, user)) = startup.config.store.postgres() else {
        return Err(CliError::Unavailable(
            "sessions import needs --alfred-state FILE, or --store postgres://… --user UUID \
             to read that user's conversation from an Alfred database"
                .into(),
        ));
    };
    let shown = crate::kitchen::postgres::shown_url(url);
    let source_name = format!("the conversation of user {user} in {shown}");
    let failed = |why: String| CliError::Import {
        source_name: source_name.clone(),
        problem: ImportProblem::Database(why),
    };
    let state = crate::kitchen::postgres::PgStore::conversation_state(url, user)
        .map_err(|e| failed(e.to_string()))?
        .ok_or_else(|| failed("the user has no conversations row".into()))?;
    Ok((source_name, format!("user {user}"), state))
}

/// A path as a shell word: quoted when it holds a space or a quote.
fn quoted(path: &Path) -> String {
    let p = path.display().to_string();
    if p.chars()
        .any(|c| c.is_whitespace() || c == '\'' || c == '"')
    {
        format!("'{}'", p.replace('\'', "'\\''"))
    } else {
        p
    }
}

/// What the command prints: the new session, what was imported, the
/// report, and how to open it (`alfred` is the command to run it with).
fn printed(report: &ImportReport, name: &str, id: &str, title: &str, alfred: &str) -> String {
    let mut out = format!(
        "Imported Alfred's state from {} as session {id} \"{}\".\n",
        one_line(name),
        one_line(title)
    );
    for line in report.summary_lines() {
        out.push_str(&format!("  {line}\n"));
    }
    let findings = report.finding_lines();
    if !findings.is_empty() {
        out.push('\n');
        for line in findings {
            out.push_str(&format!("{}\n", one_line(&line)));
        }
    }
    out.push_str(&format!(
        "\nOpen it:   {alfred} --session {id}\nPrint it:  {alfred} sessions show {id}\n"
    ));
    out
}
