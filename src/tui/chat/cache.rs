//! The chat's layout memo: every message's rendered lines, kept per message
//! for the (width, revision) they were laid out at.
//!
//! Two of these live: the app's (`draw::Caches::chat`), which `render_chat`
//! refreshes before drawing, and the model's (`Chat::layout`), which
//! `update` refreshes to measure the chat as the view draws it (scrolling,
//! search jumps, copy). A refresh re-lays out only the messages whose revision
//! (or the width, or the theme) changed, so while a reply streams only the
//! last message is laid out again. Prefix sums of line counts find the first
//! visible message in O(log n), and the visible slice is borrowed, never
//! cloned. It never touches the model.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::markdown::render_markdown;
use super::message::{ChatMessage, Role};
use super::wrap::wrap_text;
use crate::tui::theme::Theme;

/// What a message's layout depends on besides width and theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    revision: u64,
    len: usize,
    role: Role,
    turn: u32,
    /// The retry hint, shown only on an error that is the last message of
    /// a turn that can be retried.
    hint: bool,
}

impl Key {
    fn of(message: &ChatMessage, last: bool) -> Self {
        Self {
            revision: message.revision,
            len: message.text.len(),
            role: message.role,
            turn: message.turn,
            hint: last && message.role == Role::Error,
        }
    }
}

/// Laid-out lines of every message of the chat, refreshed incrementally.
#[derive(Debug, Default)]
pub struct ChatLayoutCache {
    width: u16,
    theme: Option<Theme>,
    /// The retry key named under a failed last turn.
    retry: Option<String>,
    keys: Vec<Key>,
    layouts: Vec<Vec<Line<'static>>>,
    /// `starts[i]`: the first line of message `i`; one more entry holds the total.
    starts: Vec<usize>,
    recomputed: u64,
}

impl ChatLayoutCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Brings the layout up to date with `messages` at `width` (in cells)
    /// and returns the cache to read lines from.
    /// `retry`: the key to name under a failed last turn (none: no hint).
    pub fn lines_for(
        &mut self,
        messages: &[ChatMessage],
        width: u16,
        theme: &Theme,
        retry: Option<&str>,
    ) -> &Self {
        if self.width != width || self.theme.as_ref() != Some(theme) {
            self.width = width;
            self.theme = Some(*theme);
            self.keys.clear();
            self.layouts.clear();
        }
        if self.retry.as_deref() != retry {
            // Only the last message carries the hint.
            self.retry = retry.map(str::to_string);
            self.keys.truncate(messages.len().saturating_sub(1));
            self.layouts.truncate(self.keys.len());
        }
        self.keys.truncate(messages.len());
        self.layouts.truncate(messages.len());
        let mut first_changed = self.keys.len();
        for (i, message) in messages.iter().enumerate() {
            let key = Key::of(message, i + 1 == messages.len() && retry.is_some());
            if self.keys.get(i) == Some(&key) {
                continue;
            }
            let hint = retry.filter(|_| key.hint);
            let lines = layout_message(message, hint, width, theme);
            self.recomputed += 1;
            if i < self.keys.len() {
                self.keys[i] = key;
                self.layouts[i] = lines;
            } else {
                self.keys.push(key);
                self.layouts.push(lines);
            }
            first_changed = first_changed.min(i);
        }
        self.update_starts(first_changed);
        self
    }

    /// Recomputes the prefix sums from message `from` on.
    fn update_starts(&mut self, from: usize) {
        let from = from.min(self.starts.len().saturating_sub(1));
        self.starts.truncate(from + 1);
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let mut total = self.starts[from];
        for lines in &self.layouts[from..] {
            total += lines.len();
            self.starts.push(total);
        }
    }

    /// Lines of the whole transcript at the last refreshed width.
    pub fn total_lines(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// The width the layout was made for.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// How many message layouts were computed since the cache was made.
    pub fn recomputed(&self) -> u64 {
        self.recomputed
    }

    /// The first transcript line of message `index`, if laid out.
    pub fn start_of(&self, index: usize) -> Option<usize> {
        (index < self.layouts.len()).then(|| self.starts.get(index).copied())?
    }

    /// The message holding transcript line `line` (O(log n)).
    pub fn message_at(&self, line: usize) -> usize {
        self.starts
            .partition_point(|start| *start <= line)
            .saturating_sub(1)
    }

    /// The lines `[offset, offset + height)`, borrowed; fewer at the end.
    pub fn visible(
        &self,
        offset: usize,
        height: usize,
    ) -> impl Iterator<Item = &Line<'static>> + '_ {
        let first = self.message_at(offset);
        let skip = offset.saturating_sub(self.starts.get(first).copied().unwrap_or(0));
        self.layouts
            .get(first..)
            .unwrap_or_default()
            .iter()
            .flatten()
            .skip(skip)
            .take(height)
    }

    /// Where the last message's text ends: (transcript line, width in cells).
    /// The streaming cursor is drawn just after it.
    pub fn end_of_last_message(&self) -> Option<(usize, usize)> {
        let lines = self.layouts.last()?;
        let body_end = lines.len().checked_sub(2)?; // the blank separator follows
        let line = self.starts.get(self.layouts.len() - 1)? + body_end;
        Some((line, lines[body_end].width()))
    }
}

/// A message's lines: a header, the body and a blank separator.
fn layout_message(
    message: &ChatMessage,
    retry: Option<&str>,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let (name, style) = match message.role {
        Role::User => ("you", theme.user),
        Role::Alfred => ("alfred", theme.alfred),
        Role::Error => ("error", theme.error.add_modifier(Modifier::BOLD)),
        Role::Note => ("note", theme.note),
    };
    let mut header = vec![Span::styled(name, style)];
    if message.turn > 0 {
        header.push(Span::styled(format!(" · turn {}", message.turn), theme.dim));
    }
    let mut lines = vec![Line::from(header)];
    let cells = usize::from(width);
    match message.role {
        Role::Alfred => lines.extend(render_markdown(&message.text, width, theme)),
        Role::User => lines.extend(wrap_text(&message.text, theme.text, cells)),
        Role::Note => lines.extend(wrap_text(&message.text, theme.note, cells)),
        Role::Error => {
            lines.extend(wrap_text(&message.text, theme.error, cells));
            if let Some(key) = retry {
                lines.extend(wrap_text(
                    &format!("press {key} to retry"),
                    theme.dim,
                    cells,
                ));
            }
        }
    }
    if lines.len() == 1 {
        lines.push(Line::default()); // room for the streaming cursor
    }
    lines.push(Line::default());
    lines
}

#[cfg(test)]
#[path = "cache_tests.rs"]
mod tests;
