//! Days as people say them — "tomorrow", "wed night", "by friday", "next
//! tue", "in 2 days", "the 15th", "thursday not tomorrow" — turned into
//! dates against today. A message naming several days ("tue and wed",
//! "mon-wed", "the weekend") is read by [`super::days`]; this module owns
//! the day itself and its date.

use serde::{Deserialize, Serialize};

use super::super::plan::next_date;
use super::super::text::weekday_index;

/// A day the user named, kept in their words until today is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Day {
    Today,
    Tomorrow,
    /// The next such weekday, today included (0 = Monday): "tuesday" said
    /// on a Tuesday is today.
    Weekday(u8),
    /// "next tue": that weekday in the week after this one (weeks start on
    /// Monday), so on Tuesday the 13th "next tue" is the 20th and "next
    /// fri" the 23rd.
    NextWeek(u8),
    /// "in 2 days", "the day after tomorrow".
    InDays(u8),
    /// "the 15th": that day of this month, or of next month once passed.
    OfMonth(u8),
    /// "sunday the 18th": the next 18th that is a Sunday (0 = Monday);
    /// none when no month ahead has one soon.
    Dated(u8, u8),
    /// "sat the paneer, tue the curry": days said in order, each after
    /// the one before — so many days after the next such weekday (0 =
    /// Monday). On Tuesday the 13th a Tuesday said after Saturday is
    /// `After(5, 3)`, the 20th.
    After(u8, u8),
    /// "jan 20", "end of feb" (31: the month's last day): the next such
    /// date, today included.
    InMonth(u8, u8),
}

/// Day `n` of month `m` in year `y`, or the month's last day when it has
/// fewer days.
fn in_month(y: i16, m: u8, n: u8) -> Option<jiff::civil::Date> {
    let first = jiff::civil::Date::new(y, i8::try_from(m).ok()?, 1).ok()?;
    let n = i8::try_from(n).ok()?.min(first.days_in_month());
    jiff::civil::Date::new(y, first.month(), n).ok()
}

/// "Jan 20", "the end of Feb" (31: the month's last day).
pub fn month_day_words(m: u8, n: u8) -> String {
    let month =
        in_month(2026, m, 1).map_or_else(|| format!("month {m}"), |d| d.strftime("%b").to_string());
    if n >= 31 {
        format!("the end of {month}")
    } else {
        format!("{month} {n}")
    }
}

/// Words that qualify a day without being the thing itself.
pub const DAY_PARTS: &[&str] = &[
    "morning",
    "night",
    "evening",
    "afternoon",
    "lunchtime",
    "nite",
];

impl Day {
    /// The day a word names.
    pub fn of_word(w: &str) -> Option<Self> {
        match w {
            "today" | "tonight" | "tonite" | "tonights" | "tn" => Some(Day::Today),
            "tomorrow" | "tomorrows" | "tmr" | "tmrw" | "tmro" | "tomoz" | "tomrw" | "tomorro" => {
                Some(Day::Tomorrow)
            }
            _ => weekday_index(w).map(Day::Weekday),
        }
    }

    /// The words that name the day again ("today", "friday", "next
    /// tuesday"), for a request a "yes" carries out.
    pub fn word(self) -> String {
        use super::super::text::weekday_name;
        match self {
            Day::Today => "today".into(),
            Day::Tomorrow => "tomorrow".into(),
            Day::Weekday(i) => weekday_name(i).into(),
            Day::NextWeek(i) => format!("next {}", weekday_name(i)),
            Day::InDays(n) => format!("in {n} days"),
            Day::OfMonth(n) => format!("on the {}", ordinal_suffix(n)),
            Day::Dated(w, n) => format!("on {} the {}", weekday_name(w), ordinal_suffix(n)),
            Day::After(a, n) => format!(
                "{} after {}",
                weekday_name((a + n % 7) % 7),
                weekday_name(a)
            ),
            Day::InMonth(m, n) => format!("on {}", month_day_words(m, n)),
        }
    }

    /// The date (`YYYY-MM-DD`) against `today`.
    pub fn date(self, today: &str) -> Option<String> {
        let d: jiff::civil::Date = today.trim().parse().ok()?;
        match self {
            Day::Today => Some(d.to_string()),
            Day::Tomorrow => d.tomorrow().ok().map(|x| x.to_string()),
            Day::Weekday(w) => next_date(today, w),
            Day::NextWeek(w) => {
                let now = i64::from(d.weekday().to_monday_zero_offset());
                let ahead = 7 - now + i64::from(w % 7);
                days_after(today, ahead)
            }
            Day::InDays(n) => days_after(today, i64::from(n)),
            Day::After(a, n) => days_after(&next_date(today, a)?, i64::from(n)),
            Day::Dated(w, n) => {
                let first = jiff::civil::Date::new(d.year(), d.month(), 1).ok()?;
                (0..3i32)
                    .filter_map(|m| first.checked_add(jiff::Span::new().months(m)).ok())
                    .filter_map(|m| jiff::civil::Date::new(m.year(), m.month(), n as i8).ok())
                    .find(|x| *x >= d && x.weekday().to_monday_zero_offset() == w as i8)
                    .map(|x| x.to_string())
            }
            Day::InMonth(m, n) => (0..2i16)
                .filter_map(|y| in_month(d.year() + y, m, n))
                .find(|x| *x >= d)
                .map(|x| x.to_string()),
            Day::OfMonth(n) => {
                let this = jiff::civil::Date::new(d.year(), d.month(), n as i8).ok();
                match this.filter(|x| *x >= d) {
                    Some(x) => Some(x.to_string()),
                    None => {
                        let (y, m) = if d.month() == 12 {
                            (d.year() + 1, 1)
                        } else {
                            (d.year(), d.month() + 1)
                        };
                        jiff::civil::Date::new(y, m, n as i8)
                            .ok()
                            .map(|x| x.to_string())
                    }
                }
            }
        }
    }
}

/// "15th" for 15.
pub fn ordinal_suffix(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The day a message settles on: the last one named, unless it is negated
/// ("thursday not tomorrow" → Thursday) or corrected ("wait no friday" →
/// Friday).
pub fn day_in(words: &[String]) -> Option<Day> {
    super::days::days_in(words).last().map(|w| w.day)
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
    fn a_day_of_a_named_month_is_the_next_one_and_the_end_is_the_last_day() {
        let on = |m, n| Day::InMonth(m, n).date("2026-01-13");
        assert_eq!(on(1, 20).as_deref(), Some("2026-01-20"));
        assert_eq!(on(1, 13).as_deref(), Some("2026-01-13"));
        // Passed this year: next year's.
        assert_eq!(on(1, 10).as_deref(), Some("2027-01-10"));
        assert_eq!(on(2, 31).as_deref(), Some("2026-02-28"));
        assert_eq!(month_day_words(2, 31), "the end of Feb");
        assert_eq!(month_day_words(1, 20), "Jan 20");
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

    #[test]
    fn a_day_after_another_counts_from_the_others_next_date() {
        // On Tuesday the 13th: three days after Saturday the 17th.
        assert_eq!(
            Day::After(5, 3).date("2026-01-13").as_deref(),
            Some("2026-01-20")
        );
        // Today counts as the next Tuesday.
        assert_eq!(
            Day::After(1, 1).date("2026-01-13").as_deref(),
            Some("2026-01-14")
        );
        assert_eq!(Day::After(5, 3).word(), "Tuesday after Saturday");
    }
}
