//! Act: runs the plan's steps, group by group (steps of one group
//! concurrently), each as a loop of brain decisions and tool calls.
//!
//! The deterministic work lives here, the same for every brain: tool calls run
//! on the kitchen with the registry, results are remembered as loaded rows,
//! generated artifacts are registered as pending gen refs, refs an analysis
//! names are touched, and the circuit breakers stop a step that loops (at most
//! `max_tool_calls` calls; two empty reads of one table). Locks are never held
//! across an await.

use std::collections::{BTreeMap, HashSet};
use std::future::Future;
use std::ops::{Deref, DerefMut};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use futures::future::Either;
use serde_json::{Map, Value};

use crate::context::guarded::{Namer, guarded, let_through};
use crate::context::{ContextState, Table, archive};
use crate::kitchen::{Kitchen, ToolCall, ToolError, ToolResult};
use crate::prompt::act::{ActInput, PlanStepView, PriorStep, StepData, ToolCallView, build_act};
use crate::record::{ActPromptRecord, HeldBack, PromptRecord, ToolCallRecord};

use super::brain::{ActRequest, Brain, BrainError, CallLog, Usage};
use super::events::PipelineEvent;
use super::hold::{self, StandingCheck};
use super::support::{Counting, EventSink, lock, usage_of};
pub use super::types::Stop;
use super::types::{ActAction, StepType, ThinkStep, UnderstandOutput};

/// What one step did.
#[derive(Debug, Clone)]
pub struct StepOutcome {
    pub index: usize,
    pub step: ThinkStep,
    pub calls: Vec<ToolCallRecord>,
    pub data: Value,
    pub summary: String,
    pub note: Option<String>,
    pub entities: Vec<String>,
    pub stop: Option<Stop>,
    pub usage: Usage,
    /// Writes held back for touching what a standing constraint rules out.
    pub held: Vec<HeldBack>,
    /// Writes made past a standing constraint because the message named
    /// what they touch.
    pub through: Vec<HeldBack>,
}

/// The turn's context while its steps run. A step's brain call reads it by
/// reference (an `Arc`), not by copy; a write copies it only while another
/// step's call still holds it ([`write`]).
pub type SharedState = Mutex<Arc<ContextState>>;

/// The shared context locked for writing.
struct Writing<'a>(MutexGuard<'a, Arc<ContextState>>);

impl Deref for Writing<'_> {
    type Target = ContextState;
    fn deref(&self) -> &ContextState {
        &self.0
    }
}

impl DerefMut for Writing<'_> {
    fn deref_mut(&mut self) -> &mut ContextState {
        Arc::make_mut(&mut self.0)
    }
}

/// Locks the shared context to change it.
fn write(state: &SharedState) -> Writing<'_> {
    Writing(lock(state))
}

/// What every step of the turn shares. Owned, so that a step can run as its
/// own task ([`run_plan`]).
pub struct ActEnv {
    pub brain: Arc<dyn Brain>,
    pub kitchen: Arc<Mutex<Kitchen>>,
    pub state: SharedState,
    pub events: EventSink,
    pub understand: UnderstandOutput,
    pub user_message: String,
    pub today: String,
    pub system: String,
    pub max_tool_calls: usize,
    pub total_steps: usize,
    pub turn: u32,
    /// Every Act prompt of the turn, as it is answered (or fails), with its
    /// requests; the caller sorts them by step and iteration.
    pub prompts: Mutex<Vec<ActPromptRecord>>,
}

