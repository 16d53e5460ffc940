//! Wrapping styled text by display width, at grapheme boundaries.
//!
//! Widths are measured per grapheme cluster with the same rule ratatui's
//! buffer uses when it draws ([`CellWidth`]), so a wrapped line never spills
//! past its column budget: CJK and emoji (ZWJ sequences, VS16) take two cells,
//! NFD Hangul jamo one cluster, control characters none (ratatui drops them,
//! and so do we). Words wrap at spaces; a wide grapheme is a break opportunity
//! on both sides (Chinese and Japanese have no spaces; Korean, which has,
//! wraps by word), except before closing punctuation and after an opening
//! bracket; a word longer than the width is broken between graphemes.
//! Pure functions: no theme, no terminal.

use std::borrow::Cow;

use ratatui::buffer::CellWidth;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;

/// Cells a grapheme takes when drawn (0 for what ratatui does not draw).
pub fn grapheme_width(grapheme: &str) -> usize {
    if grapheme.contains(char::is_control) {
        0
    } else {
        usize::from(grapheme.cell_width())
    }
}

/// Cells a string takes when drawn.
pub fn display_width(text: &str) -> usize {
    graphemes(text).map(|(_, w)| w).sum()
}

/// The drawable graphemes of a string with their widths; a tab counts as
/// one space. ASCII text skips grapheme segmentation (one byte, one cell).
fn graphemes(text: &str) -> Graphemes<'_> {
    if text.is_ascii() {
        Graphemes::Ascii(text, 0)
    } else {
        Graphemes::Unicode(text.graphemes(true))
    }
}

enum Graphemes<'a> {
    Ascii(&'a str, usize),
    Unicode(unicode_segmentation::Graphemes<'a>),
}

impl<'a> Iterator for Graphemes<'a> {
    type Item = (&'a str, usize);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let g = match self {
                Graphemes::Ascii(text, pos) => {
                    let g = text.get(*pos..*pos + 1)?;
                    *pos += 1;
                    g
                }
                Graphemes::Unicode(inner) => inner.next()?,
            };
            if g == "\t" {
                return Some((" ", 1));
            }
            let width = grapheme_width(g);
            if width > 0 {
                return Some((g, width));
            }
        }
    }
}

/// Korean is written with spaces between words, so its syllables wrap as
/// words do (like CSS `word-break: keep-all`) rather than one by one.
fn is_hangul(grapheme: &str) -> bool {
    grapheme.chars().next().is_some_and(|c| {
        matches!(c, '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}' | '\u{A960}'..='\u{A97F}' | '\u{AC00}'..='\u{D7AF}')
    })
}

/// Punctuation that must not begin a line (kinsoku): it stays with the
/// grapheme before it.
const CLOSING: &str = ".,;:!?)]}%、。，．：；？！）］｝〕〉》」』】〙〗〟’”｠»ー";

/// Brackets and quotes that must not end a line: they stay with what follows.
const OPENING: &str = "([{（［｛〔〈《「『【〘〖〝‘“｟«";

/// A line under construction: spans merged while the style stays the same.
#[derive(Default)]
struct LineBuilder {
    spans: Vec<Span<'static>>,
    width: usize,
}

impl LineBuilder {
    fn push(&mut self, text: &str, style: Style, width: usize) {
        self.width += width;
        if let Some(last) = self.spans.last_mut()
            && last.style == style
        {
            last.content.to_mut().push_str(text);
            return;
        }
        self.spans.push(Span {
            style,
            content: Cow::Owned(text.to_string()),
        });
    }

    fn take(&mut self) -> Line<'static> {
        self.width = 0;
        Line::from(std::mem::take(&mut self.spans))
    }
}

/// One grapheme of a word waiting to be placed.
type Piece<'a> = (&'a str, Style, usize);

/// Greedy wrapper state: the finished lines, the current line, the pending
/// spaces and the word being collected.
struct Wrapper<'a> {
    width: usize,
    lines: Vec<Line<'static>>,
    line: LineBuilder,
    spaces: Vec<Piece<'a>>,
    word: Vec<Piece<'a>>,
    word_width: usize,
    /// The current line began at a wrap, so leading spaces are dropped.
    wrapped: bool,
    /// The last grapheme was wide (CJK, emoji): a break may follow it.
    after_ideograph: bool,
    /// The last grapheme opens a bracket or quote: no break may follow it.
    after_opening: bool,
}

impl<'a> Wrapper<'a> {
    fn new(width: usize) -> Self {
        Self {
            width,
            lines: Vec::new(),
            line: LineBuilder::default(),
            spaces: Vec::new(),
            word: Vec::new(),
            word_width: 0,
            wrapped: false,
            after_ideograph: false,
            after_opening: false,
        }
    }

