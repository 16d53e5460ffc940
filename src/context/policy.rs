//! Retention policy: the knobs of the three layers, as data.
//!
//! The policy is chosen in `[context]` of config.toml and may be changed at run
//! time. Two shapes share one interface: the windowed policy of the seeds
//! (recent window + explicit retention) and the tiered policy of seeds/002
//! (hot / warm / cold entities, conversation tiers with a recursive summary).

use serde::{Deserialize, Serialize};

/// Which retention model the layers follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PolicyKind {
    /// Recent window + Understand's explicit retention (seeds 000, 001, 003).
    #[default]
    Windowed,
    /// Hot / warm / cold entities and conversation tiers (seeds/002).
    Tiered,
    /// Full history, every entity always active: the baseline the arena
    /// measures savings against.
    Naive,
}

/// Knobs of the tiered policy (seeds/002).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TieredPolicy {
    /// Entities touched within this many turns are hot (shown in full).
    pub hot_turns: u32,
    /// Entities touched within this many turns are warm (a label line).
    /// Older ones are cold: archived, reachable only through `search_history`.
    pub warm_turns: u32,
    /// Conversation turns kept in full.
    pub full_turns: usize,
    /// Conversation turns up to this age are kept as one bullet each.
    pub bullet_turns: usize,
    /// The recursive summary of older turns is refreshed every N turns.
    pub summary_every: u32,
}

impl Default for TieredPolicy {
    fn default() -> Self {
        Self {
            hot_turns: 2,
            warm_turns: 5,
            full_turns: 3,
            bullet_turns: 10,
            summary_every: 5,
        }
    }
}

/// The `[context]` section: every knob of the three layers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContextPolicy {
    /// Which retention model to follow.
    pub policy: PolicyKind,
    /// An entity referenced at turn >= T - window is recent at turn T.
    pub turn_retention_window: u32,
    /// Conversation turns kept in full text.
    pub full_detail_turns: usize,
    /// Turn narratives (TurnExecutionSummary) kept in full.
    pub narrative_turns: usize,
    /// Fold older turns with the brain's compression (else extractive only).
    pub compress_older_turns: bool,
    /// The folded summary of older turns, per layer, is cut to this many
    /// characters (the opening and the newest lines are kept).
    pub earlier_max_chars: usize,
    /// Turns Understand sees, annotated with their entities.
    pub understand_window: usize,
    /// Entries kept in the Understand decision log.
    pub decision_log_cap: usize,
    /// Decision-log entries shown to Understand.
    pub decision_log_shown: usize,
    /// Fold in epochs: the recent windows of the narrative and the
    /// conversation (and Understand's turns) grow by up to this many turns
    /// less one, then fold back at once, so the earlier summaries change
    /// every `fold_every` turns and a prompt cache keeps what comes before.
    /// 1 folds every turn.
    pub fold_every: usize,
    /// Knobs used when `policy = "tiered"`.
    pub tiered: TieredPolicy,
}

impl Default for ContextPolicy {
    fn default() -> Self {
        Self {
            policy: PolicyKind::Windowed,
            turn_retention_window: 2,
            full_detail_turns: 3,
            narrative_turns: 2,
            compress_older_turns: true,
            earlier_max_chars: super::fold::EARLIER_MAX_CHARS,
            understand_window: 5,
            decision_log_cap: 20,
            decision_log_shown: 10,
            fold_every: 5,
            tiered: TieredPolicy::default(),
        }
    }
}

impl ContextPolicy {
    /// The seeds' worked examples: the default windows, folded every turn
    /// (the seeds predate folding in epochs).
    pub fn seeds() -> Self {
        Self {
            fold_every: 1,
            ..Self::default()
        }
    }

    /// The naive baseline: full history, every entity active.
    pub fn naive() -> Self {
        Self {
            policy: PolicyKind::Naive,
            ..Self::default()
        }
    }

    /// Conversation turns kept in full under this policy.
    pub fn conversation_full_turns(&self) -> usize {
        match self.policy {
            PolicyKind::Windowed => self.full_detail_turns,
            PolicyKind::Tiered => self.tiered.full_turns,
            PolicyKind::Naive => usize::MAX,
        }
    }

    /// Turns per fold epoch under this policy: the naive baseline never
    /// folds, and the tiered policy has its own refresh period
    /// (`tiered.summary_every`).
    pub fn fold_every(&self) -> usize {
        match self.policy {
            PolicyKind::Windowed => self.fold_every.max(1),
            PolicyKind::Naive | PolicyKind::Tiered => 1,
        }
    }

    /// Narrative turns kept in full under this policy.
    pub fn narrative_full_turns(&self) -> usize {
        match self.policy {
            PolicyKind::Naive => usize::MAX,
            _ => self.narrative_turns,
        }
    }

    /// Checks the knobs make sense together; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if self.full_detail_turns == 0 {
            return Err("context.full_detail_turns must be at least 1".into());
        }
        if self.narrative_turns == 0 {
            return Err("context.narrative_turns must be at least 1".into());
        }
        if self.earlier_max_chars < 200 {
            return Err(format!(
                "context.earlier_max_chars ({}) must be at least 200",
                self.earlier_max_chars
            ));
        }
        if self.fold_every == 0 {
            return Err("context.fold_every must be at least 1 (1 folds every turn)".into());
        }
        if self.decision_log_cap == 0 {
            return Err("context.decision_log_cap must be at least 1".into());
        }
        if self.decision_log_shown > self.decision_log_cap {
            return Err(format!(
                "context.decision_log_shown ({}) cannot exceed context.decision_log_cap ({})",
                self.decision_log_shown, self.decision_log_cap
            ));
        }
        let t = &self.tiered;
        if t.warm_turns < t.hot_turns {
            return Err(format!(
                "context.tiered.warm_turns ({}) must be >= context.tiered.hot_turns ({})",
                t.warm_turns, t.hot_turns
            ));
        }
        if t.full_turns == 0 {
            return Err("context.tiered.full_turns must be at least 1".into());
        }
        if t.bullet_turns < t.full_turns {
            return Err(format!(
                "context.tiered.bullet_turns ({}) must be >= context.tiered.full_turns ({})",
                t.bullet_turns, t.full_turns
            ));
        }
        if t.summary_every == 0 {
            return Err("context.tiered.summary_every must be at least 1".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_seeds() {
        let p = ContextPolicy::default();
        assert_eq!(p.turn_retention_window, 2);
        assert_eq!(p.full_detail_turns, 3);
        assert_eq!(p.narrative_turns, 2);
        assert_eq!(p.understand_window, 5);
        assert_eq!(p.decision_log_cap, 20);
        assert_eq!(p.decision_log_shown, 10);
        assert!(p.validate().is_ok());
    }

    #[test]
    fn validate_names_the_key() {
        let p = ContextPolicy {
            decision_log_shown: 30,
            ..ContextPolicy::default()
        };
        let err = p.validate().unwrap_err();
        assert!(err.contains("context.decision_log_shown"), "{err}");
    }
}
