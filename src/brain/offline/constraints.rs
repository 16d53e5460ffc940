//! Understand's standing constraints: what an exclusion rules out, as a
//! constraint with the user's clause verbatim (an ingredient or family, a
//! cuisine, a kind of dish, or named recipes), and which constraint "bring
//! back the wings" or "actually cod is fine" lifts.
//!
//! A draft the user sets aside ("not feeling the shakshuka") is not a
//! standing rule: Understand lets it go (demotes it) with their words.
//!
//! Decides only; the pipeline applies the changes and judges every loaded
//! recipe against them.

use crate::context::taxonomy::{self, cuisine, diet, dish_kind, is_family, is_known_ingredient};
use crate::context::{
    ConstraintException, ConstraintMatch, LiftConstraint, MatchKind, NewConstraint, RefDecision,
    Rule, Table,
};
use crate::pipeline::{EntityMention, Resolution};

use super::draft::Draft;
use super::items::{Exclusion, Refusal};
use super::resolve::{ANY, Resolved, by_label, matching_recipes};
use super::text::{Words, stems};
use super::world::{World, ingredient_names};

/// Words people end a clause with that carry no meaning of it.
const TRAILING_FILLER: &[&str] = &[
    "lol", "lmao", "haha", "hahaha", "please", "pls", "plz", "thanks", "thx", "ty", "tbh", "ok",
    "okay", "x", "xx", "either", "then",
];
/// Words that join a clause to the one before it.
const LEADING_JOINERS: &[&str] = &["and", "but", "also", "oh", "plus", "so", "ok", "okay", "um"];

/// The constraint each exclusion states, with the recipes it names now.
pub(super) fn exclusion_constraints(
    world: &World<'_>,
    ex: &[Exclusion],
    message: &str,
    d: &mut Draft,
) {
    for e in ex {
        let refs = matching_recipes(world, &e.term);
        // A draft set aside is Understand's to let go, not a standing rule.
        if !refs.is_empty()
            && refs
                .iter()
                .all(|r| world.get(r).is_some_and(|x| x.e.is_pending()))
        {
            let reason = format!("“{}”", clause_of(message, &e.term));
            for r in refs {
                if !d.demoted(&r) {
                    d.demote.push(RefDecision::new(&r, &reason));
                }
            }
            continue;
        }
        let Some(kind) = match_kind(world, &e.term, &refs) else {
            d.unknown(&e.term);
            continue;
        };
        for r in &refs {
            d.mentions.push(EntityMention {
                text: e.term.clone(),
                resolution: Resolution::Inferred,
                resolved_ref: Some(r.clone()),
                candidates: Vec::new(),
            });
        }
        let value = match kind {
            MatchKind::Entity => String::new(),
            MatchKind::Cuisine => cuisine(&e.term).unwrap_or_default().to_string(),
            MatchKind::Tag => dish_kind(&e.term).unwrap_or_default().to_string(),
            MatchKind::Diet => diet(&e.term).unwrap_or_default().to_string(),
            _ => e.term.clone(),
        };
        let clause = clause_of(message, &e.term);
        if d.constraints
            .add
            .iter()
            .any(|c| c.clause == clause && c.value == value)
        {
            continue;
        }
        let rule = if e.how == Refusal::Requires {
            Rule::Require
        } else {
            Rule::Exclude
        };
        d.constraints.add.push(NewConstraint {
            clause,
            rule,
            kind,
            value,
            refs: if kind == MatchKind::Entity {
                refs
            } else {
                Vec::new()
            },
        });
    }
}

/// What a ruled-out term matches: an ingredient or family, a cuisine, a kind
/// of dish, or the recipes it names (`None` when it names nothing known).
fn match_kind(world: &World<'_>, term: &str, refs: &[String]) -> Option<MatchKind> {
    if is_family(term) || is_known_ingredient(term) {
        return Some(MatchKind::Ingredient);
    }
    if cuisine(term).is_some() {
        return Some(MatchKind::Cuisine);
    }
    if dish_kind(term).is_some() {
        return Some(MatchKind::Tag);
    }
    if diet(term).is_some() {
        return Some(MatchKind::Diet);
    }
    let phrase = taxonomy::words(term).join(" ");
    let in_ingredients = world.of(Table::Recipes).any(|e| {
        world.content(e.r).is_some_and(|c| {
            ingredient_names(c)
                .iter()
                .any(|i| taxonomy::contains_phrase(&taxonomy::words(i), &phrase))
        })
    });
    if in_ingredients {
        Some(MatchKind::Ingredient)
    } else if refs.is_empty() {
        None
    } else {
        Some(MatchKind::Entity)
    }
}

