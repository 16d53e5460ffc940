//! One message as every node reads it: its words, what the last turn left
//! open (its dialogue state: the list presented, the offer, the question),
//! and the intent — including an answer to a "which one do you mean?"
//! question, which carries on the request that raised it.
//!
//! Built from the message and the narrative layer only (which does not
//! change during a turn), so Understand, Think, Act and Reply agree. The
//! state-dependent refinements (an exclusion that is really "take the eggs
//! out of this recipe") are in [`refine`].

use super::reader::acts::MakeFilter;
use serde::{Deserialize, Serialize};

use crate::context::{ContextSnapshot, ContextState, Table};
use crate::pipeline::UnderstandOutput;

use crate::context::{OfferKind, QuestionKind};

use super::consent::{is_bare_consent, is_question};
use super::dialogue::Before;
use super::edits::EditOp;
use super::items::{Exclusion, Refusal};
use super::lexicon::{Cues, Intent, classify};
use super::resolve::{RECIPES, Resolved, by_label, focus};
use super::skills::memory::Ask as MemoryAsk;
use super::skills::talk::Ask as TalkAsk;
use super::text::{Words, stems};
use super::world::World;

/// What Understand read, carried in its output to the later nodes: the
/// intent as refined by its own resolution, the words acted on (the
/// request an answer completes), and the answer's own words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Carried {
    pub intent: Intent,
    pub words: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub confirmed: bool,
    /// The reader asks a yes or no about `words` before writing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub asks_confirm: bool,
    /// The reader doubts the words ask for a change (a negation, a hedge,
    /// a question): a write is confirmed first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unsure: bool,
    /// No reading accounts for the message: what it left unread and what
    /// can be done instead (the reply declines with options).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declined: Option<super::reader::decline::Declined>,
    /// What the reply says when no rule reads the message after all: which
    /// words were not read and the looks that can be done here (computed
    /// for a message the older rules read as nothing; Think may still
    /// draft from its words).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<super::reader::decline::Declined>,
    /// The reader read the message and carried it out as read (not the
    /// older rules).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_reader: bool,
    /// What "what can i make" was narrowed to, as the reader read it.
    #[serde(default, skip_serializing_if = "MakeFilter::is_empty")]
    pub make: MakeFilter,
    /// A question said beside the request that nothing read: the reply
    /// says it was left unanswered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unanswered: Option<String>,
    /// The servings the reader read with a plan ("just me", "for 4").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servings: Option<u32>,
}

impl Carried {
    /// The reading as Understand hands it on.
    pub fn of(reading: &Reading, intent: Intent) -> Self {
        Self {
            intent,
            words: reading.words.words.join(" "),
            answer: reading.answer.as_ref().map(|a| a.words.join(" ")),
            confirmed: reading.confirmed,
            asks_confirm: reading.asks_confirm,
            unsure: reading.unsure,
            declined: reading.declined.clone(),
            fallback: None,
            by_reader: false,
            make: reading.make,
            unanswered: None,
            servings: reading.servings,
        }
    }

    /// As the JSON value Understand's output carries.
    pub fn to_value(&self) -> Option<serde_json::Value> {
        serde_json::to_value(self).ok()
    }
}

/// A message read in the light of the last exchange.
#[derive(Debug, Clone)]
pub struct Reading {
    pub words: Words,
    pub intent: Intent,
    /// What the last exchange left open.
    pub before: Before,
    /// When this message answers "which one do you mean?": its own words
    /// (then `words` and `intent` are those of the request that raised it).
    pub answer: Option<Words>,
    /// A plain "yes" to Alfred's "should I …?": the request it confirms may
    /// write.
    pub confirmed: bool,
    /// The reader asks a yes or no about this request before it writes.
    pub asks_confirm: bool,
    /// The reader doubts the words ask for a change: a write is confirmed
    /// first.
    pub unsure: bool,
    /// "undo that", "put it back": the message takes back the last turn's
    /// change (made in words a turn ago, so not asked about again).
    pub reverses_last: bool,
    /// No reading accounts for the message: the reply declines with
    /// options.
    pub declined: Option<super::reader::decline::Declined>,
    /// The reply's last resort when nothing reads the message: a decline
    /// with options (see [`Carried::fallback`]).
    pub fallback: Option<super::reader::decline::Declined>,
    /// What "what can i make" is narrowed to ("under 30 min").
    pub make: MakeFilter,
    /// A question said beside the request that nothing read (see
    /// [`Carried::unanswered`]).
    pub unanswered: Option<String>,
    /// The servings the reader read with a plan (see [`Carried::servings`]).
    pub servings: Option<u32>,
    /// What Alfred offered or asked last turn, read once from `before`.
    cues: Cues,
}

