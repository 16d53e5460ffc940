//! What a run cost and what it forgot, from its turn records alone.
//!
//! - **Referents** of a turn: entities known before it that the turn used —
//!   Understand resolved them from the user's words, or a step other than a
//!   read worked on them. A plain listing ("what's in my fridge?") refers to
//!   nothing: it reads.
//! - **Regret**: a referent Think did not have (it had to be re-read, or the
//!   reference failed), a mention Understand could not resolve that names
//!   a known entity outside the active set, or a step other than a read that
//!   used an entity a standing constraint of the user's rules out.
//! - **Rescued**: a referent outside the active set when the turn began that
//!   Understand brought back (its window is longer than the entity window),
//!   or an entity a `search_history` call found in the cold tier.
//! - **Waste**: rows read although Think already had them; and idle
//!   entity-turns, an entity active at a turn and never used again.

use crate::turn::StepType;
use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::context::archive::SEARCH_HISTORY;
use crate::context::{ConstraintStatus, EntitiesView};
use crate::pipeline::Resolution;
use crate::record::TurnRecord;

use super::run::Observation;

/// The refs Think and Act see: recent, retained, pending.
pub fn active_refs(e: &EntitiesView) -> BTreeSet<String> {
    e.recent
        .iter()
        .chain(&e.retained)
        .chain(&e.pending)
        .map(|v| v.r#ref.clone())
        .collect()
}

/// Every ref a view knows that was ever referenced in its own right, with
/// its label. Rows registered only as a link (the ingredient behind an
/// inventory row) are left out: touching them is incidental, not a reference.
fn known_labels(e: &EntitiesView) -> BTreeMap<String, String> {
    e.recent
        .iter()
        .chain(&e.retained)
        .chain(&e.pending)
        .chain(&e.excluded)
        .chain(e.background())
        .filter(|v| v.last_ref_turn > 0 || v.r#ref.starts_with("gen_"))
        .map(|v| (v.r#ref.clone(), v.label.clone()))
        .collect()
}

/// Prompt tokens of one turn, per node.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct NodeTokens {
    pub understand: usize,
    pub think: usize,
    /// Every Act iteration of the turn.
    pub act: usize,
    pub reply: usize,
    /// The reply summary and any compression.
    pub summarize: usize,
}

impl NodeTokens {
    /// The prompts of a record.
    pub fn of(r: &TurnRecord) -> Self {
        let p = &r.prompts;
        let tokens = |x: &Option<crate::record::PromptRecord>| {
            x.as_ref().map_or(0, |x| x.tokens.total_tokens)
        };
        Self {
            understand: tokens(&p.understand),
            think: tokens(&p.think),
            act: p.act.iter().map(|a| a.prompt.tokens.total_tokens).sum(),
            reply: tokens(&p.reply),
            summarize: p.summarize.iter().map(|s| s.tokens.total_tokens).sum(),
        }
    }

    /// All prompts of the turn.
    pub fn total(&self) -> usize {
        self.understand + self.think + self.act + self.reply + self.summarize
    }

    /// (node name, tokens) in pipeline order, then the total.
    pub fn named(&self) -> [(&'static str, usize); 6] {
        [
            ("understand", self.understand),
            ("think", self.think),
            ("act", self.act),
            ("reply", self.reply),
            ("summarize", self.summarize),
            ("total", self.total()),
        ]
    }
}

/// What one turn did with memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnFacts {
    pub turn: u32,
    /// Active for Think.
    pub active: BTreeSet<String>,
    pub referents: BTreeSet<String>,
    /// Refs read by the turn's read steps.
    pub reads: BTreeSet<String>,
    /// Everything the turn touched: referents, reads, new entities.
    pub used: BTreeSet<String>,
    /// Referents Think was not shown (neither active nor excluded).
    pub missing: BTreeSet<String>,
    /// Referents Understand brought back into the active set.
    pub rescued: BTreeSet<String>,
    /// Unresolved mentions naming a known entity outside the active set.
    pub failed_mentions: Vec<String>,
    /// Entities a step other than a read used although a standing
    /// constraint ruled them out.
    pub violations: BTreeSet<String>,
    pub tokens: NodeTokens,
}

impl TurnFacts {
    /// True when the turn needed something Think did not have.
    pub fn regret(&self) -> bool {
        !self.missing.is_empty() || !self.failed_mentions.is_empty() || !self.violations.is_empty()
    }
}

/// Words too common to tie a mention to a label.
const STOP: [&str; 14] = [
    "the", "that", "this", "those", "these", "one", "ones", "recipe", "recipes", "thing", "from",
    "with", "and", "for",
];

/// The words of `s` that can tie it to a label: lowercase, three letters or
/// more, common words left out.
pub(super) fn words(s: &str) -> BTreeSet<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.len() >= 3 && !STOP.contains(&w.as_str()))
        .collect()
}

/// True when `message` contains all of `label`'s words, in order, as a phrase.
fn names(message: &str, label: &str) -> bool {
    let norm = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let (m, l) = (norm(message), norm(label));
    let significant = l
        .iter()
        .any(|w| w.len() >= 3 && !STOP.contains(&w.as_str()));
    significant && m.windows(l.len()).any(|win| win == l.as_slice())
}

/// The refs each turn's read steps read.
fn reads_by_turn(turns: &[Observation]) -> BTreeMap<u32, BTreeSet<String>> {
    turns
        .iter()
        .map(|o| {
            let reads = o
                .record
                .steps
                .iter()
                .filter(|s| StepType::from_word(&s.step_type) == Some(StepType::Read))
                .flat_map(|s| s.entities_affected.iter().cloned())
                .collect();
            (o.record.turn, reads)
        })
        .collect()
}

/// The facts of every turn of a run. `baseline` is the same script under
/// the naive baseline, when it ran: what it read too was not forgotten.
pub fn facts(turns: &[Observation], baseline: Option<&[Observation]>) -> Vec<TurnFacts> {
    let baseline_reads = baseline.map(reads_by_turn).unwrap_or_default();
    let mut out = Vec::with_capacity(turns.len());
    let mut known = BTreeMap::new();
    for o in turns {
        let r = &o.record;
        let active = active_refs(&o.think_view);
        // Think was shown these too: as excluded, with "do not use".
        let shown: BTreeSet<String> = active
            .iter()
            .cloned()
            .chain(o.think_view.excluded.iter().map(|v| v.r#ref.clone()))
            .collect();
        let before = active_refs(&o.before);
        let mut touched: BTreeSet<String> =
            o.understand.referenced_entities.iter().cloned().collect();
        touched.extend(
            o.understand
                .entity_mentions
                .iter()
                .filter_map(|m| m.resolved_ref.clone()),
        );
        let mut reads = BTreeSet::new();
        let mut used = BTreeSet::new();
        for s in &r.steps {
            if StepType::from_word(&s.step_type) == Some(StepType::Read) {
                reads.extend(s.entities_affected.iter().cloned());
            } else {
                touched.extend(s.entities_affected.iter().cloned());
            }
            used.extend(s.entities_affected.iter().cloned());
        }
        let referents: BTreeSet<String> = touched
            .iter()
            .filter(|x| known.contains_key(*x))
            .cloned()
            .collect();
        used.extend(touched.iter().cloned());
        // A row the baseline also read at this turn was read because the
        // request needs fresh rows (a listing), not because it was forgotten.
        let inherent = baseline_reads.get(&r.turn);
        let missing = referents
            .difference(&shown)
            .filter(|x| !(reads.contains(*x) && inherent.is_some_and(|b| b.contains(*x))))
            .cloned()
            .collect();
        // What a look back through the history found and brought back.
        let from_history = r
            .steps
            .iter()
            .filter(|s| s.tool_calls.iter().any(|c| c.tool == SEARCH_HISTORY))
            .flat_map(|s| &s.entities_affected)
            .filter(|x| !before.contains(*x) && !active.contains(*x))
            .filter(|x| active_refs(&r.entities).contains(*x));
        let rescued = referents
            .iter()
            .filter(|x| active.contains(*x) && !before.contains(*x))
            .chain(from_history)
            .cloned()
            .collect();
        let mut failed_mentions: Vec<String> = o
            .understand
            .entity_mentions
            .iter()
            .filter(|m| matches!(m.resolution, Resolution::Unknown | Resolution::Ambiguous))
            .filter(|m| {
                let w = words(&m.text);
                !w.is_empty()
                    && known.iter().any(|(k, label): (&String, &String)| {
                        !shown.contains(k) && !words(label).is_disjoint(&w)
                    })
            })
            .map(|m| m.text.clone())
            .collect();
        // The user named a known entity outright ("the paneer") and nothing
        // of the turn resolved the name: the reference failed.
        let resolved: BTreeSet<String> = o
            .understand
            .entity_mentions
            .iter()
            .filter(|m| m.resolved_ref.is_some())
            .flat_map(|m| words(&m.text))
            .chain(
                used.iter()
                    .filter_map(|x| known.get(x))
                    .flat_map(|l| words(l)),
            )
            .collect();
        for (k, label) in &known {
            let w = words(label);
            if touched.is_empty()
                && !shown.contains(k)
                && names(&r.user, label)
                && w.is_disjoint(&resolved)
                && !failed_mentions.contains(label)
            {
                failed_mentions.push(label.clone());
            }
        }
        let ruled_out: BTreeSet<&String> = r
            .constraints
            .iter()
            .filter(|c| c.status == ConstraintStatus::Active)
            .flat_map(|c| &c.covers)
            .collect();
        let violations = r
            .steps
            .iter()
            .filter(|s| s.step_type != "read")
            .flat_map(|s| &s.entities_affected)
            .filter(|x| ruled_out.contains(x))
            .cloned()
            .collect();
        out.push(TurnFacts {
            violations,
            turn: r.turn,
            active,
            referents,
            reads,
            used,
            missing,
            rescued,
            failed_mentions,
            tokens: NodeTokens::of(r),
        });
        known = known_labels(&r.entities);
    }
    out
}

/// Mean, max and last-turn figure of a series.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub max: usize,
    pub last: usize,
}

impl Spread {
    pub fn of(xs: impl IntoIterator<Item = usize>) -> Self {
        let xs: Vec<usize> = xs.into_iter().collect();
        if xs.is_empty() {
            return Self::default();
        }
        Self {
            mean: xs.iter().sum::<usize>() as f64 / xs.len() as f64,
            max: xs.iter().copied().max().unwrap_or(0),
            last: xs.last().copied().unwrap_or(0),
        }
    }
}

/// One turn's regret, for the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RegretTurn {
    pub turn: u32,
    /// Referents Think did not have.
    pub missing: Vec<String>,
    /// Mentions that could not be resolved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed_mentions: Vec<String>,
    /// Ruled-out entities a step used anyway.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<String>,
}

/// The memory figures of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct MemoryScore {
    /// Turns that needed something Think did not have.
    pub regret_turns: usize,
    pub regret: Vec<RegretTurn>,
    /// Referents Understand had to bring back.
    pub rescued: usize,
    /// Rows read although Think had them.
    pub rereads: usize,
    /// Entity-turns spent on entities never used again.
    pub idle: usize,
    /// Prompt tokens per node per turn.
    pub tokens: BTreeMap<&'static str, Spread>,
}

