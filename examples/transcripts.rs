//! Prints transcripts for review: every scenario script in
//! `assets/scenarios/` (or the files given), and two free-form
//! conversations, run through the real pipeline with the offline brain on
//! the seeded sample kitchen. Each turn shows the decision, the steps, the
//! entity states with their reasons, and the reply.
//!
//! `cargo run --example transcripts [free-form | FILE...]`

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use alfred::context::ContextState;
use alfred::fixtures::{fresh, offline_brain, request, run_request, seeded_kitchen};
use alfred::kitchen::Kitchen;
use alfred::pipeline::TurnResult;
use alfred::record::TurnRecord;
use alfred::scenario::parse_script;

#[path = "../tests/support/scripts.rs"]
mod scripts;

const FREE_FORM: [&[&str]; 2] = [
    &[
        "hey alfred",
        "what can you do?",
        "do I have any eggs?",
        "what recipes do I have?",
        "which ones use coconut milk?",
        "show me the pad see ew",
        "what can I make with what I have?",
        "add lentils to my shopping list",
        "we're out of milk",
        "i bought 2 cans of chickpeas",
        "give me something with chickpeas",
        "make it for 4 people",
        "swap the chickpeas for paneer",
        "make it spicier",
        "save it",
        "what did I just add?",
        "plan dinner for tonight: the yellow curry",
        "save the plan",
        "add the missing ingredients to my shopping list",
        "what's on my shopping list?",
        "no thanks",
        "whats for dinner on sunday?",
    ],
    &[
        "help me plan dinners this week",
        "something new",
        "save both",
        "put the first one on sunday",
        "and the fajitas on wednesday",
        "actually make wednesday the pad see ew",
        "what's the plan?",
        "remove the milk from my fridge",
        "what's in the freezer",
        "delete the fajitas",
        "what isn't saved?",
        "show me the first one",
        "I'm not a fan of thai food",
        "what's left?",
        "ok let's start over",
        "what did I just add?",
    ],
];

/// One conversation on a fresh kitchen and context; a failed turn is
/// printed with its error and the conversation goes on without it.
struct Conversation {
    runtime: tokio::runtime::Runtime,
    kitchen: Arc<Mutex<Kitchen>>,
    state: ContextState,
    next: u64,
}

impl Conversation {
    fn new() -> Self {
        Self {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime"),
            kitchen: seeded_kitchen(),
            state: fresh(),
            next: 1,
        }
    }

    fn say(&mut self, message: &str) -> TurnRecord {
        let req = request(self.next, self.state.clone(), message);
        self.next += 1;
        let turn = run_request(offline_brain(), self.kitchen.clone(), req);
        match self.runtime.block_on(turn).0 {
            TurnResult::Done { record, state } => {
                self.state = *state;
                *record
            }
            TurnResult::Failed { record } => *record,
        }
    }
}

fn print_turn(message: &str, rec: &TurnRecord) {
    let steps: Vec<String> = rec
        .steps
        .iter()
        .map(|s| format!("{}:{} [{}]", s.step_type, s.subdomain, s.outcome))
        .collect();
    println!(
        "\n> {message}\n  decision: {:?} steps: {steps:?}",
        rec.decision
    );
    let e = &rec.entities;
    let refs = |v: &[alfred::context::EntityView]| -> Vec<String> {
        v.iter().map(|e| e.r#ref.clone()).collect()
    };
    let why = |v: &[alfred::context::EntityView]| -> Vec<String> {
        v.iter()
            .map(|e| format!("{} ({})", e.r#ref, e.reason.clone().unwrap_or_default()))
            .collect()
    };
    println!("  recent: {:?}", refs(&e.recent));
    println!("  retained: {:?}", why(&e.retained));
    println!(
        "  pending: {:?} excluded: {:?} dropped: {:?}",
        refs(&e.pending),
        why(&e.excluded),
        e.dropped
    );
    if let Some(error) = &rec.error {
        println!("  failed: {error}");
    }
    println!("{}", rec.reply);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "free-form") {
        for conversation in FREE_FORM {
            let mut c = Conversation::new();
            println!("\n=====");
            for m in conversation {
                let rec = c.say(m);
                print_turn(m, &rec);
            }
        }
        return;
    }
    let files: Vec<PathBuf> = if args.is_empty() {
        scripts::script_files("assets/scenarios")
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    for f in files {
        let script = std::fs::read_to_string(&f).expect("script");
        let mut c = Conversation::new();
        println!("\n===== {}", f.display());
        for turn in parse_script(&script) {
            let rec = c.say(&turn.message);
            print_turn(&turn.message, &rec);
        }
    }
}
