//! [`Kitchen`]: the one connection — to `kitchen.db` (SQLite, with its
//! pragmas and migrations) or to a Postgres database with Alfred's schema
//! (`postgres/`) — and the per-turn transaction, the same on both.
//!
//! A turn's writes are all-or-nothing, and no lock is held while a model
//! thinks. [`Kitchen::begin_turn`] opens the turn's write log;
//! each write of the turn runs inside a short `BEGIN IMMEDIATE` view that
//! first replays the writes logged so far (so the turn reads its own writes),
//! then runs the call, logs its statements and rolls back. The lock is held
//! for the milliseconds of one tool call, never across a model call, and
//! another process sees nothing of the turn until
//! [`Kitchen::commit_stamped`] replays the log for good in one transaction,
//! together with the turn's commit stamp (the session's proof that the
//! turn's writes landed). [`Kitchen::rollback_turn`] drops the log: nothing
//! was ever written. Each tool call additionally runs inside a savepoint,
//! so a refused call leaves no partial write, inside a turn or outside one.
//! This module owns the connection; it must not know about tools, refs or
//! seed files.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use rusqlite::types::Value as SqlValue;
use rusqlite::{CachedStatement, Connection, params_from_iter};

use super::error::{DbError, DbResult, KitchenError, Result};
use super::guard::{Guard, TurnReads};
use super::migrate;
use super::postgres::{PgStore, sql::Stmt};
use super::row::{RawRow, row_id};

/// How long a statement waits for another process holding the write lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The database under the store.
#[derive(Debug)]
pub(crate) enum Db {
    Sqlite(Connection),
    Postgres(Box<PgStore>),
}

/// The kitchen store: one connection, owned. `Send`, not `Sync`: the
/// pipeline holds it behind a mutex.
#[derive(Debug)]
pub struct Kitchen {
    pub(crate) db: Db,
    path: Option<PathBuf>,
    /// The open turn's writes (statement and parameters, and what each
    /// checks at commit), in order.
    turn: Option<Vec<(LoggedWrite, Option<Guard>)>>,
    /// What the open turn read and wrote, for its writes' guards.
    reads: RefCell<TurnReads>,
    /// True while a view (replayed writes, rolled back after) is open.
    viewing: Cell<bool>,
    /// The last `created_at` handed out, so stamps strictly increase.
    last_stamp: Option<Timestamp>,
    /// Statements prepared since open (observability for tests and benches).
    statements: Cell<u64>,
}

