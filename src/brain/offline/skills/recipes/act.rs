//! Act for recipes: read them (and the kitchen), then pick the recipes an
//! ask is about, in the order it wants, as cards the reply can present.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::context::{RecipeFacts, Table, taxonomy};
use crate::pipeline::{ActAction, StepType};

use super::super::super::act_ctx::{ActCtx, call, complete};
use super::super::super::lexicon::Cues;
use super::super::super::options::{kitchen_names, same_food};
use super::super::super::text::{Words, fmt_number, is_filler, near, plural, stem, stems};
use super::super::super::world::{num_field, text_field};
use super::super::stock::act::SOON_DAYS;
use super::super::when::days_after;
use super::super::{best, known_rows};
use super::{Among, Ask, By, Detail, Find, Using, Which};

/// One recipe as an answer shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Card {
    pub r#ref: String,
    pub name: String,
    pub minutes: f64,
    pub servings: f64,
    /// Ingredients the kitchen lacks.
    pub missing: Vec<String>,
    /// Its ingredient lines.
    pub lines: Vec<Line>,
    /// The items it would use up (for "which recipes use those").
    pub uses: Vec<String>,
}

/// An ingredient line of a card.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub name: String,
    /// "300 g", "" when no amount is given.
    pub amount: String,
    /// What the kitchen holds of it ("3 can in the pantry"), if anything.
    pub have: Option<String>,
    /// Whether what the kitchen holds covers the amount, when the two
    /// amounts can be compared (grams with kilos, counts with counts).
    #[serde(default)]
    pub enough: Option<bool>,
    /// A chili or pepper that brings heat.
    pub hot: bool,
    /// A gentle chili (green chilies, Kashmiri chili powder).
    pub warm: bool,
}

/// The analysis an ask ends in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Found {
    pub kind: String,
    /// The recipes picked, in order.
    pub cards: Vec<Card>,
    /// How many of the cards come first on the measure (ties).
    pub winners: usize,
    /// Recipes a standing constraint keeps out: name and the user's words.
    pub kept_out: Vec<(String, String)>,
    /// Search words no saved recipe matches.
    pub unknown: Vec<String>,
    /// Recipes a ready search left out for needing more than one thing.
    pub short: Vec<String>,
    /// Why nothing could be picked (then the reply asks).
    pub problem: Option<String>,
    /// Whether the kitchen was checked.
    pub kitchen: bool,
}

/// The kind tag of the analysis data.
pub const KIND: &str = "recipe_cards";

/// The next call of a recipes step, or its completion.
pub fn act(ask: &Ask, c: &ActCtx<'_>) -> ActAction {
    let done = c.req.this_step_results.len();
    match c.req.step.step_type {
        StepType::Read if done == 0 => {
            let table = if c.req.step.subdomain == "inventory" {
                "inventory"
            } else {
                "recipes"
            };
            call("db_read", json!({"table": table}))
        }
        StepType::Read => {
            let n = c.step_rows().len();
            let what = if c.req.step.subdomain == "inventory" {
                "item"
            } else {
                "recipe"
            };
            complete(format!("Found {}", plural(n, what)), Value::Null, None)
        }
        _ => {
            let found = analyse(ask, c);
            let summary = match (&found.problem, found.cards.first()) {
                (Some(p), _) => format!("No answer: {p}"),
                (None, None) => "No saved recipe fits".to_string(),
                (None, Some(first)) if matches!(ask, Ask::Compare { .. }) => {
                    format!("{} comes first", first.name)
                }
                (None, Some(_)) => format!("{} picked", plural(found.cards.len(), "recipe")),
            };
            let data = serde_json::to_value(&found).unwrap_or(Value::Null);
            complete(summary, data, None)
        }
    }
}

/// What a recipe is, with its row.
struct Recipe<'a> {
    r: String,
    row: &'a Value,
    facts: RecipeFacts,
}

