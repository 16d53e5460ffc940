//! Days as people say them — "tomorrow", "wed night", "by friday",
//! "thursday not tomorrow" — turned into dates against today.

use serde::{Deserialize, Serialize};

use super::super::plan::next_date;
use super::super::text::weekday_index;

/// A day the user named, kept in their words until today is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Day {
    Today,
    Tomorrow,
    /// 0 = Monday.
    Weekday(u8),
}

/// Words that qualify a day without being the thing itself.
pub const DAY_PARTS: &[&str] = &["morning", "night", "evening", "afternoon", "lunchtime"];

impl Day {
    /// The day a word names.
    pub fn of_word(w: &str) -> Option<Self> {
        match w {
            "today" | "tonight" | "tonite" | "tonights" => Some(Day::Today),
            "tomorrow" | "tomorrows" => Some(Day::Tomorrow),
            _ => weekday_index(w).map(Day::Weekday),
        }
    }

    /// The word that names the day again ("today", "friday"), for a
    /// request a "yes" carries out.
    pub fn word(self) -> &'static str {
        match self {
            Day::Today => "today",
            Day::Tomorrow => "tomorrow",
            Day::Weekday(i) => super::super::text::weekday_name(i),
        }
    }

    /// The date (`YYYY-MM-DD`) against `today`; a weekday is its next
    /// occurrence, today included.
    pub fn date(self, today: &str) -> Option<String> {
        let d: jiff::civil::Date = today.trim().parse().ok()?;
        match self {
            Day::Today => Some(d.to_string()),
            Day::Tomorrow => d.tomorrow().ok().map(|x| x.to_string()),
            Day::Weekday(w) => next_date(today, w),
        }
    }
}

/// The day a message settles on: the last one named, unless it is negated
/// ("thursday not tomorrow" → Thursday, "wait no friday" → Friday).
pub fn day_in(words: &[String]) -> Option<Day> {
    let mut chosen = None;
    for (i, w) in words.iter().enumerate() {
        let Some(day) = Day::of_word(w) else {
            continue;
        };
        let negated = i > 0 && matches!(words[i - 1].as_str(), "not" | "instead");
        if !negated {
            chosen = Some(day);
        }
    }
    chosen
}

/// True for a word that only says when: a day, a part of one, "on", "by".
pub fn is_when_word(w: &str) -> bool {
    Day::of_word(w).is_some()
        || DAY_PARTS.contains(&w)
        || matches!(
            w,
            "on" | "by" | "for" | "due" | "this" | "next" | "not" | "before"
        )
}

/// "Thu Jan 15" for a date.
pub fn short_date(date: &str) -> String {
    date.parse::<jiff::civil::Date>()
        .map(|d| d.strftime("%a %b %-d").to_string())
        .unwrap_or_else(|_| date.to_string())
}

/// The date `days` after `today`.
pub fn days_after(today: &str, days: i64) -> Option<String> {
    let d: jiff::civil::Date = today.trim().parse().ok()?;
    d.checked_add(jiff::Span::new().days(days))
        .ok()
        .map(|x| x.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::offline::text::Words;

    fn day(s: &str) -> Option<String> {
        day_in(&Words::new(s).words).and_then(|d| d.date("2026-01-13"))
    }

    #[test]
    fn days_count_from_today() {
        assert_eq!(day("tomorrow").as_deref(), Some("2026-01-14"));
        assert_eq!(day("wed night").as_deref(), Some("2026-01-14"));
        assert_eq!(day("by friday").as_deref(), Some("2026-01-16"));
        assert_eq!(day("tonight").as_deref(), Some("2026-01-13"));
        assert_eq!(day("thursday not tomorrow").as_deref(), Some("2026-01-15"));
        assert_eq!(
            day("on thursday. wait no friday").as_deref(),
            Some("2026-01-16")
        );
        assert_eq!(day("soon"), None);
        assert_eq!(short_date("2026-01-15"), "Thu Jan 15");
    }
}
