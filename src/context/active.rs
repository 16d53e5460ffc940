//! The active set at turn T: which state each entity is in, and why.
//!
//! Every live ref is in exactly one state. Windowed policy (DESIGN.md):
//! *excluded* — demoted at T (or ruled out at T by a standing constraint:
//! see `ContextState::state_of`, which checks constraints before
//! [`classify`]); *background* — demoted earlier and not referenced since,
//! ruled out earlier, or simply old (aged out of the window: not a
//! demotion); *pending* — generated and unsaved;
//! *recent* — referenced at turn >= T - window; *retained* — older, with an
//! active reason (Understand's, or a user's pin). *Dropped* refs are no
//! longer in the registry. The tiered policy maps hot → recent, warm →
//! retained (condensed to a label line), cold → background (archived).

use serde::{Deserialize, Serialize};

use super::policy::{ContextPolicy, PolicyKind};
use super::registry::{RefEntry, RetainedBy};

/// The state of one entity at a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntityState {
    Recent,
    Retained,
    Pending,
    Excluded,
    Background,
    Dropped,
}

impl EntityState {
    /// The lowercase word used in panels and the turn record.
    pub fn as_str(self) -> &'static str {
        match self {
            EntityState::Recent => "recent",
            EntityState::Retained => "retained",
            EntityState::Pending => "pending",
            EntityState::Excluded => "excluded",
            EntityState::Background => "background",
            EntityState::Dropped => "dropped",
        }
    }

    /// True for the states Think and Act see (recent, retained, pending).
    pub fn is_active(self) -> bool {
        matches!(
            self,
            EntityState::Recent | EntityState::Retained | EntityState::Pending
        )
    }
}

/// Where a state came from: the fact `why` explains. Written tagged by
/// `kind`; read through [`RawCause`] in one pass (serde reads a tagged enum
/// twice over, and a long session holds hundreds of thousands of these).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", try_from = "RawCause")]
pub enum Cause {
    /// Referenced within the window.
    InWindow { last_ref_turn: u32, window: u32 },
    /// Retained by Understand or pinned by the user.
    Retained {
        reason: String,
        since_turn: u32,
        pinned: bool,
        /// Kept by Alfred's Understand before an import: the reason is
        /// Alfred's, the turn it was given is unknown (`since_turn` is the
        /// import's).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        imported: bool,
    },
    /// Tiered policy: touched recently enough to stay as a label line.
    Warm { last_ref_turn: u32, warm_turns: u32 },
    /// Generated and not saved.
    Unsaved { generated_turn: u32 },
    /// Not kept by Understand (demoted), with its reason.
    Demoted { reason: String, turn: u32 },
    /// Ruled out by a standing constraint, in the user's words.
    RuledOut {
        constraint: String,
        clause: String,
        /// The turn the constraint began to cover this entity.
        since_turn: u32,
    },
    /// Left the recent window (not recent any more), with no reason to stay.
    Aged {
        last_ref_turn: u32,
        window: u32,
        /// Last referenced in Alfred, before an import: Alfred's state does
        /// not record demotions, so one may have happened there.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        imported: bool,
    },
    /// Registered as a foreign-key target and never referenced directly.
    LinkedOnly,
    /// The naive baseline keeps everything.
    Baseline,
}

/// Which [`Cause`] a [`RawCause`] is.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum CauseKind {
    InWindow,
    Retained,
    Warm,
    Unsaved,
    Demoted,
    RuledOut,
    Aged,
    LinkedOnly,
    Baseline,
}

/// Any cause, its fields as found.
#[derive(Deserialize)]
struct RawCause {
    kind: CauseKind,
    last_ref_turn: Option<u32>,
    window: Option<u32>,
    reason: Option<String>,
    since_turn: Option<u32>,
    pinned: Option<bool>,
    imported: Option<bool>,
    warm_turns: Option<u32>,
    generated_turn: Option<u32>,
    turn: Option<u32>,
    constraint: Option<String>,
    clause: Option<String>,
}

impl TryFrom<RawCause> for Cause {
    type Error = String;

