//! The turn pipeline with a scripted brain over a real kitchen store: events
//! in order and never ahead of time, concurrent groups, circuit breakers,
//! generated artifacts, and failed or cancelled turns that change nothing.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};

use alfred::context::{ContextState, EntityState};
use alfred::kitchen::Kitchen;
use alfred::pipeline::*;
use serde_json::{Value, json};
use tokio::sync::mpsc;
#[path = "support/turns.rs"]
mod turns;

use turns::{fresh, inventory_rows, kitchen, reply_chunks, request, run_request};

/// A brain that answers from a script: Act decisions are queued per step
/// description, so concurrent steps get their own.
#[derive(Default)]
struct Scripted {
    understand: UnderstandOutput,
    think: ThinkOutput,
    act: Mutex<BTreeMap<String, VecDeque<ActAction>>>,
    reply: String,
    fail_reply: bool,
    hang_reply: bool,
}

impl Scripted {
    /// A brain whose plan toward `goal` is `steps`, each with the Act
    /// decisions queued under its description, replying `reply`.
    fn plan(goal: &str, steps: Vec<(ThinkStep, Vec<ActAction>)>, reply: &str) -> Scripted {
        let (steps, act): (Vec<ThinkStep>, BTreeMap<_, _>) = steps
            .into_iter()
            .map(|(s, acts)| {
                let queue = (s.description.clone(), VecDeque::from(acts));
                (s, queue)
            })
            .unzip();
        Scripted {
            think: ThinkOutput {
                goal: goal.into(),
                steps,
                ..ThinkOutput::default()
            },
            act: Mutex::new(act),
            reply: reply.into(),
            ..Scripted::default()
        }
    }
}

fn ready<'a, T: Send + 'a>(v: Result<T, BrainError>) -> BrainFuture<'a, T> {
    Box::pin(std::future::ready(v.map(Decided::new)))
}

impl Brain for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn understand<'a>(&'a self, _: &'a UnderstandRequest<'a>) -> BrainFuture<'a, UnderstandOutput> {
        ready(Ok(self.understand.clone()))
    }
    fn think<'a>(&'a self, _: &'a ThinkRequest<'a>) -> BrainFuture<'a, ThinkOutput> {
        ready(Ok(self.think.clone()))
    }
    fn act<'a>(&'a self, req: &'a ActRequest<'a>) -> BrainFuture<'a, ActAction> {
        let mut act = self.act.lock().unwrap();
        let next = act
            .get_mut(&req.step.description)
            .and_then(VecDeque::pop_front)
            .unwrap_or(ActAction::StepComplete {
                result_summary: "done".into(),
                data: Value::Null,
                note_for_next_step: None,
            });
        ready(Ok(next))
    }
    fn reply<'a>(
        &'a self,
        _: &'a ReplyRequest<'a>,
        sink: &'a ReplySink,
    ) -> BrainFuture<'a, ReplyOutput> {
        if self.hang_reply {
            return Box::pin(std::future::pending());
        }
        if self.fail_reply {
            return ready(Err(BrainError::Timeout("no answer after 60 s".into())));
        }
        for word in self.reply.split_inclusive(' ') {
            sink.send(word);
        }
        ready(Ok(ReplyOutput {
            response: self.reply.clone(),
            dialogue: None,
            cut_at_tokens: None,
        }))
    }
    fn summarize<'a>(&'a self, _: &'a SummarizeRequest<'a>) -> BrainFuture<'a, SummarizeOutput> {
        ready(Ok(SummarizeOutput::default()))
    }
    fn compress<'a>(&'a self, _: &'a CompressRequest<'a>) -> BrainFuture<'a, Option<String>> {
        ready(Ok(None))
    }
}

fn step(description: &str, step_type: StepType, subdomain: &str, group: u32) -> ThinkStep {
    ThinkStep {
        description: description.into(),
        step_type,
        subdomain: subdomain.into(),
        group,
    }
}

fn read(table: &str) -> ActAction {
    ActAction::ToolCall {
        tool: "db_read".into(),
        params: json!({"table": table, "limit": 100}),
    }
}

