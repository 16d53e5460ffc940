//! The kitchen in a Postgres database with Alfred's schema: one user's rows
//! (`user_id`), read and written through the same tools, refs and turn
//! transaction as `kitchen.db`.
//!
//! The kitchen's API is synchronous (the pipeline holds it behind a mutex,
//! as it holds the SQLite connection). The driver is async: tokio-postgres
//! with a deadpool pool, run on a runtime of the store's own, one worker
//! thread. A call hands its statement to that runtime and waits for the
//! answer, so it works from any thread — inside another runtime's task as
//! well — and never nests runtimes.
//!
//! The store reads the schema it finds (`information_schema`) and adapts
//! its casts to it: a list may be `text[]` or `jsonb`, an id `uuid` or
//! `text`, a date `date` or `text`. It never changes the schema; only
//! `alfred kitchen init` creates one, in a database without the tables
//! (`ddl.rs`). Every statement on a table with `user_id` is scoped to the
//! user (a recipe's lines through the user's recipes).

mod ddl;
pub(crate) mod error;
pub(crate) mod sql;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod};

use tokio_postgres::types::ToSql;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::error::KitchenError;
use crate::context::Table;
pub use crate::store_url::{is_postgres_url, shown_url};

use error::CONNECT_TIMEOUT;
pub use error::{ConnectCause, PgError, PgResult};
pub(crate) use sql::PgParam;
use sql::{Found, PgColumn};

/// One model call Alfred logged: a row of its `prompt_logs` table (or
/// one of the markdown files its `_log_to_file` writes, read in
/// `session::alfred_state::prompt_logs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedCall {
    /// Its order in the run (1, 2, 3…).
    pub call_number: u32,
    /// `router`, `understand`, `think`, `act`, `reply`, `summarize`…
    pub node: String,
    pub model: String,
    /// When it was logged, as written (ISO 8601), if known.
    pub at: Option<String>,
    pub system: String,
    pub user: String,
    /// The parsed response as JSON text, when there was one.
    pub response: Option<String>,
    pub error: Option<String>,
}

/// Row-level security on the kitchen tables, as it applies to the role
/// alfred connects as ([`PgStore::row_security`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowSecurity {
    /// The role connected (`current_user`).
    pub role: String,
    /// Kitchen tables whose rows RLS filters for that role.
    pub tables: usize,
}

/// A connection to one user's kitchen in a Postgres database.
pub struct PgStore {
    /// The URL without its password, for messages.
    shown: String,
    /// The user whose rows are read and written.
    user: String,
    rt: StoreRuntime,
    pool: Pool,
    /// The connection in use: one at a time, like SQLite's (the kitchen is
    /// behind a lock, so not `Sync`); replaced from the pool when the
    /// server closed it.
    client: RefCell<Arc<Object>>,
    found: Found,
    /// `alfred_turn_commits` exists: turn commits are stamped.
    stamps: bool,
    /// A transaction is open on the connection in use (a view, a call's
    /// own, a commit): a lost connection cannot be replaced then.
    in_transaction: Cell<bool>,
    /// Each connection carries the user's JWT claims (`[store] role_claims`).
    claims: bool,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("url", &self.shown)
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

/// The store's own runtime. Dropped in the background: dropping a runtime
/// inside another one's task panics, and a store is opened and dropped
/// from inside the app's runtime — a failed connect as well as a closed
/// store.
struct StoreRuntime(Option<tokio::runtime::Runtime>);

impl StoreRuntime {
    fn get(&self) -> Option<&tokio::runtime::Runtime> {
        self.0.as_ref()
    }
}

impl Drop for StoreRuntime {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            rt.shutdown_background();
        }
    }
}

/// Runs `f` on `rt` and waits for it, from any thread (inside another
/// runtime's task as well: nothing nests).
fn run_on<T, F>(rt: &tokio::runtime::Runtime, f: F) -> PgResult<T>
where
    F: Future<Output = PgResult<T>> + Send + 'static,
    T: Send + 'static,
{
    match futures::executor::block_on(rt.spawn(f)) {
        Ok(out) => out,
        Err(e) => Err(PgError::new(format!("the database call stopped: {e}"))),
    }
}

/// Parameters as the driver takes them.
fn as_params(params: &[PgParam]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}

