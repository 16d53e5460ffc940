//! The dialogue state of a turn: what Alfred's reply presented (the ordered
//! list that "the 2nd one" counts in), what it offered to do if the user
//! agrees, and the question it is waiting on.
//!
//! Data, not words: the next turn reads this instead of searching the
//! reply's text, and the Narrative panel and the prompts show it. A brain
//! may state it with its reply; otherwise the pipeline derives it from the
//! reply's words ([`presented_in`], [`offer_in`]) and the turn's questions.
//!
//! Pure: no IO.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One entity as a reply showed it, at its place in the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Shown {
    #[serde(rename = "ref")]
    pub r#ref: String,
    pub label: String,
}

/// What Alfred offered to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// Save the unsaved drafts in `refs`.
    SaveDraft,
    /// Put what the recipes in `refs` need and the kitchen lacks on the
    /// shopping list.
    AddMissing,
    /// Put the recipes in `refs` on the meal plan.
    PutOnPlan,
    /// Show the full recipe of `refs`.
    ShowRecipe,
    /// Plan from the saved recipes (or try something new).
    PlanFromSaved,
    /// Find the saved recipes that use the items in `refs`.
    FindRecipes,
}

impl OfferKind {
    /// A few words for panels and prompts.
    pub fn describe(self) -> &'static str {
        match self {
            OfferKind::SaveDraft => "save",
            OfferKind::AddMissing => "add what's missing to the shopping list for",
            OfferKind::PutOnPlan => "put on the plan",
            OfferKind::ShowRecipe => "show the full recipe of",
            OfferKind::PlanFromSaved => "plan from the saved recipes",
            OfferKind::FindRecipes => "find recipes that use",
        }
    }
}

/// An offer the user can take with a "yes".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Offer {
    pub kind: OfferKind,
    /// What the offer is about (may be empty for a proposal).
    #[serde(default)]
    pub items: Vec<Shown>,
}

/// What kind of answer a question waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuestionKind {
    /// Which of `candidates` the user meant.
    WhichOne,
    /// Which days (or which recipes) go on the plan.
    WhichDays,
    /// Whether to go ahead with `request` as read (a yes or a no).
    Confirm,
    /// Anything else.
    Open,
}

/// The question Alfred asked and is waiting on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Question {
    pub kind: QuestionKind,
    /// The question as the user read it.
    pub text: String,
    /// What an answer chooses from.
    #[serde(default)]
    pub candidates: Vec<Shown>,
    /// The user's words that raised it, carried on by an answer.
    #[serde(default)]
    pub request: String,
}

/// What a turn's reply left open for the next message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Dialogue {
    /// What the reply showed, in the order shown.
    pub presented: Vec<Shown>,
    /// What Alfred offered to do if the user agrees.
    pub offer: Option<Offer>,
    /// The question Alfred is waiting on.
    pub question: Option<Question>,
    /// The earlier list "the 2nd one" still counts in, when the reply
    /// presented one of its items rather than a list of its own ("the last
    /// one?" after "the 2nd one, what goes in it").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub listed: Vec<Shown>,
}

impl Shown {
    /// A ref and its label.
    pub fn new(r: impl Into<String>, label: impl Into<String>) -> Self {
        Self {
            r#ref: r.into(),
            label: label.into(),
        }
    }
}

impl Dialogue {
    /// Nothing presented, offered or asked.
    pub fn is_empty(&self) -> bool {
        self.presented.is_empty()
            && self.offer.is_none()
            && self.question.is_none()
            && self.listed.is_empty()
    }

