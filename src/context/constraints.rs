//! Standing constraints: what the user ruled out or asked for across turns
//! ("no cod this week", "nothing spicy", "vegetarian for the kids", "not the
//! pad see ew"), kept as their own typed list beside the registry.
//!
//! A constraint holds the user's clause verbatim, the turn it was said, what
//! it matches (named entities, an ingredient or family, a cuisine, a kind of
//! dish, a diet, or free text with the refs a model judged covered) and the
//! entities it covers now. It stands until the user lifts it, replaces it or
//! starts over; no window and no fold ever drops it. Entities it covers are
//! excluded from working memory the turn they become covered and stay out
//! (in the background, with the constraint as their cause) afterwards.
//!
//! Pure: turn numbers and recipe facts come in as arguments.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::registry::SessionIdRegistry;
use super::taxonomy;
use super::{RefAction, Table};

/// Lifted constraints kept for the record and `search_history`.
const LIFTED_KEPT: usize = 50;

/// Whether a constraint rules things out or asks for only some things.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// "no cod": covers what matches.
    #[default]
    Exclude,
    /// "only thai", "vegetarian": covers what does not match.
    Require,
}

/// What a constraint matches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConstraintMatch {
    /// Named entities: "not the pad see ew".
    Entity { refs: Vec<String> },
    /// An ingredient or family of them: "cod", "fish", "shellfish".
    Ingredient { name: String },
    /// A cuisine: "thai".
    Cuisine { name: String },
    /// A kind of dish, by tag or name: "curry", "spicy", "breakfast".
    Tag { name: String },
    /// A diet: "vegetarian" rules out meat and seafood.
    Diet { name: String },
    /// Free text a model judged, with the refs it covers.
    Free { text: String, refs: Vec<String> },
}

impl ConstraintMatch {
    /// The thing matched in a few words: "cod", "thai", "Chai French Toast".
    fn target(&self, labels: &dyn Fn(&str) -> String) -> String {
        match self {
            ConstraintMatch::Entity { refs } | ConstraintMatch::Free { refs, .. }
                if !refs.is_empty() && matches!(self, ConstraintMatch::Entity { .. }) =>
            {
                refs.iter()
                    .map(|r| labels(r))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
            ConstraintMatch::Entity { .. } => "those".to_string(),
            ConstraintMatch::Ingredient { name }
            | ConstraintMatch::Cuisine { name }
            | ConstraintMatch::Tag { name }
            | ConstraintMatch::Diet { name } => name.clone(),
            ConstraintMatch::Free { text, .. } => text.clone(),
        }
    }

    /// True when both match the same thing.
    fn same_target(&self, other: &ConstraintMatch) -> bool {
        let norm = |s: &str| taxonomy::words(s).join(" ");
        match (self, other) {
            (ConstraintMatch::Entity { refs: a }, ConstraintMatch::Entity { refs: b }) => {
                let (mut a, mut b) = (a.clone(), b.clone());
                a.sort();
                b.sort();
                a == b
            }
            (ConstraintMatch::Ingredient { name: a }, ConstraintMatch::Ingredient { name: b })
            | (ConstraintMatch::Cuisine { name: a }, ConstraintMatch::Cuisine { name: b })
            | (ConstraintMatch::Tag { name: a }, ConstraintMatch::Tag { name: b })
            | (ConstraintMatch::Diet { name: a }, ConstraintMatch::Diet { name: b })
            | (ConstraintMatch::Free { text: a, .. }, ConstraintMatch::Free { text: b, .. }) => {
                norm(a) == norm(b)
            }
            _ => false,
        }
    }
}

/// Whether a constraint is in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConstraintStatus {
    #[default]
    Active,
    Lifted,
}

/// How a constraint ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lifted {
    pub turn: u32,
    /// The user's words that lifted it ("actually cod is fine"), or what
    /// replaced it ("replaced by c3"), or "start over".
    pub by: String,
}

/// One standing constraint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Constraint {
    /// `c1`, `c2`… — never reused within a session.
    pub id: String,
    /// The user's words, verbatim: "skip anything with cod".
    pub clause: String,
    pub since_turn: u32,
    pub rule: Rule,
    pub matches: ConstraintMatch,
    /// A short name, fixed when it was said: "no cod", "vegetarian".
    #[serde(default)]
    pub label: String,
    /// Refs covered now, with the turn each became covered (once lifted:
    /// what it covered when it was lifted).
    #[serde(default)]
    pub covers: BTreeMap<String, u32>,
    /// Refs the user brought back in spite of it ("bring back the wings").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
    #[serde(default)]
    pub status: ConstraintStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifted: Option<Lifted>,
}

