//! What Think writes into a step's description for Act to honour — servings
//! and ingredients to avoid — written and read here so the two agree.
//!
//! Act sees no profile, only the step; the description carries the
//! profile-derived parts in plain words: "(serves 2; avoid shellfish,
//! mushroom)".

use crate::prompt::SessionContext;

use super::text::{Words, number};

/// How many the user cooks for: adults + kids, at least one (2 if unset).
pub fn household(session: &SessionContext) -> u32 {
    let p = &session.profile;
    match p.household_adults + p.household_kids {
        0 => 2,
        n => n,
    }
}

/// True when the user likes leftovers for lunch.
pub fn wants_leftovers(session: &SessionContext) -> bool {
    let p = &session.profile;
    let mut text = format!("{} {}", p.planning_rhythm, p.cooking_frequency);
    if let Some(g) = session.preferences.get("meal_plans") {
        text.push(' ');
        text.push_str(g);
    }
    text.to_lowercase().contains("leftover")
}

/// Allergies and dislikes, as words to avoid.
pub fn avoid_words(session: &SessionContext) -> Vec<String> {
    let p = &session.profile;
    p.allergies
        .iter()
        .chain(&p.disliked_ingredients)
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

/// "(serves 2; avoid shellfish, mushroom)".
pub fn note(servings: u32, avoid: &[String]) -> String {
    if avoid.is_empty() {
        format!("(serves {servings})")
    } else {
        format!("(serves {servings}; avoid {})", avoid.join(", "))
    }
}

/// The servings a description names ("serves 4").
pub fn serves(description: &str) -> Option<u32> {
    let w = Words::new(description).words;
    w.windows(2)
        .find(|p| p[0] == "serves")
        .and_then(|p| number(&p[1]))
        .filter(|n| (1.0..=50.0).contains(n))
        .map(|n| n as u32)
}

/// The words a description asks to avoid ("avoid shellfish, mushroom)").
pub fn avoid(description: &str) -> Vec<String> {
    let lower = description.to_lowercase();
    let Some(i) = lower.find("avoid ") else {
        return Vec::new();
    };
    let rest = &lower[i + "avoid ".len()..];
    let rest = rest.split(')').next().unwrap_or(rest);
    rest.split([',', ';'])
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_round_trip() {
        let n = note(4, &["shellfish".into(), "mushroom".into()]);
        assert_eq!(n, "(serves 4; avoid shellfish, mushroom)");
        let d = format!("Create a curry recipe {n}");
        assert_eq!(serves(&d), Some(4));
        assert_eq!(avoid(&d), vec!["shellfish", "mushroom"]);
        assert_eq!(serves("Create a curry"), None);
        assert!(avoid("no hints").is_empty());
    }
}
