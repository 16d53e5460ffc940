//! Registration: how rows, foreign-key links and generated artifacts get
//! their refs, and how a save promotes a generated ref in place.
//!
//! The write side of [`SessionIdRegistry`] that creates entries; lookups,
//! curation marks and removal stay in `registry`. Pure, like the registry.

use serde_json::Value;

use super::{Created, RefEntry, RegistryError, SessionIdRegistry};
use crate::context::entity::{RefAction, Table, format_ref};

impl SessionIdRegistry {
    fn next_ref(&mut self, table: Table, generated: bool) -> String {
        let counters = if generated {
            &mut self.gen_counters
        } else {
            &mut self.counters
        };
        let n = counters.entry(table).or_insert(0);
        *n += 1;
        format_ref(table, generated, *n)
    }

    fn insert(&mut self, r: String, entry: RefEntry) {
        if let Some(id) = &entry.row_id {
            self.by_row.insert(id.clone(), r.clone());
        }
        self.entries.insert(r, entry);
    }

    fn new_entry(&mut self, table: Table, row_id: Option<String>, label: &str) -> RefEntry {
        let seq = self.next_seq;
        self.next_seq += 1;
        RefEntry {
            table,
            row_id,
            label: label.to_string(),
            action: RefAction::Read,
            by_user: false,
            turn_created: 0,
            last_ref_turn: 0,
            retention: None,
            demotion: None,
            pending: None,
            promoted_turn: None,
            imported_at: None,
            seq,
        }
    }

    /// Registers (or refreshes) a row with an action, touching it at `turn`.
    ///
    /// A known row keeps its ref; a new row gets the next ref of its type.
    pub fn register_row(
        &mut self,
        table: Table,
        row_id: &str,
        label: &str,
        action: RefAction,
        turn: u32,
    ) -> String {
        if let Some(r) = self.by_row.get(row_id).cloned()
            && let Some(e) = self.entries.get_mut(&r)
        {
            if !label.is_empty() {
                e.label = label.to_string();
            }
            e.set_action(action);
            e.last_ref_turn = turn;
            e.demotion = None;
            return r;
        }
        let r = self.next_ref(table, false);
        let mut e = self.new_entry(table, Some(row_id.to_string()), label);
        e.action = action;
        e.turn_created = turn;
        e.last_ref_turn = turn;
        self.insert(r.clone(), e);
        r
    }

    /// Registers a foreign-key target seen in a result (`[linked]`).
    ///
    /// A known row keeps its ref, action and recency; a new one is registered
    /// as linked and stays in the background until referenced directly.
    pub fn register_linked(
        &mut self,
        table: Table,
        row_id: &str,
        label: &str,
        turn: u32,
    ) -> String {
        if let Some(r) = self.by_row.get(row_id).cloned() {
            if let Some(e) = self.entries.get_mut(&r)
                && e.label == r
                && !label.is_empty()
            {
                e.label = label.to_string();
            }
            return r;
        }
        let r = self.next_ref(table, false);
        let label = if label.is_empty() { r.as_str() } else { label }.to_string();
        let mut e = self.new_entry(table, Some(row_id.to_string()), &label);
        e.action = RefAction::Linked;
        e.turn_created = turn;
        self.insert(r.clone(), e);
        r
    }

    /// Sets the label of a live ref (enrichment of linked refs).
    pub fn set_label(&mut self, r: &str, label: &str) -> Result<(), RegistryError> {
        let e = self
            .entries
            .get_mut(r)
            .ok_or_else(|| RegistryError::UnknownRef(r.to_string()))?;
        e.label = label.to_string();
        Ok(())
    }

    /// Registers generated, unsaved content as `gen_{prefix}_{n}`.
    pub fn register_generated(
        &mut self,
        table: Table,
        label: &str,
        content: Value,
        turn: u32,
    ) -> String {
        let r = self.next_ref(table, true);
        let mut e = self.new_entry(table, None, label);
        e.action = RefAction::Generated;
        e.turn_created = turn;
        e.last_ref_turn = turn;
        e.pending = Some(content);
        self.insert(r.clone(), e);
        r
    }

    /// Replaces the content of a pending artifact (an edit before saving).
    pub fn update_generated(
        &mut self,
        r: &str,
        label: &str,
        content: Value,
        turn: u32,
    ) -> Result<(), RegistryError> {
        let e = self
            .entries
            .get_mut(r)
            .ok_or_else(|| RegistryError::UnknownRef(r.to_string()))?;
        if !e.is_pending() {
            return Err(RegistryError::NotPending(r.to_string()));
        }
        e.pending = Some(content);
        if !label.is_empty() {
            e.label = label.to_string();
        }
        e.last_ref_turn = turn;
        e.demotion = None;
        Ok(())
    }

    /// Registers a row created by a save.
    ///
    /// With an explicit gen ref, or a pending artifact of the same table whose
    /// label or content name/title equals `name` (case-insensitive, trimmed),
    /// the gen ref is promoted in place: same ref, now mapped to `row_id`.
    /// Otherwise the row gets a new ref with action `[created]`.
    pub fn register_created(
        &mut self,
        table: Table,
        row_id: &str,
        name: &str,
        explicit_gen: Option<&str>,
        turn: u32,
    ) -> Result<Created, RegistryError> {
        let target = match explicit_gen {
            Some(g) => {
                let e = self
                    .entries
                    .get(g)
                    .ok_or_else(|| RegistryError::UnknownRef(g.to_string()))?;
                if !e.is_pending() {
                    return Err(RegistryError::NotPending(g.to_string()));
                }
                if e.table != table {
                    return Err(RegistryError::WrongTable {
                        r: g.to_string(),
                        expected: table,
                        actual: e.table,
                    });
                }
                Some(g.to_string())
            }
            None => self.find_pending_by_name(table, name),
        };
        let Some(g) = target else {
            let r = self.register_row(table, row_id, name, RefAction::Created, turn);
            return Ok(Created {
                r#ref: r,
                promoted: false,
            });
        };
        let e = self
            .entries
            .get_mut(&g)
            .ok_or_else(|| RegistryError::UnknownRef(g.clone()))?;
        e.row_id = Some(row_id.to_string());
        e.pending = None;
        e.set_action(RefAction::Created);
        e.promoted_turn = Some(turn);
        e.last_ref_turn = turn;
        e.demotion = None;
        if !name.trim().is_empty() {
            e.label = name.trim().to_string();
        }
        self.by_row.insert(row_id.to_string(), g.clone());
        Ok(Created {
            r#ref: g,
            promoted: true,
        })
    }

    fn find_pending_by_name(&self, table: Table, name: &str) -> Option<String> {
        let wanted = name.trim().to_lowercase();
        if wanted.is_empty() {
            return None;
        }
        self.pending_artifacts()
            .into_iter()
            .filter(|(_, e)| e.table == table)
            .find(|(_, e)| {
                let content_name = e.pending.as_ref().and_then(|c| {
                    c.get("name")
                        .or_else(|| c.get("title"))
                        .and_then(Value::as_str)
                });
                e.label.trim().to_lowercase() == wanted
                    || content_name.is_some_and(|n| n.trim().to_lowercase() == wanted)
            })
            .map(|(r, _)| r.to_string())
    }
}
