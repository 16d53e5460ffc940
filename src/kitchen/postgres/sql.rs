//! The kitchen's statements in Postgres's SQL, for the schema found.
//!
//! Every parameter is cast in the SQL (`$1::text`, `$2::int8`…), so its
//! type is known before the server sees a value, and each column is read
//! cast to a type the store decodes the same way whatever the database
//! uses (`uuid` as text, `numeric` as float8, `text[]` or `jsonb` lists as
//! JSON text). SQLite's meaning is kept: LIKE without escapes and case-blind,
//! NULLs first in ascending order, byte order for text, `!=` true against
//! NULL. Pure: builds SQL text, runs none.

use std::fmt::Write as _;

use bytes::BytesMut;
use rusqlite::types::Value as SqlValue;
use serde_json::Value;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

use crate::context::Table;
use crate::kitchen::filters::Op;
use crate::kitchen::filters::{Condition, Target, WhereClause};
use crate::kitchen::row::RawRow;
use crate::kitchen::schema::{ColumnDef, ColumnKind};
use crate::kitchen::values::real_to_json;

/// A column as the database has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PgColumn {
    /// `information_schema.columns.data_type`: "uuid", "ARRAY", "jsonb",
    /// "date", "boolean", "numeric", "text", "timestamp with time zone"…
    pub data_type: String,
    pub nullable: bool,
}

/// The kitchen tables as found in the database: table → column → type.
pub(crate) type Found =
    std::collections::HashMap<Table, std::collections::HashMap<String, PgColumn>>;

/// A bound value, typed the way the SQL casts it.
#[derive(Debug, Clone, PartialEq)]
pub enum PgParam {
    Text(Option<String>),
    Int(Option<i64>),
    Float(Option<f64>),
    Bool(Option<bool>),
    TextArray(Vec<String>),
}

impl ToSql for PgParam {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            PgParam::Text(v) => v.to_sql(ty, out),
            PgParam::Int(v) => v.to_sql(ty, out),
            PgParam::Float(v) => v.to_sql(ty, out),
            PgParam::Bool(v) => v.to_sql(ty, out),
            PgParam::TextArray(v) => v.to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        <Option<String> as ToSql>::accepts(ty)
            || <Option<i64> as ToSql>::accepts(ty)
            || <Option<f64> as ToSql>::accepts(ty)
            || <Option<bool> as ToSql>::accepts(ty)
            || <Vec<String> as ToSql>::accepts(ty)
    }

    to_sql_checked!();
}

/// Statement text and its parameters, numbered as pushed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Stmt {
    pub sql: String,
    pub params: Vec<PgParam>,
}

impl Stmt {
    /// Binds `p`; its placeholder with `cast` (`$3::int8`).
    fn bind(&mut self, p: PgParam, cast: &str) -> String {
        self.params.push(p);
        format!("${}::{cast}", self.params.len())
    }
}

/// The tables whose rows belong to a user (all but the shared catalog).
pub(crate) fn user_scoped(table: Table) -> bool {
    table != Table::Ingredients
}

/// Alfred's four recipe tag columns (its migration 022) and the tags each
/// takes (036 adds `other` to the flavours). A recipe's `tags` that belong
/// to one are written to it too, so Alfred's own filters find the recipe.
const ALFRED_TAGS: [(&str, &[&str]); 4] = [
    (
        "occasions",
        &["weeknight", "batch-prep", "hosting", "weekend", "comfort"],
    ),
    (
        "health_tags",
        &[
            "high-protein",
            "low-carb",
            "vegetarian",
            "vegan",
            "light",
            "gluten-free",
            "dairy-free",
            "keto",
        ],
    ),
    (
        "flavor_tags",
        &[
            "spicy", "mild", "savory", "sweet", "tangy", "rich", "light", "umami",
        ],
    ),
    (
        "equipment_tags",
        &[
            "air-fryer",
            "instant-pot",
            "one-pot",
            "one-pan",
            "grill",
            "no-cook",
            "slow-cooker",
            "oven",
            "stovetop",
        ],
    ),
];

