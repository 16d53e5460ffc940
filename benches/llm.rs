//! Where the time of an LLM turn goes: the seeds' meal-planning conversation
//! through the LLM brain against the fake server, which holds every call
//! 200 ms before its first byte.
//!
//! For each turn it measures the time to the first reply token and the whole
//! turn, and sets them against the calls on the critical path (Understand +
//! Think + the Act waves — steps of one group run at once — + Reply, counted
//! from the requests the server saw): what is left is the pipeline's own
//! overhead. It also checks that compression of older turns starts only
//! after the reply has finished (it is not on the reply's critical path),
//! and counts the connections each turn opened: a call that leaves before
//! the pool has taken the last one back opens another, so the figure
//! depends on the machine's load and is reported here, not asserted in a
//! test (`tests/llm_pipeline.rs` checks only that connections are reused).
//!
//! `cargo bench --bench llm` (plain timing, `harness = false`).

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use alfred::context::{ContextPolicy, ContextState};
use alfred::pipeline::{Node as Step, PipelineEvent, TurnResult, TurnSettings, run_turn};
use tokio::sync::mpsc;

use support::meal_planning::{MESSAGES, script};
use support::{FakeOpenAi, Node, Recorded};

const LATENCY: Duration = Duration::from_millis(200);
const RUNS: usize = 3;

/// What one turn took.
#[derive(Debug, Clone, Default)]
struct Timing {
    first_token: Duration,
    reply_done: Duration,
    total: Duration,
    /// Calls before the first token: Understand, Think, Act waves, Reply.
    critical_calls: u32,
    /// Every call of the turn, and how many were compressions.
    calls: usize,
    /// Connections the server accepted during the turn.
    connections: usize,
    compress_calls: usize,
    /// How long after the reply finished the first compression was asked.
    compress_after_reply: Option<Duration>,
}

/// Runs one turn as its own task, stamping events as they arrive.
async fn timed_turn(
    fake: &FakeOpenAi,
    brain: Arc<alfred::brain::llm::LlmBrain>,
    kitchen: Arc<std::sync::Mutex<alfred::kitchen::Kitchen>>,
    state: ContextState,
    message: &str,
) -> (ContextState, Timing) {
    let sent_before = fake.requests().len();
    let connections_before = fake.connections();
    let (tx, mut rx) = mpsc::unbounded_channel();
    let started = Instant::now();
    let task = tokio::spawn(run_turn(
        brain,
        kitchen,
        Arc::new(TurnSettings::default()),
        support::request(1, state, message),
        tx,
    ));
    let (mut first, mut reply_done) = (None, None);
    while let Some(event) = rx.recv().await {
        match event {
            PipelineEvent::ReplyChunk { .. } if first.is_none() => first = Some(Instant::now()),
            PipelineEvent::NodeFinished {
                node: Step::Reply, ..
            } => reply_done = Some(Instant::now()),
            _ => {}
        }
    }
    let result = task.await.expect("turn task");
    let total = started.elapsed();
    let TurnResult::Done { state, .. } = result else {
        panic!("{message}: the turn failed");
    };
    let requests: Vec<Recorded> = fake.requests()[sent_before..].to_vec();
    let reply_done = reply_done.expect("reply finished");
    let first_compress = requests.iter().find(|r| r.node == Node::Compress);
    let timing = Timing {
        first_token: first.expect("a reply chunk") - started,
        reply_done: reply_done - started,
        total,
        critical_calls: critical_calls(&requests),
        calls: requests.len(),
        connections: fake.connections() - connections_before,
        compress_calls: requests.iter().filter(|r| r.node == Node::Compress).count(),
        compress_after_reply: first_compress.map(|c| c.at.saturating_duration_since(reply_done)),
    };
    assert!(
        first_compress.is_none_or(|c| c.at >= reply_done),
        "compression started before the reply finished"
    );
    (*state, timing)
}

/// Understand + Think + Act waves (requests less than half a latency apart
/// ran together) + Reply.
fn critical_calls(requests: &[Recorded]) -> u32 {
    let mut waves = 0;
    let mut last: Option<Instant> = None;
    for r in requests.iter().filter(|r| r.node == Node::Act) {
        if last.is_none_or(|l| r.at.duration_since(l) > LATENCY / 2) {
            waves += 1;
        }
        last = Some(r.at);
    }
    let once = |n: Node| u32::from(requests.iter().any(|r| r.node == n));
    once(Node::Understand) + once(Node::Think) + waves + once(Node::Reply)
}

/// The connections turn `i` opened over the runs: "1", or "1-2" when runs differ.
fn connections_range(runs: &[Vec<Timing>], i: usize) -> String {
    let counts = runs.iter().map(|r| r[i].connections);
    let (lo, hi) = (counts.clone().min(), counts.max());
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo != hi => format!("{lo}-{hi}"),
        (_, Some(hi)) => hi.to_string(),
        _ => "-".to_string(),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let mut runs: Vec<Vec<Timing>> = Vec::new();
    for _ in 0..RUNS {
        let fake = FakeOpenAi::start();
        fake.set_latency(LATENCY);
        script(&fake);
        let brain = support::brain(&support::llm_config(&fake));
        let (_dir, kitchen) = support::kitchen();
        let mut state = ContextState::new(ContextPolicy::default());
        let mut timings = Vec::new();
        for message in MESSAGES {
            let (next, t) = runtime.block_on(timed_turn(
                &fake,
                brain.clone(),
                kitchen.clone(),
                state,
                message,
            ));
            state = next;
            timings.push(t);
        }
        runs.push(timings);
    }
    println!(
        "LLM turn timing: fake server holding each call {} ms; median of {RUNS} runs",
        LATENCY.as_millis()
    );
    println!(
        "{:<40} {:>5} {:>5} {:>9} {:>10} {:>11} {:>9} {:>10} {:>9} {:>16}",
        "turn",
        "calls",
        "conns",
        "critical",
        "ideal TTFT",
        "first token",
        "overhead",
        "reply done",
        "total",
        "compress starts"
    );
    for (i, message) in MESSAGES.iter().enumerate() {
        let t = &runs[0][i];
        let pick = |f: fn(&Timing) -> Duration| median(runs.iter().map(|r| ms(f(&r[i]))).collect());
        let ideal = ms(LATENCY) * f64::from(t.critical_calls);
        let first = pick(|t| t.first_token);
        let compress = match t.compress_calls {
            0 => "none".to_string(),
            n => format!(
                "{n} call, +{:.0} ms after",
                median(
                    runs.iter()
                        .filter_map(|r| r[i].compress_after_reply)
                        .map(ms)
                        .collect()
                )
            ),
        };
        println!(
            "{:<40} {:>5} {:>5} {:>9} {:>8.0} ms {:>8.0} ms {:>6.0} ms {:>7.0} ms {:>6.0} ms {:>16}",
            message,
            t.calls,
            connections_range(&runs, i),
            t.critical_calls,
            ideal,
            first,
            first - ideal,
            pick(|t| t.reply_done),
            pick(|t| t.total),
            compress
        );
    }
}
