//! Reply: the text the user reads, written like a person mid-conversation —
//! acknowledge briefly, name what changed, present the results (bullets,
//! recipes with servings and time), bridge to one next step. Never a
//! greeting after the first turn.
//!
//! Works only from what Reply is given (the path, the plan, Understand's
//! output, this turn's step data and the snapshot after Act). Wording varies
//! by turn number so a long demo does not repeat itself; the same turn
//! always gets the same words.

use serde_json::Value;

use crate::pipeline::{ReplyRequest, ThinkOutput};
use crate::prompt::{ReplyInput, ReplyPath, StepData};

use crate::context::{Dialogue, Offer, OfferKind, Question, QuestionKind, Shown};
use crate::pipeline::Decision;
use crate::pipeline::summarize::derive_dialogue;

use super::consent::permits_write;
use super::dialogue::Before;
use super::facts::Facts;
use super::lexicon::Intent;
use super::reading::{Carried, Reading};
use super::reply_ctx::ReplyCtx;
use super::reply_results::compose_results;
use super::several::{Part, part_of};
use super::skills::SkillAsk;
use super::skills::memory::Ask as MemoryAsk;
use super::skills::planning::Ask as PlanningAsk;
use super::skills::shopping::Ask as ShoppingAsk;
use super::skills::stock::Ask as StockAsk;
use super::skills::talk::Ask as TalkAsk;
use super::synonyms::OFF_TOPIC;
use super::text::{join_list, lower_first, pick};

/// Writes the reply for one turn, with what it presented, offered and
/// asked.
pub fn compose(req: &ReplyRequest<'_>) -> (String, Dialogue) {
    let before = Before::from_turns(req.input.snapshot.narrative.turns.iter());
    let reading = Reading::carried(before, req.understand)
        .unwrap_or_else(|| Reading::of_snapshot(req.input.user_message, req.input.snapshot));
    if let (Intent::Several(parts), ReplyPath::Normal) = (&reading.intent, &req.input.path) {
        return compose_several(req, parts, &reading);
    }
    let c = ReplyCtx {
        req,
        reading,
        turn: req.input.turn_number,
    };
    let mut offer = None;
    let mut shown = None;
    // The change a plain "yes" to this reply's question makes.
    let mut confirm = None;
    let text = match &req.input.path {
        ReplyPath::Propose { message } => {
            let m = if message.trim().is_empty() {
                req.think.proposal_message.clone().unwrap_or_default()
            } else {
                message.clone()
            };
            offer = Some(Offer {
                kind: OfferKind::PlanFromSaved,
                items: Vec::new(),
            });
            if m.trim().is_empty() {
                "Want to pick from your saved recipes, or try something new?".to_string()
            } else {
                m
            }
        }
        ReplyPath::Clarify { questions } => clarify(&c, questions),
        ReplyPath::Blocked { reason } => blocked(&c, reason),
        ReplyPath::Normal => match &c.reading.intent {
            _ if c.reading.declined.is_some() => c
                .reading
                .declined
                .as_ref()
                .map(|d| d.reply())
                .unwrap_or_default(),
            Intent::Skill(ask) => {
                let said = super::skills::reply(ask, &c);
                offer = said.offer;
                confirm = said.confirm;
                shown = Some(said.presented);
                said.text
            }
            _ => {
                let facts = Facts::gather(&c);
                match compose_results(&c, &facts) {
                    Some(text) => {
                        offer = offer_of(&c, &facts);
                        shown = shown_of(&c, &facts);
                        text
                    }
                    None => talk(&c),
                }
            }
        },
    };
    // A question said beside the request, not read: said back, unanswered.
    let text = match &c.reading.unanswered {
        Some(q) => {
            let note =
                format!("I couldn't answer “{q}” — ask it on its own and I'll say what I can.");
            let text = text.trim();
            // Before the reply's closing question, which a "yes" answers.
            match text.rsplit_once("\n\n") {
                Some((body, last)) if last.trim_end().ends_with('?') => {
                    format!("{body}\n\n{note}\n\n{last}")
                }
                _ => format!("{text}\n\n{note}"),
            }
        }
        None => text.trim().to_string(),
    };
    let mut dialogue = dialogue_of(&c, &text, offer);
    if let Some(shown) = shown.filter(|s| !s.is_empty()) {
        dialogue.presented = shown;
    }
    dialogue.listed = still_listed(&c, &dialogue);
    // A decline waits on a new request, not an answer; a plain "yes" to
    // its one option asks for that option.
    let fallback = c
        .reading
        .fallback
        .as_ref()
        .filter(|d| d.reply().trim() == text);
    if let Some(d) = c.reading.declined.as_ref().or(fallback) {
        // The options name things, but show none: "it" still means what
        // was shown before.
        dialogue.presented.clear();
        dialogue.offer = None;
        dialogue.question = match d.options.as_slice() {
            // "yes" keeps the rule asked about.
            _ if !d.rule.is_empty() => Some(Question {
                kind: QuestionKind::Confirm,
                text: text.clone(),
                candidates: Vec::new(),
                request: format!("{} from now on", d.rule_said()),
            }),
            [one] => Some(Question {
                kind: QuestionKind::Confirm,
                text: text.clone(),
                candidates: Vec::new(),
                request: one.clone(),
            }),
            _ => None,
        };
    }
    if let Some(c) = confirm {
        dialogue.question = Some(Question {
            kind: QuestionKind::Confirm,
            text: c.question,
            candidates: Vec::new(),
            request: c.change,
        });
    }
    (text, dialogue)
}

