//! The safety invariant: the kitchen is written only when the message asks
//! for a change in words (add, remove, save, swap, mark, put … on, bought,
//! used up), or says a plain "yes" to a change Alfred offered or asked to
//! confirm. A question never writes, nor does a hedge ("not sure about
//! saving yet"). When a plan would write without that, Think asks instead.
//!
//! Lexical and state-free, like the lexicon.

use super::reading::Reading;
use super::text::{Words, find, find_any, number};

/// Words and phrases that ask for a change to the kitchen.
#[rustfmt::skip]
const CHANGE: &[&str] = &[
    "add", "adding", "undo", "put", "stick", "pop", "throw in", "toss in", "remove", "take off",
    "take out", "take away", "delete", "get rid", "bin", "chuck", "save", "keep it", "keep that",
    "keep this", "keep them", "keep both", "store it", "swap", "replace", "switch", "change",
    "move", "make it", "make sunday", "make monday", "make tuesday", "make wednesday",
    "make thursday", "make friday", "make saturday", "mark", "tick", "cross off", "check off",
    "done with", "finished", "completed", "bought", "picked up", "used", "use up", "ate",
    "out of", "ran out", "run out", "clear", "empty", "wipe", "plan", "schedule", "update",
    "edit", "rename", "double", "halve", "scale", "increase", "reduce", "lets do", "let's do",
    "go with", "set", "assign", "include", "drop", "buy", "need", "take", "off the list",
    "off my list", "from the list", "from my list", "remind", "make the", "reschedule",
    "push it", "cancel", "finished with", "did the", "one for", "using", "usin", "binned",
    "tossed", "threw out", "throw out", "chucked", "polished off", "instead", "insted",
    "less spicy", "milder", "spicier", "throw", "bung", "serve", "for 4", "for 6",
    "cooked with", "drank", "went through", "got through", "grabbed", "made", "cooked",
    "make that", "make them", "i meant", "should be", "should have been",
    "got the", "got everything", "got all", "got both", "come off", "can go", "done the",
    "thats done", "its done", "is done", "finish the", "is finish", "are finish", "finish it",
    "dont let me forget", "remember to", "moved", "froze", "freeze", "took", "shifted", "shift",
    "stuck", "popped", "ticked", "checked off", "cross it off", "cross that off", "one done",
    "cleaned", "descaled", "is gone", "are gone", "all gone", "used up",
];

/// Words that hold a change back: the user is not asking for it yet.
/// ("nvm" is not one: "actually nvm, take it back out" takes back the last
/// change by asking for another.)
#[rustfmt::skip]
const HEDGES: &[&str] = &[
    "not sure", "dont", "do not", "not yet", "hold off", "no need", "not now", "maybe later",
    "wait on", "maybe", "i think", "probably", "might need", "might have to",
];

/// Words that start a question asking for information, not a change.
#[rustfmt::skip]
const ASKING: &[&str] = &[
    "what", "whats", "which", "how", "hows", "when", "where", "why", "who", "is", "are",
    "does", "did", "should", "have", "has", "am",
];

/// Words a plain "yes" is made of.
#[rustfmt::skip]
const CONSENT: &[&str] = &[
    "yes", "yeah", "yea", "yep", "yup", "sure", "ok", "okay", "k", "go", "ahead", "do", "it",
    "please", "pls", "plz", "sounds", "good", "great", "absolutely", "lets", "alright",
    "looks", "for", "definitely", "of", "course", "why", "not", "that", "thats", "fine",
    "perfect", "yes,", "y", "deal", "cool", "right", "ya", "mhm", "sounds", "lovely",
];

/// Discourse words skipped before the first real word.
const OPENERS: &[&str] = &[
    "ok", "okay", "oh", "hmm", "um", "so", "well", "wait", "and", "but", "right", "alright",
    "cool", "nice", "great", "hey", "actually", "also", "then",
];

/// The first word that is not an opener.
fn first_real(w: &Words) -> Option<&str> {
    w.words
        .iter()
        .map(String::as_str)
        .find(|x| !OPENERS.contains(x))
}

/// A question asking for information ("how much rice have i got", "should
/// i save it?", "what about something with chickpeas") — not a request
/// phrased as one ("can you add eggs?").
pub fn asks_information(w: &Words) -> bool {
    let first = first_real(w);
    let request = matches!(
        first,
        Some("can" | "could" | "will" | "would" | "please" | "pls")
    ) && w.has_any(&["you", "u"]);
    if request {
        return false;
    }
    first.is_some_and(|f| ASKING.contains(&f) || f == "do" && w.has_any(&["do i", "do we"]))
        || (w.question_mark && !matches!(first, Some("can" | "could" | "will" | "would")))
}

/// "got 6 eggs", "grabbed a bag of rice": got only counts with an amount.
fn got_something(w: &Words) -> bool {
    ["got", "grabbed", "picked"].iter().any(|verb| {
        w.words.iter().enumerate().any(|(i, x)| {
            x == verb
                && w.words.get(i + 1).is_some_and(|next| {
                    number(next).is_some() || matches!(next.as_str(), "a" | "an" | "some" | "more")
                })
        })
    })
}

/// True when the words ask something of their own — a question mark, or a
/// question word first ("wait how long…", "can you…") — and so are not
/// the answer to a question of Alfred's.
pub fn is_question(w: &Words) -> bool {
    w.question_mark
        || first_real(w)
            .is_some_and(|f| ASKING.contains(&f) || matches!(f, "do" | "can" | "could" | "would"))
}

