//! Reply to a look back through the conversation ("what did I say I didn't
//! want?", "what was that recipe from Monday?"): what `search_history`
//! found — the constraints the user stated, or the turns that match, with
//! the entities they touched, now back in working memory.

use serde_json::Value;

use super::super::super::hints::avoid_of;
use super::super::super::reply_ctx::ReplyCtx;
use super::super::super::text::join_list;
use super::super::cook::build::Avoid;

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
pub fn history_reply(c: &ReplyCtx<'_>) -> String {
    let hits = hits(c);
    let profile = profile_line(c);
    if hits.is_empty() {
        return match profile {
            Some(p) => format!("You haven't ruled anything out in this chat. {p}"),
            None => {
                "I couldn't find that in our conversation — can you tell me a bit more about it?"
                    .to_string()
            }
        };
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
    let profile = profile.map(|p| format!("\n{p}")).unwrap_or_default();
    format!("{lead}\n{}\n{profile}\n{tail}", lines.join("\n"))
}

/// "Your profile says you're allergic to shellfish and don't like
/// mushroom.", when the question is about what the user avoids.
fn profile_line(c: &ReplyCtx<'_>) -> Option<String> {
    let w = &c.reading.words;
    let about_avoiding = w.has_any(&[
        "didnt want",
        "dont want",
        "not want",
        "avoid",
        "rule out",
        "ruled out",
        "allergic",
        "allergy",
        "allergies",
        "dislike",
        "dont like",
        "didnt like",
        "cant eat",
        "not eat",
    ]);
    let d = c.req.input.steps.first()?.description.as_str();
    let Avoid {
        allergic, disliked, ..
    } = avoid_of(d);
    if !about_avoiding || (allergic.is_empty() && disliked.is_empty()) {
        return None;
    }
    let mut parts = Vec::new();
    if !allergic.is_empty() {
        parts.push(format!(
            "you're allergic to {}",
            join_list(&allergic, "and")
        ));
    }
    if !disliked.is_empty() {
        parts.push(format!("you don't like {}", join_list(&disliked, "or")));
    }
    Some(format!("Your profile says {}.", join_list(&parts, "and")))
}
