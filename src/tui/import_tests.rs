//! A real Alfred conversation opened for inspection: the session an import
//! of Alfred's saved state makes (tests/fixtures/alfred_state.json), as the
//! TUI shows it — the Entities and History panels, the note first in the
//! chat, and `/why` answering from Alfred's own reasons.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::{Constraint, Layout};

use crate::context::{ContextPolicy, ContextSnapshot, explain};
use crate::session::SessionFile;
use crate::session::alfred_state::import_json;
use crate::tui::model::{Model, Role};
use crate::tui::theme::Theme;
use crate::tui::view::test_support::buffer_to_string;
use crate::tui::view::{EntityPanel, HistoryPanel};

const FIXTURE: &str = include_str!("../../tests/fixtures/alfred_state.json");

/// The session `alfred sessions import` makes of the fixture.
fn imported_session() -> SessionFile {
    let policy = ContextPolicy::default();
    let imported = import_json(FIXTURE.as_bytes(), &policy).expect("the fixture imports");
    let mut s = SessionFile::new(
        "20260105-100000-a1f3".into(),
        "2026-01-05T10:00:00Z".parse().unwrap(),
        crate::session::LlmSettings::new("imported", None, ""),
        policy,
    );
    imported.into_session(&mut s, "alfred_state.json", None);
    s
}

/// The Entities panel (left) and the History panel (right), side by side.
fn entities_and_history(snapshot: &ContextSnapshot, width: u16, height: u16) -> String {
    let theme = Theme::dark();
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|f| {
            let [left, right] =
                Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                    .areas(f.area());
            let entities = EntityPanel {
                snapshot,
                diff: None,
                scroll: 0,
                focused: false,
                theme: &theme,
            };
            let history = HistoryPanel {
                conversation: &snapshot.conversation,
                scroll: 0,
                focused: false,
                theme: &theme,
            };
            f.render_widget(entities, left);
            f.render_widget(history, right);
        })
        .expect("draw");
    buffer_to_string(&terminal)
}

