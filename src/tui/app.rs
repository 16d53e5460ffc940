//! The app loop: one `select!` over terminal events, pipeline events, save
//! results, app-internal results and a tick that runs only while a turn is
//! active (or a demo plays). It drains everything queued, then draws once —
//! a burst of streamed tokens costs one frame, and frames come at most every
//! [`FRAME`] (about 60 a second): a change sooner waits for the next frame.
//! Nothing wakes the loop while nothing happens. A status line clears itself
//! after a few seconds. Effects are executed here; the loop never awaits the
//! disk or the network itself.
//!
//! The loop runs on any ratatui backend with any stream of terminal events
//! ([`run_on`]), so tests drive the real loop on a `TestBackend` and read
//! what it did in a [`LoopLog`].

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossterm::event::{Event as TermEvent, EventStream, KeyEventKind};
use futures::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::context::ContextPolicy;
use crate::pipeline::{PipelineEvent, Running, TurnRequest, TurnRunner};
use crate::session::{
    LlmSettings, PersistEvent, PersistHandle, SessionFile, SessionLedger, SessionStore, export,
};

use super::draw::{Caches, draw};
use super::effect::Effect;
use super::event::Event;
use super::keymap::Keymap;
use super::model::{Model, SessionItem};
use super::update::update;

/// Everything the loop needs besides the model.
pub struct AppDeps {
    /// Runs, commits and records turns (the screen never reaches the
    /// kitchen itself).
    pub runner: TurnRunner,
    pub persist: PersistHandle,
    pub persist_events: mpsc::UnboundedReceiver<PersistEvent>,
    pub store: Arc<SessionStore>,
    pub keymap: Keymap,
    pub llm: LlmSettings,
    pub policy: ContextPolicy,
    pub exports_dir: PathBuf,
    /// Today's date (`YYYY-MM-DD`), asked at the start of each turn, so a
    /// session left open past midnight plans for the new day.
    pub today: Arc<dyn Fn() -> String + Send + Sync>,
    /// Where OSC 52 clipboard writes go: the terminal (stdout).
    pub clipboard: Box<dyn Write + Send>,
    /// When set, every effect carried out and every frame drawn is noted
    /// here (tests read it).
    pub log: Option<Arc<Mutex<LoopLog>>>,
    /// Events from outside the app (`alfred watch`'s reader).
    pub external: Option<mpsc::UnboundedReceiver<Event>>,
}

/// The next event from outside, or never when there is no source.
async fn next_external(rx: &mut Option<mpsc::UnboundedReceiver<Event>>) -> Option<Event> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// What the loop did, for tests: the effects it carried out, in order, and
/// the frames it drew.
#[derive(Debug, Default)]
pub struct LoopLog {
    pub effects: Vec<Effect>,
    pub frames: usize,
    /// Each status line as it went up.
    pub statuses: Vec<String>,
}

/// The shortest time between two frames (about 60 a second).
pub const FRAME: Duration = Duration::from_millis(16);

/// How long a status line stays, by its level.
fn status_lasts(level: super::model::Level) -> Duration {
    match level {
        super::model::Level::Info => Duration::from_secs(5),
        super::model::Level::Warn => Duration::from_secs(8),
        super::model::Level::Error => Duration::from_secs(15),
    }
}

/// Turns under way and cancelled turns still being recorded.
#[derive(Default)]
struct Turns {
    running: Option<Running>,
    recording: Vec<JoinHandle<()>>,
}

/// Runs the UI until the user quits; the session is saved and drained.
/// Returns what could not be saved, in words, for the caller to say once
/// the terminal is restored.
pub async fn run<B: Backend>(
    terminal: &mut Terminal<B>,
    model: Model,
    deps: AppDeps,
) -> std::io::Result<Option<String>> {
    run_on(terminal, model, deps, EventStream::new()).await
}

