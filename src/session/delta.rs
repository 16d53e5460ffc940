//! A change between two JSON values, small when the values are alike: what
//! the session journal writes per turn instead of the whole context or the
//! whole turn record (most of both repeats the turn before).
//!
//! A [`Delta`] is always a tagged wrapper, never raw data, so no value can
//! be mistaken for one. Objects change key by key; arrays are edited as a
//! list of [`Op`]s that walk the old array from its start — copy, drop,
//! change an item, insert new ones — which covers appends, windows that
//! slide, and items inserted or removed anywhere. A value that the same
//! journal line has already written (the record and the context share most
//! of a turn's narrative) is written once and then echoed by its number
//! ([`Delta::echo_from`]). [`Delta::apply`] rebuilds the new value exactly (a
//! test checks it on random values). Pure.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Values at least this long (as JSON) are worth echoing.
const ECHO_MIN: usize = 64;

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
    /// An array edited: the ops walk the old items from the first; old
    /// items left after the last op stay.
    #[serde(rename = "e")]
    Edit(Vec<Op>),
    /// The new value is the `n`th value written by the delta this one is
    /// read with (see [`Delta::echo_from`]).
    #[serde(rename = "^")]
    Echo(usize),
    /// The array form of the first schema-4 files (read, never written):
    /// `old[skip..]`, of which the first `keep` and the last `tail` stay,
    /// with `mid` between them.
    #[serde(rename = "a")]
    Array {
        skip: usize,
        keep: usize,
        tail: usize,
        mid: Vec<Item>,
    },
}

/// One step of an array edit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Op {
    /// The next `n` old items, as they are.
    #[serde(rename = "c")]
    Copy(usize),
    /// The next `n` old items are gone.
    #[serde(rename = "d")]
    Drop(usize),
    /// The next old item, changed.
    #[serde(rename = "~")]
    Changed(Delta),
    /// A new item.
    #[serde(rename = "+")]
    New(Value),
    /// A new item: the `n`th value written by the delta read with this one.
    #[serde(rename = "^")]
    Echo(usize),
}

