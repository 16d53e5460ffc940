//! Alfred's saved conversation state as the parts of an alfred session, so
//! a real Alfred conversation can be opened and inspected in the panels.
//!
//! The input is what Alfred keeps in `conversations.state` (one row per
//! user; alfred-original.md §4.1 and §7.1): the conversation dict Summarize
//! writes, its `id_registry` inside — or a whole row (`{"user_id", "state",
//! …}`), whose `state` is taken. [`import`] maps it to a [`ContextState`]
//! and an [`ImportReport`]; the report's [`note`](ImportReport::note) is
//! what the new session shows first. Reading is forgiving: unknown keys are
//! skipped, missing or misshapen values defaulted, each reported in words a
//! user can act on. Only input whose top level is not an object fails.
//!
//! Where each key lands:
//! - `id_registry` → the registry ([`refs`]): refs, labels, types, actions,
//!   turns, retention reasons, pending artifacts, promotions, counters;
//! - `recent_turns`, `history_summary` → the conversation layer (History);
//! - `turn_summaries`, `reasoning_summary` → the narrative layer;
//! - `understand_decision_log` → the decision log (and the turn of a
//!   retention or demotion it records);
//! - `pending_clarification` → the question the last turn's dialogue waits on;
//! - `current_turn` → the session's turn;
//! - `session_id`, `last_active_at`, the row's `user_id` → the note;
//! - the rest of Alfred's keys are read but not shown ([`UNUSED_KEYS`]).
//!
//! Pure: no IO, no clock. The CLI reads the file; a later Postgres path can
//! hand the `conversations` row's value to [`import`] the same way.

mod history;
mod narrative;
pub mod prompt_logs;
mod read;
mod ref_values;
mod refs;
mod report;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use serde_json::{Map, Value};

pub use report::{Counts, Finding, ImportReport, Origin};

use crate::context::{
    AnnotatedTurn, Cause, ContextPolicy, ContextState, ConversationLayer, ConversationTurn,
    EntityNote, EntityState, NarrativeLayer, SessionIdRegistry,
};
use read::{Need, Obj, has_content, shape, size, turn_of};

/// The keys of a `conversations` row.
const ROW_KEYS: [&str; 6] = [
    "user_id",
    "state",
    "created_at",
    "last_active_at",
    "title",
    "is_archived",
];

/// The conversation dict's keys that land somewhere.
const USED_KEYS: [&str; 11] = [
    "recent_turns",
    "history_summary",
    "id_registry",
    "pending_clarification",
    "understand_decision_log",
    "turn_summaries",
    "reasoning_summary",
    "current_turn",
    "session_id",
    "last_active_at",
    "created_at",
];

/// Alfred's keys that alfred has no place for, with what they hold.
pub const UNUSED_KEYS: [(&str, &str); 6] = [
    (
        "engagement_summary",
        "Alfred's engagement summary (which Alfred never updates); alfred has no place for it",
    ),
    (
        "active_entities",
        "Alfred's older entity tracking, superseded by its registry (imported)",
    ),
    (
        "all_entities",
        "Alfred's older entity tracking, superseded by its registry (imported)",
    ),
    (
        "step_summaries",
        "summaries of older steps, which alfred does not keep",
    ),
    (
        "content_archive",
        "Act's archive of generated and analysed content; alfred keeps no such archive",
    ),
    (
        "turn_step_results",
        "the rows Act saw in the last turns' steps; alfred reads rows from its own kitchen",
    ),
];

/// Why the input cannot be imported at all.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The text is not JSON (the parser's words say where).
    #[error("it is not JSON: {0}")]
    NotJson(serde_json::Error),
    /// The top level is not an object.
    #[error(
        "its top level is {0}, not an object: Alfred's state is a JSON object (a \
         `conversations.state` value, or a whole row with a `state`)"
    )]
    NotAnObject(&'static str),
    /// A row's `state` is not an object (nor JSON text of one).
    #[error("it holds a `conversations` row whose `state` is {0}, not an object")]
    StateNotAnObject(String),
}

/// An imported state: the context layers and what the import did.
#[derive(Debug, Clone)]
pub struct Imported {
    pub context: ContextState,
    pub report: ImportReport,
    /// Alfred's last turn as a record, when its prompt logs hold it.
    pub record: Option<crate::record::TurnRecord>,
}

