//! The CRUD tool-call vocabulary: [`ToolCall`] as the model writes it, and
//! the typed [`Operation`] it parses into.
//!
//! Parsing checks the shape only (known tool, known keys, right JSON
//! types). Tables, columns, operators, values and refs are checked later
//! against the schema and the registry. Nothing here touches the database.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::error::ToolError;
use crate::context::Table;

/// The tools the kitchen executes.
pub const TOOLS: [&str; 4] = ["db_read", "db_create", "db_update", "db_delete"];

/// A tool call as the model emits it: `{"tool": "db_read", "params": {…}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolCall {
    pub tool: String,
    #[serde(default)]
    pub params: Value,
}

/// One condition: `{"field": "name", "op": "not_ilike", "value": "%cod%"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// A column of the table.
    pub field: String,
    /// One of `=` `!=` `>` `<` `>=` `<=` `in` `not_in` `ilike` `not_ilike`
    /// `is_null` `is_not_null` `contains`.
    pub op: String,
    /// A value, a list (for `in` / `not_in`), or a ref; unused by the null checks.
    #[serde(default)]
    pub value: Value,
}

impl Filter {
    /// A filter from its parts.
    pub fn new(field: &str, op: &str, value: Value) -> Self {
        Self {
            field: field.to_string(),
            op: op.to_string(),
            value,
        }
    }
}

/// `db_read`: rows matching `filters` (AND) and, if given, at least one of
/// `or_filters`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadParams {
    pub table: String,
    #[serde(default)]
    pub filters: Vec<Filter>,
    /// One OR group, AND-ed with `filters`.
    #[serde(default)]
    pub or_filters: Vec<Filter>,
    /// Columns to return (`id` always comes back as the row's ref).
    #[serde(default)]
    pub columns: Option<Vec<String>>,
    /// Default 100, at most 1000.
    #[serde(default)]
    pub limit: Option<i64>,
    #[serde(default)]
    pub order_by: Option<String>,
    /// `asc` (default) or `desc`.
    #[serde(default)]
    pub order_dir: Option<String>,
}

/// `db_create`: one row (an object) or several (an array of objects).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateParams {
    pub table: String,
    pub data: Value,
}

/// `db_update`: set `data` on every row matching `filters` (required).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateParams {
    pub table: String,
    #[serde(default)]
    pub filters: Vec<Filter>,
    pub data: Map<String, Value>,
}

/// `db_delete`: remove every row matching `filters` (required).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteParams {
    pub table: String,
    #[serde(default)]
    pub filters: Vec<Filter>,
}

/// A parsed tool call.
#[derive(Debug, Clone, PartialEq)]
pub enum Operation {
    Read(ReadParams),
    Create(CreateParams),
    Update(UpdateParams),
    Delete(DeleteParams),
}

impl Operation {
    /// The tool name (`db_read`, …).
    pub fn tool(&self) -> &'static str {
        match self {
            Operation::Read(_) => TOOLS[0],
            Operation::Create(_) => TOOLS[1],
            Operation::Update(_) => TOOLS[2],
            Operation::Delete(_) => TOOLS[3],
        }
    }

    /// The table name as given (not yet checked).
    pub fn table_name(&self) -> &str {
        match self {
            Operation::Read(p) => &p.table,
            Operation::Create(p) => &p.table,
            Operation::Update(p) => &p.table,
            Operation::Delete(p) => &p.table,
        }
    }
}

impl ToolCall {
    /// A call from its parts.
    pub fn new(tool: &str, params: Value) -> Self {
        Self {
            tool: tool.to_string(),
            params,
        }
    }

    /// Checks the tool name and the shape of its params.
    pub fn parse(&self) -> Result<Operation, ToolError> {
        if !TOOLS.contains(&self.tool.as_str()) {
            return Err(ToolError::UnknownTool(self.tool.clone()));
        }
        // Models sometimes send params JSON-encoded as a string.
        let params = match &self.params {
            Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
            other => other.clone(),
        };
        if !params.is_object() {
            return Err(self.bad("params must be an object such as {\"table\": \"recipes\"}"));
        }
        let parsed = match self.tool.as_str() {
            "db_read" => serde_json::from_value(params).map(Operation::Read),
            "db_create" => serde_json::from_value(params).map(Operation::Create),
            "db_update" => serde_json::from_value(params).map(Operation::Update),
            _ => serde_json::from_value(params).map(Operation::Delete),
        };
        parsed.map_err(|e| self.bad(&e.to_string()))
    }

    fn bad(&self, reason: &str) -> ToolError {
        ToolError::BadParams {
            tool: self.tool.clone(),
            reason: reason.to_string(),
        }
    }
}

/// Looks a table up by the name the model gave.
pub fn resolve_table(name: &str) -> Result<Table, ToolError> {
    Table::from_name(name).ok_or_else(|| ToolError::UnknownTable {
        name: name.to_string(),
        tables: Table::ALL.map(Table::name).join(", "),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn calls_parse_into_operations() {
        let call = ToolCall::new(
            "db_read",
            json!({"table": "recipes", "filters": [{"field": "name", "op": "=", "value": "x"}]}),
        );
        let Operation::Read(p) = call.parse().unwrap() else {
            panic!("not a read")
        };
        assert_eq!(p.filters, vec![Filter::new("name", "=", json!("x"))]);
        assert_eq!(p.limit, None);
    }

    #[test]
    fn shape_errors_name_the_tool_and_the_problem() {
        let err = ToolCall::new("db_drop", json!({})).parse().unwrap_err();
        assert!(err.to_string().contains("use one of: db_read"), "{err}");
        let err = ToolCall::new("db_read", json!({"table": "recipes", "colour": 1}))
            .parse()
            .unwrap_err();
        assert!(err.to_string().contains("unknown field `colour`"), "{err}");
        let encoded = ToolCall::new("db_delete", json!("{\"table\": \"tasks\"}"));
        assert!(matches!(encoded.parse(), Ok(Operation::Delete(_))));
        let err = ToolCall::new("db_update", json!("recipes"))
            .parse()
            .unwrap_err();
        assert!(
            err.to_string().starts_with("invalid params for db_update"),
            "{err}"
        );
        let err = resolve_table("recipe").unwrap_err();
        assert!(
            err.to_string()
                .contains("tables are: recipes, recipe_ingredients")
        );
    }
}
