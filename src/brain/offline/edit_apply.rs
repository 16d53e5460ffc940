//! Applying a recipe change to its content: new and increased ingredient
//! lines, removed ones, swaps, scaling, heat, vegetarian — keeping to the
//! user's 5–7 steps — and one line saying what changed.
//!
//! Pure JSON rewriting; never touches the registry.

use serde_json::{Map, Value, json};

use super::edits::EditOp;
use super::items::Item;
use super::text::{fmt_number, lower_first, stems};
use super::world::texts;

/// Default amount of an added ingredient: (name, quantity, unit, garnish).
pub fn default_amount(item: &Item) -> (String, f64, String, bool) {
    let citrus = matches!(item.name.as_str(), "lime" | "lemon" | "orange");
    if item.unit.as_deref() == Some("squeeze") && citrus {
        return (format!("{} juice", item.name), 1.0, "tbsp".into(), true);
    }
    if let (Some(q), Some(u)) = (item.quantity, item.unit.as_deref()) {
        return (item.name.clone(), q, u.to_string(), is_garnish(&item.name));
    }
    let (q, u) = match item.name.as_str() {
        "lime" | "lemon" => (1.0, "pcs"),
        "egg" => (2.0, "pcs"),
        "garlic" => (2.0, "clove"),
        "chili" | "green chili" | "red chili" | "spring onion" => (1.0, "pcs"),
        "feta" | "cheese" | "paneer" | "spinach" | "yogurt" | "greek yogurt" | "pea" => {
            (100.0, "g")
        }
        "parmesan" => (30.0, "g"),
        n if n.ends_with("juice") || n.ends_with("sauce") || n.ends_with("oil") || n == "honey" => {
            (1.0, "tbsp")
        }
        n if n.contains("flake")
            || n.contains("seed")
            || n.contains("powder")
            || n.starts_with("ground") =>
        {
            (1.0, "tsp")
        }
        "coriander" | "basil" | "thai basil" | "mint" | "parsley" | "ginger" => (10.0, "g"),
        _ => (100.0, "g"),
    };
    let q = item.quantity.unwrap_or(q);
    (item.name.clone(), q, u.to_string(), is_garnish(&item.name))
}

fn is_garnish(name: &str) -> bool {
    const GARNISH: &[&str] = &[
        "lime",
        "lemon",
        "feta",
        "cheese",
        "parmesan",
        "coriander",
        "basil",
        "mint",
        "parsley",
        "chili flake",
        "yogurt",
        "sesame seed",
        "spring onion",
        "peanut",
        "cashew",
        "juice",
    ];
    GARNISH.iter().any(|g| name.contains(g))
}

