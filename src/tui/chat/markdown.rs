//! Markdown to styled, wrapped terminal lines (pulldown-cmark events walked
//! into [`Line`]s at a given width).
//!
//! Owns the look of Alfred's replies: paragraphs, emphasis, inline code,
//! fenced code (indented, cut with "…", never re-wrapped, no visible fences),
//! headings without `#`, lists with hanging indents, block quotes, rules,
//! simple tables and links with their address dimmed. It must stay a pure
//! function of (text, width, theme): the chat cache relies on that.
//!
//! Streaming: an unclosed fence already runs to the end of the text under
//! CommonMark, and a last line that is only the start of a fence (two
//! backticks, say) is held back, so a half-typed fence never flashes raw.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::wrap::{display_width, expand_tabs, truncate_spans, wrap_spans};
use crate::tui::theme::Theme;

/// Renders markdown into lines at most `width` cells wide.
pub fn render_markdown(text: &str, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let options = Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES;
    let mut renderer = Renderer::new(usize::from(width), theme);
    for event in Parser::new_ext(hold_back_partial_fence(text), options) {
        renderer.event(event);
    }
    renderer.finish()
}

/// Drops a last, unterminated line made only of fence characters: while a
/// reply streams it is a fence being typed and would show as raw backticks.
fn hold_back_partial_fence(text: &str) -> &str {
    let start = text.rfind('\n').map_or(0, |i| i + 1);
    let last = text[start..].trim_start_matches(' ');
    let is_fence_run =
        !last.is_empty() && (last.chars().all(|c| c == '`') || last.chars().all(|c| c == '~'));
    if is_fence_run && text.len() - start - last.len() <= 3 {
        &text[..start]
    } else {
        text
    }
}

/// A block that prefixes the lines inside it.
enum Container {
    Quote,
    /// A list item: its marker goes on its first line, blanks of the same
    /// width on the others (the hanging indent).
    Item {
        marker: String,
        first: bool,
    },
}

/// Walks pulldown-cmark events, collecting inline spans and emitting lines.
struct Renderer<'t> {
    theme: &'t Theme,
    width: usize,
    lines: Vec<Line<'static>>,
    inline: Vec<Span<'static>>,
    styles: Vec<Style>,
    containers: Vec<Container>,
    /// Per open list: the next number of an ordered list.
    lists: Vec<Option<u64>>,
    code: Option<String>,
    /// Open links: the address and where their text starts in `inline`.
    links: Vec<(String, usize)>,
    table_cell: usize,
    need_blank: bool,
}

impl<'t> Renderer<'t> {
    fn new(width: usize, theme: &'t Theme) -> Self {
        Self {
            theme,
            width,
            lines: Vec::new(),
            inline: Vec::new(),
            styles: Vec::new(),
            containers: Vec::new(),
            lists: Vec::new(),
            code: None,
            links: Vec::new(),
            table_cell: 0,
            need_blank: false,
        }
    }

