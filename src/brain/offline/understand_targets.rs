//! Understand's resolution per intent: which refs a message names — the
//! recipes an exclusion rules out, the artifacts "save it" means, the
//! recipe an edit changes, what to show, forget or delete, the recipes of
//! each slot of a plan — and the answer to a "which one do you mean?".
//!
//! Writes only into the [`Draft`]; never names a ref that does not exist.

use crate::context::{RefDecision, Table};

use super::curate::planning_options;
use super::draft::Draft;
use super::reading::Reading;
use super::resolve::{
    ANY, RECIPES, Resolved, Tables, apply_pick, by_label, is_pronoun_phrase, last_list,
    literal_refs, ordinal_pick, resolve_target, type_hint, wants_all,
};
use super::targets::content_words;
use super::text::{Words, clip};
use super::world::World;

/// A named thing: by label when the words name one, else by pointer
/// (ordinal, pronoun, the focus).
fn named(
    world: &World<'_>,
    words: &[String],
    tables: Tables<'_>,
    presented: &[String],
) -> Resolved {
    let said = content_words(words);
    if said.is_empty() || is_pronoun_phrase(words) || ordinal_pick(words).is_some() {
        resolve_target(world, words, tables, presented)
    } else {
        by_label(world, &said, tables)
    }
}

/// "show me that shakshuka", "show me the first one".
pub(super) fn show_targets(world: &World<'_>, reading: &Reading, d: &mut Draft) {
    let words = &reading.words.words;
    let tables = type_hint(words).unwrap_or(&[Table::Recipes, Table::MealPlans, Table::Inventory]);
    let said = content_words(words).join(" ");
    match named(world, words, tables, &reading.before.presented) {
        Resolved::One(r) => d.reference(&said, &r),
        Resolved::Many(v) => v.iter().for_each(|r| d.reference(&said, r)),
        Resolved::Ambiguous(v) => match one_in_view(&v, reading, words) {
            Some(r) => d.reference(&said, &r),
            None => d.ask_which(world, &said, &v, false),
        },
        // "ya go on" after one recipe was offered: that one.
        Resolved::None
            if reading.before.presented.len() == 1
                && content_words(words)
                    .iter()
                    .all(|w| super::vocab::links_to_nothing(w) || super::vocab::is_chatter(w)) =>
        {
            d.reference(&said, &reading.before.presented[0])
        }
        Resolved::None => d.unknown(&said),
    }
}

/// Of several things a phrase names, the one the conversation has in view:
/// the only one in the list being counted in or just shown, or — for "the
/// miso one" — the only recipe.
fn one_in_view(candidates: &[String], reading: &Reading, words: &[String]) -> Option<String> {
    let before = &reading.before;
    let only = |keep: &dyn Fn(&String) -> bool| -> Option<String> {
        let kept: Vec<&String> = candidates.iter().filter(|r| keep(r)).collect();
        (kept.len() == 1).then(|| kept[0].clone())
    };
    only(&|r| before.listed.contains(r) || before.presented.contains(r)).or_else(|| {
        words
            .iter()
            .any(|w| w == "one")
            .then(|| only(&|r| r.starts_with("recipe_") || r.starts_with("gen_recipe_")))
            .flatten()
    })
}

/// "forget that", "never mind that recipe": dropped with the user's words.
pub(super) fn forget_targets(world: &World<'_>, reading: &Reading, message: &str, d: &mut Draft) {
    let words = &reading.words.words;
    let tables = type_hint(words).unwrap_or(ANY);
    let reason = format!("user said \"{}\"", clip(message, 60));
    match resolve_target(world, words, tables, &reading.before.presented) {
        Resolved::One(r) => d.drop.push(RefDecision::new(&r, &reason)),
        Resolved::Many(v) => v
            .iter()
            .for_each(|r| d.drop.push(RefDecision::new(r, &reason))),
        Resolved::Ambiguous(v) => d.ask_which(world, "that", &v, false),
        Resolved::None => {}
    }
}

