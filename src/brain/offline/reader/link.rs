//! Stage 2, link: every span of the message that names something in the
//! closed world — a saved recipe, a row of the stock, the shopping list or
//! the tasks, a food of the catalog, a day, a meal, an amount, a domain,
//! or the dialogue ("it", "the 2nd one", "the rest") — with a score. A span
//! may link to several things ("paneer": the stock's row and a recipe); the
//! grammar takes the one its frame needs. A span that links to nothing is
//! not a name.

use crate::context::taxonomy::singular;

use super::lexicon::{Domain, Lexicon, Phrase};
use super::normalize::Normalized;

/// What a message points back at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pointer {
    /// "it", "that one", "them".
    It,
    /// "the 2nd one" (1-based).
    Nth(usize),
    /// "the last one".
    Last,
}

/// One thing a span can name.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// Saved recipes whose name holds the span (one when it is clear).
    Recipe(Vec<String>),
    /// Rows of the stock.
    Stocked(Vec<String>),
    /// Rows of the shopping list.
    Listed(Vec<String>),
    /// Tasks.
    Task(Vec<String>),
    /// A food the kitchen may not hold (the catalog's words).
    Food(String),
    /// A day's key: "today", "tomorrow", "friday", "next_friday", "weekend",
    /// "of_month_18" (the 18th), "dated_sunday_18" (Sunday the 18th).
    Day(String),
    Meal(String),
    Amount(f64, Option<String>),
    /// An amount said after its food ("chickpeas 2 cans").
    AmountAfter(f64, Option<String>),
    Domain(Domain),
    Pointer(Pointer),
    Rest,
    Bulk,
    /// "except", "apart from".
    Except,
    Negation,
    Hedge,
    /// "we have none": why something is added.
    Reason,
}

impl Target {
    /// True for a target that names a recipe, a row or a food.
    pub fn names(&self) -> bool {
        matches!(
            self,
            Target::Recipe(_)
                | Target::Stocked(_)
                | Target::Listed(_)
                | Target::Task(_)
                | Target::Food(_)
        )
    }
}

/// A span and what it can name.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub start: usize,
    pub end: usize,
    /// What the span can name, surest first.
    pub targets: Vec<Target>,
    /// For each target, how much of its name the span says (1.0 for a
    /// whole name).
    pub scores: Vec<f64>,
}

/// The names of the kitchen as the reader links to them.
#[derive(Debug, Clone, Default)]
pub struct Names {
    pub recipes: Vec<String>,
    pub inventory: Vec<String>,
    pub shopping: Vec<String>,
    pub tasks: Vec<String>,
    /// Recipes drafted in the talk and not saved yet (also in `recipes`).
    pub drafts: Vec<String>,
}

impl Names {
    /// Every word of every name (singular), for spelling correction (the
    /// catalog's foods are its other target).
    pub fn words(&self) -> std::collections::HashSet<String> {
        [&self.recipes, &self.inventory, &self.shopping, &self.tasks]
            .into_iter()
            .flatten()
            .flat_map(|n| name_words(n))
            .collect()
    }
}

/// A name's words, lowercase and singular.
pub fn name_words(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '-'))
        .filter(|w| !w.is_empty())
        .map(|w| singular(&w.replace('\'', "")))
        .collect()
}

/// True when the phrase starts at `i` of `words`.
pub fn starts_with(words: &[&str], i: usize, p: &Phrase) -> bool {
    p.len() <= words.len().saturating_sub(i) && p.iter().zip(&words[i..]).all(|(a, b)| a == b)
}

/// The longest of `phrases` at `i`.
pub fn phrase_at<'p>(words: &[&str], i: usize, phrases: &'p [Phrase]) -> Option<&'p Phrase> {
    phrases.iter().find(|p| starts_with(words, i, p))
}

/// Links every span of the message, left to right, longest first.
pub fn link(n: &Normalized, lex: &Lexicon, names: &Names) -> Vec<Link> {
    let words = n.words();
    let index = NameIndex::of(names, &words);
    // A name never runs over a comma or a full stop ("got thai basil,
    // chinese broccoli" names two rows, not one food): each word's clause
    // ends where the next begins.
    let mut clause_end = vec![words.len(); words.len()];
    for k in (0..words.len().saturating_sub(1)).rev() {
        clause_end[k] = if n.tokens[k + 1].clause != n.tokens[k].clause {
            k + 1
        } else {
            clause_end[k + 1]
        };
    }
    let mut out: Vec<Link> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match link_at(&words[..clause_end[i]], i, lex, &index, out.last()) {
            Some(l) => {
                i = l.end;
                out.push(l);
            }
            None => i += 1,
        }
    }
    kinds_named(&words, &n.tokens, lex, &mut out);
    out
}

