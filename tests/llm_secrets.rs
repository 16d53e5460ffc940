//! The API key through whole turns with logging at debug into the real log
//! file: it reaches the server in the Authorization header and nowhere else
//! — not in a body, another header, a log line or a debug print — and when
//! a server says it back, in an error or in a successful answer (a string of
//! a structured answer, a streamed reply with the key split between two
//! chunks), it is scrubbed from the sentence, the reply, the turn record,
//! the context and the log. The same answers through the built binary leave
//! no key in its output, the session file, the exports or its log.
//! The in-process test is alone in its binary: it installs the process's
//! logger (the other test logs in a child process).

#[path = "support/sandbox.rs"]
mod sandbox;
mod support;

use std::path::Path;

use alfred::pipeline::TurnResult;
use serde_json::json;

use sandbox::Sandbox;
use support::{FakeOpenAi, Fault, KEY, Node, SENT_KEY, fresh, reply_chunks, turn};

/// What the key is replaced with.
const REMOVED: &str = "[API key removed]";

/// The reply the fake streams, the key split between two chunks.
fn echoing_reply() -> String {
    format!("Your key is {SENT_KEY}, keep it safe.")
}

/// Scripts a turn whose every answer succeeds and says the key back: in
/// Understand's reading, Think's goal and step, Act's summary and the reply.
fn echo_the_key(fake: &FakeOpenAi) {
    fake.answer(
        Node::Understand,
        json!({"what_user_expressed": format!("asks whether {SENT_KEY} works")}),
    );
    fake.answer(
        Node::Think,
        json!({"goal": format!("Check the key {SENT_KEY}"), "decision": "plan_direct",
            "steps": [{"description": format!("Read the recipes saved with {SENT_KEY}"),
                "step_type": "read", "subdomain": "recipes", "group": 0}]}),
    );
    fake.answer_act(
        "Read the recipes",
        vec![json!({"action": "step_complete",
            "result_summary": format!("Nothing is saved with {SENT_KEY}")})],
    );
    fake.reply(&echoing_reply());
}

#[tokio::test]
async fn the_key_reaches_the_server_only_in_the_authorization_header() {
    let logs = tempfile::tempdir().unwrap();
    let guard = alfred::logging::init(logs.path(), Some("debug")).expect("logging");
    let fake = FakeOpenAi::start();
    // Failures and retries log the most: a rate limit, an unusable answer.
    fake.fault_on(Node::Understand, Fault::RateLimited(None));
    fake.fault_on(Node::Think, Fault::Malformed);
    let (_k, kitchen) = support::kitchen();
    let brain = support::brain(&support::llm_config(&fake));
    assert!(!format!("{brain:?}").contains(KEY));
    let (result, _) = turn(brain.clone(), kitchen.clone(), fresh(), "hello").await;
    assert!(matches!(result, TurnResult::Done { .. }), "{result:?}");
    // A server that repeats the key in its error: the sentence, the record
    // and the log get it scrubbed.
    fake.fault_on(Node::Understand, Fault::EchoKey);
    let (result, _) = turn(brain.clone(), kitchen.clone(), fresh(), "hello again").await;
    let TurnResult::Failed { record } = result else {
        panic!("a refused key fails the turn: {result:?}")
    };
    let error = record.error.clone().unwrap_or_default();
    assert!(
        error.contains("Incorrect API key provided: [API key removed]"),
        "{error}"
    );
    let stored = serde_json::to_string(&*record).unwrap();
    assert!(!stored.contains(KEY), "the key is in the turn record");
    // A server that says the key back in answers that succeed: the reply as
    // streamed and as kept, the parsed plan, the record and the context
    // have it scrubbed.
    echo_the_key(&fake);
    let (result, events) = turn(brain, kitchen, fresh(), "does my key work?").await;
    let TurnResult::Done { record, state } = result else {
        panic!("the turn succeeds: {result:?}")
    };
    let reply = echoing_reply().replace(SENT_KEY, REMOVED);
    assert_eq!(record.reply, reply);
    assert_eq!(reply_chunks(&events).concat(), reply);
    assert_eq!(record.goal, format!("Check the key {REMOVED}"));
    assert_eq!(
        record.steps[0].description,
        format!("Read the recipes saved with {REMOVED}")
    );
    let stored = serde_json::to_string(&*record).unwrap();
    assert!(!stored.contains(KEY), "the key is in the turn record");
    assert!(stored.contains(&format!("Nothing is saved with {REMOVED}")));
    assert!(stored.contains(&format!("asks whether {REMOVED} works")));
    let context = serde_json::to_string(&*state).unwrap();
    assert!(!context.contains(KEY), "the key is in the context");
    drop(guard); // flushes the log
    let mut log = String::new();
    for entry in std::fs::read_dir(logs.path()).unwrap() {
        log.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    assert!(
        log.contains("model request") && log.contains("retrying") && log.contains("repair"),
        "debug lines were written:\n{log}"
    );
    // One line per answer: node, schema, status, time, tokens, finish.
    let answer = log
        .lines()
        .find(|l| l.contains("model answer") && l.contains("node=\"think\""))
        .unwrap_or_else(|| panic!("no answer line for think:\n{log}"));
    for field in [
        "schema=\"think_output\"",
        "attempt=Answer",
        "status=200",
        "first_byte_ms=",
        "total_ms=",
        "prompt_tokens=",
        "completion_tokens=",
        "cached_tokens=",
        "finish=\"stop\"",
    ] {
        assert!(answer.contains(field), "{field} is missing from: {answer}");
    }
    assert!(
        !log.contains(KEY) && !log.contains("Bearer"),
        "the key leaked into the log:\n{log}"
    );
    let requests = fake.requests();
    assert!(requests.len() >= 6, "{}", requests.len());
    for r in &requests {
        assert!(!r.raw.contains(KEY), "the key is in a body");
        for (name, value) in &r.headers {
            if name == "authorization" {
                assert_eq!(value, &format!("Bearer {KEY}"));
            } else {
                assert!(!value.contains(KEY), "the key is in header {name}");
            }
        }
    }
}

/// Every file under `dir`, with its bytes.
fn files_under(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push((path.clone(), std::fs::read(&path).unwrap()));
        }
    }
    out
}