/// How a text column the database keeps as a list is read (its items
/// joined) and written (split again).
const LIST_JOIN: &str = "; ";

/// Builds statements against the schema found, for one user.
pub(crate) struct Dialect<'a> {
    pub found: &'a Found,
    pub user: &'a str,
}

impl Dialect<'_> {
    /// The database's type of a column, if the table has it.
    fn pg_type(&self, table: Table, column: &str) -> Option<&str> {
        self.found
            .get(&table)
            .and_then(|cols| cols.get(column))
            .map(|c| c.data_type.as_str())
    }

    /// The cast a text value takes to meet `column` as the database has it:
    /// a date, a uuid, or text.
    fn text_cast(&self, table: Table, column: &str) -> &'static str {
        match self.pg_type(table, column) {
            Some("date") => "text::date",
            Some("uuid") => "text::uuid",
            _ => "text",
        }
    }

    fn has(&self, table: Table, column: &str) -> bool {
        self.pg_type(table, column).is_some()
    }

    /// True when the table's rows belong to users here: a user's table
    /// with a `user_id` column.
    fn scoped(&self, table: Table) -> bool {
        user_scoped(table) && self.has(table, "user_id")
    }

    fn not_null(&self, table: Table, column: &str) -> bool {
        self.found
            .get(&table)
            .and_then(|cols| cols.get(column))
            .is_some_and(|c| !c.nullable)
    }

    /// A column read back, cast to what [`decode`] reads.
    fn read_expr(&self, table: Table, c: &ColumnDef) -> String {
        let t = table.name();
        let Some(ty) = self.pg_type(table, c.name) else {
            return "NULL::text".to_string();
        };
        let col = format!("{t}.{}", c.name);
        match c.kind {
            // As kitchen.db keeps its stamps: UTC, microseconds, a `Z`.
            _ if ty.starts_with("timestamp") => {
                let utc = if ty.contains("with time zone") {
                    format!("({col} AT TIME ZONE 'UTC')")
                } else {
                    col
                };
                format!("to_char({utc}, 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')")
            }
            // A text the database keeps as a list (Alfred's
            // `preferences.planning_rhythm` is `text[]`): its items joined.
            ColumnKind::Text if ty == "ARRAY" => format!("array_to_string({col}, '{LIST_JOIN}')"),
            ColumnKind::Text | ColumnKind::Date => format!("{col}::text"),
            ColumnKind::Integer => format!("{col}::int8"),
            ColumnKind::Real => format!("{col}::float8"),
            ColumnKind::Bool => format!("{col}::bool"),
            ColumnKind::JsonArray | ColumnKind::JsonObject => format!("to_jsonb({col})::text"),
        }
    }

    /// A column as compared in a filter, and the cast of the value it is
    /// compared with.
    fn compare_expr(&self, table: Table, c: &ColumnDef) -> (String, &'static str) {
        let t = table.name();
        let Some(ty) = self.pg_type(table, c.name) else {
            return ("NULL::text".to_string(), "text");
        };
        let col = format!("{t}.{}", c.name);
        match c.kind {
            ColumnKind::Date if ty == "date" => (col, "text::date"),
            ColumnKind::Integer => (col, "int8"),
            ColumnKind::Real => (col, "float8"),
            ColumnKind::Bool => (col, "bool"),
            ColumnKind::Text if ty == "ARRAY" => {
                (format!("array_to_string({col}, '{LIST_JOIN}')"), "text")
            }
            _ => (format!("{col}::text"), "text"),
        }
    }

    /// The SQL giving `c` the value of parameter `p` in a write, cast to
    /// the column's type.
    fn write_expr(&self, s: &mut Stmt, table: Table, c: &ColumnDef, v: &SqlValue) -> String {
        let ty = self.pg_type(table, c.name).unwrap_or("text");
        let p = param(c.kind, v);
        match c.kind {
            ColumnKind::Bool => s.bind(p, "bool"),
            ColumnKind::Integer => s.bind(p, "int8"),
            ColumnKind::Real => s.bind(p, "float8"),
            ColumnKind::Date if ty == "date" => s.bind(p, "text::date"),
            ColumnKind::JsonArray if ty == "ARRAY" => {
                let n = s.bind(p, "text");
                let array = format!(
                    "CASE WHEN {n} IS NULL THEN NULL \
                     ELSE ARRAY(SELECT jsonb_array_elements_text({n}::jsonb)) END"
                );
                if self.not_null(table, c.name) {
                    format!("coalesce({array}, '{{}}')")
                } else {
                    array
                }
            }
            ColumnKind::JsonArray | ColumnKind::JsonObject if ty.starts_with("json") => {
                s.bind(p, "text::jsonb")
            }
            // The reverse of `read_expr`: the text's parts as the list.
            ColumnKind::Text if ty == "ARRAY" => {
                let n = s.bind(p, "text");
                let array = format!("string_to_array({n}, '{LIST_JOIN}')");
                if self.not_null(table, c.name) {
                    format!("coalesce({array}, '{{}}')")
                } else {
                    array
                }
            }
            _ if ty == "uuid" => s.bind(p, "text::uuid"),
            _ => s.bind(p, "text"),
        }
    }

    /// `WHERE` body: the user's rows, then the clause.
    fn where_sql(&self, s: &mut Stmt, table: Table, w: &WhereClause) -> String {
        let mut parts = Vec::new();
        if self.scoped(table) {
            let u = s.bind(PgParam::Text(Some(self.user.to_string())), "text::uuid");
            parts.push(format!("{}.user_id = {u}", table.name()));
        }
        if let Some((t, ids)) = &w.ids {
            let p = s.bind(PgParam::TextArray(ids.clone()), "text[]");
            parts.push(format!("{}.id::text = ANY({p})", t.name()));
        }
        for c in &w.and {
            parts.push(format!("({})", self.condition(s, c)));
        }
        if !w.or.is_empty() {
            let group: Vec<String> =
                w.or.iter()
                    .map(|c| format!("({})", self.condition(s, c)))
                    .collect();
            parts.push(format!("({})", group.join(" OR ")));
        }
        if parts.is_empty() {
            "TRUE".to_string()
        } else {
            parts.join(" AND ")
        }
    }

    fn condition(&self, s: &mut Stmt, c: &Condition) -> String {
        let text = |s: &mut Stmt, v: &SqlValue| s.bind(param(ColumnKind::Text, v), "text");
        match c.target {
            Target::RecipeIngredients => {
                let v = c.values.first().cloned().unwrap_or(SqlValue::Null);
                let n = text(s, &v);
                let test = match c.op {
                    Op::Contains => format!("strpos(lower(ri.name), lower({n})) > 0"),
                    _ => format!("ri.name ILIKE {n} ESCAPE ''"),
                };
                let not = if c.op == Op::NotIlike { "NOT " } else { "" };
                format!(
                    "{not}EXISTS (SELECT 1 FROM recipe_ingredients ri \
                     WHERE ri.recipe_id = recipes.id AND {test})"
                )
            }
            Target::Column(col) => {
                let (lhs, cast) = self.compare_expr(c.table, col);
                let raw = format!("{}.{}", c.table.name(), col.name);
                let bound = |s: &mut Stmt| -> Vec<String> {
                    c.values
                        .iter()
                        .map(|v| s.bind(param(col.kind, v), cast))
                        .collect()
                };
                match c.op {
                    Op::Eq | Op::Gt | Op::Lt | Op::Ge | Op::Le => {
                        let v = bound(s).join("");
                        let op = match c.op {
                            Op::Gt => ">",
                            Op::Lt => "<",
                            Op::Ge => ">=",
                            Op::Le => "<=",
                            _ => "=",
                        };
                        format!("{lhs} {op} {v}")
                    }
                    Op::Ne => format!("{lhs} IS DISTINCT FROM {}", bound(s).join("")),
                    Op::In if c.values.is_empty() => "FALSE".to_string(),
                    Op::In => format!("{lhs} IN ({})", bound(s).join(", ")),
                    Op::NotIn if c.values.is_empty() => "TRUE".to_string(),
                    Op::NotIn => {
                        format!("({raw} IS NULL OR {lhs} NOT IN ({}))", bound(s).join(", "))
                    }
                    Op::Ilike => {
                        let n = text(s, c.values.first().unwrap_or(&SqlValue::Null));
                        format!("{raw}::text ILIKE {n} ESCAPE ''")
                    }
                    Op::NotIlike => {
                        let n = text(s, c.values.first().unwrap_or(&SqlValue::Null));
                        format!("({raw} IS NULL OR {raw}::text NOT ILIKE {n} ESCAPE '')")
                    }
                    Op::IsNull => format!("{raw} IS NULL"),
                    Op::IsNotNull => format!("{raw} IS NOT NULL"),
                    Op::Contains if col.kind == ColumnKind::JsonArray => {
                        let each: Vec<String> = c
                            .values
                            .iter()
                            .map(|v| {
                                let n = text(s, v);
                                format!(
                                    "EXISTS (SELECT 1 FROM jsonb_array_elements_text(\
                                     to_jsonb({raw})) AS e(v) WHERE lower(e.v) = lower({n}))"
                                )
                            })
                            .collect();
                        each.join(" AND ")
                    }
                    Op::Contains => {
                        let n = text(s, c.values.first().unwrap_or(&SqlValue::Null));
                        format!("strpos(lower({raw}::text), lower({n})) > 0")
                    }
                }
            }
        }
    }

    /// `ORDER BY`: the column asked for (else creation order), then
    /// creation order and id, in `dir`.
    fn order_sql(&self, table: Table, by: Option<&ColumnDef>, descending: bool) -> String {
        let t = table.name();
        let (dir, nulls) = if descending {
            ("DESC", "NULLS LAST")
        } else {
            ("ASC", "NULLS FIRST")
        };
        let mut keys = Vec::new();
        if let Some(c) = by.filter(|c| self.has(table, c.name)) {
            let key = match c.kind {
                ColumnKind::Text => format!("{t}.{}::text COLLATE \"C\"", c.name),
                _ => format!("{t}.{}", c.name),
            };
            keys.push(format!("{key} {dir} {nulls}"));
        }
        if self.has(table, "created_at") {
            keys.push(format!("{t}.created_at {dir}"));
        }
        keys.push(format!("{t}.id {dir}"));
        keys.join(", ")
    }

    /// A SELECT of `columns` where `w`, ordered, at most `limit` rows.
    pub fn select(
        &self,
        table: Table,
        columns: &[&ColumnDef],
        w: &WhereClause,
        order_by: Option<&ColumnDef>,
        descending: bool,
        limit: Option<usize>,
    ) -> Stmt {
        let mut s = Stmt::default();
        let cols: Vec<String> = columns.iter().map(|c| self.read_expr(table, c)).collect();
        let body = self.where_sql(&mut s, table, w);
        let _ = write!(
            s.sql,
            "SELECT {} FROM {} WHERE {body} ORDER BY {}",
            cols.join(", "),
            table.name(),
            self.order_sql(table, order_by, descending)
        );
        if let Some(n) = limit {
            let _ = write!(s.sql, " LIMIT {n}");
        }
        s
    }

    /// The ids of the rows where `w`, in creation order.
    pub fn matching_ids(&self, table: Table, w: &WhereClause) -> Stmt {
        let mut s = Stmt::default();
        let body = self.where_sql(&mut s, table, w);
        s.sql = format!(
            "SELECT {t}.id::text FROM {t} WHERE {body} ORDER BY {}",
            self.order_sql(table, None, false),
            t = table.name()
        );
        s
    }

    /// The ingredient lines of these recipes, in creation order.
    pub fn recipe_lines(&self, recipe_ids: &[String]) -> Stmt {
        let t = Table::RecipeIngredients;
        let mut s = Stmt::default();
        let ids = s.bind(PgParam::TextArray(recipe_ids.to_vec()), "text[]");
        s.sql = format!(
            "SELECT recipe_id::text, name, quantity::float8, unit, is_optional FROM recipe_ingredients \
             WHERE recipe_id::text = ANY({ids}) ORDER BY {}",
            self.order_sql(t, None, false)
        );
        s
    }

    /// An INSERT of one row with its id, the user, its creation stamp
    /// (when the table keeps one) and `values`.
    pub fn insert(
        &self,
        table: Table,
        id: &str,
        stamp: &str,
        values: &[(&ColumnDef, SqlValue)],
    ) -> Stmt {
        let mut s = Stmt::default();
        let mut names = vec!["id"];
        let id_cast = self.text_cast(table, "id");
        let mut exprs = vec![s.bind(PgParam::Text(Some(id.to_string())), id_cast)];
        if self.scoped(table) {
            names.push("user_id");
            exprs.push(s.bind(PgParam::Text(Some(self.user.to_string())), "text::uuid"));
        }
        if self.has(table, "created_at") {
            names.push("created_at");
            exprs.push(s.bind(PgParam::Text(Some(stamp.to_string())), "text::timestamptz"));
        }
        for (c, v) in values {
            names.push(c.name);
            exprs.push(self.write_expr(&mut s, table, c, v));
        }
        for (col, sql) in self.alfred_tags(&mut s, table, values) {
            names.push(col);
            exprs.push(sql);
        }
        // A list or object left out is empty, as kitchen.db's defaults make
        // it, where the column must not be NULL (Alfred's `instructions`).
        for c in crate::kitchen::schema::table_schema(table).columns {
            let listed = matches!(c.kind, ColumnKind::JsonArray | ColumnKind::JsonObject);
            if listed
                && self.not_null(table, c.name)
                && !values.iter().any(|(v, _)| v.name == c.name)
            {
                let empty = match c.kind {
                    ColumnKind::JsonArray => SqlValue::Text("[]".into()),
                    _ => SqlValue::Text("{}".into()),
                };
                names.push(c.name);
                exprs.push(self.write_expr(&mut s, table, c, &empty));
            }
        }
        s.sql = format!(
            "INSERT INTO {} ({}) VALUES ({})",
            table.name(),
            names.join(", "),
            exprs.join(", ")
        );
        s
    }

    /// Alfred's tag columns a write of `tags` fills (those the table has),
    /// each with the SQL of its value: the tags of its kind, or NULL.
    fn alfred_tags(
        &self,
        s: &mut Stmt,
        table: Table,
        values: &[(&ColumnDef, SqlValue)],
    ) -> Vec<(&'static str, String)> {
        if table != Table::Recipes {
            return Vec::new();
        }
        let Some((_, SqlValue::Text(json))) = values.iter().find(|(c, _)| c.name == "tags") else {
            return Vec::new();
        };
        let tags: Vec<String> = serde_json::from_str(json).unwrap_or_default();
        ALFRED_TAGS
            .iter()
            .filter(|(col, _)| self.has(table, col) && !values.iter().any(|(c, _)| c.name == *col))
            .map(|(col, kinds)| {
                let mine: Vec<String> = tags
                    .iter()
                    .filter(|t| kinds.contains(&t.trim().to_lowercase().as_str()))
                    .map(|t| t.trim().to_lowercase())
                    .collect();
                let sql = if mine.is_empty() {
                    "NULL".to_string()
                } else {
                    s.bind(PgParam::TextArray(mine), "text[]")
                };
                (*col, sql)
            })
            .collect()
    }

    /// An UPDATE setting `values` on the user's rows with these ids.
    pub fn update(
        &self,
        table: Table,
        ids: &[String],
        values: &[(&ColumnDef, SqlValue)],
        deltas: &[(&ColumnDef, SqlValue)],
    ) -> Stmt {
        let mut s = Stmt::default();
        let mut sets: Vec<String> = values
            .iter()
            .map(|(c, v)| format!("{} = {}", c.name, self.write_expr(&mut s, table, c, v)))
            .collect();
        for (col, sql) in self.alfred_tags(&mut s, table, values) {
            sets.push(format!("{col} = {sql}"));
        }
        // A change by an amount, computed from the value there when it runs.
        sets.extend(deltas.iter().map(|(c, v)| {
            format!(
                "{0} = coalesce({0}, 0) + {1}",
                c.name,
                self.write_expr(&mut s, table, c, v)
            )
        }));
        let body = self.where_sql(&mut s, table, &WhereClause::ids(table, ids));
        s.sql = format!(
            "UPDATE {} SET {} WHERE {body}",
            table.name(),
            sets.join(", ")
        );
        s
    }

    /// A DELETE of the user's rows with these ids.
    pub fn delete(&self, table: Table, ids: &[String]) -> Stmt {
        let mut s = Stmt::default();
        let body = self.where_sql(&mut s, table, &WhereClause::ids(table, ids));
        s.sql = format!("DELETE FROM {} WHERE {body}", table.name());
        // Alfred's `parent_recipe_id` has no ON DELETE rule, so a recipe
        // with variations could not go: its variations are let go of it
        // first, in the same statement, as kitchen.db's SET NULL does.
        if table == Table::Recipes && self.has(table, "parent_recipe_id") {
            let gone = s.bind(PgParam::TextArray(ids.to_vec()), "text[]");
            s.sql = format!(
                "WITH let_go AS (UPDATE recipes SET parent_recipe_id = NULL \
                 WHERE parent_recipe_id::text = ANY({gone}) AND NOT (id::text = ANY({gone}))) {}",
                s.sql
            );
        }
        s
    }

    /// A DELETE of every row of the user's in `table`.
    pub fn delete_all(&self, table: Table) -> Stmt {
        let mut s = Stmt::default();
        let body = self.where_sql(&mut s, table, &WhereClause::all());
        s.sql = format!("DELETE FROM {} WHERE {body}", table.name());
        s
    }

    /// The user's row count in `table` (the whole catalog for ingredients),
    /// with `extra` AND-ed on (SQL over the table's columns, no input).
    pub fn count(&self, table: Table, extra: Option<&str>) -> Stmt {
        let mut s = Stmt::default();
        let body = self.where_sql(&mut s, table, &WhereClause::all());
        let extra = extra.map(|e| format!(" AND ({e})")).unwrap_or_default();
        s.sql = format!("SELECT count(*) FROM {} WHERE {body}{extra}", table.name());
        s
    }

    /// Counts of the user's rows by `column` (NULL as "unknown"), largest
    /// first, then by name.
    pub fn grouped(&self, table: Table, column: &str) -> Stmt {
        let mut s = Stmt::default();
        let body = self.where_sql(&mut s, table, &WhereClause::all());
        s.sql = format!(
            "SELECT coalesce({column}::text, 'unknown'), count(*) FROM {} WHERE {body} \
             GROUP BY 1 ORDER BY 2 DESC, coalesce({column}::text, 'unknown') COLLATE \"C\"",
            table.name()
        );
        s
    }

    /// Meal-plan slots and distinct days between two dates (inclusive).
    pub fn plan_counts(&self, from: &str, to: &str) -> Stmt {
        let t = Table::MealPlans;
        let mut s = Stmt::default();
        let body = self.where_sql(&mut s, t, &WhereClause::all());
        let date = self.text_cast(t, "date");
        let from = s.bind(PgParam::Text(Some(from.to_string())), date);
        let to = s.bind(PgParam::Text(Some(to.to_string())), date);
        s.sql = format!(
            "SELECT count(*), count(DISTINCT date) FROM meal_plans \
             WHERE {body} AND date >= {from} AND date <= {to}"
        );
        s
    }

    /// Inventory names and expiry dates up to `until`, soonest first.
    pub fn expiring(&self, until: &str) -> Stmt {
        let t = Table::Inventory;
        let mut s = Stmt::default();
        let body = self.where_sql(&mut s, t, &WhereClause::all());
        let date = self.text_cast(t, "expiry_date");
        let until = s.bind(PgParam::Text(Some(until.to_string())), date);
        s.sql = format!(
            "SELECT name, expiry_date::text FROM inventory \
             WHERE {body} AND expiry_date IS NOT NULL AND expiry_date <= {until} \
             ORDER BY expiry_date, {}",
            self.order_sql(t, None, false)
        );
        s
    }
}

