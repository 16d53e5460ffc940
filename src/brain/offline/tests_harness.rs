//! Test support: runs conversations through the real pipeline (`run_turn`)
//! with the offline brain, an in-memory seeded kitchen and a fixed today
//! (Tuesday 2026-01-13), and checks the scenario language of
//! `assets/scenarios/README.md` against the turn records.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::context::{ContextPolicy, ContextState};
use crate::kitchen::Kitchen;
use crate::pipeline::{Brain, TurnId, TurnRequest, TurnResult, TurnSettings, run_turn};
use crate::record::TurnRecord;

use super::OfflineBrain;

/// The fixed today of every simulated conversation (a Tuesday).
pub const TODAY: &str = "2026-01-13";

/// A conversation with the offline brain through the real pipeline.
pub struct Sim {
    pub state: ContextState,
    pub records: Vec<TurnRecord>,
    kitchen: Arc<Mutex<Kitchen>>,
    brain: Arc<dyn Brain>,
    settings: Arc<TurnSettings>,
    rt: tokio::runtime::Runtime,
}

impl Sim {
    /// A fresh session on the seed kitchen.
    pub fn new() -> Self {
        let mut kitchen = Kitchen::open_in_memory().expect("kitchen");
        kitchen
            .seed_if_empty(jiff::civil::date(2026, 1, 13))
            .expect("seed");
        Self {
            state: ContextState::new(ContextPolicy::default()),
            records: Vec::new(),
            kitchen: Arc::new(Mutex::new(kitchen)),
            brain: Arc::new(OfflineBrain::new()),
            settings: Arc::new(TurnSettings::default()),
            rt: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime"),
        }
    }

    /// Runs one message; panics if the turn fails.
    pub fn say(&mut self, message: &str) -> &TurnRecord {
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        let req = TurnRequest {
            id: TurnId(self.records.len() as u64 + 1),
            message: message.to_string(),
            state: self.state.clone(),
            today: TODAY.to_string(),
            started_at: String::new(),
        };
        let out = self.rt.block_on(run_turn(
            self.brain.clone(),
            self.kitchen.clone(),
            self.settings.clone(),
            req,
            tx,
        ));
        match out {
            TurnResult::Done { record, state } => {
                self.state = *state;
                self.records.push(*record);
            }
            TurnResult::Failed { record } => {
                panic!("turn {:?} failed: {:?}", message, record.error)
            }
        }
        self.last()
    }

    /// Runs several messages.
    pub fn run(&mut self, messages: &[&str]) -> &TurnRecord {
        for m in messages {
            self.say(m);
        }
        self.last()
    }

    /// The last turn's record.
    pub fn last(&self) -> &TurnRecord {
        self.records.last().expect("a turn ran")
    }

    /// The last turn's record as the JSON contract.
    pub fn json(&self) -> Value {
        serde_json::to_value(self.last()).expect("record serialises")
    }

    /// Checks an expectation (`decision propose`, `steps none`, …) on the
    /// last turn; panics with what was found.
    #[track_caller]
    pub fn expect(&self, text: &str) {
        if let Err(e) = check(&self.json(), text) {
            panic!("`{text}`: {e}\nreply: {}", self.last().reply);
        }
    }

    /// The tool calls the last turn made, as (tool, params) from the brain's
    /// own answers.
    pub fn calls(&self) -> Vec<(String, Value)> {
        self.last()
            .prompts
            .act
            .iter()
            .filter_map(|p| p.prompt.response.as_deref())
            .filter_map(|r| serde_json::from_str::<Value>(r).ok())
            .filter(|v| v["action"] == "tool_call")
            .map(|v| {
                (
                    v["tool"].as_str().unwrap_or_default().to_string(),
                    v["params"].clone(),
                )
            })
            .collect()
    }

    /// The last reply.
    pub fn reply(&self) -> &str {
        &self.last().reply
    }
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
    .map_or_else(|| "unknown".into(), |s| s.to_string())
}

/// Checks one expectation of the scenario language against a turn record.
pub fn check(rec: &Value, text: &str) -> Result<(), String> {
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

/// A scenario script: its messages, each with the expectations below it.
pub fn parse_script(script: &str) -> Vec<(String, Vec<(usize, String)>)> {
    let mut out: Vec<(String, Vec<(usize, String)>)> = Vec::new();
    for (i, raw) in script.lines().enumerate() {
        let line = raw.trim();
        if let Some(e) = line.strip_prefix("#=") {
            if let Some(last) = out.last_mut() {
                last.1.push((i + 1, e.trim().to_string()));
            }
        } else if !line.is_empty() && !line.starts_with('#') {
            out.push((line.to_string(), Vec::new()));
        }
    }
    out
}
