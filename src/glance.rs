//! The kitchen at a glance, the session context a Think prompt opens with:
//! the user's profile, their per-subdomain preferences, and a snapshot of
//! the kitchen.
//!
//! Plain data, below both of its users: the kitchen store computes it
//! (aggregate queries, `kitchen/dashboard.rs`) and the prompt builders
//! render it, so neither imports the other for it. Nothing here touches IO.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The user's profile (the `preferences` row).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Profile {
    pub dietary_restrictions: Vec<String>,
    pub allergies: Vec<String>,
    pub favorite_cuisines: Vec<String>,
    pub disliked_ingredients: Vec<String>,
    pub cooking_skill_level: String,
    pub household_adults: u32,
    pub household_kids: u32,
    pub household_babies: u32,
    pub nutrition_goals: Vec<String>,
    pub cooking_frequency: String,
    pub available_equipment: Vec<String>,
    pub time_budget_minutes: Option<u32>,
    pub preferred_complexity: String,
    pub planning_rhythm: String,
    pub current_vibes: Vec<String>,
}

/// A count under a name: "indian: 3", "pantry: 36".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedCount {
    pub name: String,
    pub count: u32,
}

/// The kitchen at a glance, from aggregate queries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Dashboard {
    pub recipes_total: u32,
    /// Recipe counts by cuisine, largest first.
    pub recipes_by_cuisine: Vec<NamedCount>,
    pub inventory_total: u32,
    /// Inventory counts by location, largest first.
    pub inventory_by_location: Vec<NamedCount>,
    /// Inventory items expiring within 3 days: "paneer (2 days)".
    pub expiring_soon: Vec<String>,
    /// Meal-plan slots planned in the next 7 days (today included).
    pub meal_slots_next_7_days: u32,
    /// Distinct days with at least one slot in the next 7 days.
    pub meal_days_covered_next_7_days: u32,
    pub shopping_open: u32,
    pub tasks_open: u32,
}

/// Everything `<session_context>` shows.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionContext {
    /// Today's date, `YYYY-MM-DD`.
    pub today: String,
    pub profile: Profile,
    /// Guidance per subdomain in the user's words ("meal_plans" → "I cook…").
    pub preferences: BTreeMap<String, String>,
    pub dashboard: Dashboard,
}
