//! Think, the planner: turns the intent into a decision (propose, clarify or
//! plan) and at most a handful of steps.
//!
//! The rule that matters most: rows already active are never read again —
//! narrowing works over them with an analyze step, and a read of a table
//! part of which is loaded skips the loaded refs (`id not_in [...]`).
//! Profile-derived parts of a step (servings, what to avoid, the days) go
//! into its description, where Act reads them (see `hints.rs`).

use crate::context::Table;
use crate::pipeline::{Decision, StepType, ThinkOutput, ThinkRequest, ThinkStep};

use super::consent::permits_write;
use super::hints;
use super::lexicon::{GenerateAsk, Intent};
use super::options::same_item;
use super::plan::{cooking_days, days_phrase, meal_type_of, slot_days};
use super::reading::{Reading, after_understand};
use super::skills::{SkillAsk, shopping};
use super::text::{join_list, lower_first, weekday_name};
use super::think_ctx::{Ctx, clarify, plan, step};
use super::think_entities::{edit_plan, save_plan, show_plan, show_target_plan};
use super::world::{World, text_field};

/// Think's decision for one message.
pub fn decide(req: &ThinkRequest<'_>) -> ThinkOutput {
    let (world, reading, intent) = after_understand(
        req.input.user_message,
        req.input.snapshot,
        req.state,
        req.understand,
    );
    let ctx = Ctx {
        world,
        reading,
        session: req.input.session,
        referenced: &req.understand.referenced_entities,
    };
    let mut out = plan_for(&intent, &ctx);
    out.steps.truncate(req.input.max_steps.clamp(1, 8));
    let writes = out.decision == Decision::PlanDirect
        && out.steps.iter().any(|s| s.step_type == StepType::Write);
    // A name taken with the small words around it ("small one") is asked
    // about whatever consented to the change.
    let guessed = super::understand::guessed_names(&intent);
    if writes && (guessed || !permits_write(&ctx.reading) && !parts_permit(&ctx.reading, &out)) {
        return confirm_first(&intent, &out, &ctx);
    }
    out
}

/// A message of several requests whose every writing part asks for its
/// change in words ("paneer on wednesday, and whats quick for friday?").
fn parts_permit(reading: &Reading, out: &ThinkOutput) -> bool {
    let Intent::Several(parts) = &reading.intent else {
        return false;
    };
    parts.iter().enumerate().all(|(k, p)| {
        let writes = out
            .steps
            .iter()
            .any(|s| super::several::part_of(s.group) == k && s.step_type == StepType::Write);
        !writes || permits_write(&reading.part(p))
    })
}

/// A plan that would write although the message did not ask for a change
/// in words: nothing runs, Alfred asks first (a plain "yes" confirms).
fn confirm_first(intent: &Intent, planned: &ThinkOutput, c: &Ctx<'_>) -> ThinkOutput {
    // "add eggs" beside a recipe's card: the recipe, or the list? The yes
    // changes the recipe; the list is one message away, in words.
    if let Intent::Edit(op @ super::edits::EditOp::Add(items)) = intent
        && let Some(r) = c
            .referenced
            .iter()
            .find(|r| c.world.get(r).is_some_and(|e| e.e.table == Table::Recipes))
        && !items.is_empty()
    {
        let add = super::think_ctx::op_phrase(op);
        let label = c.world.label(r);
        return clarify(
            &planned.goal,
            format!(
                "Should I {add} to the recipe {label}? (For the shopping list, say “{add} to the shopping list”.)"
            ),
        );
    }
    if let Some(what) = named_change(intent, c) {
        return clarify(&planned.goal, format!("Should I {what}?"));
    }
    let question = match intent {
        Intent::InventoryAdd(items, _)
        | Intent::Skill(SkillAsk::Shopping(shopping::Ask::Add { items, .. }))
            if items.is_empty() =>
        {
            "What would you like me to add, and how much (like 6 eggs to the fridge)?".to_string()
        }
        _ => {
            let goal = lower_first(planned.goal.trim().trim_end_matches('.'));
            let goal = if goal.is_empty() {
                "make that change".to_string()
            } else {
                goal
            };
            format!("Should I {goal}?")
        }
    };
    clarify(&planned.goal, question)
}