impl Constraint {
    /// A short name: "no cod", "only thai", "vegetarian", "not Chai French Toast".
    pub fn name(&self, labels: &dyn Fn(&str) -> String) -> String {
        let target = self.matches.target(labels);
        match (&self.matches, self.rule) {
            (ConstraintMatch::Diet { .. }, Rule::Require) => target,
            (ConstraintMatch::Entity { .. }, Rule::Exclude) => format!("not {target}"),
            (ConstraintMatch::Tag { name }, Rule::Exclude)
                if matches!(name.as_str(), "spicy" | "sweet" | "fried") =>
            {
                format!("nothing {target}")
            }
            (_, Rule::Exclude) => format!("no {target}"),
            (_, Rule::Require) => format!("only {target}"),
        }
    }

    /// True while the constraint is in force.
    pub fn is_active(&self) -> bool {
        self.status == ConstraintStatus::Active
    }

    /// Whether the constraint covers a recipe with these facts (`None`
    /// when it does not judge recipes by their facts: entity and free-text
    /// constraints name their refs).
    pub fn covers_recipe(&self, facts: &RecipeFacts) -> Option<bool> {
        let hit = match &self.matches {
            ConstraintMatch::Entity { .. } | ConstraintMatch::Free { .. } => return None,
            ConstraintMatch::Ingredient { name } => facts
                .ingredients
                .iter()
                .any(|i| taxonomy::ingredient_matches(i, name)),
            ConstraintMatch::Cuisine { name } => facts
                .cuisine
                .as_deref()
                .is_some_and(|c| taxonomy::words(c) == taxonomy::words(name)),
            ConstraintMatch::Tag { name } => facts.is_kind(name),
            ConstraintMatch::Diet { name } => {
                let diet = taxonomy::diet(name).unwrap_or("vegetarian");
                // A diet is kept by what is not in the dish.
                return Some(match self.rule {
                    Rule::Require => facts
                        .ingredients
                        .iter()
                        .any(|i| taxonomy::diet_forbids(diet, i).is_some()),
                    Rule::Exclude => !facts
                        .ingredients
                        .iter()
                        .any(|i| taxonomy::diet_forbids(diet, i).is_some()),
                });
            }
        };
        Some(match self.rule {
            Rule::Exclude => hit,
            Rule::Require => !hit,
        })
    }

    /// The refs it names itself (entity and free-text constraints).
    fn named_refs(&self) -> &[String] {
        match &self.matches {
            ConstraintMatch::Entity { refs } | ConstraintMatch::Free { refs, .. } => refs,
            _ => &[],
        }
    }
}

/// What a recipe is, as constraints judge it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecipeFacts {
    pub label: String,
    pub cuisine: Option<String>,
    pub tags: Vec<String>,
    /// Ingredient names, lowercase.
    pub ingredients: Vec<String>,
}

impl RecipeFacts {
    /// The facts of a recipe row or artifact; `None` when the content does
    /// not list its ingredients (a read of a few columns), so nothing can be
    /// judged from it.
    pub fn from_content(label: &str, content: &Value) -> Option<Self> {
        content.get("ingredients")?.as_array()?;
        let names = ingredient_names(content);
        let text = |k: &str| content.get(k).and_then(Value::as_str).map(str::to_string);
        Some(Self {
            label: text("name").unwrap_or_else(|| label.to_string()),
            cuisine: text("cuisine"),
            tags: content
                .get("tags")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_lowercase)
                        .collect()
                })
                .unwrap_or_default(),
            ingredients: names,
        })
    }

    /// True when the dish is of a kind: by tag or name ("curry"), or for
    /// "spicy", by a hot ingredient unless it is tagged mild.
    pub fn is_kind(&self, kind: &str) -> bool {
        let kind_words = taxonomy::words(kind);
        let tagged = |k: &[String]| {
            self.tags.iter().any(|t| {
                taxonomy::words(t) == k
                    || taxonomy::contains_phrase(&taxonomy::words(t), &k.join(" "))
            })
        };
        if kind_words == ["spicy"] {
            return tagged(&kind_words)
                || (!tagged(&["mild".to_string()])
                    && self.ingredients.iter().any(|i| taxonomy::is_hot(i)));
        }
        tagged(&kind_words) || taxonomy::contains_phrase(&taxonomy::words(&self.label), kind)
    }
}

