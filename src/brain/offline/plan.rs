//! Meal-plan slots: the user's cooking days (from the profile), the next
//! date of a weekday from today, and the `meal_plans` artifacts of "the
//! paneer on sunday and the curry on wednesday" (one per slot).
//!
//! Pure: today comes in as `YYYY-MM-DD`; nothing reads the clock.

use std::collections::BTreeMap;

use jiff::civil::Date;
use serde_json::{Value, json};

use crate::kitchen::meal_plan_label;
use crate::prompt::Profile;

use super::text::{Words, weekday_index, weekday_name};

/// The weekdays (0 = Monday) the user usually cooks, from their profile.
pub fn cooking_days(profile: &Profile, preferences: &BTreeMap<String, String>) -> Vec<u8> {
    let mut texts = vec![
        profile.cooking_frequency.clone(),
        profile.planning_rhythm.clone(),
    ];
    texts.extend(preferences.get("meal_plans").cloned());
    let mut days = Vec::new();
    for t in texts {
        for w in Words::new(&t).words {
            if let Some(d) = weekday_index(&w)
                && !days.contains(&d)
            {
                days.push(d);
            }
        }
    }
    days
}

/// "Sundays and Wednesdays".
pub fn days_phrase(days: &[u8]) -> String {
    let names: Vec<String> = days
        .iter()
        .map(|d| format!("{}s", weekday_name(*d)))
        .collect();
    super::text::join_list(&names, "and")
}

/// Weekdays named in a text, in order (0 = Monday).
pub fn days_in(text: &str) -> Vec<u8> {
    Words::new(text)
        .words
        .iter()
        .filter_map(|w| weekday_index(w))
        .collect()
}

/// The date of the next `weekday` on or after `today`.
pub fn next_date(today: &str, weekday: u8) -> Option<String> {
    let d: Date = today.trim().parse().ok()?;
    let now = d.weekday().to_monday_zero_offset();
    let ahead = (i64::from(weekday % 7) - i64::from(now)).rem_euclid(7);
    d.checked_add(jiff::Span::new().days(ahead))
        .ok()
        .map(|x| x.to_string())
}

/// The days to use for `n` recipes: the ones the user named, then their
/// cooking days, then the rest of the week from Monday.
pub fn fill_days(named: &[u8], usual: &[u8], n: usize) -> Vec<u8> {
    let mut out: Vec<u8> = named.iter().copied().take(n).collect();
    for d in usual.iter().copied().chain(0..7) {
        if out.len() >= n {
            break;
        }
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// The days to draft `n` recipes on: one recipe said with several days
/// goes on each of them ("paneer tikka sun and wed"); otherwise one day a
/// recipe, as [`fill_days`] gives them.
pub fn slot_days(named: &[u8], usual: &[u8], n: usize) -> Vec<u8> {
    let mut distinct: Vec<u8> = Vec::new();
    for d in named {
        if !distinct.contains(d) {
            distinct.push(*d);
        }
    }
    if n == 1 && distinct.len() > 1 {
        return distinct;
    }
    fill_days(named, usual, n)
}

/// The weekdays a message names (0 = Monday), as the day reader settles
/// them: "sun and wed", "tonight", "thu not fri" (Thursday only).
pub fn weekdays_said(w: &Words, today: &str) -> Vec<u8> {
    super::skills::days::days_at(w)
        .into_iter()
        .filter_map(|(_, d)| d.day.date(today))
        .filter_map(|date| date.parse::<Date>().ok())
        .map(|d| d.weekday().to_monday_zero_offset() as u8)
        .collect()
}

/// One slot of a plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    pub recipe: String,
    pub recipe_label: String,
    pub day: u8,
    pub meal_type: &'static str,
}

/// The meal type a phrase names ("lunch"), dinner by default.
pub fn meal_type_of(text: &str) -> &'static str {
    let w = Words::new(text);
    if w.has("lunch") {
        "lunch"
    } else if w.has("breakfast") || w.has("brunch") {
        "breakfast"
    } else {
        "dinner"
    }
}

