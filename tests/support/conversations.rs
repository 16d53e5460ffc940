//! Shared by the corpus and blind-set tests: one conversation file run
//! through the real pipeline with the offline brain on a fresh seeded
//! kitchen (today is Tuesday 2026-01-13), each turn checked against its
//! `#=` expectations, with what the turn changed in the kitchen read back
//! from `kitchen.db` itself.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use alfred::fixtures::offline_brain;
use alfred::pipeline::TurnResult;
use alfred::scenario::{ScriptTurn, check, parse_script};
use serde_json::Value;

use super::turns;

/// The tables a turn can write, as the diff reads them.
const TABLES: [&str; 6] = [
    "inventory",
    "shopping_list",
    "meal_plans",
    "tasks",
    "recipes",
    "recipe_ingredients",
];

/// What one turn of a conversation did against what was expected.
pub struct Outcome {
    pub file: String,
    pub turn: usize,
    pub cap: String,
    pub message: String,
    /// The blind set's expectation in words (`#?`), when the file has one.
    pub expected: Option<String>,
    pub failures: Vec<String>,
    pub status: String,
    pub reply: String,
    /// Rows the turn added (`+`), removed (`-`) or changed (`~`), per table.
    pub changes: Vec<String>,
    /// Standing constraints the turn added or lifted, as the record says.
    pub constraints: Vec<String>,
    pub record: Value,
    /// What the reader logged for the turn (its readings and its move),
    /// when [`capture_reader_log`] was called; empty otherwise.
    pub reader_log: String,
}

/// The reader's debug lines since the last turn took them.
static READER_LOG: Mutex<String> = Mutex::new(String::new());

struct LogWriter;

impl std::io::Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut log) = READER_LOG.lock() {
            log.push_str(&String::from_utf8_lossy(buf));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// From now on each outcome carries the reader's readings and move for
/// its turn (for a developer reading why a turn went as it did).
pub fn capture_reader_log() {
    let _ = tracing_subscriber::fmt()
        .with_writer(|| LogWriter)
        .with_env_filter(tracing_subscriber::EnvFilter::new(
            "alfred::brain::offline::understand=debug,alfred::brain::offline::reader=debug",
        ))
        .with_ansi(false)
        .without_time()
        .with_target(false)
        .with_level(false)
        .try_init();
}

fn take_reader_log() -> String {
    READER_LOG
        .lock()
        .map(|mut log| std::mem::take(&mut *log))
        .unwrap_or_default()
}

impl Outcome {
    pub fn met(&self) -> bool {
        self.failures.is_empty()
    }
}

/// The first column of the first row of `sql`, as text ("null" for NULL,
/// "none" when no row came back).
pub fn query(db: &Path, sql: &str) -> Result<String, String> {
    let conn = rusqlite::Connection::open(db).map_err(|e| e.to_string())?;
    let mut stmt = conn.prepare(sql).map_err(|e| format!("{sql}: {e}"))?;
    let mut rows = stmt.query([]).map_err(|e| e.to_string())?;
    let Some(row) = rows.next().map_err(|e| e.to_string())? else {
        return Ok("none".into());
    };
    let v: rusqlite::types::Value = row.get(0).map_err(|e| e.to_string())?;
    Ok(text(v))
}

fn text(v: rusqlite::types::Value) -> String {
    match v {
        rusqlite::types::Value::Null => "null".into(),
        rusqlite::types::Value::Integer(i) => i.to_string(),
        rusqlite::types::Value::Real(f) => f.to_string(),
        rusqlite::types::Value::Text(t) => t,
        rusqlite::types::Value::Blob(_) => "blob".into(),
    }
}

/// Checks `db SQL => VALUE` against the kitchen after the turn.
fn check_db(db: &Path, rest: &str) -> Result<(), String> {
    let (sql, want) = rest.rsplit_once("=>").ok_or("db needs `SQL => VALUE`")?;
    let got = query(db, sql.trim())?;
    (got.eq_ignore_ascii_case(want.trim()))
        .then_some(())
        .ok_or(format!("`{}` gave {got}", sql.trim()))
}

/// Every row of the tables a turn can write, keyed by table and id, as
/// `column=value` text without ids and timestamps.
fn rows(db: &Path) -> BTreeMap<(String, String), String> {
    let conn = rusqlite::Connection::open(db).expect("open kitchen.db");
    let mut out = BTreeMap::new();
    for table in TABLES {
        let mut stmt = conn
            .prepare(&format!("select * from {table}"))
            .expect("select");
        let names: Vec<String> = stmt.column_names().map(|s| s.to_string()).collect();
        let mut q = stmt.query([]).expect("query");
        while let Some(row) = q.next().expect("row") {
            let mut id = String::new();
            let mut cols = Vec::new();
            for (i, name) in names.iter().enumerate() {
                let v = text(row.get(i).expect("value"));
                if name == "id" {
                    id = v;
                } else if !name.ends_with("_at") && name != "user_id" && v != "null" {
                    cols.push(format!("{name}={v}"));
                }
            }
            out.insert((table.to_string(), id), cols.join(" "));
        }
    }
    out
}

/// The rows added, removed or changed between two reads of the kitchen.
fn diff(
    before: &BTreeMap<(String, String), String>,
    after: &BTreeMap<(String, String), String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (key, row) in after {
        match before.get(key) {
            None => out.push(format!("+ {}: {row}", key.0)),
            Some(old) if old != row => out.push(format!("~ {}: {old}  →  {row}", key.0)),
            _ => {}
        }
    }
    for (key, row) in before {
        if !after.contains_key(key) {
            out.push(format!("- {}: {row}", key.0));
        }
    }
    out
}

fn capability(turn: &ScriptTurn) -> Option<String> {
    turn.cap.clone()
}

/// The `#?` line written under each message, in message order.
fn expectations_in_words(script: &str) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = Vec::new();
    for raw in script.lines() {
        let line = raw.trim();
        if let Some(e) = line.strip_prefix("#?") {
            if let Some(last) = out.last_mut() {
                *last = Some(e.trim().to_string());
            }
        } else if !line.is_empty() && !line.starts_with('#') {
            out.push(None);
        }
    }
    out
}

