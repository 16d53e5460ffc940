//! The day reader: every day a message names, in order, each with the meal
//! said with it — "tuesday and wednesday dinner", "mon tue wed", "mon-wed",
//! "sun and wed", "the weekend", "tue lunch and wed dinner", "friday
//! night", "tonight", "next tue", "in 2 days", "the 15th".
//!
//! Decisions:
//! - Each day of a list or a range is dated on its own, as a single day
//!   is: a weekday is its next occurrence, today included.
//! - Two weekdays side by side ("mon-wed", which reaches the rules as "mon
//!   wed") are a range, as are "mon to wed", "mon thru wed"; three or more
//!   side by side ("mon tue wed") are a list.
//! - A day after "not" or "instead of" is dropped ("thursday not
//!   tomorrow"); a day right after a correction ("wait no friday",
//!   "actually make it friday") replaces the days named just before it.
//! - A meal said next to a day is that day's ("tue lunch", "lunch on
//!   tue", "friday night" = dinner, "tonight" = dinner); days run together
//!   ("tue and wed dinner") share the one meal said in the run; a meal said
//!   apart from any day ("both for dinner") goes to every day without one.
//!   With none, the meal is left open (the planner's default is dinner).
//!
//! Pure: words in, days out; dates come from [`Day::date`].

use super::super::text::{Words, number, weekday_index};
use super::when::Day;

/// A day named, with the meal said with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct When {
    pub day: Day,
    /// "breakfast", "lunch" or "dinner" when said.
    pub meal: Option<String>,
}

/// One stretch of words that names one or more days.
#[derive(Debug, Clone)]
struct Mention {
    /// The first and one-past-the-last word of the stretch.
    start: usize,
    end: usize,
    days: Vec<Day>,
    meal: Option<&'static str>,
}

/// Words that join days into one run ("tue and wed", "tue, wed").
const JOINS: &[&str] = &["and", "or", "plus", "also", "both"];
/// Words that make a day replace the ones said just before it.
const CORRECTS: &[&str] = &[
    "no",
    "nope",
    "wait",
    "actually",
    "sorry",
    "mean",
    "meant",
    "nah",
    "scratch",
    "rather",
    "oops",
    "correction",
];
/// Words a correction may hold besides its markers ("no make it friday").
const CORRECTION_FILL: &[&str] = &[
    "make", "it", "that", "i", "on", "for", "the", "lets", "do", "just", "then", "ok", "okay",
];
/// Words that join two weekdays into a range.
const RANGE: &[&str] = &["to", "thru", "through", "till", "til", "until"];

/// The meal a word names: a meal, or the part of a day that implies one.
fn meal_word(w: &str) -> Option<&'static str> {
    Some(match w {
        "dinner" | "dinners" | "supper" | "tea" | "night" | "nite" | "evening" => "dinner",
        "lunch" | "lunches" | "lunchtime" | "afternoon" => "lunch",
        "breakfast" | "breakfasts" | "brunch" | "brekkie" | "brekky" | "morning" => "breakfast",
        _ => return None,
    })
}

/// True when `words[i]` is a day of the month ("on the 15th", "for the
/// 3rd", "wednesday the 14th", "the 15th of jan"), not a place in a list
/// ("put the 2nd on friday").
pub fn is_day_of_month(words: &[String], i: usize) -> bool {
    let Some(n) = month_day(&words[i]) else {
        return false;
    };
    let at = |j: Option<usize>| j.and_then(|j| words.get(j)).map(String::as_str);
    let before = i.checked_sub(1);
    let lead = if at(before) == Some("the") {
        before.and_then(|b| b.checked_sub(1))
    } else {
        before
    };
    let dated_lead = at(lead).is_some_and(|w| {
        matches!(w, "on" | "for" | "by" | "until" | "til" | "till") || weekday_index(w).is_some()
    });
    // "the 16th and 17th", "the 16th to the 18th": after another date.
    let joined = at(lead).is_some_and(|w| matches!(w, "and" | "or" | "to" | "thru" | "through"))
        && lead
            .and_then(|l| l.checked_sub(1))
            .is_some_and(|p| month_day(&words[p]).is_some() && is_day_of_month(words, p));
    let of_month = at(Some(i + 1)) == Some("of")
        && at(Some(i + 2)).is_some_and(|w| {
            matches!(
                w,
                "the" | "this" | "month" | "jan" | "january" | "feb" | "february"
            )
        });
    n >= 1 && (dated_lead || of_month || joined)
}

