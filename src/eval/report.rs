//! The arena's report: per scenario and policy, the summary across
//! scenarios, the suggested policy; as a terminal table or JSON.

use std::fmt::Write;

use serde::Serialize;

use crate::context::ContextPolicy;
use crate::text::thousands;

use super::cache::CacheScore;
use super::judge::{Lapse, Recall};
use super::measure::{MemoryScore, Spread};

/// One scenario under one policy.
#[derive(Debug, Clone, Serialize)]
pub struct ScenarioResult {
    pub scenario: String,
    pub policy: String,
    /// Turns measured (failed ones are not).
    pub turns: usize,
    /// (message number, why) of failed turns.
    pub failed: Vec<(usize, String)>,
    #[serde(flatten)]
    pub memory: MemoryScore,
    /// The rule-based judge.
    pub recall: Recall,
    /// The LLM judge, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm_recall: Option<Recall>,
    /// The naive baseline's last-turn Think prompt over this one's.
    pub think_last_vs_naive: Option<f64>,
    /// The prompts against a server's prompt cache.
    pub cache: CacheScore,
}

impl ScenarioResult {
    fn think(&self) -> Spread {
        self.memory.tokens.get("think").copied().unwrap_or_default()
    }

    fn total_sum(&self) -> f64 {
        let t = self.memory.tokens.get("total").copied().unwrap_or_default();
        t.mean * self.turns as f64
    }

    fn lapses(&self) -> impl Iterator<Item = &Lapse> {
        self.recall
            .lapses
            .iter()
            .chain(self.llm_recall.iter().flat_map(|r| &r.lapses))
    }
}

/// One policy across every scenario.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub policy: String,
    pub regret_turns: usize,
    pub rescued: usize,
    pub rereads: usize,
    pub idle: usize,
    pub checks: usize,
    pub lapses: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm_lapses: Option<usize>,
    /// Prompt tokens of every node, per turn, over all scenarios.
    pub tokens_per_turn: f64,
    /// The last-turn Think prompts of all scenarios, added up.
    pub think_last_sum: usize,
    /// The naive baseline's `think_last_sum` over this one's.
    pub think_last_vs_naive: Option<f64>,
    pub failed_turns: usize,
    /// Every scenario's prompts against the prompt cache, added up.
    pub cache: CacheScore,
    /// New prompt tokens a turn (one cache slot per node).
    pub new_per_turn: f64,
    /// Cached tokens over all prompt tokens.
    pub cached_share: f64,
    /// New tokens plus the cached-token price times cached ones, a turn.
    pub cost_per_turn: f64,
    /// The naive baseline's cost a turn over this one's.
    pub cost_vs_naive: Option<f64>,
}

impl Summary {
    fn clean(&self) -> bool {
        self.regret_turns == 0
            && self.lapses == 0
            && self.llm_lapses.unwrap_or(0) == 0
            && self.failed_turns == 0
    }
}

/// A policy under test, as the report names it.
#[derive(Debug, Clone, Serialize)]
pub struct PolicyEntry {
    pub name: String,
    pub baseline: bool,
    pub context: ContextPolicy,
}

/// Everything `alfred eval` found.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// "offline", or the model and server.
    pub brain: String,
    /// "rules", or "rules + <model>".
    pub judge: String,
    /// The kitchen's date during the runs.
    pub today: String,
    /// The price of a cached prompt token against a new one.
    pub cached_price: f64,
    pub policies: Vec<PolicyEntry>,
    pub results: Vec<ScenarioResult>,
    pub summary: Vec<Summary>,
    /// The cheapest policy with zero regret and full recall, if any.
    pub suggested: Option<String>,
    pub suggestion: String,
}

