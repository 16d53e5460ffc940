//! The reader's lexicon: `assets/lexicon.toml` read once into typed word
//! classes and frames. Every word the grammar knows is here; no stage of
//! the reader keeps a word list of its own.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use serde::Deserialize;

use super::acts::ActKind;

/// The file, built into the binary so the reader works on a fresh machine.
const SOURCE: &str = include_str!("../../../../assets/lexicon.toml");

/// Where a request is about, as its words say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Domain {
    Shopping,
    Plan,
    Stock,
    Tasks,
    Recipes,
}

impl Domain {
    /// Every domain.
    pub const ALL: [Domain; 5] = [
        Domain::Shopping,
        Domain::Plan,
        Domain::Stock,
        Domain::Tasks,
        Domain::Recipes,
    ];
}

/// A slot a frame needs filled before it can be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Need {
    /// Foods to add: rows, catalog foods, with amounts.
    Items,
    /// Rows on the shopping list.
    Listed,
    /// Rows of the kitchen's stock.
    Stocked,
    /// "the rest", "everything else".
    Rest,
    /// "all", "everything", or the domain itself ("clear the list").
    Bulk,
    /// An amount.
    Amount,
    /// A saved recipe.
    Recipe,
    /// A day.
    Day,
    /// The words after the verb, as a task's title.
    Title,
    /// A task row.
    Task,
    /// A word of the frame's domain.
    Domain,
    /// A food, in the kitchen or not.
    Food,
}

/// One frame of the grammar.
#[derive(Debug, Clone, Deserialize)]
pub struct FrameSpec {
    pub act: ActKind,
    pub verbs: Vec<String>,
    #[serde(default)]
    pub domain: Option<Domain>,
    #[serde(default)]
    pub needs: Vec<Need>,
    /// Verbs too common to name the act without its domain word.
    #[serde(default)]
    pub loose: Vec<String>,
    /// Words that close the verb after its object ("how long does the
    /// curry take").
    #[serde(default)]
    pub tails: Vec<String>,
    /// The place the verb itself names ("freeze" → the freezer).
    #[serde(default)]
    pub place: Option<String>,
    #[serde(default)]
    pub writes: bool,
    #[serde(default)]
    pub bulk: bool,
    pub prior: f64,
}

/// A frame with its verbs split into words.
#[derive(Debug, Clone)]
pub struct Frame {
    pub act: ActKind,
    pub verbs: Vec<Vec<String>>,
    pub domain: Option<Domain>,
    pub needs: Vec<Need>,
    pub loose: Vec<Phrase>,
    pub tails: Vec<Phrase>,
    pub place: Option<String>,
    pub writes: bool,
    pub bulk: bool,
    pub prior: f64,
}

#[derive(Debug, Deserialize)]
struct Words {
    glue: Vec<String>,
    negation: Vec<String>,
    hedge: Vec<String>,
    modifiers: Vec<String>,
    food_heads: Vec<String>,
    bulk: Vec<String>,
    yes: Vec<String>,
    no: Vec<String>,
    greeting: Vec<String>,
    thanks: Vec<String>,
    bye: Vec<String>,
    help: Vec<String>,
    correction: Vec<String>,
    asking: Vec<String>,
    openers: Vec<String>,
    polite: Vec<String>,
    tags: Vec<String>,
    reason: Vec<String>,
    purpose: Vec<String>,
    except: Vec<String>,
    leave_out: Vec<String>,
    pointer: Vec<String>,
    rest: Vec<String>,
    servings: Vec<String>,
    serves: Vec<String>,
    copula: Vec<String>,
    past: Vec<String>,
    retract: Vec<String>,
    rule: Vec<String>,
    filler: Vec<String>,
    spans: Vec<String>,
    #[serde(default)]
    quick: Vec<String>,
    #[serde(default)]
    from_stock: Vec<String>,
    #[serde(default)]
    mild: Vec<String>,
    #[serde(default)]
    minutes: Vec<String>,
    #[serde(default)]
    at_most: Vec<String>,
}

/// The words of a standing rule (`[rules]`).
#[derive(Debug, Default, Deserialize)]
struct RuleWords {
    refuse: Vec<String>,
    #[serde(default)]
    after: Vec<String>,
    #[serde(default)]
    wanted: Vec<String>,
    cannot: Vec<String>,
    dislike: Vec<String>,
    persons: Vec<String>,
    keep: Vec<String>,
    being: Vec<String>,
}

