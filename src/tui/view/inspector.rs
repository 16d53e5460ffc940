//! The prompt inspector, full screen (`p`): the turn's prompts in a list
//! (Understand, Think, each Act iteration, Reply, Summarize's); for the
//! selected one its total against the model's context window, then the
//! system message, each section and the raw response, each foldable, each
//! with a token bar proportional to the prompt. Offline, it says that this
//! is the prompt an LLM would have been sent.
//!
//! A view: it reads the record and the inspector state, writes nothing.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Widget};

use super::text::{fit, truncate, width, wrap, wrap_styled};
use crate::prompt::PromptNode;
use crate::record::{CallAttempt, CallRecord, PromptRecord, TurnRecord};
use crate::tui::state::inspector::{InspectorState, slots};
use crate::tui::theme::Theme;

/// The inspector screen.
pub struct InspectorView<'a> {
    pub state: &'a InspectorState,
    /// The turn inspected (`None` if it vanished: a session switch).
    pub record: Option<&'a TurnRecord>,
    /// The model's context window, in tokens.
    pub context_window: u32,
    /// The turn was answered by the offline brain.
    pub offline: bool,
    pub theme: &'a Theme,
    /// "↑↓ part · ←→ prompt · Enter fold · [ ] turn · Esc close".
    pub keys_line: &'a str,
}

pub use crate::text::thousands;

/// A bar of `cells` cells, filled in proportion `part / whole` (at least
/// one cell for anything above zero).
pub fn bar(part: usize, whole: usize, cells: usize) -> String {
    let filled = if whole == 0 || part == 0 {
        0
    } else {
        ((part * cells).div_ceil(whole)).clamp(1, cells)
    };
    format!("{}{}", "█".repeat(filled), "░".repeat(cells - filled))
}

/// "2.4%".
fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "–".to_string();
    }
    let p = part as f64 * 100.0 / whole as f64;
    if p < 10.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.0}%")
    }
}

/// Wraps `text` to `width` cells keeping each line's leading indentation
/// (JSON, lists), continuation lines hanging under it.
pub fn wrap_indented(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let body = line.trim_start_matches(' ');
        let indent = (line.len() - body.len()).min(width / 2);
        let pad = " ".repeat(indent);
        for l in wrap(body, width.saturating_sub(indent).max(1)) {
            out.push(format!("{pad}{l}"));
        }
    }
    out
}

/// What the response part is called: the decision the pipeline used
/// (parsed from a model's answer, or the offline brain's), or the reply.
pub fn response_label(p: &PromptRecord) -> &'static str {
    match (p.full.node, p.calls.is_empty()) {
        (PromptNode::Reply, _) => "reply",
        (_, true) => "response",
        (_, false) => "decision (parsed)",
    }
}

/// A request's part: "call 2 · repair".
pub fn call_label(i: usize, c: &CallRecord) -> String {
    let attempt = match c.attempt {
        CallAttempt::Answer => "answer",
        CallAttempt::Repair => "repair",
    };
    format!("call {} · {attempt}", i + 1)
}

/// The decision, JSON pretty-printed when it is JSON.
fn response_text(p: &PromptRecord) -> Cow<'_, str> {
    let raw = match &p.response {
        Some(r) => r.as_str(),
        None if !p.calls.is_empty() => "(none: the node failed; its requests are below)",
        None => "(no response recorded)",
    };
    match serde_json::from_str::<serde_json::Value>(raw) {
        Ok(v) if v.is_object() || v.is_array() => serde_json::to_string_pretty(&v)
            .map(Cow::Owned)
            .unwrap_or(Cow::Borrowed(raw)),
        _ => Cow::Borrowed(raw),
    }
}

