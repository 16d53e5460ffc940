//! One frame: the layout, the chat and the message box, then the panels and
//! overlays on top. Reads the model; the only state it keeps is render-side
//! memo: the chat's layout cache and the key texts of the keymap.

use ratatui::Frame;

use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use super::chat::highlight::highlight;
use super::chat::{ChatLayoutCache, ChatPane, render_chat, render_input};
use super::commands::COMMANDS;
use super::keymap::Keymap;
use super::model::{Model, Overlay, Pane};
use super::state::search::ChatSearch;
use super::theme::Theme;
use super::view::{self, KeyHelp};

/// Render-side memo state, owned by the app loop.
#[derive(Default)]
pub struct Caches {
    pub chat: ChatLayoutCache,
    /// The key texts and the keymap they were built from.
    keys: Option<(Keymap, KeyHelp)>,
}

impl Caches {
    /// The key texts of `keymap`, built on the first frame and again only
    /// when the keymap changes, not every frame.
    fn key_help(&mut self, keymap: &Keymap) -> &KeyHelp {
        if self.keys.as_ref().is_some_and(|(k, _)| k != keymap) {
            self.keys = None;
        }
        &self
            .keys
            .get_or_insert_with(|| (keymap.clone(), key_help(keymap)))
            .1
    }
}

/// Draws a frame.
pub fn draw(frame: &mut Frame, model: &Model, keymap: &Keymap, caches: &mut Caches) {
    if model.overlay.as_ref().is_some_and(Overlay::is_full_screen) {
        // Nothing under a full-screen view shows: draw only the view.
        view::render_overlay(frame, model, caches.key_help(keymap));
        return;
    }
    let layout = view::layout(frame.area(), model);
    // Under the error, the key that retries from anywhere (the bar and the
    // footer name the one for where the focus is).
    let retry_key = match model.turn.state {
        super::model::TurnState::Failed { .. } => model.chrome.retry_key.as_deref(),
        _ => None,
    };
    if let Some(area) = layout.chat() {
        let pane = ChatPane {
            messages: &model.chat.messages,
            scroll: model.chat.scroll,
            focused: model.chrome.focus == Pane::Chat,
            theme: &model.chrome.theme,
            streaming: model.turn.is_running(),
            retry_key,
        };
        render_chat(frame, area, pane, &mut caches.chat);
        let text_area = super::chat::content_area(area);
        if let Some(search) = &model.chat.search {
            let mark = model.chrome.theme.accent.add_modifier(Modifier::REVERSED);
            highlight(frame.buffer_mut(), text_area, search.query.text(), mark);
            render_search_line(frame, area, search, &model.chrome.theme);
        } else if model.chat.input.is_empty()
            && !model.turn.is_running()
            && model.panels.inspect.is_none()
            && model.chat.scroll.follow
        {
            // Under the newest reply only: not while an earlier turn is
            // shown, nor over the "more lines" mark of a scrolled chat.
            let key = keymap.first_key(super::action::Action::Suggest);
            render_suggestions(
                frame,
                area,
                &model.chat.suggestions,
                key,
                &model.chrome.theme,
            );
        }
    }
    if let Some(area) = layout.input() {
        render_input(
            frame,
            area,
            &model.chat.input,
            model.chrome.focus == Pane::Input,
            model.turn.is_running(),
            &model.chrome.theme,
        );
    }
    view::render_panels_with(frame, &layout, model, caches.key_help(keymap));
}

/// The last reply's suggestions on the chat's bottom border, under the
/// reply: "Ctrl+S try: show me thai yellow curry · …". Cut to the width.
fn render_suggestions(
    frame: &mut Frame,
    area: Rect,
    suggestions: &[String],
    key: Option<String>,
    theme: &Theme,
) {
    if suggestions.is_empty() || area.height < 3 || area.width < 24 {
        return;
    }
    // The key first: a narrow pane cuts the end of the line.
    let lead = match key {
        Some(k) => format!(" {k} try: "),
        None => " try: ".to_string(),
    };
    let mut spans = vec![Span::styled(lead, theme.dim)];
    for (i, s) in suggestions.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" · ", theme.dim));
        }
        spans.push(Span::styled(s.clone(), theme.accent));
    }
    spans.push(Span::raw(" "));
    let room = area.width - 4;
    frame
        .buffer_mut()
        .set_line(area.x + 2, area.bottom() - 1, &Line::from(spans), room);
}

/// The search line on the chat's bottom border: "/ paneer▌ · 2 of 5".
fn render_search_line(frame: &mut Frame, area: Rect, search: &ChatSearch, theme: &Theme) {
    if area.height < 3 || area.width < 12 {
        return;
    }
    let cursor = if search.editing { "▌" } else { "" };
    let position = search.position();
    let mut spans = vec![
        Span::styled(" / ", theme.accent),
        Span::styled(format!("{}{cursor}", search.query.text()), theme.text),
    ];
    if !position.is_empty() {
        spans.push(Span::styled(format!(" · {position}"), theme.dim));
    }
    spans.push(Span::raw(" "));
    let room = area.width - 4;
    frame
        .buffer_mut()
        .set_line(area.x + 2, area.bottom() - 1, &Line::from(spans), room);
}

/// The hint line, the help's bindings and the slash commands.
pub fn key_help(keymap: &Keymap) -> KeyHelp {
    KeyHelp {
        commands: COMMANDS
            .iter()
            .map(|(c, d)| (c.to_string(), d.to_string()))
            .collect(),
        ..KeyHelp::of(keymap)
    }
}
