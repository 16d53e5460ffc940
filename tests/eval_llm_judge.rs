//! `alfred eval --llm-judge` (the built binary) against the fake server: the
//! turns run offline, the judge's questions go over real HTTP with the
//! standing commitments and Think's prompt, and what the model says is
//! missing comes back as lapses of that policy — the key never printed.

mod support;

use serde_json::{Value, json};
use support::{FakeOpenAi, KEY, Node};

#[test]
fn the_llm_judge_is_asked_about_each_judged_turn_and_its_lapses_are_reported() {
    let fake = FakeOpenAi::start();
    fake.answer(
        Node::Other,
        json!({"missing": [{"id": 1, "why": "the unsaved draft is not in the prompt"}]}),
    );
    let home = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_alfred"))
        .env_clear()
        .env("HOME", home.path())
        .env("OPENAI_API_KEY", KEY)
        .args(["--data-dir"])
        .arg(home.path().join("data"))
        .args(["--base-url", &fake.base_url()])
        .args(["eval", "unsaved", "--window", "2", "--llm-judge", "--json"])
        .output()
        .expect("run alfred eval");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        !stdout.contains(KEY) && !stderr.contains(KEY),
        "the key was printed"
    );
    let report: Value = serde_json::from_str(&stdout).expect("one JSON report");
    assert_eq!(report["brain"], "offline", "the turns ran offline");
    assert!(
        report["judge"].as_str().unwrap().starts_with("rules + "),
        "{}",
        report["judge"]
    );

    let judged = fake.requests();
    assert!(!judged.is_empty(), "the judge asked nothing");
    for r in &judged {
        assert_eq!(
            r.body["response_format"]["json_schema"]["name"],
            "recall_verdict"
        );
        let user = r.last_user();
        assert!(user.contains("Standing commitments at turn"), "{user}");
        assert!(user.contains("<prompt>"), "{user}");
    }
    let rows = report["results"].as_array().unwrap();
    let llm = |policy: &str| {
        rows.iter()
            .find(|r| r["policy"] == policy)
            .map(|r| r["llm_recall"].clone())
            .unwrap_or_else(|| panic!("no {policy} row"))
    };
    let (window, naive) = (llm("window 2 (config)"), llm("naive"));
    // The one scripted "missing" answer was the first question: window 2's.
    let lapses = window["lapses"].as_array().unwrap();
    assert_eq!(lapses.len(), 1, "{window}");
    assert!(
        lapses[0]["what"]
            .as_str()
            .unwrap()
            .contains("the unsaved draft is not in the prompt"),
        "{window}"
    );
    assert!(window["checks"].as_u64().unwrap() > 0, "{window}");
    assert!(naive["lapses"].as_array().unwrap().is_empty(), "{naive}");
    let asked: u64 = [&window, &naive]
        .iter()
        .map(|r| r["checks"].as_u64().unwrap())
        .sum();
    assert!(
        asked as usize >= judged.len(),
        "every question was about a standing commitment"
    );
    // No suggestion is made over a lapse the LLM judge found.
    assert_ne!(report["suggested"], "window 2 (config)");
}