impl Reading {
    /// What Alfred offered or asked last turn.
    pub fn cues(&self) -> Cues {
        self.cues
    }

    /// A message that completes the request a question of Alfred's was
    /// about: `words` and `intent` are the request's, `answer` the
    /// message's own words.
    fn completing(
        request: &str,
        answer: Words,
        before: Before,
        cues: Cues,
        confirmed: bool,
    ) -> Self {
        let asked = Words::new(request);
        // The request is read as it was said: about the same topic, with
        // none of the question's own cues.
        let topic = Cues {
            topic: cues.topic,
            ..Cues::default()
        };
        let intent = match classify(&asked, topic) {
            weak if weak.says_nothing() || weak == Intent::Show => {
                continued_add(&asked, &before.earlier, cues.topic).unwrap_or(weak)
            }
            intent => intent,
        };
        Self {
            intent,
            words: asked,
            before,
            answer: Some(answer),
            confirmed,
            cues,
            asks_confirm: false,
            unanswered: None,
            unsure: false,
            reverses_last: false,
            declined: None,
            fallback: None,
            make: MakeFilter::default(),
            servings: None,
        }
    }
    /// One part of a message that makes several requests, read as if it
    /// were the message: its words and intent, the same last exchange.
    pub fn part(&self, p: &super::several::Part) -> Self {
        Self {
            words: Words::new(&p.words),
            intent: p.intent.clone(),
            before: self.before.clone(),
            answer: None,
            confirmed: self.confirmed,
            cues: self.cues,
            asks_confirm: false,
            unanswered: None,
            unsure: self.unsure,
            reverses_last: self.reverses_last,
            declined: self.declined.clone(),
            fallback: self.fallback.clone(),
            make: self.make,
            servings: self.servings,
        }
    }

    /// "show me my recipes": every saved recipe, from the store; not "what's
    /// left?", which narrows what memory holds.
    pub fn lists_everything(&self) -> bool {
        self.intent == Intent::ListRecipes && !self.words.has_any(&["left", "options", "remaining"])
    }

