//! Taking the API key out of everything a server says back: error bodies,
//! streamed and whole answers, refusals, the strings of a structured answer,
//! what the server publishes about itself. A server that echoes the key
//! must not get it into the turn record, the session file, an export, the
//! terminal or the log; the brain scrubs server text where it enters
//! (`call`, `http`, `server`, `probe`), so nothing downstream sees the key.
//!
//! A streamed answer may split the key between two chunks, so
//! [`StreamScrub`] holds back a tail that could be the start of the key
//! until the next chunk shows whether it is. Pure: no IO.

use std::sync::Arc;

use serde_json::Value;

/// What the key is replaced with.
pub const REMOVED: &str = "[API key removed]";

/// Keys shorter than this are not scrubbed ("x" for a local server would
/// garble every message).
const SECRET_MIN: usize = 8;

/// The key to take out of server text; the default takes nothing out.
/// Never printed (its `Debug` says only whether there is a key).
#[derive(Clone, Default)]
pub struct Scrub(Option<Arc<str>>);

impl std::fmt::Debug for Scrub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(_) => f.write_str("Scrub(key)"),
            None => f.write_str("Scrub(none)"),
        }
    }
}

impl Scrub {
    /// Scrubs `key` (trimmed); no key, or one too short to be told from
    /// ordinary words, scrubs nothing.
    pub fn new(key: Option<&str>) -> Self {
        Self(
            key.map(str::trim)
                .filter(|k| k.chars().count() >= SECRET_MIN)
                .map(Arc::from),
        )
    }

    /// `text` with every occurrence of the key replaced by [`REMOVED`].
    pub fn text(&self, text: &str) -> String {
        match &self.0 {
            Some(k) if text.contains(&**k) => text.replace(&**k, REMOVED),
            _ => text.to_string(),
        }
    }

    /// Scrubs every string in `value`, object keys included: a key written
    /// with JSON escapes (`\u0073k-…`) is whole only once decoded.
    pub fn json(&self, value: &mut Value) {
        let Some(k) = &self.0 else {
            return;
        };
        match value {
            Value::String(s) if s.contains(&**k) => *s = s.replace(&**k, REMOVED),
            Value::Array(items) => items.iter_mut().for_each(|v| self.json(v)),
            Value::Object(map) if map.keys().any(|name| name.contains(&**k)) => {
                *map = std::mem::take(map)
                    .into_iter()
                    .map(|(name, mut v)| {
                        self.json(&mut v);
                        (self.text(&name), v)
                    })
                    .collect();
            }
            Value::Object(map) => map.values_mut().for_each(|v| self.json(v)),
            _ => {}
        }
    }

    /// A scrubber for one streamed text.
    pub fn stream(&self) -> StreamScrub {
        StreamScrub {
            key: self.0.clone(),
            held: String::new(),
        }
    }
}

/// One streamed text, scrubbed as it arrives: what [`StreamScrub::push`]
/// returns never holds the key nor ends in a piece of it, whatever the
/// chunk boundaries, and all it returns joined equals the whole text
/// scrubbed at once.
#[derive(Default)]
pub struct StreamScrub {
    key: Option<Arc<str>>,
    /// Text received but not yet let through: it ends in what may be the
    /// start of the key.
    held: String,
}

impl StreamScrub {
    /// Takes the next chunk; returns the text that can be let through now,
    /// holding back a tail that begins the key.
    pub fn push(&mut self, chunk: &str) -> String {
        let Some(k) = &self.key else {
            return chunk.to_string();
        };
        self.held.push_str(chunk);
        if self.held.contains(&**k) {
            self.held = self.held.replace(&**k, REMOVED);
        }
        let tail = key_start_at_end(&self.held, k);
        let rest = self.held.split_off(tail);
        std::mem::replace(&mut self.held, rest)
    }

    /// The end of a finished stream: the held tail, which the key never
    /// completed. A stream that breaks off does not call this, so a key cut
    /// short there is dropped with the tail.
    pub fn finish(&mut self) -> String {
        std::mem::take(&mut self.held)
    }
}

