//! One request to the model and its whole answer, timed: the one place an
//! answer's body is read, streamed or not.
//!
//! Streamed (every call, unless the server refused streaming with a
//! response format): bytes → [`SseDecoder`] events → chunks, each delta sent
//! on to the reply sink when there is one. Three clocks tell a dead server
//! from a slow one, each with its own sentence:
//! - no first byte within `llm.timeout_secs` ("sent nothing for 60 s"),
//! - a silence of `llm.timeout_secs` after the answer began ("stopped
//!   sending after 1,204 characters"),
//! - the whole call over `llm.call_timeout_secs` ("did not finish within
//!   300 s; it was still writing").
//!
//! A streamed answer must end with a `finish_reason`: a body that ends
//! without one (a dropped connection, a server that answered plain JSON) is
//! a failed answer, never a silently truncated one. What arrived before a
//! failure is kept for the record.
//!
//! Everything the server says is scrubbed of the API key here, before it is
//! kept, sent to the reply sink or quoted in an error (`scrub`); a streamed
//! key split between two chunks included.

use std::time::{Duration, Instant};

use async_openai::types::chat::{
    CompletionUsage, CreateChatCompletionStreamResponse, FinishReason,
};
use futures::StreamExt;

use crate::config::LlmNode;
use crate::pipeline::{BrainError, ReplySink};
use crate::prompt::count_tokens;
use crate::text::thousands;

use super::client::LlmBrain;
use super::errors::seconds;
use super::http::{CallFailure, Failure};
use super::scrub::{Scrub, StreamScrub};
use super::sse::SseDecoder;
use super::wire::{Message, Request, parse_answer, parse_chunk};

/// The least room a prompt must leave for its answer, in tokens.
const MIN_ANSWER: usize = 64;

/// An answer, whole or as far as it came, with the key scrubbed out.
#[derive(Debug, Clone, Default)]
pub struct Exchange {
    /// The content as received (deltas joined).
    pub text: String,
    /// What the model declined with, if it declined.
    pub refusal: String,
    pub finish: Option<FinishReason>,
    pub usage: Option<CompletionUsage>,
    /// Prompt tokens the server took from its cache, when it says.
    pub cached: Option<u64>,
    pub status: Option<u16>,
    /// The `max_tokens` sent (lowered to fit the server's context).
    pub max_tokens: Option<u32>,
    /// From sending to the first byte of the body.
    pub first_byte: Option<Duration>,
    /// From sending to the last byte, or to the failure.
    pub total: Duration,
}

/// The streamed text and refusal on their way in: each scrubbed of the
/// key, holding back a tail that may begin it until the next chunk.
struct Incoming {
    text: StreamScrub,
    refusal: StreamScrub,
}

impl Incoming {
    fn new(scrub: &Scrub) -> Self {
        Self {
            text: scrub.stream(),
            refusal: scrub.stream(),
        }
    }
}

impl Exchange {
    /// Takes one streamed chunk, sending its scrubbed text to `sink` at once.
    fn take(
        &mut self,
        chunk: CreateChatCompletionStreamResponse,
        incoming: &mut Incoming,
        sink: Option<&ReplySink>,
    ) {
        if chunk.usage.is_some() {
            self.usage = chunk.usage;
        }
        for choice in chunk.choices.into_iter().filter(|c| c.index == 0) {
            if let Some(refusal) = choice.delta.refusal {
                self.refusal.push_str(&incoming.refusal.push(&refusal));
            }
            if let Some(delta) = choice.delta.content.filter(|d| !d.is_empty()) {
                self.add_text(incoming.text.push(&delta), sink);
            }
            if choice.finish_reason.is_some() {
                self.finish = choice.finish_reason;
            }
        }
    }

    /// The end of a finished stream: the tails held back go through.
    fn take_end(&mut self, mut incoming: Incoming, sink: Option<&ReplySink>) {
        self.refusal.push_str(&incoming.refusal.finish());
        self.add_text(incoming.text.finish(), sink);
    }

    fn add_text(&mut self, text: String, sink: Option<&ReplySink>) {
        if text.is_empty() {
            return;
        }
        self.text.push_str(&text);
        if let Some(sink) = sink {
            sink.send(text);
        }
    }
}

/// Why a call failed.
#[derive(Debug)]
pub enum Broke {
    /// The request was refused or went unanswered (status, connection):
    /// the caller decides whether another format would pass.
    Request(CallFailure, Duration),
    /// The answer began and then failed; what had arrived is kept.
    Answer(BrainError, Exchange),
}

/// How long the end of a body may take to come after `[DONE]`.
const DRAIN: Duration = Duration::from_millis(250);

/// Reads what is left of a streamed body after `[DONE]` (its last, empty
/// chunk), so the connection goes back to the pool: a body dropped unread
/// closes it, and the next call would connect (and, over TLS, shake hands)
/// again. A server that keeps sending is left after [`DRAIN`].
async fn drain<S, B, E>(mut body: S)
where
    S: futures::Stream<Item = Result<B, E>> + Unpin,
{
    let deadline = tokio::time::Instant::now() + DRAIN;
    while let Ok(Some(Ok(_))) = tokio::time::timeout_at(deadline, body.next()).await {}
}

