//! The layering, checked over the source's `use` lines and `crate::` paths:
//! the turn's vocabulary (`turn.rs`) sits below the pipeline, so the record
//! and the session never reach up into `pipeline/`; and no import cycle
//! inside `tui/` or `session/` spans more than two files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("read file");
                out.push((path, text));
            }
        }
    }
    out.sort();
    out
}

/// The code of a file without comments (a doc line may name a module).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_record_and_the_session_do_not_reach_into_the_pipeline() {
    let src = Path::new(SRC);
    let file = |name: &str| {
        let path = src.join(name);
        let text = std::fs::read_to_string(&path).expect("a source file");
        (path, text)
    };
    let mut files = sources(&src.join("session"));
    files.push(file("record.rs"));
    files.push(file("turn.rs"));
    let mut offenders = Vec::new();
    for (path, text) in &files {
        for (n, line) in code(text).lines().enumerate() {
            if line.contains("crate::pipeline") || line.contains("crate::brain") {
                offenders.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "reaches up: {offenders:#?}");
}

/// The module a path names under `root` (here `tui/`): "tui/view/mod.rs" →
/// "view", "tui/update.rs" → "update", "tui/chat/pane.rs" → "chat::pane".
fn module_of(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).expect("under the root");
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// The modules under a root (`tui/`) a file's code names through `super::`
/// or `crate_path` (`crate::tui::`; in `use` lines, groups included, and in
/// paths), resolved to the longest prefix that is a module of the root.
fn imports(
    module: &str,
    text: &str,
    known: &BTreeSet<String>,
    crate_path: &str,
) -> BTreeSet<String> {
    let here: Vec<String> = module
        .split("::")
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    // `super` is the parent of this module, whether a file or a mod.rs.
    let parent = |up: usize| here[..here.len().saturating_sub(up)].to_vec();
    let resolve = |segments: &[String]| -> Option<String> {
        (1..=segments.len())
            .rev()
            .map(|n| segments[..n].join("::"))
            .find(|m| known.contains(m))
    };
    let mut out = BTreeSet::new();
    // The file's own code: an inline test module (`#[cfg(test)] mod x {`,
    // at the end by convention) is not part of its imports.
    let text = inline_tests_start(text).map_or(text, |i| &text[..i]);
    // One statement at a time, whitespace removed, so a `use` group that
    // spans lines reads whole.
    let code: String = code(text).split_whitespace().collect::<Vec<_>>().join(" ");
    let mut add = |base: Vec<String>, rest: &str| {
        let rest: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
        let (head, group) = match rest.find('{') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest.as_str(), None),
        };
        let mut segs = base;
        segs.extend(
            head.split("::")
                .filter(|s| !s.is_empty())
                .map(|s| s.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_'))
                .take_while(|s| !s.is_empty())
                .map(str::to_string),
        );
        match group {
            Some(group) => {
                for item in group.split([',', '}']) {
                    let item = item.split("as").next().unwrap_or("");
                    let mut s = segs.clone();
                    s.extend(
                        item.split("::")
                            .filter(|x| !x.is_empty() && *x != "self")
                            .map(str::to_string),
                    );
                    if let Some(m) = resolve(&s) {
                        out.insert(m);
                    }
                }
            }
            None => {
                if let Some(m) = resolve(&segs) {
                    out.insert(m);
                }
            }
        }
    };
    for piece in code.split(|c: char| c.is_whitespace() || "(&<;=!,[".contains(c)) {
        if let Some(rest) = piece.strip_prefix(crate_path) {
            add(Vec::new(), rest);
        } else if let Some(rest) = piece.strip_prefix("super::super::") {
            add(parent(2), rest);
        } else if let Some(rest) = piece.strip_prefix("super::") {
            add(parent(1), rest);
        }
    }
    for stmt in code.split(';') {
        let stmt = stmt
            .trim()
            .trim_start_matches("pub ")
            .trim_start_matches("pub(crate) ");
        let Some(path) = stmt.strip_prefix("use ") else {
            continue;
        };
        if let Some(rest) = path.strip_prefix(crate_path) {
            add(Vec::new(), rest);
        } else if let Some(rest) = path.strip_prefix("super::super::") {
            add(parent(2), rest);
        } else if let Some(rest) = path.strip_prefix("super::") {
            add(parent(1), rest);
        }
    }
    out.remove(module);
    out
}