/// Where the longest tail of `text` that is a proper start of `key`
/// begins; `text.len()` when none is.
fn key_start_at_end(text: &str, key: &str) -> usize {
    let longest = (key.len() - 1).min(text.len());
    (1..=longest)
        .rev()
        .map(|n| text.len() - n)
        .find(|&at| text.is_char_boundary(at) && key.as_bytes().starts_with(&text.as_bytes()[at..]))
        .unwrap_or(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const KEY: &str = "sk-test-7f3a9c1e5b";

    fn streamed(scrub: &Scrub, chunks: &[&str]) -> Vec<String> {
        let mut s = scrub.stream();
        let mut out: Vec<String> = chunks.iter().map(|c| s.push(c)).collect();
        out.push(s.finish());
        out
    }

    #[test]
    fn short_or_missing_keys_scrub_nothing() {
        assert_eq!(Scrub::new(Some("x")).text("x marks"), "x marks");
        assert_eq!(Scrub::new(None).text(KEY), KEY);
        assert_eq!(
            Scrub::new(Some(&format!("  {KEY}\n"))).text(KEY),
            REMOVED,
            "the key is trimmed as the header's is"
        );
        assert!(!format!("{:?}", Scrub::new(Some(KEY))).contains(KEY));
    }

    #[test]
    fn a_key_split_between_two_chunks_is_scrubbed() {
        let scrub = Scrub::new(Some(KEY));
        let out = streamed(&scrub, &["Your key is sk-test-7f", "3a9c1e5b, keep it."]);
        assert_eq!(out, ["Your key is ", "[API key removed], keep it.", ""]);
        // Replacing per chunk would have let both halves through.
        assert_eq!(
            scrub.text("Your key is sk-test-7f"),
            "Your key is sk-test-7f"
        );
    }

    #[test]
    fn every_split_of_the_text_gives_the_text_scrubbed_at_once() {
        let scrub = Scrub::new(Some(KEY));
        let text = format!("é {KEY}{KEY} sk-test- and sk-test-7f3a9c1e5 then {KEY}");
        let whole = scrub.text(&text);
        assert_eq!(whole.matches(REMOVED).count(), 3);
        for (i, _) in text.char_indices() {
            for (j, _) in text[i..].char_indices() {
                let out = streamed(&scrub, &[&text[..i], &text[i..i + j], &text[i + j..]]);
                assert!(out.iter().all(|o| !o.contains("sk-test-7f3a9c1e5b")));
                assert_eq!(out.concat(), whole, "split at {i} and {}", i + j);
            }
        }
    }

    #[test]
    fn only_a_tail_that_begins_the_key_is_held_and_a_finished_stream_lets_it_go() {
        let scrub = Scrub::new(Some(KEY));
        let mut s = scrub.stream();
        assert_eq!(s.push("plain words "), "plain words ");
        assert_eq!(s.push("ask-"), "a", "\"sk-\" may begin the key");
        assert_eq!(s.push("me"), "sk-me");
        assert_eq!(s.push(" sk-test-7f3a9c1e5"), " ");
        assert_eq!(s.finish(), "sk-test-7f3a9c1e5", "the key never completed");
        let none = Scrub::default();
        assert_eq!(streamed(&none, &["sk-test-7f", "3a9c1e5b"]).concat(), KEY);
    }

    #[test]
    fn every_string_of_a_json_value_is_scrubbed_even_one_written_with_escapes() {
        let scrub = Scrub::new(Some(KEY));
        let text = r#"{"goal": "use \u0073k-test-7f3a9c1e5b", "steps": [{"description": "x sk-test-7f3a9c1e5b"}],
            "sk-test-7f3a9c1e5b": {"n": 1, "k": "sk-test-7f3a9c1e5b"}}"#;
        let mut value: Value = serde_json::from_str(text).unwrap();
        scrub.json(&mut value);
        assert_eq!(
            value,
            json!({"goal": "use [API key removed]",
                   "steps": [{"description": "x [API key removed]"}],
                   "[API key removed]": {"n": 1, "k": "[API key removed]"}})
        );
    }
}
