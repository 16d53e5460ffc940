//! The Narrative panel: layer 2, what happened each turn and why.
//!
//! The turns kept in full, newest first — what was asked, the steps and their
//! outcomes, Understand's curation, the result — then the compressed
//! earlier narrative. While a turn runs, a "Turn N · running" block on top
//! fills as its nodes and steps finish. A view: it reads the
//! `NarrativeView` and the running turn, writes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::text::{ScrolledPanel, labeled, without_strong, wrap_styled};
use crate::context::TurnExecutionSummary;
use crate::context::snapshot::NarrativeView;
use crate::tui::running::RunningTurn;
use crate::tui::theme::Theme;

/// The Narrative panel.
pub struct NarrativePanel<'a> {
    pub narrative: &'a NarrativeView,
    /// The turn running now (live view only).
    pub running: Option<&'a RunningTurn>,
    /// Lines scrolled from the top.
    pub scroll: usize,
    pub focused: bool,
    pub theme: &'a Theme,
}

impl NarrativePanel<'_> {
    /// The panel's content laid out for `width` cells.
    pub fn lines(&self, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let n = self.narrative;
        let mut out = Vec::new();
        if let Some(r) = self.running {
            out.extend(self.running_lines(r, width));
            out.push(Line::default());
        }
        if n.turns.is_empty() && n.earlier.trim().is_empty() && out.is_empty() {
            return wrap_styled(
                "Nothing yet — the narrative of each turn appears here.",
                width,
                t.dim,
            );
        }
        for turn in n.turns.iter().rev() {
            out.extend(self.turn_lines(turn, width));
            out.push(Line::default());
        }
        if !n.earlier.trim().is_empty() {
            out.push(Line::styled("Earlier (compressed)", t.heading));
            out.extend(wrap_styled(n.earlier.trim(), width, t.dim));
        } else if !out.is_empty() {
            out.pop();
        }
        out
    }

    /// "Turn 4 · running": what is known so far; steps still to run are
    /// marked waiting, the running one running.
    fn running_lines(&self, r: &RunningTurn, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let s = &r.summary;
        let mut out = vec![Line::styled(
            format!("Turn {} · running", s.turn_number),
            t.heading.add_modifier(Modifier::ITALIC),
        )];
        let label = |text: &str| Span::styled(text.to_string(), t.dim);
        let field = |out: &mut Vec<Line<'static>>, name: &str, text: &str, style: Style| {
            if !text.trim().is_empty() {
                out.extend(labeled(label(name), text.trim(), style, width, 2));
            }
        };
        field(
            &mut out,
            "asked: ",
            &format!("“{}”", s.user_message.trim()),
            t.user.remove_modifier(Modifier::BOLD),
        );
        field(&mut out, "expressed: ", &s.what_user_expressed, t.text);
        field(
            &mut out,
            "curation: ",
            s.curation_summary.as_deref().unwrap_or(""),
            t.accent,
        );
        field(&mut out, "standing: ", &s.standing.join("; "), t.accent);
        field(&mut out, "goal: ", &s.goal, t.text);
        for (i, step) in s.steps.iter().enumerate() {
            let number = format!("{:>2}. ", i + 1);
            let indent = super::text::width(&number);
            let text = if !step.outcome.trim().is_empty() {
                step_text(step)
            } else if r.step == Some(i) {
                format!(
                    "{} {}: {} … running",
                    step.kind(),
                    step.subdomain,
                    step.description.trim()
                )
            } else {
                format!(
                    "{} {}: {} (waiting)",
                    step.kind(),
                    step.subdomain,
                    step.description.trim()
                )
            };
            out.extend(labeled(label(&number), &text, t.text, width, indent));
        }
        field(
            &mut out,
            "result: ",
            &without_strong(&s.response_summary),
            t.alfred.remove_modifier(Modifier::BOLD),
        );
        out
    }

    fn turn_lines(&self, s: &TurnExecutionSummary, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let label = |text: &str| Span::styled(text.to_string(), t.dim);
        let field = |out: &mut Vec<Line<'static>>, name: &str, text: &str, style: Style| {
            if !text.trim().is_empty() {
                out.extend(labeled(label(name), text.trim(), style, width, 2));
            }
        };
        let mut out = vec![Line::styled(
            format!("Turn {} · {}", s.turn_number, s.conversation_phase.as_str()),
            t.heading,
        )];
        let asked = format!("“{}”", s.user_message.trim());
        field(
            &mut out,
            "asked: ",
            &asked,
            t.user.remove_modifier(Modifier::BOLD),
        );
        field(&mut out, "goal: ", &s.goal, t.text);
        for (i, step) in s.steps.iter().enumerate() {
            let number = format!("{:>2}. ", i + 1);
            let indent = super::text::width(&number);
            out.extend(labeled(
                label(&number),
                &step_text(step),
                t.text,
                width,
                indent,
            ));
            if let Some(note) = step.note.as_deref().filter(|n| !n.trim().is_empty()) {
                let pad = Span::styled(format!("{}note: ", " ".repeat(indent)), t.dim);
                out.extend(labeled(pad, note.trim(), t.dim, width, indent + 2));
            }
        }
        field(&mut out, "curation: ", &curation(s), t.accent);
        field(&mut out, "standing: ", &s.standing.join("; "), t.accent);
        if let Some(c) = &s.analysis_conclusions {
            field(&mut out, "concluded: ", c, t.text);
        }
        if let Some(b) = &s.blocked_reason {
            field(&mut out, "blocked: ", b, t.error);
        }
        field(
            &mut out,
            "result: ",
            &without_strong(&s.response_summary),
            t.alfred.remove_modifier(Modifier::BOLD),
        );
        field(&mut out, "next: ", &s.natural_next, t.dim);
        for (name, text) in s.dialogue.lines() {
            field(&mut out, &format!("{name}: "), &text, t.accent);
        }
        out
    }
}