    fn style(&self) -> Style {
        self.styles
            .iter()
            .fold(self.theme.text, |acc, s| acc.patch(*s))
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => match &mut self.code {
                Some(code) => code.push_str(&text),
                None => self
                    .inline
                    .push(Span::styled(text.into_string(), self.style())),
            },
            Event::Code(code) => self.inline.push(Span::styled(
                code.into_string(),
                self.style().patch(self.theme.code),
            )),
            Event::InlineHtml(html) | Event::InlineMath(html) | Event::DisplayMath(html) => {
                self.inline
                    .push(Span::styled(html.into_string(), self.style()));
            }
            Event::Html(html) => {
                for line in html.lines() {
                    self.inline
                        .push(Span::styled(line.to_string(), self.style()));
                    self.flush_inline();
                }
            }
            // As chats show replies: a line the reply breaks stays broken
            // ("**Paneer Stir Fry** · 22 min" then its description), not
            // joined into the line before as CommonMark would.
            Event::SoftBreak => self.flush_inline(),
            Event::HardBreak => self.flush_inline(),
            Event::Rule => {
                self.start_block();
                let rule = "─".repeat(self.width.saturating_sub(self.prefix_width()));
                self.push_line(vec![Span::styled(rule, self.theme.dim)]);
                self.need_blank = true;
            }
            Event::TaskListMarker(done) => {
                self.inline
                    .push(Span::raw(if done { "[x] " } else { "[ ] " }))
            }
            Event::FootnoteReference(name) => self
                .inline
                .push(Span::styled(format!("[{name}]"), self.theme.dim)),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph | Tag::HtmlBlock | Tag::FootnoteDefinition(_) => self.start_block(),
            Tag::Table(_) => {
                self.start_block();
                self.table_cell = 0;
            }
            Tag::Heading { level, .. } => {
                self.start_block();
                let underline = if level == HeadingLevel::H1 {
                    Modifier::UNDERLINED
                } else {
                    Modifier::empty()
                };
                self.styles.push(self.theme.heading.add_modifier(underline));
            }
            Tag::BlockQuote(_) => {
                self.start_block();
                self.containers.push(Container::Quote);
            }
            Tag::CodeBlock(_) => {
                self.start_block();
                self.code = Some(String::new());
            }
            Tag::List(first) => {
                self.start_block();
                self.lists.push(first);
            }
            Tag::Item => self.start_item(),
            Tag::Emphasis => self
                .styles
                .push(Style::new().add_modifier(Modifier::ITALIC)),
            Tag::Strong | Tag::TableHead => {
                self.styles.push(Style::new().add_modifier(Modifier::BOLD))
            }
            Tag::Strikethrough => self
                .styles
                .push(Style::new().add_modifier(Modifier::CROSSED_OUT)),
            Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
                self.links.push((dest_url.into_string(), self.inline.len()));
                self.styles
                    .push(Style::new().add_modifier(Modifier::UNDERLINED));
            }
            Tag::TableRow => self.table_cell = 0,
            Tag::TableCell => {
                if self.table_cell > 0 {
                    self.inline.push(Span::styled(" │ ", self.theme.dim));
                }
                self.table_cell += 1;
            }
            _ => self.styles.push(Style::new()),
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::HtmlBlock | TagEnd::Table | TagEnd::FootnoteDefinition => {
                self.end_block()
            }
            TagEnd::Heading(_) => {
                self.end_block();
                self.styles.pop();
            }
            TagEnd::BlockQuote(_) => {
                self.end_block();
                self.containers.pop();
            }
            TagEnd::CodeBlock => {
                self.render_code();
                self.need_blank = true;
            }
            TagEnd::List(_) => {
                self.flush_inline();
                self.lists.pop();
                self.need_blank = self.need_blank || self.lists.is_empty();
            }
            TagEnd::Item => self.end_item(),
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                self.styles.pop();
            }
            TagEnd::TableHead => {
                self.styles.pop();
                self.flush_inline();
                self.table_cell = 0;
            }
            TagEnd::TableRow => self.flush_inline(),
            TagEnd::TableCell => {}
            TagEnd::Link | TagEnd::Image => self.end_link(),
            _ => {
                self.styles.pop();
            }
        }
    }

    fn start_item(&mut self) {
        self.flush_inline();
        if std::mem::take(&mut self.need_blank) {
            self.push_blank();
        }
        let depth = self.lists.len().saturating_sub(1);
        let marker = match self.lists.last_mut() {
            Some(Some(next)) => {
                let n = *next;
                *next += 1;
                format!("{n}. ")
            }
            _ => ["• ", "◦ ", "▪ "][depth.min(2)].to_string(),
        };
        self.containers.push(Container::Item {
            marker,
            first: true,
        });
    }

    fn end_item(&mut self) {
        self.flush_inline();
        if let Some(Container::Item { first: true, .. }) = self.containers.last() {
            self.push_line(Vec::new()); // an empty item still shows its marker
        }
        self.containers.pop();
    }

    fn end_link(&mut self) {
        self.styles.pop();
        let Some((url, start)) = self.links.pop() else {
            return;
        };
        let text: String = self
            .inline
            .get(start..)
            .unwrap_or_default()
            .iter()
            .map(|s| s.content.as_ref())
            .collect();
        let same = url == text || url.strip_prefix("mailto:") == Some(text.as_str());
        if !url.is_empty() && !same {
            self.inline
                .push(Span::styled(format!(" ({url})"), self.theme.dim));
        }
    }

    /// Closes the inline run before a block and separates it from the last.
    fn start_block(&mut self) {
        self.flush_inline();
        if std::mem::take(&mut self.need_blank) && !self.lines.is_empty() {
            self.push_blank();
        }
    }

    fn end_block(&mut self) {
        self.flush_inline();
        self.need_blank = true;
    }

    fn prefix_width(&self) -> usize {
        self.containers
            .iter()
            .map(|c| match c {
                Container::Quote => 2,
                Container::Item { marker, .. } => display_width(marker),
            })
            .sum()
    }

    /// The container prefix of the next line; list markers are used once.
    fn take_prefix(&mut self) -> Vec<Span<'static>> {
        let (dim, accent) = (self.theme.dim, self.theme.accent);
        self.containers
            .iter_mut()
            .map(|c| match c {
                Container::Quote => Span::styled("│ ", dim),
                Container::Item { marker, first } if *first => {
                    *first = false;
                    Span::styled(marker.clone(), accent)
                }
                Container::Item { marker, .. } => Span::raw(" ".repeat(display_width(marker))),
            })
            .collect()
    }

    fn push_line(&mut self, content: Vec<Span<'static>>) {
        let mut spans = self.take_prefix();
        spans.extend(content);
        self.lines.push(Line::from(spans));
    }

    /// A separating blank line: only the quote bars, list markers kept.
    fn push_blank(&mut self) {
        let quotes = self
            .containers
            .iter()
            .filter(|c| matches!(c, Container::Quote))
            .count();
        self.lines.push(Line::styled(
            "│ ".repeat(quotes).trim_end().to_string(),
            self.theme.dim,
        ));
    }

    fn flush_inline(&mut self) {
        if self.inline.is_empty() {
            return;
        }
        let available = self.width.saturating_sub(self.prefix_width()).max(1);
        let spans = std::mem::take(&mut self.inline);
        for line in wrap_spans(&spans, available) {
            self.push_line(line.spans);
        }
    }

    /// Code lines: indented by two, cut at the width, never wrapped.
    fn render_code(&mut self) {
        let Some(code) = self.code.take() else { return };
        let available = self.width.saturating_sub(self.prefix_width() + 2);
        let code = expand_tabs(code.strip_suffix('\n').unwrap_or(&code)).into_owned();
        for line in code.split('\n') {
            let cut = truncate_spans(&[Span::styled(line, self.theme.code)], available);
            let mut content = vec![Span::raw("  ")];
            content.extend(cut.spans);
            self.push_line(content);
        }
    }

    fn finish(mut self) -> Vec<Line<'static>> {
        self.flush_inline();
        if self.code.is_some() {
            self.render_code();
        }
        self.lines
    }
}

#[cfg(test)]
#[path = "markdown_tests.rs"]
mod tests;
