//! Where alfred keeps its files: config, kitchen store, sessions, logs, prompt overrides.
//!
//! This module owns the decision of *where* each file lives and the creation of
//! the folders alfred writes to. It must not read or write the files
//! themselves: config parsing, the store, sessions and logging own their
//! contents. With `--data-dir DIR` (or `ALFRED_HOME`) every file lives under
//! DIR, which is how tests and demos stay isolated; otherwise the platform's
//! usual folders are used via `directories`.

use std::io;
use std::path::{Path, PathBuf};

use directories::ProjectDirs;

/// Every location alfred uses, resolved once at startup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// Folder of the config file and of user prompt overrides.
    pub config_dir: PathBuf,
    /// The config file (`config.toml`), possibly named by `--config`.
    pub config_file: PathBuf,
    /// Folder of the kitchen store and the sessions.
    pub data_dir: PathBuf,
    /// The SQLite kitchen store.
    pub kitchen_db: PathBuf,
    /// One JSON file per session.
    pub sessions_dir: PathBuf,
    /// Rolling log files (`alfred.<date>.log`).
    pub log_dir: PathBuf,
    /// User overrides of the embedded prompt templates (`config_dir/prompts`).
    pub prompts_dir: PathBuf,
}

/// Why the locations could not be resolved or created.
#[derive(Debug, thiserror::Error)]
pub enum PathsError {
    /// The platform gives no home directory, so there is no default place.
    #[error(
        "cannot find a home directory to keep alfred's files in; \
         choose a folder with --data-dir DIR (or set ALFRED_HOME)"
    )]
    NoHome,
    /// A path given on the command line could not be made absolute.
    #[error("cannot resolve the path {}", path.display())]
    Absolute {
        /// The path as given.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: io::Error,
    },
    /// A folder alfred needs is a file.
    #[error(
        "the {what} folder {} is a file, not a folder; choose a folder with \
         --data-dir DIR (or ALFRED_HOME)",
        path.display()
    )]
    NotADir {
        /// Which folder, in words ("data", "config").
        what: &'static str,
        /// The path.
        path: PathBuf,
    },
    /// A folder alfred writes to could not be created.
    #[error(
        "cannot create the {what} directory {}; check its permissions, \
         or choose another folder with --data-dir DIR (or ALFRED_HOME)",
        path.display()
    )]
    CreateDir {
        /// Which folder, in words ("data", "sessions", "log", "config").
        what: &'static str,
        /// The folder.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: io::Error,
    },
}

/// The platform folders alfred uses when no data dir is given.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PlatformDirs {
    config_dir: PathBuf,
    data_dir: PathBuf,
    log_dir: PathBuf,
}

impl PlatformDirs {
    /// The platform folders, or `None` when there is no home directory.
    fn detect() -> Option<Self> {
        let dirs = ProjectDirs::from("", "", "alfred")?;
        // `state_dir` exists only on Linux; elsewhere logs go beside local data.
        let log_dir = match dirs.state_dir() {
            Some(state) => state.to_path_buf(),
            None => dirs.data_local_dir().join("logs"),
        };
        Some(Self {
            config_dir: dirs.config_dir().to_path_buf(),
            data_dir: dirs.data_dir().to_path_buf(),
            log_dir,
        })
    }
}

impl Paths {
    /// Resolves every location from the command-line overrides.
    ///
    /// `data_dir_override` (`--data-dir` / `ALFRED_HOME`) puts everything under
    /// one folder; `config_override` (`--config`) replaces only the config file.
    pub fn resolve(
        data_dir_override: Option<&Path>,
        config_override: Option<&Path>,
    ) -> Result<Paths, PathsError> {
        // Only look for a home directory when it is actually needed.
        let platform = match data_dir_override {
            Some(_) => None,
            None => PlatformDirs::detect(),
        };
        Self::resolve_with(data_dir_override, config_override, platform)
    }

