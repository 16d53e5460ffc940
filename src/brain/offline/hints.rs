//! What Think writes into a step's description for Act to honour — servings
//! and ingredients to avoid — written and read here so the two agree.
//!
//! Act sees no profile, only the step; the description carries the
//! profile-derived parts in plain words: "(serves 2; avoid shellfish,
//! mushroom)".

use crate::prompt::SessionContext;

use super::skills::cook::build::Avoid;

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

/// The profile's allergies, lowercase.
pub fn allergy_words(session: &SessionContext) -> Vec<String> {
    clean(&session.profile.allergies)
}

/// The profile's dislikes, lowercase.
pub fn dislike_words(session: &SessionContext) -> Vec<String> {
    clean(&session.profile.disliked_ingredients)
}

fn clean(list: &[String]) -> Vec<String> {
    list.iter()
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The note for a step that must respect the profile: the household's
/// servings, its allergies and dislikes, and the request's `without` words.
pub fn profile_note(session: &SessionContext, without: &[String]) -> String {
    note_why(
        household(session),
        &allergy_words(session),
        &dislike_words(session),
        without,
    )
}

/// "(serves 2; allergic to shellfish; dislikes mushroom; avoid nut)": the
/// note with each word's reason, so a built recipe can say why it swapped.
pub fn note_why(
    servings: u32,
    allergic: &[String],
    disliked: &[String],
    without: &[String],
) -> String {
    let mut parts = vec![format!("serves {servings}")];
    if !allergic.is_empty() {
        parts.push(format!("allergic to {}", allergic.join(", ")));
    }
    if !disliked.is_empty() {
        parts.push(format!("dislikes {}", disliked.join(", ")));
    }
    if !without.is_empty() {
        parts.push(format!("avoid {}", without.join(", ")));
    }
    format!("({})", parts.join("; "))
}

/// What a step's note rules out, with why: the profile's allergies and
/// dislikes and the request's own "without …" words.
pub fn avoid_of(description: &str) -> Avoid {
    Avoid {
        allergic: listed(description, "allergic to "),
        disliked: listed(description, "dislikes "),
        without: listed(description, "avoid "),
    }
}

/// The words after `label` in a note, up to the next `;` or `)`.
pub fn listed(description: &str, label: &str) -> Vec<String> {
    let lower = description.to_lowercase();
    let Some(i) = lower.find(label) else {
        return Vec::new();
    };
    let rest = &lower[i + label.len()..];
    let rest = rest.split([')', ';']).next().unwrap_or(rest);
    rest.split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_round_trip() {
        let n = note_why(4, &["shellfish".into()], &["mushroom".into()], &[]);
        assert_eq!(n, "(serves 4; allergic to shellfish; dislikes mushroom)");
        let d = format!("Create a curry recipe {n}");
        assert_eq!(serves(&d), Some(4));
        assert_eq!(listed(&d, "allergic to "), vec!["shellfish"]);
        assert_eq!(listed(&d, "dislikes "), vec!["mushroom"]);
        assert!(listed(&d, "avoid ").is_empty());
        assert_eq!(serves("Create a curry"), None);
    }
}
