//! A model of a server's prompt cache, for servers that do not say what they
//! took from theirs and for the arena's cost column.
//!
//! Servers keep the tokens of the last prompt a slot evaluated and reuse its
//! longest common prefix with the next one (llama.cpp's slots, vLLM's
//! automatic prefix caching, Ollama, OpenAI's prompt caching). The model
//! keeps one slot per node ([`Slots::PerNode`], what a server with a slot
//! for each of alfred's prompt kinds does) or a single slot shared by every
//! call ([`Slots::One`]).
//!
//! The shared prefix is measured on the prompt's own parts: the system text,
//! then each section in order. Parts equal in both prompts are cached whole
//! (their counted tokens); in the first part that differs, the tokens of
//! the common characters are counted, less one for the token the edit may
//! split. Pure and cheap: a turn counts at most one partial text per call.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::section::{Prompt, PromptNode};
use super::tokens::count_tokens;

/// How many prompts the cache keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slots {
    /// One slot per prompt kind: each node reuses its own last prompt.
    PerNode,
    /// One slot for every call: each prompt reuses the call just before.
    One,
}

/// One prompt (or many, added up) against a server's prompt cache: its
/// tokens and how many were cached — what the model here counted, what a
/// turn record keeps, what the arena and the screen sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheUse {
    /// Prompt tokens in all (the server's count when it reported one).
    pub total: usize,
    /// Of those, the tokens the cache held.
    pub cached: usize,
    /// Whether `cached` is alfred's estimate rather than the server's word.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub estimated: bool,
}

/// What a prompt shares with the one its slot held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shared<'a> {
    pub tokens: usize,
    /// The first part that differs (`"system"` or a section's name); none
    /// when the prompts are the same, or nothing was held.
    pub breaks_at: Option<&'a str>,
}

impl CacheUse {
    /// Tokens the server had to evaluate.
    pub fn fresh(&self) -> usize {
        self.total.saturating_sub(self.cached)
    }

    /// Adds another prompt's figures; any estimate makes the sum one.
    pub fn add(&mut self, other: CacheUse) {
        self.total += other.total;
        self.cached += other.cached;
        self.estimated |= other.estimated;
    }

    /// The figures of `uses` added up; none when there are none.
    pub fn sum_of(uses: impl IntoIterator<Item = CacheUse>) -> Option<CacheUse> {
        uses.into_iter().fold(None, |sum, u| {
            let mut sum = sum.unwrap_or_default();
            sum.add(u);
            Some(sum)
        })
    }

    /// "1,412 in · 1,302 cached · 110 new".
    pub fn describe(&self) -> String {
        let n = crate::text::thousands;
        format!(
            "{} in · {} cached · {} new",
            n(self.total),
            n(self.cached),
            n(self.fresh()),
        )
    }

    /// "estimated" or "reported".
    pub fn source(&self) -> &'static str {
        if self.estimated {
            "estimated"
        } else {
            "reported"
        }
    }

    /// `fresh + ratio × cached`: what the prompt costs when cached input is
    /// billed (or evaluated) at `ratio` of a new token.
    pub fn cost(&self, ratio: f64) -> f64 {
        self.fresh() as f64 + ratio * self.cached as f64
    }

    /// Cached tokens over all tokens (0 for no tokens).
    pub fn share(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.cached as f64 / self.total as f64
        }
    }
}

/// The cache: the last prompt of each slot.
#[derive(Debug, Clone)]
pub struct PrefixCache {
    slots: Slots,
    last: HashMap<Option<PromptNode>, Prompt>,
}

impl PrefixCache {
    pub fn new(slots: Slots) -> Self {
        Self {
            slots,
            last: HashMap::new(),
        }
    }

    /// Sends `prompt` (counted) through the cache: how much of it the slot
    /// held, and the slot now holds it.
    pub fn send(&mut self, prompt: &Prompt) -> CacheUse {
        self.send_explained(prompt).0
    }

    /// [`PrefixCache::send`], with the part where the prompt first differs
    /// from the slot's (none on a cold slot or an identical prompt).
    pub fn send_explained<'p>(&mut self, prompt: &'p Prompt) -> (CacheUse, Option<&'p str>) {
        let key = match self.slots {
            Slots::PerNode => Some(prompt.node),
            Slots::One => None,
        };
        let shared = self
            .last
            .get(&key)
            .map(|prev| shared_prefix(prev, prompt))
            .unwrap_or_default();
        let used = CacheUse {
            total: prompt.total_tokens_now(),
            cached: shared.tokens,
            estimated: true,
        };
        let breaks_at = shared.breaks_at;
        self.last.insert(key, prompt.clone());
        (used, breaks_at)
    }
}