fn recipes<'a>(c: &ActCtx<'a>) -> Vec<Recipe<'a>> {
    let mut out: Vec<Recipe<'a>> = known_rows(c, Table::Recipes)
        .into_iter()
        .filter_map(|row| {
            let r = row.get("id")?.as_str()?.to_string();
            let facts = RecipeFacts::from_content(&c.world.label(&r), row)?;
            Some(Recipe { r, row, facts })
        })
        // Saved recipes: a draft saved this session keeps its draft's ref.
        .filter(|x| {
            x.r.starts_with("recipe_")
                || (x.r.starts_with("gen_recipe_")
                    && c.world.get(&x.r).is_some_and(|e| !e.e.is_pending()))
        })
        .collect();
    let seq = |r: &str| {
        r.rsplit_once('_')
            .and_then(|(_, n)| n.parse::<u64>().ok())
            .unwrap_or(u64::MAX)
    };
    out.sort_by_key(|x| seq(&x.r));
    out
}

/// True when a recipe is what a word says: its cuisine, a tag or kind, a
/// diet it keeps, an ingredient (or family) in it, or a word of its name,
/// give or take a typo.
fn is(f: &RecipeFacts, word: &str) -> bool {
    let ws = taxonomy::words(word);
    if f.cuisine
        .as_deref()
        .is_some_and(|c| taxonomy::words(c) == ws)
    {
        return true;
    }
    if f.is_kind(word) {
        return true;
    }
    if let Some(diet) = taxonomy::diet(word) {
        return !f
            .ingredients
            .iter()
            .any(|i| taxonomy::diet_forbids(diet, i).is_some());
    }
    if f.ingredients
        .iter()
        .any(|i| taxonomy::ingredient_matches(i, word))
    {
        return true;
    }
    let want = stems(word);
    let name_words = stems(&f.label);
    let near_all = |have: &[String]| want.iter().all(|w| have.iter().any(|h| near(h, w)));
    near_all(&name_words)
        || f.ingredients.iter().any(|i| near_all(&stems(i)))
        || f.tags
            .iter()
            .any(|t| near_all(&stems(&t.replace('-', " "))))
}

/// An amount in its unit family's base (grams, millilitres, or a count),
/// when the unit is one of those.
pub(in crate::brain::offline) fn in_base(quantity: f64, unit: &str) -> Option<(f64, &'static str)> {
    Some(match unit.trim().to_lowercase().as_str() {
        "g" | "gram" | "grams" => (quantity, "g"),
        "kg" | "kilo" | "kilos" => (quantity * 1000.0, "g"),
        "ml" => (quantity, "ml"),
        "l" | "litre" | "litres" | "liter" | "liters" => (quantity * 1000.0, "ml"),
        "" | "pcs" | "pc" | "piece" | "pieces" | "whole" => (quantity, "count"),
        _ => return None,
    })
}

/// Whether the kitchen's row covers a recipe line's amount, if the two
/// can be compared.
fn covers(line: &Value, inventory: &[&Value], ingredient: &str, factor: f64) -> Option<bool> {
    let row = *best(inventory, ingredient).first()?;
    let need = in_base(
        num_field(line, "quantity")? * factor,
        text_field(line, "unit").unwrap_or(""),
    )?;
    let have = in_base(
        num_field(row, "quantity")?,
        text_field(row, "unit").unwrap_or(""),
    )?;
    (need.1 == have.1).then_some(have.0 + 1e-9 >= need.0)
}

/// The kitchen's holdings of an ingredient, in words ("3 can in the
/// pantry").
fn holding(inventory: &[&Value], ingredient: &str) -> Option<String> {
    let row = *best(inventory, ingredient).first()?;
    let q = num_field(row, "quantity")
        .map(fmt_number)
        .unwrap_or_default();
    let unit = text_field(row, "unit").unwrap_or_default();
    let place = text_field(row, "location")
        .map(|l| format!(" in the {l}"))
        .unwrap_or_default();
    Some(format!("{q} {unit}{place}").trim().to_string())
}

/// A scaled amount in the larger unit once it reaches one of it
/// ("1200 g" is "1.2 kg").
fn larger_unit(q: Option<f64>, unit: &str) -> (Option<f64>, &str) {
    match (q, unit) {
        (Some(q), "g") if q >= 1000.0 => (Some(q / 1000.0), "kg"),
        (Some(q), "ml") if q >= 1000.0 => (Some(q / 1000.0), "l"),
        _ => (q, unit),
    }
}