    /// Reads `message` after the last exchange.
    pub fn new(message: &str, before: Before) -> Self {
        let words = Words::new(message);
        let cues = Cues::from_before(&before);
        // A pasted recipe is drafted as it is, whatever its words say.
        if let Some(p) = super::skills::cook::paste::read(message) {
            let ask = super::lexicon::GenerateAsk {
                count: 1,
                dish: p.name.to_lowercase(),
                meal: None,
                without: Vec::new(),
                quick: false,
                pasted: Some(p),
            };
            return Self {
                words,
                intent: Intent::Generate(ask),
                before,
                answer: None,
                confirmed: false,
                cues,
                asks_confirm: false,
                unanswered: None,
                unsure: false,
                reverses_last: false,
                declined: None,
                fallback: None,
                make: MakeFilter::default(),
                servings: None,
            };
        }
        let request = before
            .dialogue
            .question
            .as_ref()
            .map(|q| q.request.clone())
            .filter(|r| !r.trim().is_empty())
            .unwrap_or_else(|| before.user.clone());
        if before.asked(QuestionKind::Confirm)
            && (is_bare_consent(&words) || super::consent::is_consent_to_do(&words))
        {
            return Self::completing(&request, words, before, cues, true);
        }
        if let Some(filled) = filled_in(&before, &words, cues) {
            return Self {
                intent: classify(&filled, cues),
                words: filled,
                before,
                answer: None,
                confirmed: false,
                cues,
                asks_confirm: false,
                unanswered: None,
                unsure: false,
                reverses_last: false,
                declined: None,
                fallback: None,
                make: MakeFilter::default(),
                servings: None,
            };
        }
        let (words, own) = without_opener(words, cues);
        let (words, own) = match taken_back(&words) {
            Some(rest) => {
                let then = classify(&rest, cues);
                // "out of limes, oh wait no we still have some": nothing
                // to do; "…, no wait, make it friday": the correction.
                if super::consent::asks_for_change(&rest) && !then.says_nothing() {
                    (rest, then)
                } else {
                    (rest, Intent::Talk(TalkAsk::Decline))
                }
            }
            None => (words, own),
        };
        let undone = undo_of_last_add(&words, &before)
            .or_else(|| undo_of_last_list_add(&words, &before))
            .or_else(|| put_back(&words, &before));
        let reverses_last = undone.is_some();
        let own = undone.unwrap_or(own);
        let weak = matches!(
            own,
            Intent::Unknown
                | Intent::Show
                | Intent::Talk(TalkAsk::Affirm)
                | Intent::Talk(TalkAsk::Thanks)
                | Intent::Talk(TalkAsk::Greeting)
        );
        // A question of the user's own ("wait how long does the third one
        // take?") is never taken as the answer to Alfred's.
        let answers = weak && !is_question(&words);
        // "ya" to "want a recipe that uses some of these?": the request the
        // offer stands for.
        if let Some(request) = offered_request(&before)
            && own == Intent::Talk(TalkAsk::Affirm)
            && answers
        {
            let words = Words::new(request);
            return Self {
                intent: classify(&words, cues),
                words,
                before,
                answer: None,
                confirmed: false,
                cues,
                asks_confirm: false,
                unanswered: None,
                unsure: false,
                reverses_last: false,
                declined: None,
                fallback: None,
                make: MakeFilter::default(),
                servings: None,
            };
        }
        if cues.asked_plan && answers {
            return Self {
                words,
                intent: Intent::Assign,
                before,
                answer: None,
                confirmed: false,
                cues,
                asks_confirm: false,
                unanswered: None,
                unsure: false,
                reverses_last: false,
                declined: None,
                fallback: None,
                make: MakeFilter::default(),
                servings: None,
            };
        }
        if cues.which && answers && !request.trim().is_empty() {
            return Self::completing(&request, words, before, cues, false);
        }
        // "and the basil" after "tick off the tomatoes": the same again,
        // to the basil; asked for in words when the last message asked.
        let short = words.words.first().is_some_and(|x| x == "and") && words.words.len() <= 5;
        let (own, confirmed) = match continued_add(&words, &before.user, cues.topic) {
            // A new row ("oh and mint too" after an add) is asked about
            // first; the same change to another row is done.
            Some(more) if answers || own == Intent::Show || short => {
                let adds = matches!(
                    more,
                    Intent::InventoryAdd(..)
                        | Intent::Skill(super::skills::SkillAsk::Shopping(
                            super::skills::shopping::Ask::Add { .. }
                        ))
                );
                let asked = super::consent::asks_for_change(&Words::new(&before.user));
                (more, asked && !adds)
            }
            _ => (own, false),
        };
        Self {
            words,
            intent: own,
            before,
            answer: None,
            confirmed,
            cues,
            asks_confirm: false,
            unanswered: None,
            unsure: false,
            reverses_last,
            declined: None,
            fallback: None,
            make: MakeFilter::default(),
            servings: None,
        }
    }

    /// The reading Understand carried, against what the last exchange left
    /// open; `None` when Understand carried none (not the offline brain's).
    pub fn carried(before: Before, understand: &UnderstandOutput) -> Option<Self> {
        let c: Carried = serde_json::from_value(understand.reading.clone()?).ok()?;
        Some(Self {
            words: Words::new(&c.words),
            intent: c.intent,
            cues: Cues::from_before(&before),
            before,
            answer: c.answer.map(|a| Words::new(&a)),
            confirmed: c.confirmed,
            asks_confirm: c.asks_confirm,
            unanswered: c.unanswered,
            unsure: c.unsure,
            reverses_last: false,
            declined: c.declined,
            fallback: c.fallback,
            make: c.make,
            servings: c.servings,
        })
    }

    /// Reads a message against the session's narrative (Understand, Think,
    /// Act).
    pub fn of_state(message: &str, state: &ContextState) -> Self {
        Self::new(message, Before::from_turns(state.narrative.recent()))
    }

    /// Reads a message against a snapshot's narrative (Reply).
    pub fn of_snapshot(message: &str, snapshot: &ContextSnapshot) -> Self {
        Self::new(message, Before::from_turns(snapshot.narrative.turns.iter()))
    }
}