/// The change asked about, with the rows it would touch named ("put Chai
/// French Toast on the plan for tomorrow (breakfast)", "take 2 egg out of
/// the inventory"); `None` when the intent names none.
fn named_change(intent: &Intent, c: &Ctx<'_>) -> Option<String> {
    use super::skills::{planning, stock, when::Day};
    let items = |v: &[super::items::Item]| {
        let said: Vec<String> = v
            .iter()
            .map(|i| match (i.quantity, &i.unit) {
                (Some(q), Some(u)) => format!("{} {u} {}", super::text::fmt_number(q), i.name),
                (Some(q), None) => format!("{} {}", super::text::fmt_number(q), i.name),
                _ => i.name.clone(),
            })
            .collect();
        (!said.is_empty()).then(|| join_list(&said, "and"))
    };
    // Rows named by their words; "it" or "them" leaves the question as
    // the goal words it.
    let named = |v: &[super::skills::Named]| {
        let said: Vec<String> = v
            .iter()
            .map(|n| match n {
                super::skills::Named::Item(w) => Some(w.clone()),
                super::skills::Named::Shown => None,
            })
            .collect::<Option<_>>()?;
        (!said.is_empty()).then(|| join_list(&said, "and"))
    };
    match intent {
        Intent::Skill(SkillAsk::Planning(planning::Ask::Put { slots })) => {
            let recipes: Vec<String> = c
                .world
                .of(crate::context::Table::Recipes)
                .map(|e| e.e.label.clone())
                .collect();
            let days: Vec<String> = slots
                .iter()
                .map(|s| {
                    let day = match s.day {
                        Day::Today => "today".to_string(),
                        Day::Tomorrow => "tomorrow".to_string(),
                        Day::Weekday(i) => weekday_name(i).to_string(),
                        Day::NextWeek(i) => format!("next {}", weekday_name(i)),
                        _ => return None,
                    };
                    Some(match &s.meal {
                        Some(m) => format!("{day} ({m})"),
                        None => day,
                    })
                })
                .collect::<Option<_>>()?;
            // The recipe Understand resolved, else the words it was named by.
            let overlap = |label: &String, words: &[String]| {
                let l = label.to_lowercase();
                words
                    .iter()
                    .filter(|w| w.len() > 2 && l.contains(w.as_str()))
                    .count()
            };
            let best = match slots.first().map(|s| &s.recipe) {
                Some(planning::Pick::Named(words)) => {
                    let top = recipes.iter().map(|r| overlap(r, words)).max().unwrap_or(0);
                    let at_top: Vec<&String> = recipes
                        .iter()
                        .filter(|r| top > 0 && overlap(r, words) == top)
                        .collect();
                    (at_top.len() == 1).then(|| at_top[0].clone())
                }
                _ => None,
            };
            // The one recipe the words name among those the talk has seen;
            // else "that", with the days still named.
            let referenced: Vec<&String> = c
                .referenced
                .iter()
                .filter(|r| r.starts_with("recipe_") || r.starts_with("gen_recipe_"))
                .collect();
            let recipe = best
                .or_else(|| match referenced.as_slice() {
                    [one] => Some(c.world.label(one)).filter(|l| !l.is_empty() && l != *one),
                    _ => None,
                })
                .unwrap_or_else(|| "that".to_string());
            let same = slots.iter().all(|s| s.recipe == slots[0].recipe);
            (same && !days.is_empty())
                .then(|| format!("put {recipe} on the plan for {}", join_list(&days, "and")))
        }
        Intent::Skill(SkillAsk::Shopping(shopping::Ask::Add { items: v, .. })) => {
            items(v).map(|i| format!("add {i} to the shopping list"))
        }
        Intent::InventoryAdd(v, place) => items(v).map(|i| {
            format!(
                "add {i} to {}",
                place
                    .as_deref()
                    .map_or("the stock".to_string(), |p| format!("the {p}"))
            )
        }),
        Intent::InventoryRemove(v) => items(v).map(|i| format!("take {i} off the stock")),
        Intent::Skill(SkillAsk::Shopping(shopping::Ask::Remove { items: v })) => {
            named(v).map(|i| format!("take {i} off the shopping list"))
        }
        Intent::Skill(SkillAsk::Shopping(shopping::Ask::MarkBought { items: v })) => {
            named(v).map(|i| format!("mark {i} on the shopping list as bought"))
        }
        Intent::Skill(SkillAsk::Stock(stock::Ask::Use { items: used })) => {
            use super::quantity::Quantity;
            let said: Vec<String> = used
                .iter()
                .map(|u| {
                    let name = match &u.item {
                        super::skills::Named::Item(n) => n.clone(),
                        super::skills::Named::Shown => return None,
                    };
                    Some(match &u.amount {
                        Quantity::Amount { quantity, unit } => format!(
                            "{}{} of the {name}",
                            super::text::fmt_number(*quantity),
                            unit.as_ref().map(|u| format!(" {u}")).unwrap_or_default()
                        ),
                        Quantity::All | Quantity::Unsaid => format!("all of the {name}"),
                        _ => return None,
                    })
                })
                .collect::<Option<_>>()?;
            (!said.is_empty()).then(|| format!("take {} out of the stock", join_list(&said, "and")))
        }
        _ => None,
    }
}

