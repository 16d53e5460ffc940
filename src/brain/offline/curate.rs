//! Understand's memory management beyond this message: retention of goal
//! entities (the weekly plan, the recipes chosen for it,
//! the options still being narrowed, a recipe being worked on) when they are
//! about to leave the window.
//!
//! Decides only; the pipeline applies the curation.

use crate::context::{RetentionDecision, Table};

use crate::context::OfferKind;

use super::draft::Draft;
use super::lexicon::{Cues, Intent, classify as classify_words};
use super::text::Words;
use super::world::World;

/// The turn of the latest narrowing message of a meal-planning
/// conversation Understand can see (`None` when the user is not planning:
/// nobody asked for a plan and Alfred proposed none).
fn last_planning_turn(world: &World<'_>) -> Option<u32> {
    let turns = &world.state.understand_turns;
    let intent =
        |t: &crate::context::AnnotatedTurn| classify_words(&Words::new(&t.user), Cues::default());
    let planning = turns.iter().any(|t| {
        matches!(
            intent(t),
            Intent::PlanMeals | Intent::Assign | Intent::ShowPlan
        )
    }) || world.state.narrative.recent().any(|t| {
        t.dialogue
            .offer
            .as_ref()
            .is_some_and(|o| o.kind == OfferKind::PlanFromSaved)
    });
    if !planning {
        return None;
    }
    turns
        .iter()
        .filter(|t| {
            matches!(
                intent(t),
                Intent::Exclude(_)
                    | Intent::PlanMeals
                    | Intent::ListRecipes
                    | Intent::Include
                    | Intent::ShowPlan
                    | Intent::Assign
            )
        })
        .map(|t| t.turn)
        .max()
}

/// The recipes still in play in meal planning (touched at the last
/// planning turn, or already retained for it).
pub fn planning_options(world: &World<'_>) -> Vec<String> {
    let t = last_planning_turn(world);
    world
        .active()
        .filter(|e| e.e.table == Table::Recipes && e.e.demotion.is_none())
        .filter(|e| {
            (t.is_some() && Some(e.e.last_ref_turn) == t)
                || e.e
                    .retention
                    .as_ref()
                    .is_some_and(|r| r.reason.contains("meal planning"))
        })
        .map(|e| e.r.to_string())
        .collect()
}

/// Retains goal entities about to leave the window.
pub(super) fn retention(world: &World<'_>, d: &mut Draft) {
    let next = world.turn + 1;
    let plan_exists = world.live_of(Table::MealPlans).next().is_some();
    let chosen: Vec<(String, String)> = world
        .live_of(Table::MealPlans)
        .filter_map(|m| {
            let r = world.content(m.r)?.get("recipe_id")?.as_str()?.to_string();
            Some((r, m.e.label.clone()))
        })
        .collect();
    let options = if plan_exists {
        Vec::new()
    } else {
        planning_options(world)
    };
    // A recipe kept because it was chosen for a slot is kept for what is
    // true now: the plan may have changed under it ("swap wednesday for
    // the wings").
    for e in world.active() {
        let Some(old) = e.e.retention.as_ref() else {
            continue;
        };
        let Some(slot) = old.reason.strip_prefix("chosen for ") else {
            continue;
        };
        let slot = slot.trim_end_matches(" in the weekly plan");
        if chosen.iter().any(|(r, s)| r == e.r && s == slot) {
            continue;
        }
        let reason = match chosen.iter().find(|(r, _)| r == e.r) {
            Some((_, now)) => format!("chosen for {now} in the weekly plan"),
            None => format!("was chosen for {slot} until the plan changed"),
        };
        d.retain.push(RetentionDecision {
            r#ref: e.r.to_string(),
            reason,
        });
    }
    for e in world.active() {
        let leaving = !world.state.state_of(e.r, e.e, next).0.is_active();
        if !leaving || e.e.is_pending() || e.e.retention.is_some() {
            continue;
        }
        if d.referenced.iter().any(|r| r == e.r)
            || d.demoted(e.r)
            || d.drop.iter().any(|x| x.r#ref == e.r)
        {
            continue;
        }
        let reason = if e.e.table == Table::MealPlans {
            Some("user's ongoing weekly plan".to_string())
        } else if let Some((_, slot)) = chosen.iter().find(|(r, _)| r == e.r) {
            Some(format!("chosen for {slot} in the weekly plan"))
        } else if options.iter().any(|r| r == e.r) {
            Some("still an option in the user's meal planning".to_string())
        } else if e.e.table == Table::Recipes && e.made() {
            Some("recipe the user is working on".to_string())
        } else {
            None
        };
        if let Some(reason) = reason {
            d.retain.push(RetentionDecision {
                r#ref: e.r.to_string(),
                reason,
            });
        }
    }
}
