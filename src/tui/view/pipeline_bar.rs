//! The pipeline bar: the nodes of the running (or last) turn, with a spinner
//! on the running node, ✓ and times on finished ones, and the totals.
//!
//! `Understand ✓ 3ms → Think ✓ 2ms → Act 2/3 ⠋ → Reply → Summarize   total 14ms · 3.2k tok · ≈62% cached`
//!
//! It fits any width: times go first (per node, then the total), then the
//! token count, then the node names shorten. A failed turn shows its reason and how to retry.
//! A view: reads the bar and the turn state, writes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::text::{render_bar, truncate, width};
use crate::pipeline::Node;
use crate::tui::model::{NodeStatus, PipelineBar, TurnState};
use crate::tui::theme::Theme;

/// Braille spinner frames, indexed by the model's spinner counter.
pub const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// The pipeline bar.
pub struct PipelineBarView<'a> {
    pub bar: &'a PipelineBar,
    pub turn: &'a TurnState,
    pub spinner: usize,
    /// The time to count the running node and the turn up to (`None`: no
    /// live times, as in tests).
    pub now: Option<std::time::Instant>,
    /// The key that retries where the focus is ("r", "Ctrl+R"); `None`:
    /// the bar names no key.
    pub retry_key: Option<&'a str>,
    pub theme: &'a Theme,
}

/// How much detail a rendering carries (from most to least).
#[derive(Clone, Copy)]
struct Detail {
    node_times: bool,
    total_ms: bool,
    tokens: bool,
    short_names: bool,
}

/// Node times go first, then the total time, then the tokens; only then do
/// the node names shorten.
const LEVELS: [Detail; 5] = [
    Detail {
        node_times: true,
        total_ms: true,
        tokens: true,
        short_names: false,
    },
    Detail {
        node_times: false,
        total_ms: true,
        tokens: true,
        short_names: false,
    },
    Detail {
        node_times: false,
        total_ms: false,
        tokens: true,
        short_names: false,
    },
    Detail {
        node_times: false,
        total_ms: false,
        tokens: false,
        short_names: false,
    },
    Detail {
        node_times: false,
        total_ms: false,
        tokens: false,
        short_names: true,
    },
];