impl Imported {
    /// Fills `session`, a new session made for the import: the imported
    /// layers, the title (`title`, else "Alfred state NAME"), and first in
    /// its chat the note saying where they came from (`name`: the file or
    /// the user) and what was imported. Gives the report back.
    pub fn into_session(
        self,
        session: &mut super::SessionFile,
        name: &str,
        title: Option<&str>,
    ) -> ImportReport {
        session.set_title(title.unwrap_or(&format!("Alfred state {name}")));
        session.context = self.context;
        session.notes.push(super::SessionNote {
            turn: session.context.turn,
            text: self.report.note(name),
        });
        if let Some(r) = self.record {
            session.transcript.push(r);
        }
        self.report
    }

    /// Makes Alfred's last turn a turn record holding its prompts, from the
    /// logged turn (of `turns`, in run and call order) whose prompts quote
    /// the user's last message: its layers as the imported state has them,
    /// its prompts and responses as Alfred logged them. Says in the report
    /// what was attached, or why nothing was.
    /// Alfred's last turn as a turn record: its message and reply (the last
    /// recent turn), its layers as this state has them, no prompts.
    /// `None` when the state has no recent turn.
    pub fn turn_record(&self) -> Option<crate::record::TurnRecord> {
        let last = self.context.conversation.recent().next_back()?;
        let mut record = crate::record::TurnRecord {
            turn: last.turn,
            user: last.user.clone(),
            reply: last.assistant.clone(),
            llm: "Alfred (imported)".into(),
            started_at: last.at.clone().unwrap_or_default(),
            ..Default::default()
        };
        record.set_snapshot(self.context.snapshot());
        Some(record)
    }

    pub fn attach_prompt_logs(&mut self, turns: &[Vec<prompt_logs::LoggedCall>]) {
        let Some(last) = self.context.conversation.recent().next_back().cloned() else {
            self.report.logs = Some("no recent turn to attach Alfred's prompt logs to".into());
            return;
        };
        let Some(calls) = prompt_logs::turn_for(turns, &last.user) else {
            self.report.logs = Some(format!(
                "none of the {} logged turns quotes the last message (“{}”): no prompts attached",
                turns.len(),
                crate::text::one_line(&last.user)
            ));
            return;
        };
        let (prompts, left_out) = prompt_logs::prompts_of(calls);
        let Some(mut record) = self.turn_record() else {
            return;
        };
        record.prompts = prompts;
        if let Some(at) = calls.iter().find_map(|c| c.at.clone()) {
            record.started_at = at;
        }
        let mut said = format!(
            "turn {} has a record holding Alfred's {} logged calls for it ({})",
            last.turn,
            calls.len(),
            calls
                .iter()
                .map(|c| format!("{} {}", c.call_number, c.node))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if !left_out.is_empty() {
            said.push_str(&format!("; left out: {}", left_out.join(", ")));
        }
        self.report.logs = Some(said);
        self.record = Some(record);
    }
}

/// Imports the JSON bytes of Alfred's state (or of a whole row).
pub fn import_json(bytes: &[u8], policy: &ContextPolicy) -> Result<Imported, ImportError> {
    let value: Value = serde_json::from_slice(bytes).map_err(ImportError::NotJson)?;
    import(&value, policy)
}

/// Imports Alfred's state (a `conversations.state` value, or a whole row)
/// under `policy`. Unknown keys are skipped and missing or misshapen values
/// defaulted, each reported; only a top level (or a row's `state`) that is
/// not an object is an error.
pub fn import(value: &Value, policy: &ContextPolicy) -> Result<Imported, ImportError> {
    let Value::Object(top) = value else {
        return Err(ImportError::NotAnObject(shape(value)));
    };
    let mut report = ImportReport::default();
    let from_row;
    let state: &Map<String, Value> = if is_row(top) {
        report.origin.row = true;
        from_row = row_state(top, &mut report)?;
        &from_row
    } else {
        top
    };
    let state = Obj {
        map: state,
        path: "",
    };
    let mut known: Vec<&str> = USED_KEYS.to_vec();
    known.extend(UNUSED_KEYS.iter().map(|(k, _)| *k));
    state.skip_unknown(&known, &mut report);
    report.origin.alfred_keys = state
        .map
        .keys()
        .filter(|k| known.contains(&k.as_str()))
        .count();
    let (context, asked) = context_of(state, policy, &mut report);
    report.counts = counts(&context, asked);
    note_unused(state, &mut report);
    let o = &mut report.origin;
    if o.session_id.is_none() {
        o.session_id = text_of(state.map, "session_id");
    }
    if o.last_active_at.is_none() {
        o.last_active_at = text_of(state.map, "last_active_at");
    }
    Ok(Imported {
        context,
        report,
        record: None,
    })
}

/// True when the object is a `conversations` row rather than its state.
fn is_row(top: &Map<String, Value>) -> bool {
    top.contains_key("state")
        && !top.contains_key("id_registry")
        && !top.contains_key("recent_turns")
}

/// A row's `state` (an object, or JSON text of one), its other keys noted.
fn row_state(
    top: &Map<String, Value>,
    report: &mut ImportReport,
) -> Result<Map<String, Value>, ImportError> {
    let row = Obj { map: top, path: "" };
    row.skip_unknown(&ROW_KEYS, report);
    let o = &mut report.origin;
    o.user_id = text_of(top, "user_id");
    o.title = text_of(top, "title");
    o.last_active_at = text_of(top, "last_active_at");
    if top.get("is_archived").and_then(Value::as_bool) == Some(true) {
        report.not_shown(
            "is_archived",
            "is true: Alfred had archived this conversation",
        );
    }
    match top.get("state") {
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => Ok(m),
            Ok(v) => Err(ImportError::StateNotAnObject(format!(
                "JSON text of {}",
                shape(&v)
            ))),
            Err(_) => Err(ImportError::StateNotAnObject(
                "text that is not JSON".into(),
            )),
        },
        Some(v) => Err(ImportError::StateNotAnObject(shape(v).to_string())),
        None => Err(ImportError::StateNotAnObject("missing".into())),
    }
}

