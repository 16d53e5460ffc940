//! Skills: one folder per part of the kitchen the offline brain can help
//! with, each owning its understanding (`read`), its plan, its act and its
//! reply. A new ask is a variant of its skill's `Ask`; the compiler then
//! finds every node that must handle it, because every match over an
//! `Ask` is exhaustive.
//!
//! Memory's asks (forget, start over, delete, what isn't saved, what was
//! just added, a look back) and small talk's (hello, thanks, yes, no,
//! help) are typed asks read and planned in `memory/` and `talk/`; their
//! act and most of their replies are still in the node files (`act_make`,
//! `act_write`, `reply`, `reply_rows`). The older intents (saving and
//! editing drafts, exclusions, the plan draft, the pantry's adds and
//! removals) are still read in the lexicon. The skills run first for the
//! messages they recognise.

pub mod advice;
pub mod amend;
pub mod cook;
pub mod days;
pub mod memory;
pub mod planning;
pub mod recipes;
pub mod shopping;
pub mod stock;
pub mod talk;
pub mod tasks;
pub mod when;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::{Offer, Shown, Table};
use crate::pipeline::{ActAction, ThinkOutput};

use super::act_ctx::ActCtx;
use super::dialogue::Before;
use super::lexicon::Cues;
use super::reply_ctx::ReplyCtx;
use super::text::{Words, is_filler, near, number, stem, stems};
use super::think_ctx::Ctx;
use super::world::World;
use super::world::text_field;

/// What a message asks of one skill.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "skill", content = "ask", rename_all = "snake_case")]
pub enum SkillAsk {
    Tasks(tasks::Ask),
    Stock(stock::Ask),
    Planning(planning::Ask),
    Shopping(shopping::Ask),
    Recipes(recipes::Ask),
    Cook(cook::Ask),
    /// A new amount for what the last turn wrote.
    Amend(amend::Ask),
    /// A general cooking question about a food.
    Advice(advice::Ask),
}

/// The skill a message was about, so "and one for friday" or "and the
/// noodles?" carry on the last one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Topic {
    #[default]
    None,
    Tasks,
    /// How much of something there is.
    Amounts,
    /// When things go off.
    Expiry,
    /// Meals on days.
    Planning,
    /// The shopping list.
    Shopping,
    /// Saved recipes, and the kind of question last asked about one.
    Recipes(recipes::DetailKind),
}

