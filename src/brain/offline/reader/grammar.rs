//! Stage 3, read: the grammar's frames (`assets/lexicon.toml`) matched over
//! the linked spans, yielding every reading with its score. A reading's
//! **coverage** is the share of the message's content words it explains —
//! by its verb, its slots, its domain, a day or meal, a reason — and words
//! it cannot explain are kept as `unread`. A message of several requests
//! is read part by part; the reading that explains more wins.

use std::ops::Range;

use super::Scene;
use super::acts::{Act, ActKind, ItemSaid};
use super::lexicon::{Frame, Lexicon, Need, Phrase};
use super::link::{Link, Pointer, Target, phrase_at};
use super::normalize::Normalized;

/// A slot the message fills with more than one thing.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// What is to be chosen: "recipe", "item", "day".
    pub what: &'static str,
    pub options: Vec<String>,
}

/// One way to read a message (or one part of it).
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub acts: Vec<Act>,
    /// Explained content words ÷ content words.
    pub coverage: f64,
    pub score: f64,
    /// Content words no part of the reading explains.
    pub unread: Vec<String>,
    /// A change that reaches every row.
    pub bulk: bool,
    /// A write put as a question ("did i add eggs?").
    pub asking: bool,
    /// A slot the words leave open between candidates.
    pub choice: Option<Choice>,
    /// Why the words leave the act itself in doubt.
    pub unsure: Option<Unsure>,
    /// Another request's verb said and not read ("we're out of milk, add
    /// it to the list" read as the add alone).
    pub drops: bool,
    /// Every word left unread is a remark beside the request ("mum says",
    /// "i have plenty", "for soup"): no verb, name, amount, negation,
    /// hedge or correction, and none said beside a thing the request names.
    pub idle: bool,
    /// A question said beside the request that no frame reads ("… can i
    /// skip the chili powder"): the request is carried out and the reply
    /// says this was left unanswered.
    pub unanswered: Option<String>,
}

/// Why a reading that covers the message may still not be what was meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsure {
    /// A verb as common as "add" or "put" with no word of its domain:
    /// the list, the plan or the stock?
    Loose,
    /// A row named whole in two places and no domain word ("take yogurt
    /// off": the list's or the stock's?).
    Crossed,
    /// Foods said as bought that the shopping list holds ("got the basil
    /// and 4 tomatoes"): into the stock, or ticked off the list?
    OnList,
    /// Two or more dishes put on days said apart from them ("do both, one
    /// wed one sun"): paired in the order said, a guess to confirm.
    Paired,
}

impl Reading {
    /// A reading that explains every word: these acts, at this score.
    pub fn whole(acts: Vec<Act>, score: f64) -> Reading {
        Reading {
            acts,
            coverage: 1.0,
            score,
            unread: Vec::new(),
            bulk: false,
            asking: false,
            choice: None,
            unsure: None,
            drops: false,
            idle: true,
            unanswered: None,
        }
    }

    /// True when any act writes.
    pub fn writes(&self) -> bool {
        self.acts.iter().any(Act::writes)
    }
}

/// Every reading of the message, best first.
pub fn readings(n: &Normalized, links: &[Link], lex: &Lexicon, scene: &Scene) -> Vec<Reading> {
    let words = n.words();
    let whole = 0..words.len();
    let aside = asides(&words, n, links, lex);
    // The words inside a request's verb said from an earlier word ("whats
    // planned"), found once for the message when a reading asks.
    let inside_verb = std::cell::OnceCell::new();
    let at = At {
        n,
        words: &words,
        links,
        lex,
        scene,
        aside: &aside,
        inside_verb: &inside_verb,
        it_recipe: None,
    };
    let mut out = read_range(&at, whole.clone());
    out.extend(task_list(&at));
    let parts: Vec<Range<usize>> = parts(&words, n, lex)
        .into_iter()
        .filter(|r| !aside[r.start])
        .collect();
    if parts.len() > 1 {
        let mut each: Vec<Vec<Reading>> = parts
            .iter()
            .map(|r| {
                // The one recipe the parts before this one name.
                let mut named: Vec<String> = Vec::new();
                for l in links.iter().filter(|l| l.end <= r.start) {
                    if let Some(Target::Recipe(names)) = l.targets.first()
                        && names.len() == 1
                        && !named.contains(&names[0])
                    {
                        named.push(names[0].clone());
                    }
                }
                let part_at = At {
                    n: at.n,
                    words: at.words,
                    links: at.links,
                    lex: at.lex,
                    scene: at.scene,
                    aside: at.aside,
                    inside_verb: at.inside_verb,
                    it_recipe: (named.len() == 1).then(|| named[0].clone()),
                };
                read_range(&part_at, r.clone())
            })
            .collect();
        // "friday the kerala curry, make it 4": a part that only says how
        // many the part before is for is read with it.
        for i in 1..parts.len() {
            // ("…, 4 servings each": every dish's, read by the whole.)
            let every = parts[i]
                .clone()
                .any(|k| matches!(words[k], "each" | "apiece" | "both" | "all"));
            let Some(before) = each[i - 1].first().filter(|_| !every) else {
                continue;
            };
            let mut with = before.clone();
            if servings_for(&at, &parts[i], &mut with) {
                let score = with.score;
                each[i - 1][0] = with;
                each[i] = vec![Reading::whole(Vec::new(), score)];
            }
        }
        // "saturday lunch - no, dinner": what is taken back is not read,
        // and no reading that still holds it stands beside this one.
        let takes_back = parts.iter().skip(1).any(|p| {
            retract_marker(&words, p, lex).is_some() && !p.clone().any(|k| ADDS.contains(&words[k]))
        });
        if let Some(amended) = taken_back(&at, &parts, &each) {
            for r in &mut out {
                r.score *= 0.5;
            }
            out.push(amended);
        } else if takes_back {
            // A message that takes back part of itself in a way not read
            // is never carried out whole: what it took back would be done
            // too ("saturday lunch - no, dinner" planned twice).
            for r in &mut out {
                r.coverage = r.coverage.min(0.7);
                r.score = r.score.min(0.5);
            }
        } else if each.iter().all(|v| !v.is_empty()) {
            out.push(joined(
                &each.iter().map(|v| &v[0]).collect::<Vec<_>>(),
                &words,
                &parts,
                lex,
            ));
            out.extend(beside_a_question(&at, &parts, &each));
        } else {
            // A part that reads as nothing on its own, left unexplained by
            // a reading of the whole, is a request that reading would drop.
            let unread_parts: Vec<&Range<usize>> = parts
                .iter()
                .zip(&each)
                .filter(|(_, v)| v.is_empty())
                .map(|(r, _)| r)
                .collect();
            for r in &mut out {
                let drops = unread_parts
                    .iter()
                    .any(|p| (p.start..p.end).any(|k| r.unread.iter().any(|u| u == words[k])));
                if drops {
                    r.coverage = r.coverage.min(0.7);
                    r.score = r.score.min(0.5);
                }
            }
            out.extend(beside_a_question(&at, &parts, &each));
        }
    }
    // "and another 100g": amounts of one food said apart add up;
    // otherwise the last one said stands ("2 limes … 3 limes").
    let adds_up = words
        .iter()
        .any(|w| matches!(*w, "another" | "more" | "extra" | "plus" | "again"));
    // The week the talk is about, read from the last messages only when
    // a reading plans.
    let plans = out
        .iter()
        .any(|r| r.acts.iter().any(|a| matches!(a, Act::PlanPut { .. })));
    // ("planning next week's dinners: mon …": the week said in this
    // message comes first.)
    let said = words.join(" ");
    let next_said = ["next week", "coming week", "week ahead", "the week after"]
        .iter()
        .any(|p| said.contains(p));
    let week = if plans && next_said {
        Some("next_monday".to_string())
    } else {
        plans.then(|| week_in_talk(scene, lex)).flatten()
    };
    for r in &mut out {
        said_once(&mut r.acts, adds_up);
        days_in_order(&mut r.acts, week.as_deref());
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

/// The days of a message's plan puts, read in the order said across its
/// parts ("next wed the curry, thu the tikka": the Thursday after) and in
/// the week the talk is about.
fn days_in_order(acts: &mut [Act], week: Option<&str>) {
    let said: Vec<String> = acts
        .iter()
        .filter_map(|a| match a {
            Act::PlanPut { days, .. } => Some(days.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    let mut ordered = after_anchor(&said, week).into_iter();
    for a in acts.iter_mut() {
        if let Act::PlanPut { days, .. } = a {
            for d in days.iter_mut() {
                if let Some(o) = ordered.next() {
                    *d = o;
                }
            }
        }
    }
}

/// "paneer one, stick it on for tonight. … can i skip the chili powder": a
/// request read whole in its own parts, beside a question no frame reads
/// that names no day or recipe and asks for no change of its own, is the
/// request, carried out; the question is said back as left unanswered.
fn beside_a_question(at: &At, parts: &[Range<usize>], each: &[Vec<Reading>]) -> Option<Reading> {
    let (words, n, lex) = (at.words, at.n, at.lex);
    let mut read: Vec<&Reading> = Vec::new();
    let mut read_parts: Vec<Range<usize>> = Vec::new();
    let mut asked: Vec<String> = Vec::new();
    for (p, readings) in parts.iter().zip(each) {
        match readings
            .first()
            .filter(|r| r.coverage >= super::decide::CONFIRM_COVERAGE)
        {
            Some(r) => {
                read.push(r);
                read_parts.push(p.clone());
            }
            // "paneer one, stick it on for tonight": the recipe said first
            // is what the next part's "it" stands for.
            None if topic_only(at, p) => {}
            None => {
                let names = at.links.iter().any(|l| {
                    l.start < p.end
                        && l.end > p.start
                        && matches!(
                            l.targets.first(),
                            Some(Target::Day(_) | Target::Recipe(_) | Target::Meal(_))
                        )
                });
                let changes = p.clone().any(|k| verb_of_at(words, k, lex, |f| f.writes));
                // "… tho can i skip the chili powder": a question opening
                // the part or one of its clauses.
                let question = asks(words, p.clone(), n, lex)
                    || p.clone().any(|k| {
                        let opens = k == p.start
                            || n.tokens[k].clause != n.tokens[k - 1].clause
                            || matches!(
                                words[k - 1],
                                "tho" | "though" | "but" | "and" | "so" | "also" | "or" | "then"
                            );
                        opens
                            && phrase_at(words, k, &lex.asking).is_some_and(|ph| {
                                ph.len() >= 2
                                    || matches!(
                                        words[k],
                                        "what" | "whats" | "how" | "why" | "which"
                                    )
                            })
                    });
                // "… is that enough?": a doubt about the request's own
                // amount.
                let amount = p.clone().any(|k| {
                    matches!(
                        words[k],
                        "enough" | "more" | "less" | "much" | "many" | "fewer"
                    )
                });
                if names || changes || amount || !question {
                    return None;
                }
                asked.push(words[p.clone()].join(" "));
            }
        }
    }
    let whole = read.iter().all(|r| {
        r.coverage >= super::decide::DO_COVERAGE
            && r.writes()
            && r.choice.is_none()
            && r.unsure.is_none()
            && !r.asking
    });
    if asked.is_empty() || read.is_empty() || !whole {
        return None;
    }
    let mut r = joined(&read, words, &read_parts, lex);
    r.unanswered = Some(asked.join(" … "));
    Some(r)
}

/// A part that only names one saved recipe ("paneer one,"), said before
/// the request that points at it.
fn topic_only(at: &At, p: &Range<usize>) -> bool {
    let recipe = at.links.iter().find(|l| {
        p.start <= l.start
            && l.end <= p.end
            && matches!(l.targets.first(), Some(Target::Recipe(names)) if names.len() == 1)
    });
    recipe.is_some_and(|l| {
        p.clone()
            .all(|k| (l.start..l.end).contains(&k) || at.lex.glue.contains(at.words[k]))
    })
}

/// What every frame reads a range against: the message, its links, the
/// lexicon, the scene, and which words are asides.
struct At<'a> {
    n: &'a Normalized,
    words: &'a [&'a str],
    links: &'a [Link],
    lex: &'a Lexicon,
    scene: &'a Scene<'a>,
    aside: &'a [bool],
    /// Words inside a request's verb that starts at an earlier word.
    inside_verb: &'a std::cell::OnceCell<Vec<bool>>,
    /// What "it" stands for when an earlier part of the message names one
    /// recipe.
    it_recipe: Option<String>,
}

/// The words of the message's asides: a clause beside a request that names
/// nothing the kitchen or the talk holds, has no request's verb, no
/// negation, hedge or correction, asks nothing and opens with no joiner
/// ("doing a big reshuffle. move the ginger …", "… mum said i could"). An
/// aside is neither read nor counted against a reading's coverage.
fn asides(words: &[&str], n: &Normalized, links: &[Link], lex: &Lexicon) -> Vec<bool> {
    let mut out = purposes(words, n, links, lex);
    let parts = parts(words, n, lex);
    if parts.len() < 2 {
        return out;
    }
    for r in &parts {
        // "it slapped": a word standing for what was said names nothing new.
        let linked = links.iter().any(|l| {
            l.start < r.end
                && l.end > r.start
                && !matches!(l.targets.first(), Some(Target::Pointer(Pointer::It)))
        });
        // "done." said on its own before the request: a remark.
        let content: Vec<usize> = (r.start..r.end)
            .filter(|&k| !lex.glue.contains(words[k]))
            .collect();
        let any_link = links.iter().any(|l| l.start < r.end && l.end > r.start);
        let lone_verb =
            r.start == 0 && content.len() == 1 && verb_at(words, content[0], lex) && !any_link;
        let opens_joined = matches!(
            words[r.start],
            "and" | "also" | "plus" | "then" | "can" | "could" | "would" | "please" | "pls"
        );
        let marked = (r.start..r.end).any(|k| {
            verb_at(words, k, lex) && !lone_verb
                || lex.negation.contains(words[k])
                || lex.hedge.contains(words[k])
                || phrase_at(words, k, &lex.correction).is_some()
                || phrase_at(words, k, &lex.polite).is_some()
                // "…, nvm": a take-back is no remark; nor "…, just me",
                // who it is for.
                || phrase_at(words, k, &lex.retract).is_some()
                || phrase_at(words, k, &lex.no).is_some()
                || matches!(words[k], "me" | "myself")
                || words[k].chars().any(|c| c.is_ascii_digit())
                || matches!(words[k], "double" | "triple" | "twice" | "halve" | "half")
        });
        if !linked && !opens_joined && !marked && !asks(words, r.clone(), n, lex) {
            out[r.clone()].fill(true);
        }
        if reason_beside(words, r, &parts, links, lex) && !asks(words, r.clone(), n, lex) {
            out[r.clone()].fill(true);
        }
        // "Friday I'm out.": a clause that only says when the user is away.
        let inside: Vec<&Link> = links
            .iter()
            .filter(|l| l.start < r.end && l.end > r.start)
            .collect();
        let away_only = r.clone().any(|k| away(words[k]))
            && inside
                .iter()
                .any(|l| matches!(l.targets.first(), Some(Target::Day(_))))
            && inside.iter().all(|l| match l.targets.first() {
                Some(Target::Day(_) | Target::Meal(_)) => ruled_out(words, l, n, lex),
                Some(Target::Reason) => true,
                _ => false,
            })
            && !r.clone().any(|k| verb_at(words, k, lex));
        if away_only {
            out[r.clone()].fill(true);
        }
        // "ill marinate it tonight": what the user will do themselves,
        // with a verb no request has, asks nothing of Alfred; nor "ill get
        // them tomorrow", naming nothing new.
        let names_nothing = !inside.iter().any(|l| {
            l.targets
                .first()
                .is_some_and(|t| t.names() || matches!(t, Target::Domain(_)))
        });
        // "ill just use veg oil": a food the kitchen does not hold, named
        // in what the user will do instead, is no row of a request.
        let names_no_row = !inside.iter().any(|l| {
            l.targets.first().is_some_and(|t| {
                matches!(
                    t,
                    Target::Stocked(_)
                        | Target::Listed(_)
                        | Target::Recipe(_)
                        | Target::Task(_)
                        | Target::Domain(_)
                        | Target::Day(_)
                        | Target::Amount(..)
                        | Target::AmountAfter(..)
                )
            })
        });
        let only_pointers = inside.iter().all(|l| {
            matches!(
                l.targets.first(),
                Some(Target::Pointer(_) | Target::Negation | Target::Hedge | Target::Reason)
            )
        });
        // "ill just use the veg oil": a row the kitchen holds, named in
        // what the user will do with it themselves (not what they will
        // need, buy or have put somewhere), is their plan, not a request.
        let rows_only = inside.iter().all(|l| {
            matches!(
                l.targets.first(),
                Some(
                    Target::Stocked(_)
                        | Target::Food(_)
                        | Target::Pointer(_)
                        | Target::Negation
                        | Target::Hedge
                        | Target::Reason
                )
            )
        });
        let for_alfred = r.clone().any(|k| {
            matches!(
                words[k],
                "need" | "buy" | "get" | "add" | "put" | "grab" | "pick" | "order" | "want"
            )
        });
        if (intends(words, r.clone(), lex)
            || (names_nothing || names_no_row || rows_only && !for_alfred)
                && will_do(words, r.clone(), lex)
            || habit(words, r.clone(), lex) && only_pointers)
            && !asks(words, r.clone(), n, lex)
        {
            out[r.clone()].fill(true);
        }
    }
    // A message that is all asides has none: it is read as it is.
    if out.iter().all(|a| *a) {
        out.fill(false);
    }
    out
}

/// The words of a clause giving a request's purpose or cause, said after
/// the request in the same sentence ("add 2 cans of coconut milk to the
/// list so im not left with nothing", "bin the coriander cause its
/// slime"): from the purpose word to the clause's end, when a request's
/// verb comes before it and the clause has a subject of its own, no verb
/// with something named after it, and no take-back or correction.
fn purposes(words: &[&str], n: &Normalized, links: &[Link], lex: &Lexicon) -> Vec<bool> {
    let mut out = vec![false; words.len()];
    let subject = |w: &str| {
        matches!(
            w,
            "i" | "im"
                | "ill"
                | "id"
                | "ive"
                | "we"
                | "were"
                | "well"
                | "weve"
                | "you"
                | "youre"
                | "it"
                | "its"
                | "itll"
                | "theres"
                | "there"
                | "they"
                | "theyre"
                | "he"
                | "hes"
                | "she"
                | "shes"
                | "the"
                | "my"
                | "our"
                | "that"
                | "thats"
                | "nobody"
                | "no"
                | "none"
                | "everyone"
        )
    };
    let mut k = 1;
    while k < words.len() {
        let Some(p) = phrase_at(words, k, &lex.purpose) else {
            k += 1;
            continue;
        };
        let clause = n.tokens[k].clause;
        let end = (k..words.len())
            .find(|&j| n.tokens[j].clause != clause)
            .unwrap_or(words.len());
        let open = k + p.len();
        let requested = (0..k).any(|j| verb_at(words, j, lex));
        // ("… because i need to remove the limes" asks for more: a verb
        // with something named after it.)
        let asks_more = |j: usize| {
            verb_at(words, j, lex)
                && links.iter().any(|l| {
                    l.start > j && l.start <= j + 3 && l.targets.first().is_some_and(|t| t.names())
                })
        };
        let plain = (open..end).all(|j| {
            !asks_more(j)
                && !retracts_at(words, j, lex)
                && phrase_at(words, j, &lex.correction)
                    .is_none_or(|c| c.len() == 1 && c[0] == "not")
        });
        if requested && open < end && subject(words[open]) && plain {
            out[k..end].fill(true);
            k = end;
        } else {
            k += 1;
        }
    }
    out
}

/// True when the words around a day or a meal rule it out: a negation or
/// "instead of" / "rather than" just before it ("not friday", "lunch
/// instead of dinner"), or a clause that only says the user is away then
/// ("Friday I'm out").
fn ruled_out(words: &[&str], l: &Link, n: &Normalized, lex: &Lexicon) -> bool {
    let clause = |k: usize| n.tokens[k].clause;
    let before = |k: usize| k < l.start && clause(k) == clause(l.start);
    // "no sorry sunday": a "no" opening a take-back refuses nothing.
    let takes_back = |k: usize| phrase_at(words, k, &lex.retract).is_some_and(|p| p.len() > 1);
    let negated = (l.start.saturating_sub(2)..l.start)
        .any(|k| before(k) && lex.negation.contains(words[k]) && !takes_back(k));
    // "we're out sunday night", "im away friday".
    let gone = (l.start.saturating_sub(2)..l.start).any(|k| {
        k >= 1
            && before(k - 1)
            && away(words[k])
            && matches!(words[k - 1], "were" | "im" | "we" | "i" | "am" | "are")
    });
    let instead = l.start >= 2
        && before(l.start - 2)
        && matches!(
            (words[l.start - 2], words[l.start - 1]),
            ("instead", "of") | ("rather", "than")
        );
    if negated || gone || instead {
        return true;
    }
    // The rest of the day's clause says only that the user is away.
    let mut said_away = false;
    for k in
        (0..words.len()).filter(|&k| clause(k) == clause(l.start) && (k < l.start || k >= l.end))
    {
        match words[k] {
            w if away(w) => said_away = true,
            "i" | "im" | "we" | "were" | "am" | "are" | "ill" | "be" | "will" | "working"
            | "eating" | "so" | "then" | "on" | "all" | "day" | "night" | "both" | "and"
            | "the" => {}
            _ => return false,
        }
    }
    said_away
}

/// A word saying the user is not there ("im out", "away friday").
fn away(w: &str) -> bool {
    matches!(w, "out" | "away" | "busy")
}

/// True when the part, said after a request, only gives its reason: no
/// request's verb, nothing named but a place or what the request named
/// ("them"), no correction or hedge, no amount, and a negation only of a
/// word no request has ("take the thai basil off the list, cant afford fancy
/// herbs"; "remove the curry leaves; the shop never has them"). "add eggs,
/// actually dont" and "no wait, milk" stay read.
fn reason_beside(
    words: &[&str],
    r: &Range<usize>,
    parts: &[Range<usize>],
    links: &[Link],
    lex: &Lexicon,
) -> bool {
    let requested = parts
        .iter()
        .take_while(|p| p.start < r.start)
        .any(|p| p.clone().any(|k| verb_at(words, k, lex)));
    let names = links.iter().any(|l| {
        l.start < r.end
            && l.end > r.start
            && !matches!(
                l.targets.first(),
                Some(Target::Pointer(_) | Target::Domain(_) | Target::Negation | Target::Reason)
            )
    });
    let content = r.clone().filter(|&k| !lex.glue.contains(words[k])).count();
    let negation_of_request = r.clone().any(|k| {
        lex.negation.contains(words[k])
            && (k + 1 >= r.end || (k + 1..(k + 4).min(r.end)).any(|j| verb_at(words, j, lex)))
    });
    let marked = r.clone().any(|k| {
        verb_at(words, k, lex)
            || lex.hedge.contains(words[k])
            || phrase_at(words, k, &lex.retract).is_some()
            || phrase_at(words, k, &lex.rule).is_some()
            || words[k].chars().any(|c| c.is_ascii_digit())
    }) || phrase_at(words, r.start, &lex.correction).is_some();
    requested && !names && content >= 2 && !negation_of_request && !marked
}

/// True when the two words before `k` say the stock is low, not gone
/// ("nearly out of", "running out of").
fn low_not_gone(words: &[&str], k: usize) -> bool {
    (k.saturating_sub(2)..k).any(|j| {
        matches!(
            words[j],
            "nearly" | "almost" | "running" | "practically" | "getting"
        )
    })
}

/// True when the range opens with the user saying what they will do or
/// did ("ill marinate it tonight", "i cooked it last night") and no word
/// in it is a request's verb.
fn intends(words: &[&str], r: Range<usize>, lex: &Lexicon) -> bool {
    let said = after_openers(words, r.clone(), lex);
    // "i cooked it last night": what the user did, beside the request.
    let did = matches!(said.as_slice(), ["i", w, ..] if w.len() > 4 && w.ends_with("ed"));
    (opens_with_will(&said) || did) && !r.clone().any(|k| verb_at(words, k, lex))
}

/// The range's words after the openers it starts with.
fn after_openers<'w>(words: &[&'w str], r: Range<usize>, lex: &Lexicon) -> Vec<&'w str> {
    words[r]
        .iter()
        .copied()
        .skip_while(|w| lex.openers.contains(*w))
        .collect()
}