/// Where an inline test module begins (`#[cfg(test)]`, then `mod NAME {`).
fn inline_tests_start(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let at = from + i;
        let after = text[at + "#[cfg(test)]".len()..].trim_start();
        let line = after.lines().next().unwrap_or("");
        if line.starts_with("mod ") && line.trim_end().ends_with('{') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Strongly connected components of the graph (Tarjan), largest first.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        t.index.insert(v, t.next);
        t.low.insert(v, t.next);
        t.next += 1;
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.g.contains_key(w) {
                continue;
            }
            if !t.index.contains_key(w) {
                visit(t, w);
                let low = t.low[v].min(t.low[w]);
                t.low.insert(v, low);
            } else if t.on.contains(w) {
                let low = t.low[v].min(t.index[w]);
                t.low.insert(v, low);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g: graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out.sort_by_key(|c| std::cmp::Reverse(c.len()));
    t.out
}

/// The largest import cycle allowed in `tui/`: two files (a view and what
/// it draws). Today there is none: the overlays' state lives in
/// `tui/state/` below the model, the key handlers call `quit`, not
/// `update`. It was 16 modules before (the model held state types whose
/// modules also held handlers taking `&mut Model`).
const TUI_CYCLE_MAX: usize = 2;

/// The import graph of the modules under `src/<dir>/`, test files left out.
fn graph_of(dir: &str) -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(SRC).join(dir);
    let files: Vec<(PathBuf, String)> = sources(&root)
        .into_iter()
        .filter(|(p, _)| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            !name.ends_with("_tests.rs")
                && !name.starts_with("tests_")
                && !name.contains("test_")
                && name != "tests.rs"
        })
        .collect();
    let known: BTreeSet<String> = files.iter().map(|(p, _)| module_of(p, &root)).collect();
    let crate_path = format!("crate::{dir}::");
    files
        .iter()
        .map(|(p, text)| {
            let m = module_of(p, &root);
            let deps = imports(&m, text, &known, &crate_path);
            (m, deps)
        })
        .collect()
}

#[test]
fn import_cycles_in_the_tui_do_not_grow() {
    let graph = graph_of("tui");
    // The checker sees the imports it should: update reads the model.
    assert!(graph["update"].contains("model"), "{:?}", graph["update"]);
    let found = cycles(&graph);
    let largest = found.first().map_or(0, Vec::len);
    assert!(
        largest <= TUI_CYCLE_MAX,
        "an import cycle of {largest} files in tui/ (at most {TUI_CYCLE_MAX}): {:#?}",
        found.first()
    );
}

/// The largest import cycle allowed in `session/`: two files. Today there
/// is one of two, the store and the listing (the listing's file holds more
/// of `SessionStore`'s methods, and the store takes its `id_of`); the
/// journal and the one-document reader (`migrate`) import one way only, and
/// the journal's own files not at all in a circle.
const SESSION_CYCLE_MAX: usize = 2;

#[test]
fn import_cycles_in_the_session_do_not_grow() {
    let graph = graph_of("session");
    // The checker sees the imports it should: the writer uses the encoder.
    assert!(
        graph["journal::writer"].contains("journal::encode"),
        "{:?}",
        graph["journal::writer"]
    );
    assert!(
        graph["journal::any_form"].contains("migrate"),
        "{:?}",
        graph["journal::any_form"]
    );
    let found = cycles(&graph);
    let largest = found.first().map_or(0, Vec::len);
    assert!(
        largest <= SESSION_CYCLE_MAX,
        "an import cycle of {largest} files in session/ (at most {SESSION_CYCLE_MAX}): {:#?}",
        found.first()
    );
    for cycle in &found {
        assert!(
            !cycle.iter().any(|m| m.starts_with("journal")),
            "the journal is in an import cycle: {cycle:?}"
        );
    }
}

/// One naming scheme for test files inside `src/`: `foo_tests.rs` beside
/// `foo.rs`, helpers `test_foo.rs`; and no ignored test that only prints
/// (those are `examples/`).
#[test]
fn test_files_share_one_naming_scheme_and_none_is_ignored() {
    let mut odd = Vec::new();
    for (path, text) in sources(Path::new(SRC)) {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if name.starts_with("tests_") {
            odd.push(format!("{}: named tests_*", path.display()));
        }
        if code(&text).contains("#[ignore") {
            odd.push(format!("{}: an ignored test", path.display()));
        }
    }
    assert!(odd.is_empty(), "{odd:#?}");
}