/// "the reply", "the think answer": what a sentence calls a node's answer.
fn answer_of(node: LlmNode) -> String {
    match node {
        LlmNode::Reply => "the reply".into(),
        other => format!("the {} answer", other.key()),
    }
}

/// The `finish_reason` as the API spells it.
pub fn finish_name(f: FinishReason) -> &'static str {
    match f {
        FinishReason::Stop => "stop",
        FinishReason::Length => "length",
        FinishReason::ToolCalls => "tool_calls",
        FinishReason::ContentFilter => "content_filter",
        FinishReason::FunctionCall => "function_call",
    }
}

impl LlmBrain {
    /// Sends `request` for `node` and reads its whole answer.
    pub(super) async fn exchange(
        &self,
        node: LlmNode,
        request: &Request<'_>,
        sink: Option<&ReplySink>,
    ) -> Result<Exchange, Broke> {
        let request = &self
            .fit(node, request)
            .await
            .map_err(|e| Broke::Answer(e, Exchange::default()))?;
        let body = request
            .body()
            .map_err(|e| Broke::Answer(BrainError::Other(e), Exchange::default()))?;
        let started = Instant::now();
        let silence = self.endpoint.timeout;
        let whole = self.endpoint.call_timeout;
        let first_deadline = if request.stream { silence } else { whole };
        let resp = self
            .endpoint
            .post_json("chat/completions", body, first_deadline)
            .await;
        let resp = match resp {
            Ok(resp) => resp,
            Err(f) if f.failure == Failure::Timeout => {
                let got = Exchange {
                    total: started.elapsed(),
                    ..Exchange::default()
                };
                let why = if request.stream {
                    self.silent(node, request.messages, first_deadline)
                } else {
                    self.too_long(node, &got)
                };
                return Err(Broke::Answer(why, got));
            }
            Err(f) => return Err(Broke::Request(f, started.elapsed())),
        };
        let mut got = Exchange {
            status: Some(resp.status().as_u16()),
            max_tokens: request.max_tokens,
            ..Exchange::default()
        };
        if !request.stream {
            let left = whole.saturating_sub(started.elapsed());
            let read = tokio::time::timeout(left, resp.bytes()).await;
            got.total = started.elapsed();
            let bytes = match read {
                Err(_) => return Err(Broke::Answer(self.too_long(node, &got), got)),
                Ok(Err(e)) => {
                    let why = self.broke(
                        node,
                        &got,
                        &self.endpoint.scrubbed(Failure::from_reqwest(&e)),
                    );
                    return Err(Broke::Answer(why, got));
                }
                Ok(Ok(bytes)) => bytes,
            };
            got.first_byte = Some(got.total);
            let scrub = &self.endpoint.scrub;
            let answer = match parse_answer(&bytes) {
                Ok(a) => a,
                Err(e) => {
                    got.text = scrub.text(&String::from_utf8_lossy(&bytes));
                    let why = BrainError::Server(format!(
                        "{} answered the {} request with something other than a chat \
                         completion: {}.",
                        self.endpoint.shown,
                        node.key(),
                        scrub.text(&e)
                    ));
                    return Err(Broke::Answer(why, got));
                }
            };
            got.text = scrub.text(&answer.content.unwrap_or_default());
            got.refusal = scrub.text(&answer.refusal.unwrap_or_default());
            got.finish = answer.finish;
            got.usage = answer.usage;
            got.cached = answer.cached;
            return Ok(got);
        }
        let mut bytes = resp.bytes_stream();
        let mut decoder = SseDecoder::default();
        let mut incoming = Incoming::new(&self.endpoint.scrub);
        'read: loop {
            let elapsed = started.elapsed();
            let wait = silence.min(whole.saturating_sub(elapsed));
            let next = tokio::time::timeout(wait, bytes.next()).await;
            got.total = started.elapsed();
            let next = match next {
                Err(_) if got.total >= whole => {
                    return Err(Broke::Answer(self.too_long(node, &got), got));
                }
                Err(_) if got.first_byte.is_none() => {
                    return Err(Broke::Answer(
                        self.silent(node, request.messages, silence),
                        got,
                    ));
                }
                Err(_) => return Err(Broke::Answer(self.stalled(node, &got), got)),
                Ok(None) => break,
                Ok(Some(Err(e))) => {
                    let why = self.broke(
                        node,
                        &got,
                        &self.endpoint.scrubbed(Failure::from_reqwest(&e)),
                    );
                    return Err(Broke::Answer(why, got));
                }
                Ok(Some(Ok(next))) => next,
            };
            got.first_byte.get_or_insert(got.total);
            for event in decoder.feed(&next) {
                if event.data.trim() == "[DONE]" {
                    got.total = started.elapsed();
                    drain(bytes).await;
                    break 'read;
                }
                match parse_chunk(&event.data) {
                    Ok((chunk, cached)) => {
                        if cached.is_some() {
                            got.cached = cached;
                        }
                        got.take(chunk, &mut incoming, sink)
                    }
                    Err(e) => {
                        let why = BrainError::Server(format!(
                            "{} broke off {}: {}.",
                            self.endpoint.shown,
                            answer_of(node),
                            self.endpoint.scrub.text(&e)
                        ));
                        return Err(Broke::Answer(why, got));
                    }
                }
            }
        }
        got.total = started.elapsed();
        if got.finish.is_none() {
            let why = BrainError::Server(format!(
                "{} from {} ended after {} characters without the model finishing (the \
                 stream closed with no finish_reason). Send the message again.",
                answer_of(node),
                self.endpoint.shown,
                got.text.chars().count()
            ));
            return Err(Broke::Answer(why, got));
        }
        // Only a finished stream lets its held tail through: one that broke
        // off may have cut the key short.
        got.take_end(incoming, sink);
        Ok(got)
    }

    /// `request` as it can be sent within the server's context: with its
    /// answer's budget lowered to the room left, or refused before sending
    /// when the prompt leaves no room at all.
    async fn fit<'r>(
        &self,
        node: LlmNode,
        request: &Request<'r>,
    ) -> Result<Request<'r>, BrainError> {
        let info = self.server().await;
        let window = info.context.unwrap_or(self.config.context_window) as usize;
        let budget = request.max_tokens.unwrap_or(0) as usize;
        // The chat template's tokens around each message.
        let framing = 8 * request.messages.len();
        let bytes: usize = request.messages.iter().map(|m| m.text().len()).sum();
        // A token is at least one byte: most prompts need no counting.
        if bytes + framing + budget <= window {
            return Ok(request.clone());
        }
        let prompt = framing
            + request
                .messages
                .iter()
                .map(|m| count_tokens(m.text()))
                .sum::<usize>();
        if prompt + MIN_ANSWER > window {
            let (server, size) = (&self.endpoint.shown, thousands(window));
            let (holds, knob) = match info.context_from {
                Some(from) => (
                    format!(
                        "{} at {server} holds {size} tokens per request ({from})",
                        info.kind.name()
                    ),
                    info.kind.context_knob(),
                ),
                None => (
                    format!(
                        "the model holds {size} tokens per request (llm.context_window; \
                         {server} does not publish its context)"
                    ),
                    "use a model with a larger window and raise llm.context_window, or start \
                     a new session",
                ),
            };
            return Err(BrainError::Other(format!(
                "The {} prompt is about {} tokens, but {holds}: no room is left for the answer. \
                 Nothing was sent. To go on, {knob}.",
                node.key(),
                thousands(prompt)
            )));
        }
        let mut fitted = request.clone();
        if prompt + budget > window {
            fitted.max_tokens = Some((window - prompt) as u32);
        }
        Ok(fitted)
    }

    /// No first byte within the silence deadline.
    fn silent(&self, node: LlmNode, messages: &[Message], waited: Duration) -> BrainError {
        let tokens: usize = messages.iter().map(|m| count_tokens(m.text())).sum();
        BrainError::Timeout(format!(
            "{} took the {} request but sent nothing for {} (llm.timeout_secs): the model \
             may still be loading, or reading the {tokens}-token prompt on a slow machine. \
             Send the message again, or raise llm.timeout_secs.",
            self.endpoint.shown,
            node.key(),
            seconds(waited)
        ))
    }

    /// The answer began, then nothing came for the silence deadline.
    fn stalled(&self, node: LlmNode, got: &Exchange) -> BrainError {
        BrainError::Timeout(format!(
            "{} stopped sending {} for {} after {} characters (llm.timeout_secs). Send \
             the message again, or raise llm.timeout_secs.",
            self.endpoint.shown,
            answer_of(node),
            seconds(self.endpoint.timeout),
            got.text.chars().count()
        ))
    }

    /// The whole call took longer than its deadline.
    fn too_long(&self, node: LlmNode, got: &Exchange) -> BrainError {
        let n = got.text.chars().count();
        let pace = match got.first_byte {
            Some(first) if n > 0 => {
                let writing = got.total.saturating_sub(first).as_secs_f64().max(0.001);
                format!(
                    "; it was still writing ({n} characters so far, about {:.0} a second)",
                    n as f64 / writing
                )
            }
            _ => String::new(),
        };
        BrainError::Timeout(format!(
            "{} did not finish {} within {} (llm.call_timeout_secs){pace}. Lower \
             llm.max_tokens.{} or raise llm.call_timeout_secs.",
            self.endpoint.shown,
            answer_of(node),
            seconds(self.endpoint.call_timeout),
            node.key()
        ))
    }

    /// Reading the answer failed.
    fn broke(&self, node: LlmNode, got: &Exchange, why: &Failure) -> BrainError {
        let server = &self.endpoint.shown;
        let n = got.text.chars().count();
        let cause = match why {
            Failure::Broken(c) | Failure::Connect(c) => format!(" ({c})"),
            _ => String::new(),
        };
        BrainError::Server(format!(
            "{} from {server} broke off after {n} characters{cause}. Send the message \
             again.",
            answer_of(node)
        ))
    }
}
