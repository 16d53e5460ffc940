//! Understand, the memory manager: resolves what the message refers to and
//! curates working memory — demote what the user ruled out (with their
//! words as the reason), drop what they asked to forget, clear everything
//! on a fresh start, and retain goal entities (the weekly plan, its recipes,
//! the options still being narrowed, a recipe being iterated) when they are
//! about to leave the window while the user is on another topic.
//!
//! Must only name refs that exist; never reads the store.

use crate::context::{EntityCuration, Table};
use crate::pipeline::{KitchenNames, UnderstandOutput, UnderstandRequest};

use super::constraints::{exclusion_constraints, lift_constraints, lift_words, lifted_words};
use super::curate::retention;
use super::draft::Draft;
use super::gate::{Gated, gate};
use super::lexicon::Intent;
use super::link::{bought_off_list, relink, task_done, trim_items, unread_as_look};
use super::reading::{Carried, Reading, effective_intent};
use super::resolve::{ANY, RECIPES, Resolved, apply_pick, by_label, last_list, ordinal_pick};
use super::skills::memory::Ask as MemoryAsk;
use super::skills::talk::Ask as TalkAsk;
use super::targets::{content_words, edit_words};
use super::text::{Words, join_list};
use super::understand_targets::{
    assign_targets, delete_targets, edit_target, forget_targets, narrow_to_answer, plan_targets,
    save_targets, show_targets,
};
use super::world::World;

/// Understand's decision for one message.
pub fn decide(req: &UnderstandRequest<'_>) -> UnderstandOutput {
    let turn = req.input.snapshot.turn.max(req.state.turn);
    let reading = Reading::of_state(req.input.user_message, req.state);
    let mut world = World::new(req.state, turn);
    let mut d = Draft::default();
    let message = req.input.user_message.trim();
    if let Some(out) = by_reader(req, &reading, &world) {
        return out;
    }
    if reading.intent == Intent::Memory(MemoryAsk::ClearAll) {
        d.clear_all = true;
        let mut out = finish(
            d,
            "wants a fresh start",
            Some("user asked to start fresh".into()),
        );
        out.reading = Carried::of(&reading, Intent::Memory(MemoryAsk::ClearAll)).to_value();
        return out;
    }
    // A place among a "which one do you mean: A or B?" that names none of
    // them ("third tonight" after two): ask again rather than guess.
    let asked = last_list(&world, &reading.before.candidates(), ANY);
    if asked.len() >= 2
        && let Some(pick) = ordinal_pick(&reading.words.words)
        && apply_pick(&asked, pick).refs().is_empty()
    {
        let labels: Vec<String> = asked.iter().map(|r| world.label(r)).collect();
        d.question = Some(format!(
            "There are only {}: {} — which one do you mean?",
            labels.len(),
            super::text::join_list(&labels, "or")
        ));
        let mut out = finish(d, "picked a place the question does not have", None);
        out.reading = Carried::of(&reading, Intent::Unknown).to_value();
        return out;
    }
    if let Some(answer) = &reading.answer {
        narrow_to_answer(&mut world, &reading.before.candidates(), answer);
    }
    let mut intent = effective_intent(&reading, &world, None);
    // "the 2nd one", "the last one" against the list just shown, or a
    // label on its own: show it.
    let words = &reading.words.words;
    let points = ordinal_pick(words).is_some()
        && !last_list(&world, &reading.before.presented, ANY).is_empty();
    // "the miso one then": one recipe by that name, though an item in the
    // kitchen shares the word (white miso paste).
    let one = |tables| {
        matches!(
            by_label(&world, &content_words(words), tables),
            Resolved::One(_)
        )
    };
    if intent == Intent::Unknown && (points || one(ANY) || one(RECIPES)) {
        intent = Intent::Show;
    }
    let intent = uses_of_the_item_before(intent, &reading, &world);
    let intent = amount_of_the_items_before(intent, &reading, &world);
    let gated = against_kitchen(intent, &reading.words, req.kitchen);
    let intent = named_before(gated.intent, &reading, &world, req.kitchen);
    resolve_intent(&intent, &reading, &world, message, &mut d);
    if let Some(q) = gated.question {
        d.question = Some(q);
    }
    if d.question.is_none() {
        retention(&world, &mut d);
    }
    let expressed = expressed(&intent, &world, &d);
    let summary = summary(&d);
    let mut out = finish(d, &expressed, summary);
    // The one reading of this turn: refined by what was just resolved and
    // curated, and carried to every later node.
    let settled = effective_intent(&reading, &world, Some(&out));
    let settled = uses_of_the_item_before(settled, &reading, &world);
    let settled = amount_of_the_items_before(settled, &reading, &world);
    let settled = match (settled, &intent) {
        (Intent::Unknown, Intent::Show) => Intent::Show,
        (settled, _) => against_kitchen(settled, &reading.words, req.kitchen).intent,
    };
    let settled = named_before(settled, &reading, &world, req.kitchen);
    let settled = match settled {
        Intent::Assign if !out.needs_clarification => {
            assigned(&world, &out.referenced_entities, &reading.words).unwrap_or(Intent::Assign)
        }
        other => other,
    };
    // A change to a recipe with no recipe in the talk at all ("more rice
    // than that", "without the pepper") is read as nothing: the decline
    // says what it could not read and what can be done here.
    let no_recipe = world.active_of(Table::Recipes).is_empty()
        && !out
            .referenced_entities
            .iter()
            .any(|r| world.get(r).is_some_and(|e| e.e.table == Table::Recipes));
    let settled = match settled {
        Intent::Edit(_) if no_recipe && !out.needs_clarification => Intent::Unknown,
        other => other,
    };
    let mut reading = reading;
    reading.unsure = asked_first(&reading, &settled, &out, message, req.kitchen);
    // What the words were not read as: said when nothing else is.
    let nothing_read = || {
        super::reader::decline::decline(
            message,
            &scene(&reading.before, &world, req.kitchen),
            super::reader::decline::Answered::Nothing,
        )
    };
    // A yes does not make a guessed name plain.
    if guessed_names(&settled) {
        reading.confirmed = false;
    }
    // A question of Alfred's own comes first; nothing is declined then. A
    // question about a change to rows the kitchen does not hold ("take
    // freezer and 2 pack off the stock?") would make no sense: the words
    // are declined instead, naming what was not read.
    let declined = (!out.needs_clarification)
        .then(|| {
            if reading.unsure && names_no_row(&settled, req.kitchen) {
                nothing_read()
            } else {
                declined(&settled, &reading, &world, req)
            }
        })
        .flatten();
    let settled = match declined {
        Some(declined) => {
            tracing::debug!(unread = %declined.unread, intent = settled.name(), "declined");
            // A rule not kept demotes nothing.
            if !declined.rule.is_empty() {
                out.entity_curation.demote.clear();
                out.entity_curation.curation_summary = None;
                out.constraints = Default::default();
            }
            reading.declined = Some(declined);
            reading.unsure = false;
            Intent::Unknown
        }
        _ => settled,
    };
    unstated_rules_dropped(&mut out, &settled, &reading, &world, req);
    // Read as nothing: the reply's last resort, should nothing later make
    // sense of the words, names what it could not read and what can be
    // looked at here.
    let nothing = match &settled {
        Intent::Unknown => true,
        Intent::Assign | Intent::FindByIngredient(_) => out.referenced_entities.is_empty(),
        _ => false,
    };
    let fallback = (nothing && !out.needs_clarification)
        .then(nothing_read)
        .flatten();
    let mut carried = Carried::of(&reading, settled);
    carried.fallback = fallback;
    out.reading = carried.to_value();
    out
}