    fn try_from(r: RawCause) -> Result<Cause, String> {
        fn need<T>(v: Option<T>, field: &str) -> Result<T, String> {
            v.ok_or_else(|| format!("missing field `{field}`"))
        }
        Ok(match r.kind {
            CauseKind::InWindow => Cause::InWindow {
                last_ref_turn: need(r.last_ref_turn, "last_ref_turn")?,
                window: need(r.window, "window")?,
            },
            CauseKind::Retained => Cause::Retained {
                reason: need(r.reason, "reason")?,
                since_turn: need(r.since_turn, "since_turn")?,
                pinned: need(r.pinned, "pinned")?,
                imported: r.imported.unwrap_or(false),
            },
            CauseKind::Warm => Cause::Warm {
                last_ref_turn: need(r.last_ref_turn, "last_ref_turn")?,
                warm_turns: need(r.warm_turns, "warm_turns")?,
            },
            CauseKind::Unsaved => Cause::Unsaved {
                generated_turn: need(r.generated_turn, "generated_turn")?,
            },
            CauseKind::Demoted => Cause::Demoted {
                reason: need(r.reason, "reason")?,
                turn: need(r.turn, "turn")?,
            },
            CauseKind::RuledOut => Cause::RuledOut {
                constraint: need(r.constraint, "constraint")?,
                clause: need(r.clause, "clause")?,
                since_turn: need(r.since_turn, "since_turn")?,
            },
            CauseKind::Aged => Cause::Aged {
                last_ref_turn: need(r.last_ref_turn, "last_ref_turn")?,
                window: need(r.window, "window")?,
                imported: r.imported.unwrap_or(false),
            },
            CauseKind::LinkedOnly => Cause::LinkedOnly,
            CauseKind::Baseline => Cause::Baseline,
        })
    }
}

/// Classifies one live entry at turn `turn` under `policy`.
pub fn classify(entry: &RefEntry, turn: u32, policy: &ContextPolicy) -> (EntityState, Cause) {
    if let Some(d) = &entry.demotion {
        let cause = Cause::Demoted {
            reason: d.reason.clone(),
            turn: d.turn,
        };
        let state = if d.turn == turn {
            EntityState::Excluded
        } else {
            EntityState::Background
        };
        return (state, cause);
    }
    if entry.is_pending() {
        return (
            EntityState::Pending,
            Cause::Unsaved {
                generated_turn: entry.turn_created,
            },
        );
    }
    let retained = entry.retention.as_ref().map(|r| Cause::Retained {
        reason: r.reason.clone(),
        since_turn: r.turn,
        pinned: entry.is_pinned(),
        imported: r.by == RetainedBy::Imported,
    });
    let referenced = entry.last_ref_turn > 0;
    let within = |window: u32| referenced && entry.last_ref_turn.saturating_add(window) >= turn;
    match policy.policy {
        PolicyKind::Naive => (EntityState::Recent, Cause::Baseline),
        PolicyKind::Windowed => {
            let window = policy.turn_retention_window;
            if within(window) {
                (
                    EntityState::Recent,
                    Cause::InWindow {
                        last_ref_turn: entry.last_ref_turn,
                        window,
                    },
                )
            } else if let Some(cause) = retained {
                (EntityState::Retained, cause)
            } else {
                (EntityState::Background, aged(entry, window))
            }
        }
        PolicyKind::Tiered => {
            let t = &policy.tiered;
            if within(t.hot_turns) {
                (
                    EntityState::Recent,
                    Cause::InWindow {
                        last_ref_turn: entry.last_ref_turn,
                        window: t.hot_turns,
                    },
                )
            } else if let Some(cause) = retained {
                (EntityState::Retained, cause)
            } else if within(t.warm_turns) {
                (
                    EntityState::Retained,
                    Cause::Warm {
                        last_ref_turn: entry.last_ref_turn,
                        warm_turns: t.warm_turns,
                    },
                )
            } else {
                (EntityState::Background, aged(entry, t.warm_turns))
            }
        }
    }
}

fn aged(entry: &RefEntry, window: u32) -> Cause {
    if entry.last_ref_turn == 0 {
        Cause::LinkedOnly
    } else {
        Cause::Aged {
            last_ref_turn: entry.last_ref_turn,
            window,
            imported: entry
                .imported_at
                .is_some_and(|at| entry.last_ref_turn <= at),
        }
    }
}

