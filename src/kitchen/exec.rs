//! [`Kitchen::execute`]: runs one CRUD tool call, refs in and refs out.
//!
//! Order of work: parse the call, check the table, reroute reads of pending
//! artifacts, translate refs and check filters and data against the schema,
//! ask the caller's [`WriteCheck`] about the rows a write would change
//! (`hold.rs`), run the SQL (writes inside a savepoint, so a refused call
//! writes nothing), then register the returned rows in the registry. The registry is
//! changed only after the store accepted the call. This module decides the
//! flow; SQL lives in `tools.rs`, ref translation in `refs.rs`.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::call::{
    CreateParams, DeleteParams, Filter, Operation, ReadParams, ToolCall, UpdateParams,
    resolve_table,
};
use super::error::ToolError;
use super::filters::{Condition, check_shape, where_clause};
use super::hold::{self, RowWrite, WriteAll, WriteCheck, WriteOp};
use super::payload::{Mode, RowPayload, check_payload, check_required};
use super::refs::{Registration, pending_id_refs, translate_filters};
use super::schema::{ColumnDef, RECIPE_INGREDIENTS_FIELD, TableSchema, table_schema};
use super::shape::{
    MAX_LIMIT, ToolResult, artifact_payload, create_items, project, read_artifacts, read_limit,
    read_order, requested_columns, select_columns,
};
use super::store::Kitchen;
use super::tools::{CatalogEntry, Select};
use crate::context::Table;
use crate::context::registry::SessionIdRegistry;

impl Kitchen {
    /// Runs one tool call. Refs in the call are translated through
    /// `registry`; refs of the returned rows (and their FK targets) are
    /// registered at `turn`. Works inside or outside a turn (see `store`).
    pub fn execute(
        &mut self,
        call: &ToolCall,
        registry: &mut SessionIdRegistry,
        turn: u32,
    ) -> Result<ToolResult, ToolError> {
        self.execute_checked(call, registry, turn, &mut WriteAll)
    }

    /// Runs one tool call as [`execute`](Self::execute) does, first asking
    /// `check` about every row a write would change: rows it holds back
    /// are not written (a note says so), and a write with every row held
    /// back writes nothing and fails with [`ToolError::HeldBack`].
    pub fn execute_checked(
        &mut self,
        call: &ToolCall,
        registry: &mut SessionIdRegistry,
        turn: u32,
        check: &mut dyn WriteCheck,
    ) -> Result<ToolResult, ToolError> {
        let op = call.parse()?;
        let schema = table_schema(resolve_table(op.table_name())?);
        // Inside a turn, the call sees the turn's earlier writes.
        let opened = self.open_view()?;
        let result = match &op {
            Operation::Read(p) => self.run_read(schema, p, registry, turn),
            Operation::Create(p) => self.run_create(schema, p, registry, turn, check),
            Operation::Update(p) => self.run_update(schema, p, registry, turn, check),
            Operation::Delete(p) => self.run_delete(schema, p, registry, turn, check),
        };
        self.close_view(opened);
        match &result {
            Ok(r) => {
                tracing::debug!(tool = %call.tool, table = %r.table, rows = r.count, "tool call")
            }
            Err(e) => tracing::debug!(tool = %call.tool, error = %e, "tool call refused"),
        }
        result
    }

    fn run_read(
        &mut self,
        schema: &'static TableSchema,
        p: &ReadParams,
        registry: &mut SessionIdRegistry,
        turn: u32,
    ) -> Result<ToolResult, ToolError> {
        let table = schema.table;
        let mut notes = Vec::new();
        let limit = read_limit(p.limit, &mut notes)?;
        let (order_by, descending) = read_order(schema, p)?;
        let wanted = requested_columns(schema, p.columns.as_deref())?;
        if let Some(refs) = pending_id_refs(registry, table, &p.filters) {
            return Ok(read_artifacts(table, &refs, p, registry, turn));
        }
        let filter = where_clause(
            &conditions(schema, registry, &p.filters)?,
            &conditions(schema, registry, &p.or_filters)?,
        );
        let columns = select_columns(schema, wanted.as_deref());
        let mut rows = self.select_rows(&Select {
            schema,
            columns,
            filter,
            order_by,
            descending,
            limit: Some(limit + 1),
        })?;
        if rows.len() > limit {
            rows.truncate(limit);
            let hint = if limit < MAX_LIMIT {
                format!("narrow the filters or raise limit (max {MAX_LIMIT})")
            } else {
                "narrow the filters".to_string()
            };
            notes.push(format!("more rows match than the {limit} returned; {hint}"));
        }
        let nested = wanted
            .as_ref()
            .is_none_or(|w| w.iter().any(|c| c == RECIPE_INGREDIENTS_FIELD));
        if table == Table::Recipes && nested {
            self.attach_recipe_ingredients(&mut rows)?;
        }
        let (mut out, _) = self.rows_out(table, rows, Registration::Read, registry, turn)?;
        if let Some(wanted) = &wanted {
            for row in &mut out {
                project(row, wanted);
            }
        }
        if out.is_empty() {
            notes.push(format!("no {table} rows matched"));
        }
        Ok(result("db_read", table, out, notes))
    }