/// The words after a message takes itself back part way ("we're out of
/// limes, oh wait no we still have some" → "we still have some"); `None`
/// when it does not.
fn taken_back(words: &Words) -> Option<Words> {
    const BACK: &[&str] = &[
        "oh wait no",
        "wait no",
        "no wait",
        "actually no",
        "actually nah",
        "never mind",
        "nevermind",
        "nvm",
        "scratch that",
        "forget that",
        "jk",
        "just kidding",
        "my bad",
        "ignore that",
    ];
    let (i, p) = super::text::find_any(&words.words, BACK)?;
    // Only a change asked for before it is taken back ("nah forget that"
    // forgets), and a correction of a day or an amount ("thursday. wait no
    // friday") is read where it is.
    let said = Words::new(&words.words[..i].join(" "));
    if i == 0 || !super::consent::asks_for_change(&said) {
        return None;
    }
    let mut rest = Words::new(&words.words[i + p.split(' ').count()..].join(" "));
    rest.question_mark = words.question_mark;
    let correcting = rest.words.iter().any(|x| {
        super::text::number(x).is_some()
            || super::skills::days::is_day_word(x)
            || super::text::weekday_index(x).is_some()
    });
    (!correcting).then_some(rest)
}

/// "oh and a bag of spinach too", "also the fancy olive oil" after an add:
/// more of the same add, to the same place. `None` unless the message
/// carries on ("and", "also", "plus" first; "too", "as well" last) and
/// names only things that may be food.
fn continued_add(words: &Words, last_user: &str, topic: super::skills::Topic) -> Option<Intent> {
    use super::skills::{Named, SkillAsk, shopping::Ask as Shop, stock::Ask as Stock};
    let w = &words.words;
    let lead = w
        .iter()
        .take_while(|x| matches!(x.as_str(), "and" | "also" | "plus" | "oh" | "ah" | "oops"))
        .count();
    let tail = ["too", "aswell", "as well", "also"]
        .iter()
        .find(|t| w.join(" ").ends_with(*t))
        .map_or(0, |t| t.split(' ').count());
    if (lead == 0 || w[..lead] == ["oh"]) && tail == 0 || lead + tail >= w.len() {
        return None;
    }
    let rest: Vec<String> = w[lead..w.len() - tail]
        .iter()
        .filter(|x| !matches!(x.as_str(), "that" | "the" | "some" | "those" | "these"))
        .cloned()
        .collect();
    // "and add 2 onions" after a removal says its own verb: it carries
    // nothing on.
    let rest_words = Words::new(&rest.join(" "));
    if super::consent::asks_for_change(&rest_words) {
        return None;
    }
    let items = super::items::parse_items(&rest_words.segments);
    if items.is_empty() || !items.iter().all(|i| super::vocab::may_be_food(&i.name)) {
        return None;
    }
    let about = Cues {
        topic,
        ..Cues::default()
    };
    let last = match classify(&Words::new(last_user), about) {
        Intent::Several(parts) => parts.last()?.intent.clone(),
        other => other,
    };
    // What the last request did, to these: "tick off the tomatoes" → "and
    // the basil"; "when does the milk go off" → "and the yogurt".
    let named: Vec<Named> = items.iter().map(|i| Named::item(&i.name)).collect();
    let skill = |ask| Some(Intent::Skill(ask));
    match last {
        Intent::InventoryAdd(_, place) => Some(Intent::InventoryAdd(items, place)),
        Intent::InventoryRemove(_) => Some(Intent::InventoryRemove(items)),
        Intent::Skill(SkillAsk::Shopping(ask)) => match ask {
            Shop::Add { .. } => skill(SkillAsk::Shopping(Shop::Add {
                items,
                amount: None,
            })),
            Shop::Remove { .. } => skill(SkillAsk::Shopping(Shop::Remove { items: named })),
            Shop::MarkBought { .. } => skill(SkillAsk::Shopping(Shop::MarkBought { items: named })),
            Shop::Has { .. } => skill(SkillAsk::Shopping(Shop::Has { items: named })),
            Shop::WhatFor { .. } => skill(SkillAsk::Shopping(Shop::WhatFor { items: named })),
            _ => None,
        },
        Intent::Skill(SkillAsk::Stock(ask)) => match ask {
            Stock::HowMuch { location, .. } => skill(SkillAsk::Stock(Stock::HowMuch {
                items: named,
                location,
            })),
            Stock::ExpiryOf { .. } => skill(SkillAsk::Stock(Stock::ExpiryOf { items: named })),
            Stock::Move { to, .. } => skill(SkillAsk::Stock(Stock::Move { items: named, to })),
            // "we ate the bananas" → "and the brioche": used up too.
            Stock::Use { .. } => skill(SkillAsk::Stock(Stock::Use {
                items: items
                    .iter()
                    .map(|i| super::skills::stock::uses::Used {
                        item: Named::item(&i.name),
                        amount: i.amount.clone(),
                    })
                    .collect(),
            })),
            _ => None,
        },
        _ => None,
    }
}

