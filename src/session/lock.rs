//! `SessionLock`: one process at a time per session, across processes.
//!
//! Owns `<id>.lock` files. The OS file lock (`File::try_lock`) is what
//! counts: it is released when the holder exits, however it exits, so a lock
//! file left behind by a crash is stale and simply re-acquired. The holder
//! writes its pid into the file, only so the refusal can name it.
//!
//! Lock files are never deleted while in use: deleting one while another
//! process waits on it would let two processes "hold" two different files.
//! `SessionStore::remove` deletes it together with the session, while holding it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use super::error::SessionError;
use super::file::is_valid_id;

/// The lock of one open session; released on drop.
#[derive(Debug)]
pub struct SessionLock {
    id: String,
    path: PathBuf,
    file: File,
}

impl SessionLock {
    /// Takes the lock of session `id` in `sessions_dir`, without waiting.
    ///
    /// Fails with [`SessionError::Locked`] (naming the holder's pid) when
    /// another process — or another open in this one — has it.
    pub fn acquire(sessions_dir: &Path, id: &str) -> Result<SessionLock, SessionError> {
        if !is_valid_id(id) {
            return Err(SessionError::InvalidId { id: id.to_string() });
        }
        let path = Self::path_for(sessions_dir, id);
        // No truncation on open: the file may hold the current holder's pid.
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options
            .open(&path)
            .map_err(|e| SessionError::io("open the lock file", &path, e))?;
        // An older install's lock file may be readable by others.
        crate::paths::private::narrow_open(&file, &path);
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(SessionError::Locked {
                    id: id.to_string(),
                    pid: read_pid(&mut file),
                });
            }
            Err(TryLockError::Error(e)) => return Err(SessionError::io("lock", &path, e)),
        }
        let pid = format!("{}\n", std::process::id());
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(pid.as_bytes()))
            .map_err(|e| SessionError::io("write the pid into", &path, e))?;
        Ok(SessionLock {
            id: id.to_string(),
            path,
            file,
        })
    }

    /// The lock file of session `id`.
    pub fn path_for(sessions_dir: &Path, id: &str) -> PathBuf {
        sessions_dir.join(format!("{id}.lock"))
    }

    /// The session this lock belongs to.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder of the session.
    pub fn sessions_dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

impl Drop for SessionLock {
    fn drop(&mut self) {
        // Clear the pid so a later reader does not blame a finished process;
        // closing the file releases the OS lock whatever happens here.
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

/// The pid the holder wrote, if it has written it yet.
fn read_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_fails_naming_the_pid_and_the_first_release_frees_it() {
        let tmp = tempfile::tempdir().unwrap();
        let first = SessionLock::acquire(tmp.path(), "s1").unwrap();
        let err = SessionLock::acquire(tmp.path(), "s1").unwrap_err();
        let pid = std::process::id();
        assert!(
            matches!(&err, SessionError::Locked { pid: Some(p), .. } if *p == pid),
            "{err:?}"
        );
        assert!(err.to_string().contains(&format!("pid {pid}")), "{err}");
        // Other sessions are independent.
        let _other = SessionLock::acquire(tmp.path(), "s2").unwrap();
        drop(first);
        let again = SessionLock::acquire(tmp.path(), "s1").unwrap();
        assert_eq!(again.id(), "s1");
    }

    #[test]
    fn a_stale_lock_file_is_reacquired() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(SessionLock::path_for(tmp.path(), "s1"), "999999\n").unwrap();
        let lock = SessionLock::acquire(tmp.path(), "s1").unwrap();
        let text = std::fs::read_to_string(lock.path()).unwrap();
        assert_eq!(text.trim(), std::process::id().to_string());
    }

    #[test]
    fn ids_that_are_paths_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let err = SessionLock::acquire(tmp.path(), "../x").unwrap_err();
        assert!(matches!(err, SessionError::InvalidId { .. }), "{err:?}");
    }
}
