use std::path::Path;

use super::encode::encode_all;
use super::format::MARK;
use super::*;
use crate::context::ContextState;
use crate::context::archive::TurnDigest;
use crate::session::file::{SessionNote, title_from};
use crate::session::sample::sample_session;
use crate::session::unreadable::Unreadable;

fn reread(path: &Path) -> Loaded {
    decode(&std::fs::read(path).unwrap()).unwrap()
}

fn now() -> jiff::Timestamp {
    "2026-11-25T10:00:00Z".parse().unwrap()
}

#[test]
fn a_whole_session_reads_back_exactly() {
    let session = sample_session(120, 7);
    let (bytes, _) = encode_all(&session).unwrap();
    let back = decode(&bytes).unwrap();
    assert_eq!(back.session.transcript, session.transcript);
    assert_eq!(back.session.context, session.context);
    assert_eq!(back.session.title, session.title);
    assert_eq!(back.session.updated_at, session.updated_at);
    assert_eq!(back.pending, None);
    let document = session.to_bytes().unwrap();
    assert!(
        bytes.len() < document.len(),
        "journal {} bytes, document {}",
        bytes.len(),
        document.len()
    );
}

#[test]
fn saves_append_only_the_new_turn_and_read_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let full = sample_session(40, 3);
    let path = dir.path().join(format!("{}.json", full.id));
    let mut session = full.clone();
    session.transcript.clear();
    session.title.clear();
    let mut journal = Journal::open(path.clone(), now()).unwrap();
    let mut sizes = Vec::new();
    for record in &full.transcript {
        session.push_turn(record.clone(), Some(full.context.clone()), now());
        sizes.push(journal.sync(&session).unwrap());
    }
    session.set_title("Renamed");
    let title_line = journal.sync(&session).unwrap();
    assert!(title_line < 64, "{title_line}");
    let back = reread(&path);
    assert_eq!(back.session.transcript, session.transcript);
    assert_eq!(back.session.context, session.context);
    assert_eq!(back.session.title, "Renamed");
    // Each later save costs its own turn, not the session so far.
    let last = *sizes.last().unwrap();
    assert!(
        last < std::fs::metadata(&path).unwrap().len() / 10,
        "{sizes:?}"
    );
    // A writer opened on the file continues it.
    let mut again = Journal::open(path.clone(), now()).unwrap();
    session.push_turn(full.transcript[0].clone(), None, now());
    again.sync(&session).unwrap();
    assert_eq!(reread(&path).session.transcript, session.transcript);
}

#[test]
fn a_pending_turn_is_kept_by_done_and_dropped_by_void() {
    let dir = tempfile::tempdir().unwrap();
    let full = sample_session(3, 5);
    let path = dir.path().join(format!("{}.json", full.id));
    let mut session = full.clone();
    session.transcript.truncate(2);
    let mut journal = Journal::open(path.clone(), now()).unwrap();
    journal.sync(&session).unwrap();
    let before = reread(&path).session;
    let mut with_turn = session.clone();
    let mut changed = full.context.clone();
    changed.turn += 7;
    with_turn.push_turn(full.transcript[2].clone(), Some(changed.clone()), now());
    let head = SessionHead::of(&session);
    let turn = |commit: &str| AppendedTurn {
        record: full.transcript[2].clone(),
        state: Some(changed.clone()),
        at: with_turn.updated_at.clone(),
        commit: Some(commit.to_string()),
    };
    journal.append_turn(&head, &turn("c-9")).unwrap();
    let loaded = reread(&path);
    assert_eq!(loaded.pending.as_deref(), Some("c-9"));
    assert_eq!(loaded.session.transcript.len(), 3);
    journal.settle("c-9", false).unwrap();
    let voided = reread(&path);
    assert_eq!(voided.pending, None);
    assert!(
        voided.session.transcript == before.transcript,
        "voided transcript differs"
    );
    assert_eq!(voided.session.context, before.context);
    assert_eq!(voided.session.updated_at, before.updated_at);
    // The same turn again, this time landed.
    journal.append_turn(&head, &turn("c-10")).unwrap();
    journal.settle("c-10", true).unwrap();
    let kept = reread(&path);
    assert_eq!(kept.pending, None);
    assert!(
        kept.session.transcript == with_turn.transcript,
        "kept transcript differs"
    );
    assert_eq!(kept.session.context, with_turn.context);
}

#[test]
fn a_torn_last_line_is_left_out_and_set_aside_before_the_next_write() {
    let dir = tempfile::tempdir().unwrap();
    let session = sample_session(4, 9);
    let path = dir.path().join(format!("{}.json", session.id));
    let (bytes, _) = encode_all(&session).unwrap();
    let mut torn = bytes.clone();
    torn.extend_from_slice(br#"{"k":"turn","at":"2026-"#);
    std::fs::write(&path, &torn).unwrap();
    let loaded = reread(&path);
    assert_eq!(loaded.torn_at, Some(bytes.len()));
    assert_eq!(loaded.session.transcript, session.transcript);
    assert_eq!(glimpse(&torn).unwrap().turns.len(), 4);
    let mut journal = Journal::open(path.clone(), now()).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    let aside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".torn-"))
        .collect();
    assert_eq!(aside.len(), 1);
    let mut more = session.clone();
    more.set_title("after the tear");
    journal.sync(&more).unwrap();
    assert_eq!(reread(&path).session.title, "after the tear");
}

