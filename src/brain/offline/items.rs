//! Phrases inside a message: amounts of food ("12 eggs", "a squeeze of
//! lime", "500 g flour"), kitchen locations, and exclusion terms with the
//! words the user used ("no french toast", "I don't feel like wings").
//!
//! Pure parsing over [`Words`]; knows nothing about entities or state.

use super::quantity::{Quantity, lead};
use super::text::{find_any, is_filler, number, stem};

/// One food item the user named, with an amount when they gave one.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Item {
    /// Singular, lowercase: "egg", "lime juice", "feta".
    pub name: String,
    pub quantity: Option<f64>,
    /// A unit word when given ("g", "can"), else `None`.
    pub unit: Option<String>,
    /// The user's words for it: "a squeeze of lime".
    pub phrase: String,
    /// "more garlic", "extra chili": an increase of what is there.
    pub more: bool,
    /// How much was said, as the stock reads it: an amount ("a banana" is
    /// one), a share of what is there, all of it, or a vague amount.
    #[serde(default)]
    pub amount: Quantity,
}

/// Inventory locations and the words that name them.
pub fn location(words: &[String]) -> Option<&'static str> {
    words.iter().find_map(|w| {
        Some(match w.as_str() {
            "pantry" | "pantries" | "larder" => "pantry",
            "fridge" | "fridges" | "refrigerator" | "chiller" => "fridge",
            "freezer" | "freezers" => "freezer",
            "counter" | "countertop" | "worktop" | "fruitbowl" | "bowl" => "counter",
            "cabinet" | "cabinets" | "cupboard" | "cupboards" => "cabinet",
            _ => return None,
        })
    })
}

/// True when a word is a kitchen-store word (a location or "inventory").
pub fn is_store_word(w: &str) -> bool {
    location(&[w.to_string()]).is_some()
        || matches!(
            w,
            "inventory" | "kitchen" | "stock" | "stocks" | "shelf" | "shelves"
        )
}

/// The unit a word names ("grams" → g, "tins" → can): the lexicon's units.
pub fn unit_word(w: &str) -> Option<&'static str> {
    crate::brain::offline::reader::lexicon::lexicon()
        .units
        .get(w)
        .map(String::as_str)
}

/// Amount words with no number: "a squeeze of", "a pinch of".
fn amount_phrase(w: &str) -> Option<(&'static str, f64, &'static str)> {
    Some(match w {
        "squeeze" => ("a squeeze of", 1.0, "squeeze"),
        "pinch" => ("a pinch of", 1.0, "pinch"),
        "handful" => ("a handful of", 1.0, "handful"),
        "splash" | "dash" => ("a splash of", 1.0, "splash"),
        "drizzle" => ("a drizzle of", 1.0, "drizzle"),
        "sprinkle" | "sprinkling" => ("a sprinkle of", 1.0, "sprinkle"),
        "knob" => ("a knob of", 1.0, "knob"),
        _ => return None,
    })
}

/// Words that end an item phrase: where it goes, not what it is.
fn ends_item(w: &str) -> bool {
    matches!(
        w,
        "to" | "into" | "in" | "on" | "onto" | "for" | "at" | "from" | "please" | "instead"
    )
}