/// The user's clause that states `term`: the piece of the message (split at
/// punctuation, and at "and"/"but" before a clause of its own) holding it,
/// verbatim, without joining words in front or filler at the end.
pub(super) fn clause_of(message: &str, term: &str) -> String {
    let term_stems = stems(term);
    let pieces: Vec<&str> = message
        .split(['.', ',', ';', '!', '?', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let holds = |p: &str| {
        let s = stems(p);
        term_stems.iter().all(|t| s.contains(t))
    };
    let piece = pieces
        .iter()
        .copied()
        .find(|p| holds(p))
        .unwrap_or(message.trim());
    tidy_clause(piece)
}

/// A clause without joining words in front or filler at the end.
fn tidy_clause(piece: &str) -> String {
    let mut words: Vec<&str> = piece.split_whitespace().collect();
    let bare = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    while words.len() > 1 && LEADING_JOINERS.contains(&bare(words[0]).as_str()) {
        words.remove(0);
    }
    while words.len() > 1
        && words
            .last()
            .is_some_and(|w| bare(w).is_empty() || TRAILING_FILLER.contains(&bare(w).as_str()))
    {
        words.pop();
    }
    crate::context::constraints::clean_clause(&words.join(" "))
}

/// "bring back the wings", "actually cod is fine": lifts the constraints
/// the words name, or, when they name one recipe a broader constraint
/// covers, brings that recipe back while the constraint stands. True when
/// anything was lifted or brought back.
pub(super) fn lift_constraints(
    world: &World<'_>,
    said: &[String],
    message: &str,
    d: &mut Draft,
) -> bool {
    let said_stems: Vec<String> = said.iter().flat_map(|w| stems(w)).collect();
    if said_stems.is_empty() {
        return false;
    }
    let clause = tidy_clause(message);
    let named = |c: &crate::context::Constraint| match &c.matches {
        // "cod's fine" lifts "no fish": cod is what it ruled out.
        ConstraintMatch::Ingredient { name }
            if crate::context::taxonomy::is_family(name)
                && said_stems
                    .iter()
                    .any(|w| crate::context::taxonomy::ingredient_matches(w, name)) =>
        {
            true
        }
        ConstraintMatch::Ingredient { name }
        | ConstraintMatch::Cuisine { name }
        | ConstraintMatch::Tag { name }
        | ConstraintMatch::Diet { name } => {
            let n = stems(name);
            !n.is_empty() && n.iter().all(|w| said_stems.contains(w))
        }
        ConstraintMatch::Entity { refs } | ConstraintMatch::Free { refs, .. } => {
            refs.iter().any(|r| {
                let label = stems(&world.label(r));
                said_stems.iter().all(|w| label.contains(w))
            })
        }
    };
    let lifted: Vec<String> = world
        .state
        .constraints
        .active()
        .filter(|c| named(c))
        .map(|c| c.id.clone())
        .collect();
    for id in &lifted {
        d.constraints.lift.push(LiftConstraint {
            id: id.clone(),
            clause: clause.clone(),
        });
    }
    if !lifted.is_empty() {
        return true;
    }
    // One recipe back while a broader constraint stands.
    let Resolved::One(r) = by_label(world, said, ANY) else {
        return false;
    };
    let Some((c, _)) = world.state.constraints.covering(&r) else {
        return false;
    };
    d.constraints.except.push(ConstraintException {
        id: c.id.clone(),
        r#ref: r.clone(),
    });
    d.reference(&said.join(" "), &r);
    true
}

/// The words of a message, for [`lift_constraints`].
/// True when words take something back in: "bring back the wings", "cod
/// is fine", and "cod's fine" (typed, the apostrophe joins: "cods fine").
pub(super) fn lifts(words: &[String]) -> bool {
    drops_a_rule(words)
        || super::text::find_any(words, super::synonyms::INCLUDE).is_some()
        || words.windows(2).take(3).any(|p| {
            matches!(p[1].as_str(), "fine" | "ok" | "okay")
                && p[0].len() > 3
                && p[0].ends_with('s')
                && !matches!(p[0].as_str(), "thats" | "its" | "lets" | "whats" | "thanks")
        })
}

/// True when the words take a rule off by naming it one ("you can drop
/// the spicy rule", "forget the no fish rule").
pub(super) fn drops_a_rule(words: &[String]) -> bool {
    words.iter().any(|w| matches!(w.as_str(), "rule" | "rules"))
        && words.iter().any(|w| {
            matches!(
                w.as_str(),
                "drop"
                    | "remove"
                    | "lose"
                    | "ditch"
                    | "forget"
                    | "scrap"
                    | "cancel"
                    | "delete"
                    | "lift"
                    | "undo"
                    | "nix"
                    | "skip"
                    | "rid"
            )
        })
}

/// The words that name what a lift brings back: of the clauses that lift
/// when one names the rule it drops ("drop the spicy rule. fish one
/// stays" lifts the spicy rule only), else of the whole message.
pub(super) fn lifted_words(message: &str) -> Vec<String> {
    let w = Words::new(message);
    let dropping: Vec<String> = w
        .segments
        .iter()
        .filter(|s| drops_a_rule(s))
        .flatten()
        .cloned()
        .collect();
    if dropping.is_empty() {
        lift_words(message)
    } else {
        lift_words(&dropping.join(" "))
            .into_iter()
            .filter(|w| !matches!(w.as_str(), "rule" | "rules"))
            .collect()
    }
}

pub(super) fn lift_words(message: &str) -> Vec<String> {
    super::targets::content_words(&Words::new(message).words)
        .into_iter()
        .filter(|w| {
            !matches!(
                w.as_str(),
                "actually"
                    | "fine"
                    | "back"
                    | "bring"
                    | "ok"
                    | "okay"
                    | "after"
                    | "put"
                    | "add"
                    | "keep"
                    | "include"
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_are_the_users_words_without_joiners_or_filler() {
        assert_eq!(
            clause_of("skip anything with cod please", "cod"),
            "skip anything with cod"
        );
        assert_eq!(
            clause_of("no french toast, and I don't feel like wings lol", "wings"),
            "I don't feel like wings"
        );
        assert_eq!(
            clause_of(
                "no french toast, and I don't feel like wings lol",
                "french toast"
            ),
            "no french toast"
        );
        assert_eq!(
            clause_of("had curry all last week so no curry", "curry"),
            "had curry all last week so no curry"
        );
        assert_eq!(clause_of("not the wings either.", "wings"), "not the wings");
        assert_eq!(
            clause_of("Nothing with fish!!", "fish"),
            "Nothing with fish"
        );
    }
}
