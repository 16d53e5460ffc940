//! The LLM judge, on request (`alfred eval --llm-judge`): the commitments
//! the rule-based reading of the raw log found are listed for the model with
//! each turn's Think prompt, and the model says which the prompt lacks.

use crate::brain::SelectError;
use crate::brain::llm::LlmBrain;
use crate::config::Config;
use crate::pipeline::Brain;

use super::judge::{Lapse, Recall, commitments, think_text};
use super::run::Run;

const SYSTEM: &str = "You are the judge of a kitchen assistant's memory. The assistant's \
planner (Think) only sees a pruned context. You are given the user's standing commitments, \
read from the full raw log, and the exact prompt Think saw at one turn. For each commitment, \
decide whether the prompt carries it: the prompt must let Think know it (stated, quoted, \
listed as excluded, listed as pending or active, or summarised), not merely mention a related \
word. Answer with the ids of the commitments the prompt lacks, each with a one-sentence reason; \
an empty list when it carries them all.";

/// The judge and the model it asks.
pub struct LlmJudge {
    brain: LlmBrain,
}

impl LlmJudge {
    /// A judge on `[llm]`, with the key from its variable.
    pub fn from_config(
        config: &Config,
        env: &impl Fn(&str) -> Option<String>,
    ) -> Result<Self, String> {
        let var = &config.llm.api_key_env;
        let key = env(var)
            .map(|k| k.trim().to_string())
            .filter(|k| !k.is_empty())
            .ok_or_else(|| format!("--llm-judge: {}", SelectError::MissingKey(var.clone())))?;
        let brain =
            LlmBrain::new(&config.llm, Some(key)).map_err(|e| format!("--llm-judge: {e}"))?;
        Ok(Self { brain })
    }

    /// A judge on an existing brain.
    pub fn new(brain: LlmBrain) -> Self {
        Self { brain }
    }

    /// The model and server.
    pub fn name(&self) -> String {
        self.brain.name()
    }

    /// Judges every turn of `run` at which a commitment stands.
    pub async fn judge(&self, run: &Run) -> Result<Recall, String> {
        let found = commitments(&run.turns);
        let mut recall = Recall {
            commitments: found.len(),
            ..Recall::default()
        };
        for o in &run.turns {
            let turn = o.record.turn;
            let standing: Vec<(u32, &super::judge::Commitment)> = found
                .iter()
                .filter(|c| c.stands_at(turn))
                .enumerate()
                .map(|(i, c)| (i as u32 + 1, c))
                .collect();
            let Some(text) = think_text(&o.record) else {
                continue;
            };
            if standing.is_empty() {
                continue;
            }
            let list: Vec<String> = standing
                .iter()
                .map(|(id, c)| {
                    format!(
                        "{id}. [{}] {} (since turn {})",
                        c.kind.as_str(),
                        c.what,
                        c.made
                    )
                })
                .collect();
            let user = format!(
                "Standing commitments at turn {turn}:\n{}\n\nThe prompt Think saw at turn {turn}:\n<prompt>\n{text}\n</prompt>",
                list.join("\n")
            );
            let verdict = self
                .brain
                .judge_recall(SYSTEM, user)
                .await
                .map_err(|e| format!("the LLM judge failed at turn {turn}: {e}"))?;
            recall.checks += standing.len();
            for m in verdict.value.missing {
                if let Some((_, c)) = standing.iter().find(|(id, _)| *id == m.id) {
                    recall.lapses.push(Lapse {
                        turn,
                        kind: c.kind,
                        what: format!("{} — {}", c.what, m.why.trim()),
                    });
                }
            }
        }
        Ok(recall)
    }
}
