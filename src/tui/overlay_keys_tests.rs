//! Overlay keys: each handler changes its own state against a read-only
//! model and answers with a `Reply`; `on_key` carries the reply out.

use crossterm::event::{KeyCode, KeyModifiers};

use super::keymap::Keymap;
use super::model::{Overlay, SessionItem, TurnState};
use super::reply::Reply;
use super::test_records;
use super::test_update::{key, press};
use super::{pickers, timeline};
use crate::turn::TurnId;

#[test]
fn the_timeline_picks_a_turn_by_asking_and_the_model_shows_it_only_when_carried_out() {
    let mut m = test_records::model(3, 120, 40);
    timeline::toggle(&mut m);
    let Some(Overlay::Timeline(mut st)) = m.overlay.take() else {
        panic!("the timeline is not open");
    };
    let keymap = Keymap::default_keys();
    assert_eq!(
        timeline::on_key(&mut st, &m, &keymap, key(KeyCode::Left, KeyModifiers::NONE)),
        Reply::Stay
    );
    let picked = st.records[st.col];
    let reply = timeline::on_key(
        &mut st,
        &m,
        &keymap,
        key(KeyCode::Enter, KeyModifiers::NONE),
    );
    assert_eq!(reply, Reply::Inspect(picked));
    assert!(m.panels.inspect.is_none(), "the handler only asked");
    // Through update the same keys close the timeline and show the turn.
    timeline::toggle(&mut m);
    press(&mut m, KeyCode::Left);
    press(&mut m, KeyCode::Enter);
    assert!(m.overlay.is_none());
    assert_eq!(m.panels.inspect.as_ref().map(|i| i.index), Some(picked));
    assert_eq!(
        m.chrome.status.as_ref().map(|s| s.1.as_str()),
        Some("the panels show the turn you picked")
    );
}

#[test]
fn the_session_picker_opens_another_session_and_closes_on_its_own() {
    let m = test_records::model(1, 120, 40);
    let keymap = Keymap::default_keys();
    let item = |id: &str| SessionItem {
        id: id.into(),
        title: id.into(),
        turns: 1,
        updated: String::new(),
    };
    let items = vec![item(&m.session.id), item("other")];
    let mut selected = 0;
    let enter = key(KeyCode::Enter, KeyModifiers::NONE);
    let reply = pickers::sessions_key(&items, &mut selected, &m, &keymap, enter);
    assert_eq!(reply, Reply::Close, "picking the open session just closes");
    let down = key(KeyCode::Down, KeyModifiers::NONE);
    assert_eq!(
        pickers::sessions_key(&items, &mut selected, &m, &keymap, down),
        Reply::Stay
    );
    assert_eq!(selected, 1);
    let reply = pickers::sessions_key(&items, &mut selected, &m, &keymap, enter);
    assert_eq!(reply, Reply::OpenSession("other".into()));
}

#[test]
fn applying_a_policy_while_a_turn_runs_is_refused_and_the_what_if_stays_open() {
    let mut m = test_records::model(4, 120, 40);
    let before = m.session.context.policy.clone();
    m.chrome.focus = super::model::Pane::Chat;
    press(&mut m, KeyCode::Char('w'));
    assert!(matches!(m.overlay, Some(Overlay::WhatIf(_))), "open");
    press(&mut m, KeyCode::Left);
    m.turn.state = TurnState::Running {
        id: TurnId(9),
        message: "hi".into(),
        node: None,
    };
    let effects = press(&mut m, KeyCode::Enter);
    assert!(effects.is_empty(), "{effects:?}");
    assert!(matches!(m.overlay, Some(Overlay::WhatIf(_))), "still open");
    assert_eq!(m.session.context.policy, before, "unchanged");
    let status = m.chrome.status.as_ref().map(|s| s.1.as_str());
    assert_eq!(
        status,
        Some("a turn is running — apply the policy when it finishes")
    );
}
