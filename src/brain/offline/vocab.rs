//! The words the offline brain knows, so it can tell a typo from a word and
//! a name from filler:
//! - common English: SCOWL's sizes 10 to 35 (`assets/words/english.txt`,
//!   its notice in `assets/words/COPYRIGHT-english`), about 38,000 words;
//! - food: `assets/words/food.txt` and the seed ingredient catalog's names
//!   and aliases (`assets/seed/ingredients.json`);
//! - `assets/words/kitchen.txt`: the kitchen's own words (tables, places,
//!   days, meals);
//! - `assets/words/known.txt`: the shorthand people type ("tmrw") and
//!   every word the rules listen for, known but never a respelling;
//! - `assets/words/chatter.txt`: interjections ("yo", "lol", "idk"), known
//!   and never a name.
//!
//! [`correct`] respells a word that is none of these to the one known word
//! it is a typo of ("recipies" → "recipes", "paner" → "paneer", "frnch" →
//! "french"), and leaves it alone when it is near no word or near several.
//! [`is_food`] tells whether a phrase reads as something to eat: a new item
//! or a search term is only ever taken from words that do.
//!
//! Pure and total; the word lists are read once per process.

use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, Mutex};

use crate::context::taxonomy::singular;

const ENGLISH: &str = include_str!("../../../assets/words/english.txt");
const FOOD: &str = include_str!("../../../assets/words/food.txt");
const CATALOG: &str = include_str!("../../../assets/seed/ingredients.json");
const KITCHEN: &str = include_str!("../../../assets/words/kitchen.txt");
const KNOWN_AS_IS: &str = include_str!("../../../assets/words/known.txt");
const CHATTER: &str = include_str!("../../../assets/words/chatter.txt");

/// The known words, built once.
struct Known {
    english: HashSet<&'static str>,
    /// The kitchen's words, shorthand and the rules' words.
    kitchen: HashSet<&'static str>,
    /// English words by first letter, the targets of a last-resort
    /// correction.
    english_by_letter: HashMap<char, Vec<&'static str>>,
    /// Singular food words (single words of food phrases, catalog names'
    /// last words, whole one-word names).
    food_words: HashSet<String>,
    /// Whole food phrases and catalog names, singular words joined by one
    /// space ("olive oil", "chicken thigh").
    food_phrases: HashSet<String>,
    /// Preferred correction targets: food and kitchen words.
    domain: Vec<String>,
    /// Interjections and shorthand that never name anything ("yo", "lol").
    chatter: HashSet<&'static str>,
}

static KNOWN: LazyLock<Known> = LazyLock::new(build);

/// Corrections already worked out (a word's answer never changes).
static MEMO: LazyLock<Mutex<HashMap<String, Option<String>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Entries the memo keeps before it starts over.
const MEMO_CAP: usize = 10_000;

