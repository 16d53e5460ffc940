//! Holding writes back: before a write runs, the caller is shown each row
//! it would write — as refs and words, not row ids — and may hold some of
//! them back. The rest are written; a write whose every row is held back
//! writes nothing and is refused with the caller's reasons.
//!
//! The kitchen only describes rows and obeys the verdicts; why a row is
//! held back (a standing constraint of the session) is the caller's
//! business ([`WriteCheck`]). Nothing here touches the database.

use rusqlite::types::Value as SqlValue;
use serde_json::Value;

use super::payload::RowPayload;
use super::row::{RawRow, row_id, row_label};
use super::schema::table_schema;
use crate::context::Table;
use crate::context::registry::SessionIdRegistry;

/// What a write does to a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteOp {
    Create,
    Update,
    Delete,
}

impl WriteOp {
    /// `create`, `update`, `delete`.
    pub fn as_str(self) -> &'static str {
        match self {
            WriteOp::Create => "create",
            WriteOp::Update => "update",
            WriteOp::Delete => "delete",
        }
    }
}

/// One row a write is about to change, as the session's refs see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowWrite {
    pub table: Table,
    pub op: WriteOp,
    /// The row's own ref: the row updated or deleted, or the draft
    /// (`gen_…`) a create saves. `None` for a new row, or a row the session
    /// has never seen.
    pub r#ref: Option<String>,
    /// The row's name: "Sun Jan 18 [dinner]", "sesame seeds".
    pub label: String,
    /// Refs the row points at: through the columns a create or an update
    /// sets, or, for a delete, through the row as it is.
    pub links: Vec<String>,
    /// What the row says it is for, as written: its notes (a task's title
    /// too) — "for Kerala Cod Curry".
    pub notes: Vec<String>,
    /// A meal plan's day (`YYYY-MM-DD`), when the write sets or has it.
    pub date: Option<String>,
}

/// The caller's say over a write, asked once per tool call with all of its
/// rows, before anything is written.
pub trait WriteCheck {
    /// One verdict per row, in order: `None` writes it, `Some(why)` holds
    /// it back, `why` saying so in a sentence the model can act on.
    fn check(&mut self, rows: &[RowWrite]) -> Vec<Option<String>>;
}

/// Writes everything: the kitchen outside a session's turn.
#[derive(Debug, Clone, Copy, Default)]
pub struct WriteAll;

impl WriteCheck for WriteAll {
    fn check(&mut self, rows: &[RowWrite]) -> Vec<Option<String>> {
        vec![None; rows.len()]
    }
}

/// Asks `check` about `rows`; returns, per row, whether it is written, and
/// the reasons of those held back. A check that answers for fewer rows
/// writes the rest.
pub(crate) fn ask(check: &mut dyn WriteCheck, rows: &[RowWrite]) -> (Vec<bool>, Vec<String>) {
    if rows.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let mut verdicts = check.check(rows);
    verdicts.resize(rows.len(), None);
    let keep = verdicts.iter().map(Option::is_none).collect();
    let mut reasons: Vec<String> = verdicts.into_iter().flatten().collect();
    reasons.dedup();
    (keep, reasons)
}

/// The note a write that went through in part carries.
pub(crate) fn held_note(reasons: &[String]) -> String {
    format!("held back, not written: {}", reasons.join("; "))
}

/// A row a create or an update is about to write, from its checked payload.
pub(crate) fn payload_write(
    table: Table,
    op: WriteOp,
    payload: &RowPayload,
    own: Option<String>,
    label: String,
    registry: &SessionIdRegistry,
) -> RowWrite {
    let mut links = Vec::new();
    let mut notes = Vec::new();
    for (col, v) in &payload.values {
        let SqlValue::Text(s) = v else { continue };
        if col.fk.is_some() {
            if let Some(r) = registry.ref_for_row(s) {
                links.push(r.to_string());
            }
        } else if is_note(table, col.name) {
            notes.push(s.clone());
        }
    }
    RowWrite {
        table,
        op,
        r#ref: own,
        label,
        links,
        notes,
        date: payload.text("date").map(str::to_string),
    }
}