/// True for a word that only says when: a day, a part of one, a day of
/// the month, "next", "weekend".
pub fn is_day_word(w: &str) -> bool {
    Day::of_word(w).is_some()
        || super::when::DAY_PARTS.contains(&w)
        || month_day(w).is_some()
        || matches!(
            w,
            "next" | "this" | "weekend" | "wkend" | "day" | "days" | "after" | "coming"
        )
}

/// The number of a numbered ordinal up to 31 ("15th" → 15).
fn month_day(w: &str) -> Option<u8> {
    ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|s| w.strip_suffix(s))
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| (1..=31).contains(n))
}

/// The day stretch starting at `words[i]`, if one does.
fn mention_at(words: &[String], i: usize) -> Option<Mention> {
    let w = words[i].as_str();
    let at = |j: usize| words.get(j).map(String::as_str);
    let one = |days: Vec<Day>, len: usize, meal: Option<&'static str>| {
        Some(Mention {
            start: i,
            end: i + len,
            days,
            meal,
        })
    };
    // "the day after tomorrow".
    if w == "day"
        && at(i + 1) == Some("after")
        && at(i + 2).and_then(Day::of_word) == Some(Day::Tomorrow)
    {
        return one(vec![Day::InDays(2)], 3, None);
    }
    // "in 2 days", "in a couple of days", "in three days".
    if w == "in" {
        let (n, len) = match (at(i + 1), at(i + 2), at(i + 3)) {
            (Some("a"), Some("couple"), Some("of")) => (Some(2.0), 4),
            (Some("a"), Some("couple"), _) => (Some(2.0), 3),
            (Some("a" | "one"), Some("day"), _) => (Some(1.0), 2),
            (Some(x), _, _) => (number(x), 2),
            _ => (None, 0),
        };
        let days_word = at(i + len).is_some_and(|x| matches!(x, "day" | "days"));
        if let Some(n) = n.filter(|n| n.fract() == 0.0 && (1.0..=28.0).contains(n))
            && days_word
        {
            return one(vec![Day::InDays(n as u8)], len + 1, None);
        }
        return None;
    }
    // "next tue", "next weekend"; "this friday", "this weekend".
    if matches!(w, "next" | "this" | "the" | "coming") {
        let next = w == "next";
        let after = at(i + 1)?;
        if matches!(after, "weekend" | "wkend" | "weekends") {
            let days = if next {
                vec![Day::NextWeek(5), Day::NextWeek(6)]
            } else {
                vec![Day::Weekday(5), Day::Weekday(6)]
            };
            return one(days, 2, None);
        }
        let d = weekday_index(after)?;
        let day = if next {
            Day::NextWeek(d)
        } else {
            Day::Weekday(d)
        };
        return one(vec![day], 2, None);
    }
    if matches!(w, "weekend" | "wkend") {
        return one(vec![Day::Weekday(5), Day::Weekday(6)], 1, None);
    }
    if let Some(n) = month_day(w)
        && is_day_of_month(words, i)
    {
        return one(vec![Day::OfMonth(n)], 1, None);
    }
    let day = Day::of_word(w)?;
    let meal = matches!(w, "tonight" | "tonights" | "tn").then_some("dinner");
    one(vec![day], 1, meal)
}

/// Every day stretch of the words, before ranges and corrections.
fn scan(words: &[String]) -> Vec<Mention> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match mention_at(words, i) {
            Some(m) => {
                let negated = i > 0 && words[i - 1] == "not"
                    || i > 1 && words[i - 2] == "instead" && words[i - 1] == "of";
                i = m.end;
                if !negated {
                    out.push(m);
                }
            }
            None => i += 1,
        }
    }
    out
}

/// The single weekday a mention names, if that is all it names.
fn lone_weekday(m: &Mention) -> Option<u8> {
    match m.days.as_slice() {
        [Day::Weekday(d)] if m.end - m.start == 1 => Some(*d),
        _ => None,
    }
}