/// A rule the older rules read beside another request, behind a
/// question of Alfred's own, or narrowing a list ("take the chicken out
/// now then", "is it spicy? one of them cant do spice", "nah skip the
/// chaat masala") is kept only when the message states it as a rule
/// would be stated — the test a message read as a rule alone meets
/// before it is kept. A rule is a standing write: not kept on a guess.
fn unstated_rules_dropped(
    out: &mut UnderstandOutput,
    settled: &Intent,
    reading: &Reading,
    world: &World<'_>,
    req: &UnderstandRequest<'_>,
) {
    use super::reader::decline::{Answered, decline};
    if out.constraints.add.is_empty() {
        return;
    }
    // Recipes ruled out by their own names ("skip the wings and french
    // toast"): the seeds' narrowing, kept — when each rule's words say
    // the refusal ("hmm actually no, kerala" takes no rule).
    let refused = out
        .constraints
        .add
        .iter()
        .all(|c| super::items::has_trigger(&Words::new(&c.clause).words));
    if let Intent::Exclude(ex) = settled
        && refused
        && ex.iter().all(|e| {
            let said = Words::new(&e.term).words;
            matches!(
                by_label(world, &said, RECIPES),
                Resolved::One(_) | Resolved::Many(_) | Resolved::Ambiguous(_)
            )
        })
    {
        return;
    }
    // An answer to "which one do you mean?" carries the request that
    // raised the question: that request is what must state the rule.
    let request = reading
        .answer
        .as_ref()
        .and(reading.before.dialogue.question.as_ref())
        .map(|q| q.request.as_str());
    let message = request.unwrap_or(req.input.user_message.trim());
    let scene = scene(&reading.before, world, req.kitchen);
    // "add them but not the tomatoes": an exception to a change of the
    // list or the stock, never a rule.
    let excepted = excepts_a_change(message);
    if !excepted && decline(message, &scene, Answered::Rule).is_none() {
        return;
    }
    // A rule whose own clause opens, after its interjections, on the
    // refusal ("ugh. ok nah no fish then, just stuff w chicken"): said as
    // one, kept as a search's filter or alone; the rest are not.
    let searching = matches!(
        settled,
        Intent::Skill(super::skills::SkillAsk::Recipes(_)) | Intent::Exclude(_)
    );
    let (kept, ruled): (Vec<_>, Vec<_>) = std::mem::take(&mut out.constraints.add)
        .into_iter()
        .partition(|c| !excepted && searching && opens_with_refusal(&c.clause));
    let some_kept = !kept.is_empty();
    out.constraints.add = kept;
    tracing::debug!(
        rules = ruled.len(),
        "rules read beside another request not kept: not stated"
    );
    let ruled: Vec<String> = ruled.into_iter().map(|c| c.clause).collect();
    // Narrowing the recipes just listed ("skip the chaat masala" after a
    // list) still demotes them, as the seeds do; a rule read beside
    // another request, or beside a rule kept, demotes nothing.
    if !matches!(settled, Intent::Exclude(_)) || some_kept {
        out.entity_curation
            .demote
            .retain(|d| !ruled.iter().any(|c| d.reason.contains(c.as_str())));
    }
}

/// True when `message` changes the list or the stock and names something
/// left out of that change ("add them but not the tomatoes", "bin
/// everything except the rice").
fn excepts_a_change(message: &str) -> bool {
    use super::reader::lexicon::Domain;
    let lex = super::reader::lexicon::lexicon();
    let said = Words::new(message).words;
    let words: Vec<&str> = said.iter().map(String::as_str).collect();
    let at = |list: &[super::reader::lexicon::Phrase]| {
        (0..words.len()).any(|k| super::reader::link::phrase_at(&words, k, list).is_some())
    };
    // Words that leave a thing out of the change, made into phrases once.
    static LEFT_OUT: std::sync::LazyLock<Vec<super::reader::lexicon::Phrase>> =
        std::sync::LazyLock::new(|| {
            ["skip", "minus", "without", "dont add"]
                .iter()
                .map(|p| p.split(' ').map(str::to_string).collect())
                .collect()
        });
    (at(&lex.except) || at(&LEFT_OUT))
        && lex
            .frames
            .iter()
            .filter(|f| f.writes && matches!(f.domain, Some(Domain::Shopping | Domain::Stock)))
            .any(|f| at(&f.verbs))
}

