//! The UI's state: everything the views read and only `update` writes.
//!
//! Plain data grouped by concern (chat, turn lifecycle, pipeline bar, panels,
//! overlays). No IO here, no terminal, no clock: times come in with events.

use std::sync::Arc;

use ratatui_textarea::TextArea;

use crate::context::{ContextDiff, ContextSnapshot};
use crate::pipeline::{Node, TurnId};
use crate::session::SessionFile;

use super::chat::ChatLayoutCache;
pub use super::chat::message::{ChatMessage, Role};
use super::state::travel::Inspected;
use super::theme::Theme;

const PLACEHOLDER: &str = "Ask Alfred… (Enter sends, Alt+Enter adds a line, F1 or ? for help)";

/// A pane that can take focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pane {
    Input,
    Chat,
    Entities,
    Narrative,
    History,
}

impl Pane {
    /// Focus order for Tab.
    pub const ORDER: [Pane; 5] = [
        Pane::Input,
        Pane::Chat,
        Pane::Entities,
        Pane::Narrative,
        Pane::History,
    ];

    /// The title shown on the pane's border.
    pub fn title(self) -> &'static str {
        match self {
            Pane::Input => "Message",
            Pane::Chat => "Chat",
            Pane::Entities => "Entities",
            Pane::Narrative => "Narrative",
            Pane::History => "History",
        }
    }
}

/// Scrolling of one pane: lines from the top, or following the bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scroll {
    /// First visible line when not following.
    pub offset: usize,
    /// Stick to the bottom (the chat while nobody scrolled up).
    pub follow: bool,
}

/// A node's state in the pipeline bar.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum NodeStatus {
    #[default]
    Waiting,
    Running,
    Done {
        ms: f64,
        tokens: u64,
    },
    Skipped,
}

/// The pipeline bar of the running (or last) turn.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PipelineBar {
    /// Status per node, in [`Node::ALL`] order.
    pub nodes: [NodeStatus; 5],
    /// Act progress: steps started / planned.
    pub act_step: Option<(usize, usize)>,
    pub total_ms: Option<f64>,
    pub total_tokens: u64,
    /// The turn's cost in USD, when the model is priced.
    pub cost_usd: Option<f64>,
    /// The turn's prompts against the server's prompt cache.
    pub cache: Option<crate::prompt::CacheUse>,
    /// When the running node started, and when the turn's first node did:
    /// the bar counts both up while a node runs.
    pub node_since: Option<std::time::Instant>,
    pub turn_since: Option<std::time::Instant>,
}

impl PipelineBar {
    /// The status of one node.
    pub fn status(&self, node: Node) -> NodeStatus {
        self.nodes[node_index(node)]
    }

    /// Sets the status of one node.
    pub fn set(&mut self, node: Node, status: NodeStatus) {
        self.nodes[node_index(node)] = status;
    }

    /// The bar a finished turn left, from its record: what a reopened
    /// session shows for its last turn.
    pub fn of_record(r: &crate::record::TurnRecord) -> Self {
        let mut bar = Self::default();
        for node in Node::ALL {
            let tokens = r.prompts.tokens_of(node);
            bar.total_tokens += tokens;
            let status = match r.timings_ms.get(node.as_str()) {
                Some(ms) => NodeStatus::Done { ms: *ms, tokens },
                None => NodeStatus::Skipped,
            };
            bar.set(node, status);
        }
        let steps = r.steps.len();
        bar.act_step = (steps > 0).then_some((steps, steps));
        bar.total_ms = r.timings_ms.get("total").copied();
        bar.cost_usd = r.cost_usd;
        bar.cache = r.cache();
        bar
    }
}

fn node_index(node: Node) -> usize {
    Node::ALL.iter().position(|n| *n == node).unwrap_or(0)
}

/// The lifecycle of a turn.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnState {
    /// Nothing running.
    Idle,
    /// A turn is running; `message` returns to the input if it is cancelled.
    Running {
        id: TurnId,
        message: String,
        node: Option<Node>,
    },
    /// The last turn failed; `message` can be retried.
    Failed { reason: String, message: String },
}

/// A modal layer over the main screen.
#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    /// Keys and commands, scrolled by `scroll` lines.
    Help { scroll: usize },
    /// Pick a session to switch to.
    Sessions {
        items: Vec<SessionItem>,
        selected: usize,
    },
    /// The entity timeline, full screen.
    Timeline(Box<super::state::timeline::TimelineState>),
    /// The prompt inspector, full screen.
    Inspector(super::state::inspector::InspectorState),
    /// Policy what-if: a small box, the comparison in the Entities panel.
    WhatIf(Box<super::state::whatif::WhatIfState>),
}

