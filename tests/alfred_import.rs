//! `alfred sessions import --alfred-state FILE` from the outside: the built
//! binary on a sandboxed data dir imports Alfred's saved conversation state
//! (tests/fixtures/alfred_state.json), and `sessions list` / `show` find the
//! new session; a file that is not Alfred's state writes nothing. The same
//! state read from a user's `conversations` row in a Postgres database
//! (`--store … --user …`) imports alike.

use std::path::{Path, PathBuf};

#[path = "support/pg_cluster.rs"]
mod pg_cluster;
#[path = "support/sandbox.rs"]
mod sandbox;

use sandbox::{Sandbox, stderr, stdout};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/alfred_state.json")
}

/// The files in the sessions folder (none when it does not exist).
fn session_files(sb: &Sandbox) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(sb.sessions_dir()) else {
        return Vec::new();
    };
    let mut names: Vec<String> = dir
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The id the import printed: "… as session ID "TITLE".".
fn imported_id(out: &str) -> String {
    let rest = out
        .split(" as session ")
        .nth(1)
        .unwrap_or_else(|| panic!("no session id in {out}"));
    rest.split_whitespace().next().expect("an id").to_string()
}

#[test]
fn an_imported_state_becomes_a_session_that_list_and_show_find() {
    let sb = Sandbox::new();
    let file = fixture();
    let o = sb.run(&[
        "sessions",
        "import",
        "--alfred-state",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let id = imported_id(&out);
    assert!(
        out.starts_with(&format!(
            "Imported Alfred's state from alfred_state.json as session {id} \"Alfred state alfred_state.json\"."
        )),
        "{out}"
    );
    for line in [
        "  turn:          7 (what you say next is turn 8)",
        "  entities:      19 — 5 recent, 5 retained with reasons, 1 pending, 8 background",
        "  conversation:  3 recent turns, earlier summary: yes",
        "  narrative:     2 turn summaries, earlier summary: yes",
        "  waiting on:    Alfred's question of turn 7 (in the Narrative panel)",
        "Skipped (keys this import does not know):",
        "  - `beta_flags` is not one of Alfred's keys this import knows: skipped",
        "Read but not shown (Alfred's keys alfred has no place for):",
    ] {
        assert!(out.contains(line), "{line:?} in\n{out}");
    }
    assert!(out.contains("`content_archive` (1 entry)"), "{out}");
    assert!(!out.contains("Defaulted"), "nothing was missing: {out}");
    let open = format!(
        "Open it:   alfred --data-dir {} --session {id}",
        sb.data_dir().display()
    );
    assert!(out.contains(&open), "{open:?} in\n{out}");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    assert_eq!(
        session_files(&sb),
        [format!("{id}.json"), format!("{id}.lock")],
        "only the new session (and its lock)"
    );

    let o = sb.run(&["sessions", "list"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let list = stdout(&o);
    let row = list
        .lines()
        .find(|l| l.starts_with(&id))
        .unwrap_or_else(|| panic!("{id} listed in\n{list}"));
    assert!(row.contains("Alfred state alfred_state.json"), "{row}");
    assert!(row.contains("imported"), "{row}");

    let o = sb.run(&["sessions", "show", &id]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let show = stdout(&o);
    assert!(show.contains("0 turns · imported"), "{show}");
    assert!(
        show.contains("note:   Imported from Alfred's saved conversation state (alfred_state.json"),
        "{show}"
    );
}

#[test]
fn a_whole_row_imports_under_the_title_given() {
    let sb = Sandbox::new();
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture()).unwrap()).unwrap();
    let row = serde_json::json!({
        "user_id": "0f6a1c2e-9b3d-4e57-8a10-2c4d6e8f0a1b",
        "state": state,
        "created_at": "2025-03-12T18:01:44+00:00",
        "last_active_at": "2025-03-14T12:09:33+00:00",
        "title": null,
        "is_archived": false
    });
    let file = sb.path().join("row.json");
    std::fs::write(&file, row.to_string()).unwrap();
    let o = sb.run(&[
        "sessions",
        "import",
        "--alfred-state",
        file.to_str().unwrap(),
        "--title",
        "Sunday roast (Alfred)",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let id = imported_id(&stdout(&o));
    let show = stdout(&sb.run(&["sessions", "show", &id]));
    assert!(show.contains("\"Sunday roast (Alfred)\""), "{show}");
    assert!(
        show.contains("user 0f6a1c2e-9b3d-4e57-8a10-2c4d6e8f0a1b"),
        "{show}"
    );
}

#[test]
fn a_file_that_is_not_alfreds_state_is_an_error_and_writes_nothing() {
    let sb = Sandbox::new();
    let cases = [
        ("torn.json", "{\"recent_turns\": [", "it is not JSON: "),
        (
            "list.json",
            "[1, 2]",
            "its top level is a list, not an object",
        ),
        (
            "row.json",
            "{\"user_id\": \"u\", \"state\": 3}",
            "whose `state` is a number",
        ),
    ];
    for (name, text, why) in cases {
        let file = sb.path().join(name);
        std::fs::write(&file, text).unwrap();
        let o = sb.run(&[
            "sessions",
            "import",
            "--alfred-state",
            file.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        let err = stderr(&o);
        assert!(
            err.starts_with(&format!("error: cannot import {}: ", file.display())),
            "{name}: {err}"
        );
        assert!(err.contains(why), "{name}: {why:?} in {err}");
        assert!(stdout(&o).is_empty(), "{name}: {}", stdout(&o));
        assert!(
            session_files(&sb).is_empty(),
            "{name}: {:?}",
            session_files(&sb)
        );
    }
    let missing = sb.path().join("missing.json");
    let o = sb.run(&[
        "sessions",
        "import",
        "--alfred-state",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: cannot import "),
        "{}",
        stderr(&o)
    );
    assert!(session_files(&sb).is_empty());
}

#[test]
fn an_import_with_neither_a_file_nor_a_store_says_what_to_give() {
    let sb = Sandbox::new();
    let o = sb.run(&["sessions", "import"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("needs --alfred-state FILE, or --store postgres://… --user UUID"),
        "{}",
        stderr(&o)
    );
    assert!(session_files(&sb).is_empty());
}

#[test]
fn a_users_conversation_row_imports_from_postgres_as_the_file_does() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    let user = "0f6a1c2e-9b3d-4e57-8a10-2c4d6e8f0a1b";
    let sb = Sandbox::new();
    let store = ["--store", url.as_str(), "--user", user];
    let init = sb.run(&[&store[..], &["kitchen", "init"]].concat());
    assert!(init.status.success(), "{}", stderr(&init));
    // No row yet: a clear error, and no session.
    let none = sb.run(&[&store[..], &["sessions", "import"]].concat());
    assert_eq!(none.status.code(), Some(1));
    assert!(
        stderr(&none).contains("the user has no conversations row"),
        "{}",
        stderr(&none)
    );
    assert!(session_files(&sb).is_empty(), "{:?}", session_files(&sb));
    let state = std::fs::read_to_string(fixture()).unwrap();
    pg_cluster::sql(
        &url,
        &format!(
            "INSERT INTO conversations (user_id, state) VALUES ('{user}', $state${state}$state$::jsonb)"
        ),
    );
    let from_file = sb.run(&[
        "sessions",
        "import",
        "--alfred-state",
        fixture().to_str().unwrap(),
    ]);
    let from_db = sb.run(&[&store[..], &["sessions", "import"]].concat());
    assert_eq!(from_db.status.code(), Some(0), "{}", stderr(&from_db));
    let (a, b) = (stdout(&from_file), stdout(&from_db));
    assert!(b.contains(&format!("user {user}")), "{b}");
    // What was imported reads the same, whichever way it came.
    let summary = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("  "))
            .map(str::to_string)
            .collect()
    };
    assert!(!summary(&a).is_empty(), "{a}");
    assert_eq!(summary(&a), summary(&b));
    let show = stdout(&sb.run(&["sessions", "show", &imported_id(&b)]));
    assert!(show.contains("user 0f6a1c2e"), "{show}");
}

/// One logged call as Alfred's `_log_to_file` writes it.
fn logged(node: &str, system: &str, user: &str, answer: &str) -> String {
    format!(
        "# LLM Call: {node}\n\n**Time:** 2025-03-14T12:09:30.000001\n**Model:** gpt-4.1-mini\n\
         **Response Model:** Out\n\n---\n\n## System Prompt\n\n```\n{system}\n```\n\n---\n\n\
         ```\n{user}\n```\n\n---\n\n## Response\n\n{answer}"
    )
}

/// `--prompt-logs DIR`: the logged turn whose prompts quote Alfred's last
/// message becomes that turn's record, its Think prompt in sections with
/// Alfred's response, in the export; an earlier logged turn is not used.
#[test]
fn prompt_logs_become_the_last_turns_prompts() {
    let sb = Sandbox::new();
    let logs = tempfile::tempdir().expect("tempdir");
    let write =
        |name: &str, text: String| std::fs::write(logs.path().join(name), text).expect("write");
    write(
        "01_understand.md",
        logged(
            "understand",
            "You are Alfred's memory.",
            "<current_message>\nwhat's for tuesday\n</current_message>",
            "```json\n{}\n```\n",
        ),
    );
    write(
        "02_understand.md",
        logged(
            "understand",
            "You are Alfred's memory.",
            "<current_message>\nand wednesday? anything with the leftover chicken\n</current_message>",
            "```json\n{\"referenced_entities\": []}\n```\n",
        ),
    );
    write(
        "03_think.md",
        logged(
            "think",
            "You are Alfred's planner.",
            "<session_context>\nLikes: roast chicken\n</session_context>\n<current_task>\nand wednesday? anything with the leftover chicken\n</current_task>",
            "```json\n{\n  \"decision\": \"plan_direct\"\n}\n```\n",
        ),
    );
    write(
        "04_reply.md",
        logged(
            "reply",
            "You are Alfred.",
            "<execution_results>\nChicken & Spinach Pie\n</execution_results>",
            "```json\n\"Your Chicken & Spinach Pie…\"\n```\n",
        ),
    );
    let o = sb.run(&[
        "sessions",
        "import",
        "--alfred-state",
        fixture().to_str().unwrap(),
        "--prompt-logs",
        logs.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("prompt logs:   turn 7 has a record holding Alfred's 3 logged calls for it (2 understand, 3 think, 4 reply)"),
        "{out}"
    );
    let id = imported_id(&out);
    let o = sb.run(&["sessions", "export", &id, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let turns = json["transcript"].as_array().expect("a transcript");
    assert_eq!(turns.len(), 1, "one record: Alfred's last turn");
    let think = &turns[0]["prompts"]["think"];
    assert_eq!(think["response"], "{\n  \"decision\": \"plan_direct\"\n}");
    let sections: Vec<&str> = think["full"]["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .map(|s| s["name"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(sections, ["session_context", "current_task"]);
    assert!(
        think["sections"]["current_task"]
            .as_u64()
            .is_some_and(|n| n > 5),
        "{think}"
    );
    assert_eq!(
        turns[0]["user"],
        "and wednesday? anything with the leftover chicken"
    );
    // A folder that is not there is a clear error, and nothing is written.
    let before = session_files(&sb);
    let o = sb.run(&[
        "sessions",
        "import",
        "--alfred-state",
        fixture().to_str().unwrap(),
        "--prompt-logs",
        "/nonexistent/logs",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("its prompt logs could not be read: /nonexistent/logs: cannot read it"),
        "{}",
        stderr(&o)
    );
    assert_eq!(session_files(&sb), before);
}

/// A fresh database with Alfred's schema and `user`'s kitchen (none when
/// this machine has no Postgres to start).
fn alfred_database(user: &str) -> Option<String> {
    let url = pg_cluster::cluster()?.fresh_database();
    alfred::kitchen::Kitchen::init_postgres(&url, user).expect("init");
    Some(url)
}

/// The fixture's conversation state, as JSON.
fn fixture_state() -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(fixture()).unwrap()).unwrap()
}

/// Writes `user`'s conversation row as Alfred's app commits it: `state`,
/// last active at `at`.
fn put_conversation(url: &str, user: &str, state: &serde_json::Value, at: &str) {
    pg_cluster::sql(
        url,
        &format!(
            "INSERT INTO conversations (user_id, state, last_active_at) VALUES ('{user}', \
             $state${state}$state$::jsonb, '{at}') ON CONFLICT (user_id) DO UPDATE \
             SET state = excluded.state, last_active_at = excluded.last_active_at"
        ),
    );
}

/// `alfred watch`'s reader: each state the app commits to the user's row
/// is seen once; a new turn becomes a record with the layers as committed,
/// a rewrite of the same turn only updates them, and nothing is written.
#[test]
fn a_watcher_sees_each_committed_state_once() {
    use alfred::cli::watch::{Seen, Watcher};
    let user = "0f6a1c2e-9b3d-4e57-8a10-2c4d6e8f0a1b";
    let Some(url) = alfred_database(user) else {
        return;
    };
    let mut w =
        Watcher::open(&url, user, true, alfred::context::ContextPolicy::default()).expect("open");
    assert!(matches!(w.look().expect("look"), Seen::NoRow));
    let mut state = fixture_state();
    let put = |state: &serde_json::Value, at: &str| put_conversation(&url, user, state, at);
    put(&state, "2025-03-14 12:09:33+00");
    let Seen::Turn(record, context) = w.look().expect("look") else {
        panic!("the first state is a turn");
    };
    assert_eq!((record.turn, context.turn), (7, 7));
    assert_eq!(
        record.user,
        "and wednesday? anything with the leftover chicken"
    );
    assert!(
        record.entities.recent.iter().any(|e| e.r#ref == "recipe_3"),
        "the layers as committed"
    );
    assert!(matches!(w.look().expect("look"), Seen::Same), "seen once");
    // The app's next turn: one more recent turn, the registry's turn moved on.
    let s = &mut state;
    s["recent_turns"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
        "user": "yes put it on wednesday", "assistant": "Done — the pie is on Wednesday.",
        "timestamp": "2025-03-14T12:11:02+00:00", "entities_mentioned": ["recipe_3"]}));
    s["current_turn"] = serde_json::json!(8);
    s["id_registry"]["current_turn"] = serde_json::json!(8);
    put(&state, "2025-03-14 12:11:03+00");
    let Seen::Turn(next, _) = w.look().expect("look") else {
        panic!("a new turn");
    };
    assert_eq!(
        (next.turn, next.reply.as_str()),
        (8, "Done — the pie is on Wednesday.")
    );
    // The same turn rewritten (its summary written later): an update, no record.
    put(&state, "2025-03-14 12:11:09+00");
    assert!(matches!(w.look().expect("look"), Seen::Updated(_)));
    let rows = pg_cluster::sql(&url, "SELECT count(*)::text FROM conversations");
    assert_eq!(
        rows,
        vec![vec![Some("1".to_string())]],
        "only the test wrote"
    );
}

/// `alfred watch` says what it needs before any screen opens.
#[test]
fn watch_without_a_store_or_with_a_bad_user_says_what_to_give() {
    let sb = Sandbox::new();
    let o = sb.run(&["watch"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("alfred watch follows a user's conversation in an Alfred database: give --store postgres://… --user UUID"),
        "{}",
        stderr(&o)
    );
    let o = sb.run(&[
        "--store",
        "postgres://nobody@127.0.0.1:1/none",
        "--user",
        "alice",
        "watch",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is not a uuid"), "{}", stderr(&o));
}

/// A turn `alfred watch` sees goes to the trace exporter too, as a turn of
/// the local session, and to the screen.
#[test]
fn a_watched_turn_goes_to_the_trace_exporter_as_well() {
    use alfred::cli::watch::{Watcher, spawn};
    use alfred::record::{TurnObserver, TurnRecord};
    use alfred::tui::event::Event;
    use std::sync::{Arc, Mutex};
    struct Noted(Mutex<Vec<(String, u32)>>);
    impl TurnObserver for Noted {
        fn turn_ended(&self, session: &str, record: &TurnRecord) {
            self.0
                .lock()
                .unwrap()
                .push((session.to_string(), record.turn));
        }
    }
    let user = "5b7e2d1c-3a4f-4e68-9b20-1d3e5f7a9c2e";
    let Some(url) = alfred_database(user) else {
        return;
    };
    put_conversation(&url, user, &fixture_state(), "2025-03-14 12:09:33+00");
    let noted = Arc::new(Noted(Mutex::new(Vec::new())));
    let watcher =
        Watcher::open(&url, user, true, alfred::context::ContextPolicy::default()).expect("open");
    let observer: Arc<dyn TurnObserver> = noted.clone();
    let mut events = spawn(watcher, Some((observer, "local-1".to_string())));
    let event = events.blocking_recv().expect("an event");
    assert!(
        matches!(
            event,
            Event::AlfredCommitted {
                record: Some(_),
                ..
            }
        ),
        "{event:?}"
    );
    assert_eq!(*noted.0.lock().unwrap(), [("local-1".to_string(), 7)]);
}
