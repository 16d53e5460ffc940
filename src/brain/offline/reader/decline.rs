//! Decline with options: when the older rules' answer would not account
//! for the message — a request left unread behind a lookup, a remark
//! taken for a stock question, a "yes" with more said than it ties —
//! the reply says which words it could not read and offers two or three
//! things it can do here, each one this reader carries out as it stands.

use serde::{Deserialize, Serialize};

use super::Scene;
use super::decide::Move;
use super::grammar;
use super::lexicon::{self, Lexicon};
use super::link::{self, Link, Target};
use super::normalize::{self, Normalized};

/// What a declined message left unread, and what can be done instead.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Declined {
    /// The words, as typed, that could not be read as something to do.
    pub unread: String,
    /// The question or offer of Alfred's the message did not answer in a
    /// way it could tie ("yes both" to "open one, or plan a couple?").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<String>,
    /// Messages this reader carries out as they stand, from what the
    /// message named and what the last reply showed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The unread words ask for a change (none was made).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bid: bool,
    /// The rule the message may state, each part as a request that keeps
    /// it ("no fish", "vegetarian"): a question or remark is not taken
    /// for a rule to keep.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rule: Vec<String>,
}

impl Declined {
    /// The rule the message may state, as a request that keeps it: "no
    /// fish and no wings", "vegetarian".
    pub fn rule_said(&self) -> String {
        crate::brain::offline::text::join_list(&self.rule, "and")
    }

    /// The reply: what could not be read, what Alfred had asked, and what
    /// can be done here, ending with a question.
    pub fn reply(&self) -> String {
        let quote = |s: &str| format!("“{s}”");
        if !self.rule.is_empty() {
            let mut out = format!(
                "Should I keep {} as a rule from now on? I haven't yet — say yes and I'll keep to it.",
                quote(&self.rule_said())
            );
            if !self.options.is_empty() {
                let options: Vec<String> = self.options.iter().map(|o| quote(o)).collect();
                out.push_str(&format!(
                    " Or I can do {} — want {}?",
                    crate::brain::offline::text::join_list(&options, "or"),
                    if options.len() == 1 {
                        "that"
                    } else {
                        "one of those"
                    }
                ));
            }
            return out;
        }
        let mut out = match &self.asked {
            Some(q) if q.starts_with("I offered to ") => format!(
                "I couldn't tell what {} says to my offer to {}.",
                quote(&self.unread),
                &q["I offered to ".len()..]
            ),
            Some(q) => format!(
                "I couldn't tell what {} answers — I asked: {}",
                quote(&self.unread),
                quote(q)
            ),
            None if self.bid => format!(
                "I couldn't read {} as a change I can make, so I've changed nothing.",
                quote(&self.unread)
            ),
            None => format!(
                "I couldn't read {} as something I can do here.",
                quote(&self.unread)
            ),
        };
        let options: Vec<String> = self
            .options
            .iter()
            .map(|o| quote(o.trim_end_matches('?')))
            .collect();
        match options.as_slice() {
            [] => out.push_str(" Could you say it another way?"),
            [one] => out.push_str(&format!(" I can do {one} — want that?")),
            more => out.push_str(&format!(
                " I can do {} — want one of those?",
                crate::brain::offline::text::join_list(more, "or")
            )),
        }
        out
    }
}

/// The kind of answer the older rules settled on for a message the reader
/// passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answered {
    /// A lookup that writes nothing (recipes, plan, list, tasks, what
    /// goes off).
    Lookup,
    /// How much there is of a food, or whether there is any.
    Item,
    /// Thanks or a plain yes.
    Talk,
    /// A rule ruling these out, read in words that may not state one.
    Rule,
    /// Nothing: the older rules read no request at all.
    Nothing,
}

