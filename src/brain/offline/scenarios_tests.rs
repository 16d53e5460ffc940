//! The shipped scenario scripts (`assets/scenarios/*.txt`) and the demo
//! script, run through the real pipeline in-process with the offline brain,
//! every `#=` expectation checked.

use std::path::{Path, PathBuf};

use crate::fixtures::Conversation;
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
    let mut sim = Conversation::new();
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
    let mut sim = Conversation::new();
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
