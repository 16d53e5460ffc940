//! Every file and folder alfred makes is its user's only (0600 / 0700),
//! from the moment it exists, and files an older install left wider are
//! narrowed when they are written to.
//!
//! The process's umask is set to 000 here, so nothing below is saved by a
//! careful umask: a mode comes from alfred or not at all. The umask is
//! process-wide, which is why these tests have a binary of their own (every
//! test in it wants the same umask).
#![cfg(unix)]

#[path = "support/sandbox.rs"]
mod sandbox;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use alfred::context::ContextPolicy;
use alfred::paths::Paths;
use alfred::session::export::save_export;
use alfred::session::{LlmSettings, SessionStore};

/// Sets the umask to 000 (every test does; the value is the same for all).
fn open_umask() {
    // SAFETY: umask only sets the process's file mode creation mask.
    unsafe {
        libc::umask(0);
    }
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// Every file and folder under `dir`, `dir` included.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path.clone());
            }
            out.push(path);
        }
    }
    out
}

#[test]
fn folders_alfred_creates_are_0700() {
    open_umask();
    let tmp = tempfile::tempdir().expect("tmp");
    let paths = Paths::under(&tmp.path().join("home"));
    paths.ensure_dirs().expect("folders");
    for dir in [&paths.data_dir, &paths.sessions_dir, &paths.log_dir] {
        assert_eq!(mode(dir), 0o700, "{}", dir.display());
    }
}

#[test]
fn the_exports_folder_and_its_files_are_private() {
    open_umask();
    let tmp = tempfile::tempdir().expect("tmp");
    let exports = tmp.path().join("exports");
    let saved = save_export(&exports, "s-turn1", "md", "# one").expect("export");
    assert_eq!(mode(&exports), 0o700);
    assert_eq!(mode(&saved.path), 0o600);
    // An older install's wide folder is narrowed by the next export.
    set_mode(&exports, 0o755);
    let again = save_export(&exports, "s-turn1", "md", "# two").expect("export");
    assert_eq!(mode(&exports), 0o700);
    assert_eq!(mode(&again.path), 0o600);
}

#[test]
fn an_older_wide_session_file_is_narrowed_when_appended_to() {
    open_umask();
    let tmp = tempfile::tempdir().expect("tmp");
    let store = SessionStore::new(tmp.path());
    let now = jiff::Timestamp::now();
    let (session, lock) = store
        .create(now, LlmSettings::default(), ContextPolicy::default())
        .expect("create");
    store.write_new(&session, &lock).expect("write");
    let path = store.path_of(&session.id);
    assert_eq!(mode(&path), 0o600, "written new");
    assert_eq!(mode(lock.path()), 0o600, "the lock file");
    drop(lock);
    let before = std::fs::read(&path).expect("read");
    set_mode(&path, 0o644);
    // A rename of a journal appends a title line to it.
    store.rename(&session.id, "soup").expect("rename");
    let after = std::fs::read(&path).expect("read");
    assert!(after.starts_with(&before), "appended, not rewritten");
    assert_eq!(mode(&path), 0o600, "narrowed by the append");
}

#[test]
fn a_run_leaves_nothing_wider_than_its_user() {
    open_umask();
    let sandbox = sandbox::Sandbox::new();
    let out = sandbox.run(&["--llm", "offline", "run", "--new", "-m", "what can I cook?"]);
    assert!(out.status.success(), "{}", sandbox::stderr(&out));
    let data = sandbox.data_dir();
    let mut checked = 0;
    for path in walk(&data) {
        let want = if path.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(mode(&path), want, "{}", path.display());
        checked += 1;
    }
    assert!(
        data.join("logs").read_dir().expect("logs").count() > 0,
        "a log was written"
    );
    assert!(checked >= 5, "{checked} paths checked");
}
