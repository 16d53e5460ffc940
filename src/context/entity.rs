//! Entity vocabulary shared by every layer: kitchen tables, their ref
//! prefixes, and the actions a ref can carry.
//!
//! Pure data: no IO. The kitchen store maps these tables to SQL; the registry
//! uses the prefixes to name refs (`recipe_3`, `gen_recipe_1`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A kitchen table whose rows can become entities in working memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Table {
    Recipes,
    RecipeIngredients,
    Inventory,
    ShoppingList,
    MealPlans,
    Tasks,
    Preferences,
    Ingredients,
}

impl Table {
    /// Every table, in a stable order.
    pub const ALL: [Table; 8] = [
        Table::Recipes,
        Table::RecipeIngredients,
        Table::Inventory,
        Table::ShoppingList,
        Table::MealPlans,
        Table::Tasks,
        Table::Preferences,
        Table::Ingredients,
    ];

    /// The SQL table name (`recipes`, `shopping_list`, …).
    pub fn name(self) -> &'static str {
        match self {
            Table::Recipes => "recipes",
            Table::RecipeIngredients => "recipe_ingredients",
            Table::Inventory => "inventory",
            Table::ShoppingList => "shopping_list",
            Table::MealPlans => "meal_plans",
            Table::Tasks => "tasks",
            Table::Preferences => "preferences",
            Table::Ingredients => "ingredients",
        }
    }

    /// The ref prefix of DESIGN.md: `recipe`, `ri`, `inv`, `shop`, `meal`,
    /// `task`, `pref`, `ing`.
    pub fn prefix(self) -> &'static str {
        match self {
            Table::Recipes => "recipe",
            Table::RecipeIngredients => "ri",
            Table::Inventory => "inv",
            Table::ShoppingList => "shop",
            Table::MealPlans => "meal",
            Table::Tasks => "task",
            Table::Preferences => "pref",
            Table::Ingredients => "ing",
        }
    }

    /// The entity type shown to users and models (`recipe`, `inventory`, …).
    pub fn entity_type(self) -> &'static str {
        match self {
            Table::Recipes => "recipe",
            Table::RecipeIngredients => "recipe_ingredient",
            Table::Inventory => "inventory",
            Table::ShoppingList => "shopping_item",
            Table::MealPlans => "meal_plan",
            Table::Tasks => "task",
            Table::Preferences => "preference",
            Table::Ingredients => "ingredient",
        }
    }

    /// Looks a table up by its SQL name.
    pub fn from_name(name: &str) -> Option<Table> {
        Table::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Looks a table up by its ref prefix.
    pub fn from_prefix(prefix: &str) -> Option<Table> {
        Table::ALL.into_iter().find(|t| t.prefix() == prefix)
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The last thing that happened to a ref, shown as `[read]`, `[created]`….
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefAction {
    Read,
    Created,
    Updated,
    Generated,
    Linked,
    Deleted,
    Mentioned,
}

impl RefAction {
    /// The lowercase word used in prompts and panels.
    pub fn as_str(self) -> &'static str {
        match self {
            RefAction::Read => "read",
            RefAction::Created => "created",
            RefAction::Updated => "updated",
            RefAction::Generated => "generated",
            RefAction::Linked => "linked",
            RefAction::Deleted => "deleted",
            RefAction::Mentioned => "mentioned",
        }
    }
}

impl fmt::Display for RefAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parsed ref: `recipe_3` or `gen_recipe_1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParsedRef {
    pub table: Table,
    pub generated: bool,
    pub number: u32,
}

/// Parses a ref string; `None` for anything that is not a well-formed ref of
/// a known prefix (row ids, labels, free text).
pub fn parse_ref(s: &str) -> Option<ParsedRef> {
    let (body, generated) = match s.strip_prefix("gen_") {
        Some(rest) => (rest, true),
        None => (s, false),
    };
    let (prefix, number) = body.rsplit_once('_')?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) || number.starts_with('0') {
        return None;
    }
    let table = Table::from_prefix(prefix)?;
    let number = number.parse().ok()?;
    Some(ParsedRef {
        table,
        generated,
        number,
    })
}

/// Formats a ref from its parts.
pub fn format_ref(table: Table, generated: bool, number: u32) -> String {
    if generated {
        format!("gen_{}_{number}", table.prefix())
    } else {
        format!("{}_{number}", table.prefix())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_parse_and_format_round_trip() {
        for table in Table::ALL {
            for generated in [false, true] {
                let r = format_ref(table, generated, 17);
                let parsed = parse_ref(&r).expect(&r);
                assert_eq!(parsed.table, table);
                assert_eq!(parsed.generated, generated);
                assert_eq!(parsed.number, 17);
            }
        }
    }

    #[test]
    fn non_refs_are_rejected() {
        for s in [
            "recipe",
            "recipe_",
            "recipe_x",
            "recipe_01",
            "soup_1",
            "gen_1",
            "3f2b1c4e-0000-4000-8000-000000000000",
            "",
        ] {
            assert!(parse_ref(s).is_none(), "{s}");
        }
    }

    #[test]
    fn table_names_and_prefixes_are_unique() {
        for a in Table::ALL {
            assert_eq!(Table::from_name(a.name()), Some(a));
            assert_eq!(Table::from_prefix(a.prefix()), Some(a));
        }
    }
}
