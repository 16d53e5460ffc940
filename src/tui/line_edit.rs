//! A one-line text field for search and filter lines (the chat search, the
//! timeline's text filter): printable characters are typed, Backspace
//! deletes, Ctrl+U clears.
//!
//! Like the message box, this is a text box doing its own editing: the keys
//! it is given are the ones the keymap left unbound while typing (Enter and
//! Esc are actions, handled by the caller).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The text of a one-line field, edited at its end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineEdit {
    text: String,
}

impl LineEdit {
    /// A field holding `text`.
    pub fn new(text: &str) -> Self {
        Self {
            text: text.replace(['\n', '\r'], " "),
        }
    }

    /// The text typed so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Applies one key; true when the text changed.
    pub fn input(&mut self, key: KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        match key.code {
            KeyCode::Char('u') if ctrl => {
                let changed = !self.text.is_empty();
                self.text.clear();
                changed
            }
            KeyCode::Char(c) if !ctrl && !alt && !c.is_control() => {
                self.text.push(c);
                true
            }
            KeyCode::Backspace => self.text.pop().is_some(),
            _ => false,
        }
    }

    /// Appends pasted text (on one line).
    pub fn paste(&mut self, text: &str) {
        self.text.push_str(&text.replace(['\n', '\r'], " "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::test_update::key;

    #[test]
    fn types_deletes_and_clears() {
        let mut f = LineEdit::default();
        for c in "pan€er".chars() {
            assert!(f.input(key(KeyCode::Char(c), KeyModifiers::NONE)));
        }
        assert_eq!(f.text(), "pan€er");
        assert!(f.input(key(KeyCode::Backspace, KeyModifiers::NONE)));
        assert_eq!(f.text(), "pan€e");
        assert!(!f.input(key(KeyCode::Char('x'), KeyModifiers::ALT)));
        assert!(!f.input(key(KeyCode::Left, KeyModifiers::NONE)));
        f.paste("a\nb");
        assert_eq!(f.text(), "pan€ea b");
        assert!(f.input(key(KeyCode::Char('u'), KeyModifiers::CONTROL)));
        assert_eq!(f.text(), "");
        assert!(!f.input(key(KeyCode::Backspace, KeyModifiers::NONE)));
    }
}
