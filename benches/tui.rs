//! The UI's cost with a long session open: a frame of a 1,000-turn session,
//! and a keystroke (plus a streamed chunk) to the next frame while a turn
//! streams. Frames are drawn into ratatui's `TestBackend` at 160×50.
//!
//! `cargo bench --bench tui`

use alfred::pipeline::{PipelineEvent, TurnId};
use alfred::session::sample::sample_session;
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
    model.size = (160, 50);
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
