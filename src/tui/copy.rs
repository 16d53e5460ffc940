//! Copy (`y`): what is selected, as text — the prompt in the inspector, the
//! selected cell's why in the timeline, the what-if comparison, the chat
//! message in view (or the search match), or the focused panel — handed to
//! the app loop as an effect that writes it to the clipboard with OSC 52.
//!
//! Pure: builds the text (panels through their own `lines`, so the copy
//! reads like the screen) and the escape sequence; the loop writes it.

use base64::Engine;
use ratatui::text::Line;

use super::effect::Effect;
use super::model::{Level, Model, Overlay, Pane, Role};
use super::state::inspector::InspectorState;

/// The width panels are laid out at for copying.
const COPY_WIDTH: usize = 100;

/// The OSC 52 sequence that asks the terminal to put `text` on the clipboard.
pub fn osc52(text: &str) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    format!("\x1b]52;c;{encoded}\x07")
}

/// Copies what is selected; says what was copied.
pub fn copy(m: &mut Model) -> Vec<Effect> {
    let top = super::scroll::chat_top_message(m);
    let (what, text) = selected(m, top);
    if text.trim().is_empty() {
        m.chrome.status = Some((Level::Info, "nothing to copy here".into()));
        return Vec::new();
    }
    let n = text.chars().count();
    let chars = if n == 1 { "character" } else { "characters" };
    m.chrome.status = Some((
        Level::Info,
        format!("copied {what} ({n} {chars}; OSC 52 — your terminal must allow clipboard writes)"),
    ));
    vec![Effect::CopyToClipboard(text)]
}

/// What `y` copies, named for the status line ("the Think prompt of turn
/// 3"), and its text. `top`: the message at the top of the chat's view.
fn selected(m: &Model, top: Option<usize>) -> (String, String) {
    match &m.overlay {
        Some(Overlay::Inspector(st)) => {
            let label = m
                .session
                .transcript
                .get(st.index)
                .and_then(|r| st.current(r).map(|(label, _)| (label, r.turn)));
            let what = match label {
                Some((label, turn)) => format!("the {label} prompt of turn {turn}"),
                None => "the prompt".into(),
            };
            (what, prompt_text(m, st))
        }
        Some(Overlay::Timeline(st)) => match st.selected() {
            Some((row, turn, state)) => {
                let word = state.map_or("absent", |s| s.as_str());
                (
                    format!("why {} is {word} at turn {turn}", row.r#ref),
                    format!("{} · turn {turn} · {word}\n{}", row.r#ref, st.why),
                )
            }
            None => (String::new(), String::new()),
        },
        Some(Overlay::WhatIf(st)) => {
            let panel = super::view::whatif::WhatIfPanel {
                state: st,
                current: &m.session.context.policy,
                scroll: 0,
                focused: false,
                theme: &m.chrome.theme,
            };
            (
                "the what-if comparison".into(),
                lines_text(&panel.lines(COPY_WIDTH)),
            )
        }
        Some(_) => (String::new(), String::new()),
        None => match m.chrome.focus {
            Pane::Input | Pane::Chat => chat_selection(m, top),
            Pane::Entities if m.panels.show_diff => {
                ("the turn diff".into(), panel_text(m, Pane::Entities))
            }
            pane => (format!("the {} panel", pane.title()), panel_text(m, pane)),
        },
    }
}

/// A panel's text, laid out as drawn.
fn panel_text(m: &Model, pane: Pane) -> String {
    lines_text(&super::view::panel_lines(m, pane, COPY_WIDTH))
}

/// The search match shown, else the message at the top of the view, else
/// (following the bottom) the last message: named by who wrote it and its
/// turn.
fn chat_selection(m: &Model, top: Option<usize>) -> (String, String) {
    let from_search = m
        .chat
        .search
        .as_ref()
        .and_then(|s| s.current.and_then(|i| s.matches.get(i)).copied());
    let index = from_search.or(if m.chat.scroll.follow {
        m.chat.messages.len().checked_sub(1)
    } else {
        top
    });
    let Some(c) = index.and_then(|i| m.chat.messages.get(i)) else {
        return (String::new(), String::new());
    };
    let who = match c.role {
        Role::User => "your message",
        Role::Alfred => "Alfred's reply",
        Role::Error => "the error",
        Role::Note => "the note",
    };
    let what = if c.turn > 0 {
        format!("{who} of turn {}", c.turn)
    } else {
        who.to_string()
    };
    (what, c.text.clone())
}

/// The inspector's selected prompt: system, sections, response.
fn prompt_text(m: &Model, st: &InspectorState) -> String {
    let Some(record) = m.session.transcript.get(st.index) else {
        return String::new();
    };
    let Some((label, p)) = st.current(record) else {
        return String::new();
    };
    let mut out = format!(
        "# {label} · turn {} · {} tokens\n\n## system ({} tokens)\n{}\n",
        record.turn, p.full.total_tokens, p.full.system_tokens, p.full.system
    );
    for s in &p.full.sections {
        out.push_str(&format!(
            "\n## <{}> ({} tokens)\n{}\n",
            s.name, s.tokens, s.text
        ));
    }
    if let Some(r) = &p.response {
        out.push_str(&format!(
            "\n## {}\n{r}\n",
            super::view::inspector::response_label(p)
        ));
    }
    for (i, c) in p.calls.iter().enumerate() {
        out.push_str(&format!(
            "\n## {}\n{}\n",
            super::view::inspector::call_label(i, c),
            c.detail()
        ));
    }
    out
}

/// Lines as plain text, trailing spaces trimmed.
fn lines_text(lines: &[Line<'_>]) -> String {
    let mut out = String::new();
    for line in lines {
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}
