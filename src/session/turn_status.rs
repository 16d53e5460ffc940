//! How a turn ended, read from a journal's turn line without rebuilding
//! its record: what a listing needs to count completed turns apart from
//! failed and cancelled attempts.
//!
//! A turn line writes its record as a [`Delta`](super::delta::Delta)
//! against the turn before; the status is one key of it. Only that key is
//! decoded, the rest of the delta is skipped unread (still checked as JSON),
//! and the line's texts, prompts and state are never looked at. Pure.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::record::TurnStatus;

/// The status a turn line's record gives, or `None` when the line leaves it
/// as the turn before had it (or says nothing a listing can read, which a
/// full load checks).
pub fn status_of_line(line: &str) -> Option<TurnStatus> {
    // The line's plain fields come first; the first `,"record":` is its key
    // (`,"` never occurs inside a JSON string, whose quotes are escaped).
    const KEY: &str = ",\"record\":";
    let at = line.find(KEY)? + KEY.len();
    let mut de = serde_json::Deserializer::from_str(&line[at..]);
    // Only the record's value is read; the fields after it are not.
    StatusChange::deserialize(&mut de).ok()?.0
}

/// What a record delta does to `status`.
struct StatusChange(Option<TurnStatus>);

impl<'de> Deserialize<'de> for StatusChange {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(DeltaVisitor)
    }
}

/// A whole record: only its status is kept.
#[derive(Deserialize)]
struct WholeRecord {
    #[serde(default)]
    status: Option<TurnStatus>,
}

/// A key by key change of the record.
#[derive(Deserialize)]
struct ObjectChange {
    #[serde(default)]
    set: KeyChanges,
    #[serde(default)]
    del: Vec<String>,
}

/// The status a delta of the status key sets: only a whole new value is
/// expected (`{"=":"failed"}`).
#[derive(Deserialize)]
enum StatusDelta {
    #[serde(rename = "=")]
    Set(TurnStatus),
}

/// The `[key, delta]` pairs of an object change, `status` decoded.
#[derive(Default)]
struct KeyChanges(Option<TurnStatus>);

struct DeltaVisitor;

impl<'de> Visitor<'de> for DeltaVisitor {
    type Value = StatusChange;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a record delta")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StatusChange, A::Error> {
        let mut change = None;
        while let Some(tag) = map.next_key::<String>()? {
            change = match tag.as_str() {
                "=" => map.next_value::<WholeRecord>()?.status,
                "o" => {
                    let o = map.next_value::<ObjectChange>()?;
                    if o.del.iter().any(|k| k == "status") {
                        None
                    } else {
                        o.set.0
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    None
                }
            };
        }
        Ok(StatusChange(change))
    }
}

impl<'de> Deserialize<'de> for KeyChanges {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = KeyChanges;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of [key, delta] pairs")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KeyChanges, A::Error> {
                let mut status = None;
                while let Some(pair) = seq.next_element::<Pair>()? {
                    if let Some(s) = pair.0 {
                        status = Some(s);
                    }
                }
                Ok(KeyChanges(status))
            }
        }
        d.deserialize_seq(Pairs)
    }
}

/// One `[key, delta]` pair: the status when the key is `status`.
struct Pair(Option<TurnStatus>);

impl<'de> Deserialize<'de> for Pair {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PairVisitor;
        impl<'de> Visitor<'de> for PairVisitor {
            type Value = Pair;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a [key, delta] pair")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Pair, A::Error> {
                let key: String = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let status = if key == "status" {
                    match seq.next_element::<StatusDelta>()? {
                        Some(StatusDelta::Set(s)) => Some(s),
                        None => return Err(de::Error::invalid_length(1, &self)),
                    }
                } else {
                    seq.next_element::<IgnoredAny>()?;
                    None
                };
                Ok(Pair(status))
            }
        }
        d.deserialize_seq(PairVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_is_read_from_a_whole_record_or_a_change() {
        let whole = r#"{"k":"turn","at":"t","turn":1,"user":"u","reply":"r","texts":[],"record":{"=":{"steps":[],"status":"failed","x":{"a":[1,2]}}},"state":{"=":{}}}"#;
        assert_eq!(status_of_line(whole), Some(TurnStatus::Failed));
        let changed = r#"{"k":"turn","at":"t","turn":2,"user":"u","reply":"r","record":{"o":{"set":[["goal",{"=":"x"}],["status",{"=":"ok"}],["steps",{"e":[{"c":2}]}]]}}}"#;
        assert_eq!(status_of_line(changed), Some(TurnStatus::Ok));
        let same = r#"{"k":"turn","at":"t","turn":3,"user":"u","reply":"r","record":{"o":{"set":[["goal",{"=":"y"}]]}},"prompts":{}}"#;
        assert_eq!(status_of_line(same), None);
        let no_record = r#"{"k":"turn","at":"t","turn":4,"user":"u","reply":"r"}"#;
        assert_eq!(status_of_line(no_record), None);
        // Text that only looks like a key is inside a string.
        let quoted = r#"{"k":"turn","at":"t","turn":5,"user":"say \",\"record\":{\"=\":{\"status\":\"failed\"}}","reply":"r","record":{"o":{}}}"#;
        assert_eq!(status_of_line(quoted), None);
    }
}
