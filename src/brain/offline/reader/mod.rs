//! The offline brain's reader: one closed-world reader that knows when it
//! does not know. Five stages, each a module with a typed output, data
//! flowing one way:
//!
//! 1. [`normalize`]: tokens, clauses, spelling corrected towards the
//!    closed world's own words;
//! 2. [`link`]: every span that names a recipe, a row, a food, a day, a
//!    meal, an amount or the dialogue, scored;
//! 3. [`grammar`]: the frames of `assets/lexicon.toml` over the links,
//!    yielding every reading with its coverage;
//! 4. [`decide`]: the one policy that turns readings into a move (do,
//!    confirm, choose, pass);
//! 5. [`bridge`]: a reading handed to the skills that carry it out.
//!
//! [`decline`] says what an answer of the older chain would leave unread,
//! with options this reader carries out.
//!
//! The reader is built beside the older rule chain and takes a message
//! first: what it reads with confidence it decides; what it passes on the
//! older chain still reads, and a write from there that this reader cannot
//! account for is confirmed first (`understand`).
//!
//! Pure: reads the message, the kitchen's names and the last exchange.

pub mod acts;
pub mod bridge;
pub mod decide;
pub mod decline;
pub mod grammar;
pub mod lexicon;
pub mod link;
pub mod normalize;
pub mod rules;

#[cfg(test)]
mod tests;

use std::collections::HashMap;

use crate::context::{QuestionKind, Table};

use super::dialogue::Before;
use acts::{Act, ItemSaid};
use decide::Move;
use grammar::Reading;
use link::{Names, Pointer, Target};

/// What the reader reads a message against: the kitchen's names and the
/// last exchange.
pub struct Scene<'a> {
    pub names: Names,
    pub before: &'a Before,
    /// The table and label of each ref the last exchange holds.
    pub labels: HashMap<String, (Table, String)>,
}