/// "delete the fajitas": a draft is thrown away (dropped); a saved row is
/// referenced for Think to delete.
pub(super) fn delete_targets(world: &World<'_>, reading: &Reading, d: &mut Draft) {
    let words = &reading.words.words;
    let tables = type_hint(words).unwrap_or(&[Table::Recipes, Table::MealPlans]);
    let said = content_words(words).join(" ");
    let refs = match named(world, words, tables, &reading.before.presented) {
        Resolved::One(x) => vec![x],
        Resolved::Many(v) => v,
        Resolved::Ambiguous(v) => return d.ask_which(world, &said, &v, false),
        Resolved::None => Vec::new(),
    };
    for x in refs {
        if world.get(&x).is_some_and(|e| e.e.is_pending()) {
            d.drop.push(RefDecision::new(&x, "user deleted the draft"));
        } else {
            d.reference(&said, &x);
        }
    }
}

/// An answer to "which one do you mean: A or B?": the candidates it does
/// not pick leave this view, so the original request resolves cleanly.
pub(super) fn narrow_to_answer(world: &mut World<'_>, asked: &[String], answer: &Words) {
    let candidates = last_list(world, asked, ANY);
    if candidates.len() < 2 {
        return;
    }
    let words = &answer.words;
    let chosen: Vec<String> = if wants_all(words) {
        candidates.clone()
    } else if let Some(pick) = ordinal_pick(words) {
        apply_pick(&candidates, pick).refs()
    } else {
        let said: Vec<String> = content_words(words)
            .iter()
            .map(|w| super::text::stem(w))
            .collect();
        let score = |r: &String| {
            world.get(r).map_or(0, |e| {
                e.label_stems().iter().filter(|s| said.contains(s)).count()
            })
        };
        let best = candidates.iter().map(score).max().unwrap_or(0);
        if best == 0 {
            return;
        }
        candidates
            .iter()
            .filter(|r| score(r) == best)
            .cloned()
            .collect()
    };
    if chosen.is_empty() {
        return;
    }
    let others: Vec<String> = candidates
        .into_iter()
        .filter(|r| !chosen.contains(r))
        .collect();
    world.exclude(&others);
}

/// Which pending artifacts "save …" means.
pub(super) fn save_targets(world: &World<'_>, reading: &Reading, d: &mut Draft) {
    // "save the soup, not the salad": what is not to be saved is not named.
    let kept: Vec<String> = reading
        .words
        .segments
        .iter()
        .filter(|s| {
            !s.iter()
                .any(|w| matches!(w.as_str(), "not" | "except" | "without" | "dont"))
        })
        .flatten()
        .cloned()
        .collect();
    let words = if kept.is_empty() {
        &reading.words.words
    } else {
        &kept
    };
    let pending: Vec<String> = world.pending().iter().map(|e| e.r.to_string()).collect();
    let literal = literal_refs(world, words);
    if !literal.is_empty() {
        literal.iter().for_each(|r| d.reference(r, r));
        return;
    }
    // A "yes" to "want me to save it?" saves what was offered.
    let offered: Vec<String> = reading
        .before
        .offered_refs()
        .into_iter()
        .filter(|r| pending.contains(r))
        .collect();
    if reading.cues().offered_save
        && !reading.words.has_any(super::synonyms::SAVE)
        && !offered.is_empty()
    {
        offered.iter().for_each(|r| d.reference(&world.label(r), r));
        return;
    }
    if pending.is_empty() {
        if let Resolved::One(r) = by_label(world, &content_words(words), ANY) {
            d.reference(&world.label(&r), &r);
        }
        return;
    }
    if let Some(pick) = ordinal_pick(words) {
        let list: Vec<String> = last_list(world, &reading.before.presented, ANY)
            .into_iter()
            .filter(|r| pending.contains(r))
            .collect();
        if let Resolved::One(r) = apply_pick(&list, pick) {
            d.reference("that one", &r);
            return;
        }
    }
    let hint = type_hint(words);
    let answered_all = reading.answer.as_ref().is_some_and(|a| wants_all(&a.words));
    if hint == Some(&[Table::MealPlans][..]) || wants_all(words) || answered_all {
        for e in world.pending() {
            if hint.is_none_or(|h| h.contains(&e.e.table)) {
                d.reference(&e.e.label, e.r);
            }
        }
        return;
    }
    let said = content_words(words);
    if !said.is_empty()
        && let Resolved::One(r) = by_label(world, &said, ANY)
    {
        d.reference(&said.join(" "), &r);
        return;
    }
    let tables: Tables<'_> = hint.unwrap_or(ANY);
    let latest = world
        .pending()
        .iter()
        .filter(|e| tables.contains(&e.e.table))
        .map(|e| e.e.last_ref_turn)
        .max();
    let group: Vec<String> = world
        .pending()
        .iter()
        .filter(|e| tables.contains(&e.e.table) && Some(e.e.last_ref_turn) == latest)
        .map(|e| e.r.to_string())
        .collect();
    let meals = group
        .iter()
        .all(|r| world.get(r).is_some_and(|e| e.e.table == Table::MealPlans));
    if group.len() <= 1 || meals {
        group.iter().for_each(|r| d.reference(&world.label(r), r));
    } else {
        d.ask_which(world, "it", &group, true);
    }
}

