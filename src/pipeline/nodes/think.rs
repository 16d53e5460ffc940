//! Think: plans the turn (steps, a proposal, or questions) from the message,
//! Understand's reading and the kitchen's session context. A message
//! Understand found unclear skips the brain: the plan is to ask.

use crate::context::ContextState;
use crate::pipeline::brain::ThinkRequest;
use crate::pipeline::events::Node;
use crate::pipeline::run::{Called, Run};
use crate::pipeline::support::usage_of;
use crate::pipeline::types::{Decision, SUBDOMAINS, StepType, ThinkOutput, UnderstandOutput};
use crate::prompt::SessionContext;
use crate::prompt::think::{ThinkInput, build_think};
use crate::record::PromptRecord;
use crate::turn::TurnError;

use super::understand::pending_question;

impl Run<'_> {
    /// Runs Think and records its goal and decision.
    pub(in crate::pipeline) async fn think(
        &mut self,
        state: &ContextState,
        understand: &UnderstandOutput,
        session: &SessionContext,
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
        let brain = self.brain;
        let answered = self
            .call_node(
                Called::Think,
                started,
                build_think(&input),
                async |prompt, calls| {
                    let req = ThinkRequest {
                        input: &input,
                        prompt,
                        understand,
                        state,
                        calls,
                    };
                    brain.think(&req).await
                },
            )
            .await?;
        let (usage, response) = usage_of(&answered.prompt, &answered.decided);
        let think = validate_plan(answered.decided.value, self.settings.max_steps);
        self.record.goal = think.goal.clone();
        self.record.decision = Some(think.decision);
        self.keep_prompt(
            Called::Think,
            PromptRecord::new(answered.prompt, Some(response), answered.calls),
        );
        self.finish_node(Node::Think, started, usage);
        Ok(think)
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
