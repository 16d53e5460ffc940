//! A fake OpenAI-compatible server over real HTTP (axum on 127.0.0.1:0, on
//! its own thread and runtime) for the LLM brain's tests and bench.
//!
//! It serves `POST /v1/chat/completions` and `GET /v1/models`, validates
//! each request as a strict server would (JSON body, a model, messages, a
//! strict schema), records every request (body, raw text, headers), answers
//! scripted structured outputs per node (Act per step) and streamed replies
//! (saying back the key it was sent wherever a script writes [`SENT_KEY`]),
//! and injects faults per request: latency, 429 with Retry-After, 500, a
//! hang, a truncated stream, malformed JSON, a refused `json_schema`, an
//! error that repeats the key. It counts requests whose connection the
//! client closed before the answer was complete.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::{Stream, StreamExt};
use serde_json::{Value, json};

pub use super::fake_answers::{CacheReport, Node, SENT_KEY};
use super::fake_answers::{
    completion, conform, error_body, invalid, schema_in_system, stream_events,
};

/// A fault injected into one request (or every request).
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// Wait this long before answering.
    Latency(Duration),
    /// HTTP 429, with `Retry-After: n` seconds when given.
    RateLimited(Option<u64>),
    /// HTTP 500.
    ServerError,
    /// Accept the request and never answer.
    Hang,
    /// Stream half the reply, then close without a finish_reason.
    TruncatedStream,
    /// Answer content that is not valid JSON.
    Malformed,
    /// Stop the answer at half its length with `finish_reason: "length"`,
    /// as a server does at the `max_tokens` cap.
    Length,
    /// Answer exactly this content (no conforming to the schema).
    Content(String),
    /// Stream half the answer, then send nothing more (keep the connection).
    Stall,
    /// Wait this long before each part of a streamed answer.
    Drip(Duration),
    /// HTTP 401 whose message repeats the key it was sent, as some servers
    /// do.
    EchoKey,
}

/// One request as received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub node: Node,
    pub body: Value,
    /// The body exactly as sent.
    pub raw: String,
    pub headers: Vec<(String, String)>,
    pub status: u16,
    /// When it arrived.
    pub at: Instant,
}

impl Recorded {
    /// The text of the message with this role (the first one).
    pub fn message(&self, role: &str) -> String {
        self.body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|m| m["role"] == role)
            .and_then(|m| m["content"].as_str())
            .unwrap_or("")
            .to_string()
    }

    /// The last user message (the repair request, when there was one).
    pub fn last_user(&self) -> String {
        self.body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .rev()
            .find(|m| m["role"] == "user")
            .and_then(|m| m["content"].as_str())
            .unwrap_or("")
            .to_string()
    }
}

#[derive(Default)]
struct Script {
    answers: HashMap<Node, VecDeque<Value>>,
    /// Act answers per step: (words of the step's description, answers).
    act: Vec<(String, VecDeque<Value>)>,
    replies: VecDeque<String>,
    faults: Vec<(Option<Node>, Fault)>,
    always: Vec<Fault>,
    latency: Duration,
    requests: Vec<Recorded>,
}

/// Which server the fake says it is, with the context it publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Persona {
    /// Only the OpenAI API (the default).
    Plain,
    /// `/props` and `/v1/models` with `meta.n_ctx`, `owned_by: llamacpp`.
    LlamaCpp { n_ctx: u32 },
    /// `/api/version`, `/api/show` (with `num_ctx` when given), `/api/ps`
    /// (every listed model loaded with `loaded` tokens, when given).
    Ollama {
        num_ctx: Option<u32>,
        loaded: Option<u32>,
    },
    /// `/v1/models` with `max_model_len`.
    Vllm { max_model_len: u32 },
}

struct Shared {
    persona: Mutex<Persona>,
    script: Mutex<Script>,
    reject_json_schema: AtomicBool,
    hide_models: AtomicBool,
    disconnects: AtomicUsize,
    /// TCP connections accepted.
    connections: AtomicUsize,
    models: Vec<String>,
    /// The prompt cache: the last prompt text each node sent (one slot per
    /// node, as a llama.cpp server with enough slots keeps them).
    cache: Mutex<HashMap<Node, String>>,
}

/// Counts a request whose answer was dropped before it was complete.
struct Watch {
    shared: Arc<Shared>,
    done: bool,
}

