//! Alfred's `recent_turns` (alfred-original.md §4.1) as the conversation
//! layer's recent turns: the words, the one-sentence summary of a long
//! reply, the time, and the refs each names.
//!
//! Alfred's recent turns carry no turn number: the last one is the turn of
//! `current_turn`, and the others count back from it.

use serde_json::Value;

use super::read::{Need, Obj, has_content, shape};
use super::report::ImportReport;
use crate::context::ConversationTurn;
use crate::context::registry::SessionIdRegistry;

/// The keys of one of Alfred's recent turns.
const TURN_KEYS: [&str; 6] = [
    "user",
    "assistant",
    "assistant_summary",
    "timestamp",
    "routing",
    "entities_mentioned",
];

/// Alfred's `recent_turns`, numbered back from `last` (the turn of the
/// newest one); turns that are not objects are left out (reported).
pub(super) fn recent_turns(
    state: Obj<'_>,
    last: u32,
    registry: &SessionIdRegistry,
    report: &mut ImportReport,
) -> Vec<ConversationTurn> {
    let Some(items) = state.list(
        "recent_turns",
        Need::Expected,
        "the History panel shows no recent turns",
        report,
    ) else {
        return Vec::new();
    };
    let path = "recent_turns[]";
    let maps: Vec<_> = items
        .iter()
        .filter_map(|item| {
            let map = item.as_object();
            if map.is_none() {
                report.defaulted(path, format!("holds {}, not a turn: left out", shape(item)));
            }
            map
        })
        .collect();
    let n = maps.len() as u32;
    let first = if last >= n {
        last + 1 - n
    } else {
        if n > 0 {
            report.defaulted(
                "current_turn",
                format!("is {last}, fewer than the {n} recent turns: they are numbered 1 to {n}"),
            );
        }
        1
    };
    maps.into_iter()
        .zip(first..)
        .map(|(map, turn)| one_turn(Obj { map, path }, turn, registry, report))
        .collect()
}

fn one_turn(
    o: Obj<'_>,
    turn: u32,
    registry: &SessionIdRegistry,
    report: &mut ImportReport,
) -> ConversationTurn {
    o.skip_unknown(&TURN_KEYS, report);
    let user = o.text("user", Need::Expected, "shown empty", report);
    let assistant = o.text("assistant", Need::Expected, "shown empty", report);
    let assistant = assistant.unwrap_or_default().to_string();
    // Alfred keeps short replies verbatim as their own summary; here a
    // short reply has none.
    let summary = o
        .text(
            "assistant_summary",
            Need::Optional,
            "shown without one",
            report,
        )
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != assistant.trim())
        .map(str::to_string);
    let at = o.text("timestamp", Need::Expected, "shown without a time", report);
    if o.map.get("routing").is_some_and(has_content) {
        report.not_shown(
            o.key_path("routing"),
            "the router's choice for the turn (agent, goal, complexity); alfred has no router",
        );
    }
    let named = o
        .list("entities_mentioned", Need::Optional, "none kept", report)
        .unwrap_or_default();
    let (live, other): (Vec<&Value>, Vec<&Value>) = named
        .iter()
        .partition(|v| v.as_str().is_some_and(|r| registry.is_live_ref(r)));
    if !other.is_empty() {
        report.not_shown(
            o.key_path("entities_mentioned"),
            "names entities that are not live refs of the registry: those are not kept",
        );
    }
    ConversationTurn {
        turn,
        user: user.unwrap_or_default().to_string(),
        assistant,
        assistant_summary: summary,
        entities_mentioned: live
            .into_iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        at: at.map(str::to_string),
    }
}