/// Parses the items of the words after a verb ("12 eggs", "a squeeze of
/// lime"); several items may be split by conjunctions before this call.
pub fn parse_item(words: &[String]) -> Option<Item> {
    let words = &amount_first(words);
    let mut amount = Amount::default();
    let mut name = Vec::new();
    let (said, skip) = lead(words);
    let mut phrase: Vec<String> = words[..skip].to_vec();
    for (i, w) in words.iter().enumerate().skip(skip) {
        let leading = name.is_empty();
        if ends_item(w) && (!leading || (i > 0 && amount.quantity.is_none())) {
            break;
        }
        phrase.push(w.clone());
        if leading && amount.take(w, i + 1 < words.len()) {
            continue;
        }
        if matches!(
            w.as_str(),
            "it" | "that" | "this" | "them" | "recipe" | "too"
        ) {
            break;
        }
        // "uh garlic", "like onions": chatter is never part of a name.
        if name.is_empty() && (super::vocab::is_chatter(w) || w == "like" || w == "maybe") {
            continue;
        }
        name.push(w.clone());
    }
    amount.quantity = amount.quantity();
    while name.last().is_some_and(|w| is_filler(w) && w != "oil") {
        name.pop();
    }
    if let Some(core) = super::vocab::food_core(&name) {
        name = core;
    }
    let last = name.last_mut()?;
    // Counted items are stored singular ("12 eggs" → egg, as the catalog
    // names them); amounts of stuff keep the user's word ("2 cans of
    // chickpeas", "lentils").
    let counted = amount.quantity.is_some() && amount.unit.as_deref().is_none_or(|u| u == "pcs");
    if counted {
        *last = stem(last);
    }
    if amount.quantity == Some(12.0) && phrase.iter().any(|w| w == "dozen") && amount.unit.is_none()
    {
        amount.unit = Some("pcs".to_string());
    }
    let said = match said {
        Quantity::Unsaid => match amount.quantity {
            Some(quantity) => Quantity::Amount {
                quantity,
                unit: amount.unit.clone(),
            },
            None if amount.one => Quantity::Amount {
                quantity: 1.0,
                unit: amount.unit.clone(),
            },
            None => Quantity::Unsaid,
        },
        other => other,
    };
    // "a few lemons" bought is three, as the list has always read it.
    if matches!(&said, Quantity::Vague { said } if said == "a few") {
        amount.quantity = Some(3.0);
    }
    Some(Item {
        name: name.join(" "),
        quantity: amount.quantity,
        unit: amount.unit,
        phrase: phrase.join(" "),
        more: amount.more,
        amount: said,
    })
}

/// The amount words in front of an item's name.
#[derive(Debug, Default)]
struct Amount {
    quantity: Option<f64>,
    unit: Option<String>,
    more: bool,
    /// "a" or "an" came first: "a can" is one can.
    one: bool,
}

impl Amount {
    /// The quantity said, "a can" being one.
    fn quantity(&self) -> Option<f64> {
        self.quantity
            .or_else(|| (self.one && self.unit.is_some()).then_some(1.0))
    }

    /// Takes `w` if it is part of the amount ("12", "a", "cans", "squeeze
    /// of", "more"); `has_next` says a name may still follow a unit.
    fn take(&mut self, w: &str, has_next: bool) -> bool {
        if matches!(w, "more" | "extra" | "additional") {
            self.more = true;
            return true;
        }
        // "like 6 eggs", "about 200g".
        if self.quantity.is_none()
            && !self.one
            && matches!(
                w,
                "like" | "about" | "around" | "roughly" | "approx" | "approximately"
            )
        {
            return true;
        }
        // "half a dozen", "two dozen": a dozen of the number said.
        if w == "dozen"
            && let Some(q) = self.quantity
            && self.unit.is_none()
        {
            self.quantity = Some(q * 12.0);
            self.unit = Some("pcs".to_string());
            return true;
        }
        // "a whole can", "a full bag": one of them.
        if self.one && self.quantity.is_none() && matches!(w, "whole" | "full" | "entire") {
            return true;
        }
        // "half a bag": the "a" after "half".
        if matches!(w, "a" | "an") && self.quantity == Some(0.5) && self.unit.is_none() {
            return true;
        }
        if self.quantity.is_none() {
            if let Some(n) = number(w) {
                self.quantity = Some(n);
                return true;
            }
            if matches!(w, "a" | "an" | "another") {
                self.one = true;
                return true;
            }
        }
        if let Some(u) = unit_word(w)
            && (self.quantity.is_some() || self.unit.is_none())
            && has_next
        {
            self.unit = Some(u.to_string());
            return true;
        }
        if let Some((_, n, u)) = amount_phrase(w) {
            self.quantity = Some(self.quantity.unwrap_or(n));
            self.unit = Some(u.to_string());
            return true;
        }
        matches!(
            w,
            "of" | "some" | "any" | "the" | "bit" | "little" | "lot" | "lots" | "my" | "your"
        )
    }
}

