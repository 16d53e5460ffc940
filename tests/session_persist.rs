//! The persist actor end to end: exact round trips of long sessions, the
//! lock it requires, and failed saves that are reported and retried.

use alfred::context::ContextPolicy;
use alfred::session::sample::sample_session;
use alfred::session::{
    LlmSettings, PersistEvent, SessionError, SessionFile, SessionLock, spawn_persist,
};
#[path = "support/session_files.rs"]
mod session_files;

use session_files::{at, store};

#[tokio::test]
async fn a_1000_turn_session_round_trips_exactly_through_the_actor() {
    let tmp = tempfile::tempdir().expect("tmp");
    let session = sample_session(1000, 42);
    assert_eq!(session.turn_count(), 1000);
    assert!(session.context.registry.len() >= 200, "a few hundred refs");
    assert!(
        session.transcript.iter().any(|r| r.error.is_some()),
        "failed turns included"
    );
    let store = store(tmp.path());
    let (handle, mut events) = spawn_persist(tmp.path());
    handle
        .hold(store.lock(&session.id).expect("lock"))
        .expect("hold");
    handle.save(session.clone()).expect("queue");
    handle.flush().await.expect("flushed");
    match events.recv().await {
        Some(PersistEvent::Saved { id, bytes, .. }) => {
            assert_eq!(id, session.id);
            assert_eq!(
                bytes,
                std::fs::metadata(store.path_of(&id)).expect("file").len()
            );
        }
        other => panic!("expected a save, got {other:?}"),
    }
    let loaded = store.load(&session.id).expect("load");
    if let Some(diff) = first_difference(&json(&session), &json(&loaded), String::new()) {
        panic!(
            "the loaded session differs from the saved one at {diff}. If these are floats one \
             bit apart, serde_json is parsing them approximately: enable its `float_roundtrip` feature"
        );
    }
    assert!(loaded == session);
    let listed = store.list();
    assert_eq!(listed.sessions.len(), 1);
    // Completed turns and failed attempts are counted apart.
    let failed = session
        .transcript
        .iter()
        .filter(|r| r.status == alfred::record::TurnStatus::Failed)
        .count();
    assert!(failed > 0, "the sample has failed turns");
    let listed = &listed.sessions[0];
    assert_eq!((listed.turns, listed.failed), (1000 - failed, failed));
    assert!(!listed.pending);
}

fn json(s: &SessionFile) -> serde_json::Value {
    serde_json::to_value(s).expect("encode")
}

/// The path and values of the first difference between two JSON documents.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, path: String) -> Option<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            x.iter().find_map(|(k, v)| {
                first_difference(v, y.get(k).unwrap_or(&Value::Null), format!("{path}.{k}"))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(v, w, format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => Some(format!("{path}: saved {a} / loaded {b}")),
    }
}

#[tokio::test]
async fn two_writers_cannot_share_a_session() {
    let tmp = tempfile::tempdir().expect("tmp");
    let store = store(tmp.path());
    let (session, lock) = store
        .create(
            at("2026-11-22T14:30:05Z"),
            LlmSettings::default(),
            ContextPolicy::default(),
        )
        .expect("create");
    let err = store.open(&session.id).expect_err("second open");
    let pid = std::process::id().to_string();
    assert!(err.to_string().contains(&format!("pid {pid}")), "{err}");
    assert!(err.to_string().contains("--new"), "{err}");
    // An actor without the lock refuses to save, and says so on flush.
    let (handle, mut events) = spawn_persist(tmp.path());
    handle.save(session.clone()).expect("queued");
    let flushed = handle.flush().await.expect_err("not saved");
    assert!(
        flushed.to_string().contains("does not hold its lock"),
        "{flushed}"
    );
    assert!(matches!(
        events.recv().await,
        Some(PersistEvent::Failed {
            error: SessionError::NotLocked { .. },
            ..
        })
    ));
    assert!(!store.path_of(&session.id).exists());
    // With the lock, it saves; after release, it refuses again.
    handle.hold(lock).expect("hold");
    handle.save(session.clone()).expect("queued");
    handle.flush().await.expect("saved");
    assert!(store.path_of(&session.id).exists());
    handle.release(&session.id).expect("release");
    handle.save(session.clone()).expect("queued");
    assert!(handle.flush().await.is_err());
    // Released means another process (here: another lock) may take it.
    let _mine = SessionLock::acquire(tmp.path(), &session.id).expect("free again");
}

#[tokio::test]
async fn a_failed_save_is_reported_and_the_next_save_retries() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("sessions");
    std::fs::create_dir(&dir).expect("mkdir");
    let store = store(&dir);
    let (mut session, lock) = store
        .create(
            at("2026-11-22T14:30:05Z"),
            LlmSettings::default(),
            ContextPolicy::default(),
        )
        .expect("create");
    let (handle, mut events) = spawn_persist(&dir);
    handle.hold(lock).expect("hold");
    // The folder disappears under us: the write fails, the session stays in memory.
    std::fs::rename(&dir, tmp.path().join("elsewhere")).expect("move away");
    session.set_title("first try");
    handle.save(session.clone()).expect("queued");
    let err = handle.flush().await.expect_err("not on disk");
    assert!(err.to_string().contains(&session.id), "{err}");
    let Some(PersistEvent::Failed { id, error }) = events.recv().await else {
        panic!("a failure event")
    };
    assert_eq!(id, session.id);
    assert!(
        error.to_string().contains("cannot create a temp file"),
        "{error}"
    );
    std::fs::rename(tmp.path().join("elsewhere"), &dir).expect("move back");
    session.set_title("second try");
    handle.save(session.clone()).expect("queued");
    handle.flush().await.expect("the retry lands");
    assert_eq!(store.load(&session.id).expect("load").title, "second try");
}