/// The ingredient names of a recipe row or artifact (lowercase): lines as
/// strings or as objects with a `name`.
pub fn ingredient_names(content: &Value) -> Vec<String> {
    content
        .get("ingredients")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|l| match l {
                    Value::String(s) => Some(s.to_lowercase()),
                    other => other
                        .get("name")
                        .and_then(Value::as_str)
                        .map(str::to_lowercase),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A constraint a brain asks to add.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NewConstraint {
    /// The user's words for it, verbatim: "skip anything with cod".
    pub clause: String,
    /// exclude: rules out what matches; require: rules out what does not.
    pub rule: Rule,
    /// entity, ingredient, cuisine, tag, diet or free.
    pub kind: MatchKind,
    /// The ingredient, cuisine, tag or diet named ("cod", "fish", "thai",
    /// "curry", "vegetarian"); the text itself for free; empty for entity.
    pub value: String,
    /// entity: the refs named; free: the refs judged covered; else empty.
    pub refs: Vec<String>,
}

/// The kinds of match a brain can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    Entity,
    #[default]
    Ingredient,
    Cuisine,
    Tag,
    Diet,
    Free,
}

/// A constraint a brain asks to lift.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LiftConstraint {
    /// The constraint's id: "c1".
    pub id: String,
    /// The user's words that lift it: "actually cod is fine".
    pub clause: String,
}

/// A ref brought back in spite of a constraint that still stands.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ConstraintException {
    /// The constraint's id: "c2".
    pub id: String,
    /// The ref the user wants back: "recipe_6".
    #[serde(rename = "ref")]
    pub r#ref: String,
}

/// What a brain decided about standing constraints this turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ConstraintChanges {
    /// New constraints the user stated in this message.
    pub add: Vec<NewConstraint>,
    /// Constraints the user lifted ("actually cod is fine").
    pub lift: Vec<LiftConstraint>,
    /// Refs the user brought back while the constraint stands.
    pub except: Vec<ConstraintException>,
}

impl ConstraintChanges {
    /// True when nothing changes.
    pub fn is_empty(&self) -> bool {
        self.add.is_empty() && self.lift.is_empty() && self.except.is_empty()
    }
}

/// What applying [`ConstraintChanges`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstraintOutcome {
    /// Ids added.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// Ids lifted (or replaced).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lifted: Vec<String>,
    /// Changes not applied, each with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected: Vec<String>,
    /// Refs a lift or an exception released (no longer covered by it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub released: Vec<String>,
}

impl ConstraintOutcome {
    /// True when nothing was added, lifted or rejected.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.lifted.is_empty()
            && self.rejected.is_empty()
            && self.released.is_empty()
    }
}

/// The session's standing constraints, active and lifted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Constraints {
    #[serde(default)]
    next_id: u32,
    #[serde(default)]
    list: Vec<Constraint>,
    /// Refs a write was held back for (see `guarded.rs`), with the turn:
    /// the next message's "anyway" lets writes touching them through.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    held: BTreeMap<String, u32>,
}

impl Constraints {
    /// Every constraint, oldest first (lifted ones included).
    pub fn all(&self) -> &[Constraint] {
        &self.list
    }

    /// The constraints in force, oldest first.
    pub fn active(&self) -> impl Iterator<Item = &Constraint> {
        self.list.iter().filter(|c| c.is_active())
    }

    /// The constraint of an id.
    pub fn get(&self, id: &str) -> Option<&Constraint> {
        self.list.iter().find(|c| c.id == id)
    }

    /// True when no constraint was ever stated.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Notes the refs this turn's writes were held back for (replacing the
    /// last turn's).
    pub fn note_held(&mut self, refs: impl IntoIterator<Item = String>, turn: u32) {
        self.held = refs.into_iter().map(|r| (r, turn)).collect();
    }

    /// The turn a write touching `r` was last held back, if the last turn
    /// noted one.
    pub fn held_at(&self, r: &str) -> Option<u32> {
        self.held.get(r).copied()
    }

    /// The earliest active constraint covering `r`, with the turn it began
    /// to cover it.
    pub fn covering(&self, r: &str) -> Option<(&Constraint, u32)> {
        self.active()
            .filter_map(|c| c.covers.get(r).map(|t| (c, *t)))
            .min_by_key(|(c, t)| (*t, c.since_turn))
    }