/// TLS for servers that offer or require it (`sslmode=prefer`, the
/// default, or `require` in the URL, as Supabase asks), checked against the
/// system's root certificates.
fn tls() -> MakeRustlsConnect {
    // The system's roots are read once per process, not per connection.
    static CONFIG: std::sync::OnceLock<rustls::ClientConfig> = std::sync::OnceLock::new();
    let config = CONFIG.get_or_init(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut roots = rustls::RootCertStore::empty();
        let found = rustls_native_certs::load_native_certs();
        for e in &found.errors {
            tracing::warn!(error = %e, "a system certificate could not be read");
        }
        let (added, ignored) = roots.add_parsable_certificates(found.certs);
        tracing::debug!(added, ignored, "root certificates for Postgres TLS");
        rustls::ClientConfig::builder()
            .with_root_certificates(roots)
            .with_no_client_auth()
    });
    MakeRustlsConnect::new(config.clone())
}

/// What makes a connection the app's user's, as Supabase's API makes each
/// request's: `request.jwt.claims` (`{"sub": USER, "role": "authenticated"}`)
/// set for the session, which `auth.uid()` reads. Row-level security then
/// shows a role without BYPASSRLS exactly that user's rows. A superuser
/// (RLS bypassed) and a database without `auth.uid()` are unchanged by it.
/// Set per session, so a pooler in transaction mode drops it; connect
/// directly or through a session-mode pooler.
fn claims_hook(user: &str) -> deadpool_postgres::Hook {
    let claims = serde_json::json!({"sub": user, "role": "authenticated"}).to_string();
    let sub = user.to_string();
    deadpool_postgres::Hook::async_fn(move |client, _| {
        let (claims, sub) = (claims.clone(), sub.clone());
        Box::pin(async move {
            client
                .execute(
                    "SELECT set_config('request.jwt.claims', $1, false), \
                            set_config('request.jwt.claim.sub', $2, false)",
                    &[&claims, &sub],
                )
                .await
                .map(|_| ())
                .map_err(deadpool_postgres::HookError::Backend)
        })
    })
}

impl PgStore {
    /// Connects to the database at `url` as the kitchen of `user` (a uuid),
    /// and reads its schema. Fails, in words, when the server cannot be
    /// reached, the user is not a uuid, or the database has no kitchen
    /// (`kitchen init` makes one).
    pub fn connect(url: &str, user: &str, claims: bool) -> Result<PgStore, KitchenError> {
        let mut store = Self::open_pool(url, user, claims)?;
        store.check_kitchen()?;
        Ok(store)
    }