/// True when a clause of `message` opens, after its interjections ("ok",
/// "nah", "ugh"), on a refusal ("no fish", "not the cod", "nothing
/// spicy").
fn opens_with_refusal(message: &str) -> bool {
    let lex = super::reader::lexicon::lexicon();
    let refusal = |w: &str| matches!(w, "no" | "not" | "nothing" | "without" | "never");
    let plain = |w: &String| !lex.openers.contains(w.as_str()) && !lex.glue.contains(w.as_str());
    Words::new(message).segments.iter().any(|seg| {
        // What it refuses follows in the clause: "no, kerala" is no refusal.
        seg.iter()
            .position(|w| refusal(w) || plain(w))
            .is_some_and(|k| refusal(&seg[k]) && seg[k + 1..].iter().any(plain))
    })
}

/// The decline for a message whose answer, as the older rules settled it,
/// would leave it unread: a lookup over a request for a change, a stock
/// lookup for a remark that asks nothing, a "yes" with more said than it
/// accounts for. `None` when the answer accounts for the message.
fn declined(
    settled: &Intent,
    reading: &Reading,
    world: &World<'_>,
    req: &UnderstandRequest<'_>,
) -> Option<super::reader::decline::Declined> {
    use super::reader::decline::{Answered, decline};
    use super::skills::talk::Ask as Talk;
    use super::skills::{SkillAsk, planning, shopping, stock, tasks};
    if reading.answer.is_some() || reading.confirmed {
        return None;
    }
    let message = req.input.user_message.trim();
    let item = matches!(
        settled,
        Intent::HaveItem(_) | Intent::Skill(SkillAsk::Stock(stock::Ask::HowMuch { .. }))
    );
    let lookup = item
        || match settled {
            Intent::Pantry(_)
            | Intent::ShowPlan
            | Intent::WhatCanIMake
            | Intent::FindByIngredient(_)
            | Intent::ListRecipes
            | Intent::Show => true,
            Intent::Skill(ask) => match ask {
                SkillAsk::Recipes(_) => true,
                SkillAsk::Stock(a) => {
                    matches!(a, stock::Ask::Expiring { .. } | stock::Ask::ExpiryOf { .. })
                }
                SkillAsk::Shopping(a) => matches!(
                    a,
                    shopping::Ask::Show | shopping::Ask::Has { .. } | shopping::Ask::WhatFor { .. }
                ),
                SkillAsk::Planning(a) => matches!(a, planning::Ask::Look { .. }),
                SkillAsk::Tasks(a) => matches!(a, tasks::Ask::List { .. }),
                _ => false,
            },
            _ => false,
        };
    let talk = matches!(settled, Intent::Talk(Talk::Thanks | Talk::Affirm));
    let answered = match (item, lookup, talk, settled) {
        (true, ..) => Answered::Item,
        (_, true, ..) => Answered::Lookup,
        (_, _, true, _) => Answered::Talk,
        (.., Intent::Exclude(ex)) if !ex.is_empty() => Answered::Rule,
        _ => return None,
    };
    // Narrowing the recipes just listed ("let's not do the french toast or
    // wings"): what it rules out among them is demoted, as the seeds do —
    // not when it asks ("he not like the pepper, we can remove it?").
    let scene = scene(&reading.before, world, req.kitchen);
    // A rule is a standing change: the reader reads one said as a rule
    // ("no cod this week", "she's allergic to peanuts"); one the older
    // rules read from words that say what the kitchen lacks ("we have no
    // eggs", "no milk left") is asked about, never kept on their guess.
    let lack = answered == Answered::Rule
        && super::reader::rules::lack_said(message, super::reader::lexicon::lexicon());
    if let Intent::Exclude(ex) = settled
        && !message.contains('?')
        && !lack
    {
        // A list: two or more recipes shown, not one recipe's card.
        let before = &reading.before;
        let shown = before
            .presented
            .iter()
            .filter(|r| world.get(r).is_some_and(|e| e.e.table == Table::Recipes))
            .count();
        let narrows = ex.iter().any(|e| {
            super::resolve::matching_recipes(world, &e.term)
                .iter()
                .any(|r| before.listed.contains(r) || shown >= 2 && before.presented.contains(r))
        });
        if narrows {
            return None;
        }
    }
    let mut declined = match decline(message, &scene, answered) {
        None if lack => decline(message, &scene, Answered::Nothing)?,
        other => other?,
    };
    if let Intent::Exclude(ex) = settled {
        // Each as a request that keeps it: "no fish", "vegetarian".
        declined.rule = ex
            .iter()
            .map(|e| match e.how {
                super::items::Refusal::Requires => e.term.clone(),
                _ => format!("no {}", e.term),
            })
            .collect();
        // A lack most often wants buying: that is offered first ("we
        // have no eggs" → “add eggs to the shopping list”).
        if lack {
            let buys: Vec<String> = ex
                .iter()
                .filter(|e| e.how != super::items::Refusal::Requires)
                .map(|e| format!("add {} to the shopping list", e.term))
                .collect();
            declined.options.retain(|o| !buys.contains(o));
            declined.options.splice(0..0, buys);
            declined.options.truncate(3);
        }
    }
    Some(declined)
}