/// The artifact of one slot: a `meal_plans` row not yet saved.
pub fn slot_artifact(slot: &Slot, today: &str, servings: u32) -> Option<Value> {
    let date = next_date(today, slot.day)?;
    Some(json!({
        "table": "meal_plans",
        "date": date,
        "meal_type": slot.meal_type,
        "recipe_id": slot.recipe,
        "servings": servings,
        "notes": format!("{} — make extra for lunch the next day", slot.recipe_label),
    }))
}

/// "Sun Jan 18 [dinner]" for an artifact or row.
pub fn slot_label(row: &Value) -> String {
    let s = |k: &str| row.get(k).and_then(Value::as_str).unwrap_or_default();
    meal_plan_label(s("date"), s("meal_type"))
}

/// The recipes a message names clause by clause, each with its day:
/// "the paneer on sunday and the curry on wednesday" → [(paneer, Sun),
/// (curry, Wed)]. Clauses without recipe words are left out.
pub fn named_clauses(w: &super::text::Words) -> Vec<(Vec<String>, Option<u8>)> {
    w.segments
        .iter()
        .filter_map(|seg| {
            let words: Vec<String> = super::targets::content_words(seg)
                .into_iter()
                .filter(|x| super::text::weekday_index(x).is_none())
                .filter(|x| !matches!(x.as_str(), "lets" | "let's" | "do" | "dinner" | "lunch"))
                .collect();
            let day = seg.iter().find_map(|x| super::text::weekday_index(x));
            (!words.is_empty()).then_some((words, day))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_dates_count_from_today() {
        // 2026-01-13 is a Tuesday.
        assert_eq!(next_date("2026-01-13", 6).as_deref(), Some("2026-01-18"));
        assert_eq!(next_date("2026-01-13", 2).as_deref(), Some("2026-01-14"));
        assert_eq!(next_date("2026-01-13", 1).as_deref(), Some("2026-01-13"));
        assert_eq!(next_date("not a date", 1), None);
    }

    #[test]
    fn one_recipe_takes_every_day_named() {
        assert_eq!(slot_days(&[6, 2], &[], 1), vec![6, 2]);
        assert_eq!(slot_days(&[6, 2], &[], 2), vec![6, 2]);
        assert_eq!(slot_days(&[6], &[2], 2), vec![6, 2]);
        assert_eq!(slot_days(&[6, 6], &[], 1), vec![6]);
        let said = |s: &str| weekdays_said(&Words::new(s), "2026-01-13");
        assert_eq!(said("paneer tikka sun and wed"), vec![6, 2]);
        assert_eq!(
            said("lets do the paneer on sunday instead of wednesday"),
            vec![6]
        );
        assert_eq!(said("the curry tonight"), vec![1]);
    }

    #[test]
    fn cooking_days_come_from_the_profile() {
        let profile = Profile {
            cooking_frequency: "2-3 times a week, usually Sunday and Wednesday".into(),
            ..Profile::default()
        };
        let days = cooking_days(&profile, &BTreeMap::new());
        assert_eq!(days, vec![6, 2]);
        assert_eq!(days_phrase(&days), "Sundays and Wednesdays");
        assert_eq!(fill_days(&[], &days, 3), vec![6, 2, 0]);
        assert_eq!(fill_days(&[4], &days, 2), vec![4, 6]);
    }

    #[test]
    fn slots_become_meal_plan_rows() {
        let slot = Slot {
            recipe: "recipe_3".into(),
            recipe_label: "Air Fryer Paneer Tikka".into(),
            day: 6,
            meal_type: meal_type_of("the paneer on sunday"),
        };
        let a = slot_artifact(&slot, "2026-01-13", 4).unwrap();
        assert_eq!(a["date"], "2026-01-18");
        assert_eq!(a["meal_type"], "dinner");
        assert_eq!(a["recipe_id"], "recipe_3");
        assert_eq!(slot_label(&a), "Sun Jan 18 [dinner]");
    }
}