    /// The refs inside a draft's content that an active constraint covers
    /// (a meal-plan draft's recipe, a recipe draft's parent), each once.
    pub fn covered_inside(&self, content: &Value) -> Vec<String> {
        fn collect(c: &Constraints, v: &Value, out: &mut Vec<String>) {
            match v {
                Value::String(s) if c.covering(s).is_some() && !out.contains(s) => {
                    out.push(s.clone());
                }
                Value::Array(a) => a.iter().for_each(|x| collect(c, x, out)),
                Value::Object(o) => o.values().for_each(|x| collect(c, x, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        collect(self, content, &mut out);
        out
    }

    /// The first active constraint that rules out a recipe with these facts.
    pub fn ruling_out(&self, facts: &RecipeFacts) -> Option<&Constraint> {
        self.active().find(|c| c.covers_recipe(facts) == Some(true))
    }

    /// Applies a brain's changes at `turn`; refs must be live in `registry`.
    pub fn apply(
        &mut self,
        changes: &ConstraintChanges,
        registry: &SessionIdRegistry,
        turn: u32,
    ) -> ConstraintOutcome {
        let mut out = ConstraintOutcome::default();
        for lift in &changes.lift {
            match self
                .list
                .iter_mut()
                .find(|c| c.id == lift.id && c.is_active())
            {
                Some(c) => {
                    c.status = ConstraintStatus::Lifted;
                    c.lifted = Some(Lifted {
                        turn,
                        by: clean_clause(&lift.clause),
                    });
                    // The covers stay as history: what the lift released.
                    out.released.extend(c.covers.keys().cloned());
                    out.lifted.push(c.id.clone());
                }
                None => out.rejected.push(format!(
                    "lift {}: no active constraint has that id",
                    lift.id
                )),
            }
        }
        for ex in &changes.except {
            match self
                .list
                .iter_mut()
                .find(|c| c.id == ex.id && c.is_active())
            {
                Some(c) if registry.is_live_ref(&ex.r#ref) => {
                    if !c.except.contains(&ex.r#ref) {
                        c.except.push(ex.r#ref.clone());
                    }
                    c.covers.remove(&ex.r#ref);
                    out.released.push(ex.r#ref.clone());
                }
                Some(_) => out
                    .rejected
                    .push(format!("except {}: unknown ref `{}`", ex.id, ex.r#ref)),
                None => out.rejected.push(format!(
                    "except {}: no active constraint has that id",
                    ex.id
                )),
            }
        }
        for new in &changes.add {
            match self.add(new, registry, turn) {
                Ok((id, replaced)) => {
                    out.lifted.extend(replaced);
                    out.added.push(id);
                }
                Err(why) => out.rejected.push(why),
            }
        }
        self.trim_lifted();
        out.released.sort();
        out.released.dedup();
        out
    }

    fn add(
        &mut self,
        new: &NewConstraint,
        registry: &SessionIdRegistry,
        turn: u32,
    ) -> Result<(String, Vec<String>), String> {
        let clause = clean_clause(&new.clause);
        if clause.is_empty() {
            return Err("a constraint needs the user's words (its clause)".into());
        }
        let unknown: Vec<&String> = new
            .refs
            .iter()
            .filter(|r| !registry.is_live_ref(r))
            .collect();
        if !unknown.is_empty() {
            return Err(format!(
                "\"{clause}\": unknown refs {}",
                unknown
                    .iter()
                    .map(|r| format!("`{r}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let value = new.value.trim().to_lowercase();
        let matches = match new.kind {
            MatchKind::Entity if new.refs.is_empty() => {
                return Err(format!("\"{clause}\": an entity constraint names no refs"));
            }
            MatchKind::Entity => ConstraintMatch::Entity {
                refs: new.refs.clone(),
            },
            MatchKind::Free => ConstraintMatch::Free {
                text: if value.is_empty() {
                    clause.clone()
                } else {
                    new.value.trim().to_string()
                },
                refs: new.refs.clone(),
            },
            _ if value.is_empty() => {
                return Err(format!(
                    "\"{clause}\": the constraint names nothing to match"
                ));
            }
            MatchKind::Ingredient => ConstraintMatch::Ingredient { name: value },
            MatchKind::Cuisine => ConstraintMatch::Cuisine { name: value },
            MatchKind::Tag => ConstraintMatch::Tag { name: value },
            MatchKind::Diet => ConstraintMatch::Diet {
                name: taxonomy::diet(&value).map_or(value, str::to_string),
            },
        };
        // The same thing said again replaces the older wording.
        let mut replaced = Vec::new();
        self.next_id += 1;
        let id = format!("c{}", self.next_id);
        for c in self.list.iter_mut().filter(|c| c.is_active()) {
            if c.rule == new.rule && c.matches.same_target(&matches) {
                c.status = ConstraintStatus::Lifted;
                c.lifted = Some(Lifted {
                    turn,
                    by: format!("replaced by {id}"),
                });
                replaced.push(c.id.clone());
            }
        }
        let mut c = Constraint {
            id: id.clone(),
            clause,
            since_turn: turn,
            rule: new.rule,
            matches,
            label: String::new(),
            covers: BTreeMap::new(),
            except: Vec::new(),
            status: ConstraintStatus::Active,
            lifted: None,
        };
        let labels = |r: &str| {
            registry
                .get(r)
                .map_or_else(|| r.to_string(), |e| e.label.clone())
        };
        c.label = c.name(&labels);
        self.list.push(c);
        Ok((id, replaced))
    }

    /// Lifts every active constraint (a fresh start); returns their ids.
    pub fn lift_all(&mut self, turn: u32, by: &str) -> Vec<String> {
        let mut ids = Vec::new();
        for c in self.list.iter_mut().filter(|c| c.is_active()) {
            c.status = ConstraintStatus::Lifted;
            c.lifted = Some(Lifted {
                turn,
                by: by.to_string(),
            });
            ids.push(c.id.clone());
        }
        self.trim_lifted();
        ids
    }

    /// Recomputes what each active constraint covers at `turn`.
    ///
    /// Named refs are covered while live. Recipes are judged by `facts`
    /// (`None` keeps the earlier judgement: content not loaded says
    /// nothing new). Never covered: pending drafts (being worked on),
    /// pinned entities (the user's own word) and what the user created
    /// after stating the constraint (they asked for it since).
    pub fn refresh(
        &mut self,
        registry: &SessionIdRegistry,
        facts: &dyn Fn(&str) -> Option<RecipeFacts>,
        turn: u32,
    ) {
        let recipes: Vec<(String, Option<RecipeFacts>)> = registry
            .entries()
            .into_iter()
            .filter(|(_, e)| e.table == Table::Recipes && !e.is_pending() && !e.is_pinned())
            .map(|(r, _)| (r.to_string(), facts(r)))
            .collect();
        for c in self.list.iter_mut().filter(|c| c.is_active()) {
            // What the user made after saying it is theirs: never covered.
            let since = c.since_turn;
            let coverable = |r: &str| {
                !c.except.iter().any(|x| x == r)
                    && registry.get(r).is_some_and(|e| {
                        let made_since = e.turn_created > since
                            && matches!(e.action, RefAction::Created | RefAction::Generated);
                        !(e.is_pending() || e.is_pinned() || made_since)
                    })
            };
            let mut next: BTreeMap<String, u32> = BTreeMap::new();
            for r in c.named_refs() {
                if coverable(r) {
                    next.insert(r.clone(), *c.covers.get(r).unwrap_or(&turn));
                }
            }
            for (r, f) in &recipes {
                if !coverable(r) || next.contains_key(r) {
                    continue;
                }
                let covered = match f {
                    Some(f) => c.covers_recipe(f).unwrap_or(false),
                    None => c.covers.contains_key(r),
                };
                if covered {
                    next.insert(r.clone(), *c.covers.get(r).unwrap_or(&turn));
                }
            }
            c.covers = next;
        }
    }

    /// Keeps the last [`LIFTED_KEPT`] lifted constraints.
    fn trim_lifted(&mut self) {
        let lifted = self.list.iter().filter(|c| !c.is_active()).count();
        let mut extra = lifted.saturating_sub(LIFTED_KEPT);
        self.list.retain(|c| {
            if extra > 0 && !c.is_active() {
                extra -= 1;
                return false;
            }
            true
        });
    }
}

/// The user's clause as kept: their words, trimmed of surrounding space,
/// quotes and end punctuation.
pub fn clean_clause(s: &str) -> String {
    s.trim()
        .trim_matches(|c: char| c == '"' || c == '“' || c == '”' || c == '\'')
        .trim_end_matches(['.', '!', '?', ',', ';', ':'])
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kitchen() -> (SessionIdRegistry, BTreeMap<String, RecipeFacts>) {
        let mut reg = SessionIdRegistry::new();
        let mut facts = BTreeMap::new();
        for (id, name, cuisine, tags, ings) in [
            (
                "a",
                "Kerala Cod Curry",
                "indian",
                vec!["curry"],
                vec!["cod fillet", "coconut milk"],
            ),
            (
                "b",
                "Chai French Toast",
                "fusion",
                vec!["sweet"],
                vec!["brioche", "egg", "milk"],
            ),
            (
                "c",
                "Thai Pad See Ew",
                "thai",
                vec!["noodles"],
                vec!["wide rice noodles", "chicken thigh"],
            ),
            (
                "d",
                "Prawn Laksa",
                "malaysian",
                vec!["spicy"],
                vec!["king prawns", "sambal"],
            ),
        ] {
            let r = reg
                .register_row(Table::Recipes, id, name, RefAction::Read, 2)
                .to_string();
            let row = json!({"name": name, "cuisine": cuisine, "tags": tags,
                "ingredients": ings.iter().map(|n| json!({"name": n})).collect::<Vec<_>>()});
            facts.insert(r, RecipeFacts::from_content(name, &row).unwrap());
        }
        (reg, facts)
    }

    fn add(
        kind: MatchKind,
        rule: Rule,
        value: &str,
        refs: &[&str],
        clause: &str,
    ) -> ConstraintChanges {
        ConstraintChanges {
            add: vec![NewConstraint {
                clause: clause.into(),
                rule,
                kind,
                value: value.into(),
                refs: refs.iter().map(|r| r.to_string()).collect(),
            }],
            ..ConstraintChanges::default()
        }
    }

    fn covered(c: &Constraints, id: &str) -> Vec<String> {
        c.get(id).unwrap().covers.keys().cloned().collect()
    }

    #[test]
    fn an_ingredient_family_covers_its_members_the_turn_it_is_said() {
        let (reg, facts) = kitchen();
        let mut c = Constraints::default();
        let out = c.apply(
            &add(
                MatchKind::Ingredient,
                Rule::Exclude,
                "seafood",
                &[],
                "nothing with seafood please.",
            ),
            &reg,
            3,
        );
        assert_eq!(out.added, ["c1"]);
        c.refresh(&reg, &|r| facts.get(r).cloned(), 3);
        assert_eq!(covered(&c, "c1"), ["recipe_1", "recipe_4"]);
        assert_eq!(c.get("c1").unwrap().clause, "nothing with seafood please");
        assert_eq!(
            c.covering("recipe_1").map(|(k, t)| (k.id.as_str(), t)),
            Some(("c1", 3))
        );
        // Later turns keep the turn coverage began.
        c.refresh(&reg, &|r| facts.get(r).cloned(), 5);
        assert_eq!(c.covering("recipe_4").map(|(_, t)| t), Some(3));
    }

    #[test]
    fn require_rules_cover_what_does_not_match() {
        let (reg, facts) = kitchen();
        let mut c = Constraints::default();
        c.apply(
            &add(
                MatchKind::Diet,
                Rule::Require,
                "veggie",
                &[],
                "vegetarian for the kids",
            ),
            &reg,
            2,
        );
        c.apply(
            &add(
                MatchKind::Cuisine,
                Rule::Require,
                "thai",
                &[],
                "only thai tonight",
            ),
            &reg,
            2,
        );
        c.refresh(&reg, &|r| facts.get(r).cloned(), 2);
        assert_eq!(covered(&c, "c1"), ["recipe_1", "recipe_3", "recipe_4"]);
        assert_eq!(covered(&c, "c2"), ["recipe_1", "recipe_2", "recipe_4"]);
        let labels = |r: &str| r.to_string();
        assert_eq!(c.get("c1").unwrap().name(&labels), "vegetarian");
        assert_eq!(c.get("c2").unwrap().label, "only thai");
    }

    #[test]
    fn tags_cover_by_tag_or_name_and_spicy_by_heat() {
        let (reg, facts) = kitchen();
        let mut c = Constraints::default();
        c.apply(
            &add(MatchKind::Tag, Rule::Exclude, "curry", &[], "no curry"),
            &reg,
            2,
        );
        c.apply(
            &add(MatchKind::Tag, Rule::Exclude, "spicy", &[], "nothing spicy"),
            &reg,
            2,
        );
        c.refresh(&reg, &|r| facts.get(r).cloned(), 2);
        assert_eq!(covered(&c, "c1"), ["recipe_1"]);
        assert_eq!(covered(&c, "c2"), ["recipe_4"]);
    }

    #[test]
    fn lifting_replacing_and_exceptions() {
        let (reg, facts) = kitchen();
        let f = |r: &str| facts.get(r).cloned();
        let mut c = Constraints::default();
        c.apply(
            &add(
                MatchKind::Ingredient,
                Rule::Exclude,
                "cod",
                &[],
                "no cod this week",
            ),
            &reg,
            2,
        );
        c.apply(
            &add(
                MatchKind::Entity,
                Rule::Exclude,
                "",
                &["recipe_2"],
                "not the french toast",
            ),
            &reg,
            2,
        );
        c.refresh(&reg, &f, 2);
        // The same target said again replaces the older wording.
        let out = c.apply(
            &add(
                MatchKind::Ingredient,
                Rule::Exclude,
                "Cod",
                &[],
                "seriously no cod",
            ),
            &reg,
            4,
        );
        assert_eq!(
            (out.added.as_slice(), out.lifted.as_slice()),
            (&["c3".to_string()][..], &["c1".to_string()][..])
        );
        assert_eq!(
            c.get("c1").unwrap().lifted.as_ref().unwrap().by,
            "replaced by c3"
        );
        c.refresh(&reg, &f, 4);
        assert_eq!(c.covering("recipe_1").unwrap().0.id, "c3");
        // An exception brings one entity back; the constraint stands.
        c.apply(
            &ConstraintChanges {
                except: vec![ConstraintException {
                    id: "c3".into(),
                    r#ref: "recipe_1".into(),
                }],
                ..Default::default()
            },
            &reg,
            5,
        );
        c.refresh(&reg, &f, 5);
        assert!(c.covering("recipe_1").is_none());
        // Lifting ends it.
        let out = c.apply(
            &ConstraintChanges {
                lift: vec![LiftConstraint {
                    id: "c2".into(),
                    clause: "actually the toast is fine".into(),
                }],
                ..Default::default()
            },
            &reg,
            6,
        );
        assert_eq!(out.lifted, ["c2"]);
        assert!(c.covering("recipe_2").is_none());
        assert_eq!(c.active().count(), 1);
        assert_eq!(c.lift_all(7, "start over"), ["c3"]);
        assert_eq!(c.active().count(), 0);
    }

    #[test]
    fn bad_changes_are_rejected_with_a_reason() {
        let (reg, _) = kitchen();
        let mut c = Constraints::default();
        let out = c.apply(
            &add(
                MatchKind::Entity,
                Rule::Exclude,
                "",
                &["recipe_99"],
                "not that one",
            ),
            &reg,
            2,
        );
        assert!(out.rejected[0].contains("recipe_99"), "{out:?}");
        let out = c.apply(
            &add(MatchKind::Ingredient, Rule::Exclude, "cod", &[], "  "),
            &reg,
            2,
        );
        assert!(out.rejected[0].contains("clause"));
        let out = c.apply(
            &ConstraintChanges {
                lift: vec![LiftConstraint {
                    id: "c9".into(),
                    clause: "x".into(),
                }],
                ..Default::default()
            },
            &reg,
            2,
        );
        assert!(out.rejected[0].contains("c9"));
        assert!(c.is_empty());
    }

    #[test]
    fn unloaded_recipes_keep_their_earlier_judgement_and_drafts_are_never_covered() {
        let (mut reg, facts) = kitchen();
        let mut c = Constraints::default();
        c.apply(
            &add(MatchKind::Ingredient, Rule::Exclude, "cod", &[], "no cod"),
            &reg,
            2,
        );
        c.refresh(&reg, &|r| facts.get(r).cloned(), 2);
        c.refresh(&reg, &|_| None, 3);
        assert_eq!(covered(&c, "c1"), ["recipe_1"]);
        let g = reg.register_generated(
            Table::Recipes,
            "Cod Tacos",
            json!({"ingredients": ["cod"]}),
            3,
        );
        let row = json!({"name": "Cod Tacos", "ingredients": ["cod"]});
        c.refresh(
            &reg,
            &|r| RecipeFacts::from_content(r, &row).filter(|_| r == g),
            3,
        );
        assert!(!c.get("c1").unwrap().covers.contains_key(&g));
    }
}
