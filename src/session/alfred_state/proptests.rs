//! A property of the import: whatever value sits where Alfred's keys go,
//! the import succeeds, its snapshot builds, every live ref has a `why`, and
//! new refs are never ones the state named.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::import;
use super::tests::FIXTURE;
use crate::context::{ContextPolicy, RefAction, Table, explain};

fn fixture() -> Value {
    serde_json::from_str(FIXTURE).expect("the fixture is JSON")
}

/// Places in the fixture a mangled value can go.
const PATHS: [&[&str]; 16] = [
    &["recent_turns"],
    &["recent_turns", "1"],
    &["recent_turns", "0", "user"],
    &["history_summary"],
    &["id_registry"],
    &["id_registry", "ref_to_uuid"],
    &["id_registry", "ref_to_uuid", "gen_recipe_1"],
    &["id_registry", "ref_labels", "recipe_1"],
    &["id_registry", "ref_turn_created"],
    &["id_registry", "ref_active_reason", "shop_1"],
    &["id_registry", "pending_artifacts"],
    &["id_registry", "counters"],
    &["turn_summaries", "0", "steps"],
    &["turn_summaries", "1", "turn_num"],
    &["pending_clarification", "questions"],
    &["current_turn"],
];

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        "[a-z_ 0-9]{0,12}".prop_map(Value::from),
        Just(json!("recipe_3")),
        Just(json!("__pending__gen_recipe_9")),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}|recipe_[0-9]", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Puts `value` at `path` in `v` (where the path still leads somewhere).
fn put(v: &mut Value, path: &[&str], value: Value) {
    let mut at = v;
    for key in path {
        let next = match at {
            Value::Object(m) => m.get_mut(*key),
            Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
            _ => None,
        };
        match next {
            Some(n) => at = n,
            None => return,
        }
    }
    *at = value;
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Whatever value sits where Alfred's keys go, the import succeeds,
    /// its snapshot builds, every live ref has a `why`, and new refs are
    /// never ones the state named.
    #[test]
    fn any_mangled_value_imports(place in 0..PATHS.len(), value in any_json()) {
        let mut v = fixture();
        put(&mut v, PATHS[place], value);
        let mut i = import(&v, &ContextPolicy::default()).expect("still an object");
        let snap = i.context.snapshot();
        for r in i.context.registry.live_refs() {
            prop_assert!(explain(&snap, &r).is_some(), "{}", r);
        }
        // Every ref the (mangled) registry still names, live or removed.
        let named: Vec<String> = [
            "ref_to_uuid", "ref_labels", "ref_types", "ref_actions", "ref_turn_created",
            "ref_turn_last_ref", "ref_active_reason", "pending_artifacts",
        ]
        .iter()
        .filter_map(|k| v.get("id_registry").and_then(|r| r.get(*k)).and_then(Value::as_object))
        .flat_map(|m| m.keys().cloned())
        .collect();
        for table in Table::ALL {
            // A row id of its own per table: a known one would just give
            // back the ref it already has.
            let row = format!("fresh-{}", table.name());
            let r = i.context.registry.register_row(table, &row, "x", RefAction::Read, 99);
            prop_assert!(!named.contains(&r), "{} reused", r);
        }
    }
}