/// The reply to a message of several requests: each part's reply over its
/// own steps and data, in order (a closing question of all but the last
/// left out); the dialogue is the last part's, with the latest list any
/// part presented.
fn compose_several(
    req: &ReplyRequest<'_>,
    parts: &[Part],
    reading: &Reading,
) -> (String, Dialogue) {
    let mut texts: Vec<String> = Vec::new();
    let mut dialogue = Dialogue::default();
    for (k, p) in parts.iter().enumerate() {
        let mine: Vec<usize> = req
            .think
            .steps
            .iter()
            .enumerate()
            .filter(|(_, s)| part_of(s.group) == k)
            .map(|(i, _)| i)
            .collect();
        let local = |i: usize| mine.iter().position(|&x| x == i);
        let think = ThinkOutput {
            goal: req.think.goal.clone(),
            decision: req.think.decision,
            steps: mine.iter().map(|&i| req.think.steps[i].clone()).collect(),
            ..ThinkOutput::default()
        };
        let data: Vec<StepData> = req
            .data
            .iter()
            .filter_map(|d| {
                local(d.step_index).map(|j| StepData {
                    step_index: j,
                    ..d.clone()
                })
            })
            .collect();
        let steps: Vec<_> = mine
            .iter()
            .filter_map(|&i| req.input.steps.get(i).cloned())
            .collect();
        let input = ReplyInput {
            user_message: &p.words,
            snapshot: req.input.snapshot,
            turn_number: req.input.turn_number,
            goal: &think.goal,
            path: ReplyPath::Normal,
            steps: &steps,
            data: &data,
            phase: req.input.phase,
            system: req.input.system,
        };
        let mut understand = req.understand.clone();
        understand.reading = Carried::of(&reading.part(p), p.intent.clone()).to_value();
        let sub = ReplyRequest {
            input: &input,
            prompt: req.prompt,
            think: &think,
            understand: &understand,
            data: &data,
            changed: req.changed,
            calls: req.calls,
        };
        let (text, d) = compose(&sub);
        let text = if k + 1 < parts.len() {
            without_closing_question(&text)
        } else {
            text
        };
        match texts.last_mut().and_then(|prev| same_heading(prev, &text)) {
            Some(joined) => {
                if let Some(prev) = texts.last_mut() {
                    *prev = joined;
                }
            }
            None => texts.push(text),
        }
        if !d.presented.is_empty() {
            dialogue.presented = d.presented;
            dialogue.listed = d.listed;
        }
        dialogue.offer = d.offer.or(dialogue.offer.take());
        dialogue.question = d.question;
    }
    (texts.join("\n\n"), dialogue)
}

/// Two parts' replies under one heading ("Added to your tasks:"), the
/// second's lines after the first's: `None` unless the headings are the
/// same and the first holds only its lines.
fn same_heading(prev: &str, next: &str) -> Option<String> {
    let (h1, b1) = prev.split_once('\n')?;
    let (h2, b2) = next.split_once('\n')?;
    let lines_only = b1
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with("- "));
    (h1 == h2 && h1.ends_with(':') && lines_only)
        .then(|| format!("{h1}\n{}\n{}", b1.trim_end(), b2.trim_start_matches('\n')))
}

