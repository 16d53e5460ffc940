//! A structured decision: one chat completion whose answer must parse into
//! the node's output type, with one repair and the `json_object` fallback.
//!
//! - The request asks for `json_schema` (strict). A server that refuses it
//!   (an HTTP 400/422 naming `response_format` or `json_schema`) is asked
//!   again with `json_object` and the schema pasted into the system message;
//!   the brain remembers that for the rest of its life (one brain per
//!   session), so later calls go straight to `json_object`.
//! - An answer that does not parse, does not match the schema (checked
//!   here in every mode: a `json_object` server enforces nothing), or fails
//!   the node's checks, gets exactly one repair request that quotes the
//!   problem field by field; an answer cut off at `max_tokens` is asked
//!   again, shorter. A second failure is [`BrainError::InvalidOutput`].
//! - Answers are streamed, so a slow but live server is told from a dead
//!   one (`call`); a server that refuses to stream a structured answer is
//!   asked for it whole from then on.

use std::sync::atomic::Ordering;

use reqwest::StatusCode;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::config::LlmNode;
use crate::context::archive::SEARCH_HISTORY;
use crate::kitchen::TOOLS;
use crate::pipeline::{
    ActAction, BrainError, CallLog, Decided, SUBDOMAINS, SummarizeOutput, ThinkOutput,
    UnderstandOutput, Usage,
};
use crate::prompt::Prompt;
use crate::record::CallAttempt;
use async_openai::types::chat::FinishReason;

use super::call::{Broke, Exchange};
use super::client::LlmBrain;
use super::errors::brain_error;
use super::http::{CallFailure, Failure};
use super::messages::system_with_schema;
use super::record::Call;
use super::schema::StrictSchema;
use super::scrub::Scrub;
use super::usage::usage_of;
use super::validate::SchemaProblems;
use super::wire::{CompressOutput, Format, Message, Request};

/// Checks an answer must pass beyond its schema; a failure is quoted back to
/// the model in the repair request.
pub trait Checked {
    fn check(&self) -> Result<(), RuleBroken> {
        Ok(())
    }
}

/// A rule an answer breaks beyond its schema, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleBroken(pub String);

/// Why an answer cannot be used as it is. Its sentence is what the repair
/// request quotes back to the model, and what the call's record keeps.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerProblem {
    /// The text does not parse as JSON (the parser's words).
    #[error("it is not valid JSON ({0})")]
    NotJson(String),
    /// The JSON misses the schema, field by field.
    #[error("it does not match the {schema} schema: {problems}")]
    Schema {
        schema: String,
        problems: SchemaProblems,
    },
    /// The JSON passed the schema check but does not decode into the
    /// node's type (the decoder's words).
    #[error("it does not match the {schema} schema ({reason})")]
    Shape { schema: String, reason: String },
    /// The decoded answer breaks a rule of the node.
    #[error("it breaks a rule: {0}")]
    Rule(#[from] RuleBroken),
}

impl Checked for UnderstandOutput {}
impl Checked for SummarizeOutput {}

impl Checked for CompressOutput {
    fn check(&self) -> Result<(), RuleBroken> {
        if self.summary.trim().is_empty() {
            return Err(RuleBroken("summary is empty".into()));
        }
        Ok(())
    }
}

impl Checked for ThinkOutput {
    fn check(&self) -> Result<(), RuleBroken> {
        for s in &self.steps {
            if !SUBDOMAINS.contains(&s.subdomain.as_str()) {
                return Err(RuleBroken(format!(
                    "step \"{}\" has subdomain \"{}\", which is not one of {}",
                    s.description,
                    s.subdomain,
                    SUBDOMAINS.join(", ")
                )));
            }
        }
        Ok(())
    }
}