/// Runs turn 7 on `state` to its end; returns the result and every event.
async fn run(
    brain: Scripted,
    kitchen: Arc<Mutex<Kitchen>>,
    state: ContextState,
    msg: &str,
) -> (TurnResult, Vec<PipelineEvent>) {
    run_request(Arc::new(brain), kitchen, request(7, state, msg)).await
}

/// A brain whose plan writes 12 eggs to the fridge (and replies nothing).
fn add_eggs_brain() -> Scripted {
    let write = ActAction::ToolCall {
        tool: "db_create".into(),
        params: json!({"table": "inventory", "data": {"name": "egg", "quantity": 12, "unit": "pcs", "location": "fridge"}}),
    };
    Scripted::plan(
        "add eggs",
        vec![(
            step("Add eggs", StepType::Write, "inventory", 0),
            vec![write],
        )],
        "",
    )
}

fn meal_planning_brain() -> Scripted {
    let analysis = ActAction::StepComplete {
        result_summary: "6 recipes fit without cod".into(),
        data: json!({"viable": ["recipe_3", "recipe_4"]}),
        note_for_next_step: None,
    };
    Scripted::plan(
        "Find cod-free options",
        vec![
            (
                step("Read recipes", StepType::Read, "recipes", 0),
                vec![read("recipes")],
            ),
            (
                step("Read inventory", StepType::Read, "inventory", 0),
                vec![read("inventory")],
            ),
            (
                step("Find cod-free options", StepType::Analyze, "recipes", 1),
                vec![analysis],
            ),
        ],
        "Here are 6 recipes that fit your pantry.",
    )
}

