//! One turn, end to end: Understand → Think → Act → Reply → Summarize.
//!
//! The turn works on its own copy of the session's context and hands the new
//! state back only when it succeeds; its kitchen writes are one transaction,
//! rolled back when the turn fails or is cancelled (the future dropped). The
//! reply streams as it is written; compression of older turns runs after the
//! reply, inside the turn, so it is done before the next turn's Understand.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::mpsc;

use crate::context::{
    ContextSnapshot, ContextState, ConversationPhase, FoldRequest, RefAction, StepExecutionSummary,
};
use crate::kitchen::Kitchen;
use crate::prompt::act::StepData;
use crate::prompt::reply::{ReplyInput, ReplyPath, build_reply};
use crate::prompt::think::{ThinkInput, build_think};
use crate::prompt::understand::{UnderstandInput, build_understand};
use crate::prompt::{Prompt, build_fold, build_reply_summary};
use crate::record::{PromptRecord, TurnRecord, TurnStatus};

use super::act::{ActEnv, StepOutcome, Stop, run_plan, step_data};
use super::brain::{
    Brain, BrainError, CompressRequest, Decided, ReplyRequest, ReplySink, SummarizeRequest,
    ThinkRequest, UnderstandRequest, Usage,
};
use super::events::{Node, PipelineEvent, TurnId};
use super::summarize::{self, TurnFacts};
use super::support::{EventSink, TxGuard, estimate_usage, lock, ms, usage_of};
use super::templates::SystemPrompts;
use super::types::{Decision, SUBDOMAINS, ThinkOutput, UnderstandOutput};

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

/// Runs one turn and emits its events, ending with `TurnDone` or `TurnFailed`.
pub async fn run_turn(
    brain: Arc<dyn Brain>,
    kitchen: Arc<Mutex<Kitchen>>,
    settings: Arc<TurnSettings>,
    req: TurnRequest,
    events: mpsc::UnboundedSender<PipelineEvent>,
) -> TurnResult {
    let sink = EventSink::new(req.id, events);
    let started = Instant::now();
    let mut run = Run::new(&*brain, &kitchen, &settings, &sink, &req);
    let result = run.execute(req.state.clone()).await;
    run.timings.insert("total".into(), ms(started));
    match result {
        Ok(state) => {
            let record = Box::new(run.record(TurnStatus::Ok, None));
            let state = Box::new(state);
            sink.send(|id| PipelineEvent::TurnDone {
                id,
                record: record.clone(),
                state: state.clone(),
            });
            TurnResult::Done { record, state }
        }
        Err(error) => {
            tracing::warn!(turn = %req.id, %error, "turn failed");
            let mut record = run.record(TurnStatus::Failed, Some(error));
            // The layers as they were: a failed turn changes nothing.
            record.set_snapshot(req.state.snapshot());
            record.turn = req.state.turn + 1;
            let record = Box::new(record);
            sink.send(|id| PipelineEvent::TurnFailed {
                id,
                record: record.clone(),
            });
            TurnResult::Failed { record }
        }
    }
}

/// The turn's working state and what its record collects.
struct Run<'a> {
    brain: &'a dyn Brain,
    kitchen: &'a Mutex<Kitchen>,
    settings: &'a TurnSettings,
    sink: &'a EventSink,
    message: &'a str,
    today: &'a str,
    record: TurnRecord,
    timings: BTreeMap<String, f64>,
    usage: Usage,
}

