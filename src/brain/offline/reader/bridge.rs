//! Stage 5 of the switch: a reading handed to the skills that carry it out,
//! as the typed ask each skill already takes. One function, one arm a kind
//! of act; nothing here reads words.

use crate::brain::offline::items::Item;
use crate::brain::offline::lexicon::Intent;
use crate::brain::offline::quantity::Quantity;
use crate::brain::offline::several::Part;
use crate::brain::offline::skills::planning::{Ask as PlanningAsk, Slot};
use crate::brain::offline::skills::recipes::{
    Ask as RecipesAsk, Detail as RecipeDetail, Which as RecipeWhich,
};
use crate::brain::offline::skills::shopping::Ask as ShoppingAsk;
use crate::brain::offline::skills::stock::{Ask as StockAsk, Used};
use crate::brain::offline::skills::tasks::Ask as TasksAsk;
use crate::brain::offline::skills::when::Day;
use crate::brain::offline::skills::{Named, SkillAsk};
use crate::brain::offline::text::weekday_index;

use super::acts::{Act, ItemSaid};

/// The intent the skills carry out for these acts; several acts are
/// several parts, each with its own words.
pub fn intent_of(acts: &[Act]) -> Intent {
    // Recipes on days are one plan, however many.
    if acts.len() > 1 && acts.iter().all(|a| matches!(a, Act::PlanPut { .. })) {
        let slots = acts
            .iter()
            .flat_map(|a| match intent_of_act(a) {
                Intent::Skill(SkillAsk::Planning(PlanningAsk::Put { slots })) => slots,
                _ => Vec::new(),
            })
            .collect();
        return Intent::Skill(SkillAsk::Planning(PlanningAsk::Put { slots }));
    }
    // Beside other requests, the recipes put on days are still one plan,
    // where the first of them is said.
    let puts: Vec<&Act> = acts
        .iter()
        .filter(|a| matches!(a, Act::PlanPut { .. }))
        .collect();
    if puts.len() > 1 && puts.len() < acts.len() {
        let mut parts: Vec<Part> = Vec::new();
        let mut planned = false;
        for a in acts {
            match a {
                Act::PlanPut { .. } if planned => {}
                Act::PlanPut { .. } => {
                    planned = true;
                    let owned: Vec<Act> = puts.iter().map(|p| (*p).clone()).collect();
                    parts.push(Part {
                        words: super::acts::describe_all(&owned).join(" and "),
                        intent: intent_of(&owned),
                    });
                }
                other => parts.push(Part {
                    words: other.describe(),
                    intent: intent_of_act(other),
                }),
            }
        }
        return Intent::Several(parts);
    }
    match acts {
        [one] => intent_of_act(one),
        many => Intent::Several(
            many.iter()
                .map(|a| Part {
                    words: a.describe(),
                    intent: intent_of_act(a),
                })
                .collect(),
        ),
    }
}

/// An item as the skills name one they read themselves: the stock's rows
/// singular ("egg"), the list's as the words read ("eggs").
fn item(i: &ItemSaid) -> Item {
    let singular = crate::context::taxonomy::singular(&i.name.to_lowercase());
    stated(i, singular)
}

fn listed(i: &ItemSaid) -> Item {
    let words: Vec<String> = i
        .name
        .to_lowercase()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let name = crate::brain::offline::items::parse_item(&words)
        .map(|p| p.name)
        .unwrap_or_else(|| crate::context::taxonomy::singular(&i.name.to_lowercase()));
    stated(i, name)
}

fn stated(i: &ItemSaid, name: String) -> Item {
    Item {
        name: name.clone(),
        quantity: i.quantity,
        unit: i.unit.clone(),
        phrase: i.describe(),
        more: false,
        amount: match i.quantity {
            Some(q) if i.unit.as_deref() == Some("share") => Quantity::Share { of: q },
            Some(q) => Quantity::Amount {
                quantity: q,
                unit: i.unit.clone(),
            },
            None => Quantity::Unsaid,
        },
    }
}

