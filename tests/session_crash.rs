//! A crash at any moment loses at most the turn being saved, never the session.
//!
//! The test re-executes its own binary as a child (`ALFRED_PERSIST_CHILD=1`,
//! filtered to this test) that saves a session turn after turn through the
//! persist actor, printing `saved N` after each flush. The parent kills it
//! with SIGKILL at a random point, then checks that the file parses, holds at
//! least the N last reported, and that the stale lock is simply re-acquired.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use alfred::context::ContextPolicy;
use alfred::record::{TurnRecord, TurnStatus};
use alfred::session::{LlmSettings, SessionFile, SessionLock, SessionStore, spawn_persist};

const CHILD_ENV: &str = "ALFRED_PERSIST_CHILD";
const DIR_ENV: &str = "ALFRED_PERSIST_DIR";
const TEST_NAME: &str =
    "a_process_killed_mid_save_leaves_every_file_whole_and_at_most_one_turn_behind";
const ID: &str = "20261122-143005-dead";
const SAVES: u32 = 200;
const ROUNDS: u32 = 10;

#[test]
fn a_process_killed_mid_save_leaves_every_file_whole_and_at_most_one_turn_behind() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return run_child();
    }
    let deadline = Instant::now() + Duration::from_secs(180);
    let mut kill_points = Vec::new();
    for round in 0..ROUNDS {
        let tmp = tempfile::tempdir().expect("tmp");
        // Spread the kill points over the whole run, each round in its own band.
        let band = SAVES / ROUNDS;
        let kill_after = round * band + random_below(band) + 1;
        let confirmed = run_and_kill(tmp.path(), kill_after, deadline);
        kill_points.push(confirmed);
        check_survivor(tmp.path(), confirmed);
    }
    assert!(
        kill_points.iter().any(|&n| n > SAVES / 2),
        "{kill_points:?}"
    );
}

/// Starts the child, reads `saved N` lines until N reaches `kill_after`,
/// waits a random moment within one save and kills it. Returns the last N read.
fn run_and_kill(dir: &Path, kill_after: u32, deadline: Instant) -> u32 {
    let exe = std::env::current_exe().expect("test binary");
    let mut child = Command::new(exe)
        .args(["--exact", TEST_NAME, "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, "1")
        .env(DIR_ENV, dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn child");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(n) = line
                .strip_prefix("saved ")
                .and_then(|n| n.trim().parse::<u32>().ok())
                && tx.send(n).is_err()
            {
                break;
            }
        }
    });
    let mut confirmed = 0;
    let mut first_line: Option<Instant> = None;
    while confirmed < kill_after {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(n) => {
                confirmed = n;
                first_line.get_or_insert_with(Instant::now);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                panic!("the child stalled after {confirmed} saves");
            }
        }
    }
    // Land anywhere in the next save: wait a random part of the average cadence.
    let cadence = first_line.map_or(Duration::from_millis(2), |t| {
        t.elapsed() / confirmed.saturating_sub(1).max(1)
    });
    let cadence_us = u32::try_from(cadence.as_micros())
        .unwrap_or(u32::MAX)
        .max(1);
    std::thread::sleep(Duration::from_micros(u64::from(random_below(cadence_us))));
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    // Lines already printed before the kill still count.
    while let Ok(n) = rx.try_recv() {
        confirmed = n;
    }
    confirmed
}

/// The session file after a kill: whole, parseable, not behind what was reported.
fn check_survivor(dir: &Path, confirmed: u32) {
    let store = SessionStore::new(dir);
    let report = store.list();
    assert!(
        report.problems.is_empty(),
        "after a kill at {confirmed}: {:?}",
        report.problems
    );
    if confirmed == 0 && !store.path_of(ID).exists() {
        return;
    }
    let session = store.load(ID).expect("the file parses");
    let turns = session.turn_count() as u32;
    assert!(
        turns >= confirmed,
        "lost a saved turn: {turns} on disk, {confirmed} reported"
    );
    assert!(turns <= SAVES);
    for (i, r) in session.transcript.iter().enumerate() {
        assert_eq!(r.turn as usize, i + 1, "turns are whole and in order");
    }
    // The dead child's lock is stale: the OS released it.
    let lock = SessionLock::acquire(dir, ID).expect("a stale lock is re-acquired");
    drop(lock);
}

/// The child: 200 saves, each flushed, each reported on stdout.
fn run_child() {
    let dir = std::env::var_os(DIR_ENV).expect("dir");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async move {
        let store = SessionStore::new(&dir);
        let lock = store.lock(ID).expect("lock");
        let (handle, _events) = spawn_persist(&dir);
        handle.hold(lock).expect("hold");
        let now = "2026-11-22T14:30:05Z".parse().expect("time");
        let llm = LlmSettings::new("offline", None, "https://api.openai.com/v1");
        let mut session = SessionFile::new(ID.into(), now, llm, ContextPolicy::default());
        for n in 1..=SAVES {
            session.push_turn(turn(n), None, now);
            handle.save(session.clone()).expect("queued");
            handle.flush().await.expect("saved");
            println!("saved {n}");
        }
    });
}

/// A turn with enough text that a write takes a moment.
fn turn(n: u32) -> TurnRecord {
    TurnRecord {
        turn: n,
        user: format!("turn {n}: what can I cook with the leftover rice and {n} eggs?"),
        reply: "Fried rice: heat oil, scramble the eggs, add the rice and soy sauce. ".repeat(20),
        status: if n.is_multiple_of(7) {
            TurnStatus::Failed
        } else {
            TurnStatus::Ok
        },
        goal: "Use leftovers".into(),
        ..TurnRecord::default()
    }
}

fn random_below(n: u32) -> u32 {
    (uuid::Uuid::new_v4().as_u128() % u128::from(n.max(1))) as u32
}
