//! The key texts the views show — the hint lines, the help's bindings and
//! slash commands, the key named in on-screen markers — built from the
//! keymap, so what the screen says is what is bound.

use std::collections::BTreeMap;

use super::hints::DEFAULT_HINTS;
use crate::tui::action::Action;
use crate::tui::keymap::Keymap;

/// The key texts the views show: the hint line, and the help overlay's
/// bindings and slash commands. Built by the app from its keymap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyHelp {
    /// `(keys, what)` for the hint line: ("Enter", "send").
    pub hints: Vec<(String, String)>,
    /// The hint line while time travelling: ("]", "next")…
    pub travel_hints: Vec<(String, String)>,
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
        match self.keys.get(&action).map_or("?", String::as_str) {
            "Up" => "↑",
            "Down" => "↓",
            "Left" => "←",
            "Right" => "→",
            other => other,
        }
    }

    /// The key texts of a keymap (hints, help, markers); no commands.
    pub fn of(keymap: &Keymap) -> Self {
        let hint = |a: Action, what: &str| keymap.first_key(a).map(|k| (k, what.to_string()));
        let panel = |a: Action, what: &str| keymap.panel_key(a).map(|k| (k, what.to_string()));
        let hints = [
            hint(Action::Submit, "send"),
            hint(Action::FocusNext, "focus"),
            hint(Action::Help, "help"),
            hint(Action::Cancel, "cancel"),
            hint(Action::Quit, "quit"),
        ];
        let travel_hints = [
            panel(Action::InspectPrev, "back"),
            panel(Action::InspectNext, "next"),
            panel(Action::ToggleDiff, "diff"),
            panel(Action::Timeline, "timeline"),
            panel(Action::Prompts, "prompts"),
            panel(Action::WhatIf, "what-if"),
            panel(Action::Copy, "copy"),
            hint(Action::Cancel, "live"),
            hint(Action::FocusNext, "focus"),
            hint(Action::Help, "help"),
        ];
        Self {
            hints: hints.into_iter().flatten().collect(),
            travel_hints: travel_hints.into_iter().flatten().collect(),
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
    /// The default keymap's hints; no commands.
    fn default() -> Self {
        let mut help = Self::of(&Keymap::default_keys());
        help.hints = DEFAULT_HINTS
            .iter()
            .map(|(k, w)| (k.to_string(), w.to_string()))
            .collect();
        help
    }
}
