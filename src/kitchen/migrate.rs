//! Versioned schema migrations of `kitchen.db`.
//!
//! The schema version is SQLite's `PRAGMA user_version`: migration `n`
//! (1-based) brings the store from version `n - 1` to `n`, inside one
//! transaction, so a failed migration leaves the previous version intact.
//! Migrations are frozen once released: a change is a new entry appended to
//! [`MIGRATIONS`], never an edit of an old one. This module owns only DDL; it
//! must not read or write rows.

use rusqlite::Connection;

use super::error::{KitchenError, Result};

/// Migration 1: every table of the kitchen (after the original §6.4).
///
/// Row ids are UUID v4 text. Default read order is `rowid` (insertion
/// order); `created_at` is a monotonic UTC timestamp set by the store.
const MIGRATION_1: &str = r#"
CREATE TABLE ingredients (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL UNIQUE,
    aliases TEXT NOT NULL DEFAULT '[]',
    category TEXT,
    default_unit TEXT,
    parent_category TEXT,
    family TEXT,
    cuisines TEXT NOT NULL DEFAULT '[]',
    tier INTEGER
);
CREATE TABLE recipes (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    cuisine TEXT,
    difficulty TEXT CHECK (difficulty IN ('easy', 'medium', 'hard')),
    prep_time_minutes INTEGER,
    cook_time_minutes INTEGER,
    servings INTEGER,
    instructions TEXT NOT NULL DEFAULT '[]',
    tags TEXT NOT NULL DEFAULT '[]',
    source_url TEXT,
    parent_recipe_id TEXT REFERENCES recipes(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE recipe_ingredients (
    id TEXT PRIMARY KEY NOT NULL,
    recipe_id TEXT NOT NULL REFERENCES recipes(id) ON DELETE CASCADE,
    ingredient_id TEXT REFERENCES ingredients(id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    quantity REAL,
    unit TEXT,
    notes TEXT,
    is_optional INTEGER NOT NULL DEFAULT 0,
    category TEXT
);
CREATE INDEX recipe_ingredients_recipe ON recipe_ingredients(recipe_id);
CREATE TABLE inventory (
    id TEXT PRIMARY KEY NOT NULL,
    ingredient_id TEXT REFERENCES ingredients(id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    quantity REAL NOT NULL,
    unit TEXT NOT NULL,
    location TEXT CHECK (location IN ('pantry', 'fridge', 'freezer', 'counter', 'cabinet')),
    expiry_date TEXT,
    purchase_date TEXT,
    category TEXT,
    notes TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE meal_plans (
    id TEXT PRIMARY KEY NOT NULL,
    date TEXT NOT NULL,
    meal_type TEXT NOT NULL
        CHECK (meal_type IN ('breakfast', 'lunch', 'dinner', 'snack', 'other')),
    recipe_id TEXT REFERENCES recipes(id) ON DELETE SET NULL,
    notes TEXT,
    servings INTEGER,
    UNIQUE (date, meal_type)
);
CREATE TABLE shopping_list (
    id TEXT PRIMARY KEY NOT NULL,
    ingredient_id TEXT REFERENCES ingredients(id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    quantity REAL,
    unit TEXT,
    category TEXT,
    is_purchased INTEGER NOT NULL DEFAULT 0,
    source TEXT,
    notes TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE tasks (
    id TEXT PRIMARY KEY NOT NULL,
    title TEXT NOT NULL,
    due_date TEXT,
    category TEXT CHECK (category IN ('prep', 'shopping', 'cleanup', 'other')),
    completed INTEGER NOT NULL DEFAULT 0,
    recipe_id TEXT REFERENCES recipes(id) ON DELETE SET NULL,
    meal_plan_id TEXT REFERENCES meal_plans(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE preferences (
    id TEXT PRIMARY KEY NOT NULL,
    dietary_restrictions TEXT NOT NULL DEFAULT '[]',
    allergies TEXT NOT NULL DEFAULT '[]',
    favorite_cuisines TEXT NOT NULL DEFAULT '[]',
    disliked_ingredients TEXT NOT NULL DEFAULT '[]',
    cooking_skill_level TEXT,
    household_adults INTEGER,
    household_kids INTEGER,
    household_babies INTEGER,
    nutrition_goals TEXT NOT NULL DEFAULT '[]',
    cooking_frequency TEXT,
    available_equipment TEXT NOT NULL DEFAULT '[]',
    time_budget_minutes INTEGER,
    preferred_complexity TEXT,
    planning_rhythm TEXT,
    current_vibes TEXT NOT NULL DEFAULT '[]',
    units TEXT,
    subdomain_guidance TEXT NOT NULL DEFAULT '{}'
);
"#;

/// Version 2: the turn commit stamps. A turn's writes and its stamp are
/// committed in one transaction, so a session file that names a pending
/// commit can tell, after a crash, whether the turn's writes landed.
const MIGRATION_2: &str = r#"
CREATE TABLE turn_commits (
    commit_id TEXT PRIMARY KEY NOT NULL,
    session_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    committed_at TEXT NOT NULL
);
"#;

/// Version 3: `preferences.units` goes, as Alfred's preferences have no
/// such column (measurement wishes live in its per-domain guidance).
const MIGRATION_3: &str = r#"
ALTER TABLE preferences DROP COLUMN units;
"#;

/// Every migration in order; entry `i` brings the store to version `i + 1`.
/// To change the schema, append one entry.
pub const MIGRATIONS: &[&str] = &[MIGRATION_1, MIGRATION_2, MIGRATION_3];

/// The schema version this build of alfred writes.
pub const SCHEMA_VERSION: usize = MIGRATIONS.len();

/// The store's current schema version.
pub fn schema_version(conn: &Connection) -> Result<i64> {
    Ok(conn.pragma_query_value(None, "user_version", |row| row.get(0))?)
}

/// Applies every migration the store has not seen yet, each in its own
/// transaction together with its `user_version` bump.
pub fn migrate(conn: &mut Connection) -> Result<()> {
    let found = schema_version(conn)?;
    if found > SCHEMA_VERSION as i64 {
        return Err(KitchenError::TooNew {
            found,
            known: SCHEMA_VERSION,
        });
    }
    let start = usize::try_from(found).unwrap_or(0);
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(start) {
        let version = i + 1;
        let apply = |conn: &mut Connection| -> rusqlite::Result<()> {
            // Immediate, and checked again inside: several processes opening
            // a new store at once migrate it once.
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let now: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
            if now >= version as i64 {
                return Ok(());
            }
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", version as i64)?;
            tx.commit()
        };
        apply(conn).map_err(|source| KitchenError::Migration { version, source })?;
        tracing::info!(version, "kitchen store migrated");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kitchen::schema::SCHEMA;

    fn migrated() -> Connection {
        let mut conn = Connection::open_in_memory().expect("open");
        migrate(&mut conn).expect("migrate");
        conn
    }

    #[test]
    fn migrating_twice_is_a_no_op_at_the_latest_version() {
        let mut conn = migrated();
        assert_eq!(schema_version(&conn).unwrap(), SCHEMA_VERSION as i64);
        migrate(&mut conn).expect("second migrate");
        assert_eq!(schema_version(&conn).unwrap(), SCHEMA_VERSION as i64);
    }

    #[test]
    fn a_newer_store_is_refused() {
        let mut conn = migrated();
        conn.pragma_update(None, "user_version", 99).unwrap();
        let err = migrate(&mut conn).unwrap_err();
        assert!(
            matches!(err, KitchenError::TooNew { found: 99, .. }),
            "{err}"
        );
    }

    /// The schema list and the DDL must describe the same columns, in order,
    /// with NOT NULL exactly where the schema says a value is required.
    #[test]
    fn schema_list_matches_the_tables_the_migrations_create() {
        let conn = migrated();
        for schema in &SCHEMA {
            let mut stmt = conn
                .prepare(&format!("PRAGMA table_info({})", schema.table.name()))
                .unwrap();
            let cols: Vec<(String, bool)> = stmt
                .query_map([], |r| Ok((r.get::<_, String>(1)?, r.get::<_, bool>(3)?)))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap();
            let names: Vec<&str> = cols.iter().map(|(n, _)| n.as_str()).collect();
            let expected: Vec<&str> = schema.columns.iter().map(|c| c.name).collect();
            assert_eq!(names, expected, "{}", schema.table);
            for (c, (_, notnull)) in schema.columns.iter().zip(&cols) {
                if c.required {
                    assert!(notnull, "{}.{} is required", schema.table, c.name);
                }
            }
        }
    }
}
