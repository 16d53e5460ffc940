//! Alfred's `id_registry` (alfred-original.md §2.1) as a
//! [`SessionIdRegistry`]: each live ref keeps its name, row id, label, type,
//! action (`[updated:user]` included), turns created and last referenced,
//! Understand's retention reason, its pending content (gen refs) and the
//! turn it was promoted; the counters go on from Alfred's.
//!
//! Alfred's live refs are the keys of `ref_to_uuid`: its `remove_ref` forgets
//! only that mapping, so refs the other maps still name were dropped there
//! and are left out (their numbers are never reused).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::read::{Need, Obj, has_content, shape, size, turn_of};
use super::ref_values::{One, PENDING_PREFIX, not_a_ref, table_of_type};
use super::report::ImportReport;
use crate::context::curation::{DecisionAction, DecisionLogEntry};
use crate::context::entity::{Table, parse_ref};
use crate::context::registry::{Demotion, RefEntry, RetainedBy, Retention, SessionIdRegistry};

/// The keys of Alfred's serialised registry (`to_dict`).
pub(super) const REGISTRY_KEYS: [&str; 16] = [
    "session_id",
    "ref_to_uuid",
    "uuid_to_ref",
    "counters",
    "gen_counters",
    "pending_artifacts",
    "ref_actions",
    "ref_labels",
    "ref_types",
    "ref_detail_tracking",
    "ref_turn_created",
    "ref_turn_last_ref",
    "ref_source_step",
    "ref_turn_promoted",
    "current_turn",
    "ref_active_reason",
];

/// The per-ref maps that name refs besides `ref_to_uuid`.
const PER_REF: [&str; 7] = [
    "ref_labels",
    "ref_types",
    "ref_actions",
    "ref_turn_created",
    "ref_turn_last_ref",
    "ref_active_reason",
    "pending_artifacts",
];

/// The registry's per-ref maps, each `None` when missing (told once).
struct Maps<'a> {
    labels: Option<&'a Map<String, Value>>,
    types: Option<&'a Map<String, Value>>,
    actions: Option<&'a Map<String, Value>>,
    created: Option<&'a Map<String, Value>>,
    last_ref: Option<&'a Map<String, Value>>,
    reasons: Option<&'a Map<String, Value>>,
    pending: Option<&'a Map<String, Value>>,
    promoted: Option<&'a Map<String, Value>>,
}

impl<'a> Maps<'a> {
    fn read(reg: Obj<'a>, report: &mut ImportReport) -> Self {
        let mut map = |key: &str, need: Need, effect: &str| reg.object(key, need, effect, report);
        Maps {
            labels: map(
                "ref_labels",
                Need::Expected,
                "entities are shown by their refs",
            ),
            types: map(
                "ref_types",
                Need::Expected,
                "each ref's prefix gives its type",
            ),
            actions: map(
                "ref_actions",
                Need::Expected,
                "entities are shown as [read] ([generated] while unsaved)",
            ),
            created: map(
                "ref_turn_created",
                Need::Expected,
                "entities are shown as created at turn 0",
            ),
            last_ref: map(
                "ref_turn_last_ref",
                Need::Expected,
                "entities count as never referenced (background)",
            ),
            reasons: map(
                "ref_active_reason",
                Need::Expected,
                "no entity is retained with a reason",
            ),
            pending: map(
                "pending_artifacts",
                Need::Expected,
                "unsaved drafts are shown without their content",
            ),
            promoted: map("ref_turn_promoted", Need::Optional, "no promotion turns"),
        }
    }
}

/// The registry of Alfred's `id_registry` at `turn`, with the decision log
/// (already imported) giving the turn of a retention or a demotion when it
/// records one.
pub(super) fn import_registry(
    reg: Obj<'_>,
    turn: u32,
    log: &[DecisionLogEntry],
    report: &mut ImportReport,
) -> SessionIdRegistry {
    reg.skip_unknown(&REGISTRY_KEYS, report);
    let mut registry = SessionIdRegistry::new();
    let maps = Maps::read(reg, report);
    let live = reg
        .object(
            "ref_to_uuid",
            Need::Expected,
            "Alfred's registry has no live refs without it, so no entity is imported",
            report,
        )
        .cloned()
        .unwrap_or_default();
    let mut entries: Vec<(String, RefEntry)> = live
        .iter()
        .filter_map(|(r, row)| entry(r, row, &maps, turn, log, report).map(|e| (r.clone(), e)))
        .collect();
    entries.sort_by_key(|(r, e)| order(r, e));
    for (r, e) in entries {
        // Parsed and of its own table: `entry` checked.
        let _ = registry.restore(&r, e);
    }
    raise_counters(&mut registry, reg, report);
    note_removed(&mut registry, reg, &live, report);
    note_unused(reg, report);
    registry
}