impl PipelineBarView<'_> {
    /// The bar's line for `max` cells.
    pub fn line(&self, max: usize) -> Line<'static> {
        if let TurnState::Failed { reason, .. } = self.turn {
            return self.failed(reason, max);
        }
        let mut last = Vec::new();
        for d in LEVELS {
            let spans = self.spans(d);
            if spans.iter().map(|s| width(&s.content)).sum::<usize>() <= max {
                return Line::from(spans);
            }
            last = spans;
        }
        // Even the shortest form is too wide: cut it span by span.
        let mut left = max;
        let mut out = Vec::new();
        for s in last {
            let w = width(&s.content);
            if w <= left {
                left -= w;
                out.push(s);
            } else {
                out.push(Span::styled(truncate(&s.content, left), s.style));
                break;
            }
        }
        Line::from(out)
    }

    fn failed(&self, reason: &str, max: usize) -> Line<'static> {
        let head = "✗ failed: ";
        let tail = self
            .retry_key
            .map(|k| format!(" — press {k} to retry"))
            .unwrap_or_default();
        let tail = tail.as_str();
        let reason = super::text::one_line(reason.trim());
        let room = max.saturating_sub(width(head) + width(tail));
        let text = if room >= 8 {
            format!("{head}{}{tail}", truncate(&reason, room))
        } else {
            truncate(&format!("{head}{reason}{tail}"), max)
        };
        Line::styled(text, self.theme.error)
    }

    fn spans(&self, d: Detail) -> Vec<Span<'static>> {
        let t = self.theme;
        let never_ran = self.bar.nodes.iter().all(|s| *s == NodeStatus::Waiting);
        let mut spans = Vec::new();
        for (i, node) in Node::ALL.iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" → ", t.dim));
            }
            let name = node_name(*node, d.short_names);
            match self.bar.status(*node) {
                NodeStatus::Waiting if never_ran => spans.push(Span::styled(name, t.dim)),
                NodeStatus::Waiting => spans.push(Span::styled(name, t.text)),
                NodeStatus::Skipped => spans.push(Span::styled(name, t.dim)),
                NodeStatus::Running => {
                    let step = match (node, self.bar.act_step) {
                        (Node::Act, Some((i, n))) => format!(" {i}/{n}"),
                        _ => String::new(),
                    };
                    let frame = SPINNER[self.spinner % SPINNER.len()];
                    spans.push(Span::styled(format!("{name}{step} {frame}"), t.accent));
                    if let Some(ms) = self.since(self.bar.node_since)
                        && d.total_ms
                    {
                        spans.push(Span::styled(format!(" {}", ms_text(ms)), t.accent));
                    }
                }
                NodeStatus::Done { ms, .. } => {
                    spans.push(Span::styled(name, t.text));
                    spans.push(Span::styled(" ✓", t.new));
                    if d.node_times {
                        spans.push(Span::styled(format!(" {}", ms_text(ms)), t.dim));
                    }
                }
            }
        }
        let (ms, tokens) = self.totals();
        let mut total = Vec::new();
        if d.total_ms
            && let Some(ms) = ms
        {
            total.push(format!("total {}", ms_text(ms)));
        }
        if d.tokens && tokens > 0 {
            total.push(tokens_text(tokens));
            if let Some(c) = self.bar.cache.filter(|c| c.total > 0) {
                // "≈" when alfred estimated it; the server's own figure is exact.
                let about = if c.estimated { "≈" } else { "" };
                total.push(format!("{about}{:.0}% cached", c.share() * 100.0));
            }
        }
        if d.tokens
            && let Some(cost) = self.bar.cost_usd
        {
            total.push(format!("${cost:.4}"));
        }
        if !total.is_empty() {
            spans.push(Span::styled(format!("   {}", total.join(" · ")), t.dim));
        }
        spans
    }

    /// Milliseconds from `since` to the view's `now`.
    fn since(&self, since: Option<std::time::Instant>) -> Option<f64> {
        let elapsed = self.now?.checked_duration_since(since?)?;
        Some(elapsed.as_secs_f64() * 1000.0)
    }

    /// The turn's time (reported; while it runs, counted up; else the sum
    /// of finished nodes) and tokens.
    fn totals(&self) -> (Option<f64>, u64) {
        let done = self.bar.nodes.iter().filter_map(|s| match s {
            NodeStatus::Done { ms, tokens } => Some((*ms, *tokens)),
            _ => None,
        });
        let (sum_ms, sum_tokens, any) =
            done.fold((0.0, 0, false), |(m, k, _), (ms, t)| (m + ms, k + t, true));
        let ms = (self.bar.total_ms)
            .or(self.since(self.bar.turn_since))
            .or(any.then_some(sum_ms));
        let tokens = if self.bar.total_tokens > 0 {
            self.bar.total_tokens
        } else {
            sum_tokens
        };
        (ms, tokens)
    }
}

fn node_name(node: Node, short: bool) -> String {
    let (long, abbr) = match node {
        Node::Understand => ("Understand", "Und"),
        Node::Think => ("Think", "Thk"),
        Node::Act => ("Act", "Act"),
        Node::Reply => ("Reply", "Rep"),
        Node::Summarize => ("Summarize", "Sum"),
    };
    if short { abbr } else { long }.to_string()
}

/// "3ms", "<1ms", "1.2s".
pub fn ms_text(ms: f64) -> String {
    if !ms.is_finite() || ms < 0.0 {
        "?ms".to_string()
    } else if ms < 1.0 {
        "<1ms".to_string()
    } else if ms < 1000.0 {
        format!("{ms:.0}ms")
    } else {
        format!("{:.1}s", ms / 1000.0)
    }
}

/// "850 tok", "3.2k tok".
pub fn tokens_text(tokens: u64) -> String {
    if tokens < 1000 {
        format!("{tokens} tok")
    } else {
        format!("{:.1}k tok", tokens as f64 / 1000.0)
    }
}

impl Widget for PipelineBarView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        render_bar(area, buf, |max| self.line(max));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_tokens_read_naturally() {
        assert_eq!(ms_text(3.4), "3ms");
        assert_eq!(ms_text(0.2), "<1ms");
        assert_eq!(ms_text(1530.0), "1.5s");
        assert_eq!(tokens_text(850), "850 tok");
        assert_eq!(tokens_text(3210), "3.2k tok");
    }
}
