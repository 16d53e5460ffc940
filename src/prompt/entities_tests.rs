//! Entity rendering: compact ref ranges, collapsing of large groups (every
//! ref stays addressable), the Understand table's cap, and the at-risk mark.

use std::collections::BTreeSet;

use proptest::prelude::*;

use crate::context::ContextPolicy;
use crate::context::curation::{EntityCuration, RetentionDecision};
use crate::context::entity::{RefAction, Table, parse_ref};
use crate::context::state::ContextState;

use super::entities::{COLLAPSE_OVER, compact_refs, render_working_memory};
use super::entity_table::{AT_RISK, TABLE_ROWS, render_known_entities};

fn refs(prefix: &str, nums: &[u32]) -> Vec<String> {
    nums.iter().map(|n| format!("{prefix}_{n}")).collect()
}

/// A state at `turn` with inventory rows `nums` read at `read_at`.
fn inventory_state(nums: &BTreeSet<u32>, read_at: u32, turn: u32) -> ContextState {
    let mut s = ContextState::new(ContextPolicy::default());
    let max = nums.iter().max().copied().unwrap_or(0);
    while s.turn < read_at {
        s.begin_turn();
    }
    for n in 1..=max {
        // Register every number so refs line up; only `nums` stay recent.
        let at = if nums.contains(&n) { read_at } else { 0 };
        let r = s.registry.register_row(
            Table::Inventory,
            &format!("i{n}"),
            &format!("Item {n}"),
            RefAction::Read,
            at,
        );
        assert_eq!(r, format!("inv_{n}"));
    }
    while s.turn < turn {
        s.begin_turn();
    }
    s
}

/// Every ref a text names, with `a_1..a_9` ranges expanded.
fn addressed(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == ':') {
        match word.split_once("..") {
            Some((a, b)) => {
                let (pa, pb) = (parse_ref(a).unwrap(), parse_ref(b).unwrap());
                let stem = a.rsplit_once('_').unwrap().0;
                for n in pa.number..=pb.number {
                    out.insert(format!("{stem}_{n}"));
                }
            }
            None if parse_ref(word).is_some() => {
                out.insert(word.to_string());
            }
            None => {}
        }
    }
    out
}

#[test]
fn compact_refs_compresses_runs_and_keeps_the_rest() {
    assert_eq!(
        compact_refs(&refs("inv", &(1..=59).collect::<Vec<_>>())),
        "inv_1..inv_59"
    );
    assert_eq!(
        compact_refs(&refs("inv", &[9, 1, 2, 3, 5, 7, 8, 10])),
        "inv_1..inv_3, inv_5, inv_7..inv_10"
    );
    assert_eq!(compact_refs(&refs("inv", &[4, 5])), "inv_4, inv_5");
    assert_eq!(
        compact_refs(&["recipe_4", "gen_meal_1", "recipe_3", "recipe_5", "x"]),
        "recipe_3..recipe_5, gen_meal_1, x"
    );
}

#[test]
fn groups_collapse_only_past_the_threshold() {
    let n = COLLAPSE_OVER as u32;
    let at_threshold = inventory_state(&(1..=n).collect(), 1, 1);
    let text = render_working_memory(&at_threshold.snapshot().entities, 2);
    assert!(
        text.contains("- inv_12: Item 12 (inventory) [read]"),
        "{text}"
    );
    assert!(!text.contains(".."));
    let over = inventory_state(&(1..=n + 1).collect(), 1, 1);
    let text = render_working_memory(&over.snapshot().entities, 2);
    assert!(
        text.contains(
            "- inv_1..inv_13: 13 inventory items [read] — e.g. Item 1, Item 2, Item 3, …"
        )
    );
    assert!(!text.contains("- inv_12:"));
}

#[test]
fn background_is_only_counted() {
    let s = inventory_state(&(1..=30).collect(), 1, 4);
    let text = render_working_memory(&s.snapshot().entities, 2);
    assert!(!text.contains("inv_"), "{text}");
    assert!(text.contains("No entities in context yet"));
    assert!(text.contains("Background: 30 entities (not loaded; ask to re-read if needed)"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_active_ref_stays_addressable(nums in prop::collection::btree_set(1u32..120, 1..70)) {
        let s = inventory_state(&nums, 2, 3);
        let snap = s.snapshot();
        let text = render_working_memory(&snap.entities, 2);
        let want: BTreeSet<String> = snap.entities.recent.iter().map(|v| v.r#ref.clone()).collect();
        prop_assert_eq!(want.len(), nums.len());
        prop_assert_eq!(addressed(&text), want);
    }
}

#[test]
fn understand_table_is_capped_with_a_count_of_the_rest() {
    let mut s = ContextState::new(ContextPolicy::default());
    s.begin_turn();
    let mut retain = Vec::new();
    for n in 1..=60 {
        let r = s.registry.register_row(
            Table::Recipes,
            &format!("r{n}"),
            &format!("Dish {n}"),
            RefAction::Read,
            1,
        );
        retain.push(RetentionDecision {
            r#ref: r,
            reason: format!("reason {n}"),
        });
    }
    s.apply_curation(&EntityCuration {
        retain_active: retain,
        ..Default::default()
    });
    for _ in 0..5 {
        s.begin_turn();
    }
    let table = render_known_entities(&s.snapshot());
    let rows = table.lines().filter(|l| l.starts_with("| recipe_")).count();
    assert_eq!(rows, TABLE_ROWS);
    assert!(
        table.ends_with("…and 20 older entities not shown (least recently referenced)."),
        "{table}"
    );
    assert!(table.contains("| recipe_1 | recipe | Dish 1 | retained | read | 1 | 1 | reason 1 |"));
}

#[test]
fn at_risk_marks_only_entities_at_the_window_edge() {
    let mut s = ContextState::new(ContextPolicy::default());
    s.begin_turn();
    s.registry
        .register_row(Table::Recipes, "a", "Old", RefAction::Read, 1);
    s.begin_turn();
    s.registry
        .register_row(Table::Recipes, "b", "Newer", RefAction::Read, 2);
    s.begin_turn();
    let table = render_known_entities(&s.snapshot());
    assert!(
        table.contains(&format!("| recipe_1 | recipe | Old | recent, {AT_RISK} |")),
        "{table}"
    );
    assert!(table.contains("| recipe_2 | recipe | Newer | recent | read |"));
    // Once retained, it is no longer at risk.
    s.apply_curation(&EntityCuration {
        retain_active: vec![RetentionDecision {
            r#ref: "recipe_1".into(),
            reason: "keep".into(),
        }],
        ..Default::default()
    });
    assert!(!render_known_entities(&s.snapshot()).contains(AT_RISK));
}
