//! What the last turn left open, as the offline brain reads it: the offer
//! and the question of the last turn's dialogue state, the latest list a
//! reply presented, and the user's last message. All of it is data in the
//! turn narrative (`context::dialogue`); nothing is searched for in the
//! text of past replies.

use crate::context::plan::StepType;
use crate::context::{Dialogue, OfferKind, QuestionKind, TurnExecutionSummary};

/// What the last exchange left open.
#[derive(Debug, Clone, Default)]
pub struct Before {
    /// The user's last message ("" on the first turn).
    pub user: String,
    /// The user's message the turn before that: what a "yes" to a question
    /// about a follow-up ("oh and the spinach too") carries on from.
    pub earlier: String,
    /// The last turn's dialogue state.
    pub dialogue: Dialogue,
    /// The latest list a reply presented, in order (refs).
    pub presented: Vec<String>,
    /// The one recipe the latest reply that presented recipes showed
    /// ("put it on friday" after a recipe card and a pantry question).
    pub last_recipe: Option<String>,
    /// The latest list of two or more recipes a reply presented: what
    /// "the 2nd one" and "the last one" count in.
    pub listed: Vec<String>,
    /// The refs the last turn's write steps touched ("put it back" after a
    /// removal puts these back).
    pub written: Vec<String>,
    /// The refs the newest turn that presented or wrote any touched: what
    /// the talk is about when the last turn only asked or chatted.
    pub touched: Vec<String>,
}

impl Before {
    /// From the narrative turns kept in full, oldest first.
    pub fn from_turns<'a>(
        turns: impl DoubleEndedIterator<Item = &'a TurnExecutionSummary>,
    ) -> Self {
        let mut turns = turns.rev();
        let Some(last) = turns.next() else {
            return Self::default();
        };
        let all: Vec<&TurnExecutionSummary> = std::iter::once(last).chain(turns).collect();
        let presented = all
            .iter()
            .find(|t| !t.dialogue.presented.is_empty())
            .map(|t| t.dialogue.presented_refs())
            .unwrap_or_default();
        let recipe = |r: &String| r.starts_with("recipe_") || r.starts_with("gen_recipe_");
        let last_recipe = all
            .iter()
            .map(|t| t.dialogue.presented_refs())
            .find(|refs| refs.iter().any(recipe))
            .and_then(|refs| {
                let recipes: Vec<String> = refs.into_iter().filter(recipe).collect();
                (recipes.len() == 1).then(|| recipes[0].clone())
            });
        // Newest first: a list of two or more recipes presented, or the
        // list a reply carried on while it answered about one of them.
        let listed = all
            .iter()
            .find_map(|t| {
                // Recipes, or the plan's meals (the recipes on them).
                let recipes: Vec<String> = t
                    .dialogue
                    .presented_refs()
                    .into_iter()
                    .filter(|r| {
                        r.starts_with("recipe_")
                            || r.starts_with("meal_")
                            || r.starts_with("gen_meal_")
                    })
                    .collect();
                if recipes.len() >= 2 {
                    Some(recipes)
                } else if !t.dialogue.listed.is_empty() {
                    Some(t.dialogue.listed.iter().map(|s| s.r#ref.clone()).collect())
                } else {
                    None
                }
            })
            .unwrap_or_default();
        let written_by = |t: &TurnExecutionSummary| -> Vec<String> {
            t.steps
                .iter()
                .filter(|s| s.step_type == Some(StepType::Write))
                .flat_map(|s| s.entities_affected.iter().cloned())
                .collect()
        };
        let written = written_by(last);
        let touched = all
            .iter()
            .map(|t| {
                let mut refs = t.dialogue.presented_refs();
                refs.extend(written_by(t));
                refs
            })
            .find(|refs| !refs.is_empty())
            .unwrap_or_default();
        Self {
            listed,
            written,
            touched,
            user: last.user_message.clone(),
            earlier: all
                .get(1)
                .map(|t| t.user_message.clone())
                .unwrap_or_default(),
            dialogue: last.dialogue.clone(),
            presented,
            last_recipe,
        }
    }

    /// True when the last reply offered this.
    pub fn offered(&self, kind: OfferKind) -> bool {
        self.dialogue.offer.as_ref().is_some_and(|o| o.kind == kind)
    }

    /// The refs of the last reply's offer.
    pub fn offered_refs(&self) -> Vec<String> {
        self.dialogue
            .offer
            .iter()
            .flat_map(|o| o.items.iter().map(|s| s.r#ref.clone()))
            .collect()
    }

    /// True when the last reply asked this kind of question.
    pub fn asked(&self, kind: QuestionKind) -> bool {
        self.dialogue
            .question
            .as_ref()
            .is_some_and(|q| q.kind == kind)
    }

    /// The candidates of the last question (refs).
    pub fn candidates(&self) -> Vec<String> {
        self.dialogue
            .question
            .iter()
            .flat_map(|q| q.candidates.iter().map(|s| s.r#ref.clone()))
            .collect()
    }
}
