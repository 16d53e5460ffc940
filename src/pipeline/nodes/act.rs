//! Act's node: hands the plan to the step engine (`pipeline/act.rs`, the
//! same for every brain), then takes the context back from the steps and
//! records their prompts, outcomes and tokens.

use std::sync::{Arc, Mutex};

use crate::context::ContextState;
use crate::pipeline::act::{ActEnv, StepOutcome, run_plan};
use crate::pipeline::brain::Usage;
use crate::pipeline::events::Node;
use crate::pipeline::run::Run;
use crate::pipeline::summarize::step_records;
use crate::pipeline::support::lock;
use crate::pipeline::types::{Decision, ThinkOutput, UnderstandOutput};
use crate::record::CallRecord;
use crate::turn::TurnError;

impl Run<'_> {
    /// Runs the plan's steps (when Think planned any) on the turn's
    /// context, and records each step and its prompts.
    pub(in crate::pipeline) async fn act(
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
        self.record.steps = step_records(&steps);
        self.finish_node(Node::Act, started, usage);
        Ok(steps)
    }
}
