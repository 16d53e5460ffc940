//! Chat search: `/` on the chat opens a search line; the messages holding
//! the text (ignoring case) are the matches, highlighted in the chat; `n` /
//! `N` jump to the next (newer) / previous (older) one; Esc closes it.
//!
//! Pure, like `update`: a jump scrolls the chat so the match's first line
//! is at the top, measured the way the view lays the chat out.

use crossterm::event::KeyEvent;

use super::action::Action;
use super::effect::Effect;
use super::keymap::{KeyContext, Keymap};
use super::model::{Level, Model, Pane};

pub use super::state::search::ChatSearch;

/// The messages of the chat holding `query`, ignoring case.
pub fn matches(m: &Model, query: &str) -> Vec<usize> {
    let needle = query.trim().to_lowercase();
    if needle.is_empty() {
        return Vec::new();
    }
    m.chat
        .messages
        .iter()
        .enumerate()
        .filter(|(_, c)| c.text.to_lowercase().contains(&needle))
        .map(|(i, _)| i)
        .collect()
}

/// Opens the search line on the chat.
pub fn open(m: &mut Model) {
    m.chrome.focus = Pane::Chat;
    let query = m.chat.search.take().map(|s| s.query).unwrap_or_default();
    m.chat.search = Some(ChatSearch {
        query,
        editing: true,
        ..ChatSearch::default()
    });
    refresh(m);
}

/// Closes the search: the highlights go, the view stays where it is.
pub fn close(m: &mut Model) {
    m.chat.search = None;
}

/// Recomputes the matches and shows the newest.
fn refresh(m: &mut Model) {
    let Some(s) = &m.chat.search else { return };
    let found = matches(m, s.query.text());
    let current = found.len().checked_sub(1);
    let target = current.map(|i| found[i]);
    if let Some(s) = &mut m.chat.search {
        s.matches = found;
        s.current = current;
    }
    if let Some(target) = target {
        super::scroll::chat_to_message(m, target);
    }
}

/// A key while the search line is being typed.
pub fn on_key(m: &mut Model, keymap: &Keymap, key: KeyEvent) -> Vec<Effect> {
    let ctx = KeyContext {
        typing: true,
        input_empty: false,
    };
    match keymap.action(key, ctx) {
        Some(Action::Submit) => {
            if let Some(s) = &mut m.chat.search {
                s.editing = false;
            }
            let text = m
                .chat
                .search
                .as_ref()
                .map(ChatSearch::position)
                .unwrap_or_default();
            m.chrome.status = Some((
                Level::Info,
                format!("{text} · n next · N previous · Esc closes"),
            ));
        }
        Some(Action::Cancel) => close(m),
        Some(Action::Quit) => return super::quit::quit(m),
        _ => {
            let changed = m.chat.search.as_mut().is_some_and(|s| s.query.input(key));
            if changed {
                refresh(m);
            }
        }
    }
    Vec::new()
}

/// Text pasted into the search line.
pub fn on_paste(m: &mut Model, text: &str) {
    if let Some(s) = &mut m.chat.search {
        s.query.paste(text);
    }
    refresh(m);
}

/// `n` / `N`: the next newer (`forward`) or older match, wrapping around.
pub fn jump(m: &mut Model, forward: bool) {
    let Some(s) = &m.chat.search else {
        m.chrome.status = Some((Level::Info, "no search — / on the chat searches it".into()));
        return;
    };
    let found = matches(m, s.query.text());
    let n = found.len();
    if n == 0 {
        m.chrome.status = Some((Level::Info, "no match".into()));
        return;
    }
    let next = match s.current {
        Some(i) if forward => (i + 1) % n,
        Some(i) => (i + n - 1) % n,
        None => n - 1,
    };
    m.chrome.focus = Pane::Chat;
    super::scroll::chat_to_message(m, found[next]);
    if let Some(s) = &mut m.chat.search {
        s.matches = found;
        s.current = Some(next);
    }
    let text = m
        .chat
        .search
        .as_ref()
        .map(ChatSearch::position)
        .unwrap_or_default();
    m.chrome.status = Some((Level::Info, format!("match {text}")));
}
