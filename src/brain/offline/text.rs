//! Words of a user message, as the offline brain's rules see them.
//!
//! Owns normalisation (lowercase, apostrophes removed so "let's" and "lets"
//! are one word, punctuation and conjunctions as segment breaks), a light
//! stemmer (plural → singular, weekday → its label abbreviation), phrase
//! matching over word sequences, and number / weekday words. Pure and
//! total: any input (empty, megabytes, emoji, CJK) gives an answer; only
//! the first [`MAX_CHARS`] characters are read.

/// Characters of a message the rules read; the rest is ignored.
pub const MAX_CHARS: usize = 4000;

/// The segment-break marker produced by punctuation and conjunctions.
pub const BREAK: &str = "|";

/// A user message split into words and segments.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Words {
    /// Every word, lowercase, apostrophes removed, breaks dropped.
    pub words: Vec<String>,
    /// The words split at punctuation and conjunctions ("and", "or", "but").
    pub segments: Vec<Vec<String>>,
    /// The message ends with a question mark.
    pub question_mark: bool,
}

impl Words {
    /// Normalises `text` (its first [`MAX_CHARS`] characters).
    pub fn new(text: &str) -> Self {
        let tokens = tokens(clip(text, MAX_CHARS));
        let mut segments: Vec<Vec<String>> = vec![Vec::new()];
        let mut words = Vec::new();
        for t in tokens {
            if t == BREAK || is_conjunction(&t) {
                if segments.last().is_some_and(|s| !s.is_empty()) {
                    segments.push(Vec::new());
                }
                if t != BREAK {
                    words.push(t);
                }
                continue;
            }
            if let Some(seg) = segments.last_mut() {
                seg.push(t.clone());
            }
            words.push(t);
        }
        segments.retain(|s| !s.is_empty());
        Self {
            words,
            segments,
            question_mark: text.trim_end().ends_with('?'),
        }
    }

    /// True when the message has no words at all.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// True when any of `phrases` occurs as consecutive words.
    pub fn has_any(&self, phrases: &[&str]) -> bool {
        phrases.iter().any(|p| find(&self.words, p).is_some())
    }

    /// True when the word occurs.
    pub fn has(&self, word: &str) -> bool {
        self.words.iter().any(|w| w == word)
    }

    /// The words as one space-separated string.
    pub fn joined(&self) -> String {
        self.words.join(" ")
    }
}