/// "ill …", "i will …", "im going to …": what the user will do.
fn opens_with_will(said: &[&str]) -> bool {
    matches!(
        said,
        ["ill", ..] | ["i", "will", ..] | ["im", "going", "to", ..] | ["im", "gonna", ..]
    )
}

/// "we barely use it", "i never eat them": how the user lives with a thing
/// already named, said as the reason beside a request.
fn habit(words: &[&str], r: Range<usize>, lex: &Lexicon) -> bool {
    let said = after_openers(words, r, lex);
    let rest = match said.as_slice() {
        ["we" | "i" | "she" | "he" | "they", rest @ ..] => rest,
        _ => return false,
    };
    matches!(
        rest.first(),
        Some(
            &("barely"
                | "hardly"
                | "never"
                | "rarely"
                | "always"
                | "only"
                | "usually"
                | "dont"
                | "seldom")
        )
    ) && rest.len() <= 4
}

/// True when the range opens with what the user will do ("ill get them
/// tomorrow"), whatever its verb.
fn will_do(words: &[&str], r: Range<usize>, lex: &Lexicon) -> bool {
    let opens = opens_with_will(&after_openers(words, r.clone(), lex));
    // "ill cook them tue" plans.
    let plans = r.clone().any(|k| {
        lex.frames
            .iter()
            .any(|f| f.act == ActKind::PlanPut && phrase_at(words, k, &f.verbs).is_some())
    });
    opens && !plans
}

/// "add: defrost cod thurs night, descale kettle sat, buy eggs": after an
/// opening that asks to add (and names nothing), a list of things to do,
/// each a task with its day. `None` when the list names foods (a shopping
/// list's) or the opening is anything else.
fn task_list(at: &At) -> Option<Reading> {
    let (words, n, lex) = (at.words, at.n, at.lex);
    let opening: Vec<usize> = (0..words.len())
        .filter(|&k| n.tokens[k].clause == 0)
        .collect();
    if !n.listed.contains(&0) || opening.is_empty() {
        return None;
    }
    let said: Vec<&str> = opening
        .iter()
        .map(|&k| words[k])
        .filter(|w| !lex.glue.contains(*w) || *w == "to")
        .collect();
    let tasks_said = opening.iter().any(|&k| {
        at.links.iter().any(|l| {
            l.start == k
                && l.targets.first() == Some(&Target::Domain(super::lexicon::Domain::Tasks))
        })
    });
    // ("add to my prefs: …", "add to the shopping: …": another place's
    // words before the colon; the tasks' own, or none, say tasks.)
    let elsewhere = said.iter().any(|w| {
        !matches!(
            *w,
            "add" | "to" | "remind" | "following" | "below" | "these" | "this" | "pls" | "please"
        )
    });
    let asks_to_add = (said.first() == Some(&"add") || said.first() == Some(&"remind"))
        && !elsewhere
        || tasks_said;
    let names_something = at
        .links
        .iter()
        .any(|l| l.start < opening.len() && l.targets.iter().any(Target::names));
    if !asks_to_add || names_something {
        return None;
    }
    // "add a task for tomorrow: …": the opening's day is each task's
    // that names none.
    let opening_day = at.links.iter().find_map(|l| match l.targets.first() {
        Some(Target::Day(d)) if l.start < opening.len() => Some(d.clone()),
        _ => None,
    });
    let last = n.tokens.last()?.clause;
    let mut acts = Vec::new();
    for c in 1..=last {
        let span: Vec<usize> = (0..words.len())
            .filter(|&k| n.tokens[k].clause == c)
            .collect();
        let (&first, &end) = (span.first()?, span.last()?);
        let in_span = |l: &&Link| first <= l.start && l.end <= end + 1;
        // A food first: a shopping list's, not a task list.
        let food_first = at
            .links
            .iter()
            .filter(in_span)
            .any(|l| l.start == first && l.targets.iter().any(Target::names) && !tasks_said);
        if food_first {
            return None;
        }
        let day_span = at
            .links
            .iter()
            .filter(in_span)
            .find(|l| matches!(l.targets.first(), Some(Target::Day(_))));
        let day = day_span.and_then(|l| match l.targets.first() {
            Some(Target::Day(d)) => Some(d.clone()),
            _ => None,
        });
        let title: Vec<&str> = span
            .iter()
            .filter(|&&k| !day_span.is_some_and(|l| l.start <= k && k < l.end))
            .map(|&k| words[k])
            .filter(|w| {
                !matches!(
                    *w,
                    "night"
                        | "morning"
                        | "evening"
                        | "afternoon"
                        | "by"
                        | "on"
                        | "sometime"
                        | "someday"
                        | "asap"
                        | "soon"
                )
            })
            .collect();
        let mut title: Vec<&str> = title
            .into_iter()
            .skip_while(|w| matches!(*w, "and" | "to" | "a" | "the"))
            .collect();
        // "… for thursday": the day's small words go with it.
        while title.last().is_some_and(|w| {
            matches!(
                *w,
                "for" | "at" | "in" | "the" | "this" | "next" | "before" | "until" | "due"
            )
        }) {
            title.pop();
        }
        // "(no date)": said of the task before, no task of its own.
        let undated = |w: &&str| {
            matches!(
                *w,
                "no" | "date"
                    | "due"
                    | "whenever"
                    | "anytime"
                    | "any"
                    | "time"
                    | "someday"
                    | "undated"
            )
        };
        // "descale the kettle (saturday)": a day said alone after a task
        // is that task's; with more said of it ("(next weekend)") it is
        // not read here.
        if title.is_empty()
            && let (Some(d), Some(Act::TaskAdd { day: before, .. })) = (&day, acts.last_mut())
        {
            let plain = d != "weekend"
                && span
                    .iter()
                    .all(|&k| day_span.is_some_and(|l| l.start <= k && k < l.end));
            if before.is_some() || !plain {
                return None;
            }
            *before = Some(d.clone());
            continue;
        }
        if !acts.is_empty() && title.iter().all(undated) {
            continue;
        }
        if title.is_empty() || title.len() > 10 {
            return None;
        }
        // A day or a negation left inside a title ("thaw cod and sat",
        // "no date sharpen knives"): the list was not parted where it
        // should be, and nothing is written from it.
        let day_word = |w: &str| lex.days.iter().any(|(p, _)| p.len() == 1 && p[0] == w);
        if title
            .iter()
            .any(|w| day_word(w) || lex.negation.contains(*w))
        {
            return None;
        }
        acts.push(Act::TaskAdd {
            title: crate::brain::offline::text::capitalise_first(&title.join(" ")),
            day: day.or_else(|| opening_day.clone()),
        });
    }
    // A list said after its own opening is read as that list, over a
    // reading of the whole as one request.
    (!acts.is_empty()).then(|| Reading::whole(acts, 0.95))
}

/// The words a part that takes back what came before opens with ("no
/// wait", "actually", "sorry"), after any "hmm" or "oh": how many.
fn retract_marker(words: &[&str], r: &Range<usize>, lex: &Lexicon) -> Option<usize> {
    let mut k = r.start;
    while k < r.end
        && matches!(
            words[k],
            "hmm" | "oh" | "um" | "uh" | "ok" | "okay" | "well"
        )
    {
        k += 1;
    }
    let p = phrase_at(&words[..r.end], k, &lex.retract)?;
    // "no eggs" rules a thing out; only a "no" on its own takes back.
    let bare_no = matches!(p.as_slice(), [w] if matches!(w.as_str(), "no" | "nah" | "nope"));
    let alone = (k + p.len()..r.end).all(|j| lex.glue.contains(words[j]) || drop_word(words[j]));
    (!bare_no || alone).then(|| k + p.len() - r.start)
}

/// Words that say a part adds to what came before rather than taking it
/// back ("actually add bread too").
const ADDS: [&str; 6] = ["too", "also", "as", "another", "plus", "more"];

/// "leave it", "forget that": a word that drops what was just said.
fn drop_word(w: &str) -> bool {
    matches!(
        w,
        "leave"
            | "forget"
            | "scrap"
            | "scratch"
            | "cancel"
            | "ignore"
            | "nevermind"
            | "nvm"
            | "never"
            | "mind"
    )
}

/// The kind of request an act is, for a later part of the same kind to
/// take its place.
fn kind_of(a: &Act) -> Option<ActKind> {
    Some(match a {
        Act::ShoppingAdd { .. } => ActKind::ShoppingAdd,
        Act::InventoryAdd { .. } => ActKind::InventoryAdd,
        Act::ShoppingRemove { .. } => ActKind::ShoppingRemove,
        Act::StockUse { .. } => ActKind::StockUse,
        Act::StockRemove { .. } => ActKind::StockRemove,
        Act::StockMove { .. } => ActKind::StockMove,
        Act::PlanPut { .. } => ActKind::PlanPut,
        Act::TaskAdd { .. } => ActKind::TaskAdd,
        Act::PlanRemove { .. } => ActKind::PlanRemove,
        Act::ShoppingBought { .. } => ActKind::ShoppingBought,
        Act::TaskDone { .. } => ActKind::TaskDone,
        Act::TaskRemove { .. } => ActKind::TaskRemove,
        _ => return None,
    })
}

/// True when two acts change the same place: a planned slot taken back
/// by clearing it ("… the tikka bites on thursday lunch … no hang on, just
/// leave thursday lunch blank") is one change said again.
fn same_place(a: ActKind, b: ActKind) -> bool {
    let plan = |k: ActKind| matches!(k, ActKind::PlanPut | ActKind::PlanRemove);
    a == b || plan(a) && plan(b)
}

/// A message that takes back part of itself, read without what it takes
/// back: "put the wings on saturday lunch - no, dinner" (the meal
/// amended), "add 2 limes, wait we have limes. 2 lemons instead" (the
/// items), "move the peas to the fridge. hmm no leave them, move the naan
/// to the fridge instead" (the first request dropped, the second read).
/// `None` when no part takes anything back, or one that does cannot be
/// read.
fn taken_back(at: &At, parts: &[Range<usize>], each: &[Vec<Reading>]) -> Option<Reading> {
    let (words, lex) = (at.words, at.lex);
    let content = |r: &Range<usize>| {
        r.clone()
            .filter(|&k| !lex.glue.contains(words[k]) && !at.aside[k])
            .count()
    };
    let has = |r: &Range<usize>, list: &[&str]| r.clone().any(|k| list.contains(&words[k]));
    let mut kept: Vec<(Range<usize>, Reading)> = Vec::new();
    let mut absorbed = 0usize;
    let mut retracting = false;
    // A "no wait" with nothing yet said in place of what it takes back.
    let mut waiting = false;
    let mut any = false;
    // A part read as nothing, which only a take-back right after it may
    // drop ("make thursday lunch the tikka bites then … no hang on, just
    // leave thursday lunch blank").
    let mut unread: Option<Range<usize>> = None;
    for (p, readings) in parts.iter().zip(each) {
        let marker = retract_marker(words, p, lex);
        let instead = has(p, &["instead", "rather"]);
        let adds = has(p, &ADDS);
        let rest = p.start + marker.unwrap_or(0)..p.end;
        let request = readings
            .first()
            .filter(|r| r.coverage >= 0.8 && r.acts.iter().all(|a| kind_of(a).is_some()));
        if marker.is_some() && request.is_none() {
            // "no", "sorry", "hmm no leave them": nothing but the taking
            // back; a "leave it" drops what came before.
            let said: Vec<&str> = words[rest.clone()]
                .iter()
                .copied()
                .filter(|w| !lex.glue.contains(*w))
                .collect();
            let drops = said.iter().all(|w| drop_word(w)) && !said.is_empty();
            if said.is_empty() || drops {
                if drops {
                    let (gone, _) = kept.pop()?;
                    absorbed += content(&gone);
                } else {
                    retracting = true;
                    waiting = true;
                }
                absorbed += content(p);
                any = true;
                continue;
            }
        }
        waiting = false;
        let takes_back = (retracting || marker.is_some() || instead) && !adds;
        if takes_back {
            if let Some(best) = request {
                let kinds: Vec<ActKind> = best.acts.iter().filter_map(kind_of).collect();
                if let Some(gone) = unread.take() {
                    absorbed += content(&gone);
                }
                if let Some(pos) = kept.iter().rposition(|(_, r)| {
                    r.acts.iter().any(|a| {
                        kind_of(a).is_some_and(|k| kinds.iter().any(|o| same_place(k, *o)))
                    })
                }) {
                    let (gone, _) = kept.remove(pos);
                    absorbed += content(&gone);
                }
                kept.push((p.clone(), best.clone()));
                any = true;
                retracting = false;
                continue;
            }
            let (_, last) = kept.last_mut()?;
            if amend_with(at, &rest, last) {
                absorbed += content(p);
                any = true;
                retracting = true;
                continue;
            }
            // "wait we have limes": a remark about what is being taken
            // back, before what replaces it.
            if marker.is_some() && speaks_of(at, &rest, last) {
                absorbed += content(p);
                retracting = true;
                // Nothing said in its place yet: "add milk wait no we
                // have milk" ends taking the add back.
                waiting = true;
                any = true;
                continue;
            }
            return None;
        }
        if unread.is_some() {
            return None;
        }
        // "…, just me", "…, 4 of us", "…, make it 6": who the plan before
        // it is for (a part that says nothing else).
        if let Some((_, last)) = kept.last_mut()
            && servings_for(at, p, last)
        {
            absorbed += content(p);
            continue;
        }
        match readings.first() {
            Some(b) => kept.push((p.clone(), b.clone())),
            None => unread = Some(p.clone()),
        }
    }
    if !any || waiting || kept.is_empty() || unread.is_some() {
        return None;
    }
    let ranges: Vec<Range<usize>> = kept.iter().map(|(r, _)| r.clone()).collect();
    let best: Vec<&Reading> = kept.iter().map(|(_, r)| r).collect();
    let mut out = joined(&best, words, &ranges, lex);
    // "…, just me": who the plans are for, said in small words no part
    // holds.
    let tail = parts.last().map_or(0, |p| p.end)..words.len();
    if !tail.is_empty() {
        servings_for(at, &tail, &mut out);
    }
    let kept_content: usize = ranges.iter().map(content).sum();
    let total: usize = parts.iter().map(content).sum();
    out.coverage = (out.coverage * kept_content as f64 + absorbed as f64) / total.max(1) as f64;
    Some(out)
}

/// Sets the servings of the reading's plans from a fragment that says
/// only who they are for ("just me", "4 of us"): true when it did.
fn servings_for(at: &At, r: &Range<usize>, reading: &mut Reading) -> bool {
    let mut explained = vec![false; at.words.len()];
    let Some(n) = servings_said(at.words, at.links, at.lex, r, &mut explained) else {
        return false;
    };
    let only = r
        .clone()
        .all(|k| explained[k] || at.aside[k] || at.lex.glue.contains(at.words[k]));
    let mut set = false;
    for a in &mut reading.acts {
        if let Act::PlanPut { servings, .. }
        | Act::RecipeAmount { servings, .. }
        | Act::RecipeMissing { servings, .. }
        | Act::RecipeCooked { servings, .. } = a
            && only
        {
            *servings = Some(n);
            set = true;
        }
    }
    set
}

/// True when every name said in the range is one the reading names
/// ("wait we have limes" after "add 2 limes").
fn speaks_of(at: &At, r: &Range<usize>, reading: &Reading) -> bool {
    let named: Vec<String> = reading
        .acts
        .iter()
        .flat_map(|a| match a {
            Act::ShoppingAdd { items }
            | Act::InventoryAdd { items, .. }
            | Act::StockUse { items } => items.iter().map(|i| i.name.to_lowercase()).collect(),
            Act::StockMove { rows, .. }
            | Act::StockRemove { rows }
            | Act::ShoppingRemove { rows } => rows.iter().map(|x| x.to_lowercase()).collect(),
            Act::PlanPut { recipe, .. } => vec![recipe.to_lowercase()],
            _ => Vec::new(),
        })
        .collect();
    let links: Vec<&Link> = at
        .links
        .iter()
        .filter(|l| r.start <= l.start && l.end <= r.end && l.targets.iter().any(Target::names))
        .collect();
    !links.is_empty()
        && links.iter().all(|l| {
            let said = crate::context::taxonomy::singular(&at.words[l.start..l.end].join(" "));
            named
                .iter()
                .any(|n| crate::context::taxonomy::singular(n).contains(&said))
        })
}