/// "mon-wed", "mon to wed": two weekdays become every day between them
/// ("mon, wed" is two days: `breaks` are where a comma or a full stop
/// split the words).
fn ranges(words: &[String], breaks: &[usize], ms: Vec<Mention>) -> Vec<Mention> {
    let mut out: Vec<Mention> = Vec::new();
    let mut i = 0;
    while i < ms.len() {
        let m = &ms[i];
        let next = ms.get(i + 1);
        let adjacent = |a: &Mention, b: &Mention| a.end == b.start && !breaks.contains(&b.start);
        let pair = next.and_then(|n| {
            let (a, b) = (lone_weekday(m)?, lone_weekday(n)?);
            let between = &words[m.end..n.start];
            let joined = match between {
                [] => {
                    // Side by side: a range only when just two are.
                    let before = i > 0 && adjacent(&ms[i - 1], m);
                    let after = ms.get(i + 2).is_some_and(|x| adjacent(n, x));
                    adjacent(m, n) && !before && !after
                }
                [x] => RANGE.contains(&x.as_str()),
                _ => false,
            };
            joined.then_some((a, b, n.end))
        });
        match pair {
            Some((a, b, end)) => {
                let span = (i64::from(b) - i64::from(a)).rem_euclid(7) as u8;
                let days = (0..=span).map(|k| Day::Weekday((a + k) % 7)).collect();
                out.push(Mention {
                    start: m.start,
                    end,
                    days,
                    meal: None,
                });
                i += 2;
            }
            None => {
                out.push(m.clone());
                i += 1;
            }
        }
    }
    out
}

/// True when the words between two stretches only join them.
fn joins(between: &[String]) -> bool {
    between.iter().all(|w| JOINS.contains(&w.as_str()))
}

/// "next mon and tue": "next" reaches every weekday of its run.
fn next_runs(words: &[String], mut ms: Vec<Mention>) -> Vec<Mention> {
    for k in 1..ms.len() {
        let next_before = matches!(ms[k - 1].days.as_slice(), [Day::NextWeek(_)]);
        if next_before
            && joins(&words[ms[k - 1].end..ms[k].start])
            && let Some(d) = lone_weekday(&ms[k])
        {
            ms[k].days = vec![Day::NextWeek(d)];
        }
    }
    ms
}

/// Drops the days a later correction replaces ("on thursday. wait no
/// friday").
fn corrections(words: &[String], ms: Vec<Mention>) -> Vec<Mention> {
    let mut out: Vec<Mention> = Vec::new();
    for m in ms {
        if let Some(prev) = out.last() {
            let between = &words[prev.end..m.start];
            let marker = between.iter().rposition(|w| CORRECTS.contains(&w.as_str()));
            let corrects = marker.is_some_and(|k| {
                between[k + 1..].iter().all(|w| {
                    CORRECTS.contains(&w.as_str()) || CORRECTION_FILL.contains(&w.as_str())
                })
            });
            if corrects {
                // The run just before: stretches joined only by "and".
                while let Some(last) = out.pop() {
                    let joined = out.last().is_some_and(|p| joins(&words[p.end..last.start]));
                    if !joined {
                        break;
                    }
                }
            }
        }
        out.push(m);
    }
    out
}