/// True when any clause opens as a question ("nah thats it. is the
/// paneer task done or no").
pub fn a_clause_asks(w: &Words) -> bool {
    is_question(w)
        || w.segments.iter().any(|s| {
            s.first()
                .is_some_and(|f| ASKING.contains(&f.as_str()) || matches!(f.as_str(), "was" | "do"))
        })
}

/// True when the words ask for a change to the kitchen.
pub fn asks_for_change(w: &Words) -> bool {
    if asks_information(w) {
        return false;
    }
    let Some((at, _)) = find_any(&w.words, CHANGE) else {
        return got_something(w);
    };
    // A hedge holds back the change it comes before ("not sure about
    // saving yet"), not one already asked for ("take it off, dont need
    // it").
    // A change that starts with a hedge's word ("dont let me forget to …")
    // is not held back by it.
    // "we need more rice maybe": a hedge at the end holds it back too.
    let trailing = w
        .words
        .last()
        .is_some_and(|x| x == "maybe" || x == "probably");
    !trailing && find_any(&w.words, HEDGES).is_none_or(|(hedge, _)| hedge >= at)
}

/// True when the message is only a "yes" ("sure, go ahead", "yes pls").
pub fn is_bare_consent(w: &Words) -> bool {
    !w.is_empty()
        && w.words.len() <= 6
        && find(&w.words, "not").is_none_or(|_| w.has_any(&["why not"]))
        && w.words.iter().all(|x| CONSENT.contains(&x.as_str()))
}

/// True when the message is a "yes" that only says to go on and do it
/// ("ok yeah chuck some in", "go on then, add them").
pub fn is_consent_to_do(w: &Words) -> bool {
    const DOING: &[&str] = &[
        "chuck", "add", "throw", "pop", "put", "stick", "bung", "some", "them", "in", "on", "then",
        "go", "those", "a", "few", "bit", "swap", "make", "one", "version", "that", "it", "do",
    ];
    !w.is_empty()
        && w.words.len() <= 8
        && w.words
            .iter()
            .any(|x| CONSENT.contains(&x.as_str()) && !DOING.contains(&x.as_str()))
        && w.words
            .iter()
            .all(|x| CONSENT.contains(&x.as_str()) || DOING.contains(&x.as_str()))
}

/// True when this turn may write to the kitchen: the request asks for a
/// change in words, or the message is a plain "yes" to what Alfred offered
/// or asked to confirm.
pub fn permits_write(r: &Reading) -> bool {
    if r.confirmed {
        return true;
    }
    // The reader saw a negation, a hedge or a question in the words.
    if r.unsure {
        return false;
    }
    let own = r.answer.as_ref().unwrap_or(&r.words);
    let cues = r.cues();
    let offered = cues.offered_save || cues.offered_shopping;
    // "the tikka ones on sunday then": a recipe named for a day is an
    // assignment in words, whatever the verb.
    let assigns = matches!(
        r.intent,
        super::lexicon::Intent::Skill(super::skills::SkillAsk::Planning(
            super::skills::planning::Ask::Put { .. }
        ))
    ) && !asks_information(&r.words);
    // "about 500g" after "… how much did you use?", "the paneer" after
    // "200 g of what?": the answer completes a change asked for in words.
    let completes = matches!(
        r.intent,
        super::lexicon::Intent::Skill(super::skills::SkillAsk::Stock(
            super::skills::stock::Ask::Use { .. }
        ))
    ) && r
        .before
        .dialogue
        .question
        .as_ref()
        .is_some_and(|q| asks_for_change(&Words::new(&q.request)))
        && !is_question(&r.words);
    // "scrubbed the air fryer basket", "paneer one done": a task named by
    // its words and reported done is ticked off, as asked.
    let reports_done = matches!(
        &r.intent,
        super::lexicon::Intent::Skill(super::skills::SkillAsk::Tasks(
            super::skills::tasks::Ask::Done { about }
        )) if !about.is_empty()
    ) && !a_clause_asks(&r.words)
        && !super::link::denies_done(&r.words);
    asks_for_change(&r.words)
        || assigns
        || completes
        || reports_done
        || (offered && is_bare_consent(own))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(s: &str) -> bool {
        asks_for_change(&Words::new(s))
    }

    #[test]
    fn requests_for_a_change_in_words() {
        for s in [
            "add 12 eggs to my fridge",
            "can you put lentils on the shopping list?",
            "save it",
            "swap wednesday to the chicken tikka bites",
            "mark the air fryer one done",
            "we ran out of milk",
            "got 6 eggs",
            "take tomatoes off the list pls",
            "put the paneer on friday",
        ] {
            assert!(change(s), "{s}");
        }
    }

    #[test]
    fn questions_hedges_and_chatter_ask_for_nothing() {
        for s in [
            "how much rice have i got",
            "which chicken have i got in the freezer",
            "just got back from the shops",
            "should i save it?",
            "is it saved?",
            "hmm not sure about saving either of them yet",
            "ok what about somethin with chikpeas",
            "wait how long does the third one take?",
            "what would you add to it?",
            "do i have eggs",
            "dont save it yet",
        ] {
            assert!(!change(s), "{s}");
        }
    }

    #[test]
    fn a_bare_yes_is_only_yes() {
        for s in [
            "yes",
            "sure go ahead",
            "yep pls",
            "ok",
            "sounds good",
            "why not",
        ] {
            assert!(is_bare_consent(&Words::new(s)), "{s}");
        }
        for s in [
            "ok what about chickpeas",
            "not yet",
            "yes but the other one",
            "",
        ] {
            assert!(!is_bare_consent(&Words::new(s)), "{s}");
        }
    }
}
