//! The overlays' and time travel's state, below the model: plain data and
//! pure functions of the session, importing nothing of the model, so the
//! model can hold them and the views draw them without a cycle. The keys
//! that change each live in the module of the same name in `tui/`.

pub mod inspector;
pub mod search;
pub mod timeline;
pub mod travel;
pub mod whatif;
