//! Tests of `curation.rs`.

use serde_json::json;

use super::curation::*;
use super::registry::{PINNED_REASON, SessionIdRegistry};
use crate::context::entity::{RefAction, Table};

fn registry_with_recipes(n: u32) -> SessionIdRegistry {
    let mut reg = SessionIdRegistry::new();
    for i in 1..=n {
        reg.register_row(
            Table::Recipes,
            &format!("id-{i}"),
            &format!("R{i}"),
            RefAction::Read,
            1,
        );
    }
    reg
}

#[test]
fn demote_drop_retain_apply_and_log() {
    let mut reg = registry_with_recipes(4);
    let mut log = DecisionLog::default();
    let c = EntityCuration {
        retain_active: vec![RetentionDecision {
            r#ref: "recipe_1".into(),
            reason: "part of the plan".into(),
        }],
        demote: vec![RefDecision::new("recipe_2", "user said no french toast")],
        drop: vec![RefDecision::new("recipe_3", "")],
        clear_all: false,
        curation_summary: Some("Demoted recipe_2".into()),
    };
    let out = apply_curation(&mut reg, &mut log, &c, 3, 20);
    assert!(out.unknown_refs.is_empty());
    assert_eq!(out.applied.len(), 3);
    assert_eq!(
        reg.get("recipe_1")
            .unwrap()
            .retention
            .as_ref()
            .unwrap()
            .reason,
        "part of the plan"
    );
    assert_eq!(
        reg.get("recipe_2")
            .unwrap()
            .demotion
            .as_ref()
            .unwrap()
            .reason,
        "user said no french toast"
    );
    assert!(reg.get("recipe_3").is_none());
    // An empty reason falls back to the curation summary.
    assert_eq!(reg.dropped()["recipe_3"].reason, "Demoted recipe_2");
    assert_eq!(log.len(), 3);
}

#[test]
fn unknown_refs_are_reported_not_applied() {
    let mut reg = registry_with_recipes(1);
    let mut log = DecisionLog::default();
    let c = EntityCuration {
        demote: vec![RefDecision::new("recipe_99", "x")],
        retain_active: vec![RetentionDecision {
            r#ref: "gen_meal_4".into(),
            reason: "y".into(),
        }],
        ..Default::default()
    };
    let out = apply_curation(&mut reg, &mut log, &c, 2, 20);
    assert_eq!(
        out.unknown_refs,
        vec!["recipe_99".to_string(), "gen_meal_4".to_string()]
    );
    assert!(out.applied.is_empty());
    assert!(log.is_empty());
}

#[test]
fn pins_outrank_demotion_but_not_drop() {
    let mut reg = registry_with_recipes(2);
    let mut log = DecisionLog::default();
    assert!(pin(&mut reg, &mut log, "recipe_1", 1, 20));
    assert!(pin(&mut reg, &mut log, "recipe_2", 1, 20));
    let c = EntityCuration {
        demote: vec![RefDecision::new("recipe_1", "stale")],
        drop: vec![RefDecision::new("recipe_2", "forget it")],
        ..Default::default()
    };
    let out = apply_curation(&mut reg, &mut log, &c, 2, 20);
    assert_eq!(out.skipped.len(), 1);
    assert_eq!(out.skipped[0].why, PINNED_REASON);
    assert!(reg.get("recipe_1").unwrap().is_pinned());
    assert!(reg.get("recipe_2").is_none());
    assert!(unpin(&mut reg, &mut log, "recipe_1", 3, 20));
    assert!(!unpin(&mut reg, &mut log, "recipe_1", 3, 20));
}

#[test]
fn clear_all_forgets_everything_and_conflicts_are_reported() {
    let mut reg = registry_with_recipes(3);
    reg.register_generated(Table::Recipes, "G", json!({"name": "G"}), 1);
    let mut log = DecisionLog::default();
    let c = EntityCuration {
        clear_all: true,
        curation_summary: Some("user wants a fresh start".into()),
        ..Default::default()
    };
    apply_curation(&mut reg, &mut log, &c, 4, 20);
    assert!(reg.is_empty());
    assert_eq!(reg.dropped().len(), 4);
    assert_eq!(
        reg.dropped()["gen_recipe_1"].reason,
        "user wants a fresh start"
    );

    let mut reg = registry_with_recipes(1);
    let c = EntityCuration {
        retain_active: vec![RetentionDecision {
            r#ref: "recipe_1".into(),
            reason: "r".into(),
        }],
        demote: vec![RefDecision::new("recipe_1", "d")],
        ..Default::default()
    };
    let out = apply_curation(&mut reg, &mut log, &c, 5, 20);
    assert_eq!(out.skipped.len(), 1);
    assert_eq!(out.skipped[0].action, DecisionAction::Retain);
    assert!(reg.get("recipe_1").unwrap().demotion.is_some());
}

#[test]
fn decision_log_is_capped() {
    let mut log = DecisionLog::default();
    for t in 0..50 {
        log.push(
            DecisionLogEntry {
                turn: t,
                r#ref: "recipe_1".into(),
                action: DecisionAction::Retain,
                reason: String::new(),
            },
            20,
        );
    }
    assert_eq!(log.len(), 20);
    assert_eq!(log.entries().next().unwrap().turn, 30);
    assert_eq!(log.last(10).len(), 10);
    assert_eq!(log.last(10)[0].turn, 40);
}

#[test]
fn bare_ref_strings_deserialize_as_decisions() {
    let c: EntityCuration = serde_json::from_value(
        json!({"retain_active": [], "drop": [], "clear_all": false, "curation_summary": null,
               "demote": ["recipe_5", {"ref": "recipe_6", "reason": "no wings"}]}),
    )
    .unwrap();
    assert_eq!(c.demote[0], RefDecision::new("recipe_5", ""));
    assert_eq!(c.demote[1].reason, "no wings");
}
