//! The message box under the chat: the model's [`TextArea`] in a border
//! titled "Message", with a working notice while a turn runs and a size
//! readout ("3 lines · 1.2k chars") once the text outgrows the box.
//!
//! A view: it borrows the text area and never edits it. The text area draws
//! only the rows in view (its screen map is rebuilt on edits, not on draws),
//! but walks each of those rows whole; a row longer than 16 KiB (a one-line
//! 1 MB paste) is drawn by `input_long` instead, so a frame stays well
//! under a millisecond. The size readout counts characters only when the
//! text could be long.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;
use ratatui_textarea::TextArea;

use super::input_long::{long_rows_in_view, render_long_rows};
use crate::tui::theme::Theme;

/// Draws the input box. The text area must have no block of its own: the
/// border is drawn here, around it.
pub fn render_input(
    frame: &mut Frame,
    area: Rect,
    input: &TextArea<'_>,
    focused: bool,
    running: bool,
    theme: &Theme,
) {
    let border = if focused {
        theme.border_focused
    } else {
        theme.border
    };
    let mut title = vec![Span::styled(" Message ", theme.title)];
    if running {
        title.push(Span::styled(
            "· Alfred is working — Esc cancels ",
            theme.accent,
        ));
    }
    let mut block = Block::bordered()
        .border_style(border)
        .title(Line::from(title));
    let inner = block.inner(area);
    if let Some(size) = size_readout(input.lines(), inner) {
        block = block.title_bottom(Line::styled(format!(" {size} "), theme.dim).right_aligned());
    }
    frame.render_widget(block, area);
    if let Some(rows) = long_rows_in_view(input, inner) {
        render_long_rows(frame.buffer_mut(), inner, input, rows, focused);
        return;
    }
    frame.render_widget(input, inner);
    if !focused {
        hide_cursor(frame.buffer_mut(), inner, input);
    }
}

/// "3 lines · 1.2k chars" when the text does not fit `inner` as typed.
fn size_readout(lines: &[String], inner: Rect) -> Option<String> {
    let newlines = lines.len().saturating_sub(1);
    let bytes: usize = lines.iter().map(String::len).sum::<usize>() + newlines;
    let (width, height) = (usize::from(inner.width), usize::from(inner.height));
    if lines.len() <= height && bytes <= width {
        return None; // chars <= bytes: it fits, no need to count
    }
    let chars = lines.iter().map(|l| l.chars().count()).sum::<usize>() + newlines;
    if lines.len() <= height && chars <= width {
        return None;
    }
    let noun = if lines.len() == 1 { "line" } else { "lines" };
    Some(format!(
        "{} {noun} · {} chars",
        format_count(lines.len()),
        format_count(chars)
    ))
}

/// 999 → "999", 1234 → "1.2k", 1_048_576 → "1.0M".
fn format_count(n: usize) -> String {
    // Display only: the precision lost in the float conversion cannot show.
    #[allow(clippy::cast_precision_loss)]
    let f = n as f64;
    match n {
        0..1_000 => n.to_string(),
        1_000..999_950 => format!("{:.1}k", f / 1e3),
        _ => format!("{:.1}M", f / 1e6),
    }
}

/// Takes the text area's cursor and cursor-line styling off an unfocused box
/// (the text area always draws them; only the focused box has a cursor).
fn hide_cursor(buf: &mut Buffer, inner: Rect, input: &TextArea<'_>) {
    let marks = input.cursor_style().add_modifier | input.cursor_line_style().add_modifier;
    if marks.is_empty() {
        return;
    }
    let inner = inner.intersection(buf.area);
    for y in inner.top()..inner.bottom() {
        for x in inner.left()..inner.right() {
            buf[(x, y)].modifier.remove(marks);
        }
    }
}

#[cfg(test)]
#[path = "input_tests.rs"]
mod tests;
