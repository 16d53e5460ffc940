//! Never writing against the user, through the real pipeline and a seeded
//! SQLite kitchen: after "no fish this week", a write that would plan,
//! save or shop for a fish recipe without the message naming it is held
//! back — nothing of it reaches the kitchen, the turn record's `held_back`
//! names the recipe and the user's words, and the reply (streamed, recorded
//! and in the History layer alike) says so. Naming the recipe, or "anyway"
//! right after, lets the same write through. The LLM brain gets the same
//! guard (`llm_guard` below, against the fake server). Old records without
//! `held_back` still load.

mod support;

use std::sync::{Arc, Mutex};

use alfred::context::registry::SessionIdRegistry;
use alfred::context::{ContextState, Table};
use alfred::kitchen::{Kitchen, ToolCall};
use alfred::pipeline::{Brain, PipelineEvent, TurnResult};
use alfred::record::TurnRecord;
use serde_json::{Value, json};

use support::{FakeOpenAi, Node, fresh, kitchen, reply_chunks, request, run_request};

const MISO: &str = "Miso Glazed Air Fryer Cod";
const KERALA: &str = "Kerala Cod Curry";
const NO_FISH: &str = "no fish this week";

/// A conversation with one brain on one kitchen, turn by turn.
struct Talk {
    brain: Arc<dyn Brain>,
    kitchen: Arc<Mutex<Kitchen>>,
    state: ContextState,
    turns: u64,
    _dir: tempfile::TempDir,
}

impl Talk {
    fn offline() -> Self {
        let (dir, kitchen) = kitchen();
        Self {
            brain: alfred::fixtures::offline_brain(),
            kitchen,
            state: fresh(),
            turns: 0,
            _dir: dir,
        }
    }

    /// Runs one message to its end; the turn must succeed.
    async fn say(&mut self, message: &str) -> (TurnRecord, Vec<PipelineEvent>) {
        self.turns += 1;
        let req = request(self.turns, self.state.clone(), message);
        let (result, events) = run_request(self.brain.clone(), self.kitchen.clone(), req).await;
        let TurnResult::Done { record, state } = result else {
            panic!("{message}: the turn failed: {result:?}");
        };
        self.state = *state;
        (*record, events)
    }

    async fn run(&mut self, messages: &[&str]) {
        for m in messages {
            self.say(m).await;
        }
    }

    /// Rows of a kitchen table as committed, refs and labels filled in.
    fn rows(&self, table: &str) -> Vec<Value> {
        let mut k = self.kitchen.lock().unwrap();
        let call = ToolCall::new("db_read", json!({"table": table}));
        k.execute(&call, &mut SessionIdRegistry::new(), 0)
            .unwrap()
            .rows
    }

    /// The meal plan as (date, recipe), sorted.
    fn planned(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .rows("meal_plans")
            .iter()
            .map(|r| {
                let text = |k: &str| r[k].as_str().unwrap_or_default().to_string();
                (text("date"), text("_recipe_id_label"))
            })
            .collect();
        out.sort();
        out
    }

    /// The shopping list's names and notes.
    fn shopping(&self) -> Vec<(String, String)> {
        self.rows("shopping_list")
            .iter()
            .map(|r| {
                let text = |k: &str| r[k].as_str().unwrap_or_default().to_string();
                (text("name"), text("notes"))
            })
            .collect()
    }
}

/// What the user saw: the reply's streamed pieces joined.
fn streamed(events: &[PipelineEvent]) -> String {
    reply_chunks(events).concat()
}