impl Scene<'_> {
    /// True when the talk is about this domain's rows: the last reply that
    /// showed or changed rows showed or changed rows of its table ("add
    /// milk" while the list is on screen adds to the list).
    pub fn on_topic(&self, domain: lexicon::Domain) -> bool {
        let table = match domain {
            lexicon::Domain::Shopping => Table::ShoppingList,
            lexicon::Domain::Stock => Table::Inventory,
            lexicon::Domain::Plan => Table::MealPlans,
            lexicon::Domain::Tasks => Table::Tasks,
            lexicon::Domain::Recipes => Table::Recipes,
        };
        let tables: Vec<Table> = self
            .before
            .touched
            .iter()
            .filter_map(|r| self.labels.get(r).map(|(t, _)| *t))
            .collect();
        !tables.is_empty() && tables.iter().all(|t| *t == table)
    }

    /// True when a recipe is on screen, saved or a draft: the last reply
    /// showed or changed one, opened one's card, or a draft is still being
    /// worked on ("add garlic" may change it).
    pub fn recipe_on_screen(&self) -> bool {
        let recipe = |r: &String| {
            r.starts_with("gen_recipe")
                || self
                    .labels
                    .get(r)
                    .is_some_and(|(t, _)| *t == Table::Recipes)
        };
        let b = self.before;
        self.on_topic(lexicon::Domain::Recipes)
            || b.last_recipe.is_some() && b.touched.is_empty()
            || matches!(b.presented.as_slice(), [one] if recipe(one))
            || !self.names.drafts.is_empty()
    }

    /// True when the last reply wrote or showed a planned meal.
    pub fn plan_in_talk(&self) -> bool {
        self.before
            .written
            .iter()
            .chain(&self.before.touched)
            .any(|r| matches!(self.labels.get(r), Some((Table::MealPlans, _))))
    }

    fn label_in(&self, r: &str, table: Table) -> Option<String> {
        self.labels
            .get(r)
            .filter(|(t, _)| *t == table)
            .map(|(_, l)| l.clone())
    }

    /// The saved recipe a pointer stands for: "the 2nd one" in the list
    /// last shown, "it" the one recipe the talk is about.
    pub fn recipe_at(&self, p: Pointer) -> Option<String> {
        let b = self.before;
        let list = if b.listed.is_empty() {
            &b.presented
        } else {
            &b.listed
        };
        let r = match p {
            Pointer::Nth(n) => list.get(n.checked_sub(1)?)?.clone(),
            Pointer::Last => list.last()?.clone(),
            Pointer::It => b.last_recipe.clone().or_else(|| {
                let recipes: Vec<&String> = b
                    .touched
                    .iter()
                    .filter(|r| self.label_in(r, Table::Recipes).is_some())
                    .collect();
                (recipes.len() == 1).then(|| recipes[0].clone())
            })?,
        };
        let label = self.label_in(&r, Table::Recipes)?;
        self.names.recipes.contains(&label).then_some(label)
    }

    /// The one stock row the last message named ("and the yoghurt — the
    /// record says 500 g"), else, when it named none, the one the last
    /// reply wrote or showed.
    pub fn row_just_said(&self) -> Option<String> {
        let lex = lexicon::lexicon();
        let n = normalize::normalize(&self.before.user, lex, &self.names.words());
        let mut named: Vec<String> = Vec::new();
        let mut foods = false;
        for l in link::link(&n, lex, &self.names) {
            foods |= l.targets.iter().any(Target::names);
            if let Some(Target::Stocked(rows)) =
                l.targets.iter().find(|t| matches!(t, Target::Stocked(_)))
            {
                for r in rows {
                    if !named.contains(r) {
                        named.push(r.clone());
                    }
                }
            }
        }
        match named.as_slice() {
            [one] => Some(one.clone()),
            [] if !foods => self
                .one_just_said(Table::Inventory)
                .filter(|r| self.names.inventory.contains(r)),
            _ => None,
        }
    }

    /// The planned meals the last reply wrote, else the ones it showed:
    /// each as its day's key ("dated_thursday_15") and its meal, read from
    /// the slot's label ("Thu Jan 15 [dinner]").
    pub fn slots_just_said(&self) -> Vec<(String, String)> {
        self.just_said(|r| slot_of(&self.label_in(r, Table::MealPlans)?))
    }

    /// The one task the last reply wrote, else the one it showed.
    pub fn task_just_said(&self) -> Option<String> {
        self.one_just_said(Table::Tasks)
            .filter(|t| self.names.tasks.contains(t))
    }

    /// The one row of `table` the last reply wrote, else the one it showed.
    fn one_just_said(&self, table: Table) -> Option<String> {
        match self.just_said(|r| self.label_in(r, table)).as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    /// What `of` makes of the refs the last reply wrote, else of those it
    /// showed: each once, in order.
    fn just_said<T: PartialEq>(&self, of: impl Fn(&String) -> Option<T>) -> Vec<T> {
        let b = self.before;
        let each = |refs: &[String]| -> Vec<T> {
            let mut out: Vec<T> = Vec::new();
            for t in refs.iter().filter_map(&of) {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
            out
        };
        let written = each(&b.written);
        if written.is_empty() {
            each(&b.touched)
        } else {
            written
        }
    }

    /// Recipes a word names, narrowed to the ones just shown when that
    /// leaves one ("the curry one" after a list with one curry in it).
    pub fn narrowed(&self, names: &[String]) -> Vec<String> {
        if names.len() < 2 {
            return names.to_vec();
        }
        let b = self.before;
        let shown: Vec<String> = b
            .presented
            .iter()
            .chain(&b.listed)
            .filter_map(|r| self.label_in(r, Table::Recipes))
            .collect();
        let kept: Vec<String> = names
            .iter()
            .filter(|n| shown.contains(n))
            .cloned()
            .collect();
        if kept.len() == 1 {
            kept
        } else {
            names.to_vec()
        }
    }
}

/// A planned meal's label ("Thu Jan 15 [dinner]") as a day's key and a
/// meal.
fn slot_of(label: &str) -> Option<(String, String)> {
    let (day, meal) = label.split_once(" [")?;
    let meal = meal.strip_suffix(']')?;
    let mut parts = day.split_whitespace();
    let weekday = super::text::weekday_index(&parts.next()?.to_lowercase())?;
    let weekday = super::text::weekday_name(weekday).to_lowercase();
    let dom: u32 = parts.nth(1)?.parse().ok()?;
    Some((format!("dated_{weekday}_{dom}"), meal.to_string()))
}

/// What in a message's words makes a change it seems to ask for doubtful.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doubt {
    /// "dont add it", "we're out of time … no wait".
    Negated,
    /// "maybe", "i cant decide", "she's allergic".
    Hedged,
    /// "everything except …": a change to all but some rows.
    Excepted,
    /// "need more yogurt?", "its done already isnt it".
    Asked,
}