/// `text` without its last paragraph when that is a one-line question
/// ("Anything else to add?") after the rest.
fn without_closing_question(text: &str) -> String {
    match text.rsplit_once("\n\n") {
        Some((rest, last)) if last.trim().ends_with('?') && !last.contains('\n') => {
            rest.trim_end().to_string()
        }
        _ => text.to_string(),
    }
}

/// What a reply over results presented, when this brain knows it better
/// than the text does: the recipes it made, changed or saved, or the items
/// it showed, in order (a recipe's own ingredient lines are not a list of
/// choices).
fn shown_of(c: &ReplyCtx<'_>, f: &Facts<'_>) -> Option<Vec<Shown>> {
    let id = |v: &Value| v.get("id").and_then(Value::as_str).map(String::from);
    let refs: Vec<String> = if !f.edited.is_empty() {
        f.edited.iter().map(|(r, _)| r.to_string()).collect()
    } else if !f.new_recipes.is_empty() {
        f.new_recipes.iter().filter_map(|v| id(v)).collect()
    } else if !f.show.is_empty() && f.options.is_none() {
        f.show.iter().filter_map(|v| id(v)).collect()
    } else if let Some((_, rows)) = f.written.iter().find(|(s, _)| s == "recipes") {
        rows.iter().filter_map(id).collect()
    } else if let (Intent::FindByIngredient(_), Some((_, rows))) = (
        &c.reading.intent,
        f.read.iter().find(|(s, _)| s == "recipes"),
    ) {
        // "recipes with coconut milk" shown as one or two cards: those
        // recipes are what "the 2nd" counts in, as a longer list's lines.
        rows.iter()
            .filter_map(id)
            .filter(|r| !super::reply_rows::is_ruled_out(c, r))
            .collect()
    } else if let (Intent::InventoryAdd(..), Some((_, rows))) = (
        &c.reading.intent,
        f.written.iter().find(|(s, _)| s == "inventory"),
    ) {
        // "put 4 tomatos … in the fridge", then "mark them as bought": the
        // rows put away, whatever the reply's wording ("4 tomatoes").
        rows.iter().filter_map(id).collect()
    } else {
        return None;
    };
    Some(refs.iter().map(|r| Shown::new(r, c.label(r))).collect())
}

/// The dialogue state of the reply: the pipeline's reading of the text and
/// the decision, with the offer this brain knows it made, and a question
/// about the plan marked as such.
/// The earlier list "the 2nd one" still counts in: carried on while a
/// reply presents one or some of its recipes (an answer about one of them),
/// dropped once a reply presents a list of its own or something else.
fn still_listed(c: &ReplyCtx<'_>, d: &Dialogue) -> Vec<Shown> {
    let listed = &c.reading.before.listed;
    let recipes: Vec<String> = d
        .presented_refs()
        .into_iter()
        .filter(|r| r.starts_with("recipe_"))
        .collect();
    if listed.is_empty() || recipes.len() >= 2 || recipes.len() != d.presented.len() {
        return Vec::new();
    }
    listed.iter().map(|r| Shown::new(r, c.label(r))).collect()
}

