//! A throwaway Postgres server for the tests that need a real one: one per
//! test process, started on first use, each test in its own fresh database.
//!
//! Include it with
//! `#[path = "support/pg_cluster.rs"] mod pg_cluster;`
//! and begin a test with
//! `let Some(cluster) = pg_cluster::cluster() else { return };`
//! then connect to `cluster.fresh_database()`.
//!
//! - No Postgres server binaries (`pg_ctl`, `initdb`, on PATH or under
//!   `/usr/lib/postgresql/*/bin`): `cluster()` prints one `SKIPPED:` line to
//!   stderr and returns `None`; with `ALFRED_REQUIRE_POSTGRES=1` (CI) it
//!   panics instead, so a missing install cannot pass silently.
//! - Binaries found but `initdb` or the start fails: every `cluster()` call
//!   panics with the tool's output and the server log's tail.
//! - Run as root (as here and in CI), the tools run as the `postgres` user
//!   through `runuser`, since `initdb` and `pg_ctl` refuse root.
//! - The server does not outlive the test process: an `atexit` handler stops
//!   it (`pg_ctl stop -m immediate`) and removes its folder; a watcher
//!   process does the same once the test process is gone however it ended
//!   (it waits for end of file on a pipe only the test process holds); and
//!   the server itself shuts down within a minute of its data folder's
//!   lock file disappearing.
#![allow(dead_code)]

use std::ffi::OsString;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// The environment variable that turns "no Postgres binaries" from a skip
/// into a failure.
pub const REQUIRE_ENV: &str = "ALFRED_REQUIRE_POSTGRES";

/// The superuser `initdb` creates; every connection uses it (trust auth).
const SUPERUSER: &str = "postgres";

/// A running throwaway server.
pub struct Cluster {
    port: u16,
    /// The temp folder: `data/`, `server.log` and the Unix socket.
    dir: PathBuf,
    tools: Tools,
    /// The write end of the watcher's stdin; never written, never closed
    /// before the process ends.
    _watcher: ChildStdin,
}

enum State {
    Running(Cluster),
    NoBinaries,
    Broken(String),
}

static STATE: OnceLock<State> = OnceLock::new();

/// The test process's cluster, started on first call. `None` (after one
/// loud line on stderr) when this machine has no Postgres server binaries.
///
/// # Panics
/// When the binaries are there but the cluster cannot be set up or started,
/// and when they are missing while `ALFRED_REQUIRE_POSTGRES` is set.
pub fn cluster() -> Option<&'static Cluster> {
    match STATE.get_or_init(start) {
        State::Running(cluster) => Some(cluster),
        State::NoBinaries if required() => panic!(
            "{REQUIRE_ENV} is set but no Postgres server binaries (pg_ctl, initdb) were found \
             on PATH or under /usr/lib/postgresql/*/bin; install Debian's postgresql package"
        ),
        State::NoBinaries => None,
        State::Broken(why) => panic!("the test Postgres cluster could not start: {why}"),
    }
}

/// Runs `statements` (no parameters) on the database at `url`; the rows
/// they gave, each value as text. From a thread with its own runtime, so
/// callers may be inside a runtime (a `#[tokio::test]`) or not.
pub fn try_sql(url: &str, statements: &str) -> Result<Vec<Vec<Option<String>>>, String> {
    let (url, statements) = (url.to_string(), statements.to_string());
    let ran = std::thread::spawn(move || -> Result<_, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("a runtime: {e}"))?;
        runtime.block_on(async {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .map_err(|e| format!("connecting to {url}: {e}"))?;
            let connection = tokio::spawn(connection);
            let done = client.simple_query(&statements).await;
            drop(client);
            let _ = connection.await;
            let messages = done.map_err(|e| format!("{statements}: {e}"))?;
            Ok(messages
                .iter()
                .filter_map(|m| match m {
                    tokio_postgres::SimpleQueryMessage::Row(r) => {
                        Some((0..r.len()).map(|i| r.get(i).map(String::from)).collect())
                    }
                    _ => None,
                })
                .collect())
        })
    })
    .join();
    ran.unwrap_or_else(|_| Err("the SQL thread panicked".into()))
}

/// [`try_sql`] that must succeed.
///
/// # Panics
/// When the statements fail.
pub fn sql(url: &str, statements: &str) -> Vec<Vec<Option<String>>> {
    try_sql(url, statements).unwrap_or_else(|e| panic!("{e}"))
}

