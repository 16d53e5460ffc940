//! Which recipe goes on which days, in a message that puts recipes on the
//! plan: "plan the wings for tuesday and wednesday dinner" (one recipe,
//! two days), "the paneer on wed and the curry on sun" (a recipe each),
//! "put the pad see ew and the wings on the weekend" (two recipes, the
//! days after them), "and the pad see ew on thursday. wait no friday" (a
//! corrected day).
//!
//! Pure reading over the words and the days the day reader found.

use super::super::super::text::Words;
use super::super::days::{When, is_day_word, segment_starts};
use super::super::when::Day;
use super::{COMMIT, PUT, Pick, Slot, pick_of};

/// A recipe said in one clause, with the days said for it.
struct Group {
    pick: Option<Pick>,
    days: Vec<When>,
}

/// The slots a message puts on the plan: one per recipe and day.
pub fn read(w: &Words, whens: &[(usize, When)]) -> Vec<Slot> {
    let starts = segment_starts(w);
    let mut groups: Vec<Group> = Vec::new();
    for (seg, start) in w.segments.iter().zip(starts) {
        let question = seg.first().is_some_and(|x| {
            matches!(
                x.as_str(),
                "whats" | "what" | "which" | "how" | "is" | "does"
            )
        });
        // "and the leftovers for friday lunch", "leftovers of the curry
        // monday": the recipe said before in the message (else the one the
        // talk made clear) again, for lunch unless a meal is said. A day
        // just before ("thursdays leftovers") says whose leftovers; it is
        // no day to plan.
        let leftovers = seg.iter().position(|x| is_leftovers(x)).map(|i| start + i);
        let days: Vec<When> = whens
            .iter()
            .filter(|(at, _)| (start..start + seg.len()).contains(at))
            .filter(|(at, _)| leftovers.is_none_or(|l| at + 1 != l))
            .map(|(at, d)| match leftovers {
                Some(l) if *at > l => When {
                    meal: d.meal.clone().or_else(|| Some("lunch".to_string())),
                    ..d.clone()
                },
                _ => d.clone(),
            })
            .collect();
        // "ugh no eggs. put it on wednesday": a clause that names no day
        // and asks for nothing is chatter, not a recipe to plan.
        let segw = Words::new(&seg.join(" "));
        // (A day said and then corrected still makes it a clause about
        // the plan.)
        let said_day = !days.is_empty() || seg.iter().any(|x| Day::of_word(x).is_some());
        // "ok now the paneer one, put it on for friday": "the X one" names
        // the recipe "it" is.
        let names_one = seg.windows(3).any(|p| {
            p[0] == "the" && p[2] == "one" && !super::super::super::text::is_filler(&p[1])
        });
        let chatter = !said_day
            && !names_one
            && w.segments.len() > 1
            && (segw.has_any(&["no", "not", "dont", "without", "ugh", "need", "needs"])
                || !(segw.has_any(PUT) || segw.has_any(COMMIT)));
        if question || chatter {
            continue;
        }
        let leftovers = leftovers.is_some();
        // "use the leftovers", "eat the leftovers": the verb names nothing.
        let own: Vec<String> = seg
            .iter()
            .filter(|x| {
                let verb = matches!(x.as_str(), "use" | "using" | "eat" | "eating" | "its");
                !(is_leftovers(x) || leftovers && verb)
            })
            .cloned()
            .collect();
        let pick = match pick_of(&own) {
            Some(Pick::Named(n)) => Some(Pick::Named(n)),
            other if leftovers => {
                let before = groups.last().and_then(|g| g.pick.clone());
                before.or(other).or(Some(Pick::Shown))
            }
            other => other,
        };
        match (pick, groups.last_mut()) {
            // "the paneer one, put it on for friday": "it" is the recipe
            // the clause before named without a day.
            (Some(Pick::Shown), Some(last))
                if !leftovers
                    && last.days.is_empty()
                    && matches!(last.pick, Some(Pick::Named(_))) =>
            {
                last.days.extend(days)
            }
            (Some(p), _) => groups.push(Group {
                pick: Some(p),
                days,
            }),
            // "… for tuesday and wednesday dinner", "… wait no friday":
            // more days (or the corrected one) for the recipe before.
            (None, Some(last)) if !days.is_empty() => last.days.extend(days),
            (None, None) if !days.is_empty() => groups.push(Group { pick: None, days }),
            _ => {}
        }
    }
    slots_of(groups)
}

/// "leftovers", "leftover", "leftys": the same dish again.
fn is_leftovers(x: &str) -> bool {
    x.starts_with("leftover") || x == "leftys" || x == "lefties"
}

/// A recipe said with no day takes the days said next ("the wings and the
/// paneer on friday"), else the ones said before it.
fn slots_of(groups: Vec<Group>) -> Vec<Slot> {
    let mut out: Vec<Slot> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let Some(pick) = &g.pick else { continue };
        let days = if g.days.is_empty() {
            groups[i + 1..]
                .iter()
                .find(|x| !x.days.is_empty())
                .or_else(|| groups[..i].iter().rev().find(|x| !x.days.is_empty()))
                .map_or(&[][..], |x| x.days.as_slice())
        } else {
            g.days.as_slice()
        };
        for d in days {
            let slot = Slot {
                recipe: pick.clone(),
                day: d.day,
                meal: d.meal.clone(),
            };
            if !out.contains(&slot) {
                out.push(slot);
            }
        }
    }
    out
}

/// "the paneer on friday", "the wings for the weekend": a recipe put on a
/// day in words, without a verb — the recipe first, then "on" or "for"
/// and the day ("for wednesday paneer" is not: no recipe comes first;
/// "paneer sunday, curry wednesday" drafts a plan to look over).
pub fn on_a_day(w: &Words) -> bool {
    let words = &w.words;
    (0..words.len()).any(|i| {
        let day_next = |j: usize| words.get(j).is_some_and(|x| is_day_word(x));
        matches!(words[i].as_str(), "on" | "for")
            && (day_next(i + 1) || words.get(i + 1).is_some_and(|x| x == "the") && day_next(i + 2))
            && pick_of(&words[..i]).is_some()
    })
}
