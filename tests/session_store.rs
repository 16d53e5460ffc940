//! Session files end to end through the library: loading, migration,
//! forgiving listing, grep, prefixes, rename and remove under the lock.

use std::path::Path;

use alfred::session::{SessionError, SessionStore};
#[path = "support/session_files.rs"]
mod session_files;

use session_files::{small, store, write};

const FIXTURE_V1: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/session_v1.json"
);

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_version_1_fixture_migrates_in_memory_and_is_rewritten_only_on_save() {
    let tmp = tempfile::tempdir().expect("tmp");
    let path = tmp.path().join("20250301-190412-c0de.json");
    std::fs::copy(FIXTURE_V1, &path).expect("copy fixture");
    let store = store(tmp.path());
    let listed = store.list();
    assert!(listed.problems.is_empty(), "{:?}", listed.problems);
    assert_eq!(
        listed.sessions[0].title,
        "What can I cook this week? No cod."
    );
    assert_eq!(listed.sessions[0].turns, 2);
    let s = store.load("20250301-190412-c0de").expect("v1 loads");
    assert_eq!(s.schema_version, alfred::session::DOCUMENT_VERSION);
    assert_eq!(s.title, "What can I cook this week? No cod.");
    assert_eq!(s.llm.backend, "unknown");
    assert_eq!(s.turn_count(), 2);
    assert_eq!(s.transcript[1].entities.excluded.len(), 2);
    assert_eq!(s.context.registry.len(), 3);
    assert_eq!(s.context.decision_log.len(), 2);
    assert_eq!(s.updated_at, "2025-03-01T19:06:40.250Z");
    let on_disk = std::fs::read_to_string(&path).expect("read");
    assert!(
        on_disk.contains("\"schema_version\": 1"),
        "loading does not rewrite"
    );
    // The next save writes the journal: a header line, one line per turn,
    // then the rename.
    store
        .rename(&s.id, "Dinners without cod")
        .expect("rename saves");
    let text = std::fs::read_to_string(&path).expect("read");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect();
    assert_eq!(lines[0]["k"], "header");
    assert_eq!(
        lines[0]["schema_version"],
        alfred::session::journal::JOURNAL_VERSION
    );
    assert_eq!(lines.iter().filter(|l| l["k"] == "turn").count(), 2);
    assert_eq!(lines.last().unwrap()["title"], "Dinners without cod");
    let again = store.load(&s.id).expect("v2 loads");
    assert_eq!(again.transcript, s.transcript, "turns are kept exactly");
    assert_eq!(again.context, s.context);
}

#[test]
fn bad_files_are_reported_by_name_moved_aside_and_the_rest_still_open() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    let good = small(
        "20261101-100000-0001",
        "soup tonight?",
        "Minestrone.",
        "2026-11-01T10:00:00Z",
    );
    write(dir, &good);
    let valid = small("x", "a", "b", "2026-11-01T10:00:00Z")
        .to_bytes()
        .expect("encode");
    let cases: [(&str, Vec<u8>, &str); 4] = [
        (
            "20261101-100000-0002",
            b"{\"schema_version\": 2, oops".to_vec(),
            "line 1 column",
        ),
        (
            "20261101-100000-0003",
            valid[..valid.len() / 2].to_vec(),
            "EOF while parsing",
        ),
        ("20261101-100000-0004", Vec::new(), "empty file"),
        (
            "20261101-100000-0005",
            b"{\"title\": \"caf\xe9\"}".to_vec(),
            "not UTF-8",
        ),
    ];
    for (id, bytes, _) in &cases {
        std::fs::write(dir.join(format!("{id}.json")), bytes).expect("write");
    }
    let report = store(dir).list();
    assert_eq!(report.sessions.len(), 1, "{report:?}");
    assert_eq!(report.sessions[0].id, good.id);
    assert_eq!(report.problems.len(), cases.len(), "{report:?}");
    for (id, bytes, reason) in &cases {
        let p = report
            .problems
            .iter()
            .find(|p| p.path.ends_with(format!("{id}.json")))
            .unwrap_or_else(|| panic!("{id} is reported by name: {report:?}"));
        assert!(p.reason.contains(reason), "{id}: {}", p.reason);
        let moved = p.moved_to.as_ref().expect("moved aside");
        let name = moved
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert_eq!(name, format!("{id}.json.corrupt-20261123T080000Z"));
        assert_eq!(
            &std::fs::read(moved).expect("kept"),
            bytes,
            "moved, not changed"
        );
        assert!(p.to_string().contains("moved aside"), "{p}");
    }
    assert_eq!(store(dir).load(&good.id).expect("still opens"), good);
    // Listing again finds no problem: the bad files are out of the way.
    assert!(store(dir).list().problems.is_empty());
}

