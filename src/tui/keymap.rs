//! Keys are data: `KeyEvent` + where the focus is → `Action`, from the
//! `[keys]` table of the config (defaults merged with the user's entries).
//! No other module matches on key codes, except the text box's own editing.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::config::KeysConfig;

use super::action::Action;

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Anywhere.
    Any,
    /// A panel (not the message box) is focused.
    Pane,
    /// Typing in the message box.
    Input,
    /// Typing, with the message box empty.
    EmptyInput,
}

/// The focus situation a key arrives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyContext {
    pub typing: bool,
    pub input_empty: bool,
}

impl KeyContext {
    /// A panel is focused, or an overlay has the keys.
    pub const PANEL: KeyContext = KeyContext {
        typing: false,
        input_empty: true,
    };
}

/// One key with modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyCombo {
    pub code: KeyCode,
    pub modifiers: KeyModifiers,
}

/// The bindings, in lookup order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    bindings: Vec<(Scope, KeyCombo, Action)>,
}

/// A binding that cannot be understood, naming the config key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("keys.{action}: {problem}")]
pub struct KeymapError {
    pub action: String,
    pub problem: String,
}

impl Keymap {
    /// Parses the `[keys]` table.
    pub fn from_config(keys: &KeysConfig) -> Result<Self, KeymapError> {
        let mut bindings = Vec::new();
        for (name, spec) in &keys.0 {
            let err = |problem: String| KeymapError {
                action: name.clone(),
                problem,
            };
            let action = Action::from_name(name).ok_or_else(|| {
                let known: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
                err(format!("unknown action; actions are: {}", known.join(", ")))
            })?;
            for key in spec.split(',').map(str::trim).filter(|k| !k.is_empty()) {
                let (scope, combo) = parse_binding(key).map_err(err)?;
                bindings.push((scope, combo, action));
            }
        }
        // Narrow scopes first, so "empty:?" wins over nothing and "input:enter" over "enter".
        bindings.sort_by_key(|(s, _, _)| match s {
            Scope::EmptyInput => 0,
            Scope::Input | Scope::Pane => 1,
            Scope::Any => 2,
        });
        Ok(Self { bindings })
    }

    /// The defaults.
    pub fn default_keys() -> Self {
        Self::from_config(&KeysConfig::default()).unwrap_or(Self {
            bindings: Vec::new(),
        })
    }

    /// The action of a key press in a context; `None` lets the text box have it.
    pub fn action(&self, key: KeyEvent, ctx: KeyContext) -> Option<Action> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        let pressed = normalize(KeyCombo {
            code: key.code,
            modifiers: key.modifiers,
        });
        self.bindings
            .iter()
            .filter(|(scope, _, _)| applies(*scope, ctx))
            .find(|(_, combo, _)| normalize(*combo) == pressed)
            .map(|(_, _, a)| *a)
    }

    /// The keys of each action as written in help: "Enter", "Ctrl+C · q (panel)".
    pub fn describe(&self) -> Vec<(String, String)> {
        Action::ALL
            .iter()
            .filter_map(|a| {
                let keys: Vec<String> = self
                    .bindings
                    .iter()
                    .filter(|(_, _, b)| b == a)
                    .map(|(s, c, _)| describe_binding(*s, *c))
                    .collect();
                (!keys.is_empty()).then(|| (keys.join(" · "), a.describe().to_string()))
            })
            .collect()
    }

    /// The first key of an action, for the hint line ("Ctrl+C").
    /// Keys that work anywhere come first, then those of the message box.
    pub fn first_key(&self, action: Action) -> Option<String> {
        let rank = |s: &Scope| match s {
            Scope::Any => 0,
            Scope::Input => 1,
            Scope::EmptyInput => 2,
            Scope::Pane => 3,
        };
        self.bindings
            .iter()
            .filter(|(_, _, a)| *a == action)
            .min_by_key(|(s, _, _)| rank(s))
            .map(|(_, c, _)| combo_name(*c))
    }
}

