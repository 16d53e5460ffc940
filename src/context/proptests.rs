//! Property tests: refs are never reused, translation is a bijection on live
//! refs, and no layer grows without bound however long the session runs.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use serde_json::json;

use super::fold::EARLIER_MAX_CHARS;
use super::*;

/// One registry operation, over a small pool of rows so that rows recur.
#[derive(Debug, Clone)]
enum Op {
    Read(Table, u8),
    Update(Table, u8),
    Link(Table, u8),
    Generate(Table),
    SaveLatestGenerated,
    Touch(u8),
    Demote(u8),
    Retain(u8),
    Drop(u8),
    ClearAll,
    NextTurn,
}

fn table() -> impl Strategy<Value = Table> {
    prop::sample::select(Table::ALL.to_vec())
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (table(), 0u8..20).prop_map(|(t, n)| Op::Read(t, n)),
        2 => (table(), 0u8..20).prop_map(|(t, n)| Op::Update(t, n)),
        2 => (table(), 0u8..20).prop_map(|(t, n)| Op::Link(t, n)),
        2 => table().prop_map(Op::Generate),
        1 => Just(Op::SaveLatestGenerated),
        2 => any::<u8>().prop_map(Op::Touch),
        2 => any::<u8>().prop_map(Op::Demote),
        2 => any::<u8>().prop_map(Op::Retain),
        1 => any::<u8>().prop_map(Op::Drop),
        1 => Just(Op::ClearAll),
        3 => Just(Op::NextTurn),
    ]
}

/// Picks a live ref by index (wrapping), if any.
fn pick(s: &ContextState, i: u8) -> Option<String> {
    let live = s.registry.live_refs();
    (!live.is_empty()).then(|| live[i as usize % live.len()].clone())
}

fn apply(s: &mut ContextState, op: &Op, saved: &mut u32) {
    let turn = s.turn.max(1);
    match op {
        Op::Read(t, n) => {
            s.registry.register_row(
                *t,
                &format!("{t}-{n}"),
                &format!("row {n}"),
                RefAction::Read,
                turn,
            );
        }
        Op::Update(t, n) => {
            s.registry.register_row(
                *t,
                &format!("{t}-{n}"),
                &format!("row {n}"),
                RefAction::Updated,
                turn,
            );
        }
        Op::Link(t, n) => {
            s.registry
                .register_linked(*t, &format!("{t}-{n}"), "", turn);
        }
        Op::Generate(t) => {
            s.registry
                .register_generated(*t, "draft", json!({"name": "draft"}), turn);
        }
        Op::SaveLatestGenerated => {
            if let Some((r, e)) = s
                .registry
                .pending_artifacts()
                .last()
                .map(|(r, e)| (r.to_string(), e.table))
            {
                *saved += 1;
                let row = format!("saved-{saved}");
                s.registry
                    .register_created(e, &row, "draft", Some(&r), turn)
                    .expect("promote");
            }
        }
        Op::Touch(i) => {
            if let Some(r) = pick(s, *i) {
                s.registry.touch(&r, turn);
            }
        }
        Op::Demote(i) | Op::Retain(i) | Op::Drop(i) => {
            if let Some(r) = pick(s, *i) {
                let d = RefDecision::new(&r, "because");
                let c = match op {
                    Op::Demote(_) => EntityCuration {
                        demote: vec![d],
                        ..Default::default()
                    },
                    Op::Drop(_) => EntityCuration {
                        drop: vec![d],
                        ..Default::default()
                    },
                    _ => EntityCuration {
                        retain_active: vec![RetentionDecision {
                            r#ref: r,
                            reason: "because".into(),
                        }],
                        ..Default::default()
                    },
                };
                s.apply_curation(&c);
            }
        }
        Op::ClearAll => {
            s.apply_curation(&EntityCuration {
                clear_all: true,
                ..Default::default()
            });
        }
        Op::NextTurn => {
            let t = s.begin_turn();
            let summary = TurnExecutionSummary {
                turn_number: t,
                goal: "g".repeat(50),
                ..Default::default()
            };
            let exchange = ConversationTurn {
                turn: t,
                user: "u".repeat(300),
                assistant: "a".repeat(900),
                ..Default::default()
            };
            s.record_turn(summary, exchange);
            s.fold_all(&mut Extractive);
        }
    }
}

