//! Never writing against the user: each write Act asks for is shown, row
//! by row, to a [`StandingCheck`] before the kitchen runs it, and a row
//! that touches an entity a standing constraint covers — one the message
//! does not name (`context/guarded.rs`) — is held back: not written, with
//! a tool result saying so, so the brain and the rest of the turn know.
//! The same for every brain.
//!
//! A row touches a covered entity when it is that entity (an update or a
//! delete of a ruled-out recipe), when a create or an update points it at
//! one (a meal plan's `recipe_id`, a recipe line's recipe, a task's
//! recipe), or when its notes say it is for one ("for Kerala Cod Curry",
//! as shopping rows made for a recipe say). Deleting a row that merely
//! points at one (taking the cod off Sunday) goes through: it is what
//! the user asked for. Saving a draft that holds a covered entity holds the
//! whole save back and asks first; the draft stays unsaved and intact.
//!
//! This module also words what was held back: the sentence the reply
//! carries, the question a held-back save asks, the narrative's lines.

use crate::context::guarded::{Guarded, Namer};
use crate::context::parse_ref;
use crate::kitchen::{RowWrite, WriteCheck, WriteOp};
use crate::record::HeldBack;

use super::types::Stop;

/// Holds back the rows of a write that touch a guarded entity, and keeps
/// what it held back for the turn record.
pub(crate) struct StandingCheck {
    guarded: Vec<Guarded>,
    /// Covered entities the message named: written, and told.
    named: Vec<Guarded>,
    namer: Namer,
    held: Vec<HeldBack>,
    through: Vec<HeldBack>,
}

impl StandingCheck {
    /// A check against `guarded`, reading notes with `namer`.
    pub(crate) fn new(guarded: Vec<Guarded>, namer: Namer) -> Self {
        Self {
            guarded,
            named: Vec::new(),
            namer,
            held: Vec::new(),
            through: Vec::new(),
        }
    }

    /// Also notes the rows that touch `named`, covered entities the
    /// message named: they are written, and the reply says what rule they
    /// went past.
    pub(crate) fn with_named(mut self, named: Vec<Guarded>) -> Self {
        self.named = named;
        self
    }

    /// What it held back, one entry per row and covered entity, and what
    /// it let through because the message named it.
    pub(crate) fn into_parts(self) -> (Vec<HeldBack>, Vec<HeldBack>) {
        (self.held, self.through)
    }

    /// The guarded entities a row touches.
    fn touched(&self, row: &RowWrite) -> Vec<&Guarded> {
        self.touching(&self.guarded, row)
    }

    /// The entities of `of` a row touches.
    fn touching<'g>(&self, of: &'g [Guarded], row: &RowWrite) -> Vec<&'g Guarded> {
        of.iter()
            .filter(|g| {
                let is_it =
                    row.r#ref.as_deref() == Some(g.r#ref.as_str()) && row.op != WriteOp::Create;
                let points_at = row.op != WriteOp::Delete
                    && (row.links.contains(&g.r#ref)
                        || (row.notes.iter()).any(|n| self.namer.mentions(n, g.table, &g.label)));
                is_it || points_at
            })
            .collect()
    }
}

impl WriteCheck for StandingCheck {
    fn check(&mut self, rows: &[RowWrite]) -> Vec<Option<String>> {
        let mut verdicts: Vec<Option<String>> = vec![None; rows.len()];
        let mut draft_held = false;
        for (i, row) in rows.iter().enumerate() {
            let named: Vec<Guarded> = self
                .touching(&self.named, row)
                .into_iter()
                .cloned()
                .collect();
            self.through
                .extend(named.into_iter().map(|g| held_back(row, g, None)));
            let touched: Vec<Guarded> = self.touched(row).into_iter().cloned().collect();
            if touched.is_empty() {
                continue;
            }
            let draft = row.r#ref.clone().filter(|r| is_draft(r));
            draft_held |= draft.is_some();
            let reasons: Vec<String> = touched
                .iter()
                .map(|g| {
                    format!(
                        "{} is ruled out by the user's standing constraint “{}” ({})",
                        g.label, g.clause, g.constraint
                    )
                })
                .collect();
            let name = if row.label.is_empty() {
                row.table.name().to_string()
            } else {
                row.label.clone()
            };
            verdicts[i] = Some(format!("{name}: {}", reasons.join("; ")));
            self.held.extend(
                touched
                    .into_iter()
                    .map(|g| held_back(row, g, draft.clone())),
            );
        }
        // A draft is saved whole or not at all: the save waits for the
        // user's answer.
        if draft_held {
            for (v, row) in verdicts.iter_mut().zip(rows).filter(|(v, _)| v.is_none()) {
                *v = Some(format!("{}: waits with the rest of the save", row.label));
            }
        }
        verdicts
    }
}

/// The row's write as it touches `g`.
fn held_back(row: &RowWrite, g: Guarded, draft: Option<String>) -> HeldBack {
    HeldBack {
        table: row.table.name().to_string(),
        op: row.op.as_str().to_string(),
        row_label: row.label.clone(),
        covered: g.r#ref,
        covered_label: g.label,
        constraint: g.constraint,
        constraint_label: g.constraint_label,
        clause: g.clause,
        draft,
        date: row.date.clone(),
    }
}

