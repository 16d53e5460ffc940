//! Slash commands typed in the message box: `/new`, `/sessions`, `/rename`,
//! `/export`, `/pin`, `/unpin`, `/why`, `/clear`, `/help`.
//!
//! Pure like `update`: changes to the session's context happen here (a pin is
//! a curation decision, logged like Understand's); IO is returned as effects.

use crate::context::{EntityCuration, why};

use super::effect::Effect;
use super::model::{Level, Model, Overlay, Role};

/// Every command with its help line.
pub const COMMANDS: [(&str, &str); 9] = [
    ("/new", "start a new session"),
    ("/sessions", "switch to another saved session"),
    ("/rename NAME", "rename this session"),
    (
        "/export md|json",
        "write this session to the exports folder",
    ),
    (
        "/pin REF",
        "keep an entity in working memory (\"pinned by user\")",
    ),
    ("/unpin REF", "remove your pin"),
    (
        "/why REF",
        "explain why an entity is (or is not) in working memory",
    ),
    (
        "/clear",
        "start fresh: forget every entity (the transcript stays)",
    ),
    ("/help", "keys and commands"),
];

/// Runs a slash command line.
pub fn run(m: &mut Model, line: &str) -> Vec<Effect> {
    let mut parts = line.trim().splitn(2, char::is_whitespace);
    let name = parts.next().unwrap_or_default().to_lowercase();
    let arg = parts.next().unwrap_or_default().trim().to_string();
    let busy = m.turn.is_running();
    match name.as_str() {
        "/help" => m.overlay = Some(Overlay::Help { scroll: 0 }),
        "/new" if !busy => return vec![Effect::NewSession],
        "/sessions" if !busy => return vec![Effect::ListSessions],
        "/rename" if arg.is_empty() => usage(m, "/rename NAME"),
        "/rename" => {
            m.session_mut().set_title(&arg);
            m.chrome.header.title = m.session.title.clone();
            m.chrome.status = Some((Level::Info, format!("renamed to “{}”", m.session.title)));
            return vec![Effect::Save];
        }
        "/export" => match arg.to_lowercase().as_str() {
            "" | "md" | "markdown" => return vec![Effect::Export { markdown: true }],
            "json" => return vec![Effect::Export { markdown: false }],
            _ => usage(m, "/export md|json"),
        },
        "/pin" | "/unpin" if arg.is_empty() => usage(m, &format!("{name} REF")),
        "/pin" | "/unpin" if !busy => return pin(m, &name, &arg),
        "/why" if arg.is_empty() => usage(m, "/why REF"),
        "/why" => {
            let text = explain(m, &arg);
            let turn = m.session.context.turn;
            m.chat.push_message(Role::Note, text.clone(), turn);
            // Kept with the session, so it is there when it reopens.
            m.session_mut()
                .notes
                .push(crate::session::SessionNote { turn, text });
            return vec![Effect::Save];
        }
        "/clear" if !busy => {
            let c = EntityCuration {
                clear_all: true,
                curation_summary: Some("user started fresh (/clear)".into()),
                ..EntityCuration::default()
            };
            let n = m.session.context.registry.len();
            m.session_mut().context.apply_curation(&c);
            m.panels.set_snapshot(m.session.context.snapshot());
            // The panel lists every ref dropped at this turn: those let go
            // earlier in it too. Say so when the counts differ.
            let dropped = m.panels.snapshot.entities.dropped.len();
            let turn = m.panels.snapshot.turn;
            let mut text = format!(
                "started fresh: {} forgotten",
                crate::text::count(n, "entity", "entities")
            );
            if dropped > n {
                text.push_str(&format!(
                    " — the panel's {dropped} dropped at turn {turn} include {} let go \
                     earlier in that turn",
                    dropped - n
                ));
            }
            m.chrome.status = Some((Level::Info, text));
            return vec![Effect::Save];
        }
        "/new" | "/sessions" | "/pin" | "/unpin" | "/clear" => {
            m.chrome.status = Some((
                Level::Warn,
                format!("{name} waits until the turn finishes (Esc cancels it)"),
            ));
        }
        _ => {
            m.chrome.status = Some((
                Level::Warn,
                format!("unknown command {name} — /help lists them"),
            ));
        }
    }
    Vec::new()
}

fn usage(m: &mut Model, form: &str) {
    m.chrome.status = Some((Level::Warn, format!("usage: {form}")));
}

fn pin(m: &mut Model, name: &str, r: &str) -> Vec<Effect> {
    let context = &mut m.session_mut().context;
    let ok = if name == "/pin" {
        context.pin(r)
    } else {
        context.unpin(r)
    };
    if !ok {
        let why = if m.session.context.registry.is_live_ref(r) {
            format!("{r} is not pinned")
        } else {
            format!("no entity {r} in this session — the Entities panel lists the refs")
        };
        m.chrome.status = Some((Level::Warn, why));
        return Vec::new();
    }
    m.panels.set_snapshot(m.session.context.snapshot());
    let verb = if name == "/pin" { "pinned" } else { "unpinned" };
    m.chrome.status = Some((Level::Info, format!("{verb} {r}")));
    vec![Effect::Save]
}

/// `why` over the session's stored snapshots, plus the live one.
fn explain(m: &Model, r: &str) -> String {
    let mut history: Vec<_> = m
        .session
        .transcript
        .iter()
        .filter(|t| t.error.is_none())
        .map(|t| t.snapshot())
        .collect();
    let live = m.session.context.snapshot();
    let turn = live.turn;
    history.retain(|s| s.turn != turn);
    history.push(live);
    // A ref an import could not keep is never registered later (its kind
    // has no table here), so the import's word on it stands.
    if let Some(reason) = m.session.context.import_skipped.get(r) {
        return format!(
            "{r} was skipped at import: Alfred's registry names it, and it {reason}. \
             Alfred's own prompts still show it; alfred's do not."
        );
    }
    why(&history, r, turn)
}
