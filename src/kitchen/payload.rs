//! Checking the `data` of `db_create` / `db_update` against the schema.
//!
//! Each key must be a writable column of the table (or, for recipes on
//! create, `ingredients`: the recipe's ingredient lines). FK values are refs,
//! translated here; every value is converted by column kind. Keys starting
//! with `_` are output decorations (`_recipe_id_label`) and are dropped.
//! Fields that came from a generated artifact rather than from the model's
//! payload are dropped when unknown instead of refused. No database access.

use rusqlite::types::Value as SqlValue;
use serde_json::{Map, Value};

use super::error::ToolError;
use super::refs::translate_value;
use super::schema::{ColumnDef, ColumnKind, RECIPE_INGREDIENTS_FIELD, TableSchema, table_schema};
use super::values::{json_to_sql, short};
use crate::context::Table;
use crate::context::registry::SessionIdRegistry;

/// Which tool the payload is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Create,
    Update,
}

/// A checked payload: values ready to bind.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RowPayload {
    pub values: Vec<(&'static ColumnDef, SqlValue)>,
    /// Recipes on create: the ingredient lines to save with the recipe.
    pub lines: Vec<RowPayload>,
    /// Fields dropped because they came from an artifact and are unknown.
    pub ignored: Vec<String>,
    /// Number columns changed by an amount (`{"add": -10}`), on update: the
    /// change the user asked for, applied to the value there at commit.
    pub deltas: Vec<(&'static ColumnDef, SqlValue)>,
}

impl RowPayload {
    /// True when the payload sets `column` to a non-NULL value.
    pub fn has(&self, column: &str) -> bool {
        self.values
            .iter()
            .any(|(c, v)| c.name == column && *v != SqlValue::Null)
    }

    /// The text value set for `column`.
    pub fn text(&self, column: &str) -> Option<&str> {
        self.values.iter().find_map(|(c, v)| match v {
            SqlValue::Text(s) if c.name == column => Some(s.as_str()),
            _ => None,
        })
    }

    /// Sets (or replaces) a column value.
    pub fn set(&mut self, col: &'static ColumnDef, v: SqlValue) {
        self.values.retain(|(c, _)| c.name != col.name);
        self.values.push((col, v));
    }
}

/// Checks one row of `data`. `lenient(key)` says whether an unknown key may
/// be dropped (it came from an artifact) instead of refused.
pub(crate) fn check_payload(
    schema: &'static TableSchema,
    data: &Map<String, Value>,
    lenient: &dyn Fn(&str) -> bool,
    mode: Mode,
    registry: &SessionIdRegistry,
) -> Result<RowPayload, ToolError> {
    let table = schema.table;
    let mut out = RowPayload::default();
    for (key, v) in data {
        if key.starts_with('_') {
            continue;
        }
        if table == Table::Recipes && key == RECIPE_INGREDIENTS_FIELD {
            if mode == Mode::Update {
                return Err(ToolError::NotAllowed(
                    "db_update cannot replace a recipe's ingredients; change the lines with \
                     db_create / db_update / db_delete on recipe_ingredients (recipe_id = the recipe's ref)"
                        .to_string(),
                ));
            }
            out.lines = check_lines(v, lenient(key), registry)?;
            continue;
        }
        let Some(col) = schema.column(key) else {
            if lenient(key) {
                out.ignored.push(key.clone());
                continue;
            }
            return Err(ToolError::UnknownColumn {
                column: key.clone(),
                table,
                columns: schema.column_list(),
            });
        };
        if col.managed {
            if lenient(key) {
                continue;
            }
            return Err(ToolError::ReadOnlyColumn {
                table,
                column: key.clone(),
            });
        }
        if let Some(amount) = amount_of(v) {
            out.deltas.push((col, delta_for(table, col, amount, mode)?));
            continue;
        }
        let v = if col.fk.is_some() {
            translate_value(registry, schema, key, v)?
        } else {
            v.clone()
        };
        out.values.push((col, value_for(table, col, &v, mode)?));
    }
    Ok(out)
}

/// The amount of a change by an amount: `{"add": N}`.
fn amount_of(v: &Value) -> Option<&Value> {
    match v.as_object() {
        Some(o) if o.len() == 1 => o.get("add"),
        _ => None,
    }
}

/// A change by `amount` of a number column, on update only.
fn delta_for(
    table: Table,
    col: &ColumnDef,
    amount: &Value,
    mode: Mode,
) -> Result<SqlValue, ToolError> {
    let bad = |reason: &str| ToolError::BadValue {
        table,
        column: col.name.to_string(),
        reason: reason.to_string(),
    };
    if mode != Mode::Update {
        return Err(bad(
            "a change by an amount ({\"add\": N}) is for db_update; give the value itself",
        ));
    }
    if !matches!(col.kind, ColumnKind::Integer | ColumnKind::Real) {
        return Err(bad(
            "only a number column can be changed by an amount ({\"add\": N})",
        ));
    }
    match json_to_sql(table, col, amount)? {
        SqlValue::Null => Err(bad("the amount of {\"add\": N} is a number, not null")),
        v => Ok(v),
    }
}

/// The stored value for a column; NULL lists become `[]`, NULL booleans false.
fn value_for(table: Table, col: &ColumnDef, v: &Value, mode: Mode) -> Result<SqlValue, ToolError> {
    if !v.is_null() {
        return json_to_sql(table, col, v);
    }
    match col.kind {
        ColumnKind::JsonArray => Ok(SqlValue::Text("[]".to_string())),
        ColumnKind::JsonObject => Ok(SqlValue::Text("{}".to_string())),
        ColumnKind::Bool => Ok(SqlValue::Integer(0)),
        _ if col.required && mode == Mode::Update => Err(ToolError::BadValue {
            table,
            column: col.name.to_string(),
            reason: "is required and cannot be set to null".to_string(),
        }),
        _ => Ok(SqlValue::Null),
    }
}

/// Checks the `ingredients` lines of a recipe on create: objects with
/// recipe_ingredients columns, or plain names.
fn check_lines(
    v: &Value,
    lenient: bool,
    registry: &SessionIdRegistry,
) -> Result<Vec<RowPayload>, ToolError> {
    let schema = table_schema(Table::RecipeIngredients);
    let Value::Array(items) = v else {
        return Err(ToolError::BadValue {
            table: Table::Recipes,
            column: RECIPE_INGREDIENTS_FIELD.to_string(),
            reason: format!(
                "expected a list of {{name, quantity, unit}}, got {}",
                short(v)
            ),
        });
    };
    let mut lines = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let mut map = match item {
            Value::Object(m) => m.clone(),
            Value::String(name) => {
                Map::from_iter([("name".to_string(), Value::String(name.clone()))])
            }
            other => {
                return Err(ToolError::BadValue {
                    table: Table::Recipes,
                    column: format!("{RECIPE_INGREDIENTS_FIELD}[{i}]"),
                    reason: format!("expected {{name, quantity, unit}}, got {}", short(other)),
                });
            }
        };
        // The store links lines to their recipe.
        map.remove("recipe_id");
        map.remove("id");
        let line = check_payload(schema, &map, &|_| lenient, Mode::Create, registry)?;
        check_required(
            schema,
            &line,
            &["recipe_id"],
            &format!(" (ingredients[{i}])"),
        )?;
        lines.push(line);
    }
    Ok(lines)
}