/// The first `max` characters of `s` (on a char boundary).
pub fn clip(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn is_conjunction(w: &str) -> bool {
    matches!(w, "and" | "or" | "nor" | "but" | "plus" | "then" | "also")
}

/// Lowercase words, apostrophes removed, punctuation as [`BREAK`].
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let digit_around = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|d| d.is_ascii_digit())
        };
        if c.is_alphanumeric() || (c == '_' && !cur.is_empty()) {
            cur.extend(c.to_lowercase());
        } else if matches!(c, '\'' | '’' | '‘' | '`') {
            // "let's" → "lets": apostrophes join.
        } else if c == '.' && digit_around(i.checked_sub(1)) && digit_around(Some(i + 1)) {
            cur.push('.');
        } else {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            if matches!(
                c,
                ',' | ';' | '.' | '!' | '?' | '&' | '\n' | ':' | '(' | ')'
            ) {
                out.push(BREAK.to_string());
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    // A shorthand may stand for several words ("rn" is "right now").
    let mut words = Vec::with_capacity(out.len());
    for t in out {
        let r = respell(&t);
        if r.contains(' ') {
            words.extend(r.split(' ').map(String::from));
        } else {
            words.push(r);
        }
    }
    split_number_units(words)
}

/// Common misspellings of the words the rules listen for, as people type
/// them in a hurry: "recipies", "chiken", "tommorow", "wht".
#[rustfmt::skip]
const RESPELL: &[(&str, &str)] = &[
    ("recipies", "recipes"), ("recipie", "recipe"), ("receipes", "recipes"),
    ("receipe", "recipe"), ("recepies", "recipes"), ("recepie", "recipe"),
    ("reciepes", "recipes"), ("reciepe", "recipe"),
    ("tommorow", "tomorrow"), ("tomorow", "tomorrow"),
    ("tmrw", "tomorrow"), ("wht", "what"), ("wat", "what"), ("whta", "what"),
    ("shoping", "shopping"), ("frige", "fridge"), ("fridgee", "fridge"),
    ("freezr", "freezer"), ("pantree", "pantry"), ("tomatos", "tomatoes"),
    ("potatos", "potatoes"),
    ("yoghurt", "yogurt"), ("insted", "instead"), ("wedensday", "wednesday"),
    ("wensday", "wednesday"), ("thurs", "thursday"), ("saturady", "saturday"),
    ("somethin", "something"), ("anythin", "anything"), ("ingrediants", "ingredients"),
    ("ingredents", "ingredients"), ("u", "you"), ("ur", "your"), ("pls", "please"),
    ("plz", "please"), ("wats", "whats"), ("hw", "how"), ("filet", "fillet"),
    ("filets", "fillets"), ("tonite", "tonight"), ("usin", "using"), ("n", "and"),
    ("w", "with"), ("abt", "about"), ("smth", "something"), ("wk", "week"),
    ("wks", "weeks"), ("hav", "have"),
    // Shorthand for several words, and for times of day.
    ("rn", "right now"), ("atm", "right now"), ("tn", "tonight"), ("2nite", "tonight"),
    ("2nyt", "tonight"), ("2day", "today"), ("2moro", "tomorrow"),
    ("r", "are"), ("cuz", "because"), ("coz", "because"), ("bc", "because"),
    ("thx", "thanks"), ("ty", "thanks"), ("em", "them"), ("dat", "that"), ("da", "the"),
];

/// The word as the rules know it: the shorthand table's spelling, else
/// the one known word it is a typo of ([`super::vocab::correct`]), else
/// the word itself.
fn respell(word: &str) -> String {
    RESPELL
        .iter()
        .find(|(typo, _)| *typo == word)
        .map(|(_, right)| right.to_string())
        .or_else(|| super::vocab::correct(word))
        .unwrap_or_else(|| word.to_string())
}

/// "500g" → "500", "g"; "2kg" → "2", "kg".
fn split_number_units(tokens: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(tokens.len());
    for t in tokens {
        let digits: String = t
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let rest = &t[digits.len()..];
        let ordinal_suffix = matches!(rest, "st" | "nd" | "rd" | "th");
        if !digits.is_empty()
            && !rest.is_empty()
            && !ordinal_suffix
            && rest.chars().all(|c| c.is_ascii_alphabetic())
        {
            out.push(digits);
            out.push(rest.to_string());
        } else {
            out.push(t);
        }
    }
    out
}

/// The index where `phrase` (space-separated words) starts in `words`.
pub fn find(words: &[String], phrase: &str) -> Option<usize> {
    let p: Vec<&str> = phrase.split_whitespace().collect();
    if p.is_empty() || p.len() > words.len() {
        return None;
    }
    (0..=words.len() - p.len()).find(|&i| p.iter().zip(&words[i..]).all(|(a, b)| a == b))
}

/// The first of `phrases` found in `words`, with its start index.
pub fn find_any<'p>(words: &[String], phrases: &[&'p str]) -> Option<(usize, &'p str)> {
    phrases
        .iter()
        .filter_map(|p| find(words, p).map(|i| (i, *p)))
        .min_by_key(|(i, p)| (*i, usize::MAX - p.len()))
}

/// A light stemmer: plural → singular, weekday → three-letter abbreviation.
pub fn stem(w: &str) -> String {
    match weekday_abbrev(w) {
        Some(day) => day.to_string(),
        None => crate::context::taxonomy::singular(w),
    }
}

/// Stems of every word of `text`.
pub fn stems(text: &str) -> Vec<String> {
    Words::new(text).words.iter().map(|w| stem(w)).collect()
}

