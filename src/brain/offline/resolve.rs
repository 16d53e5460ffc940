//! Which entity a phrase names: literal refs, distinctive label words ("the
//! paneer", "toast"), ingredients ("the one with chickpeas"), ordinals over
//! the list last shown ("the first one", "last one"), and pronouns ("it",
//! "that recipe": the most recent entity of a plausible type).
//!
//! Active entities are preferred; the background is searched only when no
//! active entity fits. Two equally good active matches are ambiguous — the
//! caller asks which. Read-only over a [`World`].

use crate::context::{Table, parse_ref};

use super::text::{find, find_any, is_filler, ordinal, stem, stems};
use super::world::{Ent, World, recipe_vocabulary};

/// What a phrase resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    None,
    One(String),
    /// Several entities together ("them", the plan's slots).
    Many(Vec<String>),
    /// Equally good candidates: the user must choose.
    Ambiguous(Vec<String>),
}

impl Resolved {
    /// The refs it names (all candidates when ambiguous).
    pub fn refs(&self) -> Vec<String> {
        match self {
            Resolved::None => Vec::new(),
            Resolved::One(r) => vec![r.clone()],
            Resolved::Many(v) | Resolved::Ambiguous(v) => v.clone(),
        }
    }
}

/// A type filter: which tables a phrase may name.
pub type Tables<'t> = &'t [Table];

/// Every table (no type hint).
pub const ANY: Tables<'static> = &Table::ALL;
/// Recipes only.
pub const RECIPES: Tables<'static> = &[Table::Recipes];

fn allowed(e: &Ent<'_>, tables: Tables<'_>) -> bool {
    tables.contains(&e.e.table)
}

/// Refs written literally in the words ("recipe_3", "gen_recipe_1").
pub fn literal_refs(world: &World<'_>, words: &[String]) -> Vec<String> {
    words
        .iter()
        .filter(|w| parse_ref(w).is_some() && world.get(w).is_some())
        .cloned()
        .collect()
}

/// The type a phrase hints at ("that recipe", "the plan", "the pantry").
pub fn type_hint(words: &[String]) -> Option<Tables<'static>> {
    let has = |w: &str| words.iter().any(|x| x == w);
    if has("recipe") || has("recipes") || has("dish") {
        Some(RECIPES)
    } else if has("plan") || has("meals") || has("slot") {
        Some(&[Table::MealPlans])
    } else if has("item") || has("items") || has("pantry") || has("fridge") || has("inventory") {
        Some(&[Table::Inventory])
    } else if has("list") || has("shopping") {
        Some(&[Table::ShoppingList])
    } else {
        None
    }
}

/// Resolves a phrase by label words: the best-scoring entities of the
/// allowed tables (active ones first on a tie), ambiguous on a tie.
pub fn by_label(world: &World<'_>, words: &[String], tables: Tables<'_>) -> Resolved {
    let said: Vec<String> = words
        .iter()
        .filter(|w| !is_filler(w))
        .map(|w| stem(w))
        .collect();
    if said.is_empty() {
        return Resolved::None;
    }
    let scored: Vec<(usize, &Ent<'_>)> = world
        .ents
        .iter()
        .filter(|e| allowed(e, tables))
        .map(|e| {
            (
                e.label_stems().iter().filter(|s| said.contains(s)).count(),
                e,
            )
        })
        .filter(|(s, _)| *s > 0)
        .collect();
    let Some(best) = scored.iter().map(|(s, _)| *s).max() else {
        return Resolved::None;
    };
    let top: Vec<&Ent<'_>> = scored
        .iter()
        .filter(|(s, _)| *s == best)
        .map(|(_, e)| *e)
        .collect();
    // Among equally good matches the active ones win; a better match in
    // the background beats a weaker active one ("the yellow curry").
    let active: Vec<&Ent<'_>> = top.iter().copied().filter(|e| e.active()).collect();
    let pool = if active.is_empty() { top } else { active };
    match pool.as_slice() {
        [one] => Resolved::One(one.r.to_string()),
        many => Resolved::Ambiguous(many.iter().map(|e| e.r.to_string()).collect()),
    }
}

/// Every active recipe a term rules out: all the term's words appear in its
/// name, ingredients, cuisine or tags (else the best partial label match).
pub fn matching_recipes(world: &World<'_>, term: &str) -> Vec<String> {
    let t: Vec<String> = stems(term).into_iter().filter(|w| !is_filler(w)).collect();
    if t.is_empty() {
        return Vec::new();
    }
    let candidates: Vec<&Ent<'_>> = world
        .active()
        .filter(|e| e.e.table == Table::Recipes)
        .collect();
    let full: Vec<String> = candidates
        .iter()
        .filter(|e| {
            let vocab = recipe_vocabulary(&e.e.label, world.content(e.r));
            t.iter().all(|w| vocab.contains(w))
        })
        .map(|e| e.r.to_string())
        .collect();
    if !full.is_empty() {
        return full;
    }
    match by_label(world, &t, RECIPES) {
        Resolved::One(r) if world.get(&r).is_some_and(Ent::active) => vec![r],
        Resolved::Ambiguous(v) => v,
        _ => Vec::new(),
    }
}

/// Active recipes whose ingredients include `term` ("chickpeas").
pub fn with_ingredient(world: &World<'_>, term: &str) -> Vec<String> {
    let t = stems(term);
    world
        .active()
        .filter(|e| e.e.table == Table::Recipes)
        .filter(|e| {
            world
                .ingredient_names(e.r)
                .iter()
                .any(|n| t.iter().all(|w| stems(n).contains(w)))
        })
        .map(|e| e.r.to_string())
        .collect()
}

/// Which item of a list a phrase picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    Nth(usize),
    Last,
    FirstN(usize),
}