/// What the reply says of writes made past a rule because the message
/// named what they touch: "Putting Kerala Cod Curry on Wednesday went
/// ahead though you said “no fish this week”: you named it."
pub(crate) fn passed(through: &[HeldBack]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for h in through.iter().filter(|h| h.op != "delete") {
        let a = action(h);
        let mut chars = a.chars();
        let a: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        let line = format!(
            "{a} went ahead though you said “{}”: you named it.",
            h.clause
        );
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

/// True for a draft's ref (`gen_…`).
fn is_draft(r: &str) -> bool {
    parse_ref(r).is_some_and(|p| p.generated)
}

/// What the reply says about what was held back: one sentence per
/// constraint for writes ("I held back putting Miso Glazed Air Fryer Cod on
/// Sunday: you said “no fish this week”. Say so if you want it anyway."),
/// and the question a held-back save of a draft asks.
pub(crate) fn notice(held: &[HeldBack]) -> Vec<String> {
    let mut out = Vec::new();
    let (drafts, writes): (Vec<&HeldBack>, Vec<&HeldBack>) =
        held.iter().partition(|h| h.draft.is_some());
    if let Some(q) = draft_question(&drafts) {
        out.push(q);
    }
    let mut clauses: Vec<&str> = writes.iter().map(|h| h.clause.as_str()).collect();
    clauses.dedup();
    let mut said: Vec<&str> = Vec::new();
    for clause in clauses {
        if said.contains(&clause) {
            continue;
        }
        said.push(clause);
        let mine: Vec<&&HeldBack> = writes.iter().filter(|h| h.clause == clause).collect();
        let mut actions: Vec<String> = Vec::new();
        let mut covered: Vec<&str> = Vec::new();
        for h in &mine {
            let a = action(h);
            if !actions.contains(&a) {
                actions.push(a);
            }
            if !covered.contains(&h.covered.as_str()) {
                covered.push(&h.covered);
            }
        }
        let it = if covered.len() == 1 { "it" } else { "them" };
        out.push(format!(
            "I held back {}: you said “{clause}”. Say so if you want {it} anyway.",
            join_list(&actions, "and")
        ));
    }
    out
}

/// "The plan draft holds Miso Glazed Air Fryer Cod, which you ruled out
/// (“no fish this week”). Save it without that, or with it anyway?"
fn draft_question(drafts: &[&HeldBack]) -> Option<String> {
    let first = drafts.first()?;
    let mut labels: Vec<String> = Vec::new();
    let mut clauses: Vec<String> = Vec::new();
    for h in drafts {
        if !labels.contains(&h.covered_label) {
            labels.push(h.covered_label.clone());
        }
        let quoted = format!("“{}”", h.clause);
        if !clauses.contains(&quoted) {
            clauses.push(quoted);
        }
    }
    let kind = match first.table.as_str() {
        "meal_plans" => "plan".to_string(),
        "recipes" => "recipe".to_string(),
        other => other.replace('_', " "),
    };
    let that = if labels.len() == 1 { "that" } else { "those" };
    Some(format!(
        "The {kind} draft holds {}, which you ruled out ({}). Save it without {that}, or with it anyway?",
        join_list(&labels, "and"),
        clauses.join(", ")
    ))
}

/// One held-back write in words: "putting Miso Glazed Air Fryer Cod on
/// Sunday", "adding sesame seeds for Miso Glazed Air Fryer Cod to the
/// shopping list".
fn action(h: &HeldBack) -> String {
    let covered = &h.covered_label;
    let row = if h.row_label.is_empty() {
        "a row"
    } else {
        h.row_label.as_str()
    };
    let is_it = h.row_label == h.covered_label;
    match (h.table.as_str(), h.op.as_str()) {
        (_, "delete") => format!("deleting {covered}"),
        (_, "update") if is_it => format!("changing {covered}"),
        ("meal_plans", _) => match h.date.as_deref().and_then(weekday) {
            Some(day) => format!("putting {covered} on {day}"),
            None => format!("putting {covered} on the meal plan"),
        },
        ("shopping_list", _) => format!("adding {row} for {covered} to the shopping list"),
        ("recipe_ingredients", _) => format!("adding {row} to {covered}"),
        ("tasks", _) => format!("the task “{row}” for {covered}"),
        (_, "update") => format!("changing {row} to use {covered}"),
        _ => format!("saving {row} with {covered}"),
    }
}

/// "a, b and c".
fn join_list(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., tail] => format!("{} {last} {tail}", init.join(", ")),
    }
}

/// "Sunday" for `2026-01-18`.
fn weekday(date: &str) -> Option<String> {
    let d: jiff::civil::Date = date.parse().ok()?;
    Some(d.strftime("%A").to_string())
}

