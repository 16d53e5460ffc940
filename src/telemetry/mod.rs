//! Turns as OpenTelemetry traces, sent over OTLP/HTTP (protobuf) to any
//! collector: Arize Phoenix, Jaeger, Grafana Tempo, Langfuse, Honeycomb.
//! Off unless an endpoint is set (`[telemetry] otlp_endpoint`,
//! `OTEL_EXPORTER_OTLP_ENDPOINT`, `--otlp URL`).
//!
//! Each turn is one trace ([`spans::turn_trace`]): the GenAI conventions'
//! attributes on the turn, node, `chat`, step and tool spans, and the
//! context layers under `alfred.`. Spans are built from the turn's record
//! once the turn has ended and handed to the SDK's batch processor, which
//! sends them from its own thread through a bounded queue: a collector that
//! is down, slow or refusing costs the turn nothing. Each failed export is
//! a log line; the first is also kept for a status line ([`Telemetry::problem`]).
//!
//! Nothing of the content leaves unless `capture_content` is on: without
//! it a trace carries counts, timings, refs, kinds and models, never the
//! messages, the prompts, labels or the user's words. The API key is never
//! in a span: it is not in the record.

pub mod spans;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use opentelemetry::trace::{Status, TraceContextExt, Tracer, TracerProvider as _};
use opentelemetry::{Array, Context, KeyValue, StringValue, Value};
use opentelemetry_otlp::{Protocol, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::trace::{
    BatchConfigBuilder, BatchSpanProcessor, SdkTracer, SdkTracerProvider, SpanData, SpanExporter,
};

use crate::context::ContextSnapshot;
use crate::record::{TurnObserver, TurnRecord};
use spans::{AttrValue, Capture, SpanPlan};

/// Spans waiting to be sent, at most; more are dropped (and counted by the
/// SDK) rather than held.
const MAX_QUEUE: usize = 4096;

/// How long one export may take before it counts as failed.
const EXPORT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long quitting waits for what is still queued to go out.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(2);

/// Why telemetry cannot start.
#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error(
        "the OTLP endpoint {0:?} is not an http:// or https:// URL — set [telemetry] \
         otlp_endpoint (or --otlp) to the collector's address, e.g. http://localhost:6006 for \
         Phoenix or http://localhost:4318 for Jaeger"
    )]
    BadEndpoint(String),
    #[error("cannot set up the OTLP exporter for {url}: {reason}")]
    Exporter { url: String, reason: String },
    #[error("the collector at {url} did not take the spans: {reason}")]
    NotSent { url: String, reason: String },
}

/// The collector's traces URL: `BASE/v1/traces`, unless the endpoint names
/// it already.
pub fn traces_url(endpoint: &str) -> Result<String, TelemetryError> {
    let e = endpoint.trim();
    if !(e.starts_with("http://") || e.starts_with("https://")) {
        return Err(TelemetryError::BadEndpoint(endpoint.to_string()));
    }
    if e.ends_with("/v1/traces") {
        return Ok(e.to_string());
    }
    Ok(format!("{}/v1/traces", e.trim_end_matches('/')))
}

/// The exporter, watched: each failed export is logged, and the first one
/// not yet shown is kept for the status line.
#[derive(Debug)]
struct Watched<E> {
    inner: E,
    url: String,
    problem: Arc<Mutex<Option<String>>>,
}

impl<E: SpanExporter> SpanExporter for Watched<E> {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        let spans = batch.len();
        let result = self.inner.export(batch).await;
        if let Err(e) = &result {
            tracing::warn!(url = %self.url, spans, error = %e, "traces not sent to the collector");
            let mut p = self.problem.lock().unwrap_or_else(|e| e.into_inner());
            if p.is_none() {
                // Short enough for a status line: where, and the last words
                // of why ("network error", "Status Code: 503").
                let text = e.to_string();
                let why = text.rsplit(": ").next().unwrap_or(&text).trim();
                let at = self.url.split("://").nth(1).unwrap_or(&self.url);
                let at = at.trim_end_matches("/v1/traces");
                *p = Some(format!("traces not sent to {at}: {why} — see the log"));
            }
        }
        result
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.inner.force_flush()
    }

    fn set_resource(&mut self, resource: &Resource) {
        self.inner.set_resource(resource);
    }
}

/// The exporter of one process: turns in, traces out.
pub struct Telemetry {
    provider: SdkTracerProvider,
    tracer: SdkTracer,
    capture: Capture,
    url: String,
    /// Each session's last snapshot, for the next turn's changes.
    last: Mutex<HashMap<String, ContextSnapshot>>,
    problem: Arc<Mutex<Option<String>>>,
    shown: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Telemetry").field("url", &self.url).finish()
    }
}

