//! Every conversation under `assets/scenarios/` run through the built binary
//! (`alfred run --script FILE --json`, offline brain, fresh data dir), with the
//! `#=` expectations of each script checked against the turn records.
//! The expectation language is documented in `assets/scenarios/README.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// One expectation line, with where it came from.
struct Expectation {
    line: usize,
    turn: usize,
    text: String,
}

/// Parses a script: messages and the expectations that follow each.
fn parse(script: &str) -> (usize, Vec<Expectation>) {
    let mut turn = 0;
    let mut out = Vec::new();
    for (i, raw) in script.lines().enumerate() {
        let line = raw.trim();
        if let Some(e) = line.strip_prefix("#=") {
            assert!(
                turn > 0,
                "line {}: an expectation before the first message",
                i + 1
            );
            out.push(Expectation {
                line: i + 1,
                turn,
                text: e.trim().to_string(),
            });
        } else if !line.is_empty() && !line.starts_with('#') {
            turn += 1;
        }
    }
    (turn, out)
}

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

fn lower(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_lowercase()
}

fn group<'a>(rec: &'a Value, state: &str) -> Vec<&'a Value> {
    rec["entities"][state]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

fn find_entity<'a>(rec: &'a Value, r: &str) -> Option<&'a Value> {
    ["recent", "retained", "pending", "excluded", "background"]
        .iter()
        .flat_map(|s| group(rec, s))
        .find(|e| e["ref"] == r)
}

fn in_group(rec: &Value, state: &str, r: &str) -> bool {
    if state == "dropped" {
        return rec["entities"]["dropped"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x == r));
    }
    group(rec, state).iter().any(|e| e["ref"] == r)
}

/// Checks one expectation; `Err` says what was found instead.
fn check(rec: &Value, text: &str) -> Result<(), String> {
    let (verb, rest) = text.split_once(' ').unwrap_or((text, ""));
    let rest = rest.trim();
    match verb {
        "decision" => (rec["decision"] == rest)
            .then_some(())
            .ok_or(format!("decision was {}", rec["decision"])),
        "status" => (rec["status"] == rest)
            .then_some(())
            .ok_or(format!("status was {}", rec["status"])),
        "steps" => {
            let got: Vec<String> = rec["steps"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| format!("{}:{}", lower(&s["step_type"]), lower(&s["subdomain"])))
                .collect();
            let want: Vec<String> = if rest == "none" {
                Vec::new()
            } else {
                rest.split(',').map(|s| s.trim().to_string()).collect()
            };
            (got == want)
                .then_some(())
                .ok_or(format!("steps were {got:?}"))
        }
        "no-read" => {
            let reads: Vec<String> = rec["steps"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|s| s["tool_calls"].as_array().cloned().unwrap_or_default())
                .filter(|c| c["tool"] == "db_read")
                .map(|c| lower(&c["table"]))
                .collect();
            (!reads.iter().any(|t| t == rest))
                .then_some(())
                .ok_or(format!("db_read of {rest} happened ({reads:?})"))
        }
        "recent" | "retained" | "pending" | "excluded" | "background" | "dropped" => {
            let missing: Vec<&str> = rest
                .split_whitespace()
                .filter(|r| !in_group(rec, verb, r))
                .collect();
            missing.is_empty().then_some(()).ok_or_else(|| {
                let states: Vec<String> = missing
                    .iter()
                    .map(|r| format!("{r}: {}", state_of(rec, r)))
                    .collect();
                format!("not {verb}: {}", states.join(", "))
            })
        }
        "not-active" => {
            let active: Vec<&str> = rest
                .split_whitespace()
                .filter(|r| {
                    ["recent", "retained", "pending"]
                        .iter()
                        .any(|s| in_group(rec, s, r))
                })
                .collect();
            active
                .is_empty()
                .then_some(())
                .ok_or(format!("still active: {active:?}"))
        }
        "reason" => {
            let (r, needle) = rest.split_once('~').ok_or("reason needs `REF ~ TEXT`")?;
            let e = find_entity(rec, r.trim()).ok_or(format!("{} not found", r.trim()))?;
            let reason = lower(&e["reason"]);
            reason
                .contains(&needle.trim().to_lowercase())
                .then_some(())
                .ok_or(format!("reason was {:?}", e["reason"]))
        }
        "action" => {
            let (r, action) = rest.split_once(' ').ok_or("action needs `REF ACTION`")?;
            let e = find_entity(rec, r).ok_or(format!("{r} not found"))?;
            (e["action"] == action.trim())
                .then_some(())
                .ok_or(format!("action was {}", e["action"]))
        }
        "reply" => {
            let reply = lower(&rec["reply"]);
            if let Some(n) = rest.strip_prefix("!~") {
                (!reply.contains(&n.trim().to_lowercase()))
                    .then_some(())
                    .ok_or(format!("reply contains {:?}", n.trim()))
            } else if let Some(n) = rest.strip_prefix('~') {
                reply
                    .contains(&n.trim().to_lowercase())
                    .then_some(())
                    .ok_or(format!("reply was {:?}", rec["reply"]))
            } else {
                Err("reply needs `~ TEXT` or `!~ TEXT`".into())
            }
        }
        "active-count" => {
            let (ty, n) = rest.split_once(' ').ok_or("active-count needs `TYPE N`")?;
            let n: usize = n
                .trim()
                .parse()
                .map_err(|_| "active-count needs a number")?;
            let got = ["recent", "retained", "pending"]
                .iter()
                .flat_map(|s| group(rec, s))
                .filter(|e| e["type"] == ty)
                .count();
            (got == n).then_some(()).ok_or(format!("{got} active {ty}"))
        }
        other => Err(format!("unknown expectation `{other}`")),
    }
}

