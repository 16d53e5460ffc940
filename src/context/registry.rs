//! `SessionIdRegistry`: every entity the session has touched, by ref.
//!
//! The model only ever sees refs (`recipe_3`, `gen_recipe_1`); row ids stay
//! here, and translation both ways is a lookup. Refs are named per type with a
//! counter that never resets, so a ref is never reused within a session.
//! Generated, unsaved content lives here as a pending artifact until a save
//! promotes the same ref in place to the new row id.
//!
//! Registration (new refs, links, generated artifacts and their promotion)
//! is in `register`, refs restored as another registry had them (an import)
//! in `restore`; lookups, curation marks and removal are here.
//!
//! Pure: turn numbers come in as arguments; no IO, no clock.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::entity::{RefAction, Table, parse_ref};

mod register;
mod restore;

/// The reason recorded when the user pins a ref.
pub const PINNED_REASON: &str = "pinned by user";

/// Who asked for an entity to stay active beyond the recent window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetainedBy {
    /// Understand's curation (`retain_active`).
    Understand,
    /// The user's `/pin`.
    User,
    /// Alfred's Understand, before the session was imported from Alfred's
    /// saved state, which keeps the reason but not the turn it was given.
    Imported,
}

/// An explicit retention: why an older entity stays active.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retention {
    pub reason: String,
    /// The turn the reason was given; for an [`RetainedBy::Imported`] one,
    /// the turn of the import (it was given then at the latest).
    pub turn: u32,
    pub by: RetainedBy,
}

/// A demotion: the entity leaves the active set until referenced again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Demotion {
    pub reason: String,
    pub turn: u32,
}

/// Everything the registry knows about one live ref.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefEntry {
    pub table: Table,
    /// The row id; `None` while the ref is a pending generated artifact.
    pub row_id: Option<String>,
    pub label: String,
    pub action: RefAction,
    /// The last action was the user's own edit in Alfred's web app
    /// (`[updated:user]`), kept from an imported state; any later action
    /// clears it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_user: bool,
    pub turn_created: u32,
    /// Turn of the last reference; 0 means never referenced directly (a
    /// foreign-key target registered as `[linked]`).
    pub last_ref_turn: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retention: Option<Retention>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub demotion: Option<Demotion>,
    /// Full content of a generated artifact while it is unsaved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Value>,
    /// The turn a generated ref was saved and promoted to a row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promoted_turn: Option<u32>,
    /// The turn of the import that brought this ref from Alfred's saved
    /// state: what that state does not record (a demotion) is unknown up to
    /// then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported_at: Option<u32>,
    /// Registration order, for stable listings.
    pub seq: u64,
}

impl RefEntry {
    /// True while this is generated content not yet saved.
    pub fn is_pending(&self) -> bool {
        self.pending.is_some() && self.row_id.is_none()
    }

    /// True when the user pinned this ref.
    pub fn is_pinned(&self) -> bool {
        matches!(&self.retention, Some(r) if r.by == RetainedBy::User)
    }

    /// The action as panels and prompts show it: `read`, or `updated:user`
    /// for the user's own edit.
    pub fn action_label(&self) -> String {
        if self.by_user {
            format!("{}:user", self.action.as_str())
        } else {
            self.action.as_str().to_string()
        }
    }

    /// Sets the action, which is the app's own from now on.
    fn set_action(&mut self, action: RefAction) {
        self.action = action;
        self.by_user = false;
    }
}

/// A ref removed from the registry (drop, clear_all), kept for diffs,
/// timelines and `why`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DroppedRef {
    pub table: Table,
    pub label: String,
    pub turn: u32,
    pub reason: String,
}

