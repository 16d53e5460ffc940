//! The footer's key hints for where the user is: the keys that work with
//! this focus, overlay and turn state, named as the keymap binds them there
//! ("r retry" with a panel focused, "Ctrl+R retry" while typing). A demo
//! being presented leads with its progress. A view helper: reads the model.

use crate::tui::action::Action;
use crate::tui::keymap::KeyContext;
use crate::tui::model::{Model, Overlay, Pane, TurnState};

use super::key_help::KeyHelp;

/// The key that retries a failed turn where the focus is ("r", "Ctrl+R").
pub fn retry_key(m: &Model, keys: &KeyHelp) -> Option<String> {
    keys.keymap.key_in(Action::Retry, m.key_context())
}

/// `(keys, what)` pairs for the footer, most useful first (a narrow footer
/// drops them from the end).
pub fn footer_hints(m: &Model, keys: &KeyHelp) -> Vec<(String, String)> {
    let mut h = Hints {
        keys,
        ctx: m.key_context(),
        out: Vec::new(),
    };
    if let Some(demo) = &m.chrome.demo {
        let total = demo.messages.len();
        let label = if demo.next < total {
            format!("DEMO {}/{total}", demo.next)
        } else {
            format!("DEMO done {total}/{total}")
        };
        h.out.push((label, String::new()));
    }
    match &m.overlay {
        Some(Overlay::Help { .. }) => {
            h.pair(Action::ScrollUp, Action::ScrollDown, "scroll");
            h.pair(Action::PageUp, Action::PageDown, "page");
            h.add(Action::Cancel, "close");
            return h.out;
        }
        Some(Overlay::Sessions { .. }) => {
            h.pair(Action::ScrollUp, Action::ScrollDown, "choose");
            h.add(Action::Select, "open");
            h.add(Action::Cancel, "close");
            return h.out;
        }
        Some(Overlay::WhatIf(_)) => {
            h.pair(Action::ScrollUp, Action::ScrollDown, "choose");
            h.pair(Action::MoveLeft, Action::MoveRight, "change");
            h.add(Action::Select, "apply");
            h.add(Action::Copy, "copy");
            h.add(Action::Cancel, "discard");
            return h.out;
        }
        // The full-screen views draw their own key line.
        Some(_) => return h.out,
        None => {}
    }
    if let Some(search) = &m.chat.search {
        if search.editing {
            h.out.push(("Enter".into(), "find".into()));
            h.add(Action::Cancel, "close search");
            return h.out;
        }
        h.pair(
            Action::SearchNext,
            Action::SearchPrev,
            "next/previous match",
        );
        h.add(Action::Copy, "copy match");
        h.add(Action::Cancel, "close search");
        h.add(Action::FocusNext, "focus");
        return h.out;
    }
    if m.panels.inspect.is_some() {
        h.ctx = KeyContext::PANEL;
        h.pair(Action::InspectPrev, Action::InspectNext, "turn");
        h.add(Action::ToggleDiff, "diff");
        h.add(Action::Timeline, "timeline");
        h.add(Action::Prompts, "prompts");
        h.add(Action::WhatIf, "what-if");
        h.add(Action::Copy, "copy");
        h.add(Action::Cancel, "live");
        h.add(Action::FocusNext, "focus");
        h.add(Action::Help, "help");
        return h.out;
    }
    match &m.turn.state {
        TurnState::Running { .. } => h.add(Action::Cancel, "cancel turn"),
        TurnState::Failed { .. } => h.add(Action::Retry, "retry"),
        TurnState::Idle => {}
    }
    if m.chrome.focus == Pane::Input {
        input_hints(m, &mut h);
    } else {
        panel_hints(m, &mut h);
    }
    h.add(Action::FocusNext, "focus");
    h.add(Action::Help, "help");
    h.add(Action::Quit, "quit");
    h.out
}

fn input_hints(m: &Model, h: &mut Hints<'_>) {
    let demo_left = m
        .chrome
        .demo
        .as_ref()
        .is_some_and(|d| d.next < d.messages.len());
    if demo_left && m.chat.input.is_empty() && !m.turn.is_running() {
        h.add(Action::DemoNext, "next line");
        h.add(Action::Cancel, "stop demo");
    }
    if !m.turn.is_running() {
        h.add(Action::Submit, "send");
        h.add(Action::Newline, "new line");
        if !m.chat.sent.is_empty() {
            h.add(Action::HistoryPrev, "last message");
        }
        if m.chat.input.is_empty() && !m.chat.suggestions.is_empty() {
            h.add(Action::Suggest, "suggestion");
        }
        // The slash commands have no keys: named where they are typed.
        if m.chat.input.is_empty() {
            h.out.push(("/help".into(), "commands".into()));
        }
    }
}

fn panel_hints(m: &Model, h: &mut Hints<'_>) {
    h.pair(Action::ScrollUp, Action::ScrollDown, "scroll");
    match m.chrome.focus {
        Pane::Chat => {
            h.add(Action::Search, "search");
            h.add(Action::Copy, "copy message");
        }
        Pane::Entities => {
            let diff = if m.panels.show_diff {
                "entities"
            } else {
                "diff"
            };
            h.add(Action::ToggleDiff, diff);
            h.add(Action::Timeline, "timeline");
            h.add(Action::Prompts, "prompts");
            h.add(Action::WhatIf, "what-if");
            h.pair(Action::InspectPrev, Action::InspectNext, "turns");
            h.add(Action::Copy, "copy");
        }
        Pane::Narrative | Pane::History | Pane::Input => {
            h.pair(Action::InspectPrev, Action::InspectNext, "turns");
            h.add(Action::Timeline, "timeline");
            h.add(Action::Prompts, "prompts");
            h.add(Action::Copy, "copy");
        }
    }
    let zoom = if m.chrome.zoom.is_some() {
        "unzoom"
    } else {
        "zoom"
    };
    h.add(Action::Zoom, zoom);
}

/// Collects hints with the keys bound where the focus is.
struct Hints<'a> {
    keys: &'a KeyHelp,
    ctx: KeyContext,
    out: Vec<(String, String)>,
}

impl Hints<'_> {
    fn key(&self, action: Action) -> Option<String> {
        (self.keys.keymap.key_in(action, self.ctx)).map(|k| super::key_help::arrow(&k).to_string())
    }

    /// One hint, when a key does it here.
    fn add(&mut self, action: Action, what: &str) {
        if let Some(k) = self.key(action) {
            self.out.push((k, what.to_string()));
        }
    }

    /// Two actions under one hint: "↑/↓ scroll", "[/] turns".
    fn pair(&mut self, a: Action, b: Action, what: &str) {
        match (self.key(a), self.key(b)) {
            (Some(x), Some(y)) => self.out.push((format!("{x}/{y}"), what.to_string())),
            (Some(k), None) | (None, Some(k)) => self.out.push((k, what.to_string())),
            (None, None) => {}
        }
    }
}
