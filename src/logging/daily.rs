//! The log file itself: `alfred.<UTC date>.log` in the log folder, a new
//! one each day, the oldest removed once there are more than the number
//! kept.
//!
//! Every file is created readable by its user only (0600, the mode given to
//! the create call), and one an older install left wider is narrowed before
//! a line is written to it, so a log never exists with a wider mode even in
//! a folder the user chose. (tracing-appender's rolling writer, used before,
//! creates files with the process's default mode.) Must not write anywhere
//! but the log folder; the non-blocking writer in front of it owns
//! buffering and the background thread.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use jiff::Timestamp;

/// Seconds in a UTC day: a file holds one day's lines.
const DAY_SECS: i64 = 86_400;

/// The clock the file's date comes from.
pub type Clock = Box<dyn Fn() -> Timestamp + Send>;

/// A daily log file, opened on the first write of each UTC day.
pub struct DailyFile {
    dir: PathBuf,
    keep: usize,
    now: Clock,
    /// The UTC day number of the open file, and the file.
    open: Option<(i64, File)>,
}

impl DailyFile {
    /// Opens today's file in `dir` (so a folder that cannot take one is
    /// known at once), keeping at most `keep` files.
    pub fn open(dir: &Path, keep: usize, now: Clock) -> io::Result<DailyFile> {
        let mut file = DailyFile {
            dir: dir.to_path_buf(),
            keep: keep.max(1),
            now,
            open: None,
        };
        file.current()?;
        Ok(file)
    }

    /// The file name of the day `at` falls on: `alfred.2026-11-22.log`.
    pub fn name_for(at: Timestamp) -> String {
        format!("alfred.{}.log", at.strftime("%Y-%m-%d"))
    }

    /// Today's file, opened (and older ones pruned) when the day changed.
    fn current(&mut self) -> io::Result<&mut File> {
        let now = (self.now)();
        let day = now.as_second().div_euclid(DAY_SECS);
        if self.open.as_ref().is_none_or(|(d, _)| *d != day) {
            let path = self.dir.join(Self::name_for(now));
            let file = crate::paths::private::file_options()
                .append(true)
                .create(true)
                .open(&path)?;
            // No tracing here: this is the log's own writer.
            let _ = crate::paths::private::restrict_open(&file);
            self.open = Some((day, file));
            self.prune();
        }
        match &mut self.open {
            Some((_, file)) => Ok(file),
            None => Err(io::Error::other("no log file is open")),
        }
    }

    /// Removes the oldest `alfred.*.log` files past the number kept (the
    /// date in the name orders them).
    fn prune(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.starts_with("alfred.") && n.ends_with(".log"))
            .collect();
        names.sort();
        let extra = names.len().saturating_sub(self.keep);
        for name in &names[..extra] {
            let _ = std::fs::remove_file(self.dir.join(name));
        }
    }
}

impl Write for DailyFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.current()?.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.open {
            Some((_, file)) => file.flush(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicI64, Ordering};

    fn clock(seconds: &Arc<AtomicI64>) -> Clock {
        let seconds = seconds.clone();
        Box::new(move || Timestamp::from_second(seconds.load(Ordering::SeqCst)).unwrap())
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_day_opens_a_new_file_and_the_oldest_go() {
        let tmp = tempfile::tempdir().unwrap();
        let start: Timestamp = "2026-11-22T23:59:59Z".parse().unwrap();
        let seconds = Arc::new(AtomicI64::new(start.as_second()));
        let mut log = DailyFile::open(tmp.path(), 2, clock(&seconds)).unwrap();
        log.write_all(b"one\n").unwrap();
        seconds.fetch_add(1, Ordering::SeqCst);
        log.write_all(b"two\n").unwrap();
        assert_eq!(
            names(tmp.path()),
            ["alfred.2026-11-22.log", "alfred.2026-11-23.log"]
        );
        seconds.fetch_add(DAY_SECS, Ordering::SeqCst);
        log.write_all(b"three\n").unwrap();
        log.flush().unwrap();
        assert_eq!(
            names(tmp.path()),
            ["alfred.2026-11-23.log", "alfred.2026-11-24.log"],
            "two are kept"
        );
        let read = |n: &str| std::fs::read_to_string(tmp.path().join(n)).unwrap();
        assert_eq!(read("alfred.2026-11-23.log"), "two\n");
        assert_eq!(read("alfred.2026-11-24.log"), "three\n");
    }

    #[cfg(unix)]
    #[test]
    fn files_are_private_new_or_old() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let now: Timestamp = "2026-11-22T10:00:00Z".parse().unwrap();
        let old = tmp.path().join(DailyFile::name_for(now));
        std::fs::write(&old, "from an older install\n").unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o644)).unwrap();
        let seconds = Arc::new(AtomicI64::new(now.as_second()));
        let mut log = DailyFile::open(tmp.path(), 7, clock(&seconds)).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&old), 0o600, "narrowed before the first line");
        seconds.fetch_add(DAY_SECS, Ordering::SeqCst);
        log.write_all(b"next day\n").unwrap();
        let new = tmp.path().join("alfred.2026-11-23.log");
        assert_eq!(mode(&new), 0o600);
    }
}
