//! `alfred sessions …` from the outside: the built binary on a sandboxed data dir.

use std::path::Path;

use alfred::context::ContextPolicy;
use alfred::record::{TurnRecord, TurnStatus};
use alfred::session::sample::sample_session;
use alfred::session::{LlmSettings, SessionFile, SessionLock};
#[path = "support/sandbox.rs"]
mod sandbox;

use sandbox::{Sandbox, stderr, stdout};

fn session(id: &str, messages: &[&str], updated: &str) -> SessionFile {
    let llm = LlmSettings::new(
        "openai",
        Some("gpt-4.1-mini".into()),
        "http://localhost:11434/v1",
    );
    let created = "2026-11-22T14:30:05Z".parse().expect("time");
    let mut s = SessionFile::new(id.into(), created, llm, ContextPolicy::default());
    for (i, m) in messages.iter().enumerate() {
        let failed = m.contains("fail");
        let record = TurnRecord {
            turn: i as u32 + 1,
            user: (*m).into(),
            reply: if failed {
                String::new()
            } else {
                format!("Alfred answers: {m}")
            },
            status: if failed {
                TurnStatus::Failed
            } else {
                TurnStatus::Ok
            },
            error: failed.then(|| "the model timed out; try again".into()),
            ..TurnRecord::default()
        };
        s.push_turn(record, None, updated.parse().expect("time"));
    }
    s
}