#[tokio::test]
async fn a_turn_reads_concurrently_then_analyzes_and_reports_in_order() {
    let (_dir, k) = kitchen();
    let (result, events) = run(meal_planning_brain(), k, fresh(), "no cod").await;
    let TurnResult::Done { record, state } = result else {
        panic!("turn failed")
    };
    assert_eq!(record.turn, 1);
    assert_eq!(record.steps.len(), 3);
    assert_eq!(record.steps[0].tool_calls[0].rows, 9);
    assert_eq!(record.steps[1].tool_calls[0].rows, 59);
    assert_eq!(
        record
            .entities
            .recent
            .iter()
            .filter(|e| e.r#ref.starts_with("recipe_"))
            .count(),
        9
    );
    assert_eq!(record.reply, "Here are 6 recipes that fit your pantry.");
    assert_eq!(record.usage.source, UsageSource::Estimated);
    for node in ["understand", "think", "act", "reply", "summarize", "total"] {
        assert!(record.timings_ms.contains_key(node), "timing of {node}");
    }
    assert!(
        record
            .prompts
            .think
            .as_ref()
            .unwrap()
            .tokens
            .get("entity_context")
            .is_some()
    );
    assert_eq!(
        record.prompts.act.len(),
        5,
        "2 iterations per read step, 1 for the analysis"
    );
    // The rows read are remembered for later turns.
    assert!(state.rows.contains_key("recipe_3") && state.rows.contains_key("inv_59"));
    // Events: every one carries the id; steps start before their tool calls;
    // no step beyond the plan; the reply streams; the turn ends once.
    assert!(events.iter().all(|e| e.id() == TurnId(7)));
    let names: Vec<String> = events
        .iter()
        .map(|e| {
            format!("{e:?}")
                .split([' ', '{'])
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(names.first().map(String::as_str), Some("TurnStarted"));
    assert_eq!(names.last().map(String::as_str), Some("TurnDone"));
    let started: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            PipelineEvent::StepStarted { index, .. } => Some(*index),
            _ => None,
        })
        .collect();
    assert_eq!(started.len(), 3);
    assert!(started.iter().all(|i| *i < 3));
    for e in &events {
        if let PipelineEvent::ToolCalled { step, .. } = e {
            let pos_call = events.iter().position(|x| std::ptr::eq(x, e)).unwrap();
            let pos_start = events
                .iter()
                .position(
                    |x| matches!(x, PipelineEvent::StepStarted { index, .. } if index == step),
                )
                .unwrap();
            assert!(
                pos_start < pos_call,
                "step {step} started after its tool call"
            );
        }
    }
    assert_eq!(reply_chunks(&events).concat(), record.reply);
    let updates = names.iter().filter(|n| *n == "ContextUpdated").count();
    assert_eq!(
        updates,
        1 + 3 + 1,
        "after Understand, after each step, after Summarize"
    );
}

#[tokio::test]
async fn the_next_turn_sees_loaded_rows_without_reading_them_again() {
    let (_dir, k) = kitchen();
    let (first, _) = run(meal_planning_brain(), k.clone(), fresh(), "no cod").await;
    let TurnResult::Done { state, .. } = first else {
        panic!()
    };
    let brain = Scripted::plan(
        "narrow",
        vec![(step("Narrow down", StepType::Analyze, "recipes", 0), vec![])],
        "Got it.",
    );
    let (second, _) = run(brain, k, *state, "not the wings").await;
    let TurnResult::Done { record, .. } = second else {
        panic!()
    };
    let act = &record.prompts.act[0].prompt.full;
    let data = act.section("data_to_analyze").unwrap();
    assert!(data.text.contains("Already loaded"), "{}", data.text);
    assert!(data.text.contains("Dry Rub Wings"), "{}", data.text);
    assert!(record.steps[0].tool_calls.is_empty());
}

#[tokio::test]
async fn a_failed_turn_rolls_back_its_writes_and_changes_nothing() {
    let (_dir, k) = kitchen();
    let before = inventory_rows(&k);
    let brain = Scripted {
        fail_reply: true,
        ..add_eggs_brain()
    };
    let state = fresh();
    let (result, events) = run(brain, k.clone(), state.clone(), "add 12 eggs").await;
    let TurnResult::Failed { record } = result else {
        panic!("should fail")
    };
    let error = record.error.as_deref().unwrap();
    assert!(
        error.contains("reply failed") && error.contains("did not answer in time"),
        "{error}"
    );
    assert_eq!(record.status, alfred::record::TurnStatus::Failed);
    assert_eq!(record.turn, 1);
    assert!(record.entities.recent.is_empty(), "the layers as they were");
    assert!(matches!(
        events.last(),
        Some(PipelineEvent::TurnFailed { .. })
    ));
    assert!(!k.lock().unwrap().in_turn());
    assert_eq!(inventory_rows(&k), before);
}

/// Starts "add eggs" with a Reply that never answers; returns once the
/// write is done and Reply has started.
async fn hang_after_adding_eggs(k: &Arc<Mutex<Kitchen>>) -> tokio::task::JoinHandle<TurnResult> {
    let brain = Scripted {
        hang_reply: true,
        ..add_eggs_brain()
    };
    let (tx, mut rx) = mpsc::unbounded_channel();
    let task = tokio::spawn(run_turn(
        Arc::new(brain),
        k.clone(),
        Arc::new(TurnSettings::default()),
        request(1, fresh(), "add eggs"),
        tx,
    ));
    while let Some(e) = rx.recv().await {
        if matches!(
            e,
            PipelineEvent::NodeStarted {
                node: Node::Reply,
                ..
            }
        ) {
            break;
        }
    }
    task
}

#[tokio::test]
async fn a_cancelled_turn_rolls_back_and_the_store_is_usable_again() {
    let (_dir, k) = kitchen();
    let before = inventory_rows(&k);
    // Wait until the write happened and Reply started, then cancel.
    let task = hang_after_adding_eggs(&k).await;
    assert_eq!(inventory_rows(&k), before + 1);
    task.abort();
    assert!(task.await.unwrap_err().is_cancelled());
    assert!(!k.lock().unwrap().in_turn());
    assert_eq!(inventory_rows(&k), before);
    let mut kitchen = k.lock().unwrap();
    kitchen.begin_turn().expect("a new turn can start");
    kitchen.rollback_turn().unwrap();
}

#[tokio::test]
async fn a_turn_waiting_on_its_model_locks_no_other_process_out() {
    let (dir, k) = kitchen();
    // The turn has written and now waits on its model (Reply hangs).
    let task = hang_after_adding_eggs(&k).await;
    let path = dir.path().join("kitchen.db");
    let other = tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        let mut other = Kitchen::open(&path).expect("a second opener");
        let mut reg = alfred::context::registry::SessionIdRegistry::new();
        let call = alfred::kitchen::ToolCall::new(
            "db_create",
            json!({"table": "shopping_list", "data": {"name": "oat milk"}}),
        );
        other
            .execute(&call, &mut reg, 1)
            .expect("the write goes through");
        started.elapsed()
    })
    .await
    .unwrap();
    assert!(other < std::time::Duration::from_secs(1), "{other:?}");
    task.abort();
}

