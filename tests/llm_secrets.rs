//! The API key through a whole turn with logging at debug into the real log
//! file: it reaches the server in the Authorization header and nowhere else
//! — not in a body, another header, a log line or a debug print — and when
//! a server says it back in an error, it is scrubbed from the sentence, the
//! turn record and the log. Alone in
//! its binary: it installs the process's logger.

mod support;

use alfred::pipeline::TurnResult;

use support::{FakeOpenAi, Fault, KEY, Node, fresh, turn};

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
    let (result, _) = turn(brain, kitchen, fresh(), "hello again").await;
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
