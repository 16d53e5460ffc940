//! Every way a Postgres kitchen can fail to open, through the built binary:
//! a wrong or missing password, a server that is down, a missing database,
//! TLS asked of a server without it, a database without the kitchen, and a
//! URL that is not one. Each ends in one `error:` line naming the cause and
//! the fix, exit 1, no panic and no password — in `run`, which opens the
//! store inside the app's runtime, and in `kitchen stats`, which does not.
//! Then a connection that drops at the turn's `COMMIT`: the kitchen's stamp
//! decides whether the turn landed, so it is neither lost nor sent twice.

#[path = "support/cut_proxy.rs"]
mod cut_proxy;
#[path = "support/pg_cluster.rs"]
mod pg_cluster;
#[path = "support/sandbox.rs"]
mod sandbox;

use sandbox::{Sandbox, stderr, stdout};

const USER: &str = "8d1c0d5e-4f5a-4c1e-9d55-6a0e2a7c3b11";

/// Runs `args` against the store at `url` and checks the one-line failure;
/// the error line.
fn refused(url: &str, args: &[&str], password: Option<&str>) -> String {
    let sandbox = Sandbox::new();
    let mut all = vec!["--llm", "offline", "--store", url, "--user", USER];
    all.extend_from_slice(args);
    let out = sandbox.run(&all);
    let (err, text) = (stderr(&out), stdout(&out));
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?} on {url}:\n{err}{text}"
    );
    assert!(!err.contains("panicked"), "a panic:\n{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "one error line:\n{err}");
    if let Some(p) = password {
        assert!(
            !err.contains(p) && !text.contains(p),
            "the password is shown:\n{err}"
        );
    }
    assert!(text.is_empty(), "nothing on stdout: {text}");
    errors[0].to_string()
}

/// Both commands give the same sentence; it holds every one of `words`.
fn each_command_says(url: &str, password: Option<&str>, words: &[&str]) {
    for args in [&["run", "--new", "-m", "hi"][..], &["kitchen", "stats"][..]] {
        let line = refused(url, args, password);
        for w in words {
            assert!(line.contains(w), "{args:?}: no {w:?} in: {line}");
        }
    }
}

#[test]
fn a_wrong_password_names_the_role_and_the_fix() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.database_with_password("WRONG-pass");
    each_command_says(
        &url,
        Some("WRONG-pass"),
        &["refused the password of role alfred_pw", "fix the password"],
    );
}

#[test]
fn a_missing_password_says_the_url_gives_none() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.database_with_password("x").replacen(":x@", "@", 1);
    each_command_says(&url, None, &["the URL gives none"]);
}

#[test]
fn the_right_password_opens_the_kitchen() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.database_with_password(pg_cluster::PASSWORD);
    let sandbox = Sandbox::new();
    let base = ["--store", url.as_str(), "--user", USER];
    let init = sandbox.run(&[&base[..], &["kitchen", "init"]].concat());
    assert!(init.status.success(), "{}", stderr(&init));
    let out = sandbox.run(
        &[
            &["--llm", "offline"][..],
            &base,
            &["run", "--new", "-m", "hi"],
        ]
        .concat(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains(pg_cluster::PASSWORD));
}

#[test]
fn a_server_that_is_down_is_named_with_its_address() {
    // A port nobody listens on: bound, read, released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let url = format!("postgres://postgres:hunter2@127.0.0.1:{port}/alfred");
    each_command_says(
        &url,
        Some("hunter2"),
        &[
            &format!("nothing answers at 127.0.0.1:{port}"),
            "start the Postgres server",
        ],
    );
}

#[test]
fn a_missing_database_is_named_with_how_to_make_it() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.url("no_such_kitchen");
    each_command_says(
        &url,
        None,
        &["no database no_such_kitchen", "createdb no_such_kitchen"],
    );
}

#[test]
fn tls_required_of_a_server_without_it_says_how_to_connect() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = format!("{}?sslmode=require", cluster.fresh_database());
    each_command_says(&url, None, &["does not offer it", "sslmode=prefer"]);
}

#[test]
fn a_database_without_the_kitchen_tables_says_how_to_make_them() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.fresh_database();
    each_command_says(&url, None, &["no kitchen tables", "alfred kitchen init"]);
}

#[test]
fn a_password_with_an_unencoded_at_sign_never_shows_its_tail() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = format!(
        "postgres://postgres:p@ss:w0rd/x@127.0.0.1:{}/alfred",
        cluster.port()
    );
    for args in [&["run", "--new", "-m", "hi"][..], &["kitchen", "stats"][..]] {
        let line = refused(&url, args, Some("w0rd"));
        assert!(line.contains("percent-encoded"), "{line}");
        assert!(!line.contains("ss:"), "{line}");
    }
}