impl SkillAsk {
    /// A short name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            SkillAsk::Tasks(a) => a.name(),
            SkillAsk::Stock(a) => a.name(),
            SkillAsk::Planning(a) => a.name(),
            SkillAsk::Shopping(a) => a.name(),
            SkillAsk::Recipes(a) => a.name(),
            SkillAsk::Cook(a) => a.name(),
            SkillAsk::Amend(a) => a.name(),
            SkillAsk::Advice(a) => a.name(),
        }
    }

    /// The skill this ask belongs to.
    pub fn topic(&self) -> Topic {
        match self {
            SkillAsk::Tasks(_) => Topic::Tasks,
            SkillAsk::Stock(a) => a.topic(),
            SkillAsk::Planning(_) => Topic::Planning,
            SkillAsk::Shopping(_) => Topic::Shopping,
            SkillAsk::Recipes(a) => a.topic(),
            SkillAsk::Cook(_) => Topic::Recipes(recipes::DetailKind::Ingredients),
            SkillAsk::Amend(a) => topic_of_refs(std::slice::from_ref(&a.r#ref)),
            SkillAsk::Advice(_) => Topic::None,
        }
    }
}

/// The skill a list of presented refs belongs to (the tasks just shown).
pub fn topic_of_refs(refs: &[String]) -> Topic {
    // A plan's turn names its recipes too: a meal among the refs makes it
    // the plan's.
    if refs
        .iter()
        .any(|r| table_of_ref(r) == Some(Table::MealPlans))
    {
        return Topic::Planning;
    }
    match refs.first().and_then(|r| table_of_ref(r)) {
        Some(Table::Tasks) => Topic::Tasks,
        Some(Table::Inventory) => Topic::Amounts,
        Some(Table::MealPlans) => Topic::Planning,
        Some(Table::ShoppingList) => Topic::Shopping,
        Some(Table::Recipes) => Topic::Recipes(recipes::DetailKind::Ingredients),
        _ => Topic::None,
    }
}

/// A message the lexicon read otherwise that names something a skill owns
/// and the session knows, with that skill's verb.
pub fn refine(w: &Words, world: &World<'_>, before: &Before) -> Option<SkillAsk> {
    amend::read(w, world, before)
        .map(SkillAsk::Amend)
        .or_else(|| tasks::refine(w, world).map(SkillAsk::Tasks))
        .or_else(|| shopping::refine(w, world, before).map(SkillAsk::Shopping))
        .or_else(|| stock::answers::refine(w, before).map(SkillAsk::Stock))
}

/// The skills' reading of a message, first match wins.
pub fn read(w: &Words, cues: Cues) -> Option<SkillAsk> {
    // Advice is read once, ahead of drafting, in the lexicon.
    cook::read(w)
        .map(SkillAsk::Cook)
        .or_else(|| tasks::read(w, cues).map(SkillAsk::Tasks))
        .or_else(|| recipes::read(w, cues).map(SkillAsk::Recipes))
        .or_else(|| shopping::read(w, cues).map(SkillAsk::Shopping))
        .or_else(|| stock::read(w, cues).map(SkillAsk::Stock))
        .or_else(|| planning::read(w, cues).map(SkillAsk::Planning))
}

/// Think's plan for a skill's ask.
pub fn plan(ask: &SkillAsk, c: &Ctx<'_>) -> ThinkOutput {
    match ask {
        SkillAsk::Tasks(a) => tasks::plan::plan(a),
        SkillAsk::Stock(a) => stock::plan::plan(a, c),
        SkillAsk::Planning(a) => planning::plan::plan(a, c),
        SkillAsk::Shopping(a) => {
            shopping::plan(a, &super::hints::allergy_words(c.session), &c.reading.words)
        }
        SkillAsk::Recipes(a) => recipes::plan(a),
        SkillAsk::Cook(cook::Ask::Pairing(_)) => cook::pairing::plan(c),
        SkillAsk::Amend(a) => amend::plan(a),
        SkillAsk::Advice(a) => advice::plan(a),
    }
}

/// Act's next call (or completion) for a skill's ask.
pub fn act(ask: &SkillAsk, c: &ActCtx<'_>) -> ActAction {
    match ask {
        SkillAsk::Tasks(a) => tasks::act::act(a, c),
        SkillAsk::Stock(a) => stock::act::act(a, c),
        SkillAsk::Planning(a) => planning::act::act(a, c),
        SkillAsk::Shopping(a) => shopping::act::act(a, c),
        SkillAsk::Recipes(a) => recipes::act::act(a, c),
        SkillAsk::Cook(cook::Ask::Pairing(a)) => cook::pairing::act(a, c),
        SkillAsk::Amend(a) => amend::act(a, c),
        // Advice plans no step.
        SkillAsk::Advice(_) => super::act_ctx::complete("Nothing to do".into(), Value::Null, None),
    }
}

/// An item as the user named it (stemmed), or "it"/"them": what was just
/// shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Named {
    Item(String),
    Shown,
}

impl Named {
    /// An item by its name, each word stemmed as the readers name it.
    pub fn item(name: &str) -> Self {
        Named::Item(
            name.split_whitespace()
                .map(stem)
                .collect::<Vec<_>>()
                .join(" "),
        )
    }
}

/// Words that point at what was just shown.
pub const POINTING: &[&str] = &["it", "them", "those", "that", "these", "this"];

/// The items named in each segment of the words, without the words in
/// `not_item` or amounts ("when does it go off, and the bananas?" → it,
/// banana); "it" only when nothing was named before it.
pub fn named_items(w: &Words, not_item: &[&str]) -> Vec<Named> {
    // "actually nvm take them off": how people open a correction is not
    // an item.
    const DISCOURSE: &[&str] = &[
        "actually", "nvm", "hmm", "oh", "oops", "wait", "ah", "nah", "ugh", "lol", "sorry", "mind",
        "never", "scratch",
    ];
    let mut out = Vec::new();
    for seg in &w.segments {
        let words: Vec<String> = seg
            .iter()
            .filter(|x| !is_filler(x) && !not_item.contains(&x.as_str()))
            .filter(|x| !DISCOURSE.contains(&x.as_str()))
            .filter(|x| number(x).is_none())
            .cloned()
            .collect();
        let words = super::vocab::food_core(&words).unwrap_or(words);
        let words: Vec<String> = words.iter().map(|x| stem(x)).collect();
        if !words.is_empty() {
            out.push(Named::Item(words.join(" ")));
        } else if seg.iter().any(|x| POINTING.contains(&x.as_str())) && out.is_empty() {
            out.push(Named::Shown);
        }
    }
    out.dedup();
    out
}

/// True when a row is the item named: every word of the name in the row's
/// name, give or take a typo ("rice" → jasmine rice; "thigh" → chicken
/// thigh).
pub fn holds(row: &Value, name: &str) -> bool {
    let have = stems(text_field(row, "name").unwrap_or_default());
    let want = stems(name);
    // Two foods a letter apart ("pasta", "paste") are two foods.
    let close = |h: &String, w: &String| {
        h == w || (near(h, w) && !(super::vocab::is_food_word(h) && super::vocab::is_food_word(w)))
    };
    !want.is_empty() && want.iter().all(|w| have.iter().any(|h| close(h, w)))
}

