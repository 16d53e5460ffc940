//! The three context layers as a pure library: no IO, no async, no clock.
//!
//! Turn numbers and timestamps come in as arguments. Everything the pipeline,
//! the TUI, the headless runner and the evaluator know about memory is here:
//! the entity registry and its curation ([`registry`], [`curation`],
//! [`active`]), the user's standing constraints ([`constraints`], judged
//! with a small food [`taxonomy`]; what they keep writes from touching,
//! [`guarded`]), the turn narrative ([`narrative`]), the conversation
//! ([`conversation`]), the policy that governs them ([`policy`]), and the
//! views built on top ([`snapshot`], [`diff`], [`why`]).

pub mod active;
pub mod archive;
pub mod constraints;
pub mod conversation;
pub mod curation;
pub mod dialogue;
pub mod diff;
pub mod entity;
pub mod fold;
pub mod guarded;
pub mod narrative;
pub mod plan;
pub mod policy;
pub mod registry;
pub mod snapshot;
pub mod state;
pub mod taxonomy;
pub mod timeline;
pub mod why;

pub use active::{Cause, EntityState, classify};
pub use constraints::{
    Constraint, ConstraintChanges, ConstraintException, ConstraintMatch, ConstraintOutcome,
    ConstraintStatus, Constraints, LiftConstraint, MatchKind, NewConstraint, RecipeFacts, Rule,
};
pub use conversation::{ConversationLayer, ConversationTurn};
pub use curation::{
    CurationOutcome, DecisionAction, DecisionLog, DecisionLogEntry, EntityCuration, RefDecision,
    RetentionDecision,
};
pub use dialogue::{Dialogue, Offer, OfferKind, Question, QuestionKind, Shown};
pub use diff::{ChangeKind, ContextDiff, EntityChange, diff};
pub use entity::{RefAction, Table, parse_ref};
pub use fold::{Compressor, Extractive, FoldKind, FoldRequest};
pub use narrative::{
    ConversationPhase, NarrativeLayer, StepExecutionSummary, TurnExecutionSummary,
};
pub use policy::{ContextPolicy, PolicyKind, TieredPolicy};
pub use registry::{PINNED_REASON, RefEntry, SessionIdRegistry};
pub use snapshot::{ConstraintView, ContextSnapshot, EntitiesView, EntityView};
pub use state::{AnnotatedTurn, ContextState, EntityNote, snapshot_at};
pub use why::{explain, why};

#[cfg(test)]
mod curation_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod registry_tests;
#[cfg(test)]
mod seeds_replay;