/// The label a create's payload gives its row.
pub(crate) fn payload_label(table: Table, payload: &RowPayload) -> String {
    let mut row = RawRow::new();
    for (col, v) in &payload.values {
        if let SqlValue::Text(s) = v {
            row.insert(col.name.to_string(), Value::String(s.clone()));
        }
    }
    row_label(table, &row)
}

/// A row a delete is about to remove, as it is now.
pub(crate) fn row_write(table: Table, row: &RawRow, registry: &SessionIdRegistry) -> RowWrite {
    let text = |k: &str| row.get(k).and_then(Value::as_str).map(str::to_string);
    let links = table_schema(table)
        .foreign_keys()
        .filter_map(|(fk, _)| row.get(fk.name).and_then(Value::as_str))
        .filter_map(|id| registry.ref_for_row(id).map(str::to_string))
        .collect();
    let notes = table_schema(table)
        .columns
        .iter()
        .filter(|c| is_note(table, c.name))
        .filter_map(|c| text(c.name))
        .collect();
    RowWrite {
        table,
        op: WriteOp::Delete,
        r#ref: row_id(row)
            .and_then(|id| registry.ref_for_row(id))
            .map(str::to_string),
        label: row_label(table, row),
        links,
        notes,
        date: text("date"),
    }
}

/// Columns that say what a row is for: notes everywhere, a task's title.
fn is_note(table: Table, column: &str) -> bool {
    column == "notes" || (table == Table::Tasks && column == "title")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::RefAction;
    use serde_json::json;

    struct HoldNamed(&'static str);

    impl WriteCheck for HoldNamed {
        fn check(&mut self, rows: &[RowWrite]) -> Vec<Option<String>> {
            rows.iter()
                .map(|r| (r.label == self.0).then(|| format!("not {}", r.label)))
                .collect()
        }
    }

    #[test]
    fn verdicts_keep_the_rows_not_held_and_say_why_for_the_others() {
        let row = |label: &str| RowWrite {
            table: Table::ShoppingList,
            op: WriteOp::Create,
            r#ref: None,
            label: label.to_string(),
            links: Vec::new(),
            notes: Vec::new(),
            date: None,
        };
        let rows = [row("egg"), row("cod"), row("rice")];
        let (keep, reasons) = ask(&mut HoldNamed("cod"), &rows);
        assert_eq!(keep, [true, false, true]);
        assert_eq!(reasons, ["not cod"]);
        assert_eq!(held_note(&reasons), "held back, not written: not cod");
        let (keep, reasons) = ask(&mut WriteAll, &rows);
        assert_eq!(keep, [true, true, true]);
        assert!(reasons.is_empty());
    }

    #[test]
    fn a_deleted_row_is_described_by_its_refs_and_words() {
        let mut reg = SessionIdRegistry::new();
        let recipe = reg.register_row(
            Table::Recipes,
            "r-1",
            "Kerala Cod Curry",
            RefAction::Read,
            1,
        );
        let plan = reg.register_row(Table::MealPlans, "m-1", "Sun", RefAction::Read, 1);
        let row = json!({"id": "m-1", "date": "2026-01-18", "meal_type": "dinner",
            "recipe_id": "r-1", "notes": "for the kids"});
        let Value::Object(row) = row else {
            panic!("an object")
        };
        let w = row_write(Table::MealPlans, &row, &reg);
        assert_eq!(w.r#ref.as_deref(), Some(plan.as_str()));
        assert_eq!(w.links, [recipe]);
        assert_eq!(w.notes, ["for the kids"]);
        assert_eq!(w.label, "Sun Jan 18 [dinner]");
        assert_eq!(w.date.as_deref(), Some("2026-01-18"));
    }
}
