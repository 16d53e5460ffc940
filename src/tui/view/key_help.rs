//! The key texts the views show — the hint lines, the help's bindings and
//! slash commands, the key named in on-screen markers — built from the
//! keymap, so what the screen says is what is bound.

use std::collections::BTreeMap;

use crate::tui::action::Action;
use crate::tui::keymap::Keymap;

/// The key texts the views show: the hint line, and the help overlay's
/// bindings and slash commands. Built by the app from its keymap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyHelp {
    /// The keymap, for the keys of the footer where the focus is
    /// ([`footer_hints`](super::footer::footer_hints)).
    pub keymap: Keymap,
    /// `(keys, description)` for the help overlay.
    pub bindings: Vec<(String, String)>,
    /// `(slash command, description)` for the help overlay.
    pub commands: Vec<(String, String)>,
    /// The key to name for each action in on-screen markers ("]").
    pub keys: BTreeMap<Action, String>,
}

impl KeyHelp {
    /// The key named for `action`, or "?" when it has none. Arrow keys
    /// are named by their arrows ("↑").
    pub fn key(&self, action: Action) -> &str {
        arrow(self.keys.get(&action).map_or("?", String::as_str))
    }

    /// The key texts of a keymap (help, markers); no commands.
    pub fn of(keymap: &Keymap) -> Self {
        Self {
            keymap: keymap.clone(),
            bindings: keymap.describe(),
            commands: Vec::new(),
            keys: Action::ALL
                .iter()
                .filter_map(|a| keymap.panel_key(*a).map(|k| (*a, k)))
                .collect(),
        }
    }
}

impl Default for KeyHelp {
    /// The default keymap's texts; no commands.
    fn default() -> Self {
        Self::of(&Keymap::default_keys())
    }
}

/// A key's name as the screen shows it: arrow keys by their arrows ("↑").
pub fn arrow(key: &str) -> &str {
    match key {
        "Up" => "↑",
        "Down" => "↓",
        "Left" => "←",
        "Right" => "→",
        other => other,
    }
}
