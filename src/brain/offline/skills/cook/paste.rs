//! A recipe pasted into the chat ("here's one from a site: Garlic Butter
//! Pasta / 200g spaghetti / 3 cloves garlic / … / Boil the pasta. …"):
//! read as it is — its title, its ingredient lines, its steps — never
//! replaced by a dish of the brain's own. Lines are split at line breaks
//! or " / "; an ingredient line is a short line of food, with an amount or
//! not; a step is a sentence.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::super::super::items::parse_item;
use super::super::super::text::Words;
use super::super::super::vocab::is_food;

/// The recipe as pasted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pasted {
    pub name: String,
    /// (name, quantity, unit) per ingredient line.
    pub lines: Vec<(String, Option<f64>, Option<String>)>,
    pub steps: Vec<String>,
    /// The message also asked to save it ("save this pls").
    #[serde(default)]
    pub save: bool,
}

/// Ingredient lines a paste needs at least.
const MIN_LINES: usize = 2;

/// The pasted recipe in `message`, if it is one.
pub fn read(message: &str) -> Option<Pasted> {
    let parts: Vec<&str> = message
        .split(['\n', '/'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 4 {
        return None;
    }
    let mut name = String::new();
    let mut lines = Vec::new();
    let mut steps: Vec<String> = Vec::new();
    let mut save = false;
    for (i, part) in parts.iter().enumerate() {
        let words = Words::new(part);
        let n = words.words.len();
        // The title: the first part, after any "here's a recipe:".
        if i == 0 {
            let title = part.rsplit(':').next().unwrap_or(part).trim();
            if !title.is_empty() && title.split_whitespace().count() <= 8 {
                name = title.to_string();
                continue;
            }
        }
        if words.has_any(&["save", "add it to my recipes", "keep it", "keep this"]) && n <= 8 {
            save |= words.has("save") || words.has("keep");
            // "… Toss. save this pls": the steps before the request.
            let before = part.split_terminator(['.', '!']).map(str::trim);
            for s in before.filter(|s| !s.to_lowercase().contains("save") && !s.is_empty()) {
                steps.push(sentence(s));
            }
            continue;
        }
        let item = (n <= 6).then(|| parse_item(&words.words)).flatten();
        match item {
            Some(it) if is_food(&it.name) && lines.len() < 40 => {
                lines.push((it.name, it.quantity, it.unit));
            }
            _ => {
                for s in part.split_terminator(['.', '!']).map(str::trim) {
                    if s.to_lowercase().contains("save") && s.split_whitespace().count() <= 5 {
                        save = true;
                    } else if !s.is_empty() {
                        steps.push(sentence(s));
                    }
                }
            }
        }
    }
    (lines.len() >= MIN_LINES && !name.is_empty()).then_some(Pasted {
        name: title_case(&name),
        lines,
        steps,
        save,
    })
}

/// "boil pasta" → "Boil pasta."
fn sentence(s: &str) -> String {
    let mut c = s.chars();
    let first: String = c
        .next()
        .map(|f| f.to_uppercase().collect())
        .unwrap_or_default();
    format!("{first}{}.", c.as_str().trim_end_matches('.'))
}

/// "garlic butter pasta" → "Garlic Butter Pasta".
fn title_case(s: &str) -> String {
    s.split_whitespace()
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The recipe as the pipeline registers a draft.
pub fn artifact(p: &Pasted, servings: u32) -> Value {
    let ingredients: Vec<Value> = p
        .lines
        .iter()
        .map(|(n, q, u)| {
            json!({"name": n, "quantity": q.unwrap_or(1.0),
                   "unit": u.clone().unwrap_or_default()})
        })
        .collect();
    json!({
        "table": "recipes",
        "name": p.name,
        "description": "Your recipe, as pasted.",
        "difficulty": "easy",
        "servings": servings.max(1),
        "prep_time_minutes": 10,
        "cook_time_minutes": 20,
        "instructions": p.steps,
        "ingredients": ingredients,
        "tags": ["pasted"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pasted_recipe_keeps_its_title_lines_and_steps() {
        let p = read(
            "found this one: Lemon Herb Couscous / 250g couscous / 1 lemon / a handful of \
             parsley / 2 tbsp olive oil / Pour boiling water over the couscous. Stir in the rest",
        )
        .expect("a paste");
        assert_eq!(p.name, "Lemon Herb Couscous");
        let names: Vec<&str> = p.lines.iter().map(|l| l.0.as_str()).collect();
        assert!(
            names.contains(&"couscous") && names.contains(&"lemon"),
            "{names:?}"
        );
        assert_eq!(p.lines[0].1, Some(250.0));
        assert_eq!(p.steps.len(), 2, "{:?}", p.steps);
        assert!(!p.save);
        let saved = read("Quick Slaw\ncabbage\n2 carrots\nmayo\nShred and mix. save it please")
            .expect("a paste");
        assert!(saved.save && saved.steps == ["Shred and mix."], "{saved:?}");
    }

    #[test]
    fn an_ordinary_message_is_no_paste() {
        assert!(read("add milk / eggs to the list").is_none());
        assert!(read("what can i make with eggs").is_none());
    }
}