    fn run_create(
        &mut self,
        schema: &'static TableSchema,
        p: &CreateParams,
        registry: &mut SessionIdRegistry,
        turn: u32,
        check: &mut dyn WriteCheck,
    ) -> Result<ToolResult, ToolError> {
        let table = schema.table;
        let items = create_items(table, &p.data)?;
        if table == Table::Preferences && self.count_rows(table)? > 0 {
            return Err(ToolError::NotAllowed(
                "preferences holds one row; change it with db_update".to_string(),
            ));
        }
        let mut prepared = Vec::with_capacity(items.len());
        let mut notes = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = if items.len() > 1 {
                format!(" (item {})", i + 1)
            } else {
                String::new()
            };
            let (explicit, merged) = artifact_payload(table, item, registry)?;
            let lenient = |k: &str| !item.contains_key(k);
            let payload = check_payload(schema, &merged, &lenient, Mode::Create, registry)?;
            check_required(schema, &payload, &[], &at)?;
            if !payload.ignored.is_empty() {
                notes.push(format!(
                    "ignored artifact fields{at}: {}",
                    payload.ignored.join(", ")
                ));
            }
            if explicit.is_some() && prepared.iter().any(|(_, g)| *g == explicit) {
                return Err(ToolError::NotAllowed(format!(
                    "two items{at} save the same artifact {}",
                    explicit.unwrap_or_default()
                )));
            }
            prepared.push((payload, explicit));
        }
        let rows: Vec<RowWrite> = prepared
            .iter()
            .map(|(payload, saved)| {
                let label = hold::payload_label(table, payload);
                let op = WriteOp::Create;
                hold::payload_write(table, op, payload, saved.clone(), label, registry)
            })
            .collect();
        let (keep, held) = hold::ask(check, &rows);
        if !held.is_empty() {
            if !keep.contains(&true) {
                return Err(ToolError::HeldBack(held));
            }
            let mut keep = keep.into_iter();
            prepared.retain(|_| keep.next().unwrap_or(true));
            notes.push(hold::held_note(&held));
        }
        let (ids, lines) = self.atomically(|k| k.insert_all(table, &mut prepared))?;
        if lines > 0 {
            notes.push(format!("saved {lines} ingredient lines"));
        }
        let explicit: HashMap<String, Option<String>> = ids
            .iter()
            .cloned()
            .zip(prepared.into_iter().map(|(_, g)| g))
            .collect();
        let rows = self.rows_by_id(table, &ids)?;
        let (out, saved) = self.rows_out(
            table,
            rows,
            Registration::Created(&explicit),
            registry,
            turn,
        )?;
        notes.extend(saved);
        Ok(result("db_create", table, out, notes))
    }

    /// Inserts prepared rows (and recipe lines), linking ingredient names to
    /// the catalog. Returns the new ids and the number of lines saved.
    fn insert_all(
        &mut self,
        table: Table,
        prepared: &mut [(RowPayload, Option<String>)],
    ) -> Result<(Vec<String>, usize), ToolError> {
        let catalog = self.catalog()?;
        let mut ids = Vec::with_capacity(prepared.len());
        let mut lines = 0;
        for (payload, _) in prepared.iter_mut() {
            link_catalog(&catalog, table, payload);
            let id = self.insert_row(table, &payload.values)?;
            let recipe_col = column(Table::RecipeIngredients, "recipe_id");
            for line in &mut payload.lines {
                link_catalog(&catalog, Table::RecipeIngredients, line);
                line.set(recipe_col, rusqlite::types::Value::Text(id.clone()));
                self.insert_row(Table::RecipeIngredients, &line.values)?;
                lines += 1;
            }
            ids.push(id);
        }
        Ok((ids, lines))
    }

    fn run_update(
        &mut self,
        schema: &'static TableSchema,
        p: &UpdateParams,
        registry: &mut SessionIdRegistry,
        turn: u32,
        check: &mut dyn WriteCheck,
    ) -> Result<ToolResult, ToolError> {
        let table = schema.table;
        require_filters("db_update", &p.filters)?;
        let payload = check_payload(schema, &p.data, &|_| false, Mode::Update, registry)?;
        if payload.values.is_empty() && payload.deltas.is_empty() {
            return Err(ToolError::MissingData {
                tool: "db_update".into(),
                table,
            });
        }
        let filter = where_clause(&conditions(schema, registry, &p.filters)?, &[]);
        let seen: &SessionIdRegistry = registry;
        let (ids, held) = self.atomically(|k| -> Result<_, ToolError> {
            let mut ids = k.matching_ids(table, &filter)?;
            let rows: Vec<RowWrite> = ids
                .iter()
                .map(|id| {
                    let own = seen.ref_for_row(id).map(str::to_string);
                    let label = (own.as_deref().and_then(|r| seen.get(r)))
                        .map_or_else(String::new, |e| e.label.clone());
                    hold::payload_write(table, WriteOp::Update, &payload, own, label, seen)
                })
                .collect();
            let (keep, held) = hold::ask(check, &rows);
            if !held.is_empty() && !keep.contains(&true) {
                return Err(ToolError::HeldBack(held));
            }
            let mut keep = keep.into_iter();
            ids.retain(|_| keep.next().unwrap_or(true));
            if !ids.is_empty() {
                k.update_rows(table, &ids, &payload.values, &payload.deltas)?;
            }
            Ok((ids, held))
        })?;
        let rows = self.rows_by_id(table, &ids)?;
        let (out, _) = self.rows_out(table, rows, Registration::Updated, registry, turn)?;
        let mut result = change_result("db_update", "updated", table, out);
        if !held.is_empty() {
            result.notes.push(hold::held_note(&held));
        }
        Ok(result)
    }

    fn run_delete(
        &mut self,
        schema: &'static TableSchema,
        p: &DeleteParams,
        registry: &mut SessionIdRegistry,
        turn: u32,
        check: &mut dyn WriteCheck,
    ) -> Result<ToolResult, ToolError> {
        let table = schema.table;
        require_filters("db_delete", &p.filters)?;
        if table == Table::Preferences {
            return Err(ToolError::NotAllowed(
                "preferences cannot be deleted; change them with db_update".to_string(),
            ));
        }
        let filter = where_clause(&conditions(schema, registry, &p.filters)?, &[]);
        let seen: &SessionIdRegistry = registry;
        let (rows, held) = self.atomically(|k| -> Result<_, ToolError> {
            let mut rows = k.full_rows(table, filter)?;
            let writes: Vec<RowWrite> = rows
                .iter()
                .map(|row| hold::row_write(table, row, seen))
                .collect();
            let (keep, held) = hold::ask(check, &writes);
            if !held.is_empty() && !keep.contains(&true) {
                return Err(ToolError::HeldBack(held));
            }
            let mut keep = keep.into_iter();
            rows.retain(|_| keep.next().unwrap_or(true));
            k.delete_rows(table, &rows)?;
            Ok((rows, held))
        })?;
        let (out, _) = self.rows_out(table, rows, Registration::Deleted, registry, turn)?;
        let mut result = change_result("db_delete", "deleted", table, out);
        if !held.is_empty() {
            result.notes.push(hold::held_note(&held));
        }
        Ok(result)
    }
}