/// An amount said with no item after it ("200g of it"): the quantity and
/// its unit.
pub fn bare_amount(words: &[String]) -> Option<(f64, Option<String>)> {
    let mut a = Amount::default();
    // No name follows to be taken for a unit: "500g" is 500 g.
    for w in words {
        if !a.take(w, true) {
            break;
        }
    }
    Some((a.quantity()?, a.unit))
}

/// Items in a run of segments (each segment holds at most one item).
pub fn parse_items(segments: &[Vec<String>]) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    for s in segments {
        // "green chilies on the list, 4 of them": the count of the item
        // before, which said none.
        if let [n, of, them] = s.as_slice()
            && of == "of"
            && matches!(them.as_str(), "them" | "those" | "each")
            && let Some(n) = number(n)
        {
            if let Some(last) = out.last_mut().filter(|i| i.quantity.is_none()) {
                last.quantity = Some(n);
                last.unit = Some("pcs".into());
                // Counted items are stored singular, as "4 green chillies"
                // would be.
                let mut name: Vec<String> =
                    last.name.split_whitespace().map(String::from).collect();
                if let Some(w) = name.last_mut() {
                    *w = stem(w);
                }
                last.name = name.join(" ");
            }
            continue;
        }
        out.extend(parse_item(s));
    }
    out
}

/// "eggs x6", "milk 2 litres", "eggs 6": the amount said after the name
/// moved before it, as the parser reads amounts ("6 eggs").
fn amount_first(words: &[String]) -> Vec<String> {
    let times = |w: &str| {
        let digits = w
            .trim_start_matches(['x', '×'])
            .trim_end_matches(['x', '×']);
        (digits.len() < w.len() && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()))
            .then(|| digits.to_string())
    };
    let all: Vec<String> = words
        .iter()
        .map(|x| times(x).unwrap_or_else(|| x.clone()))
        .collect();
    // "eggs 6 to the list": the amount ends where the item does.
    let end = all
        .iter()
        .skip(1)
        .position(|x| ends_item(x))
        .map_or(all.len(), |i| i + 1);
    let rest = all[end..].to_vec();
    let mut w = all[..end].to_vec();
    let is_num = |x: &str| x.chars().all(|c| c.is_ascii_digit() || c == '.') && !x.is_empty();
    let n = w.len();
    let tail = match n {
        _ if n >= 3 && is_num(&w[n - 2]) && unit_word(&w[n - 1]).is_some() => 2,
        _ if n >= 2 && is_num(&w[n - 1]) => 1,
        _ => 0,
    };
    // Only after a name: "add 6" keeps its number where it is.
    if tail > 0 && n > tail && !is_num(&w[0]) {
        let amount: Vec<String> = w.split_off(n - tail);
        let at = w
            .iter()
            .position(|x| !is_filler(x) && !matches!(x.as_str(), "add" | "put" | "get" | "buy"))
            .unwrap_or(0);
        for (k, a) in amount.into_iter().enumerate() {
            w.insert(at + k, a);
        }
    }
    w.extend(rest);
    w
}

/// How the user said no, which shapes the reason Understand records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Refusal {
    /// "no", "skip", "drop", "not", "without", "exclude"…
    SaidNo,
    /// "I don't feel like …".
    NotFeelingLike,
    /// "not in the mood for …".
    NotInTheMood,
    /// "I don't want …".
    DoesNotWant,
    /// "no more …", "sick of …".
    TiredOf,
    /// "I don't like …", "not a fan of …".
    DoesNotLike,
    /// Asked for only some things: "vegetarian for the kids", "only thai".
    Requires,
    /// Someone can't eat it: "she's allergic to peanuts", "my wife can't
    /// do shellfish", "he doesn't eat pork".
    CannotEat,
}

/// One thing the user ruled out, in their words.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Exclusion {
    /// The words naming it: "french toast", "wings", "cod".
    pub term: String,
    pub how: Refusal,
    /// "this week" was said.
    pub this_week: bool,
}

impl Item {
    /// The unit said, else "pcs" for a count ("6 eggs") or "pack".
    pub fn unit_or_default(&self) -> String {
        self.unit.clone().unwrap_or_else(|| {
            if self.quantity.is_some() {
                "pcs"
            } else {
                "pack"
            }
            .to_string()
        })
    }
}