impl Cluster {
    /// A new empty database (UTF-8, C collation) of its own, as a
    /// `postgres://postgres@127.0.0.1:PORT/NAME` URL.
    ///
    /// # Panics
    /// When the server refuses the `CREATE DATABASE`.
    pub fn fresh_database(&self) -> String {
        static NEXT: AtomicU32 = AtomicU32::new(1);
        let name = format!(
            "test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let admin = self.url(SUPERUSER);
        // template0 takes no connections, so nothing a test does (to
        // template1, say) reaches another test's database.
        let create = format!("CREATE DATABASE {name} TEMPLATE template0");
        let created = try_sql(&admin, &create);
        match created {
            Ok(_) => self.url(&name),
            Err(why) => panic!(
                "the test Postgres cluster did not create a fresh database: {why}{}",
                self.log_tail()
            ),
        }
    }

    /// The URL of database `name` on this server.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{name}", self.port)
    }

    /// A new empty database owned by [`PASSWORD_ROLE`] (created with its
    /// password on first use), as a URL with `password` in it.
    ///
    /// # Panics
    /// When the server refuses the role or the database.
    pub fn database_with_password(&self, password: &str) -> String {
        static ROLE: OnceLock<()> = OnceLock::new();
        ROLE.get_or_init(|| {
            sql(
                &self.url(SUPERUSER),
                &format!(
                    "DO $$ BEGIN CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD '{PASSWORD}'; \
                     EXCEPTION WHEN duplicate_object THEN NULL; END $$"
                ),
            );
        });
        let url = self.fresh_database();
        let name = url.rsplit('/').next().unwrap_or_default().to_string();
        sql(
            &self.url(SUPERUSER),
            &format!("ALTER DATABASE {name} OWNER TO {PASSWORD_ROLE}"),
        );
        format!(
            "postgres://{PASSWORD_ROLE}:{password}@127.0.0.1:{}/{name}",
            self.port
        )
    }

