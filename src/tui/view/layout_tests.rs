//! The screen layout: wide, narrow tabs, zoom, too small — and no panic at
//! any size.

use ratatui::layout::Rect;

use super::test_support::{model_with, render_screen, seed_turn3};
use super::{Arrangement, ScreenLayout, layout};
use crate::context::ContextSnapshot;
use crate::tui::model::{Overlay, Pane, SessionItem, TurnState};

#[test]
fn every_size_from_0x0_to_120x50_renders_without_panic() {
    let (_, after, d) = seed_turn3();
    let mut model = model_with(after, Some(d));
    model.chat.set_input("line one\nline two\nline three");
    let mut widths: Vec<u16> = (0..=120).step_by(3).collect();
    widths.extend([1, 2, 39, 40, 41, 99, 100, 101, 119, 120]);
    let mut heights: Vec<u16> = (0..=50).step_by(2).collect();
    heights.extend([1, 11, 12, 13, 49]);
    let variants = 5;
    for (i, (w, h)) in widths
        .iter()
        .flat_map(|w| heights.iter().map(move |h| (*w, *h)))
        .enumerate()
    {
        match i % variants {
            0 => (model.chrome.zoom, model.overlay, model.chrome.focus) = (None, None, Pane::Input),
            1 => model.chrome.focus = Pane::Entities,
            2 => model.chrome.zoom = Some(Pane::History),
            3 => model.overlay = Some(Overlay::Help { scroll: 0 }),
            _ => {
                model.overlay = Some(Overlay::Sessions {
                    items: vec![SessionItem {
                        id: "s-1".into(),
                        title: "麻婆豆腐 night 🌶️".into(),
                        turns: 3,
                        updated: "2026-01-13 19:02".into(),
                    }],
                    selected: 4,
                });
                model.turn.state = TurnState::Failed {
                    reason: "timeout".into(),
                    message: "hi".into(),
                };
            }
        }
        let (_, l) = render_screen(&model, w, h);
        let small = w < 40 || h < 12;
        assert_eq!(matches!(l, ScreenLayout::TooSmall { .. }), small, "{w}×{h}");
        if let ScreenLayout::Main(m) = l {
            let screen = Rect::new(0, 0, w, h);
            for r in [
                Some(m.title),
                m.chat,
                m.entities,
                m.narrative,
                m.history,
                Some(m.input),
            ]
            .into_iter()
            .flatten()
            {
                assert_eq!(screen.intersection(r), r, "{r:?} inside {w}×{h}");
            }
            assert!((3..=8).contains(&m.input.height), "{w}×{h}");
        }
    }
}

#[test]
fn too_small_38x10_shows_only_the_note() {
    let model = model_with(ContextSnapshot::default(), None);
    let (screen, l) = render_screen(&model, 38, 10);
    insta::assert_snapshot!("too_small_38x10", screen);
    assert_eq!(
        l,
        ScreenLayout::TooSmall {
            area: Rect::new(0, 0, 38, 10)
        }
    );
    let text: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(
        text,
        "Terminal too small: 38×10 — alfred needs at least 40×12"
    );
}

#[test]
fn wide_layout_puts_chat_left_and_stacks_the_panels() {
    let model = model_with(ContextSnapshot::default(), None);
    let l = layout(Rect::new(0, 0, 100, 40), &model);
    let m = l.main().expect("main layout");
    assert_eq!(m.arrangement, Arrangement::Wide);
    let (chat, e, n, h) = (
        m.chat.expect("chat"),
        m.entities.expect("entities"),
        m.narrative.expect("narrative"),
        m.history.expect("history"),
    );
    assert_eq!(chat.width, 55);
    assert_eq!((e.x, e.width), (55, 45));
    assert!(e.bottom() == n.y && n.bottom() == h.y && h.bottom() == chat.bottom());
    assert_eq!(e.height, 45 * chat.height / 100);
    assert_eq!((m.title.y, m.title.height), (0, 1));
    assert_eq!((m.hints.y, m.hints.height), (39, 1));
    assert_eq!(m.input.height, 3);
    assert_eq!(m.pipeline.bottom(), m.input.y);
}

#[test]
fn narrow_input_focus_shows_the_chat_tab() {
    let model = model_with(ContextSnapshot::default(), None);
    let l = layout(Rect::new(0, 0, 99, 30), &model);
    let m = l.main().expect("main");
    assert_eq!(m.arrangement, Arrangement::Tabs { shown: Pane::Chat });
    assert!(m.chat.is_some() && m.entities.is_none() && m.narrative.is_none());
    assert_eq!(m.tabs.map(|t| t.height), Some(1));
}

#[test]
fn narrow_60x20_entities_tab() {
    let (_, after, d) = seed_turn3();
    let mut model = model_with(after, Some(d));
    model.chrome.focus = Pane::Entities;
    let (screen, l) = render_screen(&model, 60, 20);
    insta::assert_snapshot!("narrow_60x20_entities_tab", screen);
    assert!(l.chat().is_none());
    assert!(
        screen.contains(" Chat | Entities | Narrative | History"),
        "{screen}"
    );
    assert!(screen.contains("Entities · 64 active"), "{screen}");
    assert!(screen.contains("↓ more"), "{screen}");
}

#[test]
fn zoomed_narrative_takes_the_main_area() {
    let (_, after, d) = seed_turn3();
    let mut model = model_with(after, Some(d));
    model.chrome.zoom = Some(Pane::Narrative);
    model.chrome.focus = Pane::Narrative;
    let (screen, l) = render_screen(&model, 100, 30);
    insta::assert_snapshot!("zoomed_narrative_100x30", screen);
    let m = l.main().expect("main");
    assert_eq!(m.arrangement, Arrangement::Zoomed(Pane::Narrative));
    assert_eq!(m.narrative, Some(Rect::new(0, 1, 100, 24)));
    assert!(m.chat.is_none() && m.entities.is_none() && m.tabs.is_none());
}

#[test]
fn input_box_grows_to_a_third_of_the_screen() {
    let mut model = model_with(ContextSnapshot::default(), None);
    model.chat.set_input(&["x"; 12].join("\n"));
    assert_eq!(
        layout(Rect::new(0, 0, 120, 50), &model)
            .input()
            .map(|r| r.height),
        Some(8)
    );
    assert_eq!(
        layout(Rect::new(0, 0, 120, 18), &model)
            .input()
            .map(|r| r.height),
        Some(6)
    );
    model.chat.set_input("one\ntwo");
    assert_eq!(
        layout(Rect::new(0, 0, 120, 50), &model)
            .input()
            .map(|r| r.height),
        Some(4)
    );
}