/// [`run`] with the terminal's events from `term` (a test feeds its own).
pub async fn run_on<B, S>(
    terminal: &mut Terminal<B>,
    mut model: Model,
    mut deps: AppDeps,
    mut term: S,
) -> std::io::Result<Option<String>>
where
    B: Backend,
    S: Stream<Item = std::io::Result<TermEvent>> + Unpin,
{
    let (pipe_tx, mut pipe_rx) = mpsc::unbounded_channel::<PipelineEvent>();
    let (ui_tx, mut ui_rx) = mpsc::unbounded_channel::<Event>();
    let mut running = Turns::default();
    let mut spinner = tokio::time::interval(Duration::from_millis(90));
    let demo_secs = model
        .chrome
        .demo
        .as_ref()
        .and_then(|d| d.auto_secs)
        .unwrap_or(3600);
    let mut demo_timer = tokio::time::interval(Duration::from_secs(demo_secs));
    demo_timer.reset();
    let autoplay = model
        .chrome
        .demo
        .as_ref()
        .is_some_and(|d| d.auto_secs.is_some());
    let mut cache = Caches::default();
    // The chat names the key that retries as the keymap binds it.
    model.chrome.retry_key = deps.keymap.first_key(super::action::Action::Retry);
    if let Ok(size) = terminal.size() {
        model.chrome.size = (size.width, size.height);
    }
    redraw(terminal, &model, &deps, &mut cache)?;
    let mut last_frame = Instant::now();
    // Something changed since the last frame, and when that frame may come
    // (a change sooner than a frame after the last one waits for it).
    let mut dirty = false;
    let mut frame_due: Option<Instant> = None;
    // When the status line shown now goes.
    let mut status_ends: Option<(Instant, String)> = None;
    let mut term_open = true;
    loop {
        let first = tokio::select! {
            e = term.next(), if term_open => match e {
                Some(Ok(e)) => translate(e),
                Some(Err(_)) => None,
                None => {
                    term_open = false;
                    None
                }
            },
            Some(e) = pipe_rx.recv() => Some(Event::Pipeline(e)),
            Some(e) = deps.persist_events.recv() => persist_event(e),
            Some(e) = ui_rx.recv() => Some(e),
            Some(e) = next_external(&mut deps.external) => Some(e),
            _ = spinner.tick(), if model.turn.is_running() => Some(Event::Tick),
            _ = demo_timer.tick(), if autoplay => Some(Event::Tick),
            () = sleep_until(status_ends.as_ref().map(|(at, _)| *at)), if status_ends.is_some() => {
                status_ends.take().map(|(_, text)| Event::StatusExpired(text))
            }
            () = sleep_until(frame_due), if frame_due.is_some() => None,
        };
        let mut queue: Vec<Event> = first.into_iter().collect();
        // Drain whatever else is already waiting, then draw once.
        while let Ok(e) = pipe_rx.try_recv() {
            queue.push(Event::Pipeline(e));
        }
        while let Ok(e) = ui_rx.try_recv() {
            queue.push(e);
        }
        // (Terminal events are not drained here: polling crossterm's stream
        // outside select! can lose its wake-up.)
        // A trace export that failed since: told once (the log has each).
        queue.extend(deps.runner.observer_problem().map(Event::Warned));
        dirty |= !queue.is_empty();
        for ev in queue {
            for effect in update(&mut model, &deps.keymap, ev) {
                if let Some(log) = &deps.log {
                    crate::pipeline::support::lock(log)
                        .effects
                        .push(effect.clone());
                }
                execute(
                    effect,
                    &mut model,
                    &mut deps,
                    &mut running,
                    &pipe_tx,
                    &ui_tx,
                );
            }
        }
        if model.chrome.quitting {
            break;
        }
        // A new status line gets its own time to go.
        match &model.chrome.status {
            Some((level, text)) if status_ends.as_ref().is_none_or(|(_, t)| t != text) => {
                status_ends = Some((Instant::now() + status_lasts(*level), text.clone()));
                if let Some(log) = &deps.log {
                    crate::pipeline::support::lock(log)
                        .statuses
                        .push(text.clone());
                }
            }
            None => status_ends = None,
            Some(_) => {}
        }
        if !dirty {
            continue;
        }
        let due = last_frame + FRAME;
        if Instant::now() < due {
            frame_due = Some(due);
            continue;
        }
        (dirty, frame_due) = (false, None);
        redraw(terminal, &model, &deps, &mut cache)?;
        last_frame = Instant::now();
    }
    // A turn cancelled by quitting is still recorded (by the runner); one
    // already committing finishes.
    if let Some(r) = running.running.take() {
        match deps.runner.cancel(r) {
            Ok((_, recorded)) => running.recording.push(recorded),
            Err(r) => TurnRunner::finish(r).await,
        }
    }
    for recorded in running.recording.drain(..) {
        let _ = recorded.await;
    }
    let _ = deps.persist.save(model.session.clone());
    match deps.persist.flush().await {
        Ok(()) => Ok(None),
        Err(e) => {
            tracing::error!(error = %e, "sessions not saved on quit");
            Ok(Some(e.to_string()))
        }
    }
}

/// Sleeps until `at` (forever when `None`; the select! arm is off then).
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Draws a frame.
fn redraw<B: Backend>(
    terminal: &mut Terminal<B>,
    model: &Model,
    deps: &AppDeps,
    cache: &mut Caches,
) -> std::io::Result<()> {
    terminal
        .draw(|f| draw(f, model, &deps.keymap, cache))
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    if let Some(log) = &deps.log {
        crate::pipeline::support::lock(log).frames += 1;
    }
    Ok(())
}

fn translate(e: TermEvent) -> Option<Event> {
    match e {
        TermEvent::Key(k) if k.kind != KeyEventKind::Release => Some(Event::Key(k)),
        TermEvent::Paste(s) => Some(Event::Paste(s)),
        TermEvent::Mouse(m) => Some(Event::Mouse(m)),
        TermEvent::Resize(w, h) => Some(Event::Resize(w, h)),
        _ => None,
    }
}

fn persist_event(e: PersistEvent) -> Option<Event> {
    match e {
        PersistEvent::Saved { .. } => None,
        PersistEvent::Failed { error, .. } => Some(Event::SaveFailed(error.to_string())),
    }
}

