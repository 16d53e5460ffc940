//! The prompt inspector on screen over the real meal-planning records.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::inspector::{bar, thousands};
use super::test_support::render_frame;
use crate::tui::event::Event;
use crate::tui::inspector;
use crate::tui::model::{Overlay, Pane};
use crate::tui::test_records;
use crate::tui::travel;
use crate::tui::update::update;

#[test]
fn the_think_prompt_of_turn_3_with_its_sections_and_tokens() {
    let mut m = test_records::model(3, 120, 40);
    m.chrome.focus = Pane::Entities;
    inspector::toggle(&mut m);
    if let Some(Overlay::Inspector(st)) = &mut m.overlay {
        st.selected = 1; // Think
    }
    let screen = render_frame(&m, 120, 40);
    insta::assert_snapshot!("inspector_think_turn3_120x40", screen);
    let record = m.session.transcript[2].clone();
    let think = record.prompts.think.as_ref().expect("think prompt");
    assert!(screen.contains("Prompt inspector · turn 3"), "{screen}");
    assert!(screen.contains("▶ Think"), "{screen}");
    for name in ["Understand", "Act 1.1", "Reply"] {
        assert!(screen.contains(name), "{name} in the list:\n{screen}");
    }
    assert!(
        screen.contains(&format!(
            "total {} tokens of the 128,000 context window",
            thousands(think.full.total_tokens)
        )),
        "{screen}"
    );
    assert!(
        screen.contains("offline: this is the prompt an LLM would have been sent"),
        "{screen}"
    );
    // The system message is open (under the cursor); Enter folds it, and
    // every section shows folded with its tokens.
    assert!(screen.contains("▾ system"), "{screen}");
    assert!(screen.contains("You are Alfred's planner."), "{screen}");
    let keymap = crate::tui::keymap::Keymap::default_keys();
    let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    update(&mut m, &keymap, Event::Key(enter));
    let screen = render_frame(&m, 120, 40);
    insta::assert_snapshot!("inspector_think_folded_turn3_120x40", screen);
    assert!(screen.contains("▸ system"), "{screen}");
    for s in &think.full.sections {
        assert!(
            screen.contains(&format!("▸ <{}>", s.name)),
            "{} folded:\n{screen}",
            s.name
        );
    }
    let entity = think
        .full
        .section("entity_context")
        .expect("entity context");
    assert!(
        screen.contains(&format!("{} tok", thousands(entity.tokens))),
        "{screen}"
    );
}

#[test]
fn an_opened_section_shows_its_text_and_the_response_is_last() {
    let mut m = test_records::model(3, 120, 40);
    m.chrome.focus = Pane::Entities;
    travel::step(&mut m, true); // turn 2
    inspector::toggle(&mut m);
    let record = m.session.transcript[1].clone();
    let understand = record.prompts.understand.as_ref().expect("understand");
    if let Some(Overlay::Inspector(st)) = &mut m.overlay {
        assert_eq!(st.index, 1, "the inspected turn");
        st.cursor = understand.full.sections.len() + 1; // the response
    }
    let screen = render_frame(&m, 120, 40);
    insta::assert_snapshot!("inspector_understand_response_turn2_120x40", screen);
    assert!(screen.contains("Prompt inspector · turn 2"), "{screen}");
    assert!(screen.contains("▾ response"), "{screen}");
    assert!(screen.contains("▸ system"), "{screen}");
    assert!(
        screen.contains("    \"entity_curation\": {"),
        "JSON pretty-printed:\n{screen}"
    );
}

#[test]
fn bars_are_proportional_and_counts_have_separators() {
    assert_eq!(bar(0, 100, 10), "░░░░░░░░░░");
    assert_eq!(
        bar(1, 1000, 10),
        "█░░░░░░░░░",
        "anything is at least a cell"
    );
    assert_eq!(bar(50, 100, 10), "█████░░░░░");
    assert_eq!(bar(100, 100, 4), "████");
    assert_eq!(thousands(128_000), "128,000");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1_234_567), "1,234,567");
}

#[test]
fn each_request_of_a_prompt_is_shown_raw_with_its_finish_times_and_tokens() {
    use crate::pipeline::{Usage, UsageSource};
    use crate::record::{CallAttempt, CallRecord};
    let mut m = test_records::model(3, 120, 40);
    m.chrome.focus = Pane::Entities;
    let call = |attempt, raw: &str, finish: &str, problem: Option<&str>| CallRecord {
        attempt,
        model: "gemma3-270m".into(),
        format: "json_schema".into(),
        streamed: true,
        max_tokens: Some(1024),
        raw: raw.into(),
        finish_reason: Some(finish.into()),
        status: Some(200),
        first_byte_ms: Some(2394.75),
        total_ms: 18037.77,
        usage: Some(Usage {
            prompt_tokens: 965,
            completion_tokens: 1024,
            source: UsageSource::Reported,
            cost_usd: None,
        }),
        cached_tokens: Some(512),
        problem: problem.map(str::to_string),
    };
    {
        let session = std::sync::Arc::make_mut(&mut m.session);
        let u = session.transcript[2].prompts.understand.as_mut().unwrap();
        u.calls = vec![
            call(
                CallAttempt::Answer,
                "{\"referenced_entities\": [\"recipe_1\", \"reci",
                "length",
                Some("it was cut off at the 1024-token limit (llm.max_tokens.understand)"),
            ),
            call(CallAttempt::Repair, "{\"b\":1,\"a\":2}", "stop", None),
        ];
    }
    inspector::toggle(&mut m);
    let parts = {
        let record = &m.session.transcript[2];
        inspector::part_count(record.prompts.understand.as_ref().unwrap())
    };
    if let Some(Overlay::Inspector(st)) = &mut m.overlay {
        st.cursor = parts - 2; // the first call
    }
    let screen = render_frame(&m, 120, 40);
    assert!(screen.contains("▸ decision (parsed)"), "{screen}");
    assert!(screen.contains("▾ call 1 · answer"), "{screen}");
    assert!(screen.contains("length · 18.0 s"), "{screen}");
    assert!(
        screen.contains(
            "answer · json_schema, streamed · finish length · first byte 2.39 s · total 18.04 s"
        ) && screen.contains("965 + 1024 tokens (reported, 512 cached) · at most 1024"),
        "{screen}"
    );
    assert!(
        screen.contains("problem: it was cut off at the 1024-token limit"),
        "{screen}"
    );
    assert!(
        screen.contains("{\"referenced_entities\": [\"recipe_1\", \"reci"),
        "{screen}"
    );
    assert!(screen.contains("▸ call 2 · repair"), "{screen}");
    // The second call is shown exactly as it came: keys in its order.
    if let Some(Overlay::Inspector(st)) = &mut m.overlay {
        st.cursor = parts - 1;
    }
    let screen = render_frame(&m, 120, 40);
    assert!(screen.contains("{\"b\":1,\"a\":2}"), "{screen}");
}