impl<'a> Run<'a> {
    fn new(
        brain: &'a dyn Brain,
        kitchen: &'a Mutex<Kitchen>,
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
        }
    }

    fn record(&mut self, status: TurnStatus, error: Option<String>) -> TurnRecord {
        let mut r = std::mem::take(&mut self.record);
        r.status = status;
        r.error = error;
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

    /// Announces a node and starts its clock.
    fn start_node(&self, node: Node) -> Instant {
        let started = Instant::now();
        self.sink.send(|id| PipelineEvent::NodeStarted { id, node });
        started
    }

    /// Asks the brain to compress one fold of older turns; the caller applies
    /// it (and accounts for it when the turn records it).
    async fn compress(
        &self,
        fold: &FoldRequest,
    ) -> Result<(Prompt, Decided<Option<String>>), BrainError> {
        let prompt = build_fold(fold, &self.settings.prompts.compress);
        let req = CompressRequest {
            fold,
            prompt: &prompt,
        };
        let out = self.brain.compress(&req).await?;
        Ok((prompt, out))
    }

    async fn execute(&mut self, mut state: ContextState) -> Result<ContextState, String> {
        self.fold_pending(&mut state).await?;
        let turn = state.begin_turn();
        self.record.turn = turn;
        self.sink.send(|id| PipelineEvent::TurnStarted { id, turn });
        let tx = TxGuard::begin(self.kitchen)?;
        let today_date = self
            .today
            .parse()
            .map_err(|e| format!("bad date {}: {e}", self.today))?;
        let session = lock(self.kitchen)
            .session_context(today_date)
            .map_err(|e| format!("the kitchen store could not be read: {e}"))?;

        let understand = self.understand(&mut state, turn).await?;
        let think = self.think(&state, &understand, &session).await?;
        let steps = self.act(&mut state, &understand, &think, turn).await?;
        let acted = Acted::new(&state, &understand, &think, &steps, turn);
        let reply = self.reply(&acted).await?;
        self.summarize(&mut state, &acted, &reply).await?;
        tx.commit()?;
        Ok(state)
    }

    /// Folds left over from an earlier turn (a session saved before its fold
    /// finished) are done before Understand reads the layers.
    async fn fold_pending(&mut self, state: &mut ContextState) -> Result<(), String> {
        for fold in state.fold_requests() {
            let (_, out) = self.compress(&fold).await.map_err(|e| e.to_string())?;
            state.complete_fold(&fold, out.value);
        }
        Ok(())
    }

    async fn understand(
        &mut self,
        state: &mut ContextState,
        turn: u32,
    ) -> Result<UnderstandOutput, String> {
        let started = self.start_node(Node::Understand);
        let snapshot = state.snapshot();
        let turns: Vec<_> = state.understand_turns.iter().cloned().collect();
        let input = UnderstandInput {
            user_message: self.message,
            snapshot: &snapshot,
            recent_turns: &turns,
            pending_clarification: pending_question(state),
            system: &self.settings.prompts.understand,
        };
        let prompt = build_understand(&input);
        let req = UnderstandRequest {
            input: &input,
            prompt: &prompt,
            state,
        };
        let decided = self
            .brain
            .understand(&req)
            .await
            .map_err(|e| node_error(Node::Understand, e))?;
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
        self.record.prompts.understand = Some(PromptRecord::new(prompt, Some(response)));
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
    ) -> Result<ThinkOutput, String> {
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
        let prompt = build_think(&input);
        let req = ThinkRequest {
            input: &input,
            prompt: &prompt,
            understand,
            state,
        };
        let decided = self
            .brain
            .think(&req)
            .await
            .map_err(|e| node_error(Node::Think, e))?;
        let (usage, response) = usage_of(&prompt, &decided);
        let think = validate_plan(decided.value, self.settings.max_steps);
        self.record.goal = think.goal.clone();
        self.record.decision = Some(think.decision);
        self.record.prompts.think = Some(PromptRecord::new(prompt, Some(response)));
        self.finish_node(Node::Think, started, usage);
        Ok(think)
    }

    async fn act(
        &mut self,
        state: &mut ContextState,
        understand: &UnderstandOutput,
        think: &ThinkOutput,
        turn: u32,
    ) -> Result<Vec<StepOutcome>, String> {
        if think.decision != Decision::PlanDirect || think.steps.is_empty() {
            return Ok(Vec::new());
        }
        let started = self.start_node(Node::Act);
        let shared = Mutex::new(std::mem::take(state));
        let env = ActEnv {
            brain: self.brain,
            kitchen: self.kitchen,
            state: &shared,
            events: self.sink,
            understand,
            user_message: self.message,
            today: self.today,
            system: &self.settings.prompts.act,
            max_tool_calls: self.settings.max_tool_calls_per_step,
            total_steps: think.steps.len(),
            turn,
        };
        let result = run_plan(&env, &think.steps).await;
        *state = shared.into_inner().unwrap_or_else(|e| e.into_inner());
        let steps = result.map_err(|e| node_error(Node::Act, e))?;
        let mut usage = Usage::sum();
        for s in &steps {
            usage.add(s.usage);
            self.record.prompts.act.extend(s.prompts.iter().cloned());
        }
        self.record.steps = summarize::step_records(&steps);
        self.finish_node(Node::Act, started, usage);
        Ok(steps)
    }

    /// Writes the reply, forwarding its chunks as they stream.
    async fn reply(&mut self, acted: &Acted<'_>) -> Result<String, String> {
        let started = self.start_node(Node::Reply);
        let data: Vec<StepData> = acted.steps.iter().map(step_data).collect();
        let input = ReplyInput {
            user_message: self.message,
            snapshot: &acted.snapshot,
            turn_number: acted.turn,
            goal: &acted.think.goal,
            path: reply_path(acted.think, acted.steps),
            steps: &acted.summaries,
            data: &data,
            phase: acted.phase,
            system: &self.settings.prompts.reply,
        };
        let prompt = build_reply(&input);
        let req = ReplyRequest {
            input: &input,
            prompt: &prompt,
            think: acted.think,
            understand: acted.understand,
            data: &data,
            changed: &acted.changed,
        };
        let (reply_sink, mut chunks) = ReplySink::channel();
        let decided = {
            let fut = self.brain.reply(&req, &reply_sink);
            tokio::pin!(fut);
            loop {
                tokio::select! {
                    biased;
                    Some(text) = chunks.recv() => self.sink.send(|id| PipelineEvent::ReplyChunk { id, text }),
                    done = &mut fut => break done,
                }
            }
        };
        drop(reply_sink);
        while let Ok(text) = chunks.try_recv() {
            self.sink.send(|id| PipelineEvent::ReplyChunk { id, text });
        }
        let decided = decided.map_err(|e| node_error(Node::Reply, e))?;
        let text = decided.value.response.clone();
        let usage = decided
            .usage
            .unwrap_or_else(|| estimate_usage(&prompt, &text));
        self.record.reply = text.clone();
        self.record.prompts.reply = Some(PromptRecord::new(prompt, Some(text.clone())));
        self.finish_node(Node::Reply, started, usage);
        Ok(text)
    }

    /// Records the turn in the layers and folds what left the windows.
    async fn summarize(
        &mut self,
        state: &mut ContextState,
        acted: &Acted<'_>,
        reply: &str,
    ) -> Result<(), String> {
        let started = self.start_node(Node::Summarize);
        let labels: Vec<String> = acted
            .snapshot
            .entities
            .recent
            .iter()
            .map(|e| e.label.clone())
            .take(10)
            .collect();
        let prompt = build_reply_summary(reply, &labels, &self.settings.prompts.summarize);
        let req = SummarizeRequest {
            user_message: self.message,
            reply,
            think: acted.think,
            understand: acted.understand,
            steps: &acted.summaries,
            phase: acted.phase,
            prompt: &prompt,
        };
        let decided = self
            .brain
            .summarize(&req)
            .await
            .map_err(|e| node_error(Node::Summarize, e))?;
        let (mut usage, response) = usage_of(&prompt, &decided);
        self.record
            .prompts
            .summarize
            .push(PromptRecord::new(prompt, Some(response)));
        let flow = decided.value;
        let curation = self.record.curation.clone();
        let facts = TurnFacts {
            turn: acted.turn,
            user_message: self.message,
            reply,
            understand: acted.understand,
            curation: &curation,
            think: acted.think,
            steps: acted.steps,
            flow: &flow,
            phase: acted.phase,
        };
        state.record_turn(
            summarize::build_summary(&facts),
            summarize::build_exchange(&facts),
        );
        state.prune_rows();
        for fold in state.fold_requests() {
            let (prompt, out) = self
                .compress(&fold)
                .await
                .map_err(|e| node_error(Node::Summarize, e))?;
            let (u, response) = usage_of(&prompt, &out);
            usage.add(u);
            state.complete_fold(&fold, out.value);
            self.record
                .prompts
                .summarize
                .push(PromptRecord::new(prompt, Some(response)));
        }
        let snapshot = state.snapshot();
        self.record.set_snapshot(snapshot.clone());
        self.finish_node(Node::Summarize, started, usage);
        self.sink.send(|id| PipelineEvent::ContextUpdated {
            id,
            snapshot: Box::new(snapshot),
        });
        Ok(())
    }
}

