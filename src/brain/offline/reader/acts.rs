//! The reader's vocabulary of acts: what one request asks for, typed, with
//! the kitchen's own names filled in. The grammar yields these; the
//! dialogue policy decides over them; [`super::bridge`] hands them to the
//! skills that carry them out.

use serde::{Deserialize, Serialize};

/// The kinds of request the grammar has frames for (`assets/lexicon.toml`
/// names them), plus the talk the reader knows without a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActKind {
    ShoppingAdd,
    InventoryAdd,
    ShoppingRemove,
    ShoppingClear,
    ShoppingKeepOnly,
    ShoppingBought,
    StockUse,
    StockRemove,
    StockMove,
    StockSet,
    ExpirySet,
    SaveRecipe,
    Amend,
    PlanPut,
    PlanMove,
    PlanExchange,
    PlanRemove,
    TaskAdd,
    TaskDone,
    TaskRemove,
    TaskMove,
    ShowTasks,
    ShowShopping,
    ShowPlan,
    ShowStock,
    HowMuch,
    ExpiryOf,
    Expiring,
    ShowRecipe,
    ListRecipes,
    RecipesWith,
    WhatCanIMake,
    RecipeMissing,
    ShoppingMissing,
    RecipeTime,
    RecipeAmount,
    RecipeSpicy,
    RecipeServes,
    RecipeCooked,
}

/// A food as said: its name (a row's, or the user's words), and how much.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemSaid {
    pub name: String,
    pub quantity: Option<f64>,
    pub unit: Option<String>,
}

impl ItemSaid {
    /// "4 lemons", "2 can chickpeas", "eggs".
    pub fn describe(&self) -> String {
        let n = crate::brain::offline::text::fmt_number;
        match (self.quantity, &self.unit) {
            // A share of the row: "half the coconut oil".
            (Some(q), Some(u)) if u == "share" && (q - 0.5).abs() < 1e-9 => {
                format!("half the {}", self.name)
            }
            (Some(q), Some(u)) if u == "share" => format!("{} of the {}", n(q), self.name),
            (Some(q), Some(u)) => format!("{} {u} {}", n(q), self.name),
            (Some(q), None) => format!("{} {}", n(q), self.name),
            _ => self.name.clone(),
        }
    }
}

/// What "what can i make" is narrowed to: "under 30 min", "without buying
/// anything", "nothing spicy".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MakeFilter {
    /// At most this many minutes, prep and cook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// Only what the kitchen holds every ingredient of.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stocked: bool,
    /// Nothing with a hot chili or pepper.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mild: bool,
}

impl MakeFilter {
    /// True when nothing narrows the list.
    pub fn is_empty(&self) -> bool {
        *self == MakeFilter::default()
    }
}

