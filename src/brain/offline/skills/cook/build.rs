//! Builds a recipe from a dish family and what the request named: the main
//! in its slot, named extras in their own step, a named cuisine's flavours,
//! servings scaled, and what the user must not eat swapped or left out with
//! the reason said in the description.
//!
//! Produces artifact content exactly as the pipeline registers it
//! (`{"table": "recipes", name, description, …, ingredients}`). Pure.

use serde_json::{Value, json};

use crate::context::taxonomy::{self, ingredient_matches};

use super::dishes::{DISHES, Dish, FOODS, Food, Kind, Line, cuisine_lines, stand_ins, usual_dish};
use crate::brain::offline::text::{Words, find, join_list, near, title_case};

/// A food the request named, with the word the user used for it.
#[derive(Debug, Clone, Copy)]
pub struct Named {
    pub food: &'static Food,
    pub said: &'static str,
}

/// What a request's dish words name.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub dish: Option<&'static Dish>,
    pub foods: Vec<Named>,
    pub cuisine: Option<&'static str>,
    pub quick: bool,
}

/// Reads dish words: the family, the foods (one typo allowed), a cuisine,
/// and whether it should be quick.
pub fn read_dish(text: &str) -> Request {
    read_words(&Words::new(text).words)
}

/// [`read_dish`] over a message's words.
pub fn read_words(words: &[String]) -> Request {
    let words: Vec<String> = words.iter().map(|w| taxonomy::singular(w)).collect();
    let mut req = Request {
        quick: words
            .iter()
            .any(|w| matches!(w.as_str(), "quick" | "fast" | "speedy")),
        ..Request::default()
    };
    req.dish = dish_in(&words).map(|(d, _)| d);
    let mut i = 0;
    while i < words.len() {
        if let Some((f, said, len)) = food_at(&words, i) {
            if !req.foods.iter().any(|n| n.food.line.0 == f.line.0) {
                req.foods.push(Named { food: f, said });
            }
            i += len;
            continue;
        }
        if req.cuisine.is_none() {
            req.cuisine = taxonomy::cuisine(&words[i]);
        }
        i += 1;
    }
    req
}

/// The dish family the words name (the longest name wins), with where.
pub fn dish_in(words: &[String]) -> Option<(&'static Dish, usize)> {
    let mut best: Option<(&'static Dish, usize, usize)> = None;
    for d in DISHES {
        for n in d.names {
            let n_words: Vec<String> = n.split_whitespace().map(taxonomy::singular).collect();
            if let Some(at) = find(words, &n_words.join(" "))
                && best.is_none_or(|(_, _, len)| n_words.len() > len)
            {
                best = Some((d, at, n_words.len()));
            }
        }
    }
    best.map(|(d, at, _)| (d, at))
}

/// The food whose name starts at `i` (longest first), with its words' count.
fn food_at(words: &[String], i: usize) -> Option<(&'static Food, &'static str, usize)> {
    let mut best: Option<(&'static Food, &'static str, usize)> = None;
    for f in FOODS {
        for n in f.names {
            let parts: Vec<&str> = n.split_whitespace().collect();
            let fits = parts.len() <= words.len() - i
                && parts
                    .iter()
                    .zip(&words[i..])
                    .all(|(p, w)| *p == w || near(p, w));
            if fits && best.is_none_or(|(_, _, len)| parts.len() > len) {
                best = Some((f, n, parts.len()));
            }
        }
    }
    best
}

/// The food a name stands for ("chicken").
pub fn food_named(name: &str) -> Option<&'static Food> {
    FOODS.iter().find(|f| f.names.contains(&name))
}

/// What the user must not eat, each word with its reason.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Avoid {
    pub allergic: Vec<String>,
    pub disliked: Vec<String>,
    pub without: Vec<String>,
}

impl Avoid {
    /// Why `ingredient` is out, in words for the description.
    pub fn reason(&self, ingredient: &str) -> Option<String> {
        let hit = |list: &[String]| {
            list.iter()
                .find(|w| ingredient_matches(ingredient, &taxonomy::singular(w)))
                .cloned()
        };
        if let Some(w) = hit(&self.allergic) {
            return Some(format!("you're allergic to {w}"));
        }
        if let Some(w) = hit(&self.disliked) {
            return Some(format!("you don't like {w}"));
        }
        hit(&self.without).map(|w| format!("you said no {w}"))
    }
}

