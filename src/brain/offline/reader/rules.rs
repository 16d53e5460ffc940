//! A standing rule, read: what the household does not eat, said as a rule
//! ("no cod this week", "my sister is allergic to peanuts, keep that in
//! mind", "we're vegetarian from now on"). The words are the lexicon's
//! `[rules]`; what is ruled out must be something the closed world knows —
//! a food, family, dish kind, cuisine or diet of the catalogue, or a
//! recipe's name. A reading is made only when every word is accounted for
//! and nothing is asked: a rule is a standing change, never a guess.

use std::ops::Range;

use crate::brain::offline::items::{Exclusion, Refusal};
use crate::context::taxonomy;

use super::Scene;
use super::acts::Act;
use super::grammar::Reading;
use super::lexicon::{Lexicon, Phrase};
use super::link::{Link, Target, phrase_at};
use super::normalize::Normalized;

/// Words that say the kitchen holds or lacks a thing, not that it is
/// ruled out ("we have no eggs", "no milk left", "got none").
const HELD: &[&str] = &[
    "have", "has", "had", "got", "left", "bought", "buy", "need", "needs", "stock", "list",
    "shopping", "fridge", "freezer", "pantry", "plan", "planned", "tonight", "today", "tomorrow",
];

/// Words that ask for something to be found or done: a refusal beside
/// them narrows that request ("anything not spicy i can do in the air
/// fryer"), it states no rule.
const ASKS: &[&str] = &[
    "can",
    "could",
    "do",
    "make",
    "cook",
    "what",
    "which",
    "anything",
    "something",
    "ideas",
    "options",
    "show",
    "find",
    "give",
    "suggest",
    "recipe",
    "recipes",
    "leave",
    "left",
];

/// The rule the range states, when every word of it is read as one.
pub fn rule(
    n: &Normalized,
    words: &[&str],
    links: &[Link],
    lex: &Lexicon,
    scene: &Scene,
    r: Range<usize>,
) -> Option<Reading> {
    let clauses: Vec<usize> = r.clone().map(|k| n.tokens[k].clause).collect();
    // A question states no rule ("is it dairy free?", "can she have nuts?").
    if clauses.iter().any(|c| n.asked.contains(c)) || r.is_empty() {
        return None;
    }
    let rules = &lex.rules;
    let mut out: Vec<Exclusion> = Vec::new();
    let end = r.end;
    let at = |k: usize, list: &[Phrase]| phrase_at(&words[..end], k, list).map(Vec::len);
    // "fish is off the table": what comes before the words is refused.
    let after = r
        .clone()
        .find_map(|k| at(k, &rules.after).map(|len| (k, len)));
    let mut how: Option<Refusal> = after.map(|_| Refusal::SaidNo);
    let mut kept = false;
    let mut loose: Vec<usize> = Vec::new();
    let mut refused_here = after.is_some();
    let mut k = r.start;
    while k < end {
        if let Some((at_k, len)) = after
            && k == at_k
        {
            refused_here = false;
            k += len;
            continue;
        }
        // "no fish, just chicken": what follows is wanted, not refused.
        if let Some(len) = at(k, &rules.wanted) {
            refused_here = false;
            how = None;
            k += len;
            continue;
        }
        // The refusal: what follows is ruled out, until another one.
        let refusal = [
            (&rules.cannot, Refusal::CannotEat),
            (&rules.dislike, Refusal::DoesNotLike),
            (&rules.refuse, Refusal::SaidNo),
        ]
        .into_iter()
        .find_map(|(list, h)| at(k, list).map(|len| (len, h)));
        if let Some((len, h)) = refusal {
            how = Some(h);
            refused_here = true;
            k += len;
            continue;
        }
        // What is ruled out, or a diet kept.
        if let Some((term, len)) = term_at(words, links, k, end) {
            let diet = taxonomy::diet(&term).is_some();
            let refusal = match how {
                Some(h) if refused_here => h,
                // "vegetarian" said with no refusal: the diet is required.
                _ if diet => Refusal::Requires,
                _ => return None,
            };
            if !out.iter().any(|e| e.term == term) {
                out.push(Exclusion {
                    term,
                    how: refusal,
                    this_week: false,
                });
            }
            k += len;
            continue;
        }
        // Joins between terms keep the refusal ("no cod or prawns").
        if matches!(words[k], "and" | "or" | "nor" | "either" | "any" | "with") {
            k += 1;
            continue;
        }
        if let Some(len) = at(k, &rules.keep).or_else(|| at(k, &lex.rule)) {
            kept = true;
            refused_here = false;
            k += len;
            continue;
        }
        if let Some(len) = at(k, &rules.persons)
            .or_else(|| at(k, &lex.spans))
            .or_else(|| at(k, &lex.filler))
            .or_else(|| at(k, &lex.thanks))
        {
            refused_here = refused_here && at(k, &rules.persons).is_none();
            k += len;
            continue;
        }
        let w = words[k];
        if HELD.contains(&w) || ASKS.contains(&w) {
            return None;
        }
        if rules.being.contains(w) || lex.glue.contains(w) || lex.openers.contains(w) {
            k += 1;
            continue;
        }
        // A person's name before what they cannot eat ("sam cant have
        // dairy"): one word, said where a person is, and nothing the
        // kitchen holds.
        let names_before_refusal = out.is_empty()
            && how.is_none()
            && !links.iter().any(|l| l.start <= k && k < l.end)
            && (at(k + 1, &rules.cannot).is_some() || at(k + 1, &rules.dislike).is_some());
        if names_before_refusal {
            k += 1;
            continue;
        }
        // Another request's verb is never a remark.
        if super::grammar::verb_at(words, k, lex) {
            return None;
        }
        loose.push(k);
        k += 1;
    }
    if out.is_empty() {
        return None;
    }
    // Words no rule reads ("priya is coming on saturday", "staying thurs
    // to sun") are a remark about whom it is for only beside someone who
    // cannot eat a thing; a plain refusal must be all there is.
    if !loose.is_empty() && !out.iter().all(|e| e.how == Refusal::CannotEat) {
        return None;
    }
    // A plain "no X" with a question of Alfred's open answers it ("no,
    // the kerala one"), and beside another request says what is lacking
    // ("ugh no eggs. put it on wednesday anyway"), unless it says it is a
    // rule.
    let open = scene.before.dialogue.question.is_some() || scene.before.dialogue.offer.is_some();
    let plain_no = out.iter().all(|e| e.how == Refusal::SaidNo);
    let whole = r.start == 0 && r.end == words.len();
    if (open || !whole) && plain_no && !kept {
        return None;
    }
    let said = words[r.clone()].join(" ");
    let this_week = ["this week", "this weekend", "for the week"]
        .iter()
        .any(|p| said.contains(p));
    for e in &mut out {
        e.this_week = this_week;
    }
    Some(Reading::whole(vec![Act::RuleOut { rules: out }], 0.9))
}

