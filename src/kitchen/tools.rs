//! Raw row operations on the store, in row ids: select, insert, update,
//! delete, the nested ingredient lines of recipes, FK label lookups and the
//! ingredient catalog.
//!
//! These work below the ref layer: ids in and out are row ids, and nothing
//! here knows the registry (see `refs.rs` and `exec.rs`). Every SQL
//! identifier comes from the static schema; every value is a bound
//! parameter; id sets travel as one parameter (a JSON array read with
//! `json_each` in SQLite, a `text[]` in Postgres), so one statement serves
//! any number of ids. Each operation is written once per store: SQLite's
//! here, Postgres's built by `postgres/sql.rs`.

use std::collections::HashMap;

use rusqlite::params_from_iter;
use rusqlite::types::Value as SqlValue;
use serde_json::{Map, Value, json};

use super::error::DbResult;
use super::filters::{IN_IDS, WhereClause, ids_param};
use super::postgres::sql::{Dialect, decode};
use super::postgres::{PgStore, sql};
use super::row::{RawRow, row_id, row_label};
use super::schema::{ColumnDef, TableSchema, label_columns, table_schema};
use super::store::{Db, Kitchen, LoggedWrite};
use super::values::{real_to_json, sql_to_json};
use crate::context::Table;

/// A checked SELECT.
#[derive(Debug, Clone)]
pub(crate) struct Select {
    pub schema: &'static TableSchema,
    pub columns: Vec<&'static ColumnDef>,
    pub filter: WhereClause,
    /// The column to sort by; `None` is creation order.
    pub order_by: Option<&'static ColumnDef>,
    pub descending: bool,
    /// `None` reads every match.
    pub limit: Option<usize>,
}

/// A catalog ingredient, for linking rows to it by name.
#[derive(Debug, Clone)]
pub(crate) struct CatalogEntry {
    pub id: String,
    pub category: Option<String>,
}

fn dialect(pg: &PgStore) -> Dialect<'_> {
    Dialect {
        found: pg.found(),
        user: pg.user(),
    }
}

