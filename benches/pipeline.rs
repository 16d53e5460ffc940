//! The offline pipeline per turn, excluding any model: one turn run at turn
//! 10 and at turn 500 of a long conversation (the session state, windows and
//! registry as they stand then).
//!
//! `cargo bench --bench pipeline`

use std::sync::{Arc, Mutex};

use alfred::brain::offline::OfflineBrain;
use alfred::context::{ContextPolicy, ContextState};
use alfred::kitchen::Kitchen;
use alfred::pipeline::{Brain, TurnId, TurnRequest, TurnResult, TurnSettings, run_turn};
use divan::Bencher;

fn main() {
    divan::main();
}

/// A conversation that plans, detours, saves and starts over, repeated.
const SCRIPT: [&str; 10] = [
    "can you help me plan some meals?",
    "let's not do cod this week",
    "no french toast, and I don't feel like wings",
    "what's in my fridge?",
    "ok back to the meal plan",
    "give me a thai basil chicken recipe",
    "add a squeeze of lime",
    "what isn't saved yet?",
    "what's in my pantry?",
    "start fresh",
];

struct World {
    runtime: tokio::runtime::Runtime,
    brain: Arc<dyn Brain>,
    kitchen: Arc<Mutex<Kitchen>>,
    settings: Arc<TurnSettings>,
    _dir: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let mut kitchen = Kitchen::open(dir.path().join("kitchen.db")).unwrap();
        kitchen
            .seed_if_empty(jiff::civil::date(2026, 1, 13))
            .unwrap();
        World {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap(),
            brain: Arc::new(OfflineBrain::default()),
            kitchen: Arc::new(Mutex::new(kitchen)),
            settings: Arc::new(TurnSettings::default()),
            _dir: dir,
        }
    }

    fn turn(&self, state: ContextState, message: &str) -> ContextState {
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        let req = TurnRequest {
            id: TurnId(1),
            message: message.into(),
            state: state.clone(),
            today: "2026-01-13".into(),
            started_at: String::new(),
        };
        let fut = run_turn(
            self.brain.clone(),
            self.kitchen.clone(),
            self.settings.clone(),
            req,
            tx,
        );
        match self.runtime.block_on(fut) {
            TurnResult::Done { state, .. } => *state,
            TurnResult::Failed { record } => panic!("turn failed: {:?}", record.error),
        }
    }

    /// The state after `turns` turns of the script.
    fn after(&self, turns: usize) -> ContextState {
        let mut state = ContextState::new(ContextPolicy::default());
        for i in 0..turns {
            state = self.turn(state, SCRIPT[i % SCRIPT.len()]);
        }
        state
    }
}

#[divan::bench(args = [10, 500], sample_count = 30)]
fn one_offline_turn_at(bencher: Bencher, turns: usize) {
    let world = World::new();
    let state = world.after(turns);
    // A read-only turn, so the kitchen is the same for every sample.
    bencher.bench_local(|| world.turn(state.clone(), "let's not do cod this week"));
}