/// True when the words say what the kitchen lacks or holds ("we have no
/// eggs", "no milk left", "we're out of rice, no rice"): a refusal in them
/// is no rule of what is eaten. Only a clause with a refusal in it counts
/// ("no wings tho. which ones are left" says no lack).
pub fn lack_said(message: &str, lex: &Lexicon) -> bool {
    let n = super::normalize::normalize(message, lex, &Default::default());
    let words = n.words();
    let rules = &lex.rules;
    let refusing: Vec<usize> = (0..words.len())
        .filter(|&k| matches!(words[k], "no" | "not" | "none" | "nothing" | "zero"))
        .map(|k| n.tokens[k].clause)
        .collect();
    let mut k = 0;
    while k < words.len() {
        if let Some(p) = phrase_at(&words, k, &rules.cannot)
            .or_else(|| phrase_at(&words, k, &rules.dislike))
            .or_else(|| phrase_at(&words, k, &rules.refuse))
        {
            k += p.len();
            continue;
        }
        let lacks = match words[k] {
            "have" | "has" | "had" | "got" | "left" | "bought" | "stock" => true,
            "out" => words.get(k + 1) == Some(&"of") || k > 0 && words[k - 1] == "ran",
            _ => false,
        };
        let clause = n.tokens[k].clause;
        if lacks && refusing.contains(&clause) && !n.asked.contains(&clause) {
            return true;
        }
        k += 1;
    }
    false
}

/// What the words from `k` rule out, and how many words name it: the
/// longest span that a catalogue's family, food, dish kind, cuisine or
/// diet, or a linked food or recipe, answers.
fn term_at(words: &[&str], links: &[Link], k: usize, end: usize) -> Option<(String, usize)> {
    let known = |t: &str| {
        let one = taxonomy::singular(t);
        [t, one.as_str()].iter().any(|t| {
            taxonomy::is_family(t)
                || taxonomy::is_known_ingredient(t)
                || taxonomy::cuisine(t).is_some()
                || taxonomy::dish_kind(t).is_some()
                || taxonomy::diet(t).is_some()
        })
    };
    // A linked food or recipe starting here, as far as it goes.
    let linked = links
        .iter()
        .filter(|l| l.start == k && l.end <= end)
        .filter(|l| {
            l.targets
                .iter()
                .any(|t| matches!(t, Target::Food(_) | Target::Recipe(_)))
        })
        .map(|l| l.end - l.start)
        .max();
    let by_name = (1..=(end - k).min(4))
        .rev()
        .find(|len| known(&words[k..k + len].join(" ")));
    let len = match (linked, by_name) {
        (Some(a), Some(b)) => a.max(b),
        (a, b) => a.or(b)?,
    };
    Some((words[k..k + len].join(" "), len))
}
