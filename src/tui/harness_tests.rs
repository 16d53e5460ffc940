//! The harness: keys and pipeline events go through `update`, frames are
//! drawn into a `TestBackend`, and the screen is read as a user would.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::context::{ContextPolicy, ContextState, EntityCuration, RefAction, RefDecision, Table};
use crate::pipeline::{Node, PipelineEvent, TurnId};
use crate::record::{TurnRecord, TurnStatus};

use super::draw::{Caches, draw};
use super::event::Event;
use super::keymap::Keymap;
use super::model::Model;
use super::test_update::{model, pipe, send};
use super::update::update;
use super::view::test_support::buffer_to_string;

struct Harness {
    model: Model,
    keymap: Keymap,
    terminal: Terminal<TestBackend>,
    caches: Caches,
}

impl Harness {
    fn new(width: u16, height: u16) -> Self {
        let mut model = model();
        model.chrome.size = (width, height);
        Self {
            model,
            keymap: Keymap::default_keys(),
            terminal: Terminal::new(TestBackend::new(width, height)).unwrap(),
            caches: Caches::default(),
        }
    }

    fn event(&mut self, e: Event) {
        update(&mut self.model, &self.keymap, e);
    }

    fn type_and_send(&mut self, text: &str) {
        send(&mut self.model, text);
    }

    fn pipe(&mut self, e: PipelineEvent) {
        pipe(&mut self.model, e);
    }

    fn screen(&mut self) -> String {
        let (model, keymap, caches) = (&self.model, &self.keymap, &mut self.caches);
        self.terminal
            .draw(|f| {
                draw(f, model, keymap, caches);
            })
            .unwrap();
        buffer_to_string(&self.terminal)
    }
}

/// The state after the seeds' turn 3: 9 recipes read at turn 2, two demoted.
fn turn_three_state() -> ContextState {
    let mut s = ContextState::new(ContextPolicy::default());
    s.begin_turn();
    s.begin_turn();
    for (i, n) in crate::prompt::fixtures::RECIPES.iter().enumerate() {
        s.registry
            .register_row(Table::Recipes, &format!("r{i}"), n, RefAction::Read, 2);
    }
    s.begin_turn();
    s.apply_curation(&EntityCuration {
        demote: vec![
            RefDecision::new("recipe_5", "user said no french toast"),
            RefDecision::new("recipe_6", "user doesn't feel like wings"),
        ],
        ..EntityCuration::default()
    });
    s
}

#[test]
fn a_streamed_reply_appears_live_with_the_layers_beside_it() {
    let mut h = Harness::new(140, 45);
    h.type_and_send("lets not do the french toast or wings");
    let id = TurnId(1);
    h.pipe(PipelineEvent::NodeStarted {
        id,
        node: Node::Understand,
    });
    h.pipe(PipelineEvent::NodeFinished {
        id,
        node: Node::Understand,
        duration_ms: 3.0,
        tokens: 900,
    });
    h.pipe(PipelineEvent::ContextUpdated {
        id,
        snapshot: Box::new(turn_three_state().snapshot()),
    });
    h.pipe(PipelineEvent::NodeStarted {
        id,
        node: Node::Reply,
    });
    h.pipe(PipelineEvent::ReplyChunk {
        id,
        text: "Got it — no **French Toast** ".into(),
    });
    let screen = h.screen();
    assert!(
        screen.contains("Got it — no French Toast"),
        "bold markers are not shown raw:\n{screen}"
    );
    assert!(screen.contains("▌"), "the streaming cursor:\n{screen}");
    assert!(screen.contains("Understand ✓"), "{screen}");
    assert!(screen.contains("Excluded this turn (2)"), "{screen}");
    assert!(screen.contains("user said no french toast"), "{screen}");
    h.pipe(PipelineEvent::ReplyChunk {
        id,
        text: "or Wings this week.".into(),
    });
    let screen = h.screen();
    assert!(screen.contains("or Wings this week."), "{screen}");
    // A keystroke while the turn streams is handled at once: focus moves.
    h.event(Event::Key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE)));
    assert_eq!(h.model.chrome.focus, super::model::Pane::Chat);
}

#[test]
fn a_failed_turn_is_shown_in_the_chat_with_a_retry_hint() {
    let mut h = Harness::new(120, 40);
    h.type_and_send("add 12 eggs to my fridge");
    let id = TurnId(1);
    h.pipe(PipelineEvent::ReplyChunk {
        id,
        text: "Adding".into(),
    });
    let record = TurnRecord {
        turn: 1,
        user: "add 12 eggs to my fridge".into(),
        status: TurnStatus::Failed,
        error: Some(
            "reply failed: the model server is rate limiting requests: retry in 20 s".into(),
        ),
        ..TurnRecord::default()
    };
    h.pipe(PipelineEvent::TurnFailed {
        id,
        record: Box::new(record),
    });
    let screen = h.screen();
    assert!(screen.contains("This turn failed"), "{screen}");
    assert!(screen.contains("rate limiting"), "{screen}");
    assert!(screen.contains("retry"), "{screen}");
    assert!(
        !screen.contains("Adding"),
        "the partial reply is gone:\n{screen}"
    );
    assert!(
        screen.contains("✗"),
        "the pipeline bar shows the failure:\n{screen}"
    );
}

#[test]
fn the_pipeline_bar_shows_the_turn_cost_when_the_model_is_priced() {
    let mut h = Harness::new(140, 40);
    h.type_and_send("what's in my fridge?");
    let id = TurnId(1);
    let state = turn_three_state();
    let mut record = TurnRecord {
        turn: 1,
        user: "what's in my fridge?".into(),
        reply: "Milk and paneer.".into(),
        cost_usd: Some(0.003_14),
        ..TurnRecord::default()
    };
    record.timings_ms.insert("total".into(), 812.0);
    record.set_snapshot(state.snapshot());
    h.pipe(PipelineEvent::NodeFinished {
        id,
        node: Node::Reply,
        duration_ms: 700.0,
        tokens: 3100,
    });
    h.pipe(PipelineEvent::TurnDone {
        id,
        record: Box::new(record),
        state: Box::new(state),
    });
    let screen = h.screen();
    assert!(screen.contains("$0.0031"), "{screen}");
    assert!(screen.contains("total 812ms"), "{screen}");
}

/// A long pasted line wraps in the message box, so each of its rows shows
/// text, not the end of the line scrolled sideways into one row.
#[test]
fn a_long_paste_wraps_in_the_message_box() {
    let mut h = Harness::new(80, 24);
    let words: String = (0..400).map(|i| format!("word{i} ")).collect();
    h.event(Event::Paste(words.clone()));
    let screen = h.screen();
    let rows: Vec<&str> = screen.lines().filter(|l| l.contains("word")).collect();
    assert!(rows.len() >= 3, "the paste fills the box's rows:\n{screen}");
    assert!(
        rows[..rows.len() - 1]
            .iter()
            .all(|r| r.matches("word").count() >= 5),
        "every row but the last is full of words:\n{screen}"
    );
    assert_eq!(
        rows.len(),
        6,
        "the box grows to its wrapped rows:\n{screen}"
    );
}
