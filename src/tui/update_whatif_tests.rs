//! Policy what-if through `update`: trying a smaller window on a real
//! session, the comparison it computes, applying and discarding.

use crossterm::event::KeyCode;

use super::effect::Effect;
use super::model::{Model, Overlay, Pane};
use super::test_records;
use super::test_update::press;
use super::whatif::WhatIfState;
use crate::context::{EntityState, PolicyKind};

fn state(m: &Model) -> &WhatIfState {
    match &m.overlay {
        Some(Overlay::WhatIf(st)) => st,
        other => panic!("the what-if is not open: {other:?}"),
    }
}

#[test]
fn a_window_of_1_moves_what_turn_2_read_to_the_background_and_enter_applies_it() {
    let mut m = test_records::model(4, 120, 40);
    m.chrome.focus = Pane::Chat;
    press(&mut m, KeyCode::Char('w'));
    assert_eq!(m.chrome.focus, Pane::Entities, "the comparison is shown");
    assert_eq!(state(&m).draft, m.session.context.policy);
    assert!(state(&m).diff.entities.is_empty(), "same policy, no moves");
    assert_eq!(state(&m).field, 1, "starts on the window");
    press(&mut m, KeyCode::Left);
    assert_eq!(state(&m).draft.turn_retention_window, 1);
    assert_eq!(state(&m).turn, 4);
    let moved = state(&m)
        .diff
        .change_of("inv_1")
        .unwrap_or_else(|| panic!("{:?}", state(&m).diff));
    assert_eq!(
        (moved.from, moved.to),
        (Some(EntityState::Recent), EntityState::Background)
    );
    assert!(
        moved.reason.contains("outside the window of 1"),
        "{}",
        moved.reason
    );
    assert!(state(&m).after.entities.active_count() < state(&m).before.entities.active_count());
    assert_eq!(
        m.session.context.policy.turn_retention_window, 2,
        "not yet applied"
    );
    let effects = press(&mut m, KeyCode::Enter);
    assert_eq!(effects, vec![Effect::Save]);
    assert!(m.overlay.is_none());
    assert_eq!(m.session.context.policy.turn_retention_window, 1);
    assert_eq!(
        m.panels.snapshot.window, 1,
        "the panels show the new policy"
    );
    let status = &m.chrome.status.as_ref().expect("status").1;
    assert!(status.contains("the next turn uses it"), "{status}");
}

#[test]
fn esc_discards_and_kinds_cycle() {
    let mut m = test_records::model(3, 120, 40);
    m.chrome.focus = Pane::Entities;
    press(&mut m, KeyCode::Char('w'));
    press(&mut m, KeyCode::Up);
    assert_eq!(state(&m).field, 0);
    press(&mut m, KeyCode::Right);
    assert_eq!(state(&m).draft.policy, PolicyKind::Tiered);
    press(&mut m, KeyCode::Right);
    assert_eq!(state(&m).draft.policy, PolicyKind::Naive);
    // Naive keeps everything active but what the user ruled out.
    let background = &state(&m).after.entities.background;
    assert!(
        background
            .iter()
            .all(|e| matches!(e.cause, crate::context::Cause::RuledOut { .. })),
        "{background:?}"
    );
    press(&mut m, KeyCode::Right);
    assert_eq!(state(&m).draft.policy, PolicyKind::Windowed);
    for _ in 0..3 {
        press(&mut m, KeyCode::Down);
    }
    for _ in 0..5 {
        press(&mut m, KeyCode::Left);
    }
    assert_eq!(state(&m).draft.narrative_turns, 1, "never below 1");
    let effects = press(&mut m, KeyCode::Esc);
    assert!(effects.is_empty() && m.overlay.is_none());
    assert_eq!(m.session.context.policy.narrative_turns, 2, "discarded");
}