    /// The TCP port the server listens on (127.0.0.1 only).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The server's log file (kept until the process ends).
    pub fn log_file(&self) -> PathBuf {
        self.dir.join("server.log")
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// The last lines of the server log, as a paragraph for a message.
    fn log_tail(&self) -> String {
        log_tail(&self.log_file())
    }

    /// Stops the server at once and removes its folder; quiet, never panics.
    fn stop(&self) {
        let _ = self
            .tools
            .command("pg_ctl")
            .arg("stop")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "immediate", "-w"])
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// True when `ALFRED_REQUIRE_POSTGRES` is set to anything but empty or `0`.
fn required() -> bool {
    std::env::var_os(REQUIRE_ENV).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Where the server binaries are and whom to run them as.
struct Tools {
    bin: PathBuf,
    /// Running as root: the tools run as the `postgres` user via `runuser`.
    as_postgres_user: bool,
}

impl Tools {
    /// A command running `tool` from the bin folder, as `postgres` if root.
    fn command(&self, tool: &str) -> Command {
        let program = self.bin.join(tool);
        if self.as_postgres_user {
            let mut command = Command::new("runuser");
            command.args(["-u", SUPERUSER, "--"]).arg(program);
            command
        } else {
            Command::new(program)
        }
    }

    /// The program and arguments of [`Tools::command`], for the watcher.
    fn argv(&self, tool: &str) -> Vec<OsString> {
        let mut argv: Vec<OsString> = Vec::new();
        if self.as_postgres_user {
            argv.extend(["runuser", "-u", SUPERUSER, "--"].map(OsString::from));
        }
        argv.push(self.bin.join(tool).into_os_string());
        argv
    }
}

/// Sets up and starts the cluster (the `OnceLock`'s initialiser).
fn start() -> State {
    let Some(bin) = find_bin_dir() else {
        if !required() {
            // Straight to the process's stderr: the test harness captures
            // `eprintln!` and shows it only for failing tests.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: no Postgres server binaries (pg_ctl, initdb) found on PATH or under \
                 /usr/lib/postgresql/*/bin — the Postgres store tests did not run; install \
                 Debian's postgresql package (set {REQUIRE_ENV}=1 to make this a failure)"
            );
        }
        return State::NoBinaries;
    };
    match set_up(bin) {
        Ok(cluster) => State::Running(cluster),
        Err(why) => State::Broken(why),
    }
}

fn set_up(bin: PathBuf) -> Result<Cluster, String> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    let as_postgres_user = unsafe { libc::geteuid() } == 0;
    let tools = Tools {
        bin,
        as_postgres_user,
    };
    let dir = tempfile::Builder::new()
        .prefix("alfred-pg-")
        .tempdir()
        .map_err(|e| format!("creating a temp folder: {e}"))?
        .keep();
    // From here on the folder is removed on every path out.
    let cleanup = |why: String| {
        let _ = fs::remove_dir_all(&dir);
        why
    };
    if as_postgres_user {
        let (uid, gid) = postgres_user().map_err(cleanup)?;
        std::os::unix::fs::chown(&dir, Some(uid), Some(gid))
            .map_err(|e| cleanup(format!("handing {} to postgres: {e}", dir.display())))?;
    }
    let watcher = spawn_watcher(&tools, &dir).map_err(cleanup)?;
    let cluster = Cluster {
        port: 0,
        dir,
        tools,
        _watcher: watcher,
    };
    match init_and_start(cluster) {
        Ok(cluster) => {
            // SAFETY: `stop_at_exit` is a plain function that never unwinds.
            if unsafe { libc::atexit(stop_at_exit) } != 0 {
                cluster.stop();
                return Err("could not register the stop at exit (atexit)".into());
            }
            Ok(cluster)
        }
        Err((cluster, why)) => {
            cluster.stop();
            Err(why)
        }
    }
}

/// `initdb`, the settings, then `pg_ctl start` on a free port (retried on
/// a new port if another process took it in between).
fn init_and_start(mut cluster: Cluster) -> Result<Cluster, (Cluster, String)> {
    let data = cluster.data();
    let initdb = cluster
        .tools
        .command("initdb")
        .arg("-D")
        .arg(&data)
        .args(["-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--locale=C"])
        .arg("--no-sync")
        .current_dir(&cluster.dir)
        .stdin(Stdio::null())
        .output();
    if let Err(why) = succeeded("initdb", initdb) {
        return Err((cluster, why));
    }
    if let Err(e) = append_settings(&data.join("postgresql.conf"), &cluster.dir) {
        return Err((cluster, format!("writing postgresql.conf: {e}")));
    }
    if let Err(e) = require_password(&data.join("pg_hba.conf")) {
        return Err((cluster, format!("writing pg_hba.conf: {e}")));
    }
    const ATTEMPTS: usize = 3;
    let mut attempt = 1;
    loop {
        let port = match free_port() {
            Ok(port) => port,
            Err(e) => return Err((cluster, format!("finding a free port: {e}"))),
        };
        cluster.port = port;
        let started = cluster
            .tools
            .command("pg_ctl")
            .arg("start")
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(cluster.log_file())
            .args(["-w", "-t", "60", "-o"])
            .arg(format!("-p {port}"))
            .current_dir(&cluster.dir)
            .stdin(Stdio::null())
            .output();
        let Err(why) = succeeded("pg_ctl start", started) else {
            return Ok(cluster);
        };
        let tail = cluster.log_tail();
        if attempt < ATTEMPTS && tail.contains("already in use") {
            attempt += 1;
            continue;
        }
        return Err((cluster, format!("{why}{tail}")));
    }
}

/// The role that must give its password over TCP (every other role is
/// trusted): for the tests of a wrong or missing password.
pub const PASSWORD_ROLE: &str = "alfred_pw";
/// [`PASSWORD_ROLE`]'s password.
pub const PASSWORD: &str = "right-horse-battery";

/// Puts a password rule for [`PASSWORD_ROLE`] before `initdb`'s trust
/// rules (the first matching line decides).
fn require_password(hba: &Path) -> std::io::Result<()> {
    let rules = fs::read_to_string(hba)?;
    fs::write(
        hba,
        format!("host all {PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n{rules}"),
    )
}

/// Settings for a fast throwaway server reachable only from this machine.
fn append_settings(conf: &Path, dir: &Path) -> std::io::Result<()> {
    let socket_dir = dir.display().to_string().replace('\'', "''");
    let mut file = OpenOptions::new().append(true).open(conf)?;
    write!(
        file,
        "\n# Throwaway test cluster (tests/support/pg_cluster.rs)\n\
         listen_addresses = '127.0.0.1'\n\
         unix_socket_directories = '{socket_dir}'\n\
         fsync = off\n\
         synchronous_commit = off\n\
         full_page_writes = off\n\
         shared_buffers = 16MB\n"
    )
}

/// `Ok` when the tool ran and exited 0; otherwise its output, for a message.
fn succeeded(tool: &str, output: std::io::Result<Output>) -> Result<(), String> {
    match output {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(format!(
            "{tool} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "{tool} could not be run: {e} (as root the tools run through runuser, from util-linux)"
        )),
        Err(e) => Err(format!("{tool} could not be run: {e}")),
    }
}

/// A port nobody listens on now (the OS picks it; the socket is dropped).
fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The last 30 lines of `log`, or a note that there is none.
fn log_tail(log: &Path) -> String {
    match fs::read_to_string(log) {
        Ok(text) => {
            let lines: Vec<&str> = text.lines().collect();
            let tail = lines[lines.len().saturating_sub(30)..].join("\n");
            format!("\nlast lines of {}:\n{tail}", log.display())
        }
        Err(e) => format!("\n(no server log at {}: {e})", log.display()),
    }
}

/// The `postgres` user's uid and gid.
fn postgres_user() -> Result<(u32, u32), String> {
    // SAFETY: a NUL-terminated name; the record is read at once, before any
    // other passwd lookup, and this runs once (inside the OnceLock).
    let entry = unsafe { libc::getpwnam(c"postgres".as_ptr()) };
    if entry.is_null() {
        return Err(
            "running as root, and there is no `postgres` user to run the Postgres \
                    tools as (Debian's postgresql package creates it)"
                .into(),
        );
    }
    // SAFETY: non-null, just returned by getpwnam.
    let (uid, gid) = unsafe { ((*entry).pw_uid, (*entry).pw_gid) };
    Ok((uid, gid))
}

/// A process that stops the server and removes `dir` once its stdin reaches
/// end of file — when the test process is gone, whether it exited, panicked,
/// was interrupted or was killed. The returned write end must be kept for the process's
/// life (it is not inherited by other children: Rust opens pipes with
/// close-on-exec).
fn spawn_watcher(tools: &Tools, dir: &Path) -> Result<ChildStdin, String> {
    // Gone already when the stop at exit ran (it removes the folder first).
    let script = r#"cat >/dev/null; dir=$1; shift; [ -e "$dir" ] || exit 0; "$@" >/dev/null 2>&1; rm -rf -- "$dir""#;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg("pg-cluster-watcher")
        .arg(dir)
        .args(tools.argv("pg_ctl"))
        .arg("stop")
        .arg("-D")
        .arg(dir.join("data"))
        .args(["-m", "immediate", "-w"])
        .current_dir("/")
        // Its own process group: a Ctrl-C (SIGINT to the terminal's
        // foreground group) ends the tests without their atexit, and must
        // not end the watcher too.
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("starting the watcher (sh): {e}"))?;
    child
        .stdin
        .take()
        .ok_or_else(|| "the watcher has no stdin".to_string())
}

/// Registered with `atexit`: stops the server when the process exits.
extern "C" fn stop_at_exit() {
    let _ = std::panic::catch_unwind(|| {
        if let Some(State::Running(cluster)) = STATE.get() {
            cluster.stop();
        }
    });
}

/// The folder holding `pg_ctl` and `initdb`: the first on PATH (a symlink's
/// target folder, where Debian keeps `postgres` beside them, preferred),
/// else the newest `/usr/lib/postgresql/<version>/bin`.
fn find_bin_dir() -> Option<PathBuf> {
    let has_tools =
        |dir: &Path| is_executable(&dir.join("pg_ctl")) && is_executable(&dir.join("initdb"));
    for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
        let pg_ctl = dir.join("pg_ctl");
        if !is_executable(&pg_ctl) {
            continue;
        }
        let target = fs::canonicalize(&pg_ctl)
            .ok()
            .and_then(|real| real.parent().map(Path::to_path_buf));
        if let Some(found) = target.into_iter().chain([dir]).find(|d| has_tools(d)) {
            return Some(found);
        }
    }
    let mut versions: Vec<(Vec<u32>, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let version = entry
                .file_name()
                .to_str()?
                .split('.')
                .map(|part| part.parse::<u32>().ok())
                .collect::<Option<Vec<u32>>>()?;
            Some((version, entry.path().join("bin")))
        })
        .filter(|(_, bin)| has_tools(bin))
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_executable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
