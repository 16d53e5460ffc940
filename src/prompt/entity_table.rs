//! The entity layer as Understand sees it (seeds/003 §5): the full registry
//! view as a table with states and reasons, the decision log, and which
//! entities are at risk of leaving the window.
//!
//! Only Understand may be shown these reasons; Think and Act get
//! [`super::entities`] instead. Pure text; the section escapes it.

use crate::context::active::{Cause, EntityState};
use crate::context::curation::{DecisionAction, DecisionLogEntry};
use crate::context::snapshot::{ContextSnapshot, EntityView};

use super::entities::{collapse_alike, compact_refs, items, list, plural, seen_turn};

/// Rows of the known-entities table before the rest is only counted.
pub const TABLE_ROWS: usize = 40;

/// The marker on an entity that leaves the recent window after this turn
/// (explained once, in the list under the table).
pub const AT_RISK: &str = "at risk";

/// Recent entities that fall out of the window after this turn unless they
/// are referenced again or retained (seeds/003: "at risk!").
pub fn at_risk(s: &ContextSnapshot) -> Vec<&EntityView> {
    s.entities
        .recent
        .iter()
        .filter(|v| match v.cause {
            Cause::InWindow {
                last_ref_turn,
                window,
            } => last_ref_turn + window == s.turn,
            _ => false,
        })
        .filter(|v| !already_retained(s, &v.r#ref))
        .collect()
}

/// True when the decision log's latest word on a ref is a retain or a pin.
fn already_retained(s: &ContextSnapshot, r: &str) -> bool {
    s.decisions
        .iter()
        .rev()
        .find(|d| d.r#ref == r)
        .is_some_and(|d| matches!(d.action, DecisionAction::Retain | DecisionAction::Pin))
}

/// A table row: one entity, or a collapsed group of alike entities.
struct Row<'a> {
    state: EntityState,
    members: Vec<&'a EntityView>,
}

/// The grouping key of an entity: what its table row says.
type Key<'a> = (EntityState, &'a str, &'a str, u32, u32, Option<&'a str>);

/// Groups alike entities (same type, state, action, turns and reason — 59
/// pantry items warm for the same reason are one row) when there are more
/// than [`COLLAPSE_OVER`](super::entities::COLLAPSE_OVER); most recently
/// referenced first.
fn rows<'a>(s: &'a ContextSnapshot) -> Vec<Row<'a>> {
    let mut all: Vec<(EntityState, &EntityView)> = s.entities.all().collect();
    all.sort_by_key(|(_, v)| std::cmp::Reverse(seen_turn(v)));
    let key = |(st, v): &(EntityState, &'a EntityView)| -> Option<Key<'a>> {
        Some((
            *st,
            v.entity_type.as_str(),
            v.action.as_str(),
            v.turn_created,
            v.last_ref_turn,
            v.reason.as_deref(),
        ))
    };
    collapse_alike(&all, key)
        .into_iter()
        .map(|members| Row {
            state: members[0].0,
            members: members.iter().map(|(_, v)| *v).collect(),
        })
        .collect()
}

/// Makes text safe inside a markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "/").replace(['\n', '\r'], " ")
}

/// `known_entities`: the most recently referenced live entities (up to
/// [`TABLE_ROWS`] rows), with states and reasons, listed in the order they
/// first appeared (stable from turn to turn, for the prompt cache).
pub fn render_known_entities(s: &ContextSnapshot) -> String {
    let mut rows = rows(s);
    if rows.is_empty() {
        return "No entities known yet.".to_string();
    }
    let shown = rows.len().min(TABLE_ROWS);
    rows[..shown].sort_by_cached_key(|r| {
        r.members.first().map(|v| {
            let parsed = crate::context::entity::parse_ref(&v.r#ref);
            (
                v.turn_created,
                parsed.map(|p| (p.generated, p.table, p.number)),
                v.r#ref.clone(),
            )
        })
    });
    let risky: Vec<&str> = at_risk(s).iter().map(|v| v.r#ref.as_str()).collect();
    let mut out = vec![
        "| Ref | Type | Label | State | Last action | Created | Last ref | Reason |".to_string(),
        "|---|---|---|---|---|---|---|---|".to_string(),
    ];
    for row in &rows[..shown] {
        let Some(first) = row.members.first() else {
            continue;
        };
        let (refs, label) = if row.members.len() > 1 {
            let refs: Vec<&str> = row.members.iter().map(|v| v.r#ref.as_str()).collect();
            (
                compact_refs(&refs),
                plural(&first.entity_type, row.members.len()),
            )
        } else {
            (first.r#ref.clone(), cell(&first.label))
        };
        let mut state = row.state.as_str().to_string();
        if first.pinned {
            state.push_str(" (pinned)");
        }
        match (row.state, &first.cause) {
            (EntityState::Background, Cause::Demoted { turn, .. }) => {
                state.push_str(&format!(" (demoted at turn {turn})"));
            }
            (_, Cause::RuledOut { constraint, .. }) => {
                state.push_str(&format!(" (ruled out by {constraint})"));
            }
            _ => {}
        }
        if risky.contains(&first.r#ref.as_str()) {
            state = format!("{state}, {AT_RISK}");
        }
        out.push(format!(
            "| {refs} | {} | {label} | {state} | {} | {} | {} | {} |",
            first.entity_type,
            first.action,
            first.turn_created,
            first.last_ref_turn,
            cell(first.reason.as_deref().unwrap_or("")),
        ));
    }
    let hidden: usize = rows[shown..].iter().map(|r| r.members.len()).sum();
    if hidden > 0 {
        out.push(format!(
            "\n…and {hidden} older entities not shown (least recently referenced)."
        ));
    }
    let risky = at_risk(s);
    if !risky.is_empty() {
        out.push(
            "\nAt risk — these leave the window after this turn unless referenced or retained:"
                .to_string(),
        );
        out.push(list(&items(risky), |v| format!("{}: {}", v.r#ref, v.label)));
    }
    out.join("\n")
}

/// `previous_decisions`: the decision log Understand is shown, oldest first.
pub fn render_decision_log(decisions: &[DecisionLogEntry]) -> String {
    if decisions.is_empty() {
        return "No curation decisions yet.".to_string();
    }
    let mut out = vec![
        "| Turn | Ref | Decision | Reason |".to_string(),
        "|---|---|---|---|".to_string(),
    ];
    out.extend(decisions.iter().map(|d| {
        format!(
            "| {} | {} | {} | {} |",
            d.turn,
            cell(&d.r#ref),
            d.action.as_str(),
            cell(&d.reason)
        )
    }));
    out.join("\n")
}
