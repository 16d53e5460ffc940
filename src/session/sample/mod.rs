//! Synthetic sessions for tests, benches and demos of the session files.
//!
//! [`sample_session`] plays a long, deterministic kitchen conversation through
//! the real context layers (registry, curation, narrative, conversation,
//! folds, row cache) and records a realistic [`TurnRecord`] per turn: a step
//! with its tool call, the full snapshot, three prompts, timings, usage and
//! cost. Every 25th turn fails (recorded, state unchanged), as a timeout would.
//! Must not be used by the app to make anything a user sees as real.

mod record;

use jiff::{SignedDuration, Timestamp};
use serde_json::json;

use super::file::SessionFile;
use super::llm::LlmSettings;
use crate::context::registry::RetainedBy;
use crate::context::{
    ContextPolicy, ContextState, EntityCuration, RefAction, RefDecision, RetentionDecision, Table,
};
use crate::record::{TurnRecord, TurnStatus};

const DISHES: [&str; 12] = [
    "Chicken Tikka Masala",
    "Cod with Lemon Butter",
    "French Toast",
    "Buffalo Wings",
    "Mushroom Risotto",
    "Shakshuka",
    "Pad Thai",
    "Minestrone",
    "Beef Chili",
    "Caprese Salad",
    "Banana Bread",
    "Lentil Dal",
];
const ITEMS: [&str; 8] = [
    "eggs",
    "chickpeas",
    "spinach",
    "parmesan",
    "rice",
    "garlic",
    "lemons",
    "tofu",
];

/// A session of `turns` turns, the same for the same `seed`.
pub fn sample_session(turns: u32, seed: u64) -> SessionFile {
    let start = Timestamp::from_second(1_795_000_000).unwrap_or(Timestamp::UNIX_EPOCH);
    let llm = LlmSettings::new(
        "openai",
        Some("gpt-4.1-mini".into()),
        "https://api.openai.com/v1",
    );
    let id = "20261122-143005-7f3a".to_string();
    let mut session = SessionFile::new(id, start, llm, ContextPolicy::default());
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    for t in 1..=turns {
        let now = start + SignedDuration::from_secs(i64::from(t) * 41);
        let mut next = session.context.clone();
        let record = play_turn(&mut next, t, &mut rng, now);
        let ok = record.status == TurnStatus::Ok;
        session.push_turn(record, ok.then_some(next), now);
    }
    session
}

/// What one turn is about.
struct Topic {
    turn: u32,
    user: String,
    dish: &'static str,
    item: &'static str,
    failed: bool,
}

/// One turn on `state` (a copy; the caller keeps it only if the turn succeeds).
fn play_turn(state: &mut ContextState, t: u32, rng: &mut Rng, now: Timestamp) -> TurnRecord {
    let dish = DISHES[rng.below(DISHES.len())];
    let item = ITEMS[rng.below(ITEMS.len())];
    let user = match t % 5 {
        0 => format!("no {dish} this week, and nothing with {item} please"),
        1 => format!("what can I cook tonight with {item}?"),
        2 => format!("add {} {item} to the shopping list", 1 + rng.below(6)),
        3 => format!("show me the {dish} recipe again"),
        _ => format!("plan meals for Thursday around {dish}"),
    };
    let topic = Topic {
        turn: state.begin_turn(),
        user,
        dish,
        item,
        failed: t.is_multiple_of(25),
    };
    let touched = read_rows(state, &topic, t, rng);
    settle(state, t, topic.turn);
    let (curation, outcome) = curate(state, &topic, t, rng);
    state.prune_rows();
    record::build(state, &topic, touched, curation, outcome, rng, now)
}

/// Reads register rows (a kitchen of a few hundred, mostly re-read later)
/// and, every 9th turn, a generated recipe. Returns the refs touched.
fn read_rows(state: &mut ContextState, topic: &Topic, t: u32, rng: &mut Rng) -> Vec<String> {
    let mut touched = Vec::new();
    for k in 0..(1 + rng.below(3)) {
        let table = [Table::Recipes, Table::Inventory, Table::ShoppingList][rng.below(3)];
        let row_no = rng.below((t as usize / 3 + 4).min(120)) + k;
        let row = format!("{}-{row_no}", table.name());
        let label = format!("{} #{row}", topic.dish);
        let registry = &mut state.registry;
        let r = registry.register_row(table, &row, &label, RefAction::Read, topic.turn);
        let content = json!({"id": r, "name": label, "servings": 4, "tags": [topic.item]});
        state.remember_rows([&content]);
        touched.push(r);
    }
    if t.is_multiple_of(9) {
        let content = json!({"name": format!("{} with {}", topic.dish, topic.item),
                             "steps": ["prep", "cook", "serve"]});
        let registry = &mut state.registry;
        touched.push(registry.register_generated(Table::Recipes, topic.dish, content, topic.turn));
    }
    touched
}

/// Understand's curation: retain every 4th turn, demote every 5th, drop
/// every 17th, and a user's pin now and then.
fn curate(
    state: &mut ContextState,
    topic: &Topic,
    t: u32,
    rng: &mut Rng,
) -> (EntityCuration, crate::context::CurationOutcome) {
    let live = state.registry.live_refs();
    let mut pick = || live.get(rng.below(live.len())).cloned().unwrap_or_default();
    let mut curation = EntityCuration::default();
    if t.is_multiple_of(4) {
        let reason = "user's ongoing weekly plan".to_string();
        curation.retain_active.push(RetentionDecision {
            r#ref: pick(),
            reason,
        });
        curation.curation_summary = Some("Kept the weekly plan active".into());
    }
    if t.is_multiple_of(5) {
        let reason = format!("user said no {}", topic.dish);
        curation.demote.push(RefDecision::new(&pick(), &reason));
    }
    if t.is_multiple_of(17) {
        curation
            .drop
            .push(RefDecision::new(&pick(), "user said forget that"));
    }
    let outcome = state.apply_curation(&curation);
    if t.is_multiple_of(97) {
        state.pin(&pick());
    }
    (curation, outcome)
}

/// What happens between turns: saves promote generated recipes, and old
/// retentions lapse, so the active set stays small.
fn settle(state: &mut ContextState, t: u32, turn: u32) {
    if t % 9 == 3 {
        let pending: Vec<String> = state
            .registry
            .pending_artifacts()
            .into_iter()
            .map(|(r, _)| r.to_string())
            .collect();
        for r in pending {
            let row = format!("saved-{r}-{t}");
            let registry = &mut state.registry;
            let _ = registry.register_created(Table::Recipes, &row, "", Some(&r), turn);
        }
    }
    let lapsed: Vec<String> = state
        .registry
        .entries()
        .into_iter()
        .filter(|(_, e)| {
            e.retention
                .as_ref()
                .is_some_and(|r| r.by == RetainedBy::Understand && r.turn + 8 < turn)
        })
        .map(|(r, _)| r.to_string())
        .collect();
    for r in lapsed {
        state.registry.clear_retention(&r);
    }
}

/// A tiny deterministic generator (xorshift64*): no dependency, same run every time.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}
