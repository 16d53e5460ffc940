//! Understand's working notes: the refs resolved, the mentions, the
//! curation (demote, drop, retain), the standing constraints and the one
//! question to ask — what every Understand rule adds to.

use crate::context::{ConstraintChanges, RefDecision, RetentionDecision};
use crate::pipeline::{EntityMention, Resolution};

use super::text::join_list;
use super::world::World;

/// Understand's working notes, turned into an [`UnderstandOutput`].
#[derive(Debug, Default)]
pub struct Draft {
    pub referenced: Vec<String>,
    pub mentions: Vec<EntityMention>,
    pub demote: Vec<RefDecision>,
    pub drop: Vec<RefDecision>,
    pub retain: Vec<RetentionDecision>,
    pub clear_all: bool,
    pub question: Option<String>,
    /// Standing constraints stated, lifted or excepted.
    pub constraints: ConstraintChanges,
}

impl Draft {
    /// Records a resolved reference (touched by the pipeline).
    pub fn reference(&mut self, text: &str, r: &str) {
        if !self.referenced.iter().any(|x| x == r) {
            self.referenced.push(r.to_string());
        }
        self.mentions.push(EntityMention {
            text: text.to_string(),
            resolution: Resolution::Exact,
            resolved_ref: Some(r.to_string()),
            candidates: Vec::new(),
        });
    }

    /// True when this turn's curation already demotes `r`.
    pub fn demoted(&self, r: &str) -> bool {
        self.demote.iter().any(|d| d.r#ref == r)
    }

    /// Asks which of `candidates` the user meant.
    pub fn ask_which(
        &mut self,
        world: &World<'_>,
        text: &str,
        candidates: &[String],
        or_both: bool,
    ) {
        // One candidate is the answer, not a question.
        if let [only] = candidates {
            self.reference(text, only);
            return;
        }
        let labels: Vec<String> = candidates.iter().map(|r| world.label(r)).collect();
        let tail = if or_both && candidates.len() == 2 {
            " Or both?"
        } else {
            ""
        };
        // More than a handful is no choice to read through: the first
        // few, and the name asked for.
        self.question = Some(if labels.len() > 4 {
            format!(
                "{} things here could fit, like {} — which one do you mean?",
                labels.len(),
                join_list(&labels[..3], "or")
            )
        } else {
            format!("Which one do you mean: {}?{tail}", join_list(&labels, "or"))
        });
        self.mentions.push(EntityMention {
            text: text.to_string(),
            resolution: Resolution::Ambiguous,
            resolved_ref: None,
            candidates: candidates.to_vec(),
        });
    }

    /// Records a phrase that names nothing known.
    pub fn unknown(&mut self, text: &str) {
        self.mentions.push(EntityMention {
            text: text.to_string(),
            resolution: Resolution::Unknown,
            resolved_ref: None,
            candidates: Vec::new(),
        });
    }
}