/// A message read: every reading, best first, and the move.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub readings: Vec<Reading>,
    pub decision: Move,
    /// Why a change the older chain reads in these words should be asked
    /// about first.
    pub doubts: Vec<Doubt>,
    /// A "yes" that confirms the reader's own question: the request it
    /// confirmed is what `decision` carries out.
    pub confirmed: bool,
}

/// Reads one message in its scene.
pub fn read(message: &str, scene: &Scene<'_>) -> Outcome {
    let lex = lexicon::lexicon();
    let n = normalize::normalize(message, lex, &scene.names.words());
    let links = link::link(&n, lex, &scene.names);
    if tracing::enabled!(tracing::Level::DEBUG) {
        let words = n.words();
        let said: Vec<String> = links
            .iter()
            .map(|l| {
                format!(
                    "{}→{:?}",
                    words[l.start..l.end].join(" "),
                    l.targets.first()
                )
            })
            .collect();
        tracing::debug!(words = ?words, links = ?said, "reader linked");
    }
    let b = scene.before;
    // While the last reply waits on an answer or an offer, a recipe's name
    // on its own is the answer's, the older chain's to read.
    let open = b.dialogue.question.is_some() || b.dialogue.offer.is_some();
    let mut readings = grammar::readings(&n, &links, lex, scene);
    if !open {
        readings.extend(grammar::bare_recipe(&n.words(), &links, lex));
        readings.extend(grammar::bare_domain(&n.words(), &links, lex));
    }
    readings.sort_by(|a, b| b.score.total_cmp(&a.score));
    // The reader's own question, if the last reply asked one: the move it
    // made for that request, read once (only when the question's words
    // are the reader's own for that move).
    let own_question = b
        .dialogue
        .question
        .as_ref()
        .filter(|q| !q.request.trim().is_empty())
        .map(|q| read_fresh(&q.request, scene).decision)
        .filter(|asked| match (asked, &b.dialogue.question) {
            (Move::Confirm { question, .. } | Move::Choose { question, .. }, Some(q)) => {
                q.text.contains(question.as_str())
            }
            _ => false,
        });
    let carried_out = |reading: Reading| Outcome {
        readings: readings.clone(),
        decision: Move::Do(reading),
        confirmed: true,
        doubts: Vec::new(),
    };
    if let Some(Move::Confirm { reading, .. }) = &own_question
        && b.asked(QuestionKind::Confirm)
    {
        // A yes carries out the request it asked about; "yes but leave the
        // rice", that request without what is left out; a no, or anything
        // else, is read as it is.
        if readings.first().is_some_and(|r| r.acts == [Act::Yes])
            || restates(
                &n,
                &b.dialogue
                    .question
                    .as_ref()
                    .map(|q| q.request.clone())
                    .unwrap_or_default(),
            )
        {
            return carried_out(reading.clone());
        }
        if let Some(less) = left_out(&n, &links, reading) {
            return carried_out(less);
        }
    }
    // An answer to its own choice is short, asks nothing and makes no
    // request of its own.
    let answers = !n.question
        && n.words().iter().filter(|w| !lex.glue.contains(**w)).count() <= 4
        && !readings.iter().any(|r| {
            r.coverage >= decide::DO_COVERAGE
                && !r.acts.iter().all(|a| matches!(a, Act::ShowRecipe { .. }))
        });
    if let Some(asked @ Move::Choose { .. }) = &own_question
        && answers
        && let Some(chosen) = chosen(&n, &links, asked)
    {
        return carried_out(chosen);
    }
    if let Some(done) = shortfall_added(&n, &links, scene) {
        return Outcome {
            decision: Move::Do(done),
            readings,
            confirmed: false,
            doubts: Vec::new(),
        };
    }
    if let Some(done) = completes(&n, &readings, scene) {
        return Outcome {
            decision: Move::Do(done),
            readings,
            confirmed: false,
            doubts: Vec::new(),
        };
    }
    if let Some(amended) = amend(&n, &links, scene) {
        return Outcome {
            decision: Move::Do(amended),
            readings,
            confirmed: false,
            doubts: Vec::new(),
        };
    }
    let mut decision = decide::decide(&readings);
    // While the last reply waits on an answer or an offer, only a whole,
    // plain request of its own is the reader's; an answer is the older
    // chain's to read.
    let open = b.dialogue.question.is_some() || b.dialogue.offer.is_some();
    // A yes or a no answers what the older chain offered; thanks or a
    // goodbye closes the talk whatever was open.
    let talk = |m: &Move| matches!(m, Move::Do(r) if r.acts != [Act::Thanks] && r.acts.iter().any(|a| matches!(a, Act::Yes | Act::No | Act::Thanks | Act::Greeting | Act::Help)));
    // A bulk change said whole is asked about by the reader, naming what
    // goes, whatever was open.
    let whole = |m: &Move| matches!(m, Move::Do(r) | Move::Confirm { reading: r, .. } | Move::Choose { reading: r, .. } if r.coverage >= 1.0);
    if talk(&decision) || (open && !whole(&decision)) {
        decision = Move::Pass;
    }
    // "add garlic" while a recipe is on screen is an edit of it, the older
    // chain's to read: the list is not even asked about.
    if scene.recipe_on_screen()
        && matches!(&decision, Move::Confirm { reading, .. } if reading.unsure == Some(grammar::Unsure::Loose))
    {
        decision = Move::Pass;
    }
    // A date the reader has no word for ("the 15th", "in 2 days") is the
    // older chain's to read.
    let dated = |w: &str| {
        matches!(w, "days" | "weeks" | "fortnight")
            || w.len() > 2
                && w.chars().next().is_some_and(|c| c.is_ascii_digit())
                && ["st", "nd", "rd", "th"].iter().any(|s| w.ends_with(s))
    };
    if matches!(&decision, Move::Do(r) | Move::Confirm { reading: r, .. } if r.unread.iter().any(|w| dated(w)))
    {
        decision = Move::Pass;
    }
    let doubts = doubts(&n, &links);
    // A guess at a change said with a negation, a hedge or an exception is
    // not put as a question: the older chain reads those words.
    // Nor is a change read in part beside a remark done then.
    let guessed = match &decision {
        Move::Confirm { reading, .. } => !reading.bulk,
        Move::Do(r) => r.writes() && r.coverage < decide::DO_COVERAGE,
        _ => false,
    };
    if !doubts.is_empty() && guessed {
        decision = Move::Pass;
    }
    Outcome {
        readings,
        decision,
        confirmed: false,
        doubts,
    }
}

