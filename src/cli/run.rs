//! `alfred run`: headless turns on a new or given session, saved after every
//! turn through the persist actor and drained before exit.

use std::io::Write;

use crate::headless::{Headless, Output, read_script};
use crate::session::persist::spawn_persist;

use super::open::{engine, open_session, runtime, store};
use super::{CliError, Outcome, RunArgs, Startup};

/// Runs the messages and prints each turn; exit 1 when a turn failed.
pub fn run(
    args: &RunArgs,
    startup: &Startup,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<Outcome, CliError> {
    let messages = match &args.script {
        Some(path) => read_script(path).map_err(CliError::Unavailable)?,
        None => args.messages.clone(),
    };
    if messages.is_empty() {
        return Err(CliError::Unavailable(
            "there is no message to send (the script has only comments or blank lines)".into(),
        ));
    }
    let runtime = runtime()?;
    runtime.block_on(async {
        let engine = engine(startup, env)?;
        let sessions = store(&startup.paths);
        let opened = open_session(&sessions, &args.session, &engine.llm, &startup.config)?;
        let (persist, _events) = spawn_persist(startup.paths.sessions_dir.clone());
        persist.hold(opened.lock)?;
        let mut session = opened.session;
        let verb = if opened.created {
            "new session"
        } else {
            "resuming session"
        };
        eprintln!("{verb} {} · {}", session.id, engine.brain.name());
        let headless = Headless {
            brain: engine.brain.clone(),
            kitchen: engine.kitchen.clone(),
            settings: engine.settings.clone(),
            today: super::kitchen::today().to_string(),
        };
        let output = if args.json {
            Output::Json
        } else {
            Output::Plain
        };
        let mut state = session.context.clone();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let mut save_error = None;
        let failed = headless
            .run(
                &mut state,
                &messages,
                output,
                &mut out,
                &mut |record, state| {
                    let now = jiff::Timestamp::now();
                    session.push_turn(record.clone(), Some(state.clone()), now);
                    if let Err(e) = persist.save(session.clone()) {
                        save_error = Some(e);
                    }
                },
            )
            .await;
        let _ = out.flush();
        if let Some(e) = save_error {
            return Err(e.into());
        }
        persist.flush().await?;
        Ok(if failed > 0 {
            Outcome::Failed
        } else {
            Outcome::Done
        })
    })
}