/// "protein powder", "chilli sauce": a word no link took, right before a
/// food that names a kind (`food_heads`) in the same clause, is part of
/// that food's name — a food the catalog does not know, never a stock row
/// of the head's name alone. Not a small word, a verb's, a number, or a
/// word that turns or weighs the request.
fn kinds_named(
    words: &[&str],
    tokens: &[super::normalize::Token],
    lex: &Lexicon,
    out: &mut [Link],
) {
    let taken = |k: usize, out: &[Link]| out.iter().any(|l| l.start <= k && k < l.end);
    let verb = |w: &str| {
        lex.frames
            .iter()
            .any(|f| f.verbs.iter().any(|v| v.iter().any(|x| x == w)))
    };
    for at in 0..out.len() {
        let l = &out[at];
        let Some(k) = l.start.checked_sub(1) else {
            continue;
        };
        let head = words[l.end - 1];
        let food = l
            .targets
            .iter()
            .any(|t| matches!(t, Target::Food(_) | Target::Stocked(_) | Target::Listed(_)));
        let w = words[k];
        if !food
            || l.end - l.start != 1
            || !lex.food_heads.contains(head)
            || taken(k, out)
            || tokens[k].clause != tokens[l.start].clause
            || w.len() < 3
            || !w.chars().all(|c| c.is_ascii_alphabetic())
            || lex.glue.contains(w)
            || lex.openers.contains(w)
            || lex.negation.contains(w)
            || lex.hedge.contains(w)
            || lex.modifiers.contains(w)
            || verb(w)
        {
            continue;
        }
        let name = format!("{w} {head}");
        out[at] = Link {
            start: k,
            end: l.end,
            targets: vec![Target::Food(name)],
            scores: vec![1.0],
        };
    }
}

fn one(start: usize, end: usize, t: Target) -> Option<Link> {
    Some(Link {
        start,
        end,
        targets: vec![t],
        scores: vec![1.0],
    })
}

fn link_at(
    words: &[&str],
    i: usize,
    lex: &Lexicon,
    names: &NameIndex,
    prev: Option<&Link>,
) -> Option<Link> {
    // "3 march" is a day before "3" is an amount.
    if let Some((m, d, len)) = month_day_at(words, i) {
        return one(i, i + len, Target::Day(format!("in_month_{m}_{d}")));
    }
    if let Some(l) = amount_at(words, i, lex, names, prev) {
        return Some(l);
    }
    if let Some(l) = day_at(words, i, lex) {
        return Some(l);
    }
    let w = words[i];
    if let Some(m) = lex.meals.get(w) {
        // "black tea" is a food; "tea" after a day is a meal.
        let food_next = words.get(i + 1).is_some_and(|n| is_food_word(n));
        if !food_next {
            return one(i, i + 1, Target::Meal(m.clone()));
        }
    }
    if let Some(p) = phrase_at(words, i, &lex.rest) {
        return one(i, i + p.len(), Target::Rest);
    }
    if let Some(p) = phrase_at(words, i, &lex.except) {
        return one(i, i + p.len(), Target::Except);
    }
    if let Some(l) = pointer_at(words, i, lex) {
        return Some(l);
    }
    // ("we dont have to buy eggs": "have to" is a need, not a lack.)
    if let Some(p) = phrase_at(words, i, &lex.reason)
        && !(p.last().is_some_and(|w| w == "have") && words.get(i + p.len()) == Some(&"to"))
    {
        return one(i, i + p.len(), Target::Reason);
    }
    if let Some(l) = inverted_at(words, i, names) {
        return Some(l);
    }
    let domain = lex.domains.iter().find(|(p, _)| starts_with(words, i, p));
    if let Some(mut l) = names_at(words, i, lex, names) {
        // "the fridge" is the stock's word though a task's title holds it.
        if let Some((p, d)) = domain.filter(|(p, _)| p.len() >= l.end - l.start)
            && l.scores.iter().all(|s| *s < 1.0)
        {
            l.end = i + p.len();
            l.targets.insert(0, Target::Domain(*d));
            l.scores.insert(0, 1.0);
        }
        return Some(l);
    }
    if let Some((p, d)) = domain {
        return one(i, i + p.len(), Target::Domain(*d));
    }
    if lex.bulk.contains(w) {
        return one(i, i + 1, Target::Bulk);
    }
    if lex.negation.contains(w) {
        return one(i, i + 1, Target::Negation);
    }
    if lex.hedge.contains(w) {
        return one(i, i + 1, Target::Hedge);
    }
    let mut l = food_at(words, i, lex)?;
    // "any fish in the house?": a family names the stock's and the list's
    // rows of that family (the cod fillets), after the food itself.
    let said = words[l.start..l.end].join(" ");
    if crate::context::taxonomy::is_family(&said) {
        for (rows, make) in &names.tables {
            let matched: Vec<String> = rows
                .iter()
                .filter(|(r, _)| crate::context::taxonomy::ingredient_matches(r, &said))
                .map(|(r, _)| r.to_string())
                .collect();
            let table = make(Vec::new());
            if !matched.is_empty() && matches!(table, Target::Stocked(_) | Target::Listed(_)) {
                l.targets.push(make(matched));
                l.scores.push(0.9);
            }
        }
    }
    Some(l)
}

fn is_food_word(w: &str) -> bool {
    crate::brain::offline::vocab::is_food_word(w)
}

/// "the milk of coconut", "powder of chili": a food named the other way
/// round, as another language says it, is the food the two words make in
/// English order when the kitchen holds that row or the catalog knows it.
fn inverted_at(words: &[&str], i: usize, names: &NameIndex) -> Option<Link> {
    let (head, of, kind) = (words[i], *words.get(i + 1)?, *words.get(i + 2)?);
    if of != "of" || !is_food_word(kind) || head.len() < 3 {
        return None;
    }
    let said = format!("{kind} {head}");
    let wanted = name_words(&said);
    for (rows, make) in &names.tables {
        let table = make(Vec::new());
        if !matches!(table, Target::Stocked(_) | Target::Listed(_)) {
            continue;
        }
        let found: Vec<String> = rows
            .iter()
            .filter(|(_, nw)| *nw == wanted)
            .map(|(r, _)| r.to_string())
            .collect();
        if !found.is_empty() {
            return one(i, i + 3, make(found));
        }
    }
    crate::brain::offline::vocab::is_food_phrase(&said)
        .then(|| one(i, i + 3, Target::Food(said)))
        .flatten()
}