#[test]
fn loading_a_corrupt_file_moves_it_aside_and_says_where() {
    let tmp = tempfile::tempdir().expect("tmp");
    std::fs::write(tmp.path().join("bad.json"), "[1, 2").expect("write");
    let err = store(tmp.path()).load("bad").expect_err("corrupt");
    let SessionError::Corrupt {
        moved_to: Some(to), ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert!(to.exists());
    assert!(err.to_string().contains("bad.json"), "{err}");
    assert!(!tmp.path().join("bad.json").exists());
}

#[test]
fn a_newer_schema_is_refused_and_left_in_place() {
    let tmp = tempfile::tempdir().expect("tmp");
    let path = tmp.path().join("future.json");
    std::fs::write(
        &path,
        r#"{"schema_version": 99, "id": "future", "shape": "unknown"}"#,
    )
    .expect("write");
    let store = store(tmp.path());
    let report = store.list();
    assert_eq!(report.problems.len(), 1);
    assert!(
        report.problems[0].reason.contains("newer alfred"),
        "{:?}",
        report.problems
    );
    assert!(report.problems[0].moved_to.is_none());
    let err = store.load("future").expect_err("refused");
    assert!(err.to_string().contains("upgrade"), "{err}");
    assert!(path.exists(), "never moved");
    assert_eq!(names_in(tmp.path()), ["future.json"]);
}

#[test]
fn a_newer_journal_names_the_version_this_alfred_writes() {
    let tmp = tempfile::tempdir().expect("tmp");
    let store = store(tmp.path());
    let (session, lock) = store
        .create(
            "2026-11-22T10:00:00Z".parse().expect("time"),
            alfred::session::LlmSettings::default(),
            alfred::context::ContextPolicy::default(),
        )
        .expect("create");
    store.write_new(&session, &lock).expect("write");
    drop(lock);
    let path = store.path_of(&session.id);
    let written = std::fs::read_to_string(&path).expect("read");
    // This build writes the journal's version…
    let writes = alfred::session::journal::JOURNAL_VERSION;
    let header = format!("{{\"k\":\"header\",\"schema_version\":{writes},");
    assert!(written.starts_with(&header), "{written}");
    // …and says it reads up to that version when a file is newer.
    let newer = writes + 1;
    let bumped = written.replacen(
        &header,
        &format!("{{\"k\":\"header\",\"schema_version\":{newer},"),
        1,
    );
    std::fs::write(&path, bumped).expect("write");
    let text = store.load(&session.id).expect_err("refused").to_string();
    assert!(
        text.contains(&format!(
            "schema version {newer}; this alfred reads up to {writes}"
        )),
        "{text}"
    );
    assert!(path.exists(), "left where it is");
}

#[test]
fn temp_files_are_ignored_and_removed_once_an_hour_old() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    write(dir, &small("s1", "a", "b", "2026-11-01T10:00:00Z"));
    std::fs::write(dir.join(".tmpAbC123"), "{\"half\": ").expect("write");
    let report = SessionStore::new(dir).list();
    assert_eq!((report.sessions.len(), report.problems.len()), (1, 0));
    assert!(
        dir.join(".tmpAbC123").exists(),
        "a fresh temp file may be a write in progress"
    );
    let later = SessionStore::new(dir)
        .with_clock(|| jiff::Timestamp::now() + jiff::SignedDuration::from_mins(61));
    let report = later.list();
    assert_eq!((report.sessions.len(), report.problems.len()), (1, 0));
    assert!(
        !dir.join(".tmpAbC123").exists(),
        "stale temp files are cleaned"
    );
}

#[test]
fn rename_and_remove_take_the_lock() {
    let tmp = tempfile::tempdir().expect("tmp");
    let store = store(tmp.path());
    let s = small("s1", "plan dinners", "ok", "2026-11-01T10:00:00Z");
    write(tmp.path(), &s);
    let held = store.lock("s1").expect("lock");
    assert!(matches!(
        store.rename("s1", "x"),
        Err(SessionError::Locked { .. })
    ));
    assert!(matches!(
        store.remove("s1"),
        Err(SessionError::Locked { .. })
    ));
    drop(held);
    assert_eq!(
        store.rename("s1", "  Weekly plan ").expect("rename").title,
        "Weekly plan"
    );
    assert_eq!(store.load("s1").expect("load").title, "Weekly plan");
    assert_eq!(
        store.load("s1").expect("load").updated_at,
        s.updated_at,
        "a rename is not a turn"
    );
    store.remove("s1").expect("remove");
    assert!(
        names_in(tmp.path()).is_empty(),
        "{:?}",
        names_in(tmp.path())
    );
    assert!(matches!(
        store.remove("s1"),
        Err(SessionError::NotFound { .. })
    ));
}

#[test]
fn the_session_last_open_is_remembered_apart_from_the_last_written() {
    let tmp = tempfile::tempdir().expect("tmp");
    let store = store(tmp.path());
    let older = small(
        "20261101-100000-aaaa",
        "first",
        "ok",
        "2026-11-01T10:00:00Z",
    );
    let newer = small(
        "20261102-100000-bbbb",
        "second",
        "ok",
        "2026-11-02T10:00:00Z",
    );
    write(tmp.path(), &older);
    write(tmp.path(), &newer);
    assert_eq!(store.last_opened(), None, "nothing opened yet");
    assert_eq!(store.most_recent().map(|s| s.id), Some(newer.id.clone()));
    store.mark_opened(&older.id).expect("mark");
    assert_eq!(store.last_opened(), Some(older.id.clone()));
    let listed = store.list();
    assert_eq!(listed.sessions.len(), 2, "the note is not a session");
    assert!(listed.problems.is_empty(), "{:?}", listed.problems);
    store.remove(&older.id).expect("remove");
    assert_eq!(
        store.last_opened(),
        None,
        "a removed session is not reopened"
    );
}