/// One request, read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "act")]
pub enum Act {
    ShoppingAdd {
        items: Vec<ItemSaid>,
    },
    InventoryAdd {
        items: Vec<ItemSaid>,
        /// "in the fridge".
        place: Option<String>,
    },
    ShoppingRemove {
        rows: Vec<String>,
    },
    ShoppingClear {
        rows: Vec<String>,
    },
    ShoppingBought {
        rows: Vec<String>,
    },
    StockUse {
        items: Vec<ItemSaid>,
    },
    /// Rows thrown out or gone: taken off the stock whole.
    StockRemove {
        rows: Vec<String>,
    },
    /// Rows moved whole to another place in the kitchen.
    StockMove {
        rows: Vec<String>,
        to: String,
    },
    /// What a row holds, said afresh ("set the yogurt to 240 g"); an
    /// empty row is the one the last reply showed.
    StockSet {
        row: String,
        quantity: f64,
        unit: Option<String>,
    },
    /// "the milk goes off on the 14th", "set the coriander's expiry to
    /// 2026-01-14": the row's use-by date, said afresh.
    /// "took 2 of the chicken thighs out of the freezer into the
    /// fridge": part of one row, to another place.
    StockMovePart {
        row: String,
        quantity: f64,
        unit: Option<String>,
        to: String,
    },
    ExpirySet {
        row: String,
        day: String,
    },
    /// A draft recipe kept among the saved ones.
    SaveRecipe {
        recipe: String,
    },
    PlanPut {
        recipe: String,
        days: Vec<String>,
        meal: Option<String>,
        /// "for 6 people", when said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        servings: Option<u32>,
    },
    /// A planned meal moved to another day: named by its recipe's words
    /// or the day it is on.
    PlanMove {
        recipe: Option<Vec<String>>,
        from: Option<String>,
        to: String,
    },
    /// Two days trade their planned meals.
    PlanExchange {
        days: Vec<String>,
        meal: Option<String>,
    },
    PlanRemove {
        days: Vec<String>,
        meal: Option<String>,
        /// The words of the recipe said with the slot, if any: the slot
        /// must hold it.
        recipe: Vec<String>,
    },
    TaskAdd {
        title: String,
        day: Option<String>,
    },
    TaskDone {
        tasks: Vec<String>,
    },
    /// A task deleted, not done.
    TaskRemove {
        tasks: Vec<String>,
    },
    /// A task given another day.
    TaskMove {
        task: String,
        day: String,
    },
    /// The open tasks.
    ShowTasks,
    ShowShopping,
    ShowPlan {
        days: Vec<String>,
    },
    ShowStock {
        place: Option<String>,
    },
    HowMuch {
        items: Vec<String>,
    },
    /// When named rows go off ("when does the paneer go off").
    ExpiryOf {
        items: Vec<String>,
    },
    Expiring {
        place: Option<String>,
    },
    ShowRecipe {
        recipe: String,
    },
    ListRecipes,
    /// "show me the curries": the saved recipes a kind word names.
    FindRecipes {
        word: String,
    },
    RecipesWith {
        food: String,
    },
    WhatCanIMake {
        #[serde(default)]
        within: MakeFilter,
    },
    /// What a saved recipe needs that the kitchen lacks.
    RecipeMissing {
        recipe: String,
        /// At how many servings ("at 3 servings"), when said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        servings: Option<u32>,
    },
    /// What a saved recipe needs that the kitchen lacks, put on the
    /// shopping list ("add whats missing for the wings"). An empty name is
    /// the recipe another part of the message plans, or the one the talk
    /// is about.
    ShoppingMissing {
        recipe: String,
    },
    /// How long a saved recipe takes.
    RecipeTime {
        recipe: String,
    },
    /// How much of a food a saved recipe takes (none, when it does not).
    RecipeAmount {
        recipe: String,
        food: String,
        /// At how many servings ("enough yogurt for the tikka for 6"),
        /// when said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        servings: Option<u32>,
    },
    /// How hot a saved recipe is.
    RecipeSpicy {
        recipe: String,
    },
    /// How many a saved recipe serves.
    RecipeServes {
        recipe: String,
    },
    /// A saved recipe cooked: what it used taken out of the stock, at the
    /// servings said.
    RecipeCooked {
        recipe: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        servings: Option<u32>,
    },
    /// A standing rule: what the household does not eat (or keeps to),
    /// each with how it was said.
    RuleOut {
        rules: Vec<crate::brain::offline::items::Exclusion>,
    },
    Greeting,
    Thanks,
    Yes,
    No,
    Help,
}

impl Act {
    /// True when carrying the act out changes the kitchen.
    pub fn writes(&self) -> bool {
        matches!(
            self,
            Act::ShoppingAdd { .. }
                | Act::InventoryAdd { .. }
                | Act::ShoppingRemove { .. }
                | Act::ShoppingClear { .. }
                | Act::ShoppingBought { .. }
                | Act::StockUse { .. }
                | Act::RecipeCooked { .. }
                | Act::StockRemove { .. }
                | Act::StockMove { .. }
                | Act::StockSet { .. }
                | Act::ExpirySet { .. }
                | Act::StockMovePart { .. }
                | Act::SaveRecipe { .. }
                | Act::PlanPut { .. }
                | Act::PlanRemove { .. }
                | Act::PlanMove { .. }
                | Act::PlanExchange { .. }
                | Act::TaskAdd { .. }
                | Act::TaskDone { .. }
                | Act::TaskRemove { .. }
                | Act::TaskMove { .. }
                | Act::ShoppingMissing { .. }
        )
    }

