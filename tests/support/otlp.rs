//! A fake OpenTelemetry collector over real HTTP (axum on 127.0.0.1:0, on a
//! runtime of its own): it takes `POST /v1/traces`, decodes each body with
//! the OTLP protobuf definitions, and keeps the spans. It can refuse
//! (HTTP 503) to show what the exporter does with a collector that says no.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;

#[derive(Default)]
struct Shared {
    spans: Mutex<Vec<Span>>,
    bodies: Mutex<Vec<Vec<u8>>>,
    posts: AtomicUsize,
    refuse: AtomicBool,
}

/// The running collector; dropping it stops it.
pub struct Collector {
    url: String,
    shared: Arc<Shared>,
    _served: super::serve::Served,
}

async fn traces(State(shared): State<Arc<Shared>>, body: Bytes) -> StatusCode {
    shared.posts.fetch_add(1, Ordering::SeqCst);
    if shared.refuse.load(Ordering::SeqCst) {
        return StatusCode::SERVICE_UNAVAILABLE;
    }
    let Ok(request) = ExportTraceServiceRequest::decode(body.as_ref()) else {
        return StatusCode::BAD_REQUEST;
    };
    shared.bodies.lock().unwrap().push(body.to_vec());
    let mut spans = shared.spans.lock().unwrap();
    for rs in request.resource_spans {
        for ss in rs.scope_spans {
            spans.extend(ss.spans);
        }
    }
    StatusCode::OK
}

impl Collector {
    /// Starts a collector on a free port (blocks until it listens).
    pub fn start() -> Self {
        Self::start_on(0)
    }

    /// Starts a collector on `port` (0: a free one).
    pub fn start_on(port: u16) -> Self {
        let shared = Arc::new(Shared::default());
        let app = Router::new()
            .route("/v1/traces", post(traces))
            .with_state(shared.clone());
        let served = super::serve::serve_on(port, app, |_| {});
        Self {
            url: format!("http://{}", served.addr),
            shared,
            _served: served,
        }
    }

    /// `http://127.0.0.1:PORT` (the base URL a user would give).
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// Answers 503 from now on.
    pub fn refuse(&self) {
        self.shared.refuse.store(true, Ordering::SeqCst);
    }

    /// How many exports were posted (taken or refused).
    pub fn posts(&self) -> usize {
        self.shared.posts.load(Ordering::SeqCst)
    }

    /// The spans received so far.
    pub fn spans(&self) -> Vec<Span> {
        self.shared.spans.lock().unwrap().clone()
    }

    /// Every body received, as sent.
    pub fn bodies(&self) -> Vec<Vec<u8>> {
        self.shared.bodies.lock().unwrap().clone()
    }

    /// Waits until `n` spans arrived (or `within` passed); the spans.
    pub fn wait_for(&self, n: usize, within: Duration) -> Vec<Span> {
        let until = Instant::now() + within;
        while self.spans().len() < n && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.spans()
    }
}

/// A span's attributes as text: strings, numbers and lists joined by ", ".
pub fn attributes(span: &Span) -> BTreeMap<String, String> {
    span.attributes
        .iter()
        .map(|kv| {
            let v = kv.value.as_ref().and_then(|v| v.value.as_ref());
            (kv.key.clone(), v.map(text).unwrap_or_default())
        })
        .collect()
}

fn text(v: &Any) -> String {
    match v {
        Any::StringValue(s) => s.clone(),
        Any::IntValue(i) => i.to_string(),
        Any::DoubleValue(f) => f.to_string(),
        Any::BoolValue(b) => b.to_string(),
        Any::ArrayValue(a) => a
            .values
            .iter()
            .filter_map(|x| x.value.as_ref())
            .map(text)
            .collect::<Vec<_>>()
            .join(", "),
        other => format!("{other:?}"),
    }
}