/// True when a change the older rules read is asked about before it is
/// made. The reader did not read this message, so such a change is a
/// guess: asked first, naming what would change. Not when the user's own
/// words already settle it (a yes to Alfred's confirm or offer, an answer
/// to Alfred's question, the seeds' own steps said plainly, a use the
/// skill asks about itself), nor when a question of Alfred's comes first
/// (which cod? how much?). A bulk change is always asked about first.
fn asked_first(
    reading: &Reading,
    settled: &Intent,
    out: &UnderstandOutput,
    message: &str,
    kitchen: &KitchenNames,
) -> bool {
    let shown = !reading.before.presented.is_empty() || reading.before.last_recipe.is_some();
    let said = Words::new(message);
    // Alfred's own question already stands in for the change.
    if out.needs_clarification {
        return false;
    }
    // The older rules never write on their own reading: every change they
    // read is asked about first, and only the user's "yes" to Alfred's
    // own confirm or offer, an answer to Alfred's "which one?", or an
    // undo lets it through. (On fresh sets their own writes were right 2
    // times in 15.)
    let consented = reading.confirmed
        || reading.answer.is_some()
        || reading.reverses_last
        || answering(reading, &said)
        || said_plainly(settled, &said)
        || skill_asks(settled, kitchen);
    (concrete_write(settled, shown) || kitchen_write(settled)) && !consented
        || bulk_write(settled)
        || guessed_names(settled)
}

/// A change the seeds' own steps make in a few plain words: "save it"
/// (Alfred's own draft, kept), an edit of a recipe ("add more garlic to
/// that recipe", taken back with "take it out"). An add to the list is
/// not one of them: on fresh sets those were wrong more often than right.
fn said_plainly(settled: &Intent, said: &Words) -> bool {
    // An add to a recipe says where it goes ("to that recipe", "put more
    // garlic in it", "to the saved one"); "add eggs" said bare beside a
    // recipe's card may mean the list.
    let recipe_named = said
        .words
        .iter()
        .any(|w| matches!(w.as_str(), "recipe" | "dish" | "to" | "in" | "into"));
    let plain = match settled {
        // ("save it", "ok save both": not a save said inside a longer
        // request, "please save a simple one for four and …".)
        Intent::Save => said.words.len() <= 6 && said.has_any(&["save"]),
        Intent::Edit(super::edits::EditOp::Add(_)) => recipe_named,
        Intent::Edit(_) => true,
        _ => false,
    };
    plain && super::consent::asks_for_change(said)
}

/// True when a change that takes from, moves or sets the kitchen's rows
/// names one that no inventory or shopping row answers ("take stock off
/// the stock", "move freezer and 2 pack").
fn names_no_row(settled: &Intent, kitchen: &KitchenNames) -> bool {
    use super::skills::{Named, SkillAsk, shopping, stock};
    let held = |name: &str, rows: &[String]| {
        let name = crate::context::taxonomy::singular(&name.to_lowercase());
        !name.is_empty()
            && rows.iter().any(|r| {
                let r = crate::context::taxonomy::singular(&r.to_lowercase());
                r.contains(&name) || name.contains(&r)
            })
    };
    let unheld = |n: &Named, rows: &[String]| matches!(n, Named::Item(x) if !held(x, rows));
    let stock_rows = &kitchen.inventory;
    match settled {
        Intent::Several(parts) => parts.iter().any(|p| names_no_row(&p.intent, kitchen)),
        Intent::InventoryRemove(items) => items.iter().any(|i| !held(&i.name, stock_rows)),
        Intent::Skill(SkillAsk::Stock(a)) => match a {
            stock::Ask::Use { items } => items.iter().any(|u| unheld(&u.item, stock_rows)),
            stock::Ask::Move { items, .. } => items.iter().any(|n| unheld(n, stock_rows)),
            stock::Ask::Set { item, .. } | stock::Ask::MovePart { item, .. } => {
                unheld(item, stock_rows)
            }
            _ => false,
        },
        Intent::Skill(SkillAsk::Shopping(
            shopping::Ask::Remove { items } | shopping::Ask::MarkBought { items },
        )) => items.iter().any(|n| unheld(n, &kitchen.shopping)),
        _ => false,
    }
}

/// The skill asks its own question before it writes, and the answer is
/// the user's words: how much of a use said without an amount ("used some
/// of the rice"), which recipe a swap said in words means ("swap fri for
/// the cod one").
fn skill_asks(settled: &Intent, kitchen: &KitchenNames) -> bool {
    use super::quantity::Quantity;
    use super::skills::{Named, SkillAsk, planning, stock};
    // No amount at all of a food one row holds is all of it, written
    // ("the paneer is his"); of one several rows hold, which is asked
    // ("used some rice").
    let rows = |n: &Named| match n {
        Named::Item(name) => {
            let name = name.to_lowercase();
            kitchen
                .inventory
                .iter()
                .filter(|r| r.to_lowercase().contains(&name))
                .count()
        }
        Named::Shown => 0,
    };
    let asked = |u: &stock::Used| match &u.amount {
        Quantity::Vague { .. } | Quantity::Share { .. } => true,
        Quantity::Unsaid => rows(&u.item) >= 2,
        _ => false,
    };
    match settled {
        Intent::Skill(SkillAsk::Stock(stock::Ask::Use { items })) => items.iter().any(asked),
        Intent::Skill(SkillAsk::Planning(planning::Ask::Swap { .. })) => true,
        _ => false,
    }
}

/// A change to rows the older rules read that [`concrete_write`] leaves
/// to the skill (a stock amount or date said afresh, stock added).
pub(super) fn kitchen_write(settled: &Intent) -> bool {
    use super::skills::{SkillAsk, stock};
    match settled {
        Intent::Several(parts) => parts.iter().any(|p| kitchen_write(&p.intent)),
        Intent::InventoryAdd(items, _) => !items.is_empty(),
        Intent::Skill(SkillAsk::Stock(a)) => matches!(
            a,
            stock::Ask::Set { .. } | stock::Ask::MovePart { .. } | stock::Ask::SetExpiry { .. }
        ),
        _ => false,
    }
}

