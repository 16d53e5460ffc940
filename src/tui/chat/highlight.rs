//! Search highlights: marks every occurrence of a text (ignoring case) in
//! the lines already drawn in an area of the buffer.
//!
//! It works on the drawn cells, so what is highlighted is exactly what is on
//! screen — markdown styling, wrapping and wide characters included (a
//! match broken across two wrapped lines is not marked). Render-side only.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

/// Patches `style` onto every cell of every occurrence of `needle` in `area`.
/// Returns how many occurrences were marked.
pub fn highlight(buf: &mut Buffer, area: Rect, needle: &str, style: Style) -> usize {
    let needle = needle.trim().to_lowercase();
    let area = area.intersection(buf.area);
    if needle.is_empty() || area.is_empty() {
        return 0;
    }
    let mut found = 0;
    for y in area.top()..area.bottom() {
        // The row's text, and where each cell's symbol starts in it.
        let mut hay = String::new();
        let mut cells: Vec<(usize, u16)> = Vec::new();
        for x in area.left()..area.right() {
            let symbol = buf[(x, y)].symbol();
            if symbol.is_empty() {
                continue;
            }
            cells.push((hay.len(), x));
            hay.push_str(&symbol.to_lowercase());
        }
        let mut from = 0;
        while let Some(at) = hay[from..].find(&needle) {
            let (start, end) = (from + at, from + at + needle.len());
            for &(offset, x) in &cells {
                if offset >= start && offset < end {
                    buf[(x, y)].set_style(style);
                }
            }
            found += 1;
            from = end;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Modifier;

    #[test]
    fn every_occurrence_on_every_row_ignoring_case() {
        let area = Rect::new(0, 0, 20, 3);
        let mut buf = Buffer::empty(area);
        buf.set_string(0, 0, "Paneer and paneer", Style::default());
        buf.set_string(0, 1, "麻婆 PANEER", Style::default());
        buf.set_string(0, 2, "pan eer", Style::default());
        let mark = Style::default().add_modifier(Modifier::REVERSED);
        assert_eq!(highlight(&mut buf, area, "paneer", mark), 3);
        let marked = |x: u16, y: u16| buf[(x, y)].modifier.contains(Modifier::REVERSED);
        assert!(marked(0, 0) && marked(5, 0) && !marked(6, 0) && marked(11, 0));
        // After two wide characters (4 cells) and a space.
        assert!(!marked(4, 1) && marked(5, 1) && marked(10, 1) && !marked(11, 1));
        assert!(!marked(0, 2));
        assert_eq!(highlight(&mut buf, area, "  ", mark), 0);
    }
}
