//! The optional parts of a request and the shape of its answer: read
//! limits, ordering and column projection, reads served from pending
//! artifacts, and the rows of a `db_create` (including the generated
//! artifact an item names with `"id"` / `"ref"`).
//!
//! Pure helpers over the schema and the registry; no SQL.

use serde_json::{Map, Value};

use super::call::ReadParams;
use super::error::ToolError;
use super::schema::{ColumnDef, RECIPE_INGREDIENTS_FIELD, TableSchema, label_columns};
use crate::context::registry::SessionIdRegistry;
use crate::context::{Table, parse_ref};
use serde::{Deserialize, Serialize};

/// Rows a read returns when no limit is given.
pub const DEFAULT_LIMIT: usize = 100;
/// The most rows a read returns.
pub const MAX_LIMIT: usize = 1000;

/// What a tool call returned: rows with refs for ids, and notes for the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub tool: String,
    pub table: Table,
    pub rows: Vec<Value>,
    pub count: usize,
    /// Plain sentences: limits applied, artifacts served, nothing matched…
    pub notes: Vec<String>,
}

fn bad(tool: &str, reason: String) -> ToolError {
    ToolError::BadParams {
        tool: tool.to_string(),
        reason,
    }
}

/// The row limit of a read: default 100, capped at 1000 (with a note).
pub(crate) fn read_limit(limit: Option<i64>, notes: &mut Vec<String>) -> Result<usize, ToolError> {
    match limit {
        None => Ok(DEFAULT_LIMIT),
        Some(n) if n < 1 => Err(bad("db_read", format!("limit must be at least 1, got {n}"))),
        Some(n) if n > MAX_LIMIT as i64 => {
            notes.push(format!(
                "limit {n} is above the maximum; capped at {MAX_LIMIT}"
            ));
            Ok(MAX_LIMIT)
        }
        Some(n) => Ok(usize::try_from(n).unwrap_or(DEFAULT_LIMIT)),
    }
}

/// The sort column and direction of a read (default: insertion order).
pub(crate) fn read_order(
    schema: &'static TableSchema,
    p: &ReadParams,
) -> Result<(Option<&'static ColumnDef>, bool), ToolError> {
    let descending = match p.order_dir.as_deref().map(|d| d.trim().to_lowercase()) {
        None => false,
        Some(d) if d == "asc" => false,
        Some(d) if d == "desc" => true,
        Some(d) => {
            return Err(bad(
                "db_read",
                format!("order_dir must be asc or desc, got \"{d}\""),
            ));
        }
    };
    let order_by = match &p.order_by {
        None => None,
        Some(name) => Some(
            schema
                .column(name)
                .ok_or_else(|| ToolError::UnknownColumn {
                    column: name.clone(),
                    table: schema.table,
                    columns: schema.column_list(),
                })?,
        ),
    };
    Ok((order_by, descending))
}

/// The columns a read asked for, checked; `None` means every column.
pub(crate) fn requested_columns(
    schema: &TableSchema,
    columns: Option<&[String]>,
) -> Result<Option<Vec<String>>, ToolError> {
    let Some(columns) = columns.filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    for c in columns {
        let nested = schema.table == Table::Recipes && c == RECIPE_INGREDIENTS_FIELD;
        if !nested && schema.column(c).is_none() {
            return Err(ToolError::UnknownColumn {
                column: c.clone(),
                table: schema.table,
                columns: schema.column_list(),
            });
        }
    }
    Ok(Some(columns.to_vec()))
}

/// The columns to select: every one, or the requested ones plus `id` and the
/// label columns (needed to register refs), in schema order.
pub(crate) fn select_columns(
    schema: &'static TableSchema,
    wanted: Option<&[String]>,
) -> Vec<&'static ColumnDef> {
    let labels = label_columns(schema.table);
    schema
        .columns
        .iter()
        .filter(|c| {
            wanted.is_none_or(|w| {
                c.name == "id" || labels.contains(&c.name) || w.iter().any(|n| n == c.name)
            })
        })
        .collect()
}

/// Keeps only the requested fields of an output row (plus `id` and the
/// labels of requested FK columns).
pub(crate) fn project(row: &mut Map<String, Value>, wanted: &[String]) {
    row.retain(|k, _| {
        k == "id"
            || wanted.iter().any(|w| w == k)
            || k.strip_prefix('_')
                .and_then(|k| k.strip_suffix("_label"))
                .is_some_and(|fk| wanted.iter().any(|w| w == fk))
    });
}

