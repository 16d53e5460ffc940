//! Copy (`y`) through `update`: what is copied in each situation, the
//! effect handed to the loop and the status line.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::copy::osc52;
use super::effect::Effect;
use super::event::Event;
use super::keymap::Keymap;
use super::model::{Model, Pane};
use super::test_records;
use super::test_update::press;
use super::update::update;

fn copied(effects: Vec<Effect>) -> String {
    match effects.as_slice() {
        [Effect::CopyToClipboard(text)] => text.clone(),
        other => panic!("no copy: {other:?}"),
    }
}

#[test]
fn osc52_is_base64_between_the_escape_and_the_bell() {
    assert_eq!(osc52("hi"), "\x1b]52;c;aGk=\x07");
    assert_eq!(osc52("é"), "\x1b]52;c;w6k=\x07");
}

#[test]
fn y_on_the_chat_copies_the_last_message_or_the_one_at_the_top() {
    let mut m = test_records::model(3, 120, 40);
    m.chrome.focus = Pane::Chat;
    let text = copied(press(&mut m, KeyCode::Char('y')));
    assert_eq!(Some(&text), m.chat.messages.last().map(|c| &c.text));
    let status = &m.chrome.status.as_ref().expect("status").1;
    assert_eq!(
        status,
        &format!(
            "copied Alfred's reply of turn 3 ({} characters; OSC 52 — your terminal must \
             allow clipboard writes)",
            text.chars().count()
        )
    );
    // Scrolled up: the message at the top of the view.
    for _ in 0..200 {
        press(&mut m, KeyCode::Up);
    }
    assert!(!m.chat.scroll.follow);
    assert_eq!(crate::tui::scroll::chat_top_message(&mut m), Some(0));
    for _ in 0..3 {
        press(&mut m, KeyCode::Down);
    }
    let top = crate::tui::scroll::chat_top_message(&mut m).expect("a message at the top");
    assert!(top > 0, "scrolled into the chat");
    assert_eq!(
        copied(press(&mut m, KeyCode::Char('y'))),
        m.chat.messages[top].text
    );
    // Alt+Y works while typing.
    m.chrome.focus = Pane::Input;
    let effects = update(
        &mut m,
        &Keymap::default_keys(),
        Event::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::ALT)),
    );
    assert_eq!(copied(effects), m.chat.messages[top].text);
    assert_eq!(m.chat.input_text(), "");
}

#[test]
fn y_copies_the_search_match_the_panel_the_prompt_and_the_cell() {
    let mut m = test_records::model(3, 120, 40);
    m.chrome.focus = Pane::Chat;
    press(&mut m, KeyCode::Char('/'));
    for c in "cod".chars() {
        press(&mut m, KeyCode::Char(c));
    }
    press(&mut m, KeyCode::Enter);
    press(&mut m, KeyCode::Char('n'));
    let first = m
        .chat
        .messages
        .iter()
        .find(|c| c.text.to_lowercase().contains("cod"))
        .map(|c| c.text.clone())
        .expect("a match");
    assert_eq!(copied(press(&mut m, KeyCode::Char('y'))), first);
    press(&mut m, KeyCode::Esc);

    m.chrome.focus = Pane::Entities;
    let panel = copied(press(&mut m, KeyCode::Char('y')));
    assert!(panel.contains("Excluded this turn"), "{panel}");
    assert!(panel.contains("recipe_5"), "{panel}");
    press(&mut m, KeyCode::Char('d'));
    let said = |m: &Model| {
        m.chrome
            .status
            .as_ref()
            .map(|s| s.1.clone())
            .unwrap_or_default()
    };
    assert!(
        said(&m).starts_with("copied the Entities panel ("),
        "{}",
        said(&m)
    );
    let diff = copied(press(&mut m, KeyCode::Char('y')));
    assert!(diff.starts_with("turn 3 against turn 2"), "{diff}");
    assert!(
        said(&m).starts_with("copied the turn diff ("),
        "{}",
        said(&m)
    );
    m.chrome.focus = Pane::History;
    let history = copied(press(&mut m, KeyCode::Char('y')));
    assert!(
        history.contains("User: let's not do the french toast"),
        "{history}"
    );

    press(&mut m, KeyCode::Char('p'));
    let prompt = copied(press(&mut m, KeyCode::Char('y')));
    assert!(prompt.starts_with("# Understand · turn 3 ·"), "{prompt}");
    assert!(
        said(&m).starts_with("copied the Understand prompt of turn 3 ("),
        "{}",
        said(&m)
    );
    assert!(prompt.contains("## system (") && prompt.contains("## response"));
    press(&mut m, KeyCode::Esc);

    press(&mut m, KeyCode::Char('t'));
    let cell = copied(press(&mut m, KeyCode::Char('y')));
    assert!(cell.contains(" · turn 3 · "), "{cell}");
    assert!(said(&m).starts_with("copied why "), "{}", said(&m));
    assert!(m.overlay.is_some(), "the timeline stays open");
}
