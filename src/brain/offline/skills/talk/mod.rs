//! Small talk: hello, thanks, a plain yes or no read against what Alfred
//! asked, and a request for help. It reads the ask and plans it (no steps);
//! the replies are in `reply.rs` (`talk`), where a "yes" to an offer
//! becomes what was offered.

use serde::{Deserialize, Serialize};

use super::super::lexicon::Cues;
use super::super::synonyms::{AFFIRM, DECLINE, GREETING, HELP, OFF_TOPIC, THANKS};
use super::super::text::{Words, find};
use super::super::think_ctx::plan as think_plan;
use crate::pipeline::ThinkOutput;

/// What a bit of small talk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ask {
    Greeting,
    Thanks,
    /// "yes", "sure", "go on" — to an offer, or just agreeing.
    Affirm,
    Decline,
    /// "help", or something the kitchen cannot do.
    Help,
}

impl Ask {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Ask::Greeting => "greeting",
            Ask::Thanks => "thanks",
            Ask::Affirm => "affirm",
            Ask::Decline => "decline",
            Ask::Help => "help",
        }
    }
}

/// "help", "what can you do", or a question off the kitchen's topic.
pub fn help(w: &Words) -> Option<Ask> {
    (w.words == ["help"] || w.has_any(HELP) || w.has_any(OFF_TOPIC)).then_some(Ask::Help)
}

/// Short replies: yes / no / thanks / hello, read against what Alfred asked.
pub fn read(w: &Words, cues: Cues) -> Option<Ask> {
    let short = w.words.len() <= 6;
    let only = |list: &[&str]| short && list.iter().any(|p| find(&w.words, p) == Some(0));
    if only(DECLINE) {
        return Some(Ask::Decline);
    }
    if only(AFFIRM) {
        if cues.proposal || cues.offered_save || cues.offered_shopping || cues.offered_recipes {
            return Some(Ask::Affirm);
        }
        return Some(Ask::Thanks);
    }
    if w.has_any(THANKS) && short {
        return Some(Ask::Thanks);
    }
    // "the rest can wait", "thats all for now": nothing more to do.
    const ENOUGH: &[&str] = &[
        "can wait",
        "leave the rest",
        "thats all",
        "thats it",
        "thats everything",
        "all good",
        "done for now",
        "nothing else",
        "im good",
        "were good",
        "all done",
        "all set",
        "for now thats",
        "nothing more",
    ];
    if w.has_any(ENOUGH) && short && !w.has_any(&["out", "without", "no more"]) {
        return Some(Ask::Thanks);
    }
    if only(GREETING) {
        return Some(Ask::Greeting);
    }
    None
}

/// Think's plan: nothing to run.
pub fn plan(ask: &Ask) -> ThinkOutput {
    match ask {
        Ask::Help => think_plan("Explain what Alfred can do offline", vec![]),
        Ask::Greeting | Ask::Thanks | Ask::Decline | Ask::Affirm => {
            think_plan("Keep the conversation going", vec![])
        }
    }
}