/// Builds one recipe for `servings`; `dish` overrides the family (for a
/// second idea).
pub fn build(req: &Request, avoid: &Avoid, servings: u32, dish: Option<&'static Dish>) -> Value {
    let requested_main = pick_main(req, dish.or(req.dish));
    let dish = dish
        .or(req.dish)
        .or_else(|| requested_main.map(|m| by_key(usual_dish(m.food))))
        .unwrap_or_else(|| by_key(FALLBACK));
    let mut main = requested_main.or_else(|| {
        food_named(dish.default_main).map(|food| Named {
            food,
            said: food.names[0],
        })
    });
    let mut notes: Vec<String> = Vec::new();
    if let Some(m) = main
        && let Some(why) = avoid.reason(m.food.line.0)
    {
        let stand_in = stand_ins(m.food)
            .iter()
            .filter_map(|n| food_named(n))
            .find(|f| avoid.reason(f.line.0).is_none() && f.line.0 != m.food.line.0);
        main = stand_in.map(|food| Named {
            food,
            said: food.names[0],
        });
        notes.push(match main {
            Some(s) => format!("Made with {} instead of {} — {why}.", s.said, m.said),
            None => format!("Made without {} — {why}.", m.said),
        });
    }
    let factor = f64::from(servings.max(1)) / 2.0;
    let main_line = main.map(|m| m.food.line);
    let mut lines: Vec<Line> = main_line.into_iter().collect();
    let mut extras: Vec<Line> = Vec::new();
    for n in &req.foods {
        let l = n.food.line;
        let is_main = main.is_some_and(|m| m.food.line.0 == l.0)
            || requested_main.is_some_and(|m| m.food.line.0 == l.0);
        let in_dish = dish.lines.iter().any(|b| b.0 == l.0) || names_part(dish, n.said);
        if is_main || in_dish || extras.iter().any(|e| e.0 == l.0) {
            continue;
        }
        match avoid.reason(l.0) {
            Some(why) => notes.push(format!("No {} — {why}.", n.said)),
            None => extras.push(l),
        }
    }
    if let Some(c) = req.cuisine.filter(|c| *c != dish.cuisine) {
        for l in cuisine_lines(c) {
            if !dish.lines.iter().chain(&extras).any(|b| b.0 == l.0) && avoid.reason(l.0).is_none()
            {
                extras.push(*l);
            }
        }
    }
    for l in dish.lines {
        if lines.iter().any(|x| x.0 == l.0) {
            continue;
        }
        match avoid.reason(l.0) {
            Some(why) => notes.push(format!("No {} — {why}.", l.0)),
            None => lines.push(*l),
        }
    }
    lines.extend(extras.iter().copied());
    let main_name = main.map(|m| m.food.line.0);
    let mut steps: Vec<String> = dish
        .steps
        .iter()
        .filter(|s| main_name.is_some() || !s.contains("{main}"))
        .map(|s| s.replace("{main}", main_name.unwrap_or_default()))
        .collect();
    if !extras.is_empty() {
        let names: Vec<String> = extras.iter().map(|l| l.0.to_string()).collect();
        let at = dish.extra_at.min(steps.len().saturating_sub(1));
        steps.insert(
            at,
            dish.extra_step
                .replace("{extras}", &join_list(&names, "and")),
        );
    }
    let name = title(dish, main, req);
    let with: Vec<String> = main
        .map(|m| m.said.to_string())
        .into_iter()
        .chain(extras.iter().take(2).map(|l| l.0.to_string()))
        .collect();
    let with = if with.is_empty() {
        dish.plain_with.to_string()
    } else {
        join_list(&with, "and")
    };
    let mut description = dish.description.replace("{with}", &with);
    for n in &notes {
        description.push(' ');
        description.push_str(n);
    }
    json!({
        "table": "recipes",
        "name": name,
        "description": description,
        "cuisine": req.cuisine.unwrap_or(dish.cuisine),
        "difficulty": "easy",
        "servings": servings.max(1),
        "prep_time_minutes": dish.prep,
        "cook_time_minutes": dish.cook,
        "instructions": steps,
        "ingredients": lines.iter().map(|(n, q, u)| json!({"name": n, "quantity": round_qty(q * factor, u), "unit": u})).collect::<Vec<_>>(),
        "tags": [dish.key, dish.meal, "generated"],
    })
}

/// The main: the first named food the family takes, in the order of the
/// kinds it prefers.
fn pick_main(req: &Request, dish: Option<&'static Dish>) -> Option<Named> {
    let takes: &[Kind] = dish.map_or(&[Kind::Protein, Kind::Fruit, Kind::Veg], |d| d.takes);
    takes.iter().find_map(|k| {
        req.foods
            .iter()
            .find(|n| n.food.kind == *k && dish.is_none_or(|d| !names_part(d, n.said)))
            .copied()
    })
}

/// True when `word` is part of one of the dish's names ("rice" of "fried
/// rice").
pub fn names_part(dish: &Dish, word: &str) -> bool {
    dish.names
        .iter()
        .any(|n| n.split_whitespace().any(|x| taxonomy::singular(x) == word))
}

/// The family built when the request names neither a dish nor a food.
const FALLBACK: &str = "stir fry";

fn by_key(key: &str) -> &'static Dish {
    DISHES
        .iter()
        .find(|d| d.key == key)
        .or_else(|| DISHES.iter().find(|d| d.key == FALLBACK))
        .expect("the fallback dish is in the book")
}

