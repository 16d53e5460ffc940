//! Test support: runs conversations through the real pipeline (`run_turn`)
//! with the offline brain, an in-memory seeded kitchen and a fixed today
//! (Tuesday 2026-01-13), and checks the scenario language of
//! `assets/scenarios/README.md` against the turn records.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::scenario::check;

use crate::context::{ContextPolicy, ContextState, Dialogue};
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

    /// What the last turn's reply left open: what it presented, offered
    /// and asked.
    pub fn dialogue(&self) -> &Dialogue {
        &self
            .last()
            .narrative
            .turns
            .last()
            .expect("the turn is in the narrative")
            .dialogue
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

    /// The kitchen the conversation writes to.
    pub fn kitchen(&self) -> &Arc<Mutex<Kitchen>> {
        &self.kitchen
    }

    /// The last reply.
    pub fn reply(&self) -> &str {
        &self.last().reply
    }
}