/// The same word, or one typo away in a word of five letters or more
/// ("filet" / "fillet"). Two known words one letter apart ("green" /
/// "greek") are two words, not a typo.
pub fn near(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    use super::vocab::is_known_word;
    if a.len() == b.len() && is_known_word(a) && is_known_word(b) {
        return false;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().min(b.len()) < 5 || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    // One insertion, deletion or substitution.
    let (mut i, mut j, mut edits) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            i += 1;
            j += 1;
            continue;
        }
        edits += 1;
        match a.len().cmp(&b.len()) {
            std::cmp::Ordering::Greater => i += 1,
            std::cmp::Ordering::Less => j += 1,
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    edits + (a.len() - i) + (b.len() - j) <= 1
}

/// Words that never identify an entity on their own.
#[rustfmt::skip]
const FILLER: &[&str] = &[
    "a", "an", "the", "to", "of", "for", "in", "on", "at", "with", "and", "or", "my", "our",
    "your", "some", "any", "it", "its", "this", "that", "these", "those", "them", "one", "ones",
    "i", "we", "you", "me", "us", "lets", "let", "do", "does", "did", "is", "are", "be", "was",
    "were", "have", "has", "had", "can", "could", "would", "should", "will", "please", "just",
    "really", "maybe", "like", "want", "make", "get", "go", "recipe", "dish", "meal", "week",
    "today", "tonight", "again", "too", "also", "so", "then", "now", "ok", "okay", "yeah", "yes",
    "no", "not", "dont", "what", "whats", "which", "how", "about", "from", "up", "out", "off",
    "more", "less", "by", "as", "if", "but", "than", "there", "here", "all", "both", "im", "ill",
    "well", "very", "bit", "thing", "stuff", "food", "something", "else", "instead", "new",
    "other", "another",
];

/// True for words that never identify an entity on their own.
pub fn is_filler(w: &str) -> bool {
    FILLER.contains(&w) || w.chars().count() < 2
}

/// The abbreviation a weekday word has in meal-plan labels ("Sun Jan 18").
pub fn weekday_abbrev(w: &str) -> Option<&'static str> {
    Some(match w {
        "sunday" | "sundays" | "sun" => "sun",
        "monday" | "mondays" | "mon" => "mon",
        "tuesday" | "tuesdays" | "tue" | "tues" => "tue",
        "wednesday" | "wednesdays" | "wed" | "weds" => "wed",
        "thursday" | "thursdays" | "thu" | "thur" | "thurs" => "thu",
        "friday" | "fridays" | "fri" => "fri",
        "saturday" | "saturdays" | "sat" => "sat",
        _ => return None,
    })
}

/// The weekday a word names: 0 = Monday … 6 = Sunday.
pub fn weekday_index(w: &str) -> Option<u8> {
    Some(match weekday_abbrev(w)? {
        "mon" => 0,
        "tue" => 1,
        "wed" => 2,
        "thu" => 3,
        "fri" => 4,
        "sat" => 5,
        _ => 6,
    })
}

/// The weekday's full name from its index (0 = Monday).
pub fn weekday_name(i: u8) -> &'static str {
    [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ][usize::from(i % 7)]
}

/// The value of a number word or numeral: "12", "twelve", "1.5", "dozen".
pub fn number(w: &str) -> Option<f64> {
    if let Ok(n) = w.parse::<f64>()
        && n.is_finite()
        && (0.0..1_000_000.0).contains(&n)
    {
        return Some(n);
    }
    const WORDS: &[&str] = &[
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    if let Some(i) = WORDS.iter().position(|x| *x == w) {
        return Some(i as f64);
    }
    match w {
        "dozen" => Some(12.0),
        "half" => Some(0.5),
        "couple" | "pair" => Some(2.0),
        "few" => Some(3.0),
        _ => None,
    }
}

/// An ordinal word as a list index from the front (0-based), or `None`.
pub fn ordinal(w: &str) -> Option<usize> {
    let numbered = ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|s| w.strip_suffix(s))
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| (1..=20).contains(n));
    if let Some(n) = numbered {
        return Some(n - 1);
    }
    Some(match w {
        "first" => 0,
        "second" => 1,
        "third" => 2,
        "fourth" => 3,
        "fifth" => 4,
        "sixth" => 5,
        "seventh" => 6,
        "eighth" => 7,
        "ninth" => 8,
        _ => return None,
    })
}

/// Title case of a phrase: "thai basil chicken" → "Thai Basil Chicken".
pub fn title_case(s: &str) -> String {
    s.split_whitespace()
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) if !matches!(w, "and" | "with" | "of" | "in") => {
                    f.to_uppercase().chain(c).collect::<String>()
                }
                Some(f) => std::iter::once(f).chain(c).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `s` with its first letter upper case ("thursday" → "Thursday").
pub fn capitalise_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `s` with its first letter lowercase ("Add to the list" → "add to the
/// list"), for a sentence that goes on after something else.
pub fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_lowercase().chain(c).collect())
        .unwrap_or_default()
}

/// "a, b and c" (or "a or b" with `last = "or"`).
pub fn join_list(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., tail] => format!("{} {last} {tail}", init.join(", ")),
    }
}