#[test]
fn texts_that_look_like_references_survive() {
    let mut session = sample_session(2, 1);
    let tricky = format!("{MARK}12 is not a reference");
    session.transcript[1]
        .prompts
        .reply
        .as_mut()
        .unwrap()
        .response = Some(tricky.clone());
    let (bytes, _) = encode_all(&session).unwrap();
    let back = decode(&bytes).unwrap();
    assert_eq!(
        back.session.transcript[1]
            .prompts
            .reply
            .as_ref()
            .unwrap()
            .response,
        Some(tricky)
    );
}

#[test]
fn the_first_turn_of_a_new_session_writes_its_header_first() {
    let dir = tempfile::tempdir().unwrap();
    let full = sample_session(1, 2);
    let path = dir.path().join(format!("{}.json", full.id));
    let mut fresh = full.clone();
    fresh.transcript.clear();
    fresh.title.clear();
    let head = SessionHead::of(&fresh);
    let mut journal = Journal::open(path.clone(), now()).unwrap();
    let turn = AppendedTurn {
        record: full.transcript[0].clone(),
        state: Some(full.context.clone()),
        at: full.updated_at.clone(),
        commit: None,
    };
    journal.append_turn(&head, &turn).unwrap();
    let back = reread(&path).session;
    assert!(back.transcript == full.transcript, "transcript differs");
    assert_eq!(back.context, full.context);
    assert_eq!(back.title, title_from(&full.transcript[0].user));
}

fn digest(turn: u32, user: &str) -> TurnDigest {
    TurnDigest {
        turn,
        date: "2026-11-25".into(),
        user: user.into(),
        reply: "Here is what I found.".into(),
        goal: "find a dinner".into(),
        entities: vec![("recipe_1".into(), "Pad Thai".into())],
    }
}

#[test]
fn the_archive_is_written_once_and_read_back_through_growth_and_reset() {
    let mut state = ContextState::default();
    let whole = serde_json::to_value(&state).unwrap();
    let mut lite = state.to_value_without_archive().unwrap();
    lite.as_object_mut()
        .unwrap()
        .insert("archive".into(), whole["archive"].clone());
    assert_eq!(lite, whole, "the state less its archive is the state");

    let dir = tempfile::tempdir().unwrap();
    let base = sample_session(3, 5);
    let path = dir.path().join(format!("{}.json", base.id));
    let mut fresh = base.clone();
    fresh.transcript.clear();
    let head = SessionHead::of(&fresh);
    let mut journal = Journal::open(path.clone(), now()).unwrap();
    let append = |journal: &mut Journal, i: usize, state: &ContextState| {
        let mut record = base.transcript[i % 3].clone();
        record.turn = i as u32 + 1;
        let turn = AppendedTurn {
            record,
            state: Some(state.clone()),
            at: base.updated_at.clone(),
            commit: None,
        };
        journal.append_turn(&head, &turn).unwrap();
        assert_eq!(
            reread(&path).session.context,
            *state,
            "after turn {}",
            i + 1
        );
    };
    // Grows one digest a turn: each line carries the new digest only.
    for i in 0..4 {
        state.archive.push(digest(
            i + 1,
            &format!("turn {} of a long dinner talk", i + 1),
        ));
        append(&mut journal, i as usize, &state);
    }
    let last_line = std::fs::read_to_string(&path).unwrap();
    let last_line = last_line.lines().last().unwrap();
    assert_eq!(
        last_line.matches("of a long dinner talk").count(),
        1,
        "{last_line}"
    );
    // Reset and regrown with the same turn numbers: compared whole.
    state.archive = Default::default();
    for t in 1..=4 {
        state.archive.push(digest(t, "a different conversation"));
    }
    append(&mut journal, 4, &state);
    // Full: the oldest give way at the front.
    for t in 5..=(crate::context::archive::ARCHIVE_TURNS as u32 + 2) {
        state.archive.push(digest(t, "a long one"));
    }
    append(&mut journal, 5, &state);
    state.archive.push(digest(3000, "one more"));
    append(&mut journal, 6, &state);
}