/// Runs every step, group by group; stops after a group in which a step asked
/// the user or was blocked.
///
/// With a brain that waits on a server, each step of a group after the first
/// runs as its own task: one step's tool call and next prompt do not hold
/// back the other's answer, nor the write of its request (a request woken on
/// this thread would otherwise wait until the thread is free). The tasks are
/// aborted when the plan is dropped (a cancelled turn). A brain that decides
/// at once runs the group's steps on this task, in a fixed order.
pub async fn run_plan(
    env: &Arc<ActEnv>,
    steps: &[ThinkStep],
) -> Result<Vec<StepOutcome>, BrainError> {
    let mut groups: BTreeMap<u32, Vec<(usize, &ThinkStep)>> = BTreeMap::new();
    for (i, s) in steps.iter().enumerate() {
        groups.entry(s.group).or_default().push((i, s));
    }
    let mut done: Vec<StepOutcome> = Vec::new();
    for (_, group) in groups {
        let prior: Arc<[PriorStep]> = done.iter().map(prior_step).collect();
        let data: Arc<[StepData]> = done.iter().map(step_data).collect();
        let mark = lock(&env.state).registry.mark();
        let spawn = env.brain.waits();
        let runs = group.iter().enumerate().map(|(k, (i, s))| {
            let run = run_step(
                Arc::clone(env),
                *i,
                (*s).clone(),
                Arc::clone(&prior),
                Arc::clone(&data),
            );
            // The first step runs here, at once; the others are tasks.
            if spawn && k > 0 {
                Either::Left(Task(tokio::spawn(run)))
            } else {
                Either::Right(run)
            }
        });
        let mut outcomes = futures::future::try_join_all(runs).await?;
        if outcomes.len() > 1 {
            // The group's rows in step order, not in the order answers came.
            let order: Vec<String> = outcomes
                .iter()
                .flat_map(|o| o.entities.iter().cloned())
                .collect();
            write(&env.state).registry.reorder_since(mark, &order);
        }
        let stopped = outcomes.iter().any(|o| o.stop.is_some());
        done.append(&mut outcomes);
        if stopped {
            break;
        }
    }
    done.sort_by_key(|o| o.index);
    Ok(done)
}

/// A step running as its own task; dropping it aborts the task.
struct Task(tokio::task::JoinHandle<Result<StepOutcome, BrainError>>);

impl Future for Task {
    type Output = Result<StepOutcome, BrainError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx).map(|joined| match joined {
            Ok(outcome) => outcome,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => Err(BrainError::Other("a step of the plan was stopped".into())),
        })
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The prompt view of a finished step.
pub fn prior_step(o: &StepOutcome) -> PriorStep {
    PriorStep {
        description: o.step.description.clone(),
        step_type: o.step.step_type.as_str().to_string(),
        outcome: o.summary.clone(),
        note: o.note.clone(),
    }
}

/// The data a finished step hands to later steps and to Reply.
pub fn step_data(o: &StepOutcome) -> StepData {
    StepData {
        step_index: o.index,
        description: o.step.description.clone(),
        content: o.data.clone(),
    }
}

