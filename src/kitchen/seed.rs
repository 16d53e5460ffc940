//! The sample kitchen: the JSON files of `assets/seed/`, embedded in the
//! binary, loaded into an empty store in one transaction.
//!
//! Rows go through the same schema checks as tool calls (`check_payload`),
//! in file order, so default reads return them in file order. Ingredient
//! names must match the catalog exactly and task recipes must name a seed
//! recipe; a mismatch is an error naming the file and the item. Relative
//! dates (`expires_in_days`, `due_in_days`) count from the injected `today`.
//! This module must not decide anything about refs or tools.

use std::collections::HashMap;
use std::fmt;

use jiff::civil::Date;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::error::{KitchenError, Result};
use super::payload::{Mode, check_payload, check_required};
use super::schema::table_schema;
use super::store::Kitchen;
use crate::context::Table;
use crate::context::registry::SessionIdRegistry;

const INGREDIENTS: (&str, &str) = (
    "ingredients.json",
    include_str!("../../assets/seed/ingredients.json"),
);
const RECIPES: (&str, &str) = (
    "recipes.json",
    include_str!("../../assets/seed/recipes.json"),
);
const INVENTORY: (&str, &str) = (
    "inventory.json",
    include_str!("../../assets/seed/inventory.json"),
);
const PREFERENCES: (&str, &str) = (
    "preferences.json",
    include_str!("../../assets/seed/preferences.json"),
);
const SHOPPING: (&str, &str) = (
    "shopping.json",
    include_str!("../../assets/seed/shopping.json"),
);
const TASKS: (&str, &str) = ("tasks.json", include_str!("../../assets/seed/tasks.json"));

/// What a seeding wrote, table by table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeedReport {
    pub ingredients: usize,
    pub recipes: usize,
    pub recipe_ingredients: usize,
    pub inventory: usize,
    pub preferences: usize,
    pub shopping_list: usize,
    pub tasks: usize,
}

impl fmt::Display for SeedReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seeded {} recipes ({} ingredient lines), {} inventory items, {} shopping items, \
             {} tasks, {} new catalog ingredients, ",
            self.recipes,
            self.recipe_ingredients,
            self.inventory,
            self.shopping_list,
            self.tasks,
            self.ingredients,
        )?;
        if self.preferences == 0 {
            f.write_str("the preferences row already there kept")
        } else {
            write!(f, "{} preferences row", self.preferences)
        }
    }
}

/// A recipe of `recipes.json`. Named fields are the ones the loader
/// transforms; the rest are checked against the schema like tool-call data
/// (unknown keys are refused there).
#[derive(Deserialize)]
struct SeedRecipe {
    name: String,
    #[serde(flatten)]
    fields: Map<String, Value>,
}

/// An item of `inventory.json` (expiry relative to the seeding day).
#[derive(Deserialize)]
struct SeedInventory {
    name: String,
    expires_in_days: Option<i64>,
    #[serde(flatten)]
    fields: Map<String, Value>,
}

/// A task of `tasks.json` (due date relative, recipe by name).
#[derive(Deserialize)]
struct SeedTask {
    title: String,
    due_in_days: Option<i64>,
    recipe: Option<String>,
    #[serde(flatten)]
    fields: Map<String, Value>,
}

/// One seed file being loaded: names items in errors.
struct SeedFile {
    file: &'static str,
}

impl SeedFile {
    fn err(&self, item: &str, reason: impl ToString) -> KitchenError {
        KitchenError::Seed {
            file: self.file,
            item: item.to_string(),
            reason: reason.to_string(),
        }
    }

    /// Parses the file as an array; each item is parsed on its own so an
    /// error names it ("#3" until its name is known).
    fn items<T: DeserializeOwned>(&self, text: &str) -> Result<Vec<T>> {
        let raw: Vec<Value> = serde_json::from_str(text).map_err(|e| self.err("(file)", e))?;
        raw.into_iter()
            .enumerate()
            .map(|(i, v)| {
                let label = v
                    .get("name")
                    .or_else(|| v.get("title"))
                    .and_then(Value::as_str)
                    .map_or_else(|| format!("#{}", i + 1), |n| format!("\"{n}\""));
                serde_json::from_value(v).map_err(|e| self.err(&label, e))
            })
            .collect()
    }

    fn days_from(&self, item: &str, today: Date, days: Option<i64>) -> Result<Value> {
        let Some(days) = days else {
            return Ok(Value::Null);
        };
        let date = today
            .checked_add(
                jiff::Span::new()
                    .try_days(days)
                    .map_err(|e| self.err(item, e))?,
            )
            .map_err(|e| self.err(item, e))?;
        Ok(Value::String(date.to_string()))
    }
}

