//! What a run's prompts cost against a server's prompt cache: every prompt
//! of every turn, in the order the pipeline sent it, through the prefix
//! cache model (one slot per node, and a single slot for comparison).
//!
//! Turns before [`FROM_TURN`] are left out of the figures: they fill a cold
//! cache, and every policy pays them alike.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::prompt::{CacheUse, PrefixCache, Slots};

use super::run::Observation;

/// The first turn the cache figures count.
pub const FROM_TURN: u32 = 3;

/// The price of a cached prompt token against a new one, unless told.
pub const DEFAULT_CACHED_PRICE: f64 = 0.1;

/// `--cached-price`: a cached token's price against a new one, from 0 to 1.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct CachedPrice(pub f64);

// Never NaN: `from_str` accepts only numbers from 0 to 1.
impl Eq for CachedPrice {}

impl Default for CachedPrice {
    fn default() -> Self {
        Self(DEFAULT_CACHED_PRICE)
    }
}

impl std::fmt::Display for CachedPrice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::str::FromStr for CachedPrice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().parse::<f64>() {
            Ok(x) if (0.0..=1.0).contains(&x) => Ok(Self(x)),
            _ => Err(format!(
                "\"{s}\" is not a price ratio: give a number from 0 to 1 (0.1 means a cached \
                 token costs a tenth of a new one)"
            )),
        }
    }
}

/// A run's prompts against the cache, from [`FROM_TURN`] on.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CacheScore {
    /// Turns counted.
    pub turns: usize,
    /// Prompts sent (model calls, for a model brain) in those turns.
    pub calls: usize,
    /// Tokens and cached tokens with one slot per node.
    pub per_node: CacheUse,
    /// The same with a single slot for every call.
    pub one_slot: CacheUse,
    /// New tokens (one slot per node) by where each prompt first differed
    /// from its slot's: `"think · entity_context"`.
    pub new_from: BTreeMap<String, usize>,
    /// Tokens and cached tokens per node (one slot per node).
    pub by_node: BTreeMap<String, CacheUse>,
}

impl CacheScore {
    /// Sends every prompt of `turns` through both caches.
    pub fn of(turns: &[Observation]) -> Self {
        let mut per_node = PrefixCache::new(Slots::PerNode);
        let mut one = PrefixCache::new(Slots::One);
        let mut out = Self::default();
        for o in turns {
            let counted = o.record.turn >= FROM_TURN;
            if counted {
                out.turns += 1;
            }
            for p in o.record.prompts.all().map(|r| &r.full) {
                let ((a, breaks_at), b) = (per_node.send_explained(p), one.send(p));
                if counted {
                    out.calls += 1;
                    out.per_node.add(a);
                    out.one_slot.add(b);
                    out.by_node
                        .entry(p.node.as_str().to_string())
                        .or_default()
                        .add(a);
                    if a.fresh() > 0 {
                        let at = format!("{} · {}", p.node.as_str(), breaks_at.unwrap_or("system"));
                        *out.new_from.entry(at).or_default() += a.fresh();
                    }
                }
            }
        }
        out
    }

    /// Adds another run's figures.
    pub fn add(&mut self, other: &CacheScore) {
        self.turns += other.turns;
        self.calls += other.calls;
        self.per_node.add(other.per_node);
        self.one_slot.add(other.one_slot);
        for (k, v) in &other.new_from {
            *self.new_from.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &other.by_node {
            self.by_node.entry(k.clone()).or_default().add(*v);
        }
    }

    /// The places new tokens start, most tokens first, with their share of
    /// all new tokens: `"think · entity_context 31%"`.
    pub fn where_new(&self, at_most: usize) -> Vec<String> {
        let all: usize = self.new_from.values().sum();
        let mut rows: Vec<(&String, &usize)> = self.new_from.iter().collect();
        rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        rows.into_iter()
            .take(at_most)
            .map(|(k, v)| format!("{k} {:.0}%", 100.0 * *v as f64 / all.max(1) as f64))
            .collect()
    }

    fn per_turn(&self, x: f64) -> f64 {
        if self.turns == 0 {
            0.0
        } else {
            x / self.turns as f64
        }
    }

    /// New (uncached) prompt tokens a turn, one slot per node.
    pub fn new_per_turn(&self) -> f64 {
        self.per_turn(self.per_node.fresh() as f64)
    }

    /// `new + price × cached` a turn, one slot per node.
    pub fn cost_per_turn(&self, cached_price: f64) -> f64 {
        self.per_turn(self.per_node.cost(cached_price))
    }
}
