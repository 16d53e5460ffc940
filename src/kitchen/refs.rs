//! Refs in, refs out: the boundary where the model's refs (`recipe_3`,
//! `gen_recipe_1`) meet the store's row ids.
//!
//! In: filter values and FK fields are translated through the registry; a
//! ref-shaped string that is not live is refused (the model must not invent
//! refs), as is a pending artifact where a saved row is needed. Out: each
//! returned row's `id` becomes its ref, registered with the operation's
//! action, and each FK value becomes the target's ref (`[linked]`) with its
//! label fetched in one query per target table and attached as
//! `_{fk}_label`. Only rows returned and their FK targets are registered;
//! nothing else in the registry is touched.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::call::Filter;
use super::error::ToolError;
use super::row::{RawRow, row_id, row_label};
use super::schema::{TableSchema, table_schema};
use super::store::Kitchen;
use crate::context::registry::SessionIdRegistry;
use crate::context::{RefAction, Table, parse_ref};

/// How returned rows are registered.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Registration<'a> {
    Read,
    Updated,
    Deleted,
    /// Row id → the gen ref named explicitly in the payload, if any.
    Created(&'a HashMap<String, Option<String>>),
}

/// Model-facing rows and the notes their registration produced.
pub(crate) type RowsOut = (Vec<Map<String, Value>>, Vec<String>);

/// (target table, row id) → (ref, label) of linked FK targets.
type Links = HashMap<(Table, String), (String, String)>;

/// Translates one string: `Ok(None)` when it is not ref-shaped, the row id
/// of a live saved ref, or an error naming the ref.
///
/// `expect` is the table the value must point at (for `id` and FK columns).
pub(crate) fn resolve_ref(
    registry: &SessionIdRegistry,
    s: &str,
    expect: Option<Table>,
    column: &str,
) -> Result<Option<String>, ToolError> {
    let Some(parsed) = parse_ref(s) else {
        return Ok(None);
    };
    let Some(entry) = registry.get(s) else {
        return Err(ToolError::UnknownRef(s.to_string()));
    };
    if let Some(expected) = expect
        && entry.table != expected
    {
        return Err(ToolError::WrongRefTable {
            r: s.to_string(),
            column: column.to_string(),
            expected,
            actual: parsed.table,
        });
    }
    match &entry.row_id {
        Some(id) => Ok(Some(id.clone())),
        None => Err(ToolError::PendingRef(s.to_string())),
    }
}

/// Translates a value (a string, or a list of them) for `column` of `table`.
///
/// Values of `id` and FK columns must be refs (or row ids); any string may be
/// a ref elsewhere too.
pub(crate) fn translate_value(
    registry: &SessionIdRegistry,
    schema: &TableSchema,
    column: &str,
    v: &Value,
) -> Result<Value, ToolError> {
    let expect = match schema.column(column) {
        Some(c) if c.name == "id" => Some(schema.table),
        Some(c) => c.fk,
        None => None,
    };
    let one = |s: &str| -> Result<Value, ToolError> {
        match resolve_ref(registry, s, expect, column)? {
            Some(id) => Ok(Value::String(id)),
            None if expect.is_some() && uuid::Uuid::parse_str(s).is_err() => {
                let target = expect.unwrap_or(schema.table);
                Err(ToolError::BadValue {
                    table: schema.table,
                    column: column.to_string(),
                    reason: format!(
                        "expected a ref such as {}_1 from an earlier result, got \"{s}\"",
                        target.prefix()
                    ),
                })
            }
            None => Ok(Value::String(s.to_string())),
        }
    };
    match v {
        Value::String(s) => one(s),
        Value::Array(items) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => one(s),
                other => Ok(other.clone()),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        other => Ok(other.clone()),
    }
}

/// Translates the values of a list of filters.
pub(crate) fn translate_filters(
    registry: &SessionIdRegistry,
    schema: &TableSchema,
    filters: &[Filter],
) -> Result<Vec<Filter>, ToolError> {
    filters
        .iter()
        .map(|f| {
            Ok(Filter {
                value: translate_value(registry, schema, &f.field, &f.value)?,
                ..f.clone()
            })
        })
        .collect()
}

/// The refs named by `id =` / `id in` filters when every one of them is a
/// pending generated artifact of this table (a read to reroute); else `None`.
pub(crate) fn pending_id_refs(
    registry: &SessionIdRegistry,
    table: Table,
    filters: &[Filter],
) -> Option<Vec<String>> {
    let mut refs = Vec::new();
    for f in filters.iter().filter(|f| f.field == "id") {
        match (f.op.trim(), &f.value) {
            ("=", Value::String(s)) => refs.push(s.clone()),
            ("in", Value::Array(items)) => {
                for i in items {
                    refs.push(i.as_str()?.to_string());
                }
            }
            _ => return None,
        }
    }
    let all_pending = refs.iter().all(|r| {
        registry
            .get(r)
            .is_some_and(|e| e.is_pending() && e.table == table)
    });
    (!refs.is_empty() && all_pending).then_some(refs)
}

