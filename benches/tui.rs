//! The UI's cost with a long session open: a frame of a 1,000-turn session,
//! and a keystroke (plus a streamed chunk) to the next frame while a turn
//! streams; the entity timeline of a session of 500 turns × 2,000 entities
//! (built synthetically): opening it, a frame, a cursor move to a frame.
//! Frames are drawn into ratatui's `TestBackend` at 160×50.
//!
//! `cargo bench --bench tui`

use alfred::context::{Cause, ContextPolicy, EntitiesView, EntityView};
use alfred::pipeline::{PipelineEvent, TurnId};
use alfred::record::TurnRecord;
use alfred::session::sample::sample_session;
use alfred::session::{LlmSettings, SessionFile};
use alfred::tui::draw::{Caches, draw};
use alfred::tui::event::Event;
use alfred::tui::keymap::Keymap;
use alfred::tui::model::Model;
use alfred::tui::theme::Theme;
use alfred::tui::update::update;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use divan::Bencher;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn main() {
    divan::main();
}

fn open(turns: u32) -> (Model, Keymap, Terminal<TestBackend>, Caches) {
    let session = sample_session(turns, 7);
    let mut model = Model::new(session, "offline", Theme::dark());
    model.chrome.size = (160, 50);
    let keymap = Keymap::default_keys();
    let mut terminal = Terminal::new(TestBackend::new(160, 50)).unwrap();
    let mut caches = Caches::default();
    terminal
        .draw(|f| {
            draw(f, &model, &keymap, &mut caches);
        })
        .unwrap();
    (model, keymap, terminal, caches)
}

/// A frame of the UI with the session open and nothing changing.
#[divan::bench(args = [10, 1000], sample_count = 50)]
fn frame(bencher: Bencher, turns: u32) {
    let (model, keymap, mut terminal, mut caches) = open(turns);
    bencher.bench_local(|| {
        terminal
            .draw(|f| {
                draw(f, &model, &keymap, &mut caches);
            })
            .unwrap();
    });
}

/// A key typed while a reply streams: the update, a chunk, and the frame.
#[divan::bench(args = [10, 1000], sample_count = 50)]
fn keystroke_to_frame_while_streaming(bencher: Bencher, turns: u32) {
    let (mut model, keymap, mut terminal, mut caches) = open(turns);
    for c in "plan my week".chars() {
        update(
            &mut model,
            &keymap,
            Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
    update(
        &mut model,
        &keymap,
        Event::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    let id = TurnId(1);
    bencher.bench_local(|| {
        update(
            &mut model,
            &keymap,
            Event::Key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE)),
        );
        update(
            &mut model,
            &keymap,
            Event::Pipeline(PipelineEvent::ReplyChunk {
                id,
                text: "more words ".into(),
            }),
        );
        terminal
            .draw(|f| {
                draw(f, &model, &keymap, &mut caches);
            })
            .unwrap();
    });
}

/// A session of `turns` turns in which 4 entities appear per turn (up to
/// `entities`), each cycling through the states, every turn stored.
fn big_session(turns: u32, entities: u32) -> SessionFile {
    let mut session = SessionFile::new(
        "20260113-100000-big0".into(),
        jiff::Timestamp::UNIX_EPOCH,
        LlmSettings::new("offline", None, ""),
        ContextPolicy::default(),
    );
    let per_turn = entities.div_ceil(turns).max(1);
    for t in 1..=turns {
        let mut e = EntitiesView::default();
        for n in 1..=(per_turn * t).min(entities) {
            let view = EntityView {
                r#ref: format!("{}_{n}", ["recipe", "inv", "shop", "meal"][n as usize % 4]),
                label: format!("entity number {n}"),
                entity_type: ["recipe", "inventory", "shopping_item", "meal_plan"][n as usize % 4]
                    .into(),
                action: "read".into(),
                last_ref_turn: t,
                turn_created: t,
                reason: None,
                pinned: false,
                cause: Cause::LinkedOnly,
                holds_ruled_out: Vec::new(),
            };
            match (n + t) % 5 {
                0 => e.recent.push(view),
                1 => e.retained.push(view),
                2 => e.pending.push(view),
                3 => e.excluded.push(view),
                _ => e.background.push(view.into()),
            }
        }
        let record = TurnRecord {
            turn: t,
            user: format!("message {t}"),
            reply: "ok".into(),
            entities: e,
            ..TurnRecord::default()
        };
        session.push_turn(record, None, jiff::Timestamp::UNIX_EPOCH);
        session.context.turn = t;
    }
    session
}

fn open_big() -> (Model, Keymap, Terminal<TestBackend>, Caches) {
    let mut model = Model::new(big_session(500, 2000), "offline", Theme::dark());
    model.chrome.size = (160, 50);
    model.chrome.focus = alfred::tui::model::Pane::Entities;
    let keymap = Keymap::default_keys();
    let terminal = Terminal::new(TestBackend::new(160, 50)).unwrap();
    (model, keymap, terminal, Caches::default())
}

/// Opening the timeline: the grid of 500 turns × 2,000 entities is built.
#[divan::bench(sample_count = 10)]
fn timeline_open_500x2000(bencher: Bencher) {
    let (model, ..) = open_big();
    bencher
        .with_inputs(|| {
            let mut m = Model::new(model.session.as_ref().clone(), "offline", Theme::dark());
            m.chrome.size = model.chrome.size;
            m
        })
        .bench_local_refs(alfred::tui::timeline::toggle);
}

/// A frame with the timeline open (only the visible cells are drawn).
#[divan::bench(sample_count = 50)]
fn timeline_frame_500x2000(bencher: Bencher) {
    let (mut model, keymap, mut terminal, mut caches) = open_big();
    alfred::tui::timeline::toggle(&mut model);
    assert!(model.overlay.is_some(), "the timeline is open");
    bencher.bench_local(|| {
        terminal
            .draw(|f| {
                draw(f, &model, &keymap, &mut caches);
            })
            .unwrap();
    });
}

/// A cursor move in the timeline (its why recomputed) and the next frame.
#[divan::bench(sample_count = 50)]
fn timeline_key_to_frame_500x2000(bencher: Bencher) {
    let (mut model, keymap, mut terminal, mut caches) = open_big();
    alfred::tui::timeline::toggle(&mut model);
    let mut left = true;
    bencher.bench_local(|| {
        let code = if left { KeyCode::Left } else { KeyCode::Right };
        left = !left;
        update(
            &mut model,
            &keymap,
            Event::Key(KeyEvent::new(code, KeyModifiers::NONE)),
        );
        terminal
            .draw(|f| {
                draw(f, &model, &keymap, &mut caches);
            })
            .unwrap();
    });
}
