//! What the kitchen looks like at a glance: the [`SessionContext`] a Think
//! prompt opens with (profile, per-subdomain guidance, dashboard counts) and
//! [`KitchenStats`] for `alfred kitchen stats`.
//!
//! Counts come from aggregate SQL, not from loading rows. Read-only: this
//! module never writes, and it registers no refs (the dashboard names no
//! rows the model could address).

use std::collections::BTreeMap;
use std::fmt;

use jiff::civil::Date;
use serde_json::Value;

use super::error::Result;
use super::filters::WhereClause;
use super::schema::table_schema;
use super::store::Kitchen;
use super::tools::Select;
use crate::context::Table;
use crate::glance::{Dashboard, NamedCount, Profile, SessionContext};

/// Days ahead (inclusive) an item counts as expiring soon.
const EXPIRING_WITHIN_DAYS: i64 = 3;
/// Rows per table whose labels a turn reads for the reader.
const MAX_LABELS: usize = 2000;
/// Days of meal plan the dashboard looks at, today included.
const PLAN_DAYS: i64 = 7;

/// Row counts per table, for `alfred kitchen stats`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KitchenStats {
    /// Where the kitchen is: the database file, or the Postgres URL and
    /// user.
    pub location: String,
    pub schema_version: i64,
    /// Every table with its row count, in [`Table::ALL`] order.
    pub tables: Vec<(Table, u64)>,
}

impl KitchenStats {
    /// The row count of one table.
    pub fn rows(&self, table: Table) -> u64 {
        self.tables
            .iter()
            .find(|(t, _)| *t == table)
            .map_or(0, |(_, n)| *n)
    }
}

impl fmt::Display for KitchenStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.schema_version {
            0 => writeln!(f, "kitchen store {}", self.location)?,
            v => writeln!(f, "kitchen store {} (schema v{v})", self.location)?,
        }
        writeln!(f, "  {:<20} {:>6}", "table", "rows")?;
        for (table, n) in &self.tables {
            writeln!(f, "  {:<20} {n:>6}", table.name())?;
        }
        let total: u64 = self.tables.iter().map(|(_, n)| n).sum();
        write!(f, "  {:<20} {total:>6}", "total")
    }
}

impl Kitchen {
    /// Row counts of every table (an open turn's writes included).
    pub fn stats(&self) -> Result<KitchenStats> {
        let tables = self.viewed(|k| {
            Table::ALL
                .into_iter()
                .map(|t| Ok((t, k.count_rows(t)?)))
                .collect::<Result<_>>()
        })?;
        Ok(KitchenStats {
            location: self.location(),
            schema_version: self.schema_version()?,
            tables,
        })
    }

    /// The profile, the per-subdomain guidance and the dashboard, as of
    /// `today`.
    pub fn session_context(&self, today: Date) -> Result<SessionContext> {
        self.viewed(|k| k.session_context_now(today))
    }

