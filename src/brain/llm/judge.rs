//! The arena's LLM judge: one structured call per judged turn, answered by
//! the Think model, saying which standing commitments a prompt is missing.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::config::LlmNode;
use crate::pipeline::{BrainError, CallLog, Decided};

use super::client::LlmBrain;
use super::schema::StrictSchema;
use super::structured::{Ask, Checked};

/// One commitment the prompt does not carry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MissingCommitment {
    /// The number the commitment was listed under.
    pub id: u32,
    /// Why it counts as missing, in a sentence.
    pub why: String,
}

/// The judge's answer about one prompt.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RecallVerdict {
    /// The commitments the prompt lacks; empty when it carries them all.
    pub missing: Vec<MissingCommitment>,
}

impl Checked for RecallVerdict {}

impl LlmBrain {
    /// Asks the Think model which of the listed commitments `user` (the
    /// commitments and the prompt, as text) lacks.
    pub async fn judge_recall(
        &self,
        system: &str,
        user: String,
    ) -> Result<Decided<RecallVerdict>, BrainError> {
        let schema = StrictSchema::of::<RecallVerdict>("recall_verdict");
        self.decide(Ask {
            node: LlmNode::Think,
            schema: &schema,
            system,
            user,
            calls: &CallLog::default(),
        })
        .await
    }
}