/// The turn as Reply and Summarize both read it: what Understand, Think and
/// Act decided and did, and the context after Act (neither node changes it
/// before Summarize records the turn).
struct Acted<'t> {
    understand: &'t UnderstandOutput,
    think: &'t ThinkOutput,
    steps: &'t [StepOutcome],
    /// The narrative view of each step.
    summaries: Vec<StepExecutionSummary>,
    phase: ConversationPhase,
    snapshot: ContextSnapshot,
    /// Refs this turn created, updated, generated or deleted.
    changed: Vec<String>,
    turn: u32,
}

impl<'t> Acted<'t> {
    fn new(
        state: &ContextState,
        understand: &'t UnderstandOutput,
        think: &'t ThinkOutput,
        steps: &'t [StepOutcome],
        turn: u32,
    ) -> Self {
        Self {
            understand,
            think,
            steps,
            summaries: summarize::step_summaries(steps),
            phase: summarize::phase(think, steps),
            snapshot: state.snapshot(),
            changed: changed_refs(state, turn),
            turn,
        }
    }
}

fn node_error(node: Node, e: BrainError) -> String {
    format!("{} failed: {e}", node.as_str())
}

/// Enforces the step limit and the known subdomains; a plan with no steps
/// but a proposal is a proposal.
fn validate_plan(mut think: ThinkOutput, max_steps: usize) -> ThinkOutput {
    think
        .steps
        .retain(|s| SUBDOMAINS.contains(&s.subdomain.as_str()));
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
    if last.decision != "propose" && last.decision != "clarify" {
        return None;
    }
    state
        .conversation
        .recent()
        .last()
        .map(|t| t.assistant.clone())
}

/// Refs this turn created, updated, generated or deleted.
fn changed_refs(state: &ContextState, turn: u32) -> Vec<String> {
    state
        .registry
        .entries()
        .into_iter()
        .filter(|(_, e)| e.last_ref_turn == turn)
        .filter(|(_, e)| !matches!(e.action, RefAction::Read | RefAction::Linked))
        .map(|(r, _)| r.to_string())
        .collect()
}

/// Reply's path, from Think's decision and how the steps ended.
fn reply_path(think: &ThinkOutput, steps: &[StepOutcome]) -> ReplyPath {
    match think.decision {
        Decision::Propose => ReplyPath::Propose {
            message: think.proposal_message.clone().unwrap_or_default(),
        },
        Decision::Clarify => ReplyPath::Clarify {
            questions: think.clarification_questions.clone(),
        },
        Decision::PlanDirect => match steps.iter().find_map(|s| s.stop.clone()) {
            Some(Stop::AskUser(q)) => ReplyPath::Clarify { questions: vec![q] },
            Some(Stop::Blocked(reason)) => ReplyPath::Blocked { reason },
            None => ReplyPath::Normal,
        },
    }
}
