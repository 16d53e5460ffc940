//! Reply: writes the answer from what the turn did, streaming its chunks as
//! they come; what a standing constraint held back is said in it whatever
//! the brain wrote.

use crate::context::Dialogue;
use crate::pipeline::act::{StepOutcome, Stop, step_data};
use crate::pipeline::brain::{ReplyRequest, ReplySink};
use crate::pipeline::events::{Node, PipelineEvent};
use crate::pipeline::hold;
use crate::pipeline::run::{Called, Run};
use crate::pipeline::support::estimate_usage;
use crate::pipeline::types::{Decision, ThinkOutput};
use crate::prompt::act::StepData;
use crate::prompt::reply::{ReplyInput, ReplyPath, build_reply};
use crate::record::PromptRecord;
use crate::turn::TurnError;

use super::Acted;

impl Run<'_> {
    /// Writes the reply, forwarding its chunks as they stream; returns the
    /// reply as the layers keep it and the dialogue the brain read in it.
    pub(in crate::pipeline) async fn reply(
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
        let (brain, sink) = (self.brain, self.sink);
        let answered = self
            .call_node(
                Called::Reply,
                started,
                build_reply(&input),
                async |prompt, calls| {
                    let req = ReplyRequest {
                        input: &input,
                        prompt,
                        think: acted.think,
                        understand: acted.understand,
                        data: &data,
                        changed: &acted.changed,
                        calls,
                    };
                    let (reply_sink, mut chunks) = ReplySink::channel();
                    let decided = {
                        let fut = brain.reply(&req, &reply_sink);
                        tokio::pin!(fut);
                        loop {
                            tokio::select! {
                                biased;
                                Some(text) = chunks.recv() => sink.send(|id| PipelineEvent::ReplyChunk { id, text }),
                                done = &mut fut => break done,
                            }
                        }
                    };
                    drop(reply_sink);
                    while let Ok(text) = chunks.try_recv() {
                        sink.send(|id| PipelineEvent::ReplyChunk { id, text });
                    }
                    decided
                },
            )
            .await?;
        let decided = answered.decided;
        let said = decided.value.response.clone();
        let usage = decided
            .usage
            .unwrap_or_else(|| estimate_usage(&answered.prompt, &said));
        // What was held back reaches the user whatever the brain wrote:
        // the sentences its reply lacks are added, streamed like the rest.
        let mut text = said.clone();
        let mut missing = hold::missing_from(&text, &acted.held);
        missing.extend(
            hold::passed(&acted.through)
                .into_iter()
                .filter(|line| !text.contains(line.as_str())),
        );
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
        self.keep_prompt(
            Called::Reply,
            PromptRecord::new(answered.prompt, Some(said), answered.calls),
        );
        self.finish_node(Node::Reply, started, usage);
        // The layers remember that the reply stopped short, so the next
        // turn's model knows to go on when the user asks.
        let text = match decided.value.cut_at_tokens {
            Some(_) => format!("{text} [cut off: the reply reached its token limit]"),
            None => text,
        };
        Ok((text, decided.value.dialogue))
    }
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
