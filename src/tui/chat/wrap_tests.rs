use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};

use super::*;
use crate::tui::view::test_support::text_of;

fn texts(lines: &[Line<'_>]) -> Vec<String> {
    lines.iter().map(text_of).collect()
}

fn plain(text: &str, width: usize) -> Vec<String> {
    texts(&wrap_spans(&[Span::raw(text)], width))
}

fn assert_fits(lines: &[Line<'_>], width: usize) {
    for line in lines {
        let w = display_width(&text_of(line));
        assert!(
            w <= width,
            "line {:?} is {w} cells, over {width}",
            text_of(line)
        );
    }
}

#[test]
fn words_wrap_at_spaces_and_trailing_spaces_go() {
    assert_eq!(
        plain("the quick brown fox jumps", 10),
        ["the quick", "brown fox", "jumps"]
    );
    assert_eq!(plain("ab  cd", 3), ["ab", "cd"]);
}

#[test]
fn leading_spaces_of_the_first_line_stay() {
    assert_eq!(plain("  indented text", 20), ["  indented text"]);
}

#[test]
fn a_word_longer_than_the_width_breaks() {
    assert_eq!(plain("ab abcdefghij", 4), ["ab", "abcd", "efgh", "ij"]);
}

#[test]
fn a_ten_thousand_char_word_breaks_into_full_lines() {
    let word = "x".repeat(10_000);
    let lines = wrap_spans(&[Span::raw(word.as_str())], 80);
    assert_eq!(lines.len(), 125);
    assert_fits(&lines, 80);
    assert_eq!(texts(&lines).concat(), word);
}

#[test]
fn cjk_breaks_between_characters() {
    assert_eq!(plain("中文字符测试", 5), ["中文", "字符", "测试"]);
    assert_eq!(plain("你好 world 世界", 8), ["你好", "world 世", "界"]);
}

#[test]
fn emoji_count_their_real_width() {
    assert_eq!(display_width("👨‍👩‍👧"), 2, "ZWJ family is one wide cluster");
    assert_eq!(display_width("❤️"), 2, "VS16 makes a text heart an emoji");
    assert_eq!(display_width("🇫🇷"), 2, "a flag is one cluster");
    assert_eq!(display_width("a😀b"), 4);
    let lines = wrap_spans(&[Span::raw("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧")], 5);
    assert_eq!(texts(&lines), ["👨‍👩‍👧👨‍👩‍👧", "👨‍👩‍👧"]);
}

#[test]
fn nfd_korean_is_one_cluster_per_syllable() {
    // 한국 decomposed into conjoining jamo (L V T, L V T).
    let nfd = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}";
    assert_eq!(display_width(nfd), 4);
    let lines = wrap_spans(&[Span::raw(nfd)], 3);
    assert_eq!(
        texts(&lines),
        ["\u{1112}\u{1161}\u{11AB}", "\u{1100}\u{116E}\u{11A8}"]
    );
}

#[test]
fn width_one_fits_everything_in_one_cell() {
    let lines = wrap_spans(&[Span::raw("ab 中😀")], 1);
    assert_fits(&lines, 1);
    assert_eq!(texts(&lines), ["a", "b", "…", "…"]);
}

#[test]
fn width_zero_and_empty_input_give_one_empty_line() {
    assert_eq!(plain("some text", 0), [""]);
    assert_eq!(plain("", 10), [""]);
    assert_eq!(texts(&wrap_spans(&[], 10)), [""]);
}

#[test]
fn styles_carry_over_the_break() {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let spans = [
        Span::raw("see "),
        Span::styled("very bold words", bold),
        Span::raw(" end"),
    ];
    let lines = wrap_spans(&spans, 9);
    assert_eq!(texts(&lines), ["see very", "bold", "words end"]);
    assert_eq!(lines[0].spans[1], Span::styled("very", bold));
    assert_eq!(lines[1].spans, [Span::styled("bold", bold)]);
    assert_eq!(
        lines[2].spans,
        [Span::styled("words", bold), Span::raw(" end")]
    );
}

#[test]
fn control_characters_are_dropped_and_tabs_become_spaces() {
    assert_eq!(plain("a\u{7}b\tc", 10), ["ab c"]);
}

#[test]
fn wrap_text_keeps_line_breaks() {
    let lines = wrap_text("one two\r\n\nthree\tfour", Style::new(), 7);
    assert_eq!(texts(&lines), ["one two", "", "three", "four"]);
}

#[test]
fn truncate_cuts_with_an_ellipsis() {
    let spans = [Span::raw("let x = "), "compute();".blue()];
    assert_eq!(text_of(&truncate_spans(&spans, 12)), "let x = com…");
    assert_eq!(text_of(&truncate_spans(&spans, 18)), "let x = compute();");
    let cut = truncate_spans(&[Span::raw("中文中文")], 6);
    assert_eq!(text_of(&cut), "中文…");
    assert_eq!(text_of(&truncate_spans(&spans, 0)), "");
}

#[test]
fn korean_wraps_by_word() {
    assert_eq!(plain("가나다 라마바", 9), ["가나다", "라마바"]);
    assert_eq!(plain("中文字 符测试", 9), ["中文字 符", "测试"]);
}

#[test]
fn cjk_punctuation_keeps_to_its_neighbours() {
    assert_eq!(plain("你好。世界", 4), ["你", "好。", "世界"]);
    assert_eq!(plain("「中文」", 4), ["「中", "文」"]);
    assert_eq!(plain("中文.", 4), ["中", "文."]);
}
