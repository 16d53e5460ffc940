//! Every conversation under `assets/scenarios/` run through the built binary
//! (`alfred run --script FILE --json`, offline brain, fresh data dir), with the
//! `#=` expectations of each script checked against the turn records.
//! The expectation language is documented in `assets/scenarios/README.md`.

use std::path::Path;
use std::process::Command;

use alfred::scenario::{check, parse_script};
use serde_json::Value;

#[path = "support/scripts.rs"]
mod scripts;

fn run_script(path: &Path) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_alfred"))
        .env_clear()
        .env("HOME", dir.path())
        .args(["--data-dir"])
        .arg(dir.path())
        .args(["--llm", "offline", "run", "--new", "--json", "--script"])
        .arg(path)
        .output()
        .expect("run alfred");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let records: Vec<Value> = stdout
        .lines()
        .map(|l| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("{}: not a turn record ({e}): {l}", path.display()))
        })
        .collect();
    assert!(
        !records.is_empty(),
        "{}: no turn records; stderr: {stderr}",
        path.display()
    );
    records
}

#[test]
fn every_scenario_meets_its_expectations() {
    let files = scripts::script_files("assets/scenarios");
    assert!(
        files.len() >= 8,
        "expected the shipped scenarios, found {files:?}"
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &files {
        let script = std::fs::read_to_string(path).unwrap();
        let turns = parse_script(&script);
        let records = run_script(path);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if records.len() != turns.len() {
            failures.push(format!(
                "{name}: {} messages but {} turn records",
                turns.len(),
                records.len()
            ));
            continue;
        }
        for (i, (turn, rec)) in turns.iter().zip(&records).enumerate() {
            let explicit_status = turn
                .expectations
                .iter()
                .any(|e| e.text.starts_with("status"));
            if !explicit_status && rec["status"] != "ok" {
                failures.push(format!("{name} turn {}: failed: {}", i + 1, rec["error"]));
            }
            for e in &turn.expectations {
                checked += 1;
                if let Err(found) = check(rec, &e.text) {
                    failures.push(format!(
                        "{name}:{} (turn {}) `#= {}`: {found}",
                        e.line,
                        i + 1,
                        e.text
                    ));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} expectations checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} expectations failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