/// The decline for `message` when the older rules' `answered` would leave
/// it unread; `None` when that answer accounts for it.
pub fn decline(message: &str, scene: &Scene<'_>, answered: Answered) -> Option<Declined> {
    let lex = lexicon::lexicon();
    let n = normalize::normalize(message, lex, &scene.names.words());
    let links = link::link(&n, lex, &scene.names);
    let words = n.words();
    let typed = |r: std::ops::Range<usize>| {
        n.tokens[r]
            .iter()
            .map(|t| t.typed.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let bid = matches!(answered, Answered::Lookup | Answered::Item)
        .then(|| grammar::bid(&words, &n, &links, lex))
        .flatten();
    let (unread, asked) = match answered {
        // A lookup answers a message that also asks for a change: the
        // change would be lost behind the answer.
        Answered::Lookup | Answered::Item => match bid.clone() {
            Some(part) => (typed(part), None),
            // A remark that asks nothing, about a food the kitchen does
            // not hold ("dont tell mum about the crisps"): no stock lookup
            // answers it.
            // An amount said beside a food, asking nothing ("and a splash
            // of soy sauce, like 15ml"): no stock lookup accounts for it.
            None if answered == Answered::Item
                && !n.question
                && !grammar::any_part_asks(&words, &n, lex)
                && !asks_after_all(&words, lex)
                && links.iter().any(|l| {
                    matches!(
                        l.targets.first(),
                        Some(Target::Amount(..) | Target::AmountAfter(..))
                    )
                }) =>
            {
                (typed(0..n.tokens.len()), None)
            }
            None if answered == Answered::Item
                && !n.question
                && !asks_after_all(&words, lex)
                && !grammar::any_part_asks(&words, &n, lex)
                && !(0..words.len()).any(|k| grammar::verb_at(&words, k, lex))
                && links
                    .iter()
                    .any(|l| matches!(l.targets.first(), Some(Target::Food(_))))
                && !links.iter().any(|l| {
                    l.targets
                        .iter()
                        .any(|t| t.names() && !matches!(t, Target::Food(_)))
                }) =>
            {
                (typed(0..n.tokens.len()), None)
            }
            None => return None,
        },
        // A rule read in a message that asks something ("will the wings
        // be too hot for her? she's not great with spice"): a question is
        // not a rule to keep.
        Answered::Rule => {
            // A clause that opens with the refusal and asks nothing states
            // the rule ("no wings tho. which ones are left").
            let stated = (0..words.len()).any(|k| {
                let clause = n.tokens[k].clause;
                let opens = k == 0 || n.tokens[k - 1].clause != clause;
                opens
                    && !n.asked.contains(&clause)
                    && (k..words.len())
                        .take_while(|&j| n.tokens[j].clause == clause)
                        .find(|&j| !lex.glue.contains(words[j]))
                        .is_some_and(|j| {
                            matches!(
                                words[j],
                                "no" | "not" | "nothing" | "skip" | "without" | "avoid" | "never"
                            )
                        })
            });
            // "for people who dont eat meat": a refusal that says who a
            // search is for is the question's own filter.
            let describes = words
                .windows(2)
                .any(|w| matches!(w[0], "who" | "that") && lex.negation.contains(w[1]));
            // A rule said as one: "from now on", "this week", "allergic",
            // "dairy-free" — not a remark in passing ("one guy doesnt do
            // spicy", "wings but make them not spicy").
            // ("leave out the cayenne, add it": a change to the dish
            // asked beside another request, not a rule.)
            let beside_a_write = (0..words.len()).any(|k| {
                words[k] == "add"
                    || lex.frames.iter().any(|f| {
                        f.writes
                            && link::phrase_at(&words, k, &f.verbs)
                                .is_some_and(|p| p.iter().all(|w| w != "leave" && w != "out"))
                            && matches!(f.domain, Some(lexicon::Domain::Plan))
                    })
            });
            let ruled = (0..words.len()).any(|k| {
                link::phrase_at(&words, k, &lex.rule)
                    .is_some_and(|p| !(p.join(" ") == "leave out" && beside_a_write))
            });
            // "nothing spicy for the kids ok??": a clause that ends on a
            // word asking for agreement states the rule, it asks nothing.
            let agreeing = !n.asked.is_empty()
                && n.asked.iter().all(|c| {
                    (0..words.len())
                        .rev()
                        .find(|&k| n.tokens[k].clause == *c)
                        .is_some_and(|k| {
                            matches!(words[k], "ok" | "okay" | "k" | "yeah" | "alright" | "right")
                        })
                });
            let asks = !agreeing && (n.question || grammar::any_part_asks(&words, &n, lex));
            // Said of someone else ("one guy doesnt do spicy", "my partner
            // isnt great with spice"), or of the thing itself to be
            // changed ("make them not spicy"): a remark, not a rule.
            // So is one of several ("one's vegetarian", "one of them cant
            // do spice").
            let third = words.iter().enumerate().any(|(k, w)| {
                matches!(
                    *w,
                    "doesnt" | "isnt" | "hes" | "shes" | "someone" | "somebody"
                ) || *w == "ones" && (k == 0 || n.tokens[k - 1].clause != n.tokens[k].clause)
            }) || words.windows(2).any(|p| {
                p[0] == "one"
                    && (matches!(
                        p[1],
                        "of" | "is" | "guy" | "girl" | "guest" | "kid" | "person"
                    ) || lex.negation.contains(p[1]))
            });
            let changed = words
                .windows(2)
                .any(|p| matches!(p[0], "them" | "it") && lex.negation.contains(p[1]));
            let remark = (third || changed) && !ruled;
            // A refusal said without a word that keeps it ("ok no fish",
            // "skip the rice", "not the wings") may answer an offer, pick
            // among options or give a reason: a rule changes every later
            // turn, so it is asked about, not kept on a guess — unless it
            // is said alone, asked for politely, or narrows a search.
            //
            // Open: a question of Alfred's, or an offer to add to the list
            // ("want it on the shopping list?" — "ok no fish").
            let open = scene.before.dialogue.question.is_some()
                || scene
                    .before
                    .dialogue
                    .offer
                    .as_ref()
                    .is_some_and(|o| o.kind == crate::context::OfferKind::AddMissing);
            // Alone: nothing else said ("no fish").
            let one_clause = n.tokens.iter().all(|t| t.clause == n.tokens[0].clause);
            let alone =
                stated && !asks && !open && one_clause && unread_words(&n, &links, lex).is_empty();
            // Asked for politely, nothing of Alfred's open ("no seafood
            // pls, and nothing too spicy"): a rule asked for.
            let polite = !open
                && (0..words.len()).any(|k| link::phrase_at(&words, k, &lex.polite).is_some());
            // Said to narrow what is left or to ask for options ("no wings
            // tho. which ones are left", "one of them is veggie. nothing
            // for him?"): the search's own filter, kept.
            let narrows = words.iter().any(|w| {
                matches!(
                    *w,
                    "left" | "rest" | "remaining" | "others" | "ideas" | "options"
                )
            }) || words
                .windows(2)
                .any(|p| matches!(p[0], "anything" | "nothing" | "something") && p[1] == "for");
            if narrows && !remark {
                return None;
            }
            if describes || !remark && (ruled || polite || alone) && (stated || !asks) {
                return None;
            }
            (typed(0..n.tokens.len()), None)
        }
        // Nothing read: the message as typed (its first dozen words), and
        // the question it may have meant to answer.
        Answered::Nothing => {
            let shown = n.tokens.len().min(12);
            let more = if shown < n.tokens.len() { " …" } else { "" };
            (format!("{}{more}", typed(0..shown)), open_ask(scene))
        }
        // Thanks or a yes with more said than it accounts for ("yes both",
        // "ok paneer"): the rest was not read.
        Answered::Talk => {
            // Anything named or counted is more than a yes ("yes 2",
            // "yes thursday").
            let extra = !unread_words(&n, &links, lex).is_empty() || !links.is_empty();
            let said = |list: &[lexicon::Phrase]| {
                (0..words.len()).any(|k| link::phrase_at(&words, k, list).is_some())
            };
            // A thanks is a thanks, whatever else it says.
            if !extra || !said(&lex.yes) || said(&lex.thanks) {
                return None;
            }
            (typed(0..n.tokens.len()), open_ask(scene))
        }
    };
    Some(Declined {
        unread,
        asked,
        options: with_list_add(&n, &links, scene, options(&n, &links, scene)),
        bid: bid.is_some(),
        rule: Vec::new(),
    })
}

/// True when a word of a frame that only reads, or one that asks inside a
/// sentence ("i want know if we have curd"), is said.
fn asks_after_all(words: &[&str], lex: &Lexicon) -> bool {
    words.iter().any(|w| {
        matches!(*w, "if" | "whether" | "have" | "got" | "any")
            || !lex.glue.contains(*w)
                && lex
                    .frames
                    .iter()
                    .filter(|f| !f.writes)
                    .any(|f| f.verbs.iter().any(|p| p.len() == 1 && p[0] == *w))
    })
}

/// The words, as typed, that no link, verb or small word of the grammar
/// accounts for.
fn unread_words(n: &Normalized, links: &[Link], lex: &Lexicon) -> String {
    let words = n.words();
    let linked = |k: usize| links.iter().any(|l| l.start <= k && k < l.end);
    let said = |k: usize, list: &[lexicon::Phrase]| {
        (k.saturating_sub(3)..=k)
            .any(|s| link::phrase_at(&words, s, list).is_some_and(|p| s + p.len() > k))
    };
    let verb = |k: usize| lex.frames.iter().any(|f| said(k, &f.verbs));
    (0..words.len())
        .filter(|&k| {
            let w = words[k];
            !lex.glue.contains(w)
                && !linked(k)
                && !verb(k)
                && !said(k, &lex.yes)
                && !said(k, &lex.no)
                && !said(k, &lex.thanks)
                && !said(k, &lex.greeting)
                && !crate::brain::offline::vocab::is_chatter(w)
        })
        .map(|k| n.tokens[k].typed.clone())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Alfred's question or offer the last reply left open, in words.
fn open_ask(scene: &Scene<'_>) -> Option<String> {
    use crate::context::OfferKind;
    let d = &scene.before.dialogue;
    if let Some(q) = &d.question {
        // A decline's "want that?" is no question a new request answers:
        // quoting it back would quote the last decline whole.
        let declined = ["I couldn't", "I didn't catch"]
            .iter()
            .any(|p| q.text.starts_with(p));
        return (!declined).then(|| q.text.clone());
    }
    let offer = match d.offer.as_ref()?.kind {
        OfferKind::SaveDraft => "save it",
        OfferKind::AddMissing => "put what's missing on the shopping list",
        OfferKind::PutOnPlan => "put it on the plan",
        OfferKind::ShowRecipe => "show you the recipe",
        OfferKind::PlanFromSaved => "plan from your saved recipes",
        OfferKind::FindRecipes => "find you recipes",
    };
    Some(format!("I offered to {offer}"))
}

/// Up to three messages this reader carries out as they stand, each only
/// a look (an option never changes the kitchen): about what the message
/// named, then about what the last reply showed.
/// "add more garlic" with nothing to change: the add the words would be
/// on the shopping list comes first among the options.
fn with_list_add(
    n: &Normalized,
    links: &[Link],
    scene: &Scene<'_>,
    mut options: Vec<String>,
) -> Vec<String> {
    let lex = lexicon::lexicon();
    let readings = grammar::readings(n, links, lex, scene);
    let add = readings.iter().find_map(|r| match r.acts.as_slice() {
        [super::acts::Act::ShoppingAdd { items }]
            if r.coverage >= super::decide::DO_COVERAGE && !r.asking =>
        {
            Some(items.iter().map(|i| i.name.clone()).collect::<Vec<_>>())
        }
        _ => None,
    });
    if let Some(items) = add {
        options.insert(
            0,
            format!(
                "add {} to the shopping list",
                crate::brain::offline::text::join_list(&items, "and")
            ),
        );
        options.truncate(3);
    }
    options
}

fn options(n: &Normalized, links: &[Link], scene: &Scene<'_>) -> Vec<String> {
    use crate::context::Table;
    let said: Vec<String> = n
        .words()
        .iter()
        .map(|w| crate::context::taxonomy::singular(w))
        .collect();
    let mut tries: Vec<String> = Vec::new();
    let mut foods: Vec<String> = Vec::new();
    // A name read from a word as typed, not one spelling made of another.
    let as_typed = |l: &Link| n.tokens[l.start..l.end].iter().all(|t| t.word == t.typed);
    for (l, t) in links
        .iter()
        .filter(|l| as_typed(l))
        .flat_map(|l| l.targets.iter().map(move |t| (l, t)))
    {
        match Some(t) {
            // A recipe by its own name, not by an ingredient it uses.
            Some(Target::Recipe(r))
                if r.len() == 1
                    && link::name_words(&r[0])
                        .iter()
                        .any(|w| said[l.start..l.end].contains(w)) =>
            {
                tries.push(format!("show me {}", r[0].to_lowercase()))
            }
            Some(Target::Stocked(rows)) if !rows.is_empty() => {
                tries.push(format!("how much {} have i got", rows[0]))
            }
            Some(Target::Listed(_)) => tries.push("what's on the shopping list?".to_string()),
            Some(Target::Day(d)) => tries.push(format!(
                "what's on the plan for {}",
                super::acts::day_words(d)
            )),
            // A food no row of the kitchen's is named by.
            Some(Target::Food(food))
                if !l
                    .targets
                    .iter()
                    .any(|t| t.names() && !matches!(t, Target::Food(_))) =>
            {
                foods.push(format!("which recipes use {food}?"))
            }
            _ => {}
        }
    }
    for r in scene.before.presented.iter().chain(&scene.before.listed) {
        if let Some((table, label)) = scene.labels.get(r) {
            match table {
                Table::Recipes => tries.push(format!("show me {}", label.to_lowercase())),
                Table::Inventory => tries.push(format!("how much {label} have i got")),
                _ => {}
            }
        }
    }
    // Foods named come after rows named or shown.
    tries.extend(foods);
    // Nothing named or shown: what the brain does that shares a word
    // with the message, never a menu that ignores it.
    if tries.is_empty() {
        let said = crate::brain::offline::text::Words::new(&n.words().join(" "));
        tries.extend(
            crate::brain::offline::vague::sharing(&said)
                .into_iter()
                .map(str::to_string),
        );
    }
    let mut out: Vec<String> = the_change_read_in_part(n, scene).into_iter().collect();
    for t in tries {
        if out.len() < 3
            && !out.contains(&t)
            && matches!(super::read_fresh(&t, scene).decision, Move::Do(r) if !r.writes())
        {
            out.push(t);
        }
    }
    out
}

/// The plan the message's own words read as, in part ("ok: jonno cooks
/// wed 14 (he said pad see ew), i cook thu 15 (wings). both for 2" → "put
/// Thai Pad See Ew on the plan for wednesday for 2 people and …"), said as
/// a request this reader
/// carries out whole: the first thing to offer, so a "yes" makes it.
/// `None` when no change reads from enough of the words, or one that does
/// leaves a choice open.
fn the_change_read_in_part(n: &Normalized, scene: &Scene<'_>) -> Option<String> {
    /// A change read from less of the message than this is no offer.
    const OFFER_COVERAGE: f64 = 0.3;
    let read = super::read_fresh(&n.words().join(" "), scene);
    // Only a plan put is offered: a change that takes rows away, read
    // from part of the words, is never put in the user's mouth.
    let best = read.readings.iter().find(|r| {
        r.writes()
            && r.acts
                .iter()
                .all(|a| matches!(a, super::acts::Act::PlanPut { .. }))
            && r.coverage >= OFFER_COVERAGE
            && r.choice.is_none()
            && !r.asking
            && !r.bulk
            && r.unsure.is_none()
    })?;
    let said =
        crate::brain::offline::text::join_list(&super::acts::describe_all(&best.acts), "and");
    match super::read_fresh(&said, scene).decision {
        Move::Do(again) if again.acts == best.acts => Some(said),
        _ => None,
    }
}
