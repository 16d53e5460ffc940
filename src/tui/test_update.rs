//! Test helpers that drive `update` as a user would, with the default
//! keymap: a key event, a key pressed (with or without modifiers), text
//! typed and sent, and a pipeline event; and the model of a new session
//! they start from.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::context::ContextPolicy;
use crate::pipeline::PipelineEvent;
use crate::session::{LlmSettings, SessionFile};

use super::effect::Effect;
use super::event::Event;
use super::keymap::Keymap;
use super::model::Model;
use super::theme::Theme;
use super::update::update;

/// A key event: `code` with `mods` held.
pub fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, mods)
}

/// The model of a new, empty session (2026-01-13 10:00, the offline brain,
/// the dark theme).
pub fn model() -> Model {
    let now: jiff::Timestamp = "2026-01-13T10:00:00Z".parse().expect("a timestamp");
    let session = SessionFile::new(
        "20260113-100000-abcd".into(),
        now,
        LlmSettings::new("offline", None, ""),
        ContextPolicy::default(),
    );
    Model::new(session, "offline", Theme::dark())
}

/// Presses `code` with `mods` held; the effects asked for.
pub fn press_with(m: &mut Model, code: KeyCode, mods: KeyModifiers) -> Vec<Effect> {
    update(m, &Keymap::default_keys(), Event::Key(key(code, mods)))
}

/// Presses a key (no modifiers); the effects asked for.
pub fn press(m: &mut Model, code: KeyCode) -> Vec<Effect> {
    press_with(m, code, KeyModifiers::NONE)
}

/// Presses Ctrl and `c`; the effects asked for.
pub fn ctrl(m: &mut Model, c: char) -> Vec<Effect> {
    press_with(m, KeyCode::Char(c), KeyModifiers::CONTROL)
}

/// Types `text`, one key press per character.
pub fn chars(m: &mut Model, text: &str) {
    for c in text.chars() {
        press(m, KeyCode::Char(c));
    }
}

/// Types `text` and presses Enter; the effects Enter asked for.
pub fn send(m: &mut Model, text: &str) -> Vec<Effect> {
    chars(m, text);
    press(m, KeyCode::Enter)
}

/// Hands `update` a pipeline event; the effects asked for.
pub fn pipe(m: &mut Model, e: PipelineEvent) -> Vec<Effect> {
    update(m, &Keymap::default_keys(), Event::Pipeline(e))
}
