//! One turn, end to end: Understand → Think → Act → Reply → Summarize.
//!
//! The turn works on its own copy of the session's context and hands the new
//! state back only when it succeeds; its kitchen writes stay in the
//! kitchen's turn log, for the [`TurnRunner`](super::runner::TurnRunner) to
//! commit together with the session, or drop. The
//! reply streams as it is written; compression of older turns runs after the
//! reply, inside the turn, so it is done before the next turn's Understand.
//! The nodes themselves live in `nodes/`, one file each; this file holds
//! the turn's working state ([`Run`]), the order the nodes run in, and the
//! sequence every called node shares ([`Run::call_node`]).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::mpsc;

use crate::context::{ContextState, FoldRequest, StepExecutionSummary, TurnExecutionSummary};
use crate::kitchen::Kitchen;
use crate::prompt::{Prompt, build_fold};
use crate::record::{CallRecord, PromptRecord, TurnRecord};
use crate::turn::{KitchenAction, TurnError};

use super::brain::{Brain, BrainError, CallLog, CompressRequest, Decided, Usage};
use super::events::{Node, PipelineEvent, TurnId};
use super::summarize;
use super::support::{Counting, EventSink, lock, ms};
use super::templates::SystemPrompts;
use super::types::Decision;

use super::nodes::Acted;

/// Knobs of a turn that come from the config.
#[derive(Debug, Clone)]
pub struct TurnSettings {
    pub max_steps: usize,
    pub max_tool_calls_per_step: usize,
    pub prompts: SystemPrompts,
}

impl Default for TurnSettings {
    fn default() -> Self {
        Self {
            max_steps: 8,
            max_tool_calls_per_step: 3,
            prompts: SystemPrompts::builtin(),
        }
    }
}

/// One user message to run.
#[derive(Debug, Clone)]
pub struct TurnRequest {
    pub id: TurnId,
    pub message: String,
    /// A copy of the session's context.
    pub state: ContextState,
    /// Today, `YYYY-MM-DD`.
    pub today: String,
    /// When the turn started (RFC 3339), for the record.
    pub started_at: String,
}

/// How a turn ended.
#[derive(Debug, Clone)]
pub enum TurnResult {
    /// The new context and the turn's record.
    Done {
        record: Box<TurnRecord>,
        state: Box<ContextState>,
    },
    /// The session stays as it was; the record says why.
    Failed { record: Box<TurnRecord> },
}

/// Runs the nodes of one turn and emits their events; the runner sends the
/// final one. The kitchen turn must be open; it is left open.
pub(super) async fn execute_turn(
    brain: Arc<dyn Brain>,
    kitchen: Arc<Mutex<Kitchen>>,
    settings: Arc<TurnSettings>,
    req: TurnRequest,
    events: mpsc::UnboundedSender<PipelineEvent>,
) -> TurnResult {
    let sink = EventSink::new(req.id, events);
    let started = Instant::now();
    let mut run = Run::new(&brain, &kitchen, &settings, &sink, &req);
    let result = run.execute(req.state.clone()).await;
    run.timings.insert("total".into(), ms(started));
    match result {
        Ok(state) => {
            let mut record = Box::new(run.record());
            let names = super::suggest::kitchen_names(&kitchen);
            record.suggestions = super::suggest::suggestions(&state, &names);
            TurnResult::Done {
                record,
                state: Box::new(state),
            }
        }
        Err(error) => {
            tracing::warn!(turn = %req.id, %error, "turn failed");
            let mut record = run.record();
            record.set_failed(&error);
            // The layers as they were: a failed turn changes nothing.
            record.set_snapshot(req.state.snapshot());
            record.turn = req.state.turn + 1;
            TurnResult::Failed {
                record: Box::new(record),
            }
        }
    }
}

/// The turn's working state and what its record collects.
pub(super) struct Run<'a> {
    pub(super) brain: &'a Arc<dyn Brain>,
    pub(super) kitchen: &'a Arc<Mutex<Kitchen>>,
    pub(super) settings: &'a TurnSettings,
    pub(super) sink: &'a EventSink,
    pub(super) message: &'a str,
    pub(super) today: &'a str,
    pub(super) record: TurnRecord,
    timings: BTreeMap<String, f64>,
    pub(super) usage: Usage,
    /// The turn's narrative so far, sent as nodes finish.
    running: TurnExecutionSummary,
}

/// The nodes that ask the brain through [`Run::call_node`], each with the
/// place its prompt is recorded. (Act asks per step, in `act.rs`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Called {
    Understand,
    Think,
    Reply,
    Summarize,
}

