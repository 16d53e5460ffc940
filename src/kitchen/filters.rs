//! Filters: operators, their checks against the schema, and the SQLite SQL
//! they become (the Postgres store renders the same [`WhereClause`] in its
//! own dialect, `postgres/sql.rs`).
//!
//! Every value is bound as a parameter; every identifier in the SQL comes
//! from the static schema ([`TableSchema`]), never from input. Negative
//! operators (`!=`, `not_in`, `not_ilike`) keep rows whose column is NULL: a
//! recipe with no cuisine is "not indian". Pure: builds SQL text, runs none.
//! Refs must already be translated to row ids (see `refs.rs`).

use std::fmt::Write as _;

use rusqlite::types::Value as SqlValue;
use serde_json::Value;

use super::call::Filter;
use super::error::ToolError;
use super::schema::{ColumnDef, ColumnKind, RECIPE_INGREDIENTS_FIELD, TableSchema};
use super::values::{json_to_sql, short};
use crate::context::Table;

/// A filter operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Gt,
    Lt,
    Ge,
    Le,
    In,
    NotIn,
    Ilike,
    NotIlike,
    IsNull,
    IsNotNull,
    Contains,
}

impl Op {
    /// Every operator, in the order error messages list them.
    pub const ALL: [Op; 13] = [
        Op::Eq,
        Op::Ne,
        Op::Gt,
        Op::Lt,
        Op::Ge,
        Op::Le,
        Op::In,
        Op::NotIn,
        Op::Ilike,
        Op::NotIlike,
        Op::IsNull,
        Op::IsNotNull,
        Op::Contains,
    ];

    /// The operator as the model writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Gt => ">",
            Op::Lt => "<",
            Op::Ge => ">=",
            Op::Le => "<=",
            Op::In => "in",
            Op::NotIn => "not_in",
            Op::Ilike => "ilike",
            Op::NotIlike => "not_ilike",
            Op::IsNull => "is_null",
            Op::IsNotNull => "is_not_null",
            Op::Contains => "contains",
        }
    }

    /// Parses an operator; the error lists the valid ones.
    pub fn parse(s: &str) -> Result<Op, ToolError> {
        Op::ALL
            .into_iter()
            .find(|op| op.as_str() == s)
            .ok_or_else(|| ToolError::UnknownOperator {
                op: s.to_string(),
                ops: Op::ALL.map(Op::as_str).join(", "),
            })
    }

    /// The SQL comparison of the plain binary operators.
    fn sql_comparison(self) -> &'static str {
        match self {
            Op::Gt => ">",
            Op::Lt => "<",
            Op::Ge => ">=",
            Op::Le => "<=",
            _ => "=",
        }
    }
}

/// What a condition tests: a column, or (recipes only) the names of the
/// recipe's ingredient lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    Column(&'static ColumnDef),
    RecipeIngredients,
}

/// A checked filter: a schema target, an operator and bound values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Condition {
    pub table: Table,
    pub target: Target,
    pub op: Op,
    pub values: Vec<SqlValue>,
}

/// The SQLite SQL of a set of ids bound as one JSON array parameter
/// ([`ids_param`]).
pub(crate) const IN_IDS: &str = "IN (SELECT value FROM json_each(?))";

/// A set of ids as the one parameter [`IN_IDS`] reads.
pub(crate) fn ids_param(ids: &[String]) -> SqlValue {
    SqlValue::Text(serde_json::json!(ids).to_string())
}

/// Which rows a statement touches, as data: `and` conditions, one `or`
/// group AND-ed on, and optionally only some row ids. Each store renders
/// it in its own SQL.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct WhereClause {
    pub and: Vec<Condition>,
    pub or: Vec<Condition>,
    /// Only the rows with these ids (of this table).
    pub ids: Option<(Table, Vec<String>)>,
}

/// A WHERE clause body (`1` when empty) and its parameters, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct SqliteWhere {
    pub sql: String,
    pub params: Vec<SqlValue>,
}

impl WhereClause {
    /// Matches every row.
    pub fn all() -> Self {
        Self::default()
    }

    /// The rows of `table` with these ids.
    pub fn ids(table: Table, ids: &[String]) -> Self {
        Self {
            ids: Some((table, ids.to_vec())),
            ..Self::default()
        }
    }

