//! Stage 4, decide: the one dialogue policy that turns readings into a
//! move. Two thresholds, as dialogue systems that know their reader is
//! unreliable use them: the top reading must explain enough of the message
//! (coverage), and stand clear of the next one (margin).
//!
//! - **do**: the top reading covers the message and stands clear;
//! - **confirm**: every bulk write ("Clear all 5 items from the shopping
//!   list (…)?"), and a write read in part or whose place the words leave
//!   open ("Add milk to the shopping list?"); a yes or no answers it;
//! - **choose**: a slot left between named candidates: one question naming
//!   them, never two identical names;
//! - **pass**: nothing reads well enough to act on — a write put as a
//!   question, or close in score to another write.

use super::acts::{Act, day_words};
use super::grammar::{Choice, Reading, Unsure};

/// A reading explaining at least this share of the content words is done.
pub const DO_COVERAGE: f64 = 0.8;
/// Below this share a write is not even asked about.
pub const CONFIRM_COVERAGE: f64 = 0.5;
/// Two writes closer than this are offered as a choice.
pub const MARGIN: f64 = 0.1;

/// What the reader does with a message.
#[derive(Debug, Clone, PartialEq)]
pub enum Move {
    /// Carry out the reading.
    Do(Reading),
    /// Ask a yes or no before writing.
    Confirm { reading: Reading, question: String },
    /// Ask which of the named candidates.
    Choose { reading: Reading, question: String },
    /// No reading is good enough to act on.
    Pass,
}