impl Report {
    /// Sums the results per policy, computes the ratios, picks the suggestion.
    pub fn new(
        brain: String,
        judge: String,
        today: String,
        cached_price: f64,
        policies: Vec<PolicyEntry>,
        mut results: Vec<ScenarioResult>,
    ) -> Self {
        let baseline = policies.iter().find(|p| p.baseline).map(|p| p.name.clone());
        let naive_last = |scenario: &str, results: &[ScenarioResult]| {
            results
                .iter()
                .find(|r| Some(&r.policy) == baseline.as_ref() && r.scenario == scenario)
                .map(|r| r.think().last)
        };
        let ratios: Vec<Option<f64>> = results
            .iter()
            .map(|r| ratio(naive_last(&r.scenario, &results), r.think().last))
            .collect();
        for (r, x) in results.iter_mut().zip(ratios) {
            r.think_last_vs_naive = x;
        }
        let mut summary: Vec<Summary> = policies
            .iter()
            .map(|p| summarize(&p.name, &results, cached_price))
            .collect();
        let naive = summary
            .iter()
            .find(|s| Some(&s.policy) == baseline.as_ref())
            .map(|s| (s.think_last_sum, s.cost_per_turn));
        for s in &mut summary {
            s.think_last_vs_naive = ratio(naive.map(|n| n.0), s.think_last_sum);
            s.cost_vs_naive = naive
                .filter(|_| s.cost_per_turn > 0.0)
                .map(|n| n.1 / s.cost_per_turn);
        }
        let clean: Vec<&Summary> = summary.iter().filter(|s| s.clean()).collect();
        let best = clean
            .iter()
            .copied()
            .min_by(|a, b| a.cost_per_turn.total_cmp(&b.cost_per_turn));
        let others: Vec<&str> = clean
            .iter()
            .filter(|s| best.is_some_and(|b| b.policy != s.policy))
            .map(|s| s.policy.as_str())
            .collect();
        let also = if others.is_empty() {
            String::new()
        } else {
            format!("; also clean: {}", others.join(", "))
        };
        let (suggested, suggestion) = match best {
            Some(s) if Some(&s.policy) == baseline.as_ref() && others.is_empty() => (
                Some(s.policy.clone()),
                format!(
                    "{}: only the baseline had zero regret and full recall (cost {} a turn)",
                    s.policy,
                    thousands(s.cost_per_turn.round() as usize)
                ),
            ),
            Some(s) => (
                Some(s.policy.clone()),
                format!(
                    "{}: the cheapest with zero regret and full recall (cost {} a turn: {} new \
                     prompt tokens, {:.0}% cached{}){also}",
                    s.policy,
                    thousands(s.cost_per_turn.round() as usize),
                    thousands(s.new_per_turn.round() as usize),
                    s.cached_share * 100.0,
                    s.cost_vs_naive
                        .filter(|_| Some(&s.policy) != baseline.as_ref())
                        .map(|x| format!("; {x:.2}× below the naive baseline's cost"))
                        .unwrap_or_default()
                ),
            ),
            None => (
                None,
                "none: every policy had regret, lapses of recall or failed turns".to_string(),
            ),
        };
        Self {
            brain,
            judge,
            today,
            cached_price,
            policies,
            results,
            summary,
            suggested,
            suggestion,
        }
    }

