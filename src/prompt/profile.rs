//! Renders the [`SessionContext`] that opens a Think prompt (seeds/001
//! `<session_context>`): the user's profile as Constraints / Has / Likes lines,
//! their preferences per domain, and the kitchen dashboard.
//!
//! Text only; the types stay in `session.rs`. Empty fields are left out rather
//! than shown as blanks, so the model never reads "Allergies: " as "none".

use crate::glance::{Dashboard, NamedCount, Profile, SessionContext};

/// Per-domain guidance is cut to this many characters.
pub const MAX_GUIDANCE_CHARS: usize = 800;

/// `<session_context>`: profile, preferences by domain, kitchen dashboard.
pub fn render_session_context(s: &SessionContext) -> String {
    let mut out = vec!["## User Profile".to_string()];
    out.extend(profile_lines(&s.profile));
    out.push("\n## User Preferences (by domain)".to_string());
    let prefs: Vec<String> = s
        .preferences
        .iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .map(|(k, v)| format!("**{k}:** {}", clip(v.trim(), MAX_GUIDANCE_CHARS)))
        .collect();
    if prefs.is_empty() {
        out.push("None recorded.".to_string());
    }
    out.extend(prefs);
    out.join("\n")
}

/// `kitchen_dashboard`: the kitchen at a glance. Its counts change nearly
/// every turn, so it sits at the end of Think's prompt, apart from the
/// profile (which the prompt cache keeps).
pub fn render_dashboard(d: &Dashboard) -> String {
    let mut out = vec!["## Kitchen Dashboard".to_string()];
    out.extend(dashboard_lines(d));
    out.join("\n")
}

/// "Label: a, b" when the list is not empty.
fn listed(label: &str, items: &[String]) -> Option<String> {
    let items: Vec<&str> = items
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    (!items.is_empty()).then(|| format!("{label}: {}", items.join(", ")))
}

/// "Label: value" when the value is not blank.
fn valued(label: &str, value: &str) -> Option<String> {
    let v = value.trim();
    (!v.is_empty()).then(|| format!("{label}: {v}"))
}

/// "2 adults, 1 kid" — `None` when nobody is recorded.
fn household(p: &Profile) -> Option<String> {
    let parts: Vec<String> = [
        (p.household_adults, "adult"),
        (p.household_kids, "kid"),
        (p.household_babies, "baby"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, w)| match (n, w) {
        (1, w) => format!("1 {w}"),
        (n, "baby") => format!("{n} babies"),
        (n, w) => format!("{n} {w}s"),
    })
    .collect();
    (!parts.is_empty()).then(|| format!("Household: {}", parts.join(", ")))
}

fn profile_lines(p: &Profile) -> Vec<String> {
    let lines = [
        (
            "Constraints",
            vec![
                listed("Diet", &p.dietary_restrictions),
                listed("Allergies", &p.allergies),
                listed("Dislikes", &p.disliked_ingredients),
            ],
        ),
        (
            "Has",
            vec![
                listed("Equipment", &p.available_equipment),
                valued("Skill", &p.cooking_skill_level),
                household(p),
                p.time_budget_minutes.map(|m| format!("Time: {m} min")),
            ],
        ),
        (
            "Likes",
            vec![
                listed("Cuisines", &p.favorite_cuisines),
                valued("Complexity", &p.preferred_complexity),
                listed("Goals", &p.nutrition_goals),
                listed("Vibes", &p.current_vibes),
            ],
        ),
        (
            "Rhythm",
            vec![
                valued("Cooks", &p.cooking_frequency),
                valued("Plans", &p.planning_rhythm),
            ],
        ),
    ];
    let out: Vec<String> = lines
        .into_iter()
        .filter_map(|(title, parts)| {
            let parts: Vec<String> = parts.into_iter().flatten().collect();
            (!parts.is_empty()).then(|| format!("**{title}:** {}", parts.join(" | ")))
        })
        .collect();
    if out.is_empty() {
        vec!["No profile recorded yet.".to_string()]
    } else {
        out
    }
}

/// " (indian: 3, thai: 2)" or "" when there is no breakdown.
fn breakdown(counts: &[NamedCount]) -> String {
    if counts.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|c| format!("{}: {}", c.name, c.count))
        .collect();
    format!(" ({})", parts.join(", "))
}

fn dashboard_lines(d: &Dashboard) -> Vec<String> {
    let mut out = vec![
        format!(
            "- **Recipes:** {} saved{}",
            d.recipes_total,
            breakdown(&d.recipes_by_cuisine)
        ),
        format!(
            "- **Inventory:** {} items{}",
            d.inventory_total,
            breakdown(&d.inventory_by_location)
        ),
    ];
    if !d.expiring_soon.is_empty() {
        out.push(format!(
            "- **Expiring soon:** {}",
            d.expiring_soon.join(", ")
        ));
    }
    out.push(if d.meal_slots_next_7_days == 0 {
        "- **Meal Plan:** Nothing planned for next 7 days".to_string()
    } else {
        format!(
            "- **Meal Plan:** {} meals planned across {} of the next 7 days",
            d.meal_slots_next_7_days, d.meal_days_covered_next_7_days
        )
    });
    out.push(format!(
        "- **Shopping list:** {} open items",
        d.shopping_open
    ));
    out.push(format!("- **Tasks:** {} open", d.tasks_open));
    out
}

/// Cuts text to `max` characters, marking the cut.
pub(crate) fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_session_says_so_instead_of_blank_fields() {
        let text = render_session_context(&SessionContext::default());
        assert!(text.contains("No profile recorded yet."));
        assert!(text.contains("None recorded."));
        let dash = render_dashboard(&Dashboard::default());
        assert!(dash.contains("Nothing planned for next 7 days"));
        assert!(!text.contains("Allergies"));
    }

    #[test]
    fn profile_groups_into_constraints_has_likes() {
        let s = SessionContext {
            profile: Profile {
                allergies: vec!["shellfish".into()],
                available_equipment: vec!["air-fryer".into()],
                cooking_skill_level: "beginner".into(),
                household_adults: 2,
                household_babies: 2,
                favorite_cuisines: vec!["indian".into(), "thai".into()],
                ..Profile::default()
            },
            dashboard: Dashboard {
                meal_slots_next_7_days: 4,
                meal_days_covered_next_7_days: 2,
                ..Dashboard::default()
            },
            ..SessionContext::default()
        };
        let text = render_session_context(&s);
        assert!(
            text.contains("**Constraints:** Allergies: shellfish\n"),
            "{text}"
        );
        assert!(text.contains(
            "**Has:** Equipment: air-fryer | Skill: beginner | Household: 2 adults, 2 babies"
        ));
        assert!(text.contains("**Likes:** Cuisines: indian, thai"));
        assert!(!text.contains("Kitchen Dashboard"), "{text}");
        assert!(
            render_dashboard(&s.dashboard).contains("4 meals planned across 2 of the next 7 days")
        );
    }

    #[test]
    fn long_guidance_is_clipped() {
        let mut s = SessionContext::default();
        s.preferences.insert("recipes".into(), "x".repeat(2000));
        let text = render_session_context(&s);
        let line = text
            .lines()
            .find(|l| l.starts_with("**recipes:**"))
            .unwrap();
        assert_eq!(
            line.chars().count(),
            "**recipes:** ".len() + MAX_GUIDANCE_CHARS
        );
        assert!(line.ends_with('…'));
    }
}