impl Kitchen {
    /// A Postgres statement built for the schema found; `None` on SQLite.
    pub(crate) fn pg_stmt(
        &self,
        build: impl FnOnce(&Dialect<'_>) -> sql::Stmt,
    ) -> Option<sql::Stmt> {
        self.postgres().map(|pg| build(&dialect(pg)))
    }

    /// The rows of a Postgres query built for the schema found; `None` on
    /// SQLite.
    pub(crate) fn pg_rows(
        &self,
        build: impl FnOnce(&Dialect<'_>) -> sql::Stmt,
    ) -> Option<DbResult<Vec<tokio_postgres::Row>>> {
        let pg = self.postgres()?;
        Some(self.pg_query(pg, build(&dialect(pg))))
    }

    /// Runs a SELECT and decodes each row by column kind.
    pub(crate) fn select_rows(&self, q: &Select) -> DbResult<Vec<RawRow>> {
        let Db::Postgres(pg) = &self.db else {
            return self.select_rows_sqlite(q);
        };
        let s = dialect(pg).select(
            q.schema.table,
            &q.columns,
            &q.filter,
            q.order_by,
            q.descending,
            q.limit,
        );
        let rows = self.pg_query(pg, s)?;
        let rows: Vec<RawRow> = rows.iter().map(|r| decode(&q.columns, r)).collect();
        self.saw(q.schema.table, &rows);
        Ok(rows)
    }

    fn select_rows_sqlite(&self, q: &Select) -> DbResult<Vec<RawRow>> {
        let t = q.schema.table.name();
        let cols: Vec<String> = q
            .columns
            .iter()
            .map(|c| format!("{t}.{}", c.name))
            .collect();
        let dir = if q.descending { "DESC" } else { "ASC" };
        // Default order is creation order: `created_at` where the table has
        // it (stamps strictly increase), then insertion order.
        let order = match (q.order_by, q.schema.column("created_at")) {
            (Some(c), _) | (None, Some(c)) => format!("{t}.{} {dir}, {t}.rowid {dir}", c.name),
            (None, None) => format!("{t}.rowid {dir}"),
        };
        let filter = q.filter.sqlite();
        let sql = format!(
            "SELECT {} FROM {t} WHERE {} ORDER BY {order} LIMIT ?",
            cols.join(", "),
            filter.sql
        );
        let limit = q.limit.map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX));
        let mut params = filter.params;
        params.push(SqlValue::Integer(limit));
        let mut stmt = self.prepare(&sql)?;
        let mut rows = stmt.query(params_from_iter(params))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let mut map = Map::new();
            for (i, c) in q.columns.iter().enumerate() {
                map.insert(c.name.to_string(), sql_to_json(c.kind, row.get_ref(i)?));
            }
            out.push(map);
        }
        self.saw(q.schema.table, &out);
        Ok(out)
    }

    /// Every matching row with every column, in creation order; recipes
    /// come with their ingredient lines. What writes return.
    pub(crate) fn full_rows(&self, table: Table, filter: WhereClause) -> DbResult<Vec<RawRow>> {
        let schema = table_schema(table);
        let mut rows = self.select_rows(&Select {
            schema,
            columns: schema.columns.iter().collect(),
            filter,
            order_by: None,
            descending: false,
            limit: None,
        })?;
        if table == Table::Recipes {
            self.attach_recipe_ingredients(&mut rows)?;
        }
        Ok(rows)
    }

    /// [`Kitchen::full_rows`] of these ids.
    pub(crate) fn rows_by_id(&self, table: Table, ids: &[String]) -> DbResult<Vec<RawRow>> {
        self.full_rows(table, WhereClause::ids(table, ids))
    }

    /// The content of recipes by row id (every column and the ingredient
    /// lines), for judging them against standing constraints. Read-only;
    /// registers nothing.
    pub fn recipe_contents(&self, ids: &[String]) -> crate::kitchen::Result<Vec<Value>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let rows = self.viewed(|k| k.rows_by_id(Table::Recipes, ids))?;
        Ok(rows.into_iter().map(Value::Object).collect())
    }

    /// The ids of every row matching a WHERE clause.
    pub(crate) fn matching_ids(&self, table: Table, filter: &WhereClause) -> DbResult<Vec<String>> {
        if let Some(rows) = self.pg_rows(|d| d.matching_ids(table, filter)) {
            return Ok(rows?.iter().map(|r| r.get(0)).collect());
        }
        let t = table.name();
        let filter = filter.sqlite();
        let sql = format!(
            "SELECT {t}.id FROM {t} WHERE {} ORDER BY {t}.rowid",
            filter.sql
        );
        let mut stmt = self.prepare(&sql)?;
        Ok(stmt
            .query_map(params_from_iter(filter.params.iter()), |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// Adds `ingredients: [{name, quantity, unit}]` to each recipe row, with
    /// one query for all of them.
    pub(crate) fn attach_recipe_ingredients(&self, rows: &mut [RawRow]) -> DbResult<()> {
        let ids: Vec<String> = rows
            .iter()
            .filter_map(|r| row_id(r).map(str::to_string))
            .collect();
        if ids.is_empty() {
            return Ok(());
        }
        // An optional line says so ("sesame seeds" to garnish); a needed
        // one carries no flag.
        let line = |name: String, quantity: Option<f64>, unit: Option<String>, optional: bool| {
            let mut l = json!({
                "name": name,
                "quantity": quantity.map_or(Value::Null, real_to_json),
                "unit": unit,
            });
            if optional {
                l["is_optional"] = Value::Bool(true);
            }
            l
        };
        let mut lines: HashMap<String, Vec<Value>> = HashMap::new();
        if let Some(rows) = self.pg_rows(|d| d.recipe_lines(&ids)) {
            for r in rows? {
                lines.entry(r.get(0)).or_default().push(line(
                    r.get(1),
                    r.get(2),
                    r.get(3),
                    r.get::<_, Option<bool>>(4).unwrap_or(false),
                ));
            }
        } else {
            let sql = format!(
                "SELECT recipe_id, name, quantity, unit, is_optional FROM recipe_ingredients \
                 WHERE recipe_id {IN_IDS} ORDER BY rowid"
            );
            let mut stmt = self.prepare(&sql)?;
            let mut q = stmt.query([ids_param(&ids)])?;
            while let Some(r) = q.next()? {
                lines.entry(r.get(0)?).or_default().push(line(
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get::<_, Option<i64>>(4)?.unwrap_or(0) != 0,
                ));
            }
        }
        for row in rows {
            let list = row_id(row)
                .and_then(|id| lines.remove(id))
                .unwrap_or_default();
            row.insert("ingredients".to_string(), Value::Array(list));
        }
        Ok(())
    }

    /// Inserts one row; `values` must not hold `id` or `created_at`.
    /// Returns the new row id.
    pub(crate) fn insert_row(
        &mut self,
        table: Table,
        values: &[(&'static ColumnDef, SqlValue)],
    ) -> DbResult<String> {
        let schema = table_schema(table);
        let id = Kitchen::new_row_id();
        self.check_columns(table, values)?;
        let stamp = self.next_stamp();
        if let Some(s) = self.pg_stmt(|d| d.insert(table, &id, &stamp, values)) {
            self.write(LoggedWrite::Postgres(s))?;
            return Ok(id);
        }
        let mut names = vec!["id"];
        let mut params = vec![SqlValue::Text(id.clone())];
        if schema.column("created_at").is_some() {
            names.push("created_at");
            params.push(SqlValue::Text(stamp));
        }
        for (c, v) in values {
            names.push(c.name);
            params.push(v.clone());
        }
        let sql = format!(
            "INSERT INTO {} ({}) VALUES ({})",
            table.name(),
            names.join(", "),
            super::filters::placeholders(names.len())
        );
        self.write(LoggedWrite::Sqlite { sql, params })?;
        Ok(id)
    }

    /// Sets `values` on the rows with these ids, and changes the number
    /// columns of `deltas` by their amounts. Inside a turn the write is
    /// guarded: it commits only as a change of what the turn read (see
    /// `guard.rs`).
    pub(crate) fn update_rows(
        &mut self,
        table: Table,
        ids: &[String],
        values: &[(&'static ColumnDef, SqlValue)],
        deltas: &[(&'static ColumnDef, SqlValue)],
    ) -> DbResult<usize> {
        self.check_columns(table, values)?;
        self.check_columns(table, deltas)?;
        let before = if self.in_turn() {
            self.rows_by_id(table, ids)?
        } else {
            Vec::new()
        };
        let n = match self.pg_stmt(|d| d.update(table, ids, values, deltas)) {
            Some(s) => self.write(LoggedWrite::Postgres(s))?,
            None => {
                let mut sets: Vec<String> = values
                    .iter()
                    .map(|(c, _)| format!("{} = ?", c.name))
                    .collect();
                // Rounded to a millionth, so 1.8 less 0.01 stores 1.79.
                sets.extend(
                    deltas
                        .iter()
                        .map(|(c, _)| format!("{0} = round(coalesce({0}, 0) + ?, 6)", c.name)),
                );
                let sql = format!(
                    "UPDATE {} SET {} WHERE id {IN_IDS}",
                    table.name(),
                    sets.join(", ")
                );
                let mut params: Vec<SqlValue> = values
                    .iter()
                    .chain(deltas)
                    .map(|(_, v)| v.clone())
                    .collect();
                params.push(ids_param(ids));
                self.write(LoggedWrite::Sqlite { sql, params })?
            }
        };
        if self.in_turn() {
            let after = self.rows_by_id(table, ids)?;
            let sets: Vec<&'static ColumnDef> = values.iter().map(|(c, _)| *c).collect();
            let adds: Vec<&'static ColumnDef> = deltas.iter().map(|(c, _)| *c).collect();
            let guard =
                super::guard::update_guard(table, &before, &after, &sets, &adds, &self.reads());
            self.guard_last(guard);
        }
        Ok(n)
    }

    /// Refuses a write to a column the store's table lacks (an Alfred
    /// database without `preferences.units`), naming it, before the database
    /// is asked.
    fn check_columns(
        &self,
        table: Table,
        values: &[(&'static ColumnDef, SqlValue)],
    ) -> DbResult<()> {
        match values.iter().find(|(c, _)| !self.has_column(table, c.name)) {
            Some((c, _)) => Err(super::error::DbError::Postgres(
                super::postgres::PgError::new(format!(
                    "this database's {table} table has no column {}; leave it out",
                    c.name
                )),
            )),
            None => Ok(()),
        }
    }

    /// Deletes these rows (as read just before, by id). Inside a turn the
    /// delete is guarded: it commits unless the amount the turn read of a
    /// row has changed since (see `guard.rs`).
    pub(crate) fn delete_rows(&mut self, table: Table, rows: &[RawRow]) -> DbResult<usize> {
        let ids: Vec<String> = rows
            .iter()
            .filter_map(|r| row_id(r).map(String::from))
            .collect();
        let guard = if self.in_turn() {
            super::guard::delete_guard(
                table,
                rows,
                table_schema(table).column("quantity"),
                &self.reads(),
            )
        } else {
            None
        };
        let n = match self.pg_stmt(|d| d.delete(table, &ids)) {
            Some(s) => self.write(LoggedWrite::Postgres(s))?,
            None => {
                let sql = format!("DELETE FROM {} WHERE id {IN_IDS}", table.name());
                self.write(LoggedWrite::Sqlite {
                    sql,
                    params: vec![ids_param(&ids)],
                })?
            }
        };
        if let Some(g) = guard {
            self.guard_last(g);
        }
        Ok(n)
    }

    /// Deletes every row of `table` (the user's, on Postgres, where the
    /// ingredient catalog is shared and is kept).
    pub(crate) fn delete_all(&mut self, table: Table) -> DbResult<usize> {
        if !self.owns(table) {
            return Ok(0);
        }
        if let Some(s) = self.pg_stmt(|d| d.delete_all(table)) {
            return self.write(LoggedWrite::Postgres(s));
        }
        let sql = format!("DELETE FROM {}", table.name());
        self.write(LoggedWrite::Sqlite {
            sql,
            params: Vec::new(),
        })
    }

    /// Labels of rows of one table, in one query.
    pub(crate) fn fetch_labels(
        &self,
        table: Table,
        ids: &[String],
    ) -> DbResult<HashMap<String, String>> {
        let cols = label_columns(table);
        if ids.is_empty() || cols.is_empty() {
            return Ok(HashMap::new());
        }
        let schema = table_schema(table);
        let columns: Vec<&'static ColumnDef> = std::iter::once(&schema.columns[0])
            .chain(cols.iter().filter_map(|c| schema.column(c)))
            .collect();
        let rows = self.select_rows(&Select {
            schema,
            columns,
            filter: WhereClause::ids(table, ids),
            order_by: None,
            descending: false,
            limit: None,
        })?;
        Ok(rows
            .iter()
            .filter_map(|r| Some((row_id(r)?.to_string(), row_label(table, r))))
            .collect())
    }

    /// The ingredient catalog by lowercase name and alias.
    pub(crate) fn catalog(&self) -> DbResult<HashMap<String, CatalogEntry>> {
        let schema = table_schema(Table::Ingredients);
        let rows = self.select_rows(&Select {
            schema,
            columns: ["id", "name", "aliases", "category"]
                .iter()
                .filter_map(|c| schema.column(c))
                .collect(),
            filter: WhereClause::all(),
            order_by: None,
            descending: false,
            limit: None,
        })?;
        let text = |row: &RawRow, k: &str| row.get(k).and_then(Value::as_str).map(String::from);
        let mut out = HashMap::new();
        for row in &rows {
            let entry = CatalogEntry {
                id: text(row, "id").unwrap_or_default(),
                category: text(row, "category"),
            };
            let aliases = row.get("aliases").and_then(Value::as_array);
            for alias in aliases.into_iter().flatten().filter_map(Value::as_str) {
                out.entry(alias.trim().to_lowercase())
                    .or_insert_with(|| entry.clone());
            }
            // Names win over aliases.
            let name = text(row, "name").unwrap_or_default();
            out.insert(name.trim().to_lowercase(), entry);
        }
        Ok(out)
    }

    /// True for the tables whose rows are this kitchen's own: every table
    /// of `kitchen.db`; on Postgres all but the shared ingredient catalog.
    pub fn owns(&self, table: Table) -> bool {
        self.postgres().is_none() || sql::user_scoped(table)
    }

    /// True when none of the kitchen's own tables has a row (stops at the
    /// first that has one). A preferences row alone does not count: Alfred's
    /// sign-up makes one for every user, whose kitchen is still empty.
    pub fn has_no_rows(&self) -> DbResult<bool> {
        let kitchen = |t: &Table| self.owns(*t) && *t != Table::Preferences;
        for table in Table::ALL.into_iter().filter(kitchen) {
            if self.count_rows(table)? > 0 {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Number of rows in a table.
    pub(crate) fn count_rows(&self, table: Table) -> DbResult<u64> {
        if let Some(rows) = self.pg_rows(|d| d.count(table, None)) {
            let n: i64 = rows?.first().map_or(0, |r| r.get(0));
            return Ok(u64::try_from(n).unwrap_or(0));
        }
        let sql = format!("SELECT count(*) FROM {}", table.name());
        let n: i64 = self.prepare(&sql)?.query_row([], |r| r.get(0))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