/// A day's key as the skills' day.
pub fn day(key: &str) -> Option<Day> {
    match key {
        "today" => Some(Day::Today),
        "tomorrow" => Some(Day::Tomorrow),
        k if k.starts_with("of_month_") => k["of_month_".len()..].parse().ok().map(Day::OfMonth),
        k if k.starts_with("in_days_") => k["in_days_".len()..].parse().ok().map(Day::InDays),
        k if k.starts_with("after_") => {
            let (a, n) = k["after_".len()..].split_once('_')?;
            Some(Day::After(weekday_index(a)?, n.parse().ok()?))
        }
        k if k.starts_with("in_month_") => {
            let (m, n) = k["in_month_".len()..].split_once('_')?;
            Some(Day::InMonth(m.parse().ok()?, n.parse().ok()?))
        }
        k if k.starts_with("dated_") => {
            let (w, n) = k["dated_".len()..].split_once('_')?;
            Some(Day::Dated(weekday_index(w)?, n.parse().ok()?))
        }
        k => match k.strip_prefix("next_") {
            Some(d) => weekday_index(d).map(Day::NextWeek),
            None => weekday_index(k).map(Day::Weekday),
        },
    }
}

/// A question about one saved recipe, named whole.
fn about(recipe: &str, what: RecipeDetail) -> Intent {
    about_for(recipe, what, None)
}

/// A question about one saved recipe at the servings said.
fn about_for(recipe: &str, what: RecipeDetail, servings: Option<u32>) -> Intent {
    Intent::Skill(SkillAsk::Recipes(RecipesAsk::About {
        which: RecipeWhich::Titled(recipe.to_string()),
        what,
        servings,
    }))
}

fn named(rows: &[String]) -> Vec<Named> {
    rows.iter().map(|r| Named::item(r)).collect()
}