    fn feed(&mut self, grapheme: &'a str, style: Style, width: usize) {
        if grapheme == " " {
            self.place_word();
            self.spaces.push((grapheme, style, width));
            (self.after_ideograph, self.after_opening) = (false, false);
            return;
        }
        let ideograph = width > 1 && !is_hangul(grapheme);
        let may_break = (ideograph || self.after_ideograph) && !self.after_opening;
        if may_break && !CLOSING.contains(grapheme) {
            self.place_word();
        }
        self.word.push((grapheme, style, width));
        self.word_width += width;
        self.after_ideograph = ideograph;
        self.after_opening = OPENING.contains(grapheme);
    }

    fn break_line(&mut self) {
        let line = self.line.take();
        self.lines.push(line);
        self.spaces.clear();
        self.wrapped = true;
    }

    /// Puts the pending spaces and word on the current line, wrapping first
    /// when they do not fit and breaking a word wider than the whole line.
    fn place_word(&mut self) {
        if self.word.is_empty() {
            return;
        }
        let spaces: usize = self.spaces.iter().map(|p| p.2).sum();
        if self.line.width + spaces + self.word_width > self.width && self.line.width > 0 {
            self.break_line();
        }
        let keep_spaces = !(self.wrapped && self.line.width == 0);
        if keep_spaces && self.line.width + spaces + self.word_width <= self.width {
            for (g, style, w) in self.spaces.drain(..) {
                self.line.push(g, style, w);
            }
        }
        self.spaces.clear();
        for (g, style, w) in std::mem::take(&mut self.word) {
            if self.line.width + w > self.width && self.line.width > 0 {
                self.break_line();
            }
            if w > self.width {
                // Wider than the whole line (a CJK char at width 1): mark it.
                self.line.push("…", style, 1);
            } else {
                self.line.push(g, style, w);
            }
        }
        self.word_width = 0;
    }

    fn finish(mut self) -> Vec<Line<'static>> {
        self.place_word();
        let wrapped_empty = self.wrapped && self.line.width == 0;
        if !wrapped_empty || self.lines.is_empty() {
            let line = self.line.take();
            self.lines.push(line);
        }
        self.lines
    }
}

/// Wraps one logical line of styled spans to `width` cells.
///
/// Always returns at least one line (an empty one for empty input or a zero
/// width, where nothing can be drawn). Every returned line is at most `width`
/// cells wide; styles carry over the breaks.
pub fn wrap_spans(spans: &[Span<'_>], width: usize) -> Vec<Line<'static>> {
    if width == 0 {
        return vec![Line::default()];
    }
    let mut wrapper = Wrapper::new(width);
    for span in spans {
        for (g, w) in graphemes(&span.content) {
            wrapper.feed(g, span.style, w);
        }
    }
    wrapper.finish()
}

/// Wraps plain text in one style, keeping its line breaks (tabs become four
/// spaces, carriage returns are dropped).
pub fn wrap_text(text: &str, style: Style, width: usize) -> Vec<Line<'static>> {
    text.split('\n')
        .flat_map(|raw| {
            let line = expand_tabs(raw.strip_suffix('\r').unwrap_or(raw));
            wrap_spans(&[Span::styled(line, style)], width)
        })
        .collect()
}

/// Replaces tabs with four spaces (ratatui draws no tab).
pub fn expand_tabs(text: &str) -> Cow<'_, str> {
    if text.contains('\t') {
        Cow::Owned(text.replace('\t', "    "))
    } else {
        Cow::Borrowed(text)
    }
}

/// Cuts styled spans to `width` cells, ending with "…" when anything was cut.
pub fn truncate_spans(spans: &[Span<'_>], width: usize) -> Line<'static> {
    let total: usize = spans.iter().map(|s| display_width(&s.content)).sum();
    let mut line = LineBuilder::default();
    if total <= width {
        for span in spans {
            for (g, w) in graphemes(&span.content) {
                line.push(g, span.style, w);
            }
        }
        return line.take();
    }
    let budget = width.saturating_sub(1);
    let mut last_style = Style::default();
    'outer: for span in spans {
        last_style = span.style;
        for (g, w) in graphemes(&span.content) {
            if line.width + w > budget {
                break 'outer;
            }
            line.push(g, span.style, w);
        }
    }
    if width > 0 {
        line.push("…", last_style, 1);
    }
    line.take()
}

#[cfg(test)]
#[path = "wrap_tests.rs"]
mod tests;
