//! One request to the model server, retried per [`RetryPolicy`]: the only
//! place the brain touches the network.
//!
//! Why reqwest and not async-openai's `Client`: in async-openai 0.43 every
//! client wraps its requests in a fixed retry layer (3 retries of 429, 5xx
//! and connection errors, honouring `Retry-After` without a cap), and only
//! the `middleware` feature can replace it. Under that layer `max_retries`
//! could not mean what it says, and a server asking to wait an hour would
//! freeze the turn. So requests are sent here, with exactly one retry policy;
//! async-openai still provides the wire types (`wire`).
//!
//! Cancellation: dropping the future drops the request or the response body,
//! which closes the connection. Logs name the URL, sizes, statuses and
//! delays — never headers.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, HeaderMap};

use super::retry;
use super::setup::Endpoint;

/// Why one attempt failed.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The server answered with an error status.
    Status {
        status: StatusCode,
        /// The server's own words (`error.message`), or the start of the body.
        message: String,
        /// `error.code` or `error.type`, when given (`insufficient_quota`).
        code: Option<String>,
        retry_after: Option<Duration>,
    },
    /// No answer within the deadline.
    Timeout,
    /// No connection (refused, DNS, TLS).
    Connect(String),
    /// The connection broke or the answer could not be read.
    Broken(String),
}

impl Failure {
    /// Whether another attempt may succeed. A timeout is not retried: the
    /// user has already waited the whole deadline once.
    fn retryable(&self) -> bool {
        match self {
            Failure::Status { status, code, .. } => {
                (*status == StatusCode::TOO_MANY_REQUESTS
                    && code.as_deref() != Some("insufficient_quota"))
                    || status.is_server_error()
            }
            Failure::Connect(_) => true,
            Failure::Timeout | Failure::Broken(_) => false,
        }
    }

    fn retry_after(&self) -> Option<Duration> {
        match self {
            Failure::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// Classifies a reqwest error.
    pub fn from_reqwest(e: &reqwest::Error) -> Self {
        if e.is_timeout() {
            Failure::Timeout
        } else if e.is_connect() {
            Failure::Connect(root_cause(e))
        } else {
            Failure::Broken(root_cause(e))
        }
    }
}

/// A request that failed for good, with what was tried.
#[derive(Debug, Clone, PartialEq)]
pub struct CallFailure {
    pub failure: Failure,
    /// Retries made after the first attempt.
    pub retries: u32,
    /// From the first attempt to giving up.
    pub elapsed: Duration,
}

impl Endpoint {
    /// POSTs a JSON body to `path`, retrying what may succeed later. Each
    /// attempt must bring the answer's status and headers within `deadline`
    /// (the body is the caller's to read and time).
    pub async fn post_json(
        &self,
        path: &str,
        body: Vec<u8>,
        deadline: Duration,
    ) -> Result<reqwest::Response, CallFailure> {
        let url = self.url(path);
        let started = Instant::now();
        let mut retries = 0;
        let mut resent_stale = false;
        loop {
            let sent = Instant::now();
            tracing::debug!(url = %self.shown, path, bytes = body.len(), attempt = retries + 1, "model request");
            let request = self
                .http
                .post(&url)
                .header(CONTENT_TYPE, "application/json")
                .body(body.clone());
            let failure = match tokio::time::timeout(deadline, request.send()).await {
                Ok(Ok(resp)) if resp.status().is_success() => return Ok(resp),
                Ok(Ok(resp)) => failure_of(resp).await,
                Ok(Err(e)) if !resent_stale && stale(&e, sent.elapsed()) => {
                    // The server closed a kept-alive connection as the
                    // request went out on it (llama.cpp closes each one
                    // after a stream): it never read the request. Once
                    // more, on a new connection, costs nothing.
                    tracing::debug!(url = %self.shown, path, "kept-alive connection was closed; sending again");
                    resent_stale = true;
                    continue;
                }
                Ok(Err(e)) => Failure::from_reqwest(&e),
                Err(_) => Failure::Timeout,
            };
            let failure = self.scrubbed(failure);
            if !failure.retryable() || retries >= self.retry.max_retries {
                tracing::warn!(url = %self.shown, ?failure, retries, "model request failed");
                return Err(CallFailure {
                    failure,
                    retries,
                    elapsed: started.elapsed(),
                });
            }
            let delay = self.retry.delay(retries, failure.retry_after());
            tracing::warn!(url = %self.shown, ?failure, retry = retries + 1, delay_ms = delay.as_millis() as u64, "model request failed; retrying");
            tokio::time::sleep(delay).await;
            retries += 1;
        }
    }

    /// GETs `path` once (no retries: `doctor` reports what it sees).
    pub async fn get(&self, path: &str) -> Result<reqwest::Response, Failure> {
        let resp = self
            .http
            .get(self.url(path))
            .timeout(self.timeout)
            .send()
            .await
            .map_err(|e| self.scrubbed(Failure::from_reqwest(&e)))?;
        if resp.status().is_success() {
            Ok(resp)
        } else {
            Err(self.scrubbed(failure_of(resp).await))
        }
    }

    /// `failure` with the key taken out of all the server said.
    pub fn scrubbed(&self, failure: Failure) -> Failure {
        match failure {
            Failure::Status {
                status,
                message,
                code,
                retry_after,
            } => Failure::Status {
                status,
                message: self.scrub.text(&message),
                code: code.map(|c| self.scrub.text(&c)),
                retry_after,
            },
            Failure::Connect(c) => Failure::Connect(self.scrub.text(&c)),
            Failure::Broken(c) => Failure::Broken(self.scrub.text(&c)),
            Failure::Timeout => Failure::Timeout,
        }
    }
}

/// Reads an error answer: its status, the server's message and wait.
pub async fn failure_of(resp: reqwest::Response) -> Failure {
    let status = resp.status();
    let retry_after = wait_of(resp.headers());
    let body = resp.text().await.unwrap_or_default();
    let (message, code) = error_message(&body);
    Failure::Status {
        status,
        message,
        code,
        retry_after,
    }
}

fn wait_of(headers: &HeaderMap) -> Option<Duration> {
    let get = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    retry::retry_after(
        get("retry-after-ms"),
        get("retry-after"),
        jiff::Timestamp::now(),
    )
}

/// The message and code of an error body in any of the shapes servers use:
/// `{"error": {"message", "code"|"type"}}`, `{"error": "…"}`, `{"message"}`,
/// `{"detail"}`, or plain text (shortened to one line).
pub fn error_message(body: &str) -> (String, Option<String>) {
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Null => None,
        other => Some(other.to_string()),
    };
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(body) {
        let err = &v["error"];
        let message = text(&err["message"])
            .or_else(|| err.as_str().map(str::to_string))
            .or_else(|| text(&v["message"]))
            .or_else(|| text(&v["detail"]));
        if let Some(message) = message {
            let code = text(&err["code"]).or_else(|| text(&err["type"]));
            return (one_line(&message), code);
        }
    }
    (one_line(body), None)
}

/// Text on one line, at most 300 characters.
pub fn one_line(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &flat[..i]),
        None => flat,
    }
}