/// A recipe as a card: its lines at `servings` (the recipe's own when
/// `None`), each with what the kitchen holds of it.
fn card(x: &Recipe<'_>, inventory: &[&Value], kitchen: &[String], servings: Option<u32>) -> Card {
    let own = num_field(x.row, "servings").unwrap_or(0.0);
    let factor = match servings {
        Some(n) if own > 0.0 => f64::from(n) / own,
        _ => 1.0,
    };
    let lines: Vec<Line> = x
        .row
        .get("ingredients")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|l| {
                    let name = text_field(l, "name")?.to_lowercase();
                    let (q, unit) = larger_unit(
                        num_field(l, "quantity").map(|q| q * factor),
                        text_field(l, "unit").unwrap_or_default(),
                    );
                    let amount = format!("{} {unit}", q.map(fmt_number).unwrap_or_default())
                        .trim()
                        .to_string();
                    let hot = taxonomy::is_hot(&name);
                    Some(Line {
                        have: holding(inventory, &name),
                        enough: covers(l, inventory, &name, factor),
                        warm: !hot && (name.contains("chili") || name.contains("chilli")),
                        hot,
                        amount,
                        name,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let minutes = num_field(x.row, "prep_time_minutes").unwrap_or(0.0)
        + num_field(x.row, "cook_time_minutes").unwrap_or(0.0);
    let mut missing = if kitchen.is_empty() {
        Vec::new()
    } else {
        super::super::super::options::missing(x.row, kitchen)
    };
    // At more servings than written, a food held but not enough of it is
    // missing too.
    if factor > 1.0 {
        for l in lines.iter().filter(|l| l.enough == Some(false)) {
            if !missing.contains(&l.name) {
                missing.push(l.name.clone());
            }
        }
    }
    Card {
        r#ref: x.r.clone(),
        name: x.facts.label.clone(),
        minutes,
        servings: servings.map_or(own, f64::from),
        missing,
        lines,
        uses: Vec::new(),
    }
}

/// The value a measure ranks by (lower is better).
fn rank(by: By, card: &Card) -> i64 {
    match by {
        By::Quickest => card.minutes as i64,
        By::Slowest => -(card.minutes as i64),
        By::ServesMost => -(card.servings as i64),
        By::FewestMissing => card.missing.len() as i64,
    }
}

/// The ask's analysis over the recipes and the kitchen.
pub fn analyse(ask: &Ask, c: &ActCtx<'_>) -> Found {
    let all = recipes(c);
    let inventory = known_rows(c, Table::Inventory);
    let kitchen = kitchen_names(inventory.iter().copied());
    let demoted: Vec<&str> = c
        .req
        .understand
        .entity_curation
        .demote
        .iter()
        .map(|d| d.r#ref.as_str())
        .collect();
    let constraints = &c.world.state.constraints;
    let listed = listed(c);
    let mut found = Found {
        kind: KIND.to_string(),
        kitchen: !kitchen.is_empty(),
        ..Found::default()
    };
    // What a standing constraint (or this turn's demotion) keeps out.
    let mut pool: Vec<&Recipe<'_>> = Vec::new();
    for x in &all {
        let rule = constraints
            .covering(&x.r)
            .map(|(k, _)| k)
            .or_else(|| constraints.ruling_out(&x.facts));
        match rule {
            Some(k) => found
                .kept_out
                .push((x.facts.label.clone(), k.clause.clone())),
            None if demoted.contains(&x.r.as_str()) => {
                found
                    .kept_out
                    .push((x.facts.label.clone(), "set aside this turn".into()));
            }
            None => pool.push(x),
        }
    }
    let at = match ask {
        Ask::About { servings, .. } => *servings,
        _ => None,
    };
    let to_card = |x: &Recipe<'_>| card(x, &inventory, &kitchen, at);
    // A recipe asked about by name is answered, ruled out or not.
    match ask {
        Ask::Find(f) => find(f, &pool, c, &inventory, &kitchen, &mut found),
        Ask::Compare { among, by } => {
            let base: Vec<&Recipe<'_>> = match among {
                Among::Shown if !listed.is_empty() => pick(&pool, &with_brought_back(&listed, c)),
                Among::Shown => pool.clone(),
                Among::First(n) => {
                    pick(&pool, &listed.iter().take(*n).cloned().collect::<Vec<_>>())
                }
                Among::Matching(word) => pool
                    .iter()
                    .copied()
                    .filter(|x| is(&x.facts, word))
                    .collect(),
            };
            if base.is_empty() {
                found.problem = Some(match among {
                    Among::Matching(word) => format!("no saved recipe with {word} is left"),
                    _ => "there was no list of recipes to compare".into(),
                });
                return found;
            }
            let mut cards: Vec<Card> = base.iter().map(|x| to_card(x)).collect();
            cards.sort_by_key(|k| rank(*by, k));
            let top = rank(*by, &cards[0]);
            found.winners = cards.iter().take_while(|k| rank(*by, k) == top).count();
            found.cards = cards;
        }
        Ask::About { which, what, .. } => {
            let targets = about(which, what, c, &all, &listed);
            match targets {
                Ok(refs) => {
                    found.cards = refs
                        .iter()
                        .filter_map(|r| all.iter().find(|x| &x.r == r))
                        .map(to_card)
                        .collect();
                    found.winners = found.cards.len();
                }
                Err(p) => found.problem = Some(p),
            }
        }
    }
    // Say only what was kept out of the recipes the ask was about.
    let about_it = |x: &Recipe<'_>| match ask {
        Ask::Find(f) => f
            .words
            .iter()
            .all(|w| found.unknown.contains(w) || is(&x.facts, w)),
        Ask::Compare { among, .. } => match among {
            Among::Shown => listed.is_empty() || listed.contains(&x.r),
            Among::First(n) => listed.iter().take(*n).any(|r| *r == x.r),
            Among::Matching(word) => is(&x.facts, word),
        },
        Ask::About { .. } => false,
    };
    let names: Vec<String> = all
        .iter()
        .filter(|x| about_it(x))
        .map(|x| x.facts.label.clone())
        .collect();
    found.kept_out.retain(|(name, _)| names.contains(name));
    found
}

/// The list shown, with what this turn's words brought back into it ("cod's
/// fine, so whats quickest now": the cod recipes the lifted rule covered).
fn with_brought_back(listed: &[String], c: &ActCtx<'_>) -> Vec<String> {
    let changes = &c.req.understand.constraints;
    let state = &c.world.state.constraints;
    let mut out = listed.to_vec();
    let back = changes
        .lift
        .iter()
        .filter_map(|l| state.get(&l.id))
        .flat_map(|k| k.covers.keys().cloned())
        .chain(changes.except.iter().map(|e| e.r#ref.clone()));
    for r in back {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// Recipes of the pool in the order of `refs`.
fn pick<'a, 'b>(pool: &[&'b Recipe<'a>], refs: &[String]) -> Vec<&'b Recipe<'a>> {
    refs.iter()
        .filter_map(|r| pool.iter().find(|x| &x.r == r).copied())
        .collect()
}

/// The recipes of the last list shown (two or more; else the last shown).
/// Meals on the plan count as their recipes ("which of the two takes
/// longer" after the plan was shown).
fn listed(c: &ActCtx<'_>) -> Vec<String> {
    let b = &c.reading.before;
    let refs = if b.listed.is_empty() {
        &b.presented
    } else {
        &b.listed
    };
    let mut out: Vec<String> = Vec::new();
    for r in refs {
        let recipe = if r.starts_with("recipe_") {
            Some(r.clone())
        } else if r.starts_with("meal_") || r.starts_with("gen_meal_") {
            c.data_row(r)
                .or_else(|| c.world.content(r))
                .and_then(|v| text_field(v, "recipe_id"))
                .map(String::from)
        } else {
            None
        };
        if let Some(x) = recipe.filter(|x| !out.contains(x)) {
            out.push(x);
        }
    }
    out
}

fn find(
    f: &Find,
    pool: &[&Recipe<'_>],
    c: &ActCtx<'_>,
    inventory: &[&Value],
    kitchen: &[String],
    found: &mut Found,
) {
    // A word no saved recipe is (nor any the taxonomy knows) is not a
    // filter: "lunch" in "leftovers for lunch".
    let known = |w: &&String| {
        pool.iter().any(|x| is(&x.facts, w))
            || taxonomy::is_known_ingredient(w)
            || taxonomy::cuisine(w).is_some()
            || taxonomy::dish_kind(w).is_some()
            || taxonomy::diet(w).is_some()
            || taxonomy::is_family(w)
    };
    let (mut words, mut unknown): (Vec<&String>, Vec<&String>) = f.words.iter().partition(known);
    // When nothing said is known, it is still what was asked for ("any
    // that use spinach"): nothing matches, and the reply says so.
    if words.is_empty() {
        words = std::mem::take(&mut unknown);
    }
    found.unknown = unknown.into_iter().cloned().collect();
    let using: Vec<String> = match f.using {
        Some(Using::Shown) => c
            .reading
            .before
            .presented
            .iter()
            .filter(|r| r.starts_with("inv_"))
            .map(|r| c.world.label(r).to_lowercase())
            .collect(),
        Some(Using::Expiring) => {
            let today = c.req.input.today;
            let until = days_after(today, SOON_DAYS).unwrap_or_default();
            inventory
                .iter()
                .filter(|r| text_field(r, "expiry_date").is_some_and(|d| d <= until.as_str()))
                .filter_map(|r| text_field(r, "name").map(str::to_lowercase))
                .collect()
        }
        None => Vec::new(),
    };
    let mut cards: Vec<Card> = Vec::new();
    for x in pool {
        if !words.iter().all(|w| is(&x.facts, w)) || f.not.iter().any(|w| is(&x.facts, w)) {
            continue;
        }
        if f.dinner && x.facts.is_kind("breakfast") {
            continue;
        }
        let mut k = card(x, inventory, kitchen, None);
        if f.using.is_some() {
            k.uses = using
                .iter()
                .filter(|item| x.facts.ingredients.iter().any(|i| same_food(i, item)))
                .cloned()
                .collect();
            if k.uses.is_empty() {
                continue;
            }
        }
        if f.ready && k.missing.len() > 1 {
            found.short.push(k.name.clone());
            continue;
        }
        cards.push(k);
    }
    if f.using.is_some() {
        cards.sort_by_key(|k| std::cmp::Reverse(k.uses.len()));
    }
    if f.ready {
        cards.sort_by_key(|k| k.missing.len());
    }
    if let Some(by) = f.by {
        cards.sort_by_key(|k| rank(by, k));
    }
    found.winners = cards.len();
    found.cards = cards;
}

/// The refs a question is about, or why they cannot be told.
fn about(
    which: &Which,
    what: &Detail,
    c: &ActCtx<'_>,
    all: &[Recipe<'_>],
    list: &[String],
) -> Result<Vec<String>, String> {
    let b = &c.reading.before;
    let nothing = || "which recipe do you mean?".to_string();
    match which {
        Which::Nth(n) => list.get(*n).map(|r| vec![r.clone()]).ok_or_else(|| {
            if list.is_empty() {
                nothing()
            } else {
                format!("the last list had only {}", plural(list.len(), "recipe"))
            }
        }),
        Which::Last => list.last().map(|r| vec![r.clone()]).ok_or_else(nothing),
        Which::Other => {
            let first = b
                .last_recipe
                .as_ref()
                .or(list.first())
                .ok_or_else(nothing)?;
            match list
                .iter()
                .filter(|r| *r != first)
                .collect::<Vec<_>>()
                .as_slice()
            {
                [one] => Ok(vec![(*one).clone()]),
                _ => Err(nothing()),
            }
        }
        Which::Ranked(by) => {
            let minutes = |r: &String| {
                all.iter().find(|x| x.r == *r).map(|x| {
                    num_field(x.row, "prep_time_minutes").unwrap_or(0.0)
                        + num_field(x.row, "cook_time_minutes").unwrap_or(0.0)
                })
            };
            let timed: Vec<(&String, f64)> =
                list.iter().filter_map(|r| Some((r, minutes(r)?))).collect();
            let best = match by {
                By::Slowest => timed.iter().max_by(|a, b| a.1.total_cmp(&b.1)),
                _ => timed.iter().min_by(|a, b| a.1.total_cmp(&b.1)),
            };
            best.map(|(r, _)| vec![(*r).clone()]).ok_or_else(nothing)
        }
        Which::Next => {
            let order = ordered_as_last_asked(c, list, all);
            let anchor = b
                .last_recipe
                .clone()
                .or_else(|| b.presented.first().cloned())
                .ok_or_else(nothing)?;
            let i = order
                .iter()
                .position(|r| *r == anchor)
                .ok_or_else(nothing)?;
            order
                .get(i + 1)
                .map(|r| vec![r.clone()])
                .ok_or_else(|| "that was the last one".to_string())
        }
        Which::Titled(name) => all
            .iter()
            .find(|x| text_field(x.row, "name").is_some_and(|n| n.eq_ignore_ascii_case(name)))
            .map(|x| vec![x.r.clone()])
            .ok_or_else(|| format!("no saved recipe is called “{name}”")),
        Which::Named(word) => {
            let hits: Vec<String> = all
                .iter()
                .filter(|x| is(&x.facts, word))
                .map(|x| x.r.clone())
                .collect();
            let shown: Vec<String> = hits.iter().filter(|r| list.contains(r)).cloned().collect();
            match (hits.len(), shown.len()) {
                (0, _) => Err(format!("no saved recipe matches “{word}”")),
                (1, _) => Ok(hits),
                (_, 1) => Ok(shown),
                _ => Err(format!("more than one recipe is a {word} one")),
            }
        }
        Which::Shown => {
            // A recipe the message names outright ("the paneer needs using").
            // The item's own words are left out once: "enough paneer for
            // the paneer tikka" still names the paneer tikka.
            let mut item = match what {
                Detail::AmountOf(x) => stems(x),
                _ => Vec::new(),
            };
            let named: Vec<String> = c
                .reading
                .words
                .words
                .iter()
                .filter(|w| !is_filler(w))
                .map(|w| stem(w))
                .filter(|w| match item.iter().position(|i| i == w) {
                    Some(at) => {
                        item.remove(at);
                        false
                    }
                    None => true,
                })
                .flat_map(|w| {
                    all.iter()
                        .filter(move |x| stems(&x.facts.label).contains(&w))
                        .map(|x| x.r.clone())
                })
                .collect();
            let mut unique = named.clone();
            unique.sort();
            unique.dedup();
            if unique.len() == 1 {
                return Ok(unique);
            }
            // "the yellow curry": the one recipe most of the words name.
            let hits = |r: &String| named.iter().filter(|x| *x == r).count();
            if let Some(best) = unique.iter().max_by_key(|r| hits(r))
                && unique.iter().filter(|r| hits(r) == hits(best)).count() == 1
            {
                return Ok(vec![best.clone()]);
            }
            if let Some(r) = &b.last_recipe {
                return Ok(vec![r.clone()]);
            }
            // "add what's missing for the assam pedas" → "enough cod for
            // it?": no recipe shown, the one the last message named.
            if list.is_empty()
                && let super::super::super::link::Linked::One(name) =
                    super::super::super::link::recipe(
                        &Words::new(&b.user).words,
                        &all.iter()
                            .map(|x| x.facts.label.clone())
                            .collect::<Vec<_>>(),
                    )
                && let Some(x) = all.iter().find(|x| x.facts.label == name)
            {
                return Ok(vec![x.r.clone()]);
            }
            if list.is_empty() {
                Err(nothing())
            } else {
                Ok(list.to_vec())
            }
        }
    }
}

/// The last list in the order the last message asked for ("which of those
/// is quickest" → quickest first), so "the one after that" counts on.
fn ordered_as_last_asked(c: &ActCtx<'_>, list: &[String], all: &[Recipe<'_>]) -> Vec<String> {
    let last = super::read(&Words::new(&c.reading.before.user), Cues::default());
    let by = match last {
        Some(Ask::Compare { by, .. }) => Some(by),
        Some(Ask::Find(Find { by, .. })) => by,
        _ => None,
    };
    let Some(by) = by else {
        return list.to_vec();
    };
    let inventory = known_rows(c, Table::Inventory);
    let kitchen = kitchen_names(inventory.iter().copied());
    let mut cards: Vec<Card> = list
        .iter()
        .filter_map(|r| all.iter().find(|x| &x.r == r))
        .map(|x| card(x, &inventory, &kitchen, None))
        .collect();
    cards.sort_by_key(|k| rank(by, k));
    cards.into_iter().map(|k| k.r#ref).collect()
}