fn holds(bytes: &[u8], text: &str) -> bool {
    bytes.windows(text.len()).any(|w| w == text.as_bytes())
}

#[test]
fn a_key_said_back_in_answers_reaches_no_output_file_or_export_of_the_binary() {
    let fake = FakeOpenAi::start();
    echo_the_key(&fake);
    let sandbox = Sandbox::new();
    let run = sandbox
        .bare()
        .env("OPENAI_API_KEY", KEY)
        .env("ALFRED_LOG", "debug")
        .arg("--data-dir")
        .arg(sandbox.data_dir())
        .args(["--llm", "openai", "--base-url", &fake.base_url()])
        .args(["run", "--new", "-m", "does my key work?"])
        .output()
        .unwrap();
    let (stdout, stderr) = (sandbox::stdout(&run), sandbox::stderr(&run));
    assert!(run.status.success(), "{stderr}");
    assert!(
        stdout.contains(&echoing_reply().replace(SENT_KEY, REMOVED)),
        "{stdout}"
    );
    assert!(
        !stdout.contains(KEY) && !stderr.contains(KEY),
        "{stdout}{stderr}"
    );
    let sessions: Vec<_> = files_under(&sandbox.sessions_dir())
        .into_iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "json"))
        .collect();
    let [(session, saved)] = &sessions[..] else {
        panic!("{} session files, not one", sessions.len())
    };
    assert!(holds(saved, REMOVED), "the scrubbed answers are saved");
    let id = session.file_stem().unwrap().to_str().unwrap();
    for args in [
        vec!["sessions", "export", id, "--format", "md"],
        vec!["sessions", "export", id, "--format", "json"],
        vec!["sessions", "show", id],
    ] {
        let out = sandbox.run(&args);
        let text = sandbox::stdout(&out);
        assert!(out.status.success(), "{args:?}: {}", sandbox::stderr(&out));
        assert!(
            text.contains(REMOVED),
            "{args:?} shows the scrubbed reply:\n{text}"
        );
        assert!(!text.contains(KEY), "{args:?} shows the key:\n{text}");
    }
    let files = files_under(&sandbox.data_dir());
    let log = files
        .iter()
        .find(|(p, _)| p.starts_with(sandbox.data_dir().join("logs")))
        .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
        .expect("a log file under logs/");
    assert!(log.contains("model answer"), "the log is at debug:\n{log}");
    for (path, bytes) in &files {
        assert!(!holds(bytes, KEY), "the key is in {}", path.display());
    }
}