fn result(
    tool: &str,
    table: Table,
    rows: Vec<Map<String, Value>>,
    notes: Vec<String>,
) -> ToolResult {
    ToolResult {
        tool: tool.to_string(),
        table,
        count: rows.len(),
        rows: rows.into_iter().map(Value::Object).collect(),
        notes,
    }
}

/// The result of an update or a delete: the rows it changed, or a note
/// that no row matched.
fn change_result(
    tool: &str,
    done: &str,
    table: Table,
    rows: Vec<Map<String, Value>>,
) -> ToolResult {
    let mut notes = Vec::new();
    if rows.is_empty() {
        notes.push(format!(
            "no {table} rows matched the filters; nothing was {done}"
        ));
    }
    result(tool, table, rows, notes)
}

/// Updates and deletes need a filter: an empty one would change every row.
fn require_filters(tool: &str, filters: &[Filter]) -> Result<(), ToolError> {
    if filters.is_empty() {
        return Err(ToolError::MissingFilters {
            tool: tool.to_string(),
        });
    }
    Ok(())
}

/// Checks filters against the schema, then translates their refs.
fn conditions(
    schema: &'static TableSchema,
    registry: &SessionIdRegistry,
    filters: &[Filter],
) -> Result<Vec<Condition>, ToolError> {
    for f in filters {
        // Column and operator errors first: they are the model's first fix.
        check_shape(schema, f)?;
    }
    translate_filters(registry, schema, filters)?
        .iter()
        .map(|f| Condition::new(schema, f))
        .collect()
}

fn column(table: Table, name: &str) -> &'static ColumnDef {
    let schema = table_schema(table);
    schema.column(name).unwrap_or(&schema.columns[0])
}

/// Sets `ingredient_id` (and a missing `category`) from the catalog when
/// the row's name is a catalog name or alias.
fn link_catalog(catalog: &HashMap<String, CatalogEntry>, table: Table, payload: &mut RowPayload) {
    let schema = table_schema(table);
    let (Some(fk), Some(name)) = (schema.column("ingredient_id"), payload.text("name")) else {
        return;
    };
    if payload.has("ingredient_id") {
        return;
    }
    let Some(entry) = catalog.get(&name.trim().to_lowercase()).cloned() else {
        return;
    };
    payload.set(fk, rusqlite::types::Value::Text(entry.id));
    if let (Some(cat), Some(col)) = (entry.category, schema.column("category"))
        && !payload.has("category")
    {
        payload.set(col, rusqlite::types::Value::Text(cat));
    }
}
