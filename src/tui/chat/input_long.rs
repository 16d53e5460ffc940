//! A fallback drawing of the message box for very long lines.
//!
//! The text area draws only the rows in view, but without wrapping it walks
//! each visible row whole (highlighting, then clipping to the view): a 1 MB
//! single-line paste costs ~40 ms a frame, and its column arithmetic is u16.
//! When a visible row is longer than [`LONG_LINE`] bytes, the box is drawn
//! here instead: each visible row cut to the window that shows the cursor,
//! which costs a scan up to the window, not the whole line. Selection and
//! search marks are not drawn in this mode. Reads the text area, never edits it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui_textarea::{TextArea, WrapMode};
use unicode_width::UnicodeWidthChar;

/// Rows longer than this (in bytes) are drawn by [`render_long_rows`].
pub const LONG_LINE: usize = 16 * 1024;

/// The first visible row, keeping `cursor` in view (the text area's rule).
fn top_row(prev: usize, cursor: usize, height: usize) -> usize {
    if cursor < prev {
        cursor
    } else if prev + height <= cursor {
        cursor + 1 - height
    } else {
        prev
    }
}

/// The rows shown when drawing `input` into `inner`, if one of them is long
/// and the text area does not wrap.
pub fn long_rows_in_view(input: &TextArea<'_>, inner: Rect) -> Option<std::ops::Range<usize>> {
    if input.wrap_mode() != WrapMode::None || input.is_empty() {
        return None;
    }
    let lines = input.lines();
    let height = usize::from(inner.height);
    let top = top_row(
        usize::from(input.scroll_offset().0),
        input.cursor().0,
        height,
    );
    let rows = top..(top + height).min(lines.len());
    lines[rows.clone()]
        .iter()
        .any(|l| l.len() > LONG_LINE)
        .then_some(rows)
}

/// Cells a char takes as the text area draws it (a tab as one space here).
fn char_cells(c: char) -> usize {
    if c == '\t' { 1 } else { c.width().unwrap_or(0) }
}

/// The display column of char `index` in `line`.
fn column_of(line: &str, index: usize) -> usize {
    let prefix_is_ascii = line.get(..index).is_some_and(str::is_ascii);
    if prefix_is_ascii {
        index
    } else {
        line.chars().take(index).map(char_cells).sum()
    }
}

/// The part of `line` from column `left`, at most `width` cells wide.
fn window(line: &str, left: usize, width: usize) -> String {
    if line.is_ascii() {
        let end = (left + width).min(line.len());
        return line
            .get(left.min(end)..end)
            .unwrap_or_default()
            .replace('\t', " ");
    }
    let (mut col, mut out, mut used) = (0, String::new(), 0);
    for c in line.chars() {
        let w = char_cells(c);
        if col >= left {
            if used + w > width {
                break;
            }
            out.push(if c == '\t' { ' ' } else { c });
            used += w;
        }
        col += w;
    }
    out
}

/// Draws the visible `rows` of `input` into `inner`, the cursor pinned to
/// the right edge once it is past the first screenful of its line.
pub fn render_long_rows(
    buf: &mut Buffer,
    inner: Rect,
    input: &TextArea<'_>,
    rows: std::ops::Range<usize>,
    focused: bool,
) {
    let (cursor_row, cursor_col) = (input.cursor().0, input.cursor().1);
    let width = usize::from(inner.width);
    let lines = input.lines();
    let cursor_x = lines
        .get(cursor_row)
        .map_or(0, |l| column_of(l, cursor_col));
    let left = (cursor_x + 1).saturating_sub(width);
    for (y, row) in (inner.y..inner.bottom()).zip(rows.clone()) {
        let text = lines
            .get(row)
            .map(|l| window(l, left, width))
            .unwrap_or_default();
        buf.set_stringn(inner.x, y, text, width, input.style());
    }
    if focused && rows.contains(&cursor_row) {
        let x = inner.x + u16::try_from(cursor_x - left).unwrap_or(0);
        let y = inner.y + u16::try_from(cursor_row - rows.start).unwrap_or(0);
        if buf.area.contains((x, y).into()) {
            let cell = &mut buf[(x, y)];
            cell.set_style(Style::default().patch(input.cursor_style()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_starts_at_a_column() {
        assert_eq!(window("abcdef", 2, 3), "cde");
        assert_eq!(window("abc", 5, 3), "");
        assert_eq!(window("中文字符", 2, 5), "文字");
        assert_eq!(column_of("中文ab", 3), 5);
        assert_eq!(column_of("abc", 2), 2);
    }

    #[test]
    fn only_long_visible_rows_take_the_fallback() {
        let inner = Rect::new(0, 0, 20, 3);
        let short = TextArea::from(["short".to_string()]);
        assert_eq!(long_rows_in_view(&short, inner), None);
        let long = TextArea::from(["x".repeat(LONG_LINE + 1)]);
        assert_eq!(long_rows_in_view(&long, inner), Some(0..1));
        let mut wrapped = TextArea::from(["x".repeat(LONG_LINE + 1)]);
        wrapped.set_wrap_mode(WrapMode::Word);
        assert_eq!(long_rows_in_view(&wrapped, inner), None);
    }
}