/// Errors of registry operations; each names the ref involved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    #[error("unknown ref `{0}`")]
    UnknownRef(String),
    #[error("`{0}` is not a generated artifact awaiting a save")]
    NotPending(String),
    #[error("ref `{r}` is a {actual} ref, not a {expected} ref")]
    WrongTable {
        r: String,
        expected: Table,
        actual: Table,
    },
    #[error("`{0}` is not a ref")]
    NotARef(String),
    #[error("ref `{0}` is already in the registry")]
    AlreadyLive(String),
}

/// The outcome of registering a created row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    pub r#ref: String,
    /// True when a pending generated ref was promoted in place.
    pub promoted: bool,
}

/// The session's registry of refs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "RegistryRepr", into = "RegistryRepr")]
pub struct SessionIdRegistry {
    counters: BTreeMap<Table, u32>,
    gen_counters: BTreeMap<Table, u32>,
    entries: BTreeMap<String, RefEntry>,
    dropped: BTreeMap<String, DroppedRef>,
    next_seq: u64,
    /// Row id → ref, rebuilt from `entries` on load.
    by_row: BTreeMap<String, String>,
}

/// The serialised form: the row index is derived, so it is not stored.
#[derive(Serialize, Deserialize)]
struct RegistryRepr {
    #[serde(default)]
    counters: BTreeMap<Table, u32>,
    #[serde(default)]
    gen_counters: BTreeMap<Table, u32>,
    #[serde(default)]
    entries: BTreeMap<String, RefEntry>,
    #[serde(default)]
    dropped: BTreeMap<String, DroppedRef>,
    #[serde(default)]
    next_seq: u64,
}

impl From<RegistryRepr> for SessionIdRegistry {
    fn from(r: RegistryRepr) -> Self {
        let by_row = r
            .entries
            .iter()
            .filter_map(|(k, e)| e.row_id.clone().map(|id| (id, k.clone())))
            .collect();
        let next_seq = r
            .entries
            .values()
            .map(|e| e.seq + 1)
            .max()
            .unwrap_or(0)
            .max(r.next_seq);
        Self {
            counters: r.counters,
            gen_counters: r.gen_counters,
            entries: r.entries,
            dropped: r.dropped,
            next_seq,
            by_row,
        }
    }
}

impl From<SessionIdRegistry> for RegistryRepr {
    fn from(r: SessionIdRegistry) -> Self {
        Self {
            counters: r.counters,
            gen_counters: r.gen_counters,
            entries: r.entries,
            dropped: r.dropped,
            next_seq: r.next_seq,
        }
    }
}

