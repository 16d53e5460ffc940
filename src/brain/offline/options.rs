//! Recipe options against the kitchen: which recipes a set of exclusions
//! rules out, what each remaining one still needs, and the `options`
//! analysis Act returns and Reply presents.
//!
//! Pure over rows (JSON values with refs as `id`).

use serde_json::{Map, Value, json};

use super::items::Exclusion;
use super::text::{stem, stems};
use super::world::{ingredient_names, num_field, recipe_vocabulary, text_field};

/// Pantry staples nobody lists: never reported as missing.
const STAPLES: &[&str] = &["water", "salt", "black pepper", "pepper", "oil"];

/// True when the kitchen has something that covers `ingredient`.
pub fn in_kitchen(ingredient: &str, kitchen: &[String]) -> bool {
    let want = stems(ingredient);
    if want.is_empty() || STAPLES.contains(&ingredient) {
        return true;
    }
    kitchen.iter().any(|have| same_food(ingredient, have))
}

/// True when a recipe's ingredient and a kitchen item name the same food
/// ("chicken thigh" / "chicken thighs", "coconut milk" / "light coconut
/// milk"); staples are not assumed here.
pub fn same_food(ingredient: &str, have: &str) -> bool {
    let (want, h) = (stems(ingredient), stems(have));
    !want.is_empty()
        && (h == want
            || (want.len() > 1 && want.iter().all(|w| h.contains(w)))
            || (h.len() > 1 && h.iter().all(|w| want.contains(w))))
}

/// The ingredients of a recipe the kitchen lacks.
pub fn missing(recipe: &Value, kitchen: &[String]) -> Vec<String> {
    if kitchen.is_empty() {
        return Vec::new();
    }
    // An optional line ("sesame seeds" to garnish) is not needed.
    let optional: Vec<String> = recipe
        .get("ingredients")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|l| {
            l.get("is_optional")
                .is_some_and(|o| o.as_bool() == Some(true) || o.as_i64() == Some(1))
        })
        .filter_map(|l| l.get("name").and_then(Value::as_str).map(str::to_lowercase))
        .collect();
    ingredient_names(recipe)
        .into_iter()
        .filter(|n| !optional.contains(n) && !in_kitchen(n, kitchen))
        .collect()
}

/// Why an exclusion rules a recipe out ("contains cod"), if it does.
pub fn ruled_out_by(recipe: &Value, label: &str, ex: &Exclusion) -> Option<String> {
    let term: Vec<String> = stems(&ex.term);
    if term.is_empty() {
        return None;
    }
    let vocab = recipe_vocabulary(label, Some(recipe));
    if !term.iter().all(|t| vocab.contains(t)) {
        return None;
    }
    let in_name = term.iter().all(|t| stems(label).contains(t));
    Some(if in_name {
        ex.reason()
    } else {
        format!("contains {}", ex.term)
    })
}

/// One presented option.
pub fn option_entry(r: &str, row: &Value, missing: &[String]) -> Value {
    let minutes = num_field(row, "prep_time_minutes").unwrap_or(0.0)
        + num_field(row, "cook_time_minutes").unwrap_or(0.0);
    let mut m = Map::new();
    m.insert("ref".into(), json!(r));
    m.insert("name".into(), json!(text_field(row, "name").unwrap_or(r)));
    if let Some(s) = num_field(row, "servings") {
        m.insert("servings".into(), json!(s));
    }
    if minutes > 0.0 {
        m.insert("minutes".into(), json!(minutes));
    }
    if let Some(c) = text_field(row, "cuisine") {
        m.insert("cuisine".into(), json!(c));
    }
    m.insert("missing".into(), json!(missing));
    Value::Object(m)
}

/// Inventory names of rows.
pub fn kitchen_names<'a>(rows: impl IntoIterator<Item = &'a Value>) -> Vec<String> {
    rows.into_iter()
        .filter_map(|r| text_field(r, "name"))
        .map(str::to_lowercase)
        .collect()
}

/// True when an inventory row is exactly the named item ("eggs" ~ "egg";
/// "coconut milk" is not "milk").
pub fn same_item(row_name: &str, item: &str) -> bool {
    let a: Vec<String> = stems(row_name);
    let b: Vec<String> = item.split_whitespace().map(stem).collect();
    a == b
}

#[cfg(test)]
mod tests {
    use super::super::items::Refusal;
    use super::*;

    #[test]
    fn kitchen_coverage_and_exclusion_reasons() {
        let kitchen: Vec<String> = ["cod fillet", "coconut milk", "garlic", "lime"]
            .map(String::from)
            .to_vec();
        assert!(in_kitchen("cod fillet", &kitchen));
        assert!(in_kitchen("garlic", &kitchen));
        assert!(!in_kitchen("egg", &kitchen));
        assert!(!in_kitchen("milk", &kitchen));
        let recipe = json!({"name": "Kerala Cod Curry", "ingredients": [{"name": "cod fillet"}, {"name": "egg"}]});
        assert_eq!(missing(&recipe, &kitchen), vec!["egg".to_string()]);
        let ex = Exclusion {
            term: "cod".into(),
            how: Refusal::SaidNo,
            this_week: true,
        };
        assert_eq!(
            ruled_out_by(&recipe, "Kerala Cod Curry", &ex).as_deref(),
            Some("user said no cod this week")
        );
        let curry = json!({"ingredients": [{"name": "cod fillet"}]});
        assert_eq!(
            ruled_out_by(&curry, "Fish Stew", &ex).as_deref(),
            Some("contains cod")
        );
        assert!(same_item("egg", "egg"));
        assert!(same_item("eggs", "egg"));
        assert!(!same_item("coconut milk", "milk"));
    }
}
