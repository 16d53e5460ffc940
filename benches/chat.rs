//! Chat pane benchmarks: what a long chat costs to lay out once, and what one
//! streamed chunk (or keystroke) costs per frame once the layout is cached.
//!
//! The chat is `n / 2` user questions and `n / 2` markdown replies of about
//! 600 characters (a heading, bold, a list, a code span). The per-frame
//! figure must not grow with the number of messages. Run with
//! `cargo bench --bench chat`.

use alfred::tui::chat::{ChatLayoutCache, ChatPane, render_chat, render_input};
use alfred::tui::model::{ChatMessage, Role, Scroll};
use alfred::tui::theme::Theme;
use divan::Bencher;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui_textarea::{CursorMove, TextArea};

fn main() {
    divan::main();
}

/// A reply of about 600 characters with the markdown Alfred writes.
fn reply(i: usize) -> String {
    format!(
        "For batch {i}, **start the dough early**: the long rise is what gives focaccia its open \
         crumb, and a cold fridge proof overnight deepens the flavour.\n\n\
         - Mix **500 g bread flour** with 400 g *lukewarm* water and let it rest 30 minutes.\n\
         - Add 10 g salt and 4 g yeast, then fold four times, 30 minutes apart.\n\
         - Oil the tray generously; dimple the dough with `wet fingers` before baking.\n\n\
         Bake at **230 °C** for about 22 minutes, until deeply golden. Rosemary and flaky salt \
         go on just before it enters the oven, so they toast rather than burn."
    )
}

/// A chat of `n` messages, alternating user and Alfred.
fn chat(n: usize) -> Vec<ChatMessage> {
    (0..n)
        .map(|i| {
            let turn = u32::try_from(i / 2 + 1).unwrap_or(u32::MAX);
            let (role, text) = if i.is_multiple_of(2) {
                (
                    Role::User,
                    format!("How should I plan bake number {i} for Saturday's lunch?"),
                )
            } else {
                (Role::Alfred, reply(i))
            };
            ChatMessage {
                role,
                text,
                turn,
                revision: i as u64 + 1,
            }
        })
        .collect()
}

/// (a) Laying out 1,000 messages at width 80 from an empty cache.
#[divan::bench(sample_count = 20)]
fn full_layout_1000_messages(bencher: Bencher) {
    let messages = chat(1000);
    let theme = Theme::dark();
    bencher.bench_local(|| {
        let mut cache = ChatLayoutCache::new();
        divan::black_box(cache.lines_for(&messages, 80, &theme, None).total_lines())
    });
}

/// (b) One streamed chunk into the last message, then a 120×40 frame with
/// the layout cache warm: the per-chunk / per-keystroke cost.
#[divan::bench(args = [100, 1000])]
fn chunk_then_frame(bencher: Bencher, n: usize) {
    let mut messages = chat(n);
    let theme = Theme::dark();
    let mut cache = ChatLayoutCache::new();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("test terminal");
    let last = messages.len() - 1;
    let base = messages[last].text.len();
    let mut revision = n as u64 + 1;
    let scroll = Scroll {
        offset: 0,
        follow: true,
    };
    let mut frame = |messages: &[ChatMessage], cache: &mut ChatLayoutCache| {
        let pane = ChatPane {
            messages,
            scroll,
            focused: true,
            theme: &theme,
            streaming: true,
            retry_key: None,
        };
        terminal
            .draw(|f| render_chat(f, f.area(), pane, cache))
            .map(|_| ())
            .expect("draw");
    };
    frame(&messages, &mut cache); // warm the cache
    bencher.bench_local(|| {
        let message = &mut messages[last];
        message.text.truncate(base);
        message.text.push_str(if revision.is_multiple_of(2) {
            " And a"
        } else {
            " And a chunk"
        });
        revision += 1;
        message.revision = revision;
        frame(&messages, &mut cache);
    });
}

/// The input box holding a 1 MB paste: `lines` = many 84-char lines, `one
/// line` = a single 1 MB line (the worst case for the text area).
#[divan::bench(args = ["lines", "one line"], sample_count = 20)]
fn input_frame_1mb_paste(bencher: Bencher, shape: &str) {
    let unit = "flour water salt yeast olive oil rosemary ";
    let text = if shape == "lines" {
        vec![unit.repeat(2); 1_000_000 / (unit.len() * 2)].join("\n")
    } else {
        unit.repeat(1_000_000 / unit.len())
    };
    let mut input = TextArea::from(text.split('\n').map(str::to_string).collect::<Vec<_>>());
    input.move_cursor(CursorMove::Bottom);
    input.move_cursor(CursorMove::End);
    let theme = Theme::dark();
    let mut terminal = Terminal::new(TestBackend::new(120, 8)).expect("test terminal");
    bencher.bench_local(|| {
        terminal
            .draw(|f| render_input(f, f.area(), &input, true, false, &theme))
            .map(|_| ())
            .expect("draw");
    });
}
