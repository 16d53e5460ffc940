//! The arena on the real pipeline with the offline brain: what it measures
//! on the shipped scenarios, and that its checks can fail.

use std::sync::Arc;

use crate::brain::offline::OfflineBrain;
use crate::context::ContextPolicy;
use crate::pipeline::TurnSettings;

use super::judge::{Kind, commitments, judge, shown, think_text};
use super::scenarios::{BUILT_IN, built_in};
use super::*;

fn bench() -> Bench {
    Bench {
        brain: Arc::new(OfflineBrain::default()),
        settings: Arc::new(TurnSettings::default()),
        today: jiff::civil::date(2026, 1, 13),
    }
}

fn scenario(name: &str) -> Scenario {
    built_in().into_iter().find(|s| s.name == name).expect(name)
}

fn run(policy: ContextPolicy, name: &str) -> Run {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let run = rt
        .block_on(bench().run(&policy, &scenario(name).messages))
        .unwrap();
    assert!(run.failed.is_empty(), "{:?}", run.failed);
    run
}

fn window(w: u32) -> ContextPolicy {
    ContextPolicy {
        turn_retention_window: w,
        ..ContextPolicy::default()
    }
}

fn scored(policy: ContextPolicy, name: &str, baseline: Option<&Run>) -> report::ScenarioResult {
    let c = Contender {
        name: "p".into(),
        policy: policy.clone(),
        baseline: false,
    };
    score(&scenario(name), &c, &run(policy, name), baseline)
}

#[test]
fn every_scenario_file_is_built_in() {
    let mut files: Vec<String> = std::fs::read_dir("assets/scenarios")
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let stem = p.file_stem()?.to_string_lossy().into_owned();
            (p.extension()? == "txt").then_some(stem)
        })
        .collect();
    files.sort();
    let mut names: Vec<String> = BUILT_IN.iter().map(|(n, _)| n.to_string()).collect();
    names.sort();
    assert_eq!(files, names);
}

#[test]
fn the_default_policy_keeps_the_topic_switch_and_window_one_loses_the_milk() {
    let naive = run(ContextPolicy::naive(), "topic-switch-and-return");
    let default = scored(
        ContextPolicy::default(),
        "topic-switch-and-return",
        Some(&naive),
    );
    assert_eq!(
        default.memory.regret_turns, 0,
        "{:?}",
        default.memory.regret
    );
    assert!(default.recall.full(), "{:?}", default.recall.lapses);
    assert!(default.recall.checks >= 10, "{:?}", default.recall);

    // Window 1 has let the milk row go by turn 7: the brain reads it from
    // the kitchen again (and answers right), where the default policy
    // answers from the row it kept.
    let w1 = scored(window(1), "topic-switch-and-return", Some(&naive));
    assert_eq!(w1.memory.regret_turns, 0, "{:?}", w1.memory.regret);
    let steps_at = |run: &Run, turn: usize| -> Vec<String> {
        run.turns[turn - 1]
            .record
            .steps
            .iter()
            .map(|s| format!("{}:{}", s.step_type, s.subdomain))
            .collect()
    };
    let w1_run = run(window(1), "topic-switch-and-return");
    let default_run = run(ContextPolicy::default(), "topic-switch-and-return");
    assert_eq!(steps_at(&w1_run, 7), ["read:inventory"]);
    assert_eq!(steps_at(&default_run, 7), ["analyze:inventory"]);
    assert!(w1_run.turns[6].record.reply.contains("milk (1 l)"));

    // The naive baseline carries every row to the last turn.
    let naive_think = naive
        .turns
        .last()
        .unwrap()
        .record
        .prompts
        .think
        .as_ref()
        .unwrap();
    let think = default.memory.tokens["think"];
    assert!(
        naive_think.tokens.total_tokens > think.last,
        "naive {} vs default {}",
        naive_think.tokens.total_tokens,
        think.last
    );
    assert!(w1.memory.idle < default.memory.idle);
}

