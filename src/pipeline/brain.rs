//! The `Brain` trait: who decides at each node.
//!
//! Both brains receive the same structured inputs and the prompt an LLM would
//! be sent (built by the pipeline in both modes, so the inspector always shows
//! it). The LLM brain sends the prompt; the offline brain decides by rules over
//! the structured inputs. A brain never touches the store, the session or the
//! registry: the pipeline does that work, the same for every brain.

use std::future::Future;
use std::pin::Pin;

use tokio::sync::mpsc;

use crate::context::{ContextState, ConversationPhase, FoldRequest, StepExecutionSummary};
use crate::kitchen::ToolResult;
use crate::prompt::act::ActInput;
use crate::prompt::reply::ReplyInput;
use crate::prompt::think::ThinkInput;
use crate::prompt::understand::UnderstandInput;
use crate::prompt::{Prompt, StepData};
use crate::record::CallRecord;
pub use crate::turn::{BrainError, Usage, UsageSource};

use super::types::{
    ActAction, ReplyOutput, SummarizeOutput, ThinkOutput, ThinkStep, UnderstandOutput,
};

/// A brain's answer, with the tokens it cost when the brain knows them.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided<T> {
    pub value: T,
    /// `None`: the pipeline estimates from the prompt and the output.
    pub usage: Option<Usage>,
}

impl<T> Decided<T> {
    /// An answer with no usage report (the pipeline estimates it).
    pub fn new(value: T) -> Self {
        Self { value, usage: None }
    }
}

/// Where a brain writes down each request it sends for one prompt (the
/// LLM brain does; the offline brain sends none). The pipeline takes them
/// into the prompt's record, whether the node succeeded or not.
#[derive(Debug, Default)]
pub struct CallLog(std::sync::Mutex<Vec<CallRecord>>);

impl CallLog {
    /// Notes one request and its answer.
    pub fn push(&self, call: CallRecord) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(call);
    }

    /// Changes the last request noted, if any.
    pub fn amend_last(&self, change: impl FnOnce(&mut CallRecord)) {
        if let Some(last) = self.0.lock().unwrap_or_else(|e| e.into_inner()).last_mut() {
            change(last);
        }
    }

    /// The requests noted so far, leaving the log empty.
    pub fn take(&self) -> Vec<CallRecord> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// The future a brain returns.
pub type BrainFuture<'a, T> =
    Pin<Box<dyn Future<Output = Result<Decided<T>, BrainError>> + Send + 'a>>;

/// What the kitchen holds, by name: the closed world a reader links the
/// user's words to ("the yellow curry" is Thai Yellow Curry), read fresh
/// at the start of each turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KitchenNames {
    pub recipes: Vec<String>,
    pub inventory: Vec<String>,
    pub shopping: Vec<String>,
    pub tasks: Vec<String>,
}

/// Understand's inputs.
pub struct UnderstandRequest<'a> {
    pub input: &'a UnderstandInput<'a>,
    pub prompt: &'a Prompt,
    /// The session's context before this turn's curation: every live ref
    /// (pending artifacts with their content) and the rows already loaded.
    pub state: &'a ContextState,
    /// The names of what the kitchen holds as the turn starts.
    pub kitchen: &'a KitchenNames,
    pub calls: &'a CallLog,
}

/// Think's inputs.
pub struct ThinkRequest<'a> {
    pub input: &'a ThinkInput<'a>,
    pub prompt: &'a Prompt,
    pub understand: &'a UnderstandOutput,
    /// The context after Understand's curation (registry, loaded rows).
    pub state: &'a ContextState,
    pub calls: &'a CallLog,
}

/// One Act iteration's inputs.
pub struct ActRequest<'a> {
    pub input: &'a ActInput<'a>,
    pub prompt: &'a Prompt,
    /// The step being executed (typed; `input.step` is its prompt view).
    pub step: &'a ThinkStep,
    /// The tool results of this step so far (full rows, with refs).
    pub this_step_results: &'a [ToolResult],
    /// What `search_history` found this step (turns and constraints of the
    /// session, entities with their refs).
    pub this_step_history: &'a [serde_json::Value],
    /// The last tool call's error, which the model must see and correct.
    pub last_error: Option<&'a str>,
    pub understand: &'a UnderstandOutput,
    /// The context as it stands (registry with pending artifacts' content,
    /// rows already loaded, including this turn's).
    pub state: &'a ContextState,
    pub calls: &'a CallLog,
}