    /// The report as a terminal table.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "alfred eval · brain: {} · judge: {} · kitchen date {}\n",
            self.brain, self.judge, self.today
        );
        let mut scenarios: Vec<&str> = Vec::new();
        for r in &self.results {
            if !scenarios.contains(&r.scenario.as_str()) {
                scenarios.push(&r.scenario);
            }
        }
        let width = self
            .policies
            .iter()
            .map(|p| p.name.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        let llm = self.results.iter().any(|r| r.llm_recall.is_some());
        let header = |out: &mut String, first: &str| {
            let _ = writeln!(
                out,
                "  {first:<width$}  regret  rescued  re-read  idle  recall{}  think mean / max / last   all/turn  vs naive  new/turn  cached  cost/turn",
                if llm { "  llm recall" } else { "" }
            );
        };
        for s in &scenarios {
            let rows: Vec<&ScenarioResult> =
                self.results.iter().filter(|r| r.scenario == *s).collect();
            let turns = rows.first().map_or(0, |r| r.turns + r.failed.len());
            let _ = writeln!(out, "{s} ({})", crate::text::count(turns, "turn", "turns"));
            header(&mut out, "policy");
            for r in rows {
                let t = r.think();
                let all = r.memory.tokens.get("total").copied().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  {:<width$}  {:>6}  {:>7}  {:>7}  {:>4}  {:>6}{}  {:>5} / {:>5} / {:>5}  {:>9}  {:>8}  {:>8}  {:>6}  {:>9}{}",
                    r.policy,
                    r.memory.regret_turns,
                    r.memory.rescued,
                    r.memory.rereads,
                    r.memory.idle,
                    recall_cell(&r.recall),
                    r.llm_recall
                        .as_ref()
                        .map(|x| format!("  {:>10}", recall_cell(x)))
                        .unwrap_or_default(),
                    thousands(t.mean.round() as usize),
                    thousands(t.max),
                    thousands(t.last),
                    thousands(all.mean.round() as usize),
                    times(r.think_last_vs_naive),
                    thousands(r.cache.new_per_turn().round() as usize),
                    percent(r.cache.per_node.share()),
                    thousands(r.cache.cost_per_turn(self.cached_price).round() as usize),
                    if r.failed.is_empty() {
                        String::new()
                    } else {
                        format!("  ({} failed)", r.failed.len())
                    }
                );
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "All scenarios");
        let _ = writeln!(
            out,
            "  {:<width$}  regret  rescued  re-read  idle  recall{}  tokens/turn  last Think, summed  vs naive  new/turn  cached  cost/turn  vs naive  calls",
            "policy",
            if llm { "  llm lapses" } else { "" }
        );
        for s in &self.summary {
            let _ = writeln!(
                out,
                "  {:<width$}  {:>6}  {:>7}  {:>7}  {:>4}  {:>6}{}  {:>11}  {:>18}  {:>8}  {:>8}  {:>6}  {:>9}  {:>8}  {:>5}",
                s.policy,
                s.regret_turns,
                s.rescued,
                s.rereads,
                s.idle,
                format!("{}/{}", s.checks - s.lapses, s.checks),
                s.llm_lapses
                    .map(|x| format!("  {x:>10}"))
                    .unwrap_or_default(),
                thousands(s.tokens_per_turn.round() as usize),
                thousands(s.think_last_sum),
                times(s.think_last_vs_naive),
                thousands(s.new_per_turn.round() as usize),
                percent(s.cached_share),
                thousands(s.cost_per_turn.round() as usize),
                times(s.cost_vs_naive),
                s.cache.calls,
            );
        }
        let findings = self.findings();
        if !findings.is_empty() {
            let _ = writeln!(out, "\nWhat the judge caught");
            for f in findings {
                let _ = writeln!(out, "  {f}");
            }
        }
        let places: Vec<(&str, Vec<String>)> = self
            .summary
            .iter()
            .map(|s| (s.policy.as_str(), s.cache.where_new(4)))
            .filter(|(_, p)| !p.is_empty())
            .collect();
        if !places.is_empty() {
            let _ = writeln!(
                out,
                "\nWhere new tokens start (the node and section where a prompt first differs from \
                 its slot's, by share of new tokens)"
            );
            for (policy, p) in places {
                let _ = writeln!(out, "  {policy:<width$}  {}", p.join(", "));
            }
        }
        let _ = writeln!(out, "\nSuggested policy: {}", self.suggestion);
        let _ = writeln!(
            out,
            "\nregret: turns that needed an entity Think did not have · rescued: entities Understand \
             brought back · re-read: rows read though active · idle: entity-turns never used again · \
             recall: commitments Think was shown / checked · vs naive: the naive baseline's last \
             Think prompt over this one's (or, after cost, the baseline's cost over this one's)"
        );
        let _ = writeln!(
            out,
            "cache (from turn {}, one slot per node): new/turn: prompt tokens the server evaluates · \
             cached: the share it took from its cache · cost/turn: new + {} × cached · calls: \
             prompts sent",
            super::cache::FROM_TURN,
            self.cached_price
        );
        out
    }

    /// Regret and lapses, one line each.
    pub fn findings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for r in &self.results {
            for g in &r.memory.regret {
                let mut what = Vec::new();
                if !g.missing.is_empty() {
                    what.push(format!("Think lacked {}", g.missing.join(", ")));
                }
                if !g.failed_mentions.is_empty() {
                    what.push(format!(
                        "unresolved \"{}\"",
                        g.failed_mentions.join("\", \"")
                    ));
                }
                if !g.violations.is_empty() {
                    what.push(format!(
                        "used {} though a standing constraint rules them out",
                        g.violations.join(", ")
                    ));
                }
                out.push(format!(
                    "{} · {} · turn {}: regret — {}",
                    r.policy,
                    r.scenario,
                    g.turn,
                    what.join("; ")
                ));
            }
            for l in r.lapses() {
                out.push(format!(
                    "{} · {} · turn {}: Think was not shown the {} {}",
                    r.policy,
                    r.scenario,
                    l.turn,
                    l.kind.as_str(),
                    l.what
                ));
            }
            for (i, why) in &r.failed {
                out.push(format!(
                    "{} · {} · message {}: the turn failed: {why}",
                    r.policy,
                    r.scenario,
                    i + 1
                ));
            }
        }
        out
    }
}