/// Checks the registry's invariants after every operation.
fn check_registry(
    s: &ContextState,
    ever: &mut BTreeMap<String, Option<String>>,
) -> Result<(), TestCaseError> {
    let mut rows = BTreeSet::new();
    for (r, e) in s.registry.entries() {
        // A ref, once it named a row, names only that row (never reused).
        if let (Some(Some(old)), Some(now)) = (ever.get(r), &e.row_id) {
            prop_assert_eq!(old, now, "ref {} moved from one row to another", r);
        }
        if !ever.get(r).is_some_and(Option::is_some) {
            ever.insert(r.to_string(), e.row_id.clone());
        }
        // Translation both ways is a bijection on live refs.
        if let Some(id) = &e.row_id {
            prop_assert!(rows.insert(id.clone()), "row {} has two refs", id);
            prop_assert_eq!(s.registry.ref_for_row(id), Some(r));
            prop_assert_eq!(s.registry.row_id(r), Some(id.as_str()));
        }
        prop_assert!(parse_ref(r).is_some(), "malformed ref {}", r);
    }
    // A dropped ref never comes back to life.
    for r in s.registry.dropped().keys() {
        prop_assert!(
            !s.registry.is_live_ref(r),
            "dropped ref {} is live again",
            r
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn registry_invariants_hold(ops in prop::collection::vec(op(), 1..300)) {
        let mut s = ContextState::new(ContextPolicy::default());
        s.begin_turn();
        let mut ever = BTreeMap::new();
        let mut saved = 0;
        for op in &ops {
            apply(&mut s, op, &mut saved);
            check_registry(&s, &mut ever)?;
        }
        // Every live entity is in exactly one snapshot group.
        let snap = s.snapshot();
        let listed: usize = [EntityState::Recent, EntityState::Retained, EntityState::Pending, EntityState::Excluded, EntityState::Background]
            .into_iter()
            .map(|st| snap.entities.count(st))
            .sum();
        prop_assert_eq!(listed, s.registry.len());
        // And it survives a serde round trip unchanged.
        let back: ContextState = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        prop_assert_eq!(back, s);
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn no_layer_grows_without_bound(seed_ops in prop::collection::vec(op(), 10..40), tiered in any::<bool>()) {
        let policy = if tiered {
            ContextPolicy { policy: PolicyKind::Tiered, ..ContextPolicy::default() }
        } else {
            ContextPolicy::default()
        };
        let mut s = ContextState::new(policy.clone());
        let mut saved = 0;
        // 1,000 turns: the random ops, then a turn, over and over.
        while s.turn < 1000 {
            for op in &seed_ops {
                match op {
                    Op::NextTurn => {}
                    // One draft per turn at most, so the registry's own growth
                    // (a new ref per draft) stays measurable.
                    Op::Generate(t) if !s.turn.is_multiple_of(10) => apply(&mut s, &Op::Read(*t, 0), &mut saved),
                    _ => apply(&mut s, op, &mut saved),
                }
            }
            apply(&mut s, &Op::NextTurn, &mut saved);
            prop_assert!(s.narrative.recent().len() < policy.narrative_turns + policy.fold_every());
            prop_assert!(s.conversation.recent().len() < policy.conversation_full_turns().saturating_add(policy.fold_every()));
            prop_assert!(s.conversation.bullets().len() <= policy.tiered.bullet_turns + policy.tiered.summary_every as usize);
            prop_assert!(s.narrative.awaiting_fold().is_empty() && s.conversation.awaiting_fold().is_empty());
            prop_assert!(s.narrative.earlier().chars().count() <= EARLIER_MAX_CHARS);
            prop_assert!(s.conversation.history_summary().chars().count() <= EARLIER_MAX_CHARS);
            prop_assert!(s.decision_log.len() <= policy.decision_log_cap);
            prop_assert!(s.understand_turns.len() < policy.understand_window + policy.fold_every());
        }
        // The registry is bounded by the rows and drafts it was shown: 8 tables
        // × 20 rows, plus one ref per generated draft (one every 10th turn
        // per Generate op).
        let generated = seed_ops.iter().filter(|o| matches!(o, Op::Generate(_))).count() * 100;
        prop_assert!(s.registry.len() <= 160 + generated, "registry holds {}", s.registry.len());
    }
}
