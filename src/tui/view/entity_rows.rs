//! The rows of the Entities panel before they are laid out: one per entity,
//! one per collapsed group of many same-type entities, one per dropped ref —
//! each with its change mark (from the diff) and reason.
//!
//! Pure data building; `entities.rs` turns rows into aligned lines.

use std::collections::{BTreeMap, HashMap};

use crate::context::snapshot::DroppedView;
use crate::context::{ChangeKind, ContextDiff, EntityState, EntityView, parse_ref};

/// More entities than this of one type in one section collapse into one row.
pub const COLLAPSE_OVER: usize = 8;

/// One row of a section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// "recipe_5", or "inv_1..inv_59" for a collapsed group.
    pub refs: String,
    /// The label, or "59 inventory items (+59 new)" for a group.
    pub label: String,
    pub entity_type: String,
    pub action: String,
    /// "t2", or "t1–t3" for a group spanning turns.
    pub turn: String,
    /// This turn's change, for the mark (a group's most common one).
    pub change: Option<ChangeKind>,
    /// Shown wrapped under the row, when the section shows reasons.
    pub reason: Option<String>,
    pub collapsed: bool,
    /// A draft holding what a standing constraint rules out, in words:
    /// "holds Miso Glazed Air Fryer Cod — ruled out by “no fish this
    /// week”". The row is marked `✕`.
    pub ruled_out: Option<String>,
}

/// The mark and word of a change kind: `+ new`, `✕ excluded`, `↓ not
/// kept`, `↘ aged out`…
pub fn mark(kind: ChangeKind) -> (&'static str, &'static str) {
    match kind {
        ChangeKind::New => ("+", "new"),
        ChangeKind::Activated => ("+", "activated"),
        ChangeKind::Promoted => ("↑", "promoted"),
        ChangeKind::Excluded => ("✕", "excluded"),
        ChangeKind::Demoted => ("↓", "not kept"),
        ChangeKind::AgedOut => ("↘", "aged out"),
        ChangeKind::Moved => ("→", "moved"),
        ChangeKind::Dropped => ("×", "dropped"),
        ChangeKind::Written => ("✎", "changed"),
    }
}

/// Counts of change kinds in a stable order.
pub type Counts = BTreeMap<u8, (ChangeKind, usize)>;

fn order(kind: ChangeKind) -> u8 {
    match kind {
        ChangeKind::New => 0,
        ChangeKind::Activated => 1,
        ChangeKind::Promoted => 2,
        ChangeKind::Moved => 3,
        ChangeKind::AgedOut => 4,
        ChangeKind::Excluded => 5,
        ChangeKind::Demoted => 6,
        ChangeKind::Dropped => 7,
        ChangeKind::Written => 8,
    }
}

/// Adds one change to `counts`.
pub fn count(counts: &mut Counts, kind: ChangeKind) {
    counts.entry(order(kind)).or_insert((kind, 0)).1 += 1;
}