    fn session_context_now(&self, today: Date) -> Result<SessionContext> {
        let prefs = self.preferences_row()?;
        let preferences = match prefs.get("subdomain_guidance") {
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str().map_or_else(|| v.to_string(), String::from),
                    )
                })
                .collect(),
            _ => BTreeMap::new(),
        };
        // Profile ignores the columns it does not know; NULLs mean "unset".
        let fields = prefs.into_iter().filter(|(_, v)| !v.is_null()).collect();
        let profile: Profile = serde_json::from_value(Value::Object(fields)).unwrap_or_else(|e| {
            tracing::warn!(error = %e, "preferences row does not fit the profile; using defaults");
            Profile::default()
        });
        Ok(SessionContext {
            today: today.to_string(),
            profile,
            preferences,
            dashboard: self.dashboard(today)?,
        })
    }

    /// The labels of each table's rows (names; titles for tasks), at most
    /// [`MAX_LABELS`] a table, read in one view, for a reader that links
    /// the user's words to what the kitchen holds.
    pub fn labels(&self, tables: &[Table]) -> Result<Vec<Vec<String>>> {
        self.viewed(|k| tables.iter().map(|t| k.labels_now(*t)).collect())
    }

    fn labels_now(&self, table: Table) -> Result<Vec<String>> {
        let schema = table_schema(table);
        let columns: Vec<_> = schema
            .columns
            .iter()
            .filter(|c| super::schema::label_columns(table).contains(&c.name))
            .collect();
        if columns.is_empty() {
            return Ok(Vec::new());
        }
        let rows = self.select_rows(&Select {
            schema,
            columns,
            filter: WhereClause::all(),
            order_by: None,
            descending: false,
            limit: Some(MAX_LABELS),
        })?;
        Ok(rows
            .into_iter()
            .filter_map(|r| r.values().find_map(|v| v.as_str().map(str::to_string)))
            .collect())
    }

    fn preferences_row(&self) -> Result<serde_json::Map<String, Value>> {
        let schema = table_schema(Table::Preferences);
        let rows = self.select_rows(&Select {
            schema,
            columns: schema.columns.iter().collect(),
            filter: WhereClause::all(),
            order_by: None,
            descending: false,
            limit: Some(1),
        });
        Ok(rows?.into_iter().next().unwrap_or_default())
    }

    fn dashboard(&self, today: Date) -> Result<Dashboard> {
        let day = |n: i64| {
            today
                .checked_add(jiff::Span::new().days(n))
                .unwrap_or(today)
                .to_string()
        };
        let recipes_by_cuisine = self.grouped(Table::Recipes, "cuisine")?;
        let inventory_by_location = self.grouped(Table::Inventory, "location")?;
        let (slots, days) = self.plan_counts(&today.to_string(), &day(PLAN_DAYS - 1))?;
        Ok(Dashboard {
            recipes_total: recipes_by_cuisine.iter().map(|c| c.count).sum(),
            recipes_by_cuisine,
            inventory_total: inventory_by_location.iter().map(|c| c.count).sum(),
            inventory_by_location,
            expiring_soon: self.expiring(today, &day(EXPIRING_WITHIN_DAYS))?,
            meal_slots_next_7_days: slots,
            meal_days_covered_next_7_days: days,
            shopping_open: self.count_where(Table::ShoppingList, "is_purchased")?,
            tasks_open: self.count_where(Table::Tasks, "completed")?,
        })
    }

    /// Counts by one column, largest first; NULL counts as "unknown".
    fn grouped(&self, table: Table, column: &'static str) -> Result<Vec<NamedCount>> {
        if let Some(rows) = self.pg_rows(|d| d.grouped(table, column)) {
            return Ok(rows?
                .iter()
                .map(|r| NamedCount {
                    name: r.get(0),
                    count: count(r.get(1)),
                })
                .collect());
        }
        let sql = format!(
            "SELECT coalesce({column}, 'unknown'), count(*) FROM {} \
             GROUP BY 1 ORDER BY 2 DESC, 1",
            table.name()
        );
        let mut stmt = self.prepare(&sql)?;
        let rows = stmt.query_map([], |r| {
            Ok(NamedCount {
                name: r.get(0)?,
                count: r.get(1)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Meal-plan slots and the distinct days they cover, `from`..=`to`.
    fn plan_counts(&self, from: &str, to: &str) -> Result<(u32, u32)> {
        if let Some(rows) = self.pg_rows(|d| d.plan_counts(from, to)) {
            return Ok(rows?
                .first()
                .map_or((0, 0), |r| (count(r.get(0)), count(r.get(1)))));
        }
        Ok(self
            .prepare(
                "SELECT count(*), count(DISTINCT date) FROM meal_plans \
                 WHERE date >= ? AND date <= ?",
            )?
            .query_row([from, to], |r| Ok((r.get(0)?, r.get(1)?)))?)
    }

    /// Rows of `table` whose boolean `flag` is false (not NULL): open items.
    fn count_where(&self, table: Table, flag: &'static str) -> Result<u32> {
        let test = format!("{flag} = false");
        if let Some(rows) = self.pg_rows(|d| d.count(table, Some(&test))) {
            return Ok(rows?.first().map_or(0, |r| count(r.get(0))));
        }
        let sql = format!("SELECT count(*) FROM {} WHERE {flag} = 0", table.name());
        Ok(self.prepare(&sql)?.query_row([], |r| r.get(0))?)
    }

    /// "milk (2 days)" for every item expiring by `until` (expired included),
    /// soonest first.
    fn expiring(&self, today: Date, until: &str) -> Result<Vec<String>> {
        let mut found: Vec<(String, String)> = Vec::new();
        if let Some(rows) = self.pg_rows(|d| d.expiring(until)) {
            found.extend(rows?.iter().map(|r| (r.get(0), r.get(1))));
        } else {
            let mut stmt = self.prepare(
                "SELECT name, expiry_date FROM inventory \
                 WHERE expiry_date IS NOT NULL AND expiry_date <= ? ORDER BY expiry_date, rowid",
            )?;
            let rows = stmt.query_map([until], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?;
            for row in rows {
                found.push(row?);
            }
        }
        let mut out = Vec::new();
        for (name, date) in found {
            let days = date
                .parse::<Date>()
                .ok()
                .and_then(|d| today.until(d).ok())
                .map(|s| i64::from(s.get_days()));
            out.push(match days {
                Some(0) => format!("{name} (today)"),
                Some(1) => format!("{name} (1 day)"),
                Some(-1) => format!("{name} (expired 1 day ago)"),
                Some(n) if n < 0 => format!("{name} (expired {} days ago)", -n),
                Some(n) => format!("{name} ({n} days)"),
                None => format!("{name} ({date})"),
            });
        }
        Ok(out)
    }
}

/// A Postgres count as the dashboard keeps it.
fn count(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