/// True when what a change adds is named with the small words around it
/// ("eggs i", "ours has sesame") or by a state or size alone ("small"):
/// the name is a guess, asked about first whoever asked for the change.
pub(super) fn guessed_names(settled: &Intent) -> bool {
    use super::edits::EditOp;
    use super::skills::{SkillAsk, shopping};
    let lex = super::reader::lexicon::lexicon();
    let guessed = |items: &[super::items::Item]| {
        items.iter().any(|i| {
            let words = Words::new(&i.name).words;
            // A small word in it, or only a state or size ("small"); a
            // count in it or more words than a name has ("oat milk 2 lemons
            // tomatoes 4 olive oil"): several things run together.
            words
                .iter()
                .any(|w| w != "of" && lex.glue.contains(w.as_str()))
                || words.iter().all(|w| lex.modifiers.contains(w.as_str()))
                || words.len() > 4
                || words.iter().any(|w| w.chars().any(|c| c.is_ascii_digit()))
        })
    };
    match settled {
        Intent::Several(parts) => parts.iter().any(|p| guessed_names(&p.intent)),
        Intent::Edit(EditOp::Add(items))
        | Intent::InventoryAdd(items, _)
        | Intent::Skill(SkillAsk::Shopping(shopping::Ask::Add { items, .. })) => guessed(items),
        Intent::Edit(EditOp::Several(ops)) => ops
            .iter()
            .any(|op| matches!(op, EditOp::Add(items) if guessed(items))),
        _ => false,
    }
}

/// The message answers Alfred: a "yes" to an offer ("want me to put what's
/// missing on the list?"), an answer to "which one?", or a short reply to
/// a question of Alfred's ("how much did you use?" — "like 200 grams").
fn answering(reading: &Reading, said: &Words) -> bool {
    let before = &reading.before.dialogue;
    let takes_offer = before.offer.is_some()
        && (super::consent::is_bare_consent(said) || super::consent::is_consent_to_do(said));
    let answers_question = before
        .question
        .as_ref()
        .is_some_and(|q| q.kind != crate::context::QuestionKind::Confirm)
        && said.words.len() <= 5;
    reading.answer.is_some() || reading.confirmed || takes_offer || answers_question
}

/// The reader's move, when it has one: a request it reads with confidence
/// is resolved and carried on as read; a question it must ask (a write to
/// confirm, candidates to choose between) is asked and nothing is written.
///
/// `None` when it passes and the older chain reads the message (whose
/// changes are then asked about before they are made).
fn by_reader(
    req: &UnderstandRequest<'_>,
    reading: &Reading,
    world: &World<'_>,
) -> Option<UnderstandOutput> {
    use super::reader::{self, bridge, decide::Move};
    let scene = scene(&reading.before, world, req.kitchen);
    let message = req.input.user_message.trim();
    let outcome = reader::read(message, &scene);
    tracing::debug!(doubts = ?outcome.doubts, "reader");
    for r in outcome.readings.iter().take(3) {
        tracing::debug!(acts = ?r.acts, coverage = r.coverage, score = r.score, unread = ?r.unread, idle = r.idle, "reading");
    }
    let decided = match &outcome.decision {
        Move::Do(_) => "do",
        Move::Confirm { .. } => "confirm",
        Move::Choose { .. } => "choose",
        Move::Pass => "pass",
    };
    tracing::debug!(decided, "reader move");
    let mut d = Draft::default();
    match outcome.decision {
        Move::Pass => None,
        Move::Do(read) => {
            let unanswered = read.unanswered.clone();
            let intent = bridge::intent_of(&read.acts);
            let mut ours = reading.clone();
            // What later nodes read: the request as the reader took it,
            // and a write it decided on may go ahead.
            if outcome.confirmed {
                ours.words = Words::new(&reader::acts::describe_all(&read.acts).join(", "));
                ours.answer = None;
            }
            if let [reader::acts::Act::ShowRecipe { recipe }] = read.acts.as_slice() {
                ours.words = Words::new(recipe);
            }
            ours.confirmed = read.writes();
            ours.intent = intent.clone();
            // "what can i make in under 30 min": the narrowing, typed.
            if let Some(reader::acts::Act::WhatCanIMake { within }) = read.acts.first() {
                ours.make = *within;
            }
            // "… tomorrow, just me": the servings, typed.
            ours.servings = read.acts.iter().find_map(|a| match a {
                reader::acts::Act::PlanPut { servings, .. } => *servings,
                _ => None,
            });
            resolve_intent(&intent, &ours, world, message, &mut d);
            if d.question.is_none() {
                retention(world, &mut d);
            }
            let expressed = expressed(&intent, world, &d);
            let summary = summary(&d);
            let mut out = finish(d, &expressed, summary);
            let mut carried = Carried::of(&ours, intent);
            carried.by_reader = true;
            carried.unanswered = unanswered;
            out.reading = carried.to_value();
            Some(out)
        }
        Move::Confirm {
            question,
            reading: read,
        }
        | Move::Choose {
            question,
            reading: read,
        } => {
            let confirm = read.choice.is_none();
            d.question = Some(question);
            let expressed = format!(
                "asked before acting: {}",
                reader::acts::describe_all(&read.acts).join(", ")
            );
            let mut out = finish(d, &expressed, None);
            let mut ours = reading.clone();
            ours.asks_confirm = confirm;
            out.reading = Carried::of(&ours, Intent::Unknown).to_value();
            Some(out)
        }
    }
}

/// The reader's scene: the kitchen's names (drafts not yet saved among the
/// recipes) and the labels of what the last exchange holds.
fn scene<'a>(
    before: &'a super::dialogue::Before,
    world: &World<'_>,
    k: &KitchenNames,
) -> super::reader::Scene<'a> {
    let labels = before
        .presented
        .iter()
        .chain(&before.listed)
        .chain(&before.written)
        .chain(&before.touched)
        .chain(before.last_recipe.iter())
        .filter_map(|r| {
            world
                .get(r)
                .map(|e| (r.clone(), (e.e.table, e.e.label.clone())))
        })
        .collect();
    let drafts: Vec<String> = world
        .pending()
        .into_iter()
        .filter(|e| e.e.table == Table::Recipes)
        .map(|e| e.e.label.clone())
        .collect();
    let mut recipes = k.recipes.clone();
    recipes.extend(drafts.iter().cloned());
    super::reader::Scene {
        names: super::reader::link::Names {
            recipes,
            inventory: k.inventory.clone(),
            shopping: k.shopping.clone(),
            tasks: k.tasks.clone(),
            drafts,
        },
        before,
        labels,
    }
}