/// The words of a standing rule, ready to match.
#[derive(Debug, Default)]
pub struct Rules {
    /// Words that refuse what follows ("no", "nothing", "avoid").
    pub refuse: Vec<Phrase>,
    /// Said after what is ruled out ("is off the table").
    pub after: Vec<Phrase>,
    /// Words that end a refusal with what is wanted instead ("just").
    pub wanted: Vec<Phrase>,
    /// Someone cannot eat what follows ("allergic to", "cant have").
    pub cannot: Vec<Phrase>,
    /// Someone does not like what follows ("hates", "sick of").
    pub dislike: Vec<Phrase>,
    /// Who a rule is for ("my sister", "the kids").
    pub persons: Vec<Phrase>,
    /// Words that ask for a rule to be kept ("remember", "from now on").
    pub keep: Vec<Phrase>,
    /// Words of being in a diet ("we're", "going").
    pub being: HashSet<String>,
}

#[derive(Debug, Deserialize)]
struct File {
    words: Words,
    #[serde(default)]
    rules: RuleWords,
    #[serde(default)]
    shorthand: HashMap<String, String>,
    #[serde(default)]
    dictated: HashMap<String, String>,
    numbers: HashMap<String, f64>,
    units: HashMap<String, Vec<String>>,
    days: HashMap<String, Vec<String>>,
    meals: HashMap<String, Vec<String>>,
    domains: HashMap<Domain, Vec<String>>,
    frame: Vec<FrameSpec>,
}

/// A phrase of one or more words.
pub type Phrase = Vec<String>;

/// The lexicon, ready to match.
#[derive(Debug, Default)]
pub struct Lexicon {
    pub glue: HashSet<String>,
    pub negation: HashSet<String>,
    pub hedge: HashSet<String>,
    /// Words that say what state a food is in ("frozen", "dried"): on
    /// their own they name no row ("the chicken is frozen").
    pub modifiers: HashSet<String>,
    /// Foods that name a kind after another word ("oat milk", "protein
    /// powder", "veg oil"): a food said right before one of them, and
    /// not as a plural, makes one food with it.
    pub food_heads: HashSet<String>,
    pub bulk: HashSet<String>,
    pub yes: Vec<Phrase>,
    pub no: Vec<Phrase>,
    pub greeting: Vec<Phrase>,
    pub thanks: Vec<Phrase>,
    /// A conversation closed ("thats all", "night").
    pub bye: Vec<Phrase>,
    pub help: Vec<Phrase>,
    pub correction: Vec<Phrase>,
    /// Words that open a question.
    pub asking: Vec<Phrase>,
    /// Words a message opens with that say nothing of what it asks.
    pub openers: HashSet<String>,
    /// Openers of a request asked politely.
    pub polite: Vec<Phrase>,
    /// Words that end a statement as a question.
    pub tags: Vec<Phrase>,
    pub reason: Vec<Phrase>,
    /// Words that open a clause giving a request's purpose or cause.
    pub purpose: Vec<Phrase>,
    /// Words that leave rows out of a change to all of them.
    pub except: Vec<Phrase>,
    /// Words that take one thing out of a change being confirmed ("yes
    /// but leave the rice").
    pub leave_out: Vec<Phrase>,
    pub pointer: Vec<Phrase>,
    pub rest: Vec<Phrase>,
    /// Words after a number that make it the servings ("6 servings").
    pub servings: Vec<Phrase>,
    /// Words before a number that make it the servings ("serves 4").
    pub serves: Vec<Phrase>,
    /// Words after a thing's name that say what state it is in.
    pub copula: Vec<Phrase>,
    /// Words that say something already happened ("last night").
    pub past: Vec<Phrase>,
    /// Words that open a part taking back what came before it.
    pub retract: Vec<Phrase>,
    /// Words that say a refusal is meant as a standing rule.
    pub rule: Vec<Phrase>,
    /// Phrases that add nothing to a request ("just in case").
    pub filler: Vec<Phrase>,
    /// The span of days a look at the plan or the tasks covers ("this
    /// week").
    pub spans: Vec<Phrase>,
    /// What to make, said quick ("something quick"): 30 minutes at most.
    pub quick: Vec<Phrase>,
    /// What to make, from what the kitchen holds ("without buying anything").
    pub from_stock: Vec<Phrase>,
    /// What to make, with no heat ("nothing spicy").
    pub mild: Vec<Phrase>,
    /// Words after a number that make it minutes ("30 min").
    pub minutes: Vec<Phrase>,
    /// Words before a number of minutes that make it a most ("under").
    pub at_most: Vec<Phrase>,
    /// Shorthand typed for a word ("abt" → "about").
    pub shorthand: HashMap<String, String>,
    /// Punctuation said aloud ("question mark" → "?"), longest first.
    pub dictated: Vec<(Phrase, String)>,
    /// Number phrases, longest first.
    pub numbers: Vec<(Phrase, f64)>,
    /// A unit word → the unit.
    pub units: HashMap<String, String>,
    /// Day phrases, longest first → the day's key ("today", "friday").
    pub days: Vec<(Phrase, String)>,
    /// Meal word → meal.
    pub meals: HashMap<String, String>,
    /// Domain phrases, longest first.
    pub domains: Vec<(Phrase, Domain)>,
    pub frames: Vec<Frame>,
    /// The words of a standing rule.
    pub rules: Rules,
    /// Every word the grammar uses: what spelling is corrected towards.
    pub vocabulary: HashSet<String>,
}

