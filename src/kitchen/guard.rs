//! Read-modify-write guards: a turn's update or delete commits as the
//! change the user asked for, checked against what the turn read, so two
//! processes changing the same rows lose neither change.
//!
//! A turn's writes are replayed at commit, maybe long after the turn read
//! the rows (a model thinks in between). Each guarded write carries, per
//! row, the value the turn read of each column it sets (the first read of
//! the turn, before the turn wrote that row) and the value it wrote. At
//! commit, inside the commit's transaction:
//! - a column set to a value commits only when the row still holds what the
//!   turn read (compare-and-set), or already holds what the turn wrote;
//! - a column changed by an amount (`{"add": -10}`, "used 10 g") is
//!   re-read and recomputed there (`quantity = quantity + amount`), and
//!   commits unless that leaves less than nothing;
//! - a delete commits unless the amount the turn read has changed since;
//! - a row another process removed meanwhile fails an update.
//!
//! A failed check fails the whole commit with a sentence that says what
//! changed meanwhile; nothing of the turn is written.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::error::KitchenError;
use super::row::{RawRow, row_id, row_label};
use super::schema::ColumnDef;
use crate::context::Table;

/// What a guarded write checks at commit.
#[derive(Debug, Clone)]
pub(crate) struct Guard {
    pub table: Table,
    pub kind: GuardKind,
    pub rows: Vec<GuardedRow>,
}

/// The write a guard belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GuardKind {
    Update,
    Delete,
}

/// One row of a guarded write.
#[derive(Debug, Clone)]
pub(crate) struct GuardedRow {
    pub id: String,
    /// The row's name, for the sentence.
    pub label: String,
    /// Columns set to a value: the column, what the turn read, what it wrote.
    pub sets: Vec<(&'static ColumnDef, Value, Value)>,
    /// Columns changed by an amount.
    pub adds: Vec<&'static ColumnDef>,
}

/// What an open turn has read and written, for its guards.
#[derive(Debug, Default)]
pub(crate) struct TurnReads {
    /// Rows as the turn first read them, before it wrote them.
    seen: HashMap<(Table, String), RawRow>,
    /// Rows the turn has written.
    touched: HashSet<(Table, String)>,
}

impl TurnReads {
    /// Notes rows a read returned (the first read of a row wins; a row the
    /// turn already wrote shows the turn's own value, not a read one).
    pub fn saw(&mut self, table: Table, rows: &[RawRow]) {
        for row in rows {
            let Some(id) = row_id(row) else { continue };
            let key = (table, id.to_string());
            if self.touched.contains(&key) {
                continue;
            }
            let kept = self.seen.entry(key).or_default();
            for (column, value) in row {
                kept.entry(column.clone()).or_insert_with(|| value.clone());
            }
        }
    }

    /// Notes that the turn wrote these rows.
    pub fn wrote(&mut self, table: Table, ids: &[String]) {
        for id in ids {
            self.touched.insert((table, id.clone()));
        }
    }

