//! The Entities panel's **Standing** section: each standing constraint in
//! force — its short name, the turn it was said, the entities it rules out
//! now — with the user's clause under it, and any lifted this turn.
//!
//! A view: it reads the snapshot and writes nothing.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::text::{one_line, wrap_hanging};
use crate::context::{ConstraintStatus, ConstraintView, ContextSnapshot, EntityState};
use crate::tui::theme::Theme;

/// Indent of a constraint's lines under the section title.
const INDENT: usize = 2;

/// The section's lines (none when no constraint stands or was lifted).
pub fn standing_lines(s: &ContextSnapshot, width_: usize, t: &Theme) -> Vec<Line<'static>> {
    if s.constraints.is_empty() {
        return Vec::new();
    }
    let active = s
        .constraints
        .iter()
        .filter(|c| c.status == ConstraintStatus::Active)
        .count();
    let style = t.state(EntityState::Excluded).add_modifier(Modifier::BOLD);
    // Those lifted this turn are listed too: counted apart, so the number
    // matches the rows.
    let lifted = s.constraints.len() - active;
    let title = if lifted > 0 {
        format!("Standing ({active} · {lifted} lifted)")
    } else {
        format!("Standing ({active})")
    };
    let mut out = vec![Line::default(), Line::styled(title, style)];
    for c in &s.constraints {
        out.extend(constraint_lines(s, c, width_, t));
    }
    out
}

/// "no cod · t2 → Kerala Cod Curry, …" then the clause in the user's words.
fn constraint_lines(
    s: &ContextSnapshot,
    c: &ConstraintView,
    width_: usize,
    t: &Theme,
) -> Vec<Line<'static>> {
    let avail = width_.saturating_sub(INDENT);
    let lifted = c.status == ConstraintStatus::Lifted;
    let head = if lifted {
        format!(
            "{} · t{} — lifted: {}",
            c.label,
            c.since_turn,
            c.lifted_by.as_deref().unwrap_or("by the user")
        )
    } else if c.covers.is_empty() {
        format!("{} · t{} → nothing loaded yet", c.label, c.since_turn)
    } else {
        let labels: Vec<String> = c
            .covers
            .iter()
            .map(|r| match s.entities.find(r) {
                Some((_, e)) => one_line(&e.label),
                None => r.clone(),
            })
            .collect();
        format!("{} · t{} → {}", c.label, c.since_turn, labels.join(", "))
    };
    let head_style = if lifted { t.dim } else { t.text };
    let mut out: Vec<Line<'static>> = Vec::new();
    for (i, l) in wrap_hanging(&one_line(&head), avail, avail.saturating_sub(2))
        .into_iter()
        .enumerate()
    {
        let pad = " ".repeat(if i == 0 { INDENT } else { INDENT + 2 });
        if i == 0 && !lifted && l.len() >= c.label.len() && l.starts_with(&c.label) {
            let (name, rest) = l.split_at(c.label.len());
            out.push(Line::from(vec![
                Span::raw(pad),
                Span::styled(name.to_string(), t.state(EntityState::Excluded)),
                Span::styled(rest.to_string(), head_style),
            ]));
        } else {
            out.push(Line::from(vec![
                Span::raw(pad),
                Span::styled(l, head_style),
            ]));
        }
    }
    let quote = format!("“{}”", one_line(&c.clause));
    let italic = t.dim.add_modifier(Modifier::ITALIC);
    for l in wrap_hanging(&quote, avail.saturating_sub(2), avail.saturating_sub(2)) {
        out.push(Line::from(vec![
            Span::raw(" ".repeat(INDENT + 2)),
            Span::styled(l, italic),
        ]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::Conversation;
    use crate::tui::view::test_support::text_of;

    fn title(s: &ContextSnapshot) -> String {
        standing_lines(s, 80, &Theme::dark())
            .get(1)
            .map(text_of)
            .unwrap_or_default()
    }

    #[test]
    fn the_count_says_how_many_stand_and_how_many_were_lifted() {
        let mut sim = Conversation::new();
        sim.say("can you help me plan some meals?");
        sim.say("no cod this week");
        sim.say("and no wings");
        assert_eq!(title(&sim.last().snapshot()), "Standing (2)");
        sim.say("actually cod is fine again");
        let snap = sim.last().snapshot();
        let lifted = snap
            .constraints
            .iter()
            .filter(|c| c.status == ConstraintStatus::Lifted)
            .count();
        assert_eq!(lifted, 1, "{:?}", snap.constraints);
        assert_eq!(title(&snap), "Standing (1 · 1 lifted)");
    }
}
