//! What a turn's writes must not touch: the entities a standing constraint
//! covers, less those the user's message names itself. "put the miso cod
//! on monday anyway" names Miso Glazed Air Fryer Cod; "save it" names
//! nothing. The pipeline holds back a write touching a guarded entity
//! (`pipeline/hold.rs`); this module only says which entities those are.
//!
//! A message names an entity when the words of its label that the message
//! uses pick it out among the session's entities of its kind: "miso cod"
//! names Miso Glazed Air Fryer Cod and "cod curry" Kerala Cod Curry, but
//! "cod" or "curry" alone name no one of several. Words compare lowercase
//! and singular, so plurals and possessives match ("wings", "the cod's").
//! The message that states a constraint does not lift it by naming what it
//! rules out ("no miso cod this week"). Right after a write was held back,
//! "anyway" in the next message names what it was held back for.
//!
//! Pure: the state and the message come in as arguments.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::entity::Table;
use super::state::ContextState;
use super::taxonomy::{contains_phrase, words};

/// Words that never tell one label from another.
const FILLER: &[&str] = &[
    "a", "an", "the", "and", "with", "of", "in", "on", "for", "to", "my", "style",
];

/// An entity a write of this turn must not touch, and the constraint that
/// covers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guarded {
    pub r#ref: String,
    pub label: String,
    pub table: Table,
    /// The covering constraint's id: "c1".
    pub constraint: String,
    /// Its short name: "no fish".
    pub constraint_label: String,
    /// The user's words: "no fish this week".
    pub clause: String,
}

/// Tells whether a text names an entity, among the session's entities of
/// the same kind.
#[derive(Debug, Clone, Default)]
pub struct Namer {
    /// The label words of every live entity, by table.
    labels: BTreeMap<Table, Vec<Vec<String>>>,
}

impl Namer {
    /// The names the session knows.
    pub fn new(state: &ContextState) -> Self {
        let mut labels: BTreeMap<Table, Vec<Vec<String>>> = BTreeMap::new();
        for (_, e) in state.registry.entries() {
            let w = label_words(&e.label);
            let known = labels.entry(e.table).or_default();
            if !w.is_empty() && !known.contains(&w) {
                known.push(w);
            }
        }
        Self { labels }
    }

    /// True when `text` names the entity of `table` labelled `label`: it
    /// uses the label's words, all of them or enough to tell it from every
    /// other entity of its kind.
    pub fn names(&self, text: &str, table: Table, label: &str) -> bool {
        let said: HashSet<String> = words(text).into_iter().collect();
        let mine = label_words(label);
        let hit: Vec<&String> = mine.iter().filter(|w| said.contains(*w)).collect();
        if hit.is_empty() {
            return false;
        }
        if hit.len() == mine.len() {
            return true;
        }
        let rivals = self
            .labels
            .get(&table)
            .map(Vec::as_slice)
            .unwrap_or_default();
        !rivals
            .iter()
            .filter(|l| **l != mine)
            .any(|l| hit.iter().all(|w| l.contains(w)))
    }

    /// True when a row's notes point at the entity: the whole label, words
    /// in order ("for Kerala Cod Curry"), or at least two of its words that
    /// name it ("for the miso cod"). Stricter than [`names`](Self::names):
    /// notes are a model's words, not the user's.
    pub fn mentions(&self, text: &str, table: Table, label: &str) -> bool {
        let said = words(text);
        if contains_phrase(&said, label) {
            return true;
        }
        let hits = label_words(label)
            .iter()
            .filter(|w| said.contains(w))
            .count();
        hits >= 2 && self.names(text, table, label)
    }
}