fn lines(recipe: &Map<String, Value>) -> Vec<Value> {
    recipe
        .get("ingredients")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn line_name(line: &Value) -> String {
    line.get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_lowercase()
}

/// True when an ingredient line is the named thing ("eggs" ~ "egg").
pub fn names_match(line: &str, term: &str) -> bool {
    let l = stems(line);
    let t = stems(term);
    !t.is_empty() && t.iter().all(|x| l.contains(x))
}

/// Adds a step, keeping to the user's 5–7 steps: past 7 it joins the last.
fn push_step(steps: &mut Vec<String>, text: String) {
    if steps.len() >= 7 {
        if let Some(last) = steps.last_mut() {
            last.push(' ');
            last.push_str(&text);
        }
    } else {
        steps.push(text);
    }
}

fn scale_line(line: &mut Value, factor: f64) {
    if let Some(q) = line.get("quantity").and_then(Value::as_f64) {
        let unit = line.get("unit").and_then(Value::as_str).unwrap_or_default();
        let scaled = q * factor;
        let rounded = match unit {
            "g" | "ml" => (scaled / 5.0).round().max(1.0) * 5.0,
            _ => (scaled * 2.0).round().max(1.0) / 2.0,
        };
        line["quantity"] = json!(rounded);
    }
}

/// Applies `op` to a recipe; returns the new content and what changed.
pub fn apply_edit(recipe: &Value, op: &EditOp) -> (Value, String) {
    if let EditOp::Several(ops) = op {
        let mut r = recipe.clone();
        let mut said = Vec::new();
        for o in ops {
            let (next, s) = apply_edit(&r, o);
            r = next;
            said.push(s);
        }
        let said: Vec<String> = said
            .iter()
            .enumerate()
            .map(|(i, s)| if i == 0 { s.clone() } else { lower_first(s) })
            .collect();
        return (r, super::text::join_list(&said, "and"));
    }
    let mut r = recipe.as_object().cloned().unwrap_or_default();
    let mut ings = lines(&r);
    let mut st = texts(r.get("instructions"));
    let summary = match op {
        EditOp::Add(items) => add_items(&mut ings, &mut st, items),
        EditOp::Remove(names) => remove_items(&mut ings, &mut st, names),
        EditOp::Swap { from, to } => swap(&mut r, &mut ings, &mut st, from, to),
        EditOp::Scale { servings } => scale_to(&mut r, &mut ings, f64::from(*servings)),
        EditOp::Double => scale_by(&mut r, &mut ings, 2.0),
        EditOp::Halve => scale_by(&mut r, &mut ings, 0.5),
        EditOp::Spicier => heat(&mut ings, &mut st, 1.5),
        EditOp::Milder => heat(&mut ings, &mut st, 0.5),
        EditOp::Vegetarian => vegetarian(&mut r, &mut ings, &mut st),
        EditOp::Several(_) => unreachable!("folded above"),
    };
    r.insert("ingredients".into(), Value::Array(ings));
    r.insert("instructions".into(), json!(st));
    (Value::Object(r), summary)
}

fn add_items(ings: &mut Vec<Value>, st: &mut Vec<String>, items: &[Item]) -> String {
    let mut done = Vec::new();
    for item in items {
        if let Some(line) = ings
            .iter_mut()
            .find(|l| names_match(&line_name(l), &item.name))
        {
            let old = line.get("quantity").and_then(Value::as_f64).unwrap_or(1.0);
            let new = match item.quantity {
                Some(q) if !item.more => old + q,
                _ => old * 1.5,
            };
            line["quantity"] = json!(new);
            scale_line(line, 1.0);
            let unit = line
                .get("unit")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let q = line.get("quantity").and_then(Value::as_f64).unwrap_or(new);
            done.push(format!("more {} (now {} {unit})", item.name, fmt_number(q)));
            continue;
        }
        let (name, q, unit, garnish) = default_amount(item);
        ings.push(json!({"name": name, "quantity": q, "unit": unit}));
        let what = if item.phrase.is_empty() {
            name.clone()
        } else {
            item.phrase.clone()
        };
        if garnish {
            push_step(st, format!("Finish with {what} just before serving."));
        } else {
            let at = st.len().saturating_sub(1);
            let text = format!("Stir in the {name} and cook for a couple of minutes.");
            if st.len() < 7 {
                st.insert(at, text);
            } else {
                push_step(st, text);
            }
        }
        done.push(format!("{what} ({} {unit} {name})", fmt_number(q)));
    }
    format!("Added {}", done.join(", "))
}

fn remove_items(ings: &mut Vec<Value>, st: &mut Vec<String>, names: &[String]) -> String {
    let before = ings.len();
    ings.retain(|l| !names.iter().any(|n| names_match(&line_name(l), n)));
    let mentions = |s: &String| {
        let words = stems(s);
        names
            .iter()
            .any(|n| stems(n).iter().all(|t| words.contains(t)))
    };
    let keep: Vec<String> = st.iter().filter(|s| !mentions(s)).cloned().collect();
    if keep.len() >= 5 {
        *st = keep;
    }
    if ings.len() == before {
        format!("It had no {} to take out", names.join(" or "))
    } else {
        format!("Took out the {}", names.join(" and "))
    }
}

fn swap(
    r: &mut Map<String, Value>,
    ings: &mut [Value],
    st: &mut [String],
    from: &str,
    to: &str,
) -> String {
    const CANNED: &[&str] = &[
        "bean", "chickpea", "tomato", "coconut", "lentil", "corn", "tuna",
    ];
    let canned = CANNED.iter().any(|c| to.contains(c));
    let mut hit = false;
    for l in ings.iter_mut() {
        if names_match(&line_name(l), from) {
            l["name"] = json!(to);
            hit = true;
            // A can of chickpeas swapped for paneer becomes grams of paneer.
            if l.get("unit").and_then(Value::as_str) == Some("can") && !canned {
                let cans = l.get("quantity").and_then(Value::as_f64).unwrap_or(1.0);
                l["quantity"] = json!(cans * 250.0);
                l["unit"] = json!("g");
            }
        }
    }
    for s in st.iter_mut() {
        *s = replace_word(s, from, to);
    }
    if let Some(Value::String(d)) = r.get_mut("description") {
        *d = replace_word(d, from, to);
    }
    if let Some(Value::String(n)) = r.get_mut("name") {
        *n = replace_word(n, from, &super::text::title_case(to));
    }
    if hit {
        format!("Swapped the {from} for {to}")
    } else {
        format!("It had no {from}, so nothing to swap")
    }
}

/// Case-insensitive replacement of a word (or its plural) in a sentence.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let lower = text.to_lowercase();
    let mut out = text.to_string();
    let base = super::text::stem(from);
    for cand in [format!("{from}s"), from.to_string(), base] {
        if cand.is_empty() {
            continue;
        }
        if let Some(i) = lower.find(&cand)
            && out.is_char_boundary(i)
            && out.is_char_boundary(i + cand.len())
        {
            out.replace_range(i..i + cand.len(), to);
            return out;
        }
    }
    out
}

