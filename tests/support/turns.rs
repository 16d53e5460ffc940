//! Shared by the pipeline and LLM tests and the LLM bench: the fixtures'
//! seeded kitchen in a temp folder, turn requests on a fixed day and one
//! turn run to its end with every event it sent (all from
//! `alfred::fixtures`), and what those events and the kitchen say.
#![allow(dead_code)]

use std::sync::Mutex;

use alfred::context::Table;
use alfred::kitchen::Kitchen;
use alfred::pipeline::PipelineEvent;

pub use alfred::fixtures::{fresh, request, run_request, seeded_kitchen_file as kitchen};

/// The reply's streamed pieces, in order.
pub fn reply_chunks(events: &[PipelineEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            PipelineEvent::ReplyChunk { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// How many inventory rows the store holds.
pub fn inventory_rows(k: &Mutex<Kitchen>) -> u64 {
    k.lock().unwrap().stats().unwrap().rows(Table::Inventory)
}
