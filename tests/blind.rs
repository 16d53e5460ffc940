//! Blind sets: conversations written by someone who never read the offline
//! brain's code, its corpus or an earlier blind set, frozen (checksums)
//! before any run, each turn with its expectation in words (`#?`).
//!
//! A set is used once to measure the brain (`DEVELOPERS.md`, "Blind sets"):
//!
//! ```sh
//! ALFRED_BLIND_DIR=/path/to/set cargo test --release --test blind -- --ignored --nocapture
//! ```
//!
//! writes `target/blind/<set>.md`, a transcript to grade turn by turn
//! (U understood and did it, Q a fair specific question, M misread with
//! nothing written, W a wrong or unasked write, X an asked-for change not
//! made). Then the set moves under `tests/blind/` with `#=` checks written
//! from its expectations, and stays as regression: every used set must meet
//! its floor (95%, the goal, or the last measured rate while below it).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[path = "support/conversations.rs"]
mod conversations;
#[path = "support/scripts.rs"]
mod scripts;
#[path = "support/turns.rs"]
mod turns;

use conversations::Outcome;

/// The share of a used blind set's turns that must meet their checks: the
/// goal.
const FLOOR: f64 = 0.95;

/// Sets still below the goal, with the floor each is held to: its last
/// measured rate, raised as the brain improves (set-a: 65 of 139 after
/// 3370a05, 62 at b682629, 61 at 4e31e34, 53 at 6a3c5cb before the changes
/// its grading led to; set-b: 62 of 147 after 3370a05, 59 at its first run,
/// b682629; set-c: 72 of 172 at its first run, 3370a05 with the topic fix
/// that followed it; set-e: 76 of 203 at its first run, 9cc7cfa; all five
/// raised to the rates measured at the commit that added this line: A 69,
/// B 66, C 81, D 86, E 82; set-f: 70 of 205 at its first run, 2344846;
/// set-h: graded 25.2% U+Q at its first run, 047c5e5, its checks 57 of 163
/// (34.97%) after that session's fixes; set-b held at 0.44 after a knock-on from
/// the plain-plan rule lost one turn of conversation 09; set-i: graded 36.2%
/// U+Q at its first run, a064cdc, the closed-world reader beside the old
/// chain (issue 48), its checks 53 of 138 (38.4%) after that session's last
/// change). Reset once, as issue 48 allows, to the rates at the commit that
/// made every change the reader did not read a question first (A 66, B 64,
/// C 77, D 73, E 81, F 67, G 78, H 48, I 44): a check that expects a write
/// the older rules made in one turn now meets a question; wrong writes
/// among the checks fell from 55 to 3 (`BENCHMARKS.md`).
const MEASURED: &[(&str, f64)] = &[
    ("set-a", 0.47),
    ("set-b", 0.43),
    ("set-c", 0.44),
    ("set-d", 0.36),
    ("set-e", 0.39),
    ("set-f", 0.32),
    ("set-g", 0.38),
    ("set-h", 0.29),
    ("set-i", 0.31),
];

/// The floor of a set folder.
fn floor_of(set: &Path) -> f64 {
    let name = set.file_name().map(|n| n.to_string_lossy().to_string());
    MEASURED
        .iter()
        .find(|(s, _)| name.as_deref() == Some(*s))
        .map_or(FLOOR, |(_, f)| *f)
}

/// One turn as a grader reads it.
/// Which part of the offline brain settled the turn, from the reading
/// Understand carried: the reader carried it out, the reader asked, the
/// message was declined, or the older rules read it. Empty for others.
fn path_of(record: &serde_json::Value) -> &'static str {
    // This turn's Understand answer only (the prompts hold earlier turns).
    let text = record["prompts"]["understand"]["response"].to_string();
    if text.contains(r#"\"by_reader\":true"#) {
        "reader"
    } else if text.contains("asked before acting") {
        "reader asks"
    } else if text.contains(r#"\"declined\":{"#) {
        "declined"
    } else if text.contains(r#"\"reading\":{"#) {
        "older rules"
    } else {
        "-"
    }
}

/// The older rules' reading of this turn, named by its outermost kinds
/// ("Skill Stock HowMuch"), for grading by what was read.
fn older_intent(record: &serde_json::Value) -> String {
    let Some(text) = record["prompts"]["understand"]["response"].as_str() else {
        return String::new();
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return String::new();
    };
    v["reading"]["intent"]
        .to_string()
        .chars()
        .take(120)
        .collect()
}