fn phrase_key(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| singular(&w.to_lowercase()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of a word list.
fn listed(list: &'static str) -> impl Iterator<Item = &'static str> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

fn build() -> Known {
    let english: HashSet<&'static str> = ENGLISH.lines().filter(|l| !l.is_empty()).collect();
    let mut english_by_letter: HashMap<char, Vec<&'static str>> = HashMap::new();
    for w in &english {
        if let Some(c) = w.chars().next() {
            english_by_letter.entry(c).or_default().push(w);
        }
    }
    let mut phrases: Vec<String> = FOOD
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let mut heads: Vec<String> = Vec::new();
    if let Ok(serde_json::Value::Array(items)) = serde_json::from_str::<serde_json::Value>(CATALOG)
    {
        for item in &items {
            let names = item["name"].as_str().into_iter().chain(
                item["aliases"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|a| a.as_str()),
            );
            for name in names {
                phrases.push(name.to_string());
                if let Some(last) = name.split_whitespace().last() {
                    heads.push(last.to_string());
                }
            }
        }
    }
    let mut food_words = HashSet::new();
    let mut food_phrases = HashSet::new();
    for p in &phrases {
        let key = phrase_key(p);
        if !key.contains(' ') {
            food_words.insert(key.clone());
        }
        food_phrases.insert(key);
    }
    for h in &heads {
        food_words.insert(singular(&h.to_lowercase()));
    }
    let mut domain: Vec<String> = phrases
        .iter()
        .flat_map(|p| p.split_whitespace().map(str::to_lowercase))
        .chain(listed(KITCHEN).map(str::to_string))
        .filter(|w| w.chars().all(char::is_alphabetic))
        .collect();
    domain.sort();
    domain.dedup();
    Known {
        english,
        kitchen: listed(KITCHEN)
            .chain(listed(KNOWN_AS_IS))
            .chain(listed(CHATTER))
            .collect(),
        chatter: listed(CHATTER).collect(),
        english_by_letter,
        food_words,
        food_phrases,
        domain,
    }
}

/// True when the word is known as it is: English, shorthand, food (in any
/// plural) or one of the kitchen's words.
pub fn is_known(word: &str) -> bool {
    let k = &*KNOWN;
    k.english.contains(word)
        || k.kitchen.contains(word)
        || k.food_words.contains(&singular(word))
        || k.domain.binary_search_by(|d| d.as_str().cmp(word)).is_ok()
}

/// True when the word is in the English word list or is a food word: a
/// real word as typed, not shorthand ("recipies", "tmrw").
pub fn is_dictionary_word(word: &str) -> bool {
    KNOWN.english.contains(word) || is_food_word(word)
}

/// True when `word` is a word of English, of a food or of the kitchen's
/// names ("green", "greek"): typed as it stands, it is that word.
pub fn is_known_word(word: &str) -> bool {
    is_dictionary_word(word)
        || KNOWN
            .domain
            .binary_search_by(|d| d.as_str().cmp(word))
            .is_ok()
}

/// True when `word` (one word) is a food word.
pub fn is_food_word(word: &str) -> bool {
    KNOWN.food_words.contains(&singular(word))
}

/// The catalog's single food words (singular), for the reader's spelling
/// correction towards the closed world ("egsg" → "egg").
pub fn food_words() -> impl Iterator<Item = &'static str> {
    KNOWN.food_words.iter().map(String::as_str)
}

/// True when `phrase` is a food of the catalog said whole ("oat milk").
pub fn is_food_phrase(phrase: &str) -> bool {
    KNOWN.food_phrases.contains(&phrase_key(phrase))
}

/// True when `phrase` reads as something to eat or cook with: it is a
/// known food phrase, or one of its words is a food word ("a bag of
/// shallots", "greek yogurt", "frozen peas").
pub fn is_food(phrase: &str) -> bool {
    let key = phrase_key(phrase);
    KNOWN.food_phrases.contains(&key) || key.split(' ').any(|w| KNOWN.food_words.contains(w))
}

/// True when `word` links to nothing a recipe search or a new item could
/// use: a common English word that is not food, not a cuisine or kind of
/// dish, and not one of the kitchen's words ("broke", "student", "people",
/// "coming"). Unknown words may be names ("pedas") and are kept.
pub fn links_to_nothing(word: &str) -> bool {
    let k = &*KNOWN;
    if k.chatter.contains(word) {
        return true;
    }
    k.english.contains(word)
        && !k.kitchen.contains(word)
        && !is_food_word(word)
        && crate::context::taxonomy::cuisine(word).is_none()
        && crate::context::taxonomy::dish_kind(&singular(word)).is_none()
}

/// True for one of the kitchen's own words (tables, places, days, meals).
fn k_kitchen(word: &str) -> bool {
    KNOWN.kitchen.contains(word)
}

/// True for an interjection or chat shorthand ("uh", "lol", "idk").
pub fn is_chatter(word: &str) -> bool {
    KNOWN.chatter.contains(word)
}

/// True when `phrase` could name something to eat: it is food, or one of
/// its words is in no English or kitchen word list (a name the lists lack:
/// "gochujang", "pedas"). "ideas", "people" and "time" cannot.
pub fn may_be_food(phrase: &str) -> bool {
    let k = &*KNOWN;
    is_food(phrase)
        || phrase.split(' ').any(|w| {
            w.chars().count() > 2
                && w.chars().all(char::is_alphabetic)
                && !k.english.contains(w)
                && !k.kitchen.contains(w)
        })
}

/// The food a message names, longest phrase first, in the order said
/// ("do i still have coconut milk and eggs" → "coconut milk", "eggs").
pub fn food_mentions(words: &[String]) -> Vec<String> {
    food_spans(words)
        .into_iter()
        .map(|(a, b)| words[a..b].join(" "))
        .collect()
}

/// Where [`food_mentions`] are: `(start, end)` word ranges.
fn food_spans(words: &[String]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let span = (1..=3).rev().find(|&n| {
            i + n <= words.len() && {
                let key = phrase_key(&words[i..i + n].join(" "));
                KNOWN.food_phrases.contains(&key) || (n == 1 && KNOWN.food_words.contains(&key))
            }
        });
        match span {
            Some(n) => {
                out.push((i, i + n));
                i += n;
            }
            None => i += 1,
        }
    }
    out
}

/// The name inside a phrase that says more than the name ("the yogurt
/// making a marinade" → yogurt, "the old coriander" → coriander, "a thing
/// of ginger" → ginger): the first run of food words and words no list
/// knows (a name the lists lack), when the phrase holds food and words
/// around it that link to nothing. `None` when the phrase is the name.
pub fn food_core(words: &[String]) -> Option<Vec<String>> {
    // A unit is no food of its own ("bin bags": "bag" is in "tea bags").
    let spans: Vec<(usize, usize)> = food_spans(words)
        .into_iter()
        .filter(|&(a, b)| b - a > 1 || super::items::unit_word(&words[a]).is_none())
        .collect();
    let &(first, mut end) = spans.first()?;
    let name_like = |w: &String| !is_known(w) && w.chars().all(char::is_alphabetic);
    let mut start = first;
    while start > 0 && name_like(&words[start - 1]) {
        start -= 1;
    }
    loop {
        if let Some(&(_, b)) = spans.iter().find(|(a, _)| *a == end) {
            end = b;
        } else if end < words.len() && name_like(&words[end]) {
            end += 1;
        } else {
            break;
        }
    }
    // The head of a name comes last: one word straight after the food
    // that is no verb form, amount or small word stays ("chilli flakes",
    // "garlic powder"); "yogurt making a marinade" stops at "making".
    if let Some(next) = words.get(end)
        && next.chars().all(char::is_alphabetic)
        && !super::text::is_filler(next)
        && !is_chatter(next)
        && !k_kitchen(next)
        && !next.ends_with("ing")
        && !next.ends_with("ed")
        && super::items::unit_word(next).is_none()
        && !matches!(
            next.as_str(),
            "dozen"
                | "half"
                | "couple"
                | "too"
                | "also"
                | "please"
                | "pls"
                | "thing"
                | "things"
                | "stuff"
                | "one"
                | "ones"
                | "left"
                | "now"
        )
    {
        end += 1;
    }
    let mut around = words[..start].iter().chain(&words[end..]);
    around
        .any(|w| links_to_nothing(w))
        .then(|| words[start..end].to_vec())
}

/// The edit distance a word of this many letters may be from the word it
/// is a typo of.
fn allowed(len: usize) -> usize {
    if len >= 7 { 2 } else { 1 }
}

/// Letters `a` and `b` share at their start.
fn common_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// The one candidate nearest `word` within `max` edits (of two as near,
/// the one sharing the longer start: typos fall late in a word); `None`
/// when there is none or two are alike on both.
fn nearest<'c>(
    word: &str,
    candidates: impl Iterator<Item = &'c str>,
    max: usize,
) -> Option<&'c str> {
    let len = word.chars().count();
    let mut best: Option<(usize, usize, &str)> = None;
    let mut tied = false;
    for c in candidates {
        if c.chars().count().abs_diff(len) > max {
            continue;
        }
        let d = strsim::osa_distance(word, c);
        if d == 0 || d > max {
            continue;
        }
        // Nearer is better, then a longer shared start.
        let key = (d, usize::MAX - common_prefix(word, c));
        match best {
            Some((bd, bp, _)) if key > (bd, bp) => {}
            Some((bd, bp, b)) if key == (bd, bp) => tied |= b != c,
            _ => {
                best = Some((key.0, key.1, c));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, _, c)| c)
}

