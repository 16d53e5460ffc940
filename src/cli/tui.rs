//! `alfred` (the terminal UI) and `alfred demo`: open the session, start the
//! persist actor, set the terminal up, run the app loop, and restore the
//! terminal whatever happens (ratatui's panic hook restores it on a panic).

use std::io::IsTerminal;
use std::sync::Arc;

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};

use crate::headless::{read_script, script_messages};
use crate::session::persist::spawn_persist;
use crate::tui::app::{self, AppDeps};
use crate::tui::model::{Demo, Model};
use crate::tui::theme::Theme;

use super::open::{engine, open_session, runtime, store};
use super::{CliError, DemoArgs, Outcome, SessionChoice, Startup};

/// The demo script shipped in the binary.
pub const DEFAULT_DEMO: &str = include_str!("../../assets/demo/meal-planning.txt");

/// Opens the UI on the chosen session (a new one for a demo).
pub fn run(
    startup: &Startup,
    choice: &SessionChoice,
    demo: Option<&DemoArgs>,
    watch: bool,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<Outcome, CliError> {
    let config = &startup.config;
    // `alfred watch`: the conversation followed, connected to first so a
    // wrong URL or user is said before the screen opens.
    let watched = match (watch, config.store.postgres()) {
        (false, _) => None,
        (true, None) => {
            return Err(CliError::Unavailable(
                "alfred watch follows a user's conversation in an Alfred database: give \
                 --store postgres://… --user UUID (or [store] in config.toml)"
                    .into(),
            ));
        }
        (true, Some((url, user))) => {
            let w = super::watch::Watcher::open(
                url,
                user,
                config.store.role_claims(),
                config.context.clone(),
            )?;
            let whose = format!(
                "user {} in {}",
                user.get(..8).unwrap_or(user),
                crate::kitchen::postgres::shown_url(url)
            );
            Some((w, whose))
        }
    };
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(CliError::Unavailable(
            "the UI needs a terminal; for turns without one use `alfred run -m MESSAGE` (add --json for records)".into(),
        ));
    }
    let keymap = super::keymap(&startup.paths, config)?;
    let demo = demo.map(demo_script).transpose()?;
    let runtime = runtime()?;
    runtime.block_on(async {
        let engine = engine(startup, env)?;
        let sessions = Arc::new(store(&startup.paths));
        let choice = if demo.is_some() || watched.is_some() {
            SessionChoice {
                new: true,
                session: None,
            }
        } else {
            choice.clone()
        };
        let opened = open_session(&sessions, &choice, &engine.llm, config, &engine.kitchen)?;
        let unsent = opened.unsent.clone();
        let passed_over = super::open::passed_over_note(&opened.passed_over, opened.created);
        if let Err(e) = sessions.mark_opened(&opened.session.id) {
            tracing::warn!(error = %e, "could not note the open session");
        }
        let (persist, persist_events) = spawn_persist(startup.paths.sessions_dir.clone());
        persist.hold(opened.lock)?;
        super::prepare(&*engine.brain).await;
        let mut model = Model::new(
            opened.session,
            &engine.brain.name(),
            Theme::named(config.ui.theme),
        );
        model.chrome.demo = demo;
        let external = watched.map(|(watcher, whose)| {
            model
                .session_mut()
                .set_title(&format!("Watching Alfred · {whose}"));
            model.chrome.header.title = model.session.title.clone();
            model.chrome.watching = Some(whose);
            model.chrome.status = Some((
                crate::tui::model::Level::Info,
                "watching Alfred's conversation: each state its app commits shows here as a turn"
                    .into(),
            ));
            let observer = engine.telemetry.clone().map(|t| {
                (
                    t as Arc<dyn crate::record::TurnObserver>,
                    model.session.id.clone(),
                )
            });
            super::watch::spawn(watcher, observer)
        });
        model.chrome.header.kitchen = crate::pipeline::support::lock(&engine.kitchen)
            .postgres()
            .map(|pg| pg.short_name());
        if let Some(note) = passed_over {
            // The session on screen is not the one the user left: say why.
            model.chrome.status = Some((crate::tui::model::Level::Warn, note));
        }
        if let Some(message) = unsent {
            // A turn a crash cut off before it was saved: offered again.
            model.chat.set_input(&message);
            model.chrome.status = Some((
                crate::tui::model::Level::Warn,
                "the last turn was cut off before it was saved — its message is back in the box"
                    .into(),
            ));
        }
        model.chrome.context_window = engine
            .brain
            .context_window()
            .unwrap_or(config.llm.context_window);
        let mut runner =
            crate::pipeline::TurnRunner::new(engine.brain, engine.kitchen, engine.settings);
        if let Some(t) = engine.telemetry.clone() {
            runner = runner.with_observer(t);
        }
        runner.warm_cache(&model.session.transcript);
        let deps = AppDeps {
            runner,
            persist,
            persist_events,
            store: sessions,
            keymap,
            llm: engine.llm,
            policy: config.context.clone(),
            exports_dir: startup.paths.data_dir.join("exports"),
            today: Arc::new(|| super::kitchen::today().to_string()),
            clipboard: Box::new(std::io::stdout()),
            log: None,
            external,
        };
        let mut terminal = ratatui::init();
        let mut stdout = std::io::stdout();
        let _ = crossterm::execute!(stdout, EnableBracketedPaste);
        if config.ui.mouse {
            let _ = crossterm::execute!(stdout, EnableMouseCapture);
        }
        let result = app::run(&mut terminal, model, deps).await;
        let _ = crossterm::execute!(stdout, DisableMouseCapture, DisableBracketedPaste);
        ratatui::restore();
        let unsaved =
            result.map_err(|e| CliError::Unavailable(format!("the terminal failed: {e}")))?;
        match unsaved {
            // Said once the terminal is back, where it can be read.
            Some(why) => {
                eprintln!("error: {why}");
                Ok(Outcome::Failed)
            }
            None => Ok(Outcome::Done),
        }
    })
}

/// The demo's messages: the built-in script, or a file.
fn demo_script(args: &DemoArgs) -> Result<Demo, CliError> {
    let messages = match args.script.as_deref() {
        None | Some("meal-planning") => script_messages(DEFAULT_DEMO),
        Some(path) => read_script(std::path::Path::new(path)).map_err(CliError::Unavailable)?,
    };
    if messages.is_empty() {
        return Err(CliError::Unavailable(
            "the demo script has no messages".into(),
        ));
    }
    Ok(Demo {
        messages,
        next: 0,
        auto_secs: args.auto,
    })
}
