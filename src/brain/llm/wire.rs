//! What goes over the wire, in async-openai's types: the chat completion
//! request (messages, model, temperature, response format, streaming
//! options) and the answers (a completion, a stream chunk, usage).
//!
//! Pure: builds bytes and reads bytes. The request never carries the key
//! (that is a header of the client) and the body never holds a row id (the
//! prompts only carry refs).

use async_openai::types::chat::{
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestMessage,
    ChatCompletionRequestSystemMessage, ChatCompletionRequestUserMessage,
    ChatCompletionStreamOptions, CompletionUsage, CreateChatCompletionRequestArgs,
    CreateChatCompletionResponse, CreateChatCompletionStreamResponse, FinishReason, ResponseFormat,
    ResponseFormatJsonSchema,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::schema::StrictSchema;

/// The structured answer of a compression: the new earlier summary.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CompressOutput {
    /// The merged summary, plain sentences, within the requested length.
    pub summary: String,
}

/// One message of the conversation sent to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    System(String),
    User(String),
    /// A previous answer of the model (quoted back in a repair request).
    Assistant(String),
}

impl Message {
    /// The message's text.
    pub fn text(&self) -> &str {
        match self {
            Message::System(t) | Message::User(t) | Message::Assistant(t) => t,
        }
    }
}

/// How the answer must be shaped.
#[derive(Debug, Clone, Copy)]
pub enum Format<'a> {
    /// `json_schema`, strict.
    Schema(&'a StrictSchema),
    /// `json_object`, for servers without `json_schema`; the schema is
    /// pasted into the system message instead.
    JsonObject,
    /// Plain text (Reply, `doctor`'s probe).
    Text,
}

impl Format<'_> {
    /// The `response_format` type's name, as records and logs show it.
    pub fn name(&self) -> &'static str {
        match self {
            Format::Schema(_) => "json_schema",
            Format::JsonObject => "json_object",
            Format::Text => "text",
        }
    }
}

/// One chat completion request.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub model: &'a str,
    pub temperature: f32,
    pub messages: &'a [Message],
    pub format: Format<'a>,
    /// Answer as server-sent events, with usage in the last one.
    pub stream: bool,
    /// A cap on the answer's tokens, when wanted.
    pub max_tokens: Option<u32>,
}

impl Request<'_> {
    /// The JSON body, built with async-openai's request type. With
    /// `stream`, `"stream": true` is set explicitly (async-openai's `byot`
    /// feature does not) and usage is requested in the last chunk.
    pub fn body(&self) -> Result<Vec<u8>, String> {
        let messages: Vec<ChatCompletionRequestMessage> = self
            .messages
            .iter()
            .map(|m| match m {
                Message::System(t) => ChatCompletionRequestSystemMessage::from(t.as_str()).into(),
                Message::User(t) => ChatCompletionRequestUserMessage::from(t.as_str()).into(),
                Message::Assistant(t) => {
                    ChatCompletionRequestAssistantMessage::from(t.as_str()).into()
                }
            })
            .collect();
        let mut args = CreateChatCompletionRequestArgs::default();
        args.model(self.model)
            .messages(messages)
            .temperature(self.temperature);
        match self.format {
            Format::Schema(s) => {
                args.response_format(ResponseFormat::JsonSchema {
                    json_schema: ResponseFormatJsonSchema {
                        description: None,
                        name: s.name.to_string(),
                        schema: s.schema.clone(),
                        strict: Some(true),
                    },
                });
            }
            Format::JsonObject => {
                args.response_format(ResponseFormat::JsonObject);
            }
            Format::Text => {}
        }
        if self.stream {
            args.stream(true)
                .stream_options(ChatCompletionStreamOptions {
                    include_usage: Some(true),
                    include_obfuscation: None,
                });
        }
        if let Some(n) = self.max_tokens {
            // `max_tokens` rather than `max_completion_tokens`: every
            // OpenAI-compatible server knows the older name.
            #[allow(deprecated)]
            args.max_tokens(n);
        }
        let request = args.build().map_err(|e| e.to_string())?;
        serde_json::to_vec(&request).map_err(|e| e.to_string())
    }
}

/// The parts of a completion the brain uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub content: Option<String>,
    pub refusal: Option<String>,
    pub finish: Option<FinishReason>,
    pub usage: Option<CompletionUsage>,
    /// Prompt tokens the server took from its cache ([`cached_of`]).
    pub cached: Option<u64>,
}

/// Prompt tokens the server says it took from its prompt cache: OpenAI's
/// (and vLLM's) `usage.prompt_tokens_details.cached_tokens`, else
/// llama.cpp's `timings.cache_n`. None when the server does not say.
pub fn cached_of(v: &serde_json::Value) -> Option<u64> {
    v.pointer("/usage/prompt_tokens_details/cached_tokens")
        .and_then(serde_json::Value::as_u64)
        .or_else(|| {
            v.pointer("/timings/cache_n")
                .and_then(serde_json::Value::as_u64)
        })
}

