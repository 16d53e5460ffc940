//! Diagnostics to a daily-rolling file, never to the terminal.
//!
//! This module owns the tracing subscriber: a plain-text (no ANSI) fmt layer
//! writing through tracing-appender's non-blocking writer to
//! `alfred.<date>.log` in the log folder ([`daily`]: a file a day, each
//! readable by its user only), filtered by `ALFRED_LOG` (default `info`). It must never write to stdout or stderr — the TUI owns the screen
//! and `alfred run --json` owns stdout — and a failure here is never fatal: the
//! caller warns once and carries on without logs.

mod daily;

use std::path::{Path, PathBuf};

use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::util::{SubscriberInitExt, TryInitError};

/// Environment variable holding the log filter, e.g. `debug` or `alfred=trace,info`.
pub const ENV_LOG: &str = "ALFRED_LOG";

/// The filter used when neither an override nor `ALFRED_LOG` is given.
pub const DEFAULT_FILTER: &str = "info";

/// Log files kept: a week of days.
const KEEP_FILES: usize = 7;

/// Keeps the background log writer alive; dropping it flushes pending lines.
///
/// Hold it for the life of `main`.
#[must_use = "dropping the guard stops logging; keep it for the life of main"]
#[derive(Debug)]
pub struct LogGuard {
    _worker: WorkerGuard,
    dir: PathBuf,
}

impl LogGuard {
    /// The folder the log files are written to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Why logging could not start.
#[derive(Debug, thiserror::Error)]
pub enum LoggingError {
    /// The filter is not valid `EnvFilter` syntax.
    #[error(
        "the log filter {filter:?} is not valid (set {ENV_LOG} to e.g. `info` or `alfred=debug`)"
    )]
    Filter {
        /// The filter as given.
        filter: String,
        /// What the parser said.
        #[source]
        source: tracing_subscriber::filter::ParseError,
    },
    /// Today's log file could not be opened.
    #[error("cannot open a log file in {}", dir.display())]
    File {
        /// The log folder.
        dir: PathBuf,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// A global subscriber is already installed (e.g. a second init in one process).
    #[error("a logger is already installed in this process")]
    AlreadyInstalled(#[source] TryInitError),
}

/// Starts logging to `log_dir`, returning the guard to keep.
///
/// The filter is `level_override` when given, else `ALFRED_LOG`, else `info`.
/// The folder must exist (see [`crate::paths::Paths::ensure_dirs`]).
pub fn init(log_dir: &Path, level_override: Option<&str>) -> Result<LogGuard, LoggingError> {
    let from_env = std::env::var(ENV_LOG).ok();
    let filter = choose_filter(level_override, from_env.as_deref());
    let env_filter = EnvFilter::builder()
        .parse(filter)
        .map_err(|source| LoggingError::Filter {
            filter: filter.to_string(),
            source,
        })?;

    let file = daily::DailyFile::open(log_dir, KEEP_FILES, Box::new(jiff::Timestamp::now))
        .map_err(|source| LoggingError::File {
            dir: log_dir.to_path_buf(),
            source,
        })?;
    // Only its user reads the log: files of earlier days an older install
    // left wider are narrowed too (new ones are created 0600).
    if let Ok(entries) = std::fs::read_dir(log_dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = crate::paths::private::restrict(&entry.path(), false);
            }
        }
    }
    let (writer, worker) = tracing_appender::non_blocking(file);

    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(env_filter)
        .with_writer(writer)
        .with_ansi(false)
        .with_target(true)
        .finish();
    // `try_init` also forwards `log` records from dependencies into tracing.
    subscriber
        .try_init()
        .map_err(LoggingError::AlreadyInstalled)?;

    Ok(LogGuard {
        _worker: worker,
        dir: log_dir.to_path_buf(),
    })
}

/// The filter in effect: the override, else the environment, else `info`.
/// Blank values count as unset.
fn choose_filter<'a>(level_override: Option<&'a str>, from_env: Option<&'a str>) -> &'a str {
    [level_override, from_env]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|f| !f.is_empty())
        .unwrap_or(DEFAULT_FILTER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_precedence_is_override_env_default() {
        assert_eq!(choose_filter(Some("debug"), Some("warn")), "debug");
        assert_eq!(choose_filter(None, Some("warn")), "warn");
        assert_eq!(choose_filter(Some("  "), Some("warn")), "warn");
        assert_eq!(choose_filter(None, Some("")), "info");
        assert_eq!(choose_filter(None, None), "info");
    }

    #[test]
    fn a_bad_filter_is_an_error_naming_the_variable() {
        let tmp = tempfile::tempdir().unwrap();
        let err = init(tmp.path(), Some("alfred=loud")).unwrap_err();
        assert!(matches!(err, LoggingError::Filter { .. }), "{err:?}");
        assert!(err.to_string().contains(ENV_LOG), "{err}");
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_it() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("not-a-dir");
        std::fs::write(&file, "x").unwrap();
        let err = init(&file, Some("info")).unwrap_err();
        assert!(matches!(err, LoggingError::File { .. }), "{err:?}");
        assert!(
            err.to_string().contains(&file.display().to_string()),
            "{err}"
        );
    }
}