fn summarize(policy: &str, results: &[ScenarioResult], cached_price: f64) -> Summary {
    let rows: Vec<&ScenarioResult> = results.iter().filter(|r| r.policy == policy).collect();
    let mut cache = CacheScore::default();
    for r in &rows {
        cache.add(&r.cache);
    }
    let (new_per_turn, cached_share, cost_per_turn) = (
        cache.new_per_turn(),
        cache.per_node.share(),
        cache.cost_per_turn(cached_price),
    );
    let turns: usize = rows.iter().map(|r| r.turns).sum();
    let llm: Vec<usize> = rows
        .iter()
        .filter_map(|r| r.llm_recall.as_ref().map(|x| x.lapses.len()))
        .collect();
    Summary {
        policy: policy.to_string(),
        regret_turns: rows.iter().map(|r| r.memory.regret_turns).sum(),
        rescued: rows.iter().map(|r| r.memory.rescued).sum(),
        rereads: rows.iter().map(|r| r.memory.rereads).sum(),
        idle: rows.iter().map(|r| r.memory.idle).sum(),
        checks: rows.iter().map(|r| r.recall.checks).sum(),
        lapses: rows.iter().map(|r| r.recall.lapses.len()).sum(),
        llm_lapses: (!llm.is_empty()).then(|| llm.iter().sum()),
        tokens_per_turn: if turns == 0 {
            0.0
        } else {
            rows.iter().map(|r| r.total_sum()).sum::<f64>() / turns as f64
        },
        think_last_sum: rows.iter().map(|r| r.think().last).sum(),
        think_last_vs_naive: None,
        failed_turns: rows.iter().map(|r| r.failed.len()).sum(),
        cache,
        new_per_turn,
        cached_share,
        cost_per_turn,
        cost_vs_naive: None,
    }
}

fn ratio(naive: Option<usize>, this: usize) -> Option<f64> {
    naive.filter(|_| this > 0).map(|n| n as f64 / this as f64)
}

fn recall_cell(r: &Recall) -> String {
    format!("{}/{}", r.checks - r.lapses.len(), r.checks)
}

fn percent(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

fn times(x: Option<f64>) -> String {
    x.map(|x| format!("{x:.2}×")).unwrap_or_else(|| "—".into())
}
