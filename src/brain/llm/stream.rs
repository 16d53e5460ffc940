//! The streamed reply: the one bridge from the HTTP body to reply chunks.
//!
//! Bytes → [`SseDecoder`] events → async-openai stream chunks → each delta to
//! the [`ReplySink`] as it arrives. The stream must end with a
//! `finish_reason`: a body that ends without one (a dropped connection, a
//! server that answered plain JSON) is a failed reply, never an empty or
//! silently truncated one. Usage comes from the final usage chunk
//! (`stream_options.include_usage`), else it is estimated.

use async_openai::types::chat::{
    CompletionUsage, CreateChatCompletionStreamResponse, FinishReason,
};
use futures::StreamExt;

use crate::config::LlmNode;
use crate::pipeline::{BrainError, Decided, ReplyOutput, ReplySink};
use crate::prompt::Prompt;

use super::LlmBrain;
use super::errors::brain_error;
use super::http::Failure;
use super::sse::SseDecoder;
use super::usage::usage_of;
use super::wire::{Format, Message, Request, parse_chunk};

/// What has arrived so far.
#[derive(Debug, Default)]
struct Received {
    text: String,
    finish: Option<FinishReason>,
    usage: Option<CompletionUsage>,
}

impl Received {
    /// Takes one chunk, sending its text on at once.
    fn take(&mut self, chunk: CreateChatCompletionStreamResponse, sink: &ReplySink) {
        if chunk.usage.is_some() {
            self.usage = chunk.usage;
        }
        for choice in chunk.choices.into_iter().filter(|c| c.index == 0) {
            if let Some(delta) = choice.delta.content.filter(|d| !d.is_empty()) {
                self.text.push_str(&delta);
                sink.send(delta);
            }
            if choice.finish_reason.is_some() {
                self.finish = choice.finish_reason;
            }
        }
    }
}

impl LlmBrain {
    /// Streams the reply to `prompt`.
    pub(super) async fn stream_reply(
        &self,
        prompt: &Prompt,
        sink: &ReplySink,
    ) -> Result<Decided<ReplyOutput>, BrainError> {
        let model = self.config.model_for(LlmNode::Reply);
        let messages = [
            Message::System(prompt.system.to_string()),
            Message::User(prompt.user_text()),
        ];
        let body = Request {
            model,
            temperature: self.config.temperature_for(LlmNode::Reply),
            messages: &messages,
            format: Format::Stream,
            max_tokens: None,
        }
        .body()
        .map_err(BrainError::Other)?;
        let resp = self
            .endpoint
            .post_json("chat/completions", body, true)
            .await
            .map_err(|f| brain_error(&f, self.context(model)))?;
        let mut bytes = resp.bytes_stream();
        let mut decoder = SseDecoder::default();
        let mut got = Received::default();
        'read: while let Some(next) = bytes.next().await {
            let next = next.map_err(|e| {
                self.cut_off(
                    &got,
                    Some(&self.endpoint.scrubbed(Failure::from_reqwest(&e))),
                )
            })?;
            for event in decoder.feed(&next) {
                if event.data.trim() == "[DONE]" {
                    break 'read;
                }
                let chunk = parse_chunk(&event.data).map_err(|e| {
                    BrainError::Server(format!("{} broke off the reply: {e}.", self.endpoint.shown))
                })?;
                got.take(chunk, sink);
            }
        }
        if got.finish.is_none() {
            return Err(self.cut_off(&got, None));
        }
        let usage = usage_of(
            got.usage.as_ref(),
            &messages,
            &got.text,
            self.config.price_for(model),
        );
        Ok(Decided {
            value: ReplyOutput {
                response: got.text,
                dialogue: None,
            },
            usage: Some(usage),
        })
    }

    /// The error of a reply stream that stopped before the model finished:
    /// a read that failed, or (`None`) a body that simply ended.
    fn cut_off(&self, got: &Received, why: Option<&Failure>) -> BrainError {
        let server = &self.endpoint.shown;
        let n = got.text.chars().count();
        match why {
            Some(Failure::Timeout) => BrainError::Timeout(format!(
                "{server} stopped sending the reply for {} s after {n} characters. Send the \
                 message again, or raise llm.timeout_secs.",
                self.endpoint.timeout.as_secs()
            )),
            None => BrainError::Server(format!(
                "the reply from {server} ended after {n} characters without the model finishing \
                 (the stream closed with no finish_reason). Send the message again."
            )),
            Some(Failure::Broken(cause) | Failure::Connect(cause)) => BrainError::Server(format!(
                "the reply from {server} broke off after {n} characters ({cause}). Send the \
                 message again."
            )),
            Some(Failure::Status { .. }) => BrainError::Server(format!(
                "the reply from {server} broke off after {n} characters. Send the message again."
            )),
        }
    }
}
