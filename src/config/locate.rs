//! Turns a toml deserialization error into a [`Problem`] naming the key.
//!
//! Owns finding the key an error's span points at (re-parsing the text into
//! a spanned table), its line, and serde's words said as config words
//! ("unknown value", "missing key", "expected a table"). Pure: text in,
//! `Problem` out.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::problem::Problem;

/// Describes a toml error, naming the key its span points at, with that
/// key's path when it could be found (for an unknown key, the key itself).
pub(super) fn describe_at(text: &str, err: &toml::de::Error) -> (Problem, Option<Vec<String>>) {
    let span = err.span();
    let line = span.as_ref().map(|s| line_of(text, s.start));
    let Ok(doc) = DeTable::parse(text) else {
        let message = err.message().trim().to_string();
        return (Problem::Syntax { line, message }, None);
    };
    let path = span
        .and_then(|s| find(doc.get_ref(), s.start, &mut Vec::new()))
        .map(|h| h.path);
    let message = tidy(err.message());
    let quoted = backticked(&message);
    if message.starts_with("unknown field") && !quoted.is_empty() {
        let key = quoted[0].clone();
        let mut section = path.clone().unwrap_or_default();
        section.pop();
        let path = path.map(|mut p| {
            if p.last() != Some(&key) {
                p.push(key.clone());
            }
            p
        });
        let problem = Problem::UnknownKey {
            key,
            section: dotted(&section),
            line,
            expected: quoted[1..].to_vec(),
        };
        return (problem, path);
    }
    let key = path.as_deref().map(dotted);
    (Problem::BadValue { key, line, message }, path)
}

/// 1-based line of the key at `path` in `text`, if it is there.
pub(super) fn line_of_path(text: &str, path: &[String]) -> Option<usize> {
    let doc = DeTable::parse(text).ok()?;
    let mut table = doc.get_ref();
    for (i, segment) in path.iter().enumerate() {
        let (key, value) = table.iter().find(|(k, _)| k.get_ref() == segment)?;
        if i + 1 == path.len() {
            return Some(line_of(text, key.span().start));
        }
        match value.get_ref() {
            DeValue::Table(inner) => table = inner,
            _ => return None,
        }
    }
    None
}

/// A key path found at an error's position.
struct Hit {
    path: Vec<String>,
    /// On the key or its scalar value, not merely inside its table.
    exact: bool,
}

/// Finds the key path at a byte offset: a key or scalar value if one is
/// there, else the deepest table containing it (a header missing a key).
fn find(table: &DeTable<'_>, at: usize, path: &mut Vec<String>) -> Option<Hit> {
    let mut best = None;
    for (key, value) in table.iter() {
        path.push(key.get_ref().to_string());
        let hit = if key.span().contains(&at) {
            Some(Hit {
                path: path.clone(),
                exact: true,
            })
        } else {
            find_in_value(value, at, path)
        };
        path.pop();
        best = better(best, hit);
        if best.as_ref().is_some_and(|h| h.exact) {
            break;
        }
    }
    best
}

fn find_in_value(value: &Spanned<DeValue<'_>>, at: usize, path: &mut Vec<String>) -> Option<Hit> {
    let inside = value.span().contains(&at);
    match value.get_ref() {
        DeValue::Table(inner) => find(inner, at, path).or_else(|| {
            inside.then(|| Hit {
                path: path.clone(),
                exact: false,
            })
        }),
        DeValue::Array(items) => items
            .iter()
            .map(|item| find_in_value(item, at, path))
            .fold(None, better),
        _ => inside.then(|| Hit {
            path: path.clone(),
            exact: true,
        }),
    }
}

/// Prefers an exact hit, then the deeper path.
fn better(a: Option<Hit>, b: Option<Hit>) -> Option<Hit> {
    match (a, b) {
        (Some(a), Some(b)) if (b.exact, b.path.len()) > (a.exact, a.path.len()) => Some(b),
        (a, b) => a.or(b),
    }
}

/// 1-based line number of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// A key path in TOML spelling, quoting segments that are not bare keys.
pub(super) fn dotted(path: &[String]) -> String {
    path.iter().map(|s| key(s)).collect::<Vec<_>>().join(".")
}

/// One key in TOML spelling.
pub(in crate::config) fn key(s: &str) -> String {
    let bare = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        s.to_string()
    } else {
        format!("{s:?}")
    }
}

/// Every `quoted` word of a serde message, in order.
fn backticked(message: &str) -> Vec<String> {
    message
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Serde's words for struct users: fields are keys, variants are values.
fn tidy(message: &str) -> String {
    let mut m = message
        .trim()
        .replace("unknown variant", "unknown value")
        .replace("missing field", "missing key");
    if let Some(i) = m.find("expected struct ") {
        m.truncate(i);
        m.push_str("expected a table");
    }
    m
}