/// The request an offer of the last reply stands for, when a "yes" takes
/// it as a read (offers that write are confirmed where they are read).
fn offered_request(before: &Before) -> Option<&'static str> {
    before
        .offered(OfferKind::FindRecipes)
        .then_some("which recipes use those")
}

/// The answer to Alfred's question about a vague request ("remove it" →
/// "what should I take off?" → "the tomatoes. off the shopping list"),
/// read as the request filled in; `None` when the message is a question or
/// request of its own, or the filled-in request still reads as nothing.
fn filled_in(before: &Before, words: &Words, cues: Cues) -> Option<Words> {
    let q = before.dialogue.question.as_ref()?;
    let request = Words::new(&q.request);
    // "nvm. how much rice have i got": the question is dropped.
    let dropped = matches!(
        words.words.first().map(String::as_str),
        Some("nvm" | "nevermind" | "never" | "forget" | "scratch")
    );
    if q.kind != QuestionKind::Open
        || !matches!(classify(&request, Cues::default()), Intent::Vague(_))
        || is_question(words)
        || dropped
        || super::vague::read(words).is_some()
    {
        return None;
    }
    let filled = super::vague::fill(&request, words);
    (!matches!(
        classify(&filled, cues),
        Intent::Unknown | Intent::Vague(_) | Intent::Empty
    ))
    .then_some(filled)
}

/// "hmm actually nvm take it back out" right after "add a squeeze of lime
/// to it": the lines just added come out again.
fn undo_of_last_add(words: &Words, before: &Before) -> Option<Intent> {
    const UNDO: &[&str] = &[
        "take it back out",
        "take that back out",
        "take them back out",
        "take it out again",
        "take that out again",
        "take them out again",
        "undo that",
        "undo it",
        "remove it again",
        "leave it out after all",
    ];
    if !words.has_any(UNDO) {
        return None;
    }
    let Intent::Edit(op) = classify(&Words::new(&before.user), Cues::default()) else {
        return None;
    };
    let names: Vec<String> = op
        .parts()
        .into_iter()
        .filter_map(|p| match p {
            EditOp::Add(items) => Some(items.iter().map(|i| i.name.clone())),
            _ => None,
        })
        .flatten()
        .collect();
    (!names.is_empty()).then_some(Intent::Edit(EditOp::Remove(names)))
}

/// "undo that" right after items went on the shopping list: they come off
/// again. (Only after a removal does it put something back.)
fn undo_of_last_list_add(words: &Words, before: &Before) -> Option<Intent> {
    use super::skills::{Named, SkillAsk, shopping::Ask as Shop};
    const UNDO: &[&str] = &[
        "undo that",
        "undo it",
        "take it back off",
        "take that back off",
        "take them back off",
        "take it off again",
        "take them off again",
        "remove it again",
        "remove them again",
    ];
    if !words.has_any(UNDO) {
        return None;
    }
    let Intent::Skill(SkillAsk::Shopping(Shop::Add { items, .. })) =
        classify(&Words::new(&before.user), Cues::default())
    else {
        return None;
    };
    let named: Vec<Named> = items.iter().map(|i| Named::item(&i.name)).collect();
    (!named.is_empty()).then_some(Intent::Skill(SkillAsk::Shopping(Shop::Remove {
        items: named,
    })))
}

/// "actually nvm put it back" right after items came off the shopping
/// list: those items go back on.
fn put_back(words: &Words, before: &Before) -> Option<Intent> {
    const PUT_BACK: &[&str] = &[
        "put it back",
        "put them back",
        "put that back",
        "put those back",
        "add it back",
        "add them back",
        "add that back",
        "stick it back",
        "undo that",
    ];
    let refs: Vec<String> = before
        .written
        .iter()
        .filter(|r| r.starts_with("shop_"))
        .cloned()
        .collect();
    if !words.has_any(PUT_BACK) || refs.is_empty() {
        return None;
    }
    Some(Intent::Skill(super::skills::SkillAsk::Shopping(
        super::skills::shopping::Ask::PutBack { refs },
    )))
}

