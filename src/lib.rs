//! Alfred: a kitchen assistant whose three context layers are shown live.
//!
//! The library holds everything; the `alfred` binary only parses the command
//! line and hands over to [`cli::run`].

pub mod allocator;
pub mod brain;
pub mod cli;
pub mod config;
pub mod context;
pub mod eval;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
pub mod glance;
pub mod headless;
pub mod kitchen;
pub mod logging;
pub mod paths;
pub mod pipeline;
pub mod prompt;
pub mod record;
pub mod scenario;
pub mod session;
pub mod store_url;
pub mod telemetry;
pub mod text;
pub mod text_key;
pub mod tui;
pub mod turn;
