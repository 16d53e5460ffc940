//! Chat search through `update` and on screen: `/` on the chat, typing,
//! matches highlighted, `n` / `N` jumping, Esc closing.

use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Modifier;

use super::chat::first_visible_line;
use super::draw::{Caches, draw};
use super::keymap::Keymap;
use super::model::{Model, Pane};
use super::scroll::{chat_lines, chat_top_message};
use super::test_records;
use super::test_update::{chars, press};

/// Draws a frame as the app does.
fn frame(m: &mut Model, terminal: &mut Terminal<TestBackend>, caches: &mut Caches) {
    let keymap = Keymap::default_keys();
    terminal
        .draw(|f| draw(f, m, &keymap, caches))
        .expect("draw");
}

/// True when message `index` begins inside the chat's view, measured as
/// the view lays the chat out.
fn in_view(m: &mut Model, index: usize) -> bool {
    let scroll = m.chat.scroll;
    let Some((cache, height)) = chat_lines(m) else {
        return false;
    };
    let top = first_visible_line(scroll, cache.total_lines(), height);
    cache
        .start_of(index)
        .is_some_and(|start| (top..top + height).contains(&start))
}

fn matching(m: &Model, needle: &str) -> Vec<usize> {
    m.chat
        .messages
        .iter()
        .enumerate()
        .filter(|(_, c)| c.text.to_lowercase().contains(needle))
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn slash_on_the_chat_searches_and_n_jumps_between_matches() {
    let mut m = test_records::model(3, 120, 40);
    press(&mut m, KeyCode::Char('/'));
    assert!(
        m.chat.search.is_none(),
        "/ in the message box starts a command"
    );
    assert_eq!(m.chat.input_text(), "/");
    m.chat.set_input("");
    m.chrome.focus = Pane::Chat;
    press(&mut m, KeyCode::Char('/'));
    chars(&mut m, "Wings");
    let expected = matching(&m, "wings");
    assert!(expected.len() >= 2, "{expected:?}");
    let s = m.chat.search.clone().expect("searching");
    assert!(s.editing);
    assert_eq!(s.matches, expected);
    assert_eq!(s.current, Some(expected.len() - 1), "the newest first");
    let newest = expected[expected.len() - 1];
    assert!(in_view(&mut m, newest), "the newest match is in view");
    // q while typing the query is text.
    chars(&mut m, "q");
    assert!(!m.chrome.quitting);
    assert_eq!(m.chat.search.as_ref().map(|s| s.matches.len()), Some(0));
    press(&mut m, KeyCode::Backspace);
    press(&mut m, KeyCode::Enter);
    assert!(m.chat.search.as_ref().is_some_and(|s| !s.editing));
    press(&mut m, KeyCode::Char('N'));
    assert!(in_view(&mut m, expected[expected.len() - 2]));
    press(&mut m, KeyCode::Char('n'));
    press(&mut m, KeyCode::Char('n'));
    assert!(in_view(&mut m, expected[0]), "n wraps to the oldest");
    assert_eq!(chat_top_message(&mut m), Some(expected[0]), "at the top");
    assert!(
        m.chrome
            .status
            .as_ref()
            .is_some_and(|s| s.1.starts_with("match 1 of"))
    );
    press(&mut m, KeyCode::Esc);
    assert!(m.chat.search.is_none());
    assert_eq!(
        chat_top_message(&mut m),
        Some(expected[0]),
        "closing leaves the view where it is"
    );
    press(&mut m, KeyCode::Char('n'));
    assert!(
        m.chrome
            .status
            .as_ref()
            .is_some_and(|s| s.1.contains("no search"))
    );
}

#[test]
fn a_jump_scrolls_the_chat_to_the_match_and_marks_it() {
    let mut m = test_records::model(3, 120, 40);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let mut caches = Caches::default();
    frame(&mut m, &mut terminal, &mut caches);
    assert!(m.chat.scroll.follow, "following the bottom");
    m.chrome.focus = Pane::Chat;
    press(&mut m, KeyCode::Char('/'));
    chars(&mut m, "cod");
    press(&mut m, KeyCode::Enter);
    // Jump to the oldest match: the first user message mentioning cod.
    press(&mut m, KeyCode::Char('n'));
    let target = matching(&m, "cod")[0];
    assert!(!m.chat.scroll.follow);
    assert_eq!(
        chat_top_message(&mut m),
        Some(target),
        "the match is at the top"
    );
    frame(&mut m, &mut terminal, &mut caches);
    let buf = terminal.backend().buffer();
    // The chat is the left 66 columns.
    let rows: Vec<String> = (0..40)
        .map(|y| (0..66).map(|x| buf[(x, y)].symbol()).collect())
        .collect();
    insta::assert_snapshot!("search_cod_chat_66x40", rows.join("\n"));
    let (y, row) = rows
        .iter()
        .enumerate()
        .find(|(_, r)| r.contains("cod"))
        .expect("a visible match");
    let x = row
        .find("cod")
        .map(|i| row[..i].chars().count())
        .expect("x") as u16;
    assert!(
        buf[(x, y as u16)].modifier.contains(Modifier::REVERSED),
        "highlighted: {row}"
    );
    assert!(
        rows.iter().any(|r| r.contains("/ cod · 1 of")),
        "the search line on the chat border:\n{}",
        rows.join("\n")
    );
}