/// The recipe an edit applies to.
pub(super) fn edit_target(world: &World<'_>, words: &[String], presented: &[String]) -> Resolved {
    let said = content_words(words);
    if !said.is_empty() && !is_pronoun_phrase(words) && ordinal_pick(words).is_none() {
        // One candidate is not a question worth asking.
        return match by_label(world, &said, RECIPES) {
            Resolved::Ambiguous(v) if v.len() == 1 => Resolved::One(v[0].clone()),
            other => other,
        };
    }
    match resolve_target(world, words, RECIPES, presented) {
        Resolved::Many(v) if v.len() == 1 => Resolved::One(v[0].clone()),
        other => other,
    }
}

/// The recipes of "the paneer on sunday and the curry on wednesday".
pub(super) fn assign_targets(world: &World<'_>, reading: &Reading, d: &mut Draft) {
    // "put that on wednesday" right after one recipe was shown: that one.
    let shown = last_list(world, &reading.before.presented, RECIPES);
    for seg in &reading.words.segments {
        let said = content_words(seg);
        let text = seg.join(" ");
        let pointer = ordinal_pick(seg).is_some() || !literal_refs(world, seg).is_empty();
        let that_one = is_pronoun_phrase(seg) && shown.len() == 1 && !pointer;
        if said.is_empty() && !pointer && !that_one {
            continue;
        }
        let r = if that_one && !matches!(by_label(world, &said, RECIPES), Resolved::One(_)) {
            Resolved::One(shown[0].clone())
        } else if pointer {
            resolve_target(world, seg, RECIPES, &reading.before.presented)
        } else {
            match by_label(world, &said, RECIPES) {
                // "i was thinking maybe the yellow curry": the one recipe
                // the words name, the talk around it left aside.
                Resolved::None => linked_recipe(world, seg).map_or(Resolved::None, Resolved::One),
                other => other,
            }
        };
        match r {
            Resolved::One(r) => d.reference(&text, &r),
            Resolved::Many(v) => v.iter().for_each(|r| d.reference(&text, r)),
            Resolved::Ambiguous(v) => {
                d.ask_which(world, &text, &v, false);
                return;
            }
            Resolved::None => {}
        }
    }
}

/// The saved recipe the words name by [`super::link::recipe`], when they
/// name exactly one.
fn linked_recipe(world: &World<'_>, words: &[String]) -> Option<String> {
    let recipes: Vec<(String, String)> = world
        .live_of(Table::Recipes)
        .map(|e| (e.r.to_string(), e.e.label.clone()))
        .collect();
    let labels: Vec<String> = recipes.iter().map(|(_, l)| l.clone()).collect();
    match super::link::recipe(words, &labels) {
        super::link::Linked::One(name) => recipes
            .into_iter()
            .find(|(_, l)| *l == name)
            .map(|(r, _)| r),
        _ => None,
    }
}

/// "back to the meal plan": the plan's slots and recipes, else the options.
pub(super) fn plan_targets(world: &World<'_>, d: &mut Draft) {
    let meals: Vec<_> = world.live_of(Table::MealPlans).collect();
    for m in &meals {
        d.reference(&m.e.label, m.r);
        if let Some(r) = world
            .content(m.r)
            .and_then(|c| c.get("recipe_id"))
            .and_then(|v| v.as_str())
            && world.get(r).is_some()
        {
            d.reference(&world.label(r), r);
        }
    }
    if meals.is_empty() {
        for r in planning_options(world) {
            d.reference(&world.label(&r), &r);
        }
    }
}