    /// Connects without reading the schema (for `kitchen init`). With
    /// `claims`, each connection carries the user's JWT claims, as the
    /// app's requests do (see [`claims_hook`]).
    pub(crate) fn open_pool(url: &str, user: &str, claims: bool) -> Result<PgStore, KitchenError> {
        let shown = shown_url(url);
        let fail = |reason: String| KitchenError::Postgres {
            url: shown.clone(),
            reason,
        };
        let user = uuid::Uuid::parse_str(user.trim())
            .map_err(|_| {
                fail(format!(
                    "the user \"{user}\" is not a uuid; give the user id whose rows to use \
                     (--user UUID or [store] user in config.toml)"
                ))
            })?
            .to_string();
        let mut config: tokio_postgres::Config = url.parse().map_err(|e| {
            fail(format!(
                "not a Postgres URL ({e}) — write it as \
                     postgres://USER:PASSWORD@HOST:PORT/DATABASE, with @ : / ? # in the \
                     password percent-encoded (@ as %40, : as %3A, / as %2F)"
            ))
        })?;
        let named = config.clone();
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        config.application_name("alfred");
        let manager = Manager::from_config(
            config,
            tls(),
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let rt = StoreRuntime(Some(
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("alfred-postgres")
                .enable_all()
                .build()
                .map_err(|e| fail(format!("could not start the database thread: {e}")))?,
        ));
        let mut builder = Pool::builder(manager)
            .max_size(4)
            .runtime(deadpool_postgres::Runtime::Tokio1);
        if claims {
            builder = builder.post_create(claims_hook(&user));
        }
        let pool = builder.build().map_err(|e| fail(e.to_string()))?;
        let first = pool.clone();
        let client = match rt.get() {
            Some(on) => run_on(on, async move { Ok(first.get().await?) }),
            None => Err(PgError::new("the database thread has stopped")),
        }
        .map_err(|e| KitchenError::Connect {
            url: shown.clone(),
            cause: ConnectCause::of(&e, &named),
        })?;
        Ok(PgStore {
            shown,
            user,
            rt,
            pool,
            client: RefCell::new(Arc::new(client)),
            found: HashMap::new(),
            stamps: false,
            in_transaction: Cell::new(false),
            claims,
        })
    }

    /// True when the connections carry the user's JWT claims.
    pub fn claims(&self) -> bool {
        self.claims
    }

    /// The URL without its password.
    pub fn url(&self) -> &str {
        &self.shown
    }

    /// A short name for a title bar: "pg alfred · user 8d1c0d5e" (the
    /// database's name and the user id's first block).
    pub fn short_name(&self) -> String {
        let db = self
            .shown
            .rsplit('/')
            .next()
            .map(|d| d.split('?').next().unwrap_or(d))
            .filter(|d| !d.is_empty() && !d.contains('@'))
            .unwrap_or("postgres");
        let user = self.user.split('-').next().unwrap_or(&self.user);
        format!("pg {db} · user {user}")
    }

    /// The user whose rows are used.
    pub fn user(&self) -> &str {
        &self.user
    }

    /// True when turn commits are stamped (`alfred_turn_commits` exists).
    pub fn stamps(&self) -> bool {
        self.stamps
    }

    pub(crate) fn found(&self) -> &Found {
        &self.found
    }

    /// True when the database's `table` has `column`.
    pub(crate) fn has_column(&self, table: Table, column: &str) -> bool {
        self.found
            .get(&table)
            .is_some_and(|c| c.contains_key(column))
    }

    /// Reads which kitchen tables and columns the database has; fails when
    /// a table is missing.
    pub(crate) fn check_kitchen(&mut self) -> Result<(), KitchenError> {
        let (found, stamps) = self.read_schema().map_err(|e| self.fail(e.message))?;
        let missing: Vec<&str> = Table::ALL
            .iter()
            .filter(|t| !found.contains_key(*t))
            .map(|t| t.name())
            .collect();
        if !missing.is_empty() {
            return Err(self.fail(format!(
                "this database has no kitchen tables {} — is it an Alfred database? To make \
                 one in an empty database: alfred kitchen init --store {} --user {}",
                missing.join(", "),
                self.shown,
                self.user
            )));
        }
        self.found = found;
        self.stamps = stamps;
        Ok(())
    }

    fn fail(&self, reason: String) -> KitchenError {
        KitchenError::Postgres {
            url: self.shown.clone(),
            reason,
        }
    }

    /// The kitchen tables' columns, and whether the stamp table exists.
    fn read_schema(&self) -> PgResult<(Found, bool)> {
        let names: Vec<String> = Table::ALL.iter().map(|t| t.name().to_string()).collect();
        let rows = self.query(
            "SELECT table_name::text, column_name::text, data_type::text, is_nullable::text \
             FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name::text = ANY($1::text[])",
            vec![PgParam::TextArray(names)],
        )?;
        let mut found: Found = HashMap::new();
        for r in rows {
            let table: String = r.get(0);
            let Some(t) = Table::ALL.into_iter().find(|t| t.name() == table) else {
                continue;
            };
            found.entry(t).or_default().insert(
                r.get(1),
                PgColumn {
                    data_type: r.get(2),
                    nullable: r.get::<_, String>(3) == "YES",
                },
            );
        }
        let stamps = self
            .query(
                "SELECT count(*) FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_name = 'alfred_turn_commits'",
                Vec::new(),
            )?
            .first()
            .is_some_and(|r| r.get::<_, i64>(0) > 0);
        Ok((found, stamps))
    }

    /// Runs `f` on the store's runtime and waits for it.
    fn run<T, F>(&self, f: F) -> PgResult<T>
    where
        F: Future<Output = PgResult<T>> + Send + 'static,
        T: Send + 'static,
    {
        match self.rt.get() {
            Some(rt) => run_on(rt, f),
            None => Err(PgError::new("the database thread has stopped")),
        }
    }

    /// The connection in use. One the server closed is replaced from the
    /// pool — between transactions only: inside one, what it did is lost
    /// with it, and the call fails instead. (A turn's writes are kept in
    /// its log, not on the connection, so the next call replays them.)
    fn client(&self) -> PgResult<Arc<Object>> {
        let held = Arc::clone(&self.client.borrow());
        if !held.is_closed() {
            return Ok(held);
        }
        if self.in_transaction.get() {
            return Err(PgError::new(
                "the connection to the database was lost in the middle of a transaction; \
                 nothing of it was kept",
            ));
        }
        self.reconnect()
    }

    /// A fresh connection from the pool, in place of the one in use.
    fn reconnect(&self) -> PgResult<Arc<Object>> {
        tracing::warn!(url = %self.shown, "the database connection was closed; reconnecting");
        let pool = self.pool.clone();
        let fresh = Arc::new(self.run(async move { Ok(pool.get().await?) })?);
        *self.client.borrow_mut() = Arc::clone(&fresh);
        Ok(fresh)
    }

    /// Runs `op` on the connection in use. Outside a transaction, a
    /// connection the server had already closed (a restart, an idle
    /// timeout: the driver may learn of it only now) is replaced and `op`
    /// tried once more; inside one, the error stands.
    fn attempt<T, F, Fut>(&self, op: F) -> PgResult<T>
    where
        F: Fn(Arc<Object>) -> Fut,
        Fut: Future<Output = Result<T, tokio_postgres::Error>> + Send + 'static,
        T: Send + 'static,
    {
        let may_retry = !self.in_transaction.get();
        let first = op(self.client()?);
        // Closed under the driver, or the server's last word before closing
        // it ("terminating connection due to administrator command", a
        // connection failure: SQLSTATE 57P01–57P03, class 08).
        let lost = |e: &tokio_postgres::Error| {
            e.is_closed()
                || e.code().is_some_and(|c| {
                    let c = c.code();
                    c.starts_with("08") || matches!(c, "57P01" | "57P02" | "57P03")
                })
        };
        match self.run(async move { Ok(first.await) })? {
            Err(e) if may_retry && lost(&e) => {
                let again = op(self.reconnect()?);
                self.run(async move { Ok(again.await?) })
            }
            done => done.map_err(PgError::from),
        }
    }

    /// Whether row-level security filters what this connection sees of the
    /// kitchen tables: `Some` (the role connected, how many kitchen tables
    /// have RLS on) when the role neither bypasses it (superuser,
    /// BYPASSRLS) nor owns those tables; `None` when it sees every row.
    pub fn row_security(&self) -> PgResult<Option<RowSecurity>> {
        let names: Vec<String> = Table::ALL.iter().map(|t| t.name().to_string()).collect();
        let rows = self.query(
            "SELECT current_user::text, \
                    (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user), \
                    (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
                      WHERE n.nspname = current_schema() AND c.relname::text = ANY($1::text[]) \
                        AND c.relrowsecurity \
                        AND (c.relforcerowsecurity OR NOT pg_has_role(c.relowner, 'USAGE')))",
            vec![PgParam::TextArray(names)],
        )?;
        let Some(row) = rows.first() else {
            return Ok(None);
        };
        let (role, bypass, tables): (String, Option<bool>, i64) =
            (row.get(0), row.get(1), row.get(2));
        Ok(
            (!bypass.unwrap_or(false) && tables > 0).then(|| RowSecurity {
                role,
                tables: usize::try_from(tables).unwrap_or(0),
            }),
        )
    }

