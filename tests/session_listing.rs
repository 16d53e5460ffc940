//! Finding sessions: listing order, grep over titles, messages and replies,
//! and ids given as a unique prefix.

use alfred::session::{SessionError, SessionStore};
#[path = "support/session_files.rs"]
mod session_files;

use session_files::{small, store, write};

#[test]
fn listing_is_newest_first_by_update_time() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    write(
        dir,
        &small("20261101-100000-aaaa", "old", "r", "2026-11-01T10:00:00Z"),
    );
    write(
        dir,
        &small(
            "20261101-090000-bbbb",
            "newest",
            "r",
            "2026-11-03T10:00:00Z",
        ),
    );
    write(
        dir,
        &small(
            "20261102-100000-cccc",
            "middle",
            "r",
            "2026-11-02T10:00:00.5Z",
        ),
    );
    let report = store(dir).list();
    let titles: Vec<&str> = report.sessions.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(titles, ["newest", "middle", "old"]);
    assert_eq!(store(dir).most_recent().expect("some").title, "newest");
    assert!(
        SessionStore::new(dir.join("none"))
            .list()
            .sessions
            .is_empty(),
        "a missing folder lists empty"
    );
}

#[test]
fn grep_finds_words_case_insensitively_with_turn_numbers() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    write(
        dir,
        &small(
            "s1",
            "Any SOUP ideas?",
            "Try minestrone.",
            "2026-11-01T10:00:00Z",
        ),
    );
    write(
        dir,
        &small(
            "s2",
            "pasta tonight",
            "A soup first, then pasta.",
            "2026-11-02T10:00:00Z",
        ),
    );
    write(
        dir,
        &small("s3", "shopping list", "Done.", "2026-11-03T10:00:00Z"),
    );
    let report = store(dir).grep("soup");
    let ids: Vec<&str> = report.hits.iter().map(|h| h.session.id.as_str()).collect();
    assert_eq!(ids, ["s2", "s1"], "newest first, only matches");
    assert_eq!(
        report.hits[0].lines,
        ["turn 1 reply: A soup first, then pasta."]
    );
    assert_eq!(
        report.hits[1].lines,
        ["title: Any SOUP ideas?", "turn 1 user: Any SOUP ideas?"]
    );
    assert!(store(dir).grep("risotto").hits.is_empty());
}

#[test]
fn ids_resolve_from_a_unique_prefix() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    for id in [
        "20261101-100000-aaaa",
        "20261101-100000-aabb",
        "20261102-100000-cccc",
    ] {
        write(dir, &small(id, "x", "y", "2026-11-01T10:00:00Z"));
    }
    let store = store(dir);
    assert_eq!(
        store.resolve("20261102").expect("unique"),
        "20261102-100000-cccc"
    );
    assert_eq!(
        store.resolve("20261101-100000-aaaa").expect("exact"),
        "20261101-100000-aaaa"
    );
    let err = store.resolve("20261101-100000-aa").expect_err("ambiguous");
    assert!(
        matches!(err, SessionError::Ambiguous { ref matches, .. } if matches.len() == 2),
        "{err}"
    );
    let err = store.resolve("2027").expect_err("unknown");
    assert_eq!(
        err.to_string(),
        "no session \"2027\"; `alfred sessions list` shows them"
    );
    assert!(matches!(
        store.resolve("../etc"),
        Err(SessionError::NotFound { .. })
    ));
}

/// A session of three attempts (one completed, one failed, one cancelled)
/// and then a fourth turn recorded under a commit not yet settled.
fn attempts_then_pending(store: &SessionStore) -> String {
    use alfred::record::{TurnRecord, TurnStatus};
    use alfred::session::journal::{AppendedTurn, Journal, SessionHead};
    let now = session_files::at("2026-11-20T10:00:00Z");
    let (mut s, lock) = store
        .create(
            now,
            alfred::session::LlmSettings::default(),
            alfred::context::ContextPolicy::default(),
        )
        .expect("create");
    let record = |turn: u32, status: TurnStatus, error: Option<&str>| TurnRecord {
        turn,
        user: format!("message {turn}"),
        reply: if status == TurnStatus::Ok {
            "done".into()
        } else {
            String::new()
        },
        status,
        error: error.map(str::to_string),
        ..TurnRecord::default()
    };
    s.push_turn(record(1, TurnStatus::Ok, None), None, now);
    s.push_turn(
        record(2, TurnStatus::Failed, Some("the model did not answer")),
        None,
        now,
    );
    s.push_turn(
        record(3, TurnStatus::Failed, Some("cancelled by the user")),
        None,
        now,
    );
    store.write_new(&s, &lock).expect("write");
    let mut journal = Journal::open(store.path_of(&s.id), now).expect("open");
    let pending = AppendedTurn {
        record: record(4, TurnStatus::Ok, None),
        state: Some(s.context.clone()),
        at: "2026-11-20T10:05:00Z".into(),
        commit: Some("c-4".into()),
    };
    journal
        .append_turn(&SessionHead::of(&s), &pending)
        .expect("append");
    s.id
}

#[test]
fn a_listing_counts_completed_turns_apart_from_attempts_and_a_pending_one() {
    let tmp = tempfile::tempdir().expect("tmp");
    let store = store(tmp.path());
    let id = attempts_then_pending(&store);
    let report = store.list();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let s = &report.sessions[0];
    assert_eq!(s.id, id);
    assert_eq!(
        (s.turns, s.failed, s.pending),
        (1, 2, true),
        "1 completed, 2 failed attempts, turn 4 pending"
    );
    // Settled, the fourth counts.
    let mut journal = alfred::session::journal::Journal::open(
        store.path_of(&id),
        session_files::at("2026-11-20T10:06:00Z"),
    )
    .expect("open");
    journal.settle("c-4", true).expect("done");
    let s = &store.list().sessions[0];
    assert_eq!((s.turns, s.failed, s.pending), (2, 2, false));
}