    /// The clause in SQLite's SQL. Id sets travel as one JSON-array
    /// parameter read with `json_each`, so one statement serves any number
    /// of ids.
    pub fn sqlite(&self) -> SqliteWhere {
        let mut out = SqliteWhere::default();
        let mut parts = 0;
        if let Some((table, ids)) = &self.ids {
            out.sql = format!("{}.id {IN_IDS}", table.name());
            out.params.push(ids_param(ids));
            parts += 1;
        }
        for c in &self.and {
            if parts > 0 {
                out.sql.push_str(" AND ");
            }
            out.sql.push('(');
            c.write_sql(&mut out);
            out.sql.push(')');
            parts += 1;
        }
        if !self.or.is_empty() {
            if parts > 0 {
                out.sql.push_str(" AND ");
            }
            out.sql.push('(');
            for (i, c) in self.or.iter().enumerate() {
                if i > 0 {
                    out.sql.push_str(" OR ");
                }
                out.sql.push('(');
                c.write_sql(&mut out);
                out.sql.push(')');
            }
            out.sql.push(')');
            parts += 1;
        }
        if parts == 0 {
            out.sql.push('1');
        }
        out
    }
}

impl Condition {
    /// Checks a filter against the table's schema and binds its value.
    /// Ref values must already be translated.
    pub fn new(schema: &TableSchema, filter: &Filter) -> Result<Condition, ToolError> {
        let table = schema.table;
        let (target, op) = check_shape(schema, filter)?;
        let values = bind_values(table, target, op, &filter.value)?;
        Ok(Condition {
            table,
            target,
            op,
            values,
        })
    }

    /// Appends this condition's SQLite SQL and parameters.
    fn write_sql(&self, out: &mut SqliteWhere) {
        let t = self.table.name();
        let n = self.values.len();
        let sql = match self.target {
            Target::RecipeIngredients => {
                let test = match self.op {
                    Op::Contains => "instr(lower(ri.name), lower(?)) > 0",
                    _ => "ri.name LIKE ?",
                };
                let not = if self.op == Op::NotIlike { "NOT " } else { "" };
                format!(
                    "{not}EXISTS (SELECT 1 FROM recipe_ingredients ri \
                     WHERE ri.recipe_id = recipes.id AND {test})"
                )
            }
            Target::Column(c) => {
                let col = format!("{t}.{}", c.name);
                match self.op {
                    Op::Eq | Op::Gt | Op::Lt | Op::Ge | Op::Le => {
                        format!("{col} {} ?", self.op.sql_comparison())
                    }
                    Op::Ne => format!("{col} IS NOT ?"),
                    Op::In if n == 0 => "0".to_string(),
                    Op::In => format!("{col} IN ({})", placeholders(n)),
                    Op::NotIn if n == 0 => "1".to_string(),
                    Op::NotIn => format!("({col} IS NULL OR {col} NOT IN ({}))", placeholders(n)),
                    Op::Ilike => format!("{col} LIKE ?"),
                    Op::NotIlike => format!("({col} IS NULL OR {col} NOT LIKE ?)"),
                    Op::IsNull => format!("{col} IS NULL"),
                    Op::IsNotNull => format!("{col} IS NOT NULL"),
                    Op::Contains if c.kind == ColumnKind::JsonArray => {
                        let each = format!(
                            "EXISTS (SELECT 1 FROM json_each({col}) \
                             WHERE lower(json_each.value) = lower(?))"
                        );
                        vec![each; n].join(" AND ")
                    }
                    Op::Contains => format!("instr(lower({col}), lower(?)) > 0"),
                }
            }
        };
        out.sql.push_str(&sql);
        out.params.extend(self.values.iter().cloned());
    }
}

/// Checks a filter's field and operator (not its value): the errors a model
/// should fix first.
pub(crate) fn check_shape(
    schema: &TableSchema,
    filter: &Filter,
) -> Result<(Target, Op), ToolError> {
    let table = schema.table;
    let target = if table == Table::Recipes && filter.field == RECIPE_INGREDIENTS_FIELD {
        Target::RecipeIngredients
    } else {
        let col = schema
            .column(&filter.field)
            .ok_or_else(|| ToolError::UnknownColumn {
                column: filter.field.clone(),
                table,
                columns: schema.column_list(),
            })?;
        Target::Column(col)
    };
    let op = Op::parse(filter.op.trim())?;
    check_applicable(table, target, op)?;
    Ok((target, op))
}

/// `filters` AND-ed, with the `or_filters` group (if any) AND-ed on.
pub(crate) fn where_clause(filters: &[Condition], or_filters: &[Condition]) -> WhereClause {
    WhereClause {
        and: filters.to_vec(),
        or: or_filters.to_vec(),
        ids: None,
    }
}

