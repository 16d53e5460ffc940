//! Memory: what the conversation itself holds — forget something, start
//! over, delete a saved row or throw a draft away, what isn't saved yet,
//! what was just added, and a look back through the history. The skill
//! reads the ask and plans it; Understand curates (forget, start over) and
//! the reply says what was let go, found or is still unsaved.

pub mod reply;

use serde::{Deserialize, Serialize};

use crate::context::Table;
use crate::pipeline::{StepType, ThinkOutput};

use super::super::hints;
use super::super::synonyms::{CLEAR_ALL, FORGET, RECALL, UNSAVED};
use super::super::text::Words;
use super::super::think_ctx::{Ctx, labels, plan, step, subdomain};

/// What a message asks of the conversation's memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ask {
    /// "start fresh", "let's start over", "clear everything".
    ClearAll,
    /// "forget that", "never mind that recipe".
    Forget,
    /// "delete the fajitas": a saved row is deleted, a draft thrown away.
    Delete,
    /// "what isn't saved yet?".
    Unsaved,
    /// "what did I just add?".
    Recall,
    /// "what did I say I didn't want?", "what was that recipe from Monday?":
    /// a look back through the session's own history.
    SearchHistory,
}

impl Ask {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Ask::ClearAll => "clear_all",
            Ask::Forget => "forget",
            Ask::Delete => "delete",
            Ask::Unsaved => "unsaved",
            Ask::Recall => "recall",
            Ask::SearchHistory => "search_history",
        }
    }
}

/// Phrases that look back through the conversation itself.
const LOOK_BACK: &[&str] = &[
    "what did i say",
    "did i say",
    "did we say",
    "what did i tell you",
    "what was that",
    "what were those",
    "remind me what",
    "did i mention",
    "what did we talk",
    "search my history",
    "search the history",
    "look back",
    "what did i rule out",
    "what did i not want",
    "what didnt i want",
];

/// Forget, start fresh, what isn't saved, what did I just add, look back.
pub fn read(w: &Words) -> Option<Ask> {
    if w.has_any(CLEAR_ALL) || w.words == ["reset"] {
        return Some(Ask::ClearAll);
    }
    if w.has_any(FORGET)
        && !w.has_any(&[
            "dont forget",
            "do not forget",
            "not forget",
            "let me forget",
            "forget to",
        ])
    {
        return Some(Ask::Forget);
    }
    if w.has_any(UNSAVED) {
        return Some(Ask::Unsaved);
    }
    let store =
        super::super::items::location(&w.words).is_some() || w.has_any(&["inventory", "shopping"]);
    let deleting = w.has_any(&["delete", "erase", "trash"])
        || (w.has_any(&["remove", "get rid of"])
            && w.has_any(&["recipe", "from my recipes", "from the plan", "slot"]));
    if deleting && !store {
        return Some(Ask::Delete);
    }
    if w.has_any(RECALL) || (w.has("remind") && w.has_any(&["added", "saved", "created"])) {
        return Some(Ask::Recall);
    }
    if w.has_any(LOOK_BACK) {
        return Some(Ask::SearchHistory);
    }
    None
}

/// Think's plan for a memory ask.
pub fn plan_for(ask: &Ask, c: &Ctx<'_>) -> ThinkOutput {
    match ask {
        Ask::ClearAll => plan("Start fresh", vec![]),
        Ask::Forget => plan("Forget what the user set aside", vec![]),
        Ask::Delete => delete_plan(c),
        Ask::Recall => recall_plan(c),
        Ask::SearchHistory => plan(
            "Look back through the conversation",
            vec![step(
                format!(
                    "Search the conversation's history for what the user asks about (profile: {})",
                    hints::profile_note(c.session, &[]).trim_matches(['(', ')'])
                ),
                StepType::Read,
                "history",
                0,
            )],
        ),
        Ask::Unsaved => plan(
            "List what isn't saved yet",
            vec![step(
                "List the generated items not saved yet".into(),
                StepType::Analyze,
                "recipes",
                0,
            )],
        ),
    }
}

/// "what did I just add?": the rows created most recently, from memory.
pub fn recall_plan(c: &Ctx<'_>) -> ThinkOutput {
    let Some(table) = c.world.last_created().first().map(|e| e.e.table) else {
        return plan("Recall what was added — nothing yet", vec![]);
    };
    plan(
        "Recall what was just added",
        vec![step(
            "Recall the items created last, from memory".into(),
            StepType::Analyze,
            subdomain(table),
            0,
        )],
    )
}

/// "delete the fajitas": one write step per table of saved rows (drafts
/// were already thrown away by Understand).
pub fn delete_plan(c: &Ctx<'_>) -> ThinkOutput {
    let saved: Vec<String> = c
        .referenced
        .iter()
        .filter(|r| c.world.get(r).is_some_and(|e| e.e.row_id.is_some()))
        .cloned()
        .collect();
    if saved.is_empty() {
        return plan("Delete what the user named", vec![]);
    }
    let table = c.world.get(&saved[0]).map_or(Table::Recipes, |e| e.e.table);
    let d = format!("Delete {}", labels(c, &saved));
    plan(
        &d,
        vec![step(d.clone(), StepType::Write, subdomain(table), 0)],
    )
}