impl Overlay {
    /// True for the views that cover the whole screen (the timeline, the
    /// prompt inspector): nothing under them needs drawing.
    pub fn is_full_screen(&self) -> bool {
        matches!(self, Overlay::Timeline(_) | Overlay::Inspector(_))
    }
}

/// A row of the session picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionItem {
    pub id: String,
    pub title: String,
    pub turns: usize,
    pub updated: String,
}

/// How important a status line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warn,
    Error,
}

/// The session as the UI shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SessionHeader {
    pub id: String,
    pub title: String,
    /// The brain in use: "offline", "gpt-4.1-mini @ localhost:11434".
    pub llm: String,
    /// The kitchen, when it is not `kitchen.db`: "pg alfred · user 8d1c0d5e".
    pub kitchen: Option<String>,
}

/// A demo script being presented: the messages still to type.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Demo {
    pub messages: Vec<String>,
    pub next: usize,
    /// Seconds between automatic messages (`--auto N`).
    pub auto_secs: Option<u64>,
}

/// Everything the UI shows, by concern: the session on disk, the chat and
/// its message box, the context panels, the turn, the open overlay, and the
/// chrome around them (focus, status line, size, theme, demo).
pub struct Model {
    /// The session: its context state and full transcript.
    /// Shared with the persist actor: a save is an `Arc` clone, and changes
    /// copy the file only while a save of it is still in flight.
    pub session: Arc<SessionFile>,
    pub chat: Chat,
    pub panels: Panels,
    pub turn: Turn,
    pub overlay: Option<Overlay>,
    pub chrome: Chrome,
}

/// The chat, its message box and what was sent from it.
pub struct Chat {
    pub messages: Vec<ChatMessage>,
    pub input: TextArea<'static>,
    /// Sent messages, oldest first, for Up/Down.
    pub sent: Vec<String>,
    /// Position in `sent` while browsing history, and the draft it replaced.
    pub history_cursor: Option<(usize, String)>,
    pub scroll: Scroll,
    /// The chat's lines as laid out at its width: a memo of the messages,
    /// measured by `update` (scrolling, search jumps, copy) the way the
    /// view draws them.
    pub layout: ChatLayoutCache,
    /// The chat's search line, while open.
    pub search: Option<super::state::search::ChatSearch>,
    next_revision: u64,
    /// The last reply's suggested next messages (its record's), shown
    /// under it until something new is said.
    pub suggestions: Vec<String>,
}

/// The context panels: the layers shown, their changes, and time travel.
#[derive(Debug, Clone, Default)]
pub struct Panels {
    /// The layers as they stand (updated live during a turn).
    pub snapshot: ContextSnapshot,
    /// What changed since the previous turn's final snapshot.
    pub diff: Option<ContextDiff>,
    /// The state before the turn shown (live: the running turn's start):
    /// the baseline of `diff`.
    pub baseline: Option<ContextSnapshot>,
    /// Time travel: the stored turn the panels show instead of the live one.
    pub inspect: Option<Inspected>,
    /// The Entities panel shows the turn's diff instead (`d`).
    pub show_diff: bool,
    pub entities_scroll: Scroll,
    pub narrative_scroll: Scroll,
    pub history_scroll: Scroll,
}

/// The turn: its lifecycle, the pipeline bar, and how far a running one got.
#[derive(Debug, Clone)]
pub struct Turn {
    pub state: TurnState,
    pub bar: PipelineBar,
    /// The turn running now, as far as it got.
    pub running: Option<crate::tui::running::RunningTurn>,
    /// Animation frame of the spinner (advanced by ticks while a turn runs).
    pub spinner: usize,
    next_id: u64,
}

/// Around the panes: focus and zoom, the title, the status line, the
/// terminal's size, the theme, a demo being presented, and quitting.
#[derive(Debug, Clone)]
pub struct Chrome {
    pub header: SessionHeader,
    pub focus: Pane,
    pub zoom: Option<Pane>,
    pub status: Option<(Level, String)>,
    pub theme: Theme,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// A script being presented (`alfred demo`).
    pub demo: Option<Demo>,
    /// Set when the user asked to quit.
    pub quitting: bool,
    /// The model's context window in tokens (`llm.context_window`), for the
    /// prompt inspector's totals.
    pub context_window: u32,
    /// The key named under a failed turn's error ("press Ctrl+R to retry").
    pub retry_key: Option<String>,
    /// `alfred watch`: whose Alfred conversation the screen follows
    /// ("user 8d1c0d5e in pg alfred"); nothing typed is sent then.
    pub watching: Option<String>,
}

impl Chat {
    fn new() -> Self {
        let mut input = TextArea::default();
        input.set_placeholder_text(PLACEHOLDER);
        input.set_wrap_mode(ratatui_textarea::WrapMode::WordOrGlyph);
        Self {
            messages: Vec::new(),
            input,
            sent: Vec::new(),
            history_cursor: None,
            scroll: Scroll {
                offset: 0,
                follow: true,
            },
            layout: ChatLayoutCache::new(),
            search: None,
            next_revision: 1,
            suggestions: Vec::new(),
        }
    }

