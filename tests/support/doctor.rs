//! `alfred doctor` run as the built binary, and its report read line by
//! line: shared by the doctor tests and the keep-alive test.

use std::process::{Command, Output};

use super::KEY;

/// Runs `alfred --llm openai --base-url BASE doctor [extra…]` in a fresh home.
pub fn doctor(base: &str, key: Option<&str>, extra: &[&str]) -> (Output, String) {
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

/// The report line of check `what` (`ok   context   …`).
pub fn line<'a>(report: &'a str, what: &str) -> &'a str {
    report
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(what))
        .unwrap_or_else(|| panic!("no `{what}` line in:\n{report}"))
}