impl Called {
    fn node(self) -> Node {
        match self {
            Called::Understand => Node::Understand,
            Called::Think => Node::Think,
            Called::Reply => Node::Reply,
            Called::Summarize => Node::Summarize,
        }
    }
}

/// A called node's answer, with the prompt it was asked (its tokens
/// counted) and the requests that were sent.
pub(super) struct Answered<T> {
    pub(super) decided: Decided<T>,
    pub(super) prompt: Prompt,
    pub(super) calls: Vec<CallRecord>,
}

impl<'a> Run<'a> {
    fn new(
        brain: &'a Arc<dyn Brain>,
        kitchen: &'a Arc<Mutex<Kitchen>>,
        settings: &'a TurnSettings,
        sink: &'a EventSink,
        req: &'a TurnRequest,
    ) -> Self {
        let record = TurnRecord {
            user: req.message.clone(),
            llm: brain.name(),
            started_at: req.started_at.clone(),
            ..TurnRecord::default()
        };
        Self {
            brain,
            kitchen,
            settings,
            sink,
            message: &req.message,
            today: &req.today,
            record,
            timings: BTreeMap::new(),
            usage: Usage::sum(),
            running: TurnExecutionSummary {
                user_message: req.message.clone(),
                ..TurnExecutionSummary::default()
            },
        }
    }

    /// Updates the running narrative and sends it.
    pub(super) fn progress(&mut self, update: impl FnOnce(&mut TurnExecutionSummary)) {
        update(&mut self.running);
        let turn = Box::new(self.running.clone());
        self.sink
            .send(|id| PipelineEvent::NarrativeProgress { id, turn });
    }

    /// The turn's record as collected (ok until the caller marks it failed).
    fn record(&mut self) -> TurnRecord {
        let mut r = std::mem::take(&mut self.record);
        // Named again at the end: the first call may have learned more
        // about the server (its kind and context).
        r.llm = self.brain.name();
        r.timings_ms = std::mem::take(&mut self.timings);
        r.usage = self.usage;
        r.cost_usd = self.usage.cost_usd;
        r
    }

    /// Times a node and accounts for its tokens.
    pub(super) fn finish_node(&mut self, node: Node, started: Instant, usage: Usage) {
        let duration_ms = ms(started);
        *self.timings.entry(node.as_str().to_string()).or_insert(0.0) += duration_ms;
        self.usage.add(usage);
        let tokens = usage.prompt_tokens + usage.completion_tokens;
        self.sink.send(|id| PipelineEvent::NodeFinished {
            id,
            node,
            duration_ms,
            tokens,
        });
    }

    /// A node whose brain failed: its time and the tokens its requests
    /// spent are kept (the caller records its prompt with those requests,
    /// so the node that failed can be inspected), and the error names it.
    pub(super) fn failed(
        &mut self,
        node: Node,
        started: Instant,
        calls: &[CallRecord],
        source: BrainError,
    ) -> TurnError {
        *self.timings.entry(node.as_str().to_string()).or_insert(0.0) += ms(started);
        calls
            .iter()
            .filter_map(|c| c.usage)
            .for_each(|u| self.usage.add(u));
        TurnError::Brain { node, source }
    }

    /// Announces a node and starts its clock.
    pub(super) fn start_node(&self, node: Node) -> Instant {
        let started = Instant::now();
        self.sink.send(|id| PipelineEvent::NodeStarted { id, node });
        started
    }

    /// Asks the brain to compress one fold of older turns; the caller applies
    /// it (and accounts for it when the turn records it): the prompt, the
    /// requests sent and the answer.
    pub(super) async fn compress(
        &self,
        fold: &FoldRequest,
    ) -> (
        Prompt,
        Vec<CallRecord>,
        Result<Decided<Option<String>>, BrainError>,
    ) {
        let prompt = build_fold(fold, &self.settings.prompts.compress);
        let calls = CallLog::default();
        let req = CompressRequest {
            fold,
            prompt: &prompt,
            calls: &calls,
        };
        let out = self.brain.compress(&req).await;
        (prompt, calls.take(), out)
    }