/// Each part planned by its own rules, its steps in its own groups (part
/// `k` in `k * PART_GROUPS ..`), one after the other. A part that must ask
/// first asks for the whole message.
fn several_plan(parts: &[super::several::Part], c: &Ctx<'_>) -> ThinkOutput {
    use super::several::PART_GROUPS;
    let mut goals: Vec<String> = Vec::new();
    let mut steps: Vec<ThinkStep> = Vec::new();
    for (k, p) in parts.iter().enumerate() {
        let ctx = Ctx {
            world: World::new(c.world.state, c.world.turn),
            reading: c.reading.part(p),
            session: c.session,
            referenced: c.referenced,
        };
        let out = plan_for(&p.intent, &ctx);
        if out.decision != Decision::PlanDirect {
            return out;
        }
        let offset = k as u32 * PART_GROUPS;
        // A read an earlier part made of a table none of them has written
        // since is not made again (its rows are in working memory): the
        // turn's steps are few.
        let fresh: Vec<ThinkStep> = out
            .steps
            .into_iter()
            .filter(|s| {
                s.step_type != StepType::Read
                    || !steps.iter().any(|e| {
                        e.step_type == StepType::Read
                            && e.subdomain == s.subdomain
                            && e.description == s.description
                    })
                    || steps
                        .iter()
                        .any(|e| e.step_type == StepType::Write && e.subdomain == s.subdomain)
            })
            .collect();
        steps.extend(fresh.into_iter().map(|mut s| {
            s.group = offset + s.group.min(PART_GROUPS - 1);
            s
        }));
        let goal = out.goal.trim().trim_end_matches('.');
        if !goal.is_empty() {
            // "…; then add to the shopping list".
            goals.push(if goals.is_empty() {
                goal.to_string()
            } else {
                lower_first(goal)
            });
        }
    }
    plan(&goals.join("; then "), steps)
}

