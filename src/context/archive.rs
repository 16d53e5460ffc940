//! The cold tier (seeds/002): a compact record of every turn — what was
//! said, the day, the entities it touched, the constraints it stated — kept
//! outside every window and searched by the `search_history` tool, so an
//! entity that left working memory long ago can be found again.
//!
//! Pure: turns and dates come in as arguments; searching is word matching.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::constraints::Constraints;
use super::fold::clip_words;
use super::registry::SessionIdRegistry;
use super::taxonomy::words;

/// Turns kept in the archive (the oldest give way beyond this).
pub const ARCHIVE_TURNS: usize = 2000;
/// Hits a search returns at most.
pub const MAX_HITS: usize = 8;

/// The tool's name, as Act calls it.
pub const SEARCH_HISTORY: &str = "search_history";

/// One turn, as the archive keeps it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnDigest {
    pub turn: u32,
    /// `YYYY-MM-DD`, the day the turn ran.
    #[serde(default)]
    pub date: String,
    pub user: String,
    /// The reply's first sentence.
    pub reply: String,
    #[serde(default)]
    pub goal: String,
    /// (ref, label) of the entities the turn touched.
    #[serde(default)]
    pub entities: Vec<(String, String)>,
}

/// Every turn of the session, compactly.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Archive {
    turns: VecDeque<TurnDigest>,
}

/// Words that ask for what the user ruled out.
const RULED_OUT: &[&str] = &[
    "didnt want",
    "did not want",
    "dont want",
    "ruled out",
    "rule out",
    "said no",
    "excluded",
    "not want",
    "didnt like",
    "constraint",
];

/// Words of a question that never pick a turn out.
const STOP: &[&str] = &[
    "what", "was", "that", "the", "did", "say", "said", "from", "again", "which", "one", "ones",
    "about", "me", "my", "you", "we", "it", "is", "are", "a", "an", "of", "on", "in", "for",
    "remind", "tell", "show", "when", "i", "last", "earlier", "before", "history", "search",
];

impl Archive {
    /// Appends a turn (the oldest beyond [`ARCHIVE_TURNS`] give way).
    pub fn push(&mut self, digest: TurnDigest) {
        self.turns.push_back(digest);
        while self.turns.len() > ARCHIVE_TURNS {
            self.turns.pop_front();
        }
    }

    /// The turns kept, oldest first. (A digest never changes once pushed.)
    pub fn digests(&self) -> &VecDeque<TurnDigest> {
        &self.turns
    }

