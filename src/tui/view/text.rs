//! Text measured in terminal cells: width, truncation with "…", word
//! wrapping, padding — and the scrolled, bordered frame every side panel
//! draws its lines into.
//!
//! Widths are measured per grapheme exactly as ratatui's buffer measures them
//! (`CellWidth`, through the chat's `grapheme_width`), and control characters
//! are dropped the same way, so a CJK or emoji label never pushes a column
//! out of line.
//! Pure helpers: nothing here reads or writes the model.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Padding, Widget};
use unicode_segmentation::UnicodeSegmentation;

use crate::tui::chat::wrap::grapheme_width;
use crate::tui::theme::Theme;

/// A reply's text without markdown's strong markers (`**Paneer Stir
/// Fry**` reads "Paneer Stir Fry"), for the side panels: the chat renders
/// them as bold, and the prompt inspector keeps the text as sent.
pub fn without_strong(text: &str) -> String {
    text.replace("**", "").replace("__", "")
}

/// The display width of `s` in terminal cells.
pub fn width(s: &str) -> usize {
    s.graphemes(true).map(grapheme_width).sum()
}

/// `s` on one line: control characters (tabs, newlines) become spaces.
pub fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Cuts `s` to at most `max` cells, ending with "…" when something was cut.
pub fn truncate(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for g in s.graphemes(true) {
        let w = grapheme_width(g);
        if used + w > max - 1 {
            break;
        }
        out.push_str(g);
        used += w;
    }
    out.push('…');
    out
}

/// `s` truncated to `w` cells and padded with spaces to exactly `w` cells.
pub fn fit(s: &str, w: usize) -> String {
    let mut out = truncate(s, w);
    let used = width(&out);
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(used)));
    out
}

/// Word-wraps `text` to lines of at most `max` cells. Explicit newlines
/// are kept; a word wider than a line is broken between graphemes.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    wrap_hanging(text, max, max)
}

/// [`wrap`]ped text as lines of one style.
pub fn wrap_styled(text: &str, max: usize, style: Style) -> Vec<Line<'static>> {
    wrap(text, max)
        .into_iter()
        .map(|l| Line::styled(l, style))
        .collect()
}

/// Like [`wrap`], with a different width for the first line (the rest hang
/// under a label).
pub fn wrap_hanging(text: &str, first: usize, rest: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let limit = |lines: &Vec<String>| {
        if lines.is_empty() {
            first.max(1)
        } else {
            rest.max(1)
        }
    };
    for para in text.split('\n') {
        let mut line = String::new();
        let mut used = 0;
        for word in one_line(para).split(' ').filter(|w| !w.is_empty()) {
            let w = width(word);
            let max = limit(&lines);
            if used > 0 && used + 1 + w <= max {
                line.push(' ');
                line.push_str(word);
                used += 1 + w;
                continue;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
                used = 0;
            }
            if w <= limit(&lines) {
                line.push_str(word);
                used = w;
                continue;
            }
            for g in word.graphemes(true) {
                let gw = grapheme_width(g);
                if used > 0 && used + gw > limit(&lines) {
                    lines.push(std::mem::take(&mut line));
                    used = 0;
                }
                line.push_str(g);
                used += gw;
            }
        }
        lines.push(line);
    }
    lines
}

/// Wraps `text` after a styled `label` ("asked: "); continuation lines are
/// indented by `indent` cells, so the text hangs under its label.
pub fn labeled(
    label: Span<'static>,
    text: &str,
    style: Style,
    width: usize,
    indent: usize,
) -> Vec<Line<'static>> {
    let label_w = self::width(&label.content);
    let rows = wrap_hanging(
        text,
        width.saturating_sub(label_w),
        width.saturating_sub(indent),
    );
    let pad = " ".repeat(indent);
    let mut label = Some(label);
    rows.into_iter()
        .map(|row| {
            let lead = label.take().unwrap_or_else(|| Span::raw(pad.clone()));
            Line::from(vec![lead, Span::styled(row, style)])
        })
        .collect()
}

/// Draws a one-row bar (the pipeline bar, the key hints): the line
/// `line_for` lays out for the room left, one cell in from the left edge
/// on rows wider than 40.
pub fn render_bar(area: Rect, buf: &mut Buffer, line_for: impl FnOnce(usize) -> Line<'static>) {
    let area = area.intersection(buf.area);
    if area.is_empty() {
        return;
    }
    let pad = u16::from(area.width > 40);
    let line = line_for(usize::from(area.width - pad));
    buf.set_line(area.x + pad, area.y, &line, area.width - pad);
}

/// A bordered pane showing `lines` from line `scroll`, with "↑ N above" and
/// "↓ more" markers on the borders when content is cut. Scroll past the end
/// is clamped so the last line stays at the bottom.
pub struct ScrolledPanel<'a> {
    pub title: Line<'a>,
    pub lines: Vec<Line<'a>>,
    pub scroll: usize,
    pub focused: bool,
    pub theme: &'a Theme,
}

impl ScrolledPanel<'_> {
    /// The width lines may use inside the border and padding of `area`.
    pub fn inner_width(area: Rect) -> usize {
        usize::from(area.width.saturating_sub(4))
    }
}

impl Widget for ScrolledPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let theme = self.theme;
        let border = if self.focused {
            theme.border_focused
        } else {
            theme.border
        };
        let height = usize::from(area.height.saturating_sub(2));
        let total = self.lines.len();
        let scroll = self.scroll.min(total.saturating_sub(height));
        let below = total.saturating_sub(scroll + height);
        let mut block = Block::bordered()
            .padding(Padding::horizontal(1))
            .border_style(border)
            .title(self.title.style(if self.focused {
                theme.title
            } else {
                theme.heading
            }));
        if scroll > 0 {
            block =
                block.title(Line::styled(format!(" ↑ {scroll} above "), theme.dim).right_aligned());
        }
        if below > 0 {
            block = block.title_bottom(
                Line::styled(format!(" ↓ more ({below}) "), theme.accent).right_aligned(),
            );
        }
        let inner = block.inner(area);
        block.render(area, buf);
        for (row, line) in self.lines.iter().skip(scroll).take(height).enumerate() {
            let y = inner.y.saturating_add(row as u16);
            if y >= inner.bottom() {
                break;
            }
            buf.set_line(inner.x, y, line, inner.width);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_graphemes_count_two_cells() {
        assert_eq!(width("麻婆豆腐"), 8);
        assert_eq!(width("🌶️"), 2);
        assert_eq!(width("a\tb"), 2);
    }

    #[test]
    fn truncation_never_splits_a_wide_character() {
        assert_eq!(truncate("麻婆豆腐", 6), "麻婆…");
        assert_eq!(fit("麻婆豆腐", 6), "麻婆… ");
        assert_eq!(width(&fit("麻婆豆腐 🌶️ Mapo", 8)), 8);
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abcd", 0), "");
    }

    #[test]
    fn wrap_breaks_on_words_and_splits_long_ones() {
        assert_eq!(wrap("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("a\nb", 10), vec!["a", "b"]);
        assert_eq!(wrap("", 10), vec![String::new()]);
        assert!(wrap("麻婆豆腐麻婆豆腐", 5).iter().all(|l| width(l) <= 5));
    }
}