/// The words of a label that can tell it apart: lowercase, singular, no
/// filler, each once.
pub fn label_words(label: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in words(label) {
        if !FILLER.contains(&w.as_str()) && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// True when the message insists ("anyway", "regardless", "with it").
pub fn says_anyway(message: &str) -> bool {
    let w = words(message);
    w.iter().any(|x| x == "anyway" || x == "regardless")
        || contains_phrase(&w, "with it")
        || contains_phrase(&w, "all the same")
}

/// The entities this turn's writes must not touch: each one an active
/// constraint covers (with the earliest such constraint), unless `message`
/// names it — or, right after a write touching it was held back, says
/// "anyway" — and the constraint was not stated in this very message.
pub fn guarded(state: &ContextState, message: &str) -> Vec<Guarded> {
    covered(state, message)
        .into_iter()
        .filter_map(|(g, through)| (!through).then_some(g))
        .collect()
}

/// The entities a standing constraint covers that this turn's writes may
/// touch all the same, because `message` names them or insists ("put the
/// kerala curry on wednesday" while "no fish" stands): a write touching
/// one goes through, and the reply says what rule it went past.
pub fn let_through(state: &ContextState, message: &str) -> Vec<Guarded> {
    covered(state, message)
        .into_iter()
        .filter_map(|(g, through)| through.then_some(g))
        .collect()
}

/// Every entity an active constraint covers, with true when the message
/// lets a write touch it.
fn covered(state: &ContextState, message: &str) -> Vec<(Guarded, bool)> {
    let namer = Namer::new(state);
    let turn = state.turn;
    let insists = says_anyway(message);
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut out = Vec::new();
    for covering in state.constraints.active() {
        for r in covering.covers.keys() {
            if !seen.insert(r) {
                continue;
            }
            let (Some((c, _)), Some(e)) = (state.constraints.covering(r), state.registry.get(r))
            else {
                continue;
            };
            let earlier = c.since_turn < turn;
            let named = namer.names(message, e.table, &e.label);
            let held_last_turn = state.constraints.held_at(r) == Some(turn.saturating_sub(1));
            let through = earlier && (named || (insists && held_last_turn));
            out.push((
                Guarded {
                    r#ref: r.clone(),
                    label: e.label.clone(),
                    table: e.table,
                    constraint: c.id.clone(),
                    constraint_label: c.label.clone(),
                    clause: c.clause.clone(),
                },
                through,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::{
        ConstraintChanges, ContextPolicy, MatchKind, NewConstraint, RefAction, Rule,
    };
    use serde_json::json;

    const RECIPES: [&str; 5] = [
        "Kerala Cod Curry",
        "Miso Glazed Air Fryer Cod",
        "Cod Assam Pedas",
        "Thai Yellow Curry",
        "Air Fryer Paneer Tikka",
    ];

    /// A session that read the recipes at turn 1 and said "no fish this
    /// week" at turn 2 (the three cod recipes covered).
    fn state() -> ContextState {
        let mut s = ContextState::new(ContextPolicy::default());
        s.begin_turn();
        for (i, name) in RECIPES.iter().enumerate() {
            s.registry
                .register_row(Table::Recipes, &format!("r{i}"), name, RefAction::Read, 1);
        }
        s.begin_turn();
        s.apply_constraints(&ConstraintChanges {
            add: vec![NewConstraint {
                clause: "no fish this week".into(),
                rule: Rule::Exclude,
                kind: MatchKind::Ingredient,
                value: "fish".into(),
                refs: Vec::new(),
            }],
            ..ConstraintChanges::default()
        });
        let fish = |r: &str| {
            let e = s.registry.get(r)?;
            let ings = if e.label.contains("Cod") {
                vec!["cod fillet"]
            } else {
                vec!["paneer"]
            };
            crate::context::RecipeFacts::from_content(
                &e.label,
                &json!({"name": e.label, "ingredients": ings}),
            )
        };
        let facts: BTreeMap<String, _> = s
            .registry
            .entries()
            .into_iter()
            .filter_map(|(r, _)| Some((r.to_string(), fish(r)?)))
            .collect();
        s.refresh_constraints(&|r| facts.get(r).cloned());
        s
    }

    fn refs(g: &[Guarded]) -> Vec<&str> {
        g.iter().map(|g| g.label.as_str()).collect()
    }

    #[test]
    fn words_that_pick_an_entity_out_name_it_and_shared_words_do_not() {
        let namer = Namer::new(&state());
        let miso = "Miso Glazed Air Fryer Cod";
        for named in [
            "put the miso cod on monday anyway",
            "the Miso's fine",
            "MISO GLAZED AIR FRYER COD please",
        ] {
            assert!(namer.names(named, Table::Recipes, miso), "{named}");
        }
        for not in ["save it", "put the cod on monday", "air fryer stuff", ""] {
            assert!(!namer.names(not, Table::Recipes, miso), "{not}");
        }
        assert!(namer.names("the cod curry", Table::Recipes, "Kerala Cod Curry"));
        assert!(!namer.names("a curry", Table::Recipes, "Kerala Cod Curry"));
        assert!(namer.mentions("for Kerala Cod Curry", Table::Recipes, "Kerala Cod Curry"));
        assert!(!namer.mentions("for the kids", Table::Recipes, "Kerala Cod Curry"));
        assert!(namer.mentions("for the miso cod", Table::Recipes, miso));
        assert!(!namer.mentions("for the miso", Table::Recipes, miso));
    }

    #[test]
    fn covered_entities_are_guarded_unless_a_later_message_names_them() {
        let mut s = state();
        // The message that states the constraint does not lift it.
        let now = guarded(&s, "no miso cod or any fish this week");
        assert_eq!(
            refs(&now),
            [
                "Kerala Cod Curry",
                "Miso Glazed Air Fryer Cod",
                "Cod Assam Pedas"
            ]
        );
        assert_eq!(now[0].clause, "no fish this week");
        assert_eq!(now[0].constraint, "c1");
        s.begin_turn();
        assert_eq!(guarded(&s, "save it").len(), 3);
        assert_eq!(
            refs(&guarded(&s, "put the miso cod on monday")),
            ["Kerala Cod Curry", "Cod Assam Pedas"]
        );
        // "anyway" alone names only what was held back the turn before.
        assert_eq!(guarded(&s, "save it anyway").len(), 3);
        let miso = now[1].r#ref.clone();
        s.constraints.note_held([miso.clone()], 3);
        s.begin_turn();
        assert_eq!(
            refs(&guarded(&s, "save it anyway")),
            ["Kerala Cod Curry", "Cod Assam Pedas"]
        );
        assert_eq!(guarded(&s, "save it").len(), 3);
        s.begin_turn();
        assert_eq!(guarded(&s, "save it anyway").len(), 3);
        assert!(says_anyway("ok, with it then") && !says_anyway("without it"));
    }

    #[test]
    fn a_draft_holding_a_covered_recipe_shows_it() {
        let s = state();
        let miso = guarded(&s, "")[1].r#ref.clone();
        let paneer = s
            .registry
            .entries()
            .into_iter()
            .find(|(_, e)| e.label.contains("Paneer"))
            .map(|(r, _)| r.to_string())
            .unwrap_or_default();
        let plan = json!({"date": "2026-01-18", "meal_type": "dinner", "recipe_id": miso});
        assert_eq!(
            s.constraints.covered_inside(&plan),
            std::slice::from_ref(&miso)
        );
        let ok = json!({"date": "2026-01-14", "recipe_id": paneer});
        assert!(s.constraints.covered_inside(&ok).is_empty());
    }
}
