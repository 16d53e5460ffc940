//! Conversions between JSON values (what the model writes and reads) and
//! SQL values (what the store binds and returns), column kind by column kind.
//!
//! Lenient where the intent is unambiguous (`"4"` for an integer, `1` for a
//! boolean), strict otherwise, with a message naming the column and the
//! expected kind. Pure: no database access.

use rusqlite::types::{Value as SqlValue, ValueRef};
use serde_json::{Number, Value};

use super::error::ToolError;
use super::schema::{ColumnDef, ColumnKind};
use crate::context::Table;

/// Converts one JSON value to the SQL value stored in `col`. `null` is NULL.
pub(crate) fn json_to_sql(table: Table, col: &ColumnDef, v: &Value) -> Result<SqlValue, ToolError> {
    let bad = |reason: String| ToolError::BadValue {
        table,
        column: col.name.to_string(),
        reason,
    };
    if v.is_null() {
        return Ok(SqlValue::Null);
    }
    let shown = short(v);
    match col.kind {
        ColumnKind::Text => {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return Err(bad(format!("expected text, got {shown}"))),
            };
            if col.allowed.is_empty() {
                return Ok(SqlValue::Text(text));
            }
            let wanted = text.trim().to_lowercase();
            match col.allowed.iter().find(|a| **a == wanted) {
                Some(a) => Ok(SqlValue::Text((*a).to_string())),
                None => Err(bad(format!(
                    "{shown} is not allowed; use one of: {}",
                    col.allowed.join(", ")
                ))),
            }
        }
        ColumnKind::Integer => as_integer(v)
            .map(SqlValue::Integer)
            .ok_or_else(|| bad(format!("expected a whole number, got {shown}"))),
        ColumnKind::Real => as_real(v)
            .map(SqlValue::Real)
            .ok_or_else(|| bad(format!("expected a number, got {shown}"))),
        ColumnKind::Bool => as_bool(v)
            .map(|b| SqlValue::Integer(i64::from(b)))
            .ok_or_else(|| bad(format!("expected true or false, got {shown}"))),
        ColumnKind::JsonArray if v.is_array() => Ok(SqlValue::Text(v.to_string())),
        ColumnKind::JsonArray => Err(bad(format!("expected a list such as [\"a\"], got {shown}"))),
        ColumnKind::JsonObject if v.is_object() => Ok(SqlValue::Text(v.to_string())),
        ColumnKind::JsonObject => Err(bad(format!("expected an object, got {shown}"))),
        ColumnKind::Date => v
            .as_str()
            .and_then(|s| s.trim().parse::<jiff::civil::Date>().ok())
            .map(|d| SqlValue::Text(d.to_string()))
            .ok_or_else(|| bad(format!("expected a date YYYY-MM-DD, got {shown}"))),
    }
}

/// Converts a stored value back to JSON: lists and objects decoded,
/// booleans as booleans, whole reals as integers (`300`, not `300.0`).
pub(crate) fn sql_to_json(kind: ColumnKind, v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) if kind == ColumnKind::Bool => Value::Bool(i != 0),
        ValueRef::Integer(i) => Value::from(i),
        ValueRef::Real(f) => real_to_json(f),
        ValueRef::Text(t) => {
            let s = String::from_utf8_lossy(t);
            match kind {
                ColumnKind::JsonArray | ColumnKind::JsonObject => {
                    serde_json::from_str(&s).unwrap_or(Value::String(s.into_owned()))
                }
                _ => Value::String(s.into_owned()),
            }
        }
        ValueRef::Blob(b) => Value::String(String::from_utf8_lossy(b).into_owned()),
    }
}

/// A real as JSON: whole values become integers.
pub(crate) fn real_to_json(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        Value::from(f as i64)
    } else {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

fn as_integer(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn as_real(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok().filter(|f: &f64| f.is_finite()),
        _ => None,
    }
}

fn as_bool(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => match n.as_i64() {
            Some(0) => Some(false),
            Some(1) => Some(true),
            _ => None,
        },
        Value::String(s) => match s.trim().to_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// A value as shown in an error message, cut to a readable length.
pub(crate) fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        let cut: String = s.chars().take(57).collect();
        format!("{cut}...")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::kitchen::schema::table_schema;

    fn col(table: Table, name: &str) -> &'static ColumnDef {
        table_schema(table).column(name).unwrap()
    }

    #[test]
    fn values_are_coerced_by_kind() {
        let servings = col(Table::Recipes, "servings");
        let ok = |c, v| json_to_sql(Table::Recipes, c, &v).unwrap();
        assert_eq!(ok(servings, json!("4")), SqlValue::Integer(4));
        assert_eq!(ok(servings, json!(4.0)), SqlValue::Integer(4));
        assert!(json_to_sql(Table::Recipes, servings, &json!(4.5)).is_err());
        let tags = col(Table::Recipes, "tags");
        assert_eq!(ok(tags, json!(["a"])), SqlValue::Text("[\"a\"]".into()));
        let diff = col(Table::Recipes, "difficulty");
        assert_eq!(ok(diff, json!(" Easy ")), SqlValue::Text("easy".into()));
        let err = json_to_sql(Table::Recipes, diff, &json!("trivial")).unwrap_err();
        assert!(
            err.to_string().contains("use one of: easy, medium, hard"),
            "{err}"
        );
    }

    #[test]
    fn dates_and_booleans_are_checked() {
        let due = col(Table::Tasks, "due_date");
        let done = col(Table::Tasks, "completed");
        assert!(json_to_sql(Table::Tasks, due, &json!("2025-01-18")).is_ok());
        let err = json_to_sql(Table::Tasks, due, &json!("18/01/2025")).unwrap_err();
        assert!(err.to_string().contains("tasks.due_date"), "{err}");
        assert_eq!(
            json_to_sql(Table::Tasks, done, &json!(1)).unwrap(),
            SqlValue::Integer(1)
        );
        assert!(json_to_sql(Table::Tasks, done, &json!("maybe")).is_err());
    }

    #[test]
    fn stored_values_decode_to_json() {
        assert_eq!(
            sql_to_json(ColumnKind::Bool, ValueRef::Integer(1)),
            json!(true)
        );
        assert_eq!(
            sql_to_json(ColumnKind::Real, ValueRef::Real(300.0)),
            json!(300)
        );
        assert_eq!(
            sql_to_json(ColumnKind::Real, ValueRef::Real(0.5)),
            json!(0.5)
        );
        let tags = sql_to_json(ColumnKind::JsonArray, ValueRef::Text(b"[\"x\"]"));
        assert_eq!(tags, json!(["x"]));
    }
}
