//! Layer 3, the conversation: what was said.
//!
//! Windowed policy: the last `full_detail_turns` in full, older turns folded
//! into `history_summary` each turn. Tiered policy (seeds/002): the last
//! `full_turns` in full, turns up to `bullet_turns` old as one bullet each,
//! older ones folded into a recursive summary refreshed every
//! `summary_every` turns (until then they stay as bullets, so nothing is lost).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::fold::{
    Compressor, FoldKind, FoldRequest, Foldable, FoldingWindow, clip_words, first_sentence,
    truncate_chars,
};
use super::policy::{ContextPolicy, PolicyKind};

/// Replies longer than this get a one-sentence summary for context.
pub const SUMMARY_THRESHOLD_CHARS: usize = 400;

/// One exchange.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ConversationTurn {
    pub turn: u32,
    pub user: String,
    pub assistant: String,
    /// One sentence for long replies; `None` when the reply is short.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assistant_summary: Option<String>,
    /// Refs this turn touched.
    pub entities_mentioned: Vec<String>,
    /// When the exchange happened, as its source wrote it: set for turns
    /// imported from Alfred's saved state (its `timestamp`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

impl ConversationTurn {
    /// The assistant text as context sees it: the summary when there is one.
    pub fn assistant_for_context(&self) -> &str {
        self.assistant_summary.as_deref().unwrap_or(&self.assistant)
    }
}

impl Foldable for ConversationTurn {
    fn turn(&self) -> u32 {
        self.turn
    }

    /// One tidy line: `Turn 4: "what's in my fridge?" → Here's your fridge
    /// (9 items)` — the user's words and the reply's first sentence, each
    /// cut at a word boundary.
    fn fold_line(&self) -> String {
        format!(
            "Turn {}: \"{}\" → {}",
            self.turn,
            clip_words(&self.user, 100),
            first_sentence(self.assistant_for_context(), 120)
        )
    }

    fn fold_text(&self) -> String {
        format!(
            "User: {}\nAlfred: {}",
            truncate_chars(&self.user, 400),
            truncate_chars(self.assistant_for_context(), 600)
        )
    }
}

/// The conversation layer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ConversationLayer {
    window: FoldingWindow<ConversationTurn>,
    /// Tiered policy: turns between the full tier and the summary, one line each.
    #[serde(default, skip_serializing_if = "VecDeque::is_empty")]
    bullets: VecDeque<ConversationTurn>,
}

impl ConversationLayer {
    /// The layer as another system left it (an import): `history_summary`
    /// as the folded earlier turns, `recent` (oldest first) kept under
    /// `policy`'s tiers; any beyond them await the next fold.
    pub fn restore(
        history_summary: &str,
        recent: Vec<ConversationTurn>,
        policy: &ContextPolicy,
    ) -> Self {
        let mut layer = Self::default();
        layer.window.earlier = history_summary.trim().to_string();
        for turn in recent {
            layer.push(turn, policy);
        }
        layer
    }

    /// Appends a finished turn and rolls the tiers under `policy`.
    pub fn push(&mut self, turn: ConversationTurn, policy: &ContextPolicy) {
        self.window
            .push_in_epochs(turn, policy.conversation_full_turns(), policy.fold_every());
        self.roll(policy, self.latest_turn());
    }

    /// Re-applies the tiers (after a policy change).
    pub fn reapply(&mut self, policy: &ContextPolicy) {
        self.window.trim_to(policy.conversation_full_turns());
        self.roll(policy, self.latest_turn());
    }

    fn latest_turn(&self) -> u32 {
        self.window.items.back().map(|t| t.turn).unwrap_or(0)
    }

    fn roll(&mut self, policy: &ContextPolicy, now: u32) {
        if policy.policy != PolicyKind::Tiered {
            // Bullets only exist under the tiered policy: fold them back in.
            let moved: Vec<_> = self.bullets.drain(..).collect();
            self.window.folding.splice(0..0, moved);
            return;
        }
        let t = &policy.tiered;
        let bullet_cap = t.bullet_turns.saturating_sub(t.full_turns);
        self.bullets.extend(self.window.folding.drain(..));
        let refresh = now.is_multiple_of(t.summary_every);
        let overflow = self.bullets.len().saturating_sub(bullet_cap);
        // Between refreshes, overflow stays as bullets; at a refresh — or when
        // the backlog reaches a whole refresh period — it is folded.
        if overflow > 0 && (refresh || overflow >= t.summary_every as usize) {
            for _ in 0..overflow {
                if let Some(b) = self.bullets.pop_front() {
                    self.window.folding.push(b);
                }
            }
        }
    }

    /// Turns kept in full, oldest first.
    pub fn recent(&self) -> impl DoubleEndedIterator<Item = &ConversationTurn> + ExactSizeIterator {
        self.window.items.iter()
    }

    /// Tiered policy: the bullet tier, oldest first.
    pub fn bullets(
        &self,
    ) -> impl DoubleEndedIterator<Item = &ConversationTurn> + ExactSizeIterator {
        self.bullets.iter()
    }