    /// The presented refs, in order.
    pub fn presented_refs(&self) -> Vec<String> {
        self.presented.iter().map(|s| s.r#ref.clone()).collect()
    }

    /// The presented list numbered as "the 2nd one" counts: `1 Thai Pad See
    /// Ew` (panels), or `1. recipe_8 Thai Pad See Ew` with refs (prompts).
    pub fn numbered(&self, with_refs: bool) -> Vec<String> {
        self.presented
            .iter()
            .enumerate()
            .map(|(i, s)| match with_refs {
                true => format!("{}. {} {}", i + 1, s.r#ref, s.label),
                false => format!("{} {}", i + 1, s.label),
            })
            .collect()
    }

    /// One line per part, for panels and prompts:
    /// `("presented", "1 Air Fryer Paneer Tikka · 2 Thai Pad See Ew")`.
    pub fn lines(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if !self.presented.is_empty() {
            out.push(("presented", self.numbered(false).join(" · ")));
        }
        if !self.listed.is_empty() {
            let names: Vec<String> = self
                .listed
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{} {}", i + 1, s.label))
                .collect();
            out.push(("counting in", names.join(" · ")));
        }
        if let Some(o) = &self.offer {
            let what: Vec<&str> = o.items.iter().map(|s| s.label.as_str()).collect();
            let text = if what.is_empty() {
                o.kind.describe().to_string()
            } else {
                format!("{} {}", o.kind.describe(), what.join(", "))
            };
            out.push(("offered", text));
        }
        if let Some(q) = &self.question {
            out.push(("alfred asked", q.text.trim().to_string()));
        }
        out
    }
}

/// The entities a reply presents, in order: one per list line (`- `, `• `,
/// `* `, `1. `), the first it names, when its lines name any — a list is
/// what "the 2nd one" counts in, not the prose around it ("that rules out A
/// and B") nor the rest of a line ("— you'd need egg") — else every entity
/// its text names.
pub fn presented_in(reply: &str, known: &[(String, String)]) -> Vec<Shown> {
    let mut on_lists: Vec<Shown> = Vec::new();
    for line in reply.lines().filter(|l| is_list_line(l)) {
        if let Some(first) = named_in(line, known).into_iter().next()
            && !on_lists.iter().any(|s| s.r#ref == first.r#ref)
        {
            on_lists.push(first);
        }
    }
    if on_lists.is_empty() {
        named_in(reply, known)
    } else {
        on_lists
    }
}

/// Words that open an offer: Alfred asking whether it should do something.
const OFFER_OPENERS: &[&str] = &[
    "shall i ",
    "should i ",
    "want me to ",
    "like me to ",
    "i can ",
    "i could ",
    "happy to ",
    "do you want to ",
    "would you like to ",
    "want to ",
];

/// What an offer's words name, in the order they are tried (the longer
/// phrases first: "your saved recipes" is not an offer to save): the first
/// kind whose words the offering sentence uses.
const OFFER_WORDS: &[(OfferKind, &[&str])] = &[
    (
        OfferKind::PlanFromSaved,
        &["saved recipes", "your recipes", "from what you have saved"],
    ),
    (OfferKind::SaveDraft, &["save"]),
    (
        OfferKind::AddMissing,
        &["shopping list", "missing", "to your list", "to the list"],
    ),
    (
        OfferKind::ShowRecipe,
        &["full recipe", "the whole recipe", "walk you through"],
    ),
    (
        OfferKind::FindRecipes,
        &["recipes that use", "recipes with", "find recipes", "use up"],
    ),
    (
        OfferKind::PutOnPlan,
        &["on the plan", "meal plan", "on the menu", "schedule"],
    ),
];

/// The offer a reply makes, read from its words when the brain did not
/// state one: a sentence that asks whether Alfred should do something
/// ("Shall I put these on the plan?", "Want me to add what's missing to your
/// list?"), of the kind its words name, about the entities it names. None
/// when no sentence offers, or when the offer is of no [`OfferKind`]: the
/// panel then shows no offer rather than a wrong one.
pub fn offer_in(reply: &str, known: &[(String, String)]) -> Option<Offer> {
    let mut start = 0;
    for (i, c) in reply.char_indices() {
        if !matches!(c, '.' | '!' | '?' | '\n') {
            continue;
        }
        let sentence = &reply[start..i];
        start = i + c.len_utf8();
        if c != '?' {
            continue;
        }
        let lower = format!(" {}", sentence.to_lowercase().replace('’', "'"));
        if !OFFER_OPENERS
            .iter()
            .any(|o| lower.contains(&format!(" {o}")))
        {
            continue;
        }
        let kind = OFFER_WORDS
            .iter()
            .find(|(_, words)| words.iter().any(|w| lower.contains(w)))
            .map(|(kind, _)| *kind);
        if let Some(kind) = kind {
            return Some(Offer {
                kind,
                items: named_in(sentence, known),
            });
        }
    }
    None
}

fn is_list_line(line: &str) -> bool {
    let l = line.trim_start();
    let numbered = l.split_once(['.', ')']).is_some_and(|(n, _)| {
        !n.is_empty() && n.len() <= 2 && n.chars().all(|c| c.is_ascii_digit())
    });
    numbered || ["- ", "• ", "* ", "· "].iter().any(|b| l.starts_with(b))
}

/// The entities a text names, in the order it names them: each known label
/// found (case-insensitive, whole words), longest labels first so a label
/// inside a longer one is not counted twice.
fn named_in(reply: &str, known: &[(String, String)]) -> Vec<Shown> {
    let text = reply.to_lowercase();
    let mut by_length: Vec<&(String, String)> = known
        .iter()
        .filter(|(_, label)| label.chars().count() >= 3)
        .collect();
    by_length.sort_by_key(|(_, l)| std::cmp::Reverse(l.len()));
    let mut taken: Vec<(usize, usize)> = Vec::new();
    let mut found: Vec<(usize, Shown)> = Vec::new();
    for (r, label) in by_length {
        if found.iter().any(|(_, s)| &s.r#ref == r) {
            continue;
        }
        let needle = label.to_lowercase();
        let mut from = 0;
        while let Some(pos) = text[from..].find(&needle).map(|p| p + from) {
            let end = pos + needle.len();
            let whole = !text[..pos].ends_with(char::is_alphanumeric)
                && !text[end..].starts_with(char::is_alphanumeric);
            let overlaps = taken.iter().any(|&(a, b)| pos < b && a < end);
            if whole && !overlaps {
                taken.push((pos, end));
                found.push((
                    pos,
                    Shown {
                        r#ref: r.clone(),
                        label: label.clone(),
                    },
                ));
                break;
            }
            from = end;
        }
    }
    found.sort_by_key(|(p, _)| *p);
    found.into_iter().map(|(_, s)| s).collect()
}

#[cfg(test)]
mod tests {

    fn kitchen() -> Vec<(String, String)> {
        vec![
            ("recipe_1".to_string(), "Thai Pad See Ew".to_string()),
            ("recipe_2".to_string(), "Kerala Cod Curry".to_string()),
        ]
    }

    #[test]
    fn an_offer_is_read_from_a_sentence_that_offers() {
        let k = kitchen();
        let plan = offer_in(
            "I found 6 recipes. Shall I plan the week from your saved recipes?",
            &k,
        )
        .expect("an offer");
        assert_eq!(plan.kind, OfferKind::PlanFromSaved);
        let missing = offer_in(
            "Thai Pad See Ew needs rice noodles. Want me to add what's missing for Thai Pad See \
             Ew to your shopping list?",
            &k,
        )
        .expect("an offer");
        assert_eq!(missing.kind, OfferKind::AddMissing);
        assert_eq!(missing.items, [Shown::new("recipe_1", "Thai Pad See Ew")]);
        let put = offer_in(
            "Kerala Cod Curry fits. Should I put it on the plan for Sunday?",
            &k,
        );
        assert_eq!(put.map(|o| o.kind), Some(OfferKind::PutOnPlan));
        let card = offer_in(
            "**Kerala Cod Curry**\n\nWant to put it on the plan, or tweak it?",
            &k,
        );
        assert_eq!(card.map(|o| o.kind), Some(OfferKind::PutOnPlan));
    }

    #[test]
    fn a_reply_that_offers_nothing_has_no_offer() {
        let k = kitchen();
        // A proposal's reply that only tells, and questions that offer
        // nothing of a known kind.
        for reply in [
            "Here are two ideas: Thai Pad See Ew and Kerala Cod Curry. Enjoy!",
            "Which one do you mean, Thai Pad See Ew or Kerala Cod Curry?",
            "Shall I tell you a joke?",
            "Is that for tonight?",
        ] {
            assert_eq!(offer_in(reply, &k), None, "{reply}");
        }
    }

    use super::*;

    fn known() -> Vec<(String, String)> {
        [
            ("recipe_8", "Thai Pad See Ew"),
            ("recipe_9", "Thai Yellow Curry"),
            ("recipe_3", "Air Fryer Paneer Tikka"),
            ("inv_1", "paneer"),
            ("inv_2", "egg"),
        ]
        .iter()
        .map(|(r, l)| (r.to_string(), l.to_string()))
        .collect()
    }

    #[test]
    fn a_reply_presents_what_it_names_in_its_order() {
        let reply = "Two left: Thai Yellow Curry (40 min) and Air Fryer Paneer Tikka. \
                     Or the thai pad see ew?";
        let refs: Vec<String> = presented_in(reply, &known())
            .into_iter()
            .map(|s| s.r#ref)
            .collect();
        assert_eq!(refs, ["recipe_9", "recipe_3", "recipe_8"]);
    }

    #[test]
    fn a_list_is_what_is_presented_not_the_prose_around_it() {
        let reply = "Right — no curry. That rules out Thai Yellow Curry.\n\nLeft:\n\
                     - Air Fryer Paneer Tikka (serves 2) — you'd need egg\n2. Thai Pad See Ew\nWant one?";
        let refs: Vec<String> = presented_in(reply, &known())
            .into_iter()
            .map(|s| s.r#ref)
            .collect();
        assert_eq!(refs, ["recipe_3", "recipe_8"]);
    }

    #[test]
    fn a_label_inside_a_longer_one_or_a_word_is_not_counted() {
        let shown = presented_in("Air Fryer Paneer Tikka needs eggplant", &known());
        let refs: Vec<&str> = shown.iter().map(|s| s.r#ref.as_str()).collect();
        assert_eq!(
            refs,
            ["recipe_3"],
            "paneer is inside the label, egg inside eggplant"
        );
        assert!(presented_in("", &known()).is_empty());
    }

    #[test]
    fn lines_name_each_part() {
        let d = Dialogue {
            presented: vec![Shown::new("recipe_9", "Thai Yellow Curry")],
            offer: Some(Offer {
                kind: OfferKind::SaveDraft,
                items: vec![Shown::new("gen_recipe_1", "Thai Basil Chicken")],
            }),
            question: Some(Question {
                kind: QuestionKind::Open,
                text: "Want me to save it? ".into(),
                candidates: vec![],
                request: String::new(),
            }),
            listed: vec![
                Shown::new("recipe_8", "Thai Pad See Ew"),
                Shown::new("recipe_9", "Thai Yellow Curry"),
            ],
        };
        let lines = d.lines();
        assert_eq!(
            lines,
            vec![
                ("presented", "1 Thai Yellow Curry".to_string()),
                (
                    "counting in",
                    "1 Thai Pad See Ew · 2 Thai Yellow Curry".to_string()
                ),
                ("offered", "save Thai Basil Chicken".to_string()),
                ("alfred asked", "Want me to save it?".to_string()),
            ]
        );
        assert!(Dialogue::default().is_empty() && !d.is_empty());
    }
}
