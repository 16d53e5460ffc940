//! The folding window shared by the narrative and the conversation layers:
//! keep the last N items in full, fold older ones into one bounded string.
//!
//! Folding is two-phase so the compression can come from anywhere — an LLM
//! (async, off the reply's critical path), the offline brain, or the
//! extractive fallback here: `push` moves overflow aside, `fold_request`
//! describes the work, `complete_fold` applies the result. Nothing grows
//! without bound: the earlier summary is capped (the policy's
//! `earlier_max_chars`, [`EARLIER_MAX_CHARS`] by default).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

/// The default upper bound of an earlier summary, in characters: the
/// arena's cheapest cap with zero regret and full recall on every built-in
/// scenario (400 loses a goal; see BENCHMARKS.md).
pub const EARLIER_MAX_CHARS: usize = 600;

/// An item that can be folded into an earlier summary.
pub trait Foldable {
    /// The turn the item belongs to.
    fn turn(&self) -> u32;
    /// A short line for the extractive fallback.
    fn fold_line(&self) -> String;
    /// The fuller text handed to a compressor.
    fn fold_text(&self) -> String;
}

/// Which layer a fold belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FoldKind {
    Narrative,
    Conversation,
}

/// The work of one fold: merge `items` into `earlier`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoldRequest {
    pub kind: FoldKind,
    /// The current earlier summary (may be empty).
    pub earlier: String,
    /// Turns being folded, oldest first.
    pub turns: Vec<u32>,
    /// Their full text, one entry per turn.
    pub items: Vec<String>,
    /// Their short lines, for the extractive fallback.
    pub lines: Vec<String>,
    /// The result is cut to this many characters.
    pub max_chars: usize,
}

impl FoldRequest {
    /// The bounded extractive fallback: the earlier summary's lines plus one
    /// line per folded turn; when over the cap, the opening line is kept and
    /// the oldest lines after it give way.
    pub fn extractive(&self) -> String {
        let mut lines: Vec<String> = self
            .earlier
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && *l != "…")
            .map(str::to_string)
            .collect();
        lines.extend(self.lines.iter().map(|l| l.trim().to_string()));
        fit_lines(lines, self.max_chars)
    }

    /// True when the extractive fold keeps every line under the cap: then a
    /// model has nothing to compress, and asking one only costs a prompt.
    pub fn fits_extractive(&self) -> bool {
        let earlier: usize = self
            .earlier
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && *l != "…")
            .map(|l| l.chars().count() + 1)
            .sum();
        let new: usize = self
            .lines
            .iter()
            .map(|l| l.trim().chars().count() + 1)
            .sum();
        !self.earlier.lines().any(|l| l.trim() == "…") && earlier + new <= self.max_chars
    }
}

/// Joins lines under a character cap, keeping the first and the newest.
fn fit_lines(lines: Vec<String>, max_chars: usize) -> String {
    let total: usize = lines.iter().map(|l| l.chars().count() + 1).sum();
    if total <= max_chars {
        return lines.join("\n");
    }
    let Some((first, rest)) = lines.split_first() else {
        return String::new();
    };
    let first = truncate_chars(first, max_chars / 3);
    let mut budget = max_chars.saturating_sub(first.chars().count() + 3);
    let mut tail: Vec<&String> = Vec::new();
    for l in rest.iter().rev() {
        let n = l.chars().count() + 1;
        if n > budget {
            break;
        }
        budget -= n;
        tail.push(l);
    }
    tail.reverse();
    let mut out = vec![first, "…".to_string()];
    out.extend(tail.into_iter().cloned());
    out.join("\n")
}

/// Cuts a string to at most `max` characters, marking the cut with "…".
pub fn truncate_chars(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let keep = max.saturating_sub(1);
    let mut out: String = s.chars().take(keep).collect();
    out.push('…');
    out
}