    /// Turns that left the window but are not folded yet.
    pub fn awaiting_fold(&self) -> &[ConversationTurn] {
        &self.window.folding
    }

    /// `history_summary`: the folded older turns.
    pub fn history_summary(&self) -> &str {
        &self.window.earlier
    }

    /// The fold to perform, if any.
    pub fn fold_request(&self) -> Option<FoldRequest> {
        self.window.fold_request(FoldKind::Conversation)
    }

    /// Applies a fold's result (`None`: extractive fallback).
    pub fn complete_fold(&mut self, request: &FoldRequest, result: Option<String>) {
        self.window.complete_fold(request, result);
    }

    /// Folds now with the given compressor.
    pub fn fold_with(&mut self, compressor: &mut dyn Compressor) {
        self.window.fold_with(FoldKind::Conversation, compressor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::fold::Extractive;

    fn turn(n: u32) -> ConversationTurn {
        ConversationTurn {
            turn: n,
            user: format!("message {n}"),
            assistant: format!("reply {n}"),
            ..Default::default()
        }
    }

    #[test]
    fn windowed_keeps_three_in_full_and_folds_older() {
        let policy = ContextPolicy::seeds();
        let mut c = ConversationLayer::default();
        for n in 1..=5 {
            c.push(turn(n), &policy);
            c.fold_with(&mut Extractive);
        }
        let recent: Vec<u32> = c.recent().map(|t| t.turn).collect();
        assert_eq!(recent, vec![3, 4, 5]);
        assert!(c.history_summary().contains("message 1"));
        assert!(c.history_summary().contains("message 2"));
        assert_eq!(c.bullets().len(), 0);
    }

    #[test]
    fn windowed_folds_in_epochs_of_fold_every_turns() {
        let policy = ContextPolicy {
            fold_every: 3,
            ..ContextPolicy::default()
        };
        let mut c = ConversationLayer::default();
        let mut seen = Vec::new();
        for n in 1..=9 {
            c.push(turn(n), &policy);
            c.fold_with(&mut Extractive);
            seen.push((c.recent().len(), c.history_summary().to_string()));
        }
        // The window grows to 3 + 2 turns, then the next turn folds the
        // 3 oldest at once: the summary changes every 3 turns, not every turn.
        let lens: Vec<usize> = seen.iter().map(|(n, _)| *n).collect();
        assert_eq!(lens, vec![1, 2, 3, 4, 5, 3, 4, 5, 3]);
        let summaries: Vec<&str> = seen.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(summaries[..5], [""; 5]);
        assert!(summaries[5].contains("message 3") && !summaries[5].contains("message 4"));
        assert_eq!(summaries[5], summaries[7], "no fold between epochs");
        assert!(summaries[8].contains("message 6"));
    }

    #[test]
    fn tiered_keeps_bullets_and_refreshes_every_n() {
        let policy = ContextPolicy {
            policy: PolicyKind::Tiered,
            ..ContextPolicy::default()
        };
        let mut c = ConversationLayer::default();
        for n in 1..=14 {
            c.push(turn(n), &policy);
            c.fold_with(&mut Extractive);
        }
        // 3 in full (12..14), bullets for turns 4–10 back (5..11) — at turn 14
        // nothing is refreshed yet, so turns 1..4 are still bullets too.
        let recent: Vec<u32> = c.recent().map(|t| t.turn).collect();
        assert_eq!(recent, vec![12, 13, 14]);
        assert_eq!(c.bullets().next().unwrap().turn, 1);
        assert_eq!(c.history_summary(), "");
        c.push(turn(15), &policy);
        c.fold_with(&mut Extractive);
        // Turn 15 is a refresh: everything older than the bullet tier folds.
        let bullets: Vec<u32> = c.bullets().map(|t| t.turn).collect();
        assert_eq!(bullets, (6..=12).collect::<Vec<_>>());
        assert!(c.history_summary().contains("message 5"));
        assert!(c.history_summary().contains("message 1"));
    }

    #[test]
    fn a_restored_layer_keeps_its_summary_and_recent_turns() {
        let policy = ContextPolicy::seeds();
        let c = ConversationLayer::restore(" Planned a week. ", vec![turn(6), turn(7)], &policy);
        assert_eq!(c.history_summary(), "Planned a week.");
        let recent: Vec<u32> = c.recent().map(|t| t.turn).collect();
        assert_eq!(recent, vec![6, 7]);
        assert!(c.fold_request().is_none());
        let many = (1..=5).map(turn).collect();
        let c = ConversationLayer::restore("", many, &policy);
        assert_eq!(c.recent().len(), 3);
        assert_eq!(
            c.awaiting_fold().len(),
            2,
            "the overflow awaits the next fold"
        );
    }

    #[test]
    fn long_replies_use_their_summary_in_context() {
        let t = ConversationTurn {
            assistant: "x".repeat(2000),
            assistant_summary: Some("Listed six recipes.".into()),
            ..turn(1)
        };
        assert_eq!(t.assistant_for_context(), "Listed six recipes.");
        assert!(t.fold_line().contains("Listed six recipes."));
    }
}
