//! A turn record as the spans of one trace, with the OpenTelemetry GenAI
//! attributes and the context layers under `alfred.`: pure, so the live
//! export and `sessions export --format otlp` send the same thing.
//!
//! The record keeps each node's duration, not its start: the node spans are
//! laid end to end from the turn's start, in the pipeline's order. A model
//! call starts where its node does plus the calls before it; an Act step's
//! span covers an equal share of Act, and its tool calls (whose times the
//! record does not keep) are spread evenly over the step's first half.

use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use crate::context::{ContextDiff, ContextSnapshot};
use crate::record::{CallAttempt, CallRecord, PromptRecord, TurnRecord};
use crate::turn::Node;

/// One attribute's value.
#[derive(Debug, Clone, PartialEq)]
pub enum AttrValue {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Strs(Vec<String>),
}

/// A span to start and end, with its children.
#[derive(Debug, Clone, PartialEq)]
pub struct SpanPlan {
    pub name: String,
    pub start: SystemTime,
    pub end: SystemTime,
    pub attributes: Vec<(String, AttrValue)>,
    /// The error, when the span's work failed.
    pub error: Option<String>,
    pub children: Vec<SpanPlan>,
}

/// What a trace may carry beyond counts, refs and kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capture {
    /// The messages, the prompts, the reply, entity labels and the user's
    /// clauses (`[telemetry] capture_content`).
    pub content: bool,
}

impl SpanPlan {
    fn new(name: impl Into<String>, start: SystemTime, ms: f64) -> Self {
        Self {
            name: name.into(),
            start,
            end: start + millis(ms),
            attributes: Vec::new(),
            error: None,
            children: Vec::new(),
        }
    }

    fn set(&mut self, key: &str, value: AttrValue) {
        self.attributes.push((key.to_string(), value));
    }

    fn str(&mut self, key: &str, value: impl Into<String>) {
        self.set(key, AttrValue::Str(value.into()));
    }

    fn int(&mut self, key: &str, value: u64) {
        self.set(
            key,
            AttrValue::Int(i64::try_from(value).unwrap_or(i64::MAX)),
        );
    }

    /// The attribute's value, if set.
    pub fn attribute(&self, key: &str) -> Option<&AttrValue> {
        self.attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// This span and every span under it, depth first.
    pub fn all(&self) -> Vec<&SpanPlan> {
        let mut out = vec![self];
        for c in &self.children {
            out.extend(c.all());
        }
        out
    }
}

fn millis(ms: f64) -> Duration {
    Duration::from_secs_f64((ms.max(0.0)) / 1000.0)
}

/// When the turn started, from its record (RFC 3339); `fallback` when the
/// record has none or it does not parse.
fn started(record: &TurnRecord, fallback: SystemTime) -> SystemTime {
    record
        .started_at
        .parse::<jiff::Timestamp>()
        .ok()
        .map(SystemTime::from)
        .unwrap_or(fallback)
}

/// The provider a brain's name implies, as the GenAI conventions name them.
fn provider(llm: &str) -> &'static str {
    if llm == "offline" || llm.is_empty() {
        "alfred.offline"
    } else {
        // Every server alfred talks to speaks OpenAI's API.
        "openai"
    }
}

