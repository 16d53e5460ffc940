//! The arena (`alfred eval`): replays scenarios under several retention
//! policies, measures what each costs and forgets, and lets a judge that
//! reads the raw log check what each Think prompt kept (seeds/002).
//!
//! - [`scenarios`]: what is replayed (built-ins, scripts, session files);
//! - [`contenders`]: the policies compared, the naive baseline always last;
//! - [`run`]: one policy on one script through the real pipeline;
//! - [`measure`]: regret, rescues, waste and tokens from the turn records;
//! - [`cache`]: what the prompts cost against a server's prompt cache;
//! - [`judge`]: the user's standing commitments and whether Think saw them;
//! - [`report`]: the table, the JSON, the suggested policy.

pub mod cache;
pub mod contenders;
pub mod judge;
pub mod llm_judge;
pub mod measure;
pub mod report;
pub mod run;
pub mod scenarios;

pub use contenders::{Contender, contenders, parse_spec};
pub use report::Report;
pub use run::{Bench, Observation, Run};
pub use scenarios::{Scenario, built_in};

/// Scores one finished run of `scenario` under `contender`; `baseline` is
/// the same scenario's run under the naive baseline, when there is one.
pub fn score(
    scenario: &Scenario,
    contender: &Contender,
    run: &Run,
    baseline: Option<&Run>,
) -> report::ScenarioResult {
    let facts = measure::facts(&run.turns, baseline.map(|b| b.turns.as_slice()));
    let memory = measure::score(&facts);
    let commitments = judge::commitments(&run.turns);
    let recall = judge::judge(&run.turns, &commitments);
    report::ScenarioResult {
        scenario: scenario.name.clone(),
        policy: contender.name.clone(),
        turns: run.turns.len(),
        failed: run.failed.clone(),
        memory,
        recall,
        llm_recall: None,
        think_last_vs_naive: None,
        cache: cache::CacheScore::of(&run.turns),
    }
}

/// Every scenario under every contender, in order; `progress` hears each
/// pair before it runs.
pub async fn run_all(
    bench: &Bench,
    scenarios: &[Scenario],
    contenders: &[Contender],
    progress: &mut dyn FnMut(&Scenario, &Contender),
) -> Result<Vec<(report::ScenarioResult, Run)>, String> {
    let mut out = Vec::new();
    for s in scenarios {
        let mut runs = Vec::with_capacity(contenders.len());
        for c in contenders {
            progress(s, c);
            runs.push(bench.run(&c.policy, &s.messages).await?);
        }
        let baseline = contenders
            .iter()
            .position(|c| c.baseline)
            .map(|i| runs[i].clone());
        for (c, run) in contenders.iter().zip(runs) {
            out.push((score(s, c, &run, baseline.as_ref()), run));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
