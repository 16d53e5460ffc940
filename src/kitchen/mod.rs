//! The kitchen store: Alfred's entities as rows of a SQLite database
//! (`kitchen.db`) or of one user in a Postgres database with Alfred's
//! schema (`postgres/`), the CRUD tools the model calls on them, and the
//! translation between the model's refs and the store's row ids.
//!
//! - [`Kitchen`] (`store.rs`) owns the one connection: open, migrate
//!   (`migrate.rs`), per-turn transactions. [`Kitchen::seed_if_empty`] /
//!   [`Kitchen::reset`] load the embedded sample kitchen (`seed.rs`).
//! - [`schema`] is the single list of tables and columns: tool calls are
//!   checked against it and every SQL identifier comes from it.
//! - [`Kitchen::execute`] (`exec.rs`) runs a [`ToolCall`] (`call.rs`):
//!   filters (`filters.rs`), payloads (`payload.rs`), raw SQL (`tools.rs`),
//!   refs in and out (`refs.rs`). A refused call is a [`ToolError`] whose
//!   message the model can act on. [`Kitchen::execute_checked`] first shows
//!   the caller each row a write would change ([`WriteCheck`], `hold.rs`),
//!   so a session can hold some back.
//! - [`Kitchen::session_context`] / [`Kitchen::stats`] (`dashboard.rs`).
//!
//! The kitchen knows the registry only through its public API; it owns no
//! session state, never reads the clock for decisions (today is an
//! argument), and never prints.

mod call;
mod dashboard;
mod error;
mod exec;
mod filters;
mod guard;
mod hold;
mod migrate;
mod payload;
pub mod postgres;
mod refs;
mod row;
pub mod schema;
mod seed;
mod shape;
mod store;
mod tools;
mod values;

pub use call::{
    CreateParams, DeleteParams, Filter, Operation, ReadParams, TOOLS, ToolCall, UpdateParams,
};
pub use dashboard::KitchenStats;
pub use error::{DbError, KitchenError, Result, ToolError};
pub use filters::Op;
pub use hold::{RowWrite, WriteAll, WriteCheck, WriteOp};
pub use migrate::SCHEMA_VERSION;
pub use row::meal_plan_label;
pub use schema::{ColumnDef, ColumnKind, SCHEMA, TableSchema, schema_text, table_schema};
pub use seed::SeedReport;
pub use shape::{DEFAULT_LIMIT, MAX_LIMIT, ToolResult};
pub use store::{CommitStamp, Kitchen, TurnGuard};