impl Exclusion {
    /// The reason recorded for a demotion: "user said no french toast".
    pub fn reason(&self) -> String {
        let week = if self.this_week { " this week" } else { "" };
        match self.how {
            Refusal::SaidNo => format!("user said no {}{week}", self.term),
            Refusal::NotFeelingLike => format!("user doesn't feel like {}{week}", self.term),
            Refusal::NotInTheMood => format!("user isn't in the mood for {}{week}", self.term),
            Refusal::DoesNotWant => format!("user doesn't want {}{week}", self.term),
            Refusal::TiredOf => format!("user is tired of {}", self.term),
            Refusal::DoesNotLike => format!("user doesn't like {}", self.term),
            Refusal::Requires => format!("user asked for {} only{week}", self.term),
            Refusal::CannotEat => format!("someone can't eat {}", self.term),
        }
    }
}

/// The phrases that rule something out, longest first within a kind.
const TRIGGERS: &[(&str, Refusal)] = &[
    ("allergic to", Refusal::CannotEat),
    ("allergy to", Refusal::CannotEat),
    ("intolerant to", Refusal::CannotEat),
    ("cant do", Refusal::CannotEat),
    ("cant eat", Refusal::CannotEat),
    ("cant have", Refusal::CannotEat),
    ("cannot eat", Refusal::CannotEat),
    ("cannot have", Refusal::CannotEat),
    ("can not eat", Refusal::CannotEat),
    ("doesnt eat", Refusal::CannotEat),
    ("dont eat", Refusal::CannotEat),
    ("wont eat", Refusal::CannotEat),
    ("doesnt do", Refusal::CannotEat),
    ("steer clear of", Refusal::SaidNo),
    ("im off", Refusal::DoesNotWant),
    ("were off", Refusal::DoesNotWant),
    ("shes off", Refusal::DoesNotWant),
    ("hes off", Refusal::DoesNotWant),
    ("staying off", Refusal::DoesNotWant),
    ("giving up", Refusal::DoesNotWant),
    ("cutting out", Refusal::DoesNotWant),
    ("cutting down on", Refusal::DoesNotWant),
    ("laying off", Refusal::DoesNotWant),
    ("keep away from", Refusal::SaidNo),
    ("avoiding", Refusal::SaidNo),
    ("not in the mood for", Refusal::NotInTheMood),
    ("not really in the mood for", Refusal::NotInTheMood),
    ("dont feel like", Refusal::NotFeelingLike),
    ("do not feel like", Refusal::NotFeelingLike),
    ("not feeling", Refusal::NotFeelingLike),
    ("dont really want", Refusal::DoesNotWant),
    ("dont want", Refusal::DoesNotWant),
    ("do not want", Refusal::DoesNotWant),
    ("dont fancy", Refusal::DoesNotWant),
    ("no more", Refusal::TiredOf),
    ("sick of", Refusal::TiredOf),
    ("tired of", Refusal::TiredOf),
    ("had enough of", Refusal::TiredOf),
    ("dont like", Refusal::DoesNotLike),
    ("do not like", Refusal::DoesNotLike),
    ("not a fan of", Refusal::DoesNotLike),
    ("not a big fan of", Refusal::DoesNotLike),
    ("hate", Refusal::DoesNotLike),
    ("hates", Refusal::DoesNotLike),
    ("dislike", Refusal::DoesNotLike),
    ("leave out", Refusal::SaidNo),
    ("leave off", Refusal::SaidNo),
    ("rule out", Refusal::SaidNo),
    ("cross off", Refusal::SaidNo),
    ("get rid of", Refusal::SaidNo),
    ("pass on", Refusal::SaidNo),
    ("anything but", Refusal::SaidNo),
    ("other than", Refusal::SaidNo),
    ("lets not", Refusal::SaidNo),
    ("nothing with", Refusal::SaidNo),
    ("nothing", Refusal::SaidNo),
    ("none of the", Refusal::SaidNo),
    ("skip", Refusal::SaidNo),
    ("drop", Refusal::SaidNo),
    ("without", Refusal::SaidNo),
    ("exclude", Refusal::SaidNo),
    ("remove", Refusal::SaidNo),
    ("nix", Refusal::SaidNo),
    ("ditch", Refusal::SaidNo),
    ("avoid", Refusal::SaidNo),
    ("except", Refusal::SaidNo),
    ("lose", Refusal::SaidNo),
    ("no", Refusal::SaidNo),
    ("not", Refusal::SaidNo),
];