/// How soon after sending a closed connection shows it was closed
/// already (a server that read the request and died later is no stale
/// connection, and is not sent the request twice).
const STALE_WITHIN: Duration = Duration::from_millis(500);

/// True when `e` says the connection closed before any answer came, right
/// after the request went out: a kept-alive connection the server had
/// closed (hyper's "connection closed before message completed").
fn stale(e: &reqwest::Error, after: Duration) -> bool {
    if after > STALE_WITHIN {
        return false;
    }
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        if let Some(h) = c.downcast_ref::<hyper::Error>() {
            return h.is_incomplete_message();
        }
        cause = c.source();
    }
    false
}

/// The innermost cause of an error: "Connection refused (os error 111)".
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_bodies_of_every_shape_give_a_message() {
        let (m, c) = error_message(
            r#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#,
        );
        assert_eq!(
            (m.as_str(), c.as_deref()),
            ("Rate limit reached", Some("rate_limit_exceeded"))
        );
        let (m, c) = error_message(
            r#"{"error":{"code":400,"message":"bad","type":"invalid_request_error"}}"#,
        );
        assert_eq!((m.as_str(), c.as_deref()), ("bad", Some("400")));
        assert_eq!(
            error_message(r#"{"error":"model not found"}"#).0,
            "model not found"
        );
        assert_eq!(error_message(r#"{"detail":"Not Found"}"#).0, "Not Found");
        assert_eq!(
            error_message("Bad Gateway\n\n  nginx").0,
            "Bad Gateway nginx"
        );
        let long = "x".repeat(400);
        assert_eq!(error_message(&long).0.chars().count(), 301);
    }

    #[test]
    fn only_what_may_pass_later_is_retried() {
        let status = |s: u16, code: Option<&str>| Failure::Status {
            status: StatusCode::from_u16(s).unwrap(),
            message: String::new(),
            code: code.map(str::to_string),
            retry_after: None,
        };
        assert!(status(429, None).retryable());
        assert!(status(503, None).retryable());
        assert!(!status(429, Some("insufficient_quota")).retryable());
        assert!(!status(400, None).retryable());
        assert!(!status(401, None).retryable());
        assert!(Failure::Connect("refused".into()).retryable());
        assert!(!Failure::Timeout.retryable());
    }
}
