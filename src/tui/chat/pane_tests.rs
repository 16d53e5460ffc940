use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use unicode_segmentation::UnicodeSegmentation;

use super::*;
use crate::tui::chat::wrap::grapheme_width;
use crate::tui::model::Role;
use crate::tui::view::test_support::buffer_rows;

fn message(role: Role, text: &str, turn: u32) -> ChatMessage {
    // Each test draws with a fresh cache, so one revision for all will do.
    ChatMessage {
        role,
        text: text.to_string(),
        turn,
        revision: 1,
    }
}

const FOLLOW: Scroll = Scroll {
    offset: 0,
    follow: true,
};

fn pane<'a>(messages: &'a [ChatMessage], theme: &'a Theme, scroll: Scroll) -> ChatPane<'a> {
    ChatPane {
        messages,
        scroll,
        focused: true,
        theme,
        streaming: false,
        retry_key: None,
    }
}

fn draw(pane: ChatPane<'_>, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    let mut cache = ChatLayoutCache::new();
    terminal
        .draw(|frame| render_chat(frame, frame.area(), pane, &mut cache))
        .expect("draw");
    terminal.backend().buffer().clone()
}

/// The screen as a terminal shows it, rows untrimmed.
fn screen(buf: &Buffer) -> String {
    buffer_rows(buf).join("\n")
}

fn recipe_chat() -> Vec<ChatMessage> {
    let reply = "## Focaccia\n\nYou need **bread flour** and:\n\n- water, *warm*\n- salt and a long, patient rise overnight\n\n```sh\noven --preheat 230 --fan off --steam\n```\n\nBake until golden.";
    vec![
        message(Role::User, "How do I make focaccia?", 1),
        message(Role::Alfred, reply, 1),
    ]
}

#[test]
fn a_markdown_reply_in_a_short_conversation() {
    let theme = Theme::dark();
    let messages = recipe_chat();
    let buf = draw(pane(&messages, &theme, FOLLOW), 60, 20);
    assert_snapshot!(screen(&buf));
}

#[test]
fn cjk_and_emoji_stay_aligned() {
    let theme = Theme::dark();
    let messages = [
        message(Role::User, "今天晚饭做什么菜？我有番茄和鸡蛋。", 1),
        message(
            Role::Alfred,
            "番茄炒蛋 🍅🥚 is perfect for the 👨‍👩‍👧 family ❤️ — 한국어도 돼요.\n\n- 鸡蛋 ×3\n- 番茄 ×2 🇮🇹",
            1,
        ),
    ];
    let buf = draw(pane(&messages, &theme, FOLLOW), 30, 16);
    let shown = screen(&buf);
    for row in shown.lines() {
        let cells: usize = row.graphemes(true).map(grapheme_width).sum();
        assert_eq!(cells, 30, "row is not 30 cells: {row:?}");
        assert!(
            row.ends_with('│') || row.ends_with('┐') || row.ends_with('┘') || row.ends_with('█'),
            "{row:?}"
        );
    }
    let squeezed: String = shown
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '│')
        .collect();
    for word in [
        "今天晚饭做什么菜？我有番茄和鸡蛋。",
        "番茄炒蛋🍅🥚",
        "👨‍👩‍👧",
        "❤️",
        "한국어도",
        "鸡蛋×3",
        "番茄×2🇮🇹",
    ] {
        assert!(squeezed.contains(word), "{word:?} was cut: {shown}");
    }
    assert_snapshot!(shown);
}

#[test]
fn a_failed_turn_shows_in_red_with_its_reason() {
    let theme = Theme::dark();
    let messages = [
        message(Role::User, "Plan dinner", 1),
        message(
            Role::Error,
            "The model did not answer within 60 s (timeout).",
            1,
        ),
    ];
    let failed = ChatPane {
        retry_key: Some("Ctrl+R"),
        ..pane(&messages, &theme, FOLLOW)
    };
    let buf = draw(failed, 40, 10);
    let shown = screen(&buf);
    assert_snapshot!(shown);
    let row = shown
        .lines()
        .position(|l| l.contains("The model"))
        .expect("reason shown");
    let x = shown
        .lines()
        .nth(row)
        .and_then(|l| l.find("The"))
        .expect("column");
    let y = u16::try_from(row).expect("row");
    let cell = &buf[(u16::try_from(x).expect("x"), y)];
    assert_eq!(cell.fg, Color::Red);
    assert!(shown.contains("press Ctrl+R to retry"));
}

