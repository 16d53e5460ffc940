//! Test support: real turn records of the seeds' meal-planning conversation
//! (assets/scenarios/meal-planning.txt), run through the real pipeline with
//! the offline brain on an in-memory seeded kitchen, loaded into a session
//! and a `Model` — what the memory-inspection views are tested on.
//!
//! The conversation is run once per test binary and shared.

use std::sync::OnceLock;

use crate::context::{ContextPolicy, ContextState};
use crate::fixtures::Conversation;
use crate::record::TurnRecord;
use crate::session::{LlmSettings, SessionFile};

use super::model::Model;
use super::theme::Theme;

/// The meal-planning script's messages, in order.
pub const MEAL_PLANNING: [&str; 5] = [
    "can you help me plan some meals?",
    "let's not do cod this week",
    "let's not do the french toast or wings",
    "let's do the paneer on sunday and the curry on wednesday",
    "looks good, save the plan",
];

/// Each turn's record and the context state after it.
pub fn meal_planning() -> &'static [(TurnRecord, ContextState)] {
    static RUN: OnceLock<Vec<(TurnRecord, ContextState)>> = OnceLock::new();
    RUN.get_or_init(|| run(&MEAL_PLANNING))
}

/// Runs `messages` through the pipeline (one runner for the conversation,
/// as the app has); panics if a turn fails.
pub fn run(messages: &[&str]) -> Vec<(TurnRecord, ContextState)> {
    let mut talk = Conversation::new();
    messages
        .iter()
        .map(|message| {
            let mut record = talk.say(message).clone();
            // Fixed times, so that screens showing the bar are stable.
            for (node, ms) in &mut record.timings_ms {
                *ms = match node.as_str() {
                    "understand" => 12.0,
                    "think" => 3.0,
                    "act" => 8.0,
                    "total" => 26.0,
                    _ => 1.5,
                };
            }
            (record, talk.state.clone())
        })
        .collect()
}

/// A session holding the first `turns` turns of the conversation.
pub fn session(turns: usize) -> SessionFile {
    let now: jiff::Timestamp = "2026-01-13T10:00:00Z".parse().expect("time");
    let mut session = SessionFile::new(
        "20260113-100000-meal".into(),
        now,
        LlmSettings::new("offline", None, ""),
        ContextPolicy::default(),
    );
    for (record, state) in meal_planning().iter().take(turns) {
        session.push_turn(record.clone(), Some(state.clone()), now);
    }
    session
}

/// A model over that session (as if resumed), sized `width`×`height`.
pub fn model(turns: usize, width: u16, height: u16) -> Model {
    let mut m = Model::new(session(turns), "offline", Theme::dark());
    m.chrome.size = (width, height);
    m
}