    /// What the turn first read of `column` of the row, when it read it
    /// before writing the row.
    fn read(&self, table: Table, id: &str, column: &str) -> Option<&Value> {
        let key = (table, id.to_string());
        if self.touched.contains(&key) {
            return None;
        }
        self.seen.get(&key)?.get(column)
    }
}

/// The guard of an update of `before` (the rows as they were in the turn's
/// view just before it), `after` them; `reads` gives what the turn read
/// earlier.
pub(crate) fn update_guard(
    table: Table,
    before: &[RawRow],
    after: &[RawRow],
    sets: &[&'static ColumnDef],
    adds: &[&'static ColumnDef],
    reads: &TurnReads,
) -> Guard {
    let after: HashMap<&str, &RawRow> = after
        .iter()
        .filter_map(|r| row_id(r).map(|id| (id, r)))
        .collect();
    let rows = before
        .iter()
        .filter_map(|row| {
            let id = row_id(row)?;
            let sets = sets
                .iter()
                .map(|c| {
                    let now = row.get(c.name).cloned().unwrap_or(Value::Null);
                    let read = reads.read(table, id, c.name).cloned().unwrap_or(now);
                    let wrote = after
                        .get(id)
                        .and_then(|r| r.get(c.name))
                        .cloned()
                        .unwrap_or(Value::Null);
                    (*c, read, wrote)
                })
                .collect();
            Some(GuardedRow {
                id: id.to_string(),
                label: row_label(table, row),
                sets,
                adds: adds.to_vec(),
            })
        })
        .collect();
    Guard {
        table,
        kind: GuardKind::Update,
        rows,
    }
}

/// The guard of a delete of `rows`: each commits unless the amount the
/// turn read of it (its `quantity`) has changed since. `None` when the
/// turn read no amount of any of them.
pub(crate) fn delete_guard(
    table: Table,
    rows: &[RawRow],
    quantity: Option<&'static ColumnDef>,
    reads: &TurnReads,
) -> Option<Guard> {
    let quantity = quantity?;
    let rows: Vec<GuardedRow> = rows
        .iter()
        .filter_map(|row| {
            let id = row_id(row)?;
            let read = reads.read(table, id, quantity.name)?.clone();
            Some(GuardedRow {
                id: id.to_string(),
                label: row_label(table, row),
                sets: vec![(quantity, read.clone(), read)],
                adds: Vec::new(),
            })
        })
        .collect();
    (!rows.is_empty()).then_some(Guard {
        table,
        kind: GuardKind::Delete,
        rows,
    })
}

/// True when two stored values are the same (numbers to a millionth).
fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => (x - y).abs() < 1e-6,
        _ => a == b,
    }
}

/// A number without trailing zeros, to three decimals.
fn number(n: f64) -> String {
    let s = format!("{n:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A value as a sentence shows it.
fn shown(v: &Value) -> String {
    match v {
        Value::Null => "empty".to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) => number(f),
            None => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// The end of every conflict's sentence.
const NOTHING_SAVED: &str =
    "nothing of this turn was saved — send it again to apply it to what is there now";

fn conflict(what: String) -> KitchenError {
    KitchenError::Conflict(format!("{what}; {NOTHING_SAVED}"))
}

impl Guard {
    /// The ids of the rows this guard covers, to read as they are now.
    pub(crate) fn row_ids(&self) -> Vec<String> {
        self.rows.iter().map(|r| r.id.clone()).collect()
    }

    /// Checks the guard before its write is replayed at commit, against
    /// its rows as they are now (`now`, by id; a missing one was removed).
    pub(crate) fn check_before(&self, now: &HashMap<String, RawRow>) -> Result<(), KitchenError> {
        let g = self;
        for row in &g.rows {
            let Some(current) = now.get(&row.id) else {
                if g.kind == GuardKind::Update {
                    return Err(conflict(format!(
                        "{} was removed while this turn ran",
                        row.label
                    )));
                }
                // Already gone: what the delete wanted.
                continue;
            };
            for (column, read, wrote) in &row.sets {
                let value = current.get(column.name).unwrap_or(&Value::Null);
                if same(value, read) || (g.kind == GuardKind::Update && same(value, wrote)) {
                    continue;
                }
                let tail = match g.kind {
                    GuardKind::Update => String::new(),
                    GuardKind::Delete => ", so it was not removed".to_string(),
                };
                return Err(conflict(format!(
                    "{} changed while this turn ran: its {} is {} now, not the {} this turn \
                     read{tail}",
                    row.label,
                    column.name,
                    shown(value),
                    shown(read)
                )));
            }
        }
        Ok(())
    }

    /// True when the guard changes a column by an amount, so it is checked
    /// again after its write ([`Guard::check_after`]).
    pub(crate) fn adds(&self) -> bool {
        self.rows.iter().any(|r| !r.adds.is_empty())
    }

    /// Checks the guard's changes by an amount after its write was replayed
    /// at commit, against its rows as they are now: none may leave less than
    /// nothing.
    pub(crate) fn check_after(&self, now: &HashMap<String, RawRow>) -> Result<(), KitchenError> {
        for row in &self.rows {
            let Some(current) = now.get(&row.id) else {
                continue;
            };
            for column in &row.adds {
                let value = current.get(column.name).and_then(Value::as_f64);
                if value.is_some_and(|v| v < -1e-9) {
                    return Err(conflict(format!(
                        "{} changed while this turn ran: there is less of it now than this \
                         turn takes off ({} {} after the change)",
                        row.label,
                        column.name,
                        value.map(number).unwrap_or_default()
                    )));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(id: &str, q: f64) -> RawRow {
        json!({"id": id, "name": "rice", "quantity": q})
            .as_object()
            .cloned()
            .unwrap()
    }

    #[test]
    fn the_first_read_before_a_write_is_what_the_turn_read() {
        let mut reads = TurnReads::default();
        reads.saw(Table::Inventory, &[row("a", 1.8)]);
        reads.saw(Table::Inventory, &[row("a", 1.7)]);
        assert_eq!(
            reads.read(Table::Inventory, "a", "quantity"),
            Some(&json!(1.8))
        );
        reads.wrote(Table::Inventory, &["a".to_string()]);
        assert_eq!(reads.read(Table::Inventory, "a", "quantity"), None);
        // Read after the turn wrote it: the turn's own value, not a read.
        reads.saw(Table::Inventory, &[row("a", 1.5)]);
        assert_eq!(reads.read(Table::Inventory, "a", "quantity"), None);
    }

    #[test]
    fn numbers_compare_to_a_millionth() {
        assert!(same(&json!(1.79), &json!(1.8 - 0.01)));
        assert!(!same(&json!(1.79), &json!(1.78)));
        assert!(same(&json!("a"), &json!("a")));
        assert!(!same(&json!(null), &json!(0)));
    }
}