#[test]
fn a_listing_reads_the_turns_a_load_does_without_their_bulk() {
    let mut session = sample_session(30, 9);
    // A message that looks like the keys the listing cuts at.
    session.transcript[3].user = r#"what about ,"texts": and ,"record":{} here?"#.into();
    session.transcript[4].reply = "a \"quoted\", \"state\": reply".into();
    let (bytes, _) = encode_all(&session).unwrap();
    let seen = glimpse(&bytes).unwrap();
    let loaded = decode(&bytes).unwrap().session;
    let want: Vec<(u32, String, String)> = loaded
        .transcript
        .iter()
        .map(|r| (r.turn, r.user.clone(), r.reply.clone()))
        .collect();
    assert_eq!(seen.turns, want);
    assert_eq!(seen.title, loaded.title);
    assert_eq!(seen.updated_at, loaded.updated_at);
}

#[test]
fn notes_are_appended_and_read_back_and_an_older_file_is_rewritten_for_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = sample_session(3, 2);
    let path = dir.path().join(format!("{}.json", session.id));
    // A file of schema 4, as the previous alfred wrote it.
    let (bytes, _) = encode_all(&session).unwrap();
    let old = String::from_utf8(bytes).unwrap().replacen(
        "\"schema_version\":5",
        "\"schema_version\":4",
        1,
    );
    assert!(old.contains("\"schema_version\":4"), "{}", &old[..200]);
    std::fs::write(&path, &old).unwrap();
    let mut journal = Journal::open(path.clone(), now()).unwrap();
    // No note: an appended save leaves the old header alone.
    journal.sync(&session).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), old);
    session.notes.push(SessionNote {
        turn: 3,
        text: "recipe_2 is excluded: “no cod”".into(),
    });
    journal.sync(&session).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("{\"k\":\"header\",\"schema_version\":5"),
        "{}",
        &text[..80]
    );
    assert_eq!(reread(&path).session.notes, session.notes);
    // A second note is appended to the schema-5 file.
    session.notes.push(SessionNote {
        turn: 3,
        text: "second".into(),
    });
    let before = std::fs::read(&path).unwrap().len();
    journal.sync(&session).unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(
        after.len() > before && after.ends_with("\"text\":\"second\"}\n"),
        "{}",
        &after[before..]
    );
    let back = reread(&path).session;
    assert_eq!(back.notes, session.notes);
    assert_eq!(back.transcript, session.transcript);
    // A listing reads past note lines.
    assert_eq!(
        glimpse(after.as_bytes()).unwrap().turns.len(),
        session.transcript.len()
    );
}

#[test]
fn a_document_claiming_a_journals_schema_is_corrupt_not_newer() {
    let journal_version = br#"{"schema_version": 5, "id": "x"}"#;
    for why in [
        decode_session(journal_version).err(),
        decode_header(journal_version).err(),
    ] {
        assert!(
            matches!(&why, Some(Unreadable::Corrupt(r)) if r.contains("journal")),
            "a document is never of a journal's version: {why:?}"
        );
    }
    let newer = br#"{"schema_version": 99, "title": {"text": "x"}, "transcript": 5}"#;
    assert_eq!(decode_session(newer).err(), Some(Unreadable::Newer(99)));
    assert_eq!(decode_header(newer).err(), Some(Unreadable::Newer(99)));
}

#[test]
fn a_broken_journal_says_which_line_and_what_is_wrong() {
    let session = sample_session(2, 1);
    let (bytes, _) = encode_all(&session).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let header = text.lines().next().unwrap();
    let reason = |bytes: &[u8]| match decode(bytes) {
        Err(Unreadable::Corrupt(r)) => r,
        other => panic!("{:?}", other.map(|l| l.session.id)),
    };
    assert_eq!(reason(b"{\"k\":\"header\""), "the header line is torn");
    assert_eq!(
        reason(b"{\"k\":\"header\"}\n\xff"),
        "not UTF-8: invalid byte at offset 15"
    );
    let twice = format!("{header}\n{header}\n{header}\n");
    assert_eq!(reason(twice.as_bytes()), "line 2: a second header");
    let title_first = "{\"k\":\"title\",\"title\":\"x\"}\n{\"k\":\"title\",\"title\":\"y\"}\n";
    assert_eq!(
        reason(title_first.as_bytes()),
        "line 1: the first line is not a header"
    );
    let no_title = format!("{header}\n{{\"k\":\"title\"}}\n{{\"k\":\"done\",\"commit\":\"c\"}}\n");
    let missing = reason(no_title.as_bytes());
    assert!(
        missing.starts_with("line 2: missing field `title`"),
        "{missing}"
    );
    let skipped = format!(
        "{header}\n{{\"k\":\"turn\",\"at\":\"t\",\"turn\":1,\"user\":\"u\",\"reply\":\"r\",\"texts\":[[3,\"x\"]]}}\n{{\"k\":\"done\",\"commit\":\"c\"}}\n"
    );
    assert_eq!(reason(skipped.as_bytes()), "line 2: text 3 out of order");
    let newer = header.replacen("\"schema_version\":5", "\"schema_version\":9", 1);
    assert!(matches!(
        decode(format!("{newer}\n").as_bytes()),
        Err(Unreadable::Newer(9))
    ));
}
