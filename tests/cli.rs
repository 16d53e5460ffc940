//! The `alfred` binary from the outside: help, exit codes, config errors, logs.
//!
//! Every run gets a fresh data dir and a cleared environment (see
//! `support/sandbox.rs`).

use std::path::{Path, PathBuf};

#[path = "support/sandbox.rs"]
mod sandbox;

use sandbox::{Sandbox, stderr, stdout};

/// The log files alfred wrote under `data_dir`.
fn log_files(data_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(data_dir.join("logs")) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            name.starts_with("alfred") && name.ends_with(".log")
        })
        .collect()
}

#[test]
fn help_lists_every_command_and_global_flag() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["--help"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let help = stdout(&out);
    for word in [
        "run",
        "sessions",
        "eval",
        "demo",
        "kitchen",
        "doctor",
        "--config",
        "--data-dir",
        "ALFRED_HOME",
        "--llm",
        "--model",
        "--base-url",
        "--new",
        "--session",
        "auto",
        "offline",
        "openai",
    ] {
        assert!(
            help.contains(word),
            "--help does not mention {word}:\n{help}"
        );
    }
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn subcommand_help_shows_its_own_flags() {
    let sandbox = Sandbox::new();
    for (args, words) in [
        (
            &["run", "--help"][..],
            &["--message", "--script", "--json", "--new", "--session"][..],
        ),
        (
            &["sessions", "--help"],
            &["list", "show", "export", "rename", "rm"],
        ),
        (&["eval", "--help"], &["--window", "--llm-judge", "--json"]),
        (&["demo", "--help"], &["--auto", "SCRIPT"]),
        (&["kitchen", "--help"], &["stats", "reset"]),
    ] {
        let out = sandbox.run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let help = stdout(&out);
        for word in words {
            assert!(help.contains(word), "{args:?} help lacks {word}:\n{help}");
        }
    }
}

#[test]
fn eval_compares_windows_on_the_topic_switch() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&[
        "eval",
        "topic-switch-and-return",
        "--window",
        "1,2",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report");
    let row = |policy: &str| {
        report["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["policy"] == policy)
            .unwrap_or_else(|| panic!("no {policy} row in {report}"))
            .clone()
    };
    let (w1, w2, naive) = (row("window 1"), row("window 2 (config)"), row("naive"));
    // Window 1 lets the milk row go; the brain reads it again at turn 7
    // rather than answering wrong, so it shows no regret here.
    assert_eq!(w1["regret_turns"], 0, "{w1}");
    assert_eq!(w2["regret_turns"], 0, "{w2}");
    assert!(
        w2["recall"]["lapses"].as_array().unwrap().is_empty(),
        "{w2}"
    );
    assert!(w2["recall"]["checks"].as_u64().unwrap() > 0, "{w2}");
    let last = |r: &serde_json::Value| r["tokens"]["think"]["last"].as_u64().unwrap();
    assert!(
        last(&naive) > last(&w2),
        "naive {} vs window 2 {}",
        last(&naive),
        last(&w2)
    );
    assert_ne!(report["suggested"], "window 1");
    // Each prompt went through the prefix cache model: from turn 3 some of
    // every policy's prompt tokens were cached, and the cost column is
    // the new tokens plus a tenth of the cached ones.
    for r in [&w1, &w2, &naive] {
        let c = &r["cache"]["per_node"];
        let (total, cached) = (c["total"].as_u64().unwrap(), c["cached"].as_u64().unwrap());
        assert!(cached > 0 && cached < total, "{r}");
        assert!(r["cache"]["turns"].as_u64().unwrap() > 0, "{r}");
    }
    let summary = |policy: &str| {
        report["summary"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["policy"] == policy)
            .unwrap()
            .clone()
    };
    let s2 = summary("window 2 (config)");
    let c = &s2["cache"]["per_node"];
    let expect = (c["total"].as_f64().unwrap() - 0.9 * c["cached"].as_f64().unwrap())
        / s2["cache"]["turns"].as_f64().unwrap();
    assert!(
        (s2["cost_per_turn"].as_f64().unwrap() - expect).abs() < 1e-6,
        "{s2}"
    );
    assert_eq!(report["cached_price"], 0.1);
    // The table says the same in words.
    let table = sandbox.run(&["eval", "topic-switch-and-return", "--window", "1"]);
    let text = stdout(&table);
    assert!(text.contains("window 1"), "{text}");
    assert!(
        !text.contains("window 1 · topic-switch-and-return · turn 7: regret"),
        "{text}"
    );
}

#[test]
fn eval_refuses_unknown_scenarios_and_bad_policies_in_words() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["eval", "no-such-scenario"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("no scenario called \"no-such-scenario\""),
        "{}",
        stderr(&out)
    );
    let out = sandbox.run(&["eval", "unsaved", "--policy", "windw=1"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("context.windw is not a [context] key"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
    let out = sandbox.run(&["eval", "unsaved", "--cached-price", "2"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("is not a price ratio: give a number from 0 to 1"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn usage_errors_are_reported_by_clap() {
    let sandbox = Sandbox::new();
    for args in [
        &["run", "-m", "hi", "--script", "f"][..],
        &["run"],
        &["--new", "--session", "x"],
        &["--new", "doctor"],
        &["--llm", "gpt"],
        &["frobnicate"],
    ] {
        let out = sandbox.run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).starts_with("error:"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_bad_key_binding_is_refused_by_every_command_as_by_the_ui() {
    let sandbox = Sandbox::new();
    let data = sandbox.data_dir();
    std::fs::create_dir_all(&data).unwrap();
    let config = data.join("config.toml");
    std::fs::write(&config, "[keys]\nquit = \"ctrl+c, pane:nope\"\n").unwrap();
    for args in [
        &["--llm", "offline", "run", "--new", "-m", "hi"][..],
        &["sessions", "list"],
    ] {
        let out = sandbox.run(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(
            err.trim_end(),
            format!(
                "error: config error in {}: keys.quit: unknown key \"nope\" in \"pane:nope\"",
                config.display()
            ),
            "{args:?}"
        );
        assert_eq!(stdout(&out), "", "{args:?}");
    }
    assert!(
        !sandbox.sessions_dir().exists(),
        "refused before anything ran"
    );
}

#[test]
fn a_bad_config_key_exits_1_naming_key_and_file() {
    let sandbox = Sandbox::new();
    let data = sandbox.data_dir();
    std::fs::create_dir_all(&data).unwrap();
    let config = data.join("config.toml");
    std::fs::write(&config, "[context]\nturn_retention_windw = 3\n").unwrap();
    let out = sandbox.run(&["run", "-m", "hi"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: config error in "), "{err}");
    assert!(err.contains(&config.display().to_string()), "{err}");
    assert!(
        err.contains("unknown key `turn_retention_windw` in [context] (line 2)"),
        "{err}"
    );
    assert!(err.contains("turn_retention_window"), "{err}");
    assert!(
        !err.contains("not built"),
        "config errors come first: {err}"
    );
    assert!(out.stdout.is_empty());
    assert!(
        log_files(&data).is_empty(),
        "nothing runs after a config error"
    );
}

#[test]
fn a_bad_value_names_the_dotted_key() {
    let sandbox = Sandbox::new();
    let config = sandbox.path().join("custom.toml");
    std::fs::write(&config, "context.turn_retention_window = \"two\"\n").unwrap();
    let out = sandbox.run(&["--config", config.to_str().unwrap(), "doctor"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&config.display().to_string()), "{err}");
    assert!(
        err.contains("key `context.turn_retention_window` (line 1): invalid type"),
        "{err}"
    );
}

#[test]
fn doctor_reports_every_config_problem_at_once() {
    let sandbox = Sandbox::new();
    let config = sandbox.path().join("custom.toml");
    std::fs::write(
        &config,
        "[llm]\ntimeout_secs = 0\nmodle = \"x\"\n[ui]\ntheme = \"pink\"\n",
    )
    .unwrap();
    let out = sandbox.run(&["--config", config.to_str().unwrap(), "doctor"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: 3 config errors in "), "{err}");
    for part in [
        "unknown key `modle` in [llm] (line 3)",
        "key `ui.theme` (line 5): unknown value `pink`",
        "llm.timeout_secs: must be greater than 0",
    ] {
        assert!(err.contains(part), "{part}: {err}");
    }
}

#[test]
fn an_empty_message_is_refused_before_anything_is_sent() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["run", "-m", "hello", "-m", "  "]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err.trim(),
        "error: message 2: That message is empty: there is nothing to send."
    );
    assert!(out.stdout.is_empty(), "nothing ran");
}

#[test]
fn a_missing_explicit_config_is_an_error_but_a_missing_default_is_not() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["--config", "nope.toml", "doctor"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("nope.toml") && err.contains("does not exist"),
        "{err}"
    );
    let out = sandbox.run(&["doctor"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn bad_environment_and_flag_values_name_their_source() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .bare()
        .env("ALFRED_HOME", sandbox.data_dir())
        .env("ALFRED_TIMEOUT_SECS", "soon")
        .arg("doctor")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("ALFRED_TIMEOUT_SECS=\"soon\""),
        "{}",
        stderr(&out)
    );
    let out = sandbox.run(&["--base-url", "api.example.com", "doctor"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--base-url \"api.example.com\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_run_creates_folders_and_a_log_file_with_the_config_summary() {
    let sandbox = Sandbox::new();
    let data = sandbox.data_dir();
    let out = sandbox.run(&["--llm", "offline", "doctor"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(data.join("sessions").is_dir());
    let logs = log_files(&data);
    assert_eq!(logs.len(), 1, "{logs:?}");
    let log = std::fs::read_to_string(&logs[0]).unwrap();
    assert!(log.contains("alfred starting"), "{log}");
    assert!(log.contains("backend=offline"), "{log}");
    assert!(log.contains("doctor finished"), "{log}");
    assert!(!log.contains('\u{1b}'), "no ANSI escapes in the log");
}

#[test]
fn the_api_key_never_reaches_the_log() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .bare()
        .env("ALFRED_HOME", sandbox.data_dir())
        .env("OPENAI_API_KEY", "sk-test-secret-123")
        // A closed local port: doctor asks the endpoint, never the internet.
        .args(["--base-url", "http://127.0.0.1:9/v1", "doctor"])
        .output()
        .unwrap();
    // The endpoint does not answer: doctor says so and exits 1.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(
        report.contains("OPENAI_API_KEY is set (not shown)"),
        "{report}"
    );
    assert!(!report.contains("sk-test-secret-123"), "{report}");
    let logs = log_files(&sandbox.data_dir());
    let log = std::fs::read_to_string(&logs[0]).unwrap();
    assert!(
        log.contains("backend=openai"),
        "auto picks openai when the key is set: {log}"
    );
    assert!(!log.contains("sk-test-secret-123"), "{log}");
}

#[test]
fn alfred_home_works_like_data_dir() {
    let sandbox = Sandbox::new();
    let home = sandbox.path().join("alfred-home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.toml"), "[pipeline]\nmax_stepz = 3\n").unwrap();
    let out = sandbox
        .bare()
        .env("ALFRED_HOME", &home)
        .arg("doctor")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "ALFRED_HOME's config was not read: {err}"
    );
    assert!(
        err.contains(&home.join("config.toml").display().to_string()),
        "{err}"
    );

    std::fs::remove_file(home.join("config.toml")).unwrap();
    let out = sandbox
        .bare()
        .env("ALFRED_HOME", &home)
        .arg("doctor")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(log_files(&home).len(), 1);
    assert!(home.join("sessions").is_dir());

    // An empty ALFRED_HOME counts as unset: the platform folders under HOME are used.
    let out = sandbox
        .bare()
        .env("ALFRED_HOME", "")
        .arg("doctor")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    if cfg!(target_os = "linux") {
        assert!(sandbox.path().join(".local/share/alfred/sessions").is_dir());
        assert!(
            sandbox.path().join(".local/state/alfred").is_dir(),
            "logs in the state dir"
        );
    }

    // --data-dir wins over ALFRED_HOME.
    let other = sandbox.path().join("other");
    let out = sandbox
        .bare()
        .env("ALFRED_HOME", &home)
        .arg("--data-dir")
        .arg(&other)
        .arg("doctor")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(other.join("sessions").is_dir());
}

#[test]
fn an_unwritable_data_dir_is_a_clear_error() {
    let sandbox = Sandbox::new();
    let blocker = sandbox.path().join("file");
    std::fs::write(&blocker, "not a folder").unwrap();
    // A readable config elsewhere, so the failure is the folder, not the file.
    let config = sandbox.path().join("ok.toml");
    std::fs::write(&config, "").unwrap();
    let out = sandbox
        .bare()
        .arg("--data-dir")
        .arg(&blocker)
        .arg("--config")
        .arg(&config)
        .arg("doctor")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("error: the data folder ") && err.contains("is a file, not a folder"),
        "{err}"
    );
    assert!(err.contains("--data-dir"), "{err}");
    // Without a config elsewhere it is the same sentence, not a config error.
    let out = sandbox
        .bare()
        .arg("--data-dir")
        .arg(&blocker)
        .args(["run", "--new", "-m", "hi"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("is a file, not a folder"), "{err}");
    assert!(!err.contains("config"), "{err}");
}

#[cfg(unix)]
#[test]
fn data_files_are_the_users_alone() {
    use std::os::unix::fs::PermissionsExt;
    let sandbox = Sandbox::new();
    let data = sandbox.data_dir();
    let out = sandbox.run(&[
        "--llm",
        "offline",
        "run",
        "--new",
        "-m",
        "add 2 lemons to my fridge",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    for dir in [data.clone(), data.join("sessions"), data.join("logs")] {
        assert_eq!(mode(&dir), 0o700, "{}", dir.display());
    }
    let mut files = vec![data.join("kitchen.db")];
    files.extend(log_files(&data));
    for entry in std::fs::read_dir(data.join("sessions")).unwrap() {
        files.push(entry.unwrap().path());
    }
    assert!(
        files.len() >= 4,
        "kitchen, log, session and lock: {files:?}"
    );
    for f in &files {
        assert_eq!(mode(f), 0o600, "{}", f.display());
    }
    // An older install's files are made private on the next start.
    std::fs::set_permissions(
        data.join("kitchen.db"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    std::fs::set_permissions(
        data.join("sessions"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let out = sandbox.run(&["--llm", "offline", "sessions", "list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(mode(&data.join("sessions")), 0o700);
    let out = sandbox.run(&["--llm", "offline", "kitchen", "reset", "--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(mode(&data.join("kitchen.db")), 0o600);
}

#[test]
fn a_bad_log_filter_warns_once_and_carries_on() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .bare()
        .env("ALFRED_HOME", sandbox.data_dir())
        .env("ALFRED_LOG", "alfred=loud")
        .arg("doctor")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let mut lines = err.lines();
    assert!(
        lines
            .next()
            .unwrap_or_default()
            .starts_with("warning: logging is off: "),
        "{err}"
    );
    assert_eq!(lines.next(), None, "{err}");
}

#[test]
fn version_prints_on_stdout() {
    let out = Sandbox::new().run(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("alfred "), "{}", stdout(&out));
}

#[test]
fn a_first_run_seeds_the_kitchen_and_stats_count_it() {
    let sandbox = Sandbox::new();
    // Looking first creates nothing.
    let out = sandbox.run(&["kitchen", "stats"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("No kitchen yet at "),
        "{}",
        stdout(&out)
    );
    assert!(!sandbox.data_dir().join("kitchen.db").exists());
    let out = sandbox.run(&["--llm", "offline", "run", "-m", "what can I cook?"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("Seeded the sample kitchen"),
        "{}",
        stderr(&out)
    );
    assert!(sandbox.data_dir().join("kitchen.db").is_file());
    let out = sandbox.run(&["kitchen", "stats"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let table = stdout(&out);
    for (name, rows) in [("recipes", "9"), ("inventory", "59"), ("meal_plans", "0")] {
        let line = table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} line in {table}"));
        assert_eq!(line.split_whitespace().nth(1), Some(rows), "{line}");
    }
    // Seeding happens once.
    let out = sandbox.run(&["kitchen", "stats"]);
    assert!(!stderr(&out).contains("Seeded"), "{}", stderr(&out));
}

#[test]
fn kitchen_reset_asks_first_and_refuses_without_a_terminal() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["kitchen", "reset"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("pass --yes"), "{}", stderr(&out));
    let out = sandbox.run(&["kitchen", "reset", "--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Re-seeded the sample kitchen (seeded 9 recipes"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_ui_without_a_terminal_points_at_alfred_run() {
    let sandbox = Sandbox::new();
    for args in [&[][..], &["--new"], &["demo"]] {
        let out = sandbox.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("the UI needs a terminal"),
            "{}",
            stderr(&out)
        );
        assert!(stderr(&out).contains("alfred run -m"), "{}", stderr(&out));
    }
}

#[test]
fn a_message_over_the_limit_is_refused_before_anything_is_sent() {
    let sandbox = Sandbox::new();
    let paste = "eggs ".repeat(10_000);
    let out = sandbox.run(&["--llm", "offline", "run", "--new", "-m", "hi", "-m", &paste]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("message 2: That message is 48.8 KiB"), "{err}");
    assert!(err.contains("at most 32 KiB"), "{err}");
    assert_eq!(stdout(&out), "", "not even the first was sent");
    let sessions = sandbox.data_dir().join("sessions");
    let files = std::fs::read_dir(&sessions).map(|d| d.count()).unwrap_or(0);
    assert_eq!(files, 0, "no session was started");
}

#[test]
fn every_failure_begins_the_same_way() {
    let sandbox = Sandbox::new();
    let bad = sandbox.path().join("bad.toml");
    std::fs::write(&bad, "[ui]\ntheme = \"pink\"\n").unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["--config", bad.to_str().unwrap(), "doctor"],
        vec!["sessions", "show", "nope"],
        vec!["--base-url", "ftp://x", "doctor"],
        vec!["run", "-m", ""],
        vec!["sessions", "rm", "nope"],
        vec!["eval", "no-such-scenario"],
        vec!["--llm", "openai", "run", "-m", "hi"],
    ];
    for args in cases {
        let out = sandbox.run(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}
