//! `standing_constraints`: what the user ruled out or asked for, in their
//! words, with what each covers now — its own section of the Understand,
//! Think, Act and Reply prompts, outside every window and fold.
//!
//! Understand also sees each constraint's id, to lift it when the user
//! takes it back. Pure text; the section escapes it.

use crate::context::snapshot::ContextSnapshot;
use crate::context::{ConstraintStatus, ConstraintView};

/// Covered refs listed by name before the rest are counted.
const NAMED_COVERS: usize = 8;

/// Who reads the section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// The memory manager: ids and how to lift.
    Understand,
    /// Think, Act and Reply: what is ruled out.
    Planner,
}

/// The body of `standing_constraints`.
pub fn render_standing(s: &ContextSnapshot, reader: Reader) -> String {
    if s.constraints.is_empty() {
        return "None: the user has not ruled anything out.".to_string();
    }
    let mut out = vec!["## In force until the user lifts them (their words, verbatim)".to_string()];
    for c in &s.constraints {
        out.push(constraint_line(s, c, reader));
    }
    out.push(String::new());
    out.push(match reader {
        Reader::Understand => {
            "A new one the user states goes in constraints.add; one they take back (\"actually cod is fine\") goes in constraints.lift with its id and their words; one entity brought back while the rest stays ruled out goes in constraints.except. Do not demote what a constraint already covers."
                .to_string()
        }
        Reader::Planner => {
            "Never propose, plan or use what they rule out; a recipe loaded later that matches is ruled out too."
                .to_string()
        }
    });
    out.join("\n")
}

fn constraint_line(s: &ContextSnapshot, c: &ConstraintView, reader: Reader) -> String {
    let id = match reader {
        Reader::Understand => format!("{} ", c.id),
        Reader::Planner => String::new(),
    };
    let head = format!(
        "- {id}{} — \"{}\" (turn {})",
        c.label, c.clause, c.since_turn
    );
    if c.status == ConstraintStatus::Lifted {
        let by = c.lifted_by.as_deref().unwrap_or("lifted");
        return format!("{head}: lifted this turn ({by})");
    }
    if c.covers.is_empty() {
        return format!("{head} → covers nothing loaded yet");
    }
    let named: Vec<String> = c
        .covers
        .iter()
        .take(NAMED_COVERS)
        .map(|r| match s.entities.find(r) {
            Some((_, e)) => format!("{r} {}", e.label),
            None => r.clone(),
        })
        .collect();
    let more = c.covers.len().saturating_sub(NAMED_COVERS);
    let tail = if more > 0 {
        format!(", and {more} more")
    } else {
        String::new()
    };
    format!("{head} → rules out {}{tail}", named.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::{ConstraintMatch, Rule};

    fn view(id: &str, covers: &[&str], status: ConstraintStatus) -> ConstraintView {
        ConstraintView {
            id: id.into(),
            clause: "skip anything with cod please".into(),
            since_turn: 2,
            rule: Rule::Exclude,
            matches: ConstraintMatch::Ingredient { name: "cod".into() },
            label: "no cod".into(),
            covers: covers.iter().map(|r| r.to_string()).collect(),
            except: Vec::new(),
            status,
            lifted_by: (status == ConstraintStatus::Lifted)
                .then(|| "actually cod is fine".to_string()),
        }
    }

    #[test]
    fn constraints_read_in_the_users_words_with_what_they_cover() {
        let mut s = ContextSnapshot::default();
        assert!(render_standing(&s, Reader::Planner).starts_with("None"));
        s.constraints = vec![view(
            "c1",
            &["recipe_1", "recipe_7"],
            ConstraintStatus::Active,
        )];
        let text = render_standing(&s, Reader::Planner);
        assert!(
            text.contains("- no cod — \"skip anything with cod please\" (turn 2) → rules out recipe_1, recipe_7"),
            "{text}"
        );
        assert!(!text.contains("c1"));
        let text = render_standing(&s, Reader::Understand);
        assert!(text.contains("- c1 no cod"), "{text}");
        assert!(text.contains("constraints.lift"));
        s.constraints = vec![view("c1", &[], ConstraintStatus::Lifted)];
        let text = render_standing(&s, Reader::Planner);
        assert!(
            text.contains("lifted this turn (actually cod is fine)"),
            "{text}"
        );
    }
}
