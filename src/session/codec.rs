//! How a transcript is stored: every turn record in full, except that the
//! background entities — most of a long session's bytes, and nearly the same
//! from one turn to the next — are written as a change against the turn
//! before (`entities.background_delta`). Loading rebuilds every record
//! exactly; transcripts written without deltas (schema 2) load unchanged.
//!
//! Typed all the way (no `serde_json::Value`, whose maps would reorder the
//! prompts' sections). Used as `#[serde(with = "codec")]` on the transcript.

use std::collections::BTreeMap;

use serde::de::Error as _;
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::context::snapshot::{
    BackgroundDelta, ConversationView, DroppedView, EntityView, NarrativeView,
};
use crate::context::{
    ConstraintOutcome, ConstraintView, CurationOutcome, DecisionLogEntry, PolicyKind,
};
use crate::record::{HeldBack, PromptsRecord, StepRecord, TurnRecord, TurnStatus};
use crate::turn::{Decision, Usage};

/// Writes records, background as a delta after the first.
pub fn serialize<S: Serializer>(records: &[TurnRecord], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(records.len()))?;
    let mut previous: Option<&TurnRecord> = None;
    for record in records {
        match previous {
            None => seq.serialize_element(record)?,
            Some(prev) => seq.serialize_element(&StoredRecord::after(prev, record))?,
        }
        previous = Some(record);
    }
    seq.end()
}

/// Reads records, applying background deltas in order.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<TurnRecord>, D::Error> {
    let mut records = Vec::<TurnRecord>::deserialize(d)?;
    for i in 1..records.len() {
        if let Some(delta) = records[i].entities.background_delta.take() {
            let rebuilt = delta
                .apply(&records[i - 1].entities.background)
                .map_err(|m| D::Error::custom(format!("turn record {}: {m}", i + 1)))?;
            records[i].entities.background = rebuilt;
        }
    }
    Ok(records)
}

/// A record after the first, as stored: the record's own fields, borrowed,
/// with `background` empty and `background_delta` set — the bytes of the
/// record so changed, without copying it. Same fields, order and skip rules
/// as [`TurnRecord`] (a test compares the bytes); the destructuring in
/// [`after`](Self::after) stops the build when a field is added there.
#[derive(Serialize)]
#[serde(rename = "TurnRecord")]
struct StoredRecord<'a> {
    turn: u32,
    user: &'a str,
    reply: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reply_cut: Option<&'a str>,
    status: TurnStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    decision: Option<Decision>,
    goal: &'a str,
    steps: &'a [StepRecord],
    entities: StoredEntities<'a>,
    constraints: &'a [ConstraintView],
    narrative: &'a NarrativeView,
    conversation: &'a ConversationView,
    policy: PolicyKind,
    window: u32,
    decisions: &'a [DecisionLogEntry],
    curation: &'a CurationOutcome,
    #[serde(skip_serializing_if = "ConstraintOutcome::is_empty")]
    constraint_changes: &'a ConstraintOutcome,
    #[serde(skip_serializing_if = "<[HeldBack]>::is_empty")]
    held_back: &'a [HeldBack],
    prompts: &'a PromptsRecord,
    timings_ms: &'a BTreeMap<String, f64>,
    usage: Usage,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost_usd: Option<f64>,
    llm: &'a str,
    started_at: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    suggestions: &'a [String],
}

/// [`EntitiesView`](crate::context::EntitiesView) as stored after the first
/// record: the background written as a delta.
#[derive(Serialize)]
#[serde(rename = "EntitiesView")]
struct StoredEntities<'a> {
    recent: &'a [EntityView],
    retained: &'a [EntityView],
    pending: &'a [EntityView],
    excluded: &'a [EntityView],
    background: &'a [EntityView],
    dropped: &'a [String],
    dropped_detail: &'a [DroppedView],
    background_delta: Option<BackgroundDelta>,
}