impl Telemetry {
    /// An exporter to the collector at `endpoint` (a base URL, or the full
    /// traces URL). Builds no connection: the first batch does. Callable
    /// from anywhere: its blocking HTTP client is built on a thread of its
    /// own (it must not start inside an async runtime).
    pub fn new(endpoint: &str, capture: Capture) -> Result<Self, TelemetryError> {
        let url = traces_url(endpoint)?;
        // The exporter's HTTP client uses rustls, as the LLM brain's does.
        crate::brain::llm::install_crypto_provider();
        let target = url.clone();
        let exporter = std::thread::spawn(move || {
            opentelemetry_otlp::SpanExporter::builder()
                .with_http()
                .with_protocol(Protocol::HttpBinary)
                .with_endpoint(target)
                .with_timeout(EXPORT_TIMEOUT)
                .build()
                .map_err(|e| e.to_string())
        })
        .join()
        .unwrap_or_else(|_| Err("its thread stopped".to_string()))
        .map_err(|reason| TelemetryError::Exporter {
            url: url.clone(),
            reason,
        })?;
        let problem = Arc::new(Mutex::new(None));
        let watched = Watched {
            inner: exporter,
            url: url.clone(),
            problem: Arc::clone(&problem),
        };
        let processor = BatchSpanProcessor::builder(watched)
            .with_batch_config(
                BatchConfigBuilder::default()
                    .with_max_queue_size(MAX_QUEUE)
                    .with_scheduled_delay(Duration::from_millis(500))
                    .build(),
            )
            .build();
        let resource = Resource::builder()
            .with_service_name("alfred")
            .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
            .build();
        let provider = SdkTracerProvider::builder()
            .with_span_processor(processor)
            .with_resource(resource)
            .build();
        let tracer = provider.tracer("alfred");
        Ok(Self {
            provider,
            tracer,
            capture,
            url,
            last: Mutex::new(HashMap::new()),
            problem,
            shown: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Where the traces go.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn start(&self, plan: &SpanPlan, parent: &Context) {
        let attributes: Vec<KeyValue> = plan
            .attributes
            .iter()
            .map(|(k, v)| KeyValue::new(k.clone(), value(v)))
            .collect();
        let span = self
            .tracer
            .span_builder(plan.name.clone())
            .with_start_time(plan.start)
            .with_attributes(attributes)
            .start_with_context(&self.tracer, parent);
        let cx = parent.with_span(span);
        for child in &plan.children {
            self.start(child, &cx);
        }
        let span = cx.span();
        if let Some(e) = &plan.error {
            span.set_status(Status::error(e.clone()));
        }
        span.end_with_timestamp(plan.end);
    }

    /// Sends what is queued and waits for the collector's answer (the CLI
    /// export, and the end of a session).
    pub fn flush(&self) -> Result<(), TelemetryError> {
        self.provider
            .force_flush()
            .map_err(|e| TelemetryError::NotSent {
                url: self.url.clone(),
                reason: e.to_string(),
            })?;
        match self
            .problem
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            Some(reason) => Err(TelemetryError::NotSent {
                url: self.url.clone(),
                reason,
            }),
            None => Ok(()),
        }
    }

    /// The first failed export, once: for a status line.
    pub fn problem(&self) -> Option<String> {
        let p = self
            .problem
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()?;
        (!self.shown.swap(true, std::sync::atomic::Ordering::SeqCst)).then_some(p)
    }
}

impl TurnObserver for Telemetry {
    fn problem(&self) -> Option<String> {
        Telemetry::problem(self)
    }

    /// Queues the turn's trace (its changes against the session's last
    /// turn that succeeded) and returns at once.
    fn turn_ended(&self, session_id: &str, record: &TurnRecord) {
        let snapshot = record.snapshot();
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let plan = spans::turn_trace(
            session_id,
            record,
            &snapshot,
            last.get(session_id),
            self.capture,
            SystemTime::now(),
        );
        self.start(&plan, &Context::new());
        if record.error.is_none() {
            last.insert(session_id.to_string(), snapshot);
        }
    }
}

impl Drop for Telemetry {
    fn drop(&mut self) {
        // What is queued goes out before the process ends, if the
        // collector takes it soon enough: a collector that hangs does not
        // hold up quitting for long.
        let _ = self.provider.shutdown_with_timeout(SHUTDOWN_WAIT);
    }
}

fn value(v: &AttrValue) -> Value {
    match v {
        AttrValue::Str(s) => Value::String(StringValue::from(s.clone())),
        AttrValue::Int(i) => Value::I64(*i),
        AttrValue::Float(f) => Value::F64(*f),
        AttrValue::Bool(b) => Value::Bool(*b),
        AttrValue::Strs(list) => Value::Array(Array::String(
            list.iter().cloned().map(StringValue::from).collect(),
        )),
    }
}
