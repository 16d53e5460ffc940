//! What is wrong inside a config file ([`Problem`]), each naming the key or
//! the line, so the message says where to look.

use std::fmt;

/// What is wrong inside a config file; every variant names the key or line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Not valid TOML.
    Syntax {
        /// 1-based line of the error.
        line: Option<usize>,
        /// The parser's message.
        message: String,
    },
    /// A key that no section knows (often a typo).
    UnknownKey {
        /// The unknown key.
        key: String,
        /// Dotted path of its table; empty at the top level.
        section: String,
        /// 1-based line of the key.
        line: Option<usize>,
        /// The keys that table accepts.
        expected: Vec<String>,
    },
    /// A known key with a value of the wrong type or out of its set.
    BadValue {
        /// Dotted path of the key, when it could be located.
        key: Option<String>,
        /// 1-based line of the value.
        line: Option<usize>,
        /// What was found and what was expected.
        message: String,
    },
    /// A value that parses but breaks a rule; the message names the key.
    Rule(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |line: &Option<usize>| line.map(|l| format!(" (line {l})")).unwrap_or_default();
        match self {
            Problem::Syntax { line, message } => write!(f, "invalid TOML{}: {message}", at(line)),
            Problem::UnknownKey {
                key,
                section,
                line,
                expected,
            } => {
                let place = if section.is_empty() {
                    "at the top level".to_string()
                } else {
                    format!("in [{section}]")
                };
                write!(f, "unknown key `{key}` {place}{}", at(line))?;
                if !expected.is_empty() {
                    write!(f, "; expected one of: {}", expected.join(", "))?;
                }
                Ok(())
            }
            Problem::BadValue {
                key: Some(key),
                line,
                message,
            } => {
                write!(f, "key `{key}`{}: {message}", at(line))
            }
            Problem::BadValue {
                key: None,
                line,
                message,
            } => {
                write!(f, "bad value{}: {message}", at(line))
            }
            Problem::Rule(message) => f.write_str(message),
        }
    }
}

impl Problem {
    /// Sets the line a problem names.
    pub(super) fn set_line(&mut self, to: Option<usize>) {
        match self {
            Problem::Syntax { line, .. }
            | Problem::UnknownKey { line, .. }
            | Problem::BadValue { line, .. } => *line = to,
            Problem::Rule(_) => {}
        }
    }
}