impl<'a> StoredRecord<'a> {
    /// `record` as stored after `prev`.
    fn after(prev: &TurnRecord, record: &'a TurnRecord) -> Self {
        let TurnRecord {
            turn,
            user,
            reply,
            reply_cut,
            status,
            error,
            decision,
            goal,
            steps,
            entities,
            constraints,
            narrative,
            conversation,
            policy,
            window,
            decisions,
            curation,
            constraint_changes,
            held_back,
            prompts,
            timings_ms,
            usage,
            cost_usd,
            llm,
            started_at,
            suggestions,
        } = record;
        let crate::context::EntitiesView {
            recent,
            retained,
            pending,
            excluded,
            background,
            dropped,
            dropped_detail,
            background_delta: _,
        } = entities;
        StoredRecord {
            turn: *turn,
            user,
            reply,
            reply_cut: reply_cut.as_deref(),
            status: *status,
            error: error.as_deref(),
            decision: *decision,
            goal,
            steps,
            entities: StoredEntities {
                recent,
                retained,
                pending,
                excluded,
                background: &[],
                dropped,
                dropped_detail,
                background_delta: Some(BackgroundDelta::between(
                    &prev.entities.background,
                    background,
                )),
            },
            constraints,
            narrative,
            conversation,
            policy: *policy,
            window: *window,
            decisions,
            curation,
            constraint_changes,
            held_back,
            prompts,
            timings_ms,
            usage: *usage,
            cost_usd: *cost_usd,
            llm,
            started_at,
            suggestions,
        }
    }
}

/// A transcript on its own, stored the same way (tests, benchmarks).
#[derive(Debug, Serialize, Deserialize)]
pub struct Transcript(#[serde(with = "self")] pub Vec<TurnRecord>);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::sample::sample_session;

    #[test]
    fn a_long_transcript_round_trips_exactly_and_shrinks() {
        let session = sample_session(300, 3);
        let full = serde_json::to_vec(&session.transcript).unwrap();
        let compact = serde_json::to_vec(&Transcript(session.transcript.clone())).unwrap();
        let back: Transcript = serde_json::from_slice(&compact).unwrap();
        assert!(
            back.0 == session.transcript,
            "records differ after the round trip"
        );
        // Background dominates long sessions; the rest (prompts, layers) stays.
        assert!(
            compact.len() * 10 < full.len() * 6,
            "{} vs {} bytes",
            compact.len(),
            full.len()
        );
    }

    #[test]
    fn a_stored_record_is_the_record_with_its_background_as_a_delta() {
        let mut transcript = sample_session(60, 4).transcript;
        transcript[7].cost_usd = None;
        transcript[8].decision = None;
        for pair in transcript.windows(2) {
            let (prev, record) = (&pair[0], &pair[1]);
            let mut changed = record.clone();
            changed.entities.background = Vec::new();
            changed.entities.background_delta = Some(BackgroundDelta::between(
                &prev.entities.background,
                &record.entities.background,
            ));
            assert_eq!(
                serde_json::to_string(&StoredRecord::after(prev, record)).unwrap(),
                serde_json::to_string(&changed).unwrap(),
                "turn {}",
                record.turn
            );
        }
    }

    #[test]
    fn transcripts_without_deltas_still_load() {
        let session = sample_session(5, 1);
        let full = serde_json::to_vec(&session.transcript).unwrap();
        let back: Transcript = serde_json::from_slice(&full).unwrap();
        assert!(back.0 == session.transcript, "records differ");
    }

    #[test]
    fn a_broken_delta_names_the_turn() {
        let session = sample_session(30, 1);
        let text = serde_json::to_string(&Transcript(session.transcript)).unwrap();
        let broken = text.replacen("\"order\":[\"", "\"order\":[\"nope_1\",\"", 1);
        assert_ne!(
            broken, text,
            "the sample has a reordered background somewhere"
        );
        let err = serde_json::from_str::<Transcript>(&broken)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("turn record") && err.contains("nope_1"),
            "{err}"
        );
    }
}