/// The rows exactly named when there are any ("milk", not coconut milk),
/// else every row holding the name.
pub fn best<'a>(rows: &[&'a Value], name: &str) -> Vec<&'a Value> {
    let exact: Vec<&Value> = rows
        .iter()
        .copied()
        .filter(|r| stems(text_field(r, "name").unwrap_or_default()) == stems(name))
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    rows.iter().copied().filter(|r| holds(r, name)).collect()
}

/// Rows as a reply's presented list: their refs with their names (or
/// titles).
pub fn shown(rows: &[&Value]) -> Vec<Shown> {
    rows.iter()
        .filter_map(|r| {
            let id = r.get("id")?.as_str()?;
            let label = ["name", "title"]
                .iter()
                .find_map(|k| r.get(*k).and_then(Value::as_str))
                .unwrap_or(id);
            Some(Shown::new(id, label))
        })
        .collect()
}

/// Why a step changed nothing: its "No …" outcome, else `otherwise`.
pub fn why_unchanged(c: &ReplyCtx<'_>, otherwise: &str) -> String {
    outcomes(c)
        .into_iter()
        .rfind(|o| o.starts_with("No "))
        .unwrap_or_else(|| otherwise.to_string())
}

/// What a skill's reply says, presents and offers.
pub struct Said {
    pub text: String,
    pub presented: Vec<Shown>,
    pub offer: Option<Offer>,
    /// The reply's closing question when a plain "yes" to it makes a
    /// change ("Want me to add some?" → "add peas to it").
    pub confirm: Option<Confirm>,
}

/// A question whose "yes" makes a change.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirm {
    pub question: String,
    /// The request the "yes" carries out, in words the brain reads.
    pub change: String,
}

impl Said {
    /// A reply that presents nothing and offers nothing.
    pub fn text(text: String) -> Self {
        Self {
            text,
            presented: Vec::new(),
            offer: None,
            confirm: None,
        }
    }
}

/// The reply for a skill's ask.
pub fn reply(ask: &SkillAsk, c: &ReplyCtx<'_>) -> Said {
    match ask {
        SkillAsk::Tasks(a) => tasks::reply::reply(a, c),
        SkillAsk::Stock(a) => stock::reply::reply(a, c),
        SkillAsk::Planning(a) => planning::reply::reply(a, c),
        SkillAsk::Shopping(a) => shopping::reply::reply(a, c),
        SkillAsk::Recipes(a) => recipes::reply::reply(a, c),
        SkillAsk::Cook(cook::Ask::Pairing(_)) => cook::pairing::reply(c),
        SkillAsk::Amend(a) => amend::reply(a, c),
        SkillAsk::Advice(a) => advice::reply(a),
    }
}

/// The rows of `table` a step can choose from: this turn's, then those
/// loaded earlier (latest copy of each ref wins).
pub fn known_rows<'a>(c: &ActCtx<'a>, table: Table) -> Vec<&'a Value> {
    let mut out: Vec<&Value> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let rows = c
        .data_rows()
        .into_iter()
        .rev()
        .chain(c.world.loaded(table).into_iter().map(|(_, v)| v));
    for row in rows {
        let Some(id) = row.get("id").and_then(Value::as_str) else {
            continue;
        };
        if table_of_ref(id) == Some(table) && !seen.contains(&id) {
            seen.push(id);
            out.push(row);
        }
    }
    out
}

/// The table a ref names by its prefix ("task_3" → tasks).
pub fn table_of_ref(r: &str) -> Option<Table> {
    let prefix = r.strip_prefix("gen_").unwrap_or(r).rsplit_once('_')?.0;
    Table::from_prefix(prefix)
}

/// Rows of `table` that steps of `kind` returned this turn.
pub fn rows_of_kind<'a>(
    c: &ReplyCtx<'a>,
    table: Table,
    kind: crate::pipeline::StepType,
) -> Vec<&'a Value> {
    c.req
        .data
        .iter()
        .filter(|d| c.step_type(d.step_index) == Some(kind))
        .filter_map(|d| d.content.as_array())
        .flatten()
        .filter(|row| row.get("id").and_then(Value::as_str).and_then(table_of_ref) == Some(table))
        .collect()
}

/// The step outcomes of this turn, one line each ("No task matched …").
pub fn outcomes(c: &ReplyCtx<'_>) -> Vec<String> {
    c.req
        .input
        .steps
        .iter()
        .map(|s| s.outcome.clone())
        .collect()
}