/// Constraint changes of a turn, from its record.
fn constraint_changes(record: &Value) -> Vec<String> {
    let Some(all) = record["constraints"].as_array() else {
        return Vec::new();
    };
    let turn = record["turn"].as_u64();
    all.iter()
        .filter_map(|c| {
            let label = c["label"].as_str().unwrap_or("?");
            if c["since_turn"].as_u64() == turn {
                Some(format!(
                    "added {label} (“{}”)",
                    c["clause"].as_str().unwrap_or("")
                ))
            } else {
                c["lifted_by"]
                    .as_str()
                    .map(|by| format!("lifted {label} ({by})"))
            }
        })
        .collect()
}

/// Runs one conversation; one outcome per turn.
pub fn run(path: &Path, rt: &tokio::runtime::Runtime) -> Vec<Outcome> {
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    let script = std::fs::read_to_string(path).unwrap();
    let words = expectations_in_words(&script);
    let (dir, kitchen) = turns::kitchen();
    let db = dir.path().join("kitchen.db");
    let brain = offline_brain();
    let mut state = turns::fresh();
    let mut out = Vec::new();
    for (i, turn) in parse_script(&script).iter().enumerate() {
        let before = rows(&db);
        let req = turns::request(i as u64 + 1, state.clone(), &turn.message);
        let (result, _) = rt.block_on(turns::run_request(brain.clone(), kitchen.clone(), req));
        let (record, failed) = match result {
            TurnResult::Done {
                record,
                state: next,
            } => {
                state = *next;
                (record, None)
            }
            TurnResult::Failed { record } => {
                let why = record.error.clone().unwrap_or_default();
                (record, Some(why))
            }
        };
        let json: Value = serde_json::to_value(&*record).unwrap();
        let mut failures: Vec<String> = failed
            .map(|why| format!("turn failed: {why}"))
            .into_iter()
            .collect();
        for e in &turn.expectations {
            let result = match e.text.strip_prefix("db ") {
                Some(rest) => check_db(&db, rest),
                None => check(&json, &e.text),
            };
            if let Err(why) = result {
                failures.push(format!("line {}: `{}`: {why}", e.line, e.text));
            }
        }
        out.push(Outcome {
            file: file.clone(),
            turn: i + 1,
            cap: capability(turn).unwrap_or_else(|| "(none)".into()),
            message: turn.message.clone(),
            expected: words.get(i).cloned().flatten(),
            failures,
            status: json["status"].as_str().unwrap_or("?").to_string(),
            reply: record.reply.clone(),
            changes: diff(&before, &rows(&db)),
            constraints: constraint_changes(&json),
            record: json,
            reader_log: take_reader_log(),
        });
    }
    out
}

/// Pass rate by capability, as a markdown table.
pub fn report(outcomes: &[Outcome]) -> String {
    let mut by_cap: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for o in outcomes {
        let e = by_cap.entry(&o.cap).or_default();
        e.0 += 1;
        e.1 += usize::from(o.met());
    }
    let mut text = String::from("| capability | turns | met | rate |\n|---|---|---|---|\n");
    for (cap, (n, ok)) in &by_cap {
        text += &format!(
            "| {cap} | {n} | {ok} | {:.0}% |\n",
            100.0 * *ok as f64 / *n as f64
        );
    }
    let met = outcomes.iter().filter(|o| o.met()).count();
    text += &format!(
        "| **all** | {} | {met} | {:.1}% |\n",
        outcomes.len(),
        100.0 * met as f64 / outcomes.len().max(1) as f64
    );
    text
}

/// A runtime for running turns one after another.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}
