//! The same conversation on both kitchen stores: the seeded demo script run
//! by the real binary on `kitchen.db` and on a Postgres database with
//! Alfred's schema (`--store … --user …`, after `kitchen init`) gives the
//! same turn records — refs, entity states, steps, prompts and replies —
//! once the clock's marks (timings, start times, row stamps) are set aside.

#[path = "support/pg_cluster.rs"]
mod pg_cluster;
#[path = "support/sandbox.rs"]
mod sandbox;

use std::path::Path;

use sandbox::{Sandbox, stderr, stdout};
use serde_json::Value;

const USER: &str = "0b7e4c52-93a1-4f6d-8c2e-5a1b9d3f7e60";

/// The turn records a run printed (`--json`: one per line).
fn records(out: &std::process::Output) -> Vec<Value> {
    assert!(out.status.success(), "the run failed: {}", stderr(out));
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The record without what the clock decides: durations, start times and
/// the stamps rows were created at.
fn timeless(mut v: Value) -> Value {
    if let Value::Object(m) = &mut v {
        m.remove("timings_ms");
        m.remove("started_at");
    }
    let text = serde_json::to_string(&v).expect("json");
    let stamp = regex_lite_stamp(&text);
    serde_json::from_str(&stamp).expect("json")
}

/// Replaces every `2026-01-14T10:00:00.123456Z`-shaped stamp with `<stamp>`.
fn regex_lite_stamp(text: &str) -> String {
    let b = text.as_bytes();
    let shape = b"dddd-dd-ddTdd:dd:dd.ddddddZ";
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let fits = b.len() - i >= shape.len()
            && shape.iter().zip(&b[i..]).all(|(s, c)| match s {
                b'd' => c.is_ascii_digit(),
                other => other == c,
            });
        if fits {
            out.push_str("<stamp>");
            i += shape.len();
        } else {
            let ch = text[i..].chars().next().expect("a char");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The first place two values differ, as a path.
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys()) {
                let (p, q) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                if let Some(d) = first_difference(p, q, &format!("{path}.{k}")) {
                    return Some(d);
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, &format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => Some(format!("{path}: {a} ≠ {b}")),
    }
}

fn script() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/demo/meal-planning.txt")
        .display()
        .to_string()
}

#[test]
fn the_demo_conversation_gives_the_same_turn_records_on_sqlite_and_postgres() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    let script = script();
    let run = ["run", "--script", script.as_str(), "--json"];

    let sqlite = Sandbox::new();
    let on_sqlite = records(&sqlite.run(&run));

    let pg = Sandbox::new();
    let store = ["--store", url.as_str(), "--user", USER];
    let init = pg.run(&[&store[..], &["kitchen", "init"]].concat());
    assert!(init.status.success(), "kitchen init: {}", stderr(&init));
    assert!(
        stdout(&init).contains("Seeded the sample kitchen"),
        "{}",
        stdout(&init)
    );
    let on_postgres = records(&pg.run(&[&store[..], &run[..]].concat()));

    assert_eq!(on_sqlite.len(), 8, "one record per message of the script");
    let remembered = |r: &Value| r["entities"]["recent"].as_array().map_or(0, Vec::len);
    assert!(
        on_sqlite.iter().map(remembered).sum::<usize>() > 10,
        "the conversation remembers entities, so comparing them means something"
    );
    assert_eq!(on_postgres.len(), on_sqlite.len());
    for (i, (a, b)) in on_sqlite.into_iter().zip(on_postgres).enumerate() {
        // The parts a reader compares first, then everything else.
        for key in ["user", "reply", "decision", "entities", "steps"] {
            assert_eq!(a[key], b[key], "turn {}: {key} differs", i + 1);
        }
        let (a, b) = (timeless(a), timeless(b));
        if let Some(d) = first_difference(&a, &b, "") {
            panic!("turn {}: the records differ at {d}", i + 1);
        }
    }
}
