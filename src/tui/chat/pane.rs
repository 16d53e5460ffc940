//! The chat pane: the transcript in a bordered box, scrolled or following
//! the bottom, with a marker for lines below and a cursor while streaming.
//!
//! A view: it reads the messages and the scroll state it is given and never
//! writes the model. Its one piece of memory is the [`ChatLayoutCache`] the
//! app owns and lends it, so a frame lays out only changed messages and
//! draws only the visible lines, whatever the length of the chat.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Scrollbar, ScrollbarOrientation, ScrollbarState};

use super::cache::ChatLayoutCache;
use crate::tui::model::{ChatMessage, Role, Scroll};
use crate::tui::theme::Theme;

/// What the chat pane shows, borrowed from the model for one frame.
#[derive(Debug, Clone, Copy)]
pub struct ChatPane<'a> {
    pub messages: &'a [ChatMessage],
    pub scroll: Scroll,
    pub focused: bool,
    pub theme: &'a Theme,
    /// A turn is running: when the last message is Alfred's reply, draw the
    /// cursor after it (before the reply starts there is nowhere to put it).
    pub streaming: bool,
    /// The key that retries the failed last turn from anywhere ("Ctrl+R"),
    /// named under its error; `None` when there is nothing to retry.
    pub retry_key: Option<&'a str>,
}

/// The glyph drawn after the last message while a reply streams.
pub const STREAM_CURSOR: &str = "▌";

/// Where the transcript's text goes inside the pane's `area`: within the
/// border, one column of padding each side. Its width is the layout width.
pub fn content_area(area: Rect) -> Rect {
    let inner = Block::bordered().inner(area);
    Rect {
        x: inner.x.saturating_add(1),
        width: inner.width.saturating_sub(2),
        ..inner
    }
}

/// The largest first line that still fills a view `height` lines tall, for
/// the transcript the cache was last refreshed with.
pub fn max_offset(cache: &ChatLayoutCache, height: usize) -> usize {
    cache.total_lines().saturating_sub(height)
}

/// The first line shown: the bottom when following, else `offset` clamped.
pub fn first_visible_line(scroll: Scroll, total: usize, height: usize) -> usize {
    let max = total.saturating_sub(height);
    if scroll.follow {
        max
    } else {
        scroll.offset.min(max)
    }
}

/// Draws the chat pane, refreshing `cache` for the pane's width first.
pub fn render_chat(frame: &mut Frame, area: Rect, pane: ChatPane<'_>, cache: &mut ChatLayoutCache) {
    let theme = pane.theme;
    let text_area = content_area(area);
    let cache = cache.lines_for(pane.messages, text_area.width, theme, pane.retry_key);
    let (total, height) = (cache.total_lines(), usize::from(text_area.height));
    let offset = first_visible_line(pane.scroll, total, height);
    let below = total.saturating_sub(offset + height);

    let border = if pane.focused {
        theme.border_focused
    } else {
        theme.border
    };
    let mut block = Block::bordered()
        .border_style(border)
        .title(Span::styled(" Chat ", theme.title));
    if !pane.scroll.follow && below > 0 {
        let plural = if below == 1 { "" } else { "s" };
        let marker = Line::styled(format!(" ↓ {below} more line{plural} "), theme.accent);
        block = block.title_bottom(marker.right_aligned());
    }
    frame.render_widget(block, area);

    if total > height {
        let mut state = ScrollbarState::new(total - height)
            .position(offset)
            .viewport_content_length(height);
        let bar = Scrollbar::new(ScrollbarOrientation::VerticalRight)
            .begin_symbol(None)
            .end_symbol(None)
            .track_symbol(Some("│"))
            .track_style(border)
            .thumb_style(theme.dim);
        let rail = Rect {
            y: area.y.saturating_add(1),
            height: area.height.saturating_sub(2),
            ..area
        };
        frame.render_stateful_widget(bar, rail, &mut state);
    }

    let buf = frame.buffer_mut();
    if pane.messages.is_empty() {
        let hint = Line::styled("No messages yet: ask Alfred about your kitchen.", theme.dim);
        buf.set_line(text_area.x, text_area.y, &hint, text_area.width);
    }
    for (row, line) in cache.visible(offset, height).enumerate() {
        let y = text_area
            .y
            .saturating_add(u16::try_from(row).unwrap_or(u16::MAX));
        buf.set_line(text_area.x, y, line, text_area.width);
    }
    let replying = pane.messages.last().is_some_and(|m| m.role == Role::Alfred);
    if pane.streaming
        && replying
        && let Some((line, col)) = cache.end_of_last_message()
        && (offset..offset + height).contains(&line)
    {
        // The layout leaves the padding column free, so the cursor always fits.
        let x = text_area
            .x
            .saturating_add(u16::try_from(col).unwrap_or(u16::MAX))
            .min(text_area.right());
        let y = text_area
            .y
            .saturating_add(u16::try_from(line - offset).unwrap_or(u16::MAX));
        if buf.area.contains((x, y).into()) {
            buf.set_string(x, y, STREAM_CURSOR, theme.accent);
        }
    }
}

#[cfg(test)]
#[path = "pane_tests.rs"]
mod tests;