impl InspectorView<'_> {
    /// The detail of the selected prompt for `width` cells, and the line of
    /// the cursor's part.
    pub fn detail(
        &self,
        label: &str,
        p: &PromptRecord,
        width: usize,
    ) -> (Vec<Line<'static>>, usize) {
        let t = self.theme;
        let st = self.state;
        let total = p.full.total_tokens;
        let window = self.context_window as usize;
        let turn = self.record.map_or(0, |r| r.turn);
        let mut out = vec![Line::styled(format!("{label} · turn {turn}"), t.heading)];
        if self.offline {
            out.extend(wrap_styled(
                "offline: this is the prompt an LLM would have been sent; the offline brain decided by rules, and its decision is the response below",
                width,
                t.accent,
            ));
        }
        let bar_w = (width / 4).clamp(4, 20);
        out.push(Line::from(vec![
            Span::styled(
                format!(
                    "total {} tokens of the {} context window ({}) ",
                    thousands(total),
                    thousands(window),
                    percent(total, window)
                ),
                t.text,
            ),
            Span::styled(bar(total, window, bar_w), t.accent),
        ]));
        if let Some(c) = p.cache() {
            let source = if c.estimated {
                "estimated by alfred's cache model"
            } else {
                "reported by the server"
            };
            out.extend(wrap_styled(
                &format!("prompt cache: {} ({source})", c.describe()),
                width,
                t.dim,
            ));
        }
        out.push(Line::default());
        // The texts are borrowed from the record: a frame copies no prompt.
        let mut parts: Vec<(String, usize, Cow<'_, str>)> = vec![(
            "system".into(),
            p.full.system_tokens,
            Cow::Borrowed(&p.full.system),
        )];
        for s in &p.full.sections {
            parts.push((format!("<{}>", s.name), s.tokens, Cow::Borrowed(&s.text)));
        }
        let response_at = parts.len();
        parts.push((response_label(p).into(), 0, response_text(p)));
        for (i, c) in p.calls.iter().enumerate() {
            parts.push((call_label(i, c), 0, Cow::Owned(c.detail())));
        }
        let name_w = parts
            .iter()
            .map(|(n, _, _)| super::text::width(n))
            .max()
            .unwrap_or(8);
        let name_w = name_w.min(width.saturating_sub(bar_w + 20)).max(6);
        let mut cursor_line = 0;
        for (i, (name, tokens, text)) in parts.iter().enumerate() {
            let open = st.is_open(i);
            let on = i == st.cursor;
            if on {
                cursor_line = out.len();
            }
            let fold = if open { "▾ " } else { "▸ " };
            let call = i.checked_sub(response_at + 1).and_then(|c| p.calls.get(c));
            let size = if let Some(c) = call {
                let end = c.finish_reason.as_deref().unwrap_or("failed");
                format!("{end} · {:.1} s", c.total_ms / 1000.0)
            } else if i >= response_at {
                format!("{} chars", thousands(text.chars().count()))
            } else {
                format!(
                    "{:>7} tok {:>5}",
                    thousands(*tokens),
                    percent(*tokens, total)
                )
            };
            let bar_text = if i >= response_at {
                " ".repeat(bar_w)
            } else {
                bar(*tokens, total, bar_w)
            };
            let head_style = if on {
                t.title.add_modifier(Modifier::REVERSED)
            } else {
                t.heading
            };
            out.push(Line::from(vec![
                Span::styled(fold, t.accent),
                Span::styled(fit(name, name_w), head_style),
                Span::raw(" "),
                Span::styled(bar_text, t.accent),
                Span::styled(format!(" {size}"), t.dim),
            ]));
            if open {
                let body = if text.trim().is_empty() {
                    "(empty)"
                } else {
                    text.as_ref()
                };
                out.extend(
                    wrap_indented(body, width.saturating_sub(2))
                        .into_iter()
                        .map(|l| Line::styled(format!("  {l}"), t.text)),
                );
            }
        }
        (out, cursor_line)
    }

    fn list(&self, record: &TurnRecord, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let w = usize::from(area.width);
        buf.set_string(area.x, area.y, fit("Prompts", w), t.heading);
        for (i, (label, slot)) in slots(record).iter().enumerate() {
            let y = area.y + 1 + i as u16;
            if y >= area.bottom() {
                break;
            }
            let tokens = crate::tui::state::inspector::prompt(record, *slot)
                .map_or(0, |p| p.full.total_tokens);
            let count = thousands(tokens);
            let name_w = w.saturating_sub(4 + width(&count));
            let text = format!(
                "{} {} {count}",
                if i == self.state.selected { "▶" } else { " " },
                fit(label, name_w)
            );
            let style = if i == self.state.selected {
                t.title.add_modifier(Modifier::REVERSED)
            } else {
                t.text
            };
            buf.set_string(area.x, y, truncate(&text, w), style);
        }
    }
}

impl Widget for InspectorView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.width < 30 || area.height < 8 {
            return;
        }
        Clear.render(area, buf);
        let t = self.theme;
        let status = self.record.map_or(String::new(), |r| match &r.error {
            Some(e) => format!(" · failed: {e}"),
            None => String::new(),
        });
        let turn = self.record.map_or(0, |r| r.turn);
        let block = Block::bordered()
            .padding(Padding::horizontal(1))
            .border_style(t.border_focused)
            .title(Line::styled(
                format!(" Prompt inspector · turn {turn}{status} "),
                t.title,
            ))
            .title(Line::styled(" Esc closes ", t.dim).right_aligned())
            .title_bottom(Line::styled(format!(" {} ", self.keys_line), t.accent));
        let inner = block.inner(area);
        block.render(area, buf);
        let Some(record) = self.record else {
            buf.set_string(
                inner.x,
                inner.y,
                "This turn is no longer in the session.",
                t.dim,
            );
            return;
        };
        let list_w = (inner.width / 4).clamp(14, 26);
        let list = Rect {
            width: list_w,
            ..inner
        };
        self.list(record, list, buf);
        for y in inner.y..inner.bottom() {
            buf.set_string(inner.x + list_w, y, "│", t.border);
        }
        let detail = Rect {
            x: inner.x + list_w + 2,
            width: inner.width.saturating_sub(list_w + 2),
            ..inner
        };
        let Some((label, p)) = self.state.current(record) else {
            let text = "No prompts in this turn (it failed before the first one).";
            buf.set_string(
                detail.x,
                detail.y,
                truncate(text, usize::from(detail.width)),
                t.dim,
            );
            return;
        };
        let (lines, cursor) = self.detail(&label, p, usize::from(detail.width));
        let h = usize::from(detail.height);
        let max = lines.len().saturating_sub(h);
        let base = if lines.len() <= h {
            0
        } else {
            cursor.saturating_sub(h / 3)
        };
        let offset = (base as isize + self.state.scroll).clamp(0, max as isize) as usize;
        for (row, line) in lines.iter().skip(offset).take(h).enumerate() {
            buf.set_line(detail.x, detail.y + row as u16, line, detail.width);
        }
    }
}