    /// Number of turns kept.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// True when nothing is archived yet.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// Searches the archive and the constraints for `query`: the turns that
    /// match it (newest first, at most [`MAX_HITS`]), each with its
    /// entities; for "what did I say I didn't want?", the constraints the
    /// user stated, lifted ones included. Entities still live carry their
    /// ref under `id`, so the caller can bring them back.
    pub fn search(
        &self,
        query: &str,
        constraints: &Constraints,
        registry: &SessionIdRegistry,
    ) -> Vec<Value> {
        let q = query.to_lowercase().replace(['\'', '’'], "");
        let mut out = Vec::new();
        if RULED_OUT.iter().any(|p| q.contains(p)) {
            for c in constraints.all() {
                let covers: Vec<Value> = c
                    .covers
                    .keys()
                    .filter_map(|r| registry.get(r).map(|e| json!({"id": r, "label": e.label})))
                    .collect();
                out.push(json!({
                    "kind": "constraint",
                    "constraint": c.id,
                    "label": c.label,
                    "clause": c.clause,
                    "turn": c.since_turn,
                    "status": if c.is_active() { "active" } else { "lifted" },
                    "covers": covers,
                }));
            }
            if !out.is_empty() {
                return out;
            }
        }
        let day = weekday_in(&q);
        let terms: Vec<String> = words(&q)
            .into_iter()
            .filter(|w| !STOP.contains(&w.as_str()) && weekday(w).is_none() && w.len() > 2)
            .collect();
        let wants_recipe = terms.iter().any(|t| t == "recipe");
        let terms: Vec<String> = terms.into_iter().filter(|t| t != "recipe").collect();
        for d in self.turns.iter().rev() {
            if let Some(day) = day
                && weekday_of(&d.date) != Some(day)
            {
                continue;
            }
            let text = words(&format!(
                "{} {} {} {}",
                d.user,
                d.reply,
                d.goal,
                d.entities
                    .iter()
                    .map(|(_, l)| l.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
            let hit = terms.iter().any(|t| text.contains(t)) || (terms.is_empty() && day.is_some());
            if !hit {
                continue;
            }
            // The entities the words name, when any does; else all of them.
            let named = |l: &str| {
                let lw = words(l);
                terms.iter().any(|t| lw.contains(t))
            };
            let any_named = d.entities.iter().any(|(_, l)| named(l));
            let entities: Vec<Value> = d
                .entities
                .iter()
                .filter(|(r, _)| !wants_recipe || r.contains("recipe_"))
                .filter(|(_, l)| !any_named || named(l))
                .map(|(r, l)| {
                    if registry.is_live_ref(r) {
                        json!({"id": r, "label": l})
                    } else {
                        json!({"ref": r, "label": l, "gone": true})
                    }
                })
                .collect();
            out.push(json!({
                "kind": "turn",
                "turn": d.turn,
                "date": d.date,
                "user": d.user,
                "reply": d.reply,
                "entities": entities,
            }));
            if out.len() >= MAX_HITS {
                break;
            }
        }
        out
    }
}

/// A digest of a finished turn.
pub fn digest(
    turn: u32,
    date: &str,
    user: &str,
    reply: &str,
    goal: &str,
    entities: Vec<(String, String)>,
) -> TurnDigest {
    TurnDigest {
        turn,
        date: date.to_string(),
        user: clip_words(user, 200),
        reply: super::fold::first_sentence(reply, 200),
        goal: clip_words(goal, 120),
        entities,
    }
}

/// The refs of the turns' entities a search found (those still live): what
/// comes back into working memory. What a constraint covers is listed, not
/// brought back — it stays ruled out.
pub fn found_refs(hits: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for h in hits {
        for e in h
            .get("entities")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(r) = e.get("id").and_then(Value::as_str)
                && !out.iter().any(|x| x == r)
            {
                out.push(r.to_string());
            }
        }
    }
    out
}

/// 0 = Monday … 6 = Sunday.
fn weekday(w: &str) -> Option<u8> {
    Some(match w {
        "monday" | "mon" => 0,
        "tuesday" | "tue" | "tues" => 1,
        "wednesday" | "wed" => 2,
        "thursday" | "thu" | "thurs" => 3,
        "friday" | "fri" => 4,
        "saturday" | "sat" => 5,
        "sunday" | "sun" => 6,
        _ => return None,
    })
}

fn weekday_in(q: &str) -> Option<u8> {
    words(q).iter().find_map(|w| weekday(w))
}

/// The weekday of a `YYYY-MM-DD` date (Sakamoto's method), `None` when the
/// date does not parse.
pub fn weekday_of(date: &str) -> Option<u8> {
    let mut parts = date.split('-').map(|p| p.parse::<i32>().ok());
    let (y, m, d) = (parts.next()??, parts.next()??, parts.next()??);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    const T: [i32; 12] = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
    let y = if m < 3 { y - 1 } else { y };
    let sunday_first = (y + y / 4 - y / 100 + y / 400 + T[(m - 1) as usize] + d).rem_euclid(7);
    Some(((sunday_first + 6) % 7) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::{ConstraintChanges, MatchKind, NewConstraint, RefAction, Rule, Table};

    #[test]
    fn weekdays_come_from_dates() {
        assert_eq!(weekday_of("2026-01-12"), Some(0), "a Monday");
        assert_eq!(weekday_of("2026-01-13"), Some(1));
        assert_eq!(weekday_of("2026-01-18"), Some(6));
        assert_eq!(weekday_of("nonsense"), None);
    }

    #[test]
    fn a_search_finds_turns_by_day_and_words_and_constraints_on_request() {
        let mut reg = SessionIdRegistry::new();
        let paneer = reg.register_row(
            Table::Recipes,
            "a",
            "Air Fryer Paneer Tikka",
            RefAction::Read,
            1,
        );
        let milk = reg.register_row(Table::Inventory, "b", "milk", RefAction::Read, 2);
        let mut a = Archive::default();
        a.push(digest(
            1,
            "2026-01-12",
            "show me the paneer",
            "Here it is.",
            "Show a recipe",
            vec![(paneer.clone(), "Air Fryer Paneer Tikka".into())],
        ));
        a.push(digest(
            2,
            "2026-01-13",
            "what's in my fridge?",
            "Your fridge (9 items):\n- milk",
            "Show the fridge",
            vec![(milk.clone(), "milk".into())],
        ));
        let mut c = Constraints::default();
        c.apply(
            &ConstraintChanges {
                add: vec![NewConstraint {
                    clause: "no cod this week".into(),
                    rule: Rule::Exclude,
                    kind: MatchKind::Ingredient,
                    value: "cod".into(),
                    refs: Vec::new(),
                }],
                ..Default::default()
            },
            &reg,
            2,
        );
        let monday = a.search("what was that recipe from Monday?", &c, &reg);
        assert_eq!(monday.len(), 1, "{monday:?}");
        assert_eq!(found_refs(&monday), [paneer]);
        let fridge = a.search("the fridge", &c, &reg);
        assert_eq!(fridge[0]["turn"], 2);
        assert_eq!(fridge[0]["reply"], "Your fridge (9 items)");
        let ruled = a.search("what did I say I didn't want?", &c, &reg);
        assert_eq!(ruled[0]["clause"], "no cod this week");
        assert!(a.search("zebra", &c, &reg).is_empty());
    }
}
