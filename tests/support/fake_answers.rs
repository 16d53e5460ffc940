//! What the fake server says: chat completions and SSE chunks shaped like
//! OpenAI's, scripted answers conformed to the requested schema the way a
//! strict-mode model would write them, and the strict-mode rules a real
//! server would enforce on the schema it is sent.

use axum::http::StatusCode;
use serde_json::{Map, Value, json};

/// A pipeline node, as the fake tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Node {
    Understand,
    Think,
    Act,
    Summarize,
    Compress,
    Reply,
    /// Anything else (doctor's 1-token completion).
    Other,
}

/// The structured nodes, by the name of their output schema.
const SCHEMAS: [(&str, Node); 5] = [
    ("understand_output", Node::Understand),
    ("think_output", Node::Think),
    ("act_action", Node::Act),
    ("summarize_output", Node::Summarize),
    ("compress_output", Node::Compress),
];

impl Node {
    /// The node a schema name belongs to.
    pub fn of_schema(name: &str) -> Node {
        SCHEMAS
            .iter()
            .find(|(schema, _)| *schema == name)
            .map_or(Node::Other, |(_, node)| *node)
    }

    /// The node of a request: the schema's name, else a schema name quoted in
    /// the system message (json_object mode), else Reply when streamed.
    pub fn of_request(body: &Value) -> Node {
        if let Some(name) = body["response_format"]["json_schema"]["name"].as_str() {
            return Node::of_schema(name);
        }
        let system = body["messages"][0]["content"].as_str().unwrap_or("");
        for (name, node) in SCHEMAS {
            if system.contains(&format!("(named {name})")) {
                return node;
            }
        }
        if body["stream"] == json!(true) {
            Node::Reply
        } else {
            Node::Other
        }
    }

    /// What the model answers when the test scripted nothing for the node.
    pub fn default_answer(self) -> Value {
        match self {
            Node::Think => json!({"goal": "Answer the user", "decision": "plan_direct"}),
            Node::Act => json!({"action": "step_complete", "result_summary": "done"}),
            Node::Compress => json!({"summary": "Earlier, the user planned meals."}),
            _ => json!({}),
        }
    }
}

/// The problems a strict-mode server finds in a `json_schema` (empty: fine).
pub fn strict_problems(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if schema["type"] != "object" {
        out.push("the root must be an object".to_string());
    }
    lint(schema, "#", &mut out);
    out
}

fn lint(node: &Value, path: &str, out: &mut Vec<String>) {
    let Some(obj) = node.as_object() else {
        out.push(format!("{path}: a schema must be an object"));
        return;
    };
    for banned in ["oneOf", "allOf", "$ref", "$schema", "default"] {
        if obj.contains_key(banned) {
            out.push(format!("{path}: '{banned}' is not permitted"));
        }
    }
    if !["type", "enum", "const", "anyOf"]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        out.push(format!("{path}: schema must have a 'type' key"));
    }
    let numeric = |t: &Value| t == "integer" || t == "number";
    let is_numeric = match &obj.get("type") {
        Some(Value::Array(ts)) => ts.iter().any(numeric),
        Some(t) => numeric(t),
        None => false,
    };
    if is_numeric && obj.contains_key("format") {
        out.push(format!("{path}: 'format' is not permitted on numbers"));
    }
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        if obj.get("additionalProperties") != Some(&json!(false)) {
            out.push(format!(
                "{path}: 'additionalProperties' is required to be false"
            ));
        }
        let required: Vec<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for (key, prop) in props {
            if !required.contains(&key.as_str()) {
                out.push(format!(
                    "{path}: 'required' must include every property ('{key}' is missing)"
                ));
            }
            lint(prop, &format!("{path}/{key}"), out);
        }
    }
    if let Some(items) = obj.get("items") {
        lint(items, &format!("{path}[]"), out);
    }
    for b in obj
        .get("anyOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        lint(b, &format!("{path}|"), out);
    }
}

/// Writes `answer` the way a strict-mode model must: every property present
/// (an empty value of its type when the script left it out), and values
/// where the schema wants a string written as JSON text.
pub fn conform(answer: &Value, schema: &Value) -> Value {
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if answer.is_null() && (types.contains(&"null") || types.is_empty()) {
        return Value::Null;
    }
    if let Some(props) = schema["properties"].as_object() {
        let given = answer.as_object().cloned().unwrap_or_default();
        let mut out = Map::new();
        for (key, prop) in props {
            let v = given.get(key).cloned().unwrap_or_else(|| empty_of(prop));
            out.insert(key.clone(), conform(&v, prop));
        }
        return Value::Object(out);
    }
    if types == ["string"] && !answer.is_string() {
        return Value::String(answer.to_string());
    }
    if let (Some(items), Some(list)) = (schema.get("items"), answer.as_array()) {
        return Value::Array(list.iter().map(|v| conform(v, items)).collect());
    }
    answer.clone()
}

/// The value a strict model writes for a property it has nothing to say in.
fn empty_of(schema: &Value) -> Value {
    let first = match &schema["type"] {
        Value::Array(ts) if ts.contains(&json!("null")) => return Value::Null,
        Value::Array(ts) => ts.first().cloned().unwrap_or(Value::Null),
        t => t.clone(),
    };
    if let Some(e) = schema["enum"].as_array().and_then(|e| e.first()) {
        return e.clone();
    }
    match first.as_str() {
        Some("array") => json!([]),
        Some("string") => json!(""),
        Some("boolean") => json!(false),
        Some("integer") | Some("number") => json!(0),
        Some("object") => conform(&json!({}), schema),
        _ => Value::Null,
    }
}