impl Kitchen {
    /// Turns raw rows into model-facing rows: registers each row with the
    /// operation's action, then every FK target as `[linked]` (labels in one
    /// query per target table), replacing ids with refs.
    pub(crate) fn rows_out(
        &self,
        table: Table,
        rows: Vec<RawRow>,
        how: Registration<'_>,
        registry: &mut SessionIdRegistry,
        turn: u32,
    ) -> Result<RowsOut, ToolError> {
        let mut notes = Vec::new();
        let mut own_refs = Vec::with_capacity(rows.len());
        for row in &rows {
            let r = match row_id(row) {
                Some(id) => Some(register_own(
                    table,
                    id,
                    &row_label(table, row),
                    how,
                    registry,
                    turn,
                    &mut notes,
                )?),
                None => None,
            };
            own_refs.push(r);
        }
        let links = self.link_foreign_keys(table, &rows, registry, turn)?;
        let out = rows
            .into_iter()
            .zip(own_refs)
            .map(|(mut row, r)| {
                if let Some(r) = r {
                    row.insert("id".to_string(), Value::String(r));
                }
                for (fk, target) in table_schema(table).foreign_keys() {
                    let Some(id) = row.get(fk.name).and_then(Value::as_str) else {
                        continue;
                    };
                    if let Some((r, label)) = links.get(&(target, id.to_string())) {
                        let (r, label) = (r.clone(), label.clone());
                        row.insert(fk.name.to_string(), Value::String(r));
                        row.insert(format!("_{}_label", fk.name), Value::String(label));
                    }
                }
                row
            })
            .collect();
        Ok((out, notes))
    }

    /// Registers every FK target of `rows` as `[linked]`, one label query per
    /// target table. Returns (target table, row id) → (ref, label).
    fn link_foreign_keys(
        &self,
        table: Table,
        rows: &[RawRow],
        registry: &mut SessionIdRegistry,
        turn: u32,
    ) -> Result<Links, ToolError> {
        let mut wanted: BTreeMap<Table, Vec<String>> = BTreeMap::new();
        for row in rows {
            for (fk, target) in table_schema(table).foreign_keys() {
                if let Some(id) = row.get(fk.name).and_then(Value::as_str) {
                    let ids = wanted.entry(target).or_default();
                    if !ids.iter().any(|i| i == id) {
                        ids.push(id.to_string());
                    }
                }
            }
        }
        let mut links = HashMap::new();
        for (target, ids) in wanted {
            let labels = self.fetch_labels(target, &ids)?;
            for id in ids {
                let label = labels.get(&id).cloned().unwrap_or_default();
                let r = registry.register_linked(target, &id, &label, turn);
                let shown = if label.is_empty() {
                    registry
                        .get(&r)
                        .map_or_else(String::new, |e| e.label.clone())
                } else {
                    label
                };
                links.insert((target, id), (r, shown));
            }
        }
        Ok(links)
    }
}

/// Registers one returned row with the operation's action; a save that
/// promotes a generated artifact adds a note.
fn register_own(
    table: Table,
    id: &str,
    label: &str,
    how: Registration<'_>,
    registry: &mut SessionIdRegistry,
    turn: u32,
    notes: &mut Vec<String>,
) -> Result<String, ToolError> {
    let r = match how {
        Registration::Read => registry.register_row(table, id, label, RefAction::Read, turn),
        Registration::Updated => registry.register_row(table, id, label, RefAction::Updated, turn),
        Registration::Deleted => match registry.ref_for_row(id).map(str::to_string) {
            Some(r) => {
                registry.set_action(&r, RefAction::Deleted, turn);
                r
            }
            None => registry.register_row(table, id, label, RefAction::Deleted, turn),
        },
        Registration::Created(explicit) => {
            let gen_ref = explicit.get(id).and_then(Option::as_deref);
            let created = registry
                .register_created(table, id, label, gen_ref, turn)
                .map_err(|e| ToolError::NotAllowed(e.to_string()))?;
            if created.promoted {
                notes.push(format!("saved {} (\"{label}\")", created.r#ref));
            }
            created.r#ref
        }
    };
    Ok(r)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn registry() -> SessionIdRegistry {
        let mut reg = SessionIdRegistry::new();
        reg.register_row(Table::Recipes, "row-a", "Dal", RefAction::Read, 1);
        reg.register_generated(Table::Recipes, "Shakshuka", json!({"name": "Shakshuka"}), 1);
        reg
    }

    #[test]
    fn refs_translate_and_invented_refs_are_refused() {
        let reg = registry();
        let schema = table_schema(Table::Recipes);
        let v = translate_value(&reg, schema, "name", &json!(["recipe_1", "plain"])).unwrap();
        assert_eq!(v, json!(["row-a", "plain"]));
        let err = translate_value(&reg, schema, "id", &json!("recipe_42")).unwrap_err();
        assert!(
            err.to_string().starts_with("unknown ref \"recipe_42\""),
            "{err}"
        );
        let err = translate_value(&reg, schema, "id", &json!("gen_recipe_1")).unwrap_err();
        assert!(matches!(err, ToolError::PendingRef(_)), "{err}");
        let err = translate_value(&reg, schema, "id", &json!("Dal")).unwrap_err();
        assert!(
            err.to_string().contains("expected a ref such as recipe_1"),
            "{err}"
        );
    }

    #[test]
    fn fk_refs_must_point_at_the_right_table() {
        let reg = registry();
        let err = translate_value(
            &reg,
            table_schema(Table::Tasks),
            "meal_plan_id",
            &json!("recipe_1"),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("meal_plan_id expects a ref to meal_plans"),
            "{err}"
        );
    }

    #[test]
    fn only_all_pending_id_filters_reroute() {
        let reg = registry();
        let f = |v| vec![Filter::new("id", "in", v)];
        assert_eq!(
            pending_id_refs(&reg, Table::Recipes, &f(json!(["gen_recipe_1"]))),
            Some(vec!["gen_recipe_1".to_string()])
        );
        assert_eq!(
            pending_id_refs(
                &reg,
                Table::Recipes,
                &f(json!(["gen_recipe_1", "recipe_1"]))
            ),
            None
        );
        assert_eq!(
            pending_id_refs(&reg, Table::Tasks, &f(json!(["gen_recipe_1"]))),
            None
        );
        assert_eq!(pending_id_refs(&reg, Table::Recipes, &[]), None);
    }
}
