//! The offline pipeline per turn, excluding any model: one turn run at turn
//! 10 and at turn 500 of a long conversation (the session state, windows and
//! registry as they stand then).
//!
//! `cargo bench --bench pipeline`

use alfred::fixtures::Conversation;
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

/// A conversation on a seeded kitchen file after `turns` turns of the script.
fn after(turns: usize) -> Conversation {
    let mut talk = Conversation::on_disk();
    for i in 0..turns {
        talk.say(SCRIPT[i % SCRIPT.len()]);
    }
    talk
}

#[divan::bench(args = [10, 500], sample_count = 30)]
fn one_offline_turn_at(bencher: Bencher, turns: usize) {
    let talk = after(turns);
    // A read-only turn, so the kitchen is the same for every sample.
    bencher.bench_local(|| talk.turn_on(1, talk.state.clone(), "let's not do cod this week"));
}