/// The word `word` is a typo of, when it is unknown and near exactly one
/// known word: food and kitchen words first, then (for words of five
/// letters or more, first letter kept) common English.
pub fn correct(word: &str) -> Option<String> {
    let len = word.chars().count();
    if len < 4 || !word.chars().all(|c| c.is_ascii_alphabetic()) || is_known(word) {
        return None;
    }
    if let Ok(memo) = MEMO.lock()
        && let Some(answer) = memo.get(word)
    {
        return answer.clone();
    }
    let k = &*KNOWN;
    let answer = nearest(word, k.domain.iter().map(String::as_str), allowed(len))
        // "chikn", "tomatos", "brocli": letters dropped from a kitchen
        // word of five or six, its first two kept.
        .or_else(|| {
            let start: String = word.chars().take(2).collect();
            (5..7)
                .contains(&len)
                .then(|| {
                    nearest(
                        word,
                        k.domain
                            .iter()
                            .map(String::as_str)
                            .filter(|c| c.starts_with(&start) && c.chars().count() > len),
                        2,
                    )
                })
                .flatten()
        })
        .or_else(|| {
            let first = word.chars().next()?;
            let list = k.english_by_letter.get(&first)?;
            if len >= 5 {
                return nearest(word, list.iter().copied(), 1);
            }
            // "wnat", "waht", "jsut": two letters of a short word swapped,
            // the first kept, and only one common word it can be.
            let mut swapped = list.iter().copied().filter(|c| is_swap_of(word, c));
            let one = swapped.next()?;
            swapped.next().is_none().then_some(one)
        })
        .map(str::to_string);
    if let Ok(mut memo) = MEMO.lock() {
        if memo.len() >= MEMO_CAP {
            memo.clear();
        }
        memo.insert(word.to_string(), answer.clone());
    }
    answer
}