#[test]
fn list_shows_a_table_newest_first_and_warns_about_bad_files() {
    let sb = Sandbox::new();
    sb.put(&session(
        "20261122-143005-aaaa",
        &["soup for tonight?"],
        "2026-11-22T14:31:00Z",
    ));
    sb.put(&session(
        "20261123-090000-bbbb",
        &["weekly meal plan", "no cod"],
        "2026-11-23T09:05:00Z",
    ));
    std::fs::write(
        sb.sessions_dir().join("20261120-000000-dead.json"),
        "{\"schema",
    )
    .expect("write");
    let o = sb.run(&["sessions", "list"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with("ID") && lines[0].contains("TITLE") && lines[0].contains("UPDATED"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("20261123-090000-bbbb  weekly meal plan"),
        "{lines:?}"
    );
    assert!(
        lines[1].contains("2026-11-23 09:05") && lines[1].contains("openai gpt-4.1-mini"),
        "{lines:?}"
    );
    assert!(
        lines[2].starts_with("20261122-143005-aaaa  soup for tonight?"),
        "{lines:?}"
    );
    let e = stderr(&o);
    assert!(
        e.starts_with("warning: ") && e.contains("20261120-000000-dead.json"),
        "{e}"
    );
    assert!(e.contains("moved aside"), "{e}");
}

#[test]
fn list_grep_shows_the_matching_lines() {
    let sb = Sandbox::new();
    sb.put(&session(
        "s1",
        &["soup for tonight?", "pasta instead"],
        "2026-11-22T14:31:00Z",
    ));
    sb.put(&session("s2", &["shopping list"], "2026-11-23T09:05:00Z"));
    let o = sb.run(&["sessions", "list", "--grep", "PASTA"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("s1  soup for tonight? (2 turns"), "{text}");
    assert!(text.contains("    turn 2 user: pasta instead\n"), "{text}");
    assert!(
        text.contains("    turn 2 reply: Alfred answers: pasta instead\n"),
        "{text}"
    );
    assert!(!text.contains("s2"), "{text}");
}

#[test]
fn show_prints_each_turn_with_its_entity_line_by_prefix() {
    let sb = Sandbox::new();
    let mut s = sample_session(10, 3);
    s.id = "20261122-143005-cafe".into();
    sb.put(&s);
    let o = sb.run(&["sessions", "show", "20261122-1430"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.matches("\nTurn ").count(), 10, "{text}");
    assert_eq!(text.matches("  entities: ").count(), 10, "{text}");
    let tenth = &s.transcript[9].entities;
    let want = format!("excluded ({})", tenth.excluded[0].r#ref);
    assert!(text.contains(&want), "{text}");
}

#[test]
fn export_writes_markdown_or_the_json_file() {
    let sb = Sandbox::new();
    let mut s = sample_session(6, 5);
    s.id = "20261122-143005-beef".into();
    sb.put(&s);
    let md = sb.run(&[
        "sessions",
        "export",
        "20261122-143005-beef",
        "--format",
        "md",
    ]);
    assert_eq!(md.status.code(), Some(0), "{}", stderr(&md));
    let text = stdout(&md);
    assert!(text.starts_with(&format!("# {}\n", s.title)), "{text}");
    assert_eq!(text.matches("\n## Turn ").count(), 6);
    assert!(
        text.contains("**Context after this turn**") && text.contains("- Recent ("),
        "{text}"
    );
    let json = sb.run(&[
        "sessions",
        "export",
        "20261122-143005-beef",
        "--format",
        "json",
    ]);
    let back: SessionFile = serde_json::from_slice(&json.stdout).expect("the export parses");
    assert_eq!(back.transcript.len(), s.transcript.len());
    assert_eq!(back.context, s.context);
}

#[test]
fn rename_and_rm_work_through_the_lock() {
    let sb = Sandbox::new();
    sb.put(&session(
        "20261122-143005-aaaa",
        &["plan dinners"],
        "2026-11-22T14:31:00Z",
    ));
    let o = sb.run(&["sessions", "rename", "2026", "Weekly dinners"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("to \"Weekly dinners\""),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&sb.run(&["sessions", "list"])).contains("Weekly dinners"));
    // Without a terminal and without --yes, nothing is deleted.
    let o = sb.run(&["sessions", "rm", "2026"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--yes"), "{}", stderr(&o));
    assert!(sb.sessions_dir().join("20261122-143005-aaaa.json").exists());
    // While this process holds the lock, rm refuses and names us.
    let held = SessionLock::acquire(&sb.sessions_dir(), "20261122-143005-aaaa").expect("lock");
    let o = sb.run(&["sessions", "rm", "2026", "--yes"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("pid {}", std::process::id())),
        "{}",
        stderr(&o)
    );
    drop(held);
    let o = sb.run(&["sessions", "rm", "2026", "--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        is_empty(&sb.sessions_dir()),
        "session and lock file are gone"
    );
}

#[test]
fn an_unknown_id_exits_1_pointing_at_the_list() {
    let sb = Sandbox::new();
    for args in [
        &["sessions", "show", "nope"][..],
        &["sessions", "export", "nope"],
        &["sessions", "rm", "nope", "--yes"],
    ] {
        let o = sb.run(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&o),
            "error: no session \"nope\"; `alfred sessions list` shows them\n",
            "{args:?}"
        );
    }
}

fn is_empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).expect("dir").next().is_none()
}

/// What a message or a kitchen row could hold: a clipboard write (OSC 52),
/// a screen clear, a title change, a bell and a right-to-left override.
const HOSTILE: &str =
    "eggs \u{1b}]52;c;cm0gLXJmIH4=\u{7} \u{1b}[2J\u{1b}]0;pwned\u{7} \u{202e}fdp.exe";

fn assert_inert(what: &str, text: &str) {
    for c in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!text.contains(c), "{what} printed {c:?} raw:\n{text}");
    }
}

#[test]
fn control_and_bidi_characters_are_shown_not_obeyed_by_every_printer() {
    let sb = Sandbox::new();
    let id = "20261122-143005-dead";
    sb.put(&session(id, &[HOSTILE, "and more"], "2026-11-22T14:31:00Z"));
    for (args, shown) in [
        (vec!["sessions", "list"], false),
        (vec!["sessions", "list", "--grep", "eggs"], true),
        (vec!["sessions", "show", id], true),
        (vec!["sessions", "export", id, "--format", "md"], true),
    ] {
        let o = sb.run(&args);
        let what = args.join(" ");
        assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(&o));
        let text = stdout(&o);
        assert_inert(&what, &text);
        assert_inert(&what, &stderr(&o));
        // Where the message itself is printed, its controls are visible.
        if shown {
            assert!(
                text.contains("^[]52;") && text.contains("<U+202E>"),
                "{what}:\n{text}"
            );
        }
    }
    // JSON keeps the message exactly, spelled so a terminal shows it inert.
    let o = sb.run(&["sessions", "export", id, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_inert("export json", &stdout(&o));
    let back: SessionFile = serde_json::from_slice(&o.stdout).expect("the export parses");
    assert_eq!(back.transcript[0].user, HOSTILE);
    // A title given with controls and at any length is stored clean and cut.
    let long = format!("\u{1b}[31mred dinners {}", "x".repeat(200));
    let o = sb.run(&["sessions", "rename", id, &long]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_inert("rename", &stdout(&o));
    let title = alfred::session::SessionStore::new(sb.sessions_dir())
        .load(id)
        .expect("load")
        .title;
    assert!(
        !title.contains('\u{1b}') && title.chars().count() <= 60,
        "{title:?}"
    );
    let o = sb.run(&["sessions", "rm", id, "--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_inert("rm", &stdout(&o));
    // A turn run headless prints its message and reply inert too.
    let o = sb.run(&["--llm", "offline", "run", "--new", "-m", HOSTILE]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_inert("run", &stdout(&o));
    assert_inert("run", &stderr(&o));
    let o = sb.run(&["--llm", "offline", "run", "--new", "--json", "-m", HOSTILE]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_inert("run --json", &stdout(&o));
    let record: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one record");
    assert_eq!(record["user"], HOSTILE);
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::io::BufRead;
    let sb = Sandbox::new();
    let mut s = sample_session(200, 1);
    s.id = "20261122-143005-feed".into();
    sb.put(&s);
    // `alfred sessions export ID --format json | head -1`
    let mut child = sb
        .bare()
        .arg("--data-dir")
        .arg(sb.data_dir())
        .args([
            "sessions",
            "export",
            "20261122-143005-feed",
            "--format",
            "json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("one line");
    assert!(first.starts_with('{'), "{first}");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "nothing said about the closed pipe");
}

#[test]
fn list_and_show_count_completed_turns_and_show_a_pending_one_as_pending() {
    use alfred::session::journal::{AppendedTurn, Journal, SessionHead};
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.sessions_dir()).expect("mkdir");
    let s = session(
        "20261122-143005-abcd",
        &["plan dinners", "fail once", "fail again"],
        "2026-11-22T14:31:00Z",
    );
    let path = sb.sessions_dir().join(format!("{}.json", s.id));
    let now = "2026-11-22T14:32:00Z".parse().expect("time");
    let mut journal = Journal::open(path, now).expect("open");
    journal.sync(&s).expect("write");
    // A fourth turn, recorded; its kitchen commit not settled.
    let pending = AppendedTurn {
        record: TurnRecord {
            turn: 4,
            user: "add soup".into(),
            reply: "Added.".into(),
            ..TurnRecord::default()
        },
        state: Some(s.context.clone()),
        at: "2026-11-22T14:33:00Z".into(),
        commit: Some("c-4".into()),
    };
    journal
        .append_turn(&SessionHead::of(&s), &pending)
        .expect("append");

    let o = sb.run(&["sessions", "list"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let list = stdout(&o);
    let row = list.lines().nth(1).expect("a row");
    assert!(row.contains("  1 (+2 failed, 1 pending)  "), "{list}");

    let o = sb.run(&["sessions", "show", "20261122"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let show = stdout(&o);
    assert!(
        show.contains("\n1 turn (+2 failed, 1 pending) · "),
        "{show}"
    );
    assert!(show.contains("\nTurn 1 · ok\n"), "{show}");
    assert!(show.contains("\nTurn 3 · failed\n"), "{show}");
    assert!(show.contains("\nTurn 4 · pending ("), "{show}");
    assert!(!show.contains("Turn 4 · ok"), "{show}");
}
