//! Restoring refs as another registry had them: an imported session keeps
//! Alfred's own refs (`recipe_3` stays `recipe_3`), and its counters go on
//! from where Alfred's stopped, so a ref is never reused.
//!
//! Pure, like the registry.

use super::{RefEntry, RegistryError, SessionIdRegistry};
use crate::context::entity::{Table, parse_ref};

impl SessionIdRegistry {
    /// Adds `entry` under the ref `r` as it was elsewhere. The ref must be
    /// well formed, of the entry's table, and not live here; the counter of
    /// its kind is raised to its number. The entry is registered after
    /// every live one (its `seq` is assigned here).
    pub fn restore(&mut self, r: &str, mut entry: RefEntry) -> Result<(), RegistryError> {
        let parsed = parse_ref(r).ok_or_else(|| RegistryError::NotARef(r.to_string()))?;
        if parsed.table != entry.table {
            return Err(RegistryError::WrongTable {
                r: r.to_string(),
                expected: entry.table,
                actual: parsed.table,
            });
        }
        if self.entries.contains_key(r) {
            return Err(RegistryError::AlreadyLive(r.to_string()));
        }
        self.raise_counter(parsed.table, parsed.generated, parsed.number);
        entry.seq = self.next_seq;
        self.next_seq += 1;
        if let Some(id) = &entry.row_id {
            self.by_row.insert(id.clone(), r.to_string());
        }
        self.entries.insert(r.to_string(), entry);
        Ok(())
    }

    /// Makes the next ref of a kind (`gen_` when `generated`) number at
    /// least `n + 1`: refs up to `n` were used elsewhere (some may have been
    /// dropped there) and must not be reused.
    pub fn raise_counter(&mut self, table: Table, generated: bool, n: u32) {
        let counters = if generated {
            &mut self.gen_counters
        } else {
            &mut self.counters
        };
        let c = counters.entry(table).or_insert(0);
        *c = (*c).max(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::entity::RefAction;

    fn entry(table: Table, row: Option<&str>) -> RefEntry {
        RefEntry {
            table,
            row_id: row.map(str::to_string),
            label: "Thai Basil Chicken".into(),
            action: RefAction::Read,
            by_user: false,
            turn_created: 2,
            last_ref_turn: 4,
            retention: None,
            demotion: None,
            pending: None,
            promoted_turn: None,
            imported_at: Some(4),
            seq: 99,
        }
    }

    #[test]
    fn a_restored_ref_keeps_its_name_and_new_refs_continue_after_it() {
        let mut reg = SessionIdRegistry::new();
        reg.restore("recipe_7", entry(Table::Recipes, Some("uuid-7")))
            .unwrap();
        assert_eq!(reg.ref_for_row("uuid-7"), Some("recipe_7"));
        assert_eq!(reg.get("recipe_7").unwrap().seq, 0);
        let next = reg.register_row(Table::Recipes, "uuid-8", "Soup", RefAction::Read, 5);
        assert_eq!(next, "recipe_8");
        reg.raise_counter(Table::Recipes, true, 3);
        let g = reg.register_generated(Table::Recipes, "Draft", serde_json::json!({}), 5);
        assert_eq!(g, "gen_recipe_4");
    }

    #[test]
    fn a_ref_of_another_table_or_already_live_is_refused() {
        let mut reg = SessionIdRegistry::new();
        assert!(matches!(
            reg.restore("inv_1", entry(Table::Recipes, None)),
            Err(RegistryError::WrongTable { .. })
        ));
        assert!(matches!(
            reg.restore("soup", entry(Table::Recipes, None)),
            Err(RegistryError::NotARef(_))
        ));
        reg.restore("recipe_1", entry(Table::Recipes, None))
            .unwrap();
        assert_eq!(
            reg.restore("recipe_1", entry(Table::Recipes, None)),
            Err(RegistryError::AlreadyLive("recipe_1".into()))
        );
    }

    #[test]
    fn a_later_action_is_the_apps_own() {
        let mut reg = SessionIdRegistry::new();
        let mut e = entry(Table::Recipes, Some("uuid-1"));
        e.action = RefAction::Updated;
        e.by_user = true;
        reg.restore("recipe_1", e).unwrap();
        assert_eq!(reg.get("recipe_1").unwrap().action_label(), "updated:user");
        reg.register_row(Table::Recipes, "uuid-1", "", RefAction::Read, 6);
        assert_eq!(reg.get("recipe_1").unwrap().action_label(), "read");
    }
}
