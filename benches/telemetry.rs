//! What telemetry adds to a turn: building a turn's trace from its record
//! and queuing it for the batch exporter, with the collector down (nothing
//! listens at its address) and with telemetry off. Sending happens on the
//! exporter's own thread, off the turn's path.
//!
//! `cargo bench --bench telemetry`

use alfred::fixtures::Conversation;
use alfred::record::{TurnObserver, TurnRecord};
use alfred::telemetry::Telemetry;
use alfred::telemetry::spans::Capture;
use divan::Bencher;

fn main() {
    divan::main();
}

/// A planning turn's record: steps, tool calls, a full set of layers.
fn record() -> TurnRecord {
    let mut talk = Conversation::new();
    talk.say("can you help me plan some meals?");
    talk.say("what's in my fridge?");
    talk.say("put the first one on friday dinner");
    talk.last().clone()
}

/// The observer's call at the end of a turn, the collector down.
#[divan::bench(args = [false, true], sample_count = 200)]
fn turn_ended_collector_down(bencher: Bencher, content: bool) {
    let rec = record();
    // Nothing listens on port 9 (discard): every export fails.
    let telemetry = Telemetry::new("http://127.0.0.1:9", Capture { content }).expect("exporter");
    bencher.bench_local(|| telemetry.turn_ended("bench-session", divan::black_box(&rec)));
}