/// Reads a (non-streamed) completion.
pub fn parse_answer(body: &[u8]) -> Result<Answer, String> {
    let value: serde_json::Value =
        serde_json::from_slice(body).map_err(|e| format!("not a chat completion ({e})"))?;
    let cached = cached_of(&value);
    let resp: CreateChatCompletionResponse =
        serde_json::from_value(value).map_err(|e| format!("not a chat completion ({e})"))?;
    let choice = resp
        .choices
        .into_iter()
        .next()
        .ok_or("a chat completion without any choice")?;
    Ok(Answer {
        content: choice.message.content,
        refusal: choice.message.refusal,
        finish: choice.finish_reason,
        usage: resp.usage,
        cached,
    })
}

/// Reads one streamed chunk, with the cached prompt tokens when the chunk
/// says ([`cached_of`]: the usage chunk, or llama.cpp's last one); an
/// `{"error": …}` event is the server's error.
pub fn parse_chunk(
    data: &str,
) -> Result<(CreateChatCompletionStreamResponse, Option<u64>), String> {
    let value: serde_json::Value =
        serde_json::from_str(data).map_err(|e| format!("a stream event is not JSON ({e})"))?;
    if let Some(err) = value.get("error") {
        let (message, _) =
            super::http::error_message(&serde_json::json!({ "error": err }).to_string());
        return Err(format!(
            "the server reported an error mid-stream: {message}"
        ));
    }
    let cached = cached_of(&value);
    serde_json::from_value(value)
        .map(|chunk| (chunk, cached))
        .map_err(|e| format!("a stream event is not a chat completion chunk ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn body(format: Format<'_>, stream: bool) -> Value {
        let messages = [Message::System("sys".into()), Message::User("hi".into())];
        let req = Request {
            model: "m",
            temperature: 0.25,
            messages: &messages,
            format,
            stream,
            max_tokens: stream.then_some(300),
        };
        serde_json::from_slice(&req.body().unwrap()).unwrap()
    }

    #[test]
    fn requests_carry_the_format_and_the_stream_flags() {
        let schema = StrictSchema::of::<CompressOutput>("compress_output");
        let b = body(Format::Schema(&schema), false);
        assert_eq!(b["model"], "m");
        assert_eq!(
            b["messages"][0],
            json!({"role": "system", "content": "sys"})
        );
        assert_eq!(b["response_format"]["type"], "json_schema");
        assert_eq!(
            b["response_format"]["json_schema"]["name"],
            "compress_output"
        );
        assert_eq!(b["response_format"]["json_schema"]["strict"], true);
        assert!(b.get("stream").is_none() && b.get("max_tokens").is_none());
        assert_eq!(
            body(Format::JsonObject, false)["response_format"],
            json!({"type": "json_object"})
        );
        let s = body(Format::Text, true);
        assert_eq!(s["stream"], true);
        assert_eq!(s["stream_options"], json!({"include_usage": true}));
        assert_eq!(s["max_tokens"], 300);
        assert!(s.get("response_format").is_none());
        let streamed_schema = body(Format::Schema(&schema), true);
        assert_eq!(streamed_schema["stream"], true);
        assert_eq!(streamed_schema["response_format"]["type"], "json_schema");
    }

    #[test]
    fn answers_and_chunks_parse_and_errors_explain_themselves() {
        let a = parse_answer(
            br#"{"id":"x","object":"chat.completion","created":1,"model":"m",
                "choices":[{"index":0,"message":{"role":"assistant","content":"{}"},"finish_reason":"stop"}],
                "usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}"#,
        )
        .unwrap();
        assert_eq!(a.content.as_deref(), Some("{}"));
        assert_eq!(a.finish, Some(FinishReason::Stop));
        assert_eq!(a.usage.map(|u| u.prompt_tokens), Some(3));
        assert!(
            parse_answer(b"<html>")
                .unwrap_err()
                .starts_with("not a chat completion")
        );
        let err = parse_chunk(r#"{"error":{"message":"overloaded"}}"#).unwrap_err();
        assert!(err.ends_with("overloaded"), "{err}");
    }

    #[test]
    fn cached_prompt_tokens_are_read_as_each_server_reports_them() {
        // OpenAI and vLLM: in the usage.
        let openai = parse_answer(
            br#"{"id":"x","object":"chat.completion","created":1,"model":"m",
                "choices":[{"index":0,"message":{"role":"assistant","content":"{}"},"finish_reason":"stop"}],
                "usage":{"prompt_tokens":1412,"completion_tokens":9,"total_tokens":1421,
                         "prompt_tokens_details":{"cached_tokens":1302}}}"#,
        )
        .unwrap();
        assert_eq!(openai.cached, Some(1302));
        // llama.cpp: in its timings, on the last streamed chunk.
        let (chunk, cached) = parse_chunk(
            r#"{"id":"x","object":"chat.completion.chunk","created":1,"model":"m",
                "choices":[{"index":0,"delta":{},"finish_reason":"stop"}],
                "timings":{"cache_n":1290,"prompt_n":122,"prompt_ms":310.5}}"#,
        )
        .unwrap();
        assert_eq!(cached, Some(1290));
        assert_eq!(chunk.choices[0].finish_reason, Some(FinishReason::Stop));
        // A server that does not say: nothing is made up.
        let (_, none) = parse_chunk(
            r#"{"id":"x","object":"chat.completion.chunk","created":1,"model":"m",
                "choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}"#,
        )
        .unwrap();
        assert_eq!(none, None);
    }
}
