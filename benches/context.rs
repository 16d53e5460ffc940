//! Context assembly and prompt building, the pure work at the start of every
//! turn: the snapshot of the three layers (`snapshot_at`), and the Think and
//! Understand prompts built from it, token counting included.
//!
//! Two axes. Turns: the synthetic kitchen conversation of `session::sample`
//! at 10, 100 and 1,000 turns, seen as the next turn begins. Entities: a
//! registry of 100 or 10,000 rows read over 500 turns (one in 100 retained,
//! one in 7 demoted), with no conversation, so only the registry grows.
//! Building the state is outside every timing; the tokenizer is loaded first.
//!
//! `cargo bench --bench context`

use alfred::context::registry::RetainedBy;
use alfred::context::{
    AnnotatedTurn, ContextPolicy, ContextSnapshot, ContextState, RefAction, Table, snapshot_at,
};
use alfred::kitchen::Kitchen;
use alfred::pipeline::SystemPrompts;
use alfred::prompt::{
    SessionContext, ThinkInput, UnderstandInput, build_think, build_understand, count_tokens,
};
use alfred::session::sample::sample_session;
use divan::Bencher;

fn main() {
    // The encoder loads on first use; keep that out of the first sample.
    count_tokens("warm up the tokenizer");
    divan::main();
}

const MESSAGE: &str = "what can I cook tonight with the spinach?";

/// Turns the registry of the entity benches is spread over.
const ENTITY_TURNS: u32 = 500;

/// The context of a sample session of `turns` turns, as the next turn sees it
/// once it has begun (what Understand and Think are built from).
fn state_after(turns: u32) -> ContextState {
    let mut state = sample_session(turns, 42).context;
    state.begin_turn();
    state
}

/// A context of `entities` kitchen rows read over [`ENTITY_TURNS`] turns, at
/// the start of the next one. One row in 100 is retained, one in 7 demoted.
fn state_with_entities(entities: u32) -> ContextState {
    let tables = [Table::Inventory, Table::Recipes, Table::ShoppingList];
    let mut state = ContextState::new(ContextPolicy::default());
    for i in 0..entities {
        // Row i is read at turn 1 + i * turns / entities: spread evenly.
        let turn = 1 + i * ENTITY_TURNS / entities;
        while state.turn < turn {
            state.begin_turn();
        }
        let table = tables[i as usize % tables.len()];
        let row = format!("0000{i:04x}-7f3a-4c2e-9b1d-{:012x}", u64::from(i) * 7919);
        let label = format!("{} item {i}", table.name());
        let registry = &mut state.registry;
        let r = registry.register_row(table, &row, &label, RefAction::Read, turn);
        if i % 100 == 0 {
            registry.retain(&r, "the user's weekly plan", RetainedBy::Understand, turn);
        } else if i % 7 == 0 {
            registry.demote(&r, "the user said no", turn);
        }
    }
    state.begin_turn();
    state
}

/// The session context of the seeded sample kitchen, as the pipeline reads it.
fn session_context() -> SessionContext {
    let today = jiff::civil::date(2026, 1, 13);
    let mut kitchen = Kitchen::open_in_memory().expect("an in-memory kitchen");
    kitchen.seed_if_empty(today).expect("seed the kitchen");
    kitchen.session_context(today).expect("the session context")
}

/// Think's prompt, as the pipeline's Think node builds it.
fn think_prompt(snapshot: &ContextSnapshot, session: &SessionContext, system: &str) -> usize {
    let prompt = build_think(&ThinkInput {
        user_message: MESSAGE,
        session,
        snapshot,
        mode: "PLAN",
        max_steps: 8,
        pending_proposal: None,
        system,
    });
    prompt.counted().total_tokens
}

/// Understand's prompt, as the pipeline's Understand node builds it.
fn understand_prompt(snapshot: &ContextSnapshot, turns: &[AnnotatedTurn], system: &str) -> usize {
    let prompt = build_understand(&UnderstandInput {
        user_message: MESSAGE,
        snapshot,
        recent_turns: turns,
        pending_clarification: None,
        system,
    });
    prompt.counted().total_tokens
}

/// Assembling the snapshot (every registry entry classified, the narrative
/// and conversation windows copied).
#[divan::bench(args = [10, 100, 1000])]
fn snapshot_at_turns(bencher: Bencher, turns: u32) {
    let state = state_after(turns);
    bencher.bench_local(|| divan::black_box(snapshot_at(&state, state.turn)));
}

/// Building Think's prompt from a ready snapshot.
#[divan::bench(args = [10, 100, 1000])]
fn think_prompt_at_turns(bencher: Bencher, turns: u32) {
    let state = state_after(turns);
    let snapshot = state.snapshot();
    let session = session_context();
    let system = SystemPrompts::builtin().think;
    bencher.bench_local(|| think_prompt(&snapshot, &session, &system));
}

/// Building Understand's prompt from a ready snapshot and its annotated turns.
#[divan::bench(args = [10, 100, 1000])]
fn understand_prompt_at_turns(bencher: Bencher, turns: u32) {
    let state = state_after(turns);
    let snapshot = state.snapshot();
    let annotated: Vec<AnnotatedTurn> = state.understand_turns.iter().cloned().collect();
    let system = SystemPrompts::builtin().understand;
    bencher.bench_local(|| understand_prompt(&snapshot, &annotated, &system));
}

/// Assembling the snapshot of a large registry.
#[divan::bench(args = [100, 10_000])]
fn snapshot_with_entities(bencher: Bencher, entities: u32) {
    let state = state_with_entities(entities);
    bencher.bench_local(|| divan::black_box(snapshot_at(&state, state.turn)));
}

/// What Think's node pays before its call: the snapshot, then the prompt.
#[divan::bench(args = [100, 10_000])]
fn snapshot_and_think_with_entities(bencher: Bencher, entities: u32) {
    let state = state_with_entities(entities);
    let session = session_context();
    let system = SystemPrompts::builtin().think;
    bencher.bench_local(|| think_prompt(&state.snapshot(), &session, &system));
}

/// Building Understand's prompt (the known-entities table) from a ready
/// snapshot of a large registry. Ten samples: at 10,000 entities one build
/// takes seconds (the table's grouping compares every pair of rows).
#[divan::bench(args = [100, 10_000], sample_count = 10)]
fn understand_prompt_with_entities(bencher: Bencher, entities: u32) {
    let state = state_with_entities(entities);
    let snapshot = state.snapshot();
    let system = SystemPrompts::builtin().understand;
    bencher.bench_local(|| understand_prompt(&snapshot, &[], &system));
}
