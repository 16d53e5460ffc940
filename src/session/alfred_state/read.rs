//! Reading Alfred's JSON forgivingly: each value is taken when it has the
//! expected shape, and otherwise reported (missing, or of the wrong shape)
//! with what the import does instead. Nothing here fails or panics.

use serde_json::{Map, Value};

use super::report::ImportReport;

/// The shape of a JSON value, in words: "a number", "a list"….
pub(super) fn shape(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Whether a missing (or null) value is worth telling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Need {
    /// Alfred always writes it: missing is reported.
    Expected,
    /// Alfred may leave it out or null: missing is fine.
    Optional,
}

/// An object of Alfred's state and where it is (`id_registry`,
/// `recent_turns[]`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Obj<'a> {
    pub map: &'a Map<String, Value>,
    pub path: &'a str,
}

impl<'a> Obj<'a> {
    /// The path of `key` inside this object.
    pub fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// The value at `key`, if present and not null; a missing `Expected`
    /// one is reported with `effect`.
    fn value(
        &self,
        key: &str,
        need: Need,
        effect: &str,
        report: &mut ImportReport,
    ) -> Option<&'a Value> {
        match self.map.get(key) {
            Some(Value::Null) | None => {
                if need == Need::Expected {
                    let what = if self.map.contains_key(key) {
                        "is null"
                    } else {
                        "is missing"
                    };
                    report.defaulted(self.key_path(key), format!("{what}: {effect}"));
                }
                None
            }
            Some(v) => Some(v),
        }
    }

    /// Reports a value of the wrong shape.
    fn wrong(&self, key: &str, v: &Value, want: &str, effect: &str, report: &mut ImportReport) {
        report.defaulted(
            self.key_path(key),
            format!("is {}, not {want}: {effect}", shape(v)),
        );
    }

    /// Text at `key`.
    pub fn text(
        &self,
        key: &str,
        need: Need,
        effect: &str,
        report: &mut ImportReport,
    ) -> Option<&'a str> {
        let v = self.value(key, need, effect, report)?;
        match v.as_str() {
            Some(s) => Some(s),
            None => {
                self.wrong(key, v, "text", effect, report);
                None
            }
        }
    }

    /// A turn number (a whole number from 0) at `key`.
    pub fn turn(
        &self,
        key: &str,
        need: Need,
        effect: &str,
        report: &mut ImportReport,
    ) -> Option<u32> {
        let v = self.value(key, need, effect, report)?;
        match turn_of(v) {
            Some(n) => Some(n),
            None => {
                self.wrong(key, v, "a turn number", effect, report);
                None
            }
        }
    }

    /// A list at `key`.
    pub fn list(
        &self,
        key: &str,
        need: Need,
        effect: &str,
        report: &mut ImportReport,
    ) -> Option<&'a [Value]> {
        let v = self.value(key, need, effect, report)?;
        match v.as_array() {
            Some(items) => Some(items),
            None => {
                self.wrong(key, v, "a list", effect, report);
                None
            }
        }
    }

    /// An object at `key`.
    pub fn object(
        &self,
        key: &str,
        need: Need,
        effect: &str,
        report: &mut ImportReport,
    ) -> Option<&'a Map<String, Value>> {
        let v = self.value(key, need, effect, report)?;
        match v.as_object() {
            Some(m) => Some(m),
            None => {
                self.wrong(key, v, "an object", effect, report);
                None
            }
        }
    }

    /// Reports every key not in `known` as skipped.
    pub fn skip_unknown(&self, known: &[&str], report: &mut ImportReport) {
        for key in self.map.keys().filter(|k| !known.contains(&k.as_str())) {
            report.skip(
                self.key_path(key),
                "is not one of Alfred's keys this import knows: skipped",
            );
        }
    }
}

/// A turn number: a whole number from 0 that fits.
pub(super) fn turn_of(v: &Value) -> Option<u32> {
    v.as_u64().and_then(|n| u32::try_from(n).ok())
}

/// True when a value holds something: not null, not empty.
pub(super) fn has_content(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::String(s) => !s.trim().is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        Value::Bool(_) | Value::Number(_) => true,
    }
}

/// "3 entries", "12 characters": how much a value holds, for the report.
pub(super) fn size(v: &Value) -> String {
    match v {
        Value::String(s) => crate::text::count(s.chars().count(), "character", "characters"),
        Value::Array(a) => crate::text::count(a.len(), "item", "items"),
        Value::Object(o) => crate::text::count(o.len(), "entry", "entries"),
        other => shape(other).to_string(),
    }
}
