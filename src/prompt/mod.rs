//! Pure prompt assembly for every node and the compressions.
//!
//! No IO, no async, no clock: inputs are plain data (the context snapshot,
//! the session context, this turn's plan and results, today's date as a
//! string), outputs are [`Prompt`]s made of named sections, each with its
//! token count. The `system` text of every prompt is a parameter (the
//! templates live under `assets/prompts/`).
//!
//! One builder per node: [`build_understand`], [`build_think`], [`build_act`],
//! [`build_reply`], and [`build_fold`] / [`build_reply_summary`] for the
//! compressions. What each node may see follows seeds/003: only Understand is
//! shown retention and demotion reasons and the decision log.

pub mod act;
pub mod cache;
pub mod compress;
pub mod constraints;
pub mod data;
pub mod entities;
pub mod entity_table;
pub mod narrative;
pub mod profile;
pub mod reply;
pub mod reply_text;
pub mod section;
pub mod think;
pub mod tokens;
pub mod understand;

#[cfg(test)]
mod entities_tests;
#[cfg(test)]
mod escaping_tests;
#[cfg(test)]
pub(crate) mod fixtures;
#[cfg(test)]
mod long_tests;
#[cfg(test)]
mod nodes_tests;
#[cfg(test)]
mod seed_prompts;
#[cfg(test)]
mod seed_tests;

pub use crate::glance::{Dashboard, NamedCount, Profile, SessionContext};
pub use act::{ACT_SECTIONS, ActInput, PlanStepView, PriorStep, StepData, ToolCallView, build_act};
pub use cache::{CacheUse, PrefixCache, Slots};
pub use compress::{build_fold, build_reply_summary};
pub use reply::{REPLY_SECTIONS, ReplyInput, ReplyPath, build_reply};
pub use section::{Prompt, PromptNode, Section, SectionTokens};
pub use think::{THINK_SECTIONS, ThinkInput, build_think};
pub use tokens::count_tokens;
pub use understand::{UNDERSTAND_SECTIONS, UnderstandInput, build_understand};