/// Amends the reading's one act with what a fragment says in its place
/// ("dinner", "sunday", "2 lemons", "the kerala one"): true when the
/// fragment says nothing else and something was amended.
fn amend_with(at: &At, r: &Range<usize>, reading: &mut Reading) -> bool {
    let [act] = reading.acts.as_mut_slice() else {
        return false;
    };
    let Some(kind) = kind_of(act) else {
        return false;
    };
    let Some(f) = at.lex.frames.iter().find(|f| f.act == kind) else {
        return false;
    };
    let mut fill = Fill::new(at.words.len());
    let mut pending = None;
    let needs = |n: Need| f.needs.contains(&n) || n == Need::Day && kind == ActKind::TaskAdd;
    for l in at
        .links
        .iter()
        .filter(|l| r.start <= l.start && l.end <= r.end)
    {
        if take(l, f, at, &mut fill, &mut pending, &needs).is_some() {
            fill.explained[l.start..l.end].fill(true);
        }
    }
    // "…, 6 servings" after a plan: how many it is for.
    let servings = if kind == ActKind::PlanPut {
        servings_said(at.words, at.links, at.lex, r, &mut fill.explained)
    } else {
        None
    };
    // Only the fragment's names and small words: "2 lemons instead".
    let small = |w: &str| {
        matches!(
            w,
            "the"
                | "a"
                | "an"
                | "some"
                | "for"
                | "on"
                | "at"
                | "in"
                | "of"
                | "to"
                | "instead"
                | "rather"
                | "then"
                | "just"
                | "only"
                | "one"
                | "make"
                | "it"
                | "that"
                | "please"
        )
    };
    if (r.start..r.end).any(|k| !fill.explained[k] && !small(at.words[k])) {
        return false;
    }
    let meal = fill.meals.last().map(|(_, m)| m.clone());
    let mut changed = false;
    match act {
        Act::PlanPut {
            recipe,
            days,
            meal: m,
            servings: n,
        } => {
            if servings.is_some() {
                *n = servings;
                changed = true;
            }
            if let Some(x) = meal {
                *m = Some(x);
                changed = true;
            }
            if let [d] = fill.days.as_slice() {
                *days = vec![d.clone()];
                changed = true;
            }
            if let Some([one]) = fill.recipes.first().map(Vec::as_slice) {
                *recipe = one.clone();
                changed = true;
            }
        }
        Act::TaskAdd { day, .. } => {
            if let [d] = fill.days.as_slice() {
                *day = Some(d.clone());
                changed = true;
            }
        }
        Act::ShoppingAdd { items } | Act::InventoryAdd { items, .. } => {
            if !fill.items.is_empty() {
                *items = fill.items.clone();
                changed = true;
            } else if let (Some((q, u)), [one]) = (pending, items.as_mut_slice()) {
                one.quantity = Some(q);
                one.unit = u;
                changed = true;
            }
        }
        _ => {}
    }
    if changed {
        reading.unread.clear();
    }
    changed
}

/// True when `said` holds three in five of the content words (two at
/// least) of a task the list already has.
fn names_a_task(said: &[&str], scene: &Scene, lex: &Lexicon) -> bool {
    let said: Vec<String> = said
        .iter()
        .map(|w| crate::context::taxonomy::singular(w))
        .collect();
    scene.names.tasks.iter().any(|t| {
        let content: Vec<String> = super::link::name_words(t)
            .into_iter()
            .filter(|w| !lex.glue.contains(w.as_str()))
            .collect();
        let hits = content.iter().filter(|w| said.contains(w)).count();
        hits >= 2 && hits * 5 >= content.len() * 3
    })
}

/// "milk. we need milk. and bread": a food said twice for one kind of
/// change is one item (the amount said, when one of them says it; two
/// amounts in one unit summed when `adds_up`, else the later); an act left
/// with no item goes.
fn said_once(acts: &mut Vec<Act>, adds_up: bool) {
    let mut seen: Vec<(std::mem::Discriminant<Act>, String)> = Vec::new();
    for act in acts.iter_mut() {
        let kind = std::mem::discriminant(&*act);
        let (Act::ShoppingAdd { items }
        | Act::InventoryAdd { items, .. }
        | Act::StockUse { items }) = act
        else {
            continue;
        };
        let mut kept: Vec<ItemSaid> = Vec::new();
        for i in items.drain(..) {
            let key = (
                kind,
                crate::context::taxonomy::singular(&i.name.to_lowercase()),
            );
            // Two amounts in two units stay two.
            let same = |k: &ItemSaid| {
                crate::context::taxonomy::singular(&k.name.to_lowercase()) == key.1
                    && (k.quantity.is_none() || i.quantity.is_none() || k.unit == i.unit)
            };
            if let Some(k) = kept.iter_mut().find(|k| same(k)) {
                match (k.quantity, i.quantity) {
                    (None, _) => {
                        k.quantity = i.quantity;
                        k.unit = i.unit;
                    }
                    (Some(a), Some(b)) => k.quantity = Some(if adds_up { a + b } else { b }),
                    (Some(_), None) => {}
                }
            } else if !seen.contains(&key) || i.quantity.is_some() {
                if !seen.contains(&key) {
                    seen.push(key);
                }
                kept.push(i);
            }
        }
        *items = kept;
    }
    acts.retain(|a| match a {
        Act::ShoppingAdd { items } | Act::InventoryAdd { items, .. } | Act::StockUse { items } => {
            !items.is_empty()
        }
        _ => true,
    });
}

/// The parts of a message that makes several requests: clauses, and
/// "and"/"also"/"then" before a frame's verb.
fn parts(words: &[&str], n: &Normalized, lex: &Lexicon) -> Vec<Range<usize>> {
    let mut cuts = vec![0];
    for i in 1..words.len() {
        let clause = n.tokens[i].clause != n.tokens[i - 1].clause;
        let joiner = matches!(words[i], "and" | "also" | "then" | "plus" | "but")
            && (i + 1..(i + 4).min(words.len())).any(|k| verb_at(words, k, lex));
        // (Not one that opens the message: "k nvm do the curry instead".)
        let said_before =
            (0..i).any(|k| !lex.openers.contains(words[k]) && !lex.glue.contains(words[k]));
        // ("no sorry" is one take-back, not two.)
        let within = retracts_at(words, i - 1, lex);
        if clause || joiner || said_before && !within && retracts_at(words, i, lex) {
            cuts.push(i);
        }
    }
    cuts.push(words.len());
    cuts.dedup();
    cuts.windows(2)
        .map(|w| w[0]..w[1])
        .filter(|r| r.clone().any(|k| !lex.glue.contains(words[k])))
        .collect()
}

/// True when a take-back said mid-sentence starts at `i` ("remind me to
/// … friday no wait scratch that"): it opens a part, as a comma before it
/// would. A bare "no" does not ("no eggs" refuses).
fn retracts_at(words: &[&str], i: usize, lex: &Lexicon) -> bool {
    phrase_at(words, i, &lex.retract)
        .is_some_and(|p| p.len() > 1 || matches!(p[0].as_str(), "wait" | "oops" | "sorry"))
        || phrase_at(words, i, &lex.no).is_some_and(|p| {
            let p: Vec<&str> = p.iter().map(String::as_str).collect();
            matches!(p.as_slice(), ["nvm"] | ["nevermind"] | ["never", "mind"])
        })
}

pub fn verb_at(words: &[&str], i: usize, lex: &Lexicon) -> bool {
    verb_of_at(words, i, lex, |_| true)
}

/// True when a verb of a frame `keep` takes starts at `i` (a verb of small
/// words only is none).
fn verb_of_at(words: &[&str], i: usize, lex: &Lexicon, keep: impl Fn(&Frame) -> bool) -> bool {
    lex.frames.iter().filter(|f| keep(f)).any(|f| {
        phrase_at(words, i, &f.verbs).is_some_and(|p| p.iter().any(|w| !lex.glue.contains(w)))
    })
}

/// The parts' best readings as one.
fn joined(best: &[&Reading], words: &[&str], parts: &[Range<usize>], lex: &Lexicon) -> Reading {
    let content =
        |r: &Range<usize>| r.clone().filter(|&k| !lex.glue.contains(words[k])).count() as f64;
    let total: f64 = parts.iter().map(content).sum::<f64>().max(1.0);
    let explained: f64 = best
        .iter()
        .zip(parts)
        .map(|(b, r)| b.coverage * content(r))
        .sum();
    let coverage = explained / total;
    // Read in parts, each as sure as the least sure of them.
    let score = best.iter().map(|b| b.score).fold(1.0, f64::min) * 0.98;
    // "take the oil off my shopping list and put soy sauce on": a part
    // whose place is unsaid takes it from a sure part of the same place.
    let list = |a: &Act| {
        matches!(
            a,
            Act::ShoppingAdd { .. } | Act::ShoppingRemove { .. } | Act::ShoppingBought { .. }
        )
    };
    let one_place = best.iter().all(|b| b.acts.iter().all(list));
    let unsure = if one_place && best.iter().any(|b| b.unsure.is_none()) {
        best.iter()
            .filter_map(|b| b.unsure)
            .find(|u| *u != Unsure::Loose)
    } else {
        best.iter().find_map(|b| b.unsure)
    };
    // The same request said twice ("the wings are for saturday, dry rub
    // wings for the match") is one.
    let mut acts: Vec<Act> = Vec::new();
    for a in best.iter().flat_map(|b| b.acts.iter()) {
        if !acts.contains(a) {
            acts.push(a.clone());
        }
    }
    // "put the wings on friday … and add whats missing": what the other
    // parts plan is what is missing for.
    let planned: Vec<String> = acts
        .iter()
        .filter_map(|a| match a {
            Act::PlanPut { recipe, .. } => Some(recipe.clone()),
            _ => None,
        })
        .fold(Vec::new(), |mut v, r| {
            if !v.contains(&r) {
                v.push(r);
            }
            v
        });
    if !planned.is_empty()
        && acts
            .iter()
            .any(|a| matches!(a, Act::ShoppingMissing { recipe } if recipe.is_empty()))
    {
        acts.retain(|a| !matches!(a, Act::ShoppingMissing { recipe } if recipe.is_empty()));
        acts.extend(
            planned
                .into_iter()
                .map(|recipe| Act::ShoppingMissing { recipe }),
        );
    }
    Reading {
        acts,
        coverage,
        score,
        unread: best.iter().flat_map(|b| b.unread.clone()).collect(),
        bulk: best.iter().any(|b| b.bulk),
        asking: best.iter().any(|b| b.asking),
        choice: best.iter().find_map(|b| b.choice.clone()),
        unsure,
        drops: best.iter().any(|b| b.drops),
        idle: best.iter().all(|b| b.idle),
        unanswered: None,
    }
}

/// Every reading of one range: each frame whose verb is there, and the
/// talk that needs no frame.
fn read_range(at: &At, r: Range<usize>) -> Vec<Reading> {
    let mut out: Vec<Reading> = at
        .lex
        .frames
        .iter()
        .filter_map(|f| read_frame(at, r.clone(), f))
        .collect();
    out.extend(talk(at.words, r.clone(), at.lex));
    out.extend(super::rules::rule(
        at.n,
        at.words,
        at.links,
        at.lex,
        at.scene,
        r.clone(),
    ));
    out.extend(verbless_plan(at, r));
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

/// True when the words weigh a plan aloud rather than ask for it: "lets",
/// "maybe", "how about", "we could", a hedge.
pub fn weighed(words: &[&str], r: Range<usize>, lex: &Lexicon) -> bool {
    r.clone().any(|k| {
        matches!(
            words[k],
            "lets" | "let" | "maybe" | "how" | "about" | "could" | "should" | "thinking"
        ) || lex.hedge.contains(words[k])
    })
}

/// "ok yellow curry. wednesday dinner", "kerala wednesday": a recipe and a
/// day said with no verb at all, asking nothing, are a plan — the plan's
/// frame read with its verb unsaid. Not one weighed in talk ("maybe the
/// paneer on sunday", "let's do the curry on wednesday": a draft to look
/// over, as the seeds plan), nor a span of days ("the weekend").
fn verbless_plan(at: &At, r: Range<usize>) -> Option<Reading> {
    static UNSAID: Vec<String> = Vec::new();
    let words = at.words;
    let refused = r.clone().any(|k| at.lex.negation.contains(words[k]));
    // With no verb, the words around the names are only those that join a
    // dish to its day ("ok yellow curry. wednesday dinner", "the paneer
    // one for friday"); any other ("thai tomorrow which", "… that", "…
    // does") leaves the words asking or unfinished.
    let linked = |k: usize| at.links.iter().any(|l| l.start <= k && k < l.end);
    const JOINS: &[&str] = &[
        "the", "a", "for", "on", "at", "and", "then", "please", "pls", "in", "with", "of", "from",
        "one", "ones", "thing", "just", "also", "too", "so", "it", "as", "well",
    ];
    // "… just the two of us", "… 3 srv": how many it is for (the frame
    // reads them; coverage below says whether it did).
    let counts = |w: &str| {
        w.chars().all(|c| c.is_ascii_digit())
            || at
                .lex
                .numbers
                .iter()
                .any(|(p, _)| p.len() == 1 && p[0] == w)
            || at.lex.servings.iter().any(|p| p.iter().any(|x| x == w))
            || matches!(w, "us" | "me" | "myself")
    };
    let joins = |w: &str| at.lex.openers.contains(w) || JOINS.contains(&w) || counts(w);
    let loose = r.clone().any(|k| !linked(k) && !joins(words[k]));
    if weighed(words, r.clone(), at.lex)
        || refused
        || loose
        || r.clone()
            .any(|k| verb_at(words, k, at.lex) && !within_a_recipe_name(at.links, k))
        || asks(words, r.clone(), at.n, at.lex)
    {
        return None;
    }
    let span = at.links.iter().any(|l| {
        r.start <= l.start
            && l.end <= r.end
            && matches!(l.targets.first(), Some(Target::Day(d)) if d == "weekend" || d == "week")
    });
    if span {
        return None;
    }
    let inside = |l: &&Link| r.start <= l.start && l.end <= r.end;
    let day = at
        .links
        .iter()
        .filter(inside)
        .any(|l| matches!(l.targets.first(), Some(Target::Day(_))));
    let recipe = at.links.iter().filter(inside).any(|l| {
        l.targets
            .iter()
            .any(|t| matches!(t, Target::Recipe(_) | Target::Pointer(_)))
    });
    if !day || !recipe {
        return None;
    }
    let f = at.lex.frames.iter().find(|f| f.act == ActKind::PlanPut)?;
    let mut reading = read_frame_at(at, r.clone(), f, (r.start, r.start, &UNSAID, None))?;
    // Every word read: with no verb, nothing else may be meant. A name
    // several recipes share is asked about ("curry thu": which curry?).
    if reading.coverage < 1.0 {
        return None;
    }
    reading.score *= 0.9;
    Some(reading)
}

/// Yes, no, hello, thanks, help: the whole range is that and glue.
fn talk(words: &[&str], r: Range<usize>, lex: &Lexicon) -> Option<Reading> {
    let kinds = [
        (&lex.bye, Act::Thanks),
        (&lex.no, Act::No),
        (&lex.yes, Act::Yes),
        (&lex.thanks, Act::Thanks),
        (&lex.help, Act::Help),
        (&lex.greeting, Act::Greeting),
    ];
    let mut i = r.start;
    let mut act = None;
    while i < r.end {
        if let Some((p, a)) = kinds
            .iter()
            .find_map(|(l, a)| phrase_at(&words[..r.end], i, l).map(|p| (p, a)))
        {
            // "no thats it": a no that closes the talk is a goodbye.
            if act == Some(Act::No) && lex.bye.iter().any(|b| b == p) {
                act = Some(Act::Thanks);
            }
            act.get_or_insert_with(|| a.clone());
            i += p.len();
        } else if lex.glue.contains(words[i]) {
            i += 1;
        } else {
            return None;
        }
    }
    Some(Reading::whole(vec![act?], 0.9))
}

/// What a frame found in a range.
struct Fill {
    explained: Vec<bool>,
    items: Vec<ItemSaid>,
    listed: Vec<String>,
    stocked: Vec<Vec<String>>,
    recipes: Vec<Vec<String>>,
    days: Vec<String>,
    /// Where each day taken was said.
    day_spans: Vec<Range<usize>>,
    tasks: Vec<Vec<String>>,
    foods: Vec<String>,
    domain: bool,
    rest: bool,
    bulk: bool,
    negated: bool,
    /// "except", "apart from" said.
    except: bool,
    /// The place in the kitchen said ("in the fridge").
    place: Option<String>,
    /// Recipes only a pointer names ("put it on friday").
    pointed: Vec<String>,
    /// Recipes named and pointed at, in the order said (a pointer's as one
    /// name).
    said_in_order: Vec<Vec<String>>,
    /// Where the last recipe span ended.
    last_recipe_end: usize,
    /// Each meal said, with the day it follows.
    meals: Vec<(usize, String)>,
    /// A row named whole in another table too, with no domain word said
    /// ("take yogurt off": the list's or the stock's?).
    crossed: bool,
    /// How many a planned meal is for, when said.
    servings: Option<u32>,
    /// The words of the first recipe named, as said ("the curry").
    recipe_said: Vec<String>,
    /// Where the link being taken starts, and where the last item ended.
    item_start: usize,
    last_item_end: Option<usize>,
    /// Where the last item taken was said.
    item_at: Option<usize>,
    /// Where the amount waiting for its food was said.
    pending_at: Option<Range<usize>>,
    /// Two foods said side by side that the catalog does not know as one.
    run_on: bool,
    /// A stock row pointed at ("when does it go off").
    pointed_at_row: bool,
    /// A row of the list or the stock taken by name.
    rows_taken: bool,
    /// An amount said with no food after it to take it ("set the yogurt
    /// to 240 g").
    amount: Option<(f64, Option<String>)>,
    /// What "what can i make" is narrowed to.
    make: super::acts::MakeFilter,
    /// The clause the last day taken was said in.
    last_day_clause: Option<usize>,
    /// Where the last day taken ends.
    last_day_end: Option<usize>,
    /// Two days were said apart, with more than "and" between them.
    days_apart: bool,
    /// The last meal said ends its clause ("… thursday and friday lunch").
    meal_ends_clause: bool,
    /// Places said after the first ("12 eggs in the fridge, … wings in the
    /// freezer").
    places_said: usize,
    link_score: f64,
}

impl Fill {
    fn new(len: usize) -> Fill {
        Fill {
            explained: vec![false; len],
            items: Vec::new(),
            listed: Vec::new(),
            stocked: Vec::new(),
            recipes: Vec::new(),
            days: Vec::new(),
            day_spans: Vec::new(),
            tasks: Vec::new(),
            foods: Vec::new(),
            domain: false,
            rest: false,
            bulk: false,
            negated: false,
            crossed: false,
            place: None,
            except: false,
            pointed: Vec::new(),
            last_recipe_end: usize::MAX,
            meals: Vec::new(),
            servings: None,
            recipe_said: Vec::new(),
            item_start: 0,
            last_item_end: None,
            item_at: None,
            pending_at: None,
            run_on: false,
            pointed_at_row: false,
            rows_taken: false,
            amount: None,
            make: super::acts::MakeFilter::default(),
            said_in_order: Vec::new(),
            last_day_clause: None,
            last_day_end: None,
            days_apart: false,
            meal_ends_clause: false,
            places_said: 0,
            link_score: 1.0,
        }
    }

    /// The recipes the words name, else those a pointer stands for, each
    /// slot with its candidates.
    fn recipes_named(&self) -> Vec<Vec<String>> {
        if self.recipes.is_empty() {
            self.pointed.iter().map(|p| vec![p.clone()]).collect()
        } else {
            self.recipes.clone()
        }
    }
}

/// Where a frame's verb is said: its start and end, its words, and where
/// its particle is when it is said around its object.
type VerbAt<'f> = (usize, usize, &'f Vec<String>, Option<usize>);

/// The frame read over the range at each place its verb is said ("i buy
/// eggs. put them on the list"): the best of those readings.
/// True when word `k` is inside a recipe's name said in full, after its
/// first word: "see" of "pad see ew" is no verb.
fn within_a_recipe_name(links: &[Link], k: usize) -> bool {
    links
        .iter()
        .any(|l| l.start < k && k < l.end && matches!(l.targets.first(), Some(Target::Recipe(_))))
}

fn read_frame(at: &At, r: Range<usize>, f: &Frame) -> Option<Reading> {
    let words = at.words;
    // "one for making the tikka": a verb said as a purpose asks nothing.
    let purpose = |i: usize| i > 0 && words[i - 1] == "for" && words[i].ends_with("ing");
    (r.start..r.end)
        .filter(|&i| !purpose(i) && !within_a_recipe_name(at.links, i))
        .filter_map(|i| {
            split_verb(&words[..r.end], i, &f.verbs)
                .map(|(p, k)| (i, i + 1, p, Some(k)))
                .or_else(|| {
                    phrase_at(&words[..r.end], i, &f.verbs).map(|p| (i, i + p.len(), p, None))
                })
        })
        // "get rid of the tomatoes": a verb that is only the start of
        // another frame's longer one said there is that one's.
        .filter(|&(vs, ve, _, _)| {
            !at.lex.frames.iter().any(|g| {
                g.act != f.act
                    && phrase_at(&words[..r.end], vs, &g.verbs).is_some_and(|p| vs + p.len() > ve)
            })
        })
        .filter_map(|v| read_frame_at(at, r.clone(), f, v))
        .max_by(|a, b| a.score.total_cmp(&b.score))
}