/// "+59 new · ✕2 excluded".
pub fn counts_text(counts: &Counts) -> String {
    counts
        .values()
        .map(|(k, n)| {
            let (glyph, word) = mark(*k);
            format!("{glyph}{n} {word}")
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Every change of the diff by kind, naming the refs when there are few:
/// "✕2 excluded (recipe_5, recipe_6) · +59 new".
pub fn changes_text(diff: &ContextDiff) -> String {
    // Per kind: the refs, and how many of them went to the background.
    let mut by_kind: BTreeMap<u8, (ChangeKind, Vec<&str>, usize)> = BTreeMap::new();
    for c in &diff.entities {
        let e = by_kind
            .entry(order(c.kind))
            .or_insert((c.kind, Vec::new(), 0));
        e.1.push(&c.r#ref);
        if c.to == EntityState::Background {
            e.2 += 1;
        }
    }
    by_kind
        .values()
        .map(|(k, refs, background)| {
            let (glyph, word) = mark(*k);
            let n = refs.len();
            let mut text = if n <= 3 {
                format!("{glyph}{n} {word} ({})", refs.join(", "))
            } else {
                format!("{glyph}{n} {word}")
            };
            // New entities that did not become active are not in the
            // header's active count: said, so the numbers add up.
            if *k == ChangeKind::New && *background > 0 {
                text.push_str(&format!(", {background} of them to the background"));
            }
            text
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The rows of one section of live entities, collapsing large groups.
pub fn section_rows(
    entities: &[EntityView],
    diff: Option<&ContextDiff>,
    with_reasons: bool,
) -> Vec<Row> {
    // Each ref's change, found once: `ContextDiff::change_of` scans the
    // whole diff, so asking it per entity cost entities × changes a frame.
    let mut changes: HashMap<&str, ChangeKind> = HashMap::new();
    for c in diff.iter().flat_map(|d| &d.entities) {
        changes.entry(c.r#ref.as_str()).or_insert(c.kind);
    }
    let change = |r: &str| changes.get(r).copied();
    let mut members: BTreeMap<String, Vec<&EntityView>> = BTreeMap::new();
    for e in entities {
        members.entry(group_key(&e.r#ref)).or_default().push(e);
    }
    let mut rows = Vec::new();
    for e in entities {
        let key = group_key(&e.r#ref);
        let group = members.get(&key).map(Vec::as_slice).unwrap_or_default();
        if group.len() > COLLAPSE_OVER {
            if group.first().is_some_and(|first| first.r#ref == e.r#ref) {
                rows.push(group_row(&key, group, &change, with_reasons));
            }
            continue;
        }
        rows.push(Row {
            refs: e.r#ref.clone(),
            label: e.label.clone(),
            entity_type: e.entity_type.clone(),
            action: e.action.clone(),
            turn: format!("t{}", e.last_ref_turn),
            change: change(&e.r#ref),
            reason: e.reason.clone().filter(|_| with_reasons),
            collapsed: false,
            ruled_out: ruled_out_text(e),
        });
    }
    rows
}

/// "holds Miso Glazed Air Fryer Cod — ruled out by “no fish this week”",
/// for a draft holding what a standing constraint rules out.
fn ruled_out_text(e: &EntityView) -> Option<String> {
    if e.holds_ruled_out.is_empty() {
        return None;
    }
    let labels: Vec<&str> = e.holds_ruled_out.iter().map(|h| h.label.as_str()).collect();
    let mut clauses: Vec<String> = Vec::new();
    for h in &e.holds_ruled_out {
        let quoted = format!("“{}”", h.clause);
        if !clauses.contains(&quoted) {
            clauses.push(quoted);
        }
    }
    Some(format!(
        "holds {} — ruled out by {}",
        labels.join(", "),
        clauses.join(", ")
    ))
}

/// The rows of refs dropped this turn (never collapsed: they are few and final).
pub fn dropped_rows(dropped: &[DroppedView]) -> Vec<Row> {
    dropped
        .iter()
        .map(|d| Row {
            refs: d.r#ref.clone(),
            label: d.label.clone(),
            entity_type: d.entity_type.clone(),
            action: "dropped".to_string(),
            turn: format!("t{}", d.turn),
            change: Some(ChangeKind::Dropped),
            reason: Some(d.reason.clone()).filter(|r| !r.is_empty()),
            collapsed: false,
            ruled_out: None,
        })
        .collect()
}

/// Refs of one type group together: "inv", "gen_recipe"; anything that is
/// not a well-formed ref stands alone.
pub fn group_key(r: &str) -> String {
    match parse_ref(r) {
        Some(p) => r
            .strip_suffix(&p.number.to_string())
            .and_then(|s| s.strip_suffix('_'))
            .unwrap_or(r)
            .to_string(),
        None => format!("\u{0}{r}"),
    }
}

fn group_row(
    key: &str,
    group: &[&EntityView],
    change: &dyn Fn(&str) -> Option<ChangeKind>,
    with_reasons: bool,
) -> Row {
    let mut counts = Counts::new();
    for e in group {
        if let Some(k) = change(&e.r#ref) {
            count(&mut counts, k);
        }
    }
    let dominant = counts.values().max_by_key(|(_, n)| *n).map(|(k, _)| *k);
    let first = group[0];
    let same = |f: &dyn Fn(&EntityView) -> &str| group.iter().all(|e| f(e) == f(first));
    let action = if same(&|e| e.action.as_str()) {
        first.action.clone()
    } else {
        "mixed".to_string()
    };
    let (lo, hi) = group.iter().fold((u32::MAX, 0), |(lo, hi), e| {
        (lo.min(e.last_ref_turn), hi.max(e.last_ref_turn))
    });
    let turn = if lo == hi {
        format!("t{hi}")
    } else {
        format!("t{lo}–t{hi}")
    };
    let mut label = format!("{} {}", group.len(), plural(&first.entity_type));
    if !counts.is_empty() {
        label.push_str(&format!(" ({})", counts_text(&counts)));
    }
    let reason = with_reasons
        .then(|| shared_reason(group.iter().filter_map(|e| e.reason.as_deref())))
        .flatten();
    Row {
        refs: ranges(key, group),
        label,
        entity_type: first.entity_type.clone(),
        action,
        turn,
        change: dominant,
        reason,
        collapsed: true,
        ruled_out: None,
    }
}

/// "recipes", "inventory items", "meal plans".
pub fn plural(entity_type: &str) -> String {
    match entity_type {
        "inventory" => "inventory items".to_string(),
        t => format!("{}s", t.replace('_', " ")),
    }
}

/// A group's reason: the one its members share, else "N different
/// reasons"; `None` when there are none.
pub fn shared_reason<'a>(reasons: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut reasons: Vec<&str> = reasons.into_iter().collect();
    reasons.sort_unstable();
    reasons.dedup();
    match reasons.as_slice() {
        [] => None,
        [one] => Some((*one).to_string()),
        many => Some(format!("{} different reasons", many.len())),
    }
}

/// "inv_1..inv_59" — contiguous numbers compressed, runs joined by ", ".
fn ranges(key: &str, group: &[&EntityView]) -> String {
    let numbers: Vec<u32> = group
        .iter()
        .filter_map(|e| parse_ref(&e.r#ref).map(|p| p.number))
        .collect();
    ranges_of(key, numbers)
}

/// The refs `{key}_{n}` of `numbers`, runs compressed: "inv_1..inv_59, inv_61".
pub fn ranges_of(key: &str, mut numbers: Vec<u32>) -> String {
    numbers.sort_unstable();
    numbers.dedup();
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for n in numbers {
        match runs.last_mut() {
            Some((_, hi)) if *hi + 1 == n => *hi = n,
            _ => runs.push((n, n)),
        }
    }
    runs.iter()
        .map(|(lo, hi)| match hi - lo {
            0 => format!("{key}_{lo}"),
            1 => format!("{key}_{lo}, {key}_{hi}"),
            _ => format!("{key}_{lo}..{key}_{hi}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Cause;

    fn view(r: &str) -> EntityView {
        EntityView {
            r#ref: r.to_string(),
            label: format!("label {r}"),
            entity_type: "inventory".to_string(),
            action: "read".to_string(),
            last_ref_turn: 2,
            turn_created: 2,
            reason: None,
            pinned: false,
            cause: Cause::LinkedOnly,
            holds_ruled_out: Vec::new(),
        }
    }

    #[test]
    fn a_large_group_collapses_with_its_ranges_compressed() {
        let mut views: Vec<EntityView> = (1..=12).map(|n| view(&format!("inv_{n}"))).collect();
        views.retain(|v| v.r#ref != "inv_5");
        views.push(view("recipe_1"));
        let rows = section_rows(&views, None, false);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].refs, "inv_1..inv_4, inv_6..inv_12");
        assert_eq!(rows[0].label, "11 inventory items");
        assert_eq!(plural("meal_plan"), "meal plans");
        assert!(rows[0].collapsed && !rows[1].collapsed);
    }

    #[test]
    fn eight_of_a_kind_stay_as_rows() {
        let views: Vec<EntityView> = (1..=8).map(|n| view(&format!("inv_{n}"))).collect();
        assert_eq!(section_rows(&views, None, false).len(), 8);
    }
}
