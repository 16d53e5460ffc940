//! One turn, end to end: Understand → Think → Act → Reply → Summarize.
//!
//! The turn works on its own copy of the session's context and hands the new
//! state back only when it succeeds; its kitchen writes stay in the
//! kitchen's turn log, for the [`TurnRunner`](super::runner::TurnRunner) to
//! commit together with the session, or drop. The
//! reply streams as it is written; compression of older turns runs after the
//! reply, inside the turn, so it is done before the next turn's Understand.
//! Reply and Summarize live in `run/closing.rs`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::mpsc;

use crate::context::{ContextState, FoldRequest, StepExecutionSummary, TurnExecutionSummary};
use crate::kitchen::Kitchen;
use crate::prompt::think::{ThinkInput, build_think};
use crate::prompt::understand::{UnderstandInput, build_understand};
use crate::prompt::{Prompt, build_fold};
use crate::record::{CallRecord, PromptRecord, TurnRecord};
use crate::turn::{KitchenAction, TurnError};

use super::act::{ActEnv, StepOutcome, run_plan};
use super::brain::{
    Brain, BrainError, CallLog, CompressRequest, Decided, KitchenNames, ThinkRequest,
    UnderstandRequest, Usage,
};
use super::events::{Node, PipelineEvent, TurnId};
use super::summarize;
use super::support::{Counting, EventSink, lock, ms, usage_of};
use super::templates::SystemPrompts;
use super::types::{Decision, SUBDOMAINS, StepType, ThinkOutput, UnderstandOutput};

mod closing;

use closing::Acted;

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