/// True when the reader would carry `message` out as it stands, sent next
/// after `state` on a kitchen holding `names` (no question, no confirm):
/// what a suggestion must be.
pub fn reads_as_an_act(
    state: &crate::context::ContextState,
    names: &KitchenNames,
    message: &str,
) -> bool {
    let reading = Reading::of_state(message, state);
    let world = World::new(state, state.turn + 1);
    let scene = scene(&reading.before, &world, names);
    matches!(
        super::reader::read(message, &scene).decision,
        super::reader::decide::Move::Do(_)
    )
}

/// True for a change that reaches a whole table or many rows at once: the
/// whole shopping list, two or more days of the plan (or every day).
pub(super) fn bulk_write(intent: &Intent) -> bool {
    use super::skills::{SkillAsk, planning, shopping};
    match intent {
        Intent::Several(parts) => parts.iter().any(|p| bulk_write(&p.intent)),
        Intent::Skill(SkillAsk::Shopping(shopping::Ask::ClearAll)) => true,
        Intent::Skill(SkillAsk::Planning(planning::Ask::Remove { days, recipe, .. })) => {
            days.len() >= 2 || days.is_empty() && recipe.is_none()
        }
        _ => false,
    }
}

/// True for an intent that changes named rows of the kitchen (not a draft
/// to look over, nor a question).
/// `shown`: a recipe was just shown, so "it" names one.
pub(super) fn concrete_write(intent: &Intent, shown: bool) -> bool {
    use super::skills::{SkillAsk, planning, shopping, stock, tasks};
    match intent {
        Intent::Several(parts) => parts.iter().any(|p| concrete_write(&p.intent, shown)),
        Intent::InventoryAdd(..)
        | Intent::InventoryRemove(_)
        | Intent::Save
        | Intent::Edit(_)
        | Intent::ShoppingMissing
        | Intent::Memory(MemoryAsk::Delete) => true,
        Intent::Skill(ask) => match ask {
            SkillAsk::Shopping(a) => !matches!(
                a,
                shopping::Ask::Show | shopping::Ask::Has { .. } | shopping::Ask::WhatFor { .. }
            ),
            SkillAsk::Stock(a) => matches!(a, stock::Ask::Use { .. } | stock::Ask::Move { .. }),
            // A pick still to make ("something with cod") is a draft.
            SkillAsk::Planning(planning::Ask::Put { slots }) => {
                slots.iter().all(|s| match s.recipe {
                    planning::Pick::Search(_) => false,
                    planning::Pick::Shown => shown,
                    _ => true,
                })
            }
            SkillAsk::Planning(a) => !matches!(a, planning::Ask::Look { .. }),
            SkillAsk::Tasks(a) => !matches!(a, tasks::Ask::List { .. }),
            SkillAsk::Amend(_) => true,
            SkillAsk::Recipes(_) | SkillAsk::Cook(_) | SkillAsk::Advice(_) => false,
        },
        _ => false,
    }
}

/// A reading read again against the kitchen's closed world (the recipe a
/// name means, items trimmed to their rows), then past the write gate.
fn against_kitchen(intent: Intent, words: &Words, kitchen: &KitchenNames) -> Gated {
    let linked = bought_off_list(relink(intent, words, kitchen), words, kitchen);
    let linked = task_done(linked, words, kitchen);
    let linked = trim_items(linked, kitchen);
    gate(unread_as_look(linked, words, kitchen), words)
}

/// "put it on monday", "plan that one for friday": saved recipes the talk
/// made clear, asked for with their days, go on the plan. One recipe
/// takes every day said; as many days as recipes pair in order; one day
/// takes every recipe. Anything else, or a pending draft among them, stays
/// a draft plan to look over.
fn assigned(world: &World<'_>, refs: &[String], w: &Words) -> Option<Intent> {
    use super::skills::SkillAsk;
    use super::skills::days::{When, days_at};
    use super::skills::planning::{Ask, Slot, meal_of};
    let recipes: Vec<String> = refs
        .iter()
        .filter_map(|r| world.get(r))
        .filter(|e| e.e.table == Table::Recipes && !e.e.is_pending())
        .map(|e| e.e.label.clone())
        .collect();
    if recipes.is_empty() || recipes.len() != refs.len() {
        return None;
    }
    // A change asked for in words, or a pick said plainly: "ya that one
    // tn", "the first one sat dinner" (the pick, its day, nothing else).
    // "the first one, something quick", a hedge, or a recipe only the talk
    // makes clear ("curry wednesday" once the cod is ruled out) stays a
    // draft to look over.
    let pointing = |x: &String| {
        matches!(x.as_str(), "one" | "ones" | "that" | "this" | "it" | "them")
            || super::text::ordinal(x).is_some()
    };
    let plain = || {
        w.words.iter().any(pointing)
            && w.words
                .iter()
                .all(|x| super::link::adds_nothing_to_a_plan(x) || pointing(x))
    };
    let asked = super::link::plan_verb(w) || plain();
    if !asked || w.question_mark || w.has_any(super::link::HEDGES) {
        return None;
    }
    // "the 2nd on wednesday": the ordinal picks, it is no date.
    let days: Vec<When> = if super::resolve::ordinal_pick(&w.words).is_some() {
        let kept: Vec<String> = w
            .words
            .iter()
            .filter(|x| !(x.len() > 2 && x.starts_with(|c: char| c.is_ascii_digit())))
            .cloned()
            .collect();
        super::skills::days::days_in(&kept)
    } else {
        days_at(w).into_iter().map(|(_, d)| d).collect()
    };
    let pairs: Vec<(&String, &When)> = match (recipes.len(), days.len()) {
        (_, 0) => return None,
        (1, _) => days.iter().map(|d| (&recipes[0], d)).collect(),
        (n, m) if n == m => recipes.iter().zip(&days).collect(),
        (_, 1) => recipes.iter().map(|r| (r, &days[0])).collect(),
        _ => return None,
    };
    let meal = meal_of(&w.words);
    let mut slots: Vec<Slot> = Vec::new();
    for (r, d) in pairs {
        let taken = slots.iter().any(|s| s.day == d.day);
        slots.push(Slot {
            recipe: super::link::named(r),
            day: d.day,
            meal: d
                .meal
                .clone()
                .or_else(|| meal.clone())
                .or_else(|| taken.then(|| "lunch".to_string())),
        });
    }
    Some(Intent::Skill(SkillAsk::Planning(Ask::Put { slots })))
}