fn dialogue_of(c: &ReplyCtx<'_>, text: &str, offer: Option<Offer>) -> Dialogue {
    let known: Vec<(String, String)> = c
        .req
        .input
        .snapshot
        .entities
        .all()
        .map(|(_, v)| (v.r#ref.clone(), v.label.clone()))
        .collect();
    // A step that stopped to ask ("Which one for Wed Jan 14: A or B?")
    // made the reply a clarification whatever Think decided.
    let act_question = match &c.req.input.path {
        ReplyPath::Clarify { questions } if c.req.think.decision == Decision::PlanDirect => {
            questions.first().map(String::as_str)
        }
        _ => None,
    };
    let mut d = derive_dialogue(
        text,
        c.req.input.user_message,
        c.req.think,
        c.req.understand,
        act_question,
        &known,
    );
    if offer.is_some() {
        d.offer = offer;
    }
    if let Some(q) = d.question.as_mut()
        && q.kind == QuestionKind::Open
    {
        // Only the "should I …?" asked before a change (Think's), not a
        // question of what or which ("which rice?").
        let held_back = c.req.think.decision == Decision::Clarify
            && !c.req.understand.needs_clarification
            && !permits_write(&c.reading)
            && would_write(&c.reading.intent)
            && q.text.to_lowercase().contains("should i ");
        if c.reading.intent == Intent::Assign {
            q.kind = QuestionKind::WhichDays;
        } else if held_back {
            q.kind = QuestionKind::Confirm;
            // The change as asked about ("take onion off the shopping
            // list"), when it names its rows: what a "yes" carries out,
            // read the same whatever the talk has moved on to.
            if let Some(change) = named_in_question(&q.text) {
                q.request = change;
            }
        }
    }
    // The reader's own yes-or-no, whatever rows its question names.
    if c.reading.asks_confirm
        && let Some(q) = d.question.as_mut()
    {
        q.kind = QuestionKind::Confirm;
        q.candidates.clear();
    }
    d
}

/// "take onion off the shopping list" from "Just to be sure — should I take
/// onion off the shopping list?"; `None` when the question points rather
/// than names ("put that on the plan").
fn named_in_question(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let at = lower.find("should i ")? + "should i ".len();
    let change = text[at..].trim().trim_end_matches('?').trim();
    let words: Vec<String> = change
        .to_lowercase()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let points = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "that" | "it" | "them" | "those" | "these" | "recipes" | "items" | "task" | "amount"
        )
    });
    // Only the list's and the plan's changes read back the same.
    // An add keeps its own words ("another bottle of olive oil").
    let reads_back = !change.starts_with("add ")
        && (change.contains("shopping list") || change.contains("on the plan for"));
    (!points && reads_back).then(|| change.to_string())
}

/// The intents whose plan writes to the kitchen and can be confirmed with
/// a "yes" (an add with no clear item asks what to add instead).
fn would_write(intent: &Intent) -> bool {
    // Every change the older rules read is asked about first (Understand):
    // a "yes" makes it.
    if super::understand::concrete_write(intent, true) && !empty_add(intent)
        || super::understand::bulk_write(intent)
    {
        return true;
    }
    match intent {
        Intent::InventoryAdd(items, _)
        | Intent::Skill(SkillAsk::Shopping(ShoppingAsk::Add { items, .. })) => !items.is_empty(),
        Intent::Skill(SkillAsk::Planning(p)) => !matches!(p, PlanningAsk::Look { .. }),
        Intent::Skill(SkillAsk::Stock(s)) => {
            matches!(s, StockAsk::Move { .. }) || super::understand::kitchen_write(intent)
        }
        _ => matches!(
            intent,
            Intent::Save
                | Intent::ShoppingMissing
                | Intent::InventoryRemove(_)
                | Intent::Memory(MemoryAsk::Delete)
                | Intent::Edit(_)
        ),
    }
}

/// An add that names nothing to add (it asks what instead).
fn empty_add(intent: &Intent) -> bool {
    matches!(
        intent,
        Intent::InventoryAdd(items, _) | Intent::Skill(SkillAsk::Shopping(ShoppingAsk::Add { items, .. }))
            if items.is_empty()
    )
}