/// The doubts the words raise about any change read in them.
fn doubts(n: &normalize::Normalized, links: &[link::Link]) -> Vec<Doubt> {
    let lex = lexicon::lexicon();
    let words = n.words();
    let in_reason = |k: usize| {
        links
            .iter()
            .any(|l| l.start <= k && k < l.end && l.targets.first() == Some(&Target::Reason))
    };
    let mut out = Vec::new();
    // A negation turns a request around only near its verb, in its clause
    // ("dont add it", "never used"); "cant afford it" after one does not,
    // nor a "no" that opens a clause ("no eggs. put it on wednesday").
    let clause = |k: usize| n.tokens[k].clause;
    // Said first in its clause, after openers only ("hmm no take …").
    let opens = |k: usize| {
        (0..k)
            .rev()
            .take_while(|&j| clause(j) == clause(k))
            .all(|j| lex.openers.contains(words[j]))
    };
    let verbs: Vec<usize> = (0..words.len())
        .filter(|&k| grammar::verb_at(&words, k, lex))
        .collect();
    let near_verb = |k: usize| {
        verbs
            .iter()
            .any(|&v| v > k && v - k <= 3 && clause(v) == clause(k))
    };
    let marker = |k: usize| matches!(words[k], "no" | "nah" | "nope") && opens(k);
    let turned = |k: usize| lex.negation.contains(words[k]) && !in_reason(k) && !marker(k);
    if (0..words.len()).any(|k| turned(k) && near_verb(k)) {
        out.push(Doubt::Negated);
    }
    if words.iter().any(|w| lex.hedge.contains(*w)) {
        out.push(Doubt::Hedged);
    }
    let any_of = |list: &[lexicon::Phrase]| {
        (0..words.len()).any(|k| link::phrase_at(&words, k, list).is_some())
    };
    if any_of(&lex.except) {
        out.push(Doubt::Excepted);
    }
    if grammar::first_part_asks(&words, n, lex) {
        out.push(Doubt::Asked);
    }
    out
}

