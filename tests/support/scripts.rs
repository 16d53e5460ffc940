//! Shared by the scenario, corpus and blind-set tests: the script files of a folder of
//! the project, in name order.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every `.txt` file in `folder` (relative to the project), sorted.
pub fn script_files(folder: &str) -> Vec<PathBuf> {
    txt_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(folder))
}

/// Every `.txt` file in `dir`, sorted.
pub fn txt_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}