    /// [`Paths::resolve`] with the platform folders given, so tests can fake them.
    fn resolve_with(
        data_dir_override: Option<&Path>,
        config_override: Option<&Path>,
        platform: Option<PlatformDirs>,
    ) -> Result<Paths, PathsError> {
        let mut paths = match data_dir_override {
            Some(dir) => Self::under(&absolute(dir)?),
            None => {
                let p = platform.ok_or(PathsError::NoHome)?;
                Self::from_parts(p.config_dir, p.data_dir, p.log_dir)
            }
        };
        if let Some(file) = config_override {
            paths.config_file = absolute(file)?;
        }
        Ok(paths)
    }

    /// Every file under one folder: `DIR/config.toml`, `DIR/kitchen.db`, `DIR/sessions/`…
    pub fn under(dir: &Path) -> Paths {
        Self::from_parts(dir.to_path_buf(), dir.to_path_buf(), dir.join("logs"))
    }

    fn from_parts(config_dir: PathBuf, data_dir: PathBuf, log_dir: PathBuf) -> Paths {
        Paths {
            config_file: config_dir.join("config.toml"),
            prompts_dir: config_dir.join("prompts"),
            kitchen_db: data_dir.join("kitchen.db"),
            sessions_dir: data_dir.join("sessions"),
            config_dir,
            data_dir,
            log_dir,
        }
    }

    /// Fails when the data or config folder is a file (said before anything
    /// tries to read a config file inside it).
    pub fn check_folders(&self) -> Result<(), PathsError> {
        for (what, path) in [("data", &self.data_dir), ("config", &self.config_dir)] {
            if path.exists() && !path.is_dir() {
                return Err(PathsError::NotADir {
                    what,
                    path: path.clone(),
                });
            }
        }
        Ok(())
    }

    /// Creates the folders alfred writes to: data, sessions and logs, each
    /// readable by the user only (0700). The sessions and log folders are
    /// alfred's own and are made private if they were not; a data folder
    /// the user chose and that already exists is left as it is.
    ///
    /// The config folder is the user's to create (alfred never writes a config
    /// file), except under a data dir override where it is the data dir itself.
    pub fn ensure_dirs(&self) -> Result<(), PathsError> {
        self.check_folders()?;
        for (what, path, ours) in [
            ("data", &self.data_dir, false),
            ("sessions", &self.sessions_dir, true),
            ("log", &self.log_dir, true),
        ] {
            let create = |source| PathsError::CreateDir {
                what,
                path: path.clone(),
                source,
            };
            if !path.is_dir() {
                private::create_dir(path).map_err(create)?;
            } else if ours {
                private::restrict(path, true).map_err(create)?;
            }
        }
        Ok(())
    }
}

/// Files and folders only their user can read: 0600 and 0700 (Unix; a
/// no-op elsewhere).
pub mod private {
    use std::io;
    use std::path::Path;

    /// Creates `dir` and its missing parents, each 0700.
    pub fn create_dir(dir: &Path) -> io::Result<()> {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir)
    }

    /// Options that create a missing file 0600 (no read, write or create
    /// mode is set yet: the caller adds them). The mode is given to the
    /// OS's create call, so the file never exists with a wider one.
    pub fn file_options() -> std::fs::OpenOptions {
        #[cfg_attr(not(unix), allow(unused_mut))]
        let mut options = std::fs::OpenOptions::new();
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options
    }

    /// Takes group and other access away from an open file if it has any
    /// (one an older install made), before it is written to. A file that
    /// cannot be changed (another user's) is written all the same: the
    /// failure is logged, since losing the write would be worse.
    pub fn narrow_open(file: &std::fs::File, path: &Path) {
        if let Err(e) = restrict_open(file) {
            tracing::warn!(file = %path.display(), error = %e, "could not make the file readable by its user only");
        }
    }

    /// Takes group and other access away from an open file if it has any.
    pub fn restrict_open(file: &std::fs::File) -> io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if file.metadata()?.permissions().mode() & 0o077 != 0 {
                file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
            }
        }
        #[cfg(not(unix))]
        let _ = file;
        Ok(())
    }

    /// Takes group and other access away from `path` (a folder when `dir`)
    /// if it has any. A missing path is fine.
    pub fn restrict(path: &Path, dir: bool) -> io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let meta = match std::fs::metadata(path) {
                Ok(m) => m,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
                Err(e) => return Err(e),
            };
            if meta.permissions().mode() & 0o077 != 0 {
                let mode = if dir { 0o700 } else { 0o600 };
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
            }
        }
        #[cfg(not(unix))]
        let _ = (path, dir);
        Ok(())
    }
}

