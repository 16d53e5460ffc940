//! The chat: the transcript pane and the message box.
//!
//! Layered so each part stays testable on its own: [`wrap`] measures and
//! wraps styled text by display width, [`markdown`] turns a reply into styled
//! lines, [`cache`] keeps every message's lines per (width, revision) so a
//! frame re-lays out only what changed, and the views ([`pane`], [`input`])
//! draw only what is visible. Views read the model and never write it; the
//! layout cache is render-side memo state the app owns and lends to
//! [`render_chat`].

pub mod cache;
pub mod highlight;
pub mod input;
pub(crate) mod input_long;
pub mod markdown;
pub mod message;
pub mod pane;
pub mod wrap;

pub use cache::ChatLayoutCache;
pub use input::render_input;
pub use markdown::render_markdown;
pub use pane::{ChatPane, content_area, first_visible_line, max_offset, render_chat};