/// The answer to the reader's own "which one do you mean: A or B?": the
/// option the message names alone (by a word only it has, or its place),
/// put into the reading that asked. `None` when the question was not the
/// reader's choice or the message names no one option.
fn chosen(n: &normalize::Normalized, links: &[link::Link], asked: &Move) -> Option<Reading> {
    let Move::Choose { reading, .. } = asked else {
        return None;
    };
    let choice = reading.choice.as_ref()?;
    let lex = lexicon::lexicon();
    let said: Vec<String> = n
        .words()
        .iter()
        .filter(|w| !lex.glue.contains(**w))
        .map(|w| crate::context::taxonomy::singular(w))
        .collect();
    let place = links.iter().find_map(|l| match l.targets.first() {
        Some(Target::Pointer(Pointer::Nth(k))) => choice.options.get(k - 1),
        Some(Target::Pointer(Pointer::Last)) => choice.options.last(),
        _ => None,
    });
    // A word of its name, or a kind its name falls under ("the fish one"
    // for Kerala Cod Curry).
    let names = |o: &str, w: &str| {
        link::name_words(o).iter().any(|x| x == w)
            || crate::context::taxonomy::is_family(w)
                && crate::context::taxonomy::ingredient_matches(o, w)
    };
    let by_words: Vec<&String> = choice
        .options
        .iter()
        .filter(|o| {
            said.iter()
                .any(|w| names(o, w) && choice.options.iter().filter(|x| names(x, w)).count() == 1)
        })
        .collect();
    let pick = match (place, by_words.as_slice()) {
        (Some(p), []) => p.clone(),
        (None, [one]) => (*one).clone(),
        (Some(p), [one]) if p == *one => p.clone(),
        _ => return None,
    };
    let mut out = reading.clone();
    out.choice = None;
    for a in &mut out.acts {
        match (choice.what, a) {
            ("recipe", Act::PlanPut { recipe, .. } | Act::ShowRecipe { recipe }) => {
                *recipe = pick.clone()
            }
            ("recipe", Act::PlanMove { recipe, .. }) => *recipe = Some(link::name_words(&pick)),
            ("day", Act::PlanPut { days, .. }) => *days = vec![pick.clone()],
            ("item", Act::StockUse { items }) => {
                // "basmati, like 200g": the answer's amount is the use's.
                let amount = links.iter().find_map(|l| match l.targets.first() {
                    Some(Target::Amount(q, u) | Target::AmountAfter(q, u)) => Some((*q, u.clone())),
                    _ => None,
                });
                for i in items.iter_mut() {
                    i.name = pick.clone();
                    if let Some((q, u)) = &amount {
                        i.quantity = Some(*q);
                        i.unit = u.clone();
                    }
                }
                if items.iter().any(|i| i.quantity.is_none()) {
                    return None;
                }
            }
            ("task", Act::TaskDone { tasks }) => *tasks = vec![pick.clone()],
            ("item", Act::StockSet { row, .. }) => *row = pick.clone(),
            _ => {}
        }
    }
    Some(out)
}

/// The reading asked about without the things the message leaves out
/// True when the message opens with a yes and says nothing more than the
/// request it confirms already did ("yes clear it", "yep do it now" to
/// "clear all 5 items from the shopping list?"): every other word is a
/// small word, a yes, or a word of the request.
fn restates(n: &normalize::Normalized, request: &str) -> bool {
    let lex = lexicon::lexicon();
    let words = n.words();
    let Some(yes) = link::phrase_at(&words, 0, &lex.yes) else {
        return false;
    };
    let asked: Vec<String> = normalize::normalize(request, lex, &Default::default())
        .words()
        .iter()
        .map(|w| w.to_string())
        .collect();
    let rest = &words[yes.len()..];
    !rest.iter().any(|w| lex.negation.contains(*w))
        && rest.iter().all(|w| {
            lex.glue.contains(*w)
                || lex.yes.iter().any(|p| p.len() == 1 && p[0] == *w)
                || asked.iter().any(|a| a == w)
        })
}

