//! The shipped scenario scripts (`assets/scenarios/*.txt`) and the demo
//! script, run through the real pipeline in-process with the offline brain,
//! every `#=` expectation checked.

use std::path::{Path, PathBuf};

use super::tests_harness::Sim;
use crate::scenario::{check, parse_script};

fn scenario_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("assets/scenarios")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

/// Runs one script; returns the failed expectations.
fn run_file(path: &Path) -> (usize, Vec<String>) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let script = std::fs::read_to_string(path).expect("script");
    let mut sim = Sim::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (turn, script_turn) in parse_script(&script).iter().enumerate() {
        sim.say(&script_turn.message);
        let rec = sim.json();
        for e in &script_turn.expectations {
            let (line, e) = (e.line, &e.text);
            checked += 1;
            if let Err(found) = check(&rec, e) {
                failures.push(format!(
                    "{name}:{line} (turn {}) `#= {e}`: {found}\n    reply: {:?}",
                    turn + 1,
                    sim.reply()
                ));
            }
        }
    }
    (checked, failures)
}

#[test]
fn every_scenario_meets_its_expectations() {
    let files = scenario_files();
    assert!(files.len() >= 10, "{files:?}");
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in &files {
        let (n, mut fails) = run_file(f);
        checked += n;
        failures.append(&mut fails);
    }
    assert!(checked > 100, "only {checked} expectations");
    assert!(
        failures.is_empty(),
        "{} of {checked} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_demo_script_runs_without_repeating_itself() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/meal-planning.txt");
    let script = std::fs::read_to_string(path).expect("demo script");
    let turns = parse_script(&script);
    assert!((6..=10).contains(&turns.len()), "{} turns", turns.len());
    let mut sim = Sim::new();
    let mut replies: Vec<String> = Vec::new();
    for turn in &turns {
        let reply = sim.say(&turn.message).reply.clone();
        assert!(!replies.contains(&reply), "repeated reply: {reply}");
        if replies.len() > 1 {
            let lower = reply.to_lowercase();
            assert!(
                !lower.contains("hello") && !lower.contains("happy to help"),
                "{reply}"
            );
        }
        replies.push(reply);
    }
    // The detour did not lose the options: turn 6 recaps them without a read.
    let back = &sim.records[5];
    assert!(
        back.steps.iter().all(|s| s.step_type != "read"),
        "{:?}",
        back.steps
    );
    assert!(
        back.reply.contains("Air Fryer Paneer Tikka"),
        "{}",
        back.reply
    );
    assert_eq!(sim.last().status, crate::record::TurnStatus::Ok);
}

/// Prints every scenario's transcript (run with `--ignored --nocapture`).
#[test]
#[ignore = "prints transcripts for review"]
fn print_transcripts() {
    for f in scenario_files() {
        let script = std::fs::read_to_string(&f).expect("script");
        let mut sim = Sim::new();
        println!("\n===== {}", f.display());
        for turn in parse_script(&script) {
            let message = turn.message;
            let rec = sim.say(&message).clone();
            let steps: Vec<String> = rec
                .steps
                .iter()
                .map(|s| format!("{}:{} [{}]", s.step_type, s.subdomain, s.outcome))
                .collect();
            println!(
                "\n> {message}\n  decision: {:?} steps: {steps:?}",
                rec.decision
            );
            println!(
                "  recent: {:?}",
                rec.entities
                    .recent
                    .iter()
                    .map(|e| e.r#ref.clone())
                    .collect::<Vec<_>>()
            );
            println!(
                "  retained: {:?}",
                rec.entities
                    .retained
                    .iter()
                    .map(|e| format!("{} ({})", e.r#ref, e.reason.clone().unwrap_or_default()))
                    .collect::<Vec<_>>()
            );
            println!(
                "  pending: {:?} excluded: {:?} dropped: {:?}",
                rec.entities
                    .pending
                    .iter()
                    .map(|e| e.r#ref.clone())
                    .collect::<Vec<_>>(),
                rec.entities
                    .excluded
                    .iter()
                    .map(|e| format!("{} ({})", e.r#ref, e.reason.clone().unwrap_or_default()))
                    .collect::<Vec<_>>(),
                rec.entities.dropped
            );
            println!("{}", rec.reply);
        }
    }
}

/// Prints a free-form conversation (run with `--ignored --nocapture`).
#[test]
#[ignore = "prints a free-form conversation for review"]
fn print_free_form() {
    let first: &[&str] = &[
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
    ];
    let other: &[&str] = &[
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
    ];
    for conversation in [first, other] {
        let mut sim = Sim::new();
        println!("\n=====");
        for m in conversation {
            let rec = sim.say(m).clone();
            let steps: Vec<String> = rec
                .steps
                .iter()
                .map(|s| format!("{}:{}", s.step_type, s.subdomain))
                .collect();
            println!("\n> {m}\n  {:?} {steps:?}\n{}", rec.decision, rec.reply);
        }
    }
}
