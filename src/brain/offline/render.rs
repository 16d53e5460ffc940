//! How results read in a reply: a recipe in full, an option line, a plan
//! slot, an inventory list, written rows.
//!
//! Pure formatting over JSON rows; no decisions about what to say.

use serde_json::Value;

use crate::kitchen::meal_plan_label;

use super::text::{fmt_number, join_list, plural_noun};
use super::world::{num_field, text_field, texts};

/// "32 min", "1 h 5 min".
pub fn minutes_text(m: f64) -> String {
    let m = m.round() as i64;
    if m >= 60 {
        let rest = m % 60;
        if rest == 0 {
            format!("{} h", m / 60)
        } else {
            format!("{} h {rest} min", m / 60)
        }
    } else {
        format!("{m} min")
    }
}

/// "serves 2 · 32 min" from a recipe row or option entry.
pub fn serving_time(v: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(s) = num_field(v, "servings") {
        parts.push(format!("serves {}", fmt_number(s)));
    }
    let minutes = num_field(v, "minutes").unwrap_or_else(|| {
        num_field(v, "prep_time_minutes").unwrap_or(0.0)
            + num_field(v, "cook_time_minutes").unwrap_or(0.0)
    });
    if minutes > 0.0 {
        parts.push(minutes_text(minutes));
    }
    parts.join(" · ")
}

/// One option: "- Air Fryer Paneer Tikka (serves 2 · 32 min)", with what
/// is missing when it is one or two things.
pub fn option_line(o: &Value) -> String {
    let name = text_field(o, "name").unwrap_or("?");
    let st = serving_time(o);
    let mut line = if st.is_empty() {
        format!("- {name}")
    } else {
        format!("- {name} ({st})")
    };
    let missing = texts(o.get("missing"));
    if (1..=2).contains(&missing.len()) {
        line.push_str(&format!(" — you'd need {}", join_list(&missing, "and")));
    }
    line
}

/// A unit for a quantity: "2 cloves", "1 can", "500 g".
pub fn unit_text(q: f64, unit: &str) -> String {
    const COUNTED: &[&str] = &[
        "clove", "slice", "can", "jar", "pack", "bag", "box", "bottle", "bunch", "cup", "squeeze",
        "pinch", "handful", "piece", "tin", "stalk", "sprig", "tub", "carton", "punnet",
    ];
    if q > 1.0 && COUNTED.contains(&unit) {
        plural_noun(unit)
    } else {
        unit.to_string()
    }
}

/// An ingredient line: "400 g chicken thigh", "2 egg" → "2 eggs".
pub fn ingredient_text(l: &Value) -> String {
    let name = match l {
        Value::String(s) => return s.clone(),
        _ => text_field(l, "name").unwrap_or("?").to_string(),
    };
    let q = num_field(l, "quantity");
    let unit = text_field(l, "unit").unwrap_or("");
    match (q, unit) {
        (Some(q), "pcs" | "") => {
            let n = if q > 1.0 { plural_noun(&name) } else { name };
            format!("{} {n}", fmt_number(q))
        }
        (Some(q), u) => format!("{} {} {name}", fmt_number(q), unit_text(q, u)),
        (None, _) => name,
    }
}

/// A recipe in full: title line, description, ingredients, steps.
pub fn recipe_block(r: &Value) -> String {
    let name = text_field(r, "name").unwrap_or("Untitled recipe");
    let st = serving_time(r);
    let mut out = if st.is_empty() {
        format!("**{name}**")
    } else {
        format!("**{name}** — {st}")
    };
    if let Some(d) = text_field(r, "description").filter(|d| !d.trim().is_empty()) {
        out.push('\n');
        out.push_str(d.trim());
    }
    if let Some(lines) = r
        .get("ingredients")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
    {
        out.push_str("\n\nIngredients:");
        for l in lines {
            out.push_str(&format!("\n- {}", ingredient_text(l)));
        }
    }
    if let Some(steps) = r
        .get("instructions")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
    {
        out.push_str("\n\nSteps:");
        for (i, s) in steps.iter().filter_map(Value::as_str).enumerate() {
            out.push_str(&format!("\n{}. {}", i + 1, s.trim()));
        }
    }
    out
}

/// "Sun Jan 18 (dinner)".
pub fn slot_day(row: &Value) -> String {
    let date = text_field(row, "date").unwrap_or("");
    let meal = text_field(row, "meal_type").unwrap_or("dinner");
    meal_plan_label(date, meal)
        .replace(" [", " (")
        .replace(']', ")")
}

/// "- Sun Jan 18 (dinner): Air Fryer Paneer Tikka".
pub fn slot_line(row: &Value, recipe_name: &str) -> String {
    format!("- {}: {recipe_name}", slot_day(row))
}

/// An inventory item: "paneer (250 g)".
pub fn item_text(v: &Value) -> String {
    let name = text_field(v, "name").unwrap_or("?");
    match (num_field(v, "quantity"), text_field(v, "unit")) {
        (Some(q), Some(u)) if !u.is_empty() => {
            format!("{name} ({} {})", fmt_number(q), unit_text(q, u))
        }
        (Some(q), _) => format!("{name} ({})", fmt_number(q)),
        _ => name.to_string(),
    }
}

/// Items as bullets (up to 12) or as one compact line per location.
pub fn inventory_text(items: &[Value]) -> String {
    if items.len() <= 12 {
        return items
            .iter()
            .map(|i| format!("- {}", item_text(i)))
            .collect::<Vec<_>>()
            .join("\n");
    }
    let mut locations: Vec<&str> = Vec::new();
    for i in items {
        let l = text_field(i, "location").unwrap_or("elsewhere");
        if !locations.contains(&l) {
            locations.push(l);
        }
    }
    locations
        .iter()
        .map(|l| {
            let here: Vec<String> = items
                .iter()
                .filter(|i| text_field(i, "location").unwrap_or("elsewhere") == *l)
                .map(item_text)
                .collect();
            let title = super::text::title_case(l);
            format!("**{title}** ({}): {}", here.len(), here.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn lines_read_like_a_person_wrote_them() {
        let o = json!({"name": "Air Fryer Paneer Tikka", "servings": 2, "minutes": 32, "missing": ["naan"]});
        assert_eq!(
            option_line(&o),
            "- Air Fryer Paneer Tikka (serves 2 · 32 min) — you'd need naan"
        );
        assert_eq!(
            ingredient_text(&json!({"name": "egg", "quantity": 12, "unit": "pcs"})),
            "12 eggs"
        );
        assert_eq!(
            ingredient_text(&json!({"name": "lime juice", "quantity": 1, "unit": "tbsp"})),
            "1 tbsp lime juice"
        );
        assert_eq!(
            slot_day(&json!({"date": "2026-01-18", "meal_type": "dinner"})),
            "Sun Jan 18 (dinner)"
        );
        assert_eq!(minutes_text(65.0), "1 h 5 min");
        let block = recipe_block(
            &json!({"name": "Dal", "servings": 2, "instructions": ["a", "b"], "ingredients": [{"name": "red lentils", "quantity": 200, "unit": "g"}]}),
        );
        assert!(block.starts_with("**Dal** — serves 2"));
        assert!(block.contains("- 200 g red lentils") && block.contains("2. b"));
    }
}
