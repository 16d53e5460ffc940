//! Session file benchmarks on a realistic 1,000-turn session (the synthetic
//! kitchen conversation of `session::sample`, a few hundred refs, every turn's
//! full record): clone, encode, atomic save (temp file, fsync, rename, folder fsync),
//! load (read, decode), and listing 50 sessions of 100 turns.
//!
//! Run with `cargo bench --bench session`. The file size is printed once.

use std::sync::LazyLock;

use alfred::session::sample::sample_session;
use alfred::session::{SessionFile, SessionStore, write_atomic};
use divan::Bencher;

fn main() {
    divan::main();
}

/// The 1,000-turn session, built once (outside every timing).
static SESSION: LazyLock<SessionFile> = LazyLock::new(|| {
    let s = sample_session(1000, 42);
    let bytes = s.to_bytes().expect("encode");
    eprintln!(
        "\n1,000-turn session: {} bytes ({:.1} MB), {} refs in the registry",
        bytes.len(),
        bytes.len() as f64 / 1e6,
        s.context.registry.len()
    );
    s
});

/// What a caller pays on its own thread to keep a copy when it hands the
/// session to `PersistHandle::save` by value (an `Arc` avoids it).
#[divan::bench(sample_count = 10)]
fn clone_1000_turns(bencher: Bencher) {
    let session = &*SESSION;
    bencher.bench_local(|| divan::black_box(session.clone()));
}

/// Serialising to JSON only.
#[divan::bench(sample_count = 10)]
fn encode_1000_turns(bencher: Bencher) {
    let session = &*SESSION;
    bencher.bench_local(|| divan::black_box(session.to_bytes().expect("encode")));
}

/// What the persist actor does per save: encode, then the atomic write.
#[divan::bench(sample_count = 10)]
fn save_1000_turns(bencher: Bencher) {
    let session = &*SESSION;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(format!("{}.json", session.id));
    bencher.bench_local(|| {
        let bytes = session.to_bytes().expect("encode");
        write_atomic(&path, &bytes).expect("write");
    });
}

/// `SessionStore::load`: read the file, check it, decode it.
#[divan::bench(sample_count = 10)]
fn load_1000_turns(bencher: Bencher) {
    let session = &*SESSION;
    let dir = tempfile::tempdir().expect("tempdir");
    write_atomic(
        &dir.path().join(format!("{}.json", session.id)),
        &session.to_bytes().expect("encode"),
    )
    .expect("write");
    let store = SessionStore::new(dir.path());
    bencher.bench_local(|| divan::black_box(store.load(&session.id).expect("load")));
}

/// `SessionStore::list` over 50 sessions of 100 turns each.
#[divan::bench(sample_count = 10)]
fn list_50_sessions_of_100_turns(bencher: Bencher) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = sample_session(100, 7);
    for i in 0..50 {
        s.id = format!("20261122-1430{i:02}-beef");
        write_atomic(
            &dir.path().join(format!("{}.json", s.id)),
            &s.to_bytes().expect("encode"),
        )
        .expect("write");
    }
    let store = SessionStore::new(dir.path());
    bencher.bench_local(|| {
        let report = store.list();
        assert_eq!(report.sessions.len(), 50);
        divan::black_box(report)
    });
}