impl Cause {
    /// True when two causes come from the same decision: the same
    /// demotion, the same constraint, the same retention.
    pub fn same_origin(&self, other: &Cause) -> bool {
        match (self, other) {
            (Cause::RuledOut { constraint: a, .. }, Cause::RuledOut { constraint: b, .. }) => {
                a == b
            }
            (Cause::Demoted { turn: a, .. }, Cause::Demoted { turn: b, .. }) => a == b,
            _ => self == other,
        }
    }

    /// The short reason shown beside an entity (retained, excluded rows).
    pub fn short_reason(&self) -> Option<String> {
        match self {
            Cause::Retained { reason, .. } | Cause::Demoted { reason, .. } => Some(reason.clone()),
            Cause::RuledOut { clause, .. } => Some(format!("“{clause}”")),
            Cause::Warm { last_ref_turn, .. } => {
                Some(format!("warm: last touched at turn {last_ref_turn}"))
            }
            Cause::Unsaved { .. } => Some("needs save confirmation".to_string()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::entity::{RefAction, Table};
    use crate::context::registry::SessionIdRegistry;

    fn state_at(
        reg: &SessionIdRegistry,
        r: &str,
        turn: u32,
        policy: &ContextPolicy,
    ) -> EntityState {
        classify(reg.get(r).unwrap(), turn, policy).0
    }

    #[test]
    fn window_two_means_turns_t_minus_two_to_t() {
        let p = ContextPolicy::default();
        let mut reg = SessionIdRegistry::new();
        reg.register_row(Table::Recipes, "a", "A", RefAction::Read, 2);
        assert_eq!(state_at(&reg, "recipe_1", 2, &p), EntityState::Recent);
        assert_eq!(state_at(&reg, "recipe_1", 4, &p), EntityState::Recent);
        assert_eq!(state_at(&reg, "recipe_1", 5, &p), EntityState::Background);
        reg.retain("recipe_1", "ongoing goal", RetainedBy::Understand, 3);
        assert_eq!(state_at(&reg, "recipe_1", 9, &p), EntityState::Retained);
    }

    #[test]
    fn demotion_excludes_this_turn_then_backgrounds_until_referenced() {
        let p = ContextPolicy::default();
        let mut reg = SessionIdRegistry::new();
        reg.register_row(Table::Recipes, "a", "A", RefAction::Read, 2);
        reg.demote("recipe_1", "user said no", 3);
        assert_eq!(state_at(&reg, "recipe_1", 3, &p), EntityState::Excluded);
        assert_eq!(state_at(&reg, "recipe_1", 4, &p), EntityState::Background);
        reg.touch("recipe_1", 5);
        assert_eq!(state_at(&reg, "recipe_1", 5, &p), EntityState::Recent);
    }

    #[test]
    fn linked_refs_are_background_even_at_turn_one() {
        let p = ContextPolicy::default();
        let mut reg = SessionIdRegistry::new();
        reg.register_linked(Table::Ingredients, "i", "garlic", 1);
        let (state, cause) = classify(reg.get("ing_1").unwrap(), 1, &p);
        assert_eq!(state, EntityState::Background);
        assert_eq!(cause, Cause::LinkedOnly);
    }

    #[test]
    fn tiered_policy_has_hot_warm_and_cold() {
        let p = ContextPolicy {
            policy: PolicyKind::Tiered,
            ..ContextPolicy::default()
        };
        let mut reg = SessionIdRegistry::new();
        reg.register_row(Table::Recipes, "a", "A", RefAction::Read, 10);
        assert_eq!(state_at(&reg, "recipe_1", 12, &p), EntityState::Recent);
        assert_eq!(state_at(&reg, "recipe_1", 15, &p), EntityState::Retained);
        assert_eq!(state_at(&reg, "recipe_1", 16, &p), EntityState::Background);
    }

    #[test]
    fn naive_keeps_everything_active() {
        let p = ContextPolicy::naive();
        let mut reg = SessionIdRegistry::new();
        reg.register_row(Table::Recipes, "a", "A", RefAction::Read, 1);
        assert_eq!(state_at(&reg, "recipe_1", 500, &p), EntityState::Recent);
    }
}