/// True when `typed` is `word` with two neighbouring letters swapped.
fn is_swap_of(typed: &str, word: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (typed.chars().collect(), word.chars().collect());
    if a.len() != b.len() {
        return false;
    }
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    matches!(differ.as_slice(), [i, j] if *j == i + 1 && a[*i] == b[*j] && a[*j] == b[*i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_of_kitchen_words_are_respelled() {
        for (typo, right) in [
            ("recpies", "recipes"),
            ("ingredeints", "ingredients"),
            ("paner", "paneer"),
            ("chikken", "chicken"),
            ("chcken", "chicken"),
            ("frnch", "french"),
            ("breakfst", "breakfast"),
            ("shoppping", "shopping"),
            ("tomatoe", "tomatoes"),
            // Two letters of a short word swapped.
            ("wnat", "want"),
            ("jsut", "just"),
        ] {
            assert_eq!(correct(typo).as_deref(), Some(right), "{typo}");
        }
    }

    #[test]
    fn known_words_and_names_far_from_any_word_stay() {
        for w in [
            "wife",
            "wine",
            "back",
            "broke",
            "student",
            "finish",
            "tomatoes",
            "gochujang",
            "shes",
            "dont",
            "tmrw",
            "bibimbap",
            "xyzzyq",
        ] {
            assert_eq!(correct(w), None, "{w}");
        }
        // Short words are the shorthand table's.
        assert_eq!(correct("wht"), None);
    }

    /// Every word of four letters or more in a string of the rules is
    /// known as it is, so no correction ever hides what a rule listens for.
    #[test]
    fn every_word_the_rules_listen_for_is_known() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/brain/offline");
        let mut files = vec![root];
        let mut missing = std::collections::BTreeSet::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.ends_with(".rs") || name.contains("test") || name == "vocab.rs" {
                continue;
            }
            let src = std::fs::read_to_string(&path).unwrap();
            // The rules' words, not their tests' messages.
            let rules = src.split("#[cfg(test)]").next().unwrap_or_default();
            for line in rules.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for (i, lit) in line.split('"').enumerate() {
                    if i % 2 == 0 || lit.len() > 60 || lit.contains('{') || lit.contains('\\') {
                        continue;
                    }
                    let lit = lit.to_lowercase();
                    for w in lit.split(|c: char| !c.is_ascii_lowercase()) {
                        if w.len() >= 4 && !is_known(w) && correct(w).is_some() {
                            missing.insert(format!("{w} ({name})"));
                        }
                    }
                }
            }
        }
        assert!(
            missing.is_empty(),
            "rule words a correction would change; add them to assets/words/known.txt: {missing:?}"
        );
    }

    #[test]
    fn food_is_told_from_filler() {
        for food in [
            "eggs",
            "a litre of milk",
            "bag of shallots",
            "greek yogurt",
            "frozen peas",
            "chicken thighs",
            "limes",
        ] {
            assert!(is_food(food), "{food}");
        }
        for w in ["broke", "student", "people", "coming", "next"] {
            assert!(links_to_nothing(w), "{w}");
        }
        for w in [
            "thai", "curries", "yellow", "quick", "pedas", "paneer", "recipes",
        ] {
            assert!(!links_to_nothing(w), "{w}");
        }
        for not in [
            "back",
            "bought",
            "yo broke student",
            "people",
            "sister staying",
        ] {
            assert!(!is_food(not), "{not}");
        }
        assert!(is_food_word("tomatoes") && !is_food_word("wife"));
        let said: Vec<String> = "do i still have coconut milk and 2 eggs or not"
            .split(' ')
            .map(str::to_string)
            .collect();
        assert_eq!(food_mentions(&said), ["coconut milk", "eggs"]);
    }
}