/// Makes a user-given path absolute so messages and logs show where it points.
fn absolute(path: &Path) -> Result<PathBuf, PathsError> {
    std::path::absolute(path).map_err(|source| PathsError::Absolute {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_platform() -> PlatformDirs {
        PlatformDirs {
            config_dir: PathBuf::from("/cfg/alfred"),
            data_dir: PathBuf::from("/data/alfred"),
            log_dir: PathBuf::from("/state/alfred"),
        }
    }

    #[test]
    fn data_dir_override_puts_everything_under_it() {
        let p = Paths::resolve_with(Some(Path::new("/tmp/a")), None, None).unwrap();
        assert_eq!(p.config_file, Path::new("/tmp/a/config.toml"));
        assert_eq!(p.kitchen_db, Path::new("/tmp/a/kitchen.db"));
        assert_eq!(p.sessions_dir, Path::new("/tmp/a/sessions"));
        assert_eq!(p.log_dir, Path::new("/tmp/a/logs"));
        assert_eq!(p.prompts_dir, Path::new("/tmp/a/prompts"));
        assert_eq!(p.config_dir, Path::new("/tmp/a"));
    }

    #[test]
    fn platform_dirs_are_used_without_override() {
        let p = Paths::resolve_with(None, None, Some(fake_platform())).unwrap();
        assert_eq!(p.config_file, Path::new("/cfg/alfred/config.toml"));
        assert_eq!(p.prompts_dir, Path::new("/cfg/alfred/prompts"));
        assert_eq!(p.kitchen_db, Path::new("/data/alfred/kitchen.db"));
        assert_eq!(p.sessions_dir, Path::new("/data/alfred/sessions"));
        assert_eq!(p.log_dir, Path::new("/state/alfred"));
    }

    #[test]
    fn config_override_replaces_only_the_config_file() {
        let p = Paths::resolve_with(
            Some(Path::new("/tmp/a")),
            Some(Path::new("/etc/alfred.toml")),
            None,
        )
        .unwrap();
        assert_eq!(p.config_file, Path::new("/etc/alfred.toml"));
        assert_eq!(p.config_dir, Path::new("/tmp/a"));
        assert_eq!(p.kitchen_db, Path::new("/tmp/a/kitchen.db"));
    }

    #[test]
    fn relative_overrides_become_absolute() {
        let p =
            Paths::resolve_with(Some(Path::new("rel")), Some(Path::new("c.toml")), None).unwrap();
        assert!(p.data_dir.is_absolute(), "{}", p.data_dir.display());
        assert!(p.config_file.is_absolute(), "{}", p.config_file.display());
        assert!(p.data_dir.ends_with("rel"));
    }

    #[test]
    fn no_home_suggests_data_dir() {
        let err = Paths::resolve_with(None, None, None).unwrap_err();
        assert!(matches!(err, PathsError::NoHome));
        assert!(err.to_string().contains("--data-dir"), "{err}");
    }

    #[test]
    fn ensure_dirs_creates_data_sessions_and_logs() {
        let tmp = tempfile::tempdir().unwrap();
        let p = Paths::under(&tmp.path().join("home"));
        p.ensure_dirs().unwrap();
        assert!(p.data_dir.is_dir());
        assert!(p.sessions_dir.is_dir());
        assert!(p.log_dir.is_dir());
        assert!(
            !p.prompts_dir.exists(),
            "prompt overrides are the user's to create"
        );
        // Idempotent.
        p.ensure_dirs().unwrap();
    }

    #[test]
    fn ensure_dirs_error_names_the_path_and_the_way_out() {
        let tmp = tempfile::tempdir().unwrap();
        let blocker = tmp.path().join("file");
        std::fs::write(&blocker, "not a folder").unwrap();
        let p = Paths::under(&blocker);
        let err = p.ensure_dirs().unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains(&blocker.display().to_string()), "{msg}");
        assert!(msg.contains("--data-dir"), "{msg}");
    }
}
