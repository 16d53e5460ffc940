//! Reply to a look back through the conversation ("what did I say I didn't
//! want?", "what was that recipe from Monday?"): what `search_history`
//! found — the constraints the user stated, or the turns that match, with
//! the entities they touched, now back in working memory.

use serde_json::Value;

use super::reply::ReplyCtx;
use super::text::join_list;

/// The hits of this turn's history searches.
fn hits<'a>(c: &ReplyCtx<'a>) -> Vec<&'a Value> {
    c.req
        .data
        .iter()
        .filter_map(|d| d.content.as_array())
        .flatten()
        .filter(|h| h.get("kind").is_some())
        .collect()
}

fn labels(list: Option<&Value>) -> Vec<String> {
    list.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|e| e.get("label").and_then(Value::as_str))
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// The reply.
pub(super) fn history_reply(c: &ReplyCtx<'_>) -> String {
    let hits = hits(c);
    if hits.is_empty() {
        return "I couldn't find that in our conversation — can you tell me a bit more about it?"
            .to_string();
    }
    let text = |h: &Value, k: &str| {
        h.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let mut lines = Vec::new();
    let ruled = hits.iter().any(|h| h["kind"] == "constraint");
    for h in &hits {
        if h["kind"] == "constraint" {
            let covers = labels(h.get("covers"));
            let lifted = if h["status"] == "lifted" {
                " — since lifted"
            } else {
                ""
            };
            let what = if covers.is_empty() {
                String::new()
            } else {
                format!(" → {}", join_list(&covers, "and"))
            };
            lines.push(format!(
                "- {} — “{}” (turn {}){what}{lifted}",
                text(h, "label"),
                text(h, "clause"),
                h["turn"]
            ));
        } else {
            let found = labels(h.get("entities"));
            let what = if found.is_empty() {
                String::new()
            } else {
                format!(" — {}", join_list(&found, "and"))
            };
            lines.push(format!(
                "- Turn {} ({}): you said “{}”{what}",
                h["turn"],
                text(h, "date"),
                text(h, "user")
            ));
        }
    }
    let (lead, tail) = if ruled {
        (
            "Here's what you ruled out:",
            "Say “actually … is fine” to lift any of them.",
        )
    } else {
        (
            "Here's what I found in our conversation:",
            "Those are back in front of me — want to use one of them?",
        )
    };
    format!("{lead}\n{}\n\n{tail}", lines.join("\n"))
}
