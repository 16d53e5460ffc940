//! Generated recipes: picks templates for what the user asked ("a thai basil
//! chicken recipe", "2 chicken dinner ideas"), or builds a simple one from
//! the dish words, then scales it and leaves out what the user must avoid.
//!
//! Produces artifact content exactly as the pipeline registers it
//! (`{"table": "recipes", name, description, …, ingredients}`); never
//! touches the registry itself.

use serde_json::{Value, json};

use super::lexicon::GenerateAsk;
use super::templates::{Line, TEMPLATES, Template};
use super::text::{stem, stems, title_case};

/// What generation must respect.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GenCtx {
    pub servings: u32,
    /// Ingredient words to leave out (allergies, dislikes, "without …").
    pub avoid: Vec<String>,
    /// Names already in use, so ideas do not repeat.
    pub taken: Vec<String>,
}

/// Expands allergy words into the ingredients they cover.
pub fn expand_avoid(words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for w in words {
        let w = stem(&w.to_lowercase());
        if w.contains("shellfish") || w == "seafood" {
            out.extend(
                [
                    "prawn", "shrimp", "crab", "lobster", "mussel", "clam", "scallop", "oyster",
                ]
                .map(String::from),
            );
        } else if w.contains("nut") && w != "nutmeg" {
            out.extend(["peanut", "cashew", "almond", "walnut"].map(String::from));
        } else if !w.is_empty() {
            out.push(w);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Recipes for a request: `ask.count` of them, each a full artifact.
pub fn generate_recipes(ask: &GenerateAsk, ctx: &GenCtx) -> Vec<Value> {
    let dish = ask.dish.trim().to_lowercase();
    let mut picked: Vec<Template> = Vec::new();
    if let Some(t) = best_keyword_match(&dish) {
        picked.push(t);
    }
    let protein = protein_of(&dish).or_else(|| picked.first().map(|t| t.protein));
    let unused = |t: &Template, picked: &[Template]| {
        !picked.iter().any(|p| p.name == t.name)
            && !ctx.taken.iter().any(|n| n.eq_ignore_ascii_case(t.name))
    };
    if picked.len() < ask.count && (protein.is_some() || dish.is_empty()) {
        for t in TEMPLATES {
            if picked.len() >= ask.count {
                break;
            }
            let fits = protein.is_none_or(|p| t.protein == p) && !avoided(t, &ctx.avoid);
            if fits && unused(t, &picked) {
                picked.push(*t);
            }
        }
    }
    let mut out: Vec<Value> = picked.iter().map(|t| from_template(t, ctx)).collect();
    while out.len() < ask.count {
        let n = out.len();
        out.push(generic(&dish, n, ctx));
    }
    out.truncate(ask.count.max(1));
    if let Some(meal) = &ask.meal {
        for r in &mut out {
            r["tags"] = json!([meal, "generated"]);
        }
    }
    out
}

/// The template whose longest keyword appears in the dish words.
fn best_keyword_match(dish: &str) -> Option<Template> {
    if dish.is_empty() {
        return None;
    }
    let dish_stems = stems(dish).join(" ");
    TEMPLATES
        .iter()
        .filter_map(|t| {
            let best = t
                .keywords
                .iter()
                .filter(|k| {
                    let k = stems(k).join(" ");
                    format!(" {dish_stems} ").contains(&format!(" {k} "))
                })
                .map(|k| k.len())
                .max()?;
            Some((best, *t))
        })
        .max_by_key(|(len, _)| *len)
        .map(|(_, t)| t)
}

const PROTEINS: &[&str] = &[
    "chicken", "beef", "pork", "lamb", "tofu", "paneer", "cod", "salmon", "prawn", "shrimp", "egg",
    "chickpea", "lentil", "bean", "mushroom", "turkey", "halloumi", "fish",
];

fn protein_of(dish: &str) -> Option<&'static str> {
    let s = stems(dish);
    PROTEINS.iter().copied().find(|p| s.iter().any(|w| w == p))
}

fn avoided(t: &Template, avoid: &[String]) -> bool {
    t.lines.iter().any(|(n, _, _)| is_avoided(n, avoid))
}

fn is_avoided(name: &str, avoid: &[String]) -> bool {
    let s = stems(name);
    avoid.iter().any(|a| s.iter().any(|w| w == a))
}

fn line_json(lines: &[Line], factor: f64, avoid: &[String]) -> Vec<Value> {
    lines
        .iter()
        .filter(|(n, _, _)| !is_avoided(n, avoid))
        .map(|(n, q, u)| json!({"name": n, "quantity": round_qty(q * factor, u), "unit": u}))
        .collect()
}

fn round_qty(q: f64, unit: &str) -> f64 {
    match unit {
        "g" | "ml" => (q / 5.0).round().max(1.0) * 5.0,
        _ => ((q * 2.0).round() / 2.0).max(0.5),
    }
}

fn from_template(t: &Template, ctx: &GenCtx) -> Value {
    let servings = ctx.servings.max(1);
    let factor = f64::from(servings) / 2.0;
    json!({
        "table": "recipes",
        "name": t.name,
        "description": t.description,
        "cuisine": t.cuisine,
        "difficulty": "easy",
        "servings": servings,
        "prep_time_minutes": t.prep,
        "cook_time_minutes": t.cook,
        "instructions": t.steps,
        "ingredients": line_json(t.lines, factor, &ctx.avoid),
        "tags": ["generated"],
    })
}

/// A simple recipe built from the dish words when no template fits.
fn generic(dish: &str, n: usize, ctx: &GenCtx) -> Value {
    let asked = protein_of(dish);
    let mut protein = asked.unwrap_or("chickpea");
    let mut note = String::new();
    if ctx.avoid.iter().any(|a| a == protein) {
        protein = if matches!(protein, "prawn" | "shrimp" | "fish") {
            "cod"
        } else {
            "chickpea"
        };
        note = format!(
            " Made with {protein} instead of {}, which you avoid.",
            asked.unwrap_or_default()
        );
    }
    let base = if dish.is_empty() {
        format!("{protein} traybake")
    } else {
        match asked {
            Some(a) if a != protein => dish.replace(a, protein),
            _ => dish.to_string(),
        }
    };
    let name = match n {
        0 => title_case(&base),
        1 => format!("Easy {}", title_case(&base)),
        _ => format!("{} Bowl", title_case(&base)),
    };
    let (style_lines, steps) = style(&stems(dish), protein);
    let servings = ctx.servings.max(1);
    let factor = f64::from(servings) / 2.0;
    let main: Line = match protein {
        "chickpea" | "bean" => ("chickpeas", 1.0, "can"),
        "lentil" => ("red lentils", 200.0, "g"),
        "egg" => ("egg", 4.0, "pcs"),
        _ => (protein, 300.0, "g"),
    };
    let mut lines: Vec<Line> = vec![main, ("onion", 1.0, "pcs"), ("garlic", 2.0, "clove")];
    lines.extend(style_lines);
    json!({
        "table": "recipes",
        "name": name,
        "description": format!(
            "A simple {base} from the offline brain's basic templates — a starting point to tweak.{note}"
        ),
        "cuisine": "home-style",
        "difficulty": "easy",
        "servings": servings,
        "prep_time_minutes": 10,
        "cook_time_minutes": 25,
        "instructions": steps,
        "ingredients": line_json(&lines, factor, &ctx.avoid),
        "tags": ["generated"],
    })
}

/// Extra lines and the 5 steps of a dish style.
fn style(words: &[String], protein: &str) -> (Vec<Line>, Vec<String>) {
    let has = |w: &str| words.iter().any(|x| x == w);
    let p = protein.to_string();
    if has("soup") || has("stew") {
        return (
            vec![
                ("vegetable stock", 1.0, "l"),
                ("potato", 2.0, "pcs"),
                ("chopped tomatoes", 1.0, "can"),
            ],
            vec![
                "Soften the onion and garlic in a large pot for 5 minutes.".into(),
                format!("Add the {p} and cook for 3 minutes."),
                "Add the stock, diced potato and tomatoes and simmer for 20 minutes.".into(),
                "Season to taste.".into(),
                "Serve hot with bread.".into(),
            ],
        );
    }
    if has("pasta") || has("spaghetti") || has("lasagna") {
        return (
            vec![
                ("spaghetti", 200.0, "g"),
                ("chopped tomatoes", 1.0, "can"),
                ("olive oil", 1.0, "tbsp"),
            ],
            vec![
                "Cook the pasta in salted water.".into(),
                "Soften the onion and garlic in the oil for 5 minutes.".into(),
                format!(
                    "Add the {p} and cook until done, then add the tomatoes and simmer for 10 minutes."
                ),
                "Toss the pasta through the sauce with a splash of pasta water.".into(),
                "Season and serve.".into(),
            ],
        );
    }
    if has("salad") {
        return (
            vec![
                ("mixed salad leaves", 100.0, "g"),
                ("lemon", 1.0, "pcs"),
                ("olive oil", 2.0, "tbsp"),
            ],
            vec![
                format!("Cook the {p} (air fry at 200°C for 10–12 minutes if it needs cooking)."),
                "Whisk the lemon juice, oil, crushed garlic and a pinch of salt.".into(),
                "Slice the onion very thinly.".into(),
                "Toss the leaves and onion with the dressing.".into(),
                format!("Top with the {p} and serve."),
            ],
        );
    }
    (
        vec![
            ("coconut milk", 400.0, "ml"),
            ("curry paste", 2.0, "tbsp"),
            ("jasmine rice", 150.0, "g"),
        ],
        vec![
            "Cook the rice.".into(),
            "Soften the onion and garlic in a pan for 5 minutes.".into(),
            "Stir in the curry paste for 1 minute.".into(),
            format!("Add the {p} and the coconut milk and simmer for 15 minutes."),
            "Season and serve over the rice.".into(),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(count: usize, dish: &str) -> GenerateAsk {
        GenerateAsk {
            count,
            dish: dish.into(),
            meal: None,
            without: Vec::new(),
        }
    }

    fn ctx() -> GenCtx {
        GenCtx {
            servings: 2,
            avoid: expand_avoid(&["shellfish".into(), "mushroom".into()]),
            taken: Vec::new(),
        }
    }

    #[test]
    fn named_dishes_use_their_template() {
        let r = generate_recipes(&ask(1, "thai basil chicken"), &ctx());
        assert_eq!(r[0]["name"], "Thai Basil Chicken");
        assert_eq!(r[0]["table"], "recipes");
        let steps = r[0]["instructions"].as_array().unwrap().len();
        assert!((5..=7).contains(&steps));
        assert_eq!(
            generate_recipes(&ask(1, "shakshuka"), &ctx())[0]["name"],
            "Shakshuka"
        );
    }

    #[test]
    fn several_ideas_are_distinct_and_fit_the_protein() {
        let r = generate_recipes(&ask(2, "chicken"), &ctx());
        assert_eq!(r.len(), 2);
        assert_ne!(r[0]["name"], r[1]["name"]);
        for x in &r {
            assert!(x["name"].as_str().unwrap().contains("Chicken"), "{x}");
        }
        let taken = GenCtx {
            taken: vec!["Thai Basil Chicken".into()],
            ..ctx()
        };
        assert_ne!(
            generate_recipes(&ask(1, "chicken"), &taken)[0]["name"],
            "Thai Basil Chicken"
        );
    }

    #[test]
    fn unknown_dishes_get_a_simple_recipe_and_allergies_are_respected() {
        let r = generate_recipes(&ask(1, "prawn curry"), &ctx());
        let text = r[0].to_string();
        assert!(!text.contains("\"prawn\""), "{text}");
        assert!(
            r[0]["description"]
                .as_str()
                .unwrap()
                .contains("offline brain")
        );
        let r = generate_recipes(
            &ask(1, "lasagna"),
            &GenCtx {
                servings: 4,
                ..ctx()
            },
        );
        assert_eq!(r[0]["servings"], 4);
        assert_eq!(r[0]["name"], "Lasagna");
    }
}