fn read_frame_at(
    at: &At,
    r: Range<usize>,
    f: &Frame,
    (vs, ve, verb, particle): VerbAt,
) -> Option<Reading> {
    let At {
        n,
        words,
        links,
        lex,
        scene,
        aside,
        ..
    } = *at;
    let mut fill = Fill::new(words.len());
    fill.pointed_at_row = f.act == ActKind::ExpiryOf
        && links.iter().any(|l| {
            r.start <= l.start
                && l.end <= r.end
                && matches!(l.targets.first(), Some(Target::Pointer(_)))
        });
    for k in (vs..ve).chain(particle) {
        fill.explained[k] = true;
    }
    // The frame's own verb said again as the state it leaves ("tick off
    // the basil as bought", "mark the pickup task done as well"); a verb
    // said again elsewhere is another request.
    let last_content = (r.start..r.end)
        .rev()
        .find(|&k| !lex.glue.contains(words[k]));
    // The words that close the verb after its object ("… take").
    mark_phrases(words, ve..r.end, &f.tails, &mut fill.explained);
    let mut k = ve;
    while k < r.end {
        match phrase_at(&words[..r.end], k, &f.verbs) {
            Some(p)
                if !fill.explained[k]
                    && k > 0
                    && (matches!(words[k - 1], "as" | "is" | "are")
                        // Another of its verbs, closing the same clause
                        // ("mark … done"; not "remove it. the oil i take").
                        || last_content == Some(k + p.len() - 1)
                            && p != verb
                            && n.tokens[k].clause == n.tokens[vs].clause) =>
            {
                for j in k..k + p.len() {
                    fill.explained[j] = true;
                }
                k += p.len();
            }
            _ => k += 1,
        }
    }
    // "i bought stuff, put it in: 6 eggs …": the frame's verb said again in
    // a clause that names nothing says the same request again.
    for k in r.start..r.end {
        if fill.explained[k] || n.tokens[k].clause == n.tokens[vs].clause {
            continue;
        }
        if let Some(p) = phrase_at(&words[..r.end], k, &f.verbs) {
            let clause = n.tokens[k].clause;
            let bare = !links.iter().any(|l| {
                l.start >= r.start && l.end <= r.end && n.tokens[l.start].clause == clause
            });
            // Nothing else said in that clause ("… and add whats missing"
            // asks something more).
            let more = (r.start..r.end).any(|j| {
                n.tokens[j].clause == clause
                    && !(k..k + p.len()).contains(&j)
                    && !lex.glue.contains(words[j])
            });
            if bare && !more && p.iter().any(|w| !lex.glue.contains(w.as_str())) {
                fill.explained[k..k + p.len()].fill(true);
            }
        }
    }
    // A negation just before the verb turns it around: "never used",
    // "dont add". "no", "nah" before a verb are an answer said first
    // ("hmm no take the cod off friday"), not the verb's negation.
    fill.negated = (vs.saturating_sub(2).max(r.start)..vs).any(|k| {
        (lex.negation.contains(words[k]) || words[k].ends_with("nt"))
            && !matches!(words[k], "no" | "nah" | "nope")
    });
    // "sweet, put it on tomorrow": the words the message opens with that
    // say nothing of what it asks name nothing either.
    let opening = (0..words.len())
        .take_while(|&k| {
            let w = words[k];
            (lex.openers.contains(w) || lex.glue.contains(w))
                && !lex.negation.contains(w)
                && !matches!(w, "no" | "nah" | "wait" | "but" | "actually")
        })
        .count()
        // "the first one on sunday": small words that point into the list
        // shown are no opening.
        .min(
            links
                .iter()
                .filter(|l| {
                    matches!(
                        l.targets.first(),
                        Some(Target::Pointer(Pointer::Nth(_) | Pointer::Last))
                    )
                })
                .map(|l| l.start)
                .min()
                .unwrap_or(usize::MAX),
        );
    // "take the chicken out tomorrow": a verb said around its object with
    // a particle that makes another frame's verb ("take out", the stock's
    // move) is that frame's.
    if let [v] = verb.as_slice()
        && particle.is_none()
    {
        let clause = n.tokens[vs].clause;
        let other = (ve..r.end.min(ve + 6))
            .take_while(|&k| n.tokens[k].clause == clause)
            .any(|k| {
                let pair = vec![v.clone(), words[k].to_string()];
                matches!(words[k], "out" | "off" | "back" | "away" | "in")
                    && !f.verbs.contains(&pair)
                    && lex
                        .frames
                        .iter()
                        .any(|g| g.act != f.act && g.verbs.contains(&pair))
            });
        if other {
            return None;
        }
    }
    // "we're nearly out of milk": low, not gone.
    if f.act == ActKind::StockRemove && low_not_gone(words, vs) {
        return None;
    }
    // "hmm no take the cod off friday", "actually put it on sunday": the
    // words before the verb, all openers, answer the last reply and ask
    // nothing more.
    if (r.start..vs).all(|k| lex.openers.contains(words[k])) {
        fill.explained[r.start..vs].fill(true);
    }
    let mut pending: Option<(f64, Option<String>)> = None;
    let needs = |n: Need| f.needs.contains(&n);
    for l in links
        .iter()
        .filter(|l| l.start >= r.start && l.end <= r.end && !aside[l.start] && l.end > opening)
    {
        if l.end > vs && l.start < ve {
            continue;
        }
        fill.item_start = l.start;
        let taken = take(l, f, at, &mut fill, &mut pending, &needs);
        if let Some(t) = taken {
            // "eggs, bread": a comma between two foods parts them.
            let parted =
                l.end < words.len() && n.tokens[l.end].clause != n.tokens[l.end - 1].clause;
            fill.last_item_end = (matches!(
                l.targets[t],
                Target::Food(_) | Target::Stocked(_) | Target::Listed(_)
            ) && !parted)
                .then_some(l.end);
        }
        if let Some(t) = taken {
            for k in l.start..l.end {
                fill.explained[k] = true;
            }
            fill.link_score = fill.link_score.min(l.scores[t].max(0.5));
            let table = |t: &Target| match t {
                Target::Listed(_) => 1,
                Target::Stocked(_) => 2,
                _ => 0,
            };
            let used = table(&l.targets[t]);
            // A row of the frame's own table, for a change to rows there.
            let own = match f.domain {
                Some(super::lexicon::Domain::Shopping) => 1,
                Some(super::lexicon::Domain::Stock) => 2,
                _ => 3,
            };
            fill.rows_taken |= used == own
                && !matches!(f.act, ActKind::ShoppingAdd | ActKind::InventoryAdd)
                && !l.targets.iter().any(|o| table(o) != 0 && table(o) != used);
            // A use, a move, a bin or a use-by date is of the stock's rows
            // alone: the list's row of the same name is no other reading
            // of it.
            let stock_only = matches!(
                f.act,
                ActKind::StockUse | ActKind::StockMove | ActKind::StockRemove | ActKind::ExpirySet
            );
            fill.crossed |= used != 0
                && !stock_only
                && l.targets
                    .iter()
                    .zip(&l.scores)
                    .any(|(o, s)| *s >= 1.0 && table(o) != 0 && table(o) != used);
        }
    }
    // "the spring onions are slimy, bin them": what is said of a thing
    // named, after it, describes it.
    if f.writes {
        described(words, n, links, lex, &r, &mut fill.explained);
    }
    // "mum says no ice cream. take it off": a refusal, in a clause of its
    // own, of what a removal takes off says why.
    if removes(f.act) {
        refusal_as_reason(words, n, lex, &r, n.tokens[vs].clause, &mut fill.explained);
    }
    // "basmati or the jasmine": in a lookup, an "or" between two things
    // taken joins them as an "and" does (in a change it is a choice).
    for k in r.start + 1..r.end.saturating_sub(1) {
        if words[k] == "or" && !f.writes {
            let before = (r.start..k).rev().find(|&j| !lex.glue.contains(words[j]));
            let after = (k + 1..r.end).find(|&j| !lex.glue.contains(words[j]));
            if before.is_some_and(|j| fill.explained[j]) && after.is_some_and(|j| fill.explained[j])
            {
                fill.explained[k] = true;
            }
        }
    }
    // "just in case", "no rush": nothing asked.
    mark_phrases(words, r.clone(), &lex.filler, &mut fill.explained);
    // "this week": the span a look at the plan or the tasks covers.
    if matches!(f.act, ActKind::ShowTasks | ActKind::ShowPlan) {
        mark_phrases(words, r.clone(), &lex.spans, &mut fill.explained);
    }
    // "did it last night", "used 2 yesterday": when what is reported
    // happened.
    if happened(f.act) || matches!(f.act, ActKind::TaskDone | ActKind::StockRemove) {
        mark_phrases(words, r.clone(), &lex.past, &mut fill.explained);
    }
    // "under 30 min", "without buying anything", "nothing spicy": what to
    // make, narrowed.
    if f.act == ActKind::WhatCanIMake {
        fill.make = make_filter(words, r.clone(), lex, &mut fill.explained);
    }
    // "6 servings", "for 4 people", "serves 4": how many the meal is for,
    // or the question of a recipe's needs asks at.
    if matches!(
        f.act,
        ActKind::PlanPut | ActKind::RecipeAmount | ActKind::RecipeMissing | ActKind::RecipeCooked
    ) {
        fill.servings = servings_said(words, links, lex, &r, &mut fill.explained);
    }
    if needs(Need::Title) {
        for k in ve..title_end(words, ve, r.end) {
            fill.explained[k] = true;
        }
    }
    if fill.negated && f.writes {
        return None;
    }
    // "lets do the paneer on sunday", "maybe put it on friday": a plan
    // weighed aloud is a draft to look over (the seeds' way), the older
    // chain's to draft.
    if f.act == ActKind::PlanPut && weighed(words, r.start..vs, lex) {
        return None;
    }
    // "yesterday i was buy 1 kilo of wings": a buy said as done is stock
    // bought, not a list to shop; "buy" said as nothing done is the list's.
    // "i buy today the coconut milk": "buy" after its doer, with today
    // said, is how a learner of English tells what was bought.
    let told = vs > 0
        && matches!(words[vs - 1], "i" | "we")
        && verb.len() == 1
        && verb[0] == "buy"
        && (r.start..r.end).any(|k| words[k] == "today");
    let past_in_clause = told
        || (r.start..r.end).any(|k| {
            n.tokens[k].clause == n.tokens[vs].clause && phrase_at(words, k, &lex.past).is_some()
        });
    let buys = matches!(verb.as_slice(), [v] if v == "buy" || v == "get" || v == "grab")
        || verb.len() == 2 && verb[0] == "pick";
    // "chuck a couple of lemons on": a verb the list shares with the bin,
    // said with where the things go, is no bin.
    let placed_after = says_where(words, ve..r.end);
    let binned_or_placed = lex
        .frames
        .iter()
        .any(|g| g.act == ActKind::ShoppingAdd && g.verbs.contains(verb));
    match f.act {
        ActKind::StockRemove if binned_or_placed && placed_after => return None,
        ActKind::ShoppingAdd if buys && past_in_clause => return None,
        ActKind::InventoryAdd if verb.len() == 1 && verb[0] == "buy" && !past_in_clause => {
            return None;
        }
        _ => {}
    }
    // A task to add that names one the list holds ("remind me to pick up
    // the broccoli tomorrow" beside "Pick up Chinese broccoli and Thai
    // basil") may mean that one, moved: not this frame's to add again.
    if f.act == ActKind::TaskAdd && names_a_task(&words[ve..r.end], scene, lex) {
        return None;
    }
    // "add whats missing for sun and wed": the recipes the plan holds on
    // those days, the older chain's to find.
    if f.act == ActKind::ShoppingMissing
        && links.iter().any(|l| {
            l.start >= r.start
                && l.end <= r.end
                && matches!(l.targets.first(), Some(Target::Day(_)))
        })
    {
        return None;
    }
    if fill.amount.is_none() {
        fill.amount = pending.clone();
    }
    // "buy eggs … put 6 on the list": an amount with no food after it is
    // the amount of the one food said without one.
    if let Some((q, u)) = &pending
        && matches!(f.act, ActKind::ShoppingAdd | ActKind::InventoryAdd)
        && fill.items.len() == 1
        && fill.items[0].quantity.is_none()
    {
        fill.items[0].quantity = Some(*q);
        fill.items[0].unit = u.clone();
    }
    let (mut acts, choice) = build(f, &fill, words, (verb, ve), r.clone(), scene)?;
    // "show me the cod recipes", "what are my thai recipes": the words
    // said right before "recipes" are what the recipes must be; the
    // recipes skill matches them against cuisine, tag, kind, diet,
    // ingredient and name.
    // (In an order said of them, "quickest first", they are the older
    // rules' to rank.)
    let ranked = r.clone().any(|k| {
        matches!(
            words[k],
            "quickest" | "fastest" | "slowest" | "longest" | "easiest" | "cheapest"
        )
    });
    if matches!(acts.as_slice(), [Act::ListRecipes])
        && !ranked
        && let Some((from, to)) = kind_before_domain(words, links, r.clone(), &fill.explained, lex)
    {
        let word = words[from..to]
            .iter()
            .map(|w| crate::context::taxonomy::singular(w))
            .collect::<Vec<_>>()
            .join(" ");
        fill.explained[from..to].fill(true);
        acts = vec![Act::FindRecipes { word }];
    }
    // "enough potatoes for it": enough is asked against a dish; the stock
    // alone does not answer it.
    if matches!(acts.as_slice(), [Act::HowMuch { .. }])
        && r.clone().any(|k| words[k] == "enough")
        && links.iter().any(|l| {
            r.start < l.start
                && l.end <= r.end
                && words[l.start - 1] == "for"
                && matches!(
                    l.targets.first(),
                    Some(Target::Pointer(_) | Target::Recipe(_))
                )
        })
    {
        return None;
    }
    // "i made a curry last night": a dish word cooked is the dish, not a
    // row whose longer name holds the word (the yellow curry paste).
    if let [Act::StockUse { items }] = acts.as_slice()
        && matches!(
            verb.last().map(String::as_str),
            Some("made" | "cooked" | "make" | "cook")
        )
    {
        let dish_word = links.iter().any(|l| {
            let Some(Target::Food(w)) = l.targets.first() else {
                return false;
            };
            r.start <= l.start
                && l.end <= r.end
                && !items.iter().any(|i| i.name.eq_ignore_ascii_case(w))
                && scene
                    .names
                    .recipes
                    .iter()
                    .any(|n| super::link::name_words(n).contains(w))
        });
        if dish_word {
            return None;
        }
    }
    // "used all the coconut milk": the words that say all of it are read.
    if matches!(acts.as_slice(), [Act::StockUse { .. }]) {
        for k in whole_said(words, r.clone()) {
            fill.explained[k] = true;
        }
    }
    // "the broccoli one is done, picked them up": words of the task itself
    // said again tell which it is.
    if let [Act::TaskDone { tasks } | Act::TaskRemove { tasks }] = acts.as_slice() {
        let stems: Vec<String> = tasks
            .iter()
            .flat_map(|t| super::link::name_words(t))
            .map(|w| stem(&w))
            .collect();
        for k in r.clone() {
            if !fill.explained[k] && stems.contains(&stem(words[k])) {
                fill.explained[k] = true;
            }
        }
    }
    // "wait isnt the brioche going off soon", "dont we have rice": a
    // question put the negative way round asks the same; "will it still be
    // good on sunday": the day a food's date is asked against.
    if !f.writes {
        let clause = n.tokens[vs.min(words.len().saturating_sub(1))].clause;
        for k in r.clone() {
            let opens = (r.start..k).all(|j| fill.explained[j] || lex.glue.contains(words[j]));
            let negative_question = matches!(
                words[k],
                "isnt" | "arent" | "doesnt" | "dont" | "wasnt" | "werent" | "hasnt" | "havent"
            ) && opens
                && n.tokens[k].clause == clause;
            if negative_question || words[k] == "wait" && opens {
                fill.explained[k] = true;
            }
        }
        if matches!(f.act, ActKind::ExpiryOf) {
            for l in links
                .iter()
                .filter(|l| r.start <= l.start && l.end <= r.end)
            {
                let against = l.start > r.start
                    && matches!(words[l.start - 1], "on" | "by" | "until" | "till");
                if against && matches!(l.targets.first(), Some(Target::Day(_))) {
                    fill.explained[l.start - 1..l.end].fill(true);
                }
            }
        }
    }
    // "we used the last of the peas so take them off", "got the basil.
    // tick em": the same taking-away said again, in a clause of its own,
    // of a pointer at what the request names, is that request, not
    // another one dropped. Not with a negation or a take-back in it.
    let takes_away = matches!(
        f.act,
        ActKind::StockUse
            | ActKind::StockRemove
            | ActKind::ShoppingRemove
            | ActKind::ShoppingBought
            | ActKind::TaskDone
            | ActKind::TaskRemove
    );
    if takes_away {
        for k in r.clone() {
            if fill.explained[k] {
                continue;
            }
            // (A use and a removal both take from the stock; "take them
            // off" said of what was used, with no place said, is that.)
            let takes = |a: ActKind| matches!(a, ActKind::StockUse | ActKind::StockRemove);
            let again = lex
                .frames
                .iter()
                .filter(|g| {
                    g.act == f.act
                        || takes(f.act) && (takes(g.act) || g.act == ActKind::ShoppingRemove)
                })
                .find_map(|g| {
                    phrase_at(&words[..r.end], k, &g.verbs)
                        .cloned()
                        .or_else(|| {
                            // Said around a pointer: "take them off".
                            g.verbs
                                .iter()
                                .find(|v| {
                                    v.len() == 2
                                        && v[0] == words[k]
                                        && k + 2 < r.end
                                        && phrase_at(words, k + 1, &lex.pointer)
                                            .is_some_and(|p| p.len() == 1)
                                        && words[k + 2] == v[1]
                                })
                                .map(|_| words[k..k + 3].iter().map(|w| w.to_string()).collect())
                        })
                });
            let Some(p) = again else { continue };
            let clause = n.tokens[k].clause;
            // Said again in a clause of its own, after the request, and
            // with neither a negation nor a take-back in it.
            // ("… so take them off", "… and tick em": joined on.)
            let joined_on = k > 0
                && (matches!(
                    words[k - 1],
                    "so" | "and" | "then" | "please" | "pls" | "just"
                ) || phrase_at(words, k - 1, &lex.purpose).is_some());
            let own_clause =
                k > vs && (clause != n.tokens[vs.min(words.len() - 1)].clause || joined_on);
            let negated = r.clone().any(|j| {
                n.tokens[j].clause == clause
                    && (lex.negation.contains(words[j])
                        || phrase_at(words, j, &lex.retract).is_some()
                        || phrase_at(words, j, &lex.correction).is_some())
            });
            let said_of: Vec<usize> = (k + p.len()..r.end)
                .take_while(|&j| n.tokens[j].clause == clause)
                .collect();
            if !own_clause || said_of.is_empty() {
                continue;
            }
            // What follows the verb in its clause is named already, a
            // pointer, or glue.
            // Said of a pointer only ("take them off", "tick it").
            let pointed = said_of
                .iter()
                .any(|&j| phrase_at(words, j, &lex.pointer).is_some());
            let after_said = pointed
                && said_of.iter().all(|&j| {
                    lex.glue.contains(words[j])
                        || phrase_at(words, j, &lex.pointer).is_some()
                        || matches!(words[j], "off" | "out" | "away")
                });
            if !negated && after_said {
                for j in k..k + p.len() {
                    fill.explained[j] = true;
                }
            }
        }
    }
    let content: Vec<usize> = r
        .clone()
        .filter(|&k| !lex.glue.contains(words[k]) && !aside[k] && k >= opening)
        .collect();
    let unread: Vec<String> = content
        .iter()
        .filter(|&&k| !fill.explained[k])
        .map(|&k| words[k].to_string())
        .collect();
    // A place said for another frame ("add olive oil to the list" read as
    // an add to the stock) is not this frame's reading.
    let other_place = (r.start..r.end).any(|k| {
        !fill.explained[k]
            && lex
                .domains
                .iter()
                .any(|(p, d)| Some(*d) != f.domain && super::link::starts_with(words, k, p))
    });
    if other_place && f.writes {
        return None;
    }
    let coverage = if content.is_empty() {
        1.0
    } else {
        1.0 - unread.len() as f64 / content.len() as f64
    };
    // Foods run together that the catalog does not know as one, or foods
    // put in two places at once: asked.
    let coverage = if (fill.run_on || fill.places_said > 0) && f.writes {
        coverage.min(0.75)
    } else {
        coverage
    };
    // "we have …" says what the stock holds only when every word says it
    // ("i have a question about the curry" holds no curry).
    if f.act == ActKind::InventoryAdd && holds(verb) && coverage < 1.0 {
        return None;
    }
    // A request's verb left unread is a request this reading drops ("take
    // the oil off … and put soy sauce on" read as one add).
    let drops_a_verb = content
        .iter()
        .any(|&k| !fill.explained[k] && verb_at(words, k, lex));
    let idle = content.iter().filter(|&&k| !fill.explained[k]).all(|&k| {
        coverage >= 0.5 && remark(words, k, n, links, lex, &fill.explained, inside_verb(at))
    }) && !fill.run_on
        && fill.places_said == 0;

    // Put as a question: this range, or, read whole, a message one of
    // whose parts asks while none opens with a request's verb.
    let whole = r.start == 0 && r.end == words.len();
    let asking =
        f.writes && (asks(words, r.clone(), n, lex) || whole && any_part_asks(words, n, lex));
    let domain_said = fill.domain || f.domain.is_none();
    // "add milk" while the list is on screen adds to the list; a row two
    // tables hold is still asked about.
    // ("coriander's gone slimy, chuck it": a verb another change shares —
    // the bin's as well as the list's — takes no place from the topic,
    // unless it says where to: "chuck a couple of lemons on".)
    let shared = lex
        .frames
        .iter()
        .any(|g| g.writes && g.act != f.act && g.verbs.contains(verb))
        && !says_where(words, ve..r.end);
    let listed_topic = f.domain == Some(super::lexicon::Domain::Shopping)
        && (scene.on_topic(super::lexicon::Domain::Shopping) && !shared
            || coverage >= 1.0 && to_buy(f, verb, words, scene, lex));
    // "take the yogurt off" is as loose as "take": the list, the plan or
    // the stock?
    // "add the chicken tikka bites to thursday dinner": one recipe said
    // with its day leaves the place in no doubt.
    let slotted = f.act == ActKind::PlanPut
        && !fill.days.is_empty()
        && matches!(fill.recipes.as_slice(), [one] if one.len() == 1);
    // "take the olive oil off": a row only the list holds says the place.
    let placed = fill.rows_taken && !fill.crossed;
    let loose = !slotted
        && !placed
        && (f.loose.contains(verb)
            || particle.is_some() && f.loose.iter().any(|l| l.len() == 1 && l[0] == verb[0]));
    // "ate 2 bananas": a use with its amount said is a use of the stock,
    // however common its verb.
    let counted = f.act == ActKind::StockUse
        && !fill.items.is_empty()
        && fill.items.iter().all(|i| i.quantity.is_some());
    // "got the basil": bought, said with a verb a tick off the list shares,
    // of a food the list holds.
    let on_list = f.act == ActKind::InventoryAdd
        && !fill.domain
        && lex
            .frames
            .iter()
            .any(|g| g.act == ActKind::ShoppingBought && g.verbs.contains(verb))
        && links.iter().any(|l| {
            l.start >= r.start
                && l.end <= r.end
                && fill.explained[l.start]
                && l.targets.iter().any(|t| matches!(t, Target::Listed(_)))
        });
    // "one wed one sun", "one on friday and the other on sunday": each day
    // said for "one" of the dishes, not for a dish by name.
    let dishes: std::collections::HashSet<&str> = acts
        .iter()
        .filter_map(|a| match a {
            Act::PlanPut { recipe, .. } => Some(recipe.as_str()),
            _ => None,
        })
        .collect();
    let days_for_one = links
        .iter()
        .filter(|l| {
            matches!(l.targets.first(), Some(Target::Day(_)))
                && (l.start.saturating_sub(2)..l.start).any(|k| matches!(words[k], "one" | "other"))
        })
        .count();
    let unsure = if dishes.len() >= 2 && days_for_one >= 2 {
        Some(Unsure::Paired)
    } else if on_list {
        Some(Unsure::OnList)
    } else if loose && !domain_said && !listed_topic && !counted {
        Some(Unsure::Loose)
    } else if fill.crossed && !domain_said {
        Some(Unsure::Crossed)
    } else {
        None
    };
    // Coverage counts most; a name said in part, a missing domain word and
    // a common verb each count a little against.
    let mut score = coverage
        * coverage
        * f.prior
        * (0.7 + 0.3 * fill.link_score)
        * if domain_said { 1.0 } else { 0.95 }
        * if unsure.is_some() { 0.8 } else { 1.0 };
    if asking {
        score *= 0.5;
    }
    // "the yogurt is good till the 20th" states a date; asked, it asks
    // one ("is the yogurt good till the 20th?").
    let day_said = links.iter().any(|l| {
        l.start >= r.start && l.end <= r.end && matches!(l.targets.first(), Some(Target::Day(_)))
    });
    if f.act == ActKind::ExpiryOf && day_said && !n.question && !asks(words, r.clone(), n, lex) {
        score *= 0.5;
    }
    if drops_a_verb {
        score *= 0.8;
    }
    // "push the air fryer one to friday" with the tasks on screen: a
    // frame of another domain, its domain unsaid, reads the talk less
    // well.
    let elsewhere = !fill.domain
        && f.domain.is_some_and(|d| !scene.on_topic(d))
        && super::lexicon::Domain::ALL
            .iter()
            .any(|d| scene.on_topic(*d));
    if elsewhere {
        score *= 0.8;
    }
    Some(Reading {
        acts,
        coverage,
        score,
        unread,
        bulk: f.bulk,
        asking,
        choice,
        unsure,
        drops: drops_a_verb,
        idle,
        unanswered: None,
    })
}

