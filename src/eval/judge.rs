//! The judge (seeds/002): it reads the raw log — every message and every
//! turn record of the run — for the user's standing commitments, then checks
//! each turn's Think prompt, which the policy pruned, for each commitment
//! still standing. A commitment Think was not shown is a lapse of recall.
//!
//! Commitments, rule-based:
//! - **exclusion** — the user ruled something out: a standing constraint
//!   was stated ("no cod this week"; it stands until the record shows it
//!   lifted, or the user starts over), or Understand demoted entities at
//!   the user's word (it stands until the user uses one of them again,
//!   drops them, or starts over). Think has it when an excluded ref is
//!   listed as excluded, or a line of its prompt names the excluded thing
//!   beside a negation, or quotes the user's words.
//! - **goal** — Think proposed, or generated a draft; it stands until a
//!   recipe or a meal plan is saved, or the user starts over. Think has it
//!   when its prompt states the goal.
//! - **pending save** — a generated draft nobody saved yet; it stands while
//!   it is pending. Think has it when the draft's ref is active.

use crate::turn::StepType;
use std::collections::BTreeSet;

use serde::Serialize;

use crate::prompt::Prompt;
use crate::record::TurnRecord;

use super::measure::{active_refs, words};
use super::run::Observation;

/// What kind of promise the conversation made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Exclusion,
    Goal,
    PendingSave,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Exclusion => "exclusion",
            Kind::Goal => "goal",
            Kind::PendingSave => "pending save",
        }
    }
}

/// One standing commitment found in the raw log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Commitment {
    pub kind: Kind,
    /// The turn that made it.
    pub made: u32,
    /// The last turn it is checked at, once it has ended.
    pub ended: Option<u32>,
    /// In words, for reports and for an LLM judge.
    pub what: String,
    /// The entities it is about.
    pub refs: Vec<String>,
    /// Words that name it (exclusions: "cod"; goals: the goal itself).
    pub terms: Vec<String>,
    /// The user's own words, for exclusions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// The standing constraint it comes from, when it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constraint: Option<String>,
}

impl Commitment {
    /// True when the commitment stands at `turn`: made before it and not
    /// ended before it.
    pub fn stands_at(&self, turn: u32) -> bool {
        turn > self.made && self.ended.is_none_or(|e| turn <= e)
    }
}

/// Saving one of these ends the goals standing.
const ARTIFACTS: [&str; 2] = ["recipes", "meal_plans"];

fn starts_over(o: &Observation) -> bool {
    o.understand.entity_curation.clear_all
}