#[tokio::test]
async fn circuit_breakers_stop_a_looping_step() {
    let (_dir, k) = kitchen();
    let empty = || ActAction::ToolCall {
        tool: "db_read".into(),
        params: json!({"table": "tasks", "filters": [{"field": "title", "op": "=", "value": "nothing"}]}),
    };
    let bad = || ActAction::ToolCall {
        tool: "db_read".into(),
        params: json!({"table": "spaceships"}),
    };
    let brain = Scripted::plan(
        "loop",
        vec![
            (
                step("Empty reads", StepType::Read, "tasks", 0),
                vec![empty(), empty(), empty(), empty()],
            ),
            (
                step("Bad calls", StepType::Read, "tasks", 1),
                vec![bad(), bad(), bad(), bad(), bad()],
            ),
        ],
        "ok",
    );
    let (result, _) = run(brain, k, fresh(), "loop").await;
    let TurnResult::Done { record, .. } = result else {
        panic!()
    };
    assert_eq!(
        record.steps[0].tool_calls.len(),
        2,
        "two empty reads of one table end the step"
    );
    assert_eq!(record.steps[0].outcome, "no tasks rows found");
    assert_eq!(
        record.steps[1].tool_calls.len(),
        3,
        "at most 3 tool calls per step"
    );
    assert!(
        record.steps[1].tool_calls[0]
            .error
            .as_deref()
            .unwrap()
            .contains("spaceships")
    );
    assert_eq!(record.steps[1].outcome, "stopped after 3 tool calls");
}

#[tokio::test]
async fn generated_artifacts_become_pending_refs_and_edits_keep_the_ref() {
    let (_dir, k) = kitchen();
    let draft = ActAction::StepComplete {
        result_summary: "Drafted a recipe".into(),
        data: json!({"artifacts": [{"table": "recipes", "name": "Thai Basil Chicken", "instructions": ["Fry"]}]}),
        note_for_next_step: None,
    };
    let brain = Scripted::plan(
        "draft",
        vec![(step("Draft", StepType::Generate, "recipes", 0), vec![draft])],
        "Here it is.",
    );
    let (result, _) = run(brain, k.clone(), fresh(), "thai basil chicken").await;
    let TurnResult::Done { record, state } = result else {
        panic!()
    };
    assert_eq!(record.entities.pending[0].r#ref, "gen_recipe_1");
    assert_eq!(
        state.snapshot().state_of("gen_recipe_1"),
        Some(EntityState::Pending)
    );

    let edit = ActAction::StepComplete {
        result_summary: "Added lime".into(),
        data: json!({"gen_recipe_1": {"name": "Thai Basil Chicken", "instructions": ["Fry", "Squeeze lime"]}}),
        note_for_next_step: None,
    };
    let brain = Scripted::plan(
        "edit",
        vec![(
            step("Add lime", StepType::Generate, "recipes", 0),
            vec![edit],
        )],
        "Added lime.",
    );
    let (result, _) = run(brain, k, *state, "add lime").await;
    let TurnResult::Done { state, .. } = result else {
        panic!()
    };
    let content = state.registry.artifact("gen_recipe_1").unwrap();
    assert_eq!(content["instructions"][1], "Squeeze lime");
    assert!(state.registry.get("gen_recipe_2").is_none());
}
