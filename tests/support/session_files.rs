//! Shared by the session tests: a store on a fixed clock and small sessions
//! written straight to the folder.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use alfred::context::ContextPolicy;
use alfred::record::TurnRecord;
use alfred::session::{LlmSettings, SessionFile};
use jiff::Timestamp;

pub use alfred::fixtures::session_store as store;

pub fn at(s: &str) -> Timestamp {
    s.parse().expect("timestamp")
}

/// A small session with one turn saying `user` and `reply`, updated at `updated`.
pub fn small(id: &str, user: &str, reply: &str, updated: &str) -> SessionFile {
    let llm = LlmSettings::new("offline", None, "https://api.openai.com/v1");
    let mut s = SessionFile::new(
        id.into(),
        at("2026-11-01T10:00:00Z"),
        llm,
        ContextPolicy::default(),
    );
    let record = TurnRecord {
        turn: 1,
        user: user.into(),
        reply: reply.into(),
        ..TurnRecord::default()
    };
    s.push_turn(record, None, at(updated));
    s
}

/// Writes sessions straight to the folder (as an earlier run would have).
pub fn write(dir: &Path, s: &SessionFile) -> PathBuf {
    let path = dir.join(format!("{}.json", s.id));
    std::fs::write(&path, s.to_bytes().expect("encode")).expect("write");
    path
}