/// Words that start a new clause after an exclusion's term.
const CLAUSE_START: &[&str] = &[
    "thats", "because", "cos", "cause", "since", "so", "she", "he", "they", "which", "whats",
    "what", "we", "i", "im", "forgot", "hes", "shes", "theyre", "were", "who", "coming",
];

/// Words that never make an exclusion term.
fn term_stop(w: &str) -> bool {
    is_filler(w)
        || matches!(
            w,
            "sure"
                | "fan"
                | "big"
                | "keen"
                | "into"
                | "huge"
                | "mood"
                | "feel"
                | "feeling"
                | "cook"
                | "cooking"
                | "eat"
                | "eating"
                | "having"
                | "doing"
                | "week"
                | "weeks"
                | "night"
                | "tonight"
                | "time"
                | "thanks"
                | "thank"
                | "worries"
                | "lol"
                | "tho"
                | "though"
                | "btw"
                | "anyway"
                | "lmao"
                | "haha"
                | "hahaha"
                | "tbh"
                | "pls"
                | "plz"
                | "thx"
                | "problem"
                | "way"
                | "really"
                | "either"
                | "neither"
                | "any"
                | "option"
                | "options"
                | "idea"
                | "ideas"
                | "please"
                | "yet"
                | "quite"
                | "sound"
                | "sounds"
                | "good"
                | "great"
                | "fine"
                | "need"
                | "needed"
                | "anything"
                | "everything"
                | "things"
                // What a request is asked to be, never a food ruled out
                // ("something not fish, quick").
                | "quick"
                | "quickly"
                | "fast"
                | "easy"
                | "simple"
                | "cheap"
        )
}

/// Phrases that rule out what was said before them: "fish is off the
/// table", "dairy's out this week".
const AFTER_TRIGGERS: &[&str] = &[
    "is off the table",
    "are off the table",
    "off the table",
    "is off the menu",
    "are off the menu",
    "off the menu",
    "is out",
    "are out",
];

/// The exclusion a segment states, with the trigger found (if any).
fn segment_exclusion(seg: &[String]) -> (Option<Refusal>, Vec<String>) {
    // "fish is off the table": the term comes first.
    if let Some((i, _)) = find_any(seg, AFTER_TRIGGERS) {
        let start = seg[..i]
            .iter()
            .rposition(|w| CLAUSE_START.contains(&w.as_str()))
            .map_or(0, |p| p + 1);
        let term = term_words(&seg[start..i]);
        if !term.is_empty() {
            return (Some(Refusal::SaidNo), term);
        }
    }
    let phrases: Vec<&str> = TRIGGERS.iter().map(|(p, _)| *p).collect();
    match find_any(seg, &phrases) {
        Some((i, p)) => {
            let how = TRIGGERS
                .iter()
                .find(|(q, _)| *q == p)
                .map_or(Refusal::SaidNo, |(_, h)| *h);
            let after = &seg[i + p.split_whitespace().count()..];
            // The term ends where a new clause begins ("no wings tho thats
            // a game day thing", "hates curry lol so what's left").
            let end = after
                .iter()
                .position(|w| CLAUSE_START.contains(&w.as_str()))
                .unwrap_or(after.len());
            (Some(how), term_words(&after[..end]))
        }
        None => (None, term_words(seg)),
    }
}

/// The words of a term that can name something: filler, chatter and
/// words that link to nothing ("my wife", "sister staying") are left out.
fn term_words(words: &[String]) -> Vec<String> {
    words
        .iter()
        .filter(|w| !term_stop(w) && !is_store_word(w))
        .filter(|w| {
            super::text::weekday_index(w).is_none() && !matches!(w.as_str(), "tomorrow" | "weekend")
        })
        .filter(|w| !super::vocab::links_to_nothing(w))
        .cloned()
        .collect()
}

