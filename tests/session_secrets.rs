//! No API key reaches a session file, an export or a log line, whatever the
//! config says: the key is in the environment and in the base URL (as
//! `user:password@` and as a query parameter), and nothing under the data dir
//! may contain it afterwards.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use alfred::config::{Config, Overrides};
use alfred::paths::Paths;
use alfred::record::TurnRecord;
use alfred::session::sample::sample_session;
use alfred::session::{LlmSettings, SessionStore, spawn_persist};

const SECRET: &str = "SECRET123";
const KEY: &str = "sk-test-SECRET123";
const BASE_URL: &str =
    "https://alfred:sk-test-SECRET123@llm.example.com/v1?api_key=sk-test-SECRET123";

/// The environment a careless user might have.
fn env(var: &str) -> Option<String> {
    match var {
        "OPENAI_API_KEY" => Some(KEY.into()),
        "ALFRED_BASE_URL" => Some(BASE_URL.into()),
        "ALFRED_MODEL" => Some("gpt-4.1-mini".into()),
        _ => None,
    }
}

#[tokio::test]
async fn no_key_ends_up_in_sessions_exports_or_logs() {
    let tmp = tempfile::tempdir().expect("tmp");
    let data = tmp.path().join("data");
    let paths = Paths::under(&data);
    paths.ensure_dirs().expect("dirs");
    let config = Config::resolve(&paths, false, env, &Overrides::default()).expect("config");
    assert!(
        config.llm.base_url.contains(SECRET),
        "the config does carry the secret"
    );
    let llm = LlmSettings::from_config(&config.llm, config.resolved_backend(env));
    assert_eq!(llm.backend, "openai");

    // Two sessions saved through the actor, as the app would.
    let store = SessionStore::new(&paths.sessions_dir);
    let (handle, _events) = spawn_persist(&paths.sessions_dir);
    let mut ids = Vec::new();
    for k in 0..2 {
        let now = format!("2026-11-22T14:3{k}:05Z").parse().expect("time");
        let (mut session, lock) = store
            .create(now, llm.clone(), config.context.clone())
            .expect("create");
        for record in sample_session(5, k).transcript {
            let record = TurnRecord {
                llm: "gpt-4.1-mini @ llm.example.com".into(),
                ..record
            };
            session.push_turn(record, None, now);
        }
        handle.hold(lock).expect("hold");
        handle.save(session.clone()).expect("queue");
        ids.push(session.id.clone());
    }
    handle.flush().await.expect("saved");

    // Every read path of the CLI, with the key in its environment too.
    let exports = data.join("exports");
    std::fs::create_dir_all(&exports).expect("mkdir");
    let mut commands: Vec<Vec<String>> = vec![vec!["sessions".into(), "list".into()]];
    for id in &ids {
        for format in ["md", "json"] {
            commands.push(
                ["sessions", "export", id, "--format", format]
                    .map(String::from)
                    .to_vec(),
            );
        }
        commands.push(["sessions", "show", id].map(String::from).to_vec());
    }
    for (i, args) in commands.iter().enumerate() {
        let out = alfred(&data, args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::write(exports.join(format!("{i}.out")), &out.stdout).expect("keep stdout");
        std::fs::write(exports.join(format!("{i}.err")), &out.stderr).expect("keep stderr");
    }
    let md = std::fs::read_to_string(exports.join("1.out")).expect("md export");
    assert!(
        md.contains("(https://llm.example.com/v1)"),
        "the base URL is kept, cleaned: {md}"
    );

    let files = files_under(&data);
    assert!(
        files.iter().any(|f| f.starts_with(data.join("logs"))),
        "logs were written: {files:?}"
    );
    assert!(
        files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "json"))
            .count()
            >= 2
    );
    for file in files {
        let bytes = std::fs::read(&file).expect("read");
        let found = bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes());
        assert!(!found, "{} contains the key", file.display());
    }
}

/// Runs the binary with the careless environment.
fn alfred(data: &Path, args: &[String]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_alfred"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", data)
        .env("OPENAI_API_KEY", KEY)
        .env("ALFRED_BASE_URL", BASE_URL)
        .env("ALFRED_LOG", "debug")
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run alfred")
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                todo.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}