/// Scores a run's facts.
pub fn score(facts: &[TurnFacts]) -> MemoryScore {
    let regret: Vec<RegretTurn> = facts
        .iter()
        .filter(|f| f.regret())
        .map(|f| RegretTurn {
            turn: f.turn,
            missing: f.missing.iter().cloned().collect(),
            failed_mentions: f.failed_mentions.clone(),
            violations: f.violations.iter().cloned().collect(),
        })
        .collect();
    // Walking backwards, `later` holds what any turn from t on uses.
    let mut later: BTreeSet<&String> = BTreeSet::new();
    let mut idle = 0;
    for f in facts.iter().rev() {
        later.extend(f.used.iter());
        idle += f.active.iter().filter(|e| !later.contains(e)).count();
    }
    let mut tokens = BTreeMap::new();
    for (i, (name, _)) in NodeTokens::default().named().iter().enumerate() {
        let series = facts.iter().map(|f| f.tokens.named()[i].1);
        tokens.insert(*name, Spread::of(series));
    }
    MemoryScore {
        regret_turns: regret.len(),
        regret,
        rescued: facts.iter().map(|f| f.rescued.len()).sum(),
        rereads: facts
            .iter()
            .map(|f| f.reads.intersection(&f.active).count())
            .sum(),
        idle,
        tokens,
    }
}