    /// What Alfred's sign-up leaves for a user that seeding needs: their
    /// `users` row, which every kitchen row refers to. Added when the
    /// database has a `users` table without it (a signed-up user has one
    /// already, and is left as they are).
    pub(crate) fn sign_up(&self) -> PgResult<()> {
        // Asked apart: naming a table that is not there would fail the
        // transaction this runs in.
        let users = self.query("SELECT to_regclass('users') IS NOT NULL", Vec::new())?;
        if !users.first().is_some_and(|r| r.get::<_, bool>(0)) {
            return Ok(());
        }
        let missing = self.query(
            "SELECT NOT EXISTS (SELECT 1 FROM users WHERE id = $1::text::uuid)",
            vec![PgParam::Text(Some(self.user.clone()))],
        )?;
        if missing.first().is_some_and(|r| r.get::<_, bool>(0)) {
            self.execute(
                "INSERT INTO users (id) VALUES ($1::text::uuid)",
                vec![PgParam::Text(Some(self.user.clone()))],
            )?;
        }
        Ok(())
    }

    /// True when the database has Supabase's `auth.uid()`.
    fn has_auth_uid(&self) -> Result<bool, KitchenError> {
        let rows = self
            .query(
                "SELECT to_regprocedure('auth.uid()') IS NOT NULL",
                Vec::new(),
            )
            .map_err(|e| self.fail(e.to_string()))?;
        Ok(rows.first().is_some_and(|r| r.get::<_, bool>(0)))
    }