/// `s` on one line (whitespace runs become one space), cut at a word
/// boundary to at most `max` characters, the cut marked with "…".
pub fn clip_words(s: &str, max: usize) -> String {
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let keep: String = flat.chars().take(max.saturating_sub(1)).collect();
    let cut = match keep.rfind(' ') {
        Some(i) if i > 0 => &keep[..i],
        _ => keep.as_str(),
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', '-', '—', ' ']))
}

/// The first sentence of `s` on one line (up to `.`, `!`, `?` or a `:`
/// that opens a list), cut at a word boundary to `max` characters.
pub fn first_sentence(s: &str, max: usize) -> String {
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = flat
        .char_indices()
        .find(|(i, c)| {
            matches!(c, '.' | '!' | '?' | ':') && flat[i + c.len_utf8()..].starts_with(' ')
        })
        .map(|(i, c)| i + c.len_utf8())
        .unwrap_or(flat.len());
    clip_words(flat[..end].trim_end_matches(':'), max)
}

/// Something that can compress a fold (an LLM, the offline brain).
pub trait Compressor {
    /// The merged summary, or `None` to use the extractive fallback.
    fn compress(&mut self, request: &FoldRequest) -> Option<String>;
}

/// The extractive fallback as a compressor.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extractive;

impl Compressor for Extractive {
    fn compress(&mut self, request: &FoldRequest) -> Option<String> {
        Some(request.extractive())
    }
}

/// True when a window of `keep` items folding in epochs of `every` turns
/// has grown to `len` and must go back to `keep` now: it holds up to
/// `keep + every - 1` items between folds.
pub fn epoch_ends(len: usize, keep: usize, every: usize) -> bool {
    len >= keep.saturating_add(every.max(1))
}

/// Last-N-in-full plus a folded earlier summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "T: Serialize", deserialize = "T: Deserialize<'de>"))]
pub struct FoldingWindow<T> {
    /// Items kept in full, oldest first.
    pub items: VecDeque<T>,
    /// Items that left the window and await folding.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub folding: Vec<T>,
    /// The folded summary of everything older.
    #[serde(default)]
    pub earlier: String,
}

impl<T> Default for FoldingWindow<T> {
    fn default() -> Self {
        Self {
            items: VecDeque::new(),
            folding: Vec::new(),
            earlier: String::new(),
        }
    }
}

impl<T: Foldable + Clone> FoldingWindow<T> {
    /// Appends an item and moves overflow beyond `keep` aside for folding.
    pub fn push(&mut self, item: T, keep: usize) {
        self.push_in_epochs(item, keep, 1);
    }

    /// Appends an item; folds in epochs of `every` turns: the window grows
    /// to `keep + every - 1` items, and the next item moves the `every`
    /// oldest aside at once, back down to `keep`. The earlier summary then
    /// changes every `every` turns instead of every turn, and a prompt
    /// cache keeps what comes before the window's end in between.
    pub fn push_in_epochs(&mut self, item: T, keep: usize, every: usize) {
        self.items.push_back(item);
        if epoch_ends(self.items.len(), keep, every) {
            self.trim_to(keep);
        }
    }

    /// Moves items beyond `keep` aside for folding (also after a policy change).
    pub fn trim_to(&mut self, keep: usize) {
        while self.items.len() > keep {
            if let Some(old) = self.items.pop_front() {
                self.folding.push(old);
            }
        }
    }

    /// The fold to perform, if any item awaits folding.
    pub fn fold_request(&self, kind: FoldKind) -> Option<FoldRequest> {
        if self.folding.is_empty() {
            return None;
        }
        Some(FoldRequest {
            kind,
            earlier: self.earlier.clone(),
            turns: self.folding.iter().map(Foldable::turn).collect(),
            items: self.folding.iter().map(Foldable::fold_text).collect(),
            lines: self.folding.iter().map(Foldable::fold_line).collect(),
            max_chars: EARLIER_MAX_CHARS,
        })
    }

    /// Applies a fold's result (`None` or blank: the extractive fallback).
    /// The result is capped; the folded items are released.
    pub fn complete_fold(&mut self, request: &FoldRequest, result: Option<String>) {
        let text = match result {
            Some(t) if !t.trim().is_empty() => truncate_chars(t.trim(), request.max_chars),
            _ => request.extractive(),
        };
        self.earlier = text;
        let folded: Vec<u32> = request.turns.clone();
        self.folding.retain(|i| !folded.contains(&i.turn()));
    }

    /// Folds now with the given compressor.
    pub fn fold_with(&mut self, kind: FoldKind, compressor: &mut dyn Compressor) {
        if let Some(req) = self.fold_request(kind) {
            let out = compressor.compress(&req);
            self.complete_fold(&req, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    struct Item(u32);

    impl Foldable for Item {
        fn turn(&self) -> u32 {
            self.0
        }
        fn fold_line(&self) -> String {
            format!("Turn {}: something happened", self.0)
        }
        fn fold_text(&self) -> String {
            format!("Turn {} in full", self.0)
        }
    }

    #[test]
    fn keeps_last_n_and_folds_the_rest() {
        let mut w = FoldingWindow::default();
        for t in 1..=3 {
            w.push(Item(t), 2);
        }
        assert_eq!(w.items.len(), 2);
        let req = w.fold_request(FoldKind::Narrative).unwrap();
        assert_eq!(req.turns, vec![1]);
        w.complete_fold(&req, Some("User started meal planning.".into()));
        assert_eq!(w.earlier, "User started meal planning.");
        assert!(w.folding.is_empty());
        assert!(w.fold_request(FoldKind::Narrative).is_none());
    }

    #[test]
    fn extractive_fallback_stays_bounded_and_keeps_the_opening() {
        let mut w = FoldingWindow::default();
        for t in 1..=500 {
            w.push(Item(t), 2);
            w.fold_with(FoldKind::Conversation, &mut Extractive);
            assert!(w.earlier.chars().count() <= EARLIER_MAX_CHARS, "turn {t}");
        }
        assert!(w.earlier.starts_with("Turn 1:"));
        assert!(w.earlier.contains("Turn 498:"));
        assert!(!w.earlier.contains("Turn 499:"));
    }

    #[test]
    fn an_overlong_compression_is_cut() {
        let mut w = FoldingWindow::default();
        w.push(Item(1), 0);
        let req = w.fold_request(FoldKind::Narrative).unwrap();
        w.complete_fold(&req, Some("x".repeat(10_000)));
        assert_eq!(w.earlier.chars().count(), EARLIER_MAX_CHARS);
        // A blank answer falls back to the extractive summary.
        w.push(Item(2), 0);
        let req = w.fold_request(FoldKind::Narrative).unwrap();
        w.complete_fold(&req, Some("   ".into()));
        assert!(w.earlier.contains("Turn 2: something happened"));
    }
}