/// Reply's inputs.
pub struct ReplyRequest<'a> {
    pub input: &'a ReplyInput<'a>,
    pub prompt: &'a Prompt,
    pub think: &'a ThinkOutput,
    pub understand: &'a UnderstandOutput,
    /// This turn's data per step (rows read, artifacts generated, rows written).
    pub data: &'a [StepData],
    /// Refs this turn created, updated, generated or deleted.
    pub changed: &'a [String],
    pub calls: &'a CallLog,
}

/// Summarize's inputs (the brain's part: flow and a reply summary).
pub struct SummarizeRequest<'a> {
    pub user_message: &'a str,
    pub reply: &'a str,
    pub think: &'a ThinkOutput,
    pub understand: &'a UnderstandOutput,
    pub steps: &'a [StepExecutionSummary],
    pub phase: ConversationPhase,
    /// The reply-summary prompt (asked only when the reply is long).
    pub prompt: &'a Prompt,
    pub calls: &'a CallLog,
}

/// A fold of older turns to compress.
pub struct CompressRequest<'a> {
    pub fold: &'a FoldRequest,
    pub prompt: &'a Prompt,
    pub calls: &'a CallLog,
}

/// The chunks of a streamed reply, sent as they come.
#[derive(Debug, Clone)]
pub struct ReplySink {
    tx: mpsc::UnboundedSender<String>,
}

impl ReplySink {
    /// A sink and the receiver the pipeline reads chunks from.
    pub fn channel() -> (Self, mpsc::UnboundedReceiver<String>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Self { tx }, rx)
    }

    /// Sends one chunk; a closed receiver (a cancelled turn) is not an error.
    pub fn send(&self, chunk: impl Into<String>) {
        let _ = self.tx.send(chunk.into());
    }
}

/// Who decides at each node.
pub trait Brain: Send + Sync {
    /// A short name for the status bar: "offline", "gpt-4.1 @ api.openai.com".
    fn name(&self) -> String;

    /// Learns what the brain needs before its first turn (the LLM brain:
    /// what kind of server it talks to, and its context); the first call
    /// would do it anyway. Never fails: what cannot be learned stays unknown.
    fn prepare(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(std::future::ready(()))
    }

    /// Tokens one request may hold, prompt and answer, when the brain knows
    /// (the server's published context, else its configured window).
    fn context_window(&self) -> Option<u32> {
        None
    }

    /// True when a decision waits on something outside this process (a
    /// model server): work for the record, such as counting the prompt's
    /// tokens, is then done meanwhile on another thread. A brain that
    /// decides at once has it done in line, so its turns stay the same run
    /// after run.
    fn waits(&self) -> bool {
        false
    }

    /// Resolve references and curate working memory.
    fn understand<'a>(
        &'a self,
        req: &'a UnderstandRequest<'a>,
    ) -> BrainFuture<'a, UnderstandOutput>;

    /// Plan the turn.
    fn think<'a>(&'a self, req: &'a ThinkRequest<'a>) -> BrainFuture<'a, ThinkOutput>;

    /// Decide the next action of the current step.
    fn act<'a>(&'a self, req: &'a ActRequest<'a>) -> BrainFuture<'a, ActAction>;

    /// Write the reply, sending chunks to `sink` as they are produced; the
    /// returned text is the whole reply.
    fn reply<'a>(
        &'a self,
        req: &'a ReplyRequest<'a>,
        sink: &'a ReplySink,
    ) -> BrainFuture<'a, ReplyOutput>;

    /// The conversation flow and, for long replies, a one-sentence summary.
    fn summarize<'a>(&'a self, req: &'a SummarizeRequest<'a>) -> BrainFuture<'a, SummarizeOutput>;

    /// Merge older turns into the earlier summary; `None` asks for the
    /// bounded extractive fallback.
    fn compress<'a>(&'a self, req: &'a CompressRequest<'a>) -> BrainFuture<'a, Option<String>>;
}