/// "ok what about something with chickpeas": a discourse opener ("ok",
/// "hmm", "so") in front of a message is not a "yes" — when the rest reads
/// as something of its own, the rest is the message.
fn without_opener(words: Words, cues: Cues) -> (Words, Intent) {
    let own = classify(&words, cues);
    // "nvm. how much rice have i got": a "never mind" in front of a new
    // request drops what was open, it does not forget what was shown.
    if own == Intent::Memory(MemoryAsk::Forget) {
        let lead = [
            "nvm",
            "nevermind",
            "never mind",
            "forget it",
            "scratch that",
        ]
        .iter()
        .find_map(|p| {
            let n = p.split(' ').count();
            (words.words.len() > n + 1 && words.words[..n].join(" ") == *p).then_some(n)
        });
        if let Some(n) = lead {
            let mut rest = Words::new(&words.words[n..].join(" "));
            rest.question_mark = words.question_mark;
            let then = classify(&rest, cues);
            if !then.says_nothing() && then != Intent::Memory(MemoryAsk::Forget) {
                return (rest, then);
            }
        }
    }
    let weak = matches!(
        own,
        Intent::Talk(TalkAsk::Affirm) | Intent::Talk(TalkAsk::Thanks) | Intent::Unknown
    );
    let openers = [
        "ok", "okay", "hmm", "so", "well", "alright", "right", "cool", "nice", "oh", "yeah", "yep",
    ];
    let skip = words
        .words
        .iter()
        .take_while(|w| openers.contains(&w.as_str()))
        .count();
    if !weak || skip == 0 || skip + 2 > words.words.len() {
        return (words, own);
    }
    let mut rest = Words::new(&words.words[skip..].join(" "));
    rest.question_mark = words.question_mark;
    match classify(&rest, cues) {
        Intent::Talk(TalkAsk::Affirm)
        | Intent::Talk(TalkAsk::Thanks)
        | Intent::Unknown
        | Intent::Talk(TalkAsk::Greeting) => (words, own),
        other => (rest, other),
    }
}

/// Refines the lexical intent with the state: an exclusion whose words are
/// all ingredients of the one recipe in focus is an edit of that recipe, and
/// "remove the wings" while narrowing options is an exclusion.
///
/// With `understand` (Think, Act) the curation already made decides: a
/// demotion means exclusion; a single referenced recipe holding the
/// ingredients means an edit.
pub fn refine(intent: &Intent, world: &World<'_>, understand: Option<&UnderstandOutput>) -> Intent {
    match intent {
        Intent::Exclude(ex) => {
            let terms: Vec<String> = ex.iter().map(|e| e.term.clone()).collect();
            let target = match understand {
                Some(u) if !u.entity_curation.demote.is_empty() => None,
                Some(u) => single_recipe(&u.referenced_entities, world),
                None => focused_recipe(world),
            };
            match target {
                Some(r)
                    if holds_all(world, &r, &terms) && !names_other_recipe(world, &r, &terms) =>
                {
                    Intent::Edit(EditOp::Remove(terms))
                }
                _ => intent.clone(),
            }
        }
        Intent::Edit(EditOp::Remove(names)) => {
            let as_exclusion = match understand {
                Some(u) => !u.entity_curation.demote.is_empty(),
                None => match focused_recipe(world) {
                    Some(r) => !holds_all(world, &r, names) && names_other_recipe(world, &r, names),
                    None => names_other_recipe(world, "", names),
                },
            };
            if as_exclusion {
                Intent::Exclude(
                    names
                        .iter()
                        .map(|n| Exclusion {
                            term: n.clone(),
                            how: Refusal::SaidNo,
                            this_week: false,
                        })
                        .collect(),
                )
            } else {
                intent.clone()
            }
        }
        other => other.clone(),
    }
}

fn single_recipe(refs: &[String], world: &World<'_>) -> Option<String> {
    let recipes: Vec<&String> = refs
        .iter()
        .filter(|r| world.get(r).is_some_and(|e| e.e.table == Table::Recipes))
        .collect();
    (recipes.len() == 1).then(|| recipes[0].clone())
}