fn plan_for(intent: &Intent, c: &Ctx<'_>) -> ThinkOutput {
    match intent {
        // A decline: the goal the Narrative panel shows says so.
        Intent::Unknown
            if c.reading
                .declined
                .as_ref()
                .is_some_and(|d| !d.rule.is_empty()) =>
        {
            plan(
                "Keep no rule the message may not state; ask whether to keep it",
                vec![],
            )
        }
        Intent::Unknown if c.reading.declined.is_some() => plan(
            "Say which words could not be read, change nothing, offer what can be done here",
            vec![],
        ),
        Intent::Empty | Intent::Unknown => {
            plan("Tell the user what the offline brain can do", vec![])
        }
        Intent::Talk(ask) => super::skills::talk::plan(ask),
        Intent::Several(parts) => several_plan(parts, c),
        Intent::Vague(v) => {
            let focus = super::reading::focused_recipe(&c.world).map(|r| c.world.label(&r));
            let shown: Vec<String> = c
                .reading
                .before
                .dialogue
                .presented
                .iter()
                .map(|s| s.label.clone())
                .collect();
            clarify(
                "Ask what the user means",
                super::vague::question(*v, focus.as_deref(), &shown),
            )
        }
        Intent::Skill(ask) => super::skills::plan(ask, c),
        Intent::Memory(ask) => super::skills::memory::plan_for(ask, c),
        Intent::PlanMeals => propose(c),
        Intent::ListRecipes => options_plan(c, "Show the saved recipes", true),
        Intent::Include => options_plan(c, "Bring the recipe back into the options", false),
        Intent::Exclude(ex) => {
            let (kept, out): (Vec<_>, Vec<_>) = ex
                .iter()
                .partition(|e| e.how == super::items::Refusal::Requires);
            let names = |v: &[&super::items::Exclusion]| {
                join_list(&v.iter().map(|e| e.term.clone()).collect::<Vec<_>>(), "and")
            };
            let goal = match (kept.is_empty(), out.is_empty()) {
                (true, _) => format!("Leave out {} and show what's left", names(&out)),
                (false, true) => format!("Keep to {} and show what fits", names(&kept)),
                (false, false) => format!(
                    "Keep to {}, leave out {} and show what fits",
                    names(&kept),
                    names(&out)
                ),
            };
            options_plan(c, &goal, false)
        }
        Intent::Assign => assign_plan(c),
        Intent::ShowPlan => show_plan(c),
        Intent::Save => save_plan(c),
        Intent::Edit(op) => edit_plan(c, op),
        Intent::Show => show_target_plan(c),
        Intent::Pantry(loc) => pantry_plan(c, loc.as_deref()),
        Intent::HaveItem(item) => {
            let all = c.session.dashboard.inventory_total as usize;
            let kind = if all > 0 && c.world.loaded(Table::Inventory).len() >= all {
                StepType::Analyze
            } else {
                StepType::Read
            };
            let d = format!("Look for {item} in the inventory");
            plan(
                &format!("Check for {item} in the kitchen"),
                vec![step(d, kind, "inventory", 0)],
            )
        }
        Intent::InventoryAdd(items, loc) => {
            let names: Vec<String> = items.iter().map(|i| i.phrase.clone()).collect();
            let place = loc
                .as_deref()
                .map_or("the kitchen".to_string(), |l| format!("the {l}"));
            let d = format!("Add {} to {place}", join_list(&names, "and"));
            // What the kitchen already holds is topped up, not doubled.
            let mut steps = Vec::new();
            let named: Vec<String> = items.iter().map(|i| i.name.clone()).collect();
            if !stock_known(c, &named, loc.as_deref()) {
                let what = join_list(
                    &items.iter().map(|i| i.name.clone()).collect::<Vec<_>>(),
                    "and",
                );
                steps.push(step(
                    format!("Look up {what} in the inventory"),
                    StepType::Read,
                    "inventory",
                    0,
                ));
            }
            let g = steps.len() as u32;
            steps.push(step(d.clone(), StepType::Write, "inventory", g));
            plan(&d, steps)
        }
        Intent::InventoryRemove(items) => {
            let names: Vec<String> = items.iter().map(|i| i.name.clone()).collect();
            let d = format!("Remove {} from the inventory", join_list(&names, "and"));
            let mut steps = Vec::new();
            if !stock_known(c, &names, None) {
                steps.push(step(
                    format!("Find {} in the inventory", join_list(&names, "and")),
                    StepType::Read,
                    "inventory",
                    0,
                ));
            }
            let g = steps.len() as u32;
            steps.push(step(d.clone(), StepType::Write, "inventory", g));
            plan(&d, steps)
        }
        Intent::ShoppingMissing => shopping_missing_plan(c),
        Intent::WhatCanIMake => options_plan(
            c,
            "Find what can be cooked with what's in the kitchen",
            true,
        ),
        Intent::FindByIngredient(x) => find_plan(c, x),
        Intent::Generate(ask) => generate_plan(c, ask),
    }
}