/// What a reply over results offers to do next, from what it presented:
/// saving the drafts it showed or made, filling the shopping list for a
/// saved plan, putting a saved recipe it showed on the plan.
fn offer_of(c: &ReplyCtx<'_>, f: &Facts<'_>) -> Option<Offer> {
    let pending: Vec<String> = c
        .req
        .input
        .snapshot
        .entities
        .pending
        .iter()
        .map(|v| v.r#ref.clone())
        .collect();
    let offer = |kind: OfferKind, refs: &[String]| {
        Some(Offer {
            kind,
            items: refs.iter().map(|r| Shown::new(r, c.label(r))).collect(),
        })
    };
    let ids = |rows: &[&Value]| -> Vec<String> {
        rows.iter()
            .filter_map(|v| v.get("id").and_then(Value::as_str).map(String::from))
            .collect()
    };
    if c.reading.intent == Intent::Memory(MemoryAsk::SearchHistory) || f.options.is_some() {
        return None;
    }
    let drafts_shown = !f.edited.is_empty() || !f.new_recipes.is_empty() || !f.new_slots.is_empty();
    if drafts_shown || f.unsaved.is_some() {
        return offer(OfferKind::SaveDraft, &pending);
    }
    if !f.written.is_empty() || f.plan.is_some() {
        if !pending.is_empty() {
            return offer(OfferKind::SaveDraft, &pending);
        }
        let plan = f.written.iter().any(|(s, _)| s == "meal_plans") || f.plan.is_some();
        return plan.then(|| Offer {
            kind: OfferKind::AddMissing,
            items: Vec::new(),
        });
    }
    if !f.show.is_empty() {
        let shown = ids(&f.show);
        let drafts: Vec<String> = shown.iter().filter(|r| c.is_pending(r)).cloned().collect();
        return if drafts.is_empty() {
            offer(OfferKind::PutOnPlan, &shown)
        } else {
            offer(OfferKind::SaveDraft, &drafts)
        };
    }
    None
}

fn clarify(c: &ReplyCtx<'_>, questions: &[String]) -> String {
    let qs: Vec<&String> = questions.iter().filter(|q| !q.trim().is_empty()).collect();
    if qs.is_empty() {
        return "Could you tell me a bit more about what you'd like?".to_string();
    }
    // A vague request's question is the whole reply ("What should I take
    // off, and from where: …?").
    if matches!(c.reading.intent, Intent::Vague(_)) {
        return qs.iter().map(|q| q.trim()).collect::<Vec<_>>().join(" ");
    }
    let lead = pick(
        &["Quick check —", "Just to be sure —", "One question first —"],
        c.turn,
        0,
    );
    let body = qs
        .iter()
        .map(|q| q.trim().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    format!("{lead} {}", lower_first(&body))
}

fn blocked(c: &ReplyCtx<'_>, reason: &str) -> String {
    let saved = !c.req.changed.is_empty();
    let tail = if saved {
        "Whatever went through before that is kept."
    } else {
        "Nothing was changed."
    };
    let lead = pick(
        &[
            "I couldn't finish that",
            "That didn't go through",
            "I got stuck on that",
        ],
        c.turn,
        1,
    );
    format!(
        "{lead}: {}. {tail} Want to try it another way?",
        reason.trim().trim_end_matches('.')
    )
}

/// What to say when nothing reads the message: the decline Understand
/// worked out (the words not read, looks that can be done here) when it
/// has options to offer, else [`not_understood`].
pub fn last_resort(c: &ReplyCtx<'_>) -> String {
    match &c.reading.fallback {
        Some(d) if !d.options.is_empty() => d.reply(),
        _ => not_understood(&c.reading.words, c.turn),
    }
}

/// The last resort. When the message names food, the things Alfred can do
/// with it, offered as a question; else what the offline brain can do that
/// is closest to the message's words, as messages to try.
pub fn not_understood(words: &super::text::Words, turn: u32) -> String {
    let mut food = super::vocab::food_mentions(&words.words);
    food.dedup();
    if !food.is_empty() {
        let (one, it) = match food.len() {
            1 => (food[0].clone(), "it"),
            _ => (join_list(&food[..food.len().min(3)], "and"), "them"),
        };
        return format!(
            "I'm not sure what you'd like with {one}. Should I check how much you have, add \
             {it} to your shopping list, or find recipes that use {it}?"
        );
    }
    // A day named: the two things a day can be asked about.
    let days: Vec<String> = super::skills::days::days_in(&words.words)
        .iter()
        .map(|d| d.day.word())
        .collect();
    if let Some(day) = days.first() {
        let day = super::text::capitalise_first(day);
        return format!(
            "I'm not sure what you'd like for {day}. Should I show what's planned then, or put a recipe on it?"
        );
    }
    let tries: Vec<String> = super::vague::closest(words, turn)
        .iter()
        .map(|e| format!("\"{e}\""))
        .collect();
    // Say which words could not be read, then what is closest to them.
    let said: Vec<&str> = words
        .words
        .iter()
        .map(String::as_str)
        .filter(|w| !super::vocab::is_chatter(w))
        .take(8)
        .collect();
    let what = if said.is_empty() {
        "that".to_string()
    } else {
        format!("“{}”", said.join(" "))
    };
    format!(
        "I didn't catch that: I couldn't read {what} as something I can do (I'm the offline \
         brain: I know this kitchen's recipes, stock, list, plan and tasks). Closest to it: try {}.",
        join_list(&tries, "or")
    )
}

/// Replies to turns with no data: greetings, thanks, memory commands.
/// Forgetting a saved row takes it out of working memory, not out of the
/// kitchen: said plainly, so "actually nvm" after a write is not taken for
/// an undo ("" when every forgotten ref was an unsaved draft).
fn still_in_kitchen(c: &ReplyCtx<'_>) -> String {
    let saved: Vec<&str> = c
        .req
        .understand
        .entity_curation
        .drop
        .iter()
        .map(|d| d.r#ref.as_str())
        .filter(|r| !r.starts_with("gen_"))
        .collect();
    if saved.is_empty() {
        return String::new();
    }
    let place = |r: &str| match r.split('_').next() {
        Some("meal") => "your meal plan",
        Some("inv") => "your pantry",
        Some("shop") => "your shopping list",
        Some("task") => "your tasks",
        _ => "your kitchen",
    };
    let mut places: Vec<String> = Vec::new();
    for p in saved.iter().map(|r| place(r).to_string()) {
        if !places.contains(&p) {
            places.push(p);
        }
    }
    let (they, is, it) = if saved.len() == 1 {
        ("It", "is", "it")
    } else {
        ("They", "are", "them")
    };
    format!(
        " {they} {is} still in {} — forgetting only takes {it} out of what I keep in mind.",
        join_list(&places, "and"),
    )
}

/// True when the words close the talk ("no thats all", "good night").
fn says_goodbye(words: &[String]) -> bool {
    let lex = super::reader::lexicon::lexicon();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    (0..words.len()).any(|k| super::reader::link::phrase_at(&words, k, &lex.bye).is_some())
}

fn talk(c: &ReplyCtx<'_>) -> String {
    let u = c.req.understand;
    // What Understand let go this turn (forgotten, or drafts thrown away).
    let dropped: Vec<String> = u
        .entity_curation
        .drop
        .iter()
        .map(|d| c.label(&d.r#ref))
        .collect();
    match &c.reading.intent {
        Intent::Talk(TalkAsk::Greeting) if c.turn <= 1 => {
            "Hi! I'm Alfred, running on the offline brain. I can plan meals, show your \
             recipes or pantry, and create or tweak recipes. What are we cooking?"
                .to_string()
        }
        Intent::Talk(TalkAsk::Greeting) => {
            "Hey! Want to pick up where we left off, or start something new?".to_string()
        }
        Intent::Talk(TalkAsk::Thanks) if says_goodbye(&c.reading.words.words) => {
            "Okay — talk soon! Everything's kept for next time.".to_string()
        }
        // A "yes" to a list with two ways on ("Shall I open one of them,
        // or put a couple on the plan?"): which one, and which way, in
        // words the reader carries out — not thanks.
        Intent::Talk(TalkAsk::Affirm | TalkAsk::Thanks)
            if (super::consent::is_bare_consent(&c.reading.words)
                || super::consent::is_consent_to_do(&c.reading.words))
                && let Some(first) = c
                .reading
                .before
                .presented
                .iter()
                .chain(&c.reading.before.listed)
                .filter(|r| r.starts_with("recipe_") || r.starts_with("gen_recipe_"))
                .map(|r| c.label(r))
                .find(|l| !l.is_empty()) =>
        {
            format!(
                "Happy to — which one, and what should I do with it? Say “show me {first}” to open it, or “put {first} on friday” to plan it."
            )
        }
        Intent::Talk(TalkAsk::Thanks) | Intent::Talk(TalkAsk::Affirm) => format!(
            "{} {}",
            pick(
                &["Any time!", "You're welcome!", "Glad that helps!"],
                c.turn,
                0
            ),
            pick(
                &[
                    "Anything else?",
                    "What's next?",
                    "Shout if you need anything else."
                ],
                c.turn,
                1
            )
        ),
        Intent::Talk(TalkAsk::Decline) if c.reading.words.has_any(super::synonyms::SAVE) => {
            "No rush — nothing gets saved until you say so. Want to keep tweaking, or try something else?"
                .to_string()
        }
        Intent::Talk(TalkAsk::Decline) => format!(
            "{} {}",
            pick(&["No problem.", "Sure, no rush.", "Okay."], c.turn, 0),
            "What would you like to do instead?"
        ),
        Intent::Talk(TalkAsk::Help) => {
            let outside = if c.reading.words.has_any(OFF_TOPIC) {
                "That's outside my kitchen — I can't look it up. "
            } else {
                ""
            };
            format!(
                "{outside}Here's what I can do offline:\n\
                 - find and compare your recipes (\"any thai ones\", \"which of those is quickest\", \"what can I make tonight\")\n\
                 - your pantry (\"how much rice have I got\", \"what's going off soon\", \"used up the paneer\")\n\
                 - the shopping list and tasks (\"stick eggs on the list\", \"what tasks do I have\")\n\
                 - plan meals (\"help me plan some meals\", \"no cod this week\", \"put the paneer on sunday\")\n\
                 - create a recipe and tweak it (\"add a squeeze of lime\"), then save it\n\
                 - remember things (\"what did I just add?\", \"what isn't saved yet?\", \"forget that\", \"start fresh\")"
            )
        }
        Intent::Memory(MemoryAsk::ClearAll) => clear_all_reply(c),
        Intent::Memory(MemoryAsk::Forget) => {
            if dropped.is_empty() {
                "There's nothing in front of us to forget right now.".to_string()
            } else {
                format!(
                    "Done — I've forgotten {}.{} What next?",
                    join_list(&dropped, "and"),
                    still_in_kitchen(c)
                )
            }
        }
        Intent::Memory(MemoryAsk::Delete) => {
            if dropped.is_empty() {
                "I couldn't find that to delete — which one do you mean?".to_string()
            } else {
                format!(
                    "Done — I've thrown away {} (it was never saved).",
                    join_list(&dropped, "and")
                )
            }
        }
        Intent::Save => {
            let already: Vec<String> = u
                .referenced_entities
                .iter()
                .filter(|r| !c.is_pending(r))
                .map(|r| c.label(r))
                .collect();
            if already.is_empty() {
                "There's nothing waiting to be saved — everything we've made is already in your kitchen.".to_string()
            } else {
                format!(
                    "{} is already saved — nothing to do there.",
                    join_list(&already, "and")
                )
            }
        }
        Intent::Memory(MemoryAsk::Recall) => "You haven't added anything yet this session.".to_string(),
        // "👍": no words, but not nothing.
        Intent::Empty
            if c.req
                .input
                .user_message
                .chars()
                .any(|ch| "👍👌🙏❤✅🙂😊".contains(ch)) =>
        {
            pick(
                &["👍 Anything else?", "👍 Shout if you need anything."],
                c.turn,
                2,
            )
            .to_string()
        }
        Intent::Unknown | Intent::Empty => last_resort(c),
        _ => {
            let goal = c.req.think.goal.trim();
            if goal.is_empty() {
                last_resort(c)
            } else {
                format!("Done — {}.", goal.trim_end_matches('.').to_lowercase())
            }
        }
    }
}

/// "Fresh start — …", naming the standing constraints it lifted.
fn clear_all_reply(c: &ReplyCtx<'_>) -> String {
    let lifted: Vec<String> = c
        .constraints(crate::context::ConstraintStatus::Lifted)
        .map(|k| k.label.clone())
        .collect();
    let rules = if lifted.is_empty() {
        String::new()
    } else {
        format!(
            ", and what you'd ruled out ({}) no longer applies",
            lifted.join(", ")
        )
    };
    format!(
        "Fresh start — I've cleared everything from working memory{rules}. What would you like to cook?"
    )
}

#[cfg(test)]
mod tests {
    use super::super::text::Words;
    use super::*;

    #[test]
    fn the_last_resort_asks_about_the_food_named() {
        let one = not_understood(&Words::new("umm the coconut milk??"), 1);
        assert!(
            one.contains("with coconut milk") && one.ends_with('?'),
            "{one}"
        );
        let two = not_understood(&Words::new("eggs n spinach hmm"), 1);
        assert!(
            two.contains("eggs and spinach") && two.contains("them"),
            "{two}"
        );
        // Nothing linked: the closest things to try.
        let none = not_understood(&Words::new("blorp"), 1);
        assert!(none.contains("didn't catch that"), "{none}");
    }
}
