//! Session journal benchmarks on the seed conversation: the meal-planning
//! demo (`assets/demo/meal-planning.txt`, 8 turns) sent again and again
//! through the offline pipeline against a seeded kitchen until the session
//! holds 1,000 turns, each with its full record and prompts.
//!
//! - `save_turn_at`: what the persist actor does when turn 10 or turn 1,000
//!   ends: append its line (record and context as deltas, new prompt texts)
//!   and fsync it. The journal is opened on a copy of the file as it stood
//!   before that turn, outside the timing.
//! - `load_1000_turns`: `SessionStore::load` of the 1,000-turn file (read,
//!   rebuild every record).
//! - `open_writer_1000_turns`: `Journal::open` of that file (where the persist
//!   actor continues from; no records built).
//! - `list_50_sessions_of_100_turns`: `SessionStore::list` over 50 copies of
//!   the first 100 turns.
//!
//! Building the conversation takes about half a minute (release), once per
//! run; the file size is printed then.
//!
//! `cargo bench --bench session`

use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use alfred::brain::offline::OfflineBrain;
use alfred::context::ContextPolicy;
use alfred::kitchen::Kitchen;
use alfred::pipeline::{Brain, TurnId, TurnRequest, TurnResult, TurnSettings, run_turn};
use alfred::session::journal::{AppendedTurn, Journal, SessionHead};
use alfred::session::{LlmSettings, SessionFile, SessionStore};
use divan::Bencher;

/// The allocator the `alfred` binary uses, set up as it sets it up.
#[global_allocator]
static GLOBAL: alfred::allocator::Allocator = alfred::allocator::Allocator;

fn main() {
    // SAFETY: before any other thread.
    unsafe { alfred::allocator::return_freed_memory_at_once() };
    divan::main();
}

const ID: &str = "20261125-120000-beef";

/// The 1,000-turn session on disk, with the file as it stood at a few
/// points and the turns appended there.
struct Built {
    dir: tempfile::TempDir,
    /// (turns before, the file then, the next turn).
    before: Vec<(usize, Vec<u8>, AppendedTurn)>,
    /// The file after 100 turns.
    first_100: Vec<u8>,
}

impl Built {
    fn path(&self) -> PathBuf {
        self.dir.path().join(format!("{ID}.json"))
    }
}

static BUILT: LazyLock<Built> = LazyLock::new(build);

fn script() -> Vec<String> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/meal-planning.txt"),
    )
    .expect("the seed conversation");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn build() -> Built {
    let started = std::time::Instant::now();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut kitchen = Kitchen::open(dir.path().join("kitchen.db")).expect("kitchen");
    kitchen
        .seed_if_empty(jiff::civil::date(2026, 11, 25))
        .expect("seed");
    let kitchen = Arc::new(Mutex::new(kitchen));
    let brain: Arc<dyn Brain> = Arc::new(OfflineBrain::default());
    let settings = Arc::new(TurnSettings::default());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let path = dir.path().join(format!("{ID}.json"));
    let mut session = SessionFile::new(
        ID.to_string(),
        jiff::Timestamp::now(),
        LlmSettings::default(),
        ContextPolicy::default(),
    );
    let head = SessionHead::of(&session);
    let mut journal = Journal::open(path.clone(), jiff::Timestamp::now()).expect("journal");
    let (mut before, mut first_100) = (Vec::new(), Vec::new());
    for (i, message) in script().iter().cycle().take(1000).enumerate() {
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        let req = TurnRequest {
            id: TurnId(i as u64 + 1),
            message: message.clone(),
            state: session.context.clone(),
            today: "2026-11-25".into(),
            started_at: jiff::Timestamp::now().to_string(),
        };
        let fut = run_turn(brain.clone(), kitchen.clone(), settings.clone(), req, tx);
        let (record, state) = match runtime.block_on(fut) {
            TurnResult::Done { record, state } => (*record, Some(*state)),
            TurnResult::Failed { record } => (*record, None),
        };
        let turn = AppendedTurn {
            record: record.clone(),
            state: state.clone(),
            at: jiff::Timestamp::now().to_string(),
            commit: None,
        };
        if i == 9 || i == 999 {
            let file = std::fs::read(&path).expect("read");
            before.push((i, file, turn.clone()));
        }
        journal.append_turn(&head, &turn).expect("append");
        session.push_turn(record, state, jiff::Timestamp::now());
        if i == 99 {
            first_100 = std::fs::read(&path).expect("read");
        }
    }
    let size = std::fs::metadata(&path).expect("stat").len();
    eprintln!(
        "\nthe seed conversation, 1,000 turns: {size} bytes ({:.1} MB, {:.1} KB a turn), built in {:.0?}",
        size as f64 / 1e6,
        size as f64 / 1e3 / 1000.0,
        started.elapsed()
    );
    Built {
        dir,
        before,
        first_100,
    }
}

/// Appending the line of turn `turn` (10 or 1,000) and syncing it.
#[divan::bench(args = [10, 1000], sample_count = 20)]
fn save_turn_at(bencher: Bencher, turn: usize) {
    let built = &*BUILT;
    let (_, file, next) = built
        .before
        .iter()
        .find(|(n, ..)| n + 1 == turn)
        .expect("a turn the build kept");
    let dir = tempfile::tempdir().expect("tempdir");
    let head = SessionHead::of(&SessionFile::new(
        ID.to_string(),
        jiff::Timestamp::now(),
        LlmSettings::default(),
        ContextPolicy::default(),
    ));
    let path = dir.path().join(format!("{ID}.json"));
    std::fs::write(&path, file).expect("write");
    bencher
        .with_inputs(|| {
            // Back to the file before the turn — cut to its old length, not
            // written again — and on disk, as it is when a turn ends: the
            // timed fsync flushes the new line only.
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .expect("open");
            f.set_len(file.len() as u64)
                .and_then(|()| f.sync_all())
                .expect("cut");
            Journal::open(path.clone(), jiff::Timestamp::now()).expect("open")
        })
        .bench_local_values(|mut journal| journal.append_turn(&head, next).expect("append"));
}

/// `SessionStore::load`: read the file, rebuild every turn.
#[divan::bench(sample_count = 10)]
fn load_1000_turns(bencher: Bencher) {
    let built = &*BUILT;
    let store = SessionStore::new(built.dir.path());
    bencher.bench_local(|| {
        let s = store.load(ID).expect("load");
        assert_eq!(s.transcript.len(), 1000);
        s
    });
}

/// `Journal::open`: where the writer continues from.
#[divan::bench(sample_count = 10)]
fn open_writer_1000_turns(bencher: Bencher) {
    let path = BUILT.path();
    bencher.bench_local(|| Journal::open(path.clone(), jiff::Timestamp::now()).expect("open"));
}

/// `SessionStore::list` over 50 sessions of 100 turns each.
#[divan::bench(sample_count = 10)]
fn list_50_sessions_of_100_turns(bencher: Bencher) {
    let built = &*BUILT;
    let dir = tempfile::tempdir().expect("tempdir");
    for i in 0..50 {
        let id = format!("20261122-1430{i:02}-beef");
        let text = String::from_utf8(built.first_100.clone()).expect("utf-8");
        std::fs::write(
            dir.path().join(format!("{id}.json")),
            text.replacen(ID, &id, 1),
        )
        .expect("write");
    }
    let store = SessionStore::new(dir.path());
    bencher.bench_local(|| {
        let report = store.list();
        assert_eq!(report.sessions.len(), 50);
        report
    });
}
