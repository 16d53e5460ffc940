//! Token counting for prompt sections: tiktoken's `o200k_base`, loaded lazily
//! and once, with a character estimate as the fallback.
//!
//! Owns nothing but the counter. It never panics: if the encoder cannot be
//! loaded, every count is the estimate (chars / 4, rounded up) and
//! [`is_exact`] says so, so the turn record can mark usage as estimated.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

/// The shared encoder, or `None` when it failed to load.
static ENCODER: OnceLock<Option<&'static CoreBPE>> = OnceLock::new();

/// Loads the encoder on first use (about a second in debug builds).
///
/// The singleton unwraps its own load; catching the unwind here keeps the
/// "never panic" promise of this module if the embedded data were unusable.
fn encoder() -> Option<&'static CoreBPE> {
    *ENCODER.get_or_init(|| std::panic::catch_unwind(tiktoken_rs::o200k_base_singleton).ok())
}

/// Tokens in `text` under `o200k_base`, or the estimate if the encoder is
/// unavailable. Special-token text (`<|endoftext|>`) counts as ordinary text,
/// which is what it is inside a prompt.
pub fn count_tokens(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    match encoder() {
        Some(bpe) => bpe.count_ordinary(text),
        None => estimate(text),
    }
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
    fn estimate_is_chars_over_four_rounded_up() {
        assert_eq!(estimate(""), 0);
        assert_eq!(estimate("abc"), 1);
        assert_eq!(estimate("abcd"), 1);
        assert_eq!(estimate("abcde"), 2);
        // Characters, not bytes.
        assert_eq!(estimate("ééééé"), 2);
    }
}