/// True when working memory knows the kitchen well enough to change these
/// items without reading it: each is loaded, or a listing was shown (the
/// pantry, or the place named). After a couple of items asked about ("any
/// brioche left?") it is not, and the items are looked up first.
fn stock_known(c: &Ctx<'_>, names: &[String], place: Option<&str>) -> bool {
    const LISTING: usize = 10;
    let loaded = c.world.loaded(Table::Inventory);
    // A place counts as listed when every row it holds (the dashboard's
    // count) is loaded, not when one row of it was read for another reason
    // ("used a can of coconut milk" reads one pantry row).
    let place_listed = place.is_some_and(|l| {
        let there = loaded
            .iter()
            .filter(|(_, row)| text_field(row, "location") == Some(l))
            .count();
        let holds = c
            .session
            .dashboard
            .inventory_by_location
            .iter()
            .find(|n| n.name == l)
            .map_or(usize::MAX, |n| n.count as usize);
        there >= holds
    });
    let each_loaded = names.iter().all(|n| {
        loaded
            .iter()
            .any(|(_, row)| same_item(text_field(row, "name").unwrap_or_default(), n))
    });
    loaded.len() >= LISTING || place_listed || each_loaded
}

/// Turn 1 of meal planning: ask how, using the profile.
fn propose(c: &Ctx<'_>) -> ThinkOutput {
    let p = &c.session.profile;
    let days = cooking_days(p, &c.session.preferences);
    let mut likes = Vec::new();
    if !p.preferred_complexity.is_empty() {
        likes.push(p.preferred_complexity.clone());
    }
    if !p.cooking_skill_level.is_empty() {
        likes.push(format!("{}-friendly", p.cooking_skill_level));
    }
    let mut first = if days.is_empty() {
        "Let's plan the week".to_string()
    } else {
        format!("You usually cook on {}", days_phrase(&days))
    };
    if !likes.is_empty() {
        first.push_str(&format!(", and you like {} meals", likes.join(", ")));
    }
    if hints::wants_leftovers(c.session) {
        first.push_str(" with leftovers for lunch");
    }
    let saved = match c.session.dashboard.recipes_total {
        0 => String::new(),
        n => format!(" (you have {n})"),
    };
    let message =
        format!("{first}. Want to pick from your saved recipes{saved}, or try something new?");
    ThinkOutput {
        goal: "Plan meals for the week".to_string(),
        decision: Decision::Propose,
        proposal_message: Some(message),
        ..ThinkOutput::default()
    }
}

/// Saved recipes loaded as active rows (refs with a row id).
fn saved_loaded(w: &World<'_>, table: Table) -> usize {
    w.loaded(table)
        .iter()
        .filter(|(r, _)| w.get(r).is_some_and(|e| e.e.row_id.is_some()))
        .count()
}