    /// The sequence every called node shares: counts the prompt's tokens
    /// beside the request, asks the brain (`ask` builds the node's request
    /// around the prompt and the call log), and on failure records the
    /// prompt with the requests sent, keeps the node's time and tokens, and
    /// returns the error that names the node. The caller started the node's
    /// clock and records a success its own way.
    pub(super) async fn call_node<T>(
        &mut self,
        called: Called,
        started: Instant,
        mut prompt: Prompt,
        ask: impl AsyncFnOnce(&Prompt, &CallLog) -> Result<Decided<T>, BrainError>,
    ) -> Result<Answered<T>, TurnError> {
        let counting = Counting::beside(&mut prompt, &**self.brain);
        let log = CallLog::default();
        let decided = ask(&prompt, &log).await;
        counting.apply(&mut prompt).await;
        let calls = log.take();
        match decided {
            Ok(decided) => Ok(Answered {
                decided,
                prompt,
                calls,
            }),
            Err(e) => {
                let error = self.failed(called.node(), started, &calls, e);
                self.keep_prompt(called, PromptRecord::new(prompt, None, calls));
                Err(error)
            }
        }
    }

    /// Records a called node's prompt where the record keeps that node's.
    pub(super) fn keep_prompt(&mut self, called: Called, prompt: PromptRecord) {
        let prompts = &mut self.record.prompts;
        match called {
            Called::Understand => prompts.understand = Some(prompt),
            Called::Think => prompts.think = Some(prompt),
            Called::Reply => prompts.reply = Some(prompt),
            Called::Summarize => prompts.summarize.push(prompt),
        }
    }

    async fn execute(&mut self, mut state: ContextState) -> Result<ContextState, TurnError> {
        self.fold_pending(&mut state).await?;
        let turn = state.begin_turn();
        self.record.turn = turn;
        self.sink.send(|id| PipelineEvent::TurnStarted { id, turn });
        let today_date = self.today.parse().map_err(|source| TurnError::BadDate {
            date: self.today.to_string(),
            source,
        })?;
        // Think's view of the kitchen is read while Understand's request is
        // out (a model that answers at once has it read after).
        let kitchen = self.kitchen;
        let (understand, session) = tokio::join!(self.understand(&mut state, turn), async {
            lock(kitchen).session_context(today_date)
        });
        let understand = understand?;
        let session = session.map_err(TurnError::kitchen(KitchenAction::Read))?;
        let standing = super::standing::describe(&state, &self.record.constraint_changes);
        let curation = summarize::describe_curation(&self.record.curation);
        self.progress(|r| {
            r.turn_number = turn;
            r.what_user_expressed = understand.what_user_expressed.clone();
            r.curation_summary = curation;
            r.standing = standing;
        });
        let think = self.think(&state, &understand, &session).await?;
        self.progress(|r| {
            r.goal = think.goal.clone();
            r.decision = Some(think.decision);
            r.steps = think
                .steps
                .iter()
                .filter(|_| think.decision == Decision::PlanDirect)
                .map(|s| StepExecutionSummary {
                    description: s.description.clone(),
                    step_type: Some(s.step_type),
                    subdomain: s.subdomain.clone(),
                    ..StepExecutionSummary::default()
                })
                .collect();
        });
        let steps = self.act(&mut state, &understand, &think, turn).await?;
        // What was held back, for the record, and so that the next
        // message's "anyway" can let it through.
        self.record.held_back = steps.iter().flat_map(|s| s.held.clone()).collect();
        let held_refs = self.record.held_back.iter().map(|h| h.covered.clone());
        state
            .constraints
            .note_held(held_refs.collect::<Vec<_>>(), turn);
        // What the steps loaded is judged against the standing constraints
        // before Reply, Summarize and the snapshot see it.
        let judged = state.constraints.clone();
        super::standing::refresh(&mut state, self.kitchen, false)?;
        if state.constraints != judged {
            self.sink.send(|id| PipelineEvent::ContextUpdated {
                id,
                snapshot: Box::new(state.snapshot()),
            });
        }
        let acted = Acted::new(&state, &understand, &think, &steps, turn);
        let (reply, dialogue) = self.reply(&acted).await?;
        let summaries = acted.summaries();
        self.progress(|r| {
            r.steps = summaries;
            r.response_summary = crate::context::fold::first_sentence(&reply, 200);
        });
        self.summarize(&mut state, &acted, &reply, dialogue).await?;
        Ok(state)
    }

    /// Folds left over from an earlier turn (a session saved before its fold
    /// finished) are done before Understand reads the layers.
    async fn fold_pending(&mut self, state: &mut ContextState) -> Result<(), TurnError> {
        for fold in state.fold_requests() {
            if !state.needs_compression(&fold) {
                state.complete_fold(&fold, None);
                continue;
            }
            let (_, _, out) = self.compress(&fold).await;
            let out = out.map_err(TurnError::PendingFold)?;
            state.complete_fold(&fold, out.value);
        }
        Ok(())
    }
}