impl Kitchen {
    /// Opens (creating if needed) and migrates the store at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Kitchen> {
        let path = path.as_ref().to_path_buf();
        // A new store is made 0600 before SQLite opens it, so it never
        // exists with a wider mode (SQLite gives its -wal and -shm files
        // the database's mode when it creates them). An empty file is an
        // empty database.
        if let Err(e) = crate::paths::private::file_options()
            .write(true)
            .create_new(true)
            .open(&path)
            && e.kind() != std::io::ErrorKind::AlreadyExists
        {
            tracing::debug!(file = %path.display(), error = %e, "the kitchen file could not be made ahead");
        }
        let conn = Connection::open(&path).map_err(|source| KitchenError::Open {
            path: path.clone(),
            source,
        })?;
        let kitchen = Self::configure(conn, Some(path.clone()))?;
        // An older install's store is made its user's alone.
        for suffix in ["", "-wal", "-shm"] {
            let file = PathBuf::from(format!("{}{suffix}", path.display()));
            if let Err(e) = crate::paths::private::restrict(&file, false) {
                tracing::warn!(file = %file.display(), error = %e, "could not make the kitchen private");
            }
        }
        Ok(kitchen)
    }

    /// A private in-memory store (tests, benches).
    pub fn open_in_memory() -> Result<Kitchen> {
        let conn = Connection::open_in_memory()?;
        Self::configure(conn, None)
    }

    fn configure(mut conn: Connection, path: Option<PathBuf>) -> Result<Kitchen> {
        let open_err = |source| KitchenError::Open {
            path: path.clone().unwrap_or_else(|| PathBuf::from(":memory:")),
            source,
        };
        conn.busy_timeout(BUSY_TIMEOUT).map_err(open_err)?;
        // In-memory databases answer "memory"; that is fine. Switching to
        // WAL answers "busy" at once, without the busy handler, while
        // another process is switching a new store too: try again until the
        // busy timeout.
        let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
        loop {
            match conn
                .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))
            {
                Ok(_) => break,
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == rusqlite::ErrorCode::DatabaseBusy
                        && std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(e) => return Err(open_err(e)),
            }
        }
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(open_err)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(open_err)?;
        migrate::migrate(&mut conn)?;
        Ok(Self::with(Db::Sqlite(conn), path))
    }

    /// The kitchen of `user` in the Postgres database at `url`, which must
    /// have Alfred's schema (see [`Kitchen::init_postgres`]).
    pub fn open_postgres(url: &str, user: &str) -> Result<Kitchen> {
        Self::open_postgres_with(url, user, true)
    }

    /// [`Kitchen::open_postgres`], with or without the user's JWT claims on
    /// each connection (`[store] role_claims`).
    pub fn open_postgres_with(url: &str, user: &str, claims: bool) -> Result<Kitchen> {
        let store = PgStore::connect(url, user, claims)?;
        Ok(Self::with(Db::Postgres(Box::new(store)), None))
    }

    /// Creates Alfred's schema in a Postgres database that has no kitchen
    /// tables yet (an existing complete schema is left as it is), then
    /// opens `user`'s kitchen there.
    pub fn init_postgres(url: &str, user: &str) -> Result<Kitchen> {
        Self::init_postgres_with(url, user, true)
    }

    /// [`Kitchen::init_postgres`], with or without the user's JWT claims.
    pub fn init_postgres_with(url: &str, user: &str, claims: bool) -> Result<Kitchen> {
        let mut store = PgStore::open_pool(url, user, claims)?;
        store.create_schema()?;
        store.check_kitchen()?;
        Ok(Self::with(Db::Postgres(Box::new(store)), None))
    }

    fn with(db: Db, path: Option<PathBuf>) -> Kitchen {
        Kitchen {
            db,
            path,
            turn: None,
            reads: RefCell::default(),
            viewing: Cell::new(false),
            last_stamp: None,
            statements: Cell::new(0),
        }
    }

    /// The Postgres store, when the kitchen is in one.
    pub fn postgres(&self) -> Option<&PgStore> {
        match &self.db {
            Db::Postgres(pg) => Some(pg),
            Db::Sqlite(_) => None,
        }
    }

    /// Where the kitchen is, for people: the file, or the database URL
    /// (without its password) and the user.
    pub fn location(&self) -> String {
        match (&self.db, &self.path) {
            (Db::Postgres(pg), _) => format!("{} (user {})", pg.url(), pg.user()),
            (Db::Sqlite(_), Some(p)) => p.display().to_string(),
            (Db::Sqlite(_), None) => "(in memory)".to_string(),
        }
    }

    /// True when the store's `table` has `column` (`kitchen.db` has every
    /// column of the schema; a Postgres database has what it was made with).
    pub fn has_column(&self, table: crate::context::Table, column: &str) -> bool {
        match &self.db {
            Db::Sqlite(_) => super::schema::table_schema(table).column(column).is_some(),
            Db::Postgres(pg) => pg.has_column(table, column),
        }
    }

    /// The SQLite connection (an error on a Postgres store).
    pub(crate) fn sqlite(&self) -> DbResult<&Connection> {
        match &self.db {
            Db::Sqlite(c) => Ok(c),
            Db::Postgres(_) => Err(DbError::Postgres(super::postgres::PgError::new(
                "a SQLite statement reached the Postgres store",
            ))),
        }
    }

    /// The database file (`None` in memory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The store's schema version (`PRAGMA user_version`; a Postgres
    /// kitchen, whose schema alfred does not migrate, answers 0).
    pub fn schema_version(&self) -> Result<i64> {
        match &self.db {
            Db::Sqlite(c) => migrate::schema_version(c),
            Db::Postgres(_) => Ok(0),
        }
    }

    /// Statements prepared since the store was opened. Every query of the
    /// kitchen goes through one helper that counts, so tests can check
    /// batching ("one label query per target table").
    pub fn statement_count(&self) -> u64 {
        self.statements.get()
    }

    /// True while a turn is open.
    pub fn in_turn(&self) -> bool {
        self.turn.is_some()
    }

    /// Writes the open turn has made so far (0 outside a turn).
    pub fn turn_writes(&self) -> usize {
        self.turn.as_ref().map_or(0, Vec::len)
    }

    /// Opens the turn: every write until [`commit_turn`](Self::commit_turn)
    /// is kept or dropped together. Takes no lock.
    pub fn begin_turn(&mut self) -> Result<()> {
        if self.turn.is_some() {
            return Err(KitchenError::TurnAlreadyOpen);
        }
        self.turn = Some(Vec::new());
        self.reads.take();
        Ok(())
    }

    /// Commits the turn's writes (no stamp).
    pub fn commit_turn(&mut self) -> Result<()> {
        self.commit_stamped(None)
    }

    /// Commits the turn's writes in one short transaction, with `stamp`
    /// recorded in `turn_commits` in the same transaction, so the stamp is
    /// there exactly when the writes are. A turn without writes and without
    /// a stamp touches nothing. On error nothing is written and the turn is
    /// closed.
    ///
    /// Each write is checked against what the turn read (see `guard.rs`):
    /// a change another process made meanwhile fails the commit with a
    /// sentence saying what changed. On Postgres the commit runs at
    /// REPEATABLE READ, and one that another commit overtook on the same
    /// rows is read and run again (at most [`COMMIT_TRIES`] times).
    pub fn commit_stamped(&mut self, stamp: Option<&CommitStamp>) -> Result<()> {
        let writes = self.turn.take().ok_or(KitchenError::NoTurnOpen)?;
        self.reads.take();
        if writes.is_empty() && stamp.is_none() {
            return Ok(());
        }
        let mut tries = 0;
        loop {
            tries += 1;
            let done = self.exclusively(|k| {
                k.replay_checked(&writes)?;
                if let Some(s) = stamp {
                    k.stamp(s)?;
                }
                Ok(())
            });
            match done {
                Err(e) if overtaken(&e) && tries < COMMIT_TRIES => {
                    tracing::info!(
                        tries,
                        "another commit changed the same rows; reading them again"
                    );
                }
                Err(e) if overtaken(&e) => {
                    return Err(KitchenError::Conflict(
                        "other sessions kept changing the same rows while this turn was \
                         being saved; nothing of this turn was saved — send it again"
                            .to_string(),
                    ));
                }
                Err(e) => return Err(refused_at_commit(e)),
                Ok(()) => return Ok(()),
            }
        }
    }

    /// Replays a turn's writes for good, each checked by its guard.
    fn replay_checked(&self, writes: &[(LoggedWrite, Option<Guard>)]) -> Result<()> {
        for (w, guard) in writes {
            if let Some(g) = guard {
                g.check_before(&self.guarded_rows(g)?)?;
            }
            self.run_write(w)?;
            if let Some(g) = guard.as_ref().filter(|g| g.adds()) {
                g.check_after(&self.guarded_rows(g)?)?;
            }
        }
        Ok(())
    }

    /// The rows a guard covers, as they are now (inside the commit), by id.
    fn guarded_rows(&self, g: &Guard) -> DbResult<HashMap<String, RawRow>> {
        Ok(self
            .rows_by_id(g.table, &g.row_ids())?
            .into_iter()
            .filter_map(|r| row_id(&r).map(String::from).map(|id| (id, r)))
            .collect())
    }

    /// Notes rows a read of the open turn returned (for its guards).
    pub(crate) fn saw(&self, table: crate::context::Table, rows: &[RawRow]) {
        if self.turn.is_some() {
            self.reads.borrow_mut().saw(table, rows);
        }
    }

    /// What the open turn read, for building a guard.
    pub(crate) fn reads(&self) -> std::cell::Ref<'_, TurnReads> {
        self.reads.borrow()
    }

    /// Records a turn's commit stamp (inside the commit's transaction). A
    /// Postgres kitchen without `alfred_turn_commits` keeps none.
    fn stamp(&self, s: &CommitStamp) -> DbResult<()> {
        use super::postgres::PgParam;
        match &self.db {
            Db::Sqlite(c) => {
                c.execute(
                    "INSERT INTO turn_commits (commit_id, session_id, turn, committed_at) \
                     VALUES (?1, ?2, ?3, ?4)",
                    rusqlite::params![
                        s.commit_id,
                        s.session_id,
                        s.turn,
                        Timestamp::now().to_string()
                    ],
                )?;
            }
            Db::Postgres(pg) if pg.stamps() => {
                pg.execute(
                    "INSERT INTO alfred_turn_commits (commit_id, user_id, session_id, turn) \
                     VALUES ($1::text, $2::text::uuid, $3::text, $4::int8)",
                    vec![
                        PgParam::Text(Some(s.commit_id.clone())),
                        PgParam::Text(Some(pg.user().to_string())),
                        PgParam::Text(Some(s.session_id.clone())),
                        PgParam::Int(Some(i64::from(s.turn))),
                    ],
                )?;
            }
            Db::Postgres(_) => {}
        }
        Ok(())
    }

    /// True when a turn stamped `commit_id` is committed here. `None`
    /// when the store keeps no stamps (a Postgres kitchen without
    /// `alfred_turn_commits`): it cannot tell.
    pub fn has_commit(&self, commit_id: &str) -> Result<Option<bool>> {
        use super::postgres::PgParam;
        let n: i64 = match &self.db {
            Db::Sqlite(c) => c.query_row(
                "SELECT count(*) FROM turn_commits WHERE commit_id = ?1",
                [commit_id],
                |r| r.get(0),
            )?,
            Db::Postgres(pg) if pg.stamps() => pg
                .query(
                    "SELECT count(*) FROM alfred_turn_commits WHERE commit_id = $1::text",
                    vec![PgParam::Text(Some(commit_id.to_string()))],
                )?
                .first()
                .map_or(0, |r| r.get(0)),
            Db::Postgres(_) => return Ok(None),
        };
        Ok(Some(n > 0))
    }

    /// Drops the turn's writes (none ever reached the file). A no-op when
    /// no turn is open, so error paths can call it unconditionally.
    pub fn rollback_turn(&mut self) -> Result<()> {
        self.turn = None;
        self.reads.take();
        Ok(())
    }

    /// Opens a view for one call when a turn is open: `BEGIN IMMEDIATE`,
    /// then the turn's writes replayed. Returns whether one was opened (a
    /// call outside a turn, or inside a view already, needs none).
    pub(crate) fn open_view(&self) -> DbResult<bool> {
        let Some(writes) = &self.turn else {
            return Ok(false);
        };
        if self.viewing.get() {
            return Ok(false);
        }
        self.begin()?;
        if let Err(e) = self.replay(writes) {
            let _ = self.end(false);
            return Err(e);
        }
        self.viewing.set(true);
        Ok(true)
    }

    /// Closes a view opened by [`open_view`](Self::open_view): rolled
    /// back, its writes kept only in the turn's log.
    pub(crate) fn close_view(&self, opened: bool) {
        if opened {
            self.viewing.set(false);
            if let Err(e) = self.end(false) {
                tracing::error!(error = %e, "closing a kitchen view");
            }
        }
    }

    /// Runs `f` with the open turn's writes visible (see the module doc).
    pub(crate) fn viewed<T, E>(
        &self,
        f: impl FnOnce(&Kitchen) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E>
    where
        E: From<DbError>,
    {
        let opened = self.open_view()?;
        let out = f(self);
        self.close_view(opened);
        out
    }

    /// Runs one write statement, logging it when a turn is open.
    pub(crate) fn write(&mut self, w: LoggedWrite) -> DbResult<usize> {
        let n = self.run_write(&w)?;
        if let Some(log) = &mut self.turn {
            log.push((w, None));
        }
        Ok(n)
    }

    /// Gives the open turn's last write the guard it commits under, and
    /// notes the rows it wrote.
    pub(crate) fn guard_last(&mut self, guard: Guard) {
        if let Some((_, g)) = self.turn.as_mut().and_then(|log| log.last_mut()) {
            let ids: Vec<String> = guard.rows.iter().map(|r| r.id.clone()).collect();
            self.reads.borrow_mut().wrote(guard.table, &ids);
            *g = Some(guard);
        }
    }

    fn run_write(&self, w: &LoggedWrite) -> DbResult<usize> {
        match (w, &self.db) {
            (LoggedWrite::Sqlite { sql, params }, _) => Ok(self
                .prepare(sql)?
                .execute(params_from_iter(params.iter()))?),
            (LoggedWrite::Postgres(s), Db::Postgres(pg)) => {
                self.count_statement();
                let n = pg.execute(&s.sql, s.params.clone())?;
                Ok(usize::try_from(n).unwrap_or(usize::MAX))
            }
            (LoggedWrite::Postgres(_), Db::Sqlite(_)) => Err(DbError::Postgres(
                super::postgres::PgError::new("a Postgres statement reached the SQLite store"),
            )),
        }
    }

    fn replay(&self, writes: &[(LoggedWrite, Option<Guard>)]) -> DbResult<()> {
        for (w, _) in writes {
            self.run_write(w)?;
        }
        Ok(())
    }

    /// Runs statements without parameters (savepoints).
    pub(crate) fn batch(&self, sql: &str) -> DbResult<()> {
        match &self.db {
            Db::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Db::Postgres(pg) => Ok(pg.batch(sql)?),
        }
    }

    /// Opens a transaction: SQLite's takes the write lock at once (`BEGIN
    /// IMMEDIATE`); Postgres has no such form.
    fn begin(&self) -> DbResult<()> {
        match &self.db {
            Db::Sqlite(c) => Ok(c.execute_batch("BEGIN IMMEDIATE")?),
            Db::Postgres(pg) => Ok(pg.begin()?),
        }
    }

    /// Opens a transaction whose reads and writes another commit cannot
    /// slip between: SQLite's write lock; on Postgres, REPEATABLE READ (a
    /// row another commit changed after this one's snapshot fails with a
    /// serialization error instead of being overwritten).
    fn begin_serial(&self) -> DbResult<()> {
        match &self.db {
            Db::Sqlite(c) => Ok(c.execute_batch("BEGIN IMMEDIATE")?),
            Db::Postgres(pg) => Ok(pg.begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ")?),
        }
    }

    /// Ends the transaction, committed when `commit`, else rolled back.
    fn end(&self, commit: bool) -> DbResult<()> {
        let how = if commit { "COMMIT" } else { "ROLLBACK" };
        match &self.db {
            Db::Sqlite(c) => Ok(c.execute_batch(how)?),
            Db::Postgres(pg) => Ok(pg.end(how)?),
        }
    }

    /// Opens a turn and returns a guard that rolls it back unless
    /// [`TurnGuard::commit`] is called.
    pub fn turn(&mut self) -> Result<TurnGuard<'_>> {
        self.begin_turn()?;
        Ok(TurnGuard {
            kitchen: self,
            done: false,
        })
    }

    /// Runs `f` inside a savepoint: its writes are released on `Ok` and
    /// rolled back on `Err`. Works inside or outside a turn.
    pub(crate) fn atomically<T, E>(
        &mut self,
        f: impl FnOnce(&mut Kitchen) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E>
    where
        E: From<DbError>,
    {
        // Postgres has savepoints only inside a transaction: outside a
        // turn's view, the call gets one of its own.
        let own = matches!(self.db, Db::Postgres(_)) && !self.viewing.get();
        if own {
            self.begin()?;
        }
        let done = self.in_savepoint(f);
        if own {
            self.end(done.is_ok())?;
        }
        done
    }

    fn in_savepoint<T, E>(
        &mut self,
        f: impl FnOnce(&mut Kitchen) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E>
    where
        E: From<DbError>,
    {
        self.batch("SAVEPOINT kitchen_op")?;
        let logged = self.turn_writes();
        match f(self) {
            Ok(v) => {
                self.batch("RELEASE kitchen_op")?;
                Ok(v)
            }
            Err(e) => {
                self.batch("ROLLBACK TO kitchen_op; RELEASE kitchen_op")?;
                if let Some(log) = &mut self.turn {
                    log.truncate(logged);
                }
                Err(e)
            }
        }
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction, committed on `Ok`.
    /// Outside a turn only.
    pub(crate) fn exclusively<T>(
        &mut self,
        f: impl FnOnce(&mut Kitchen) -> Result<T>,
    ) -> Result<T> {
        if self.turn.is_some() {
            return Err(KitchenError::TurnAlreadyOpen);
        }
        self.begin_serial()?;
        self.viewing.set(true);
        let done = f(self).and_then(|v| {
            self.end(true)?;
            Ok(v)
        });
        self.viewing.set(false);
        if done.is_err() {
            let _ = self.end(false);
        }
        done
    }

    /// Prepares (from the statement cache) and counts one SQLite statement.
    pub(crate) fn prepare(&self, sql: &str) -> DbResult<CachedStatement<'_>> {
        self.count_statement();
        Ok(self.sqlite()?.prepare_cached(sql)?)
    }

    /// Counts one statement (see [`Kitchen::statement_count`]).
    pub(crate) fn count_statement(&self) {
        self.statements.set(self.statements.get() + 1);
    }

    /// Runs one Postgres query, counted.
    pub(crate) fn pg_query(&self, pg: &PgStore, s: Stmt) -> DbResult<Vec<tokio_postgres::Row>> {
        self.count_statement();
        Ok(pg.query(&s.sql, s.params)?)
    }

    /// A fresh row id: a UUID v7, whose order is the order rows were made
    /// in (this process's ids are strictly increasing), so a table without
    /// `created_at` (Alfred's `recipe_ingredients`) still reads back in
    /// creation order.
    pub(crate) fn new_row_id() -> String {
        uuid::Uuid::now_v7().to_string()
    }

    /// A `created_at` stamp (UTC, microseconds) strictly after the last one,
    /// so creation order survives a coarse or stepped clock.
    pub(crate) fn next_stamp(&mut self) -> String {
        // Stamps are kept to the microsecond: compare at that precision, or
        // a `now` a few nanoseconds later prints the same stamp again.
        let now = Timestamp::now()
            .round(
                jiff::TimestampRound::new()
                    .smallest(jiff::Unit::Microsecond)
                    .mode(jiff::RoundMode::Trunc),
            )
            .unwrap_or_else(|_| Timestamp::now());
        let stamp = match self.last_stamp {
            Some(last) if now <= last => last
                .checked_add(SignedDuration::from_micros(1))
                .unwrap_or(last),
            _ => now,
        };
        self.last_stamp = Some(stamp);
        stamp.strftime("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
    }
}

/// How many times a commit is run when other commits keep overtaking it.
const COMMIT_TRIES: usize = 3;

/// True when another commit changed the same rows first (Postgres'
/// serialization failure, SQLSTATE 40001).
fn overtaken(e: &KitchenError) -> bool {
    matches!(e, KitchenError::Pg(p) if p.code.as_deref() == Some("40001"))
}

/// A commit the store refused (a unique key another session took first,
/// say), in the words used for refused changes.
fn refused_at_commit(e: KitchenError) -> KitchenError {
    let said = match e {
        KitchenError::Sql(e)
            if e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation) =>
        {
            super::error::ToolError::from(e)
        }
        KitchenError::Pg(e) if e.is_constraint() => {
            super::error::ToolError::from(DbError::Postgres(e))
        }
        other => return other,
    };
    let why = match unique_key(&said.to_string()) {
        Some(key) => format!("another session saved a {key} this turn also saves"),
        None => format!("the store refused it: {said}"),
    };
    KitchenError::Conflict(format!(
        "this turn's changes could not be saved: {why}; nothing of this turn was saved — \
         send it again to apply it to what is there now"
    ))
}

/// The key a unique violation names, in words: "meal_plans row with the
/// same date and meal_type" (from SQLite's "UNIQUE constraint failed:
/// meal_plans.date, meal_plans.meal_type" or Postgres' "Key (date,
/// meal_type)=(…) already exists" on "meal_plans_…_key").
fn unique_key(message: &str) -> Option<String> {
    if let Some(rest) = message.split("UNIQUE constraint failed: ").nth(1) {
        let cols: Vec<(&str, &str)> = rest
            .split(" (")
            .next()?
            .split(", ")
            .filter_map(|c| c.trim().split_once('.'))
            .collect();
        let table = cols.first()?.0;
        let names: Vec<&str> = cols.iter().map(|(_, c)| *c).collect();
        return Some(format!("{table} row with the same {}", names.join(" and ")));
    }
    let inside = message.split("Key (").nth(1)?.split(")=").next()?;
    Some(format!(
        "row with the same {}",
        inside.split(", ").collect::<Vec<_>>().join(" and ")
    ))
}

/// One write of an open turn, as run: replayed in each later view and at
/// commit.
#[derive(Debug, Clone)]
pub(crate) enum LoggedWrite {
    Sqlite { sql: String, params: Vec<SqlValue> },
    Postgres(Stmt),
}

/// What a committed turn leaves in `turn_commits`: the session's turn and
/// the commit id its session file names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitStamp {
    pub commit_id: String,
    pub session_id: String,
    pub turn: u32,
}

/// An open turn; dropping it without [`commit`](TurnGuard::commit) rolls
/// the turn's writes back. Derefs to the [`Kitchen`].
#[derive(Debug)]
pub struct TurnGuard<'k> {
    kitchen: &'k mut Kitchen,
    done: bool,
}

