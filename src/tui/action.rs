//! `Action`: what the user means, independent of the key that said it.
//! The keymap turns keys into actions; `update` turns actions into changes.

use serde::{Deserialize, Serialize};

/// A user intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Send the message (or run the slash command) in the input.
    Submit,
    /// Add a line to the message.
    Newline,
    /// Cancel the running turn, close an overlay, or leave zoom.
    Cancel,
    Quit,
    FocusNext,
    FocusPrev,
    FocusChat,
    FocusEntities,
    FocusNarrative,
    FocusHistory,
    ScrollUp,
    ScrollDown,
    PageUp,
    PageDown,
    ScrollTop,
    ScrollBottom,
    /// Show the focused panel alone, full height (again: back).
    Zoom,
    Help,
    /// The previous sent message into the input.
    HistoryPrev,
    HistoryNext,
    /// Send the failed turn's message again.
    Retry,
    /// Demo mode: type the script's next message into the input.
    DemoNext,
    /// Put the last reply's next suggestion in the message box.
    Suggest,
    /// Time travel: show the stored turn before the one shown.
    InspectPrev,
    /// Time travel: show the next stored turn (past the last: live).
    InspectNext,
    /// Show the turn's diff in place of the Entities panel (again: back).
    ToggleDiff,
    /// The entity timeline: every entity's state at every turn.
    Timeline,
    /// Move a cursor left / right (the timeline's cell, a value).
    MoveLeft,
    MoveRight,
    /// The timeline: show the next entity type only (then all again).
    Filter,
    /// Search: the chat, or the timeline's text filter.
    Search,
    /// Open, fold or pick the item under the cursor.
    Select,
    /// The prompt inspector: what the model was sent at the turn shown.
    Prompts,
    /// Policy what-if: try another retention policy, then apply or discard.
    WhatIf,
    /// Chat search: the next (newer) / previous (older) match.
    SearchNext,
    SearchPrev,
    /// Copy the selection (message, prompt, panel) to the clipboard.
    Copy,
}

impl Action {
    /// Every action, in help order.
    pub const ALL: &[Action] = &[
        Action::Submit,
        Action::Newline,
        Action::Cancel,
        Action::Quit,
        Action::FocusNext,
        Action::FocusPrev,
        Action::FocusChat,
        Action::FocusEntities,
        Action::FocusNarrative,
        Action::FocusHistory,
        Action::ScrollUp,
        Action::ScrollDown,
        Action::PageUp,
        Action::PageDown,
        Action::ScrollTop,
        Action::ScrollBottom,
        Action::Zoom,
        Action::Help,
        Action::HistoryPrev,
        Action::HistoryNext,
        Action::Retry,
        Action::DemoNext,
        Action::Suggest,
        Action::InspectPrev,
        Action::InspectNext,
        Action::ToggleDiff,
        Action::Timeline,
        Action::MoveLeft,
        Action::MoveRight,
        Action::Filter,
        Action::Search,
        Action::Select,
        Action::Prompts,
        Action::WhatIf,
        Action::SearchNext,
        Action::SearchPrev,
        Action::Copy,
    ];

    /// The config name of the action (`[keys]` in config.toml).
    pub fn name(self) -> &'static str {
        match self {
            Action::Submit => "submit",
            Action::Newline => "newline",
            Action::Cancel => "cancel",
            Action::Quit => "quit",
            Action::FocusNext => "focus_next",
            Action::FocusPrev => "focus_prev",
            Action::FocusChat => "focus_chat",
            Action::FocusEntities => "focus_entities",
            Action::FocusNarrative => "focus_narrative",
            Action::FocusHistory => "focus_history",
            Action::ScrollUp => "scroll_up",
            Action::ScrollDown => "scroll_down",
            Action::PageUp => "page_up",
            Action::PageDown => "page_down",
            Action::ScrollTop => "scroll_top",
            Action::ScrollBottom => "scroll_bottom",
            Action::Zoom => "zoom",
            Action::Help => "help",
            Action::HistoryPrev => "history_prev",
            Action::HistoryNext => "history_next",
            Action::Retry => "retry",
            Action::DemoNext => "demo_next",
            Action::Suggest => "suggest",
            Action::InspectPrev => "inspect_prev",
            Action::InspectNext => "inspect_next",
            Action::ToggleDiff => "toggle_diff",
            Action::Timeline => "timeline",
            Action::MoveLeft => "move_left",
            Action::MoveRight => "move_right",
            Action::Filter => "filter",
            Action::Search => "search",
            Action::Select => "select",
            Action::Prompts => "prompts",
            Action::WhatIf => "what_if",
            Action::SearchNext => "search_next",
            Action::SearchPrev => "search_prev",
            Action::Copy => "copy",
        }
    }

    /// What the action does, for the help overlay.
    pub fn describe(self) -> &'static str {
        match self {
            Action::Submit => "send the message, or run a /command",
            Action::Newline => "new line in the message",
            Action::Cancel => {
                "close a window or the search · back to live from time travel · cancel the running turn (the message comes back) · leave zoom"
            }
            Action::Quit => "quit (the session is saved)",
            Action::FocusNext => "focus the next pane",
            Action::FocusPrev => "focus the previous pane",
            Action::FocusChat => "focus the chat",
            Action::FocusEntities => "focus the Entities panel",
            Action::FocusNarrative => "focus the Narrative panel",
            Action::FocusHistory => "focus the History panel",
            Action::ScrollUp => "scroll up",
            Action::ScrollDown => "scroll down",
            Action::PageUp => "scroll a page up",
            Action::PageDown => "scroll a page down",
            Action::ScrollTop => "scroll to the top",
            Action::ScrollBottom => "scroll to the bottom (and follow)",
            Action::Zoom => "show the focused panel alone",
            Action::Help => "this help",
            Action::HistoryPrev => "previous sent message",
            Action::HistoryNext => "next sent message",
            Action::Retry => "retry a failed turn",
            Action::DemoNext => "demo: type the next scripted message",
            Action::Suggest => "put a suggested next message in the box (again: the next one)",
            Action::InspectPrev => {
                "time travel: show the turn before in every panel (its stored context)"
            }
            Action::InspectNext => "time travel: show the next turn (past the last: live again)",
            Action::ToggleDiff => {
                "turn diff in place of Entities: what was added, removed, moved, folded — and why"
            }
            Action::Timeline => {
                "entity timeline: every entity's state at every turn, and why (full screen)"
            }
            Action::MoveLeft => "move left (timeline cell, previous prompt, smaller value)",
            Action::MoveRight => "move right (timeline cell, next prompt, larger value)",
            Action::Filter => "timeline: show one entity type, the next, … then all",
            Action::Search => "search the chat (chat focused) · filter the timeline by text",
            Action::Select => "open / fold / pick the item under the cursor",
            Action::Copy => {
                "copy to the clipboard (OSC 52): the message in view, the prompt, the panel"
            }
            Action::SearchNext => "chat search: the next (newer) match",
            Action::SearchPrev => "chat search: the previous (older) match",
            Action::WhatIf => {
                "policy what-if: try another window or policy, compare, Enter applies it"
            }
            Action::Prompts => {
                "prompt inspector: every prompt of the turn shown, its sections and tokens, the response"
            }
        }
    }

    /// Looks an action up by its config name.
    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.iter().copied().find(|a| a.name() == name)
    }
}