/// Registration order: by turn created, then type, then number.
fn order(r: &str, e: &RefEntry) -> (u32, usize, bool, u32) {
    let p = parse_ref(r);
    let table = Table::ALL.iter().position(|t| *t == e.table).unwrap_or(0);
    (
        e.turn_created,
        table,
        p.is_some_and(|p| p.generated),
        p.map_or(0, |p| p.number),
    )
}

/// The entry of one live ref, or `None` (reported) when it cannot be one.
fn entry(
    r: &str,
    row: &Value,
    maps: &Maps<'_>,
    turn: u32,
    log: &[DecisionLogEntry],
    report: &mut ImportReport,
) -> Option<RefEntry> {
    let Some(parsed) = parse_ref(r) else {
        report.skip(format!("id_registry.ref_to_uuid.{r}"), not_a_ref(r));
        report.skipped_refs.push((r.to_string(), not_a_ref(r)));
        return None;
    };
    let mut one = One { r, report };
    one.check_type(maps.types, parsed.table);
    let draft = parsed.generated
        && row
            .as_str()
            .is_some_and(|id| id.starts_with(PENDING_PREFIX));
    let row_id = one.row_id(row);
    let label = one
        .text(
            maps.labels,
            "ref_labels",
            Need::Expected,
            "shown as its ref",
        )
        .unwrap_or(r)
        .to_string();
    let (action, by_user) = one.action(maps.actions, draft);
    let created = "shown as created at turn 0";
    let turn_created = one.turn(maps.created, "ref_turn_created", Need::Expected, created);
    let never = "counted as never referenced (background)";
    let last_ref_turn = one.turn(maps.last_ref, "ref_turn_last_ref", Need::Expected, never);
    let last_ref_turn = last_ref_turn.unwrap_or(0);
    let retention = one
        .text(
            maps.reasons,
            "ref_active_reason",
            Need::Optional,
            "not retained",
        )
        .map(|reason| retention_of(r, reason, log, turn));
    let demotion = match retention {
        None => demotion_of(r, last_ref_turn, log).filter(|d| {
            // Alfred's code clears only the retention reason: a ref
            // referenced within its window stays recent in its prompts.
            let inside = turn.saturating_sub(last_ref_turn) <= ALFRED_WINDOW;
            if inside {
                one.report.as_alfred_does(
                    r,
                    format!(
                        "Alfred's Understand demoted it at turn {} (“{}”), but Alfred's code only \
                         clears a retention reason: referenced at turn {last_ref_turn}, it stays \
                         among the recent entities its Think and Act prompts show until turn {}, \
                         and is shown recent here as it is there (alfred itself would have \
                         excluded it at turn {}).",
                        d.turn,
                        d.reason,
                        last_ref_turn + ALFRED_WINDOW,
                        d.turn
                    ),
                );
            }
            !inside
        }),
        Some(_) => None,
    };
    let pending = draft.then(|| {
        let effect = "shown as pending with no content";
        one.get(maps.pending, "pending_artifacts", Need::Expected, effect)
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()))
    });
    let promoted_turn = one.turn(maps.promoted, "ref_turn_promoted", Need::Optional, "none");
    Some(RefEntry {
        table: parsed.table,
        row_id,
        label,
        action,
        by_user,
        turn_created: turn_created.unwrap_or(0),
        last_ref_turn,
        retention,
        demotion,
        pending,
        promoted_turn,
        imported_at: Some(turn),
        seq: 0,
    })
}