/// The schema a `json_object` request pastes into its system message (what
/// a model in that mode is told to follow), if any.
pub fn schema_in_system(body: &Value) -> Option<Value> {
    let system = body["messages"][0]["content"].as_str()?;
    let (_, after) = system.split_once("use null where allowed:\n")?;
    serde_json::from_str(after).ok()
}

/// How a server tells what it took from its prompt cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheReport {
    /// It does not (Ollama).
    Silent,
    /// `usage.prompt_tokens_details.cached_tokens` (OpenAI, vLLM).
    Usage(u64),
    /// llama.cpp's `timings.cache_n` beside `prompt_n`.
    Timings(u64),
}

impl CacheReport {
    /// Adds the report to a completion (or its usage chunk, or its last chunk).
    fn apply(self, v: &mut Value, prompt_tokens: u64) {
        match self {
            CacheReport::Silent => {}
            CacheReport::Usage(n) => {
                if let Some(u) = v.get_mut("usage") {
                    u["prompt_tokens_details"] = json!({"cached_tokens": n});
                }
            }
            CacheReport::Timings(n) => {
                v["timings"] =
                    json!({"cache_n": n, "prompt_n": prompt_tokens - n, "prompt_ms": 1.0});
            }
        }
    }
}

/// A (non-streamed) chat completion carrying `content`, ended by `finish`.
pub fn completion(
    model: &str,
    content: &str,
    prompt_tokens: u64,
    finish: &str,
    cache: CacheReport,
) -> Value {
    let completion_tokens = (content.len() as u64).div_ceil(4);
    let mut v = json!({
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_767_000_000,
        "model": model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content},
            "finish_reason": finish
        }],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens
        }
    });
    cache.apply(&mut v, prompt_tokens);
    v
}

/// Written in a scripted answer or reply, this stands for the API key the
/// request was sent with: the fake says the key back in a successful
/// answer, as a careless server might.
pub const SENT_KEY: &str = "<sent-key>";

/// `text` in word-sized pieces, each [`SENT_KEY`] replaced by `key` split
/// between two pieces (so a client that scrubs each piece alone misses it).
pub fn pieces(text: &str, key: &str) -> Vec<String> {
    let half = key.len() / 2;
    let mut out = Vec::new();
    for word in text.split_inclusive(' ') {
        match word.split_once(SENT_KEY) {
            Some((before, after)) if !key.is_empty() => {
                out.push(format!("{before}{}", &key[..half]));
                out.push(format!("{}{}", &key[half..], after.replace(SENT_KEY, key)));
            }
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// The SSE `data` payloads of a streamed answer: a role chunk, the text in
/// word-sized pieces (see [`pieces`]; `key` stands for [`SENT_KEY`]), the
/// finishing chunk (`finish`), the usage chunk, and `[DONE]`. With no
/// `finish`, the stream stops after half the pieces.
pub fn stream_events(
    model: &str,
    text: &str,
    key: &str,
    prompt_tokens: u64,
    finish: Option<&str>,
    cache: CacheReport,
) -> Vec<String> {
    let truncated = finish.is_none();
    let chunk = |delta: Value, finish: Value| {
        json!({
            "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1_767_000_000,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        })
        .to_string()
    };
    let pieces = pieces(text, key);
    let mut out = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    let shown = if truncated {
        pieces.len() / 2
    } else {
        pieces.len()
    };
    out.extend(
        pieces[..shown]
            .iter()
            .map(|p| chunk(json!({"content": p}), Value::Null)),
    );
    if truncated {
        return out;
    }
    // llama.cpp puts its timings on the finishing chunk; OpenAI its cached
    // tokens in the usage chunk.
    let mut last = json!({
        "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1_767_000_000,
        "model": model,
        "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]
    });
    if matches!(cache, CacheReport::Timings(_)) {
        cache.apply(&mut last, prompt_tokens);
    }
    out.push(last.to_string());
    let completion_tokens = (text.len() as u64).div_ceil(4);
    let mut usage = json!({
        "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1_767_000_000,
        "model": model, "choices": [],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens}
    });
    if matches!(cache, CacheReport::Usage(_)) {
        cache.apply(&mut usage, prompt_tokens);
    }
    out.push(usage.to_string());
    out.push("[DONE]".to_string());
    out
}

/// An OpenAI-style error body.
pub fn error_body(message: &str, kind: &str, param: Option<&str>) -> Value {
    json!({"error": {"message": message, "type": kind, "param": param, "code": Value::Null}})
}

/// What a strict server refuses before looking at the content.
pub fn invalid(body: &Value, reject_json_schema: bool) -> Option<(StatusCode, String)> {
    let bad = |m: &str| Some((StatusCode::BAD_REQUEST, m.to_string()));
    if body["model"].as_str().is_none_or(|m| m.is_empty()) {
        return bad("you must provide a model parameter");
    }
    let Some(messages) = body["messages"].as_array() else {
        return bad("messages must be an array");
    };
    if messages.is_empty()
        || messages
            .iter()
            .any(|m| !m["role"].is_string() || !m["content"].is_string())
    {
        return bad("messages must be a non-empty array of {role, content}");
    }
    let format = &body["response_format"];
    if format["type"] == "json_schema" {
        if reject_json_schema {
            return bad("response_format type json_schema is not supported by this server");
        }
        let js = &format["json_schema"];
        if js["strict"] != json!(true) || !js["name"].is_string() {
            return bad("json_schema must be named and strict");
        }
        let problems = strict_problems(&js["schema"]);
        if !problems.is_empty() {
            let name = js["name"].as_str().unwrap_or("");
            return bad(&format!(
                "Invalid schema for response_format '{name}': {}",
                problems.join("; ")
            ));
        }
    }
    None
}