    /// Puts the next suggestion in the message box: the first, or the one
    /// after the suggestion the box holds. False when there is none or the
    /// box holds words of the user's own.
    pub fn suggest(&mut self) -> bool {
        let typed = self.input.lines().join("\n");
        let next = match self.suggestions.iter().position(|s| *s == typed) {
            Some(i) => (i + 1) % self.suggestions.len(),
            None if typed.trim().is_empty() => 0,
            None => return false,
        };
        match self.suggestions.get(next).cloned() {
            Some(s) => {
                self.set_input(&s);
                true
            }
            None => false,
        }
    }

    /// Appends a chat message and returns its index.
    pub fn push_message(&mut self, role: Role, text: impl Into<String>, turn: u32) -> usize {
        self.suggestions.clear();
        let revision = self.bump();
        self.messages.push(ChatMessage {
            role,
            text: text.into(),
            turn,
            revision,
        });
        self.messages.len() - 1
    }

    /// Appends text to a message (a streamed chunk).
    pub fn append_to(&mut self, index: usize, text: &str) {
        let revision = self.bump();
        if let Some(m) = self.messages.get_mut(index) {
            m.text.push_str(text);
            m.revision = revision;
        }
    }

    fn bump(&mut self) -> u64 {
        self.next_revision += 1;
        self.next_revision
    }

    /// The text in the input box.
    pub fn input_text(&self) -> String {
        self.input.lines().join("\n")
    }

    /// Replaces the input box's text.
    pub fn set_input(&mut self, text: &str) {
        let mut input = TextArea::from(text.split('\n').map(str::to_string).collect::<Vec<_>>());
        input.set_placeholder_text(PLACEHOLDER);
        input.move_cursor(ratatui_textarea::CursorMove::Bottom);
        input.move_cursor(ratatui_textarea::CursorMove::End);
        self.input = input;
        self.fit_wrap();
    }

    /// Wraps the message box's lines, so a long pasted line shows whole
    /// rather than scrolled sideways; a line too long to wrap each frame
    /// ([`LONG_LINE`](crate::tui::chat::input_long::LONG_LINE)) is drawn
    /// scrolled instead, by the long-line drawing.
    pub fn fit_wrap(&mut self) {
        let huge = self
            .input
            .lines()
            .iter()
            .any(|l| l.len() > crate::tui::chat::input_long::LONG_LINE);
        self.input.set_wrap_mode(if huge {
            ratatui_textarea::WrapMode::None
        } else {
            ratatui_textarea::WrapMode::WordOrGlyph
        });
    }
}

impl Panels {
    /// Shows `snapshot` as the live layers, with its changes against the
    /// previous turn's final snapshot (the baseline).
    pub fn set_snapshot(&mut self, snapshot: ContextSnapshot) {
        self.diff = self
            .baseline
            .as_ref()
            .map(|b| crate::context::diff(b, &snapshot));
        self.snapshot = snapshot;
    }

    /// The snapshot the panels show: the inspected turn's, else the live one.
    pub fn shown_snapshot(&self) -> &ContextSnapshot {
        match &self.inspect {
            Some(i) => &i.snapshot,
            None => &self.snapshot,
        }
    }

    /// The changes the panels mark: the inspected turn against the one
    /// before it, else the live turn against the previous turn.
    pub fn shown_diff(&self) -> Option<&ContextDiff> {
        match &self.inspect {
            Some(i) => Some(&i.diff),
            None => self.diff.as_ref(),
        }
    }

    /// Time travel's place, "turn 3 of 9": the inspected turn and the
    /// live one (`live_turn`), while a stored turn is shown.
    pub fn travel_position(&self, live_turn: u32) -> Option<(u32, u32)> {
        self.inspect
            .as_ref()
            .map(|i| (i.turn, live_turn.max(i.turn)))
    }
}

impl Turn {
    /// A fresh id for the next turn.
    pub fn next_id(&mut self) -> TurnId {
        let id = TurnId(self.next_id);
        self.next_id += 1;
        id
    }

    /// True while a turn runs.
    pub fn is_running(&self) -> bool {
        matches!(self.state, TurnState::Running { .. })
    }
}