/// "the first one", "the 2nd", "last one", "the first two", "number 3".
pub fn ordinal_pick(words: &[String]) -> Option<Pick> {
    if find_any(words, &["first two", "first 2", "top two", "top 2"]).is_some() {
        return Some(Pick::FirstN(2));
    }
    if find_any(
        words,
        &["last one", "the last", "latter", "final one", "bottom one"],
    )
    .is_some()
    {
        return Some(Pick::Last);
    }
    if find(words, "former").is_some() {
        return Some(Pick::Nth(0));
    }
    for (i, w) in words.iter().enumerate() {
        if let Some(n) = ordinal(w) {
            return Some(Pick::Nth(n));
        }
        let prev = i.checked_sub(1).map(|j| words[j].as_str());
        if matches!(prev, Some("number" | "option" | "no" | "recipe"))
            && let Ok(n) = w.parse::<usize>()
            && (1..=20).contains(&n)
        {
            return Some(Pick::Nth(n - 1));
        }
    }
    None
}

/// The list last shown (the refs a reply presented, in order), kept to
/// the live entities of the allowed tables: what "the 2nd one" counts in.
pub fn last_list(world: &World<'_>, presented: &[String], tables: Tables<'_>) -> Vec<String> {
    presented
        .iter()
        .filter(|r| world.get(r).is_some_and(|e| allowed(e, tables)))
        .cloned()
        .collect()
}

/// Applies a pick to a list.
pub fn apply_pick(list: &[String], pick: Pick) -> Resolved {
    match pick {
        Pick::Nth(i) => list.get(i).cloned().map_or(Resolved::None, Resolved::One),
        Pick::Last => list.last().cloned().map_or(Resolved::None, Resolved::One),
        Pick::FirstN(n) if list.len() >= n => Resolved::Many(list[..n].to_vec()),
        Pick::FirstN(_) => Resolved::None,
    }
}

/// "it", "that", "that recipe": the most recent active entity of the allowed
/// tables; among equally recent ones, the single thing made this session,
/// else all of them together.
pub fn focus(world: &World<'_>, tables: Tables<'_>) -> Resolved {
    let cands: Vec<&Ent<'_>> = world.active().filter(|e| allowed(e, tables)).collect();
    let Some(latest) = cands.iter().map(|e| e.e.last_ref_turn).max() else {
        return Resolved::None;
    };
    let top: Vec<&&Ent<'_>> = cands
        .iter()
        .filter(|e| e.e.last_ref_turn == latest)
        .collect();
    if top.len() == 1 {
        return Resolved::One(top[0].r.to_string());
    }
    let made: Vec<&&&Ent<'_>> = top.iter().filter(|e| e.made()).collect();
    match made.len() {
        1 => Resolved::One(made[0].r.to_string()),
        0 => Resolved::Many(top.iter().map(|e| e.r.to_string()).collect()),
        _ => Resolved::Many(made.iter().map(|e| e.r.to_string()).collect()),
    }
}

/// True when the words point back at something ("it", "that one", "them").
pub fn is_pronoun_phrase(words: &[String]) -> bool {
    words.iter().any(|w| {
        matches!(
            w.as_str(),
            "it" | "that" | "this" | "them" | "those" | "these" | "both" | "one"
        )
    })
}

/// True when the words ask for every item ("both", "all of them").
pub fn wants_all(words: &[String]) -> bool {
    words.iter().any(|w| {
        matches!(
            w.as_str(),
            "both" | "all" | "them" | "everything" | "those" | "these"
        )
    })
}

