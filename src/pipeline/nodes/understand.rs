//! Understand: reads the message against the layers (which refs it names,
//! what it curates, which standing constraints it sets or lifts) and applies
//! that to the turn's copy of the context.

use crate::context::ContextState;
use crate::pipeline::brain::UnderstandRequest;
use crate::pipeline::events::{Node, PipelineEvent};
use crate::pipeline::run::{Called, Run};
use crate::pipeline::standing;
use crate::pipeline::suggest::kitchen_names;
use crate::pipeline::support::usage_of;
use crate::pipeline::types::{Decision, UnderstandOutput};
use crate::prompt::understand::{UnderstandInput, build_understand};
use crate::record::PromptRecord;
use crate::turn::TurnError;

impl Run<'_> {
    /// Runs Understand and applies its reading to `state`: the refs it
    /// touched, its curation, its constraint changes.
    pub(in crate::pipeline) async fn understand(
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
        let brain = self.brain;
        let read: &ContextState = state;
        let answered = self
            .call_node(
                Called::Understand,
                started,
                build_understand(&input),
                async |prompt, calls| {
                    let req = UnderstandRequest {
                        input: &input,
                        prompt,
                        state: read,
                        kitchen: &names,
                        calls,
                    };
                    brain.understand(&req).await
                },
            )
            .await?;
        let (usage, response) = usage_of(&answered.prompt, &answered.decided);
        let out = answered.decided.value;
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
        self.record.constraint_changes = standing::apply(state, &out.constraints, self.kitchen)?;
        self.keep_prompt(
            Called::Understand,
            PromptRecord::new(answered.prompt, Some(response), answered.calls),
        );
        self.finish_node(Node::Understand, started, usage);
        self.sink.send(|id| PipelineEvent::ContextUpdated {
            id,
            snapshot: Box::new(state.snapshot()),
        });
        Ok(out)
    }
}

/// What Alfred asked or proposed last turn, when the user may be answering it.
pub(in crate::pipeline) fn pending_question(state: &ContextState) -> Option<String> {
    let last = state.narrative.recent().last()?;
    if !matches!(last.decision, Some(Decision::Propose | Decision::Clarify)) {
        return None;
    }
    state
        .conversation
        .recent()
        .last()
        .map(|t| t.assistant.clone())
}