/// One step: brain decisions and tool calls until the step completes.
async fn run_step(
    env: Arc<ActEnv>,
    index: usize,
    step: ThinkStep,
    prior: Arc<[PriorStep]>,
    data: Arc<[StepData]>,
) -> Result<StepOutcome, BrainError> {
    let (env, step) = (&*env, &step);
    env.events.send(|id| PipelineEvent::StepStarted {
        id,
        index,
        total: env.total_steps,
        description: step.description.clone(),
        step_type: step.step_type.as_str().to_string(),
    });
    let mut run = StepRun::new(index, step);
    let schema = subdomain_table(&step.subdomain)
        .map(crate::kitchen::schema_text)
        .unwrap_or_default();
    loop {
        // A reference, not a copy: a write meanwhile copies it (`write`).
        let state_now = Arc::clone(&lock(&env.state));
        let snapshot = state_now.snapshot();
        let mut all_data = data.to_vec();
        if matches!(step.step_type, StepType::Analyze | StepType::Generate) {
            all_data.extend(loaded_earlier(&state_now, &step.subdomain, &data));
        }
        let views = run.views();
        let input = ActInput {
            user_message: &env.user_message,
            today: &env.today,
            step_index: index,
            total_steps: env.total_steps,
            step: PlanStepView {
                description: step.description.clone(),
                step_type: step.step_type.as_str().to_string(),
                subdomain: step.subdomain.clone(),
            },
            prior_steps: &prior,
            snapshot: &snapshot,
            data: &all_data,
            this_step_calls: &views,
            subdomain_schema: &schema,
            system: &env.system,
        };
        let mut prompt = build_act(&input);
        let counting = Counting::beside(&mut prompt, &*env.brain);
        let calls = CallLog::default();
        let req = ActRequest {
            input: &input,
            prompt: &prompt,
            step,
            this_step_results: &run.results,
            this_step_history: &run.history,
            last_error: run.last_error.as_deref(),
            understand: &env.understand,
            state: &state_now,
            calls: &calls,
        };
        let decided = env.brain.act(&req).await;
        counting.apply(&mut prompt).await;
        // Let go before this step writes, so the write need not copy.
        drop(state_now);
        run.iterations += 1;
        let (decided, response) = match decided {
            Ok(decided) => {
                let (usage, response) = usage_of(&prompt, &decided);
                run.usage.add(usage);
                (Ok(decided), Some(response))
            }
            Err(e) => (Err(e), None),
        };
        lock(&env.prompts).push(ActPromptRecord {
            step: index + 1,
            iteration: run.iterations,
            prompt: PromptRecord::new(prompt, response, calls.take()),
        });
        let decided = decided?;
        match decided.value {
            ActAction::ToolCall { tool, params } => {
                if run.calls.len() >= env.max_tool_calls {
                    let n = run.calls.len();
                    run.complete(
                        env,
                        format!("stopped after {n} tool calls"),
                        Value::Null,
                        None,
                    );
                } else {
                    run.call_tool(env, ToolCall::new(&tool, params));
                }
            }
            ActAction::StepComplete {
                result_summary,
                data,
                note_for_next_step,
            } => {
                run.complete(env, result_summary, data, note_for_next_step);
            }
            ActAction::AskUser { question } => run.stop(Stop::AskUser(question)),
            ActAction::Blocked {
                reason_code,
                details,
            } => {
                // A step stopped by a held-back write ends with the hold in
                // the user's words (a question, for a draft's save).
                let held = run.held_call.take().and_then(|h| hold::stop_for(&h));
                run.stop(
                    held.unwrap_or_else(|| Stop::Blocked(format!("{reason_code:?}: {details}"))),
                )
            }
        }
        if run.finished {
            break;
        }
        // A brain that neither calls nor completes is stopped all the same.
        if run.iterations > env.max_tool_calls + 3 {
            run.complete(
                env,
                "stopped: the step did not complete".into(),
                Value::Null,
                None,
            );
            break;
        }
    }
    env.events.send(|id| PipelineEvent::StepFinished {
        id,
        index,
        outcome: run.summary.clone(),
    });
    let snapshot = {
        let mut state = write(&env.state);
        // What the step loaded is judged against the standing constraints
        // (by its content; the pipeline looks up the rest after Act). Only
        // recipes are judged: a step that touched none changes nothing.
        let recipes = run
            .entities
            .iter()
            .any(|r| (state.registry.get(r)).is_some_and(|e| e.table == Table::Recipes));
        if recipes {
            state.refresh_constraints(&|_| None);
        }
        state.snapshot()
    };
    env.events.send(|id| PipelineEvent::ContextUpdated {
        id,
        snapshot: Box::new(snapshot),
    });
    Ok(run.into_outcome())
}

/// Rows of active entities of a subdomain loaded in earlier turns and not in
/// this turn's data: what lets a later turn work without re-reading.
fn loaded_earlier(state: &ContextState, subdomain: &str, data: &[StepData]) -> Option<StepData> {
    let table = subdomain_table(subdomain)?;
    let in_data: HashSet<&str> = data
        .iter()
        .filter_map(|d| d.content.as_array())
        .flatten()
        .filter_map(|row| row.get("id").and_then(Value::as_str))
        .collect();
    let rows: Vec<Value> = state
        .registry
        .entries()
        .into_iter()
        .filter(|(r, e)| e.table == table && !in_data.contains(r))
        .filter(|(r, e)| state.state_of(r, e, state.turn).0.is_active())
        .filter_map(|(r, _)| state.rows.get(r).map(|v| Value::clone(v)))
        .collect();
    (!rows.is_empty()).then(|| StepData {
        step_index: data.len(),
        description: format!("Already loaded ({subdomain} in working memory, from earlier turns)"),
        content: Value::Array(rows),
    })
}