    /// What the act would do, as a question's clause: "add 4 lemons to the
    /// shopping list", "clear all 5 items from the shopping list".
    pub fn describe(&self) -> String {
        use crate::brain::offline::text::{join_list, plural};
        let items = |v: &[ItemSaid]| {
            join_list(&v.iter().map(ItemSaid::describe).collect::<Vec<_>>(), "and")
        };
        let names = |v: &[String]| join_list(v, "and");
        match self {
            Act::ShoppingAdd { items: v } => format!("add {} to the shopping list", items(v)),
            Act::InventoryAdd { items: v, place } => format!(
                "add {} to {}",
                items(v),
                place
                    .as_ref()
                    .map_or("the kitchen's stock".to_string(), |p| format!("the {p}"))
            ),
            Act::ShoppingRemove { rows } => {
                format!("take {} off the shopping list", names(rows))
            }
            Act::ShoppingClear { rows } => format!(
                "clear {} from the shopping list ({})",
                match rows.len() {
                    1 => "the one item".to_string(),
                    n => format!("all {}", plural(n, "item")),
                },
                names(rows)
            ),
            Act::ShoppingBought { rows } => format!("tick {} off as bought", names(rows)),
            Act::StockUse { items: v } => format!("take {} out of the stock", items(v)),
            Act::StockRemove { rows } => format!("take {} off the stock", names(rows)),
            Act::StockMove { rows, to } => format!("move {} to the {to}", names(rows)),
            Act::StockSet {
                row,
                quantity,
                unit,
            } => format!(
                "set {} to {}{}",
                if row.is_empty() { "that" } else { row },
                crate::brain::offline::text::fmt_number(*quantity),
                unit.as_ref().map(|u| format!(" {u}")).unwrap_or_default()
            ),
            Act::StockMovePart {
                row,
                quantity,
                unit,
                to,
            } => format!(
                "move {} of the {row} to the {to}",
                ItemSaid {
                    name: String::new(),
                    quantity: Some(*quantity),
                    unit: unit.clone(),
                }
                .describe()
                .trim_end()
            ),
            Act::ExpirySet { row, day } => {
                format!("set the use-by date of {row} to {}", day_words(day))
            }
            Act::SaveRecipe { recipe } => format!("save {recipe} to your recipes"),
            Act::PlanPut {
                recipe,
                days,
                meal,
                servings,
            } => format!(
                "put {recipe} on the plan for {}{}{}",
                names(&days.iter().map(|d| day_words(d)).collect::<Vec<_>>()),
                meal.as_ref().map(|m| format!(" ({m})")).unwrap_or_default(),
                servings
                    .map(|n| format!(" for {n} people"))
                    .unwrap_or_default()
            ),
            Act::PlanMove { recipe, from, to } => format!(
                "move {} to {}",
                match (recipe, from) {
                    (Some(r), _) => format!("the {}", r.join(" ")),
                    (None, Some(f)) => format!("{}'s meal", day_words(f)),
                    (None, None) => "the planned meal".into(),
                },
                day_words(to)
            ),
            Act::PlanExchange { days, .. } => format!(
                "swap the meals on {}",
                names(&days.iter().map(|d| day_words(d)).collect::<Vec<_>>())
            ),
            Act::PlanRemove { days, recipe, .. } if !recipe.is_empty() => format!(
                "take the {} off {}",
                recipe.join(" "),
                names(&days.iter().map(|d| day_words(d)).collect::<Vec<_>>())
            ),
            Act::PlanRemove { days, .. } => format!(
                "take {} off the plan",
                names(&days.iter().map(|d| day_words(d)).collect::<Vec<_>>())
            ),
            Act::TaskAdd { title, .. } => format!("add the task \"{title}\""),
            Act::TaskDone { tasks } => format!("tick off {}", names(tasks)),
            Act::TaskRemove { tasks } => format!("delete the task {}", names(tasks)),
            Act::TaskMove { task, day } => {
                format!("move the task {task} to {}", day_words(day))
            }
            Act::ShowTasks => "show your open tasks".into(),
            Act::ShowShopping => "show the shopping list".into(),
            Act::ShowPlan { .. } => "show the meal plan".into(),
            Act::ShowStock { place } => format!(
                "show what's in {}",
                place
                    .as_ref()
                    .map_or("the kitchen".to_string(), |p| format!("the {p}"))
            ),
            Act::HowMuch { items } => format!("look up how much {} there is", names(items)),
            Act::ExpiryOf { items } => format!("look up when {} goes off", names(items)),
            Act::Expiring { .. } => "show what goes off first".into(),
            Act::ShowRecipe { recipe } => format!("show {recipe}"),
            Act::ListRecipes => "list your saved recipes".into(),
            Act::FindRecipes { word } => format!("show the {word} recipes"),
            Act::RecipesWith { food } => format!("find the recipes that use {food}"),
            Act::WhatCanIMake { .. } => "find what you can make with what's in".into(),
            Act::RecipeMissing { recipe, .. } => {
                format!("check what {recipe} needs that you lack")
            }
            Act::ShoppingMissing { recipe } if recipe.is_empty() => {
                "put what the recipe is missing on the shopping list".into()
            }
            Act::ShoppingMissing { recipe } => {
                format!("put what {recipe} is missing on the shopping list")
            }
            Act::RecipeTime { recipe } => format!("say how long {recipe} takes"),
            Act::RecipeAmount { recipe, food, .. } => {
                format!("look up how much {food} {recipe} takes")
            }
            Act::RecipeSpicy { recipe } => format!("say how hot {recipe} is"),
            Act::RecipeServes { recipe } => format!("say how many {recipe} serves"),
            Act::RecipeCooked { recipe, .. } => {
                format!("take what {recipe} used out of the stock")
            }
            Act::RuleOut { rules } => format!(
                "keep {} as a rule",
                join_list(
                    &rules
                        .iter()
                        .map(|e| match e.how {
                            crate::brain::offline::items::Refusal::Requires => e.term.clone(),
                            _ => format!("no {}", e.term),
                        })
                        .collect::<Vec<_>>(),
                    "and"
                )
            ),
            Act::Greeting | Act::Thanks | Act::Yes | Act::No | Act::Help => String::new(),
        }
    }
}