/// "which recipes use it", "any recipe i can use it in" right after a
/// question about one thing in the kitchen: the recipes that use that
/// thing, not a new dish nor everything that can be made.
fn uses_of_the_item_before(intent: Intent, reading: &Reading, world: &World<'_>) -> Intent {
    let w = &reading.words;
    let open = matches!(
        intent,
        Intent::Unknown | Intent::Generate(_) | Intent::WhatCanIMake
    );
    let points = w.has_any(&["it", "them", "that", "those"]);
    let recipes = w.has_any(&[
        "recipe",
        "recipes",
        "make with",
        "cook with",
        "use it",
        "use them",
        "uses it",
        "use that",
        "use those",
    ]);
    if !open || !points || !recipes || w.has_any(&["new", "up", "invent", "create"]) {
        return intent;
    }
    match items_touched_before(reading, world).as_slice() {
        [one] => Intent::FindByIngredient(one.clone()),
        _ => intent,
    }
}

/// The names of the kitchen's items the last turn touched.
fn items_touched_before(reading: &Reading, world: &World<'_>) -> Vec<String> {
    reading
        .before
        .touched
        .iter()
        .filter_map(|r| world.get(r))
        .filter(|e| e.e.table == Table::Inventory)
        .map(|e| e.e.label.clone())
        .collect()
}

/// "how much is left now", "how many r there" right after a change to
/// things in the kitchen: how much there is of those things.
fn amount_of_the_items_before(intent: Intent, reading: &Reading, world: &World<'_>) -> Intent {
    use super::skills::{Named, SkillAsk, stock::Ask as StockAsk};
    let w = &reading.words;
    let asks = w.has_any(&["how much", "how many", "hows much", "left", "remaining"]);
    if intent != Intent::Unknown || !asks || !super::vocab::food_mentions(&w.words).is_empty() {
        return intent;
    }
    let items: Vec<Named> = items_touched_before(reading, world)
        .iter()
        .map(|x| Named::item(x))
        .collect();
    if items.is_empty() {
        return intent;
    }
    Intent::Skill(SkillAsk::Stock(StockAsk::HowMuch {
        items,
        location: None,
    }))
}

/// "ok put it on thursday" after "the yellow curry - is the paste ok?":
/// when no recipe was shown, "it" is the saved recipe the user's last
/// message named.
fn named_before(
    intent: Intent,
    reading: &Reading,
    world: &World<'_>,
    kitchen: &KitchenNames,
) -> Intent {
    use super::link::{Linked, recipe};
    use super::skills::SkillAsk;
    use super::skills::planning::{Ask, Pick};
    let Intent::Skill(SkillAsk::Planning(Ask::Put { mut slots })) = intent else {
        return intent;
    };
    let shown = reading
        .before
        .presented
        .iter()
        .chain(reading.before.last_recipe.iter())
        .any(|r| world.get(r).is_some_and(|e| e.e.table == Table::Recipes));
    let before = Words::new(&reading.before.user);
    if !shown && let Linked::One(name) = recipe(&before.words, &kitchen.recipes) {
        for s in slots.iter_mut().filter(|s| s.recipe == Pick::Shown) {
            s.recipe = super::link::named(&name);
        }
    }
    Intent::Skill(SkillAsk::Planning(Ask::Put { slots }))
}