/// The words inside a request's verb said from an earlier word ("whats
/// planned"), found the first time a reading asks.
/// True when a shopping add's verb, said with no place, asks for things
/// to buy: "add eggs", "need limes", "grab a dozen eggs" go on the list —
/// not while a recipe is on screen ("add garlic" may change it), nor when
/// the message says the food is already here ("found 3 eggs, add them",
/// "got basil"), nor with a verb that needs its place ("put eggs …").
fn to_buy(f: &Frame, verb: &[String], words: &[&str], scene: &Scene, lex: &Lexicon) -> bool {
    let buys = matches!(
        verb.iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        ["add"] | ["need"] | ["get"] | ["buy"] | ["grab"] | ["we", "need"] | ["i", "need"]
    );
    // Words that say the food is here — the stock's own verbs ("got",
    // "bought", "picked up"), finding or having it — or more of what a
    // recipe has ("add more garlic").
    let here = (0..words.len()).any(|k| {
        matches!(
            words[k],
            "found" | "have" | "there" | "theres" | "still" | "more" | "less" | "extra"
        ) || lex
            .frames
            .iter()
            .filter(|g| g.act == ActKind::InventoryAdd)
            .any(|g| {
                super::link::phrase_at(words, k, &g.verbs)
                    .is_some_and(|p| !g.loose.contains(p) && !f.verbs.contains(p))
            })
    });
    buys && !scene.recipe_on_screen() && !here
}

fn inside_verb<'a>(at: &'a At) -> &'a [bool] {
    at.inside_verb.get_or_init(|| {
        let words = at.words;
        let mut out = vec![false; words.len()];
        for j in 0..words.len() {
            for f in &at.lex.frames {
                if let Some(p) = phrase_at(words, j, &f.verbs) {
                    let end = (j + p.len()).min(words.len());
                    out[(j + 1).min(end)..end].fill(true);
                }
            }
        }
        out
    })
}

/// What the words narrow "what can i make" to, each word that says so
/// marked read.
fn make_filter(
    words: &[&str],
    r: Range<usize>,
    lex: &Lexicon,
    explained: &mut [bool],
) -> super::acts::MakeFilter {
    let mut out = super::acts::MakeFilter::default();
    let mark = |list: &[super::lexicon::Phrase], explained: &mut [bool]| {
        let mut found = false;
        for k in r.clone() {
            if let Some(p) = phrase_at(&words[..r.end], k, list) {
                explained[k..k + p.len()].fill(true);
                found = true;
            }
        }
        found
    };
    out.stocked = mark(&lex.from_stock, explained);
    out.mild = mark(&lex.mild, explained);
    // "30 min", "under 30 minutes", "half an hour".
    for k in r.clone() {
        let Ok(n) = words[k].parse::<f64>() else {
            continue;
        };
        if let Some(p) = phrase_at(&words[..r.end], k + 1, &lex.minutes) {
            out.minutes = Some(n as u32);
            explained[k..k + 1 + p.len()].fill(true);
        } else if words
            .get(k + 1)
            .is_some_and(|w| matches!(*w, "hour" | "hours" | "hr" | "hrs"))
        {
            out.minutes = Some((n * 60.0) as u32);
            explained[k..k + 2].fill(true);
        }
    }
    if out.minutes.is_some() {
        mark(&lex.at_most, explained);
    }
    if mark(&lex.quick, explained) && out.minutes.is_none() {
        out.minutes = Some(30);
    }
    // "thats under 30 min", "that are not spicy": the words that tie the
    // narrowing on.
    for k in r.clone().rev() {
        if k + 1 < r.end
            && explained[k + 1]
            && matches!(
                words[k],
                "thats" | "that" | "is" | "are" | "which" | "whats"
            )
        {
            explained[k] = true;
        }
    }
    out
}

/// True when the unread word at `k` says nothing a request could hold: no
/// request's verb, name, day, amount, negation, hedge, correction or
/// joiner, and not said right beside a thing read ("crisps and coke":
/// "coke" is another item; "the red onions": "red" says which).
fn remark(
    words: &[&str],
    k: usize,
    n: &Normalized,
    links: &[Link],
    lex: &Lexicon,
    explained: &[bool],
    inside_verb: &[bool],
) -> bool {
    let w = words[k];
    let same_clause = |j: usize| n.tokens[j].clause == n.tokens[k].clause;
    let named = |j: usize| {
        explained[j]
            && links
                .iter()
                .any(|l| l.start <= j && j < l.end && l.targets.iter().any(Target::names))
    };
    let beside_a_name = k + 1 < words.len() && same_clause(k + 1) && named(k + 1)
        || k > 0 && same_clause(k - 1) && named(k - 1);
    let clock = w.chars().any(|c| c.is_ascii_digit())
        && k > 0
        && matches!(
            words[k - 1],
            "at" | "by" | "around" | "till" | "until" | "before"
        );
    // "2 pint": a measure the amount before it was said in.
    let measure = k > 0 && same_clause(k - 1) && words[k - 1].chars().any(|c| c.is_ascii_digit());
    // A word in a list of names, on either side of its "and" ("add egs
    // and limes"): a name not read, never a remark.
    let list_word = |j: usize| matches!(words[j], "and" | "or" | "plus" | "n");
    let joined = k > 0 && same_clause(k - 1) && (list_word(k - 1) || words[k - 1] == "with")
        || k + 2 < words.len() && same_clause(k + 2) && list_word(k + 1) && named(k + 2);
    // "used 2 onions for soup": a food or a dish said as what it was for.
    let purpose = |l: &Link| {
        let s = l.start;
        let for_at = |j: usize| words[j] == "for" && same_clause(j);
        l.targets
            .first()
            .is_some_and(|t| matches!(t, Target::Food(_) | Target::Recipe(_)))
            && (s >= 1 && for_at(s - 1)
                || s >= 2
                    && for_at(s - 2)
                    && matches!(words[s - 1], "the" | "a" | "my" | "some" | "our"))
    };
    // Inside another request's verb said from an earlier word ("whats
    // planned").
    let in_verb = inside_verb[k];
    let number = lex.numbers.iter().any(|(p, _)| p.len() == 1 && p[0] == w);
    let linked = links
        .iter()
        .any(|l| l.start <= k && k < l.end && !purpose(l) && !clock);
    // "only one because less spicy": a reason given, with no verb of a
    // write in it, is a remark whole.
    let reason = (0..=k)
        .rev()
        .find(|&j| {
            matches!(
                words[j],
                "because" | "cause" | "cos" | "coz" | "bc" | "since"
            )
        })
        .is_some_and(|j| (j..=k).all(|x| !verb_of_at(words, x, lex, |f| f.writes)));
    if reason && !linked && !lex.negation.contains(w) {
        return true;
    }
    !verb_at(words, k, lex)
        && !in_verb
        && !number
        && !lex.negation.contains(w)
        && !lex.hedge.contains(w)
        && phrase_at(words, k, &lex.correction).is_none()
        && phrase_at(words, k, &lex.retract).is_none()
        // "kids eat at 6": a clock time says nothing of an amount.
        && (!w.chars().any(|c| c.is_ascii_digit()) || clock)
        && !linked
        && !matches!(
            w,
            "wait"
                | "actually"
                | "but"
                | "instead"
                | "only"
                | "just"
                | "except"
                | "also"
                | "too"
                | "more"
                | "less"
                | "another"
                | "extra"
                | "both"
                | "all"
                | "every"
                | "each"
                | "half"
                | "rest"
                | "other"
                | "else"
                | "same"
                | "again"
                | "back"
                | "everything"
                | "anything"
                | "nothing"
                | "something"
                | "whatever"
                | "double"
                | "doubled"
                | "triple"
                | "tripled"
                | "twice"
                | "halve"
                | "halved"
                // "move em to the fridge": what the request is about,
                // never a remark beside it.
                | "it"
                | "them"
                | "em"
                | "those"
                | "these"
        )
        && !beside_a_name
        && !joined
        && !measure
}

/// A two-word verb said around its object ("take the olive oil off",
/// "put the milk back"): the verb, and where its particle is. The object
/// between is at most five words and holds no other verb's particle.
fn split_verb<'p>(
    words: &[&str],
    i: usize,
    verbs: &'p [Vec<String>],
) -> Option<(&'p Vec<String>, usize)> {
    const PARTICLES: [&str; 10] = [
        "off", "out", "back", "away", "in", "blank", "empty", "free", "open", "down",
    ];
    verbs.iter().find_map(|v| {
        let [first, particle] = v.as_slice() else {
            return None;
        };
        if words.get(i) != Some(&first.as_str()) || !PARTICLES.contains(&particle.as_str()) {
            return None;
        }
        // The object comes between: "take off the oil" is said whole.
        (i + 2..words.len().min(i + 7))
            .find(|&k| words[k] == particle)
            .map(|k| (v, k))
    })
}

/// True when a part of the message asks and no part opens with a
/// request's verb ("the chicken is frozen right? how much do i need").
pub fn any_part_asks(words: &[&str], n: &Normalized, lex: &Lexicon) -> bool {
    let parts = parts(words, n, lex);
    let bids = parts.iter().any(|r| {
        (r.start..r.end)
            .find(|&k| !lex.openers.contains(words[k]))
            .is_some_and(|k| verb_at(words, k, lex) && phrase_at(words, k, &lex.asking).is_none())
    });
    !bids && parts.iter().any(|r| asks(words, r.clone(), n, lex))
}

/// The first part of the message that asks for a change outright: it holds
/// a verb only a frame that writes has and something it could change, and
/// is neither put as a question, nor turned by a negation, nor opened with
/// a verb that only reads ("show me what to buy"). `None` when no part
/// does.
pub fn bid(words: &[&str], n: &Normalized, links: &[Link], lex: &Lexicon) -> Option<Range<usize>> {
    // A correction ("i mean the date") amends the last request; it asks
    // for no change of its own here.
    let writes_at = |k: usize| verb_of_at(words, k, lex, |f| f.writes && f.act != ActKind::Amend);
    let reads_at = |k: usize| verb_of_at(words, k, lex, |f| !f.writes);
    parts(words, n, lex).into_iter().find(|r| {
        let first = (r.start..r.end)
            .find(|&k| !lex.openers.contains(words[k]) && !lex.glue.contains(words[k]));
        let names = links.iter().any(|l| {
            r.start <= l.start
                && l.end <= r.end
                && l.targets.iter().any(|t| {
                    t.names()
                        || matches!(
                            t,
                            Target::Amount(..) | Target::AmountAfter(..) | Target::Day(_)
                        )
                })
        });
        !asks(words, r.clone(), n, lex)
            && names
            && !first.is_some_and(|k| reads_at(k) && !writes_at(k))
            && !(r.start..r.end).any(|k| lex.negation.contains(words[k]))
            && (r.start..r.end)
                .any(|k| writes_at(k) && !reads_at(k) && (k == 0 || words[k - 1] != "to"))
    })
}

/// True when the message opens with a question ("wings tn?? do we even
/// have them") and no part of it asks for a change outright.
///
/// A part that starts with a request's verb ("… right? stick 6 eggs on the
/// list") asks for the change whatever the question before it.
pub fn first_part_asks(words: &[&str], n: &Normalized, lex: &Lexicon) -> bool {
    let parts = parts(words, n, lex);
    let bids = parts.iter().any(|r| {
        (r.start..r.end)
            .find(|&k| !lex.openers.contains(words[k]))
            .is_some_and(|k| verb_at(words, k, lex) && phrase_at(words, k, &lex.asking).is_none())
    });
    !bids
        && parts
            .first()
            .is_some_and(|r| asks(words, r.clone(), n, lex))
}

/// True when the range is put as a question: it opens with a question's
/// words ("did i", "can i"), ends with "?" without a polite opener ("can you
/// …?" asks for a change), or ends with a tag ("…, right").
fn asks(words: &[&str], r: Range<usize>, n: &Normalized, lex: &Lexicon) -> bool {
    let ws = &words[..r.end];
    let start = (r.start..r.end)
        .find(|&k| !lex.openers.contains(ws[k]))
        .unwrap_or(r.start);
    let polite = phrase_at(ws, start, &lex.polite).is_some();
    let opens = phrase_at(ws, start, &lex.asking).is_some();
    let marked = r.end > r.start && n.asked.contains(&n.tokens[r.end - 1].clause);
    let tagged = lex
        .tags
        .iter()
        .any(|t| r.end > r.start + t.len() && super::link::starts_with(ws, r.end - t.len(), t));
    !polite && (opens || marked || tagged)
}

/// Where a correction said just before `start` begins ("no sorry one
/// bag", "i mean 3").
fn corrected_at(words: &[&str], start: usize, lex: &Lexicon) -> Option<usize> {
    (start.saturating_sub(3)..start).find(|&k| {
        phrase_at(words, k, &lex.correction).is_some() && !matches!(words[k], "not" | "make")
    })
}