/// One item between the kept ends of an [`Delta::Array`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Item {
    #[serde(rename = "+")]
    New(Value),
    #[serde(rename = "~")]
    Changed(Delta),
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
            (Value::Array(o), Value::Array(n)) => Delta::Edit(array_ops(o, n)),
            _ => Delta::Set(new.clone()),
        })
    }

    /// Applies the change to `old`, with `echoes` the values an
    /// [`Delta::Echo`] names. Fails when the change does not fit `old` (a
    /// delta applied to a value it was not made from); `old` is then left
    /// in no particular state. The change is used up: its values move into
    /// `old`.
    pub fn apply(self, old: &mut Value, echoes: &[&Value]) -> Result<(), String> {
        let echo = |n: usize| {
            echoes
                .get(n)
                .map(|v| (*v).clone())
                .ok_or_else(|| format!("echo {n} names no value"))
        };
        match self {
            Delta::Set(v) => *old = v,
            Delta::Echo(n) => *old = echo(n)?,
            Delta::Object { set, del } => {
                let Value::Object(map) = old else {
                    return Err("an object change on a value that is not an object".into());
                };
                for k in &del {
                    map.remove(k);
                }
                for (k, d) in set {
                    let slot = map.entry(k).or_insert(Value::Null);
                    d.apply(slot, echoes)?;
                }
            }
            Delta::Edit(ops) => {
                let Value::Array(items) = old else {
                    return Err("an array change on a value that is not an array".into());
                };
                let mut from = std::mem::take(items).into_iter();
                let mut out = Vec::with_capacity(from.len() + 1);
                let short = || "an array change names an item that is not there".to_string();
                for op in ops {
                    match op {
                        Op::Copy(n) => {
                            for _ in 0..n {
                                out.push(from.next().ok_or_else(short)?);
                            }
                        }
                        Op::Drop(n) => {
                            for _ in 0..n {
                                from.next().ok_or_else(short)?;
                            }
                        }
                        Op::Changed(d) => {
                            let mut v = from.next().ok_or_else(short)?;
                            d.apply(&mut v, echoes)?;
                            out.push(v);
                        }
                        Op::New(v) => out.push(v),
                        Op::Echo(n) => out.push(echo(n)?),
                    }
                }
                out.extend(from);
                *items = out;
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
                let base = items.get(skip..).ok_or("an array change skips too far")?;
                if keep + tail > base.len() {
                    return Err("an array change keeps more items than there are".into());
                }
                let middle_old = &base[keep..base.len() - tail];
                let mut out = Vec::with_capacity(keep + mid.len() + tail);
                out.extend_from_slice(&base[..keep]);
                for (i, item) in mid.into_iter().enumerate() {
                    let at = || {
                        middle_old
                            .get(i)
                            .cloned()
                            .ok_or("an array change names an item that is not there")
                    };
                    match item {
                        Item::New(v) => out.push(v),
                        Item::Same => out.push(at()?),
                        Item::Changed(d) => {
                            let mut v = at()?;
                            d.apply(&mut v, echoes)?;
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

    /// The values this delta writes whole, in the order [`Delta::Echo`]
    /// numbers them.
    pub fn written(&self) -> Vec<&Value> {
        let mut out = Vec::new();
        self.each_written(&mut out);
        out
    }

    fn each_written<'a>(&'a self, out: &mut Vec<&'a Value>) {
        match self {
            Delta::Set(v) => out.push(v),
            Delta::Object { set, .. } => set.iter().for_each(|(_, d)| d.each_written(out)),
            Delta::Edit(ops) => {
                for op in ops {
                    match op {
                        Op::Changed(d) => d.each_written(out),
                        Op::New(v) => out.push(v),
                        _ => {}
                    }
                }
            }
            Delta::Array { mid, .. } => {
                for item in mid {
                    match item {
                        Item::Changed(d) => d.each_written(out),
                        Item::New(v) => out.push(v),
                        Item::Same => {}
                    }
                }
            }
            Delta::Echo(_) => {}
        }
    }

    /// Replaces each long value this delta writes whole that `earlier`
    /// also writes by an echo of it; `earlier` is then read with this delta
    /// ([`Delta::written`] of it as the `echoes` of [`Delta::apply`]).
    pub fn echo_from(&mut self, earlier: &Delta) {
        let mut known = HashMap::new();
        for (n, v) in earlier.written().into_iter().enumerate() {
            let text = v.to_string();
            if text.len() >= ECHO_MIN {
                known.entry(text).or_insert(n);
            }
        }
        if !known.is_empty() {
            self.echo(&known);
        }
    }

    fn echo(&mut self, known: &HashMap<String, usize>) {
        let find = |v: &Value| known.get(&v.to_string()).copied();
        match self {
            Delta::Set(v) => {
                if let Some(n) = find(v) {
                    *self = Delta::Echo(n);
                }
            }
            Delta::Object { set, .. } => set.iter_mut().for_each(|(_, d)| d.echo(known)),
            Delta::Edit(ops) => {
                for op in ops {
                    match op {
                        Op::Changed(d) => d.echo(known),
                        Op::New(v) => {
                            if let Some(n) = find(v) {
                                *op = Op::Echo(n);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Delta::Array { .. } | Delta::Echo(_) => {}
        }
    }
}

/// For an array of `old_len` items edited by `ops`: each new item's index
/// in the old array when it was copied unchanged, `None` when it is new or
/// changed; `None` for ops that do not fit.
pub fn kept_items(ops: &[Op], old_len: usize) -> Option<Vec<Option<usize>>> {
    let (mut p, mut out) = (0, Vec::with_capacity(old_len + 1));
    for op in ops {
        match op {
            Op::Copy(n) => {
                out.extend((p..p + n).map(Some));
                p += n;
            }
            Op::Drop(n) => p += n,
            Op::Changed(_) => {
                out.push(None);
                p += 1;
            }
            Op::New(_) | Op::Echo(_) => out.push(None),
        }
    }
    if p > old_len {
        return None;
    }
    out.extend((p..old_len).map(Some));
    Some(out)
}

/// What a delta does at a path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum At<'a> {
    /// Leaves it alone.
    Untouched,
    /// Changes it thus.
    Changed(&'a Delta),
    /// Replaces or removes something above it whole.
    Replaced,
}

/// What `delta` does at `path` (keys under keys).
pub fn at_path<'a>(delta: Option<&'a Delta>, path: &[&str]) -> At<'a> {
    let Some(delta) = delta else {
        return At::Untouched;
    };
    let Some((first, rest)) = path.split_first() else {
        return At::Changed(delta);
    };
    match delta {
        Delta::Object { set, del } if !del.iter().any(|k| k == first) => {
            match set.iter().find(|(k, _)| k == first) {
                Some((_, d)) => at_path(Some(d), rest),
                None => At::Untouched,
            }
        }
        _ => At::Replaced,
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

/// The edit from `old` to `new`: the common ends copied; in between, the
/// longest run of items in the same order that are the same item (equal,
/// or objects with the same `ref`, `id`, `turn`, `turn_number` or `name`)
/// kept, each changed as needed, and the items between those paired in
/// place, dropped or added. A middle too long to align is paired in place.
fn array_ops(old: &[Value], new: &[Value]) -> Vec<Op> {
    let pre = common_prefix(old, new);
    let suf = common_prefix_rev(&old[pre..], &new[pre..]);
    let (om, nm) = (&old[pre..old.len() - suf], &new[pre..new.len() - suf]);
    let mut ops = Vec::new();
    copy(&mut ops, pre);
    let mut gap = (0, 0);
    if om.len().saturating_mul(nm.len()) <= MAX_CELLS {
        for (i, j) in same_items(om, nm) {
            fill_gap(&mut ops, &om[gap.0..i], &nm[gap.1..j]);
            match Delta::between(&om[i], &nm[j]) {
                None => copy(&mut ops, 1),
                Some(d) => ops.push(Op::Changed(d)),
            }
            gap = (i + 1, j + 1);
        }
    }
    fill_gap(&mut ops, &om[gap.0..], &nm[gap.1..]);
    // Old items left after the last op stay: a last copy says nothing.
    if matches!(ops.last(), Some(Op::Copy(_))) {
        ops.pop();
    }
    ops
}

/// The largest middle (old items × new items) aligned item by item.
const MAX_CELLS: usize = 1 << 20;

/// The keys that name an object as an item of a list.
const IDENTITY: [&str; 5] = ["ref", "id", "turn", "turn_number", "name"];

/// What makes an item the same item in two versions of a list.
fn identity(v: &Value) -> String {
    if let Value::Object(m) = v {
        for k in IDENTITY {
            if let Some(x @ (Value::String(_) | Value::Number(_))) = m.get(k) {
                return format!("{k}\u{0}{x}");
            }
        }
    }
    v.to_string()
}

/// The pairs (old index, new index) of a longest common subsequence of
/// the two lists' identities.
fn same_items(old: &[Value], new: &[Value]) -> Vec<(usize, usize)> {
    let ko: Vec<String> = old.iter().map(identity).collect();
    let kn: Vec<String> = new.iter().map(identity).collect();
    let w = kn.len() + 1;
    // lcs[i * w + j]: the length for old[i..] and new[j..].
    let mut lcs = vec![0u32; (ko.len() + 1) * w];
    for i in (0..ko.len()).rev() {
        for j in (0..kn.len()).rev() {
            lcs[i * w + j] = if ko[i] == kn[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < ko.len() && j < kn.len() {
        if ko[i] == kn[j] {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Old items replaced by new ones: paired in place, the rest dropped or
/// added.
fn fill_gap(ops: &mut Vec<Op>, old: &[Value], new: &[Value]) {
    for (o, n) in old.iter().zip(new) {
        match Delta::between(o, n) {
            None => copy(ops, 1),
            Some(d) => ops.push(Op::Changed(d)),
        }
    }
    if old.len() > new.len() {
        ops.push(Op::Drop(old.len() - new.len()));
    }
    ops.extend(new[old.len().min(new.len())..].iter().cloned().map(Op::New));
}

fn copy(ops: &mut Vec<Op>, n: usize) {
    if n == 0 {
        return;
    }
    match ops.last_mut() {
        Some(Op::Copy(k)) => *k += n,
        _ => ops.push(Op::Copy(n)),
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
        back.apply(&mut v, &[]).unwrap();
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
    fn an_item_removed_in_the_middle_costs_a_drop() {
        let item = |n: u32| json!({"id": n, "text": "a standing constraint ".repeat(5)});
        let old: Vec<Value> = (0..50).map(item).collect();
        let mut new = old.clone();
        new.remove(20);
        new[48] = json!({"id": 49, "lifted": true});
        new.push(item(50));
        let size = roundtrip(Value::Array(old), Value::Array(new));
        assert!(size < 250, "{size}");
    }

    #[test]
    fn a_value_written_by_the_record_is_echoed_by_the_state() {
        let entry = json!({"turn": 7, "summary": "the user ruled out cod and picked the paneer"});
        let old = json!({"items": [1]});
        let new = json!({"items": [1, entry.clone()]});
        let record = Delta::between(&json!({"turns": []}), &json!({"turns": [entry]})).unwrap();
        let mut state = Delta::between(&old, &new).unwrap();
        state.echo_from(&record);
        assert!(matches!(&state, Delta::Object { set, .. }
            if matches!(&set[0].1, Delta::Edit(ops) if ops.contains(&Op::Echo(0)))));
        let text = serde_json::to_string(&state).unwrap();
        let back: Delta = serde_json::from_str(&text).unwrap();
        let mut v = old;
        back.apply(&mut v, &record.written()).unwrap();
        assert_eq!(v, new);
    }

    #[test]
    fn the_first_array_form_still_applies() {
        let d: Delta = serde_json::from_str(
            r#"{"a":{"skip":1,"keep":1,"tail":1,"mid":[".",{"~":{"=":9}},{"+":7}]}}"#,
        )
        .unwrap();
        let mut v = json!([0, 1, 2, 3, 4]);
        // mid lengths differ from the old middle (2 vs 3 new): index-aligned.
        d.apply(&mut v, &[]).unwrap();
        assert_eq!(v, json!([1, 2, 9, 7, 4]));
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
                prop::collection::btree_map("[abc]|id", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn applying_the_delta_rebuilds_the_new_value(old in value(), new in value()) {
            roundtrip(old, new);
        }

        #[test]
        fn kept_items_name_only_items_copied_unchanged(
            old in prop::collection::vec(value(), 0..8),
            new in prop::collection::vec(value(), 0..8),
        ) {
            if let Some(Delta::Edit(ops)) = Delta::between(&Value::Array(old.clone()), &Value::Array(new.clone())) {
                let kept = kept_items(&ops, old.len()).unwrap();
                prop_assert_eq!(kept.len(), new.len());
                for (j, i) in kept.iter().enumerate() {
                    if let Some(i) = i {
                        prop_assert_eq!(&old[*i], &new[j]);
                    }
                }
            }
        }
    }
}
