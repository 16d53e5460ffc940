//! The nodes that close a turn: Reply (its prompt, its streamed chunks,
//! its path, and what was held back said in it whatever the brain wrote) and Summarize (the turn's narrative and exchange recorded, rows
//! pruned, older turns folded). Both read the turn through one [`Acted`].

use crate::context::{
    ContextSnapshot, ContextState, ConversationPhase, Dialogue, RefAction, StepExecutionSummary,
};
use crate::pipeline::act::{StepOutcome, Stop, step_data};
use crate::pipeline::brain::{CallLog, ReplyRequest, ReplySink, SummarizeRequest};
use crate::pipeline::events::{Node, PipelineEvent};
use crate::pipeline::hold;
use crate::pipeline::summarize::{self, TurnFacts};
use crate::pipeline::support::{Counting, estimate_usage, usage_of};
use crate::pipeline::types::{Decision, ThinkOutput, UnderstandOutput};
use crate::prompt::act::StepData;
use crate::prompt::build_reply_summary;
use crate::prompt::reply::{ReplyInput, ReplyPath, build_reply};
use crate::record::{HeldBack, PromptRecord};
use crate::turn::TurnError;

use super::Run;

impl Run<'_> {
    /// Writes the reply, forwarding its chunks as they stream.
    pub(super) async fn reply(
        &mut self,
        acted: &Acted<'_>,
    ) -> Result<(String, Option<Dialogue>), TurnError> {
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
        let mut prompt = build_reply(&input);
        let counting = Counting::beside(&mut prompt, &**self.brain);
        let calls = CallLog::default();
        let req = ReplyRequest {
            input: &input,
            prompt: &prompt,
            think: acted.think,
            understand: acted.understand,
            data: &data,
            changed: &acted.changed,
            calls: &calls,
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
        counting.apply(&mut prompt).await;
        let decided = match decided {
            Ok(decided) => decided,
            Err(e) => {
                let calls = calls.take();
                let error = self.failed(Node::Reply, started, &calls, e);
                self.record.prompts.reply = Some(PromptRecord::new(prompt, None, calls));
                return Err(error);
            }
        };
        let said = decided.value.response.clone();
        let usage = decided
            .usage
            .unwrap_or_else(|| estimate_usage(&prompt, &said));
        // What was held back reaches the user whatever the brain wrote:
        // the sentences its reply lacks are added, streamed like the rest.
        let mut text = said.clone();
        let missing = hold::missing_from(&text, &acted.held);
        if !missing.is_empty() {
            let added = format!("\n\n{}", missing.join(" "));
            let added = if text.trim().is_empty() {
                added.trim_start().to_string()
            } else {
                added
            };
            text.push_str(&added);
            self.sink
                .send(|id| PipelineEvent::ReplyChunk { id, text: added });
        }
        self.record.reply = text.clone();
        self.record.reply_cut = decided
            .value
            .cut_at_tokens
            .map(|n| format!("cut off at the {n}-token limit (llm.max_tokens.reply)"));
        self.record.prompts.reply = Some(PromptRecord::new(prompt, Some(said), calls.take()));
        self.finish_node(Node::Reply, started, usage);
        // The layers remember that the reply stopped short, so the next
        // turn's model knows to go on when the user asks.
        let text = match decided.value.cut_at_tokens {
            Some(_) => format!("{text} [cut off: the reply reached its token limit]"),
            None => text,
        };
        Ok((text, decided.value.dialogue))
    }

    /// Records the turn in the layers and folds what left the windows.
    pub(super) async fn summarize(
        &mut self,
        state: &mut ContextState,
        acted: &Acted<'_>,
        reply: &str,
        dialogue: Option<Dialogue>,
    ) -> Result<(), TurnError> {
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
        let calls = CallLog::default();
        let req = SummarizeRequest {
            user_message: self.message,
            reply,
            think: acted.think,
            understand: acted.understand,
            steps: &acted.summaries,
            phase: acted.phase,
            prompt: &prompt,
            calls: &calls,
        };
        let decided = match self.brain.summarize(&req).await {
            Ok(decided) => decided,
            Err(e) => {
                let calls = calls.take();
                let error = self.failed(Node::Summarize, started, &calls, e);
                (self.record.prompts.summarize).push(PromptRecord::new(prompt, None, calls));
                return Err(error);
            }
        };
        let (mut usage, response) = usage_of(&prompt, &decided);
        self.record
            .prompts
            .summarize
            .push(PromptRecord::new(prompt, Some(response), calls.take()));
        let flow = decided.value;
        let curation = self.record.curation.clone();
        let mut standing =
            crate::pipeline::standing::describe(state, &self.record.constraint_changes);
        standing.extend(hold::narrative_lines(&acted.held));
        let dialogue = dialogue.unwrap_or_else(|| {
            let known: Vec<(String, String)> = state
                .registry
                .entries()
                .into_iter()
                .map(|(r, e)| (r.to_string(), e.label.clone()))
                .collect();
            summarize::derive_dialogue(
                reply,
                self.message,
                acted.think,
                acted.understand,
                act_question(acted.steps),
                &known,
            )
        });
        let facts = TurnFacts {
            dialogue: &dialogue,
            standing: &standing,
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
        let summary = summarize::build_summary(&facts);
        let exchange = summarize::build_exchange(&facts);
        let entities = exchange
            .entities_mentioned
            .iter()
            .filter_map(|r| state.registry.get(r).map(|e| (r.clone(), e.label.clone())))
            .collect();
        state.archive.push(crate::context::archive::digest(
            acted.turn,
            self.today,
            self.message,
            reply,
            &acted.think.goal,
            entities,
        ));
        state.record_turn(summary, exchange);
        state.prune_rows();
        for fold in state.fold_requests() {
            if !state.needs_compression(&fold) {
                state.complete_fold(&fold, None);
                continue;
            }
            let (prompt, calls, out) = self.compress(&fold).await;
            let out = match out {
                Ok(out) => out,
                Err(e) => {
                    self.usage.add(usage);
                    let error = self.failed(Node::Summarize, started, &calls, e);
                    (self.record.prompts.summarize).push(PromptRecord::new(prompt, None, calls));
                    return Err(error);
                }
            };
            let (u, response) = usage_of(&prompt, &out);
            usage.add(u);
            state.complete_fold(&fold, out.value);
            self.record
                .prompts
                .summarize
                .push(PromptRecord::new(prompt, Some(response), calls));
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
pub(super) struct Acted<'t> {
    understand: &'t UnderstandOutput,
    think: &'t ThinkOutput,
    steps: &'t [StepOutcome],
    /// The narrative view of each step.
    summaries: Vec<StepExecutionSummary>,
    phase: ConversationPhase,
    snapshot: ContextSnapshot,
    /// Refs this turn created, updated, generated or deleted.
    changed: Vec<String>,
    /// Writes held back for touching what a standing constraint rules out.
    held: Vec<HeldBack>,
    turn: u32,
}

impl<'t> Acted<'t> {
    /// The narrative view of each step, as it ran.
    pub(super) fn summaries(&self) -> Vec<StepExecutionSummary> {
        self.summaries.clone()
    }

    pub(super) fn new(
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
            held: steps.iter().flat_map(|s| s.held.clone()).collect(),
            turn,
        }
    }
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

/// The question a step stopped to ask the user, if one did.
fn act_question(steps: &[StepOutcome]) -> Option<&str> {
    steps.iter().find_map(|s| match &s.stop {
        Some(Stop::AskUser(q)) => Some(q.as_str()),
        _ => None,
    })
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