#[tokio::test]
async fn a_save_that_would_plan_a_ruled_out_recipe_asks_first_and_writes_nothing() {
    let mut talk = Talk::offline();
    talk.run(&[
        "help me plan dinners this week",
        "let's do the miso cod on sunday and the paneer on wednesday",
    ])
    .await;
    let (said, _) = talk.say(NO_FISH).await;
    // The plan draft holding the cod is marked as holding what was ruled out.
    let marked: Vec<(&str, Vec<&str>)> = said
        .entities
        .pending
        .iter()
        .map(|e| {
            let held = e.holds_ruled_out.iter().map(|h| h.label.as_str()).collect();
            (e.r#ref.as_str(), held)
        })
        .collect();
    assert_eq!(
        marked,
        [("gen_meal_1", vec![MISO]), ("gen_meal_2", vec![])],
        "{:?}",
        said.entities.pending
    );
    let before = talk.planned();

    let (rec, events) = talk.say("save it").await;
    assert_eq!(talk.planned(), before, "nothing of the plan was saved");
    assert_eq!(rec.held_back.len(), 1, "{:?}", rec.held_back);
    let h = &rec.held_back[0];
    assert_eq!(
        (h.table.as_str(), h.op.as_str(), h.covered_label.as_str()),
        ("meal_plans", "create", MISO)
    );
    assert_eq!((h.clause.as_str(), h.constraint.as_str()), (NO_FISH, "c1"));
    assert_eq!(h.draft.as_deref(), Some("gen_meal_1"));
    assert_eq!(h.date.as_deref(), Some("2026-01-18"));
    let question = "the plan draft holds miso glazed air fryer cod, which you ruled out \
                    (“no fish this week”). save it without that, or with it anyway?";
    assert!(rec.reply.to_lowercase().contains(question), "{}", rec.reply);
    // Streamed, recorded and remembered alike.
    assert_eq!(streamed(&events), rec.reply);
    let history = talk.state.conversation.recent().last().unwrap();
    assert_eq!(history.assistant, rec.reply);
    let narrative = talk.state.narrative.recent().last().unwrap();
    assert!(
        narrative
            .standing
            .iter()
            .any(|l| l.contains("held back saving gen_meal_1") && l.contains(NO_FISH)),
        "{:?}",
        narrative.standing
    );
    // The draft is untouched, still waiting.
    let pending: Vec<&str> = (talk.state.registry.pending_artifacts().into_iter())
        .map(|(r, _)| r)
        .collect();
    assert_eq!(pending, ["gen_meal_1", "gen_meal_2"]);

    // "anyway" right after lets the same save through.
    let (rec, _) = talk.say("save it anyway").await;
    assert!(rec.held_back.is_empty(), "{:?}", rec.held_back);
    let mut want = before.clone();
    want.push(("2026-01-14".into(), "Air Fryer Paneer Tikka".into()));
    want.push(("2026-01-18".into(), MISO.into()));
    want.sort();
    assert_eq!(talk.planned(), want, "{}", rec.reply);
}

#[tokio::test]
async fn a_plan_put_without_naming_the_recipe_is_held_and_naming_it_goes_through() {
    let mut talk = Talk::offline();
    talk.run(&[NO_FISH, "show me the miso cod"]).await;
    let before = talk.planned();
    let (rec, events) = talk.say("put it on monday").await;
    assert_eq!(talk.planned(), before, "{}", rec.reply);
    let held: Vec<(&str, &str)> = (rec.held_back.iter())
        .map(|h| (h.covered_label.as_str(), h.clause.as_str()))
        .collect();
    assert_eq!(held, [(MISO, NO_FISH)]);
    assert_eq!(rec.held_back[0].draft, None);
    let sentence = "I held back putting Miso Glazed Air Fryer Cod on Monday: you said “no fish \
                    this week”. Say so if you want it anyway.";
    assert!(rec.reply.contains(sentence), "{}", rec.reply);
    assert_eq!(streamed(&events), rec.reply);

    let (rec, _) = talk.say("put the miso cod on monday anyway").await;
    assert!(rec.held_back.is_empty(), "{:?}", rec.held_back);
    assert!(
        talk.planned().contains(&("2026-01-19".into(), MISO.into())),
        "{:?}: {}",
        talk.planned(),
        rec.reply
    );
}

#[tokio::test]
async fn shopping_for_a_ruled_out_recipe_is_held_back_and_the_rest_is_added() {
    let mut talk = Talk::offline();
    // The user put the cod curry on the plan by name, in spite of the
    // rule; the shopping for it is another write, and "add whats missing"
    // names no recipe. (Each lacks a line that is not optional: the curry
    // its green chili, the noodles an egg.)
    talk.run(&[
        NO_FISH,
        "put the kerala cod curry on sunday and the pad see ew on wednesday",
    ])
    .await;
    assert_eq!(
        talk.planned(),
        [
            ("2026-01-14".to_string(), "Thai Pad See Ew".to_string()),
            ("2026-01-18".to_string(), KERALA.to_string())
        ]
    );
    let before = talk.shopping();
    // Read by the older rules, the change is asked about first; the
    // "yes" makes it, past the guard.
    let (asked, _) = talk.say("add whats missing for sun and wed").await;
    assert!(asked.reply.contains("should I"), "{}", asked.reply);
    let (rec, events) = talk.say("yes").await;
    let added: Vec<(String, String)> = (talk.shopping().into_iter())
        .filter(|r| !before.contains(r))
        .collect();
    assert_eq!(
        added,
        [("egg".into(), "for Thai Pad See Ew".into())],
        "{}",
        rec.reply
    );
    let held: Vec<(&str, &str, &str)> = (rec.held_back.iter())
        .map(|h| {
            (
                h.table.as_str(),
                h.row_label.as_str(),
                h.covered_label.as_str(),
            )
        })
        .collect();
    assert_eq!(held, [("shopping_list", "green chili", KERALA)]);
    let sentence = "I held back adding green chili for Kerala Cod Curry to the \
                    shopping list: you said “no fish this week”. Say so if you want it anyway.";
    assert!(rec.reply.ends_with(sentence), "{}", rec.reply);
    // The added sentence streamed after the brain's own reply.
    let chunks = reply_chunks(&events);
    assert_eq!(chunks.last().map(|c| c.trim()), Some(sentence));
    assert_eq!(chunks.concat(), rec.reply);
}

#[tokio::test]
async fn a_turn_record_without_held_back_still_loads() {
    let mut talk = Talk::offline();
    let (rec, _) = talk.say("what's in my pantry?").await;
    let mut json = serde_json::to_value(&rec).unwrap();
    assert!(json.get("held_back").is_none(), "skipped when empty");
    // A record written before the field existed.
    let old = json.as_object_mut().unwrap();
    old.remove("held_back");
    let back: TurnRecord = serde_json::from_value(json).unwrap();
    assert!(back.held_back.is_empty());
    assert_eq!(
        (back.turn, &back.reply, &back.steps),
        (rec.turn, &rec.reply, &rec.steps)
    );
    let fixture = include_str!("fixtures/turn_record_before_held_back.json");
    let loaded: TurnRecord = serde_json::from_str(fixture).unwrap();
    assert_eq!((loaded.turn, loaded.user.as_str()), (2, NO_FISH));
    assert!(loaded.held_back.is_empty());
}

/// The LLM brain against the fake server: a model's tool call planning a
/// covered recipe is held back the same way, and its reply, which says
/// nothing of it, gets the sentence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_guard_holds_back_a_models_plan_of_a_ruled_out_recipe() {
    let mut talk = Talk::offline();
    talk.run(&[NO_FISH]).await;
    let miso = (talk.state.registry.entries().into_iter())
        .find(|(_, e)| e.label == MISO && e.table == Table::Recipes)
        .map(|(r, _)| r.to_string())
        .unwrap();
    let fake = FakeOpenAi::start();
    talk.brain = support::brain(&support::llm_config(&fake));
    fake.answer(
        Node::Understand,
        json!({"what_user_expressed": "wants a dinner on Monday"}),
    );
    fake.answer(
        Node::Think,
        json!({
            "goal": "Put a dinner on Monday", "decision": "plan_direct",
            "steps": [{"description": "Plan Monday's dinner", "step_type": "write",
                       "subdomain": "meal_plans", "group": 0}]
        }),
    );
    fake.answer_act(
        "Plan Monday's dinner",
        vec![
            json!({"action": "tool_call", "tool": "db_create", "params": {"table": "meal_plans",
                "data": {"date": "2026-01-19", "meal_type": "dinner", "recipe_id": miso}}}),
            json!({"action": "step_complete", "result_summary": "Planned Monday"}),
        ],
    );
    fake.reply("Done — Monday's dinner is on the plan.");
    let before = talk.planned();
    let (rec, events) = talk.say("something for monday dinner please").await;
    assert_eq!(talk.planned(), before, "{}", rec.reply);
    let held: Vec<(&str, &str, &str)> = (rec.held_back.iter())
        .map(|h| {
            (
                h.covered.as_str(),
                h.covered_label.as_str(),
                h.clause.as_str(),
            )
        })
        .collect();
    assert_eq!(held, [(miso.as_str(), MISO, NO_FISH)]);
    // The model was told, in the tool result it saw next.
    let act = fake.requests_of(Node::Act);
    assert!(
        act.iter()
            .any(|r| r.raw.contains("held back, nothing written")),
        "{act:?}"
    );
    assert!(
        rec.steps[0].tool_calls[0]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("held back")),
        "{:?}",
        rec.steps
    );
    assert!(
        rec.reply
            .starts_with("Done — Monday's dinner is on the plan.")
            && rec.reply.ends_with(
                "I held back putting Miso Glazed Air Fryer Cod on Monday: you said “no fish \
                 this week”. Say so if you want it anyway."
            ),
        "{}",
        rec.reply
    );
    assert_eq!(streamed(&events), rec.reply);
}