/// Resolves a target phrase: literal refs, an ordinal over the last list,
/// "the one with X", label words, then the focus.
pub fn resolve_target(
    world: &World<'_>,
    words: &[String],
    tables: Tables<'_>,
    presented: &[String],
) -> Resolved {
    let literal = literal_refs(world, words);
    if !literal.is_empty() {
        return if literal.len() == 1 {
            Resolved::One(literal[0].clone())
        } else {
            Resolved::Many(literal)
        };
    }
    if let Some(pick) = ordinal_pick(words) {
        let list = last_list(world, presented, tables);
        let r = apply_pick(&list, pick);
        // "the second one" with no list in front of the user: which list
        // it counts in is unknown, so nothing is guessed.
        if r != Resolved::None
            || list.is_empty() && by_label(world, words, tables) == Resolved::None
        {
            return r;
        }
    }
    if let Some((i, p)) = find_any(
        words,
        &[
            "one with",
            "recipe with",
            "the one that has",
            "one that uses",
            "with the",
        ],
    ) {
        let rest: Vec<String> = words[i + p.split_whitespace().count()..].to_vec();
        let hits = with_ingredient(world, &rest.join(" "));
        match hits.len() {
            0 => {}
            1 => return Resolved::One(hits[0].clone()),
            _ => return Resolved::Ambiguous(hits),
        }
    }
    let by = by_label(world, words, tables);
    if by != Resolved::None {
        return by;
    }
    // "it", "that one" point at one thing: in the list just shown, or
    // among what is equally recent, which one is asked; "them", "those",
    // "both" take them all.
    let shown = last_list(world, presented, tables);
    if shown.len() > 1 && !wants_all(words) && is_pronoun_phrase(words) {
        return Resolved::Ambiguous(shown);
    }
    // "both" counts two in the recipes just shown: those two, or which
    // two when more were shown.
    if words.iter().any(|w| w == "both") {
        let recipes = last_list(world, presented, RECIPES);
        match recipes.len() {
            2 => return Resolved::Many(recipes),
            n if n > 2 => return Resolved::Ambiguous(recipes),
            _ => {}
        }
    }
    match focus(world, tables) {
        Resolved::Many(v) if !wants_all(words) && is_pronoun_phrase(words) => {
            Resolved::Ambiguous(v)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::text::Words;
    use super::*;
    use crate::context::{ContextPolicy, ContextState, RefAction};

    fn state() -> ContextState {
        let mut s = ContextState::new(ContextPolicy::default());
        s.turn = 2;
        for (i, name) in [
            "Kerala Cod Curry",
            "Air Fryer Paneer Tikka",
            "Chicken Tikka Bites",
            "Thai Yellow Curry",
        ]
        .iter()
        .enumerate()
        {
            let r =
                s.registry
                    .register_row(Table::Recipes, &format!("r{i}"), name, RefAction::Read, 2);
            s.rows.insert(r.clone(), std::sync::Arc::new(json!({"id": r, "name": name, "ingredients": [{"name": if i == 3 { "chickpeas" } else { "salt" }}]})));
        }
        s
    }

    fn w(s: &str) -> Vec<String> {
        Words::new(s).words
    }

    #[test]
    fn labels_ordinals_ingredients_and_pronouns() {
        let st = state();
        let world = World::new(&st, 2);
        assert_eq!(
            by_label(&world, &w("the paneer"), RECIPES),
            Resolved::One("recipe_2".into())
        );
        assert!(
            matches!(by_label(&world, &w("the curry"), RECIPES), Resolved::Ambiguous(v) if v.len() == 2)
        );
        assert_eq!(
            by_label(&world, &w("thai curry"), RECIPES),
            Resolved::One("recipe_4".into())
        );
        let shown = ["recipe_3".to_string(), "recipe_4".to_string()];
        assert_eq!(
            resolve_target(&world, &w("the first one"), RECIPES, &shown),
            Resolved::One("recipe_3".into())
        );
        assert_eq!(
            resolve_target(&world, &w("last one"), RECIPES, &shown),
            Resolved::One("recipe_4".into())
        );
        assert_eq!(
            resolve_target(&world, &w("the one with chickpeas"), RECIPES, &[]),
            Resolved::One("recipe_4".into())
        );
        assert!(matches!(focus(&world, RECIPES), Resolved::Many(v) if v.len() == 4));
        assert_eq!(
            matching_recipes(&world, "cod"),
            vec!["recipe_1".to_string()]
        );
        assert_eq!(
            literal_refs(&world, &w("save recipe_2 please")),
            vec!["recipe_2".to_string()]
        );
    }
}
