//! What a failed request tells the user: each failure as a sentence that
//! names the server, what it said, what was tried, and what to do.
//!
//! The [`BrainError`] variant sets the opening ("the model server is rate
//! limiting requests: …"); the text here completes it. Must not include the
//! key or any header.

use std::time::Duration;

use reqwest::StatusCode;

use crate::pipeline::BrainError;

use super::http::{CallFailure, Failure};

/// What an error sentence needs to know about the request.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The API root as shown (no credentials).
    pub server: &'a str,
    pub model: &'a str,
    /// The name of the key's environment variable.
    pub key_var: &'a str,
    pub timeout: Duration,
}

/// " after 3 retries over 14 s", or "" when nothing was retried.
fn tried(f: &CallFailure) -> String {
    match f.retries {
        0 => String::new(),
        1 => format!("; gave up after 1 retry over {}", seconds(f.elapsed)),
        n => format!("; gave up after {n} retries over {}", seconds(f.elapsed)),
    }
}

/// "1.5 s", "14 s".
pub fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 10.0 {
        format!("{s:.1} s")
    } else {
        format!("{s:.0} s")
    }
}

fn said(message: &str) -> String {
    if message.is_empty() {
        String::new()
    } else {
        format!(": {message}")
    }
}

/// The user's sentence for a request that failed for good.
pub fn brain_error(f: &CallFailure, cx: Context<'_>) -> BrainError {
    let server = cx.server;
    match &f.failure {
        Failure::Status {
            status,
            message,
            code,
            ..
        } => status_error(*status, message, code.as_deref(), f, cx),
        Failure::Timeout => BrainError::Timeout(format!(
            "{server} sent nothing for {} (llm.timeout_secs); the model may still be loading or \
             the server is overloaded. Send the message again, or raise llm.timeout_secs.",
            seconds(cx.timeout)
        )),
        Failure::Connect(cause) => BrainError::Unreachable(format!(
            "{server} ({cause}){}. Is the server running? Check llm.base_url or --base-url, \
             or run with --llm offline.",
            tried(f)
        )),
        Failure::Broken(cause) => BrainError::Server(format!(
            "the connection to {server} broke before the answer was complete ({cause}){}. \
             Send the message again.",
            tried(f)
        )),
    }
}

fn status_error(
    status: StatusCode,
    message: &str,
    code: Option<&str>,
    f: &CallFailure,
    cx: Context<'_>,
) -> BrainError {
    let server = cx.server;
    let http = format!("HTTP {}", status.as_u16());
    match status.as_u16() {
        429 if code == Some("insufficient_quota") => BrainError::Other(format!(
            "The model server at {server} says the account behind {} has no quota left \
             ({http}{}). Add credit, use another key, or run with --llm offline.",
            cx.key_var,
            said(message)
        )),
        429 => BrainError::RateLimited(format!(
            "{server} answered {http}{}{}. Wait a minute and send the message again.",
            said(message),
            tried(f)
        )),
        401 | 403 => BrainError::Other(format!(
            "The model server at {server} refused the API key from {} ({http}{}). \
             Check the key, or for a local server any non-empty value will do.",
            cx.key_var,
            said(message)
        )),
        404 => BrainError::Other(format!(
            "The model server at {server} does not know the model \"{}\" or the chat \
             completions path ({http}{}). Check [llm.models] or --model, and that \
             llm.base_url ends where the API starts (often /v1).",
            cx.model,
            said(message)
        )),
        s if s >= 500 => BrainError::Server(format!(
            "{server} answered {http}{}{}. Try again in a moment.",
            said(message),
            tried(f)
        )),
        400 if mentions_context(message) => BrainError::Other(format!(
            "The model server at {server} refused the request for model \"{}\": the prompt \
             and its answer do not fit the model's context ({http}{}). Give the server a larger \
             context (llama-server -c, Ollama num_ctx, vLLM --max-model-len), or lower \
             [llm.max_tokens].",
            cx.model,
            said(message)
        )),
        _ => BrainError::Other(format!(
            "The model server at {server} rejected the request for model \"{}\" ({http}{}).",
            cx.model,
            said(message)
        )),
    }
}

/// Whether a server's refusal is about the context's size (llama.cpp:
/// "exceeds the available context size"; vLLM: "maximum context length";
/// OpenAI: `context_length_exceeded`).
fn mentions_context(message: &str) -> bool {
    let m = message.to_lowercase();
    m.contains("context size") || m.contains("context length") || m.contains("context_length")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cx() -> Context<'static> {
        Context {
            server: "http://localhost:11434/v1",
            model: "llama3.1",
            key_var: "OPENAI_API_KEY",
            timeout: Duration::from_secs(60),
        }
    }

    fn status(code: u16, message: &str, retries: u32, secs: u64) -> CallFailure {
        CallFailure {
            failure: Failure::Status {
                status: StatusCode::from_u16(code).unwrap(),
                message: message.into(),
                code: None,
                retry_after: None,
            },
            retries,
            elapsed: Duration::from_secs(secs),
        }
    }

    #[test]
    fn a_rate_limit_names_the_server_the_retries_and_the_time() {
        let e = brain_error(&status(429, "slow down", 3, 14), cx());
        assert_eq!(
            e.to_string(),
            "the model server is rate limiting requests: http://localhost:11434/v1 answered \
             HTTP 429: slow down; gave up after 3 retries over 14 s. Wait a minute and send \
             the message again."
        );
    }

    #[test]
    fn every_failure_is_a_sentence_with_a_way_out() {
        let cases = [
            brain_error(&status(500, "", 3, 3), cx()),
            brain_error(&status(401, "bad key", 0, 0), cx()),
            brain_error(&status(404, "model not found", 0, 0), cx()),
            brain_error(&status(400, "bad", 0, 0), cx()),
            brain_error(
                &CallFailure {
                    failure: Failure::Connect("Connection refused (os error 111)".into()),
                    retries: 2,
                    elapsed: Duration::from_millis(1500),
                },
                cx(),
            ),
            brain_error(
                &CallFailure {
                    failure: Failure::Timeout,
                    retries: 0,
                    elapsed: Duration::from_secs(60),
                },
                cx(),
            ),
        ];
        for e in &cases {
            let s = e.to_string();
            assert!(s.contains("localhost:11434"), "{s}");
            assert!(s.ends_with('.'), "{s}");
        }
        assert!(cases[0].to_string().contains("3 retries over 3.0 s"));
        assert!(cases[1].to_string().contains("OPENAI_API_KEY"));
        assert!(cases[2].to_string().contains("\"llama3.1\""));
        assert!(cases[4].to_string().contains("2 retries over 1.5 s"));
        assert!(matches!(cases[5], BrainError::Timeout(_)));
    }
}