/// The kitchen table a subdomain works on.
pub fn subdomain_table(subdomain: &str) -> Option<Table> {
    match subdomain {
        "recipes" => Some(Table::Recipes),
        "inventory" => Some(Table::Inventory),
        "shopping" => Some(Table::ShoppingList),
        "meal_plans" => Some(Table::MealPlans),
        "tasks" => Some(Table::Tasks),
        "preferences" => Some(Table::Preferences),
        _ => None,
    }
}

/// The mutable state of one running step.
struct StepRun<'s> {
    index: usize,
    step: &'s ThinkStep,
    results: Vec<ToolResult>,
    /// What `search_history` found.
    history: Vec<Value>,
    calls: Vec<ToolCallRecord>,
    last_error: Option<String>,
    empty_reads: BTreeMap<String, u32>,
    data: Value,
    summary: String,
    note: Option<String>,
    entities: Vec<String>,
    stop: Option<Stop>,
    /// Decisions asked of the brain so far.
    iterations: usize,
    usage: Usage,
    finished: bool,
    /// Writes held back so far.
    held: Vec<HeldBack>,
    /// What the last call held back, when it held back all of it.
    held_call: Option<Vec<HeldBack>>,
    /// Writes made past a standing constraint, named.
    through: Vec<HeldBack>,
}

impl<'s> StepRun<'s> {
    fn new(index: usize, step: &'s ThinkStep) -> Self {
        Self {
            index,
            step,
            results: Vec::new(),
            history: Vec::new(),
            calls: Vec::new(),
            last_error: None,
            empty_reads: BTreeMap::new(),
            data: Value::Null,
            summary: String::new(),
            note: None,
            entities: Vec::new(),
            stop: None,
            iterations: 0,
            usage: Usage::sum(),
            finished: false,
            held: Vec::new(),
            held_call: None,
            through: Vec::new(),
        }
    }

    fn views(&self) -> Vec<ToolCallView> {
        self.calls
            .iter()
            .map(|c| ToolCallView {
                tool: c.tool.clone(),
                table: c.table.clone(),
                summary: match &c.error {
                    Some(e) => format!("refused: {e}"),
                    None => format!("{} row{}", c.rows, if c.rows == 1 { "" } else { "s" }),
                },
            })
            .collect()
    }

    /// Searches the session's own history (the cold tier): what it finds
    /// that is still live comes back into working memory (touched now).
    fn search_history(&mut self, env: &ActEnv, call: &ToolCall) {
        let query = call
            .params
            .get("query")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let hits = {
            let mut state = write(&env.state);
            let hits = state
                .archive
                .search(&query, &state.constraints, &state.registry);
            for r in archive::found_refs(&hits) {
                if state.registry.touch(&r, env.turn) {
                    push_unique(&mut self.entities, &r);
                }
            }
            hits
        };
        let rows = hits.len();
        self.history.extend(hits);
        self.last_error = None;
        self.calls.push(ToolCallRecord {
            tool: archive::SEARCH_HISTORY.to_string(),
            table: "history".to_string(),
            rows,
            error: None,
        });
        env.events.send(|id| PipelineEvent::ToolCalled {
            id,
            step: self.index,
            tool: archive::SEARCH_HISTORY.to_string(),
            table: "history".to_string(),
            rows,
            error: None,
        });
    }