/// A whole number without ".0"; otherwise up to two decimals.
pub fn fmt_number(n: f64) -> String {
    if (n - n.round()).abs() < 1e-9 {
        format!("{}", n.round() as i64)
    } else {
        let s = format!("{n:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A count with its noun: "1 recipe", "4 recipes".
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {}", plural_noun(noun))
    }
}

/// The plural of a simple noun.
pub fn plural_noun(noun: &str) -> String {
    // Food that is not counted keeps its form: "no spinach", "no rice".
    const UNCOUNTED: &[&str] = &[
        "spinach",
        "rice",
        "milk",
        "flour",
        "cheese",
        "butter",
        "sugar",
        "salt",
        "oil",
        "bread",
        "yogurt",
        "paneer",
        "garlic",
        "ginger",
        "broccoli",
        "fish",
        "cod",
        "salmon",
        "chicken",
        "beef",
        "pork",
        "lamb",
        "tofu",
        "pasta",
        "honey",
        "cream",
        "feta",
        "kale",
        "lettuce",
        "coriander",
        "basil",
        "parsley",
        "mince",
        "water",
        "juice",
        "tea",
        "coffee",
        "quinoa",
        "couscous",
        "cumin",
        "turmeric",
        "sauce",
        "paste",
        "stock",
        "vinegar",
        "mustard",
        "jam",
        "ketchup",
        "mayo",
        "chocolate",
        "cocoa",
        "yeast",
        "mint",
        "thyme",
        "dill",
        "rosemary",
        "celery",
        "cabbage",
        "asparagus",
        "corn",
        "sweetcorn",
        "halloumi",
        "mozzarella",
        "parmesan",
        "cheddar",
        "bacon",
        "ham",
        "tuna",
        "shrimp",
        "seafood",
        "meat",
        "lemongrass",
        "masala",
        "powder",
        "seasoning",
        "granola",
        "cereal",
        "porridge",
    ];
    let last = noun.rsplit(' ').next().unwrap_or(noun);
    if UNCOUNTED.contains(&last) {
        return noun.to_string();
    }
    if noun.ends_with('s') {
        noun.to_string()
    } else if let Some(stem) = noun.strip_suffix("loaf") {
        format!("{stem}loaves")
    } else if ["chili", "box", "ch", "sh", "to"]
        .iter()
        .any(|e| noun.ends_with(e))
    {
        format!("{noun}es")
    } else if let Some(stem) = noun.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'o', 'u'])
    {
        format!("{stem}ies")
    } else {
        format!("{noun}s")
    }
}

/// Picks one of `options` by a deterministic index (turn number plus salt),
/// so replies vary across a conversation but never between runs.
pub fn pick<'a>(options: &[&'a str], turn: u32, salt: u32) -> &'a str {
    if options.is_empty() {
        return "";
    }
    options[(turn.wrapping_add(salt) as usize) % options.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_is_near_its_word_and_two_known_words_are_not() {
        assert!(near("filet", "fillet"));
        assert!(near("currt", "curry"));
        assert!(!near("green", "greek"), "two words, not a typo");
        assert!(!near("limes", "lines"));
    }

    #[test]
    fn words_drop_apostrophes_and_split_segments() {
        let w = Words::new("Let's NOT do the French Toast, or wings!");
        assert_eq!(w.words[..3], ["lets", "not", "do"]);
        assert_eq!(w.segments.len(), 2);
        assert_eq!(w.segments[1], ["wings"]);
        let w = Words::new("no french toast, and I don’t feel like wings");
        assert!(w.has_any(&["dont feel like"]));
        assert_eq!(w.segments.len(), 2);
    }

    #[test]
    fn numbers_with_units_split_and_decimals_survive() {
        let w = Words::new("add 500g flour and 1.5 kg rice");
        assert!(w.has_any(&["500 g flour", "1.5 kg rice"]));
        assert_eq!(number("twelve"), Some(12.0));
        assert_eq!(number("1e400"), None);
    }

    #[test]
    fn stems_fold_plurals_and_weekdays() {
        assert_eq!(stem("wings"), "wing");
        assert_eq!(stem("tomatoes"), "tomato");
        assert_eq!(stem("berries"), "berry");
        assert_eq!(stem("Sunday".to_lowercase().as_str()), "sun");
        assert_eq!(stem("hummus"), "hummus");
        assert_eq!(stem("cod"), "cod");
    }

    #[test]
    fn any_input_is_safe() {
        for s in ["", "   ", "🍕🍕", "我想做饭", "ß", "'''", "1.", ".5"] {
            let _ = Words::new(s);
        }
        let huge = "word ".repeat(300_000);
        assert!(Words::new(&huge).words.len() <= MAX_CHARS);
        assert_eq!(clip("héllo", 2), "hé");
    }

    #[test]
    fn lists_plurals_and_numbers_read_naturally() {
        let items = vec!["A".to_string(), "B".to_string(), "C".to_string()];
        assert_eq!(join_list(&items, "or"), "A, B or C");
        assert_eq!(plural(4, "recipe"), "4 recipes");
        assert_eq!(plural_noun("potato"), "potatoes");
        assert_eq!(fmt_number(1.50), "1.5");
        assert_eq!(fmt_number(12.0), "12");
        assert_eq!(title_case("thai basil chicken"), "Thai Basil Chicken");
    }
}