/// Meals bound to each stretch: its own, the one beside it, then the run's,
/// then the one said apart from any day.
fn meals(words: &[String], ms: &[Mention]) -> Vec<Option<&'static str>> {
    const SKIP_AFTER: &[&str] = &["for", "at", "the", "a"];
    const SKIP_BEFORE: &[&str] = &["on", "for", "at", "the", "this"];
    let mut bound: Vec<usize> = Vec::new();
    let mut out: Vec<Option<&'static str>> = Vec::new();
    for m in ms {
        let mut meal = m.meal;
        let after = (m.end..words.len()).find(|&j| !SKIP_AFTER.contains(&words[j].as_str()));
        if meal.is_none()
            && let Some(j) = after
            && let Some(x) = meal_word(&words[j])
        {
            meal = Some(x);
            bound.push(j);
        }
        let before = (0..m.start)
            .rev()
            .find(|&j| !SKIP_BEFORE.contains(&words[j].as_str()));
        if meal.is_none()
            && let Some(j) = before
            && !bound.contains(&j)
            && let Some(x) = meal_word(&words[j]).filter(|_| {
                !matches!(
                    words[j].as_str(),
                    "night" | "nite" | "evening" | "morning" | "afternoon"
                )
            })
        {
            meal = Some(x);
            bound.push(j);
        }
        out.push(meal);
    }
    // Days run together share the run's one meal.
    let mut start = 0;
    for k in 0..ms.len() {
        let last = k + 1 == ms.len() || !joins(&words[ms[k].end..ms[k + 1].start]);
        if last {
            let mut said: Vec<&str> = out[start..=k].iter().flatten().copied().collect();
            said.dedup();
            if let [one] = said.as_slice() {
                let one = *one;
                out[start..=k].iter_mut().for_each(|m| *m = m.or(Some(one)));
            }
            start = k + 1;
        }
    }
    // A meal said apart from any day goes to the days without one.
    let inside = |j: usize| ms.iter().any(|m| (m.start..m.end).contains(&j));
    let mut apart: Vec<&str> = (0..words.len())
        .filter(|j| !bound.contains(j) && !inside(*j))
        .filter(|&j| {
            !matches!(
                words[j].as_str(),
                "night" | "nite" | "evening" | "morning" | "afternoon"
            )
        })
        .filter_map(|j| meal_word(&words[j]))
        .collect();
    apart.sort_unstable();
    apart.dedup();
    if let [one] = apart.as_slice() {
        let one = *one;
        out.iter_mut().for_each(|m| *m = m.or(Some(one)));
    }
    out
}

/// Where each segment of the message starts in its words.
pub fn segment_starts(w: &Words) -> Vec<usize> {
    let mut out = Vec::new();
    let mut pos = 0;
    for seg in &w.segments {
        while pos < w.words.len() && seg.first() != Some(&w.words[pos]) {
            pos += 1;
        }
        out.push(pos);
        pos += seg.len();
    }
    out
}

/// Every day a message names, with the index of the word that names it.
pub fn days_at(w: &Words) -> Vec<(usize, When)> {
    read(&w.words, &segment_starts(w))
}

/// Every day a stretch of words names, in order (no breaks known).
pub fn days_in(words: &[String]) -> Vec<When> {
    read(words, &[]).into_iter().map(|(_, w)| w).collect()
}