/// The move for these readings (best first).
pub fn decide(readings: &[Reading]) -> Move {
    let Some(best) = readings.first() else {
        return Move::Pass;
    };
    if best.coverage < CONFIRM_COVERAGE || best.acts.is_empty() {
        return Move::Pass;
    }
    // "plan the tikka bites": the day is asked for, naming the recipe;
    // a plan with no day is never written.
    let dayless = |a: &Act| matches!(a, Act::PlanPut { days, .. } if days.is_empty());
    if best.acts.iter().any(dayless) {
        return match best.acts.as_slice() {
            [Act::PlanPut { recipe, .. }] if best.coverage >= DO_COVERAGE && !best.asking => {
                Move::Choose {
                    reading: best.clone(),
                    question: format!("Which day should {recipe} go on?"),
                }
            }
            _ => Move::Pass,
        };
    }
    // Two dishes put in one slot ("kerala it is … put the miso cod
    // tomorrow" read as both tomorrow): a slot holds one meal, so the
    // words were not paired as meant — never written.
    let slots: Vec<(&String, &Option<String>)> = best
        .acts
        .iter()
        .flat_map(|a| match a {
            Act::PlanPut { days, meal, .. } => days.iter().map(|d| (d, meal)).collect(),
            _ => Vec::new(),
        })
        .collect();
    let clash = slots
        .iter()
        .enumerate()
        .any(|(i, s)| slots[..i].contains(s));
    if clash {
        return Move::Pass;
    }
    // Several recipes a word names, to be shown, are the older chain's to
    // list.
    if best.choice.is_some() && matches!(best.acts.as_slice(), [Act::ShowRecipe { .. }]) {
        return Move::Pass;
    }
    if let Some(c) = best
        .choice
        .as_ref()
        .filter(|_| best.coverage >= DO_COVERAGE && !best.asking)
    {
        return match choice_question(c) {
            Some(question) => Move::Choose {
                reading: best.clone(),
                question,
            },
            None => Move::Pass,
        };
    }
    if !best.writes() {
        // A question read in part beside a remark ("what can i make
        // tonight thats under 30 min, kids eat at 6"): one question, most
        // of it read.
        let remark_beside = best.idle && best.acts.len() == 1 && best.coverage >= 0.6;
        return if best.coverage >= DO_COVERAGE || remark_beside {
            Move::Do(best.clone())
        } else {
            Move::Pass
        };
    }
    // A write put as a question is answered, not carried out.
    if best.asking {
        return Move::Pass;
    }
    // One that drops another request said beside it is asked about, the
    // words it could not place named.
    if best.drops && best.coverage >= DO_COVERAGE {
        return Move::Confirm {
            reading: best.clone(),
            question: confirm_question(best),
        };
    }
    // Bought, of foods the list holds: the stock add is asked about, the
    // tick off the list named.
    if best.unsure == Some(Unsure::OnList) && best.coverage >= DO_COVERAGE {
        let rows: Vec<String> = readings[1..]
            .iter()
            .flat_map(|r| r.acts.iter())
            .find_map(|a| match a {
                Act::ShoppingBought { rows } => Some(rows.clone()),
                _ => None,
            })
            .unwrap_or_default();
        let tick = if rows.is_empty() {
            "them".to_string()
        } else {
            crate::brain::offline::text::join_list(&rows, "and")
        };
        return Move::Confirm {
            reading: best.clone(),
            question: format!(
                "{} (The shopping list has {tick} — say “tick {tick} off the list” for that instead.)",
                confirm_question(best)
            ),
        };
    }
    // Dishes paired with days said apart from them: the pairing named,
    // asked about.
    if best.unsure == Some(Unsure::Paired) && best.coverage >= CONFIRM_COVERAGE {
        return Move::Confirm {
            reading: best.clone(),
            question: format!(
                "{} (I paired them in the order you said them — say which goes where if not.)",
                confirm_question(best).trim_end_matches(|c| c != '?')
            ),
        };
    }
    let rival = readings[1..]
        .iter()
        .find(|r| r.acts != best.acts && r.writes() && r.choice.is_none() && r.unsure.is_none());
    // A verb too common to name its place, beside a reading of the same
    // words whose verb does ("coriander's gone slimy, chuck it": the list's
    // "chuck" or the bin's): the sure one, when it reads as much.
    if best.unsure == Some(Unsure::Loose)
        && let Some(sure) = rival.filter(|r| {
            r.coverage >= best.coverage && r.coverage >= DO_COVERAGE && !r.asking && !r.bulk
        })
    {
        return decide(std::slice::from_ref(sure));
    }
    // Two writes close in score: the older chain, which sees the rows,
    // reads it (and asks before it writes).
    if rival.is_some_and(|r| best.score - r.score < MARGIN && r.coverage >= DO_COVERAGE) {
        return Move::Pass;
    }
    // A row two tables hold, or a verb too common to name its place ("add
    // feta" — to the list, the stock, or the recipe on screen?), is the
    // older chain's to read with the rows and the talk (it asks before it
    // writes).
    // (A weight, a date or a place is only the stock's to hold: "set the
    // yogurt to 480 g" is no question of which table, though the list
    // holds a yogurt too.)
    let stock_only = best.acts.iter().all(|a| {
        matches!(
            a,
            Act::StockSet { .. }
                | Act::ExpirySet { .. }
                | Act::StockMove { .. }
                | Act::StockMovePart { .. }
        )
    });
    let crossed_stock = best.unsure == Some(Unsure::Crossed) && stock_only;
    if best.unsure.is_some() && !best.bulk && !crossed_stock {
        return Move::Pass;
    }
    // A write with a "no" or a "sorry" left unread ("add too bags of
    // peas to the list no sorry one bag"): those words may take it back or
    // change it, so it is asked about.
    let lex = super::lexicon::lexicon();
    let takes_back = best.unread.iter().any(|w| {
        lex.negation.contains(w.as_str())
            || matches!(
                w.as_str(),
                "sorry" | "wait" | "actually" | "instead" | "oops" | "scratch"
            )
    });
    if takes_back {
        return Move::Confirm {
            reading: best.clone(),
            question: confirm_question(best),
        };
    }
    // A write read in part whose unread words are only a remark beside it
    // ("take the limes off the list i have plenty", "mum says put wings
    // on for friday so we can have them w the game"): done.
    if !best.bulk && best.idle && best.choice.is_none() {
        return Move::Do(best.clone());
    }
    // A bulk change, or a write read in part: asked about, naming what
    // would change and the words not read.
    if best.bulk || best.coverage < DO_COVERAGE {
        return Move::Confirm {
            reading: best.clone(),
            question: confirm_question(best),
        };
    }
    Move::Do(best.clone())
}

fn describe_all(acts: &[Act]) -> String {
    crate::brain::offline::text::join_list(&super::acts::describe_all(acts), "and")
}

/// "Clear all 5 items from the shopping list (…)?"; with the words it could
/// not place when it read only part of the message.
fn confirm_question(r: &Reading) -> String {
    let what = crate::brain::offline::text::capitalise_first(&describe_all(&r.acts));
    if r.unread.is_empty() || r.bulk {
        format!("{what}?")
    } else {
        format!(
            "{what}? (I couldn't place \"{}\" in that.)",
            r.unread.join(" "),
        )
    }
}