/// Splits a phrase into its words.
pub fn words_of(p: &str) -> Phrase {
    p.split_whitespace().map(str::to_string).collect()
}

/// Phrases with what they stand for, longest first (then in order, so the
/// order does not hang on a map's).
fn longest_first<T>(mut v: Vec<(Phrase, T)>) -> Vec<(Phrase, T)> {
    v.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
    v
}

fn phrases(list: &[String]) -> Vec<Phrase> {
    let mut v: Vec<Phrase> = list.iter().map(|p| words_of(p)).collect();
    v.sort_by_key(|p| std::cmp::Reverse(p.len()));
    v
}

impl Lexicon {
    /// Parses the lexicon's text.
    pub fn parse(text: &str) -> Result<Self, toml::de::Error> {
        let f: File = toml::from_str(text)?;
        let set = |l: &[String]| l.iter().cloned().collect::<HashSet<_>>();
        let numbers = longest_first(f.numbers.iter().map(|(k, v)| (words_of(k), *v)).collect());
        let units = f
            .units
            .iter()
            .flat_map(|(u, ws)| ws.iter().map(move |w| (w.clone(), u.clone())))
            .collect();
        let days = longest_first(
            f.days
                .iter()
                .flat_map(|(d, ws)| ws.iter().map(move |w| (words_of(w), d.clone())))
                .collect(),
        );
        let meals = f
            .meals
            .iter()
            .flat_map(|(m, ws)| ws.iter().map(move |w| (w.clone(), m.clone())))
            .collect();
        let domains = longest_first(
            f.domains
                .iter()
                .flat_map(|(d, ws)| ws.iter().map(move |w| (words_of(w), *d)))
                .collect(),
        );
        let frames: Vec<Frame> = f
            .frame
            .into_iter()
            .map(|s| Frame {
                act: s.act,
                verbs: phrases(&s.verbs),
                domain: s.domain,
                needs: s.needs,
                loose: phrases(&s.loose),
                tails: phrases(&s.tails),
                place: s.place,
                writes: s.writes,
                bulk: s.bulk,
                prior: s.prior,
            })
            .collect();
        let w = &f.words;
        let mut lex = Lexicon {
            glue: set(&w.glue),
            negation: set(&w.negation),
            hedge: set(&w.hedge),
            modifiers: set(&w.modifiers),
            food_heads: set(&w.food_heads),
            bulk: set(&w.bulk),
            yes: phrases(&w.yes),
            no: phrases(&w.no),
            greeting: phrases(&w.greeting),
            thanks: phrases(&w.thanks),
            bye: phrases(&w.bye),
            help: phrases(&w.help),
            correction: phrases(&w.correction),
            asking: phrases(&w.asking),
            openers: set(&w.openers),
            polite: phrases(&w.polite),
            tags: phrases(&w.tags),
            reason: phrases(&w.reason),
            purpose: phrases(&w.purpose),
            except: phrases(&w.except),
            leave_out: phrases(&w.leave_out),
            pointer: phrases(&w.pointer),
            rest: phrases(&w.rest),
            servings: phrases(&w.servings),
            serves: phrases(&w.serves),
            copula: phrases(&w.copula),
            past: phrases(&w.past),
            retract: phrases(&w.retract),
            rule: phrases(&w.rule),
            filler: phrases(&w.filler),
            spans: phrases(&w.spans),
            quick: phrases(&w.quick),
            from_stock: phrases(&w.from_stock),
            mild: phrases(&w.mild),
            minutes: phrases(&w.minutes),
            at_most: phrases(&w.at_most),
            shorthand: f.shorthand.clone(),
            dictated: {
                let mut d: Vec<(Phrase, String)> = f
                    .dictated
                    .iter()
                    .map(|(p, m)| (p.split(' ').map(str::to_string).collect(), m.clone()))
                    .collect();
                d.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
                d
            },
            numbers,
            units,
            days,
            meals,
            domains,
            frames,
            rules: Rules {
                refuse: phrases(&f.rules.refuse),
                after: phrases(&f.rules.after),
                wanted: phrases(&f.rules.wanted),
                cannot: phrases(&f.rules.cannot),
                dislike: phrases(&f.rules.dislike),
                persons: phrases(&f.rules.persons),
                keep: phrases(&f.rules.keep),
                being: set(&f.rules.being),
            },
            vocabulary: HashSet::new(),
        };
        lex.vocabulary = lex.all_words();
        Ok(lex)
    }

