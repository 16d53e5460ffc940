//! Token counting for prompt sections: tiktoken's `o200k_base`, loaded lazily
//! and once, with a character estimate as the fallback.
//!
//! Owns nothing but the counter and its memo. It never panics: if the
//! encoder cannot be loaded, every count is the estimate (chars / 4, rounded
//! up) and [`is_exact`] says so, so the turn record can mark usage as
//! estimated.
//!
//! Most of what a turn counts was counted before: the system texts, and the
//! sections one node shares with the next or one turn with the next (the
//! kitchen, the entity context, the history). Texts of at least
//! [`MEMO_MIN`] bytes are remembered by a 128-bit hash, so a repeat costs a
//! hash (about 40 µs for 30 KB) instead of the tokenizer (about 1 ms).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use tiktoken_rs::CoreBPE;

use crate::text_key::TextKeys;

/// The shared encoder, or `None` when it failed to load.
static ENCODER: OnceLock<Option<&'static CoreBPE>> = OnceLock::new();

/// Loads the encoder on first use (about a second in debug builds).
///
/// The singleton unwraps its own load; catching the unwind here keeps the
/// "never panic" promise of this module if the embedded data were unusable.
fn encoder() -> Option<&'static CoreBPE> {
    *ENCODER.get_or_init(|| std::panic::catch_unwind(tiktoken_rs::o200k_base_singleton).ok())
}

/// Texts shorter than this are counted every time (a hash would save
/// little).
pub const MEMO_MIN: usize = 256;
/// The memo is emptied when it holds this many counts (a few MB of texts'
/// worth; each entry is 24 bytes).
const MEMO_CAP: usize = 16_384;

/// Counts already made, by text key.
#[derive(Default)]
struct Memo {
    keys: TextKeys,
    counts: HashMap<u128, usize>,
}

static MEMO: OnceLock<Mutex<Memo>> = OnceLock::new();

fn memo() -> &'static Mutex<Memo> {
    MEMO.get_or_init(Mutex::default)
}

/// Tokens in `text` under `o200k_base`, or the estimate if the encoder is
/// unavailable. Special-token text (`<|endoftext|>`) counts as ordinary text,
/// which is what it is inside a prompt.
pub fn count_tokens(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    let Some(bpe) = encoder() else {
        return estimate(text);
    };
    if text.len() < MEMO_MIN {
        return bpe.count_ordinary(text);
    }
    // The lock is not held while counting: two threads may count one text
    // at once, and both store the same number.
    let key = {
        let memo = memo().lock().unwrap_or_else(|e| e.into_inner());
        let key = memo.keys.key(text);
        if let Some(&n) = memo.counts.get(&key) {
            return n;
        }
        key
    };
    let n = bpe.count_ordinary(text);
    let mut memo = memo().lock().unwrap_or_else(|e| e.into_inner());
    if memo.counts.len() >= MEMO_CAP {
        memo.counts.clear();
    }
    memo.counts.insert(key, n);
    n
}

/// The fallback estimate: one token per four characters, rounded up.
pub fn estimate(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// True when counts come from the real encoder rather than the estimate.
pub fn is_exact() -> bool {
    encoder().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_strings_have_known_o200k_counts() {
        assert!(is_exact(), "the embedded o200k encoder should load");
        assert_eq!(count_tokens("hello world"), 2);
        assert_eq!(count_tokens(""), 0);
        // Special-token text is counted as ordinary text, not as one token.
        assert!(count_tokens("<|endoftext|>") > 1);
    }

    #[test]
    fn a_remembered_count_is_the_count() {
        let long = "The paneer tikka uses yoghurt, garam masala and lime. ".repeat(40);
        assert!(long.len() >= MEMO_MIN);
        let bpe = encoder().expect("encoder");
        let first = count_tokens(&long);
        assert_eq!(first, bpe.count_ordinary(&long));
        assert_eq!(count_tokens(&long), first, "the remembered count");
        // A text one character longer is a different text.
        let longer = format!("{long}!");
        assert_eq!(count_tokens(&longer), bpe.count_ordinary(&longer));
    }

    #[test]
    fn estimate_is_chars_over_four_rounded_up() {
        assert_eq!(estimate(""), 0);
        assert_eq!(estimate("abc"), 1);
        assert_eq!(estimate("abcd"), 1);
        assert_eq!(estimate("abcde"), 2);
        // Characters, not bytes.
        assert_eq!(estimate("ééééé"), 2);
    }
}