impl SessionIdRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of live refs.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no ref is live.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of a live ref.
    pub fn get(&self, r: &str) -> Option<&RefEntry> {
        self.entries.get(r)
    }

    /// Live refs in registration order.
    pub fn entries(&self) -> Vec<(&str, &RefEntry)> {
        let mut all: Vec<_> = self.entries.iter().map(|(k, e)| (k.as_str(), e)).collect();
        all.sort_by_key(|(_, e)| e.seq);
        all
    }

    /// A mark to pass to [`Self::reorder_since`]: what registers after it is
    /// new.
    pub fn mark(&self) -> u64 {
        self.next_seq
    }

    /// Puts the refs registered since `mark` in the order of `order` (refs
    /// not listed keep their order, after the listed ones). Steps that run at
    /// once register their rows as their answers arrive; this gives the
    /// registry the steps' order instead, whatever the timing.
    pub fn reorder_since(&mut self, mark: u64, order: &[String]) {
        let mut fresh: Vec<(usize, u64, String)> = self
            .entries
            .iter()
            .filter(|(_, e)| e.seq >= mark)
            .map(|(k, e)| {
                let rank = order.iter().position(|o| o == k).unwrap_or(usize::MAX);
                (rank, e.seq, k.clone())
            })
            .collect();
        fresh.sort();
        for (i, (_, _, k)) in fresh.into_iter().enumerate() {
            if let Some(e) = self.entries.get_mut(&k) {
                e.seq = mark + i as u64;
            }
        }
    }

    /// Refs removed from the registry, with when and why.
    pub fn dropped(&self) -> &BTreeMap<String, DroppedRef> {
        &self.dropped
    }

    /// The row id behind a ref (None for unknown or pending refs).
    pub fn row_id(&self, r: &str) -> Option<&str> {
        self.entries.get(r).and_then(|e| e.row_id.as_deref())
    }

    /// The ref of a row id, if registered.
    pub fn ref_for_row(&self, row_id: &str) -> Option<&str> {
        self.by_row.get(row_id).map(String::as_str)
    }

    /// The content of a pending generated artifact.
    pub fn artifact(&self, r: &str) -> Option<&Value> {
        self.entries
            .get(r)
            .filter(|e| e.is_pending())?
            .pending
            .as_ref()
    }

    /// Generated artifacts not yet saved, in registration order.
    pub fn pending_artifacts(&self) -> Vec<(&str, &RefEntry)> {
        self.entries()
            .into_iter()
            .filter(|(_, e)| e.is_pending())
            .collect()
    }

    /// Marks a ref referenced at `turn`; a reference lifts a demotion.
    /// Returns false for an unknown ref.
    pub fn touch(&mut self, r: &str, turn: u32) -> bool {
        match self.entries.get_mut(r) {
            Some(e) => {
                e.last_ref_turn = e.last_ref_turn.max(turn);
                e.demotion = None;
                true
            }
            None => false,
        }
    }

    /// Sets the action of a live ref (e.g. `[deleted]`) and touches it.
    pub fn set_action(&mut self, r: &str, action: RefAction, turn: u32) -> bool {
        match self.entries.get_mut(r) {
            Some(e) => {
                e.set_action(action);
                e.last_ref_turn = e.last_ref_turn.max(turn);
                e.demotion = None;
                true
            }
            None => false,
        }
    }

    /// Keeps a ref active beyond the recent window, with a reason.
    pub fn retain(&mut self, r: &str, reason: &str, by: RetainedBy, turn: u32) -> bool {
        match self.entries.get_mut(r) {
            Some(e) => {
                e.retention = Some(Retention {
                    reason: reason.to_string(),
                    turn,
                    by,
                });
                e.demotion = None;
                true
            }
            None => false,
        }
    }

    /// Removes an explicit retention (the entity may still be recent).
    pub fn clear_retention(&mut self, r: &str) -> bool {
        match self.entries.get_mut(r) {
            Some(e) => {
                e.retention = None;
                true
            }
            None => false,
        }
    }

    /// Removes a ref from the active set until it is referenced again.
    pub fn demote(&mut self, r: &str, reason: &str, turn: u32) -> bool {
        match self.entries.get_mut(r) {
            Some(e) => {
                e.retention = None;
                e.demotion = Some(Demotion {
                    reason: reason.to_string(),
                    turn,
                });
                true
            }
            None => false,
        }
    }

    /// Removes a ref from the registry; the ref is never reused, and a later
    /// read of the same row gets a new ref.
    pub fn remove(&mut self, r: &str, reason: &str, turn: u32) -> Option<RefEntry> {
        let e = self.entries.remove(r)?;
        if let Some(id) = &e.row_id {
            self.by_row.remove(id);
        }
        self.dropped.insert(
            r.to_string(),
            DroppedRef {
                table: e.table,
                label: e.label.clone(),
                turn,
                reason: reason.to_string(),
            },
        );
        Some(e)
    }

    /// Refs currently live, for `clear_all`.
    pub fn live_refs(&self) -> Vec<String> {
        self.entries()
            .into_iter()
            .map(|(r, _)| r.to_string())
            .collect()
    }

    /// True when `s` names a live ref.
    pub fn is_live_ref(&self, s: &str) -> bool {
        self.entries.contains_key(s)
    }

    /// True when `s` has the shape of a ref (live or not).
    pub fn looks_like_ref(s: &str) -> bool {
        parse_ref(s).is_some()
    }
}
