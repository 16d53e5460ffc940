//! The kitchen schema as data: every table's columns, their kinds, allowed
//! values and foreign keys.
//!
//! This list is the single source of identifiers: tool calls are checked
//! against it, and every column name that reaches SQL is a `&'static str`
//! taken from here, never from input. [`schema_text`] renders it for Act
//! prompts. The DDL lives in frozen migrations (`migrate.rs`); a test keeps
//! the two in agreement. This module must not touch the database.

use std::fmt::Write as _;

use crate::context::Table;

/// How a column's value is stored and checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    Text,
    Integer,
    Real,
    /// Stored as 0/1, returned as a JSON boolean.
    Bool,
    /// Stored as JSON text, returned decoded.
    JsonArray,
    /// Stored as JSON text, returned decoded.
    JsonObject,
    /// `YYYY-MM-DD`.
    Date,
}

impl ColumnKind {
    /// The word used in prompts and error messages.
    pub fn describe(self) -> &'static str {
        match self {
            ColumnKind::Text => "text",
            ColumnKind::Integer => "integer",
            ColumnKind::Real => "number",
            ColumnKind::Bool => "true/false",
            ColumnKind::JsonArray => "list",
            ColumnKind::JsonObject => "object",
            ColumnKind::Date => "date YYYY-MM-DD",
        }
    }
}

/// One column of a kitchen table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColumnDef {
    pub name: &'static str,
    pub kind: ColumnKind,
    /// The table this column points at; its values are refs of that table.
    pub fk: Option<Table>,
    /// `db_create` must provide it.
    pub required: bool,
    /// The only values allowed (empty: any).
    pub allowed: &'static [&'static str],
    /// Set by the store (`id`, `created_at`); never written by a tool call.
    pub managed: bool,
}

impl ColumnDef {
    const fn new(name: &'static str, kind: ColumnKind) -> Self {
        Self {
            name,
            kind,
            fk: None,
            required: false,
            allowed: &[],
            managed: false,
        }
    }
    const fn req(mut self) -> Self {
        self.required = true;
        self
    }
    const fn fk(mut self, table: Table) -> Self {
        self.fk = Some(table);
        self
    }
    const fn one_of(mut self, allowed: &'static [&'static str]) -> Self {
        self.allowed = allowed;
        self
    }
    const fn managed(mut self) -> Self {
        self.managed = true;
        self
    }
}

/// A table and its columns, in storage order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableSchema {
    pub table: Table,
    pub columns: &'static [ColumnDef],
}

impl TableSchema {
    /// The column named `name`, if the table has one.
    pub fn column(&self, name: &str) -> Option<&'static ColumnDef> {
        self.columns.iter().find(|c| c.name == name)
    }

    /// Column names joined with ", " (for error messages).
    pub fn column_list(&self) -> String {
        let mut names: Vec<&str> = self.columns.iter().map(|c| c.name).collect();
        if self.table == Table::Recipes {
            names.push(RECIPE_INGREDIENTS_FIELD);
        }
        names.join(", ")
    }

    /// Columns pointing at other tables.
    pub fn foreign_keys(&self) -> impl Iterator<Item = (&'static ColumnDef, Table)> {
        self.columns.iter().filter_map(|c| c.fk.map(|t| (c, t)))
    }
}

/// The nested, read-only-by-column field of recipes: its ingredient lines.
pub const RECIPE_INGREDIENTS_FIELD: &str = "ingredients";

/// Inventory locations.
pub const LOCATIONS: &[&str] = &["pantry", "fridge", "freezer", "counter", "cabinet"];
/// Meal-plan slots.
pub const MEAL_TYPES: &[&str] = &["breakfast", "lunch", "dinner", "snack", "other"];
/// Task categories.
pub const TASK_CATEGORIES: &[&str] = &["prep", "shopping", "cleanup", "other"];
/// Recipe difficulties.
pub const DIFFICULTIES: &[&str] = &["easy", "medium", "hard"];

use ColumnKind::{Bool, Date, Integer, JsonArray, JsonObject, Real, Text};

const ID: ColumnDef = ColumnDef::new("id", Text).managed();
const CREATED_AT: ColumnDef = ColumnDef::new("created_at", Text).managed();

