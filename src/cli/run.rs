//! `alfred run`: headless turns on a new or given session, saved after every
//! turn through the persist actor and drained before exit.

use std::io::Write;

use std::sync::Arc;

use crate::headless::{Headless, Output, read_script};
use crate::pipeline::TurnRunner;
use crate::session::SessionLedger;
use crate::session::ledger::filed_at;
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
    // Checked before any is sent, so a long paste never sends half a script.
    for (i, m) in messages.iter().enumerate() {
        if let Some(why) = crate::pipeline::message_refused(m) {
            return Err(CliError::Unavailable(format!("message {}: {why}", i + 1)));
        }
    }
    let runtime = runtime()?;
    runtime.block_on(async {
        let engine = engine(startup, env)?;
        let sessions = store(&startup.paths);
        let opened = open_session(
            &sessions,
            &args.session,
            &engine.llm,
            &startup.config,
            &engine.kitchen,
        )?;
        if let Some(note) = super::open::passed_over_note(&opened.passed_over, opened.created) {
            eprintln!("warning: {note}");
        }
        if let Some(message) = &opened.unsent {
            eprintln!(
                "note: the last turn (“{}”) was cut off before it was saved; nothing of it was kept",
                crate::text::visible(message)
            );
        }
        let (persist, _events) = spawn_persist(startup.paths.sessions_dir.clone());
        persist.hold(opened.lock)?;
        let session = opened.session;
        let verb = if opened.created {
            "new session"
        } else {
            "resuming session"
        };
        super::prepare(&*engine.brain).await;
        eprintln!("{verb} {} · {}", session.id, engine.brain.name());
        let mut runner = TurnRunner::new(
            engine.brain.clone(),
            engine.kitchen.clone(),
            engine.settings.clone(),
        );
        if let Some(t) = engine.telemetry.clone() {
            runner = runner.with_observer(t);
        }
        runner.warm_cache(&session.transcript);
        let headless = Headless {
            runner,
            today: super::kitchen::today().to_string(),
            progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        };
        let output = if args.json {
            Output::Json
        } else {
            Output::Plain
        };
        let mut state = session.context.clone();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        // The runner records each turn in the session file before it is
        // printed; the copy here follows, for the next turn's ledger.
        let session = std::cell::RefCell::new(session);
        let failed = headless
            .run(
                &mut state,
                &messages,
                output,
                &mut out,
                &mut || {
                    Arc::new(SessionLedger::new(persist.clone(), &session.borrow()))
                        as Arc<dyn crate::pipeline::TurnLedger>
                },
                &mut |record, state| {
                    let at = filed_at(record);
                    session
                        .borrow_mut()
                        .push_turn(record.clone(), Some(state.clone()), at);
                },
            )
            .await;
        let _ = out.flush();
        persist.flush().await?;
        if let Some(t) = &engine.telemetry {
            // The traces go before the process ends; a collector that did
            // not take them is a warning, not a failed run.
            if let Err(e) = t.flush() {
                eprintln!("warning: {e}");
            }
        }
        Ok(if failed > 0 {
            Outcome::Failed
        } else {
            Outcome::Done
        })
    })
}
