//! Think's decision about a turn and the type of each planned step, named
//! once: the pipeline decides them, the turn record and the turn narrative
//! keep them. In the narrative's JSON they are the same words as ever
//! ("plan_direct", "write"); an empty or unknown word, from an older or an
//! imported session, reads as none.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Think's decision about the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Execute the steps now.
    #[default]
    PlanDirect,
    /// Propose first; nothing runs this turn.
    Propose,
    /// Ask a question first; nothing runs this turn.
    Clarify,
}

impl Decision {
    /// The decision a record's word names ("propose"), if any.
    pub fn from_word(word: &str) -> Option<Self> {
        [Decision::PlanDirect, Decision::Propose, Decision::Clarify]
            .into_iter()
            .find(|d| d.as_str() == word)
    }

    /// The snake_case word of the turn record.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::PlanDirect => "plan_direct",
            Decision::Propose => "propose",
            Decision::Clarify => "clarify",
        }
    }
}

/// What a step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepType {
    /// Fetch rows with db_read.
    Read,
    /// Reason over data already loaded; no tool calls needed.
    Analyze,
    /// Create new content (a recipe, a meal plan) that is not saved yet.
    Generate,
    /// Change the store: db_create / db_update / db_delete.
    Write,
}

impl StepType {
    /// The step type a record's word names ("read"), if any.
    pub fn from_word(word: &str) -> Option<Self> {
        [
            StepType::Read,
            StepType::Analyze,
            StepType::Generate,
            StepType::Write,
        ]
        .into_iter()
        .find(|t| t.as_str() == word)
    }

    /// The lowercase word used in prompts and records.
    pub fn as_str(self) -> &'static str {
        match self {
            StepType::Read => "read",
            StepType::Analyze => "analyze",
            StepType::Generate => "generate",
            StepType::Write => "write",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for StepType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A type written as one word.
pub trait Word: Copy + Sized {
    /// The value a word names, if any.
    fn from_word(word: &str) -> Option<Self>;
    /// Its word.
    fn word(self) -> &'static str;
}

impl Word for Decision {
    fn from_word(word: &str) -> Option<Self> {
        Decision::from_word(word)
    }
    fn word(self) -> &'static str {
        self.as_str()
    }
}

impl Word for StepType {
    fn from_word(word: &str) -> Option<Self> {
        StepType::from_word(word)
    }
    fn word(self) -> &'static str {
        self.as_str()
    }
}

/// Serde for an optional [`Word`] as a string: its word, or "" for none;
/// any word it does not know reads as none.
pub mod optional_word {
    use super::*;

    /// Writes the word, or "".
    pub fn serialize<T: Word, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.map_or("", Word::word))
    }

    /// Reads a word (or null) as the value it names.
    pub fn deserialize<'de, T: Word, D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
        let word: Option<String> = Option::deserialize(d)?;
        Ok(word.as_deref().map(str::trim).and_then(T::from_word))
    }
}

#[cfg(test)]
mod tests {
    use crate::context::{StepExecutionSummary, TurnExecutionSummary};
    use serde_json::json;

    use super::*;

    #[test]
    fn the_narrative_reads_and_writes_the_words_it_always_did() {
        let old = json!({
            "turn_number": 3,
            "decision": "plan_direct",
            "steps": [
                {"description": "Save it", "step_type": "write"},
                {"description": "Older", "step_type": ""},
                {"description": "Someone else's", "step_type": "search"}
            ]
        });
        let t: TurnExecutionSummary = serde_json::from_value(old).expect("reads");
        assert_eq!(t.decision, Some(Decision::PlanDirect));
        let types: Vec<Option<StepType>> = t.steps.iter().map(|s| s.step_type).collect();
        assert_eq!(types, [Some(StepType::Write), None, None]);
        let back = serde_json::to_value(&t).expect("writes");
        assert_eq!(back["decision"], "plan_direct");
        assert_eq!(back["steps"][0]["step_type"], "write");
        assert_eq!(back["steps"][1]["step_type"], "");
        // An entry with no decision yet (a running turn) writes "" and a
        // null reads as none.
        let running = serde_json::to_value(TurnExecutionSummary::default()).expect("writes");
        assert_eq!(running["decision"], "");
        let null: StepExecutionSummary =
            serde_json::from_value(json!({"step_type": null})).expect("reads");
        assert_eq!(null.step_type, None);
    }
}
