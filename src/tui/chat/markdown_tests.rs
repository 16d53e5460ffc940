use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::*;
use crate::tui::chat::wrap::display_width;
use crate::tui::view::test_support::text_of;

fn theme() -> Theme {
    Theme::dark()
}

fn render(text: &str, width: u16) -> Vec<String> {
    let lines = render_markdown(text, width, &theme());
    for line in &lines {
        let w = display_width(&text_of(line));
        assert!(
            w <= usize::from(width),
            "{:?} is {w} cells, over {width}",
            text_of(line)
        );
    }
    lines.iter().map(text_of).collect()
}

/// The span whose text is exactly `content`, anywhere in the output.
fn span<'a>(lines: &'a [Line<'static>], content: &str) -> &'a Span<'static> {
    lines
        .iter()
        .flat_map(|l| &l.spans)
        .find(|s| s.content == content)
        .unwrap_or_else(|| panic!("no span {content:?} in {lines:?}"))
}

#[test]
fn paragraphs_wrap_and_are_separated_by_a_blank_line() {
    let out = render("Knead the dough for ten minutes.\n\nThen rest it.", 16);
    assert_eq!(
        out,
        ["Knead the dough", "for ten minutes.", "", "Then rest it."]
    );
}

#[test]
fn a_line_break_in_a_paragraph_is_kept_as_chats_keep_it() {
    assert_eq!(render("one\ntwo", 20), ["one", "two"]);
    assert_eq!(
        render("**Paneer Stir Fry** · 22 min\nA fast weeknight dinner.", 40),
        ["Paneer Stir Fry · 22 min", "A fast weeknight dinner."]
    );
}

#[test]
fn bold_and_italic_are_styled_without_markers() {
    let lines = render_markdown("Use **bread flour** and *warm* water.", 60, &theme());
    assert_eq!(text_of(&lines[0]), "Use bread flour and warm water.");
    assert!(
        span(&lines, "bread flour")
            .style
            .add_modifier
            .contains(Modifier::BOLD)
    );
    assert!(
        span(&lines, "warm")
            .style
            .add_modifier
            .contains(Modifier::ITALIC)
    );
    assert!(
        !span(&lines, "Use ")
            .style
            .add_modifier
            .contains(Modifier::BOLD)
    );
}

#[test]
fn inline_code_uses_the_code_style() {
    let lines = render_markdown("Set `oven = 220` now.", 60, &theme());
    assert_eq!(text_of(&lines[0]), "Set oven = 220 now.");
    assert_eq!(span(&lines, "oven = 220").style.fg, theme().code.fg);
}

#[test]
fn fenced_code_is_indented_cut_and_fenceless() {
    let md = "Try:\n\n```rust\nlet short = 1;\nlet a_very_long_line = compute(everything);\n```\n\nDone.";
    let lines = render_markdown(md, 24, &theme());
    let out: Vec<String> = lines.iter().map(text_of).collect();
    assert_eq!(
        out,
        [
            "Try:",
            "",
            "  let short = 1;",
            "  let a_very_long_line …",
            "",
            "Done."
        ]
    );
    assert_eq!(span(&lines, "let short = 1;").style.fg, theme().code.fg);
}

#[test]
fn headings_lose_their_hashes() {
    let lines = render_markdown("# Focaccia\n\n## Steps\n\ntext", 40, &theme());
    let out: Vec<String> = lines.iter().map(text_of).collect();
    assert_eq!(out, ["Focaccia", "", "Steps", "", "text"]);
    assert_eq!(span(&lines, "Steps").style.fg, theme().heading.fg);
    assert!(
        span(&lines, "Steps")
            .style
            .add_modifier
            .contains(Modifier::BOLD)
    );
}

#[test]
fn bullet_items_hang_their_continuation_lines() {
    let out = render("- flour water salt and yeast\n- olive oil", 16);
    assert_eq!(out, ["• flour water", "  salt and yeast", "• olive oil"]);
}