impl TurnGuard<'_> {
    /// Commits the turn's writes.
    pub fn commit(mut self) -> Result<()> {
        self.done = true;
        self.kitchen.commit_turn()
    }

    /// Rolls the turn back explicitly (dropping does the same).
    pub fn rollback(mut self) -> Result<()> {
        self.done = true;
        self.kitchen.rollback_turn()
    }
}

impl Deref for TurnGuard<'_> {
    type Target = Kitchen;
    fn deref(&self) -> &Kitchen {
        self.kitchen
    }
}

impl DerefMut for TurnGuard<'_> {
    fn deref_mut(&mut self) -> &mut Kitchen {
        self.kitchen
    }
}

impl Drop for TurnGuard<'_> {
    fn drop(&mut self) {
        if !self.done
            && let Err(e) = self.kitchen.rollback_turn()
        {
            tracing::warn!(error = %e, "rolling back an abandoned turn failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_strictly_increase_and_sort_as_text() {
        let mut k = Kitchen::open_in_memory().unwrap();
        let stamps: Vec<String> = (0..50).map(|_| k.next_stamp()).collect();
        for w in stamps.windows(2) {
            assert!(w[0] < w[1], "{} !< {}", w[0], w[1]);
        }
        assert_eq!(stamps[0].len(), "2025-01-18T10:00:00.000000Z".len());
    }

    #[test]
    fn unique_keys_are_named_in_words() {
        assert_eq!(
            unique_key("UNIQUE constraint failed: meal_plans.date, meal_plans.meal_type")
                .as_deref(),
            Some("meal_plans row with the same date and meal_type")
        );
        assert_eq!(
            unique_key(
                "duplicate key value (Key (date, meal_type)=(2026-11-28, dinner) already exists.)"
            )
            .as_deref(),
            Some("row with the same date and meal_type")
        );
        assert_eq!(unique_key("CHECK constraint failed: x"), None);
    }

    #[test]
    fn turn_state_is_checked() {
        let mut k = Kitchen::open_in_memory().unwrap();
        assert!(matches!(k.commit_turn(), Err(KitchenError::NoTurnOpen)));
        k.rollback_turn()
            .expect("rollback without a turn is a no-op");
        k.begin_turn().unwrap();
        assert!(matches!(k.begin_turn(), Err(KitchenError::TurnAlreadyOpen)));
        k.commit_turn().unwrap();
        assert!(!k.in_turn());
    }

    #[test]
    fn a_file_store_uses_wal_and_records_its_schema_version() {
        let dir = tempfile::tempdir().unwrap();
        let k = Kitchen::open(dir.path().join("kitchen.db")).unwrap();
        let mode: String = k
            .sqlite()
            .unwrap()
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        assert_eq!(k.schema_version().unwrap(), migrate::SCHEMA_VERSION as i64);
        assert_eq!(k.path(), Some(dir.path().join("kitchen.db").as_path()));
    }

    #[test]
    fn foreign_keys_are_enforced() {
        let k = Kitchen::open_in_memory().unwrap();
        let fk: i64 = k
            .sqlite()
            .unwrap()
            .pragma_query_value(None, "foreign_keys", |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1);
    }
}
