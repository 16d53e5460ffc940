//! Policy what-if (`w`): change the retention window, full_detail_turns,
//! narrative_turns and the policy kind at run time, see the active set of
//! the turn shown under the new policy beside the current one, then apply
//! it to the session's context (the next turn uses it) or discard it.
//!
//! Pure, like `update`: both sides are computed with `snapshot_at` on the
//! live `ContextState` — the current policy and a copy under the draft — and
//! compared with `diff`, once per change, not per frame.

use crossterm::event::KeyEvent;

use crate::context::{ContextPolicy, PolicyKind, diff, snapshot_at};

use super::action::Action;
use super::effect::Effect;
use super::keymap::{KeyContext, Keymap};
use super::model::{Level, Model, Overlay, Pane};
use super::reply::Reply;

pub use super::state::whatif::{FIELDS, WhatIfState, summary, value};

/// Changes one field one step (`up`: larger, or the next kind).
fn nudge(p: &mut ContextPolicy, field: usize, up: bool) {
    let step = |n: usize, min: usize| {
        if up {
            (n + 1).min(50)
        } else {
            n.saturating_sub(1).max(min)
        }
    };
    match field {
        0 => {
            let kinds = [PolicyKind::Windowed, PolicyKind::Tiered, PolicyKind::Naive];
            let i = kinds.iter().position(|k| *k == p.policy).unwrap_or(0);
            let next = if up { i + 1 } else { i + kinds.len() - 1 };
            p.policy = kinds[next % kinds.len()];
        }
        1 => p.turn_retention_window = step(p.turn_retention_window as usize, 0) as u32,
        2 => p.full_detail_turns = step(p.full_detail_turns, 1),
        _ => p.narrative_turns = step(p.narrative_turns, 1),
    }
}

/// Recomputes both sides for the draft.
fn compare(m: &Model, draft: ContextPolicy, field: usize) -> WhatIfState {
    let live = &m.session.context;
    let turn = match live.turn {
        0 => 0,
        last => m.panels.shown_snapshot().turn.clamp(1, last),
    };
    let before = snapshot_at(live, turn);
    let mut tried = live.clone();
    tried.set_policy(draft.clone());
    let after = snapshot_at(&tried, turn);
    let diff = diff(&before, &after);
    WhatIfState {
        draft,
        field,
        turn,
        past: m.panels.inspect.is_some(),
        before,
        after,
        diff,
    }
}

/// Opens the overlay on the session's policy (or closes it, discarding).
pub fn toggle(m: &mut Model) {
    if matches!(m.overlay, Some(Overlay::WhatIf(_))) {
        m.overlay = None;
        return;
    }
    let st = compare(m, m.session.context.policy.clone(), 1);
    // The comparison is drawn in the Entities panel: make sure it is shown.
    m.chrome.focus = Pane::Entities;
    m.panels.show_diff = false;
    m.panels.entities_scroll = Default::default();
    m.overlay = Some(Overlay::WhatIf(Box::new(st)));
}

/// A key while the overlay is open: moves between fields and nudges the
/// draft, comparing it against the live session.
pub fn on_key(st: &mut WhatIfState, m: &Model, keymap: &Keymap, key: KeyEvent) -> Reply {
    let (mut draft, mut field) = (st.draft.clone(), st.field);
    match keymap.action(key, KeyContext::PANEL) {
        Some(Action::Cancel | Action::WhatIf) => {
            return Reply::CloseSaying(
                Level::Info,
                "what-if discarded; the policy is unchanged".into(),
            );
        }
        Some(Action::Quit) => return Reply::Quit,
        Some(Action::Select | Action::Submit) => return Reply::ApplyPolicy,
        Some(Action::Copy) => return Reply::Copy,
        Some(Action::ScrollUp) => field = field.saturating_sub(1),
        Some(Action::ScrollDown) => field = (field + 1).min(FIELDS.len() - 1),
        Some(Action::MoveLeft) => nudge(&mut draft, field, false),
        Some(Action::MoveRight) => nudge(&mut draft, field, true),
        _ => {}
    }
    if draft == st.draft {
        st.field = field;
    } else {
        *st = compare(m, draft, field);
    }
    Reply::Stay
}

/// Puts the open overlay's draft on the session's context: the next turn
/// uses it. Refused, with the overlay left open, while a turn runs or when
/// the draft is not a valid policy.
pub fn apply(m: &mut Model) -> Vec<Effect> {
    let Some(Overlay::WhatIf(st)) = &m.overlay else {
        return Vec::new();
    };
    if m.turn.is_running() {
        m.chrome.status = Some((
            Level::Warn,
            "a turn is running — apply the policy when it finishes".into(),
        ));
        return Vec::new();
    }
    if let Err(e) = st.draft.validate() {
        m.chrome.status = Some((Level::Warn, e));
        return Vec::new();
    }
    let draft = st.draft.clone();
    let text = summary(&draft);
    m.overlay = None;
    m.session_mut().context.set_policy(draft);
    m.panels.set_snapshot(m.session.context.snapshot());
    m.chrome.status = Some((
        Level::Info,
        format!("policy applied ({text}) — the next turn uses it"),
    ));
    vec![Effect::Save]
}
