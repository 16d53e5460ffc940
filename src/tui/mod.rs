//! The terminal UI: the chat beside live panels of the three context layers.
//!
//! Typed vocabularies ([`event`]: what happened, [`action`]: what the user
//! means, [`effect`]: IO the update asks for), one pure [`update`], views that
//! only read the [`model`], and one select! loop ([`app`]) that drains events
//! and draws once when something changed.

pub mod model;
pub mod theme;
pub mod chat;
pub mod view;
pub mod action;
pub mod commands;
pub mod effect;
pub mod event;
pub mod keymap;
pub mod update;
pub mod app;
pub mod draw;

#[cfg(test)]
mod update_tests;