fn read(words: &[String], breaks: &[usize]) -> Vec<(usize, When)> {
    let ms = corrections(words, next_runs(words, ranges(words, breaks, scan(words))));
    let meals = meals(words, &ms);
    let mut out: Vec<(usize, When)> = Vec::new();
    for (m, meal) in ms.iter().zip(meals) {
        for d in &m.days {
            let when = When {
                day: *d,
                meal: meal.map(String::from),
            };
            if !out.iter().any(|(_, w)| *w == when) {
                out.push((m.start, when));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::offline::text::Words;

    const TODAY: &str = "2026-01-13";

    /// "2026-01-14 dinner" for each day read.
    fn read(s: &str) -> Vec<String> {
        days_at(&Words::new(s))
            .into_iter()
            .map(|(_, w)| {
                let date = w.day.date(TODAY).unwrap_or_default();
                match w.meal {
                    Some(m) => format!("{date} {m}"),
                    None => date,
                }
            })
            .collect()
    }

    #[test]
    fn lists_of_days() {
        assert_eq!(
            read("plan the wings for tuesday and wednesday dinner"),
            ["2026-01-13 dinner", "2026-01-14 dinner"]
        );
        assert_eq!(
            read("plan it mon tue wed"),
            ["2026-01-19", "2026-01-13", "2026-01-14"]
        );
        assert_eq!(read("sun and wed"), ["2026-01-18", "2026-01-14"]);
        assert_eq!(read("mon, wed"), ["2026-01-19", "2026-01-14"]);
        assert_eq!(
            read("thurs, fri & sat pls"),
            ["2026-01-15", "2026-01-16", "2026-01-17"]
        );
        assert_eq!(read("the weekend"), ["2026-01-17", "2026-01-18"]);
        assert_eq!(read("this wkend"), ["2026-01-17", "2026-01-18"]);
        assert_eq!(read("next weekend"), ["2026-01-24", "2026-01-25"]);
        assert_eq!(read("next mon and tue"), ["2026-01-19", "2026-01-20"]);
        assert_eq!(read("on the 16th and 17th"), ["2026-01-16", "2026-01-17"]);
    }

    #[test]
    fn ranges_of_days() {
        assert_eq!(read("mon-wed"), ["2026-01-19", "2026-01-13", "2026-01-14"]);
        assert_eq!(
            read("from thu to sat"),
            ["2026-01-15", "2026-01-16", "2026-01-17"]
        );
        assert_eq!(
            read("fri thru sun"),
            ["2026-01-16", "2026-01-17", "2026-01-18"]
        );
        assert_eq!(
            read("fri - mon"),
            ["2026-01-16", "2026-01-17", "2026-01-18", "2026-01-19"]
        );
    }

    #[test]
    fn relative_days() {
        for s in ["tmrw", "tmr", "tomorrow", "tommorow", "tomoz"] {
            assert_eq!(read(s), ["2026-01-14"], "{s}");
        }
        for s in ["tonight", "tonite", "tn"] {
            assert_eq!(read(s), ["2026-01-13 dinner"], "{s}");
        }
        assert_eq!(read("next tue"), ["2026-01-20"]);
        assert_eq!(read("next friday"), ["2026-01-23"]);
        assert_eq!(read("this friday"), ["2026-01-16"]);
        assert_eq!(read("friday night"), ["2026-01-16 dinner"]);
        assert_eq!(read("sat morning"), ["2026-01-17 breakfast"]);
        assert_eq!(read("in 2 days"), ["2026-01-15"]);
        assert_eq!(read("in a couple of days"), ["2026-01-15"]);
        assert_eq!(read("the day after tomorrow"), ["2026-01-15"]);
        assert_eq!(read("on the 15th"), ["2026-01-15"]);
        assert_eq!(
            read("for the 3rd"),
            ["2026-02-03"],
            "a day passed is next month's"
        );
        assert_eq!(
            read("tuesday"),
            ["2026-01-13"],
            "a weekday said that day is today"
        );
    }

    #[test]
    fn meals_per_day() {
        assert_eq!(
            read("tue lunch and wed dinner"),
            ["2026-01-13 lunch", "2026-01-14 dinner"]
        );
        assert_eq!(
            read("lunch on tue and dinner on wed"),
            ["2026-01-13 lunch", "2026-01-14 dinner"]
        );
        assert_eq!(
            read("the paneer on wed and the curry on sun, both for dinner"),
            ["2026-01-14 dinner", "2026-01-18 dinner"]
        );
        assert_eq!(
            read("the pad see ew on tue lunch and the wings wed"),
            ["2026-01-13 lunch", "2026-01-14"]
        );
        assert_eq!(
            read("mon-wed lunch"),
            ["2026-01-19 lunch", "2026-01-13 lunch", "2026-01-14 lunch"]
        );
    }

    #[test]
    fn negations_and_corrections() {
        assert_eq!(read("thursday not tomorrow"), ["2026-01-15"]);
        assert_eq!(read("on thursday. wait no friday"), ["2026-01-16"]);
        assert_eq!(read("tue and wed, actually just wed"), ["2026-01-14"]);
        assert_eq!(read("monday, no make it tuesday"), ["2026-01-13"]);
        assert_eq!(
            read("the wings on monday and the paneer on thursday, no cod on friday"),
            ["2026-01-19", "2026-01-15", "2026-01-16"],
            "a no that rules out a dish is not a correction of the day"
        );
        assert_eq!(read("instead of friday"), Vec::<String>::new());
    }

    #[test]
    fn list_places_are_not_dates() {
        let w = Words::new("put the 2nd on the 15th").words;
        assert!(!is_day_of_month(&w, 2));
        assert!(is_day_of_month(&w, 5));
        assert_eq!(read("put the 2nd one on friday"), ["2026-01-16"]);
        assert!(read("soon").is_empty());
    }
}