/// Every required column must be set on create (`provided` are filled in by
/// the store). `at` locates the item in an error, e.g. " (item 2)".
pub(crate) fn check_required(
    schema: &TableSchema,
    payload: &RowPayload,
    provided: &[&str],
    at: &str,
) -> Result<(), ToolError> {
    for c in schema.columns.iter().filter(|c| c.required) {
        if !payload.has(c.name) && !provided.contains(&c.name) {
            return Err(ToolError::MissingColumn {
                table: schema.table,
                column: c.name.to_string(),
                at: at.to_string(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(table: Table, data: Value, mode: Mode) -> Result<RowPayload, ToolError> {
        let reg = SessionIdRegistry::new();
        let Value::Object(map) = data else {
            panic!("object")
        };
        check_payload(table_schema(table), &map, &|_| false, mode, &reg)
    }

    #[test]
    fn unknown_and_managed_columns_are_refused() {
        let err = check(Table::Recipes, json!({"colour": "red"}), Mode::Create).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("unknown column \"colour\" in table recipes; columns are: id, name")
        );
        let err = check(Table::Recipes, json!({"created_at": "x"}), Mode::Update).unwrap_err();
        assert_eq!(
            err.to_string(),
            "recipes.created_at is set by the store; leave it out of \"data\""
        );
        let ok = check(
            Table::Recipes,
            json!({"name": "A", "_parent_recipe_id_label": "x"}),
            Mode::Create,
        );
        assert_eq!(ok.unwrap().values.len(), 1);
    }

    #[test]
    fn recipe_lines_are_checked_and_required_columns_enforced() {
        let p = check(
            Table::Recipes,
            json!({"name": "Dal", "ingredients": ["red lentils", {"name": "ghee", "quantity": "1", "unit": "tbsp"}]}),
            Mode::Create,
        )
        .unwrap();
        assert_eq!(p.lines.len(), 2);
        assert_eq!(
            p.lines[1]
                .values
                .iter()
                .find(|(c, _)| c.name == "quantity")
                .map(|(_, v)| v.clone()),
            Some(SqlValue::Real(1.0))
        );
        let err = check(
            Table::Recipes,
            json!({"ingredients": [{"quantity": 1}]}),
            Mode::Create,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("needs \"name\" (ingredients[0])"),
            "{err}"
        );
        let p = check(Table::Inventory, json!({"name": "rice"}), Mode::Create).unwrap();
        let err = check_required(table_schema(Table::Inventory), &p, &[], "").unwrap_err();
        assert_eq!(err.to_string(), "db_create on inventory needs \"quantity\"");
        let err = check(Table::Inventory, json!({"name": null}), Mode::Update).unwrap_err();
        assert!(err.to_string().contains("cannot be set to null"), "{err}");
    }
}
