//! The entity layer as Think and Act see it (seeds/001 "Entities in Context"):
//! recent, long-term memory, pending, excluded, viable — refs and labels,
//! never the reasons (seeds/003: only Understand sees why).
//!
//! Owns the compact forms too: large homogeneous groups collapse to one line
//! (`inv_1..inv_59: 59 inventory items [read]`) in which every ref stays
//! addressable, either by name or inside an explicit range. Background
//! entities are not listed, only counted. Pure text; no escaping here (the
//! section does it).

use std::collections::HashMap;
use std::hash::Hash;

use crate::context::entity::parse_ref;
use crate::context::snapshot::{EntitiesView, EntityView};

/// More entities than this of one type and action collapse into one line.
pub const COLLAPSE_OVER: usize = 12;

/// Example labels shown on a collapsed line.
const EXAMPLE_LABELS: usize = 3;

/// Entity types whose refs are candidates to plan with (besides any gen ref).
const VIABLE_TYPES: [&str; 2] = ["recipe", "meal_plan"];

/// One line of an entity list: a single entity or a collapsed group.
pub(crate) enum Item<'a> {
    One(&'a EntityView),
    Group(Vec<&'a EntityView>),
}

/// Splits `xs` into listing rows, in order: more than [`COLLAPSE_OVER`]
/// alike items (same `key`) become one row placed where the first of them
/// was; every other item is a row of its own, and an item without a key is
/// never grouped. One pass counts, one places: no rescan per item.
pub(crate) fn collapse_alike<'x, T, K: Eq + Hash>(
    xs: &'x [T],
    key: impl Fn(&'x T) -> Option<K>,
) -> Vec<Vec<&'x T>> {
    let keys: Vec<Option<K>> = xs.iter().map(key).collect();
    let mut sizes: HashMap<&K, usize> = HashMap::new();
    for k in keys.iter().flatten() {
        *sizes.entry(k).or_default() += 1;
    }
    let mut rows: Vec<Vec<&T>> = Vec::new();
    let mut placed: HashMap<&K, usize> = HashMap::new();
    for (x, k) in xs.iter().zip(&keys) {
        match k {
            Some(k) if sizes[k] > COLLAPSE_OVER => match placed.get(k) {
                Some(&row) => rows[row].push(x),
                None => {
                    placed.insert(k, rows.len());
                    rows.push(vec![x]);
                }
            },
            _ => rows.push(vec![x]),
        }
    }
    rows
}

/// Groups entities for listing: more than [`COLLAPSE_OVER`] of one type and
/// action become a group placed where its first member was.
pub(crate) fn items<'a>(views: impl IntoIterator<Item = &'a EntityView>) -> Vec<Item<'a>> {
    let views: Vec<&EntityView> = views.into_iter().collect();
    collapse_alike(&views, |v| {
        Some((v.entity_type.as_str(), v.action.as_str()))
    })
    .into_iter()
    .map(|row| match row.as_slice() {
        [one] => Item::One(one),
        members => Item::Group(members.iter().map(|v| **v).collect()),
    })
    .collect()
}

