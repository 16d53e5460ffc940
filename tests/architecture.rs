//! The layering, checked over the source's `use` lines and `crate::` paths
//! (a path through a module's re-export counts as naming the file the item
//! comes from; test modules and the test fixtures are left out):
//! - the turn's vocabulary (`turn.rs`) sits below the pipeline, so the
//!   record and the session never reach up into `pipeline/`;
//! - no import cycle in `src/` spans more than two files, and a pair that
//!   imports each other is one concern split in two, which one of their
//!   module docs says by naming the other (the offline brain's files are
//!   their own issue: their cycles may only shrink);
//! - the layers point down: the context and prompt modules stay pure, the
//!   TUI imports no kitchen or brain, the brains no TUI, the kitchen no
//!   prompt, pipeline or session, config no kitchen, eval no TUI.

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

/// The module a path under `src/` names: "tui/view/mod.rs" → "tui::view",
/// "tui/update.rs" → "tui::update", "kitchen/postgres/sql.rs" →
/// "kitchen::postgres::sql".
fn module_of(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).expect("under src");
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

/// The paths a `use` tree names, each as its segments: `a::{b, c::{d, e}}`
/// → `a::b`, `a::c::d`, `a::c::e` (`self` in a group names its parent).
fn use_paths(tree: &str) -> Vec<Vec<String>> {
    fn walk(s: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let s = s.trim();
        let Some(open) = s.find('{') else {
            let head = s.split(" as ").next().unwrap_or("").trim();
            let mut p = prefix.to_vec();
            p.extend(
                head.split("::")
                    .map(str::trim)
                    .filter(|x| !x.is_empty() && *x != "self" && *x != "*")
                    .map(str::to_string),
            );
            out.push(p);
            return;
        };
        let mut p = prefix.to_vec();
        p.extend(
            s[..open]
                .split("::")
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(str::to_string),
        );
        let inner = &s[open + 1..s.rfind('}').unwrap_or(s.len())];
        let (mut depth, mut start) = (0usize, 0usize);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    walk(&inner[start..i], &p, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        if !inner[start..].trim().is_empty() {
            walk(&inner[start..], &p, out);
        }
    }
    let mut out = Vec::new();
    walk(tree, &[], &mut out);
    out
}

/// One file of the crate as the import graph sees it.
struct Unit {
    module: String,
    /// Absolute paths this file names (`crate::`, `super::` and child
    /// paths made absolute), from its `use` lines and its code.
    paths: Vec<Vec<String>>,
    /// What it re-exports: the name, and the absolute path it stands for.
    reexports: Vec<(String, Vec<String>)>,
}

/// A file's own code: an inline test module (`#[cfg(test)] mod x {`, at
/// the end by convention) is not part of its imports, nor its comments.
fn own_code(text: &str) -> String {
    let text = inline_tests_start(text).map_or(text, |i| &text[..i]);
    let mut code = code(&without_strings(text))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    // A visibility (`pub(in crate::config)`) names a module it imports nothing from.
    while let Some(i) = code.find("pub(in ") {
        let end = code[i..].find(')').map_or(code.len(), |j| i + j + 1);
        code.replace_range(i..end, "pub");
    }
    code
}

/// The text with every string literal emptied (`"…"` → `""`, raw strings
/// too), so a message that mentions `use` or braces is not read as code.
fn without_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            // A char literal such as '"' or '{'.
            out.push_str("' '");
            i += 3;
        } else if c == '\'' && chars.get(i + 1) == Some(&'\\') {
            // An escaped char literal such as '\"'.
            let end = (i + 2..chars.len())
                .find(|j| chars[*j] == '\'')
                .unwrap_or(i + 2);
            out.push_str("' '");
            i = end + 1;
        } else if c == 'r' && matches!(chars.get(i + 1), Some('#') | Some('"')) {
            let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let body: String = chars[i + 2 + hashes..].iter().collect();
            let len = body
                .find(&close)
                .map_or(body.chars().count(), |b| body[..b].chars().count());
            out.push_str("\"\"");
            i += 2 + hashes + len + 1 + hashes;
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn unit(module: &str, text: &str, known: &BTreeSet<String>) -> Unit {
    let here: Vec<String> = module
        .split("::")
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    let parent = |up: usize| here[..here.len().saturating_sub(up)].to_vec();
    let absolute = |segs: &[String]| -> Option<Vec<String>> {
        let first = segs.first()?.as_str();
        let (base, skip) = match first {
            "crate" => (Vec::new(), 1),
            "super" => {
                let ups = segs.iter().take_while(|s| *s == "super").count();
                (parent(ups), ups)
            }
            "self" => (here.clone(), 1),
            _ => {
                // A child module named relative to this one (2018 paths).
                let mut child = here.clone();
                child.push(first.to_string());
                if !known.contains(&child.join("::")) {
                    return None;
                }
                (here.clone(), 0)
            }
        };
        let mut p = base;
        p.extend(segs[skip..].iter().cloned());
        Some(p)
    };
    let code = own_code(text);
    let mut paths = Vec::new();
    let mut reexports = Vec::new();
    for stmt in code.split(';') {
        let stmt = stmt.trim();
        let (public, rest) = if let Some(r) = stmt.strip_prefix("pub use ") {
            (true, r)
        } else if let Some(r) = stmt.strip_prefix("pub(crate) use ") {
            (true, r)
        } else if let Some(r) = stmt.strip_prefix("pub(super) use ") {
            (true, r)
        } else if let Some(r) = stmt.strip_prefix("use ") {
            (false, r)
        } else {
            continue;
        };
        for segs in use_paths(rest) {
            let Some(abs) = absolute(&segs) else { continue };
            if public && let Some(name) = abs.last() {
                let alias = rest
                    .split(" as ")
                    .nth(1)
                    .filter(|_| !rest.contains('{'))
                    .map(|a| a.trim().to_string());
                reexports.push((alias.unwrap_or_else(|| name.clone()), abs.clone()));
            }
            paths.push(abs);
        }
    }
    for piece in code.split(|c: char| c.is_whitespace() || "(&<;=!,[{}>|*".contains(c)) {
        // A group's head (`crate::a::{`) is read with its `use` statement.
        if (piece.starts_with("crate::") || piece.starts_with("super::")) && !piece.ends_with("::")
        {
            let segs: Vec<String> = piece
                .split("::")
                .map(|s| s.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_'))
                .take_while(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            if let Some(abs) = absolute(&segs) {
                paths.push(abs);
            }
        }
    }
    Unit {
        module: module.to_string(),
        paths,
        reexports,
    }
}

/// Modules compiled only for tests or the test fixtures: declared under a
/// `#[cfg(…test…)]` (`#[cfg(test)] mod x;`,
/// `#[cfg(any(test, feature = "fixtures"))] pub mod fixtures;`).
fn test_only_modules(files: &[(PathBuf, String)], root: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (path, text) in files {
        let here = match path.file_name().and_then(|n| n.to_str()) {
            Some("lib.rs" | "main.rs") if path.parent() == Some(root) => String::new(),
            _ => module_of(path, root),
        };
        let mut after_cfg = false;
        for line in text.lines().map(str::trim) {
            if line.starts_with("#[cfg(") {
                after_cfg = line.contains("test");
                continue;
            }
            if after_cfg && line.ends_with(';') {
                let decl = line
                    .trim_start_matches("pub(crate) ")
                    .trim_start_matches("pub(super) ")
                    .trim_start_matches("pub ");
                if let Some(name) = decl.strip_prefix("mod ") {
                    let name = name.trim_end_matches(';').trim();
                    out.insert(if here.is_empty() {
                        name.to_string()
                    } else {
                        format!("{here}::{name}")
                    });
                }
            }
            after_cfg = false;
        }
    }
    out
}

/// The import graph of every non-test file under `src/` (`lib.rs` and
/// `main.rs` left out: they only declare): file → the files it names. A
/// path through a module's re-export counts as naming the file the item
/// comes from, so a `mod.rs` that re-exports is not a hub of false cycles.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(SRC);
    let files: Vec<(PathBuf, String)> = sources(root)
        .into_iter()
        .filter(|(p, _)| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            !name.ends_with("_tests.rs")
                && !name.starts_with("test_")
                && name != "tests.rs"
                && name != "lib.rs"
                && name != "main.rs"
        })
        .collect();
    let test_only = test_only_modules(&sources(root), root);
    let files: Vec<&(PathBuf, String)> = files
        .iter()
        .filter(|(p, _)| {
            let m = module_of(p, root);
            !test_only
                .iter()
                .any(|t| m == *t || m.starts_with(&format!("{t}::")))
        })
        .collect();
    let known: BTreeSet<String> = files.iter().map(|(p, _)| module_of(p, root)).collect();
    let units: Vec<Unit> = files
        .iter()
        .map(|(p, text)| unit(&module_of(p, root), text, &known))
        .collect();
    let reexports: BTreeMap<(String, String), Vec<String>> = units
        .iter()
        .flat_map(|u| {
            u.reexports
                .iter()
                .map(|(name, abs)| ((u.module.clone(), name.clone()), abs.clone()))
        })
        .collect();
    let resolve = |path: &[String]| -> Option<String> {
        let mut path = path.to_vec();
        for _ in 0..8 {
            let n = (1..=path.len())
                .rev()
                .find(|n| known.contains(&path[..*n].join("::")))?;
            let module = path[..n].join("::");
            match path
                .get(n)
                .and_then(|item| reexports.get(&(module.clone(), item.clone())))
            {
                Some(target) if *target != path => {
                    let mut next = target.clone();
                    next.extend(path[n + 1..].iter().cloned());
                    path = next;
                }
                _ => return Some(module),
            }
        }
        None
    };
    units
        .iter()
        .map(|u| {
            let mut deps: BTreeSet<String> = u.paths.iter().filter_map(|p| resolve(p)).collect();
            deps.remove(&u.module);
            (u.module.clone(), deps)
        })
        .collect()
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

/// The largest import cycle allowed: two files.
const CYCLE_MAX: usize = 2;

/// The offline brain's largest import cycle today (its own issue
/// restructures `brain/offline/`): it may shrink, never grow.
const OFFLINE_CYCLE_CEILING: usize = 18;

/// A module's own doc (`//!` lines).
fn module_doc(module: &str) -> String {
    let root = Path::new(SRC);
    let rel = module.replace("::", "/");
    let path = [
        root.join(format!("{rel}.rs")),
        root.join(rel).join("mod.rs"),
    ]
    .into_iter()
    .find(|p| p.exists())
    .expect("a module's file");
    let text = std::fs::read_to_string(path).expect("read a module");
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_cycle_finder_finds_a_cycle_of_three() {
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
            .into_iter()
            .fold(BTreeMap::new(), |mut g, (from, to)| {
                g.entry(from.to_string())
                    .or_insert_with(BTreeSet::new)
                    .insert(to.to_string());
                g.entry(to.to_string()).or_insert_with(BTreeSet::new);
                g
            });
    assert_eq!(cycles(&graph), vec![vec!["a", "b", "c"]]);
}

#[test]
fn no_import_cycle_is_longer_than_two_files() {
    let graph = import_graph();
    // The checker sees the imports it should: a node file reads the run, a
    // re-exported item resolves to the file that defines it, a test-only
    // module is not in the graph.
    assert!(graph["tui::update"].contains("tui::model"));
    assert!(graph["pipeline::nodes::reply"].contains("pipeline::run"));
    assert!(graph["pipeline::nodes::summarize"].contains("pipeline::types"));
    assert!(graph["session::journal::any_form"].contains("session::migrate"));
    assert!(!graph.contains_key("fixtures") && !graph.contains_key("tui::test_update"));
    let offline = |c: &Vec<String>| c.iter().all(|m| m.starts_with("brain::offline"));
    let found = cycles(&graph);
    let (brain, rest): (Vec<_>, Vec<_>) = found.into_iter().partition(offline);
    let largest = rest.first().map_or(0, Vec::len);
    assert!(
        largest <= CYCLE_MAX,
        "an import cycle of {largest} files (at most {CYCLE_MAX}): {:#?}",
        rest.first()
    );
    for pair in &rest {
        let stem = |m: &str| format!("`{}", m.rsplit("::").next().unwrap_or(m));
        let (a, b) = (&pair[0], &pair[1]);
        assert!(
            module_doc(a).contains(&stem(b)) || module_doc(b).contains(&stem(a)),
            "{a} and {b} import each other, and neither's module doc says why (name the other \
             in backticks and say they are one concern split in two)"
        );
    }
    let offline_largest = brain.first().map_or(0, Vec::len);
    assert!(
        offline_largest <= OFFLINE_CYCLE_CEILING,
        "the offline brain's largest import cycle grew to {offline_largest} files (at most \
         {OFFLINE_CYCLE_CEILING}): {:#?}",
        brain.first()
    );
}

/// What each layer must not import (by top-level module of `src/`).
const FORBIDDEN: &[(&str, &[&str])] = &[
    // Pure: the layers and the prompts are data and functions of data.
    (
        "context",
        &[
            "brain", "cli", "config", "eval", "headless", "kitchen", "logging", "paths",
            "pipeline", "record", "session", "tui",
        ],
    ),
    (
        "prompt",
        &[
            "brain", "cli", "config", "eval", "headless", "kitchen", "logging", "paths",
            "pipeline", "record", "session", "tui",
        ],
    ),
    ("tui", &["brain", "kitchen", "cli", "eval"]),
    ("brain", &["tui", "cli", "session", "eval", "headless"]),
    (
        "kitchen",
        &[
            "prompt", "pipeline", "brain", "tui", "session", "cli", "eval", "config",
        ],
    ),
    (
        "config",
        &["kitchen", "session", "pipeline", "brain", "tui", "cli"],
    ),
    ("eval", &["tui", "cli"]),
];

#[test]
fn the_layers_point_down() {
    let graph = import_graph();
    let top = |m: &str| m.split("::").next().unwrap_or("").to_string();
    let mut wrong = Vec::new();
    for (module, deps) in &graph {
        let Some((_, banned)) = FORBIDDEN.iter().find(|(layer, _)| top(module) == *layer) else {
            continue;
        };
        for d in deps {
            if banned.contains(&top(d).as_str()) {
                wrong.push(format!("{module} imports {d}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that point the wrong way: {wrong:#?}"
    );
    // The check reads real edges: the pipeline imports the kitchen.
    assert!(
        graph
            .iter()
            .any(|(m, d)| m.starts_with("pipeline") && d.iter().any(|x| x.starts_with("kitchen")))
    );
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