/// A read whose id filters all name pending artifacts, served from the
/// registry without touching the store. Only the returned refs are touched.
pub(crate) fn read_artifacts(
    table: Table,
    refs: &[String],
    p: &ReadParams,
    registry: &mut SessionIdRegistry,
    turn: u32,
) -> ToolResult {
    let mut rows = Vec::with_capacity(refs.len());
    for r in refs {
        let mut row = match registry.artifact(r) {
            Some(Value::Object(m)) => m.clone(),
            Some(other) => Map::from_iter([("content".to_string(), other.clone())]),
            None => continue,
        };
        row.insert("id".to_string(), Value::String(r.clone()));
        if let Some(wanted) = p.columns.as_deref().filter(|c| !c.is_empty()) {
            project(&mut row, wanted);
        }
        registry.touch(r, turn);
        rows.push(Value::Object(row));
    }
    let mut notes = vec![format!(
        "served from generated content that is not saved yet ({}); db_create saves it",
        refs.join(", ")
    )];
    if p.filters.iter().any(|f| f.field != "id") || !p.or_filters.is_empty() {
        notes.push("filters other than id do not apply to unsaved content".to_string());
    }
    ToolResult {
        tool: "db_read".to_string(),
        table,
        count: rows.len(),
        rows,
        notes,
    }
}

/// The rows of a `db_create`: one object, or an array of them.
pub(crate) fn create_items(
    table: Table,
    data: &Value,
) -> Result<Vec<Map<String, Value>>, ToolError> {
    let items = match data {
        Value::Object(m) => vec![m.clone()],
        Value::Array(items) if items.is_empty() => {
            return Err(ToolError::MissingData {
                tool: "db_create".into(),
                table,
            });
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Object(m) => Ok(m.clone()),
                _ => Err(bad(
                    "db_create",
                    format!("data item {} must be an object", i + 1),
                )),
            })
            .collect::<Result<_, _>>()?,
        _ => {
            return Err(bad(
                "db_create",
                "data must be an object or an array of objects".into(),
            ));
        }
    };
    Ok(items)
}

/// Splits the artifact a create item names (`"id"` or `"ref"` =
/// `gen_recipe_1`) from its fields. Returns the gen ref and the fields to
/// save: the artifact's content overlaid with the item's own fields.
pub(crate) fn artifact_payload(
    table: Table,
    item: &Map<String, Value>,
    registry: &SessionIdRegistry,
) -> Result<(Option<String>, Map<String, Value>), ToolError> {
    let mut named: Option<String> = None;
    for key in ["id", "ref"] {
        let Some(v) = item.get(key) else { continue };
        let s = v.as_str().unwrap_or_default();
        let generated = parse_ref(s).filter(|p| p.generated);
        if generated.is_none() {
            return Err(match key {
                "id" => ToolError::ReadOnlyColumn {
                    table,
                    column: "id".into(),
                },
                _ => ToolError::NotAllowed(format!(
                    "\"ref\" names the generated artifact being saved (gen_…); {v} is not one"
                )),
            });
        }
        match registry.get(s) {
            None => return Err(ToolError::UnknownRef(s.to_string())),
            Some(e) if e.table != table => {
                return Err(ToolError::WrongRefTable {
                    r: s.to_string(),
                    column: key.to_string(),
                    expected: table,
                    actual: e.table,
                });
            }
            Some(e) if !e.is_pending() => {
                return Err(ToolError::NotAllowed(format!(
                    "{s} is already saved; change it with db_update (filter id = {s})"
                )));
            }
            Some(_) => {}
        }
        if named.as_deref().is_some_and(|n| n != s) {
            return Err(ToolError::NotAllowed(
                "\"id\" and \"ref\" name different artifacts".into(),
            ));
        }
        named = Some(s.to_string());
    }
    let mut fields = match named.as_deref().and_then(|r| registry.artifact(r)) {
        Some(Value::Object(content)) => content.clone(),
        _ => Map::new(),
    };
    for (k, v) in item {
        fields.insert(k.clone(), v.clone());
    }
    fields.remove("id");
    fields.remove("ref");
    Ok((named, fields))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn limits_default_cap_and_reject() {
        let mut notes = Vec::new();
        assert_eq!(read_limit(None, &mut notes).unwrap(), 100);
        assert_eq!(read_limit(Some(5000), &mut notes).unwrap(), 1000);
        assert_eq!(
            notes,
            vec!["limit 5000 is above the maximum; capped at 1000"]
        );
        assert!(read_limit(Some(0), &mut notes).is_err());
    }

    #[test]
    fn an_item_naming_an_artifact_is_filled_from_it() {
        let mut reg = SessionIdRegistry::new();
        let g = reg.register_generated(
            Table::Recipes,
            "Dal",
            json!({"name": "Dal", "servings": 2}),
            1,
        );
        let item = json!({"id": g, "servings": 4});
        let (named, fields) =
            artifact_payload(Table::Recipes, item.as_object().unwrap(), &reg).unwrap();
        assert_eq!(named.as_deref(), Some("gen_recipe_1"));
        assert_eq!(Value::Object(fields), json!({"name": "Dal", "servings": 4}));
        let item = json!({"id": "recipe_3", "name": "x"});
        let err = artifact_payload(Table::Recipes, item.as_object().unwrap(), &reg).unwrap_err();
        assert!(
            err.to_string().contains("recipes.id is set by the store"),
            "{err}"
        );
        let item = json!({"ref": "gen_recipe_9"});
        let err = artifact_payload(Table::Recipes, item.as_object().unwrap(), &reg).unwrap_err();
        assert!(
            err.to_string().starts_with("unknown ref \"gen_recipe_9\""),
            "{err}"
        );
    }
}