/// Carries out one effect. Disk work runs on the blocking pool and reports
/// back through `ui_tx`.
fn execute(
    effect: Effect,
    model: &mut Model,
    deps: &mut AppDeps,
    running: &mut Turns,
    pipe_tx: &mpsc::UnboundedSender<PipelineEvent>,
    ui_tx: &mpsc::UnboundedSender<Event>,
) {
    match effect {
        Effect::StartTurn { id, message } => {
            let req = TurnRequest {
                id,
                message,
                state: model.session.context.clone(),
                today: (deps.today)(),
                started_at: jiff::Timestamp::now().to_string(),
            };
            let ledger = Arc::new(SessionLedger::new(deps.persist.clone(), &model.session));
            running.running = Some(deps.runner.start(req, ledger, pipe_tx.clone()));
        }
        Effect::AbortTurn { id, .. } => {
            let Some(r) = running.running.take_if(|r| r.id == id) else {
                return;
            };
            match deps.runner.cancel(r) {
                Ok((record, recorded)) => {
                    running.recording.retain(|h| !h.is_finished());
                    running.recording.push(recorded);
                    let _ = ui_tx.send(Event::TurnCancelled(Box::new(record)));
                }
                Err(r) => {
                    // Too late: it is saving; its end is on its way.
                    running.running = Some(r);
                }
            }
        }
        Effect::Save => {
            if let Err(e) = deps.persist.save(model.session.clone()) {
                let _ = ui_tx.send(Event::SaveFailed(e.to_string()));
            }
        }
        Effect::ListSessions => {
            let store = deps.store.clone();
            let tx = ui_tx.clone();
            tokio::task::spawn_blocking(move || {
                let report = store.list();
                let items = report
                    .sessions
                    .into_iter()
                    .map(|s| SessionItem {
                        id: s.id,
                        title: s.title,
                        turns: s.turns,
                        updated: s.updated_at,
                    })
                    .collect();
                let _ = tx.send(Event::SessionsListed(items));
            });
        }
        Effect::OpenSession(id) => switch(model, deps, Some(id), ui_tx),
        Effect::NewSession => switch(model, deps, None, ui_tx),
        Effect::Export { markdown } => {
            let session = model.session.clone();
            let dir = deps.exports_dir.clone();
            let tx = ui_tx.clone();
            tokio::task::spawn_blocking(move || {
                let _ = tx.send(match write_export(&session, &dir, markdown) {
                    Ok(e) if e.written => Event::Done(format!("exported to {}", e.path.display())),
                    Ok(e) => {
                        Event::Done(format!("already exported, unchanged: {}", e.path.display()))
                    }
                    Err(e) => Event::Failed(format!("export failed: {e}")),
                });
            });
        }
        Effect::CopyToClipboard(text) => {
            let out = &mut deps.clipboard;
            let written = out
                .write_all(super::copy::osc52(&text).as_bytes())
                .and_then(|()| out.flush());
            if let Err(e) = written {
                let _ = ui_tx.send(Event::Failed(format!("copy failed: {e}")));
            }
        }
        Effect::Quit => model.chrome.quitting = true,
    }
}

/// Saves and releases the current session, then opens `id` (or a new one).
fn switch(model: &Model, deps: &AppDeps, id: Option<String>, ui_tx: &mpsc::UnboundedSender<Event>) {
    let _ = deps.persist.save(model.session.clone());
    let _ = deps.persist.release(&model.session.id);
    let store = deps.store.clone();
    let persist = deps.persist.clone();
    let (llm, policy) = (deps.llm.clone(), deps.policy.clone());
    let tx = ui_tx.clone();
    let current = model.session.id.clone();
    tokio::task::spawn_blocking(move || {
        let opened = match id {
            Some(id) => store.open(&id),
            None => store.create(jiff::Timestamp::now(), llm, policy),
        };
        let _ = tx.send(
            match opened.and_then(|(s, lock)| persist.hold(lock).map(|_| s)) {
                Ok(session) => {
                    if let Err(e) = store.mark_opened(&session.id) {
                        tracing::warn!(error = %e, "could not note the open session");
                    }
                    Event::SessionOpened(Box::new(session))
                }
                Err(e) => {
                    // Stay on the current session: take its lock back.
                    if let Ok(lock) = store.lock(&current) {
                        let _ = persist.hold(lock);
                    }
                    Event::Failed(format!("could not open the session: {e}"))
                }
            },
        );
    });
}

fn write_export(
    session: &SessionFile,
    dir: &std::path::Path,
    markdown: bool,
) -> Result<export::Exported, String> {
    let tz = jiff::tz::TimeZone::system();
    let (text, ext) = if markdown {
        (export::to_markdown(session, &tz), "md")
    } else {
        (export::to_json(session).map_err(|e| e.to_string())?, "json")
    };
    // Named by its turn, so a later export sits beside an earlier one.
    let stem = format!("{}-turn{}", session.id, session.transcript.len());
    export::save_export(dir, &stem, ext, &text)
}