#[test]
fn the_judge_reads_the_exclusion_the_draft_and_the_goal_from_the_raw_log() {
    let r = run(ContextPolicy::default(), "topic-switch-and-return");
    let found = commitments(&r.turns);
    let cod = found
        .iter()
        .find(|c| c.kind == Kind::Exclusion)
        .expect("the cod exclusion");
    assert_eq!(cod.made, 2);
    assert_eq!(cod.refs, ["recipe_1", "recipe_2", "recipe_7"]);
    assert_eq!(cod.terms, ["cod"]);
    assert_eq!(cod.ended, None, "nothing undid it");
    let draft = found
        .iter()
        .find(|c| c.kind == Kind::PendingSave)
        .expect("the unsaved plan");
    assert_eq!((draft.made, draft.ended), (3, Some(4)), "saved at turn 4");
    assert!(
        found
            .iter()
            .any(|c| c.kind == Kind::Goal && c.ended == Some(4))
    );
}

#[test]
fn a_prompt_without_the_exclusion_is_a_lapse() {
    let mut r = run(ContextPolicy::default(), "topic-switch-and-return");
    let found = commitments(&r.turns);
    assert!(judge(&r.turns, &found).full());
    // Turn 8's Think prompt, with every line naming cod taken out.
    let o = &mut r.turns[7];
    let cod = found.iter().find(|c| c.kind == Kind::Exclusion).unwrap();
    assert!(shown(cod, o, &think_text(&o.record).unwrap()));
    o.think_view.excluded.clear();
    let think = o.record.prompts.think.as_mut().unwrap();
    for s in &mut think.full.sections {
        s.text = s
            .text
            .lines()
            .filter(|l| !l.to_lowercase().contains("cod"))
            .collect::<Vec<_>>()
            .join("\n")
            .into();
    }
    let recall = judge(&r.turns, &found);
    assert_eq!(recall.lapses.len(), 1, "{:?}", recall.lapses);
    assert_eq!(
        (recall.lapses[0].turn, recall.lapses[0].kind),
        (8, Kind::Exclusion)
    );
    assert!(recall.ratio() < 1.0);
}

#[test]
fn a_dropped_draft_is_not_owed_to_think() {
    let r = scored(ContextPolicy::default(), "forget-and-start-fresh", None);
    assert!(r.recall.full(), "{:?}", r.recall.lapses);
    assert!(r.recall.checks > 0);
}

#[test]
fn saved_sessions_replay_their_user_messages_by_id_or_by_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = crate::session::SessionStore::new(dir.path());
    let session = crate::session::sample::sample_session(4, 7);
    let path = store.path_of(&session.id);
    std::fs::write(&path, session.to_bytes().unwrap()).unwrap();
    let said: Vec<String> = session.transcript.iter().map(|t| t.user.clone()).collect();

    let by_id = super::scenarios::resolve(&session.id, &store).unwrap();
    assert_eq!(by_id.messages, said);
    assert_eq!(by_id.name, format!("session {}", session.id));
    let by_file = super::scenarios::resolve(path.to_str().unwrap(), &store).unwrap();
    assert_eq!(by_file.messages, said);

    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, b"{ not json").unwrap();
    let e = super::scenarios::resolve(broken.to_str().unwrap(), &store).unwrap_err();
    assert!(e.contains("is not a usable session file"), "{e}");
    assert!(broken.exists(), "a file the user named is left where it is");
}

#[test]
fn a_cold_recipe_comes_back_through_search_history_and_counts_as_rescued() {
    let tiered = ContextPolicy {
        policy: crate::context::PolicyKind::Tiered,
        ..ContextPolicy::default()
    };
    let r = run(tiered.clone(), "cold-recall");
    let ask = r
        .turns
        .iter()
        .find(|o| o.record.user == "what was that paneer dish?")
        .expect("the look back");
    let calls: Vec<&str> = ask
        .record
        .steps
        .iter()
        .flat_map(|s| &s.tool_calls)
        .map(|c| c.tool.as_str())
        .collect();
    assert_eq!(calls, ["search_history"]);
    assert!(
        !ask.before
            .recent
            .iter()
            .chain(&ask.before.retained)
            .any(|e| e.r#ref == "recipe_3"),
        "the recipe was cold before the turn"
    );
    assert!(
        ask.record
            .entities
            .recent
            .iter()
            .any(|e| e.r#ref == "recipe_3"),
        "and is back after it"
    );
    let scored = scored(tiered, "cold-recall", None);
    assert!(scored.memory.rescued >= 1, "{:?}", scored.memory);
    assert_eq!(scored.memory.regret_turns, 0, "{:?}", scored.memory.regret);
}
