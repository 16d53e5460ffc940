//! A structured decision: one chat completion whose answer must parse into
//! the node's output type, with one repair and the `json_object` fallback.
//!
//! - The request asks for `json_schema` (strict). A server that refuses it
//!   (an HTTP 400/422 naming `response_format` or `json_schema`) is asked
//!   again with `json_object` and the schema pasted into the system message;
//!   the brain remembers that for the rest of its life (one brain per
//!   session), so later calls go straight to `json_object`.
//! - An answer that does not parse, or parses but fails the node's checks,
//!   gets exactly one repair request that quotes the problem; a second
//!   failure is [`BrainError::InvalidOutput`].

use std::sync::atomic::Ordering;

use reqwest::StatusCode;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::config::LlmNode;
use crate::context::archive::SEARCH_HISTORY;
use crate::kitchen::TOOLS;
use crate::pipeline::{
    ActAction, BrainError, Decided, SUBDOMAINS, SummarizeOutput, ThinkOutput, UnderstandOutput,
    Usage,
};
use crate::prompt::Prompt;

use super::LlmBrain;
use super::errors::brain_error;
use super::http::{CallFailure, Failure};
use super::messages::system_with_schema;
use super::schema::StrictSchema;
use super::usage::usage_of;
use super::wire::{CompressOutput, Format, Message, Request, parse_answer};

/// Checks an answer must pass beyond its schema; a failure is quoted back to
/// the model in the repair request.
pub trait Checked {
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

impl Checked for UnderstandOutput {}
impl Checked for SummarizeOutput {}

impl Checked for CompressOutput {
    fn check(&self) -> Result<(), String> {
        if self.summary.trim().is_empty() {
            return Err("summary is empty".into());
        }
        Ok(())
    }
}

impl Checked for ThinkOutput {
    fn check(&self) -> Result<(), String> {
        for s in &self.steps {
            if !SUBDOMAINS.contains(&s.subdomain.as_str()) {
                return Err(format!(
                    "step \"{}\" has subdomain \"{}\", which is not one of {}",
                    s.description,
                    s.subdomain,
                    SUBDOMAINS.join(", ")
                ));
            }
        }
        Ok(())
    }
}

impl Checked for ActAction {
    fn check(&self) -> Result<(), String> {
        if let ActAction::ToolCall { tool, params } = self {
            if tool == SEARCH_HISTORY {
                if params.get("query").and_then(Value::as_str).is_none() {
                    return Err(format!(
                        "params of {SEARCH_HISTORY} must be a JSON object with a \"query\", got {params}"
                    ));
                }
                return Ok(());
            }
            if !TOOLS.contains(&tool.as_str()) {
                return Err(format!(
                    "tool \"{tool}\" is not one of {}, {SEARCH_HISTORY}",
                    TOOLS.join(", ")
                ));
            }
            if params.get("table").and_then(Value::as_str).is_none() {
                return Err(format!(
                    "params must be a JSON object with a \"table\", got {params}"
                ));
            }
        }
        Ok(())
    }
}

/// What one structured call asks for.
pub struct Ask<'a> {
    pub node: LlmNode,
    pub schema: &'a StrictSchema,
    pub system: &'a str,
    pub user: String,
}

impl<'a> Ask<'a> {
    /// The pipeline's prompt as it stands: its system text and its sections.
    pub fn prompt(node: LlmNode, schema: &'a StrictSchema, prompt: &'a Prompt) -> Self {
        Self {
            node,
            schema,
            system: &prompt.system,
            user: prompt.user_text(),
        }
    }
}

impl LlmBrain {
    /// Asks for a `T`, repairing one unusable answer.
    pub(super) async fn decide<T: DeserializeOwned + Checked>(
        &self,
        ask: Ask<'_>,
    ) -> Result<Decided<T>, BrainError> {
        let mut messages = vec![
            Message::System(ask.system.to_string()),
            Message::User(ask.user.clone()),
        ];
        let (content, mut usage) = self.complete(&ask, &messages).await?;
        let problem = match parse::<T>(&content, ask.schema) {
            Ok(value) => return Ok(decided(value, usage)),
            Err(problem) => problem,
        };
        tracing::warn!(node = ask.node.key(), %problem, "unusable answer; asking once for a repair");
        messages.push(Message::Assistant(content));
        messages.push(Message::User(format!(
            "Your answer could not be used: {problem}\nAnswer again with only the corrected JSON \
             object, matching the {} schema.",
            ask.schema.name
        )));
        let (content, more) = self.complete(&ask, &messages).await?;
        usage.add(more);
        match parse::<T>(&content, ask.schema) {
            Ok(value) => Ok(decided(value, usage)),
            Err(again) => Err(BrainError::InvalidOutput(format!(
                "the {} answer of {} was unusable twice, even after a correction was asked for \
                 ({again}). Send the message again, or choose a model that follows JSON schemas \
                 better.",
                ask.node.key(),
                self.config.model_for(ask.node)
            ))),
        }
    }