/// The commitments of a run, read from its raw log.
pub fn commitments(turns: &[Observation]) -> Vec<Commitment> {
    let mut out: Vec<Commitment> = Vec::new();
    for (i, o) in turns.iter().enumerate() {
        let r = &o.record;
        let t = r.turn;
        let open = |c: &Commitment| c.ended.is_none() && c.made < t;
        // Endings first: what this turn does closes commitments made before it.
        if starts_over(o) {
            for c in out.iter_mut().filter(|c| open(c)) {
                c.ended = Some(t - 1);
            }
        }
        let saved_artifact = r.steps.iter().any(|s| {
            StepType::from_word(&s.step_type) == Some(StepType::Write)
                && ARTIFACTS.contains(&s.subdomain.as_str())
                && s.tool_calls.iter().all(|c| c.error.is_none())
        });
        let positive: BTreeSet<&String> = o
            .understand
            .referenced_entities
            .iter()
            .chain(
                r.steps
                    .iter()
                    .filter(|s| s.step_type != "read")
                    .flat_map(|s| &s.entities_affected),
            )
            .collect();
        let dropped: BTreeSet<&String> = r.entities.dropped.iter().collect();
        let redemoted: BTreeSet<&str> = o
            .understand
            .entity_curation
            .demote
            .iter()
            .map(|d| d.r#ref.as_str())
            .collect();
        let pending_now: BTreeSet<&str> = r
            .entities
            .pending
            .iter()
            .map(|v| v.r#ref.as_str())
            .collect();
        let lifted = &r.constraint_changes.lifted;
        for c in out.iter_mut().filter(|c| open(c)) {
            // Some(t): Think needs it once more, to finish it (a save);
            // Some(t - 1): this turn's message undid it.
            if let Some(id) = &c.constraint {
                c.ended = lifted.contains(id).then(|| t - 1);
                continue;
            }
            c.ended = match c.kind {
                // Used again, and not excluded again (an analysis that rules
                // rows out lists them too).
                Kind::Exclusion => c
                    .refs
                    .iter()
                    .any(|x| {
                        dropped.contains(x)
                            || (positive.contains(x)
                                && !redemoted.contains(x.as_str())
                                && !r.entities.excluded.iter().any(|v| &v.r#ref == x))
                    })
                    .then(|| t - 1),
                Kind::Goal => saved_artifact.then_some(t),
                Kind::PendingSave => {
                    let gone = c.refs.iter().all(|x| !pending_now.contains(x.as_str()));
                    let discarded = c.refs.iter().any(|x| dropped.contains(x));
                    gone.then(|| if discarded { t - 1 } else { t })
                }
            };
        }
        // Then what this turn commits to.
        for id in &r.constraint_changes.added {
            if let Some(v) = r.constraints.iter().find(|v| &v.id == id) {
                out.push(standing(o, v));
            }
        }
        let demoted: Vec<&str> = o
            .understand
            .entity_curation
            .demote
            .iter()
            .map(|d| d.r#ref.as_str())
            .filter(|x| {
                !out.iter().any(|c| {
                    c.kind == Kind::Exclusion && c.ended.is_none() && c.refs.iter().any(|y| y == x)
                })
            })
            .collect();
        if !demoted.is_empty() {
            out.push(exclusion(&turns[..=i], &demoted));
        }
        let proposes = r.decision == Some(crate::pipeline::Decision::Propose);
        let drafts = r
            .steps
            .iter()
            .any(|s| StepType::from_word(&s.step_type) == Some(StepType::Generate));
        let goal = r.goal.trim();
        if (proposes || drafts)
            && !goal.is_empty()
            && !out.iter().any(|c| {
                c.kind == Kind::Goal && c.ended.is_none() && c.terms[0].eq_ignore_ascii_case(goal)
            })
        {
            out.push(Commitment {
                kind: Kind::Goal,
                made: t,
                ended: None,
                what: format!("goal: {goal}"),
                refs: Vec::new(),
                terms: vec![goal.to_string()],
                quote: None,
                constraint: None,
            });
        }
        let before: BTreeSet<String> = i
            .checked_sub(1)
            .map(|p| {
                turns[p]
                    .record
                    .entities
                    .pending
                    .iter()
                    .map(|v| v.r#ref.clone())
                    .collect()
            })
            .unwrap_or_default();
        let new_pending: Vec<&crate::context::EntityView> = r
            .entities
            .pending
            .iter()
            .filter(|v| !before.contains(&v.r#ref))
            .collect();
        if !new_pending.is_empty() {
            let labels: Vec<&str> = new_pending.iter().map(|v| v.label.as_str()).collect();
            out.push(Commitment {
                kind: Kind::PendingSave,
                made: t,
                ended: None,
                what: format!("unsaved: {}", labels.join(", ")),
                refs: new_pending.iter().map(|v| v.r#ref.clone()).collect(),
                terms: Vec::new(),
                quote: None,
                constraint: None,
            });
        }
    }
    out
}

/// An exclusion of the `refs` the last of `turns` demoted. Understand may
/// demote a turn after the user spoke (the rows are read first), so the
/// commitment is dated to the latest message that ruled those things out.
fn exclusion(turns: &[Observation], refs: &[&str]) -> Commitment {
    let o = turns.last().expect("the demoting turn");
    let label_of = |x: &str| {
        o.think_view
            .excluded
            .iter()
            .chain(&o.record.entities.excluded)
            .chain(o.record.entities.background())
            .find(|v| v.r#ref == x)
            .map(|v| v.label.clone())
            .unwrap_or_else(|| x.to_string())
    };
    let labels: Vec<String> = refs.iter().map(|x| label_of(x)).collect();
    let named = |user: &str| -> Vec<String> {
        let lower = user.to_lowercase();
        if !NEGATIONS.iter().any(|n| lower.contains(n)) {
            return Vec::new();
        }
        words(user)
            .into_iter()
            .filter(|w| labels.iter().any(|l| words(l).contains(w)))
            .collect()
    };
    let said = turns
        .iter()
        .rev()
        .take(3)
        .map(|t| (&t.record, named(&t.record.user)))
        .find(|(_, terms)| !terms.is_empty());
    let (r, terms) = match said {
        Some((r, terms)) => (r, terms),
        None => (&o.record, labels.clone()),
    };
    Commitment {
        kind: Kind::Exclusion,
        made: r.turn,
        ended: None,
        what: format!("excluded: {} (\"{}\")", labels.join(", "), r.user.trim()),
        refs: refs.iter().map(|x| x.to_string()).collect(),
        terms,
        quote: Some(r.user.trim().to_string()),
        constraint: None,
    }
}

/// The exclusion a standing constraint states, in the user's clause.
fn standing(o: &Observation, v: &crate::context::ConstraintView) -> Commitment {
    use crate::context::ConstraintMatch;
    let label_of = |x: &str| {
        o.record
            .entities
            .find(x)
            .map(|(_, e)| e.label.clone())
            .unwrap_or_else(|| x.to_string())
    };
    let labels: Vec<String> = v.covers.iter().map(|x| label_of(x)).collect();
    let terms = match &v.matches {
        ConstraintMatch::Ingredient { name }
        | ConstraintMatch::Cuisine { name }
        | ConstraintMatch::Tag { name }
        | ConstraintMatch::Diet { name } => vec![name.clone()],
        ConstraintMatch::Entity { .. } | ConstraintMatch::Free { .. } => {
            let named: Vec<String> = words(&v.clause)
                .into_iter()
                .filter(|w| labels.iter().any(|l| words(l).contains(w)))
                .collect();
            if named.is_empty() {
                labels.clone()
            } else {
                named
            }
        }
    };
    Commitment {
        kind: Kind::Exclusion,
        made: o.record.turn,
        ended: None,
        what: format!("{} (\"{}\"): {}", v.label, v.clause, labels.join(", ")),
        refs: v.covers.clone(),
        terms,
        quote: Some(v.clause.clone()),
        constraint: Some(v.id.clone()),
    }
}

/// Words that mark a line as ruling something out.
const NEGATIONS: [&str; 12] = [
    "no ",
    "not ",
    "n't",
    "without",
    "leave out",
    "left out",
    "exclud",
    "skip",
    "rule",
    "avoid",
    "instead of",
    "do not use",
];

/// The text of a Think prompt the judge reads: every section but the user
/// profile (its standing dislikes are not this conversation's commitments).
pub fn think_text(record: &TurnRecord) -> Option<String> {
    let p: &Prompt = &record.prompts.think.as_ref()?.full;
    Some(
        p.sections
            .iter()
            .filter(|s| s.name != "session_context")
            .map(|s| &*s.text)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// True when Think, at this turn, was shown the commitment.
pub fn shown(c: &Commitment, o: &Observation, text: &str) -> bool {
    let lower = text.to_lowercase();
    match c.kind {
        Kind::PendingSave => {
            // Active, or listed as excluded when the user set it aside.
            let mut shown = active_refs(&o.think_view);
            shown.extend(o.think_view.excluded.iter().map(|v| v.r#ref.clone()));
            c.refs.iter().all(|x| shown.contains(x))
        }
        Kind::Goal => c.terms.iter().any(|g| lower.contains(&g.to_lowercase())),
        Kind::Exclusion => {
            let listed = o
                .think_view
                .excluded
                .iter()
                .any(|v| c.refs.contains(&v.r#ref));
            let quoted = c
                .quote
                .as_ref()
                .is_some_and(|q| lower.contains(&q.to_lowercase()));
            let stated = lower.lines().any(|line| {
                NEGATIONS.iter().any(|n| line.contains(n))
                    && c.terms
                        .iter()
                        .any(|t| contains_word(line, &t.to_lowercase()))
            });
            listed || quoted || stated
        }
    }
}

/// `needle` in `hay` on word boundaries.
fn contains_word(hay: &str, needle: &str) -> bool {
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// One commitment Think was not shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lapse {
    pub turn: u32,
    pub kind: Kind,
    pub what: String,
}

/// The judge's verdict on a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Recall {
    pub commitments: usize,
    /// (commitment, turn) pairs checked.
    pub checks: usize,
    pub lapses: Vec<Lapse>,
}

impl Recall {
    /// Checks that passed, as a fraction (1 when nothing was to check).
    pub fn ratio(&self) -> f64 {
        if self.checks == 0 {
            1.0
        } else {
            (self.checks - self.lapses.len()) as f64 / self.checks as f64
        }
    }

    pub fn full(&self) -> bool {
        self.lapses.is_empty()
    }
}

/// The rule-based judge over a run.
pub fn judge(turns: &[Observation], commitments: &[Commitment]) -> Recall {
    let mut recall = Recall {
        commitments: commitments.len(),
        ..Recall::default()
    };
    for o in turns {
        let Some(text) = think_text(&o.record) else {
            continue;
        };
        for c in commitments.iter().filter(|c| c.stands_at(o.record.turn)) {
            recall.checks += 1;
            if !shown(c, o, &text) {
                recall.lapses.push(Lapse {
                    turn: o.record.turn,
                    kind: c.kind,
                    what: c.what.clone(),
                });
            }
        }
    }
    recall
}
