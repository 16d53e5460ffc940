//! Shared by the CLI tests: a throwaway home for one test, and the built
//! binary run in it with a cleared environment (only PATH, a HOME inside the
//! temp dir and `TZ=UTC`), so nothing reads or writes the developer's real
//! files or depends on their `OPENAI_API_KEY` or time zone.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use alfred::session::{SessionFile, write_atomic};

/// A throwaway home for one test.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn data_dir(&self) -> PathBuf {
        self.path().join("data")
    }

    pub fn sessions_dir(&self) -> PathBuf {
        self.data_dir().join("sessions")
    }

    /// The binary with a cleared environment; no `--data-dir` yet. Run with
    /// `output()`, it gets no stdin.
    pub fn bare(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_alfred"));
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.path())
            .env("TZ", "UTC")
            .current_dir(self.path());
        cmd
    }

    /// Runs alfred with `--data-dir` pointing into the sandbox.
    pub fn run(&self, args: &[&str]) -> Output {
        self.bare()
            .arg("--data-dir")
            .arg(self.data_dir())
            .args(args)
            .output()
            .expect("run alfred")
    }

    /// Saves a session as an earlier run would have.
    pub fn put(&self, s: &SessionFile) {
        std::fs::create_dir_all(self.sessions_dir()).expect("mkdir");
        let path = self.sessions_dir().join(format!("{}.json", s.id));
        write_atomic(&path, &s.to_bytes().expect("encode")).expect("write");
    }
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