/// "read recipes → Found 9 recipes".
fn step_text(step: &crate::context::StepExecutionSummary) -> String {
    let kind = [step.kind(), step.subdomain.trim()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let what = if kind.is_empty() {
        step.description.trim()
    } else {
        kind.as_str()
    };
    match step.outcome.trim() {
        "" if kind.is_empty() => what.to_string(),
        "" => format!("{what}: {}", step.description.trim()),
        outcome => format!("{what} → {outcome}"),
    }
}

/// Understand's curation in one line: its summary, else the refs it moved.
fn curation(s: &TurnExecutionSummary) -> String {
    if let Some(c) = s
        .curation_summary
        .as_deref()
        .filter(|c| !c.trim().is_empty())
    {
        return c.to_string();
    }
    let mut parts = Vec::new();
    if !s.demoted_refs.is_empty() {
        parts.push(format!("demoted {}", s.demoted_refs.join(", ")));
    }
    if !s.retained_refs.is_empty() {
        parts.push(format!("retained {}", s.retained_refs.join(", ")));
    }
    parts.join("; ")
}

impl Widget for NarrativePanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self.lines(ScrolledPanel::inner_width(area));
        let n = self.narrative.turns.len();
        let mut parts = Vec::new();
        match n {
            0 => {}
            1 => parts.push("1 turn".to_string()),
            n => parts.push(format!("{n} turns")),
        }
        // Turns before the first kept in full are in the compressed
        // summary: counted, so the header does not read as the whole story.
        if !self.narrative.earlier.trim().is_empty() {
            let folded = self
                .narrative
                .turns
                .first()
                .map_or(0, |t| t.turn_number.saturating_sub(1));
            parts.push(match folded {
                0 => "earlier folded".to_string(),
                n => format!("{n} folded"),
            });
        }
        let title = if parts.is_empty() {
            " Narrative ".to_string()
        } else {
            format!(" Narrative · {} ", parts.join(" · "))
        };
        ScrolledPanel {
            title: Line::from(title),
            lines,
            scroll: self.scroll,
            focused: self.focused,
            theme: self.theme,
        }
        .render(area, buf);
    }
}