/// A stored value as a parameter of a column of `kind`.
pub(crate) fn param(kind: ColumnKind, v: &SqlValue) -> PgParam {
    match (kind, v) {
        (ColumnKind::Bool, SqlValue::Integer(i)) => PgParam::Bool(Some(*i != 0)),
        (ColumnKind::Bool, _) => PgParam::Bool(None),
        (ColumnKind::Integer, SqlValue::Integer(i)) => PgParam::Int(Some(*i)),
        (ColumnKind::Integer, SqlValue::Real(f)) => PgParam::Int(Some(*f as i64)),
        (ColumnKind::Integer, _) => PgParam::Int(None),
        (ColumnKind::Real, SqlValue::Real(f)) => PgParam::Float(Some(*f)),
        (ColumnKind::Real, SqlValue::Integer(i)) => PgParam::Float(Some(*i as f64)),
        (ColumnKind::Real, _) => PgParam::Float(None),
        (_, SqlValue::Null) => PgParam::Text(None),
        (_, SqlValue::Integer(i)) => PgParam::Text(Some(i.to_string())),
        (_, SqlValue::Real(f)) => PgParam::Text(Some(f.to_string())),
        (_, SqlValue::Text(t)) => PgParam::Text(Some(t.clone())),
        (_, SqlValue::Blob(b)) => PgParam::Text(Some(String::from_utf8_lossy(b).into_owned())),
    }
}

