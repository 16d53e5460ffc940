//! The safety invariant's other half (beside `safety_tests.rs`), end to end
//! through the pipeline: no committed write touches an entity a standing
//! constraint covers unless the message names it (or, right after a write
//! touching it was held back, says "anyway"). Checked on what the kitchen
//! holds after the turn, not on what the turn says it did.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::context::guarded::{Namer, says_anyway};
use crate::context::registry::SessionIdRegistry;
use crate::context::{ContextState, Table};
use crate::kitchen::ToolCall;

use crate::fixtures::Conversation;

/// Conversations in which something stands: a plan draft holding a fish
/// recipe, a fish recipe just shown, a saved plan with one put by name, a
/// save just held back, curries ruled out.
const SETUPS: &[&[&str]] = &[
    &[
        "help me plan dinners this week",
        "how about the miso cod on sunday and the paneer on wednesday",
        "no fish this week",
    ],
    &["no fish this week", "show me the miso cod"],
    // The curry lacks green chili and curry leaves (the miso cod lacks
    // only its optional sesame seeds).
    &[
        "no fish this week",
        "put the kerala curry on sunday and the paneer on wednesday",
    ],
    &[
        "help me plan dinners this week",
        "let's do the miso cod on sunday and the paneer on wednesday",
        "no fish this week",
        "save it",
    ],
    &["no curry this week", "show me my recipes"],
];

/// Pieces of messages that write: saves, plan puts and swaps, shopping,
/// deletes, insistence — some naming a ruled-out recipe, most not.
const CHUNKS: &[&str] = &[
    "save it",
    "save the plan",
    "put it on monday",
    "put the cod on friday",
    "put the miso cod on monday",
    "plan the kerala curry for thursday",
    "add whats missing for sun and wed",
    "add whats missing for monday",
    "add whats missing",
    "put the paneer on tuesday",
    "swap sunday for the cod curry",
    "delete the miso cod",
    "take the cod off sunday",
    "put the thai yellow curry on saturday",
    "anyway",
    "yes",
    "and",
    "the curry",
    "on wednesday",
];

/// A kitchen table as committed, without refs (a fresh registry numbers
/// rows in read order, which a write elsewhere shifts).
fn table(sim: &Conversation, name: &str) -> Vec<Value> {
    let Ok(mut k) = sim.kitchen().lock() else {
        panic!("the kitchen lock is poisoned")
    };
    let call = ToolCall::new("db_read", json!({"table": name, "limit": 1000}));
    let rows = k
        .execute(&call, &mut SessionIdRegistry::new(), 0)
        .expect("read")
        .rows;
    rows.iter().map(plain).collect()
}

/// A row without ids and refs, with its links' labels kept.
fn plain(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| k.as_str() != "id" && !k.ends_with("_id") && k != &"created_at")
                .map(|(k, x)| (k.clone(), plain(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(plain).collect()),
        other => other.clone(),
    }
}

/// What the kitchen holds that a write could touch a recipe through.
struct Kitchen {
    plans: Vec<Value>,
    shopping: Vec<Value>,
    tasks: Vec<Value>,
    recipes: BTreeMap<String, Value>,
}

fn kitchen(sim: &Conversation) -> Kitchen {
    let recipes = table(sim, "recipes")
        .into_iter()
        .map(|r| (r["name"].as_str().unwrap_or_default().to_string(), r))
        .collect();
    Kitchen {
        plans: table(sim, "meal_plans"),
        shopping: table(sim, "shopping_list"),
        tasks: table(sim, "tasks"),
        recipes,
    }
}

/// The labels of the covered recipes a turn's committed writes touched.
fn touched(before: &Kitchen, after: &Kitchen, covered: &[String], namer: &Namer) -> Vec<String> {
    let new = |b: &[Value], a: &[Value]| -> Vec<Value> {
        a.iter().filter(|r| !b.contains(r)).cloned().collect()
    };
    let text = |r: &Value, k: &str| r[k].as_str().unwrap_or_default().to_string();
    let (plans, shopping, tasks) = (
        new(&before.plans, &after.plans),
        new(&before.shopping, &after.shopping),
        new(&before.tasks, &after.tasks),
    );
    covered
        .iter()
        .filter(|label| {
            let points = |r: &Value| {
                text(r, "_recipe_id_label") == **label
                    || namer.mentions(&text(r, "notes"), Table::Recipes, label)
                    || namer.mentions(&text(r, "title"), Table::Recipes, label)
            };
            plans.iter().any(points)
                || shopping.iter().any(points)
                || tasks.iter().any(points)
                || before.recipes.get(*label) != after.recipes.get(*label)
        })
        .cloned()
        .collect()
}

/// Covered recipes (ref, label) in `state`.
fn covered(state: &ContextState) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = state
        .constraints
        .active()
        .flat_map(|c| c.covers.keys())
        .filter_map(|r| {
            let e = state.registry.get(r)?;
            (e.table == Table::Recipes).then(|| (r.clone(), e.label.clone()))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Runs `message` after `setup`; returns the covered recipes the turn's
/// committed writes touched that the message neither named nor insisted
/// on, and how many writes the turn held back.
fn run(setup: &[&str], message: &str) -> (Vec<String>, usize) {
    let mut sim = Conversation::new();
    sim.run(setup);
    let state = sim.state.clone();
    let namer = Namer::new(&state);
    let allowed = |r: &str, label: &str| {
        namer.names(message, Table::Recipes, label)
            || (says_anyway(message) && state.constraints.held_at(r) == Some(state.turn))
    };
    let before = kitchen(&sim);
    // A change the older rules read is asked about first: the "yes" makes
    // it, past the guard.
    let held = sim.say_confirming(message).held_back.len();
    let after = kitchen(&sim);
    // Covered before the turn and still covered after it (a lift or an
    // exception this turn lets it through).
    let still = covered(&sim.state);
    let guarded: Vec<String> = covered(&state)
        .into_iter()
        .filter(|c| still.contains(c) && !allowed(&c.0, &c.1))
        .map(|(_, label)| label)
        .collect();
    (touched(&before, &after, &guarded, &namer), held)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// No committed write touches a covered entity the message does not name.
    #[test]
    fn no_write_touches_what_a_standing_constraint_covers_unless_named(
        setup in 0..SETUPS.len(),
        chunks in proptest::collection::vec(0usize..CHUNKS.len(), 1..4),
    ) {
        let m = chunks.iter().map(|i| CHUNKS[*i]).collect::<Vec<_>>().join(" ");
        let (touched, _) = run(SETUPS[setup], &m);
        prop_assert!(touched.is_empty(), "{m:?} after {:?} touched {touched:?}", SETUPS[setup]);
    }
}

/// The messages reach the guard: without it, these would write against the
/// user (so the property above is not true for want of trying).
#[test]
fn the_generated_messages_reach_the_guard() {
    for (setup, m) in [
        (0, "save it"),
        (1, "put it on monday"),
        (2, "add whats missing for sun and wed"),
    ] {
        let (touched, held) = run(SETUPS[setup], m);
        assert!(touched.is_empty(), "{m}: {touched:?}");
        assert!(held > 0, "{m} after {:?} held nothing back", SETUPS[setup]);
    }
}
