//! A 128-bit key for a text: two independent 64-bit hashes, so a collision
//! among the texts one process keys is beyond any practical odds. For
//! indexing texts without keeping a copy of each: the session journal's text
//! table and the token counter's memo. Pure; the seeds are per instance.

use std::hash::{BuildHasher, RandomState};

/// The two hashers of a key.
#[derive(Debug, Clone, Default)]
pub struct TextKeys {
    a: RandomState,
    b: RandomState,
}

impl TextKeys {
    /// The key of `text`.
    pub fn key(&self, text: &str) -> u128 {
        (u128::from(self.a.hash_one(text)) << 64) | u128::from(self.b.hash_one(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_share_a_key_and_others_do_not() {
        let keys = TextKeys::default();
        assert_eq!(
            keys.key("paneer tikka"),
            keys.key(&String::from("paneer tikka"))
        );
        assert_ne!(keys.key("paneer tikka"), keys.key("paneer tikka "));
        assert_ne!(keys.key(""), keys.key(" "));
    }
}
