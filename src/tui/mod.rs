//! The terminal UI: the chat beside live panels of the three context layers.
//!
//! Typed vocabularies ([`event`]: what happened, [`action`]: what the user
//! means, [`effect`]: IO the update asks for), one pure [`update`], views that
//! only read the [`model`], and one select! loop ([`app`]) that drains events
//! and draws once when something changed.

pub mod action;
pub mod app;
pub mod chat;
pub mod commands;
pub mod copy;
pub mod draw;
pub mod effect;
pub mod event;
pub mod inspector;
pub mod keymap;
pub mod line_edit;
pub mod model;
pub mod overlay_keys;
pub mod pickers;
pub mod quit;
pub mod reply;
pub mod running;
pub mod scroll;
pub mod search;
pub mod state;
pub mod theme;
pub mod timeline;
pub mod travel;
pub mod update;
pub mod view;
pub mod whatif;

#[cfg(test)]
mod app_tests;
#[cfg(test)]
mod harness_tests;
#[cfg(test)]
mod import_tests;
#[cfg(test)]
mod overlay_keys_tests;
#[cfg(test)]
pub(crate) mod test_records;
#[cfg(test)]
pub(crate) mod test_update;
#[cfg(test)]
mod update_copy_tests;
#[cfg(test)]
mod update_inspector_tests;
#[cfg(test)]
mod update_resume_tests;
#[cfg(test)]
mod update_running_tests;
#[cfg(test)]
mod update_search_tests;
#[cfg(test)]
mod update_tests;
#[cfg(test)]
mod update_timeline_tests;
#[cfg(test)]
mod update_travel_tests;
#[cfg(test)]
mod update_whatif_tests;