impl Checked for ActAction {
    fn check(&self) -> Result<(), RuleBroken> {
        if let ActAction::ToolCall { tool, params } = self {
            if tool == SEARCH_HISTORY {
                if params.get("query").and_then(Value::as_str).is_none() {
                    return Err(RuleBroken(format!(
                        "params of {SEARCH_HISTORY} must be a JSON object with a \"query\", got {params}"
                    )));
                }
                return Ok(());
            }
            if !TOOLS.contains(&tool.as_str()) {
                return Err(RuleBroken(format!(
                    "tool \"{tool}\" is not one of {}, {SEARCH_HISTORY}",
                    TOOLS.join(", ")
                )));
            }
            if params.get("table").and_then(Value::as_str).is_none() {
                return Err(RuleBroken(format!(
                    "params must be a JSON object with a \"table\", got {params}"
                )));
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
    /// Where each request sent is written down.
    pub calls: &'a CallLog,
}

impl<'a> Ask<'a> {
    /// The pipeline's prompt as it stands: its system text and its sections.
    pub fn prompt(
        node: LlmNode,
        schema: &'a StrictSchema,
        prompt: &'a Prompt,
        calls: &'a CallLog,
    ) -> Self {
        Self {
            node,
            schema,
            system: &prompt.system,
            user: prompt.user_text(),
            calls,
        }
    }
}

/// One answer to a structured request.
struct Answered {
    content: String,
    usage: Usage,
    /// Cut off at `max_tokens`.
    cut: bool,
}

impl LlmBrain {
    /// Asks for a `T`, repairing one unusable answer. Every request sent is
    /// written to `ask.calls`, with the problem of each answer not used.
    pub(super) async fn decide<T: DeserializeOwned + Checked>(
        &self,
        ask: Ask<'_>,
    ) -> Result<Decided<T>, BrainError> {
        let mut messages = vec![
            Message::System(ask.system.to_string()),
            Message::User(ask.user.clone()),
        ];
        let first = self.complete(&ask, &messages, CallAttempt::Answer).await?;
        let mut usage = first.usage;
        let problem = match parse::<T>(&first.content, ask.schema, &self.endpoint.scrub) {
            Ok(value) => return Ok(decided(value, usage)),
            Err(problem) => self.problem(&ask, &problem, first.cut),
        };
        ask.calls.amend_last(|c| c.problem = Some(problem.clone()));
        tracing::warn!(node = ask.node.key(), %problem, "unusable answer; asking once for a repair");
        messages.push(Message::Assistant(first.content));
        messages.push(Message::User(format!(
            "Your answer could not be used: {problem}\nAnswer again with only the corrected \
             JSON object, matching the {} schema{}.",
            ask.schema.name,
            if first.cut {
                ", and shorter: keep every field but write less in each"
            } else {
                ""
            }
        )));
        let second = self.complete(&ask, &messages, CallAttempt::Repair).await?;
        usage.add(second.usage);
        match parse::<T>(&second.content, ask.schema, &self.endpoint.scrub) {
            Ok(value) => Ok(decided(value, usage)),
            Err(again) => {
                let again = self.problem(&ask, &again, second.cut);
                ask.calls.amend_last(|c| c.problem = Some(again.clone()));
                let model = self.config.model_for(ask.node);
                let key = ask.node.key();
                Err(BrainError::InvalidOutput(if first.cut && second.cut {
                    format!(
                        "the {key} answer of {model} was cut off at its {}-token limit twice \
                         (llm.max_tokens.{key}). Raise llm.max_tokens.{key}, or choose a \
                         model that writes shorter answers.",
                        self.config.max_tokens_for(ask.node)
                    )
                } else {
                    format!(
                        "the {key} answer of {model} was unusable twice, even after a \
                         correction was asked for ({again}). Send the message again, or \
                         choose a model that follows JSON schemas better."
                    )
                }))
            }
        }
    }

    /// The problem quoted back, naming the limit when the answer was cut.
    fn problem(&self, ask: &Ask<'_>, problem: &AnswerProblem, cut: bool) -> String {
        if !cut {
            return problem.to_string();
        }
        format!(
            "it was cut off at the {}-token limit (llm.max_tokens.{}) before the JSON was \
             complete, so {problem}",
            self.config.max_tokens_for(ask.node),
            ask.node.key()
        )
    }

    /// One completion, falling back to `json_object` once if the server
    /// refuses `json_schema`, and to an unstreamed request once if it
    /// refuses to stream a structured answer.
    async fn complete(
        &self,
        ask: &Ask<'_>,
        messages: &[Message],
        attempt: CallAttempt,
    ) -> Result<Answered, BrainError> {
        let model = self.config.model_for(ask.node);
        let max_tokens = self.config.max_tokens_for(ask.node);
        loop {
            let object_mode = self.json_object_only.load(Ordering::Relaxed);
            let stream = !self.unstreamed_only.load(Ordering::Relaxed);
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
                stream,
                max_tokens: Some(max_tokens),
            };
            let call = Call {
                node: ask.node,
                schema: ask.schema.name,
                attempt,
                request: &request,
            };
            match self.exchange(ask.node, &request, None).await {
                Ok(got) => {
                    let usage = usage_of(
                        got.usage.as_ref(),
                        &sent,
                        &got.text,
                        self.config.price_for(model),
                    );
                    ask.calls.push(self.record(&call, &got, Some(usage), None));
                    if !got.refusal.trim().is_empty() {
                        return Err(BrainError::InvalidOutput(format!(
                            "the model declined to answer: \"{}\". Rephrase the message.",
                            got.refusal.trim()
                        )));
                    }
                    return Ok(Answered {
                        cut: got.finish == Some(FinishReason::Length),
                        content: got.text,
                        usage,
                    });
                }
                Err(Broke::Request(f, took)) => {
                    let error = brain_error(&f, self.context(model));
                    let refused = Exchange {
                        status: status_of(&f),
                        total: took,
                        ..Exchange::default()
                    };
                    ask.calls
                        .push(self.record(&call, &refused, None, Some(error.to_string())));
                    if !object_mode && refuses_json_schema(&f) {
                        tracing::info!(server = %self.endpoint.shown, "json_schema is not supported; using json_object from now on");
                        self.json_object_only.store(true, Ordering::Relaxed);
                        continue;
                    }
                    if stream && refuses_streaming(&f) {
                        tracing::info!(server = %self.endpoint.shown, "structured answers cannot be streamed; asking for them whole from now on");
                        self.unstreamed_only.store(true, Ordering::Relaxed);
                        continue;
                    }
                    return Err(error);
                }
                Err(Broke::Answer(error, partial)) => {
                    ask.calls
                        .push(self.record(&call, &partial, None, Some(error.to_string())));
                    return Err(error);
                }
            }
        }
    }
}

fn decided<T>(value: T, usage: Usage) -> Decided<T> {
    Decided {
        value,
        usage: Some(usage),
    }
}

/// The HTTP status of a failed request, when it got one.
fn status_of(f: &CallFailure) -> Option<u16> {
    match &f.failure {
        Failure::Status { status, .. } => Some(status.as_u16()),
        _ => None,
    }
}

/// A 400/422 that blames streaming: this server streams text only.
fn refuses_streaming(f: &CallFailure) -> bool {
    match &f.failure {
        Failure::Status {
            status, message, ..
        } => {
            (*status == StatusCode::BAD_REQUEST || *status == StatusCode::UNPROCESSABLE_ENTITY)
                && message.to_lowercase().contains("stream")
        }
        _ => false,
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
/// Every string is scrubbed of the key once parsed and again once decoded:
/// the text is scrubbed already (`call`), but a key written with JSON
/// escapes is whole only in the parsed value.
fn parse<T: DeserializeOwned + Checked>(
    content: &str,
    schema: &StrictSchema,
    scrub: &Scrub,
) -> Result<T, AnswerProblem> {
    let text = strip_fence(content.trim());
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| AnswerProblem::NotJson(e.to_string()))?;
    scrub.json(&mut value);
    schema
        .check(&value)
        .map_err(|problems| AnswerProblem::Schema {
            schema: schema.name.to_string(),
            problems,
        })?;
    schema.decode(&mut value);
    scrub.json(&mut value);
    let out: T = serde_json::from_value(value).map_err(|e| AnswerProblem::Shape {
        schema: schema.name.to_string(),
        reason: e.to_string(),
    })?;
    out.check()?;
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
        let none = Scrub::default();
        let out: CompressOutput = parse("```json\n{\"summary\": \"ok\"}\n```", &s, &none).unwrap();
        assert_eq!(out.summary, "ok");
        assert!(matches!(
            parse::<CompressOutput>("nope", &s, &none),
            Err(AnswerProblem::NotJson(_))
        ));
        assert!(matches!(
            parse::<CompressOutput>("{\"summary\": \"\"}", &s, &none),
            Err(AnswerProblem::Rule(_))
        ));
        let e = parse::<CompressOutput>("{\"summary\": ", &s, &none)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("it is not valid JSON (EOF while parsing"),
            "{e}"
        );
        let e = parse::<CompressOutput>("{\"summary\": \" \"}", &s, &none)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "it breaks a rule: summary is empty");
        let e = parse::<CompressOutput>("{\"text\": 1}", &s, &none)
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("compress_output schema: \"summary\" is missing"),
            "{e}"
        );
    }

    #[test]
    fn a_key_written_with_json_escapes_is_scrubbed_from_values_and_problems() {
        let key = "sk-test-7f3a9c1e5b";
        let scrub = Scrub::new(Some(key));
        // Escaped inside the JSON text of `params`: whole only once decoded.
        let act = StrictSchema::of::<ActAction>("act_action");
        let answer = r#"{"action": "tool_call", "tool": "db_create",
            "params": "{\"table\": \"notes\", \"data\": {\"text\": \"\\u0073k-test-7f3a9c1e5b\"}}",
            "data": "null", "result_summary": null, "note_for_next_step": null,
            "question": null, "reason_code": null, "details": null}"#;
        assert!(!answer.contains(key));
        let out: ActAction = parse(answer, &act, &scrub).unwrap();
        let ActAction::ToolCall { params, .. } = out else {
            panic!("{out:?}")
        };
        assert_eq!(params["data"]["text"], "[API key removed]");
        // Escaped in the text: the problem quoted back names no key.
        let think = StrictSchema::of::<ThinkOutput>("think_output");
        let e = parse::<ThinkOutput>(
            r#"{"goal": 1, "decision": "\u0073k-test-7f3a9c1e5b"}"#,
            &think,
            &scrub,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("[API key removed]") && !e.contains(key), "{e}");
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
        assert!(bad.check().unwrap_err().0.contains("db_read, db_create"));
        let bad = ActAction::ToolCall {
            tool: "db_read".into(),
            params: json!("recipes"),
        };
        assert!(bad.check().unwrap_err().0.contains("\"table\""));
    }
}