/// Options: analyze what is loaded; read only what is missing.
fn options_plan(c: &Ctx<'_>, goal: &str, want_all: bool) -> ThinkOutput {
    let loaded = saved_loaded(&c.world, Table::Recipes);
    let narrowing = !want_all || !c.reading.lists_everything();
    // Recipes back in working memory whose rows were let go (a lifted
    // constraint brought them back) must be read again.
    let unloaded = c
        .world
        .active_of(Table::Recipes)
        .iter()
        .any(|e| e.e.row_id.is_some() && c.world.content(e.r).is_none());
    let mut steps = Vec::new();
    // A listing of every recipe reads the store, whatever memory holds:
    // the store is the truth, and what was ruled out still exists.
    let enough = narrowing && loaded > 0 && !unloaded;
    if !enough {
        let what = if loaded > 0 {
            "the saved recipes not loaded yet"
        } else {
            "the saved recipes"
        };
        steps.push(step(format!("Read {what}"), StepType::Read, "recipes", 0));
    }
    let planning = c.reading.cues().proposal || !matches!(c.reading.intent, Intent::ListRecipes);
    if planning && c.world.loaded(Table::Inventory).is_empty() && !enough {
        steps.push(step(
            "Read the inventory".into(),
            StepType::Read,
            "inventory",
            0,
        ));
    }
    let g = u32::from(!steps.is_empty());
    let mut d = match &c.reading.intent {
        Intent::Exclude(_) => format!("{goal}; check them against the pantry"),
        Intent::WhatCanIMake => "Rank the recipes by what's already in the kitchen".to_string(),
        _ => "List the options with what's missing from the kitchen".to_string(),
    };
    let days = cooking_days(&c.session.profile, &c.session.preferences);
    if !days.is_empty() {
        d.push_str(&format!(" (the user cooks on {})", days_phrase(&days)));
    }
    steps.push(step(d, StepType::Analyze, "recipes", g));
    plan(goal, steps)
}

/// "the paneer on sunday and the curry on wednesday" → one generate step.
fn assign_plan(c: &Ctx<'_>) -> ThinkOutput {
    let recipes: Vec<&String> = c
        .referenced
        .iter()
        .filter(|r| c.world.get(r).is_some_and(|e| e.e.table == Table::Recipes))
        .collect();
    // "i was thinking maybe the yellow curry": the talk is no part of the
    // name looked up.
    let said = super::targets::name_words(&c.reading.words.words);
    let clauses = super::plan::named_clauses(&c.reading.words);
    if recipes.is_empty() && clauses.len() > 1 {
        let names: Vec<String> = clauses
            .iter()
            .map(|(w, _)| format!("\"{}\"", w.join(" ")))
            .collect();
        return lookup_assign_plan(c, &names.join(", "), clauses.len());
    }
    if recipes.is_empty() && !said.is_empty() {
        return lookup_assign_plan(c, &format!("\"{}\"", said.join(" ")), 1);
    }
    if recipes.is_empty() {
        let q = "Which recipes would you like on the plan, and for which days?".to_string();
        return clarify("Put recipes on the plan", q);
    }
    let usual = cooking_days(&c.session.profile, &c.session.preferences);
    let days = slot_days(&named_days(c), &usual, recipes.len());
    let parts: Vec<String> = recipes
        .iter()
        .cycle()
        .zip(&days)
        .map(|(r, d)| format!("{} on {}", c.world.label(r), weekday_name(*d)))
        .collect();
    let meal = meal_type_of(&c.reading.words.joined());
    let d = format!(
        "Put {} ({meal}, serves {})",
        join_list(&parts, "and"),
        plan_servings(c)
    );
    let mut steps = vec![step(d, StepType::Generate, "meal_plans", 0)];
    if c.world.live_of(Table::MealPlans).next().is_some() {
        let show = "Show the whole plan".to_string();
        steps.push(step(show, StepType::Analyze, "meal_plans", 1));
    }
    plan("Build the meal plan for the week", steps)
}

/// Recipes named for the plan but not in working memory (`names`, quoted,
/// `n` of them): look them up by name, then draft their slots.
fn lookup_assign_plan(c: &Ctx<'_>, names: &str, n: usize) -> ThinkOutput {
    let usual = cooking_days(&c.session.profile, &c.session.preferences);
    let day = slot_days(&named_days(c), &usual, n);
    let days: Vec<String> = day.iter().map(|d| weekday_name(*d).to_string()).collect();
    let meal = meal_type_of(&c.reading.words.joined());
    let put = format!(
        "Put {names} on {} ({meal}, serves {})",
        join_list(&days, "and"),
        plan_servings(c)
    );
    let look = format!("Look up {names} in the saved recipes");
    plan(
        "Build the meal plan for the week",
        vec![
            step(look, StepType::Read, "recipes", 0),
            step(put, StepType::Generate, "meal_plans", 1),
        ],
    )
}