/// Understand's retention: at the turn the decision log records it with
/// the same reason, else Alfred's, at an unknown turn (the import's).
fn retention_of(r: &str, reason: &str, log: &[DecisionLogEntry], turn: u32) -> Retention {
    let logged = log
        .iter()
        .rev()
        .find(|d| d.r#ref == r && d.action == DecisionAction::Retain && d.reason.trim() == reason);
    match logged {
        Some(d) => Retention {
            reason: reason.to_string(),
            turn: d.turn,
            by: RetainedBy::Understand,
        },
        None => Retention {
            reason: reason.to_string(),
            turn,
            by: RetainedBy::Imported,
        },
    }
}

/// Alfred's window of recent entities (`get_active_entities(turns_window=2)`:
/// referenced at most this many turns ago).
const ALFRED_WINDOW: u32 = 2;

/// A demotion the decision log records as the last word on `r`, made at or
/// after its last reference (Alfred clears the reason and keeps no other
/// trace of it).
fn demotion_of(r: &str, last_ref_turn: u32, log: &[DecisionLogEntry]) -> Option<Demotion> {
    let d = log.iter().rev().find(|d| d.r#ref == r)?;
    (d.action == DecisionAction::Demote && d.turn >= last_ref_turn).then(|| Demotion {
        reason: if d.reason.trim().is_empty() {
            "not kept by Alfred's Understand (no reason given)".to_string()
        } else {
            d.reason.trim().to_string()
        },
        turn: d.turn,
    })
}

/// Raises the counters to Alfred's, so new refs continue its numbering.
fn raise_counters(registry: &mut SessionIdRegistry, reg: Obj<'_>, report: &mut ImportReport) {
    for (key, generated) in [("counters", false), ("gen_counters", true)] {
        let effect = "new refs continue after the highest ref imported";
        let Some(counters) = reg.object(key, Need::Expected, effect, report) else {
            continue;
        };
        for (t, n) in counters {
            // Alfred's cooking log and flavour preferences have no refs here.
            let Some(table) = table_of_type(t) else {
                continue;
            };
            match turn_of(n) {
                Some(n) => registry.raise_counter(table, generated, n),
                None => report.defaulted(
                    format!("id_registry.{key}.{t}"),
                    format!("is {}, not a count: {effect}", shape(n)),
                ),
            }
        }
    }
}

/// Refs the other maps still name but `ref_to_uuid` does not: Alfred
/// removed them. Their numbers are not reused.
fn note_removed(
    registry: &mut SessionIdRegistry,
    reg: Obj<'_>,
    live: &Map<String, Value>,
    report: &mut ImportReport,
) {
    let removed: BTreeSet<&str> = PER_REF
        .iter()
        .filter_map(|k| reg.map.get(*k).and_then(Value::as_object))
        .flat_map(|m| m.keys())
        .map(String::as_str)
        .filter(|r| !live.contains_key(*r))
        .collect();
    for p in removed.iter().filter_map(|r| parse_ref(r)) {
        registry.raise_counter(p.table, p.generated, p.number);
    }
    if removed.is_empty() {
        return;
    }
    let mut named: Vec<&str> = removed.iter().copied().take(5).collect();
    if removed.len() > 5 {
        named.push("…");
    }
    report.not_shown(
        "id_registry.ref_to_uuid",
        format!(
            "lacks {} that other maps still name ({}): Alfred removed {} (a drop, a fresh \
             start or a delete), so {} not imported, and no number is reused",
            crate::text::count(removed.len(), "ref", "refs"),
            named.join(", "),
            if removed.len() == 1 { "it" } else { "them" },
            if removed.len() == 1 {
                "it is"
            } else {
                "they are"
            },
        ),
    );
}

/// The registry's keys that hold something alfred has no place for.
fn note_unused(reg: Obj<'_>, report: &mut ImportReport) {
    let unused = [
        (
            "ref_detail_tracking",
            "how fully each recipe was read (summary or full); alfred does not track it",
        ),
        (
            "ref_source_step",
            "which step registered each ref; alfred does not track it",
        ),
    ];
    for (key, why) in unused {
        if let Some(v) = reg.map.get(key).filter(|v| has_content(v)) {
            report.not_shown(reg.key_path(key), format!("({}): {why}", size(v)));
        }
    }
}
