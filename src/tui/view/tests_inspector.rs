//! The prompt inspector on screen over the real meal-planning records.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::inspector::{bar, thousands};
use super::tests_support::render_frame;
use crate::tui::event::Event;
use crate::tui::inspector;
use crate::tui::model::{Overlay, Pane};
use crate::tui::test_records;
use crate::tui::travel;
use crate::tui::update::update;

#[test]
fn the_think_prompt_of_turn_3_with_its_sections_and_tokens() {
    let mut m = test_records::model(3, 120, 40);
    m.focus = Pane::Entities;
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
    m.focus = Pane::Entities;
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