/// Takes one link into the frame's slots: the index of the target used, or
/// `None` when the frame has no use for the link.
fn take(
    l: &Link,
    f: &Frame,
    at: &At,
    fill: &mut Fill,
    pending: &mut Option<(f64, Option<String>)>,
    needs: &dyn Fn(Need) -> bool,
) -> Option<usize> {
    let (scene, words) = (at.scene, at.words);
    let clause = |k: usize| at.n.tokens[k].clause;
    // "milks more like 500ml now. and put the limes on the counter": an
    // amount waiting for its food is not that of a food in a later
    // sentence; left unplaced, its words are not read.
    if pending.is_some()
        && let Some(a) = fill.pending_at.clone()
        && clause(a.start) != clause(l.start)
        && l.targets.iter().any(Target::names)
    {
        *pending = None;
        fill.pending_at = None;
        fill.explained[a].fill(false);
    }
    // "add 2 green chillies; skip the curry leaves": after what is added, a
    // food said with a word that leaves it out is left out, and read.
    if matches!(f.act, ActKind::ShoppingAdd | ActKind::InventoryAdd)
        && !fill.items.is_empty()
        && l.targets.iter().any(Target::names)
    {
        let left_out = (l.start.saturating_sub(2)..l.start).find(|&k| {
            clause(k) == clause(l.start)
                && (at.lex.negation.contains(words[k]) || matches!(words[k], "skip" | "minus"))
        });
        if let Some(k) = left_out {
            fill.explained[k..l.end].fill(true);
            return None;
        }
    }
    for (ti, t) in l.targets.iter().enumerate() {
        let used = match t {
            // "add too bags of peas to the list no sorry one bag": an
            // amount after a correction, with no food of its own, amends
            // the one food's amount.
            Target::Amount(q, u) | Target::AmountAfter(q, u)
                if (needs(Need::Items) || needs(Need::Stocked))
                    && fill.items.len() == 1
                    && !at.links.iter().any(|o| {
                        o.start == l.end && o.targets.first().is_some_and(Target::names)
                    })
                    && corrected_at(words, l.start, at.lex).is_some() =>
            {
                let k = corrected_at(words, l.start, at.lex).unwrap_or(l.start);
                // "no" said just before the correction goes with it.
                let from = if k > 0 && matches!(words[k - 1], "no" | "nah" | "oh") {
                    k - 1
                } else {
                    k
                };
                fill.explained[from..l.start].fill(true);
                if let Some(one) = fill.items.first_mut() {
                    one.quantity = Some(*q);
                    one.unit = u.clone();
                }
                true
            }
            // "add green chilies to the list, 2 pcs", "curry leaves as
            // well, 10 of them": an amount closing its clause, or said of
            // "them", is the amount of the food before it.
            Target::Amount(q, u)
                if (needs(Need::Items) || needs(Need::Stocked))
                    && fill.items.last().is_some_and(|i| i.quantity.is_none())
                    && !(l.start > 0 && matches!(words[l.start - 1], "and" | "plus"))
                    && (words
                        .get(l.end)
                        .is_some_and(|w| matches!(*w, "them" | "those" | "each"))
                        || l.end < words.len() && clause(l.end) != clause(l.start)
                        || l.end == words.len()) =>
            {
                if let Some(last) = fill.items.last_mut() {
                    last.quantity = Some(*q);
                    last.unit = u.clone();
                }
                true
            }
            // "got 4 tomatoes, tick them": how many were bought ticks the
            // row all the same.
            Target::Amount(..) if f.act == ActKind::ShoppingBought => true,
            Target::Amount(q, u)
                if needs(Need::Items) || needs(Need::Amount) || needs(Need::Stocked) =>
            {
                *pending = Some((*q, u.clone()));
                fill.pending_at = Some(l.start..l.end);
                true
            }
            // A day is a slot of the plan's and the tasks' frames; "today"
            // only says when anything else happened.
            // "nothing tmrw", "lunch instead of dinner", "Friday I'm out":
            // a day or meal ruled out is no slot.
            Target::Day(_) | Target::Meal(_) if ruled_out(words, l, at.n, at.lex) => false,
            Target::Day(d)
                if needs(Need::Day) || dated(f.act) || d == "today" && happened(f.act) =>
            {
                // "put kerala cod curry on friday. my wife says saturday. ok
                // saturday": a later clause that says only a day, as a
                // change of mind, replaces the day said before.
                let this = clause(l.start);
                let in_clause = |k: &usize| clause(*k) == this;
                let mind = (0..words.len()).filter(in_clause).any(|k| {
                    matches!(
                        words[k],
                        "ok" | "okay"
                            | "fine"
                            | "actually"
                            | "says"
                            | "said"
                            | "wants"
                            | "rather"
                            | "prefer"
                            | "prefers"
                            | "instead"
                    )
                });
                let adds = (0..words.len()).filter(in_clause).any(|k| {
                    matches!(
                        words[k],
                        "and" | "too" | "also" | "plus" | "both" | "aswell"
                    )
                });
                let names_in_clause = at.links.iter().any(|o| {
                    clause(o.start) == this && o.targets.first().is_some_and(Target::names)
                });
                // "just do wed and thu then, drop friday": days a clause
                // keeps, with no verb of the removal in it, are not taken
                // off.
                let keeps = (0..words.len())
                    .filter(in_clause)
                    .any(|k| matches!(words[k], "keep" | "do"))
                    && !(0..words.len())
                        .filter(in_clause)
                        .any(|k| phrase_at(words, k, &f.verbs).is_some());
                if f.act == ActKind::PlanRemove && keeps {
                    return None;
                }
                if f.act == ActKind::PlanPut
                    && mind
                    && !adds
                    && !names_in_clause
                    && fill.days.len() == 1
                    && fill.last_day_clause.is_some_and(|c| c != this)
                {
                    fill.days.clear();
                    fill.meals.clear();
                }
                fill.last_day_clause = Some(this);
                // "next wednesday the 21st": one day, said twice.
                let right_after = fill
                    .last_day_end
                    .is_some_and(|e| e == l.start || e + 1 == l.start && words[e] == "the");
                if let Some(e) = fill.last_day_end
                    && words[e.min(l.start)..l.start]
                        .iter()
                        .any(|w| !matches!(*w, "and" | "or" | "n" | "&"))
                {
                    fill.days_apart = true;
                }
                fill.last_day_end = Some(l.end);
                if right_after
                    && let Some(n) = d.strip_prefix("of_month_")
                    && let Some(prev) = fill.days.last_mut()
                {
                    let w = prev.strip_prefix("next_").unwrap_or(prev).to_string();
                    if crate::brain::offline::text::weekday_index(&w).is_some() {
                        *prev = format!("dated_{w}_{n}");
                        return Some(ti);
                    }
                }
                fill.days.push(d.clone());
                fill.day_spans.push(l.start..l.end);
                // "tonight": the day's dinner, unless a meal is said.
                let night = words[l.start..l.end]
                    .iter()
                    .any(|w| matches!(*w, "tonight" | "tonite" | "tn" | "2nite" | "2night"));
                if night && needs(Need::Day) {
                    fill.meals.push((fill.days.len(), "dinner".into()));
                }
                true
            }
            // "what can i make tonight", "… for dinner": when, asking
            // nothing more.
            Target::Day(_) | Target::Meal(_) if f.act == ActKind::WhatCanIMake => true,
            Target::Meal(m) if needs(Need::Day) || f.act == ActKind::ShowPlan => {
                fill.meals.push((fill.days.len(), m.clone()));
                // "… and friday lunch can be the leftovers": more said of
                // the meal after it, in its clause.
                fill.meal_ends_clause = (l.end..words.len())
                    .take_while(|&k| clause(k) == clause(l.start))
                    .all(|k| matches!(words[k], "please" | "pls" | "thanks" | "thx" | "then"));
                true
            }
            Target::Domain(d) if Some(*d) == f.domain => {
                fill.domain = true;
                // "in the pantry not the cabinet": the place ruled out is
                // not where it goes.
                let lex = super::lexicon::lexicon();
                if let Some(k) =
                    (l.start.saturating_sub(2)..l.start).find(|&k| lex.negation.contains(words[k]))
                {
                    fill.explained[k] = true;
                    return Some(ti);
                }
                // "from the counter into the fridge": where it is now is
                // not where it goes.
                if (l.start.saturating_sub(2)..l.start).any(|k| {
                    words[k] == "from" || words[k] == "of" && k > 0 && words[k - 1] == "out"
                }) {
                    return Some(ti);
                }
                // "in the fridge": the place in the kitchen, when it is one.
                if fill.place.is_some() {
                    fill.places_said += 1;
                }
                fill.place = words[l.start..l.end].iter().find_map(|w| match *w {
                    "fridge" | "freezer" | "pantry" | "counter" | "cabinet" => Some(w.to_string()),
                    "cupboard" | "cupboards" => Some("pantry".to_string()),
                    _ => None,
                });
                true
            }
            Target::Reason => f.writes,
            Target::Rest if needs(Need::Rest) => {
                fill.rest = true;
                true
            }
            // "everything except the tomatoes": the rest, said the other way.
            Target::Except if needs(Need::Rest) => {
                fill.except = true;
                true
            }
            Target::AmountAfter(q, u) if needs(Need::Amount) => {
                *pending = Some((*q, u.clone()));
                fill.amount = Some((*q, u.clone()));
                true
            }
            // ("the ginger is now 120 g, i used 30 g": an amount after
            // another change's verb is that change's, not the item's.)
            Target::AmountAfter(..)
                if (needs(Need::Items) || needs(Need::Stocked))
                    && fill.item_at.is_some_and(|i| {
                        (i..l.start).any(|k| {
                            at.lex.frames.iter().any(|g| {
                                g.writes
                                    && g.act != f.act
                                    && phrase_at(words, k, &g.verbs).is_some()
                            })
                        })
                    }) =>
            {
                false
            }
            Target::AmountAfter(q, u) if needs(Need::Items) || needs(Need::Stocked) => {
                match fill.items.last_mut().filter(|i| i.quantity.is_none()) {
                    Some(last) => {
                        last.quantity = Some(*q);
                        last.unit = u.clone();
                        true
                    }
                    None => false,
                }
            }
            Target::Bulk if needs(Need::Bulk) || needs(Need::Rest) => {
                fill.bulk = true;
                true
            }
            Target::Listed(rows) if needs(Need::Listed) => {
                fill.listed.extend(rows.iter().cloned());
                true
            }
            // "he bought the halloumi, its in the fridge. tick it": "it" is
            // the food named before it in the message, when the list holds
            // it.
            Target::Pointer(Pointer::It) if needs(Need::Listed) => {
                let on_list = |w: &str| {
                    scene
                        .names
                        .shopping
                        .iter()
                        .find(|s| s.eq_ignore_ascii_case(w))
                        .cloned()
                };
                let named =
                    at.links
                        .iter()
                        .rev()
                        .filter(|m| m.end <= l.start)
                        .find_map(|m| match m.targets.first() {
                            Some(Target::Listed(rows)) => rows.first().cloned(),
                            Some(Target::Food(w)) => on_list(w),
                            Some(Target::Stocked(rows)) => rows.iter().find_map(|r| on_list(r)),
                            _ => None,
                        });
                match named {
                    Some(row) => {
                        if !fill.listed.contains(&row) {
                            fill.listed.push(row);
                        }
                        true
                    }
                    None => false,
                }
            }
            // "are we out of eggs": a food the stock does not hold is asked
            // after all the same (there is none).
            // Not when a row of the stock shares a word of it ("tea bags"
            // beside "black tea"): that is the older chain's to match.
            Target::Food(x)
                if matches!(f.act, ActKind::HowMuch | ActKind::ExpiryOf)
                    && !l
                        .targets
                        .iter()
                        .any(|t| t.names() && !matches!(t, Target::Food(_)))
                    && !scene.names.inventory.iter().any(|row| {
                        let row = super::link::name_words(row);
                        words[l.start..l.end]
                            .iter()
                            .any(|w| row.contains(&crate::context::taxonomy::singular(w)))
                    }) =>
            {
                fill.stocked.push(vec![x.clone()]);
                true
            }
            Target::Stocked(rows) if needs(Need::Stocked) => {
                push_item(fill, pending, &rows.join(" / "));
                fill.stocked.push(rows.clone());
                true
            }
            // Bought what the list holds is ticked off, not a new row.
            Target::Listed(_) if f.act == ActKind::InventoryAdd => false,
            Target::Listed(rows) | Target::Stocked(rows) if needs(Need::Items) => {
                let said = if rows.len() == 1 {
                    rows[0].clone()
                } else {
                    span(l, words)
                };
                push_item(fill, pending, &said);
                true
            }
            Target::Food(x) if needs(Need::Items) && l.scores[ti] >= 0.5 => {
                push_item(fill, pending, x);
                true
            }
            Target::Food(x) if needs(Need::Food) => {
                // "the thighs": the one row whose name holds the word; a
                // family ("dairy", "nuts", "fish") stays the family.
                let family = crate::context::taxonomy::is_family(x);
                let row = l.targets.iter().find_map(|t| match t {
                    Target::Stocked(r) | Target::Listed(r) if r.len() == 1 && !family => {
                        Some(r[0].clone())
                    }
                    _ => None,
                });
                fill.foods.push(row.unwrap_or_else(|| x.clone()));
                true
            }
            Target::Stocked(rows) | Target::Listed(rows) if needs(Need::Food) => {
                fill.foods.push(if rows.len() == 1 {
                    rows[0].clone()
                } else {
                    span(l, words)
                });
                true
            }
            // "take the miso cod off sunday": the recipe tells which slot.
            Target::Recipe(_) if f.act == ActKind::PlanRemove && fill.recipe_said.is_empty() => {
                fill.recipe_said = said_words(words, l, at.lex);
                true
            }
            Target::Recipe(names) if needs(Need::Recipe) => {
                let names = scene.narrowed(names);
                // "the curry, the kerala one": two spans naming one recipe.
                match fill.recipes.last_mut() {
                    Some(prev) if only_glue(words, fill.last_recipe_end, l.start) => {
                        let both: Vec<String> =
                            prev.iter().filter(|x| names.contains(x)).cloned().collect();
                        // "the chicken curry thing": words side by side are
                        // one name; naming no one recipe, it is asked which.
                        let side_by_side = fill.last_recipe_end == l.start
                            && l.start > 0
                            && at.n.tokens[l.start - 1].clause == at.n.tokens[l.start].clause;
                        if both.is_empty() && side_by_side {
                            for n in names {
                                if !prev.contains(&n) {
                                    prev.push(n);
                                }
                            }
                        } else if both.is_empty() {
                            fill.recipes.push(names);
                        } else {
                            *prev = both;
                        }
                    }
                    _ => fill.recipes.push(names),
                }
                fill.last_recipe_end = l.end;
                if let Some(last) = fill.recipes.last() {
                    fill.said_in_order.push(last.clone());
                }
                if fill.recipe_said.is_empty() {
                    fill.recipe_said = said_words(words, l, at.lex);
                }
                true
            }
            // "it" beside a recipe the message names is that recipe.
            // "… the assam pedas? and what would i need for it": "it" after
            // a recipe an earlier part names is that one.
            Target::Pointer(p) if needs(Need::Recipe) => {
                let it = match p {
                    // (A question's, or what is missing for the dish an
                    // earlier part plans; a change's "it" keeps to the
                    // talk.)
                    Pointer::It if !f.writes || f.act == ActKind::ShoppingMissing => {
                        at.it_recipe.clone().or_else(|| scene.recipe_at(*p))
                    }
                    _ => scene.recipe_at(*p),
                };
                match it {
                    Some(name) => {
                        fill.said_in_order.push(vec![name.clone()]);
                        fill.pointed.push(name);
                        true
                    }
                    None => false,
                }
            }
            // "swap them" right after two dinners were planned or shown:
            // those two days trade.
            Target::Pointer(Pointer::It)
                if f.act == ActKind::PlanExchange && fill.days.is_empty() =>
            {
                match scene.slots_just_said().as_slice() {
                    [(a, m), (b, n)] if m == n => {
                        fill.days = vec![a.clone(), b.clone()];
                        fill.meals.push((0, m.clone()));
                        true
                    }
                    _ => false,
                }
            }
            // "set it to 240 g": the one row the last reply showed.
            Target::Pointer(_) if f.act == ActKind::StockSet => match scene.row_just_said() {
                Some(row) => {
                    fill.stocked.push(vec![row]);
                    true
                }
                None => false,
            },
            // "scrap that reminder": the one task the last reply wrote or
            // showed.
            Target::Pointer(_) if needs(Need::Task) => match scene.task_just_said() {
                Some(task) => {
                    fill.tasks.push(vec![task]);
                    true
                }
                None => false,
            },
            Target::Task(tasks) if needs(Need::Task) => {
                fill.tasks.push(tasks.clone());
                true
            }
            _ => false,
        };
        if used {
            return Some(ti);
        }
    }
    None
}

/// Where a task's title ends: at a joiner before another request's verb
/// ("remind me to X and tick off Y"), else at the range's end.
fn title_end(words: &[&str], from: usize, end: usize) -> usize {
    let lex = super::lexicon::lexicon();
    let at = (from..end)
        .find(|&i| {
            matches!(words[i], "and" | "also" | "then" | "plus" | "but")
                && (i + 1..(i + 4).min(end)).any(|k| verb_at(words, k, lex))
                || i > from && retracts_at(words, i, lex)
        })
        .unwrap_or(end);
    // "… friday oh wait": the interjection goes with the take-back.
    if at < end && at > from + 1 && matches!(words[at - 1], "oh" | "um" | "uh" | "hmm" | "ah") {
        at - 1
    } else {
        at
    }
}

/// The acts that report what happened, which "today" only dates.
fn happened(act: ActKind) -> bool {
    matches!(
        act,
        ActKind::InventoryAdd
            | ActKind::StockUse
            | ActKind::ShoppingBought
            | ActKind::ShoppingAdd
            | ActKind::RecipeCooked
    )
}

/// The stock rows each span named, once each. "the rice which one is
/// more, basmati or the jasmine": a name said more closely later stands
/// for the vaguer one.
fn stocked_named(groups: &[Vec<String>]) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for g in groups {
        let vaguer = groups
            .iter()
            .any(|o| o.len() < g.len() && o.iter().all(|x| g.contains(x)));
        for x in g {
            if !vaguer && !items.contains(x) {
                items.push(x.clone());
            }
        }
    }
    items
}

/// The words of a linked span, small words left out ("miso cod").
fn said_words(words: &[&str], l: &Link, lex: &Lexicon) -> Vec<String> {
    words[l.start..l.end]
        .iter()
        .filter(|w| !lex.glue.contains(**w))
        .map(|w| w.to_string())
        .collect()
}

/// The acts that take rows away.
fn removes(act: ActKind) -> bool {
    matches!(
        act,
        ActKind::ShoppingRemove | ActKind::StockRemove | ActKind::PlanRemove | ActKind::TaskRemove
    )
}

/// Marks a clause other than the verb's that only refuses what the frame
/// took ("no ice cream", "mum says no ice cream"): the negation, and who
/// said it ("mum says", "she said").
fn refusal_as_reason(
    words: &[&str],
    n: &Normalized,
    lex: &Lexicon,
    r: &Range<usize>,
    verb_clause: usize,
    explained: &mut [bool],
) {
    let clauses: Vec<usize> = r
        .clone()
        .map(|k| n.tokens[k].clause)
        .filter(|c| *c != verb_clause)
        .collect();
    for c in clauses {
        let ks: Vec<usize> = r.clone().filter(|&k| n.tokens[k].clause == c).collect();
        let took = ks
            .iter()
            .any(|&k| explained[k] && !lex.glue.contains(words[k]));
        let Some(&neg) = ks.iter().find(|&&k| lex.negation.contains(words[k])) else {
            continue;
        };
        let before: Vec<usize> = ks.iter().copied().filter(|&k| k < neg).collect();
        let reported = match before.as_slice() {
            [] => true,
            [.., _, said] => matches!(words[*said], "says" | "said" | "say" | "wants"),
            [_] => false,
        };
        let rest_taken = ks
            .iter()
            .filter(|&&k| k > neg)
            .all(|&k| explained[k] || lex.glue.contains(words[k]));
        if took && reported && rest_taken {
            for &k in ks.iter().filter(|&&k| k <= neg) {
                explained[k] = true;
            }
        }
    }
}

/// The acts a day belongs to without being needed.
fn dated(act: ActKind) -> bool {
    matches!(
        act,
        ActKind::TaskAdd | ActKind::ShowPlan | ActKind::PlanRemove
    )
}

/// Marks what is said of a thing after its name: a copula right after a
/// linked span the frame took, and the words after it to the clause's
/// end, up to a name, a verb or a negation.
fn described(
    words: &[&str],
    n: &Normalized,
    links: &[Link],
    lex: &Lexicon,
    r: &Range<usize>,
    explained: &mut [bool],
) {
    let starts = |k: usize| links.iter().any(|l| l.start == k);
    // After a name the frame took, or a word standing for one ("its gone
    // slimy", "theyre past it").
    let named = links
        .iter()
        .filter(|l| r.start <= l.start && l.end <= r.end && explained[l.start])
        .map(|l| l.end);
    let pointed = (r.start..r.end)
        .filter(|&k| matches!(words[k], "its" | "theyre" | "it" | "they" | "thats"))
        .map(|k| k + 1);
    let ends: Vec<usize> = named.chain(pointed).collect();
    for end in ends {
        if end >= r.end {
            continue;
        }
        let Some(c) = phrase_at(&words[..r.end], end, &lex.copula) else {
            continue;
        };
        let l = Link {
            start: end,
            end,
            targets: Vec::new(),
            scores: Vec::new(),
        };
        let clause = n.tokens[l.end].clause;
        let mut k = l.end + c.len();
        let from = k;
        while k < r.end
            && n.tokens[k].clause == clause
            && !starts(k)
            && !verb_at(words, k, lex)
            && !lex.negation.contains(words[k])
        {
            k += 1;
        }
        if k > from {
            explained[l.end..k].fill(true);
        }
    }
}