/// ("yeah leave the rice"): the message opens with a yes, says only what
/// goes, and each thing named is one of the reading's items. `None`
/// otherwise, or when nothing would be left.
fn left_out(n: &normalize::Normalized, links: &[link::Link], asked: &Reading) -> Option<Reading> {
    let lex = lexicon::lexicon();
    let words = n.words();
    let yes = link::phrase_at(&words, 0, &lex.yes)?;
    let mut k = yes.len();
    while k < words.len() && lex.glue.contains(words[k]) && words[k] != "but" {
        k += 1;
    }
    if words.get(k) == Some(&"but") {
        k += 1;
    }
    let marker = link::phrase_at(&words, k, &lex.leave_out)?;
    let named: Vec<String> = links
        .iter()
        .filter(|l| l.start >= k + marker.len())
        .map(|l| words[l.start..l.end].join(" "))
        .collect();
    if named.is_empty() {
        return None;
    }
    let said = |name: &str| {
        let name = crate::context::taxonomy::singular(&name.to_lowercase());
        named
            .iter()
            .any(|w| name.contains(&crate::context::taxonomy::singular(w)))
    };
    let mut less = asked.clone();
    let mut dropped = 0;
    for act in &mut less.acts {
        match act {
            Act::ShoppingAdd { items }
            | Act::InventoryAdd { items, .. }
            | Act::StockUse { items } => {
                let before = items.len();
                items.retain(|i| !said(&i.name));
                dropped += before - items.len();
            }
            Act::ShoppingRemove { rows }
            | Act::ShoppingBought { rows }
            | Act::StockRemove { rows }
            | Act::StockMove { rows, .. } => {
                let before = rows.len();
                rows.retain(|r| !said(r));
                dropped += before - rows.len();
            }
            _ => {}
        }
    }
    less.acts.retain(|a| match a {
        Act::ShoppingAdd { items } | Act::InventoryAdd { items, .. } | Act::StockUse { items } => {
            !items.is_empty()
        }
        Act::ShoppingRemove { rows }
        | Act::ShoppingBought { rows }
        | Act::StockRemove { rows }
        | Act::StockMove { rows, .. } => !rows.is_empty(),
        _ => true,
    });
    (dropped == named.len() && !less.acts.is_empty()).then_some(less)
}

/// An answer that leaves its verb to what Alfred just offered or asked
/// ("sure, thursday" to "want to put it on the plan?"; "friday for 4" to
/// "which day?"): the message read as the rest of the offer or of the
/// request the question was about, done when that whole reads as one
/// plain change. The message must make no request of its own and turn
/// nothing around (no negation, no hedge, not a question). `None`
/// otherwise.
fn completes(
    n: &normalize::Normalized,
    readings: &[Reading],
    scene: &Scene<'_>,
) -> Option<Reading> {
    use crate::context::OfferKind;
    let lex = lexicon::lexicon();
    let b = scene.before;
    let words = n.words();
    // "yeah go on, sat lunch": every yes, opener and small word in front.
    let mut k = 0;
    while k < words.len() {
        if let Some(p) = link::phrase_at(&words, k, &lex.yes) {
            k += p.len();
        } else if lex.glue.contains(words[k]) || lex.openers.contains(words[k]) {
            k += 1;
        } else {
            break;
        }
    }
    let rest = &words[k..];
    let plain = !n.question
        && !rest.is_empty()
        && !grammar::weighed(&words, 0..words.len(), lex)
        && !words.iter().any(|w| lex.negation.contains(*w));
    let own_request = readings
        .first()
        .is_some_and(|r| !r.acts.is_empty() && r.coverage >= decide::CONFIRM_COVERAGE);
    if !plain || own_request {
        return None;
    }
    let offered = b
        .dialogue
        .offer
        .as_ref()
        .and_then(|o| match (o.kind, o.items.as_slice()) {
            (OfferKind::PutOnPlan, [one]) if scene.names.recipes.contains(&one.label) => {
                Some(format!("plan {}", one.label))
            }
            // "Want to put it on the plan?" under a recipe's card.
            (OfferKind::PutOnPlan, []) => scene
                .recipe_at(Pointer::It)
                .map(|label| format!("plan {label}")),
            _ => None,
        });
    let asked = b
        .dialogue
        .question
        .as_ref()
        .filter(|q| q.kind != QuestionKind::Confirm)
        .map(|q| q.request.trim().to_string())
        .filter(|r| !r.is_empty());
    let base = offered.or(asked)?;
    let whole = read_fresh(&format!("{base} {}", rest.join(" ")), scene);
    match whole.decision {
        Move::Do(r) if r.coverage >= 1.0 && r.writes() && r.choice.is_none() => Some(r),
        _ => None,
    }
}

