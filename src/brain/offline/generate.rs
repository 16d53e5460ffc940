//! Generated recipes: picks templates for what the user asked ("a thai basil
//! chicken recipe", "2 chicken dinner ideas"), or builds a simple one from
//! the dish words, then scales it and leaves out what the user must avoid.
//!
//! Produces artifact content exactly as the pipeline registers it
//! (`{"table": "recipes", name, description, …, ingredients}`); never
//! touches the registry itself.

use serde_json::{Value, json};

use super::lexicon::GenerateAsk;
use super::skills::cook::build::{
    Avoid, Request, build, dish_in, dishes_for, read_dish, round_qty,
};
use super::skills::cook::dishes::Kind;
use super::templates::{Line, TEMPLATES, Template};
use super::text::stems;

/// What generation must respect.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GenCtx {
    pub servings: u32,
    /// What to leave out (allergies, dislikes, "without …"), with why.
    pub avoid: Avoid,
    /// Names already in use, so ideas do not repeat.
    pub taken: Vec<String>,
}

/// Recipes for a request: `ask.count` of them, each a full artifact. A
/// named dish whose template fits the request ("thai basil chicken") comes
/// from the cookbook; anything else is built from its dish family with
/// what was named ("a quick noodle thing with chicken").
pub fn generate_recipes(ask: &GenerateAsk, ctx: &GenCtx) -> Vec<Value> {
    if let Some(p) = &ask.pasted {
        return vec![super::skills::cook::paste::artifact(p, ctx.servings)];
    }
    let dish = ask.dish.trim().to_lowercase();
    let mut req = read_dish(&dish);
    req.quick |= ask.quick;
    let mut picked: Vec<Template> = Vec::new();
    if let Some(t) = best_keyword_match(&dish).filter(|t| fits(t, &req) && !avoided(t, &ctx.avoid))
    {
        picked.push(t);
    }
    let protein = protein_of(&dish).or_else(|| picked.first().map(|t| t.protein));
    let unused = |t: &Template, picked: &[Template]| {
        !picked.iter().any(|p| p.name == t.name)
            && !ctx.taken.iter().any(|n| n.eq_ignore_ascii_case(t.name))
            && ctx.avoid.reason(t.name).is_none()
    };
    let open = req.dish.is_none() && (protein.is_some() || dish.is_empty());
    if picked.len() < ask.count && open {
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
    // The family asked for first, then the others the main can go in.
    let main = req.foods.first().map(|n| n.food);
    let asked = (req.dish.is_some() || main.is_some() || picked.is_empty()).then_some(None);
    let others = dishes_for(main).into_iter().map(Some);
    for family in asked.into_iter().chain(others) {
        if out.len() >= ask.count.max(1) {
            break;
        }
        let r = build(&req, &ctx.avoid, ctx.servings, family);
        let taken = ctx.taken.iter().any(|n| {
            r["name"]
                .as_str()
                .is_some_and(|x| x.eq_ignore_ascii_case(n))
        });
        if !taken && !out.iter().any(|o| o["name"] == r["name"]) {
            out.push(r);
        }
    }
    out.truncate(ask.count.max(1));
    if let Some(meal) = &ask.meal {
        for r in &mut out {
            let tags = r["tags"].as_array().cloned().unwrap_or_default();
            let mut tags: Vec<Value> = tags.into_iter().filter(|t| t != "generated").collect();
            if !tags.iter().any(|t| t == meal.as_str()) {
                tags.push(json!(meal));
            }
            tags.push(json!("generated"));
            r["tags"] = json!(tags);
        }
    }
    out
}

/// A template fits when it is the dish family asked for and has the main
/// asked for ("egg fried rice" is not "chicken fried rice").
fn fits(t: &Template, req: &Request) -> bool {
    let own = dish_in(&stems(t.name)).map(|(d, _)| d.key);
    let family = req.dish.is_none_or(|d| own == Some(d.key));
    let main = req
        .foods
        .iter()
        .find(|n| n.food.kind == Kind::Protein)
        .is_none_or(|n| {
            n.food.names.contains(&t.protein)
                || stems(t.name)
                    .iter()
                    .any(|w| n.food.names.contains(&w.as_str()))
        });
    family && main
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

fn avoided(t: &Template, avoid: &Avoid) -> bool {
    t.lines.iter().any(|(n, _, _)| avoid.reason(n).is_some())
}

fn line_json(lines: &[Line], factor: f64, avoid: &Avoid) -> Vec<Value> {
    lines
        .iter()
        .filter(|(n, _, _)| avoid.reason(n).is_none())
        .map(|(n, q, u)| json!({"name": n, "quantity": round_qty(q * factor, u), "unit": u}))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(count: usize, dish: &str) -> GenerateAsk {
        GenerateAsk {
            count,
            dish: dish.into(),
            meal: None,
            without: Vec::new(),
            quick: false,
            pasted: None,
        }
    }

    fn ctx() -> GenCtx {
        GenCtx {
            servings: 2,
            avoid: Avoid {
                allergic: vec!["shellfish".into()],
                disliked: vec!["mushroom".into()],
                without: Vec::new(),
            },
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
    fn other_dishes_are_built_from_their_family_and_allergies_are_respected() {
        let allergic = GenCtx {
            avoid: Avoid {
                allergic: vec!["shellfish".into()],
                ..Avoid::default()
            },
            ..ctx()
        };
        let r = generate_recipes(&ask(1, "prawn curry"), &allergic);
        let text = r[0].to_string();
        assert!(!text.contains("prawn\""), "{text}");
        assert_eq!(r[0]["name"], "Chicken Curry");
        let d = r[0]["description"].as_str().unwrap();
        assert!(
            d.contains("instead of prawn — you're allergic to shellfish"),
            "{d}"
        );
        let r = generate_recipes(
            &ask(1, "lasagna"),
            &GenCtx {
                servings: 4,
                ..ctx()
            },
        );
        assert_eq!(r[0]["servings"], 4);
        assert_eq!(r[0]["name"], "Tomato Pasta Bake");
    }
}