/// What each act would do, in order, leaving out talk ("add eggs to the
/// shopping list", "put … on the plan for friday").
pub fn describe_all(acts: &[Act]) -> Vec<String> {
    acts.iter()
        .map(Act::describe)
        .filter(|s| !s.is_empty())
        .collect()
}

/// A day's key as words: "friday", "next friday", "the weekend".
pub fn day_words(key: &str) -> String {
    match key.strip_prefix("next_") {
        Some(d) => format!("next {d}"),
        None if key == "weekend" => "the weekend".into(),
        // "after_friday_3": the weekday that many days after the first.
        None if key.starts_with("after_") => {
            use crate::brain::offline::skills::when::Day;
            use crate::brain::offline::text::weekday_index;
            key["after_".len()..]
                .split_once('_')
                .and_then(|(a, n)| Some(Day::After(weekday_index(a)?, n.parse().ok()?)))
                .map_or_else(|| key.to_string(), |d| d.word().to_lowercase())
        }
        None if key == "in_days_2" => "the day after tomorrow".into(),
        None if key.starts_with("in_month_") => key["in_month_".len()..]
            .split_once('_')
            .and_then(|(m, n)| Some((m.parse().ok()?, n.parse().ok()?)))
            .map_or_else(
                || key.to_string(),
                |(m, n)| crate::brain::offline::skills::when::month_day_words(m, n),
            ),
        None if key.starts_with("in_days_") => format!("in {} days", &key["in_days_".len()..]),
        None => {
            let the = |d: &str| {
                d.parse().map(|n| {
                    format!(
                        "the {}",
                        crate::brain::offline::skills::when::ordinal_suffix(n)
                    )
                })
            };
            let said = match key.split_once('_') {
                Some(("of", rest)) => rest.strip_prefix("month_").and_then(|d| the(d).ok()),
                Some(("dated", rest)) => rest
                    .split_once('_')
                    .and_then(|(w, d)| the(d).ok().map(|t| format!("{w} {t}"))),
                _ => None,
            };
            said.unwrap_or_else(|| key.to_string())
        }
    }
}