/// "add those to the list" right after "what do i need for the pad see
/// ew": the shortfall just shown, put on the list. Only an add whose
/// every other word is a pointer, the list's name or a small word; `None`
/// otherwise, or when the last message asked for no shortfall.
fn shortfall_added(
    n: &normalize::Normalized,
    links: &[link::Link],
    scene: &Scene<'_>,
) -> Option<Reading> {
    let lex = lexicon::lexicon();
    let words = n.words();
    let add = lex
        .frames
        .iter()
        .find(|f| f.act == acts::ActKind::ShoppingAdd)?;
    let linked = |k: usize| -> Option<&Target> {
        links
            .iter()
            .find(|l| l.start <= k && k < l.end)
            .and_then(|l| l.targets.first())
    };
    let mut pointed = false;
    let mut verb = false;
    for (k, w) in words.iter().enumerate() {
        match linked(k) {
            Some(Target::Pointer(Pointer::It)) => pointed = true,
            Some(Target::Domain(lexicon::Domain::Shopping)) => {}
            Some(_) => return None,
            None if add.verbs.iter().any(|v| v.len() == 1 && v[0] == *w) => verb = true,
            None if lex.glue.contains(*w)
                || lex.openers.contains(*w)
                || matches!(*w, "too" | "as" | "well" | "please" | "pls" | "then") => {}
            None => return None,
        }
    }
    if !pointed || !verb || n.question {
        return None;
    }
    // The last message as it was read: on its own, or with the talk it
    // had ("what do i need for it" of the recipe on screen then, still the
    // recipe the talk is about).
    let shortfall_of = |o: Outcome| match o.decision {
        Move::Do(r) => match r.acts.as_slice() {
            [Act::RecipeMissing { recipe, .. }] => Some(recipe.clone()),
            _ => None,
        },
        _ => None,
    };
    let in_talk = || {
        let label = scene.recipe_at(Pointer::It)?;
        let named: Vec<String> = scene
            .before
            .user
            .split_whitespace()
            .map(|w| match w.trim_matches(|c: char| !c.is_alphanumeric()) {
                "it" | "that" | "this" => label.clone(),
                _ => w.to_string(),
            })
            .collect();
        shortfall_of(read_fresh(&named.join(" "), scene))
    };
    let recipe = shortfall_of(read_fresh(&scene.before.user, scene)).or_else(in_talk)?;
    Some(Reading::whole(vec![Act::ShoppingMissing { recipe }], 0.9))
}

/// The request a question was about, read as if nothing were open.
fn read_fresh(request: &str, scene: &Scene<'_>) -> Outcome {
    let fresh = Before::default();
    let plain = Scene {
        names: scene.names.clone(),
        before: &fresh,
        labels: HashMap::new(),
    };
    read(request, &plain)
}

/// "sorry i meant 20g" right after a use of 10 g: 10 g more of the same;
/// the act the last message asked for, amended — never a value set from
/// scratch. `None` when the message is no such correction.
fn amend(n: &normalize::Normalized, links: &[link::Link], scene: &Scene<'_>) -> Option<Reading> {
    let lex = lexicon::lexicon();
    let words = n.words();
    let corrects = (0..words.len()).any(|i| link::phrase_at(&words, i, &lex.correction).is_some());
    let amounts: Vec<(f64, Option<String>)> = links
        .iter()
        .filter_map(|l| match &l.targets[0] {
            Target::Amount(q, u) | Target::AmountAfter(q, u) => Some((*q, u.clone())),
            _ => None,
        })
        .collect();
    if !corrects || amounts.len() != 1 || scene.before.written.is_empty() {
        return None;
    }
    let last = read_fresh(&scene.before.user, scene);
    let Move::Do(prev) = last.decision else {
        return None;
    };
    let (q, unit) = amounts[0].clone();
    match prev.acts.as_slice() {
        [Act::StockUse { items }] if items.len() == 1 => {
            let was = &items[0];
            let said = unit.clone().or_else(|| was.unit.clone());
            let more = q - was.quantity?;
            if said != was.unit || more <= 0.0 {
                return None;
            }
            Some(Reading::whole(
                vec![Act::StockUse {
                    items: vec![ItemSaid {
                        name: was.name.clone(),
                        quantity: Some(more),
                        unit: said,
                    }],
                }],
                1.0,
            ))
        }
        _ => None,
    }
}
