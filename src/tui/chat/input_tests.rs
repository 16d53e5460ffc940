use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;

use super::*;
use crate::tui::view::test_support::buffer_rows;

fn draw(input: &TextArea<'_>, focused: bool, running: bool, width: u16, height: u16) -> Buffer {
    let theme = Theme::dark();
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|frame| render_input(frame, frame.area(), input, focused, running, &theme))
        .expect("draw");
    terminal.backend().buffer().clone()
}

fn with_placeholder(text: &str) -> TextArea<'static> {
    let mut input = TextArea::from(text.split('\n').map(str::to_string).collect::<Vec<_>>());
    input.set_placeholder_text("Ask Alfred…");
    input
}

#[test]
fn an_empty_box_shows_the_placeholder() {
    let buf = draw(&with_placeholder(""), true, false, 40, 3);
    assert_eq!(
        buffer_rows(&buf)[0],
        "┌ Message ─────────────────────────────┐"
    );
    assert!(buffer_rows(&buf)[1].contains("Ask Alfred…"));
}

#[test]
fn a_running_turn_is_announced_in_the_title() {
    let buf = draw(&with_placeholder("more salt?"), true, true, 60, 3);
    assert!(
        buffer_rows(&buf)[0].starts_with("┌ Message · Alfred is working — Esc cancels ─"),
        "{:?}",
        buffer_rows(&buf)[0]
    );
}

#[test]
fn long_text_gets_a_size_readout() {
    let long = format!(
        "{}\n{}\n{}",
        "a".repeat(400),
        "b".repeat(400),
        "c".repeat(400)
    );
    let shown = buffer_rows(&draw(&with_placeholder(&long), true, false, 40, 4));
    assert!(
        shown[3].ends_with(" 3 lines · 1.2k chars ┘"),
        "{:?}",
        shown[3]
    );
    let short = buffer_rows(&draw(&with_placeholder("two\nlines"), true, false, 40, 4));
    assert!(!short[3].contains("chars"));
    assert_snapshot!(shown.join("\n"));
}

#[test]
fn counts_are_abbreviated() {
    assert_eq!(format_count(999), "999");
    assert_eq!(format_count(1_234), "1.2k");
    assert_eq!(format_count(999_949), "999.9k");
    assert_eq!(format_count(1_048_576), "1.0M");
}

#[test]
fn the_readout_counts_characters_not_bytes() {
    let inner = Rect::new(0, 0, 10, 1);
    assert_eq!(
        size_readout(&["ééééé".to_string()], inner),
        None,
        "10 bytes, 5 chars: fits"
    );
    assert_eq!(
        size_readout(&["é".repeat(11)], inner).as_deref(),
        Some("1 line · 11 chars")
    );
}

#[test]
fn only_the_focused_box_shows_a_cursor() {
    let input = with_placeholder("hi");
    let reversed = |buf: &Buffer| {
        buf.content
            .iter()
            .any(|c| c.modifier.contains(Modifier::REVERSED))
    };
    assert!(reversed(&draw(&input, true, false, 20, 3)));
    assert!(!reversed(&draw(&input, false, false, 20, 3)));
}

#[test]
fn a_megabyte_paste_renders_its_visible_rows() {
    let line = "flour water salt yeast olive oil rosemary ".repeat(2);
    let text = vec![line.clone(); 1_000_000 / line.len()].join("\n");
    let mut input = with_placeholder(&text);
    input.move_cursor(ratatui_textarea::CursorMove::Bottom);
    let shown = buffer_rows(&draw(&input, true, false, 60, 6));
    assert!(shown[4].starts_with("│flour water"), "{:?}", shown[4]);
    assert!(shown[5].contains("lines · 1.0M chars"), "{:?}", shown[5]);
}

#[test]
fn a_megabyte_single_line_shows_the_end_with_the_cursor() {
    let text = format!("{}THE END", "salt ".repeat(200_000));
    let mut input = with_placeholder(&text);
    input.move_cursor(ratatui_textarea::CursorMove::End);
    let buf = draw(&input, true, false, 30, 3);
    assert_eq!(buffer_rows(&buf)[1], "│salt salt salt salt THE END │");
    let cursor = &buf[(28, 1)];
    assert!(
        cursor.modifier.contains(Modifier::REVERSED),
        "cursor after the text"
    );
    assert!(buffer_rows(&buf)[2].contains("1 line · 1.0M chars"));
    let blurred = draw(&input, false, false, 30, 3);
    assert!(
        !blurred
            .content
            .iter()
            .any(|c| c.modifier.contains(Modifier::REVERSED))
    );
}