const RECIPES: &[ColumnDef] = &[
    ID,
    ColumnDef::new("name", Text).req(),
    ColumnDef::new("description", Text),
    ColumnDef::new("cuisine", Text),
    ColumnDef::new("difficulty", Text).one_of(DIFFICULTIES),
    ColumnDef::new("prep_time_minutes", Integer),
    ColumnDef::new("cook_time_minutes", Integer),
    ColumnDef::new("servings", Integer),
    ColumnDef::new("instructions", JsonArray),
    ColumnDef::new("tags", JsonArray),
    ColumnDef::new("source_url", Text),
    ColumnDef::new("parent_recipe_id", Text).fk(Table::Recipes),
    CREATED_AT,
];

const RECIPE_INGREDIENTS: &[ColumnDef] = &[
    ID,
    ColumnDef::new("recipe_id", Text).fk(Table::Recipes).req(),
    ColumnDef::new("ingredient_id", Text).fk(Table::Ingredients),
    ColumnDef::new("name", Text).req(),
    ColumnDef::new("quantity", Real),
    ColumnDef::new("unit", Text),
    ColumnDef::new("notes", Text),
    ColumnDef::new("is_optional", Bool),
    ColumnDef::new("category", Text),
];

const INVENTORY: &[ColumnDef] = &[
    ID,
    ColumnDef::new("ingredient_id", Text).fk(Table::Ingredients),
    ColumnDef::new("name", Text).req(),
    ColumnDef::new("quantity", Real).req(),
    ColumnDef::new("unit", Text).req(),
    ColumnDef::new("location", Text).one_of(LOCATIONS),
    ColumnDef::new("expiry_date", Date),
    ColumnDef::new("purchase_date", Date),
    ColumnDef::new("category", Text),
    ColumnDef::new("notes", Text),
    CREATED_AT,
];

const MEAL_PLANS: &[ColumnDef] = &[
    ID,
    ColumnDef::new("date", Date).req(),
    ColumnDef::new("meal_type", Text).one_of(MEAL_TYPES).req(),
    ColumnDef::new("recipe_id", Text).fk(Table::Recipes),
    ColumnDef::new("notes", Text),
    ColumnDef::new("servings", Integer),
];

const SHOPPING_LIST: &[ColumnDef] = &[
    ID,
    ColumnDef::new("ingredient_id", Text).fk(Table::Ingredients),
    ColumnDef::new("name", Text).req(),
    ColumnDef::new("quantity", Real),
    ColumnDef::new("unit", Text),
    ColumnDef::new("category", Text),
    ColumnDef::new("is_purchased", Bool),
    ColumnDef::new("source", Text),
    ColumnDef::new("notes", Text),
    CREATED_AT,
];

const TASKS: &[ColumnDef] = &[
    ID,
    ColumnDef::new("title", Text).req(),
    ColumnDef::new("due_date", Date),
    ColumnDef::new("category", Text).one_of(TASK_CATEGORIES),
    ColumnDef::new("completed", Bool),
    ColumnDef::new("recipe_id", Text).fk(Table::Recipes),
    ColumnDef::new("meal_plan_id", Text).fk(Table::MealPlans),
    CREATED_AT,
];

const PREFERENCES: &[ColumnDef] = &[
    ID,
    ColumnDef::new("dietary_restrictions", JsonArray),
    ColumnDef::new("allergies", JsonArray),
    ColumnDef::new("favorite_cuisines", JsonArray),
    ColumnDef::new("disliked_ingredients", JsonArray),
    ColumnDef::new("cooking_skill_level", Text),
    ColumnDef::new("household_adults", Integer),
    ColumnDef::new("household_kids", Integer),
    ColumnDef::new("household_babies", Integer),
    ColumnDef::new("nutrition_goals", JsonArray),
    ColumnDef::new("cooking_frequency", Text),
    ColumnDef::new("available_equipment", JsonArray),
    ColumnDef::new("time_budget_minutes", Integer),
    ColumnDef::new("preferred_complexity", Text),
    ColumnDef::new("planning_rhythm", Text),
    ColumnDef::new("current_vibes", JsonArray),
    ColumnDef::new("subdomain_guidance", JsonObject),
];