    fn all_words(&self) -> HashSet<String> {
        let mut v: HashSet<String> = HashSet::new();
        for s in [
            &self.glue,
            &self.negation,
            &self.hedge,
            &self.bulk,
            &self.openers,
        ] {
            v.extend(s.iter().cloned());
        }
        for list in [
            &self.yes,
            &self.no,
            &self.greeting,
            &self.thanks,
            &self.bye,
            &self.help,
            &self.correction,
            &self.reason,
            &self.purpose,
            &self.except,
            &self.asking,
            &self.polite,
            &self.tags,
            &self.pointer,
            &self.rest,
            &self.servings,
            &self.serves,
            &self.copula,
            &self.past,
            &self.retract,
            &self.rule,
            &self.filler,
            &self.spans,
            &self.quick,
            &self.from_stock,
            &self.mild,
            &self.minutes,
            &self.at_most,
        ] {
            v.extend(list.iter().flatten().cloned());
        }
        for list in [
            &self.rules.refuse,
            &self.rules.after,
            &self.rules.wanted,
            &self.rules.cannot,
            &self.rules.dislike,
            &self.rules.persons,
            &self.rules.keep,
        ] {
            v.extend(list.iter().flatten().cloned());
        }
        v.extend(self.rules.being.iter().cloned());
        v.extend(self.numbers.iter().flat_map(|(p, _)| p.iter().cloned()));
        v.extend(self.units.keys().cloned());
        v.extend(self.days.iter().flat_map(|(p, _)| p.iter().cloned()));
        v.extend(self.meals.keys().cloned());
        v.extend(self.domains.iter().flat_map(|(p, _)| p.iter().cloned()));
        v.extend(
            self.frames
                .iter()
                .flat_map(|f| f.verbs.iter().flatten().cloned()),
        );
        v
    }
}

/// The lexicon built into the binary, parsed on first use. A lexicon that
/// does not parse (a broken edit) leaves the reader with no words: it then
/// reads nothing and the error is logged; a unit test keeps that from
/// shipping.
pub fn lexicon() -> &'static Lexicon {
    static LEX: OnceLock<Lexicon> = OnceLock::new();
    LEX.get_or_init(|| {
        Lexicon::parse(SOURCE).unwrap_or_else(|e| {
            tracing::error!(error = %e, "assets/lexicon.toml does not parse");
            Lexicon::default()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_lexicon_parses_with_every_frame() {
        let lex = Lexicon::parse(SOURCE).unwrap();
        assert!(lex.frames.len() >= 20, "{}", lex.frames.len());
        assert!(lex.glue.contains("please"));
        assert_eq!(lex.units.get("tins").map(String::as_str), Some("can"));
        // Longest first, so "half a dozen" is tried before "dozen".
        let dozen = lex
            .numbers
            .iter()
            .position(|(p, _)| p == &words_of("half a dozen"))
            .unwrap();
        let single = lex
            .numbers
            .iter()
            .position(|(p, _)| p == &words_of("dozen"))
            .unwrap();
        assert!(dozen < single);
        assert!(lex.vocabulary.contains("remove"));
    }

    #[test]
    fn a_broken_lexicon_is_an_error_not_a_panic() {
        assert!(Lexicon::parse("[words]\nglue = 3").is_err());
    }
}