fn state_of(rec: &Value, r: &str) -> String {
    [
        "recent",
        "retained",
        "pending",
        "excluded",
        "background",
        "dropped",
    ]
    .iter()
    .find(|s| in_group(rec, s, r))
    .map(|s| s.to_string())
    .unwrap_or_else(|| "unknown".into())
}

fn scenario_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_scenario_meets_its_expectations() {
    let files = scenario_files();
    assert!(
        files.len() >= 8,
        "expected the shipped scenarios, found {files:?}"
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &files {
        let script = std::fs::read_to_string(path).unwrap();
        let (turns, expectations) = parse(&script);
        let records = run_script(path);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if records.len() != turns {
            failures.push(format!(
                "{name}: {turns} messages but {} turn records",
                records.len()
            ));
            continue;
        }
        for (i, rec) in records.iter().enumerate() {
            let explicit_status = expectations
                .iter()
                .any(|e| e.turn == i + 1 && e.text.starts_with("status"));
            if !explicit_status && rec["status"] != "ok" {
                failures.push(format!("{name} turn {}: failed: {}", i + 1, rec["error"]));
            }
        }
        for e in &expectations {
            checked += 1;
            if let Err(found) = check(&records[e.turn - 1], &e.text) {
                failures.push(format!(
                    "{name}:{} (turn {}) `#= {}`: {found}",
                    e.line, e.turn, e.text
                ));
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

#[test]
fn the_expectation_parser_counts_turns() {
    let (turns, e) = parse("# comment\nhello\n#= decision propose\n\nno cod\n#= steps none\n");
    assert_eq!(turns, 2);
    assert_eq!((e[0].turn, e[1].turn, e[1].line), (1, 2, 6));
    let rec: Value = serde_json::json!({"decision": "propose", "steps": [], "reply": "Got it",
        "entities": {"recent": [{"ref": "recipe_3", "type": "recipe", "action": "read"}], "excluded": [{"ref": "recipe_5", "reason": "user said no french toast"}], "dropped": []}});
    assert!(check(&rec, "decision propose").is_ok());
    assert!(check(&rec, "decision clarify").is_err());
    assert!(check(&rec, "steps none").is_ok());
    assert!(check(&rec, "reason recipe_5 ~ French Toast").is_ok());
    assert!(check(&rec, "reason recipe_5 ~ wings").is_err());
    assert!(check(&rec, "excluded recipe_5").is_ok());
    assert!(check(&rec, "recent recipe_5").is_err());
    assert!(check(&rec, "not-active recipe_5").is_ok());
    assert!(check(&rec, "active-count recipe 1").is_ok());
    assert!(check(&rec, "reply !~ hello").is_ok());
    assert!(check(&rec, "frobnicate x").is_err());
}