impl Kitchen {
    /// Loads the sample kitchen when every table of its own is empty (see
    /// [`Kitchen::owns`]); `None` (and no
    /// change) otherwise.
    ///
    /// The check and the load are one immediate transaction, so several
    /// processes starting on a new store at once seed it once.
    pub fn seed_if_empty(&mut self, today: Date) -> Result<Option<SeedReport>> {
        self.exclusively(|k| {
            if !k.has_no_rows()? {
                return Ok(None);
            }
            k.load_seed(today).map(Some)
        })
    }

    /// Wipes every table and loads the sample kitchen again, in one
    /// transaction.
    pub fn reset(&mut self, today: Date) -> Result<SeedReport> {
        self.atomically(|k| {
            // Children first, so no foreign key ever dangles.
            for table in [
                Table::Tasks,
                Table::MealPlans,
                Table::ShoppingList,
                Table::Inventory,
                Table::RecipeIngredients,
                Table::Recipes,
                Table::Preferences,
                Table::Ingredients,
            ] {
                k.delete_all(table)?;
            }
            k.load_seed(today)
        })
    }

    fn load_seed(&mut self, today: Date) -> Result<SeedReport> {
        if let Some(pg) = self.postgres() {
            pg.sign_up()?;
        }
        let mut report = SeedReport::default();
        let catalog = self.seed_catalog(&mut report)?;
        let recipes = self.seed_recipes(&catalog, &mut report)?;
        report.inventory = self.seed_inventory(&catalog, today)?;
        let file = SeedFile {
            file: PREFERENCES.0,
        };
        let prefs: Map<String, Value> =
            serde_json::from_str(PREFERENCES.1).map_err(|e| file.err("(file)", e))?;
        // A user who signed up to Alfred has a profile row already (its
        // sign-up trigger makes one): it is theirs, and stays.
        if self.count_rows(Table::Preferences)? == 0 {
            self.seed_row(&file, "preferences", Table::Preferences, prefs, &catalog)?;
            report.preferences = 1;
        }
        let file = SeedFile { file: SHOPPING.0 };
        for item in file.items::<Map<String, Value>>(SHOPPING.1)? {
            let name = item
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string();
            self.seed_row(&file, &name, Table::ShoppingList, item, &catalog)?;
            report.shopping_list += 1;
        }
        report.tasks = self.seed_tasks(&recipes, today)?;
        tracing::info!(%report, "kitchen store seeded");
        Ok(report)
    }

    /// The sample catalog by name; entries the catalog already has (a
    /// shared Postgres catalog another user seeded) are used as they are,
    /// and only those added are counted.
    fn seed_catalog(&mut self, report: &mut SeedReport) -> Result<HashMap<String, String>> {
        let file = SeedFile {
            file: INGREDIENTS.0,
        };
        let existing = self.catalog()?;
        let mut ids = HashMap::new();
        for item in file.items::<Map<String, Value>>(INGREDIENTS.1)? {
            let name = item
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string();
            let id = match existing.get(&name.trim().to_lowercase()) {
                Some(entry) => entry.id.clone(),
                None => {
                    report.ingredients += 1;
                    self.seed_row(&file, &name, Table::Ingredients, item, &HashMap::new())?
                }
            };
            if ids.insert(name.clone(), id).is_some() {
                return Err(file.err(&name, "duplicate catalog name"));
            }
        }
        Ok(ids)
    }

    fn seed_recipes(
        &mut self,
        catalog: &HashMap<String, String>,
        report: &mut SeedReport,
    ) -> Result<HashMap<String, String>> {
        let file = SeedFile { file: RECIPES.0 };
        let mut ids = HashMap::new();
        for recipe in file.items::<SeedRecipe>(RECIPES.1)? {
            let mut fields = recipe.fields;
            let lines = fields.remove("ingredients").unwrap_or(json!([]));
            fields.insert("name".into(), Value::String(recipe.name.clone()));
            let id = self.seed_row(&file, &recipe.name, Table::Recipes, fields, catalog)?;
            let Value::Array(lines) = lines else {
                return Err(file.err(&recipe.name, "ingredients must be a list"));
            };
            for line in lines {
                let Value::Object(mut line) = line else {
                    return Err(file.err(&recipe.name, "each ingredient must be an object"));
                };
                line.insert("recipe_id".into(), Value::String(id.clone()));
                self.seed_row(&file, &recipe.name, Table::RecipeIngredients, line, catalog)?;
                report.recipe_ingredients += 1;
            }
            ids.insert(recipe.name, id);
            report.recipes += 1;
        }
        Ok(ids)
    }