/// "Kerala Cod Curry or Thai Yellow Curry?"; `None` when the options are
/// not two or more different names.
fn choice_question(c: &Choice) -> Option<String> {
    let mut options: Vec<String> = Vec::new();
    for o in &c.options {
        let o = if c.what == "day" {
            day_words(o)
        } else {
            o.clone()
        };
        let o = crate::brain::offline::text::capitalise_first(&o);
        if !options.contains(&o) {
            options.push(o);
        }
    }
    if options.len() < 2 {
        return None;
    }
    let list = crate::brain::offline::text::join_list(&options, "or");
    Some(match c.what {
        "recipe" => format!("Which recipe do you mean: {list}?"),
        "day" => format!("Which day: {list}?"),
        "task" => format!("Which task: {list}?"),
        _ => format!("Which one do you mean: {list}?"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::offline::reader::acts::ItemSaid;

    fn reading(acts: Vec<Act>, coverage: f64, score: f64) -> Reading {
        Reading {
            coverage,
            idle: false,
            unanswered: None,
            ..Reading::whole(acts, score)
        }
    }

    fn add(name: &str) -> Act {
        Act::ShoppingAdd {
            items: vec![ItemSaid {
                name: name.into(),
                quantity: None,
                unit: None,
            }],
        }
    }

    #[test]
    fn a_clear_covering_write_is_done_and_a_partial_one_asked() {
        assert!(matches!(
            decide(&[reading(vec![add("eggs")], 1.0, 0.9)]),
            Move::Do(_)
        ));
        let mut partial = reading(vec![add("eggs")], 0.6, 0.5);
        partial.unread = vec!["wedding".into()];
        let Move::Confirm { question, .. } = decide(&[partial.clone()]) else {
            panic!("a write read in part is asked about");
        };
        assert_eq!(
            question,
            "Add eggs to the shopping list? (I couldn't place \"wedding\" in that.)"
        );
        partial.coverage = 1.0;
        partial.unread.clear();
        partial.unsure = Some(Unsure::Crossed);
        assert_eq!(
            decide(&[partial.clone()]),
            Move::Pass,
            "a row in two places: the older chain reads it with the rows"
        );
        partial.asking = true;
        assert_eq!(
            decide(&[partial.clone()]),
            Move::Pass,
            "a write asked about"
        );
        partial.asking = false;
        partial.unsure = None;
        partial.bulk = true;
        let Move::Confirm { question, .. } = decide(&[partial]) else {
            panic!("a bulk change must be confirmed");
        };
        assert_eq!(question, "Add eggs to the shopping list?");
        assert_eq!(decide(&[reading(vec![add("eggs")], 0.3, 0.3)]), Move::Pass);
    }

    #[test]
    fn a_bulk_write_is_always_confirmed() {
        let mut clear = reading(
            vec![Act::ShoppingClear {
                rows: vec!["tomato".into(), "olive oil".into()],
            }],
            1.0,
            0.9,
        );
        clear.bulk = true;
        let Move::Confirm { question, .. } = decide(&[clear]) else {
            panic!("bulk must be confirmed");
        };
        assert_eq!(
            question,
            "Clear all 2 items from the shopping list (tomato and olive oil)?"
        );
    }

    #[test]
    fn a_choice_names_each_candidate_once() {
        let plan = Act::PlanPut {
            recipe: "A".into(),
            days: vec!["friday".into()],
            meal: None,
            servings: None,
        };
        let mut r = reading(vec![plan], 1.0, 0.9);
        r.choice = Some(Choice {
            what: "recipe",
            options: vec!["Kerala Cod Curry".into(), "Thai Yellow Curry".into()],
        });
        let Move::Choose { question, .. } = decide(&[r.clone()]) else {
            panic!("two recipes must be a choice");
        };
        assert_eq!(
            question,
            "Which recipe do you mean: Kerala Cod Curry or Thai Yellow Curry?"
        );
        r.choice = Some(Choice {
            what: "item",
            options: vec!["milk".into(), "milk".into()],
        });
        assert_eq!(decide(&[r]), Move::Pass, "never milk or milk?");
    }

    #[test]
    fn a_write_asked_as_a_question_is_not_done() {
        let mut r = reading(vec![add("eggs")], 1.0, 0.45);
        r.asking = true;
        assert_eq!(decide(&[r]), Move::Pass);
    }
}
