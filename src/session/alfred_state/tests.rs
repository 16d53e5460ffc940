//! The mapping of Alfred's state, key by key: each field lands where it
//! should, unknown and unused keys are reported, and mangled input is
//! defaulted (reported), never fatal.

use serde_json::{Value, json};

use super::*;
use crate::context::dialogue::QuestionKind;
use crate::context::registry::RetainedBy;
use crate::context::{
    ConversationPhase, EntityState, RefAction, Table, TurnExecutionSummary, explain,
};

/// The hand-written fixture in Alfred's format (tests/fixtures).
pub(super) const FIXTURE: &str = include_str!("../../../tests/fixtures/alfred_state.json");

fn fixture() -> Value {
    serde_json::from_str(FIXTURE).expect("the fixture is JSON")
}

fn imported(v: &Value) -> Imported {
    import(v, &ContextPolicy::default()).expect("an object imports")
}

fn keys(findings: &[Finding]) -> Vec<&str> {
    findings.iter().map(|f| f.key.as_str()).collect()
}

fn said(findings: &[Finding], key: &str) -> String {
    findings
        .iter()
        .find(|f| f.key == key)
        .map(Finding::line)
        .unwrap_or_else(|| panic!("nothing said about `{key}` in {findings:#?}"))
}

#[test]
fn the_registry_keeps_alfreds_refs_and_what_it_knew_of_each() {
    let i = imported(&fixture());
    let reg = &i.context.registry;
    assert_eq!(reg.len(), 19, "every live ref of ref_to_uuid");
    let r = reg.get("recipe_1").expect("recipe_1");
    assert_eq!(r.table, Table::Recipes);
    assert_eq!(r.label, "Lemon Herb Roast Chicken");
    assert_eq!(
        r.row_id.as_deref(),
        Some("3c7a1e9d-0f4b-4d28-b6e5-8a2c9f0d1e74")
    );
    assert_eq!(
        (r.action, r.turn_created, r.last_ref_turn),
        (RefAction::Read, 2, 3)
    );
    let kept = r.retention.as_ref().expect("retained");
    assert!(kept.reason.contains("dad can't handle spicy"), "{kept:?}");
    assert_eq!((kept.by, kept.turn), (RetainedBy::Imported, 7));
    assert_eq!(
        reg.ref_for_row("3c7a1e9d-0f4b-4d28-b6e5-8a2c9f0d1e74"),
        Some("recipe_1")
    );
    assert_eq!(reg.get("pref_1").unwrap().action_label(), "updated:user");
    assert_eq!(reg.get("ing_1").unwrap().action, RefAction::Linked);
    assert_eq!(reg.get("meal_1").unwrap().table, Table::MealPlans);
    assert_eq!(reg.get("ri_2").unwrap().table, Table::RecipeIngredients);
    let draft = reg.get("gen_recipe_1").unwrap();
    assert!(draft.is_pending() && draft.row_id.is_none());
    assert_eq!(
        reg.artifact("gen_recipe_1").unwrap()["name"],
        "Spinach & Yogurt Flatbreads"
    );
    assert!(reg.get("recipe_4").is_none(), "removed in Alfred");
}

#[test]
fn new_refs_continue_alfreds_numbering_and_never_reuse_a_removed_one() {
    let mut reg = imported(&fixture()).context.registry;
    let next = reg.register_row(Table::Recipes, "new-row", "Soup", RefAction::Read, 8);
    assert_eq!(
        next, "recipe_5",
        "recipe_4 was used (and removed) in Alfred"
    );
    let g = reg.register_generated(Table::Recipes, "Draft", json!({}), 8);
    assert_eq!(g, "gen_recipe_2");
    let inv = reg.register_row(Table::Inventory, "inv-row", "Milk", RefAction::Read, 8);
    assert_eq!(inv, "inv_6");
}

