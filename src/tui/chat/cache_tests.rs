use ratatui::style::Color;

use super::*;
use crate::tui::view::test_support::text_of;

fn message(role: Role, text: &str, turn: u32, revision: u64) -> ChatMessage {
    ChatMessage {
        role,
        text: text.to_string(),
        turn,
        revision,
    }
}

/// A conversation of `turns` exchanges with distinct revisions.
fn conversation(turns: u32) -> Vec<ChatMessage> {
    (1..=turns)
        .flat_map(|t| {
            let revision = u64::from(t) * 2;
            [
                message(Role::User, &format!("question {t}"), t, revision),
                message(
                    Role::Alfred,
                    &format!("Answer {t}:\n\n- **one**\n- two"),
                    t,
                    revision + 1,
                ),
            ]
        })
        .collect()
}

/// Every line of the transcript, laid out from scratch.
fn all_lines(messages: &[ChatMessage], width: u16) -> Vec<String> {
    let mut cache = ChatLayoutCache::new();
    let cache = cache.lines_for(messages, width, &Theme::dark(), None);
    cache.visible(0, usize::MAX).map(text_of).collect()
}

#[test]
fn only_changed_messages_are_laid_out_again() {
    let theme = Theme::dark();
    let mut messages = conversation(5);
    let mut cache = ChatLayoutCache::new();
    cache.lines_for(&messages, 40, &theme, None);
    assert_eq!(cache.recomputed(), 10);
    cache.lines_for(&messages, 40, &theme, None);
    assert_eq!(cache.recomputed(), 10, "nothing changed, nothing laid out");
    let last = messages.len() - 1;
    messages[last].text.push_str("\n- three, streamed");
    messages[last].revision = 100;
    let total = cache.lines_for(&messages, 40, &theme, None).total_lines();
    assert_eq!(cache.recomputed(), 11, "only the streaming message");
    assert_eq!(
        total,
        all_lines(&messages, 40).len(),
        "prefix sums follow the growth"
    );
}

#[test]
fn a_width_or_theme_change_lays_out_everything() {
    let messages = conversation(3);
    let mut cache = ChatLayoutCache::new();
    cache.lines_for(&messages, 40, &Theme::dark(), None);
    cache.lines_for(&messages, 30, &Theme::dark(), None);
    assert_eq!(cache.recomputed(), 12);
    assert_eq!(cache.width(), 30);
    cache.lines_for(&messages, 30, &Theme::light(), None);
    assert_eq!(cache.recomputed(), 18);
}

#[test]
fn the_visible_slice_matches_the_full_transcript() {
    let messages = conversation(20);
    let full = all_lines(&messages, 30);
    let mut cache = ChatLayoutCache::new();
    let cache = cache.lines_for(&messages, 30, &Theme::dark(), None);
    assert_eq!(cache.total_lines(), full.len());
    let middle = full.len() / 2 + 1;
    for (offset, height) in [
        (0, 10),
        (middle, 10),
        (full.len() - 10, 10),
        (full.len() - 3, 10),
    ] {
        let seen: Vec<String> = cache.visible(offset, height).map(text_of).collect();
        let end = (offset + height).min(full.len());
        assert_eq!(seen, full[offset..end], "offset {offset}");
    }
    assert_eq!(cache.visible(full.len(), 5).count(), 0);
}

#[test]
fn each_message_has_a_header_and_a_blank_after() {
    let messages = [
        message(Role::User, "hello", 1, 2),
        message(Role::Note, "saved", 0, 3),
    ];
    assert_eq!(
        all_lines(&messages, 30),
        ["you · turn 1", "hello", "", "note", "saved", ""]
    );
}

#[test]
fn a_failed_turn_shows_the_reason_in_red_and_the_hint_while_last() {
    let theme = Theme::dark();
    let mut messages = vec![message(Role::Error, "the model timed out", 2, 5)];
    let mut cache = ChatLayoutCache::new();
    let lines: Vec<Line<'static>> = cache
        .lines_for(&messages, 40, &theme, Some("Ctrl+R"))
        .visible(0, 10)
        .cloned()
        .collect();
    let texts: Vec<String> = lines.iter().map(text_of).collect();
    assert_eq!(
        texts,
        [
            "error · turn 2",
            "the model timed out",
            "press Ctrl+R to retry",
            ""
        ]
    );
    let texts: Vec<String> = cache
        .lines_for(&messages, 40, &theme, None)
        .visible(0, 10)
        .map(text_of)
        .collect();
    assert_eq!(
        texts,
        ["error · turn 2", "the model timed out", ""],
        "no hint when there is nothing to retry"
    );
    assert_eq!(lines[1].spans[0].style.fg, Some(Color::Red));
    messages.push(message(Role::User, "try again", 3, 6));
    let texts: Vec<String> = cache
        .lines_for(&messages, 40, &theme, Some("Ctrl+R"))
        .visible(0, 3)
        .map(text_of)
        .collect();
    assert_eq!(
        texts,
        ["error · turn 2", "the model timed out", ""],
        "the hint goes once a turn follows"
    );
}

#[test]
fn replaced_and_removed_messages_are_noticed() {
    let theme = Theme::dark();
    let mut cache = ChatLayoutCache::new();
    cache.lines_for(&conversation(4), 40, &theme, None);
    let other = vec![message(Role::Note, "a different session", 0, 2)];
    let total = cache.lines_for(&other, 40, &theme, None).total_lines();
    assert_eq!(total, 3);
    assert_eq!(
        cache.visible(0, 3).map(text_of).collect::<Vec<_>>(),
        ["note", "a different session", ""]
    );
}

#[test]
fn the_end_of_the_last_message_is_found_for_the_cursor() {
    let messages = [
        message(Role::User, "hi", 1, 2),
        message(Role::Alfred, "", 1, 3),
    ];
    let mut cache = ChatLayoutCache::new();
    let cache = cache.lines_for(&messages, 40, &Theme::dark(), None);
    assert_eq!(
        cache.end_of_last_message(),
        Some((4, 0)),
        "an empty reply still has a line"
    );
    let messages = [message(Role::Alfred, "Mix well", 1, 4)];
    let mut cache = ChatLayoutCache::new();
    assert_eq!(
        cache
            .lines_for(&messages, 40, &Theme::dark(), None)
            .end_of_last_message(),
        Some((1, 8))
    );
}

#[test]
fn an_empty_chat_has_no_lines() {
    let mut cache = ChatLayoutCache::new();
    let cache = cache.lines_for(&[], 40, &Theme::dark(), None);
    assert_eq!(cache.total_lines(), 0);
    assert_eq!(cache.visible(0, 10).count(), 0);
    assert_eq!(cache.end_of_last_message(), None);
}