/// `recipe_3: Air Fryer Paneer Tikka (recipe)` — the label is left out when
/// it is only the ref again.
pub(crate) fn named(v: &EntityView) -> String {
    if v.label.trim().is_empty() || v.label == v.r#ref {
        format!("{} ({})", v.r#ref, v.entity_type)
    } else {
        format!("{}: {} ({})", v.r#ref, v.label, v.entity_type)
    }
}

/// A collapsed group: `inv_1..inv_59: 59 inventory items [read] — e.g. …`.
pub(crate) fn group_line(members: &[&EntityView]) -> String {
    let refs: Vec<&str> = members.iter().map(|v| v.r#ref.as_str()).collect();
    let (entity_type, action) = members
        .first()
        .map(|v| (v.entity_type.as_str(), v.action.as_str()))
        .unwrap_or(("entity", ""));
    let examples: Vec<&str> = members
        .iter()
        .map(|v| v.label.as_str())
        .filter(|l| !l.trim().is_empty())
        .take(EXAMPLE_LABELS)
        .collect();
    let mut line = format!(
        "{}: {} [{action}]",
        compact_refs(&refs),
        plural(entity_type, members.len())
    );
    if !examples.is_empty() {
        line.push_str(&format!(" — e.g. {}, …", examples.join(", ")));
    }
    line
}

/// Renders items as `- …` lines, with `one` formatting single entities.
pub(crate) fn list(items: &[Item<'_>], one: impl Fn(&EntityView) -> String) -> String {
    items
        .iter()
        .map(|i| match i {
            Item::One(v) => format!("- {}", one(v)),
            Item::Group(members) => format!("- {}", group_line(members)),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `n` of a type in words: "59 inventory items", "1 recipe".
pub fn plural(entity_type: &str, n: usize) -> String {
    let (one, many) = match entity_type {
        "inventory" => ("inventory item", "inventory items"),
        "recipe_ingredient" => ("recipe ingredient", "recipe ingredients"),
        "shopping_item" => ("shopping item", "shopping items"),
        "meal_plan" => ("meal plan", "meal plans"),
        other => return format!("{n} {other}{}", if n == 1 { "" } else { "s" }),
    };
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Refs in a compact but complete form: runs of three or more consecutive
/// numbers of one prefix as `inv_1..inv_59`, the rest comma-separated.
/// Prefix groups keep their first-appearance order; numbers are sorted.
pub fn compact_refs<S: AsRef<str>>(refs: &[S]) -> String {
    let mut groups: Vec<(String, Vec<u32>)> = Vec::new();
    let mut loose: Vec<String> = Vec::new();
    for r in refs {
        let r = r.as_ref();
        let Some((stem, n)) = parse_ref(r).and_then(|_| r.rsplit_once('_')) else {
            loose.push(r.to_string());
            continue;
        };
        let n: u32 = n.parse().unwrap_or(0);
        match groups.iter_mut().find(|(s, _)| s == stem) {
            Some((_, nums)) => nums.push(n),
            None => groups.push((stem.to_string(), vec![n])),
        }
    }
    let mut parts = Vec::new();
    for (stem, mut nums) in groups {
        nums.sort_unstable();
        nums.dedup();
        let mut i = 0;
        while i < nums.len() {
            let mut j = i;
            while j + 1 < nums.len() && nums[j + 1] == nums[j] + 1 {
                j += 1;
            }
            if j - i >= 2 {
                parts.push(format!("{stem}_{}..{stem}_{}", nums[i], nums[j]));
            } else {
                parts.extend((i..=j).map(|k| format!("{stem}_{}", nums[k])));
            }
            i = j + 1;
        }
    }
    parts.extend(loose);
    parts.join(", ")
}

/// Refs worth planning with: active recipes, meal plans and gen refs.
pub fn viable(e: &EntitiesView) -> Vec<&str> {
    e.recent
        .iter()
        .chain(&e.retained)
        .chain(&e.pending)
        .filter(|v| VIABLE_TYPES.contains(&v.entity_type.as_str()) || v.r#ref.starts_with("gen_"))
        .map(|v| v.r#ref.as_str())
        .collect()
}

/// `<entity_context>` for Think and Act: what is loaded, what is remembered,
/// what awaits a save, what is excluded — without any reasons.
pub fn render_working_memory(e: &EntitiesView, window: u32) -> String {
    let mut out = vec!["## Entities in Context".to_string()];
    if e.active_count() + e.excluded.len() == 0 {
        out.push("No entities in context yet — read what you need.".to_string());
    }
    // What changes least first, for the prompt cache: long-term memory
    // holds for many turns, the recent window moves every turn.
    let turns = if window == 1 { "turn" } else { "turns" };
    push_group(
        &mut out,
        "### Long-term memory (retained)",
        &e.retained,
        |v| format!("{} [{}] (turn {})", named(v), v.action, seen_turn(v)),
    );
    push_group(&mut out, "### Pending (unsaved)", &e.pending, |v| {
        format!("{} — needs save confirmation", named(v))
    });
    push_group(
        &mut out,
        &format!(
            "### Recent (last {window} {turns}) — already loaded, reference by ID, do not re-read"
        ),
        &e.recent,
        |v| format!("{} [{}]", named(v), v.action),
    );
    push_group(
        &mut out,
        "### Excluded this turn — do not use",
        &e.excluded,
        named,
    );
    // What is left to plan with, beside what was ruled out (seeds/001);
    // with nothing ruled out it would only repeat the lists above.
    let viable = viable(e);
    if !viable.is_empty() && !e.excluded.is_empty() {
        out.push(format!("\n### Viable\n{}", compact_refs(&viable)));
    }
    if !e.background.is_empty() {
        out.push(format!(
            "\nBackground: {} (not loaded; ask to re-read if needed)",
            plural_entities(e.background.len())
        ));
    }
    out.join("\n")
}

/// Appends a headed list when `views` is not empty, in the order the
/// entities first appeared ([`first_seen`]).
fn push_group(
    out: &mut Vec<String>,
    heading: &str,
    views: &[EntityView],
    one: impl Fn(&EntityView) -> String,
) {
    if !views.is_empty() {
        out.push(format!(
            "\n{heading}\n{}",
            list(&items(first_seen(views)), one)
        ));
    }
}

/// Entities in the order they first appeared: by the turn each was created,
/// then by ref (`inv_2` before `inv_10`). A list in this order changes at
/// its end as turns pass, where recency would reorder it every turn, so a
/// server's prompt cache keeps what comes before the change.
pub(crate) fn first_seen(views: &[EntityView]) -> Vec<&EntityView> {
    let mut out: Vec<&EntityView> = views.iter().collect();
    out.sort_by_cached_key(|v| {
        let parsed = parse_ref(&v.r#ref);
        (
            v.turn_created,
            parsed.map(|p| (p.generated, p.table)),
            parsed.map_or(0, |p| p.number),
            v.r#ref.clone(),
        )
    });
    out
}

/// The turn an entity was last seen: its last reference, else its creation.
pub(crate) fn seen_turn(v: &EntityView) -> u32 {
    if v.last_ref_turn > 0 {
        v.last_ref_turn
    } else {
        v.turn_created
    }
}

/// "1 entity" / "812 entities".
pub(crate) fn plural_entities(n: usize) -> String {
    format!("{n} {}", if n == 1 { "entity" } else { "entities" })
}
