//! One contender on one script: the real pipeline on a fresh, seeded,
//! in-memory kitchen, with what Think saw recorded beside each turn record.

use std::sync::{Arc, Mutex};

use crate::context::{ContextPolicy, ContextState, EntitiesView, snapshot_at};
use crate::kitchen::Kitchen;
use crate::pipeline::{
    Brain, NoLedger, PipelineEvent, TurnId, TurnRequest, TurnResult, TurnRunner, TurnSettings,
    UnderstandOutput,
};
use crate::record::TurnRecord;

/// One turn of a run, as the judge reads it.
#[derive(Debug, Clone)]
pub struct Observation {
    /// The turn record (the raw log).
    pub record: TurnRecord,
    /// The entity layer before the turn began (the policy alone).
    pub before: EntitiesView,
    /// The entity layer Think saw: after Understand's references and curation.
    pub think_view: EntitiesView,
    /// What Understand answered (empty when the answer is not in the record).
    pub understand: UnderstandOutput,
}

/// A whole run: its turns, and the messages whose turn failed.
#[derive(Debug, Clone, Default)]
pub struct Run {
    pub turns: Vec<Observation>,
    /// (message index, why) for each turn that failed; the session went on
    /// without it, as it does in the app.
    pub failed: Vec<(usize, String)>,
}

/// What a run needs besides the policy and the messages.
#[derive(Clone)]
pub struct Bench {
    pub brain: Arc<dyn Brain>,
    pub settings: Arc<TurnSettings>,
    /// The kitchen's today (a fixed date keeps runs comparable).
    pub today: jiff::civil::Date,
}

impl Bench {
    /// Runs `messages` under `policy` from an empty session.
    pub async fn run(&self, policy: &ContextPolicy, messages: &[String]) -> Result<Run, String> {
        let mut kitchen = Kitchen::open_in_memory()
            .map_err(|e| format!("cannot open an in-memory kitchen: {e}"))?;
        kitchen
            .seed_if_empty(self.today)
            .map_err(|e| format!("cannot seed the kitchen: {e}"))?;
        let kitchen = Arc::new(Mutex::new(kitchen));
        // One runner for the whole run: its cache model carries from turn
        // to turn, as a server's would.
        let runner = TurnRunner::new(self.brain.clone(), kitchen.clone(), self.settings.clone());
        let mut state = ContextState::new(policy.clone());
        let mut run = Run::default();
        for (i, message) in messages.iter().enumerate() {
            let before = snapshot_at(&state, state.turn + 1).entities;
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
            let req = TurnRequest {
                id: TurnId(i as u64 + 1),
                message: message.clone(),
                state: state.clone(),
                today: self.today.to_string(),
                started_at: String::new(),
            };
            let runner = runner.clone();
            let task = tokio::spawn(async move { runner.run(req, Arc::new(NoLedger), tx).await });
            let mut think_view = None;
            while let Some(ev) = rx.recv().await {
                if let PipelineEvent::ContextUpdated { snapshot, .. } = ev {
                    // The first update of a turn follows Understand: what Think sees.
                    think_view.get_or_insert(snapshot.entities);
                }
            }
            let result = task
                .await
                .map_err(|e| format!("turn {} crashed: {e}", i + 1))?;
            match result {
                TurnResult::Done {
                    record,
                    state: next,
                } => {
                    state = *next;
                    let understand = understand_of(&record);
                    run.turns.push(Observation {
                        think_view: think_view.unwrap_or_else(|| before.clone()),
                        before,
                        understand,
                        record: *record,
                    });
                }
                TurnResult::Failed { record } => {
                    let why = record.error.unwrap_or_else(|| "unknown reason".into());
                    run.failed.push((i, why));
                }
            }
        }
        Ok(run)
    }
}

/// Understand's answer, parsed back from the record.
fn understand_of(record: &TurnRecord) -> UnderstandOutput {
    record
        .prompts
        .understand
        .as_ref()
        .and_then(|p| p.response.as_deref())
        .and_then(|r| serde_json::from_str(r).ok())
        .unwrap_or_default()
}