impl Keymap {
    /// The key to name for an action where the focus is: one bound to that
    /// place first ("r" with a panel focused), else one that works anywhere
    /// ("Ctrl+R" while typing); `None` when no key works there.
    pub fn key_in(&self, action: Action, ctx: KeyContext) -> Option<String> {
        self.bindings
            .iter()
            .filter(|(s, _, a)| *a == action && applies(*s, ctx))
            .min_by_key(|(s, _, _)| *s == Scope::Any)
            .map(|(_, c, _)| combo_name(*c))
    }

    /// The key to name for an action on a panel-focused screen: a panel
    /// key if there is one ("]"), else the first key ("Alt+Right").
    pub fn panel_key(&self, action: Action) -> Option<String> {
        self.bindings
            .iter()
            .find(|(s, _, a)| *a == action && *s == Scope::Pane)
            .map(|(_, c, _)| combo_name(*c))
            .or_else(|| self.first_key(action))
    }
}

fn applies(scope: Scope, ctx: KeyContext) -> bool {
    match scope {
        Scope::Any => true,
        Scope::Pane => !ctx.typing,
        Scope::Input => ctx.typing,
        Scope::EmptyInput => ctx.typing && ctx.input_empty,
    }
}

/// Shift is implied by an upper-case or symbol character; terminals differ in
/// whether they report it, so it is ignored for characters.
fn normalize(c: KeyCombo) -> KeyCombo {
    match c.code {
        KeyCode::Char(_) => KeyCombo {
            code: c.code,
            modifiers: c.modifiers - KeyModifiers::SHIFT,
        },
        KeyCode::BackTab => KeyCombo {
            code: c.code,
            modifiers: KeyModifiers::NONE,
        },
        _ => c,
    }
}

/// Parses `pane:ctrl+c` into a scope and a key.
pub fn parse_binding(spec: &str) -> Result<(Scope, KeyCombo), String> {
    let (scope, key) = match spec.split_once(':') {
        Some(("pane", k)) => (Scope::Pane, k),
        Some(("input", k)) => (Scope::Input, k),
        Some(("empty", k)) => (Scope::EmptyInput, k),
        Some((other, _)) if !other.is_empty() => {
            return Err(format!(
                "unknown scope \"{other}:\" in \"{spec}\"; use pane:, input: or empty:"
            ));
        }
        _ => (Scope::Any, spec),
    };
    Ok((
        scope,
        parse_key(key).map_err(|e| format!("{e} in \"{spec}\""))?,
    ))
}

fn parse_key(key: &str) -> Result<KeyCombo, String> {
    let mut modifiers = KeyModifiers::NONE;
    let mut rest = key;
    loop {
        let lower = rest.to_ascii_lowercase();
        let (m, len) = if lower.starts_with("ctrl+") {
            (KeyModifiers::CONTROL, 5)
        } else if lower.starts_with("alt+") {
            (KeyModifiers::ALT, 4)
        } else if lower.starts_with("shift+") {
            (KeyModifiers::SHIFT, 6)
        } else {
            break;
        };
        modifiers |= m;
        rest = &rest[len..];
    }
    let code = match rest.to_ascii_lowercase().as_str() {
        "enter" | "return" => KeyCode::Enter,
        "esc" | "escape" => KeyCode::Esc,
        "tab" => KeyCode::Tab,
        "backtab" => KeyCode::BackTab,
        "space" => KeyCode::Char(' '),
        "backspace" => KeyCode::Backspace,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "pageup" => KeyCode::PageUp,
        "pagedown" => KeyCode::PageDown,
        f if f.len() > 1
            && f.starts_with('f')
            && f[1..].parse::<u8>().is_ok_and(|n| (1..=12).contains(&n)) =>
        {
            KeyCode::F(f[1..].parse().unwrap_or(1))
        }
        _ => {
            let mut chars = rest.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => KeyCode::Char(c),
                _ => return Err(format!("unknown key \"{key}\"")),
            }
        }
    };
    Ok(KeyCombo { code, modifiers })
}