    fn seed_inventory(&mut self, catalog: &HashMap<String, String>, today: Date) -> Result<usize> {
        let file = SeedFile { file: INVENTORY.0 };
        let items = file.items::<SeedInventory>(INVENTORY.1)?;
        for item in &items {
            let mut fields = item.fields.clone();
            fields.insert("name".into(), Value::String(item.name.clone()));
            let expiry = file.days_from(&item.name, today, item.expires_in_days)?;
            fields.insert("expiry_date".into(), expiry);
            self.seed_row(&file, &item.name, Table::Inventory, fields, catalog)?;
        }
        Ok(items.len())
    }

    fn seed_tasks(&mut self, recipes: &HashMap<String, String>, today: Date) -> Result<usize> {
        let file = SeedFile { file: TASKS.0 };
        let tasks = file.items::<SeedTask>(TASKS.1)?;
        for task in &tasks {
            let mut fields = task.fields.clone();
            fields.insert("title".into(), Value::String(task.title.clone()));
            fields.insert(
                "due_date".into(),
                file.days_from(&task.title, today, task.due_in_days)?,
            );
            if let Some(name) = &task.recipe {
                let id = recipes
                    .get(name)
                    .ok_or_else(|| file.err(&task.title, format!("no recipe named \"{name}\"")))?;
                fields.insert("recipe_id".into(), Value::String(id.clone()));
            }
            self.seed_row(&file, &task.title, Table::Tasks, fields, &HashMap::new())?;
        }
        Ok(tasks.len())
    }

    /// Checks one seed row like a tool call's data, links its ingredient
    /// name to the catalog (tables with `ingredient_id`), and inserts it.
    fn seed_row(
        &mut self,
        file: &SeedFile,
        item: &str,
        table: Table,
        mut fields: Map<String, Value>,
        catalog: &HashMap<String, String>,
    ) -> Result<String> {
        let schema = table_schema(table);
        if schema.column("ingredient_id").is_some() {
            let name = fields
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let id = catalog.get(name).ok_or_else(|| {
                file.err(
                    item,
                    format!("ingredient \"{name}\" is not in ingredients.json"),
                )
            })?;
            fields.insert("ingredient_id".into(), Value::String(id.clone()));
        }
        // An Alfred database may lack a column the sample sets (`units`):
        // the sample's value for it is left out.
        fields.retain(|column, _| self.has_column(table, column));
        let none = SessionIdRegistry::new();
        let payload = check_payload(schema, &fields, &|_| false, Mode::Create, &none)
            .and_then(|p| check_required(schema, &p, &[], "").map(|()| p))
            .map_err(|e| file.err(item, e))?;
        self.insert_row(table, &payload.values)
            .map_err(|e| file.err(item, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_item_is_named_with_its_file() {
        let file = SeedFile { file: TASKS.0 };
        let text = r#"[{"title": "Fine", "due_in_days": 1, "recipe": null}, {"title": "Bad", "due_in_days": "soon"}]"#;
        let err = file.items::<SeedTask>(text).err().expect("a bad item");
        assert!(
            err.to_string()
                .starts_with("seed file tasks.json, item \"Bad\":"),
            "{err}"
        );
    }

    #[test]
    fn an_ingredient_missing_from_the_catalog_is_named() {
        let mut k = Kitchen::open_in_memory().unwrap();
        let file = SeedFile { file: INVENTORY.0 };
        let item = json!({"name": "unobtainium", "quantity": 1, "unit": "g"});
        let Value::Object(fields) = item else {
            unreachable!()
        };
        let err = k
            .seed_row(
                &file,
                "unobtainium",
                Table::Inventory,
                fields,
                &HashMap::new(),
            )
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "seed file inventory.json, item unobtainium: ingredient \"unobtainium\" is not in ingredients.json"
        );
    }

    #[test]
    fn relative_dates_count_from_today() {
        let mut k = Kitchen::open_in_memory().unwrap();
        let report = k
            .seed_if_empty(jiff::civil::date(2026, 2, 27))
            .unwrap()
            .unwrap();
        assert_eq!(report.recipes, 9);
        let milk: String = k
            .prepare("SELECT expiry_date FROM inventory WHERE name = 'milk'")
            .unwrap()
            .query_row([], |r| r.get(0))
            .unwrap();
        assert_eq!(milk, "2026-03-01");
    }
}