/// A number (digits or words) with its unit: "200 g", "a dozen", "2 tins
/// of"; "to"/"for" as 2/4 only where an amount is expected.
fn amount_at(
    words: &[&str],
    i: usize,
    lex: &Lexicon,
    names: &NameIndex,
    prev: Option<&Link>,
) -> Option<Link> {
    let (qty, len, spelled) = if let Some(q) = digits(words[i]) {
        (q, 1, false)
    } else {
        let (p, q) = lex.numbers.iter().find(|(p, _)| starts_with(words, i, p))?;
        (*q, p.len(), true)
    };
    let mut end = i + len;
    // "2 more cans of", "3 extra tins", "one more pepper", "a whole can of".
    let between = words
        .get(end)
        .is_some_and(|w| matches!(*w, "more" | "extra" | "x" | "whole"))
        && words.get(end + 1).is_some_and(|u| {
            lex.units.contains_key(*u)
                || is_food_word(u)
                || names_at(words, end + 1, lex, names).is_some()
        });
    if between {
        end += 1;
    }
    let mut unit = words.get(end).and_then(|u| lex.units.get(*u)).cloned();
    // "eggs, 6 pack", "a 4 pack of limes": a pack said by its count is
    // that many pieces.
    if words.get(end) == Some(&"pack") && qty >= 3.0 && qty.fract() == 0.0 {
        unit = Some("pcs".to_string());
    }
    if unit.is_some() {
        end += 1;
    }
    // "2 pints", "1 lb", "8 oz": the kitchen keeps metric.
    let (qty, unit) = match unit.as_deref() {
        Some("pint") => ((qty * 568.0).round(), Some("ml".to_string())),
        Some("lb") => ((qty * 454.0).round(), Some("g".to_string())),
        Some("oz") => ((qty * 28.0).round(), Some("g".to_string())),
        _ => (qty, unit),
    };
    let food_next = words
        .get(end)
        .is_some_and(|n| is_food_word(n) || names_at(words, end, lex, names).is_some())
        || (words.get(end) == Some(&"of") && unit.is_some());
    // "four of them", and "a dozen" or "two" closing a request ("eggs on
    // the list, a dozen"): the amount of the food said before.
    let of_them = words.get(end) == Some(&"of")
        && words
            .get(end + 1)
            .is_some_and(|w| matches!(*w, "them" | "those" | "these" | "em"));
    let closing = words.get(end).is_none_or(|w| {
        matches!(
            *w,
            "and"
                | "plus"
                | "each"
                | "please"
                | "pls"
                | "thanks"
                | "thx"
                | "then"
                | "because"
                | "cause"
                | "cos"
                | "coz"
                | "since"
        )
    });
    let before = i.checked_sub(1).map(|p| words[p]);
    let counted = len > 1 || qty >= 2.0 || matches!(before, Some("only" | "just"));
    let told = of_them
        || closing
            && counted
            && before.is_some_and(|b| {
                !matches!(
                    b,
                    "the"
                        | "that"
                        | "this"
                        | "those"
                        | "these"
                        | "which"
                        | "last"
                        | "first"
                        | "next"
                        | "other"
                        | "another"
                        | "all"
                        | "every"
                        | "of"
                )
            });
    // "half a bag of rice": half of that measure.
    if words[i] == "half"
        && matches!(words.get(i + 1), Some(&("a" | "an")))
        && let Some(u) = words.get(i + 2).and_then(|u| lex.units.get(*u))
    {
        let end = if words.get(i + 3) == Some(&"of") {
            i + 4
        } else {
            i + 3
        };
        return one(i, end, Target::Amount(0.5, Some(u.clone())));
    }
    // "use half of it", "half the paneer": a share of the row, not an
    // amount in its unit.
    if spelled && unit.is_none() && qty < 1.0 && i + len < words.len() {
        match words[i + len] {
            "of" => return one(i, i + len + 1, Target::Amount(qty, Some("share".into()))),
            "the" | "my" | "our" => {
                return one(i, i + len, Target::Amount(qty, Some("share".into())));
            }
            _ => {}
        }
    }
    // "two of the cod fillets": that many of a row named.
    let of_a_row = words.get(end) == Some(&"of")
        && words
            .get(end + 1)
            .is_some_and(|w| matches!(*w, "the" | "my" | "our" | "those" | "these"))
        && end + 2 < words.len()
        && names_at(words, end + 2, lex, names).is_some();
    if spelled && unit.is_none() && !food_next && !told && !of_a_row {
        return None;
    }
    let w = words[i];
    if matches!(w, "to" | "too" | "for") {
        // Only after a verb, "and" or the start: "add for lemons", "and to
        // tins of chickpeas"; never "add eggs to the list".
        // "used too cans of", "take to fillets out": after the last word
        // of a writing frame's verb, too.
        let verb_before = i > 0
            && lex.frames.iter().filter(|f| f.writes).any(|f| {
                f.verbs
                    .iter()
                    .any(|v| v.last().is_some_and(|last| last == words[i - 1]))
            });
        let after = i == 0
            || of_them
            || matches!(words[i - 1], "and" | "plus")
            || verb_before
            || prev.is_some_and(|l| l.end == i && matches!(l.targets[0], Target::Stocked(_)));
        if !after || !(unit.is_some() || food_next || of_them) {
            return None;
        }
    }
    if of_them && unit.is_none() {
        return one(i, end + 2, Target::AmountAfter(qty, None));
    }
    if spelled && told && matches!(before, Some("only" | "just")) && closing {
        return one(i - 1, end, Target::AmountAfter(qty, unit));
    }
    if words.get(end) == Some(&"of") {
        end += 1;
    }
    // After a food and before none: the amount of what came before.
    let after_food = prev.is_some_and(|l| {
        l.end == i
            && l.targets
                .iter()
                .any(|t| matches!(t, Target::Stocked(_) | Target::Listed(_) | Target::Food(_)))
    });
    // "chickpeas to the list 2 cans and tahini": an amount before "and"
    // or the end, with no food of its own, is the one before it's.
    let ends = words
        .get(end)
        .is_none_or(|w| matches!(*w, "and" | "plus" | "too" | "each"));
    let after_and = i > 0 && matches!(words[i - 1], "and" | "plus");
    if !food_next && (after_food || ends && i > 0 && !after_and) {
        return one(i, end, Target::AmountAfter(qty, unit));
    }
    one(i, end, Target::Amount(qty, unit))
}