/// Everything the message rules out. A segment with no trigger inherits the
/// trigger of the segment before it ("not the french toast or wings").
pub fn exclusions(segments: &[Vec<String>], this_week: bool) -> Vec<Exclusion> {
    let mut out: Vec<Exclusion> = Vec::new();
    let mut carried: Option<Refusal> = None;
    for seg in segments {
        // "no wait, the yellow curry": a self-correction, not a refusal.
        let corrects = seg.len() >= 2
            && matches!(seg[0].as_str(), "no" | "nah" | "oh")
            && matches!(
                seg[1].as_str(),
                "wait" | "actually" | "sorry" | "hang" | "hold" | "scratch"
            );
        // "you can drop the spicy rule": a rule taken off, not one stated.
        let of_a_rule = super::constraints::drops_a_rule(seg);
        if corrects || of_a_rule {
            carried = None;
            continue;
        }
        let (how, term) = segment_exclusion(seg);
        // "not the cod, do the yellow curry": a clause that asks for
        // something, keeps to something ("just the paneer") or says what
        // the user will do instead ("ill just use butter") does not carry
        // the refusal before it.
        let asks_for = seg.first().is_some_and(|x| {
            matches!(
                x.as_str(),
                "do" | "make"
                    | "have"
                    | "use"
                    | "try"
                    | "put"
                    | "go"
                    | "lets"
                    | "add"
                    | "plan"
                    | "just"
                    | "only"
                    | "keep"
                    | "instead"
                    | "ill"
                    | "i"
                    | "im"
                    | "we"
                    | "well"
                    | "id"
            )
        });
        let how = match how {
            Some(h) => Some(h),
            None if asks_for => None,
            None => carried,
        };
        let Some(how) = how else { continue };
        if term.is_empty() {
            continue;
        }
        carried = Some(how);
        let term = term.join(" ");
        if !out.iter().any(|e| e.term == term) {
            out.push(Exclusion {
                term,
                how,
                this_week,
            });
        }
    }
    out
}

/// What the message asks to keep to: a diet ("vegetarian for the kids",
/// "keep it veggie") or a cuisine after "only" / "just" ("only thai
/// tonight"). Each is a requirement: it rules out what does not fit.
pub fn requirements(words: &[String], this_week: bool) -> Vec<Exclusion> {
    use crate::context::taxonomy::{cuisine, diet};
    let mut out: Vec<Exclusion> = Vec::new();
    let mut push = |term: &str| {
        if !out.iter().any(|e| e.term == term) {
            out.push(Exclusion {
                term: term.to_string(),
                how: Refusal::Requires,
                this_week,
            });
        }
    };
    for (i, w) in words.iter().enumerate() {
        let pair = words.get(i + 1).map(|n| format!("{w} {n}"));
        if let Some(d) = pair.as_deref().and_then(diet).or_else(|| diet(w)) {
            push(d);
        }
        if matches!(w.as_str(), "only" | "just")
            && let Some(c) = words.get(i + 1).and_then(|n| cuisine(n))
        {
            push(c);
        }
    }
    out
}

/// True when a segment opens with an exclusion trigger.
pub fn has_trigger(words: &[String]) -> bool {
    let phrases: Vec<&str> = TRIGGERS.iter().map(|(p, _)| *p).collect();
    find_any(words, &phrases).is_some() || find_any(words, AFTER_TRIGGERS).is_some()
}

#[cfg(test)]
mod tests {
    use super::super::text::Words;
    use super::*;

    fn items(s: &str) -> Vec<Item> {
        parse_items(&Words::new(s).segments)
    }

    fn ruled_out(s: &str) -> Vec<(String, Refusal)> {
        exclusions(&Words::new(s).segments, false)
            .into_iter()
            .map(|e| (e.term, e.how))
            .collect()
    }

    #[test]
    fn an_amount_said_after_the_name_counts() {
        for (said, name, qty) in [
            ("eggs x6", "egg", 6.0),
            ("eggs 6 to the list", "egg", 6.0),
            ("milk 2 litres", "milk", 2.0),
            ("green chillies, 4 of them", "green chilli", 4.0),
        ] {
            let got = items(said);
            assert_eq!(got.len(), 1, "{said}: {got:?}");
            assert_eq!(got[0].name, name, "{said}");
            assert_eq!(got[0].quantity, Some(qty), "{said}");
        }
    }