/// What `next` shares at its start with `prev`, measured on their parts
/// (see the module's notes), and the part where it first differs. Both
/// prompts must be counted for whole parts to count; an uncounted one
/// shares nothing.
pub fn shared_prefix<'p>(prev: &Prompt, next: &'p Prompt) -> Shared<'p> {
    fn parts(p: &Prompt) -> impl Iterator<Item = (&str, &str, usize)> {
        std::iter::once(("system", &*p.system, p.system_tokens)).chain(
            p.sections
                .iter()
                .map(|s| (s.name.as_str(), &*s.text, s.tokens)),
        )
    }
    let mut shared = Shared::default();
    if !prev.is_counted() || !next.is_counted() {
        shared.breaks_at = Some("system");
        return shared;
    }
    let mut b = parts(next);
    for (name_a, text_a, _) in parts(prev) {
        let Some((name_b, text_b, tokens_b)) = b.next() else {
            return shared;
        };
        if name_a != name_b {
            shared.breaks_at = Some(name_b);
            return shared;
        }
        if text_a == text_b {
            shared.tokens += tokens_b;
            continue;
        }
        let common = common_prefix(text_a, text_b);
        shared.tokens += count_tokens(common).saturating_sub(1);
        shared.breaks_at = Some(name_b);
        return shared;
    }
    // `prev` ended: whatever `next` adds after it is new.
    shared.breaks_at = b.next().map(|(name, _, _)| name);
    shared
}

/// The longest common prefix of two texts, ending on a character boundary.
fn common_prefix<'a>(a: &str, b: &'a str) -> &'a str {
    let end = a
        .char_indices()
        .zip(b.chars())
        .take_while(|((_, x), y)| x == y)
        .last()
        .map_or(0, |((i, x), _)| i + x.len_utf8());
    &b[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::Section;

    fn prompt(node: PromptNode, system: &str, sections: &[(&str, &str)]) -> Prompt {
        Prompt::new(
            node,
            system,
            sections.iter().map(|(n, t)| Section::new(n, t)).collect(),
        )
        .counted()
    }

    #[test]
    fn an_identical_prompt_is_cached_whole() {
        let p = prompt(
            PromptNode::Think,
            "sys",
            &[("a", "one two"), ("b", "three")],
        );
        let mut c = PrefixCache::new(Slots::PerNode);
        assert_eq!(c.send(&p).cached, 0, "a cold cache holds nothing");
        let again = c.send(&p);
        assert_eq!(again.cached, p.total_tokens);
        assert_eq!(again.fresh(), 0);
    }

    #[test]
    fn a_change_keeps_everything_before_it() {
        let long = "word ".repeat(200);
        let a = prompt(
            PromptNode::Think,
            "system text",
            &[
                ("fixed", &long),
                ("moving", "turn 1 says hello"),
                ("end", "x"),
            ],
        );
        let b = prompt(
            PromptNode::Think,
            "system text",
            &[
                ("fixed", &long),
                ("moving", "turn 2 says hello"),
                ("end", "x"),
            ],
        );
        let shared = shared_prefix(&a, &b).tokens;
        let before = b.system_tokens + b.sections[0].tokens;
        // "turn " is common, then the edit: at most one token past the whole parts.
        assert!(
            shared >= before && shared <= before + 1,
            "{shared} vs {before}"
        );
        // Everything after the edit is new even though it is identical.
        assert!(shared < b.total_tokens);
    }

    #[test]
    fn an_edit_early_costs_everything_after_it() {
        let long = "word ".repeat(200);
        let a = prompt(
            PromptNode::Think,
            "s",
            &[("counts", "3 items"), ("big", &long)],
        );
        let b = prompt(
            PromptNode::Think,
            "s",
            &[("counts", "4 items"), ("big", &long)],
        );
        let early = shared_prefix(&a, &b).tokens;
        let c = prompt(
            PromptNode::Think,
            "s",
            &[("big", &long), ("counts", "3 items")],
        );
        let d = prompt(
            PromptNode::Think,
            "s",
            &[("big", &long), ("counts", "4 items")],
        );
        let late = shared_prefix(&c, &d).tokens;
        assert!(early < 5, "{early}");
        assert!(late > 200, "{late}");
    }

    #[test]
    fn slots_per_node_keep_each_node_apart() {
        let long = "word ".repeat(100);
        let think = prompt(PromptNode::Think, "think", &[("a", &long)]);
        let reply = prompt(PromptNode::Reply, "reply", &[("a", &long)]);
        let mut per_node = PrefixCache::new(Slots::PerNode);
        let mut one = PrefixCache::new(Slots::One);
        for c in [&mut per_node, &mut one] {
            c.send(&think);
            c.send(&reply);
        }
        // The second Think finds its own prompt in its own slot; with one
        // slot the Reply in between pushed it out.
        assert_eq!(per_node.send(&think).fresh(), 0);
        assert!(one.send(&think).fresh() > 90);
    }

    #[test]
    fn cost_weighs_cached_tokens_by_the_ratio() {
        let u = CacheUse {
            total: 1_000,
            cached: 900,
            estimated: false,
        };
        assert_eq!(u.fresh(), 100);
        assert!((u.cost(0.1) - 190.0).abs() < 1e-9);
        assert!((u.share() - 0.9).abs() < 1e-9);
        assert_eq!(CacheUse::default().share(), 0.0);
    }

    #[test]
    fn common_prefix_stops_on_a_character_boundary() {
        assert_eq!(common_prefix("crème brûlée", "crème fraîche"), "crème ");
        assert_eq!(common_prefix("abc", "abd"), "ab");
        assert_eq!(common_prefix("", "abc"), "");
        assert_eq!(common_prefix("abc", "abc"), "abc");
    }
}