/// A kitchen made in a fresh database; its URL.
fn kitchen_database(cluster: &pg_cluster::Cluster, sandbox: &Sandbox) -> String {
    let url = cluster.fresh_database();
    let init = sandbox.run(&["--store", &url, "--user", USER, "kitchen", "init"]);
    assert!(init.status.success(), "{}", stderr(&init));
    url
}

/// Rows of the user's shopping list named `name`.
fn listed(url: &str, name: &str) -> usize {
    let rows = pg_cluster::sql(
        url,
        &format!("SELECT count(*) FROM shopping_list WHERE name = '{name}'"),
    );
    rows[0][0].as_deref().unwrap_or("0").parse().unwrap()
}

/// `run --json -m message` on the kitchen at `url`.
fn send(sandbox: &Sandbox, url: &str, message: &str) -> std::process::Output {
    sandbox.run(&[
        "--llm", "offline", "--store", url, "--user", USER, "run", "--json", "-m", message,
    ])
}

/// The message each cut-commit test sends.
const ADD: &str = "add fennel to my shopping list";

/// A kitchen reached through a proxy that cuts the connection of the first
/// `COMMIT` as `cut` says, and the run that sent [`ADD`] through it.
struct CutRun {
    sandbox: Sandbox,
    /// The kitchen's own URL, and the one through the proxy.
    url: String,
    through: String,
    out: std::process::Output,
}

fn add_through(cut: cut_proxy::Cut) -> Option<CutRun> {
    let cluster = pg_cluster::cluster()?;
    let sandbox = Sandbox::new();
    let url = kitchen_database(cluster, &sandbox);
    let proxy = cut_proxy::CutProxy::start(cluster.port(), cut);
    let through = proxy.url(&url, cluster.port());
    let out = send(&sandbox, &through, ADD);
    assert_eq!(proxy.cuts(), 1, "the commit's connection was cut");
    Some(CutRun {
        sandbox,
        url,
        through,
        out,
    })
}

#[test]
fn a_connection_lost_after_commit_is_asked_and_the_turn_is_kept_once() {
    let Some(CutRun {
        sandbox, url, out, ..
    }) = add_through(cut_proxy::Cut::AfterCommit)
    else {
        return;
    };
    assert!(out.status.success(), "{}", stderr(&out));
    let record: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(record["status"], "ok", "{record}");
    assert_eq!(listed(&url, "fennel"), 1);
    // Opening the session again finds the turn kept, and nothing doubled.
    let again = send(&sandbox, &url, "what's on my shopping list?");
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(!stderr(&again).contains("cut off"), "{}", stderr(&again));
    let list = stdout(&sandbox.run(&["sessions", "list"]));
    let row = list.lines().nth(1).unwrap_or_default();
    assert!(
        row.split_whitespace().any(|w| w == "2"),
        "two turns, the first kept:\n{list}"
    );
    assert_eq!(listed(&url, "fennel"), 1);
}

#[test]
fn a_connection_lost_before_commit_fails_the_turn_and_sending_it_again_adds_one_row() {
    let Some(CutRun {
        sandbox,
        url,
        through,
        out,
    }) = add_through(cut_proxy::Cut::BeforeCommit)
    else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("could not save the turn's changes"),
        "{}",
        stderr(&out)
    );
    assert_eq!(listed(&url, "fennel"), 0);
    let again = send(&sandbox, &through, ADD);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(listed(&url, "fennel"), 1);
}

#[test]
fn a_commit_that_cannot_be_confirmed_stays_pending_until_the_session_is_opened_again() {
    let Some(CutRun {
        sandbox, url, out, ..
    }) = add_through(cut_proxy::Cut::AfterCommitThenDown)
    else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("could not be asked whether they landed"),
        "{err}"
    );
    assert!(err.contains("open the session again"), "{err}");
    assert!(stdout(&out).trim().is_empty() || !stdout(&out).contains("\"status\":\"ok\""));
    // The commit did land; opening the session asks the stamp and keeps it.
    assert_eq!(listed(&url, "fennel"), 1);
    let again = send(&sandbox, &url, "what's on my shopping list?");
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(!stderr(&again).contains("cut off"), "{}", stderr(&again));
    let reply: serde_json::Value = serde_json::from_str(stdout(&again).trim()).unwrap();
    assert!(
        reply["reply"]
            .as_str()
            .unwrap_or_default()
            .contains("fennel"),
        "{reply}"
    );
    assert_eq!(reply["turn"], 2, "the unconfirmed turn was kept as turn 1");
    assert_eq!(listed(&url, "fennel"), 1);
}