fn digits(w: &str) -> Option<f64> {
    if let Some((a, b)) = w.split_once('/') {
        let (a, b): (f64, f64) = (a.parse().ok()?, b.parse().ok()?);
        return (b != 0.0).then(|| a / b);
    }
    w.parse::<f64>().ok().filter(|q| q.is_finite() && *q >= 0.0)
}

fn day_at(words: &[&str], i: usize, lex: &Lexicon) -> Option<Link> {
    let w = words[i];
    if matches!(w, "weekend" | "wknd") {
        return one(i, i + 1, Target::Day("weekend".into()));
    }
    // "jan 20", "20th of feb", "2026-01-20", "end of feb": a day of a
    // named month.
    if let Some((m, d, len)) = month_day_at(words, i) {
        return one(i, i + len, Target::Day(format!("in_month_{m}_{d}")));
    }
    // "the 18th": that day of the month.
    if let Some(d) = of_month(w) {
        return one(i, i + 1, Target::Day(format!("of_month_{d}")));
    }
    // "the day after tomorrow", "in 3 days": that many days on.
    if w == "day"
        && words.get(i + 1) == Some(&"after")
        && matches!(
            words.get(i + 2),
            Some(&("tomorrow" | "tmrw" | "tomoz" | "tmr"))
        )
    {
        return one(i, i + 3, Target::Day("in_days_2".into()));
    }
    // "in 3 days", "in 2 weeks", "in a week", "in a fortnight".
    if w == "in" {
        let count = |k: usize| {
            words.get(k).and_then(|n| match *n {
                "a" | "one" => Some(1.0),
                "two" => Some(2.0),
                "three" => Some(3.0),
                n => digits(n),
            })
        };
        let days = match (count(i + 1), words.get(i + 2)) {
            (Some(n), Some(&("days" | "day"))) => Some((n, 3)),
            (Some(n), Some(&("weeks" | "week" | "wks" | "wk"))) => Some((n * 7.0, 3)),
            (Some(1.0), Some(&"fortnight")) => Some((14.0, 3)),
            _ => None,
        };
        if let Some((n, len)) = days
            && (1.0..=28.0).contains(&n)
            && n.fract() == 0.0
        {
            return one(i, i + len, Target::Day(format!("in_days_{n}")));
        }
    }
    // "the night before sunday": the day before it.
    if matches!(w, "night" | "day" | "evening")
        && words.get(i + 1) == Some(&"before")
        && i + 2 < words.len()
        && let Some(l) = day_at(words, i + 2, lex)
        && let Some(Target::Day(d)) = l.targets.first()
        && let Some(k) = crate::brain::offline::text::weekday_index(d)
    {
        let before = crate::brain::offline::text::weekday_name((k + 6) % 7);
        return one(i, l.end, Target::Day(before.to_lowercase()));
    }
    // "tuesday after saturday": the first such weekday after the other.
    if let Some(a) = crate::brain::offline::text::weekday_index(w)
        && words.get(i + 1) == Some(&"after")
        && let Some(b) = words
            .get(i + 2)
            .and_then(|x| crate::brain::offline::text::weekday_index(x))
    {
        let ahead = match (7 + a - b) % 7 {
            0 => 7,
            n => n,
        };
        let anchor = crate::brain::offline::text::weekday_name(b).to_lowercase();
        return one(i, i + 3, Target::Day(format!("after_{anchor}_{ahead}")));
    }
    let next = w == "next" && i + 1 < words.len();
    let at = if next { i + 1 } else { i };
    let (p, d) = lex.days.iter().find(|(p, _)| starts_with(words, at, p))?;
    let is_weekday = !matches!(d.as_str(), "today" | "tomorrow");
    // "sun" and "sat" are words too: a day only beside a day word or a
    // meal, or on their own.
    let key = if next && is_weekday {
        format!("next_{d}")
    } else if next {
        return None;
    } else {
        d.clone()
    };
    // "mon tue wed next week": weekdays said in a run that ends on "next
    // week" are each next week's; the last of them takes the words.
    let mut end = at + p.len();
    if is_weekday && !next {
        let weekday_at = |k: usize| {
            lex.days.iter().any(|(q, e)| {
                starts_with(words, k, q) && !matches!(e.as_str(), "today" | "tomorrow")
            })
        };
        let mut j = end;
        while j < words.len() && (weekday_at(j) || matches!(words[j], "and" | "n" | "&" | "or")) {
            j += 1;
        }
        if words.get(j) == Some(&"next") && words.get(j + 1) == Some(&"week") {
            if j == end {
                end = j + 2;
            }
            return one(i, end, Target::Day(format!("next_{d}")));
        }
    }
    // "sunday 18th", "wednesday the 21st": the date says which one.
    let the = usize::from(words.get(end) == Some(&"the"));
    if is_weekday
        && !next
        && let Some(d) = words.get(end + the).and_then(|w| of_month(w))
    {
        return one(i, end + the + 1, Target::Day(format!("dated_{key}_{d}")));
    }
    one(i, end, Target::Day(key))
}