impl Model {
    /// A model showing `session`, answered by the brain named `llm`.
    pub fn new(session: SessionFile, llm: &str, theme: Theme) -> Self {
        let header = SessionHeader {
            id: session.id.clone(),
            title: session.title.clone(),
            llm: llm.to_string(),
            kitchen: None,
        };
        let snapshot = session.context.snapshot();
        let mut model = Self {
            session: Arc::new(session),
            chat: Chat::new(),
            panels: Panels {
                snapshot,
                ..Panels::default()
            },
            turn: Turn {
                state: TurnState::Idle,
                bar: PipelineBar::default(),
                running: None,
                spinner: 0,
                next_id: 1,
            },
            overlay: None,
            chrome: Chrome {
                header,
                focus: Pane::Input,
                zoom: None,
                status: None,
                theme,
                size: (80, 24),
                demo: None,
                quitting: false,
                context_window: 128_000,
                retry_key: super::keymap::Keymap::default_keys()
                    .first_key(super::action::Action::Retry),
                watching: None,
            },
        };
        model.load_transcript();
        model
    }

    /// Rebuilds the chat and the diff baseline from the session's transcript.
    pub fn load_transcript(&mut self) {
        self.chat.messages.clear();
        self.panels.inspect = None;
        self.chat.search = None;
        // The session is shared, not copied: a clone of the `Arc` lets the
        // records be read while the chat is written.
        let session = Arc::clone(&self.session);
        let records = &session.transcript;
        let mut notes = session.notes.iter().peekable();
        for r in records {
            // Notes made before this turn, where they were in the chat.
            while let Some(n) = notes.next_if(|n| n.turn < r.turn) {
                self.chat.push_message(Role::Note, n.text.clone(), n.turn);
            }
            self.chat.push_message(Role::User, r.user.clone(), r.turn);
            match &r.error {
                Some(e) => {
                    self.chat.push_message(
                        Role::Error,
                        format!("Turn {} failed: {e}", r.turn),
                        r.turn,
                    );
                }
                None => {
                    self.chat
                        .push_message(Role::Alfred, r.reply.clone(), r.turn);
                    self.note_cut(r);
                }
            };
        }
        for n in notes {
            self.chat.push_message(Role::Note, n.text.clone(), n.turn);
        }
        // The change markers of the last turn: against the turn before it,
        // or, after the first turn, against the empty start.
        let done: Vec<&crate::record::TurnRecord> =
            records.iter().filter(|r| r.error.is_none()).collect();
        self.panels.baseline = match done.as_slice() {
            [] => None,
            [_] => Some(
                crate::context::ContextState::new(self.session.context.policy.clone()).snapshot(),
            ),
            [.., before, _] => Some(before.snapshot()),
        };
        self.panels.set_snapshot(self.session.context.snapshot());
        self.chat.sent = records.iter().map(|r| r.user.clone()).collect();
        // The last turn as it ended: its bar, or its failure with the
        // message back in the box to send again.
        self.turn.bar = PipelineBar::default();
        self.turn.state = TurnState::Idle;
        match records.last() {
            Some(r) if r.error.is_some() => {
                self.turn.state = TurnState::Failed {
                    reason: r.error.clone().unwrap_or_default(),
                    message: r.user.clone(),
                };
                self.chat.set_input(&r.user);
            }
            Some(r) => {
                self.turn.bar = PipelineBar::of_record(r);
                self.chat.suggestions = r.suggestions.clone();
            }
            None => {
                self.chat.suggestions = crate::pipeline::suggest::OPENING
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
            }
        }
        self.chrome.header.title = self.session.title.clone();
        self.chrome.header.id = self.session.id.clone();
    }

    /// The session, for changing it (copies only if a save still holds it).
    pub fn session_mut(&mut self) -> &mut SessionFile {
        Arc::make_mut(&mut self.session)
    }

    /// Says under a reply that the model was stopped before it finished.
    pub fn note_cut(&mut self, r: &crate::record::TurnRecord) {
        if let Some(cut) = &r.reply_cut {
            self.chat.push_message(
                Role::Note,
                format!(
                    "✂ This reply is not whole: the model was {cut}. Say “go on” for the \
                     rest, or raise the limit."
                ),
                r.turn,
            );
        }
    }

    /// The scroll state of a pane.
    pub fn scroll_mut(&mut self, pane: Pane) -> Option<&mut Scroll> {
        match pane {
            Pane::Chat => Some(&mut self.chat.scroll),
            Pane::Entities => Some(&mut self.panels.entities_scroll),
            Pane::Narrative => Some(&mut self.panels.narrative_scroll),
            Pane::History => Some(&mut self.panels.history_scroll),
            Pane::Input => None,
        }
    }

    /// Where a key arrives: typing in the message box (no overlay open),
    /// else on a panel or an overlay.
    pub fn key_context(&self) -> super::keymap::KeyContext {
        if self.chrome.focus == Pane::Input && self.overlay.is_none() {
            super::keymap::KeyContext {
                typing: true,
                input_empty: self.chat.input.is_empty(),
            }
        } else {
            super::keymap::KeyContext::PANEL
        }
    }
}