    /// Runs a query; its rows.
    pub(crate) fn query(
        &self,
        sql: &str,
        params: Vec<PgParam>,
    ) -> PgResult<Vec<tokio_postgres::Row>> {
        self.attempt(|client| {
            let (sql, params) = (sql.to_string(), params.clone());
            async move {
                let stmt = client.prepare_cached(&sql).await?;
                client.query(&stmt, &as_params(&params)).await
            }
        })
    }

    /// Runs a statement; the rows it changed.
    pub(crate) fn execute(&self, sql: &str, params: Vec<PgParam>) -> PgResult<u64> {
        self.attempt(|client| {
            let (sql, params) = (sql.to_string(), params.clone());
            async move {
                let stmt = client.prepare_cached(&sql).await?;
                client.execute(&stmt, &as_params(&params)).await
            }
        })
    }

    /// Opens a transaction.
    pub(crate) fn begin(&self) -> PgResult<()> {
        self.begin_with("BEGIN")
    }

    /// Opens a transaction with `how` (`BEGIN ISOLATION LEVEL …`).
    pub(crate) fn begin_with(&self, how: &str) -> PgResult<()> {
        self.batch(how)?;
        self.in_transaction.set(true);
        Ok(())
    }

    /// Ends the transaction: `COMMIT` or `ROLLBACK`. Ended, or lost with its
    /// connection: either way no longer open.
    pub(crate) fn end(&self, how: &str) -> PgResult<()> {
        let done = self.batch(how);
        self.in_transaction.set(false);
        done
    }

    /// Runs statements without parameters: savepoints inside a
    /// transaction, DDL in its own.
    pub(crate) fn batch(&self, sql: &str) -> PgResult<()> {
        self.attempt(|client| {
            let sql = sql.to_string();
            async move { client.batch_execute(&sql).await }
        })
    }

    /// The user's saved Alfred conversation: the `state` of their
    /// `conversations` row (`None` when they have none). Reads only.
    pub fn conversation_state(
        url: &str,
        user: &str,
    ) -> Result<Option<serde_json::Value>, KitchenError> {
        let store = Self::open_pool(url, user, true)?;
        let rows = store
            .query(
                "SELECT state::text FROM conversations WHERE user_id::text = $1::text",
                vec![PgParam::Text(Some(store.user.clone()))],
            )
            .map_err(|e| {
                let hint = if e.code.as_deref() == Some("42P01") {
                    " — this database has no conversations table; is it an Alfred database?"
                } else {
                    ""
                };
                store.fail(format!("reading the user's conversation failed: {e}{hint}"))
            })?;
        let Some(row) = rows.first() else {
            return Ok(None);
        };
        let text: Option<String> = row.get(0);
        match text {
            None => Ok(None),
            Some(t) => serde_json::from_str(&t)
                .map(Some)
                .map_err(|e| store.fail(format!("the conversation's state is not JSON: {e}"))),
        }
    }

    /// The user's logged model calls (Alfred's `prompt_logs` table, written
    /// with `ALFRED_LOG_TO_DB=1`), by run (`session_id`) and call order:
    /// (run, call). An Alfred database without the table has none. Reads only.
    pub fn prompt_logs(url: &str, user: &str) -> Result<Vec<(String, LoggedCall)>, KitchenError> {
        Self::open_pool(url, user, true)?.logged_calls()
    }

    /// Connects to read the user's conversation and logs (no kitchen
    /// tables needed): what `alfred watch` holds open.
    pub fn open_to_read(url: &str, user: &str, claims: bool) -> Result<PgStore, KitchenError> {
        Self::open_pool(url, user, claims)
    }

    /// The user's `conversations` row as it stands: when the app last
    /// committed it (`last_active_at`, as text) and its state. `None` when
    /// the user has none. Reads only.
    pub fn conversation_row(&self) -> Result<Option<(String, serde_json::Value)>, KitchenError> {
        let rows = self
            .query(
                "SELECT last_active_at::text, state::text FROM conversations \
                 WHERE user_id::text = $1::text",
                vec![PgParam::Text(Some(self.user.clone()))],
            )
            .map_err(|e| self.fail(format!("reading the user's conversation failed: {e}")))?;
        let Some(row) = rows.first() else {
            return Ok(None);
        };
        let at: Option<String> = row.get(0);
        let state: Option<String> = row.get(1);
        let state = serde_json::from_str(state.as_deref().unwrap_or("{}"))
            .map_err(|e| self.fail(format!("the conversation's state is not JSON: {e}")))?;
        Ok(Some((at.unwrap_or_default(), state)))
    }