/// The month a word names ("jan", "january", "sept"), 1-based.
fn month_of(w: &str) -> Option<u8> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    // "may" and "march" are words too: only whole, and never alone.
    MONTHS
        .iter()
        .position(|m| w == *m || w.len() >= 3 && m.starts_with(w) && !matches!(w, "mar" | "jun"))
        .and_then(|k| u8::try_from(k + 1).ok())
}

/// A day of a named month at `i`: its month, its day (31 for the month's
/// end) and how many words say it. "jan 20", "jan 20th", "20 jan", "20th
/// of january", "end of feb", "2026-01-20".
fn month_day_at(words: &[&str], i: usize) -> Option<(u8, u8, usize)> {
    let w = words[i];
    let day =
        |x: &str| of_month(x).or_else(|| x.parse::<u8>().ok().filter(|d| (1..=31).contains(d)));
    // The year, month and day written with dashes, kept whole.
    let iso: Vec<&str> = w.split('-').collect();
    if let [y, m, d] = iso.as_slice()
        && y.len() == 4
        && y.chars().all(|c| c.is_ascii_digit())
    {
        let m = m.parse::<u8>().ok().filter(|m| (1..=12).contains(m))?;
        let d = d.parse::<u8>().ok().filter(|d| (1..=31).contains(d))?;
        return Some((m, d, 1));
    }
    let next = |k: usize| words.get(i + k).copied();
    if matches!(w, "end" | "last") && next(1) == Some("of") {
        let m = next(2).and_then(month_of)?;
        return Some((m, 31, 3));
    }
    // A month word may start a food's name ("may" no, but "jan" yes): it
    // names a month only beside its day.
    if let Some(m) = month_of(w)
        && let Some(d) = next(1).and_then(day)
    {
        return Some((m, d, 2));
    }
    let d = day(w)?;
    match (next(1), next(2)) {
        (Some("of"), Some(m)) => month_of(m).map(|m| (m, d, 3)),
        (Some(m), _) => month_of(m).map(|m| (m, d, 2)),
        _ => None,
    }
}

/// The day of the month an ordinal names ("18th", "1st", "22nd").
fn of_month(w: &str) -> Option<u8> {
    let digits = w
        .strip_suffix("th")
        .or_else(|| w.strip_suffix("st"))
        .or_else(|| w.strip_suffix("nd"))
        .or_else(|| w.strip_suffix("rd"))?;
    digits.parse::<u8>().ok().filter(|d| (1..=31).contains(d))
}

fn pointer_at(words: &[&str], i: usize, lex: &Lexicon) -> Option<Link> {
    let w = words[i];
    // "the 2nd one", and "that first one": a determiner before the place.
    let the = usize::from(matches!(w, "the" | "that" | "this"));
    let at = i + the;
    let head = *words.get(at)?;
    let nth = match head {
        "first" | "1st" => Some(Pointer::Nth(1)),
        "second" | "2nd" => Some(Pointer::Nth(2)),
        "third" | "3rd" => Some(Pointer::Nth(3)),
        "fourth" | "4th" => Some(Pointer::Nth(4)),
        "fifth" | "5th" => Some(Pointer::Nth(5)),
        "last" => Some(Pointer::Last),
        _ => None,
    };
    if let Some(p) = nth {
        let mut end = at + 1;
        if words
            .get(end)
            .is_some_and(|n| matches!(*n, "one" | "ones" | "recipe" | "option"))
        {
            end += 1;
        } else if the == 0 {
            return None;
        }
        return one(i, end, Target::Pointer(p));
    }
    let p = phrase_at(words, i, &lex.pointer)?;
    one(i, i + p.len(), Target::Pointer(Pointer::It))
}

/// A target of one table from the rows a span names.
type MakeTarget = fn(Vec<String>) -> Target;

/// A table's rows, each with its name's words.
type NamedRows<'n> = Vec<(&'n str, Vec<String>)>;