/// How a step that stopped on a held-back write ends: a held-back save of
/// a draft asks the user; any other holds the step with the sentence.
pub(crate) fn stop_for(held: &[HeldBack]) -> Option<Stop> {
    let drafts: Vec<&HeldBack> = held.iter().filter(|h| h.draft.is_some()).collect();
    if let Some(q) = draft_question(&drafts) {
        return Some(Stop::AskUser(q));
    }
    notice(held).into_iter().next().map(Stop::Blocked)
}

/// The sentences of [`notice`] the reply does not carry yet, to add to it.
pub(crate) fn missing_from(reply: &str, held: &[HeldBack]) -> Vec<String> {
    let said = reply.to_lowercase();
    notice(held)
        .into_iter()
        .filter(|s| !said.contains(&s.to_lowercase()))
        .collect()
}

/// The turn narrative's lines: "held back putting Miso Glazed Air Fryer
/// Cod on Sunday (“no fish this week”)".
pub(crate) fn narrative_lines(held: &[HeldBack]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for h in held {
        let line = match &h.draft {
            Some(d) => format!(
                "held back saving {d}, which holds {} (“{}”)",
                h.covered_label, h.clause
            ),
            None => format!("held back {} (“{}”)", action(h), h.clause),
        };
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Table;

    fn guarded() -> Vec<Guarded> {
        [
            "recipe_1:Kerala Cod Curry",
            "recipe_2:Miso Glazed Air Fryer Cod",
        ]
        .iter()
        .filter_map(|s| s.split_once(':'))
        .map(|(r, label)| Guarded {
            r#ref: r.to_string(),
            label: label.to_string(),
            table: Table::Recipes,
            constraint: "c1".into(),
            constraint_label: "no fish".into(),
            clause: "no fish this week".into(),
        })
        .collect()
    }

    fn row(table: Table, op: WriteOp, own: Option<&str>, label: &str) -> RowWrite {
        RowWrite {
            table,
            op,
            r#ref: own.map(str::to_string),
            label: label.to_string(),
            links: Vec::new(),
            notes: Vec::new(),
            date: None,
        }
    }

    #[test]
    fn rows_touching_a_covered_entity_are_held_and_the_others_written() {
        let mut check = StandingCheck::new(guarded(), Namer::default());
        let mut plan = row(
            Table::MealPlans,
            WriteOp::Create,
            None,
            "Sun Jan 18 [dinner]",
        );
        plan.links = vec!["recipe_2".into()];
        plan.date = Some("2026-01-18".into());
        let mut seeds = row(Table::ShoppingList, WriteOp::Create, None, "green chili");
        seeds.notes = vec!["for Kerala Cod Curry".into()];
        let chaat = row(Table::ShoppingList, WriteOp::Create, None, "chaat masala");
        let mut off = row(Table::MealPlans, WriteOp::Delete, Some("meal_1"), "Sun");
        off.links = vec!["recipe_2".into()];
        let gone = row(
            Table::Recipes,
            WriteOp::Delete,
            Some("recipe_1"),
            "Kerala Cod Curry",
        );
        let verdicts = check.check(&[plan, seeds, chaat, off, gone]);
        let held: Vec<bool> = verdicts.iter().map(Option::is_some).collect();
        assert_eq!(held, [true, true, false, false, true]);
        assert!(
            verdicts[0]
                .as_deref()
                .is_some_and(|v| v.contains("“no fish this week”")),
            "{verdicts:?}"
        );
        let held = check.into_parts().0;
        assert_eq!(held.len(), 3);
        assert_eq!(
            notice(&held),
            [
                "I held back putting Miso Glazed Air Fryer Cod on Sunday, adding green chili for \
              Kerala Cod Curry to the shopping list and deleting Kerala Cod Curry: you said “no \
              fish this week”. Say so if you want them anyway."
            ]
        );
        assert!(matches!(stop_for(&held), Some(Stop::Blocked(s)) if s.starts_with("I held back")));
    }

    #[test]
    fn a_held_save_of_a_draft_holds_the_whole_save_and_asks() {
        let mut check = StandingCheck::new(guarded(), Namer::default());
        let mut cod = row(Table::MealPlans, WriteOp::Create, Some("gen_meal_1"), "Sun");
        cod.links = vec!["recipe_2".into()];
        let paneer = row(Table::MealPlans, WriteOp::Create, Some("gen_meal_2"), "Wed");
        let verdicts = check.check(&[cod, paneer]);
        assert!(verdicts.iter().all(Option::is_some), "{verdicts:?}");
        let held = check.into_parts().0;
        assert_eq!(held.len(), 1);
        assert_eq!(held[0].draft.as_deref(), Some("gen_meal_1"));
        let q = "The plan draft holds Miso Glazed Air Fryer Cod, which you ruled out (“no fish \
                 this week”). Save it without that, or with it anyway?";
        assert_eq!(notice(&held), [q]);
        assert_eq!(stop_for(&held), Some(Stop::AskUser(q.to_string())));
        assert!(missing_from(&format!("Quick check — {}", q.to_lowercase()), &held).is_empty());
        assert_eq!(missing_from("Done.", &held), [q]);
        assert_eq!(
            narrative_lines(&held),
            [
                "held back saving gen_meal_1, which holds Miso Glazed Air Fryer Cod (“no fish this week”)"
            ]
        );
    }
}