    /// [`PgStore::prompt_logs`] on this connection.
    pub fn logged_calls(&self) -> Result<Vec<(String, LoggedCall)>, KitchenError> {
        let rows = self.query(
            "SELECT session_id::text, call_number::int8, node::text, model::text, \
                    coalesce(system_prompt, '')::text, coalesce(user_prompt, '')::text, \
                    response::text, error::text, \
                    to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') \
             FROM prompt_logs WHERE user_id::text = $1::text \
             ORDER BY session_id, call_number",
            vec![PgParam::Text(Some(self.user.clone()))],
        );
        let rows = match rows {
            Ok(rows) => rows,
            Err(e) if e.code.as_deref() == Some("42P01") => return Ok(Vec::new()),
            Err(e) => return Err(self.fail(format!("reading the prompt logs failed: {e}"))),
        };
        Ok(rows
            .iter()
            .map(|r| {
                let number: i64 = r.get(1);
                (
                    r.get(0),
                    LoggedCall {
                        call_number: u32::try_from(number).unwrap_or(0),
                        node: r.get(2),
                        model: r.get(3),
                        system: r.get(4),
                        user: r.get(5),
                        response: r.get(6),
                        error: r.get(7),
                        at: r.get(8),
                    },
                )
            })
            .collect())
    }

    /// Creates the kitchen tables (and the stamp table) in a database that
    /// has none of them, in one transaction. Refuses, changing nothing,
    /// when any kitchen table already exists.
    pub(crate) fn create_schema(&self) -> Result<(), KitchenError> {
        let (found, stamps) = self.read_schema().map_err(|e| self.fail(e.message))?;
        if !found.is_empty() {
            let mut have: Vec<&str> = found.keys().map(|t| t.name()).collect();
            have.sort_unstable();
            if have.len() == Table::ALL.len() {
                return Ok(());
            }
            return Err(self.fail(format!(
                "this database already has some kitchen tables ({}) but not all; alfred \
                 does not change an existing schema — use an empty database, or finish the \
                 schema by hand",
                have.join(", ")
            )));
        }
        let mut sql = format!("BEGIN;\n{}", ddl::TABLES);
        if !stamps {
            sql.push_str(ddl::TURN_COMMITS);
        }
        if self.has_auth_uid()? {
            sql.push_str(&ddl::row_security());
        }
        sql.push_str("COMMIT;");
        if let Err(e) = self.batch(&sql) {
            let _ = self.batch("ROLLBACK");
            return Err(self.fail(format!("creating the kitchen tables failed: {e}")));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shown_url_keeps_no_part_of_the_password() {
        for (url, shown) in [
            (
                "postgres://alice:pw@db.example:5432/kitchen",
                "postgres://alice@db.example:5432/kitchen",
            ),
            (
                "postgres://postgres:p@ss:w0rd/x@127.0.0.1/alfred",
                "postgres://postgres@127.0.0.1/alfred",
            ),
            (
                "postgresql://bob@h/db?sslmode=require&password=s3cret",
                "postgresql://bob@h/db?sslmode=require",
            ),
            ("postgres://h/db?password=s3cret", "postgres://h/db"),
            ("postgres://h/db", "postgres://h/db"),
        ] {
            assert_eq!(shown_url(url), shown, "{url}");
        }
    }

    #[test]
    fn connect_causes_are_read_from_the_code_then_the_words() {
        let config: tokio_postgres::Config =
            "postgres://ann:x@db.example:6543/kit".parse().unwrap();
        let db = |code: &str| PgError {
            message: "m".into(),
            code: Some(code.into()),
        };
        assert_eq!(
            ConnectCause::of(&db("28P01"), &config),
            ConnectCause::WrongPassword { role: "ann".into() }
        );
        assert_eq!(
            ConnectCause::of(&db("3D000"), &config),
            ConnectCause::NoDatabase { name: "kit".into() }
        );
        let words = |m: &str| ConnectCause::of(&PgError::new(m), &config);
        assert_eq!(
            words("error connecting to server: Connection refused (os error 111)"),
            ConnectCause::Refused {
                at: "db.example:6543".into()
            }
        );
        assert_eq!(
            words("error performing TLS handshake: server does not support TLS"),
            ConnectCause::TlsUnsupported
        );
        assert_eq!(
            words("invalid configuration: password missing"),
            ConnectCause::NoPassword { role: "ann".into() }
        );
        assert!(matches!(
            words("something new"),
            ConnectCause::Refusal { .. }
        ));
    }
}