fn transcript_turn(o: &Outcome, out: &mut String) {
    let _ = writeln!(out, "### {} · turn {}\n", o.file, o.turn);
    let _ = writeln!(out, "> {}\n", o.message);
    if let Some(e) = &o.expected {
        let _ = writeln!(out, "expected: {e}\n");
    }
    let _ = writeln!(out, "status: {}\n", o.status);
    let path = path_of(&o.record);
    if path == "older rules" {
        let _ = writeln!(out, "path: {path}\nintent: {}\n", older_intent(&o.record));
    } else {
        let _ = writeln!(out, "path: {path}\n");
    }
    for line in o.reader_log.lines() {
        let _ = writeln!(out, "reader: {line}");
    }
    if !o.reader_log.is_empty() {
        let _ = writeln!(out);
    }
    for line in o.reply.lines() {
        let _ = writeln!(out, "    {line}");
    }
    let _ = writeln!(out);
    if o.changes.is_empty() {
        let _ = writeln!(out, "kitchen: unchanged");
    } else {
        let _ = writeln!(out, "kitchen:");
        for c in &o.changes {
            let _ = writeln!(out, "  {c}");
        }
    }
    for c in &o.constraints {
        let _ = writeln!(out, "constraint: {c}");
    }
    let _ = writeln!(out);
}

#[test]
fn every_used_blind_set_meets_the_floor() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/blind");
    let mut sets: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    sets.retain(|p| p.is_dir());
    sets.sort();
    let rt = conversations::runtime();
    let mut low = Vec::new();
    for set in &sets {
        let outcomes: Vec<Outcome> = scripts::txt_files(set)
            .iter()
            .flat_map(|p| conversations::run(p, &rt))
            .collect();
        let unchecked: Vec<String> = outcomes
            .iter()
            .filter(|o| o.cap == "(none)")
            .map(|o| format!("{} turn {}", o.file, o.turn))
            .collect();
        assert!(
            unchecked.is_empty(),
            "every turn of a used set needs its `#= cap` and checks: {unchecked:?}"
        );
        for o in outcomes.iter().filter(|o| !o.met()) {
            println!(
                "✗ {} turn {} {:?}\n    {}",
                o.file,
                o.turn,
                o.message,
                o.failures.join("\n    ")
            );
        }
        let met = outcomes.iter().filter(|o| o.met()).count();
        let rate = met as f64 / outcomes.len().max(1) as f64;
        println!(
            "{}: {met} of {} ({:.1}%)\n{}",
            set.display(),
            outcomes.len(),
            rate * 100.0,
            conversations::report(&outcomes)
        );
        let floor = floor_of(set);
        if rate < floor {
            low.push(format!(
                "{}: {:.1}%, floor {:.0}%",
                set.display(),
                rate * 100.0,
                floor * 100.0
            ));
        }
    }
    assert!(!sets.is_empty(), "no used blind set under tests/blind");
    assert!(low.is_empty(), "below the floor: {low:?}");
}

/// Runs the set in `ALFRED_BLIND_DIR` and writes its transcript for
/// grading.
#[test]
#[ignore = "measures an unseen blind set: set ALFRED_BLIND_DIR"]
fn transcript_of_an_unseen_set() {
    let dir = PathBuf::from(std::env::var("ALFRED_BLIND_DIR").expect("set ALFRED_BLIND_DIR"));
    let name = dir
        .file_name()
        .map_or("set".into(), |n| n.to_string_lossy().to_string());
    let rt = conversations::runtime();
    if std::env::var_os("ALFRED_BLIND_READER_LOG").is_some() {
        conversations::capture_reader_log();
    }
    let mut text = format!("# Blind set {name}: transcript\n\n");
    let mut turns = 0;
    for file in scripts::txt_files(&dir) {
        for o in conversations::run(&file, &rt) {
            transcript_turn(&o, &mut text);
            turns += 1;
        }
    }
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/blind");
    std::fs::create_dir_all(&out).unwrap();
    let path = out.join(format!("{name}.md"));
    std::fs::write(&path, text).unwrap();
    println!("{turns} turns → {}", path.display());
    assert!(turns > 0, "no conversations in {}", dir.display());
}

/// Writes the seeded kitchen of every run (today 2026-01-13) to
/// `target/blind/kitchen.db`, for a blind set's writer to read.
#[test]
#[ignore = "writes the seeded kitchen for a blind set's writer"]
fn seeded_kitchen_for_writers() {
    let (_dir, kitchen) = turns::kitchen();
    drop(kitchen);
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/blind");
    std::fs::create_dir_all(&out).unwrap();
    let path = out.join("kitchen.db");
    let _ = std::fs::remove_file(&path);
    let conn = rusqlite::Connection::open(_dir.path().join("kitchen.db")).unwrap();
    conn.execute("vacuum into ?1", [path.to_string_lossy()])
        .unwrap();
    let tables: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("select count(*) from inventory", [], |r| r.get(0))
        .unwrap();
    assert!(tables > 0, "the copy holds no inventory");
    println!("{}", path.display());
}
