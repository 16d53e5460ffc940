//! The kitchen's two error types: [`KitchenError`] for the store itself
//! (opening, migrating, seeding, turn transactions) and [`ToolError`] for a
//! CRUD tool call the model got wrong.
//!
//! A `ToolError`'s `Display` is read by the MODEL: each variant is one clear
//! sentence saying what was wrong and what to do instead. This module only
//! names errors; it must not decide policy (what is valid lives in the
//! schema and the tools).

use std::path::PathBuf;

use super::postgres::error::PgError;
use crate::context::Table;

/// A failure of the store: the file, the schema, the seed data or a turn.
#[derive(Debug, thiserror::Error)]
pub enum KitchenError {
    /// The database file could not be opened or configured.
    #[error("cannot open the kitchen store {path}: {source}")]
    Open {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    /// A schema migration failed; the store is left at the previous version.
    #[error("kitchen store migration {version} failed: {source}")]
    Migration {
        version: usize,
        #[source]
        source: rusqlite::Error,
    },
    /// The file was written by a newer alfred.
    #[error(
        "the kitchen store is at schema version {found}, newer than this alfred knows ({known}); \
         upgrade alfred or use another --data-dir"
    )]
    TooNew { found: i64, known: usize },
    /// A seed file is malformed or inconsistent; names the file and the item.
    #[error("seed file {file}, item {item}: {reason}")]
    Seed {
        file: &'static str,
        item: String,
        reason: String,
    },
    /// `begin_turn` while a turn is already open.
    #[error("a turn transaction is already open; commit or roll it back first")]
    TurnAlreadyOpen,
    /// `commit_turn` with no open turn.
    #[error("no turn transaction is open")]
    NoTurnOpen,
    /// The turn's change no longer applies: another process changed the
    /// same rows while the turn ran (the sentence says what changed).
    #[error("{0}")]
    Conflict(String),
    /// Any other SQLite failure.
    #[error("kitchen store: {0}")]
    Sql(#[from] rusqlite::Error),
    /// The Postgres database could not be reached, or is not a kitchen.
    #[error("cannot use the Postgres kitchen {url}: {reason}")]
    Postgres { url: String, reason: String },
    /// The first connection to the Postgres server failed.
    #[error("cannot reach the Postgres kitchen {url}: {cause}")]
    Connect {
        url: String,
        cause: super::postgres::error::ConnectCause,
    },
    /// Any other Postgres failure.
    #[error("kitchen store: {0}")]
    Pg(#[from] PgError),
}

/// A failure of the database under the store, SQLite's or Postgres's.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    #[error(transparent)]
    Postgres(#[from] PgError),
}

/// The result of one statement.
pub type DbResult<T> = std::result::Result<T, DbError>;

impl From<DbError> for KitchenError {
    fn from(e: DbError) -> Self {
        match e {
            DbError::Sqlite(e) => KitchenError::Sql(e),
            DbError::Postgres(e) => KitchenError::Pg(e),
        }
    }
}

/// A tool call the store refused; the message is meant for the model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ToolError {
    #[error("unknown tool \"{0}\"; use one of: db_read, db_create, db_update, db_delete")]
    UnknownTool(String),
    #[error("invalid params for {tool}: {reason}")]
    BadParams { tool: String, reason: String },
    #[error("unknown table \"{name}\"; tables are: {tables}")]
    UnknownTable { name: String, tables: String },
    #[error("unknown column \"{column}\" in table {table}; columns are: {columns}")]
    UnknownColumn {
        column: String,
        table: Table,
        columns: String,
    },
    #[error("unknown operator \"{op}\"; use one of: {ops}")]
    UnknownOperator { op: String, ops: String },
    #[error("operator {op} does not apply to {table}.{column} ({kind}); {hint}")]
    OperatorMismatch {
        op: String,
        table: Table,
        column: String,
        kind: String,
        hint: String,
    },
    #[error("bad value for {table}.{column}: {reason}")]
    BadValue {
        table: Table,
        column: String,
        reason: String,
    },
    #[error("{tool} needs at least one filter (to touch every row, say which rows)")]
    MissingFilters { tool: String },
    #[error("{tool} on {table} needs \"data\" with at least one column to set")]
    MissingData { tool: String, table: Table },
    #[error("db_create on {table} needs \"{column}\"{at}")]
    MissingColumn {
        table: Table,
        column: String,
        at: String,
    },
    #[error("{table}.{column} is set by the store; leave it out of \"data\"")]
    ReadOnlyColumn { table: Table, column: String },
    #[error(
        "unknown ref \"{0}\": refs come from earlier results and cannot be invented; \
         read the table to find the row"
    )]
    UnknownRef(String),
    #[error(
        "\"{0}\" is generated content that is not saved yet; save it with db_create first \
         (it can be read on its own with an id filter)"
    )]
    PendingRef(String),
    #[error("ref \"{r}\" points at {actual}, but {column} expects a ref to {expected}")]
    WrongRefTable {
        r: String,
        column: String,
        expected: Table,
        actual: Table,
    },
    #[error("{0}")]
    NotAllowed(String),
    #[error("the store refused the change: {0}")]
    Constraint(String),
    /// Every row of the write was held back by the session (see `hold.rs`).
    #[error(
        "held back, nothing written: {}. Do not try it again; the reply tells the user, who can ask for it by name",
        .0.join("; ")
    )]
    HeldBack(Vec<String>),
    #[error("the kitchen store failed: {0}")]
    Store(String),
}

impl ToolError {
    /// Wraps an unexpected SQLite error; constraint violations get a message
    /// the model can act on.
    pub(crate) fn from_sql(e: rusqlite::Error) -> Self {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::ConstraintViolation) => {
                let msg = e.to_string();
                let kind = if msg.contains("FOREIGN KEY") {
                    Violation::ForeignKey
                } else if msg.contains("UNIQUE") {
                    Violation::Unique
                } else {
                    Violation::Other
                };
                constraint(kind, msg)
            }
            _ => ToolError::Store(e.to_string()),
        }
    }
}

impl From<rusqlite::Error> for ToolError {
    fn from(e: rusqlite::Error) -> Self {
        ToolError::from_sql(e)
    }
}

impl From<DbError> for ToolError {
    fn from(e: DbError) -> Self {
        match e {
            DbError::Sqlite(e) => ToolError::from_sql(e),
            DbError::Postgres(e) if e.is_constraint() => {
                let kind = match e.code.as_deref() {
                    Some("23503") => Violation::ForeignKey,
                    Some("23505") => Violation::Unique,
                    _ => Violation::Other,
                };
                constraint(kind, e.message)
            }
            DbError::Postgres(e) => ToolError::Store(e.message),
        }
    }
}

/// Which constraint refused a change.
enum Violation {
    ForeignKey,
    Unique,
    Other,
}

/// A refused change, in words the model can act on (either store).
fn constraint(kind: Violation, message: String) -> ToolError {
    ToolError::Constraint(match kind {
        Violation::ForeignKey => {
            "a linked row does not exist (use a ref from an earlier result)".to_string()
        }
        Violation::Unique => {
            format!("{message} (a row with the same key exists; update it instead)")
        }
        Violation::Other => message,
    })
}

/// The kitchen's result type for store operations.
pub type Result<T, E = KitchenError> = std::result::Result<T, E>;
