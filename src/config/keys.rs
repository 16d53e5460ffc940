//! `[keys]`: the key bindings, as data. Each action maps to a list of keys;
//! a key may be limited to where the focus is with a prefix: `pane:` (a
//! panel is focused), `input:` (typing in the message box), `empty:` (typing,
//! with the box empty). The user's entries replace the defaults action by
//! action; the UI's keymap parses and checks them.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

/// The built-in bindings: action → keys.
pub const DEFAULT_KEYS: &[(&str, &str)] = &[
    ("submit", "input:enter"),
    (
        "newline",
        "input:alt+enter, input:shift+enter, input:ctrl+j",
    ),
    ("cancel", "esc"),
    ("quit", "ctrl+c, pane:q"),
    ("focus_next", "tab"),
    ("focus_prev", "backtab"),
    ("focus_chat", "alt+1, pane:1"),
    ("focus_entities", "alt+2, pane:2"),
    ("focus_narrative", "alt+3, pane:3"),
    ("focus_history", "alt+4, pane:4"),
    ("scroll_up", "pane:up, pane:k"),
    ("scroll_down", "pane:down, pane:j"),
    ("page_up", "pageup"),
    ("page_down", "pagedown"),
    ("scroll_top", "pane:home, pane:g"),
    ("scroll_bottom", "pane:end, pane:G"),
    ("zoom", "pane:z, ctrl+z"),
    ("help", "f1, pane:?, empty:?"),
    ("history_prev", "input:up"),
    ("history_next", "input:down"),
    ("retry", "ctrl+r, pane:r"),
    ("demo_next", "empty:space"),
    ("suggest", "input:ctrl+s"),
    ("inspect_prev", "pane:[, alt+left"),
    ("inspect_next", "pane:], alt+right"),
    ("toggle_diff", "pane:d, alt+d"),
    ("timeline", "pane:t, alt+t"),
    ("move_left", "pane:left, pane:h"),
    ("move_right", "pane:right, pane:l"),
    ("filter", "pane:f"),
    ("search", "pane:/"),
    ("select", "pane:enter"),
    ("prompts", "pane:p, alt+p"),
    ("what_if", "pane:w, alt+w"),
    ("search_next", "pane:n"),
    ("search_prev", "pane:N"),
    ("copy", "pane:y, alt+y"),
];

/// Action name → keys, the defaults with the user's entries over them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct KeysConfig(pub BTreeMap<String, String>);

impl Default for KeysConfig {
    fn default() -> Self {
        Self(
            DEFAULT_KEYS
                .iter()
                .map(|(a, k)| (a.to_string(), k.to_string()))
                .collect(),
        )
    }
}

impl<'de> Deserialize<'de> for KeysConfig {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let user = BTreeMap::<String, String>::deserialize(d)?;
        let mut keys = KeysConfig::default();
        keys.0.extend(user);
        Ok(keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_entries_replace_defaults_one_by_one() {
        let k: KeysConfig = toml::from_str("quit = \"ctrl+q\"").unwrap();
        assert_eq!(k.0["quit"], "ctrl+q");
        assert_eq!(k.0["submit"], "input:enter");
        assert_eq!(k.0.len(), DEFAULT_KEYS.len());
    }
}