    /// One completion, falling back to `json_object` once if the server
    /// refuses `json_schema`.
    async fn complete(
        &self,
        ask: &Ask<'_>,
        messages: &[Message],
    ) -> Result<(String, Usage), BrainError> {
        let model = self.config.model_for(ask.node);
        loop {
            let object_mode = self.json_object_only.load(Ordering::Relaxed);
            let mut sent = messages.to_vec();
            let format = if object_mode {
                if let Some(Message::System(s)) = sent.first_mut() {
                    *s = system_with_schema(s, ask.schema.name, &ask.schema.schema);
                }
                Format::JsonObject
            } else {
                Format::Schema(ask.schema)
            };
            let request = Request {
                model,
                temperature: self.config.temperature_for(ask.node),
                messages: &sent,
                format,
                max_tokens: None,
            };
            let body = request.body().map_err(BrainError::Other)?;
            let resp = match self
                .endpoint
                .post_json("chat/completions", body, false)
                .await
            {
                Ok(resp) => resp,
                Err(f) if !object_mode && refuses_json_schema(&f) => {
                    tracing::info!(server = %self.endpoint.shown, "json_schema is not supported; using json_object from now on");
                    self.json_object_only.store(true, Ordering::Relaxed);
                    continue;
                }
                Err(f) => return Err(brain_error(&f, self.context(model))),
            };
            let bytes = resp.bytes().await.map_err(|e| {
                let f = CallFailure {
                    failure: self.endpoint.scrubbed(Failure::from_reqwest(&e)),
                    retries: 0,
                    elapsed: std::time::Duration::ZERO,
                };
                brain_error(&f, self.context(model))
            })?;
            let answer = parse_answer(&bytes).map_err(|e| {
                BrainError::Server(format!(
                    "{} answered with something other than a chat completion: {e}.",
                    self.endpoint.shown
                ))
            })?;
            if let Some(refusal) = answer.refusal.filter(|r| !r.trim().is_empty()) {
                return Err(BrainError::InvalidOutput(format!(
                    "the model declined to answer: \"{refusal}\". Rephrase the message."
                )));
            }
            let mut content = answer.content.unwrap_or_default();
            let usage = usage_of(
                answer.usage.as_ref(),
                &sent,
                &content,
                self.config.price_for(model),
            );
            if answer.finish == Some(async_openai::types::chat::FinishReason::Length) {
                // Quoted back by the repair request: the model should be briefer.
                content.push_str("\n[cut off: the answer reached the token limit]");
            }
            return Ok((content, usage));
        }
    }
}

fn decided<T>(value: T, usage: Usage) -> Decided<T> {
    Decided {
        value,
        usage: Some(usage),
    }
}

/// A 400/422 that blames the response format: no `json_schema` here. A
/// server that rejects *our schema* ("Invalid schema for response_format")
/// supports the feature, so that error is reported, not worked around.
fn refuses_json_schema(f: &CallFailure) -> bool {
    match &f.failure {
        Failure::Status {
            status, message, ..
        } => {
            let m = message.to_lowercase();
            (*status == StatusCode::BAD_REQUEST || *status == StatusCode::UNPROCESSABLE_ENTITY)
                && (m.contains("response_format") || m.contains("json_schema"))
                && !m.contains("invalid schema")
        }
        _ => false,
    }
}

/// Parses, decodes and checks an answer; the error is what the repair quotes.
fn parse<T: DeserializeOwned + Checked>(content: &str, schema: &StrictSchema) -> Result<T, String> {
    let text = strip_fence(content.trim());
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| format!("it is not valid JSON ({e})"))?;
    schema.decode(&mut value);
    let out: T = serde_json::from_value(value)
        .map_err(|e| format!("it does not match the {} schema ({e})", schema.name))?;
    out.check().map_err(|e| format!("it breaks a rule: {e}"))?;
    Ok(out)
}

/// Drops a Markdown code fence some models put around JSON.
fn strip_fence(text: &str) -> &str {
    let Some(inner) = text.strip_prefix("```") else {
        return text;
    };
    let inner = inner.strip_prefix("json").unwrap_or(inner);
    inner.strip_suffix("```").unwrap_or(inner).trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_parse_through_fences_and_problems_are_sentences() {
        let s = StrictSchema::of::<CompressOutput>("compress_output");
        let out: CompressOutput = parse("```json\n{\"summary\": \"ok\"}\n```", &s).unwrap();
        assert_eq!(out.summary, "ok");
        let e = parse::<CompressOutput>("{\"summary\": ", &s).unwrap_err();
        assert!(
            e.starts_with("it is not valid JSON (EOF while parsing"),
            "{e}"
        );
        let e = parse::<CompressOutput>("{\"summary\": \" \"}", &s).unwrap_err();
        assert_eq!(e, "it breaks a rule: summary is empty");
        let e = parse::<CompressOutput>("{\"text\": 1}", &s).unwrap_err();
        assert!(
            e.contains("compress_output schema (missing field `summary`"),
            "{e}"
        );
    }

    #[test]
    fn only_a_refused_response_format_switches_to_json_object() {
        let f = |status: u16, message: &str| CallFailure {
            failure: Failure::Status {
                status: StatusCode::from_u16(status).unwrap(),
                message: message.into(),
                code: None,
                retry_after: None,
            },
            retries: 0,
            elapsed: std::time::Duration::ZERO,
        };
        assert!(refuses_json_schema(&f(
            400,
            "response_format type json_schema is not supported"
        )));
        assert!(refuses_json_schema(&f(
            422,
            "Unknown value 'json_schema' for response_format.type"
        )));
        assert!(!refuses_json_schema(&f(
            400,
            "Invalid schema for response_format 'x': oneOf"
        )));
        assert!(!refuses_json_schema(&f(400, "model not found")));
        assert!(!refuses_json_schema(&f(500, "response_format crashed us")));
    }

    #[test]
    fn tool_calls_must_name_a_tool_and_a_table() {
        let bad = ActAction::ToolCall {
            tool: "db_drop".into(),
            params: json!({"table": "recipes"}),
        };
        assert!(bad.check().unwrap_err().contains("db_read, db_create"));
        let bad = ActAction::ToolCall {
            tool: "db_read".into(),
            params: json!("recipes"),
        };
        assert!(bad.check().unwrap_err().contains("\"table\""));
    }
}