const INGREDIENTS: &[ColumnDef] = &[
    ID,
    ColumnDef::new("name", Text).req(),
    ColumnDef::new("aliases", JsonArray),
    ColumnDef::new("category", Text),
    ColumnDef::new("default_unit", Text),
    ColumnDef::new("parent_category", Text),
    ColumnDef::new("family", Text),
    ColumnDef::new("cuisines", JsonArray),
    ColumnDef::new("tier", Integer),
];

/// Every kitchen table, in [`Table::ALL`] order.
pub static SCHEMA: [TableSchema; 8] = [
    TableSchema {
        table: Table::Recipes,
        columns: RECIPES,
    },
    TableSchema {
        table: Table::RecipeIngredients,
        columns: RECIPE_INGREDIENTS,
    },
    TableSchema {
        table: Table::Inventory,
        columns: INVENTORY,
    },
    TableSchema {
        table: Table::ShoppingList,
        columns: SHOPPING_LIST,
    },
    TableSchema {
        table: Table::MealPlans,
        columns: MEAL_PLANS,
    },
    TableSchema {
        table: Table::Tasks,
        columns: TASKS,
    },
    TableSchema {
        table: Table::Preferences,
        columns: PREFERENCES,
    },
    TableSchema {
        table: Table::Ingredients,
        columns: INGREDIENTS,
    },
];

/// The schema of a table.
pub fn table_schema(table: Table) -> &'static TableSchema {
    // SCHEMA is in Table::ALL order; the unit tests pin that.
    let i = Table::ALL.iter().position(|t| *t == table).unwrap_or(0);
    &SCHEMA[i]
}

/// The columns a row's label comes from: name, else title; meal plans use
/// date and slot.
pub fn label_columns(table: Table) -> &'static [&'static str] {
    match table {
        Table::Tasks => &["title"],
        Table::MealPlans => &["date", "meal_type"],
        Table::Preferences => &[],
        _ => &["name"],
    }
}

/// A compact description of a table's columns for Act prompts: kinds,
/// allowed values, foreign keys and which columns are required.
pub fn schema_text(table: Table) -> String {
    let schema = table_schema(table);
    let mut out = format!(
        "table {} (rows are refs {}_N)\n",
        table.name(),
        table.prefix()
    );
    for c in schema.columns {
        let _ = write!(out, "  {}: ", c.name);
        if c.name == "id" {
            out.push_str("ref (set by the store)");
        } else if let Some(target) = c.fk {
            let _ = write!(out, "ref to {} ({}_N)", target.name(), target.prefix());
        } else if !c.allowed.is_empty() {
            let _ = write!(out, "one of {}", c.allowed.join(", "));
        } else if c.name == "created_at" {
            out.push_str("timestamp (set by the store)");
        } else {
            out.push_str(c.kind.describe());
        }
        if c.required {
            out.push_str(", required");
        }
        out.push('\n');
    }
    if table == Table::Recipes {
        out.push_str(
            "  ingredients: reads include [{name, quantity, unit}]; db_create may pass \
             [{name, quantity, unit, notes, is_optional, category}]\n",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_follows_table_order_and_every_table_has_an_id() {
        for (schema, table) in SCHEMA.iter().zip(Table::ALL) {
            assert_eq!(schema.table, table);
            assert_eq!(schema.columns[0].name, "id");
            assert!(std::ptr::eq(table_schema(table), schema));
        }
    }

    #[test]
    fn schema_text_names_kinds_enums_and_foreign_keys() {
        let text = schema_text(Table::Tasks);
        assert!(text.contains("title: text, required"), "{text}");
        assert!(text.contains("category: one of prep, shopping, cleanup, other"));
        assert!(text.contains("recipe_id: ref to recipes (recipe_N)"));
        assert!(text.contains("due_date: date YYYY-MM-DD"));
        assert!(schema_text(Table::Recipes).contains("ingredients: reads include"));
        assert!(!schema_text(Table::Inventory).contains("ingredients: reads"));
    }

    #[test]
    fn column_lookup_is_exact() {
        let recipes = table_schema(Table::Recipes);
        assert!(recipes.column("name").is_some());
        assert!(recipes.column("Name").is_none());
        assert!(recipes.column("name; DROP TABLE recipes").is_none());
        assert!(recipes.column_list().ends_with("created_at, ingredients"));
    }
}