/// Text at `key`, trimmed, when there is some.
fn text_of(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// The context layers of the state.
/// The context layers of Alfred's state, and whether a question of Alfred's
/// was waiting (`pending_clarification`).
fn context_of(
    state: Obj<'_>,
    policy: &ContextPolicy,
    report: &mut ImportReport,
) -> (ContextState, bool) {
    let registry_map = state.object(
        "id_registry",
        Need::Expected,
        "no entity is imported",
        report,
    );
    let empty = Map::new();
    let reg = Obj {
        map: registry_map.unwrap_or(&empty),
        path: "id_registry",
    };
    if report.origin.session_id.is_none() {
        report.origin.session_id = text_of(reg.map, "session_id");
    }
    let (anchor, turn) = turns(state, reg, report);
    let log = narrative::decision_log(state, report);
    let registry = if registry_map.is_some() {
        refs::import_registry(reg, turn, &log, report)
    } else {
        Default::default()
    };
    let recent = history::recent_turns(state, anchor, &registry, report);
    let turn = turn.max(recent.last().map_or(0, |t| t.turn));
    let mut summaries = narrative::turn_summaries(state, &recent, report);
    let asked = narrative::pending_clarification(state, anchor, &mut summaries, &recent, report);
    let turn = turn.max(summaries.last().map_or(0, |s| s.turn_number));
    let history = state
        .text(
            "history_summary",
            Need::Expected,
            "no earlier summary in History",
            report,
        )
        .unwrap_or_default();
    let reasoning = state
        .text(
            "reasoning_summary",
            Need::Expected,
            "no earlier summary in Narrative",
            report,
        )
        .unwrap_or_default();
    let mut context = ContextState::new(policy.clone());
    context.turn = turn;
    context.understand_turns = annotated(&recent, &registry, policy.understand_window);
    context.registry = registry;
    context.narrative =
        NarrativeLayer::restore(reasoning, summaries, policy.narrative_full_turns());
    context.conversation = ConversationLayer::restore(history, recent, policy);
    for entry in log {
        context.decision_log.push(entry, policy.decision_log_cap);
    }
    context.import_skipped = report.skipped_refs.iter().cloned().collect();
    (context, asked)
}

/// The last `window` recent turns as Understand sees them, with the refs
/// each names.
fn annotated(
    recent: &[ConversationTurn],
    registry: &SessionIdRegistry,
    window: usize,
) -> VecDeque<AnnotatedTurn> {
    let skip = recent.len().saturating_sub(window.max(1));
    recent
        .iter()
        .skip(skip)
        .map(|t| AnnotatedTurn {
            turn: t.turn,
            user: t.user.clone(),
            assistant: t.assistant_for_context().to_string(),
            entities: t
                .entities_mentioned
                .iter()
                .filter_map(|r| {
                    registry.get(r).map(|e| EntityNote {
                        r#ref: r.clone(),
                        action: e.action_label(),
                    })
                })
                .collect(),
        })
        .collect()
}

/// The turn the recent turns end at (`current_turn`) and the session's turn
/// (the later of it and the registry's: Alfred saves the dict once before
/// Summarize, with the registry a turn ahead).
fn turns(state: Obj<'_>, reg: Obj<'_>, report: &mut ImportReport) -> (u32, u32) {
    let effect = "the registry's turn, or the latest turn the state mentions, is used";
    let said = state.turn("current_turn", Need::Optional, effect, report);
    let registry = reg.turn(
        "current_turn",
        Need::Optional,
        "the conversation's current_turn is used",
        report,
    );
    let anchor = match (said, registry) {
        (Some(t), _) => t,
        (None, Some(r)) => {
            report.defaulted(
                "current_turn",
                format!("is missing: the registry's turn {r} is used"),
            );
            r
        }
        (None, None) => {
            let latest = latest_mentioned(state, reg);
            report.defaulted(
                "current_turn",
                format!("is missing (in the registry too): turn {latest}, the latest the state mentions, is used"),
            );
            latest
        }
    };
    let turn = match registry {
        Some(r) if r > anchor => {
            report.defaulted(
                "current_turn",
                format!(
                    "is {anchor} but `id_registry.current_turn` is {r} (Alfred saved the state \
                     before summarising turn {r}): the session is at turn {r}, and turn {r}'s \
                     exchange is not among the recent turns"
                ),
            );
            r
        }
        _ => anchor,
    };
    (anchor, turn)
}

/// The latest turn any ref, recent turn or summary mentions.
fn latest_mentioned(state: Obj<'_>, reg: Obj<'_>) -> u32 {
    let refs = ["ref_turn_last_ref", "ref_turn_created"]
        .iter()
        .filter_map(|k| reg.map.get(*k).and_then(Value::as_object))
        .flat_map(|m| m.values())
        .filter_map(turn_of);
    let summaries = state
        .map
        .get("turn_summaries")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|s| s.get("turn_num").and_then(turn_of));
    let recent = state
        .map
        .get("recent_turns")
        .and_then(Value::as_array)
        .map_or(0, |a| a.len() as u32);
    refs.chain(summaries).max().unwrap_or(0).max(recent)
}