/// The one recipe in focus (most recent, made this session).
pub fn focused_recipe(world: &World<'_>) -> Option<String> {
    match focus(world, RECIPES) {
        Resolved::One(r) => Some(r),
        _ => None,
    }
}

fn holds_all(world: &World<'_>, r: &str, terms: &[String]) -> bool {
    let names = world.ingredient_names(r);
    !terms.is_empty()
        && terms.iter().all(|t| {
            let ts = stems(t);
            names.iter().any(|n| {
                let ns = stems(n);
                ts.iter().all(|w| ns.contains(w))
            })
        })
}

fn names_other_recipe(world: &World<'_>, r: &str, terms: &[String]) -> bool {
    terms
        .iter()
        .any(|t| match by_label(world, &Words::new(t).words, RECIPES) {
            Resolved::One(x) => x != r,
            Resolved::Ambiguous(v) => v.iter().any(|x| x != r),
            _ => false,
        })
}

/// What Think and Act decide on, read the same way by both: the world at
/// the turn, the message against the last full exchange, and the intent
/// refined by Understand's output.
pub fn after_understand<'s>(
    message: &str,
    snapshot: &ContextSnapshot,
    state: &'s ContextState,
    understand: &UnderstandOutput,
) -> (World<'s>, Reading, Intent) {
    let world = World::new(state, snapshot.turn.max(state.turn));
    let before = Before::from_turns(state.narrative.recent());
    match Reading::carried(before, understand) {
        Some(reading) => {
            let intent = reading.intent.clone();
            (world, reading, intent)
        }
        None => {
            let reading = Reading::of_state(message, state);
            let intent = effective_intent(&reading, &world, Some(understand));
            (world, reading, intent)
        }
    }
}

/// The intent a node acts on: the reading refined by the state (and, after
/// Understand, by its output); a "yes" becomes what was offered.
pub fn effective_intent(
    reading: &Reading,
    world: &World<'_>,
    understand: Option<&UnderstandOutput>,
) -> Intent {
    if let Intent::Several(parts) = &reading.intent {
        return Intent::Several(
            parts
                .iter()
                .map(|p| super::several::Part {
                    words: p.words.clone(),
                    intent: effective_intent(&reading.part(p), world, understand),
                })
                .collect(),
        );
    }
    if !matches!(reading.intent, Intent::Skill(_))
        && let Some(ask) = super::skills::refine(&reading.words, world, &reading.before)
    {
        return Intent::Skill(ask);
    }
    let refined = refine(&reading.intent, world, understand);
    match refined {
        // "ya that one", "sure the 2nd" over a list just shown: which one
        // is shown, or asked.
        Intent::Talk(TalkAsk::Affirm | TalkAsk::Thanks)
            if !reading.before.presented.is_empty()
                && (super::resolve::ordinal_pick(&reading.words.words).is_some()
                    || reading.words.has_any(&["that one", "this one", "that 1"])) =>
        {
            Intent::Show
        }
        // "ya go on" after one recipe was offered in full: that one.
        Intent::Talk(TalkAsk::Affirm | TalkAsk::Thanks)
            if reading.words.has_any(&[
                "ya", "yes", "yeah", "yep", "sure", "go on", "ok", "okay", "yea", "pls",
            ]) && !reading.cues().offered_save
                && !reading.cues().offered_shopping
                && !reading.cues().proposal
                && reading.before.presented.len() == 1
                && reading.before.presented[0].starts_with("recipe_") =>
        {
            Intent::Show
        }
        // "both sound good" over a list of more than two: which two is
        // asked; over two, both are shown.
        Intent::Unknown | Intent::Talk(TalkAsk::Thanks | TalkAsk::Affirm)
            if reading.words.has("both") && reading.before.listed.len() >= 2 =>
        {
            Intent::Show
        }
        Intent::Talk(TalkAsk::Affirm) if reading.cues().offered_save => Intent::Save,
        Intent::Talk(TalkAsk::Affirm) if reading.cues().offered_shopping => Intent::ShoppingMissing,
        Intent::Talk(TalkAsk::Affirm) if reading.cues().proposal => Intent::ListRecipes,
        Intent::Talk(TalkAsk::Affirm) => Intent::Talk(TalkAsk::Thanks),
        Intent::Unknown if understand.is_some_and(|u| !u.referenced_entities.is_empty()) => {
            Intent::Show
        }
        other => other,
    }
}
