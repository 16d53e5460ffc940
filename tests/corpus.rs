//! The free-typed corpus: conversations under `tests/corpus/`, written the
//! way people type (typos, pronouns, ordinals, "actually nvm", mixed
//! topics), each turn with its expected outcome. Every conversation runs
//! through the real pipeline with the offline brain on a fresh seeded
//! kitchen (today is Tuesday 2026-01-13); a turn meets its outcome when its
//! status is ok and every `#=` expectation holds.
//!
//! The test prints the pass rate by capability (run it with
//! `cargo test --release --test corpus -- --nocapture`) and fails below the
//! floor, the last measured rate. The corpus is what the brain was tuned
//! on: blind sets (`tests/blind.rs`, `DEVELOPERS.md`) measure how well it
//! understands. The format is in
//! `tests/corpus/README.md`.

#[path = "support/conversations.rs"]
mod conversations;
#[path = "support/scripts.rs"]
mod scripts;
#[path = "support/turns.rs"]
mod turns;

use conversations::Outcome;

/// The share of turns that must meet their expected outcome: the last
/// measured rate, raised when the rate goes up. Reset once (issue 48) from
/// 97% to 324 of 440 (73.6%) when every change the reader did not read
/// became a question first: the corpus was written for the older rules'
/// one-turn writes.
const FLOOR: f64 = 0.73;
/// The least the corpus must hold.
const MIN_TURNS: usize = 200;
const MIN_CONVERSATIONS: usize = 30;

#[test]
fn the_offline_brain_meets_the_free_typed_corpus() {
    let files = scripts::script_files("tests/corpus");
    let rt = conversations::runtime();
    let outcomes: Vec<Outcome> = files
        .iter()
        .flat_map(|p| conversations::run(p, &rt))
        .collect();
    let unlabelled: Vec<String> = outcomes
        .iter()
        .filter(|o| o.cap == "(none)")
        .map(|o| format!("{} turn {}", o.file, o.turn))
        .collect();
    assert!(
        unlabelled.is_empty(),
        "turns without `#= cap`: {unlabelled:?}"
    );
    for o in outcomes.iter().filter(|o| !o.met()) {
        println!(
            "✗ {} turn {} [{}] {:?}\n    {}\n    reply: {:?}",
            o.file,
            o.turn,
            o.cap,
            o.message,
            o.failures.join("\n    "),
            o.reply.chars().take(240).collect::<String>()
        );
    }
    let table = conversations::report(&outcomes);
    println!("\n{table}");
    assert!(
        files.len() >= MIN_CONVERSATIONS && outcomes.len() >= MIN_TURNS,
        "the corpus holds {} conversations and {} turns",
        files.len(),
        outcomes.len()
    );
    let met = outcomes.iter().filter(|o| o.met()).count();
    let rate = met as f64 / outcomes.len() as f64;
    assert!(
        rate >= FLOOR,
        "{met} of {} turns met their outcome ({:.1}%), below the floor of {:.0}%\n{table}",
        outcomes.len(),
        rate * 100.0,
        FLOOR * 100.0
    );
}
