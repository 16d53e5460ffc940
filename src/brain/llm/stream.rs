//! The streamed reply: each delta goes to the reply sink as it arrives
//! (`call` reads the stream). A reply the model finished is the reply; one
//! cut off at `llm.max_tokens.reply` (`finish_reason: "length"`) is kept —
//! the turn's work is done and the user has read it — and marked cut, so
//! the record and the chat say so. Usage comes from the final usage chunk
//! (`stream_options.include_usage`), else it is estimated.

use async_openai::types::chat::FinishReason;

use crate::config::LlmNode;
use crate::pipeline::{BrainError, CallLog, Decided, ReplyOutput, ReplySink};
use crate::prompt::Prompt;
use crate::record::CallAttempt;

use super::LlmBrain;
use super::call::{Broke, Exchange};
use super::errors::brain_error;
use super::record::Call;
use super::usage::usage_of;
use super::wire::{Format, Message, Request};

impl LlmBrain {
    /// Streams the reply to `prompt`, writing the request to `calls`.
    pub(super) async fn stream_reply(
        &self,
        prompt: &Prompt,
        sink: &ReplySink,
        calls: &CallLog,
    ) -> Result<Decided<ReplyOutput>, BrainError> {
        let model = self.config.model_for(LlmNode::Reply);
        let max_tokens = self.config.max_tokens_for(LlmNode::Reply);
        let messages = [
            Message::System(prompt.system.to_string()),
            Message::User(prompt.user_text()),
        ];
        let request = Request {
            model,
            temperature: self.config.temperature_for(LlmNode::Reply),
            messages: &messages,
            format: Format::Text,
            stream: true,
            max_tokens: Some(max_tokens),
        };
        let call = Call {
            node: LlmNode::Reply,
            schema: "reply",
            attempt: CallAttempt::Answer,
            request: &request,
        };
        let got = match self.exchange(LlmNode::Reply, &request, Some(sink)).await {
            Ok(got) => got,
            Err(Broke::Request(f, took)) => {
                let error = brain_error(&f, self.context(model));
                let none = Exchange {
                    total: took,
                    ..Exchange::default()
                };
                calls.push(self.record(&call, &none, None, Some(error.to_string())));
                return Err(error);
            }
            Err(Broke::Answer(error, partial)) => {
                calls.push(self.record(&call, &partial, None, Some(error.to_string())));
                return Err(error);
            }
        };
        let usage = usage_of(
            got.usage.as_ref(),
            &messages,
            &got.text,
            self.config.price_for(model),
        );
        let cut = got.finish == Some(FinishReason::Length);
        let problem =
            cut.then(|| format!("cut off at the {max_tokens}-token limit (llm.max_tokens.reply)"));
        calls.push(self.record(&call, &got, Some(usage), problem));
        Ok(Decided {
            value: ReplyOutput {
                response: got.text,
                dialogue: None,
                cut_at_tokens: cut.then_some(max_tokens),
            },
            usage: Some(usage),
        })
    }
}