#[test]
fn numbered_items_count_from_the_start_and_align() {
    assert_eq!(
        render("3. mix\n4. knead the dough", 14),
        ["3. mix", "4. knead the", "   dough"]
    );
    let ten: String = (1..=10).map(|n| format!("{n}. step\n")).collect();
    let out = render(&ten, 20);
    assert_eq!(out[9], "10. step");
}

#[test]
fn nested_lists_are_indented() {
    let out = render("- dough\n  - flour and water\n  - salt\n- bake", 14);
    assert_eq!(
        out,
        [
            "• dough",
            "  ◦ flour and",
            "    water",
            "  ◦ salt",
            "• bake"
        ]
    );
}

#[test]
fn loose_lists_keep_a_blank_between_items() {
    assert_eq!(render("- one\n\n- two", 20), ["• one", "", "• two"]);
}

#[test]
fn block_quotes_bar_every_line() {
    let out = render("> keep the oven door shut\n>\n> really", 14);
    assert_eq!(
        out,
        ["│ keep the", "│ oven door", "│ shut", "│", "│ really"]
    );
}

#[test]
fn rules_span_the_width() {
    let out = render("above\n\n---\n\nbelow", 10);
    assert_eq!(out, ["above", "", "──────────", "", "below"]);
}

#[test]
fn links_show_their_text_and_a_dimmed_address() {
    let lines = render_markdown(
        "See [the recipe](https://x.io/r) or <https://y.io>.",
        60,
        &theme(),
    );
    assert_eq!(
        text_of(&lines[0]),
        "See the recipe (https://x.io/r) or https://y.io."
    );
    assert_eq!(span(&lines, " (https://x.io/r)").style, theme().dim);
}

#[test]
fn simple_tables_render_cells_in_rows() {
    let out = render("| item | qty |\n|---|---|\n| flour | 500 g |", 30);
    assert_eq!(out, ["item │ qty", "flour │ 500 g"]);
}

#[test]
fn an_unclosed_fence_is_code_to_the_end() {
    let lines = render_markdown("Here:\n\n```python\nprint('hi')\nx = 1", 30, &theme());
    let out: Vec<String> = lines.iter().map(text_of).collect();
    assert_eq!(out, ["Here:", "", "  print('hi')", "  x = 1"]);
    assert_eq!(span(&lines, "x = 1").style.fg, theme().code.fg);
}

#[test]
fn a_fence_being_typed_is_held_back() {
    assert_eq!(render("Here:\n``", 30), ["Here:"]);
    assert_eq!(render("```\ncode\n``", 30), ["  code"]);
    assert_eq!(render("```\ncode\n```", 30), ["  code"]);
}

#[test]
fn every_prefix_of_a_streamed_reply_renders_without_raw_fences() {
    let reply =
        "## Plan\n\n1. **Mix** the *flour*\n2. Rest\n\n```sh\nbake --at 220\n```\n\n> done `now`\n";
    let cuts = reply.char_indices().map(|(i, _)| i).chain([reply.len()]);
    for cut in cuts {
        for line in render(&reply[..cut], 30) {
            assert!(!line.contains("``"), "raw fence at {cut}: {line:?}");
            assert!(!line.starts_with('#'), "raw heading at {cut}: {line:?}");
        }
    }
}

#[test]
fn unclosed_strong_shows_its_text_and_closes_to_bold() {
    let open = render("Use **bread", 30);
    assert!(open[0].contains("bread"));
    let closed = render_markdown("Use **bread**", 30, &theme());
    assert!(
        span(&closed, "bread")
            .style
            .add_modifier
            .contains(Modifier::BOLD)
    );
}

#[test]
fn empty_text_and_tiny_widths_do_not_panic() {
    assert!(render("", 20).is_empty());
    for width in 0..4 {
        render_markdown(
            "- **a** list `x`\n\n```\ncode\n```\n> q\n\n---",
            width,
            &theme(),
        );
    }
}

#[test]
fn a_broken_line_in_a_list_item_keeps_the_item_s_indent() {
    let out = render(
        "- Paneer Stir Fry · 22 min\n  A fast weeknight dinner.\n- Dal",
        40,
    );
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[1].starts_with("  A fast"), "{out:?}");
}