/// The trace of one turn: the root span (`invoke_agent alfred`) with the
/// context layers, a child per node that ran, a `chat` span per model call,
/// and under Act a span per step and per tool call. `snapshot` is the
/// record's ([`TurnRecord::snapshot`]); `previous` is the one before the
/// turn, for its changes (none for a first turn).
pub fn turn_trace(
    session_id: &str,
    record: &TurnRecord,
    snapshot: &ContextSnapshot,
    previous: Option<&ContextSnapshot>,
    capture: Capture,
    now: SystemTime,
) -> SpanPlan {
    let start = started(record, now);
    let total = record.timings_ms.get("total").copied().unwrap_or_else(|| {
        record
            .timings_ms
            .iter()
            .filter(|(k, _)| *k != "total")
            .map(|(_, v)| v)
            .sum()
    });
    let mut root = SpanPlan::new("invoke_agent alfred", start, total);
    root.str("gen_ai.operation.name", "invoke_agent");
    root.str("gen_ai.agent.name", "alfred");
    root.str("gen_ai.provider.name", provider(&record.llm));
    root.str("gen_ai.conversation.id", session_id);
    root.int("alfred.turn", u64::from(record.turn));
    root.str(
        "alfred.status",
        format!("{:?}", record.status).to_lowercase(),
    );
    root.str("alfred.llm", record.llm.clone());
    root.int("gen_ai.usage.input_tokens", record.usage.prompt_tokens);
    root.int("gen_ai.usage.output_tokens", record.usage.completion_tokens);
    if let Some(cost) = record.cost_usd {
        root.set("alfred.cost_usd", AttrValue::Float(cost));
    }
    if let Some(d) = record.decision {
        root.str("alfred.decision", d.as_str());
    }
    if let Some(e) = &record.error {
        root.error = Some(e.clone());
    }
    if capture.content {
        root.str("alfred.user_message", record.user.clone());
        root.str("alfred.reply", record.reply.clone());
        root.str("alfred.goal", record.goal.clone());
    }
    layers(&mut root, record, snapshot, previous, capture);
    // The turn failed in the last node that ran.
    let failed_in = record.error.as_ref().and(
        Node::ALL
            .into_iter()
            .rev()
            .find(|n| record.timings_ms.contains_key(n.as_str())),
    );
    let mut at = start;
    for node in Node::ALL {
        let Some(ms) = record.timings_ms.get(node.as_str()).copied() else {
            continue;
        };
        let mut span = SpanPlan::new(node.as_str(), at, ms);
        span.str("alfred.node", node.as_str());
        node_children(&mut span, node, record, capture);
        if failed_in == Some(node) {
            span.error = record.error.clone();
        }
        at = span.end;
        root.children.push(span);
    }
    root
}

/// The node's model calls (and, under Act, its steps and tool calls).
fn node_children(span: &mut SpanPlan, node: Node, record: &TurnRecord, capture: Capture) {
    let prompts = &record.prompts;
    let mut at = span.start;
    let add_calls = |span: &mut SpanPlan, prompt: &PromptRecord, at: &mut SystemTime| {
        sections(span, node, prompt);
        let mut before = None;
        for call in &prompt.calls {
            let chat = chat_span(call, before, prompt, record, capture, *at);
            *at = chat.end;
            span.children.push(chat);
            before = Some(call);
        }
    };
    match node {
        Node::Understand => {
            if let Some(p) = &prompts.understand {
                add_calls(span, p, &mut at);
            }
        }
        Node::Think => {
            if let Some(p) = &prompts.think {
                add_calls(span, p, &mut at);
            }
        }
        Node::Reply => {
            if let Some(p) = &prompts.reply {
                add_calls(span, p, &mut at);
            }
        }
        Node::Summarize => {
            for p in &prompts.summarize {
                add_calls(span, p, &mut at);
            }
        }
        Node::Act => {
            let share = span_ms(span) / record.steps.len().max(1) as f64;
            for (i, step) in record.steps.iter().enumerate() {
                let mut s = SpanPlan::new(
                    format!("step {} {} {}", i + 1, step.step_type, step.subdomain),
                    at,
                    share,
                );
                s.str("alfred.step.index", (i + 1).to_string());
                s.str("alfred.step.type", step.step_type.clone());
                s.str("alfred.step.subdomain", step.subdomain.clone());
                s.set(
                    "alfred.step.entities_affected",
                    AttrValue::Strs(step.entities_affected.clone()),
                );
                if capture.content {
                    s.str("alfred.step.description", step.description.clone());
                    s.str("alfred.step.outcome", step.outcome.clone());
                }
                let mut call_at = s.start;
                for p in prompts.act.iter().filter(|p| p.step == i) {
                    let mut before = None;
                    for call in &p.prompt.calls {
                        let chat = chat_span(call, before, &p.prompt, record, capture, call_at);
                        call_at = chat.end.min(s.end);
                        s.children.push(chat);
                        before = Some(call);
                    }
                }
                let tool_ms = share / (step.tool_calls.len().max(1) as f64) / 2.0;
                for (k, t) in step.tool_calls.iter().enumerate() {
                    let t_start = s.start + millis(tool_ms * k as f64);
                    let mut tool =
                        SpanPlan::new(format!("execute_tool {}", t.tool), t_start, tool_ms);
                    tool.str("gen_ai.operation.name", "execute_tool");
                    tool.str("gen_ai.tool.name", t.tool.clone());
                    tool.str("alfred.tool.table", t.table.clone());
                    tool.int("alfred.tool.rows", t.rows as u64);
                    tool.set("alfred.tool.write", AttrValue::Bool(t.tool != "db_read"));
                    tool.error = t.error.clone();
                    s.children.push(tool);
                }
                at = s.end;
                span.children.push(s);
            }
        }
    }
}