fn servings_of(r: &Map<String, Value>) -> f64 {
    r.get("servings")
        .and_then(Value::as_f64)
        .filter(|s| *s > 0.0)
        .unwrap_or(2.0)
}

fn scale_to(r: &mut Map<String, Value>, ings: &mut [Value], servings: f64) -> String {
    let factor = servings / servings_of(r);
    scale_by(r, ings, factor)
}

fn scale_by(r: &mut Map<String, Value>, ings: &mut [Value], factor: f64) -> String {
    let new = (servings_of(r) * factor).round().max(1.0);
    for l in ings.iter_mut() {
        scale_line(l, factor);
    }
    r.insert("servings".into(), json!(new as u32));
    format!("Scaled it to serve {}", fmt_number(new))
}

fn heat(ings: &mut Vec<Value>, st: &mut Vec<String>, factor: f64) -> String {
    let hot = |n: &str| n.contains("chili") || n.contains("cayenne") || n.contains("chilli");
    let mut any = false;
    for l in ings.iter_mut().filter(|l| hot(&line_name(l))) {
        scale_line(l, factor);
        any = true;
    }
    if factor > 1.0 && !any {
        ings.push(json!({"name": "chili flakes", "quantity": 1, "unit": "tsp"}));
        push_step(st, "Sprinkle over the chili flakes to taste.".into());
    }
    if factor > 1.0 {
        "Turned up the heat".to_string()
    } else {
        push_step(
            st,
            "Serve with a spoonful of yogurt to cool it down.".into(),
        );
        "Toned down the heat".to_string()
    }
}

fn vegetarian(r: &mut Map<String, Value>, ings: &mut [Value], st: &mut [String]) -> String {
    const MEAT: &[&str] = &[
        "chicken", "beef", "pork", "lamb", "cod", "salmon", "fish", "prawn", "shrimp", "bacon",
        "sausage", "turkey", "mince", "tuna",
    ];
    let indian = r.get("cuisine").and_then(Value::as_str) == Some("indian");
    let swap_to = if indian { "paneer" } else { "firm tofu" };
    let mut swapped = Vec::new();
    for m in MEAT {
        if ings.iter().any(|l| line_name(l).contains(m)) {
            swap(r, ings, st, m, swap_to);
            swapped.push(*m);
        }
    }
    if swapped.is_empty() {
        "It was already vegetarian".to_string()
    } else {
        format!("Made it vegetarian ({} → {swap_to})", swapped.join(", "))
    }
}
