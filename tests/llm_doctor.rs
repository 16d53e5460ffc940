//! `alfred doctor` (the built binary) against the fake server: every check
//! ok with the endpoint's latency and models, a 1-token completion when
//! `/models` is not served, a fix for a missing key, an unlisted model or an
//! unreachable server — and the key never printed.

mod support;

use std::process::{Command, Output};

use support::{FakeOpenAi, KEY, Node};

/// Runs `alfred --llm openai --base-url BASE doctor [extra…]` in a fresh home.
fn doctor(base: &str, key: Option<&str>, extra: &[&str]) -> (Output, String) {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_alfred"));
    cmd.env_clear()
        .env("HOME", home.path())
        .env("ALFRED_HOME", home.path())
        .args(["--llm", "openai", "--base-url", base])
        .args(extra)
        .arg("doctor");
    if let Some(key) = key {
        cmd.env("OPENAI_API_KEY", key);
    }
    let out = cmd.output().expect("run alfred doctor");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        !text.contains(KEY) && !String::from_utf8_lossy(&out.stderr).contains(KEY),
        "the key was printed"
    );
    (out, text)
}

fn line<'a>(report: &'a str, what: &str) -> &'a str {
    report
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(what))
        .unwrap_or_else(|| panic!("no `{what}` line in:\n{report}"))
}

#[test]
fn every_check_passes_against_a_working_server() {
    let fake = FakeOpenAi::start();
    let (out, report) = doctor(&fake.base_url(), Some(KEY), &[]);
    assert_eq!(out.status.code(), Some(0), "{report}");
    for what in [
        "config", "data", "kitchen", "sessions", "llm", "key", "endpoint", "models",
    ] {
        assert!(line(&report, what).starts_with("ok "), "{report}");
    }
    assert!(line(&report, "key").contains("OPENAI_API_KEY is set (not shown)"));
    let endpoint = line(&report, "endpoint");
    assert!(
        endpoint.contains("answered GET /models in ")
            && endpoint.ends_with("ms; it lists 2 models"),
        "{endpoint}"
    );
    assert!(
        fake.requests().is_empty(),
        "GET /models is not a chat request"
    );
}

#[test]
fn a_server_without_models_gets_a_one_token_completion() {
    let fake = FakeOpenAi::start();
    fake.hide_models();
    let (out, report) = doctor(&fake.base_url(), Some(KEY), &[]);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        line(&report, "endpoint").contains("answered a 1-token completion in "),
        "{report}"
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].node, Node::Other);
    assert_eq!(requests[0].body["max_tokens"], 1);
    assert_eq!(requests[0].body["model"], "gpt-4.1-mini");
}

#[test]
fn problems_come_with_a_fix_and_exit_1() {
    let fake = FakeOpenAi::start();
    let (out, report) = doctor(&fake.base_url(), Some(KEY), &["--model", "llama3.1:8b"]);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let models = line(&report, "models");
    assert!(
        models.starts_with("FIX")
            && models.contains("llama3.1:8b")
            && models.contains("ollama pull"),
        "{models}"
    );

    let (out, report) = doctor(&fake.base_url(), None, &[]);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let key = line(&report, "key");
    assert!(
        key.starts_with("FIX") && key.contains("export OPENAI_API_KEY="),
        "{key}"
    );

    let (out, report) = doctor("http://127.0.0.1:9/v1", Some(KEY), &[]);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let endpoint = line(&report, "endpoint");
    assert!(
        endpoint.starts_with("FIX") && endpoint.contains("cannot reach the model server"),
        "{endpoint}"
    );
}

#[test]
fn the_offline_backend_needs_no_network() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_alfred"))
        .env_clear()
        .env("HOME", home.path())
        .env("ALFRED_HOME", home.path())
        .args(["--llm", "offline", "doctor"])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        line(&report, "llm").ends_with("offline brain — no network needed"),
        "{report}"
    );
    assert_eq!(report.lines().count(), 5, "{report}");
}