/// The servings said with a plan, their words marked: a number before
/// "people", "servings", "of us"; after "serves"; or "for 4" closing a
/// clause.
fn servings_said(
    words: &[&str],
    links: &[Link],
    lex: &Lexicon,
    r: &Range<usize>,
    explained: &mut [bool],
) -> Option<u32> {
    let mut said = None;
    for l in links
        .iter()
        .filter(|l| r.start <= l.start && l.end <= r.end)
    {
        let Some(Target::Amount(q, None) | Target::AmountAfter(q, None)) = l.targets.first() else {
            continue;
        };
        if !(1.0..=24.0).contains(q) || q.fract() != 0.0 {
            continue;
        }
        // The number's own word, then what follows it ("6 of us", though
        // the amount took the "of").
        let after = phrase_at(&words[..r.end], l.start + 1, &lex.servings)
            .map(|p| (l.start + 1 + p.len()).max(l.end) - l.end);
        let before = (l.start.saturating_sub(2)..l.start).find(|&k| {
            phrase_at(&words[..l.start], k, &lex.serves).is_some_and(|p| k + p.len() == l.start)
        });
        let closing_for = l.start > r.start
            && words[l.start - 1] == "for"
            && (l.end..r.end).all(|k| lex.glue.contains(words[k]));
        // "…, also 2", "… 2 too": the same count said again for the next
        // dish, closing its clause.
        let again = |k: usize| matches!(words[k], "also" | "too" | "again");
        let again_before = l.start > r.start && again(l.start - 1);
        let again_after = l.end < r.end && again(l.end);
        let closing_again = (again_before || again_after)
            && (l.end..r.end).all(|k| lex.glue.contains(words[k]) || again(k));
        // "…, 2 each": a count closing its clause with "each" is every
        // dish's.
        let each_after = l.end < r.end
            && matches!(words[l.end], "each" | "apiece")
            && only_glue(words, l.end + 1, r.end);
        if let Some(len) = after {
            // "4 servings each": one count for every dish.
            let each = words
                .get(l.end + len)
                .is_some_and(|w| matches!(*w, "each" | "apiece"))
                && l.end + len < r.end;
            explained[l.start..l.end + len + usize::from(each)].fill(true);
        } else if let Some(k) = before {
            explained[k..l.end].fill(true);
        } else if closing_for {
            explained[l.start - 1..l.end].fill(true);
        } else if each_after {
            explained[l.start..=l.end].fill(true);
        } else if closing_again && said.is_some() {
            let from = if again_before { l.start - 1 } else { l.start };
            let to = if again_after { l.end + 1 } else { l.end };
            explained[from..to].fill(true);
            continue;
        } else {
            continue;
        }
        said = Some(*q as u32);
    }
    // "just the one portion", "a single serving", "for one": a count in
    // words no amount took ("one" is the grammar's small word).
    if said.is_none() {
        for k in r.clone() {
            // "just me", "only for me", "for myself": one.
            let lead = |j: usize| j >= r.start && matches!(words[j], "just" | "only");
            if matches!(words[k], "me" | "myself") && k > r.start {
                let from = match words[k - 1] {
                    "for" if k >= 2 && lead(k - 2) => Some(k - 2),
                    "for" if words[k] == "myself" => Some(k - 1),
                    _ if lead(k - 1) => Some(k - 1),
                    _ => None,
                };
                if let Some(from) = from {
                    explained[from..=k].fill(true);
                    said = Some(1);
                }
                continue;
            }
            // "for three people": a count in words, as the grammar's
            // numbers say it.
            let spelled = lex
                .numbers
                .iter()
                .find(|(p, _)| p.len() == 1 && p[0] == words[k])
                .map(|(_, q)| *q)
                .filter(|q| (1.0..=24.0).contains(q) && q.fract() == 0.0);
            let n = match (words[k], spelled) {
                ("single", _) => 1,
                (_, Some(q)) => q as u32,
                _ => continue,
            };
            let after = phrase_at(&words[..r.end], k + 1, &lex.servings).map(|p| p.len());
            let for_one = n == 1 && k > r.start && words[k - 1] == "for" && k + 1 == r.end;
            if let Some(len) = after {
                explained[k..k + 1 + len].fill(true);
            } else if for_one {
                explained[k - 1..=k].fill(true);
            } else {
                continue;
            }
            said = Some(n);
        }
    }
    said
}

/// Marks every phrase of `list` said in the range as explained.
fn mark_phrases(words: &[&str], r: Range<usize>, list: &[Phrase], explained: &mut [bool]) {
    let mut k = r.start;
    while k < r.end {
        match phrase_at(&words[..r.end], k, list) {
            Some(p) => {
                explained[k..k + p.len()].fill(true);
                k += p.len();
            }
            None => k += 1,
        }
    }
}

/// A word without its ending: "picked" → "pick", "cleaning" → "clean".
fn stem(w: &str) -> String {
    let w = crate::context::taxonomy::singular(w);
    for end in ["ing", "ed"] {
        if let Some(s) = w.strip_suffix(end)
            && s.len() >= 3
        {
            return s.to_string();
        }
    }
    w
}

/// True when only glue (or nothing) lies between two spans.
fn only_glue(words: &[&str], from: usize, to: usize) -> bool {
    let glue = &super::lexicon::lexicon().glue;
    from <= to && words[from..to].iter().all(|w| glue.contains(*w))
}

fn span(l: &Link, words: &[&str]) -> String {
    words[l.start..l.end].join(" ")
}

fn push_item(fill: &mut Fill, pending: &mut Option<(f64, Option<String>)>, name: &str) {
    // "bag of shallots (like 8)": the bag is the measure, not a food.
    if crate::brain::offline::items::unit_word(name).is_some() {
        return;
    }
    fill.item_at = Some(fill.item_start);
    // "oat milk": a food said right after another, with nothing between,
    // is one food when the catalog knows the two words together, and
    // leaves the reading in doubt when it does not ("eggs milk").
    if pending.is_none()
        && let Some(last) = fill.items.last_mut()
        && fill.last_item_end == Some(fill.item_start)
    {
        let joined = format!("{} {name}", last.name);
        let heads = &super::lexicon::lexicon().food_heads;
        let plural = |w: &str| w.ends_with('s') && !w.ends_with("ss");
        let one_word = !last.name.contains(' ');
        let head = name
            .split(' ')
            .next_back()
            .is_some_and(|h| heads.contains(h));
        if crate::brain::offline::vocab::is_food_phrase(&joined)
            || head && one_word && !plural(&last.name)
        {
            last.name = joined;
            return;
        }
        fill.run_on = true;
    }
    let (quantity, unit) = pending.take().map_or((None, None), |(q, u)| (Some(q), u));
    fill.items.push(ItemSaid {
        name: name.to_string(),
        quantity,
        unit,
    });
}

/// The verbs that say what the stock holds ("we have", "ive got"): the
/// `inventory_add` frame's, read as an amount said afresh of a row held.
const HOLDS: &[&str] = &[
    "we have",
    "i have",
    "ive got",
    "weve got",
    "we do have",
    "i do have",
    "we still have",
    "i still have",
];

/// True when the verb is one that says what the stock holds.
fn holds(verb: &[String]) -> bool {
    HOLDS
        .iter()
        .any(|h| verb.iter().map(String::as_str).eq(h.split(' ')))
}

/// The small words that lead to a day in a task's title ("… on saturday",
/// "… by next friday").
const DAY_LEADS: &[&str] = &["on", "by", "for", "this", "next", "at", "the"];

/// The act a filled frame stands for, or `None` when a slot it needs is
/// empty; a slot with several candidates is a choice.
/// True when the words in `r` say where things go ("… on", "… into the
/// basket"): a verb the list and the bin share, said so, is the list's.
fn says_where(words: &[&str], r: Range<usize>) -> bool {
    r.into_iter()
        .any(|k| matches!(words[k], "on" | "in" | "onto" | "into"))
}

/// The words in `r` that say all of a thing ("all", "the whole", "the
/// last of", "the rest of") — not of one of its measures ("a whole can").
fn whole_said(words: &[&str], r: Range<usize>) -> Vec<usize> {
    let lex = super::lexicon::lexicon();
    let counted = |k: usize| {
        k > 0
            && (matches!(words[k - 1], "a" | "an" | "one")
                || words[k - 1].chars().all(|c| c.is_ascii_digit()))
    };
    r.clone()
        .filter(|&k| {
            lex.bulk.contains(words[k]) && words[k] != "lot" && !counted(k)
                || words[k] == "last" && words.get(k + 1) == Some(&"of")
        })
        .collect()
}

fn build(
    f: &Frame,
    fill: &Fill,
    words: &[&str],
    (verb, verb_end): (&Vec<String>, usize),
    r: Range<usize>,
    scene: &Scene,
) -> Option<(Vec<Act>, Option<Choice>)> {
    let needs = |n: Need| f.needs.contains(&n);
    // "delete it" right after a task was added: the talk names the tasks.
    let on_topic = needs(Need::Task) && f.domain.is_some_and(|d| scene.on_topic(d));
    if needs(Need::Domain) && !fill.domain && !on_topic {
        return None;
    }
    let one_of = |v: &[Vec<String>], what: &'static str| -> Option<(String, Option<Choice>)> {
        let first = v.first()?;
        match first.len() {
            0 => None,
            1 => Some((first[0].clone(), None)),
            _ => Some((
                first[0].clone(),
                Some(Choice {
                    what,
                    options: first.clone(),
                }),
            )),
        }
    };
    let act = match f.act {
        // A share ("most of the milk", half of a thing to buy) is the
        // older rules' to work out from the row; so is a part of a row
        // moved ("one of the cod fillets", "half the paneer"), never the
        // whole row.
        ActKind::StockUse | ActKind::InventoryAdd | ActKind::ShoppingAdd | ActKind::StockMove
            if (r.start..r.end).any(|k| {
                let of_a_row = words
                    .get(k + 1)
                    .is_some_and(|n| matches!(*n, "the" | "of" | "my" | "that" | "this" | "those"));
                if f.act == ActKind::StockMove {
                    let of_next = words.get(k + 1) == Some(&"of") && k + 1 < r.end;
                    // ("half the paneer" and "two of the fillets" are the
                    // part the part move takes.)
                    return words[k] == "part"
                        || of_next
                            && matches!(words[k], "some" | "couple" | "few" | "most" | "bit");
                }
                // "some green chillies" to buy is no share of a row.
                let share = f.act == ActKind::StockUse || of_a_row;
                matches!(words[k], "most" | "bit") && of_a_row
                    || matches!(words[k], "some" | "few") && share
                    || matches!(words[k], "quarter" | "third") && of_a_row
                    // "use half of it" is read as a share of the row.
                    || words[k] == "half" && of_a_row && f.act != ActKind::StockUse
            }) =>
        {
            return None;
        }
        // "we're out of milk, add it to the list": the stock has none left
        // either, so its row goes too.
        // ("we're nearly out of milk" is low, not gone.)
        ActKind::ShoppingAdd
            if !fill.items.is_empty()
                && (r.start..r.end.saturating_sub(1)).any(|k| {
                    words[k] == "out" && words[k + 1] == "of" && !low_not_gone(words, k)
                }) =>
        {
            let gone: Vec<String> = fill
                .items
                .iter()
                .filter(|i| scene.names.inventory.contains(&i.name))
                .map(|i| i.name.clone())
                .collect();
            let add = Act::ShoppingAdd {
                items: fill.items.clone(),
            };
            return Some((
                if gone.is_empty() {
                    vec![add]
                } else {
                    vec![Act::StockRemove { rows: gone }, add]
                },
                None,
            ));
        }
        // "spinach on the list pls", "oat milk on the list too": with no
        // verb, a whole request — every word before the place read — that
        // says nothing of what is there already ("milk's on the list
        // already", "is bread still on the list").
        ActKind::ShoppingAdd
            if matches!(verb[0].as_str(), "on" | "onto" | "to")
                && (!fill.explained[r.start..verb_end]
                    .iter()
                    .zip(&words[r.start..verb_end])
                    .all(|(e, w)| *e || super::lexicon::lexicon().glue.contains(*w))
                    || words[r.clone()].iter().any(|w| {
                        matches!(
                            *w,
                            "is" | "are"
                                | "was"
                                | "were"
                                | "already"
                                | "still"
                                | "isnt"
                                | "arent"
                                | "its"
                                | "theres"
                                | "whats"
                                | "which"
                                | "what"
                        )
                    })) =>
        {
            return None;
        }
        ActKind::ShoppingAdd if !fill.items.is_empty() => Act::ShoppingAdd {
            items: fill.items.clone(),
        },
        // "put the brioche in the freezer": rows the stock holds already,
        // put somewhere, are moved there, not added again.
        ActKind::InventoryAdd
            if verb.iter().any(|w| w == "put")
                && fill.place.is_some()
                && !fill.items.is_empty()
                && fill
                    .items
                    .iter()
                    .all(|i| i.quantity.is_none() && scene.names.inventory.contains(&i.name)) =>
        {
            Act::StockMove {
                rows: fill.items.iter().map(|i| i.name.clone()).collect(),
                to: fill.place.clone()?,
            }
        }
        // "put 200g of the frozen peas in the fridge": part of a row the
        // stock holds, said as part of it, goes there.
        ActKind::InventoryAdd
            if verb.iter().any(|w| w == "put")
                && fill.place.is_some()
                && matches!(fill.items.as_slice(), [i] if i.quantity.is_some()
                    && scene.names.inventory.contains(&i.name))
                && (fill.items[0].unit.as_deref() == Some("share")
                    || words[r.clone()].windows(2).any(|w| {
                        w[0] == "of" && matches!(w[1], "the" | "my" | "our" | "that")
                    })) =>
        {
            let said = &fill.items[0];
            return Some((
                vec![Act::StockMovePart {
                    row: said.name.clone(),
                    quantity: said.quantity?,
                    unit: said.unit.clone(),
                    to: fill.place.clone()?,
                }],
                None,
            ));
        }
        // "we have eggs actually, 6 of them, in the fridge": what the stock
        // holds, said. A row it has already is its amount said afresh;
        // one it has not, added.
        ActKind::InventoryAdd if holds(verb) => {
            let held = |i: &ItemSaid| scene.names.inventory.contains(&i.name);
            // An amount or a place says it is stock, not talk.
            if fill
                .items
                .iter()
                .any(|i| i.quantity.is_none() && fill.place.is_none())
            {
                return None;
            }
            match fill.items.as_slice() {
                [] => return None,
                [one] if held(one) => Act::StockSet {
                    row: one.name.clone(),
                    quantity: one.quantity?,
                    unit: one.unit.clone(),
                },
                items if items.iter().any(held) => return None,
                items => Act::InventoryAdd {
                    items: items.to_vec(),
                    place: fill.place.clone(),
                },
            }
        }
        ActKind::InventoryAdd if !fill.items.is_empty() => Act::InventoryAdd {
            items: fill.items.clone(),
            place: fill.place.clone(),
        },
        ActKind::ShoppingRemove if !fill.listed.is_empty() => Act::ShoppingRemove {
            rows: fill.listed.clone(),
        },
        // "clear everything" is a fresh start; the list must be named.
        ActKind::ShoppingClear
            if fill.domain && fill.listed.is_empty() && !scene.names.shopping.is_empty() =>
        {
            Act::ShoppingClear {
                rows: scene.names.shopping.clone(),
            }
        }
        ActKind::ShoppingKeepOnly
            if !fill.listed.is_empty()
                && (fill.rest && verb.iter().any(|w| matches!(w.as_str(), "keep" | "leave"))
                    || fill.except && fill.bulk) =>
        {
            let rows: Vec<String> = scene
                .names
                .shopping
                .iter()
                .filter(|x| !fill.listed.contains(x))
                .cloned()
                .collect();
            if rows.is_empty() {
                return None;
            }
            Act::ShoppingRemove { rows }
        }
        ActKind::ShoppingBought if !fill.listed.is_empty() => Act::ShoppingBought {
            rows: fill.listed.clone(),
        },
        // "used rice" says not how much; "finished the milk", "used all the
        // coconut milk", "the last of the milk" say all of it.
        ActKind::StockUse
            if fill.items.iter().any(|i| i.quantity.is_none())
                && !matches!(
                    verb.join(" ").as_str(),
                    "finished" | "used up" | "finished off"
                )
                && whole_said(words, r.clone()).is_empty() =>
        {
            return None;
        }
        ActKind::StockUse if !fill.stocked.is_empty() => {
            if let Some(c) = fill.stocked.iter().find(|s| s.len() > 1) {
                let act = Act::StockUse {
                    items: fill.items.clone(),
                };
                return Some((
                    vec![act],
                    Some(Choice {
                        what: "item",
                        options: c.clone(),
                    }),
                ));
            }
            Act::StockUse {
                items: fill
                    .items
                    .iter()
                    .zip(&fill.stocked)
                    .map(|(i, s)| ItemSaid {
                        name: s[0].clone(),
                        ..i.clone()
                    })
                    .collect(),
            }
        }
        // "binned 2 of the eggs", "take 2 of the naan out of the freezer":
        // an amount said is that much less, never the whole row gone.
        ActKind::StockRemove if fill.items.iter().any(|i| i.quantity.is_some()) => {
            if fill.stocked.iter().any(|s| s.len() != 1)
                || fill.items.iter().any(|i| i.quantity.is_none())
            {
                return None;
            }
            Act::StockUse {
                items: fill.items.clone(),
            }
        }
        ActKind::StockRemove if !fill.stocked.is_empty() => {
            let (row, choice) = one_of(&fill.stocked, "item")?;
            let rows = std::iter::once(row)
                .chain(fill.stocked[1..].iter().filter_map(|s| s.first().cloned()))
                .collect();
            return Some((vec![Act::StockRemove { rows }], choice));
        }
        // "moved 2 chicken breasts from the freezer to the fridge": part of
        // one row, by the amount said, to the place said.
        ActKind::StockMove
            if matches!(fill.stocked.as_slice(), [one] if one.len() == 1)
                && matches!(fill.items.as_slice(), [i] if i.quantity.is_some()) =>
        {
            let to = f.place.clone().or_else(|| fill.place.clone())?;
            let said = &fill.items[0];
            return Some((
                vec![Act::StockMovePart {
                    row: fill.stocked[0][0].clone(),
                    quantity: said.quantity?,
                    unit: said.unit.clone(),
                    to,
                }],
                None,
            ));
        }
        // Whole rows to a place said, none there already ("half the
        // paneer" said and not read is no whole row).
        ActKind::StockMove
            if !fill.stocked.is_empty()
                && !words[r.clone()].contains(&"half")
                && fill.items.iter().all(|i| i.quantity.is_none())
                && fill.stocked.iter().all(|s| s.len() == 1) =>
        {
            // "the brioche on the counter, freeze it": the verb's own place
            // is where it goes; the one said is where it is.
            let to = f.place.clone().or_else(|| fill.place.clone())?;
            Act::StockMove {
                rows: fill.stocked.iter().map(|s| s[0].clone()).collect(),
                to,
            }
        }
        // "set the yogurt to 240 g", "its like 400": one row and its
        // amount; with no row said, "its …" is of the one just shown.
        ActKind::StockSet => {
            let (quantity, unit) = fill
                .items
                .first()
                .and_then(|i| i.quantity.map(|q| (q, i.unit.clone())))
                .or_else(|| fill.amount.clone())?;
            let row = match fill.stocked.as_slice() {
                [] if matches!(verb[0].as_str(), "its" | "theres" | "there" | "should") => {
                    scene.row_just_said()?
                }
                [one] if one.len() == 1 => one[0].clone(),
                [one] if one.len() > 1 => {
                    return Some((
                        vec![Act::StockSet {
                            row: one[0].clone(),
                            quantity,
                            unit,
                        }],
                        Some(Choice {
                            what: "item",
                            options: one.clone(),
                        }),
                    ));
                }
                _ => return None,
            };
            Act::StockSet {
                row,
                quantity,
                unit,
            }
        }
        // "the milk goes off on the 14th": one row, one day.
        // ("change the curry to friday" is no date of a row's.)
        ActKind::ExpirySet
            if fill.days.len() == 1
                && (!matches!(
                    verb[0].as_str(),
                    "set" | "change" | "update" | "correct" | "fix"
                ) || words[r.clone()]
                    .iter()
                    .any(|w| matches!(*w, "expiry" | "use" | "best" | "date" | "dated"))) =>
        {
            let (row, choice) = match fill.stocked.as_slice() {
                [] if fill.pointed_at_row => (scene.row_just_said()?, None),
                [_] => one_of(&fill.stocked, "item")?,
                _ => return None,
            };
            return Some((
                vec![Act::ExpirySet {
                    row,
                    day: fill.days[0].clone(),
                }],
                choice,
            ));
        }
        // Only a draft is saved; a saved recipe named is the older chain's
        // to answer ("it's saved already").
        ActKind::SaveRecipe => {
            let (recipe, choice) = one_of(&fill.recipes_named(), "recipe")?;
            if choice.is_some() || !scene.names.drafts.contains(&recipe) {
                return None;
            }
            Act::SaveRecipe { recipe }
        }
        ActKind::PlanPut if !fill.days.is_empty() => return plan_put(fill),
        // "plan the tikka bites", "put the curry on the plan": one recipe
        // and no day. The day is asked for (a choice with no options);
        // never a day guessed. Only with a verb that means the plan ("im
        // making the curry" is cooking, not planning).
        ActKind::PlanPut
            if fill.domain
                || ["plan", "schedule", "pencil", "slot"].contains(&verb[0].as_str()) =>
        {
            let (recipe, choice) = one_of(&fill.recipes_named(), "recipe")?;
            if choice.is_some() || fill.recipes_named().len() != 1 {
                return None;
            }
            let act = Act::PlanPut {
                recipe,
                days: Vec::new(),
                meal: fill.meals.first().map(|(_, m)| m.clone()),
                servings: fill.servings,
            };
            return Some((
                vec![act],
                Some(Choice {
                    what: "day",
                    options: Vec::new(),
                }),
            ));
        }
        // "move the curry to friday", "move wednesday's to friday": a
        // planned meal named by its recipe or its day; "move it" is the
        // older chain's to resolve with the plan.
        ActKind::PlanMove
            if fill.days.len() == 2 || fill.days.len() == 1 && !fill.recipes.is_empty() =>
        {
            let (from, to) = match fill.days.as_slice() {
                [a, b] => (Some(a.clone()), b.clone()),
                [to] => (None, to.clone()),
                _ => return None,
            };
            let act = Act::PlanMove {
                recipe: (!fill.recipe_said.is_empty()).then(|| fill.recipe_said.clone()),
                from,
                to,
            };
            // "move the curry": which of the curries, asked.
            let choice = fill
                .recipes
                .first()
                .filter(|c| c.len() > 1)
                .map(|c| Choice {
                    what: "recipe",
                    options: c.clone(),
                });
            return Some((vec![act], choice));
        }
        // "swap sunday and wednesday": two days trade their meals.
        ActKind::PlanExchange if fill.days.len() == 2 && fill.recipes.is_empty() => {
            Act::PlanExchange {
                days: fill.days.clone(),
                meal: fill.meals.last().map(|(_, m)| m.clone()),
            }
        }
        ActKind::PlanRemove if !fill.days.is_empty() && fill.recipes.is_empty() => {
            Act::PlanRemove {
                days: fill.days.clone(),
                meal: fill.meals.last().map(|(_, m)| m.clone()),
                recipe: fill.recipe_said.clone(),
            }
        }
        // "take the curry off" while the talk is on the plan: the planned
        // meal the words name, on whichever day it is.
        ActKind::PlanRemove
            if fill.days.is_empty() && !fill.recipe_said.is_empty() && scene.plan_in_talk() =>
        {
            Act::PlanRemove {
                days: Vec::new(),
                meal: fill.meals.last().map(|(_, m)| m.clone()),
                recipe: fill.recipe_said.clone(),
            }
        }
        ActKind::TaskAdd => {
            // "remind me next fri to clean the oven", "… in 2 weeks": a day
            // said inside the title, with the word that leads to it, is
            // the task's day, not its words.
            let end = title_end(words, verb_end, r.end);
            let mut dropped = vec![false; end.max(verb_end)];
            for s in fill.day_spans.iter().filter(|s| s.start <= end) {
                let len = dropped.len();
                for k in s.clone().filter(|k| *k < len) {
                    dropped[k] = true;
                }
                let mut k = s.start;
                while k > verb_end
                    && k - 1 < len
                    && (DAY_LEADS.contains(&words[k - 1])
                        || matches!(words[k - 1], "due" | "sometime" | "until"))
                {
                    k -= 1;
                    dropped[k] = true;
                }
                // "wed night to get it out": the part of the day goes with
                // the day.
                let mut k = s.end;
                while k < len
                    && matches!(
                        words[k],
                        "night" | "nite" | "morning" | "evening" | "afternoon" | "lunchtime"
                    )
                {
                    dropped[k] = true;
                    k += 1;
                }
            }
            let mut title: Vec<&str> = (verb_end..end)
                .filter(|k| !dropped[*k])
                .map(|k| words[k])
                .skip_while(|w| matches!(*w, "to" | "a" | "the"))
                .collect();
            // A title that takes itself back or changes its mind ("…
            // actually no ill remember actually yes do it") is no title:
            // what the task should say is not settled.
            let lex_now = super::lexicon::lexicon();
            let wavers = (verb_end..end).any(|k| {
                phrase_at(&words[..end], k, &lex_now.retract).is_some_and(|p| p.len() > 1)
                    || words[k] == "actually"
                        && words.get(k + 1).is_some_and(|n| matches!(*n, "yes" | "no"))
            });
            if wavers {
                return None;
            }
            // A time the reader could not date ("sometime soon", "every
            // week", "later") leaves the task's day unknown: not written
            // undated.
            let undated = title.iter().any(|w| {
                matches!(
                    *w,
                    "week"
                        | "weeks"
                        | "weekend"
                        | "fortnight"
                        | "month"
                        | "months"
                        | "tonight"
                        | "sometime"
                        | "later"
                        | "soon"
                        | "tomorrow"
                        | "tmrw"
                        | "bed"
                        | "bedtime"
                        | "morning"
                        | "evening"
                        | "afternoon"
                        | "weekly"
                        | "daily"
                )
            });
            if undated && fill.days.is_empty() {
                return None;
            }
            // "… wed night", "… on saturday": the day closing the title is
            // the task's day, not its words.
            let lex = super::lexicon::lexicon();
            let when = |w: &str| {
                lex.days.iter().any(|(p, _)| p.iter().any(|x| x == w))
                    || lex.meals.contains_key(w)
                    // "… in 3 days", "… the day after tomorrow".
                    || matches!(w, "in" | "days" | "day" | "after")
                    || w.chars().all(|c| c.is_ascii_digit())
                    || DAY_LEADS.contains(&w)
                    || matches!(
                        w,
                        "before"
                            | "morning"
                            | "afternoon"
                            | "evening"
                            | "night"
                    )
            };
            while title.len() > 2 && title.last().is_some_and(|w| when(w)) && !fill.days.is_empty()
            {
                title.pop();
            }
            // "chicken's in the freezer right? remind me to get it out":
            // "it" is the food said before the request, or the one row the
            // talk is about; a task about "it" that names nothing is not
            // written.
            let pronoun = |w: &str| matches!(w, "it" | "them" | "em" | "those" | "these");
            let mut resolved: Vec<String> = title.iter().map(|w| w.to_string()).collect();
            if title.iter().any(|w| pronoun(w)) {
                let lex = super::lexicon::lexicon();
                let stock: std::collections::HashSet<String> = scene
                    .names
                    .inventory
                    .iter()
                    .chain(&scene.names.shopping)
                    .flat_map(|n| super::link::name_words(n))
                    .collect();
                let said = words[..verb_end.min(words.len())]
                    .iter()
                    .rev()
                    .map(|w| crate::context::taxonomy::singular(w))
                    .find(|w| {
                        stock.contains(w.as_str())
                            && !lex.glue.contains(w.as_str())
                            && !lex.modifiers.contains(w.as_str())
                    })
                    .or_else(|| scene.row_just_said());
                let food = said?;
                for w in resolved.iter_mut() {
                    if pronoun(w) {
                        *w = format!("the {food}");
                    }
                }
            }
            let title: Vec<&str> = resolved.iter().map(String::as_str).collect();
            // A day or a negation left inside the title ("thaw cod thu
            // night and sat night" → "thaw cod and sat", "descale kettle, no
            // date") says the words were not parted where they should be:
            // no title is written from them.
            let day_word = |w: &str| lex.days.iter().any(|(p, _)| p.len() == 1 && p[0] == w);
            if title
                .iter()
                .any(|w| day_word(w) || lex.negation.contains(*w))
            {
                return None;
            }
            // "remind me what i said": a question, not a task; "make a
            // reminder for thursday evening": a day, and no task said.
            let said = title
                .iter()
                .any(|w| !when(w) && !lex.glue.contains(*w) && !lex.openers.contains(*w));
            if !said
                || title.len() < 2
                || title.len() > 12
                || phrase_at(&title, 0, &lex.asking).is_some()
            {
                return None;
            }
            Act::TaskAdd {
                title: crate::brain::offline::text::capitalise_first(&title.join(" ")),
                // A task for the weekend is due as it starts.
                day: fill.days.first().map(|d| {
                    if d == "weekend" {
                        "saturday".into()
                    } else {
                        d.clone()
                    }
                }),
            }
        }
        ActKind::TaskDone if !fill.tasks.is_empty() => {
            let (task, choice) = one_of(&fill.tasks, "task")?;
            return Some((vec![Act::TaskDone { tasks: vec![task] }], choice));
        }
        ActKind::TaskRemove if !fill.tasks.is_empty() => {
            let (task, choice) = one_of(&fill.tasks, "task")?;
            return Some((vec![Act::TaskRemove { tasks: vec![task] }], choice));
        }
        ActKind::TaskMove if fill.days.len() == 1 && !fill.tasks.is_empty() => {
            let (task, choice) = one_of(&fill.tasks, "task")?;
            return Some((
                vec![Act::TaskMove {
                    task,
                    day: fill.days[0].clone(),
                }],
                choice,
            ));
        }
        ActKind::ShowTasks => Act::ShowTasks,
        ActKind::ShowShopping => Act::ShowShopping,
        ActKind::ShowPlan if fill.domain || !fill.days.is_empty() => Act::ShowPlan {
            days: fill.days.clone(),
        },
        ActKind::ShowStock => Act::ShowStock {
            place: fill.place.clone(),
        },
        // "the rice which one is more, basmati or the jasmine": a name said
        // more closely later stands for the vaguer one.
        ActKind::HowMuch if !fill.stocked.is_empty() => Act::HowMuch {
            items: stocked_named(&fill.stocked),
        },
        // "when does it go off, and the bananas?": "it" is the older
        // chain's to resolve among the rows.
        ActKind::ExpiryOf if fill.pointed_at_row => return None,
        ActKind::ExpiryOf if !fill.stocked.is_empty() => Act::ExpiryOf {
            items: stocked_named(&fill.stocked),
        },
        ActKind::Expiring => Act::Expiring {
            place: fill.place.clone(),
        },
        ActKind::ShowRecipe
            if words[r.clone()]
                .iter()
                .any(|w| matches!(*w, "recipes" | "ones" | "dishes" | "meals")) =>
        {
            return None;
        }
        ActKind::ShowRecipe => {
            let named = fill.recipes_named();
            if let Some(word) = named.first().and_then(|n| kind_said(&words[r.clone()], n)) {
                return Some((vec![Act::FindRecipes { word }], None));
            }
            let (recipe, choice) = one_of(&named, "recipe")?;
            return Some((vec![Act::ShowRecipe { recipe }], choice));
        }
        ActKind::ListRecipes => Act::ListRecipes,
        ActKind::RecipesWith if !fill.foods.is_empty() => Act::RecipesWith {
            food: fill.foods[0].clone(),
        },
        ActKind::WhatCanIMake => Act::WhatCanIMake { within: fill.make },
        // "enough coconut milk and chicken for the curry": each food asked
        // after.
        ActKind::RecipeAmount if !fill.foods.is_empty() => {
            let (recipe, choice) = one_of(&fill.recipes_named(), "recipe")?;
            let acts = fill
                .foods
                .iter()
                .map(|food| Act::RecipeAmount {
                    recipe: recipe.clone(),
                    food: food.clone(),
                    servings: fill.servings,
                })
                .collect();
            return Some((acts, choice));
        }
        // "add whats missing for the wings"; with no recipe said, the one
        // the talk is about, or (left empty) the ones another part of the
        // message plans.
        ActKind::ShoppingMissing => {
            if fill.recipes_named().is_empty() {
                let recipe = scene
                    .recipe_at(super::link::Pointer::It)
                    .unwrap_or_default();
                return Some((vec![Act::ShoppingMissing { recipe }], None));
            }
            let (recipe, choice) = one_of(&fill.recipes_named(), "recipe")?;
            return Some((vec![Act::ShoppingMissing { recipe }], choice));
        }
        ActKind::RecipeMissing
        | ActKind::RecipeTime
        | ActKind::RecipeSpicy
        | ActKind::RecipeServes
        | ActKind::RecipeCooked => {
            let (recipe, choice) = one_of(&fill.recipes_named(), "recipe")?;
            let act = match f.act {
                ActKind::RecipeMissing => Act::RecipeMissing {
                    recipe,
                    servings: fill.servings,
                },
                ActKind::RecipeTime => Act::RecipeTime { recipe },
                ActKind::RecipeSpicy => Act::RecipeSpicy { recipe },
                ActKind::RecipeCooked => Act::RecipeCooked {
                    recipe,
                    servings: fill.servings,
                },
                _ => Act::RecipeServes { recipe },
            };
            return Some((vec![act], choice));
        }
        _ => return None,
    };
    Some((vec![act], None))
}