/// A task's words, as the tasks skill finds one by them.
fn task_words(tasks: &[String]) -> Vec<String> {
    tasks
        .iter()
        .flat_map(|t| {
            t.to_lowercase()
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn intent_of_act(a: &Act) -> Intent {
    use Intent::Skill;
    match a {
        Act::ShoppingAdd { items } => Skill(SkillAsk::Shopping(ShoppingAsk::Add {
            items: items.iter().map(listed).collect(),
            amount: None,
        })),
        Act::InventoryAdd { items, place } => {
            Intent::InventoryAdd(items.iter().map(item).collect(), place.clone())
        }
        Act::ShoppingRemove { rows } => Skill(SkillAsk::Shopping(ShoppingAsk::Remove {
            items: named(rows),
        })),
        Act::ShoppingClear { .. } => Skill(SkillAsk::Shopping(ShoppingAsk::ClearAll)),
        Act::ShoppingBought { rows } => Skill(SkillAsk::Shopping(ShoppingAsk::MarkBought {
            items: named(rows),
        })),
        Act::StockUse { items } => Skill(SkillAsk::Stock(StockAsk::Use {
            items: items
                .iter()
                .map(|i| Used {
                    item: Named::item(&i.name),
                    amount: item(i).amount,
                })
                .collect(),
        })),
        Act::StockRemove { rows } => {
            let whole = |r: &String| ItemSaid {
                name: r.clone(),
                quantity: None,
                unit: None,
            };
            Intent::InventoryRemove(rows.iter().map(|r| item(&whole(r))).collect())
        }
        Act::StockMovePart {
            row,
            quantity,
            unit,
            to,
        } => Skill(SkillAsk::Stock(StockAsk::MovePart {
            item: Named::item(row),
            quantity: *quantity,
            unit: unit.clone(),
            to: to.clone(),
        })),
        Act::ExpirySet { row, day: said } => match day(said) {
            Some(d) => Skill(SkillAsk::Stock(StockAsk::SetExpiry {
                item: Named::item(row),
                day: d,
            })),
            None => Intent::Unknown,
        },
        Act::StockSet {
            row,
            quantity,
            unit,
        } => Skill(SkillAsk::Stock(StockAsk::Set {
            item: if row.is_empty() {
                Named::Shown
            } else {
                Named::item(row)
            },
            quantity: *quantity,
            unit: unit.clone(),
        })),
        Act::StockMove { rows, to } => Skill(SkillAsk::Stock(StockAsk::Move {
            items: named(rows),
            to: to.clone(),
        })),
        Act::SaveRecipe { .. } => Intent::Save,
        Act::PlanPut {
            recipe, days, meal, ..
        } => Skill(SkillAsk::Planning(PlanningAsk::Put {
            slots: days
                .iter()
                .filter_map(|d| day(d))
                .map(|d| Slot {
                    recipe: crate::brain::offline::link::named(recipe),
                    day: d,
                    meal: meal.clone(),
                })
                .collect(),
        })),
        Act::PlanMove { recipe, from, to } => match day(to) {
            Some(to) => Skill(SkillAsk::Planning(PlanningAsk::Move {
                from: from.as_deref().and_then(day),
                to,
                recipe: recipe.clone(),
            })),
            None => Intent::Unknown,
        },
        Act::PlanExchange { days, meal } => match days.as_slice() {
            [a, b] => match (day(a), day(b)) {
                (Some(a), Some(b)) => Skill(SkillAsk::Planning(PlanningAsk::Exchange {
                    days: (a, b),
                    meal: meal.clone(),
                })),
                _ => Intent::Unknown,
            },
            _ => Intent::Unknown,
        },
        Act::PlanRemove { days, meal, recipe } => Skill(SkillAsk::Planning(PlanningAsk::Remove {
            days: days.iter().filter_map(|d| day(d)).collect(),
            meal: meal.clone(),
            recipe: (!recipe.is_empty()).then(|| recipe.clone()),
        })),
        Act::TaskAdd { title, day: due } => Skill(SkillAsk::Tasks(TasksAsk::Add {
            title: title.clone(),
            due: due.as_deref().and_then(day),
        })),
        Act::TaskDone { tasks } => Skill(SkillAsk::Tasks(TasksAsk::Done {
            about: task_words(tasks),
        })),
        Act::TaskRemove { tasks } => Skill(SkillAsk::Tasks(TasksAsk::Delete {
            about: task_words(tasks),
        })),
        Act::TaskMove { task, day: due } => match day(due) {
            Some(due) => Skill(SkillAsk::Tasks(TasksAsk::Move {
                about: task_words(std::slice::from_ref(task)),
                due,
            })),
            None => Intent::Unknown,
        },
        Act::ShowTasks => Skill(SkillAsk::Tasks(TasksAsk::List {
            window: crate::brain::offline::skills::tasks::Window::All,
            about: Vec::new(),
        })),
        Act::ShowShopping => Skill(SkillAsk::Shopping(ShoppingAsk::Show)),
        Act::ShowPlan { days } if !days.is_empty() => {
            Skill(SkillAsk::Planning(PlanningAsk::Look {
                days: days.iter().filter_map(|d| day(d)).collect(),
                next_week: false,
            }))
        }
        Act::ShowPlan { .. } => Intent::ShowPlan,
        Act::ShowStock { place } => Intent::Pantry(place.clone()),
        Act::HowMuch { items } => Skill(SkillAsk::Stock(StockAsk::HowMuch {
            items: named(items),
            location: None,
        })),
        Act::ExpiryOf { items } => Skill(SkillAsk::Stock(StockAsk::ExpiryOf {
            items: named(items),
        })),
        Act::Expiring { place } => Skill(SkillAsk::Stock(StockAsk::Expiring {
            location: place.clone(),
        })),
        Act::ShowRecipe { .. } => Intent::Show,
        Act::ListRecipes => Intent::ListRecipes,
        Act::FindRecipes { word } => Skill(SkillAsk::Recipes(RecipesAsk::Find(
            crate::brain::offline::skills::recipes::Find {
                words: vec![word.clone()],
                ..Default::default()
            },
        ))),
        Act::RecipesWith { food } => Intent::FindByIngredient(food.clone()),
        Act::WhatCanIMake { .. } => Intent::WhatCanIMake,
        Act::RecipeMissing { recipe, servings } => {
            about_for(recipe, RecipeDetail::Missing, *servings)
        }
        Act::ShoppingMissing { recipe } => Skill(SkillAsk::Shopping(ShoppingAsk::Missing {
            which: if recipe.is_empty() {
                RecipeWhich::Shown
            } else {
                RecipeWhich::Titled(recipe.clone())
            },
        })),
        Act::RecipeTime { recipe } => about(recipe, RecipeDetail::Time),
        Act::RecipeAmount {
            recipe,
            food,
            servings,
        } => about_for(recipe, RecipeDetail::AmountOf(food.clone()), *servings),
        Act::RecipeSpicy { recipe } => about(recipe, RecipeDetail::Spicy),
        Act::RecipeServes { recipe } => about(recipe, RecipeDetail::Serves),
        Act::RecipeCooked { recipe, servings } => Skill(SkillAsk::Stock(StockAsk::Cooked {
            recipe: recipe.clone(),
            servings: *servings,
        })),
        Act::Greeting => Intent::Talk(crate::brain::offline::skills::talk::Ask::Greeting),
        Act::Thanks => Intent::Talk(crate::brain::offline::skills::talk::Ask::Thanks),
        Act::Yes => Intent::Talk(crate::brain::offline::skills::talk::Ask::Affirm),
        Act::No => Intent::Talk(crate::brain::offline::skills::talk::Ask::Decline),
        Act::RuleOut { rules } => Intent::Exclude(rules.clone()),
        Act::Help => Intent::Talk(crate::brain::offline::skills::talk::Ask::Help),
    }
}