    #[test]
    fn rulings_out_in_other_words_keep_only_what_links() {
        for (said, term, how) in [
            ("my sister cant eat peanuts", "peanuts", Refusal::CannotEat),
            (
                "heads up hes allergic to shellfish",
                "shellfish",
                Refusal::CannotEat,
            ),
            (
                "the kids wont eat mushrooms",
                "mushrooms",
                Refusal::CannotEat,
            ),
            ("beef is off the table", "beef", Refusal::SaidNo),
            (
                "ok so lamb's off the menu this week",
                "lambs",
                Refusal::SaidNo,
            ),
            ("were avoiding dairy", "dairy", Refusal::SaidNo),
            ("my flatmate doesnt do gluten", "gluten", Refusal::CannotEat),
        ] {
            assert_eq!(ruled_out(said), [(term.to_string(), how)], "{said}");
        }
        // Words that link to nothing never become the thing ruled out.
        assert!(ruled_out("no people").is_empty());
    }

    #[test]
    fn amounts_units_and_names() {
        let i = &items("12 eggs")[0];
        assert_eq!((i.name.as_str(), i.quantity), ("egg", Some(12.0)));
        let i = &items("a squeeze of lime")[0];
        assert_eq!(i.name, "lime");
        assert_eq!(i.unit.as_deref(), Some("squeeze"));
        let i = &items("500g flour")[0];
        assert_eq!((i.name.as_str(), i.unit.as_deref()), ("flour", Some("g")));
        let i = &items("a dozen eggs")[0];
        assert_eq!((i.quantity, i.unit.as_deref()), (Some(12.0), Some("pcs")));
        let i = &items("more garlic to that recipe")[0];
        assert!(i.more);
        assert_eq!(i.name, "garlic");
        let i = &items("some lime juice in it")[0];
        assert_eq!(i.name, "lime juice");
        assert_eq!(
            items("two cans of chickpeas")[0].unit.as_deref(),
            Some("can")
        );
    }

    #[test]
    fn exclusions_keep_the_users_words() {
        let w = Words::new("no french toast, and I don't feel like wings");
        let ex = exclusions(&w.segments, false);
        assert_eq!(ex.len(), 2);
        assert_eq!(ex[0].reason(), "user said no french toast");
        assert_eq!(ex[1].reason(), "user doesn't feel like wings");
        let w = Words::new("lets not do the french toast or wings");
        let ex = exclusions(&w.segments, false);
        assert_eq!(
            ex.iter().map(|e| e.term.as_str()).collect::<Vec<_>>(),
            ["french toast", "wings"]
        );
        let w = Words::new("let's not do cod this week");
        let ex = exclusions(&w.segments, true);
        assert_eq!(ex[0].reason(), "user said no cod this week");
        let w = Words::new("no, thanks");
        assert!(exclusions(&w.segments, false).is_empty());
        let w = Words::new("I'm not in the mood for curry");
        assert_eq!(exclusions(&w.segments, false)[0].how, Refusal::NotInTheMood);
    }

    #[test]
    fn requirements_are_diets_and_only_cuisines() {
        let req = |s: &str| {
            requirements(&Words::new(s).words, false)
                .into_iter()
                .map(|e| (e.term, e.how))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            req("vegetarian for the kids"),
            [("vegetarian".to_string(), Refusal::Requires)]
        );
        assert_eq!(
            req("keep it veggie this week"),
            [("vegetarian".to_string(), Refusal::Requires)]
        );
        assert_eq!(
            req("we're gluten-free"),
            [("gluten free".to_string(), Refusal::Requires)]
        );
        assert_eq!(
            req("only thai tonight"),
            [("thai".to_string(), Refusal::Requires)]
        );
        assert!(
            req("thai basil chicken").is_empty(),
            "a cuisine alone asks for nothing"
        );
        assert!(req("no cod please").is_empty());
    }

    #[test]
    fn locations_are_recognised() {
        assert_eq!(
            location(&Words::new("in the cupboard").words),
            Some("cabinet")
        );
        assert_eq!(location(&Words::new("my fridge").words), Some("fridge"));
        assert_eq!(location(&Words::new("the shelf").words), None);
    }
}