/// Servings of a planned meal: the household, doubled for leftovers.
fn plan_servings(c: &Ctx<'_>) -> u32 {
    let leftovers = if hints::wants_leftovers(c.session) {
        2
    } else {
        1
    };
    hints::household(c.session) * leftovers
}

/// Days the user named, in order ("tonight" and "tomorrow" included, a
/// day after "not" or "instead of" left out).
fn named_days(c: &Ctx<'_>) -> Vec<u8> {
    super::plan::weekdays_said(&c.reading.words, &c.session.today)
}

/// Inventory: analyze what is loaded, read what is missing.
fn pantry_plan(c: &Ctx<'_>, loc: Option<&str>) -> ThinkOutput {
    let place = loc.unwrap_or("kitchen");
    let goal = format!("Show what's in the {place}");
    let expected = match loc {
        Some(l) => c
            .session
            .dashboard
            .inventory_by_location
            .iter()
            .find(|n| n.name == l)
            .map_or(0, |n| n.count as usize),
        None => c.session.dashboard.inventory_total as usize,
    };
    let loaded = c
        .world
        .loaded(Table::Inventory)
        .iter()
        .filter(|(_, row)| {
            loc.is_none_or(|l| row.get("location").and_then(|v| v.as_str()) == Some(l))
        })
        .count();
    let what = loc.map_or("the whole inventory".to_string(), |l| format!("the {l}"));
    if loaded > 0 && loaded >= expected {
        return plan(
            &goal,
            vec![step(
                format!("List {what} from the items already loaded"),
                StepType::Analyze,
                "inventory",
                0,
            )],
        );
    }
    let mut steps = vec![step(format!("Read {what}"), StepType::Read, "inventory", 0)];
    if loaded > 0 {
        steps.push(step(
            format!("List {what}"),
            StepType::Analyze,
            "inventory",
            1,
        ));
    }
    plan(&goal, steps)
}

/// "which ones use coconut milk?".
fn find_plan(c: &Ctx<'_>, x: &str) -> ThinkOutput {
    let goal = format!("Find recipes with {x}");
    let total = c.session.dashboard.recipes_total as usize;
    if saved_loaded(&c.world, Table::Recipes) >= total.max(1) {
        return plan(
            &goal,
            vec![step(
                format!("Pick the loaded recipes that use {x}"),
                StepType::Analyze,
                "recipes",
                0,
            )],
        );
    }
    plan(
        &goal,
        vec![step(
            format!("Read the recipes that use {x}"),
            StepType::Read,
            "recipes",
            0,
        )],
    )
}

/// "add the missing ingredients to my shopping list".
fn shopping_missing_plan(c: &Ctx<'_>) -> ThinkOutput {
    let mut steps = Vec::new();
    if c.world.loaded(Table::Inventory).is_empty() {
        steps.push(step(
            "Read the inventory".into(),
            StepType::Read,
            "inventory",
            0,
        ));
    }
    let g = u32::from(!steps.is_empty());
    steps.push(step(
        "Add what the chosen recipes need and the kitchen lacks to the shopping list".into(),
        StepType::Write,
        "shopping",
        g,
    ));
    plan("Put the missing ingredients on the shopping list", steps)
}

/// "give me a thai basil chicken recipe", "2 chicken dinner ideas".
fn generate_plan(c: &Ctx<'_>, ask: &GenerateAsk) -> ThinkOutput {
    let what = match (ask.count, ask.dish.is_empty()) {
        (1, false) => format!("a {} recipe", ask.dish),
        (1, true) => "a new recipe".to_string(),
        (n, false) => format!(
            "{n} {} {} ideas",
            ask.dish,
            ask.meal.as_deref().unwrap_or("recipe")
        ),
        (n, true) => format!("{n} new recipe ideas"),
    };
    let d = format!(
        "Create {what} {}",
        hints::profile_note(c.session, &ask.without)
    );
    plan(
        &format!("Create {what}"),
        vec![step(d, StepType::Generate, "recipes", 0)],
    )
}