#[test]
fn the_imported_entities_and_history_show_every_reason() {
    let session = imported_session();
    let snapshot = session.context.snapshot();
    let screen = entities_and_history(&snapshot, 160, 50);
    insta::assert_snapshot!("alfred_import_entities_history_160x50", screen);
    let e = &snapshot.entities;
    for v in e.recent.iter().chain(&e.retained).chain(&e.pending) {
        assert!(screen.contains(&v.r#ref), "{} shown", v.r#ref);
        assert!(screen.contains(&v.label), "{} shown", v.label);
    }
    assert!(screen.contains("Background: 8"), "{screen}");
    // Every retention reason, whole (wrapped lines joined).
    let flat: String = screen
        .lines()
        .map(|l| l.trim_matches(|c: char| c == '│' || c.is_whitespace()))
        .collect::<Vec<_>>()
        .join(" ");
    for (r, entry) in session.context.registry.entries() {
        if let Some(kept) = &entry.retention {
            let words: Vec<&str> = kept.reason.split_whitespace().collect();
            let first = words[..4.min(words.len())].join(" ");
            assert!(
                flat.contains(&first),
                "{r}'s reason {:?} in\n{screen}",
                kept.reason
            );
        }
    }
    assert!(screen.contains("[updated:user]"), "{screen}");
    assert!(
        screen.contains("[generated]") && screen.contains("[created]"),
        "{screen}"
    );
    for turn in [
        "Turn 5 · 2025-03-13 19:41",
        "Turn 6 · 2025-03-14 12:05",
        "Turn 7 · 2025-03-14 12:09",
    ] {
        assert!(screen.contains(turn), "{turn} in\n{screen}");
    }
    assert!(screen.contains("Earlier · 4 turns folded"), "{screen}");
}

#[test]
fn every_imported_entity_and_why_it_is_where_it_is() {
    let snapshot = imported_session().context.snapshot();
    let mut out = String::new();
    for (state, v) in snapshot.entities.all() {
        out.push_str(&format!(
            "{:<10} {:<13} {} · {} [{}] t{}→t{}\n",
            state.as_str(),
            v.r#ref,
            v.label,
            v.entity_type,
            v.action,
            v.turn_created,
            v.last_ref_turn
        ));
        let why = explain(&snapshot, &v.r#ref).expect("a live ref");
        out.push_str(&format!("    why: {why}\n"));
    }
    insta::assert_snapshot!("alfred_import_every_entity_why", out);
    assert_eq!(snapshot.entities.all().count(), 19);
}

#[test]
fn the_note_comes_first_and_why_answers_from_alfreds_reason() {
    let mut m = Model::new(imported_session(), "offline", Theme::dark());
    let first = m.chat.messages.first().expect("the import note");
    assert_eq!(first.role, Role::Note);
    assert!(
        first
            .text
            .starts_with("Imported from Alfred's saved conversation state (alfred_state.json"),
        "{}",
        first.text
    );
    assert_eq!(m.panels.snapshot.turn, 7);
    super::commands::run(&mut m, "/why recipe_1");
    let answer = &m.chat.messages.last().expect("the answer").text;
    assert!(
        answer.contains("recipe_1 (Lemon Herb Roast Chicken) is retained at turn 7"),
        "{answer}"
    );
    assert!(answer.contains("Alfred's Understand kept it"), "{answer}");
    assert!(
        answer.contains(
            "“user: “dad can't handle spicy — let's do the roast chicken for them on Sunday””"
        ),
        "{answer}"
    );
    assert!(
        answer.contains("It was last referenced at turn 3."),
        "{answer}"
    );
}

#[test]
fn why_names_a_ref_the_import_skipped_with_the_reason() {
    let mut s = imported_session();
    s.context.import_skipped.insert(
        "log_1".into(),
        "is an Alfred entity of type `log`, which has no place here: skipped".into(),
    );
    let mut m = Model::new(s, "offline", Theme::dark());
    super::commands::run(&mut m, "/why log_1");
    let answer = &m.chat.messages.last().expect("the answer").text;
    assert!(
        answer.starts_with("log_1 was skipped at import: Alfred's registry names it, and it is an Alfred entity of type `log`"),
        "{answer}"
    );
    super::commands::run(&mut m, "/why recipe_77");
    let unknown = &m.chat.messages.last().expect("the answer").text;
    assert!(
        unknown.contains("recipe_77 was not known at turn 7"),
        "{unknown}"
    );
}

/// `alfred watch`: a state the app commits shows as a turn (its exchange in
/// the chat, a record to travel to, the markers counted from the state
/// before); a rewrite of that turn only updates the panels; a message typed
/// while watching is not sent.
#[test]
fn a_committed_state_shows_as_a_turn_and_typing_is_read_only() {
    use crate::tui::event::Event;
    use crate::tui::keymap::Keymap;
    use crate::tui::update::update;
    let policy = ContextPolicy::default();
    let mut m = Model::new(
        SessionFile::new(
            "20260105-100000-b2c4".into(),
            "2026-01-05T10:00:00Z".parse().unwrap(),
            crate::session::LlmSettings::new("watched", None, ""),
            policy.clone(),
        ),
        "offline",
        Theme::dark(),
    );
    m.chrome.watching = Some("user 8d1c0d5e in pg alfred".into());
    let imported = import_json(FIXTURE.as_bytes(), &policy).expect("the fixture imports");
    let record = imported.turn_record().expect("a last turn");
    let effects = update(
        &mut m,
        &Keymap::default_keys(),
        Event::AlfredCommitted {
            record: Some(Box::new(record)),
            state: Box::new(imported.context.clone()),
        },
    );
    assert_eq!(effects, vec![crate::tui::effect::Effect::Save]);
    assert_eq!(m.session.transcript.len(), 1);
    assert_eq!(m.session.context.turn, 7);
    assert_eq!(m.panels.snapshot.turn, 7);
    let said: Vec<(Role, u32)> = m.chat.messages.iter().map(|c| (c.role, c.turn)).collect();
    assert_eq!(said, [(Role::User, 7), (Role::Alfred, 7)]);
    assert_eq!(
        m.panels.baseline.as_ref().map(|b| b.turn),
        Some(0),
        "the markers count from the state before"
    );
    // The same turn rewritten: the panels follow, no second record.
    update(
        &mut m,
        &Keymap::default_keys(),
        Event::AlfredCommitted {
            record: None,
            state: Box::new(imported.context),
        },
    );
    assert_eq!(m.session.transcript.len(), 1);
    assert!(
        m.chrome
            .status
            .as_ref()
            .is_some_and(|(_, s)| s == "Alfred updated turn 7")
    );
    m.chat.set_input("put it on friday");
    let sent = update(
        &mut m,
        &Keymap::default_keys(),
        Event::Key(crossterm::event::KeyEvent::from(
            crossterm::event::KeyCode::Enter,
        )),
    );
    assert!(sent.is_empty(), "{sent:?}");
    assert!(
        m.chrome
            .status
            .as_ref()
            .is_some_and(|(_, s)| s
                .starts_with("read-only: watching Alfred's conversation of user 8d1c0d5e")),
        "{:?}",
        m.chrome.status
    );
    assert_eq!(
        m.chat.input_text(),
        "put it on friday",
        "the message stays in the box"
    );
}
