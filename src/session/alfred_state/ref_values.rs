//! Reading one ref's values across Alfred's registry maps: its type, its
//! action tag (`updated:user`), its text and turn values, each finding
//! named by map and ref (`id_registry.ref_labels.recipe_3`).

use serde_json::{Map, Value};

use super::read::{Need, shape, turn_of};
use super::report::ImportReport;
use crate::context::entity::{RefAction, Table};

/// The placeholder Alfred maps a generated, unsaved ref to.
pub(super) const PENDING_PREFIX: &str = "__pending__";

/// Alfred's type name (`recipe`, `inv`…, or a table name) as a table.
pub(super) fn table_of_type(t: &str) -> Option<Table> {
    Table::from_prefix(t).or_else(|| Table::from_name(t))
}

/// Alfred's action tag: `read`, `created:user`… → the action and whether
/// the user did it in Alfred's web app.
fn action_of(tag: &str) -> Option<(RefAction, bool)> {
    let (base, by_user) = match tag.strip_suffix(":user") {
        Some(base) => (base, true),
        None => (tag, false),
    };
    let action = match base {
        "read" => RefAction::Read,
        "created" => RefAction::Created,
        "updated" => RefAction::Updated,
        "generated" => RefAction::Generated,
        "linked" => RefAction::Linked,
        "deleted" => RefAction::Deleted,
        "mentioned" => RefAction::Mentioned,
        _ => return None,
    };
    Some((action, by_user))
}

/// The reading of one ref's values across the registry's maps: each
/// finding names the map and the ref (`id_registry.ref_labels.recipe_3`).
pub(super) struct One<'a, 'r> {
    pub r: &'a str,
    pub report: &'r mut ImportReport,
}

impl One<'_, '_> {
    /// The ref's value in `map`: `None` quietly when the map is missing
    /// (told once), reported when an `Expected` value is missing.
    pub fn get<'m>(
        &mut self,
        map: Option<&'m Map<String, Value>>,
        name: &str,
        need: Need,
        effect: &str,
    ) -> Option<&'m Value> {
        let v = map?.get(self.r).filter(|v| !v.is_null());
        if v.is_none() && need == Need::Expected {
            self.report.defaulted(
                format!("id_registry.{name}.{}", self.r),
                format!("is missing: {effect}"),
            );
        }
        v
    }

    /// Reports a value of the wrong shape.
    fn wrong(&mut self, name: &str, v: &Value, want: &str, effect: &str) {
        self.report.defaulted(
            format!("id_registry.{name}.{}", self.r),
            format!("is {}, not {want}: {effect}", shape(v)),
        );
    }

    /// The ref's text in `map`, trimmed and not empty.
    pub fn text<'m>(
        &mut self,
        map: Option<&'m Map<String, Value>>,
        name: &str,
        need: Need,
        effect: &str,
    ) -> Option<&'m str> {
        let v = self.get(map, name, need, effect)?;
        match v.as_str() {
            Some(s) => Some(s.trim()).filter(|s| !s.is_empty()),
            None => {
                self.wrong(name, v, "text", effect);
                None
            }
        }
    }

    /// The ref's turn number in `map`.
    pub fn turn(
        &mut self,
        map: Option<&Map<String, Value>>,
        name: &str,
        need: Need,
        effect: &str,
    ) -> Option<u32> {
        let v = self.get(map, name, need, effect)?;
        let n = turn_of(v);
        if n.is_none() {
            self.wrong(name, v, "a turn number", effect);
        }
        n
    }

    /// Checks Alfred's type against the ref's prefix (the prefix wins).
    pub fn check_type(&mut self, types: Option<&Map<String, Value>>, table: Table) {
        let effect = "its prefix gives its type";
        match self.text(types, "ref_types", Need::Expected, effect) {
            Some(t) if table_of_type(t) != Some(table) => self.report.defaulted(
                format!("id_registry.ref_types.{}", self.r),
                format!(
                    "is `{t}`, but the ref is a {} ref: the ref's type is used",
                    table.prefix()
                ),
            ),
            _ => {}
        }
    }

    /// The row id (`None` for Alfred's pending placeholder).
    pub fn row_id(&mut self, row: &Value) -> Option<String> {
        match row.as_str() {
            Some(id) if id.starts_with(PENDING_PREFIX) => None,
            Some(id) => Some(id.to_string()),
            None => {
                self.wrong("ref_to_uuid", row, "a row id", "kept without a row id");
                None
            }
        }
    }

    /// The action and whether the user did it; `[generated]` for an unsaved
    /// draft and `[read]` otherwise when it cannot be read.
    pub fn action(
        &mut self,
        actions: Option<&Map<String, Value>>,
        draft: bool,
    ) -> (RefAction, bool) {
        let fallback = if draft {
            RefAction::Generated
        } else {
            RefAction::Read
        };
        let effect = format!("shown as [{fallback}]");
        let Some(v) = self.get(actions, "ref_actions", Need::Expected, &effect) else {
            return (fallback, false);
        };
        if let Some(a) = v.as_str().and_then(action_of) {
            return a;
        }
        let said = v
            .as_str()
            .map_or(shape(v).to_string(), |s| format!("`{s}`"));
        self.report.defaulted(
            format!("id_registry.ref_actions.{}", self.r),
            format!("is {said}, not an action alfred knows: {effect}"),
        );
        (fallback, false)
    }
}

/// Why a key of `ref_to_uuid` that is not a ref here is skipped.
pub(super) fn not_a_ref(r: &str) -> String {
    let kind = r
        .strip_prefix("gen_")
        .unwrap_or(r)
        .rsplit_once('_')
        .filter(|(t, n)| !t.is_empty() && n.parse::<u32>().is_ok())
        .map(|(t, _)| t);
    match kind {
        Some(t) => format!(
            "is an Alfred entity of type `{t}`, which has no place here (alfred keeps recipes, \
             recipe ingredients, inventory, shopping, meal plans, tasks, preferences and \
             ingredients): skipped"
        ),
        None => "is not a ref (`{type}_{n}`): skipped".to_string(),
    }
}
