//! Stage 1, normalize: a message as tokens — lowercase, apostrophes
//! dropped, digits split from their units ("200g" → "200 g"), clauses
//! numbered at punctuation — with spelling corrected towards the closed
//! world's own vocabulary (the grammar's words and the kitchen's names).
//!
//! A word is corrected only when it is not a known word as typed and one
//! word of the closed vocabulary is nearest: "culd" becomes "could" (a
//! grammar word), never "curd" (a food the kitchen does not hold).

use std::collections::HashSet;

use super::lexicon::Lexicon;
use crate::brain::offline::text::clip;

/// One word of the message.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// The word as the reader reads it (corrected, lowercase).
    pub word: String,
    /// The word as typed (lowercase).
    pub typed: String,
    /// Which clause of the message it is in (clauses end at , . ; ! ? :).
    pub clause: usize,
}

/// A message as tokens.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Normalized {
    pub tokens: Vec<Token>,
    /// The message asks something ("?").
    pub question: bool,
    /// The clauses that end with "?".
    pub asked: Vec<usize>,
    /// The clauses that end with ":" (what follows lists things).
    pub listed: Vec<usize>,
}

impl Normalized {
    /// The words, as read.
    pub fn words(&self) -> Vec<&str> {
        self.tokens.iter().map(|t| t.word.as_str()).collect()
    }
}

/// The message's first [`crate::brain::offline::text::MAX_CHARS`]
/// characters as tokens; `closed` is the kitchen's own words.
pub fn normalize(message: &str, lex: &Lexicon, closed: &HashSet<String>) -> Normalized {
    let text = clip(message, crate::brain::offline::text::MAX_CHARS);
    // "w/o": without.
    let text = text.replace("w/o ", "without ").replace("W/O ", "without ");
    let text = undictated(&text, lex);
    let mut out = Normalized::default();
    let mut clause = 0;
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut Normalized, clause: usize| {
        // "eggs x6" is "6 eggs": the count goes before what it counts.
        let counts_before =
            cur.starts_with('x') && cur.len() > 1 && cur[1..].chars().all(|c| c.is_ascii_digit());
        if counts_before {
            // Before what it counts, once its name is whole ("chick peas").
            join_split_names(out, closed);
        }
        for piece in split_digits(cur) {
            // "tues n weds": "n" is "and"; shorthand reads as its word.
            let word = match lex.shorthand.get(piece.as_str()) {
                Some(w) => w.clone(),
                None => correct(&piece, lex, closed).unwrap_or_else(|| piece.clone()),
            };
            let token = Token {
                word,
                typed: piece,
                clause,
            };
            match out.tokens.last() {
                Some(last) if counts_before && last.clause == clause => {
                    let at = out.tokens.len() - 1;
                    out.tokens.insert(at, token);
                }
                _ => out.tokens.push(token),
            }
        }
        cur.clear();
    };
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let next_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
        match c {
            '\'' | '’' | '‘' => {}
            '.' if cur.chars().last().is_some_and(|l| l.is_ascii_digit()) && next_digit => {
                cur.push('.');
            }
            '/' if cur.chars().all(|l| l.is_ascii_digit()) && !cur.is_empty() && next_digit => {
                cur.push('/');
            }
            '&' | '+' => {
                flush(&mut cur, &mut out, clause);
                out.tokens.push(Token {
                    word: "and".into(),
                    typed: c.to_string(),
                    clause,
                });
            }
            // A dash said between words ("saturday lunch - no, dinner")
            // ends a clause as a comma does.
            ',' | '.' | ';' | '!' | '?' | ':' | '(' | ')' | '\n' | '|' | '—' | '–' => {
                flush(&mut cur, &mut out, clause);
                if c == '?' {
                    out.question = true;
                    if out.tokens.last().is_some_and(|t| t.clause == clause) {
                        out.asked.push(clause);
                    }
                }
                if c == ':' && out.tokens.last().is_some_and(|t| t.clause == clause) {
                    out.listed.push(clause);
                }
                if out.tokens.last().is_some_and(|t| t.clause == clause) {
                    clause += 1;
                }
            }
            // "pick-up", "one-pot": two words, as the kitchen's names are
            // split.
            // "2026-01-20": a date written with dashes stays one word.
            '-' if chars.get(i + 1).is_some_and(char::is_ascii_digit) && year_led(&cur) => {
                cur.push('-');
            }
            '-' if !cur.is_empty() && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric()) => {
                flush(&mut cur, &mut out, clause);
            }
            c if c.is_alphanumeric() => {
                cur.extend(c.to_lowercase());
            }
            '-' if chars.get(i + 1).is_none_or(|n| n.is_whitespace()) => {
                flush(&mut cur, &mut out, clause);
                if out.tokens.last().is_some_and(|t| t.clause == clause) {
                    clause += 1;
                }
            }
            _ => flush(&mut cur, &mut out, clause),
        }
    }
    flush(&mut cur, &mut out, clause);
    join_split_names(&mut out, closed);
    out
}

