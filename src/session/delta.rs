//! A change between two JSON values, small when the values are alike: what
//! the session journal writes per turn instead of the whole context or the
//! whole turn record (most of both repeats the turn before).
//!
//! A [`Delta`] is always a tagged wrapper, never raw data, so no value can
//! be mistaken for one. Objects change key by key; arrays keep what is
//! common: the new array is the old one less its first `skip` items, then
//! `keep` of those, then new or changed items, then the last `tail` — which
//! covers appends, windows that slide, and an insertion or removal in the
//! middle. [`Delta::apply`] rebuilds the new value exactly (a test checks it
//! on random values). Pure.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How far into an array a slide is looked for.
const MAX_SKIP: usize = 8;

/// A change from one JSON value to another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Delta {
    /// The new value, whole.
    #[serde(rename = "=")]
    Set(Value),
    /// An object changed key by key (keys absent from both lists are kept).
    #[serde(rename = "o")]
    Object {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        set: Vec<(String, Delta)>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        del: Vec<String>,
    },
    /// An array: `old[skip..]`, of which the first `keep` and the last `tail`
    /// stay, with `mid` between them.
    #[serde(rename = "a")]
    Array {
        skip: usize,
        keep: usize,
        tail: usize,
        mid: Vec<Item>,
    },
}

/// One item between the kept ends of an array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Item {
    /// A new item.
    #[serde(rename = "+")]
    New(Value),
    /// The old item at the same place, changed.
    #[serde(rename = "~")]
    Changed(Delta),
    /// The old item at the same place, as it was.
    #[serde(rename = ".")]
    Same,
}

impl Delta {
    /// The change from `old` to `new`; `None` when they are equal.
    pub fn between(old: &Value, new: &Value) -> Option<Delta> {
        if old == new {
            return None;
        }
        Some(match (old, new) {
            (Value::Object(o), Value::Object(n)) => object_delta(o, n),
            (Value::Array(o), Value::Array(n)) => array_delta(o, n),
            _ => Delta::Set(new.clone()),
        })
    }

    /// Applies the change to `old`; fails when the change does not fit it
    /// (a delta applied to a value it was not made from).
    pub fn apply(&self, old: &mut Value) -> Result<(), String> {
        match self {
            Delta::Set(v) => *old = v.clone(),
            Delta::Object { set, del } => {
                let Value::Object(map) = old else {
                    return Err("an object change on a value that is not an object".into());
                };
                for k in del {
                    map.remove(k);
                }
                for (k, d) in set {
                    let slot = map.entry(k.clone()).or_insert(Value::Null);
                    d.apply(slot)?;
                }
            }
            Delta::Array {
                skip,
                keep,
                tail,
                mid,
            } => {
                let Value::Array(items) = old else {
                    return Err("an array change on a value that is not an array".into());
                };
                let base = items.get(*skip..).ok_or("an array change skips too far")?;
                if keep + tail > base.len() {
                    return Err("an array change keeps more items than there are".into());
                }
                let middle_old = &base[*keep..base.len() - tail];
                let mut out = Vec::with_capacity(keep + mid.len() + tail);
                out.extend_from_slice(&base[..*keep]);
                for (i, item) in mid.iter().enumerate() {
                    match item {
                        Item::New(v) => out.push(v.clone()),
                        Item::Changed(_) | Item::Same => {
                            let mut v = middle_old
                                .get(i)
                                .cloned()
                                .ok_or("an array change names an item that is not there")?;
                            if let Item::Changed(d) = item {
                                d.apply(&mut v)?;
                            }
                            out.push(v);
                        }
                    }
                }
                out.extend_from_slice(&base[base.len() - tail..]);
                *items = out;
            }
        }
        Ok(())
    }
}

fn object_delta(old: &Map<String, Value>, new: &Map<String, Value>) -> Delta {
    let del = old
        .keys()
        .filter(|k| !new.contains_key(*k))
        .cloned()
        .collect();
    let set = new
        .iter()
        .filter_map(|(k, v)| {
            let d = match old.get(k) {
                Some(o) => Delta::between(o, v)?,
                None => Delta::Set(v.clone()),
            };
            Some((k.clone(), d))
        })
        .collect();
    Delta::Object { set, del }
}

fn array_delta(old: &[Value], new: &[Value]) -> Delta {
    // The slide that keeps the most items.
    let (mut best, mut best_kept) = (0, None::<(usize, usize)>);
    for skip in 0..=old.len().min(MAX_SKIP) {
        let base = &old[skip..];
        let keep = common_prefix(base, new);
        let tail = common_prefix_rev(&base[keep..], &new[keep..]);
        if best_kept.is_none_or(|(k, t)| keep + tail > k + t) {
            best = skip;
            best_kept = Some((keep, tail));
        }
    }
    let (keep, tail) = best_kept.unwrap_or((0, 0));
    let base = &old[best..];
    let old_mid = &base[keep..base.len() - tail];
    let new_mid = &new[keep..new.len() - tail];
    let mid = new_mid
        .iter()
        .enumerate()
        .map(|(i, v)| match old_mid.get(i) {
            Some(o) if old_mid.len() == new_mid.len() => match Delta::between(o, v) {
                Some(Delta::Set(v)) => Item::New(v),
                Some(d) => Item::Changed(d),
                None => Item::Same,
            },
            _ => Item::New(v.clone()),
        })
        .collect();
    Delta::Array {
        skip: best,
        keep,
        tail,
        mid,
    }
}

fn common_prefix(a: &[Value], b: &[Value]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

fn common_prefix_rev(a: &[Value], b: &[Value]) -> usize {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn roundtrip(old: Value, new: Value) -> usize {
        let Some(d) = Delta::between(&old, &new) else {
            assert_eq!(old, new);
            return 0;
        };
        let text = serde_json::to_string(&d).unwrap();
        let back: Delta = serde_json::from_str(&text).unwrap();
        let mut v = old;
        back.apply(&mut v).unwrap();
        assert_eq!(v, new);
        text.len()
    }

    #[test]
    fn a_sliding_window_costs_the_new_item_only() {
        let turn = |n: u32| json!({"n": n, "text": "a long turn ".repeat(20)});
        let old = json!({"turns": [turn(1), turn(2), turn(3)]});
        let new = json!({"turns": [turn(2), turn(3), json!({"n": 4})]});
        let size = roundtrip(old, new);
        assert!(size < 120, "{size}");
    }

    #[test]
    fn an_insertion_in_the_middle_keeps_both_ends() {
        let old = json!([1, 2, 3, 4, 5, 6]);
        let new = json!([1, 2, 3, 99, 4, 5, 6]);
        roundtrip(old, new);
        roundtrip(json!([1, 2, 3]), json!([]));
        roundtrip(json!({"a": 1, "b": [1]}), json!({"b": [1, 2], "c": null}));
        roundtrip(json!([{"a": 1}, {"a": 2}]), json!([{"a": 1}, {"a": 3}]));
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (0i64..5).prop_map(Value::from),
            "[ab]{0,2}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("[abc]", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn applying_the_delta_rebuilds_the_new_value(old in value(), new in value()) {
            roundtrip(old, new);
        }
    }
}
