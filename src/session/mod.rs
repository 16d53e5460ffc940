//! Sessions on disk: one journal file per session, kept exactly and never lost.
//!
//! This module owns the session folder (`sessions/` under the data dir) and
//! everything in it: the file format and its migrations ([`journal`], which
//! reads a file of either form, [`file`](mod@file), [`llm`], [`migrate`],
//! and [`unreadable`], why a file cannot be read), atomic writes
//! ([`atomic`]), the per-session lock that keeps two processes from writing
//! one session ([`lock`]), the persist actor that applies saves in order off
//! the UI's loop ([`persist`]), forgiving reading,
//! listing and housekeeping ([`store`], [`listing`], [`grep`]), the choice of the
//! session a plain `alfred` resumes ([`recent`]), the plain-text views the
//! CLI prints ([`export`]), and sessions made from Alfred's saved conversation
//! state ([`alfred_state`]).
//!
//! It must not read the clock for anything it stamps into a file (`now` comes
//! in as an argument), must not decide what a turn contains (the pipeline
//! builds the [`TurnRecord`](crate::record::TurnRecord)s and the
//! [`ContextState`](crate::context::ContextState)), and must never store an
//! API key: a session keeps only the backend, the model and a base URL with
//! credentials and query stripped ([`public_base_url`]).
//!
//! Files in the folder:
//! - `<id>.json`: a session, as a journal in JSON Lines ([`journal`], schema
//!   [`journal::JOURNAL_VERSION`]); files of schema 1–3 are one
//!   [`SessionFile`] document (schema [`DOCUMENT_VERSION`] is still that
//!   form, which `sessions export --format json` writes);
//! - `<id>.json.torn-<UTC time>`: a last line a crash tore, set aside;
//! - `<id>.lock`: held (OS file lock) while a process has the session open;
//! - `last-opened`: the id of the session the terminal UI last had open;
//! - `<id>.json.corrupt-<UTC time>`: a file that could not be read, moved aside;
//! - `.tmp*`: a write in progress, or left by a crash (cleaned after an hour).

pub mod alfred_state;
pub mod atomic;
pub mod codec;
pub mod delta;
pub mod error;
pub mod export;
pub mod file;
pub mod grep;
pub mod journal;
pub mod ledger;
pub mod listing;
pub mod llm;
pub mod lock;
pub mod migrate;
pub mod persist;
pub mod recent;
#[cfg(any(test, feature = "fixtures"))]
pub mod sample;
pub mod store;
mod turn_status;
pub mod unreadable;

pub use atomic::write_atomic;
pub use error::SessionError;
pub use file::{DOCUMENT_VERSION, SessionFile, SessionNote, is_valid_id, new_id, title_from};
pub use grep::{GrepHit, GrepReport};
pub use ledger::SessionLedger;
pub use listing::{ListReport, SessionProblem, SessionSummary};
pub use llm::{LlmSettings, public_base_url};
pub use lock::SessionLock;
pub use persist::{PersistEvent, PersistHandle, spawn_persist};
pub use store::{Clock, SessionStore};
pub use unreadable::Unreadable;