/// "Quick Thai Chicken Noodles", "Greek Salad", "Mango Smoothie".
fn title(dish: &Dish, main: Option<Named>, req: &Request) -> String {
    let mut parts: Vec<String> = Vec::new();
    if req.quick {
        parts.push("Quick".into());
    }
    if let Some(c) = req.cuisine {
        parts.push(title_case(c));
    }
    let body = match main {
        Some(m) => dish.title.replace("{main}", &title_case(m.said)),
        None if req.cuisine.is_some() => dish.title.replace("{main} ", ""),
        None => dish.plain.to_string(),
    };
    parts.push(body);
    parts.join(" ")
}

/// Amounts a cook would write: grams and millilitres to the nearest 5,
/// everything else to the nearest half.
pub fn round_qty(q: f64, unit: &str) -> f64 {
    match unit {
        "g" | "ml" => (q / 5.0).round().max(1.0) * 5.0,
        _ => ((q * 2.0).round() / 2.0).max(0.5),
    }
}

/// The dish families a main can go in, its usual one first: the ideas
/// offered when several are asked for.
pub fn dishes_for(main: Option<&Food>) -> Vec<&'static Dish> {
    let first = main.map(|m| by_key(usual_dish(m)));
    let kind = main.map(|m| m.kind);
    first
        .into_iter()
        .chain(
            DISHES
                .iter()
                .filter(|d| kind.is_none_or(|k| d.takes.contains(&k))),
        )
        .fold(Vec::new(), |mut out, d| {
            if !out.iter().any(|x: &&Dish| x.key == d.key) {
                out.push(d);
            }
            out
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shellfish_and_mushroom() -> Avoid {
        Avoid {
            allergic: vec!["shellfish".into()],
            disliked: vec!["mushroom".into()],
            without: Vec::new(),
        }
    }

    fn names(v: &Value) -> Vec<String> {
        v["ingredients"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["name"].as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn the_dish_and_its_main_are_what_was_asked_for() {
        let r = build(
            &read_dish("quick noodle thing with chicken"),
            &Avoid::default(),
            2,
            None,
        );
        assert_eq!(r["name"], "Quick Chicken Noodles");
        assert!(names(&r).contains(&"chicken thigh".to_string()));
        assert!(names(&r).contains(&"egg noodles".to_string()));
        let r = build(&read_dish("mango smoothie"), &Avoid::default(), 2, None);
        assert_eq!(r["name"], "Mango Smoothie");
        let text = r.to_string();
        assert!(
            text.contains("Blend") && !text.contains("air fry"),
            "{text}"
        );
        let r = build(&read_dish("chiken fried rice"), &Avoid::default(), 4, None);
        assert_eq!(r["name"], "Chicken Fried Rice");
        assert_eq!(r["servings"], 4);
        assert_eq!(r["ingredients"][0]["quantity"], 800.0);
        assert_eq!(
            build(&read_dish("oat porridge"), &Avoid::default(), 2, None)["name"],
            "Creamy Oat Porridge"
        );
        assert_eq!(
            build(&read_dish("greek salad"), &Avoid::default(), 2, None)["name"],
            "Greek Salad"
        );
    }

    #[test]
    fn what_must_not_be_eaten_is_swapped_and_said() {
        let r = build(
            &read_dish("shrimp stir fry"),
            &shellfish_and_mushroom(),
            2,
            None,
        );
        assert_eq!(r["name"], "Chicken Stir Fry");
        let d = r["description"].as_str().unwrap();
        assert!(
            d.contains("instead of shrimp — you're allergic to shellfish"),
            "{d}"
        );
        assert!(!r.to_string().contains("prawn"));
        let r = build(
            &read_dish("mushroom risotto"),
            &shellfish_and_mushroom(),
            2,
            None,
        );
        assert!(
            r["description"]
                .as_str()
                .unwrap()
                .contains("don't like mushroom")
        );
        assert!(!names(&r).iter().any(|n| n.contains("mushroom")));
        let no_nuts = Avoid {
            without: vec!["nut".into()],
            ..Avoid::default()
        };
        let r = build(&read_dish("banana dessert with walnuts"), &no_nuts, 2, None);
        assert_eq!(r["name"], "Banana Crumble");
        assert!(!names(&r).iter().any(|n| n.contains("walnut")), "{r}");
        let no_olives = Avoid {
            without: vec!["olive".into()],
            ..Avoid::default()
        };
        let r = build(&read_dish("greek salad"), &no_olives, 2, None);
        assert!(!names(&r).iter().any(|n| n.contains("olive")), "{r}");
        assert!(names(&r).contains(&"feta".to_string()));
    }

    #[test]
    fn a_main_without_a_dish_goes_to_its_usual_one() {
        let r = build(&read_dish("paneer"), &Avoid::default(), 2, None);
        assert_eq!(r["name"], "Paneer Curry");
        let r = build(&read_dish("lentil soup"), &Avoid::default(), 2, None);
        assert_eq!(r["name"], "Lentil Soup");
        let r = build(&read_dish("chicken traybake"), &Avoid::default(), 2, None);
        assert!(r["name"].as_str().unwrap().contains("Traybake"));
        assert!(r["instructions"].as_array().unwrap().len() >= 5);
    }
}