/// Each table's rows with their names' words, split once per message.
struct NameIndex<'n> {
    tables: [(NamedRows<'n>, MakeTarget); 4],
    /// Each word of the message, singular, made once.
    singular: Vec<String>,
}

impl<'n> NameIndex<'n> {
    fn of(names: &'n Names, words: &[&str]) -> Self {
        let rows = |v: &'n [String]| v.iter().map(|r| (r.as_str(), name_words(r))).collect();
        Self {
            singular: words.iter().map(|w| singular(w)).collect(),
            tables: [
                (rows(&names.recipes), Target::Recipe),
                (rows(&names.inventory), Target::Stocked),
                (rows(&names.shopping), Target::Listed),
                (rows(&names.tasks), Target::Task),
            ],
        }
    }
}

/// The longest span at `i` whose words all belong to one name of a table;
/// every table's rows that hold it.
fn names_at(words: &[&str], i: usize, lex: &Lexicon, names: &NameIndex) -> Option<Link> {
    let first = words[i];
    // "the leftovers task": a small word said as the name of a task.
    let of_task = first.len() >= 5
        && words
            .get(i + 1)
            .is_some_and(|w| matches!(*w, "task" | "tasks" | "reminder" | "todo" | "job"));
    if lex.glue.contains(first) && !of_task || first.len() < 3 {
        return None;
    }
    // "the paneer one", "the chicken thing": a part of a name said as a
    // kind names a recipe.
    let mut best: Option<(usize, Vec<(Target, f64)>)> = None;
    // "use half of it": a request's one-word verb is not part of a name
    // it happens to open ("Use up the paneer …").
    let verb = one_word_verb(lex, first);
    for (rows, make) in &names.tables {
        let foods = matches!(make(Vec::new()), Target::Stocked(_) | Target::Listed(_));
        let mut hits: Vec<(usize, f64, String)> = Vec::new();
        for (row, nw) in rows {
            let mut end = i;
            // A long title may hold "the" or "up"; no name spans an "and".
            // "veg oil", "chinese broc": a word cut short, beside a word of
            // the same name, is that name's word.
            let whole = |k: usize| {
                words
                    .get(k)
                    .is_some_and(|w| nw.contains(&names.singular[k]) || spelt_like(nw, w))
            };
            let cut_short = |k: usize| {
                cut_from(nw, words[k]) && (k > i && whole(k - 1) || k == i && whole(k + 1))
            };
            while end < words.len()
                && (whole(end) || cut_short(end))
                && (end == i || !lex.glue.contains(words[end]) || nw.len() > 3)
                && !matches!(words[end], "and" | "or")
            {
                end += 1;
            }
            // A task is named by its content words, never by "up" or "the";
            // a state said alone ("frozen") names no row.
            // "we barely use it": a request's verb and small words name
            // no task ("Use up the paneer before it expires").
            let content = of_task
                || (i..end).any(|k| {
                    let task_verb =
                        matches!(make(Vec::new()), Target::Task(_)) && one_word_verb(lex, words[k]);
                    !(lex.glue.contains(words[k]) || task_verb)
                });
            let state_only = end == i + 1 && nw.len() > 1 && lex.modifiers.contains(words[i]);
            // "veg oil" is not the olive oil: a word said before part of a
            // food's name, not of it and not a small word, a state or the
            // grammar's, says another food of that kind.
            let share = (end - i) as f64 / nw.len() as f64;
            let other_kind = foods
                && share < 1.0
                && i > 0
                && !nw.contains(&names.singular[i - 1])
                && !lex.glue.contains(words[i - 1])
                && !lex.modifiers.contains(words[i - 1])
                && !lex.vocabulary.contains(words[i - 1])
                && words[i - 1].chars().all(char::is_alphabetic);
            let verb_only = verb && end == i + 1 && nw.len() > 1;
            if end > i && content && !state_only && !other_kind && !verb_only {
                hits.push((end, share, row.to_string()));
            }
        }
        let Some(len) = hits.iter().map(|h| h.0).max() else {
            continue;
        };
        hits.retain(|h| h.0 == len);
        // A whole name said outright is that row, not every row sharing it.
        if let Some(whole) = hits.iter().find(|h| h.1 >= 1.0) {
            hits = vec![whole.clone()];
        }
        // "the wings" for the one row of the kitchen that is that cut of an
        // animal ("chicken wing", "cod fillet"): that row, over the food in
        // general — not "coconut milk" for "milk", nor "chopped tomatoes"
        // for "tomatoes".
        const CUTS: [&str; 11] = [
            "wing",
            "thigh",
            "fillet",
            "breast",
            "leg",
            "drumstick",
            "steak",
            "chop",
            "loin",
            "mince",
            "shank",
        ];
        if let [one] = hits.as_mut_slice()
            && matches!(make(Vec::new()), Target::Stocked(_))
            && one.1 < 1.0
            && CUTS.contains(&names.singular[len - 1].as_str())
            && rows
                .iter()
                .find(|(r, _)| *r == one.2)
                .is_some_and(|(_, nw)| {
                    nw.last() == Some(&names.singular[len - 1])
                        && nw[..nw.len() - 1]
                            .iter()
                            .all(|w| crate::brain::offline::vocab::is_food_word(w))
                })
        {
            one.1 = one.1.max(0.95);
        }
        let mut score = hits.iter().map(|h| h.1).fold(0.0, f64::max);
        let kind = words
            .get(len)
            .is_some_and(|w| matches!(*w, "one" | "ones" | "thing" | "recipe" | "dish"));
        let target = make(hits.into_iter().map(|h| h.2).collect());
        if kind && matches!(target, Target::Recipe(_)) {
            score = 1.0;
        }
        match &mut best {
            Some((l, ts)) if *l == len => ts.push((target, score)),
            Some((l, _)) if *l > len => {}
            _ => best = Some((len, vec![(target, score)])),
        }
    }
    let (end, mut targets) = best?;
    if let Some(food) = food_at(words, i, lex).filter(|f| f.end > end) {
        return Some(food);
    }
    // Two words of a saved recipe's name name the recipe, not a food to
    // buy ("kerala curry").
    if is_food_phrase(&words[i..end]) {
        let recipe_words =
            end - i >= 2 && targets.iter().any(|(t, _)| matches!(t, Target::Recipe(_)));
        let score = if recipe_words { 0.3 } else { 0.9 };
        targets.push((Target::Food(words[i..end].join(" ")), score));
    }
    targets.sort_by(|a, b| b.1.total_cmp(&a.1));
    Some(Link {
        start: i,
        end,
        scores: targets.iter().map(|t| t.1).collect(),
        targets: targets.into_iter().map(|t| t.0).collect(),
    })
}

/// True when `w` alone is a verb of a frame ("use", "add").
fn one_word_verb(lex: &Lexicon, w: &str) -> bool {
    lex.frames
        .iter()
        .any(|f| f.verbs.iter().any(|v| v.len() == 1 && v[0] == w))
}

/// "yoghurt" for a name's "yogurt": a word of five letters or more one
/// edit from a word of the name.
fn spelt_like(name: &[String], w: &str) -> bool {
    use crate::brain::offline::vocab;
    // A word of its own that is not a food ("write" beside "white") is
    // that word, not a name misspelt.
    let a_word = vocab::is_known_word(w) && !vocab::is_food_word(w);
    w.len() >= 5
        && !a_word
        && name
            .iter()
            .any(|x| x.len() >= 5 && strsim::damerau_levenshtein(x, w) == 1)
}

/// "veg" for a name's "vegetable", "broc" for "broccoli": three letters
/// or more that begin a word of six or more.
fn cut_from(name: &[String], w: &str) -> bool {
    w.len() >= 3
        && w.chars().all(char::is_alphabetic)
        && name
            .iter()
            .any(|x| x.len() >= 6 && x.len() > w.len() && x.starts_with(w))
}

fn is_food_phrase(words: &[&str]) -> bool {
    crate::brain::offline::vocab::is_food(&words.join(" "))
}

/// A food the kitchen does not hold: the longest span of up to three
/// words the catalog knows.
fn food_at(words: &[&str], i: usize, lex: &Lexicon) -> Option<Link> {
    if lex.glue.contains(words[i]) {
        return None;
    }
    for len in (1..=3).rev() {
        let end = i + len;
        if end > words.len() || words[i..end].iter().any(|w| lex.glue.contains(*w)) {
            continue;
        }
        let span = &words[i..end];
        let known = crate::brain::offline::vocab::food_mentions(
            &span.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        );
        if known.len() == 1 && known[0].split(' ').count() == len {
            return one(i, end, Target::Food(span.join(" ")));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::lexicon::lexicon;
    use super::super::normalize::normalize;
    use super::*;

    fn names() -> Names {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect();
        Names {
            recipes: s(&["Kerala Cod Curry", "Thai Yellow Curry", "Dry Rub Wings"]),
            inventory: s(&["jasmine rice", "basmati rice", "lemon", "chickpeas"]),
            shopping: s(&["thai basil", "tomato", "olive oil"]),
            tasks: s(&[
                "Deep-clean the air fryer basket",
                "Clear out old leftovers from the fridge",
            ]),
            drafts: Vec::new(),
        }
    }

    fn links(m: &str) -> Vec<Link> {
        links_in(&names(), m)
    }

    fn links_in(n: &Names, m: &str) -> Vec<Link> {
        link(&normalize(m, lexicon(), &n.words()), lexicon(), n)
    }

    fn targets(m: &str) -> Vec<Target> {
        links(m).into_iter().map(|l| l.targets[0].clone()).collect()
    }

    #[test]
    fn days_of_a_named_month_and_dates_written_with_dashes() {
        let day = |m: &str| {
            targets(m).into_iter().find_map(|t| match t {
                Target::Day(d) => Some(d),
                _ => None,
            })
        };
        assert_eq!(day("use by jan 20").as_deref(), Some("in_month_1_20"));
        assert_eq!(day("use by 20th of feb").as_deref(), Some("in_month_2_20"));
        assert_eq!(day("use by 3 march").as_deref(), Some("in_month_3_3"));
        assert_eq!(
            day("set it to 2026-01-14").as_deref(),
            Some("in_month_1_14")
        );
        assert_eq!(
            day("good till end of feb").as_deref(),
            Some("in_month_2_31")
        );
        // A month word with no day beside it names no day; an amount is
        // still an amount.
        assert_eq!(day("what can i make in may"), None);
        assert_eq!(targets("add 3 lemons")[0], Target::Amount(3.0, None));
    }

    #[test]
    fn amounts_in_words_and_typed_for_numbers() {
        let t = targets("add for lemons and to tins of chickpeas");
        assert_eq!(t[0], Target::Amount(4.0, None));
        assert_eq!(t[1], Target::Stocked(vec!["lemon".into()]));
        assert_eq!(t[2], Target::Amount(2.0, Some("can".into())));
        assert_eq!(t[3], Target::Stocked(vec!["chickpeas".into()]));
        // "to the list" is no amount.
        assert!(
            !targets("add eggs to the list")
                .iter()
                .any(|t| matches!(t, Target::Amount(..)))
        );
        assert_eq!(
            targets("picked up 2 more cans of coconut milk")[0],
            Target::Amount(2.0, Some("can".into()))
        );
        assert_eq!(
            targets("chickpeas 2 cans and tahini")[1],
            Target::AmountAfter(2.0, Some("can".into()))
        );
        // Said after the food: "a dozen" closing the request, "for of
        // them" typed for "four of them"; "that one" is no amount.
        assert_eq!(
            targets("add eggs to the list, a dozen")[2],
            Target::AmountAfter(12.0, None)
        );
        assert_eq!(
            targets("add limes to the list for of them")[2],
            Target::AmountAfter(4.0, None)
        );
        assert!(
            !targets("plan that one")
                .iter()
                .any(|t| matches!(t, Target::Amount(..) | Target::AmountAfter(..)))
        );
        assert_eq!(
            targets("a dozen eggs")[0],
            Target::Amount(12.0, None),
            "{:?}",
            links("a dozen eggs")
        );
    }

    #[test]
    fn weekdays_in_a_run_ending_on_next_week_are_next_weeks() {
        assert_eq!(
            targets("mon tue wed next week"),
            [
                Target::Day("next_monday".into()),
                Target::Day("next_tuesday".into()),
                Target::Day("next_wednesday".into())
            ]
        );
        assert_eq!(targets("friday")[0], Target::Day("friday".into()));
        // "the night before sunday" is Saturday; ending on "before" is
        // no day at all (and no panic).
        assert_eq!(
            targets("the night before sunday"),
            [Target::Day("saturday".into())]
        );
        assert_eq!(
            targets("the day after tomorrow"),
            [Target::Day("in_days_2".into())]
        );
        assert_eq!(targets("in 3 days"), [Target::Day("in_days_3".into())]);
        assert_eq!(targets("in 2 weeks"), [Target::Day("in_days_14".into())]);
        assert_eq!(
            targets("a 6 pack of eggs")[0],
            Target::Amount(6.0, Some("pcs".into()))
        );
        assert_eq!(
            targets("2 pints of milk")[0],
            Target::Amount(1136.0, Some("ml".into()))
        );
        assert_eq!(
            targets("2 packs of chickpeas")[0],
            Target::Amount(2.0, Some("pack".into()))
        );
        assert_eq!(targets("in a week"), [Target::Day("in_days_7".into())]);
        assert_eq!(
            targets("in a fortnight"),
            [Target::Day("in_days_14".into())]
        );
        for m in ["remind me the night before", "day before"] {
            assert!(
                !targets(m).iter().any(|t| matches!(t, Target::Day(_))),
                "{m}"
            );
        }
    }

    #[test]
    fn a_shared_word_links_to_every_row_that_has_it() {
        assert!(links("the curry")[0].targets.contains(&Target::Recipe(vec![
            "Kerala Cod Curry".into(),
            "Thai Yellow Curry".into()
        ])));
        assert_eq!(
            targets("thai yellow curry")[0],
            Target::Recipe(vec!["Thai Yellow Curry".into()])
        );
        assert!(links("rice")[0].targets.contains(&Target::Stocked(vec![
            "jasmine rice".into(),
            "basmati rice".into()
        ])));
    }

    #[test]
    fn a_food_named_the_other_way_round_is_the_food() {
        let n = Names {
            inventory: vec!["coconut milk".into(), "milk".into()],
            ..names()
        };
        let of = |m: &str| links_in(&n, m);
        assert_eq!(
            of("i buy the milk of coconut, 2 can")[0].targets[0],
            Target::Stocked(vec!["coconut milk".into()])
        );
        assert_eq!(
            of("some oil of olive")[0].targets[0],
            Target::Listed(vec!["olive oil".into()])
        );
        assert_eq!(
            of("a jar of butter of peanut")
                .iter()
                .map(|l| l.targets[0].clone())
                .find(|t| matches!(t, Target::Food(_))),
            Some(Target::Food("peanut butter".into()))
        );
        // A measure of a food is that food.
        assert_eq!(
            of("a bag of rice")
                .iter()
                .map(|l| l.targets[0].clone())
                .filter(|t| matches!(t, Target::Stocked(_)))
                .count(),
            0
        );
    }

    #[test]
    fn a_word_of_its_own_is_not_a_name_misspelt() {
        let n = Names {
            inventory: vec!["white miso paste".into(), "greek yogurt".into()],
            ..names()
        };
        let of = |m: &str| links_in(&n, m);
        let stocked = |m: &str| {
            of(m)
                .iter()
                .flat_map(|l| l.targets.clone())
                .filter(|t| matches!(t, Target::Stocked(_)))
                .collect::<Vec<_>>()
        };
        assert!(stocked("please write it down").is_empty());
        assert_eq!(stocked("some of the white miso").len(), 1);
        assert_eq!(
            stocked("use the yoghurt"),
            vec![Target::Stocked(vec!["greek yogurt".into()])]
        );
    }

    #[test]
    fn a_domain_word_stays_one_inside_a_task_title() {
        assert_eq!(
            targets("whats in the fridge")[0],
            Target::Domain(Domain::Stock)
        );
    }

    #[test]
    fn days_pointers_and_words_that_name_nothing() {
        let t = targets("put the 2nd one on next fri for dinner");
        assert!(t.contains(&Target::Pointer(Pointer::Nth(2))), "{t:?}");
        assert!(t.contains(&Target::Day("next_friday".into())), "{t:?}");
        assert!(t.contains(&Target::Meal("dinner".into())), "{t:?}");
        // "air fryer" is no food and no row of the stock.
        assert!(
            !targets("ive never used the air fryer")
                .iter()
                .any(|t| matches!(t, Target::Stocked(_) | Target::Food(_)))
        );
    }
}
