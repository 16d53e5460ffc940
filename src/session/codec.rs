//! How a transcript is stored: every turn record in full, except that the
//! background entities — most of a long session's bytes, and nearly the same
//! from one turn to the next — are written as a change against the turn
//! before (`entities.background_delta`). Loading rebuilds every record
//! exactly; transcripts written without deltas (schema 2) load unchanged.
//!
//! Typed all the way (no `serde_json::Value`, whose maps would reorder the
//! prompts' sections). Used as `#[serde(with = "codec")]` on the transcript.

use serde::de::Error as _;
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::context::snapshot::BackgroundDelta;
use crate::record::TurnRecord;

/// Writes records, background as a delta after the first.
pub fn serialize<S: Serializer>(records: &[TurnRecord], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(records.len()))?;
    let mut previous: Option<&TurnRecord> = None;
    for record in records {
        match previous {
            None => seq.serialize_element(record)?,
            Some(prev) => {
                let mut stored = record.clone();
                let delta = BackgroundDelta::between(
                    &prev.entities.background,
                    &record.entities.background,
                );
                stored.entities.background = Vec::new();
                stored.entities.background_delta = Some(delta);
                seq.serialize_element(&stored)?;
            }
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