/// True when a word so far is a year, or a year and a month ("2026",
/// "2026-01"): a dash after it goes on a date.
fn year_led(cur: &str) -> bool {
    let b = cur.as_bytes();
    let year = b.len() >= 4 && b[..4].iter().all(u8::is_ascii_digit);
    year && (b.len() == 4 || b.len() >= 6 && b[4] == b'-' && b[5..].iter().all(u8::is_ascii_digit))
}

/// Punctuation said aloud read as the mark: "is it on there question
/// mark" → "is it on there ?", "two full stop" → "two .".
fn undictated(text: &str, lex: &Lexicon) -> String {
    // Each word with where it lies in the text.
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut from = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), from) {
            (true, Some(f)) => {
                spans.push((f, i));
                from = None;
            }
            (false, None) => from = Some(i),
            _ => {}
        }
    }
    if let Some(f) = from {
        spans.push((f, text.len()));
    }
    let plain = |(a, b): (usize, usize)| {
        text[a..b]
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let lower: Vec<String> = spans.iter().map(|s| plain(*s)).collect();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut k = 1;
    // Said after a word, as dictation ends a sentence: not "comma" opening
    // a message.
    while k < spans.len() {
        let mark = lex.dictated.iter().find(|(p, _)| {
            p.len() <= spans.len() - k && p.iter().zip(&lower[k..]).all(|(a, b)| a == b)
        });
        match mark {
            Some((p, m)) => {
                let (a, _) = spans[k];
                let (_, b) = spans[k + p.len() - 1];
                out.push_str(&text[copied..a]);
                out.push_str(m);
                copied = b;
                k += p.len();
            }
            None => k += 1,
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// "chick peas" for the kitchen's "chickpeas": two words said apart that
/// make one of the kitchen's own words.
fn join_split_names(out: &mut Normalized, closed: &HashSet<String>) {
    let mut i = 0;
    while i + 1 < out.tokens.len() {
        let (a, b) = (&out.tokens[i], &out.tokens[i + 1]);
        let joined = format!("{}{}", a.word, b.word);
        let singular = crate::context::taxonomy::singular(&joined);
        if a.clause == b.clause
            && joined.len() >= 6
            && a.word.chars().all(char::is_alphabetic)
            && b.word.chars().all(char::is_alphabetic)
            && (closed.contains(&joined) || closed.contains(&singular))
        {
            let typed = format!("{} {}", a.typed, b.typed);
            out.tokens[i].word = joined;
            out.tokens[i].typed = typed;
            out.tokens.remove(i + 1);
        }
        i += 1;
    }
}

/// "200g" → "200", "g"; "1.5kg" → "1.5", "kg"; "2x" → "2"; a word stays.
fn split_digits(word: &str) -> Vec<String> {
    let word = word.trim_matches('-');
    if word.is_empty() {
        return Vec::new();
    }
    // "2026-01-14": a date, whole.
    let parts: Vec<&str> = word.split('-').collect();
    if parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    {
        return vec![word.to_string()];
    }
    // "eggs x6": six of them.
    if let Some(n) = word
        .strip_prefix('x')
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    {
        return vec![n.to_string()];
    }
    let digits: String = word
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '/')
        .collect();
    if digits.is_empty() || digits.len() == word.len() {
        return vec![word.to_string()];
    }
    let rest = &word[digits.len()..];
    match rest {
        "x" => vec![digits],
        "st" | "nd" | "rd" | "th" => vec![word.to_string()],
        _ => vec![digits, rest.to_string()],
    }
}

/// The closed-vocabulary word a misspelt word stands for, when exactly one
/// is nearest; `None` for a known word or one too far from every word.
fn correct(word: &str, lex: &Lexicon, closed: &HashSet<String>) -> Option<String> {
    let n = word.chars().count();
    // Shorthand the kitchen's word lists keep ("recipies") is corrected
    // too; a real word as typed is not.
    if n < 3
        || !word.chars().all(char::is_alphabetic)
        || lex.vocabulary.contains(word)
        || closed.contains(word)
        || crate::brain::offline::vocab::is_food_word(word)
        || crate::brain::offline::vocab::is_dictionary_word(word)
        || crate::brain::offline::vocab::is_chatter(word)
    {
        return None;
    }
    // "greek yog", "corr": the start of one of the kitchen's own words,
    // and of no other, is that word cut short.
    let mut cut_short = closed
        .iter()
        .filter(|c| c.chars().count() >= n + 2 && c.starts_with(word));
    if let (Some(whole), None) = (cut_short.next(), cut_short.next()) {
        return Some(whole.clone());
    }
    let limit = if n >= 7 { 2 } else { 1 };
    // A three-letter word is corrected only to a grammar word ("wat").
    // A three-letter one to a name only with a letter dropped ("mlk").
    let names_too = n >= 3;
    let mut best: Option<(usize, bool, &str)> = None;
    let mut tied = false;
    let grammar = lex.vocabulary.iter().map(|w| (w.as_str(), true));
    // The kitchen's names and the catalog's foods ("egsg" → "egg").
    let mut targets: Vec<&str> = closed.iter().map(String::as_str).collect();
    targets.extend(crate::brain::offline::vocab::food_words().map(|w| -> &str { w }));
    // ("egss" → "eggs": a food is typed as often in the plural.)
    let plurals: Vec<String> = targets
        .iter()
        .filter(|w| !w.ends_with('s'))
        .map(|w| format!("{w}s"))
        .collect();
    targets.extend(plurals.iter().map(String::as_str));
    let names = targets
        .into_iter()
        .filter(|_| names_too)
        .map(|w| (w, false));
    for (cand, is_grammar) in grammar.chain(names) {
        if cand.chars().count() < 3 || cand.len().abs_diff(word.len()) > limit {
            continue;
        }
        let mut d = strsim::damerau_levenshtein(word, cand);
        if d > limit || n == 3 && !is_grammar && cand.chars().count() != 4 {
            continue;
        }
        // Two letters swapped ("waht") is the likeliest slip of all.
        // So is a doubled letter typed once ("shoping").
        if d == 1 && (anagram(word, cand) || undoubled(word, cand)) {
            d = 0;
        }
        match best {
            Some((bd, bg, bw)) if (d, !is_grammar) == (bd, !bg) && cand != bw => tied = true,
            Some((bd, bg, _)) if (d, !is_grammar) >= (bd, !bg) => {}
            _ => {
                best = Some((d, is_grammar, cand));
                tied = false;
            }
        }
    }
    match best {
        Some((_, _, w)) if !tied => Some(w.to_string()),
        _ => None,
    }
}

/// True when `word` is `cand` with one of its doubled letters typed once.
fn undoubled(word: &str, cand: &str) -> bool {
    let c: Vec<char> = cand.chars().collect();
    (1..c.len()).any(|k| {
        c[k] == c[k - 1] && {
            let mut once = c.clone();
            once.remove(k);
            once.iter().collect::<String>() == word
        }
    })
}

fn anagram(a: &str, b: &str) -> bool {
    let sorted = |s: &str| {
        let mut v: Vec<char> = s.chars().collect();
        v.sort_unstable();
        v
    };
    sorted(a) == sorted(b)
}

#[cfg(test)]
mod tests {
    use super::super::lexicon::lexicon;
    use super::*;

    fn words(m: &str) -> Vec<String> {
        let closed: HashSet<String> = ["jasmine", "rice", "chickpeas", "lemon", "curry"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        normalize(m, lexicon(), &closed)
            .tokens
            .into_iter()
            .map(|t| t.word)
            .collect()
    }

    #[test]
    fn digits_split_from_units_and_apostrophes_drop() {
        assert_eq!(words("I've used 200g"), ["ive", "used", "200", "g"]);
        assert_eq!(words("1.5kg of rice"), ["1.5", "kg", "of", "rice"]);
        assert_eq!(words("don't"), ["dont"]);
        assert_eq!(words("the 15th"), ["the", "15th"]);
    }

    #[test]
    fn clauses_end_at_punctuation_and_a_question_is_marked() {
        let n = normalize(
            "keep the milk. delete the rest?",
            lexicon(),
            &HashSet::new(),
        );
        assert!(n.question);
        assert_eq!(n.tokens[0].clause, 0);
        assert_eq!(n.tokens.last().unwrap().clause, 1);
    }

    #[test]
    fn spelling_is_corrected_towards_the_closed_world_only() {
        assert_eq!(words("jasmin rice"), ["jasmine", "rice"]);
        assert_eq!(words("remvoe it"), ["remove", "it"]);
        // A verb typo is a grammar word, never a food the kitchen lacks.
        assert_eq!(words("culd you"), ["could", "you"]);
        // A known word stays as typed.
        assert_eq!(words("curd"), ["curd"]);
        // Shorthand the word lists keep is corrected as well.
        assert_eq!(words("recipies"), ["recipes"]);
        assert_eq!(words("waht"), ["what"]);
    }

    #[test]
    fn slips_of_the_commonest_kinds_are_corrected() {
        let lex = lexicon();
        let closed: HashSet<String> = ["greek", "yogurt", "chicken", "thigh"]
            .into_iter()
            .map(String::from)
            .collect();
        // A doubled letter typed once; a plural food; a kitchen word cut
        // short, when it is the start of that word alone.
        assert_eq!(
            correct("shoping", lex, &closed).as_deref(),
            Some("shopping")
        );
        assert_eq!(correct("egss", lex, &closed).as_deref(), Some("eggs"));
        assert_eq!(correct("yog", lex, &closed).as_deref(), Some("yogurt"));
    }
}