/// `?, ?, ?` for `n` values.
pub(crate) fn placeholders(n: usize) -> String {
    let mut s = String::with_capacity(n * 3);
    for i in 0..n {
        let _ = write!(s, "{}?", if i == 0 { "" } else { ", " });
    }
    s
}

fn check_applicable(table: Table, target: Target, op: Op) -> Result<(), ToolError> {
    let (column, kind) = match target {
        Target::RecipeIngredients => (RECIPE_INGREDIENTS_FIELD, None),
        Target::Column(c) => (c.name, Some(c.kind)),
    };
    use ColumnKind as K;
    let (ok, hint) = match (kind, op) {
        (None, Op::Contains | Op::Ilike | Op::NotIlike) => (true, ""),
        (None, _) => (
            false,
            "use contains, ilike or not_ilike on ingredient names",
        ),
        (Some(_), Op::IsNull | Op::IsNotNull) => (true, ""),
        (Some(K::JsonArray), Op::Contains) => (true, ""),
        (Some(K::JsonArray | K::JsonObject), _) => (false, "use contains for list columns"),
        (Some(K::Text), Op::Contains) => (true, ""),
        (Some(_), Op::Contains) => (false, "contains works on text and list columns"),
        (Some(K::Text | K::Date), Op::Ilike | Op::NotIlike) => (true, ""),
        (Some(_), Op::Ilike | Op::NotIlike) => (false, "ilike works on text columns; use = or in"),
        (Some(K::Bool), Op::Gt | Op::Lt | Op::Ge | Op::Le) => (false, "use = true or = false"),
        (Some(_), _) => (true, ""),
    };
    if ok {
        return Ok(());
    }
    Err(ToolError::OperatorMismatch {
        op: op.as_str().to_string(),
        table,
        column: column.to_string(),
        kind: kind
            .map_or("ingredient names", ColumnKind::describe)
            .to_string(),
        hint: hint.to_string(),
    })
}

fn bind_values(
    table: Table,
    target: Target,
    op: Op,
    v: &Value,
) -> Result<Vec<SqlValue>, ToolError> {
    let column = match target {
        Target::Column(c) => c.name,
        Target::RecipeIngredients => RECIPE_INGREDIENTS_FIELD,
    };
    let bad = |reason: String| ToolError::BadValue {
        table,
        column: column.to_string(),
        reason,
    };
    let one = |v: &Value| -> Result<SqlValue, ToolError> {
        if v.is_null() {
            return Err(bad(format!(
                "{} needs a value; use is_null to match missing values",
                op.as_str()
            )));
        }
        if v.is_array() || v.is_object() {
            return Err(bad(format!(
                "{} takes one value, got {}",
                op.as_str(),
                short(v)
            )));
        }
        match target {
            Target::Column(c) if c.kind != ColumnKind::JsonArray => json_to_sql(table, c, v),
            _ => Ok(scalar(v)),
        }
    };
    let text = |v: &Value| match v {
        Value::String(s) => Ok(SqlValue::Text(s.clone())),
        _ => Err(bad(format!(
            "{} takes a text pattern, got {}",
            op.as_str(),
            short(v)
        ))),
    };
    match (op, target) {
        (Op::IsNull | Op::IsNotNull, _) => Ok(Vec::new()),
        (Op::Ilike | Op::NotIlike, _) => Ok(vec![text(v)?]),
        (Op::Contains, Target::Column(c)) if c.kind == ColumnKind::JsonArray => match v {
            Value::Array(items) if !items.is_empty() => items.iter().map(one).collect(),
            Value::Array(_) => Err(bad("contains needs at least one value".to_string())),
            _ => Ok(vec![one(v)?]),
        },
        (Op::Contains, _) => Ok(vec![text(v)?]),
        (Op::In | Op::NotIn, _) => match v {
            Value::Array(items) => items.iter().map(one).collect(),
            _ => Ok(vec![one(v)?]),
        },
        _ => Ok(vec![one(v)?]),
    }
}

/// A JSON scalar as a SQL value, without column coercion.
fn scalar(v: &Value) -> SqlValue {
    match v {
        Value::Bool(b) => SqlValue::Integer(i64::from(*b)),
        Value::Number(n) => n.as_i64().map_or_else(
            || SqlValue::Real(n.as_f64().unwrap_or(0.0)),
            SqlValue::Integer,
        ),
        Value::String(s) => SqlValue::Text(s.clone()),
        other => SqlValue::Text(other.to_string()),
    }
}

#[cfg(test)]
#[path = "filters_tests.rs"]
mod tests;
