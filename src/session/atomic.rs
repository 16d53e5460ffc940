//! Atomic file replacement and moving bad files aside, never losing a byte.
//!
//! Owns the write protocol every session file goes through: a temp file in
//! the same folder → `sync_all` → rename over the target → fsync of the folder,
//! so a reader (or a crash) only ever sees the old file or the new one, whole.
//! Must not know what the bytes mean; it is synchronous and blocks, so async
//! callers run it on a blocking thread (the persist actor does).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use tempfile::NamedTempFile;

use super::error::SessionError;

/// Replaces `path` with `bytes` atomically and durably.
///
/// The temp file (`tempfile`'s `.tmpXXXXXX`, owner-only) lives in the same
/// folder so the rename never crosses file systems; if anything fails before
/// the rename, the temp file is removed and `path` is untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SessionError> {
    let dir = parent_of(path);
    let mut tmp = NamedTempFile::new_in(dir)
        .map_err(|e| SessionError::io("create a temp file in", dir, e))?;
    tmp.write_all(bytes)
        .map_err(|e| SessionError::io("write", tmp.path(), e))?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| SessionError::io("flush to disk", tmp.path(), e))?;
    tmp.persist(path)
        .map_err(|e| SessionError::io("replace", path, e.error))?;
    sync_dir(dir)
}

/// Makes a rename in `dir` durable by syncing the folder itself.
///
/// Platforms and file systems that cannot sync a folder say so with
/// "unsupported" or "invalid input"; the rename is as durable as they allow,
/// so those errors are ignored. Windows cannot open a folder as a file at all.
pub fn sync_dir(dir: &Path) -> Result<(), SessionError> {
    if cfg!(windows) {
        return Ok(());
    }
    let result = std::fs::File::open(dir).and_then(|d| d.sync_all());
    match result {
        Ok(()) => Ok(()),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::Unsupported | io::ErrorKind::InvalidInput
            ) =>
        {
            Ok(())
        }
        Err(e) => Err(SessionError::io("flush the folder", dir, e)),
    }
}

/// Moves an unreadable file to `<name>.corrupt-<UTC time>` in the same
/// folder and returns the new path. Never overwrites: an existing name gets a
/// `-2`, `-3`… suffix. Never deletes.
pub fn move_aside(path: &Path, now: Timestamp) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let base = format!("{name}.corrupt-{}", now.strftime("%Y%m%dT%H%M%SZ"));
    let dir = parent_of(path);
    for n in 1..1000 {
        let target = if n == 1 {
            dir.join(&base)
        } else {
            dir.join(format!("{base}-{n}"))
        };
        if place_without_clobbering(path, &target)? {
            // Best effort: the move itself is done; a folder that cannot be
            // synced only loses durability of the new name.
            let _ = sync_dir(dir);
            return Ok(target);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "too many files already moved aside under this name",
    ))
}

/// Renames `from` to `to` unless `to` exists; false when it does.
fn place_without_clobbering(from: &Path, to: &Path) -> io::Result<bool> {
    // A hard link fails when the target exists, so no check-then-rename race.
    match std::fs::hard_link(from, to) {
        Ok(()) => {
            std::fs::remove_file(from)?;
            Ok(true)
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        // File systems without hard links: check, then rename.
        Err(_) if to.exists() => Ok(false),
        Err(_) => std::fs::rename(from, to).map(|()| true),
    }
}

/// The folder a file lives in (`.` for a bare name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_atomic_replaces_whole_files_and_leaves_no_temp() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s.json");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second, longer").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second, longer");
        let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temp file is left behind");
    }

    #[test]
    fn write_atomic_into_a_missing_folder_names_it() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("gone").join("s.json");
        let err = write_atomic(&path, b"x").unwrap_err();
        assert!(err.to_string().contains("gone"), "{err}");
    }

    #[test]
    fn move_aside_never_overwrites() {
        let tmp = tempfile::tempdir().unwrap();
        let now: Timestamp = "2026-11-22T14:30:05Z".parse().unwrap();
        let path = tmp.path().join("s.json");
        std::fs::write(&path, "one").unwrap();
        let first = move_aside(&path, now).unwrap();
        assert!(
            first.ends_with("s.json.corrupt-20261122T143005Z"),
            "{first:?}"
        );
        std::fs::write(&path, "two").unwrap();
        let second = move_aside(&path, now).unwrap();
        assert!(
            second.ends_with("s.json.corrupt-20261122T143005Z-2"),
            "{second:?}"
        );
        assert_eq!(std::fs::read_to_string(first).unwrap(), "one");
        assert_eq!(std::fs::read_to_string(second).unwrap(), "two");
        assert!(!path.exists());
    }
}