    /// Executes a tool call on the kitchen with the registry.
    fn call_tool(&mut self, env: &ActEnv, call: ToolCall) {
        if call.tool == archive::SEARCH_HISTORY {
            self.search_history(env, &call);
            return;
        }
        let table = call
            .params
            .get("table")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let writes = call.tool != "db_read";
        if writes {
            judge_before_write(env);
        }
        let (outcome, held) = {
            let mut kitchen = lock(&env.kitchen);
            let mut state = write(&env.state);
            // Each write is shown to the standing constraints first: what
            // touches an entity they cover, unnamed, is held back.
            let (guarded, named, namer) = if writes {
                (
                    guarded(&state, &env.user_message),
                    let_through(&state, &env.user_message),
                    Namer::new(&state),
                )
            } else {
                (Vec::new(), Vec::new(), Namer::default())
            };
            let mut check = StandingCheck::new(guarded, namer).with_named(named);
            let outcome = kitchen.execute_checked(&call, &mut state.registry, env.turn, &mut check);
            if let Ok(r) = &outcome {
                state.remember_rows(&r.rows);
            }
            let (held, through) = check.into_parts();
            if outcome.is_ok() {
                self.through.extend(through);
            }
            (outcome, held)
        };
        let all_held = matches!(outcome, Err(ToolError::HeldBack(_)));
        self.held_call = all_held.then(|| held.clone());
        self.held.extend(held);
        let (rows, error) = match outcome {
            Ok(result) => {
                let rows = result.count;
                for row in &result.rows {
                    if let Some(r) = row.get("id").and_then(Value::as_str) {
                        push_unique(&mut self.entities, r);
                    }
                }
                self.results.push(result);
                self.last_error = None;
                (rows, None)
            }
            Err(e) => {
                self.last_error = Some(e.to_string());
                (0, Some(e.to_string()))
            }
        };
        self.calls.push(ToolCallRecord {
            tool: call.tool.clone(),
            table: table.clone(),
            rows,
            error: error.clone(),
        });
        env.events.send(|id| PipelineEvent::ToolCalled {
            id,
            step: self.index,
            tool: call.tool.clone(),
            table: table.clone(),
            rows,
            error,
        });
        if call.tool == "db_read" && rows == 0 && self.last_error.is_none() {
            let n = self.empty_reads.entry(table.clone()).or_insert(0);
            *n += 1;
            if *n >= 2 {
                self.complete(env, format!("no {table} rows found"), Value::Null, None);
            }
        }
    }

    /// Finishes the step: keeps its data, registers artifacts, touches refs.
    fn complete(&mut self, env: &ActEnv, summary: String, data: Value, note: Option<String>) {
        let mut state = write(&env.state);
        self.data = match self.step.step_type {
            StepType::Generate => {
                register_artifacts(&mut state, data, env.turn, &mut self.entities)
            }
            _ if data.is_null() && !self.history.is_empty() => Value::Array(self.history.clone()),
            _ if data.is_null() => {
                Value::Array(self.results.iter().flat_map(|r| r.rows.clone()).collect())
            }
            _ => data,
        };
        // Reads and writes were registered by the kitchen; an analysis or a
        // draft touches the refs it names.
        let mut mentioned = Vec::new();
        if matches!(self.step.step_type, StepType::Analyze | StepType::Generate) {
            collect_refs(&self.data, &state, &mut mentioned);
        }
        for r in mentioned {
            state.registry.touch(&r, env.turn);
            push_unique(&mut self.entities, &r);
        }
        self.summary = summary;
        self.note = note.filter(|n| !n.trim().is_empty());
        self.finished = true;
    }

    fn stop(&mut self, stop: Stop) {
        self.summary = match &stop {
            Stop::AskUser(q) => format!("asked the user: {q}"),
            Stop::Blocked(r) => format!("blocked: {r}"),
        };
        self.stop = Some(stop);
        self.finished = true;
    }

    fn into_outcome(self) -> StepOutcome {
        StepOutcome {
            index: self.index,
            step: self.step.clone(),
            calls: self.calls,
            data: self.data,
            summary: self.summary,
            note: self.note,
            entities: self.entities,
            stop: self.stop,
            usage: self.usage,
            held: self.held,
            through: self.through,
        }
    }
}