fn long_chat() -> Vec<ChatMessage> {
    (1..=6)
        .flat_map(|t| {
            [
                message(Role::User, &format!("step {t}?"), t),
                message(Role::Alfred, &format!("Do **step {t}**."), t),
            ]
        })
        .collect()
}

#[test]
fn following_pins_the_bottom() {
    let theme = Theme::dark();
    let messages = long_chat();
    let shown = screen(&draw(pane(&messages, &theme, FOLLOW), 36, 12));
    assert!(shown.contains("Do step 6."));
    assert!(!shown.contains("more line"));
    assert_snapshot!(shown);
}

#[test]
fn scrolled_up_shows_how_many_lines_are_below() {
    let theme = Theme::dark();
    let messages = long_chat();
    let scroll = Scroll {
        offset: 3,
        follow: false,
    };
    let shown = screen(&draw(pane(&messages, &theme, scroll), 36, 12));
    assert!(shown.starts_with("┌ Chat"));
    assert!(
        shown.contains("Do step 1.") && !shown.contains("step 1?") && !shown.contains("step 6")
    );
    // 36 lines in all, 10 visible from line 3: 23 below.
    assert!(shown.contains("↓ 23 more lines"), "{shown}");
    assert_snapshot!(shown);
}

#[test]
fn an_offset_past_the_end_is_clamped() {
    let theme = Theme::dark();
    let messages = long_chat();
    let far = Scroll {
        offset: 10_000,
        follow: false,
    };
    let clamped = screen(&draw(pane(&messages, &theme, far), 36, 12));
    assert_eq!(
        clamped,
        screen(&draw(pane(&messages, &theme, FOLLOW), 36, 12))
    );
    let mut cache = ChatLayoutCache::new();
    cache.lines_for(&messages, 32, &theme, None);
    assert_eq!(max_offset(&cache, 10), 26);
    assert_eq!(first_visible_line(far, 36, 10), 26);
    assert_eq!(
        first_visible_line(
            Scroll {
                offset: 4,
                follow: false
            },
            36,
            10
        ),
        4
    );
}

#[test]
fn streaming_draws_a_cursor_after_the_last_message() {
    let theme = Theme::dark();
    let messages = [
        message(Role::User, "Salt?", 1),
        message(Role::Alfred, "Use **flaky** salt", 1),
    ];
    let streaming = ChatPane {
        streaming: true,
        ..pane(&messages, &theme, FOLLOW)
    };
    let shown = screen(&draw(streaming, 30, 9));
    assert!(shown.contains("Use flaky salt▌"), "{shown}");
    let idle = screen(&draw(pane(&messages, &theme, FOLLOW), 30, 9));
    assert!(!idle.contains('▌'));
    let waiting = ChatPane {
        streaming: true,
        ..pane(&messages[..1], &theme, FOLLOW)
    };
    let shown = screen(&draw(waiting, 30, 9));
    assert!(
        !shown.contains('▌'),
        "no cursor after the user's message: {shown}"
    );
}

#[test]
fn focus_colours_the_border() {
    let theme = Theme::dark();
    let messages = recipe_chat();
    let focused = draw(pane(&messages, &theme, FOLLOW), 40, 8);
    let blurred = draw(
        ChatPane {
            focused: false,
            ..pane(&messages, &theme, FOLLOW)
        },
        40,
        8,
    );
    assert_eq!(
        focused[(0, 0)].fg,
        theme.border_focused.fg.unwrap_or(Color::Reset)
    );
    assert_eq!(blurred[(0, 0)].fg, theme.border.fg.unwrap_or(Color::Reset));
}

#[test]
fn an_empty_chat_shows_a_hint() {
    let theme = Theme::dark();
    let shown = screen(&draw(pane(&[], &theme, FOLLOW), 60, 5));
    assert!(shown.contains("No messages yet"));
}