fn span_ms(span: &SpanPlan) -> f64 {
    span.end
        .duration_since(span.start)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// The prompt's sections on the node span: tokens per section, and what
/// the server (or the estimate) took from its cache.
fn sections(span: &mut SpanPlan, node: Node, prompt: &PromptRecord) {
    let key = format!("alfred.prompt.{}", node.as_str());
    let sizes: Vec<String> = prompt
        .tokens
        .sections
        .iter()
        .map(|(name, tokens)| format!("{name}={tokens}"))
        .collect();
    span.set(&format!("{key}.sections"), AttrValue::Strs(sizes));
    span.int(&format!("{key}.tokens"), prompt.tokens.total_tokens as u64);
    if let Some(cached) = prompt.cached_tokens {
        span.int(&format!("{key}.cached_tokens"), cached);
        span.set(
            &format!("{key}.cached_estimated"),
            AttrValue::Bool(prompt.cached_estimated),
        );
    }
}

/// One model call as a GenAI `chat` span; `before` is the node's call
/// before it (a repair's messages carry that answer and its problem).
fn chat_span(
    call: &CallRecord,
    before: Option<&CallRecord>,
    prompt: &PromptRecord,
    record: &TurnRecord,
    capture: Capture,
    at: SystemTime,
) -> SpanPlan {
    let mut s = SpanPlan::new(format!("chat {}", call.model), at, call.total_ms);
    s.str("gen_ai.operation.name", "chat");
    s.str("gen_ai.provider.name", provider(&record.llm));
    s.str("gen_ai.request.model", call.model.clone());
    if let Some(n) = call.max_tokens {
        s.int("gen_ai.request.max_tokens", u64::from(n));
    }
    if let Some(u) = &call.usage {
        s.int("gen_ai.usage.input_tokens", u.prompt_tokens);
        s.int("gen_ai.usage.output_tokens", u.completion_tokens);
    }
    if let Some(c) = call.cached_tokens {
        s.int("gen_ai.usage.cache_read.input_tokens", c);
    }
    if let Some(f) = &call.finish_reason {
        s.set(
            "gen_ai.response.finish_reasons",
            AttrValue::Strs(vec![f.clone()]),
        );
    }
    s.str(
        "alfred.call.attempt",
        format!("{:?}", call.attempt).to_lowercase(),
    );
    s.str("alfred.call.format", call.format.clone());
    s.error = call
        .problem
        .clone()
        .filter(|_| call.attempt == CallAttempt::Repair || call.status.is_some_and(|c| c >= 400));
    if capture.content {
        s.str(
            "gen_ai.system_instructions",
            json!([{"type": "text", "content": prompt.full.system}]).to_string(),
        );
        let mut input = vec![
            json!({"role": "user", "parts": [{"type": "text", "content": prompt.full.user_text()}]}),
        ];
        if let (CallAttempt::Repair, Some(first)) = (call.attempt, before) {
            input.push(
                json!({"role": "assistant", "parts": [{"type": "text", "content": first.raw}]}),
            );
            let problem = first.problem.as_deref().unwrap_or("it could not be used");
            input.push(json!({"role": "user", "parts": [{"type": "text",
                "content": format!("Your answer could not be used: {problem}")}]}));
        }
        s.str("gen_ai.input.messages", Value::Array(input).to_string());
        s.str(
            "gen_ai.output.messages",
            json!([{"role": "assistant", "parts": [{"type": "text", "content": call.raw}],
                    "finish_reason": call.finish_reason.clone().unwrap_or_default()}])
            .to_string(),
        );
    }
    s
}

/// The three layers as the turn left them, and what the turn changed.
fn layers(
    root: &mut SpanPlan,
    record: &TurnRecord,
    snapshot: &ContextSnapshot,
    previous: Option<&ContextSnapshot>,
    capture: Capture,
) {
    let e = &record.entities;
    let named = |v: &crate::context::EntityView| {
        if capture.content {
            format!("{} {}", v.r#ref, v.label)
        } else {
            v.r#ref.clone()
        }
    };
    let list = |views: &[crate::context::EntityView]| views.iter().map(named).collect::<Vec<_>>();
    root.set("alfred.context.recent", AttrValue::Strs(list(&e.recent)));
    let why = |v: &crate::context::EntityView| match (&v.reason, capture.content) {
        (Some(r), true) => format!("{}: {r}", named(v)),
        _ => named(v),
    };
    root.set(
        "alfred.context.retained",
        AttrValue::Strs(e.retained.iter().map(why).collect()),
    );
    root.set(
        "alfred.context.excluded",
        AttrValue::Strs(e.excluded.iter().map(why).collect()),
    );
    root.set("alfred.context.pending", AttrValue::Strs(list(&e.pending)));
    root.int("alfred.context.background", e.background.len() as u64);
    root.set(
        "alfred.context.standing",
        AttrValue::Strs(
            record
                .constraints
                .iter()
                .map(|c| match capture.content {
                    true => format!("{} {:?}: {}", c.id, c.status, c.clause),
                    false => format!("{} {:?}", c.id, c.status).to_lowercase(),
                })
                .collect(),
        ),
    );
    let diff = previous.map(|p| crate::context::diff(p, snapshot));
    changes(root, diff.as_ref(), snapshot);
    if let Some(entry) = record
        .narrative
        .turns
        .iter()
        .find(|t| t.turn_number == record.turn)
    {
        let mut lines = vec![format!(
            "turn {} · {}",
            entry.turn_number,
            entry.decision.map_or("", |d| d.as_str())
        )];
        lines.extend(
            entry
                .steps
                .iter()
                .map(|s| format!("{} {}", s.kind(), s.subdomain)),
        );
        if capture.content {
            lines.push(format!("goal: {}", entry.goal));
            lines.extend(entry.standing.iter().cloned());
        }
        root.set("alfred.narrative.entry", AttrValue::Strs(lines));
    }
    root.int(
        "alfred.narrative.turns",
        record.narrative.turns.len() as u64,
    );
    root.int(
        "alfred.history.recent",
        record.conversation.recent.len() as u64,
    );
}

/// The turn's changes by kind (`alfred.changes.new`, `.demoted`, …), each
/// a list of refs; with no earlier snapshot, what is there is new.
fn changes(root: &mut SpanPlan, diff: Option<&ContextDiff>, snapshot: &ContextSnapshot) {
    let Some(diff) = diff else {
        let new: Vec<String> = snapshot
            .entities
            .recent
            .iter()
            .map(|v| v.r#ref.clone())
            .collect();
        root.set("alfred.changes.new", AttrValue::Strs(new));
        return;
    };
    let mut by_kind: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for c in &diff.entities {
        let kind = format!("{:?}", c.kind);
        let key = kind
            .chars()
            .enumerate()
            .flat_map(|(i, ch)| {
                let lower = ch.to_ascii_lowercase();
                (ch.is_uppercase() && i > 0)
                    .then_some('_')
                    .into_iter()
                    .chain(std::iter::once(lower))
            })
            .collect::<String>();
        by_kind.entry(key).or_default().push(c.r#ref.clone());
    }
    for (kind, refs) in by_kind {
        root.set(&format!("alfred.changes.{kind}"), AttrValue::Strs(refs));
    }
    root.set(
        "alfred.changes.dropped",
        AttrValue::Strs(snapshot.entities.dropped.clone()),
    );
}