impl Drop for Watch {
    fn drop(&mut self) {
        if !self.done {
            self.shared.disconnects.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// The running server; dropping it stops it.
pub struct FakeOpenAi {
    base_url: String,
    shared: Arc<Shared>,
    _served: super::serve::Served,
}

impl FakeOpenAi {
    /// Starts a server on a free port (blocks until it listens).
    pub fn start() -> Self {
        let shared = Arc::new(Shared {
            persona: Mutex::new(Persona::Plain),
            script: Mutex::new(Script::default()),
            reject_json_schema: AtomicBool::new(false),
            hide_models: AtomicBool::new(false),
            disconnects: AtomicUsize::new(0),
            connections: AtomicUsize::new(0),
            models: vec!["gpt-4.1".into(), "gpt-4.1-mini".into()],
            cache: Mutex::new(HashMap::new()),
        });
        let app = Router::new()
            .route("/v1/chat/completions", post(chat))
            .route("/v1/models", get(models))
            .route("/props", get(props))
            .route("/api/version", get(ollama_version))
            .route("/api/show", post(ollama_show))
            .route("/api/ps", get(ollama_ps))
            .with_state(shared.clone());
        let counted = shared.clone();
        // Each write goes out at once, as a streaming server's should
        // (Nagle would hold an answer's second write until the client's
        // delayed ACK, 40 ms later).
        let served = super::serve::serve(app, move |tcp| {
            let _ = tcp.set_nodelay(true);
            counted.connections.fetch_add(1, Ordering::SeqCst);
        });
        Self {
            base_url: format!("http://{}/v1", served.addr),
            shared,
            _served: served,
        }
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        self.base_url.clone()
    }

    fn script(&self) -> std::sync::MutexGuard<'_, Script> {
        self.shared.script.lock().unwrap()
    }

    /// Queues a structured answer of `node`.
    pub fn answer(&self, node: Node, answer: Value) {
        self.script()
            .answers
            .entry(node)
            .or_default()
            .push_back(answer);
    }

    /// Queues Act answers for the step whose description contains `step`.
    pub fn answer_act(&self, step: &str, answers: Vec<Value>) {
        self.script().act.push((step.to_string(), answers.into()));
    }

    /// Queues a streamed reply.
    pub fn reply(&self, text: &str) {
        self.script().replies.push_back(text.to_string());
    }

    /// Injects a fault into the next request (of any node).
    pub fn fault(&self, fault: Fault) {
        self.script().faults.push((None, fault));
    }

    /// Injects a fault into the next request of `node`.
    pub fn fault_on(&self, node: Node, fault: Fault) {
        self.script().faults.push((Some(node), fault));
    }

    /// Injects a fault into every request from now on.
    pub fn fault_always(&self, fault: Fault) {
        self.script().always.push(fault);
    }

    /// Holds every answer this long (before the first byte).
    pub fn set_latency(&self, latency: Duration) {
        self.script().latency = latency;
    }

    /// Answers 400 to every request asking for `json_schema`.
    pub fn reject_json_schema(&self) {
        self.shared.reject_json_schema.store(true, Ordering::SeqCst);
    }

    /// Says it is another kind of server, from now on.
    pub fn pretend(&self, persona: Persona) {
        *self.shared.persona.lock().unwrap() = persona;
    }

    /// Answers 404 to `GET /v1/models`, as some servers do.
    pub fn hide_models(&self) {
        self.shared.hide_models.store(true, Ordering::SeqCst);
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.script().requests.clone()
    }

    /// Every request of `node` so far, in arrival order.
    pub fn requests_of(&self, node: Node) -> Vec<Recorded> {
        self.script()
            .requests
            .iter()
            .filter(|r| r.node == node)
            .cloned()
            .collect()
    }

    /// Requests of `node` so far.
    pub fn count(&self, node: Node) -> usize {
        self.script()
            .requests
            .iter()
            .filter(|r| r.node == node)
            .count()
    }

    /// TCP connections accepted so far (a client that reuses its
    /// connections opens one per request in flight at once).
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
    }

    /// Requests whose connection closed before their answer was complete.
    pub fn disconnects(&self) -> usize {
        self.shared.disconnects.load(Ordering::SeqCst)
    }

    /// Waits (up to 10 s) until `n` requests have arrived.
    pub async fn wait_for_requests(&self, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.script().requests.len() < n && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

async fn models(State(shared): State<Arc<Shared>>) -> Response {
    if shared.hide_models.load(Ordering::SeqCst) {
        return error(StatusCode::NOT_FOUND, "no such route");
    }
    let persona = *shared.persona.lock().unwrap();
    let data: Vec<Value> = shared
        .models
        .iter()
        .map(|m| match persona {
            Persona::Plain => json!({"id": m, "object": "model", "owned_by": "system"}),
            Persona::LlamaCpp { n_ctx } => json!({"id": m, "object": "model",
                "owned_by": "llamacpp", "meta": {"n_ctx": n_ctx, "n_ctx_train": 32768}}),
            Persona::Ollama { .. } => json!({"id": m, "object": "model", "owned_by": "library"}),
            Persona::Vllm { max_model_len } => json!({"id": m, "object": "model",
                "owned_by": "vllm", "max_model_len": max_model_len}),
        })
        .collect();
    axum::Json(json!({"object": "list", "data": data})).into_response()
}

async fn props(State(shared): State<Arc<Shared>>) -> Response {
    match *shared.persona.lock().unwrap() {
        Persona::LlamaCpp { n_ctx } => axum::Json(json!({
            "default_generation_settings": {"n_ctx": n_ctx},
            "total_slots": 1,
            "build_info": "b9999-fake"
        }))
        .into_response(),
        _ => error(StatusCode::NOT_FOUND, "File Not Found"),
    }
}

async fn ollama_version(State(shared): State<Arc<Shared>>) -> Response {
    match *shared.persona.lock().unwrap() {
        Persona::Ollama { .. } => axum::Json(json!({"version": "0.9.9"})).into_response(),
        _ => error(StatusCode::NOT_FOUND, "File Not Found"),
    }
}

async fn ollama_show(State(shared): State<Arc<Shared>>) -> Response {
    match *shared.persona.lock().unwrap() {
        Persona::Ollama { num_ctx, .. } => {
            let parameters = num_ctx
                .map(|n| format!("num_ctx                        {n}\nstop \"<|eot_id|>\""))
                .unwrap_or_default();
            axum::Json(json!({"parameters": parameters, "model_info": {}})).into_response()
        }
        _ => error(StatusCode::NOT_FOUND, "File Not Found"),
    }
}

async fn ollama_ps(State(shared): State<Arc<Shared>>) -> Response {
    match *shared.persona.lock().unwrap() {
        Persona::Ollama { loaded, .. } => {
            let models: Vec<Value> = loaded
                .map(|n| {
                    (shared.models.iter())
                        .map(
                            |m| json!({"name": m, "model": m, "size_vram": 0, "context_length": n}),
                        )
                        .collect()
                })
                .unwrap_or_default();
            axum::Json(json!({"models": models})).into_response()
        }
        _ => error(StatusCode::NOT_FOUND, "File Not Found"),
    }
}

fn error(status: StatusCode, message: &str) -> Response {
    (
        status,
        axum::Json(error_body(message, "invalid_request_error", None)),
    )
        .into_response()
}

async fn chat(State(shared): State<Arc<Shared>>, headers: HeaderMap, raw: Bytes) -> Response {
    let arrived = Instant::now();
    let mut watch = Watch {
        shared: shared.clone(),
        done: false,
    };
    let raw = String::from_utf8_lossy(&raw).to_string();
    let body: Value = match serde_json::from_str(&raw) {
        Ok(v) => v,
        Err(e) => {
            watch.done = true;
            return error(
                StatusCode::BAD_REQUEST,
                &format!("the body is not JSON: {e}"),
            );
        }
    };
    let node = Node::of_request(&body);
    let sent_key = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .trim_start_matches("Bearer ")
        .to_string();
    let problem = invalid(&body, shared.reject_json_schema.load(Ordering::SeqCst));
    let (faults, latency) = {
        let mut s = shared.script.lock().unwrap();
        let mut faults = s.always.clone();
        if let Some(i) = s
            .faults
            .iter()
            .position(|(n, _)| n.is_none_or(|n| n == node))
        {
            faults.push(s.faults.remove(i).1);
        }
        let status = match (
            &problem,
            faults.iter().find(|f| {
                matches!(
                    f,
                    Fault::RateLimited(_) | Fault::ServerError | Fault::EchoKey
                )
            }),
        ) {
            (Some((s, _)), _) => s.as_u16(),
            (None, Some(Fault::RateLimited(_))) => 429,
            (None, Some(Fault::EchoKey)) => 401,
            (None, Some(_)) => 500,
            (None, None) => 200,
        };
        s.requests.push(Recorded {
            node,
            body: body.clone(),
            raw: raw.clone(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
                .collect(),
            status,
            at: Instant::now(),
        });
        (faults, s.latency)
    };
    let extra: Duration = faults
        .iter()
        .filter_map(|f| match f {
            Fault::Latency(d) => Some(*d),
            _ => None,
        })
        .sum();
    // The answer is made before the hold ends, as a server's first byte
    // comes after its own work: what the fake does is not timed as alfred's.
    let ready = arrived + latency + extra;
    let hang = faults.contains(&Fault::Hang);
    if let Some((status, message)) = problem {
        return after_hold(ready, hang, &mut watch, error(status, &message)).await;
    }
    for f in &faults {
        match f {
            Fault::RateLimited(after) => {
                let mut resp = (
                    StatusCode::TOO_MANY_REQUESTS,
                    axum::Json(error_body(
                        "Rate limit reached for requests",
                        "requests",
                        None,
                    )),
                )
                    .into_response();
                if let Some(secs) = after {
                    resp.headers_mut()
                        .insert("retry-after", secs.to_string().parse().unwrap());
                }
                return after_hold(ready, hang, &mut watch, resp).await;
            }
            Fault::EchoKey => {
                let resp = (
                    StatusCode::UNAUTHORIZED,
                    axum::Json(error_body(
                        &format!(
                            "Incorrect API key provided: {sent_key}. Find yours at the dashboard."
                        ),
                        "invalid_request_error",
                        None,
                    )),
                )
                    .into_response();
                return after_hold(ready, hang, &mut watch, resp).await;
            }
            Fault::ServerError => {
                let resp = (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    axum::Json(error_body(
                        "The server had an error while processing your request.",
                        "server_error",
                        None,
                    )),
                )
                    .into_response();
                return after_hold(ready, hang, &mut watch, resp).await;
            }
            _ => {}
        }
    }
    let model = body["model"].as_str().unwrap_or("").to_string();
    let prompt_tokens = (raw.len() as u64).div_ceil(4);
    let cache = cache_report(&shared, node, &body, prompt_tokens);
    let mut content = if let Some(Fault::Content(text)) =
        faults.iter().find(|f| matches!(f, Fault::Content(_)))
    {
        text.clone()
    } else if node == Node::Reply {
        let mut s = shared.script.lock().unwrap();
        s.replies
            .pop_front()
            .unwrap_or_else(|| "Here you go.".into())
    } else if faults.contains(&Fault::Malformed) {
        r#"{"goal": "Leave out cod", "decision": "#.to_string()
    } else {
        let answer = next_answer(&shared, node, &body);
        let schema = body["response_format"]["json_schema"]
            .get("schema")
            .cloned()
            .or_else(|| schema_in_system(&body));
        match schema {
            Some(schema) => conform(&answer, &schema).to_string(),
            None => answer.to_string(),
        }
    };
    let mut finish = Some("stop");
    if faults.contains(&Fault::Length) {
        let half = content.char_indices().nth(content.chars().count() / 2);
        content.truncate(half.map_or(0, |(i, _)| i));
        finish = Some("length");
    }
    if faults.contains(&Fault::TruncatedStream) || faults.contains(&Fault::Stall) {
        finish = None;
    }
    if body["stream"] != json!(true) {
        let resp = axum::Json(completion(
            &model,
            &content.replace(SENT_KEY, &sent_key),
            prompt_tokens,
            finish.unwrap_or("stop"),
            cache,
        ))
        .into_response();
        return after_hold(ready, hang, &mut watch, resp).await;
    }
    let events = stream_events(&model, &content, &sent_key, prompt_tokens, finish, cache);
    hold_until(ready).await;
    if hang {
        std::future::pending::<()>().await;
    }
    let stall = faults.contains(&Fault::Stall);
    let drip = faults.iter().find_map(|f| match f {
        Fault::Drip(d) => Some(*d),
        _ => None,
    });
    // A reply streams word by word, its first word at once (the hold above
    // is the time to the first token); a structured answer comes whole (the
    // time is the server's latency, not the fake's pacing).
    let gap = drip.unwrap_or(if node == Node::Reply {
        Duration::from_millis(2)
    } else {
        Duration::ZERO
    });
    let at_once = if drip.is_some() { 0 } else { 2 };
    watch.done = false;
    let stream = futures::stream::iter(events.into_iter().enumerate())
        .then(move |(i, data)| async move {
            if i >= at_once && !gap.is_zero() {
                tokio::time::sleep(gap).await;
            }
            Ok::<_, Infallible>(Event::default().data(data))
        })
        .chain(futures::stream::once(async move {
            if stall {
                std::future::pending::<()>().await;
            }
            Ok::<_, Infallible>(Event::default().comment("end"))
        }));
    Sse::new(Watched {
        inner: Box::pin(stream),
        watch,
    })
    .into_response()
}

/// The request's messages as one text, what a prompt cache holds.
pub fn prompt_text(body: &Value) -> String {
    body["messages"]
        .as_array()
        .map(|ms| {
            ms.iter()
                .map(|m| m["content"].as_str().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// What the fake took from its prompt cache for this request (a quarter
/// token per character of the prefix it shares with the node's last
/// prompt), said the way the persona's server says it; the slot then holds
/// this prompt.
fn cache_report(shared: &Shared, node: Node, body: &Value, prompt_tokens: u64) -> CacheReport {
    let text = prompt_text(body);
    let mut slots = shared.cache.lock().unwrap();
    let common = slots.get(&node).map_or(0, |prev| {
        prev.chars()
            .zip(text.chars())
            .take_while(|(a, b)| a == b)
            .count()
    });
    slots.insert(node, text);
    let cached = (common as u64 / 4).min(prompt_tokens);
    match *shared.persona.lock().unwrap() {
        Persona::Ollama { .. } => CacheReport::Silent,
        Persona::LlamaCpp { .. } => CacheReport::Timings(cached),
        Persona::Plain | Persona::Vllm { .. } => CacheReport::Usage(cached),
    }
}

/// `resp` once the hold is over (never, for a hanging call).
async fn after_hold(ready: Instant, hang: bool, watch: &mut Watch, resp: Response) -> Response {
    hold_until(ready).await;
    if hang {
        std::future::pending::<()>().await;
    }
    watch.done = true;
    resp
}

/// Waits until `deadline`, to a tenth of a millisecond, holding a core for
/// as little as that takes: tokio's timer rounds up to whole milliseconds
/// (up to a millisecond of the fake's own would be added to every call a
/// benchmark times), so the last two milliseconds are slept by this thread
/// (the kernel wakes it within its timer slack) and the last tenth is spun.
/// Spinning the whole two milliseconds took one of the machine's two cores
/// from alfred while it read another call's answer.
async fn hold_until(deadline: Instant) {
    const TIMER_SLACK: Duration = Duration::from_millis(2);
    const SPIN: Duration = Duration::from_micros(100);
    if let Some(early) = deadline.checked_sub(TIMER_SLACK) {
        tokio::time::sleep_until(early.into()).await;
    }
    let left = deadline.saturating_duration_since(Instant::now());
    if left > SPIN {
        std::thread::sleep(left - SPIN);
    }
    while Instant::now() < deadline {
        std::hint::spin_loop();
    }
}

/// The scripted answer for this request. Act answers are matched on the
/// step's `**Your job:**` line of the prompt (the whole text if it has none).
fn next_answer(shared: &Shared, node: Node, body: &Value) -> Value {
    let mut s = shared.script.lock().unwrap();
    if node == Node::Act {
        let user = body["messages"]
            .as_array()
            .and_then(|m| m.iter().find(|m| m["role"] == "user"))
            .and_then(|m| m["content"].as_str())
            .unwrap_or("")
            .to_string();
        let job = user
            .lines()
            .find(|l| l.starts_with("**Your job:**"))
            .unwrap_or(&user)
            .to_string();
        for (step, answers) in s.act.iter_mut() {
            if job.contains(step.as_str()) && !answers.is_empty() {
                return answers.pop_front().unwrap_or_default();
            }
        }
    }
    s.answers
        .get_mut(&node)
        .and_then(VecDeque::pop_front)
        .unwrap_or_else(|| node.default_answer())
}

/// A response stream that counts an early drop as a disconnect.
struct Watched {
    inner: Pin<Box<dyn Stream<Item = Result<Event, Infallible>> + Send>>,
    watch: Watch,
}

impl Stream for Watched {
    type Item = Result<Event, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let next = self.inner.as_mut().poll_next(cx);
        if let Poll::Ready(None) = next {
            self.watch.done = true;
        }
        next
    }
}
