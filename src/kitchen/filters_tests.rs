//! Unit tests of filter checking and SQL building (no database).

use serde_json::{Value, json};

use super::*;
use crate::kitchen::schema::table_schema;

fn cond(table: Table, field: &str, op: &str, value: Value) -> Result<Condition, ToolError> {
    Condition::new(table_schema(table), &Filter::new(field, op, value))
}

fn sql_of(table: Table, field: &str, op: &str, value: Value) -> SqliteWhere {
    let c = cond(table, field, op, value).expect("valid filter");
    where_clause(&[c], &[]).sqlite()
}

fn text(s: &str) -> SqlValue {
    SqlValue::Text(s.to_string())
}

#[test]
fn comparison_operators_bind_their_value() {
    let w = sql_of(Table::Recipes, "servings", ">=", json!(4));
    assert_eq!(w.sql, "(recipes.servings >= ?)");
    assert_eq!(w.params, vec![SqlValue::Integer(4)]);
    let w = sql_of(Table::Recipes, "cuisine", "=", json!("thai"));
    assert_eq!(w.sql, "(recipes.cuisine = ?)");
    assert_eq!(w.params, vec![text("thai")]);
    let w = sql_of(Table::Inventory, "expiry_date", "<", json!("2025-01-20"));
    assert_eq!(w.sql, "(inventory.expiry_date < ?)");
}

#[test]
fn negative_operators_keep_null_rows() {
    let w = sql_of(Table::Recipes, "cuisine", "!=", json!("indian"));
    assert_eq!(w.sql, "(recipes.cuisine IS NOT ?)");
    let w = sql_of(Table::Recipes, "name", "not_ilike", json!("%cod%"));
    assert_eq!(w.sql, "((recipes.name IS NULL OR recipes.name NOT LIKE ?))");
    assert_eq!(w.params, vec![text("%cod%")]);
}

#[test]
fn not_in_takes_any_number_of_values() {
    let w = sql_of(
        Table::Recipes,
        "cuisine",
        "not_in",
        json!(["indian", "thai", "fusion"]),
    );
    assert_eq!(
        w.sql,
        "((recipes.cuisine IS NULL OR recipes.cuisine NOT IN (?, ?, ?)))"
    );
    assert_eq!(w.params, vec![text("indian"), text("thai"), text("fusion")]);
    // A single scalar is a one-element list; an empty list excludes nothing.
    assert_eq!(
        sql_of(Table::Recipes, "cuisine", "not_in", json!("thai"))
            .params
            .len(),
        1
    );
    assert_eq!(
        sql_of(Table::Recipes, "cuisine", "not_in", json!([])).sql,
        "(1)"
    );
    assert_eq!(
        sql_of(Table::Recipes, "cuisine", "in", json!([])).sql,
        "(0)"
    );
}

#[test]
fn contains_uses_json_each_for_lists_and_substring_for_text() {
    let w = sql_of(Table::Recipes, "tags", "contains", json!(["curry", "mild"]));
    assert_eq!(
        w.sql.matches("json_each(recipes.tags)").count(),
        2,
        "{}",
        w.sql
    );
    assert_eq!(w.params, vec![text("curry"), text("mild")]);
    let w = sql_of(Table::Recipes, "description", "contains", json!("Coconut"));
    assert_eq!(w.sql, "(instr(lower(recipes.description), lower(?)) > 0)");
    let w = sql_of(Table::Recipes, "ingredients", "not_ilike", json!("%cod%"));
    assert!(
        w.sql
            .starts_with("(NOT EXISTS (SELECT 1 FROM recipe_ingredients ri"),
        "{}",
        w.sql
    );
}

#[test]
fn null_checks_take_no_parameter() {
    let w = sql_of(Table::Inventory, "expiry_date", "is_null", Value::Null);
    assert_eq!(w.sql, "(inventory.expiry_date IS NULL)");
    assert!(w.params.is_empty());
    let w = sql_of(Table::Inventory, "expiry_date", "is_not_null", json!(true));
    assert_eq!(w.sql, "(inventory.expiry_date IS NOT NULL)");
}

#[test]
fn or_group_is_anded_with_the_filters() {
    let a = cond(Table::Recipes, "difficulty", "=", json!("easy")).unwrap();
    let b = cond(Table::Recipes, "cuisine", "=", json!("thai")).unwrap();
    let c = cond(Table::Recipes, "cuisine", "=", json!("indian")).unwrap();
    let w = where_clause(&[a], &[b, c]).sqlite();
    assert_eq!(
        w.sql,
        "(recipes.difficulty = ?) AND ((recipes.cuisine = ?) OR (recipes.cuisine = ?))"
    );
    assert_eq!(w.params.len(), 3);
    assert_eq!(where_clause(&[], &[]).sqlite().sql, "1");
}

#[test]
fn identifiers_never_come_from_input() {
    let err = cond(Table::Recipes, "name; DROP TABLE recipes", "=", json!("x")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("unknown column \"name; DROP TABLE recipes\""),
        "{err}"
    );
    let err = cond(Table::Recipes, "name", "= 1 OR 1=1 --", json!("x")).unwrap_err();
    assert!(err.to_string().contains("use one of: =, !=, >"), "{err}");
    // A hostile value is just a parameter.
    let w = sql_of(
        Table::Recipes,
        "name",
        "=",
        json!("x'; DROP TABLE recipes; --"),
    );
    assert_eq!(w.sql, "(recipes.name = ?)");
}

#[test]
fn operators_must_fit_the_column_kind() {
    let err = cond(Table::Recipes, "tags", "=", json!("curry")).unwrap_err();
    assert!(
        err.to_string().contains("use contains for list columns"),
        "{err}"
    );
    assert!(cond(Table::Tasks, "completed", ">", json!(true)).is_err());
    assert!(cond(Table::Recipes, "servings", "ilike", json!("%4%")).is_err());
    assert!(cond(Table::Recipes, "ingredients", "=", json!("cod")).is_err());
    let err = cond(Table::Recipes, "cuisine", "=", Value::Null).unwrap_err();
    assert!(err.to_string().contains("use is_null"), "{err}");
    let err = cond(Table::MealPlans, "meal_type", "=", json!("brunch")).unwrap_err();
    assert!(
        err.to_string().contains("breakfast, lunch, dinner"),
        "{err}"
    );
}

#[test]
fn unknown_operators_list_the_valid_ones() {
    let err = Op::parse("like").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown operator \"like\"; use one of: =, !=, >, <, >=, <=, in, not_in, ilike, \
         not_ilike, is_null, is_not_null, contains"
    );
}