fn combo_name(c: KeyCombo) -> String {
    let mut parts = Vec::new();
    if c.modifiers.contains(KeyModifiers::CONTROL) {
        parts.push("Ctrl".to_string());
    }
    if c.modifiers.contains(KeyModifiers::ALT) {
        parts.push("Alt".to_string());
    }
    if c.modifiers.contains(KeyModifiers::SHIFT) {
        parts.push("Shift".to_string());
    }
    parts.push(match c.code {
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "Shift+Tab".into(),
        KeyCode::Char(' ') => "Space".into(),
        KeyCode::Char(ch) if c.modifiers.contains(KeyModifiers::CONTROL) => {
            ch.to_ascii_uppercase().to_string()
        }
        KeyCode::Char(ch) => ch.to_string(),
        KeyCode::F(n) => format!("F{n}"),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        other => format!("{other:?}"),
    });
    parts.join("+")
}

fn describe_binding(scope: Scope, c: KeyCombo) -> String {
    let name = combo_name(c);
    match scope {
        Scope::Any | Scope::Input => name,
        Scope::Pane => format!("{name} (panel)"),
        Scope::EmptyInput => format!("{name} (empty box)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::test_update::key;

    const TYPING: KeyContext = KeyContext {
        typing: true,
        input_empty: false,
    };
    const EMPTY: KeyContext = KeyContext {
        typing: true,
        input_empty: true,
    };
    const PANE: KeyContext = KeyContext {
        typing: false,
        input_empty: true,
    };

    #[test]
    fn defaults_depend_on_where_the_focus_is() {
        let k = Keymap::default_keys();
        let none = KeyModifiers::NONE;
        assert_eq!(
            k.action(key(KeyCode::Enter, none), TYPING),
            Some(Action::Submit)
        );
        assert_eq!(
            k.action(key(KeyCode::Enter, KeyModifiers::ALT), TYPING),
            Some(Action::Newline)
        );
        assert_eq!(
            k.action(key(KeyCode::Char('q'), none), TYPING),
            None,
            "q is text while typing"
        );
        assert_eq!(
            k.action(key(KeyCode::Char('q'), none), PANE),
            Some(Action::Quit)
        );
        assert_eq!(
            k.action(key(KeyCode::Char('c'), KeyModifiers::CONTROL), TYPING),
            Some(Action::Quit)
        );
        assert_eq!(k.action(key(KeyCode::Char('?'), none), TYPING), None);
        assert_eq!(
            k.action(key(KeyCode::Char('?'), KeyModifiers::SHIFT), EMPTY),
            Some(Action::Help)
        );
        assert_eq!(
            k.action(key(KeyCode::Char(' '), none), EMPTY),
            Some(Action::DemoNext)
        );
        assert_eq!(
            k.action(key(KeyCode::Char('G'), KeyModifiers::SHIFT), PANE),
            Some(Action::ScrollBottom)
        );
        assert_eq!(
            k.action(key(KeyCode::BackTab, KeyModifiers::SHIFT), PANE),
            Some(Action::FocusPrev)
        );
    }

    #[test]
    fn user_bindings_replace_an_action_and_bad_ones_name_the_key() {
        let mut cfg = KeysConfig::default();
        cfg.0.insert("quit".into(), "ctrl+q".into());
        let k = Keymap::from_config(&cfg).unwrap();
        assert_eq!(
            k.action(key(KeyCode::Char('q'), KeyModifiers::CONTROL), TYPING),
            Some(Action::Quit)
        );
        assert_eq!(
            k.action(key(KeyCode::Char('c'), KeyModifiers::CONTROL), TYPING),
            None
        );
        cfg.0.insert("quit".into(), "ctrl+".into());
        let err = Keymap::from_config(&cfg).unwrap_err();
        assert_eq!(err.action, "quit");
        assert!(
            err.to_string().starts_with("keys.quit: unknown key"),
            "{err}"
        );
        let mut cfg = KeysConfig::default();
        cfg.0.insert("fly".into(), "f".into());
        assert!(
            Keymap::from_config(&cfg)
                .unwrap_err()
                .to_string()
                .contains("unknown action")
        );
    }

    #[test]
    fn help_lists_every_action_with_its_keys() {
        let lines = Keymap::default_keys().describe();
        assert_eq!(lines.len(), Action::ALL.len());
        let quit = lines
            .iter()
            .find(|(_, d)| d.starts_with("quit"))
            .expect("quit is listed");
        assert!(
            quit.0.contains("Ctrl+C") && quit.0.contains("q (panel)"),
            "{quit:?}"
        );
    }
}
