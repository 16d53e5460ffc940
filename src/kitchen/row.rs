//! A row as the store reads it (column → JSON value), and the words the
//! rest of the kitchen names it by: its id and its label.

use serde_json::{Map, Value};

use crate::context::Table;

/// A row as stored: column name → JSON value, ids still row ids.
pub(crate) type RawRow = Map<String, Value>;

/// The row id of a raw row.
pub(crate) fn row_id(row: &RawRow) -> Option<&str> {
    row.get("id").and_then(Value::as_str)
}

/// A row's label: name, else title; meal plans "Sun Jan 18 [dinner]".
pub(crate) fn row_label(table: Table, row: &RawRow) -> String {
    let text = |k: &str| {
        row.get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    match table {
        Table::MealPlans => meal_plan_label(&text("date"), &text("meal_type")),
        Table::Preferences => "preferences".to_string(),
        Table::Tasks => text("title"),
        _ => text("name"),
    }
}

/// "Sun Jan 18 [dinner]" for a meal-plan slot (the raw date if unparsable).
pub fn meal_plan_label(date: &str, meal_type: &str) -> String {
    let day = date
        .parse::<jiff::civil::Date>()
        .map(|d| d.strftime("%a %b %-d").to_string())
        .unwrap_or_else(|_| date.to_string());
    format!("{day} [{meal_type}]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn meal_plans_are_labelled_by_day_and_slot() {
        assert_eq!(
            meal_plan_label("2026-01-18", "dinner"),
            "Sun Jan 18 [dinner]"
        );
        assert_eq!(meal_plan_label("2026-02-05", "lunch"), "Thu Feb 5 [lunch]");
        assert_eq!(meal_plan_label("soon", "lunch"), "soon [lunch]");
    }

    #[test]
    fn labels_come_from_name_title_or_slot() {
        let mut row = RawRow::new();
        row.insert("name".into(), json!(" Dal "));
        row.insert("title".into(), json!("Clean"));
        assert_eq!(row_label(Table::Recipes, &row), "Dal");
        assert_eq!(row_label(Table::Tasks, &row), "Clean");
        assert_eq!(row_label(Table::Preferences, &row), "preferences");
    }
}
