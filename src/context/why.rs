//! `why(ref, turn)`: a plain-language account of an entity's state at a turn,
//! from the snapshots a session stores.

use super::active::{Cause, EntityState};
use super::curation::DecisionAction;
use super::snapshot::{ContextSnapshot, EntityView};

/// Explains the state of `r` at `turn`, given the session's snapshots in any
/// order. A ref dropped earlier is explained from the snapshot that dropped it.
pub fn why(history: &[ContextSnapshot], r: &str, turn: u32) -> String {
    let Some(snap) = history.iter().find(|s| s.turn == turn) else {
        return format!("There is no snapshot of turn {turn}.");
    };
    if let Some(text) = explain(snap, r) {
        return text;
    }
    let dropped_at = history
        .iter()
        .filter(|s| s.turn <= turn)
        .filter_map(|s| s.entities.dropped_detail.iter().find(|d| d.r#ref == r))
        .max_by_key(|d| d.turn);
    if let Some(d) = dropped_at {
        return format!(
            "{r} ({}) is gone at turn {turn}: it was dropped at turn {} — “{}”. A dropped ref is never reused; reading the row again gives it a new ref.",
            d.label, d.turn, d.reason
        );
    }
    // A drop no snapshot shows (one made before an import) still has its
    // line in the decision log.
    let logged = history
        .iter()
        .filter(|s| s.turn <= turn)
        .flat_map(|s| s.decisions.iter())
        .filter(|d| d.r#ref == r && d.turn <= turn && d.action == DecisionAction::Drop)
        .max_by_key(|d| d.turn);
    match logged {
        Some(d) => format!(
            "{r} is gone at turn {turn}: Understand dropped it at turn {} — “{}” (from its decision log; the entity's name went with it). A dropped ref is never reused.",
            d.turn,
            d.reason.trim()
        ),
        None => format!("{r} was not known at turn {turn}."),
    }
}

/// Explains the state of `r` in one snapshot; `None` when the ref is absent.
pub fn explain(snap: &ContextSnapshot, r: &str) -> Option<String> {
    if let Some(d) = snap.entities.dropped_detail.iter().find(|d| d.r#ref == r) {
        return Some(format!(
            "{r} ({}) was dropped at turn {}: “{}”. It is no longer in working memory.",
            d.label, d.turn, d.reason
        ));
    }
    let (state, view) = snap.entities.find(r)?;
    let name = format!("{r} ({})", view.label);
    let t = snap.turn;
    let last = last_ref(view);
    let text = match (&view.cause, state) {
        (Cause::Demoted { reason, turn }, EntityState::Excluded) => format!(
            "{name} is excluded at turn {t}: Understand chose not to keep it (demoted at turn {turn}) — “{reason}”. {last} Think and Act are told not to use it."
        ),
        (Cause::Demoted { reason, turn }, _) => format!(
            "{name} is in the background at turn {t}: Understand chose not to keep it (demoted at turn {turn}) — “{reason}” — and it has not been referenced since. {last}"
        ),
        (
            Cause::RuledOut {
                constraint,
                clause,
                since_turn,
            },
            state,
        ) => {
            let said = snap
                .constraints
                .iter()
                .find(|c| &c.id == constraint)
                .map(|c| format!(", said at turn {}", c.since_turn))
                .unwrap_or_default();
            let when = if state == EntityState::Excluded {
                format!("excluded at turn {t}")
            } else {
                format!("in the background at turn {t}, still ruled out")
            };
            format!(
                "{name} is {when}: the user's standing constraint {constraint} — “{clause}”{said} — has covered it since turn {since_turn}. It stays out of working memory until the user lifts the constraint or starts over. {last}"
            )
        }
        (
            Cause::InWindow {
                last_ref_turn,
                window,
            },
            _,
        ) => format!(
            "{name} is recent at turn {t}: it was {} at turn {last_ref_turn}, within the window of {window} (recent means referenced at turn {} or later).",
            done(&view.action),
            t.saturating_sub(*window)
        ),
        (
            Cause::Retained {
                reason,
                imported: true,
                ..
            },
            _,
        ) => format!(
            "{name} is retained at turn {t}: Alfred's Understand kept it before this session was imported from Alfred's saved state — “{reason}”. Alfred's state does not say at which turn. {last}"
        ),
        (
            Cause::Retained {
                reason,
                since_turn,
                pinned: true,
                ..
            },
            _,
        ) => format!(
            "{name} is retained at turn {t}: pinned by the user at turn {since_turn} (“{reason}”). {last} Understand cannot demote a pinned entity."
        ),
        (
            Cause::Retained {
                reason, since_turn, ..
            },
            _,
        ) => format!(
            "{name} is retained at turn {t}: Understand kept it at turn {since_turn} — “{reason}”. {last}"
        ),
        (
            Cause::Warm {
                last_ref_turn,
                warm_turns,
            },
            _,
        ) => format!(
            "{name} is warm at turn {t}: last touched at turn {last_ref_turn}, within {warm_turns} turns, so it stays as a label line (tiered policy)."
        ),
        (Cause::Unsaved { generated_turn }, _) => format!(
            "{name} is pending at turn {t}: generated at turn {generated_turn} and not saved yet, so it stays in working memory until it is saved or dropped."
        ),
        (
            Cause::Aged {
                last_ref_turn,
                window,
                imported: true,
            },
            _,
        ) => format!(
            "{name} is in the background at turn {t}: it is not recent any more — last referenced at turn {last_ref_turn}, outside the window of {window} — and nothing retains it. It came from Alfred's saved state, which does not record demotions, so Alfred's Understand may also have let it go. It is still in the registry and can be addressed."
        ),
        (
            Cause::Aged {
                last_ref_turn,
                window,
                imported: false,
            },
            _,
        ) => format!(
            "{name} is in the background at turn {t}: it is not recent any more — last referenced at turn {last_ref_turn}, outside the window of {window} — and nothing retained it. This is not a demotion: it is still in the registry and can be addressed."
        ),
        (Cause::LinkedOnly, _) => format!(
            "{name} is in the background at turn {t}: it was registered as a link from another row and never referenced directly."
        ),
        (Cause::Baseline, _) => {
            format!("{name} is active at turn {t}: the naive baseline keeps every entity.")
        }
    };
    Some(text)
}

/// An action as words: "read", "updated by the user" (`updated:user`).
fn done(action: &str) -> String {
    match action.strip_suffix(":user") {
        Some(base) => format!("{base} by the user"),
        None => action.to_string(),
    }
}

fn last_ref(view: &EntityView) -> String {
    if view.last_ref_turn == 0 {
        "It was never referenced directly.".to_string()
    } else {
        format!("It was last referenced at turn {}.", view.last_ref_turn)
    }
}