/// Runs one turn through the [`TurnRunner`](super::runner::TurnRunner) with
/// no session to record it in (evaluations, tests, benches): its writes are
/// committed to the kitchen, and its events end with `TurnDone` or
/// `TurnFailed`.
pub async fn run_turn(
    brain: Arc<dyn Brain>,
    kitchen: Arc<Mutex<Kitchen>>,
    settings: Arc<TurnSettings>,
    req: TurnRequest,
    events: mpsc::UnboundedSender<PipelineEvent>,
) -> TurnResult {
    super::runner::TurnRunner::new(brain, kitchen, settings)
        .run(req, Arc::new(super::runner::NoLedger), events)
        .await
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
            let record = Box::new(run.record());
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
struct Run<'a> {
    brain: &'a Arc<dyn Brain>,
    kitchen: &'a Arc<Mutex<Kitchen>>,
    settings: &'a TurnSettings,
    sink: &'a EventSink,
    message: &'a str,
    today: &'a str,
    record: TurnRecord,
    timings: BTreeMap<String, f64>,
    usage: Usage,
    /// The turn's narrative so far, sent as nodes finish.
    running: TurnExecutionSummary,
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
    fn progress(&mut self, update: impl FnOnce(&mut TurnExecutionSummary)) {
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
    fn finish_node(&mut self, node: Node, started: Instant, usage: Usage) {
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
    fn failed(
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
    fn start_node(&self, node: Node) -> Instant {
        let started = Instant::now();
        self.sink.send(|id| PipelineEvent::NodeStarted { id, node });
        started
    }

    /// Asks the brain to compress one fold of older turns; the caller applies
    /// it (and accounts for it when the turn records it): the prompt, the
    /// requests sent and the answer.
    async fn compress(
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
            r.decision = think.decision.as_str().to_string();
            r.steps = think
                .steps
                .iter()
                .filter(|_| think.decision == Decision::PlanDirect)
                .map(|s| StepExecutionSummary {
                    description: s.description.clone(),
                    step_type: s.step_type.as_str().to_string(),
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

    async fn understand(
        &mut self,
        state: &mut ContextState,
        turn: u32,
    ) -> Result<UnderstandOutput, TurnError> {
        let started = self.start_node(Node::Understand);
        let names = kitchen_names(self.kitchen);
        let snapshot = state.snapshot();
        let turns: Vec<_> = state.understand_turns.iter().cloned().collect();
        let input = UnderstandInput {
            user_message: self.message,
            snapshot: &snapshot,
            recent_turns: &turns,
            pending_clarification: pending_question(state),
            system: &self.settings.prompts.understand,
        };
        let mut prompt = build_understand(&input);
        let counting = Counting::beside(&mut prompt, &**self.brain);
        let calls = CallLog::default();
        let req = UnderstandRequest {
            input: &input,
            prompt: &prompt,
            state,
            kitchen: &names,
            calls: &calls,
        };
        let decided = self.brain.understand(&req).await;
        counting.apply(&mut prompt).await;
        let decided = match decided {
            Ok(decided) => decided,
            Err(e) => {
                let calls = calls.take();
                let error = self.failed(Node::Understand, started, &calls, e);
                self.record.prompts.understand = Some(PromptRecord::new(prompt, None, calls));
                return Err(error);
            }
        };
        let (usage, response) = usage_of(&prompt, &decided);
        let out = decided.value;
        let mut unknown = Vec::new();
        for r in &out.referenced_entities {
            if !state.registry.touch(r, turn) {
                unknown.push(r.clone());
            }
        }
        let mut curation = state.apply_curation(&out.entity_curation);
        for r in unknown {
            if !curation.unknown_refs.contains(&r) {
                curation.unknown_refs.push(r);
            }
        }
        self.record.curation = curation;
        self.record.constraint_changes =
            super::standing::apply(state, &out.constraints, self.kitchen)?;
        self.record.prompts.understand =
            Some(PromptRecord::new(prompt, Some(response), calls.take()));
        self.finish_node(Node::Understand, started, usage);
        self.sink.send(|id| PipelineEvent::ContextUpdated {
            id,
            snapshot: Box::new(state.snapshot()),
        });
        Ok(out)
    }

    async fn think(
        &mut self,
        state: &ContextState,
        understand: &UnderstandOutput,
        session: &crate::prompt::SessionContext,
    ) -> Result<ThinkOutput, TurnError> {
        if understand.needs_clarification {
            let think = ThinkOutput {
                goal: "Clarify the request".into(),
                decision: Decision::Clarify,
                clarification_questions: understand.clarification_questions.clone(),
                ..ThinkOutput::default()
            };
            self.record.goal = think.goal.clone();
            self.record.decision = Some(Decision::Clarify);
            return Ok(think);
        }
        let started = self.start_node(Node::Think);
        let snapshot = state.snapshot();
        let input = ThinkInput {
            user_message: self.message,
            session,
            snapshot: &snapshot,
            mode: "PLAN",
            max_steps: self.settings.max_steps,
            pending_proposal: pending_question(state),
            system: &self.settings.prompts.think,
        };
        let mut prompt = build_think(&input);
        let counting = Counting::beside(&mut prompt, &**self.brain);
        let calls = CallLog::default();
        let req = ThinkRequest {
            input: &input,
            prompt: &prompt,
            understand,
            state,
            calls: &calls,
        };
        let decided = self.brain.think(&req).await;
        counting.apply(&mut prompt).await;
        let decided = match decided {
            Ok(decided) => decided,
            Err(e) => {
                let calls = calls.take();
                let error = self.failed(Node::Think, started, &calls, e);
                self.record.prompts.think = Some(PromptRecord::new(prompt, None, calls));
                return Err(error);
            }
        };
        let (usage, response) = usage_of(&prompt, &decided);
        let think = validate_plan(decided.value, self.settings.max_steps);
        self.record.goal = think.goal.clone();
        self.record.decision = Some(think.decision);
        self.record.prompts.think = Some(PromptRecord::new(prompt, Some(response), calls.take()));
        self.finish_node(Node::Think, started, usage);
        Ok(think)
    }

    async fn act(
        &mut self,
        state: &mut ContextState,
        understand: &UnderstandOutput,
        think: &ThinkOutput,
        turn: u32,
    ) -> Result<Vec<StepOutcome>, TurnError> {
        if think.decision != Decision::PlanDirect || think.steps.is_empty() {
            return Ok(Vec::new());
        }
        let started = self.start_node(Node::Act);
        let env = Arc::new(ActEnv {
            brain: Arc::clone(self.brain),
            kitchen: Arc::clone(self.kitchen),
            state: Mutex::new(Arc::new(std::mem::take(state))),
            events: self.sink.clone(),
            understand: understand.clone(),
            user_message: self.message.to_string(),
            today: self.today.to_string(),
            system: self.settings.prompts.act.clone(),
            max_tool_calls: self.settings.max_tool_calls_per_step,
            total_steps: think.steps.len(),
            turn,
            prompts: Mutex::new(Vec::new()),
        });
        let result = run_plan(&env, &think.steps).await;
        // Every step's task has ended (a failed plan's others are aborted and
        // may still be letting go; what they hold is then copied).
        let shared = Arc::clone(&lock(&env.state));
        let mut prompts = std::mem::take(&mut *lock(&env.prompts));
        drop(env);
        *state = Arc::try_unwrap(shared).unwrap_or_else(|still| (*still).clone());
        prompts.sort_by_key(|p| (p.step, p.iteration));
        self.record.prompts.act = prompts;
        let steps = match result {
            Ok(steps) => steps,
            Err(e) => {
                let calls: Vec<CallRecord> = (self.record.prompts.act.iter())
                    .flat_map(|p| p.prompt.calls.iter().cloned())
                    .collect();
                return Err(self.failed(Node::Act, started, &calls, e));
            }
        };
        let mut usage = Usage::sum();
        for s in &steps {
            usage.add(s.usage);
        }
        self.record.steps = summarize::step_records(&steps);
        self.finish_node(Node::Act, started, usage);
        Ok(steps)
    }
}

/// Enforces the step limit and the known subdomains (history only read); a
/// plan with no steps but a proposal is a proposal.
fn validate_plan(mut think: ThinkOutput, max_steps: usize) -> ThinkOutput {
    // The history subdomain is the session itself: it can only be read.
    think.steps.retain(|s| {
        SUBDOMAINS.contains(&s.subdomain.as_str())
            && (s.subdomain != "history" || s.step_type == StepType::Read)
    });
    think.steps.truncate(max_steps);
    if think.decision == Decision::PlanDirect
        && think.steps.is_empty()
        && think.proposal_message.is_some()
    {
        think.decision = Decision::Propose;
    }
    think
}

/// What Alfred asked or proposed last turn, when the user may be answering it.
fn pending_question(state: &ContextState) -> Option<String> {
    let last = state.narrative.recent().last()?;
    if !matches!(
        Decision::from_word(&last.decision),
        Some(Decision::Propose | Decision::Clarify)
    ) {
        return None;
    }
    state
        .conversation
        .recent()
        .last()
        .map(|t| t.assistant.clone())
}

/// The names of what the kitchen holds, for the reader. A kitchen that
/// cannot be read leaves them empty: the turn goes on, and the read that
/// fails later says why.
fn kitchen_names(kitchen: &Mutex<Kitchen>) -> KitchenNames {
    use crate::context::Table;
    let tables = [
        Table::Recipes,
        Table::Inventory,
        Table::ShoppingList,
        Table::Tasks,
    ];
    let read = lock(kitchen).labels(&tables);
    match read.map(<[Vec<String>; 4]>::try_from) {
        Ok(Ok([recipes, inventory, shopping, tasks])) => KitchenNames {
            recipes,
            inventory,
            shopping,
            tasks,
        },
        Ok(Err(_)) => KitchenNames::default(),
        Err(e) => {
            tracing::warn!(error = %e, "kitchen names not read");
            KitchenNames::default()
        }
    }
}