#[test]
fn the_active_set_is_alfreds_window_with_its_reasons() {
    let i = imported(&fixture());
    let snap = i.context.snapshot();
    let refs = |v: &[crate::context::EntityView]| {
        let mut r: Vec<String> = v.iter().map(|e| e.r#ref.clone()).collect();
        r.sort();
        r
    };
    let e = &snap.entities;
    assert_eq!(snap.turn, 7);
    assert_eq!(
        refs(&e.recent),
        ["inv_2", "inv_3", "pref_1", "recipe_3", "task_1"]
    );
    assert_eq!(
        refs(&e.retained),
        ["inv_1", "meal_1", "recipe_1", "shop_1", "shop_2"]
    );
    assert!(
        e.retained.iter().all(|v| v.reason.is_some()),
        "{:?}",
        e.retained
    );
    assert_eq!(refs(&e.pending), ["gen_recipe_1"]);
    let background: Vec<&str> = e.background().map(|v| v.r#ref.as_str()).collect();
    assert_eq!(background.len(), 8, "{background:?}");
    assert!(e.excluded.is_empty());
    let c = &i.report.counts;
    assert_eq!(
        (c.entities, c.recent, c.retained, c.pending, c.background),
        (19, 5, 5, 1, 8)
    );
}

#[test]
fn recent_turns_count_back_from_the_current_turn_with_their_times() {
    let i = imported(&fixture());
    let c = &i.context.conversation;
    let turns: Vec<(u32, Option<&str>)> = c.recent().map(|t| (t.turn, t.at.as_deref())).collect();
    assert_eq!(
        turns,
        [
            (5, Some("2025-03-13T19:41:07.218330")),
            (6, Some("2025-03-14T12:05:52.904117")),
            (7, Some("2025-03-14T12:09:31.550482")),
        ]
    );
    let t6 = c.recent().nth(1).unwrap();
    assert!(t6.user.starts_with("give me a quick vegetarian lunch"));
    assert!(t6.assistant.contains("**Spinach & Yogurt Flatbreads**"));
    assert!(
        t6.assistant_summary
            .as_deref()
            .unwrap()
            .starts_with("Generated recipe")
    );
    // A short reply is its own summary in Alfred; here it has none.
    assert_eq!(c.recent().next().unwrap().assistant_summary, None);
    assert!(
        c.history_summary()
            .starts_with("The user checked their fridge")
    );
    assert_eq!(i.context.understand_turns.len(), 3);
    assert_eq!(i.context.turn, 7);
}

#[test]
fn turn_summaries_land_in_the_narrative_with_the_pending_proposal() {
    let i = imported(&fixture());
    let n = &i.context.narrative;
    assert!(n.earlier().starts_with("Turn 1: Show what's in the fridge"));
    let summaries: Vec<&TurnExecutionSummary> = n.recent().collect();
    assert_eq!(summaries.len(), 2);
    let t6 = summaries[0];
    assert_eq!(
        (t6.turn_number, t6.decision.map(|d| d.as_str())),
        (6, Some("plan_direct"))
    );
    assert_eq!(t6.steps.len(), 2);
    assert_eq!(t6.steps[0].entities_affected, ["inv_2", "inv_3"]);
    assert_eq!(t6.steps[1].outcome, "Generated Spinach & Yogurt Flatbreads");
    assert_eq!(t6.conversation_phase, ConversationPhase::Confirming);
    assert_eq!(t6.what_user_expressed, "wants quick options");
    assert_eq!(t6.retained_refs.len(), 5);
    assert!(
        t6.curation_summary
            .as_deref()
            .unwrap()
            .starts_with("retained recipe_1 — “user:"),
        "{:?}",
        t6.curation_summary
    );
    assert!(
        t6.user_message
            .starts_with("give me a quick vegetarian lunch")
    );
    assert!(t6.response_summary.starts_with("Generated recipe"));
    let t7 = summaries[1];
    assert_eq!(t7.decision.map(|d| d.as_str()), Some("propose"));
    let q = t7
        .dialogue
        .question
        .as_ref()
        .expect("Alfred's proposal waits");
    assert_eq!(q.kind, QuestionKind::Confirm);
    assert!(q.text.starts_with("Your Chicken & Spinach Pie"));
    assert_eq!(
        q.request,
        "and wednesday? anything with the leftover chicken"
    );
    assert!(i.report.counts.pending_clarification);
}

#[test]
fn the_report_names_unknown_keys_and_those_read_but_not_shown() {
    let i = imported(&fixture());
    let r = &i.report;
    assert_eq!(
        keys(&r.skipped),
        ["beta_flags", "id_registry._lazy_enrich_queue"]
    );
    assert!(said(&r.skipped, "beta_flags").contains("not one of Alfred's keys"));
    let not_shown = keys(&r.not_shown);
    for key in [
        "id_registry.ref_to_uuid",
        "id_registry.ref_detail_tracking",
        "id_registry.ref_source_step",
        "recent_turns[].routing",
        "content_archive",
        "turn_step_results",
        "created_at",
    ] {
        assert!(not_shown.contains(&key), "{key} in {not_shown:?}");
    }
    assert!(said(&r.not_shown, "id_registry.ref_to_uuid").contains("recipe_4"));
    assert!(said(&r.not_shown, "recent_turns[].routing").contains("(in 3 items)"));
    assert!(r.defaulted.is_empty(), "{:#?}", r.defaulted);
    assert_eq!(
        r.origin.session_id.as_deref(),
        Some("5b0e8f3c-2d41-4c6e-9a57-0c3b1d7e9f22")
    );
    assert_eq!(
        r.origin.last_active_at.as_deref(),
        Some("2025-03-14T12:09:33.112870+00:00")
    );
}

#[test]
fn the_note_says_where_it_came_from_and_what_came_with_it() {
    let note = imported(&fixture()).report.note("alfred_state.json");
    for part in [
        "Imported from Alfred's saved conversation state (alfred_state.json",
        "Alfred was at turn 7: 19 entities",
        "5 recent, 5 retained with Alfred's reasons, 1 pending, 0 excluded, 8 background",
        "3 recent turns and the earlier summary in History",
        "2 turn summaries in Narrative",
        "Skipped 2 keys not known here: beta_flags, id_registry._lazy_enrich_queue.",
        "Alfred session 5b0e8f3c-2d41-4c6e-9a57-0c3b1d7e9f22",
        "what you say next is turn 8",
    ] {
        assert!(note.contains(part), "{part:?} in {note}");
    }
}

#[test]
fn why_answers_an_imported_retention_from_alfreds_reason() {
    let snap = imported(&fixture()).context.snapshot();
    let text = explain(&snap, "shop_1").expect("shop_1 is live");
    assert!(text.contains("is retained at turn 7"), "{text}");
    assert!(text.contains("Alfred's Understand kept it"), "{text}");
    assert!(
        text.contains("“user: “keep the list going, I'll add more later””"),
        "{text}"
    );
    assert!(text.contains("does not say at which turn"), "{text}");
    assert!(!text.contains("kept it at turn"), "no made-up turn: {text}");
    let pending = explain(&snap, "gen_recipe_1").unwrap();
    assert!(
        pending.contains("generated at turn 6 and not saved yet"),
        "{pending}"
    );
}

#[test]
fn the_decision_log_gives_a_retention_or_demotion_its_turn() {
    let mut v = fixture();
    v["understand_decision_log"] = json!([
        {"turn": 6, "ref": "recipe_1", "action": "retain",
         "reason": "user: “dad can't handle spicy — let's do the roast chicken for them on Sunday”"},
        {"turn": 3, "ref": "recipe_2", "action": "demote", "reason": "too spicy for dad"},
        {"turn": 5, "action": "clear_all", "reason": null},
        {"turn": 5, "ref": "recipe_3", "action": "forget", "reason": "?"}
    ]);
    let i = imported(&v);
    let kept = i
        .context
        .registry
        .get("recipe_1")
        .unwrap()
        .retention
        .clone()
        .unwrap();
    assert_eq!((kept.by, kept.turn), (RetainedBy::Understand, 6));
    let snap = i.context.snapshot();
    let why = explain(&snap, "recipe_1").unwrap();
    assert!(why.contains("Understand kept it at turn 6"), "{why}");
    let why = explain(&snap, "recipe_2").unwrap();
    assert!(
        why.contains("demoted at turn 3") && why.contains("too spicy for dad"),
        "{why}"
    );
    let log: Vec<(u32, &str)> = i
        .context
        .decision_log
        .entries()
        .map(|d| (d.turn, d.r#ref.as_str()))
        .collect();
    assert_eq!(log, [(6, "recipe_1"), (3, "recipe_2"), (5, "*")]);
    assert!(said(&i.report.defaulted, "understand_decision_log[].action").contains("`forget`"));
}

#[test]
fn a_whole_row_is_unwrapped_and_its_state_may_be_text() {
    let row = json!({
        "user_id": "0f6a1c2e-9b3d-4e57-8a10-2c4d6e8f0a1b",
        "state": fixture(),
        "created_at": "2025-03-12T18:01:44Z",
        "last_active_at": "2025-03-14T12:09:33Z",
        "title": "Sunday roast",
        "is_archived": false,
        "owner_note": "x"
    });
    let i = imported(&row);
    assert_eq!(i.context.registry.len(), 19);
    let o = &i.report.origin;
    assert!(o.row);
    assert_eq!(
        o.user_id.as_deref(),
        Some("0f6a1c2e-9b3d-4e57-8a10-2c4d6e8f0a1b")
    );
    assert_eq!(o.last_active_at.as_deref(), Some("2025-03-14T12:09:33Z"));
    assert!(keys(&i.report.skipped).contains(&"owner_note"));
    assert!(
        i.report
            .note("row.json")
            .contains("user 0f6a1c2e-9b3d-4e57-8a10-2c4d6e8f0a1b")
    );
    let as_text = json!({"user_id": "u", "state": FIXTURE});
    assert_eq!(imported(&as_text).context.registry.len(), 19);
}

#[test]
fn only_input_that_is_not_an_object_fails() {
    let policy = ContextPolicy::default();
    for (input, shape) in [
        ("[]", "a list"),
        ("3", "a number"),
        ("\"x\"", "text"),
        ("null", "null"),
    ] {
        let err = import_json(input.as_bytes(), &policy).expect_err(input);
        assert!(
            matches!(err, ImportError::NotAnObject(s) if s == shape),
            "{input}: {err}"
        );
    }
    let err = import_json(b"{\"recent_turns\": [", &policy).expect_err("torn");
    assert!(matches!(err, ImportError::NotJson(_)), "{err}");
    assert!(err.to_string().starts_with("it is not JSON: "), "{err}");
    for row in [
        json!({"state": 5}),
        json!({"state": "[1]"}),
        json!({"state": "{"}),
    ] {
        let err = import(&row, &policy).expect_err("a row without a state object");
        assert!(matches!(err, ImportError::StateNotAnObject(_)), "{err}");
    }
}

#[test]
fn an_empty_object_imports_empty_and_says_what_was_missing() {
    let i = imported(&json!({}));
    assert!(i.context.registry.is_empty());
    assert_eq!(i.context.turn, 0);
    assert_eq!(i.report.origin.alfred_keys, 0);
    let missing = keys(&i.report.defaulted);
    for key in [
        "id_registry",
        "recent_turns",
        "turn_summaries",
        "history_summary",
        "current_turn",
    ] {
        assert!(missing.contains(&key), "{key} in {missing:?}");
    }
    assert!(said(&i.report.defaulted, "recent_turns").contains("is missing: the History panel"));
}

#[test]
fn mangled_values_are_defaulted_and_reported_never_fatal() {
    type Mangle = fn(&mut Value);
    let cases: [(&str, Mangle, &str); 10] = [
        (
            "recent_turns",
            |v| v["recent_turns"] = json!(5),
            "is a number, not a list",
        ),
        (
            "id_registry.ref_labels",
            |v| v["id_registry"]["ref_labels"] = json!([]),
            "is a list, not an object",
        ),
        (
            "id_registry.ref_turn_last_ref.recipe_1",
            |v| v["id_registry"]["ref_turn_last_ref"]["recipe_1"] = json!("3"),
            "is text, not a turn number",
        ),
        (
            "id_registry.ref_actions.inv_4",
            |v| v["id_registry"]["ref_actions"]["inv_4"] = json!("cooked"),
            "is `cooked`",
        ),
        (
            "turn_summaries[]",
            |v| v["turn_summaries"] = json!([1, {"think_goal": "x"}]),
            "holds a number",
        ),
        (
            "pending_clarification",
            |v| v["pending_clarification"] = json!("yes"),
            "is text, not an object",
        ),
        (
            "current_turn",
            |v| v["current_turn"] = json!(-1),
            "is a number, not a turn number",
        ),
        (
            "id_registry.counters.recipe",
            |v| v["id_registry"]["counters"]["recipe"] = json!("many"),
            "not a count",
        ),
        (
            "id_registry.ref_types.shop_1",
            |v| v["id_registry"]["ref_types"]["shop_1"] = json!("recipe"),
            "the ref's type is used",
        ),
        (
            "id_registry.ref_to_uuid.log_1",
            |v| v["id_registry"]["ref_to_uuid"]["log_1"] = json!("u"),
            "type `log`",
        ),
    ];
    for (key, mangle, words) in cases {
        let mut v = fixture();
        mangle(&mut v);
        let i = imported(&v);
        let all: Vec<&Finding> = i.report.defaulted.iter().chain(&i.report.skipped).collect();
        let found = all
            .iter()
            .find(|f| f.key == key)
            .unwrap_or_else(|| panic!("{key}: {all:#?}"));
        assert!(found.text.contains(words), "{key}: {}", found.line());
        let _ = i.context.snapshot();
    }
}

#[test]
fn a_state_saved_before_summarize_is_at_the_registrys_turn() {
    let mut v = fixture();
    v["id_registry"]["current_turn"] = json!(8);
    let i = imported(&v);
    assert_eq!(i.context.turn, 8);
    let last: Vec<u32> = i.context.conversation.recent().map(|t| t.turn).collect();
    assert_eq!(last, [5, 6, 7], "the recent turns end at current_turn");
    assert!(said(&i.report.defaulted, "current_turn").contains("before summarising turn 8"));
}

#[test]
fn the_imported_context_survives_the_session_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = crate::session::SessionStore::new(dir.path());
    let now: jiff::Timestamp = "2026-01-05T10:00:00Z".parse().unwrap();
    let llm = crate::session::LlmSettings::new("imported", None, "");
    let (mut session, lock) = store.create(now, llm, ContextPolicy::default()).unwrap();
    let i = imported(&fixture());
    let context = i.context.clone();
    i.into_session(&mut session, "alfred_state.json", None);
    assert_eq!(session.notes[0].turn, 7);
    store.write_new(&session, &lock).unwrap();
    assert!(
        store.write_new(&session, &lock).is_err(),
        "never over a session"
    );
    drop(lock);
    let back = store.load(&session.id).unwrap();
    assert_eq!(back.context, context);
    assert_eq!(back.notes, session.notes);
    assert_eq!(back.title, "Alfred state alfred_state.json");
    assert_eq!(back.turn_count(), 0);
}

/// As Alfred's Understand writes its log (`understand.py`: a demotion's
/// reason is the turn's curation summary) and its registry keeps the ref
/// (`clear_active_reason` only drops the retention reason): a ref demoted
/// in the turn it was last referenced stays recent in Alfred's prompts, and
/// the import shows it recent, saying why.
#[test]
fn a_ref_alfred_demoted_inside_its_window_stays_recent_as_its_code_keeps_it() {
    let mut v = fixture();
    v["understand_decision_log"] = json!([
        {"turn": 6, "ref": "inv_2", "action": "demote", "reason": "Demoted the yogurt"},
        {"turn": 3, "ref": "recipe_2", "action": "demote", "reason": "too spicy for dad"}
    ]);
    let i = imported(&v);
    let snap = i.context.snapshot();
    assert_eq!(
        snap.state_of("inv_2"),
        Some(EntityState::Recent),
        "turn 7 − 6 ≤ 2"
    );
    assert_eq!(
        snap.state_of("recipe_2"),
        Some(EntityState::Background),
        "out of Alfred's window, the demotion shows"
    );
    let said = said(&i.report.as_alfred_does, "inv_2");
    assert!(
        said.contains("demoted it at turn 6 (“Demoted the yogurt”)")
            && said.contains("only clears a retention reason")
            && said.contains("until turn 8"),
        "{said}"
    );
    assert!(
        i.report
            .note("s.json")
            .contains("inv_2: Alfred's Understand demoted it")
    );
    assert!(
        i.report
            .finding_lines()
            .iter()
            .any(|l| l.starts_with("As Alfred's code does it"))
    );
}

/// A drop Alfred made before the import (`registry.remove_ref`, so no row
/// name is left) is explained by `/why` from the decision log's reason.
#[test]
fn a_ref_alfred_dropped_is_explained_from_its_decision_log() {
    let mut v = fixture();
    v["understand_decision_log"] = json!([
        {"turn": 5, "ref": "gen_recipe_2", "action": "drop", "reason": "User rejected the lentil soup draft"}
    ]);
    let i = imported(&v);
    let snap = i.context.snapshot();
    let text = crate::context::why(&[snap], "gen_recipe_2", 7);
    assert!(
        text.contains("Understand dropped it at turn 5")
            && text.contains("User rejected the lentil soup draft"),
        "{text}"
    );
}

/// A ref of a kind alfred has no table for (Alfred's cooking log) is kept
/// out, and the import remembers why, for `/why`.
#[test]
fn a_skipped_ref_is_remembered_with_why() {
    let mut v = fixture();
    v["id_registry"]["ref_to_uuid"]["log_1"] = json!("8a4c2f70-1111-4d6b-9a11-0c3b1d7e9f22");
    let i = imported(&v);
    let why = i
        .context
        .import_skipped
        .get("log_1")
        .cloned()
        .unwrap_or_default();
    assert!(
        why.contains("type `log`") && why.ends_with("skipped"),
        "{why}"
    );
    assert!(i.context.registry.get("log_1").is_none());
}

/// Read from the store that is the session's kitchen, the note says the
/// rows are here; read from a file, that they are in Alfred's database.
#[test]
fn the_note_says_where_the_rows_are() {
    let mut i = imported(&fixture());
    assert!(
        i.report
            .note("f.json")
            .contains("in Alfred's database, not in this kitchen")
    );
    i.report.from_kitchen = true;
    let note = i.report.note("user u");
    assert!(
        note.contains("The rows behind these refs are in this kitchen: it is the database"),
        "{note}"
    );
    assert!(!note.contains("not in this kitchen"), "{note}");
}
