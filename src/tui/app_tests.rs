//! The real app loop on a `TestBackend`: terminal events fed through a
//! channel, the offline brain on a seeded kitchen, the persist actor on a
//! temporary folder. What the loop did is read from its [`LoopLog`], the
//! session file it saved, and the last frame it drew.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossterm::event::{Event as TermEvent, KeyCode, KeyModifiers};
use futures::channel::mpsc::{UnboundedSender, unbounded};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::app::{AppDeps, FRAME, LoopLog, run_on};
use super::effect::Effect;
use super::model::Model;
use super::test_update::key;
use super::view::test_support::buffer_to_string;
use crate::fixtures::offline_app;
use crate::session::SessionStore;

struct Rig {
    _dir: tempfile::TempDir,
    store: Arc<SessionStore>,
    id: String,
    log: Arc<Mutex<LoopLog>>,
    keys: UnboundedSender<std::io::Result<TermEvent>>,
}

/// A new session on a seeded kitchen, and the loop's dependencies.
fn rig() -> (
    Rig,
    Model,
    AppDeps,
    futures::channel::mpsc::UnboundedReceiver<std::io::Result<TermEvent>>,
) {
    let dir = tempfile::tempdir().expect("tmp");
    let log = Arc::new(Mutex::new(LoopLog::default()));
    let (model, deps) = offline_app(dir.path(), log.clone());
    let (keys, events) = unbounded();
    let rig = Rig {
        id: model.session.id.clone(),
        store: deps.store.clone(),
        _dir: dir,
        log,
        keys,
    };
    (rig, model, deps, events)
}

impl Rig {
    fn key(&self, code: KeyCode, modifiers: KeyModifiers) {
        let _ = self
            .keys
            .unbounded_send(Ok(TermEvent::Key(key(code, modifiers))));
    }

    fn type_text(&self, text: &str) {
        for c in text.chars() {
            self.key(KeyCode::Char(c), KeyModifiers::NONE);
        }
    }

    /// Waits until the saved session has `n` turns.
    async fn saved_turns(&self, n: usize) {
        for _ in 0..500 {
            if self
                .store
                .load(&self.id)
                .is_ok_and(|s| s.transcript.len() >= n)
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the session never had {n} turns on disk");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_real_loop_runs_a_turn_saves_it_and_quits() {
    let (rig, model, deps, events) = rig();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let driver = async {
        rig.type_text("what can I cook tonight?");
        rig.key(KeyCode::Enter, KeyModifiers::NONE);
        rig.saved_turns(1).await;
        // Let the loop draw the finished turn, then leave.
        tokio::time::sleep(FRAME * 3).await;
        rig.key(KeyCode::Char('c'), KeyModifiers::CONTROL);
    };
    let (result, ()) = tokio::join!(run_on(&mut terminal, model, deps, events), driver);
    assert_eq!(result.expect("the loop ran"), None, "saved on quit");
    let log = rig.log.lock().unwrap();
    assert!(
        matches!(log.effects.first(), Some(Effect::StartTurn { message, .. }) if message == "what can I cook tonight?"),
        "{:?}",
        log.effects
    );
    assert_eq!(log.effects.last(), Some(&Effect::Quit));
    let shown = buffer_to_string(&terminal);
    assert!(shown.contains("alfred · turn 1"), "{shown}");
    assert!(shown.contains("Summarize ✓"), "the finished bar: {shown}");
    let saved = rig.store.load(&rig.id).expect("saved");
    assert_eq!(saved.transcript.len(), 1);
    assert_eq!(saved.transcript[0].user, "what can I cook tonight?");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_keys_is_drawn_at_most_once_a_frame() {
    let (rig, model, deps, events) = rig();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let started = tokio::time::Instant::now();
    let driver = async {
        // 2,000 keys at once: typed faster than any frame.
        for _ in 0..1000 {
            rig.type_text("ab");
        }
        tokio::time::sleep(FRAME * 4).await;
        rig.key(KeyCode::Char('c'), KeyModifiers::CONTROL);
    };
    let (result, ()) = tokio::join!(run_on(&mut terminal, model, deps, events), driver);
    result.expect("the loop ran");
    let elapsed = started.elapsed();
    let frames = rig.log.lock().unwrap().frames;
    let allowed = (elapsed.as_millis() / FRAME.as_millis()) as usize + 2;
    assert!(
        frames <= allowed,
        "{frames} frames in {elapsed:?}: more than one every {FRAME:?}"
    );
    let shown = buffer_to_string(&terminal);
    assert!(
        shown.contains("abababab"),
        "the last frame shows the text: {shown}"
    );
}

#[tokio::test(start_paused = true)]
async fn an_idle_loop_draws_nothing_and_a_status_line_goes_by_itself() {
    let (rig, model, deps, events) = rig();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let driver = async {
        tokio::time::sleep(Duration::from_secs(60)).await;
        let idle_frames = rig.log.lock().unwrap().frames;
        assert_eq!(idle_frames, 1, "one frame at the start, none while idle");
        // An unknown command says so in the status line…
        rig.type_text("/bogus");
        rig.key(KeyCode::Enter, KeyModifiers::NONE);
        tokio::time::sleep(Duration::from_secs(1)).await;
        tokio::time::sleep(Duration::from_secs(30)).await;
        rig.key(KeyCode::Char('c'), KeyModifiers::CONTROL);
    };
    let (result, ()) = tokio::join!(run_on(&mut terminal, model, deps, events), driver);
    result.expect("the loop ran");
    let statuses = rig.log.lock().unwrap().statuses.clone();
    assert_eq!(statuses, ["unknown command /bogus — /help lists them"]);
    // …and the line is gone once its time is up.
    let shown = buffer_to_string(&terminal);
    assert!(!shown.contains("unknown command"), "{shown}");
}
