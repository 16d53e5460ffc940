//! Summarize's node: asks the brain for the turn's flow, records the turn
//! in the layers (its narrative entry, its exchange, its archive digest;
//! the deterministic work is `pipeline/summarize.rs`), prunes loaded rows,
//! and folds the turns that left the windows.

use crate::context::{ContextState, Dialogue, archive};
use crate::pipeline::act::{StepOutcome, Stop};
use crate::pipeline::brain::{CompressRequest, SummarizeRequest};
use crate::pipeline::events::{Node, PipelineEvent};
use crate::pipeline::hold;
use crate::pipeline::run::{Called, Run};
use crate::pipeline::standing;
use crate::pipeline::summarize::{self, TurnFacts};
use crate::pipeline::support::usage_of;
use crate::prompt::{build_fold, build_reply_summary};
use crate::record::PromptRecord;
use crate::turn::TurnError;

use super::Acted;

impl Run<'_> {
    /// Records the turn in the layers and folds what left the windows.
    pub(in crate::pipeline) async fn summarize(
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
        let brain = self.brain;
        let message = self.message;
        let answered = self
            .call_node(Called::Summarize, started, prompt, async |prompt, calls| {
                let req = SummarizeRequest {
                    user_message: message,
                    reply,
                    think: acted.think,
                    understand: acted.understand,
                    steps: &acted.summaries,
                    phase: acted.phase,
                    prompt,
                    calls,
                };
                brain.summarize(&req).await
            })
            .await?;
        let (mut usage, response) = usage_of(&answered.prompt, &answered.decided);
        self.keep_prompt(
            Called::Summarize,
            PromptRecord::new(answered.prompt, Some(response), answered.calls),
        );
        let decided = answered.decided;
        let flow = decided.value;
        let curation = self.record.curation.clone();
        let mut standing = standing::describe(state, &self.record.constraint_changes);
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
        state.archive.push(archive::digest(
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
            let prompt = build_fold(&fold, &self.settings.prompts.compress);
            let answered = self
                .call_node(Called::Summarize, started, prompt, async |prompt, calls| {
                    let req = CompressRequest {
                        fold: &fold,
                        prompt,
                        calls,
                    };
                    brain.compress(&req).await
                })
                .await;
            let answered = match answered {
                Ok(answered) => answered,
                Err(error) => {
                    // The summary's own tokens were spent too.
                    self.usage.add(usage);
                    return Err(error);
                }
            };
            let (u, response) = usage_of(&answered.prompt, &answered.decided);
            usage.add(u);
            state.complete_fold(&fold, answered.decided.value);
            self.keep_prompt(
                Called::Summarize,
                PromptRecord::new(answered.prompt, Some(response), answered.calls),
            );
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

/// The question a step stopped to ask the user, if one did.
fn act_question(steps: &[StepOutcome]) -> Option<&str> {
    steps.iter().find_map(|s| match &s.stop {
        Some(Stop::AskUser(q)) => Some(q.as_str()),
        _ => None,
    })
}