/// A day said, with the meal said after it.
type DaySaid = (String, Option<String>);

/// Recipes on days: one recipe on every day said, as many recipes as days
/// in order, one day for every recipe; a meal said after a day is that
/// day's. `None` for counts that do not pair ("the curry and the wings on
/// friday, saturday and sunday").
fn plan_put(fill: &Fill) -> Option<(Vec<Act>, Option<Choice>)> {
    let mut recipes = fill.recipes_named();
    // "put it on thursday and the paneer thing tmrw": a pointer and a
    // name, each with its own day, in the order said.
    if !fill.pointed.is_empty()
        && !fill.recipes.is_empty()
        && fill
            .pointed
            .iter()
            .all(|p| fill.recipes.iter().all(|r| !r.contains(p)))
        && fill.recipes.len() + fill.pointed.len() == fill.days.len()
    {
        let mut seen: Vec<Vec<String>> = Vec::new();
        for r in &fill.said_in_order {
            if seen.last() != Some(r) {
                seen.push(r.clone());
            }
        }
        if seen.len() == fill.days.len() {
            recipes = seen;
        }
    }
    // One meal said before the days, or after the last of the days one
    // recipe goes on ("on wednesday, thursday and friday lunch"), is every
    // day's.
    let every = fill.meals.len() == 1
        && (fill.meals[0].0 == 0
            || recipes.len() == 1
                && !fill.days_apart
                && fill.meal_ends_clause
                && fill.meals[0].0 == fill.days.len());
    let meal_of = |k: usize| {
        fill.meals
            .iter()
            .find(|(at, _)| *at == k + 1)
            .or_else(|| every.then(|| &fill.meals[0]))
            .map(|(_, m)| m.clone())
    };
    let days: Vec<DaySaid> = after_anchor(&fill.days, None)
        .iter()
        .enumerate()
        .map(|(k, d)| (d.clone(), meal_of(k)))
        .collect();
    let pairs: Vec<(&Vec<String>, &DaySaid)> = match (recipes.len(), days.len()) {
        (0, _) | (_, 0) => return None,
        (1, _) => days.iter().map(|d| (&recipes[0], d)).collect(),
        (n, m) if n == m => recipes.iter().zip(&days).collect(),
        (_, 1) => recipes.iter().map(|r| (r, &days[0])).collect(),
        _ => return None,
    };
    let choice = recipes
        .iter()
        .find(|r| r.len() > 1)
        .map(|r| Choice {
            what: "recipe",
            options: r.clone(),
        })
        .or_else(|| {
            fill.days.iter().any(|d| d == "weekend").then(|| Choice {
                what: "day",
                options: vec!["saturday".into(), "sunday".into()],
            })
        });
    let acts = pairs
        .into_iter()
        .filter_map(|(r, (d, m))| {
            Some(Act::PlanPut {
                recipe: r.first()?.clone(),
                days: vec![d.clone()],
                meal: m.clone(),
                servings: fill.servings,
            })
        })
        .collect();
    Some((acts, choice))
}

/// "next wednesday the 21st: the curry, and thursday lunch from it": a bare
/// weekday said after a day of a later week is that week's (Thursday the
/// 22nd), not this week's. `week` is the day the talk's week starts on, when
/// an earlier message set it ("sun the 18th to sat the 24th"): a bare
/// weekday falls in that week.
fn after_anchor(days: &[String], week: Option<&str>) -> Vec<String> {
    enum Anchor {
        Dated(usize, u32),
        Next(usize),
    }
    let index = |w: &str| crate::brain::offline::text::weekday_index(w).map(usize::from);
    let anchor_of = |d: &str| -> Option<Anchor> {
        if let Some(rest) = d.strip_prefix("dated_")
            && let Some((w, n)) = rest.rsplit_once('_')
            && let (Some(i), Ok(n)) = (index(w), n.parse::<u32>())
        {
            return Some(Anchor::Dated(i, n));
        }
        d.strip_prefix("next_").and_then(index).map(Anchor::Next)
    };
    let mut anchor: Option<Anchor> = week.and_then(anchor_of);
    days.iter()
        .map(|d| {
            if let Some(a) = anchor_of(d) {
                anchor = Some(a);
                return d.clone();
            }
            match (&anchor, index(d)) {
                (Some(Anchor::Dated(a, n)), Some(i)) => {
                    let day = n + ((i + 7 - a) % 7) as u32;
                    if day <= 28 {
                        format!("dated_{d}_{day}")
                    } else {
                        d.clone()
                    }
                }
                (Some(Anchor::Next(a)), Some(i)) if i >= *a => format!("next_{d}"),
                _ => d.clone(),
            }
        })
        .collect()
}

/// The day the week the talk is about starts on, when the user's last two
/// messages set one: a dated day ("sun the 18th to sat the 24th", "from
/// sunday the 18th") or next week ("lets plan next week").
fn week_in_talk(scene: &Scene, lex: &Lexicon) -> Option<String> {
    let b = scene.before;
    [b.user.as_str(), b.earlier.as_str()]
        .iter()
        .find_map(|said| {
            if said.trim().is_empty() {
                return None;
            }
            let n = super::normalize::normalize(said, lex, &scene.names.words());
            // "sun the 18th" is linked as one dated day.
            let set = super::link::link(&n, lex, &scene.names)
                .into_iter()
                .find_map(|l| match l.targets.first() {
                    Some(Target::Day(d)) if d.starts_with("next_") || d.starts_with("dated_") => {
                        Some(d.clone())
                    }
                    _ => None,
                });
            if set.is_some() {
                return set;
            }
            let joined = n.words().join(" ");
            ["next week", "coming week", "week ahead", "the week after"]
                .iter()
                .any(|p| joined.contains(p))
                .then(|| "next_monday".to_string())
        })
}

/// "the curries", "what curries": a word said in the plural that every one
/// of several recipes' names holds, singular, is the kind they share.
fn kind_said(words: &[&str], names: &[String]) -> Option<String> {
    if names.len() < 2 {
        return None;
    }
    words.iter().find_map(|w| {
        let one = crate::context::taxonomy::singular(w);
        let all = names
            .iter()
            .all(|n| super::link::name_words(n).contains(&one));
        (one != *w && all).then_some(one)
    })
}

/// The one or two words said right before the recipes' own word ("the
/// cod recipes", "my air fryer recipes"), none of them read yet.
fn kind_before_domain(
    words: &[&str],
    links: &[Link],
    r: Range<usize>,
    explained: &[bool],
    lex: &Lexicon,
) -> Option<(usize, usize)> {
    use super::lexicon::Domain;
    let l = links.iter().find(|l| {
        r.start <= l.start
            && l.end <= r.end
            && matches!(l.targets.first(), Some(Target::Domain(Domain::Recipes)))
    })?;
    // ("quick" is small talk in "quick one", a kind in "quick recipes".)
    let free = |k: usize| {
        matches!(words[k], "quick" | "easy" | "simple")
            || !explained[k] && !lex.glue.contains(words[k])
    };
    let mut from = l.start;
    while from > r.start && l.start - from < 2 && free(from - 1) {
        from -= 1;
    }
    // "that paneer dish": one dish pointed back at, not a kind searched.
    let pointed = from > 0 && matches!(words[from - 1], "that" | "this" | "those" | "these");
    (from < l.start && !pointed).then_some((from, l.start))
}

/// "the list please", "my to-dos?": a domain's word and nothing else but
/// small words shows what it holds.
pub fn bare_domain(words: &[&str], links: &[Link], lex: &Lexicon) -> Option<Reading> {
    use super::lexicon::Domain;
    let [l] = links else {
        return None;
    };
    let Some(Target::Domain(d)) = l.targets.first() else {
        return None;
    };
    let rest_glue = (0..words.len())
        .filter(|k| !(l.start..l.end).contains(k))
        .all(|k| lex.glue.contains(words[k]));
    if !rest_glue {
        return None;
    }
    let place = words[l.start..l.end].iter().find_map(|w| match *w {
        "fridge" | "freezer" | "pantry" | "counter" | "cabinet" => Some(w.to_string()),
        _ => None,
    });
    let act = match d {
        Domain::Shopping => Act::ShowShopping,
        // "meal plan please" asks for a plan to be made.
        Domain::Plan => return None,
        Domain::Stock => Act::ShowStock { place },
        Domain::Tasks => Act::ShowTasks,
        Domain::Recipes => Act::ListRecipes,
    };
    Some(Reading::whole(vec![act], 0.8))
}

/// "the curry one" on its own, or just a recipe's name: that recipe, shown.
pub fn bare_recipe(words: &[&str], links: &[Link], lex: &Lexicon) -> Option<Reading> {
    let mut recipe: Option<Vec<String>> = None;
    let mut explained = vec![false; words.len()];
    for l in links {
        if let Some(Target::Recipe(names)) = l.targets.first()
            && recipe.is_none()
        {
            recipe = Some(names.clone());
            explained[l.start..l.end].fill(true);
        }
    }
    let names = recipe?;
    // "what about chicken ones": recipes, many, asked after.
    if words
        .iter()
        .any(|w| matches!(*w, "recipes" | "ones" | "dishes" | "meals"))
    {
        return None;
    }
    let unread: Vec<String> = (0..words.len())
        .filter(|&k| !explained[k] && !lex.glue.contains(words[k]))
        .map(|k| words[k].to_string())
        .collect();
    if !unread.is_empty() {
        return None;
    }
    let choice = (names.len() > 1).then(|| Choice {
        what: "recipe",
        options: names.clone(),
    });
    let act = match kind_said(words, &names) {
        Some(word) => Act::FindRecipes { word },
        None => Act::ShowRecipe {
            recipe: names[0].clone(),
        },
    };
    let choice = choice.filter(|_| matches!(act, Act::ShowRecipe { .. }));
    Some(Reading {
        acts: vec![act],
        coverage: 1.0,
        score: 0.8,
        unread,
        bulk: false,
        asking: false,
        choice,
        unsure: None,
        drops: false,
        idle: true,
        unanswered: None,
    })
}