/// Judges the recipes this turn touched that no loaded content can judge
/// yet, so a write is checked against what the constraints cover now. A
/// lookup that fails leaves the earlier judgement (and says so in the log).
fn judge_before_write(env: &ActEnv) {
    let state = Arc::clone(&lock(&env.state));
    let wanted = state.recipes_without_facts(false);
    if wanted.is_empty() {
        return;
    }
    match super::standing::fetch_facts(&state, &env.kitchen, &wanted) {
        Ok(facts) => {
            drop(state);
            write(&env.state).refresh_constraints(&|r| facts.get(r).cloned());
        }
        Err(e) => tracing::warn!(error = %e, "judging recipes before a write"),
    }
}

fn push_unique(v: &mut Vec<String>, r: &str) {
    if !v.iter().any(|x| x == r) {
        v.push(r.to_string());
    }
}

/// Every live ref named anywhere in a value (strings and object keys).
fn collect_refs(v: &Value, state: &ContextState, out: &mut Vec<String>) {
    match v {
        Value::String(s) if state.registry.is_live_ref(s) => push_unique(out, s),
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, state, out)),
        Value::Object(o) => {
            for (k, x) in o {
                if state.registry.is_live_ref(k) {
                    push_unique(out, k);
                }
                collect_refs(x, state, out);
            }
        }
        _ => {}
    }
}

/// Registers a generate step's artifacts as pending gen refs (or edits of
/// existing ones keyed by their gen ref) and returns them, each with its ref
/// under `id`.
fn register_artifacts(
    state: &mut ContextState,
    data: Value,
    turn: u32,
    entities: &mut Vec<String>,
) -> Value {
    let mut out = Vec::new();
    let Value::Object(mut obj) = data else {
        return data;
    };
    let fresh = match obj.remove("artifacts") {
        Some(Value::Array(items)) => items,
        Some(one @ Value::Object(_)) => vec![one],
        _ => Vec::new(),
    };
    for item in fresh {
        let Value::Object(mut content) = item else {
            continue;
        };
        let table = artifact_table(&mut content);
        let label = artifact_label(&content);
        let r =
            state
                .registry
                .register_generated(table, &label, Value::Object(content.clone()), turn);
        content.insert("id".into(), Value::String(r.clone()));
        push_unique(entities, &r);
        out.push(Value::Object(content));
    }
    for (key, value) in obj {
        let Value::Object(mut content) = value else {
            continue;
        };
        if state.registry.artifact(&key).is_none() {
            continue;
        }
        content.remove("table");
        content.remove("id");
        let label = artifact_label(&content);
        if state
            .registry
            .update_generated(&key, &label, Value::Object(content.clone()), turn)
            .is_ok()
        {
            content.insert("id".into(), Value::String(key.clone()));
            push_unique(entities, &key);
            out.push(Value::Object(content));
        }
    }
    state.remember_rows(&out);
    Value::Array(out)
}

fn artifact_table(content: &mut Map<String, Value>) -> Table {
    let named = content
        .remove("table")
        .or_else(|| content.remove("type"))
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    Table::from_name(&named)
        .or_else(|| Table::from_prefix(&named))
        .or_else(|| Table::ALL.into_iter().find(|t| t.entity_type() == named))
        .unwrap_or(Table::Recipes)
}

fn artifact_label(content: &Map<String, Value>) -> String {
    ["name", "title", "label"]
        .iter()
        .find_map(|k| content.get(*k).and_then(Value::as_str))
        .map(str::to_string)
        .or_else(|| {
            let date = content.get("date").and_then(Value::as_str)?;
            let slot = content
                .get("meal_type")
                .and_then(Value::as_str)
                .unwrap_or("meal");
            Some(crate::kitchen::meal_plan_label(date, slot))
        })
        .unwrap_or_else(|| "draft".to_string())
}