/// A row read by [`Dialect::select`], decoded by column kind as SQLite's
/// rows are: lists and objects parsed, booleans as booleans, whole reals as
/// integers.
pub(crate) fn decode(columns: &[&ColumnDef], row: &tokio_postgres::Row) -> RawRow {
    let mut map = RawRow::new();
    for (i, c) in columns.iter().enumerate() {
        let v = match c.kind {
            ColumnKind::Integer => row
                .try_get::<_, Option<i64>>(i)
                .ok()
                .flatten()
                .map_or(Value::Null, Value::from),
            ColumnKind::Real => row
                .try_get::<_, Option<f64>>(i)
                .ok()
                .flatten()
                .map_or(Value::Null, real_to_json),
            ColumnKind::Bool => row
                .try_get::<_, Option<bool>>(i)
                .ok()
                .flatten()
                .map_or(Value::Null, Value::Bool),
            ColumnKind::JsonArray | ColumnKind::JsonObject => {
                match row.try_get::<_, Option<String>>(i).ok().flatten() {
                    Some(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
                    None => Value::Null,
                }
            }
            ColumnKind::Text | ColumnKind::Date => row
                .try_get::<_, Option<String>>(i)
                .ok()
                .flatten()
                .map_or(Value::Null, Value::String),
        };
        map.insert(c.name.to_string(), v);
    }
    map
}
