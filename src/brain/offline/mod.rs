//! The offline brain: decides every node by deterministic rules, with no key
//! and no network, so anyone can try Alfred on a fresh machine and every test
//! is repeatable.
//!
//! How a message flows through the rules:
//! - `text` and `items` turn words into data (segments, amounts,
//!   exclusions in the user's words), and `quantity` reads how much of an
//!   item was said (half of it, all of it, "some"); `lexicon`,
//!   `intent_rules` and `synonyms` name the intent; `several` splits a
//!   message of two or three requests into parts; `vague` asks about a
//!   request too vague to act on and reads its answer; `reading` reads
//!   the message against Alfred's last reply (answers to "which one do
//!   you mean?", a "yes" to a proposal) and refines it with the state.
//! - `skills/` own whole capabilities (tasks, stock, shopping, planning,
//!   recipes, cook, memory, talk): each reads and plans its asks, and
//!   acts and replies for them (memory and talk still act and reply in
//!   the node files).
//! - `world` is the context state as the rules see it; `resolve` and
//!   `targets` find which entity a phrase names.
//! - `link` reads the reading again against the kitchen's closed world
//!   (the names of its recipes, stock, list and tasks, read fresh each
//!   turn): a saved recipe asked for by name is that recipe, not a new
//!   one; an item is trimmed to the words a row holds. `gate` is the last
//!   look before a write: what the user says the kitchen has is looked
//!   up, not added; a name that is no food and nothing for the house is
//!   asked about; a use the user only wonders about is a look.
//! - `understand` resolves (`understand_targets`) and curates working
//!   memory (`curate`: carried exclusions, retention) into its `draft`.
//! - `think` plans from `think_ctx` (the context and step builders every
//!   planning rule shares); `think_entities` plans for things already
//!   named (show, save, edit, recall, delete); `hints` carries
//!   profile-derived parts of a step to Act.
//! - `act`, `act_write` and `act_make` execute steps over `act_ctx`;
//!   `options`, `generate`, `templates`, `edits`, `edit_apply` and `plan`
//!   weigh, make and change recipes and meal plans.
//! - `reply` writes the answer over `reply_ctx`: `facts` sorts the turn's
//!   data, `reply_results` and `reply_rows` turn it into paragraphs,
//!   `render` formats rows (a recipe card, a plan slot); `summarize`
//!   describes the turn.
//!
//! This module owns the `Brain` implementation only. It must not touch the
//! store, the session or the registry — the pipeline does that work.

mod act;
mod act_ctx;
mod act_make;
mod act_write;
mod consent;
mod constraints;
mod curate;
mod dialogue;
mod draft;
mod edit_apply;
mod edits;
mod facts;
mod gate;
mod generate;
mod hints;
mod intent_rules;
mod items;
mod lexicon;
mod link;
mod options;
mod plan;
mod quantity;
mod reader;
mod reading;
mod render;
mod reply;
mod reply_ctx;
mod reply_results;
mod reply_rows;
mod resolve;
mod several;
mod skills;
mod summarize;
mod synonyms;
mod targets;
mod templates;
mod text;
mod think;
mod think_ctx;
mod think_entities;
mod understand;
mod understand_targets;
mod vague;
mod vocab;
mod world;

#[cfg(test)]
mod days_tests;
#[cfg(test)]
mod memory_tests;
#[cfg(test)]
mod planning_tests;
#[cfg(test)]
mod quantity_tests;
#[cfg(test)]
mod reading_tests;
#[cfg(test)]
mod recipes_tests;
#[cfg(test)]
mod robustness_tests;
#[cfg(test)]
mod safety_guard_tests;
#[cfg(test)]
mod safety_tests;
#[cfg(test)]
mod scenarios_tests;
#[cfg(test)]
mod test_fixture;

use crate::pipeline::{
    ActAction, ActRequest, Brain, BrainFuture, CompressRequest, Decided, ReplyOutput, ReplyRequest,
    ReplySink, SummarizeOutput, SummarizeRequest, ThinkOutput, ThinkRequest, UnderstandOutput,
    UnderstandRequest,
};

/// Words per streamed reply chunk.
const CHUNK_WORDS: usize = 6;

/// The rule-based brain (`--llm offline`). It holds no state: everything
/// it knows comes in with each request.
#[derive(Debug, Clone, Copy, Default)]
pub struct OfflineBrain {
    _rules: (),
}

impl OfflineBrain {
    /// A new offline brain.
    pub fn new() -> Self {
        Self::default()
    }
}

/// True when the offline reader carries `message` out as it stands, sent
/// next after `state` (no question, no confirm): what every suggestion must
/// be (`tests/suggestions.rs`).
pub fn reads_as_an_act(
    state: &crate::context::ContextState,
    names: &crate::pipeline::KitchenNames,
    message: &str,
) -> bool {
    understand::reads_as_an_act(state, names, message)
}

/// Splits a reply into word groups for streaming; the chunks concatenate
/// back to the exact text.
pub fn reply_chunks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut words = 0;
    for piece in text.split_inclusive(char::is_whitespace) {
        cur.push_str(piece);
        if piece.ends_with(char::is_whitespace) {
            words += 1;
        }
        if words >= CHUNK_WORDS {
            out.push(std::mem::take(&mut cur));
            words = 0;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

impl Brain for OfflineBrain {
    fn name(&self) -> String {
        "offline".to_string()
    }

    fn understand<'a>(
        &'a self,
        req: &'a UnderstandRequest<'a>,
    ) -> BrainFuture<'a, UnderstandOutput> {
        Box::pin(async move { Ok(Decided::new(understand::decide(req))) })
    }

    fn think<'a>(&'a self, req: &'a ThinkRequest<'a>) -> BrainFuture<'a, ThinkOutput> {
        Box::pin(async move { Ok(Decided::new(think::decide(req))) })
    }

    fn act<'a>(&'a self, req: &'a ActRequest<'a>) -> BrainFuture<'a, ActAction> {
        Box::pin(async move { Ok(Decided::new(act::decide(req))) })
    }

    fn reply<'a>(
        &'a self,
        req: &'a ReplyRequest<'a>,
        sink: &'a ReplySink,
    ) -> BrainFuture<'a, ReplyOutput> {
        Box::pin(async move {
            let (text, dialogue) = reply::compose(req);
            for chunk in reply_chunks(&text) {
                sink.send(chunk);
            }
            Ok(Decided::new(ReplyOutput {
                response: text,
                dialogue: Some(dialogue),
                cut_at_tokens: None,
            }))
        })
    }

    fn summarize<'a>(&'a self, req: &'a SummarizeRequest<'a>) -> BrainFuture<'a, SummarizeOutput> {
        Box::pin(async move { Ok(Decided::new(summarize::decide(req))) })
    }

    /// The extractive fallback is already bounded and faithful; the offline
    /// brain has nothing better to add.
    fn compress<'a>(&'a self, _req: &'a CompressRequest<'a>) -> BrainFuture<'a, Option<String>> {
        Box::pin(std::future::ready(Ok(Decided::new(None))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_rebuild_the_reply() {
        let text =
            "Got it — no French Toast or Wings this week.\n\n- Air Fryer Paneer Tikka (serves 2)\n";
        let chunks = reply_chunks(text);
        assert!(chunks.len() > 1);
        assert_eq!(chunks.concat(), text);
        assert!(reply_chunks("").is_empty());
        assert_eq!(OfflineBrain::new().name(), "offline");
    }
}