/// Resolves and curates for one intent.
fn resolve_intent(
    intent: &Intent,
    reading: &Reading,
    world: &World<'_>,
    message: &str,
    d: &mut Draft,
) {
    let words = &reading.words.words;
    match intent {
        // Each part resolves as its own message would; a question stops.
        Intent::Several(parts) => {
            for p in parts {
                if d.question.is_none() {
                    resolve_intent(&p.intent, &reading.part(p), world, &p.words, d);
                }
            }
        }
        // A yes to "Should I keep “no eggs” as a rule?": the rule's reason
        // is the words that raised the question, not the "yes".
        Intent::Exclude(ex) => {
            let raised = reading
                .before
                .dialogue
                .question
                .as_ref()
                .filter(|q| reading.confirmed && !q.request.trim().is_empty())
                .map_or(message, |q| q.request.as_str());
            exclusion_constraints(world, ex, raised, d)
        }
        Intent::Include if lift_constraints(world, &lifted_words(message), message, d) => {}
        // "cod's fine, so what's quickest now", "indian's fine, put the
        // paneer on wednesday": the lift, then what the skill was asked.
        Intent::Skill(ask) => {
            // "skip the french toast, which of the rest is quickest": the
            // clauses that rule out are ruled out first.
            // "anything with chicken thats not a curry": the search's own
            // "not" rules nothing out beyond it.
            let searching_but_not = matches!(
                ask,
                super::skills::SkillAsk::Recipes(super::skills::recipes::Ask::Find(_))
            ) && super::skills::recipes::search_but_not(&reading.words)
                .is_some();
            if matches!(ask, super::skills::SkillAsk::Recipes(_)) && !searching_but_not {
                let ruling: Vec<Vec<String>> = reading
                    .words
                    .segments
                    .iter()
                    .filter(|s| super::items::has_trigger(s))
                    .cloned()
                    .collect();
                let ex = super::items::exclusions(&ruling, false);
                if !ex.is_empty() {
                    exclusion_constraints(world, &ex, message, d);
                }
            }
            if let Some(seg) = reading
                .words
                .segments
                .iter()
                .find(|s| super::constraints::lifts(s))
            {
                lift_constraints(world, &lift_words(&seg.join(" ")), message, d);
            }
        }
        Intent::Include => {
            let said = content_words(words);
            match by_label(world, &said, RECIPES) {
                Resolved::One(r) => d.reference(&said.join(" "), &r),
                Resolved::Ambiguous(v) => d.ask_which(world, &said.join(" "), &v, false),
                _ => d.unknown(&said.join(" ")),
            }
        }
        Intent::Save => save_targets(world, reading, d),
        Intent::Edit(op) => {
            // "chuck some peas in, ive got frozen ones": the reason after
            // the change names no recipe.
            let cut = words
                .iter()
                .skip(1)
                .position(|w| {
                    matches!(
                        w.as_str(),
                        "ive" | "theyre" | "its" | "cos" | "because" | "since" | "as" | "so"
                    )
                })
                .map_or(words.len(), |i| i + 1);
            let target = edit_words(&words[..cut], op);
            // "make it for 6" right after a question about one recipe: the
            // recipe the talk is about, when the words point at nothing
            // else.
            let focus = reading
                .before
                .touched
                .iter()
                .filter(|r| world.get(r).is_some_and(|e| e.e.table == Table::Recipes))
                .collect::<Vec<_>>();
            let resolved = match edit_target(world, &target, &reading.before.presented) {
                Resolved::Many(v) | Resolved::Ambiguous(v)
                    if v.len() > 1 && focus.len() == 1 && content_words(&target).is_empty() =>
                {
                    Resolved::One(focus[0].clone())
                }
                other => other,
            };
            match resolved {
                Resolved::One(r) => d.reference(&target.join(" "), &r),
                Resolved::Many(v) | Resolved::Ambiguous(v) if v.len() == 1 => {
                    d.reference(&target.join(" "), &v[0])
                }
                Resolved::Many(v) | Resolved::Ambiguous(v) => {
                    d.ask_which(world, &target.join(" "), &v, false)
                }
                Resolved::None => d.unknown(&target.join(" ")),
            }
        }
        Intent::Show => show_targets(world, reading, d),
        Intent::Memory(MemoryAsk::Forget) => forget_targets(world, reading, message, d),
        Intent::Memory(MemoryAsk::Delete) => delete_targets(world, reading, d),
        Intent::Assign => assign_targets(world, reading, d),
        Intent::ShowPlan => plan_targets(world, d),
        // "which ones use coconut milk?": the kitchen's own coconut milk is
        // what the user named.
        Intent::FindByIngredient(x) => {
            let said = content_words(&Words::new(x).words);
            if let Resolved::One(r) = by_label(world, &said, &[Table::Inventory]) {
                d.reference(x, &r);
            }
        }
        _ => {}
    }
}

fn summary(d: &Draft) -> Option<String> {
    let list = |v: Vec<&str>| v.join(", ");
    let mut parts = Vec::new();
    if !d.demote.is_empty() {
        parts.push(format!(
            "Demoted {}",
            list(d.demote.iter().map(|x| x.r#ref.as_str()).collect())
        ));
    }
    if !d.drop.is_empty() {
        parts.push(format!(
            "Dropped {}",
            list(d.drop.iter().map(|x| x.r#ref.as_str()).collect())
        ));
    }
    if !d.retain.is_empty() {
        parts.push(format!(
            "Retained {}",
            list(d.retain.iter().map(|x| x.r#ref.as_str()).collect())
        ));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The user's intent in a few words.
fn expressed(intent: &Intent, world: &World<'_>, d: &Draft) -> String {
    let labels = |refs: &[String]| {
        join_list(
            &refs.iter().map(|r| world.label(r)).collect::<Vec<_>>(),
            "and",
        )
    };
    match intent {
        Intent::Exclude(ex) => format!(
            "wants to exclude {}",
            join_list(
                &ex.iter().map(|e| e.term.clone()).collect::<Vec<_>>(),
                "and"
            )
        ),
        Intent::Assign => format!("wants {} on the plan", labels(&d.referenced)),
        Intent::Save | Intent::Talk(TalkAsk::Affirm) if !d.referenced.is_empty() => {
            format!("wants to save {}", labels(&d.referenced))
        }
        Intent::Edit(_) if !d.referenced.is_empty() => {
            format!("wants to change {}", labels(&d.referenced))
        }
        Intent::Memory(MemoryAsk::Forget) => "wants Alfred to forget that".to_string(),
        Intent::Show if !d.referenced.is_empty() => {
            format!("wants to see {}", labels(&d.referenced))
        }
        other => format!("intent: {}", other.name().replace('_', " ")),
    }
}

fn finish(d: Draft, expressed: &str, summary: Option<String>) -> UnderstandOutput {
    let questions: Vec<String> = d.question.into_iter().collect();
    UnderstandOutput {
        referenced_entities: if questions.is_empty() {
            d.referenced
        } else {
            Vec::new()
        },
        entity_mentions: d.mentions,
        entity_curation: EntityCuration {
            retain_active: d.retain,
            demote: d.demote,
            drop: d.drop,
            clear_all: d.clear_all,
            curation_summary: summary,
        },
        constraints: d.constraints,
        needs_clarification: !questions.is_empty(),
        clarification_questions: questions,
        what_user_expressed: expressed.to_string(),
        reading: None,
    }
}