/// What landed where, from the imported layers.
fn counts(context: &ContextState, pending_clarification: bool) -> Counts {
    let snap = context.snapshot();
    let e = &snap.entities;
    Counts {
        turn: context.turn,
        entities: context.registry.len(),
        recent: e.count(EntityState::Recent),
        retained: e
            .retained
            .iter()
            .filter(|v| matches!(v.cause, Cause::Retained { .. }))
            .count(),
        pending: e.count(EntityState::Pending),
        excluded: e.count(EntityState::Excluded),
        background: e.count(EntityState::Background),
        recent_turns: context.conversation.recent().len()
            + context.conversation.awaiting_fold().len(),
        turn_summaries: context.narrative.recent().len() + context.narrative.awaiting_fold().len(),
        decisions: context.decision_log.len(),
        history_summary: !context.conversation.history_summary().is_empty(),
        reasoning_summary: !context.narrative.earlier().is_empty(),
        pending_clarification,
    }
}

/// Alfred's keys that hold something alfred has no place for.
fn note_unused(state: Obj<'_>, report: &mut ImportReport) {
    for (key, why) in UNUSED_KEYS {
        if let Some(v) = state.map.get(key).filter(|v| has_content(v)) {
            report.not_shown(key, format!("({}): {why}", size(v)));
        }
    }
    if let Some(v) = state.map.get("created_at").filter(|v| has_content(v)) {
        let when = v.as_str().map_or(size(v), str::to_string);
        report.not_shown(
            "created_at",
            format!("({when}): when Alfred's conversation began; the new session's own time is the import's"),
        );
    }
}
