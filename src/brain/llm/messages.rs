//! The user messages the LLM brain sends where the pipeline's prompt is not
//! the whole story: Act gets its refused call first and this step's rows
//! last; Summarize gets the turn's facts and the answer's shape.
//!
//! Every added block is a tagged section like the prompt's own, escaped the
//! same way, so content cannot open or close a tag. Pure text.

use serde_json::Value;

use crate::context::conversation::SUMMARY_THRESHOLD_CHARS;
use crate::kitchen::ToolResult;
use crate::pipeline::{ActRequest, SummarizeRequest};
use crate::prompt::section::tagged_block;

/// Rows of one tool result shown in full; the rest are counted.
const ROWS_SHOWN: usize = 40;

/// Act's user message: a refused call first (the model must fix it before
/// anything else), then the prompt, then the rows this step already fetched.
pub fn act_user_text(req: &ActRequest<'_>) -> String {
    let mut parts = Vec::new();
    if let Some(err) = req.last_error {
        parts.push(tagged_block(
            "last_tool_call_refused",
            &format!(
                "Your last tool call was refused: {err}\n\
                 Do not send it again. Fix it — only refs listed below, only columns of the \
                 schema, only the operators of the tool reference — or, if the step cannot be \
                 done, answer step_complete with what you have or blocked with the reason."
            ),
        ));
    }
    parts.push(req.prompt.user_text());
    if !req.this_step_history.is_empty() {
        let hits: Vec<String> = req
            .this_step_history
            .iter()
            .map(|h| serde_json::to_string(h).unwrap_or_default())
            .collect();
        parts.push(tagged_block(
            "history_results",
            &format!(
                "search_history found (an entity with an id is back in working memory):\n{}",
                hits.join("\n")
            ),
        ));
    }
    if !req.this_step_results.is_empty() {
        parts.push(tagged_block(
            "this_step_results",
            &render_results(req.this_step_results),
        ));
    }
    parts.join("\n\n")
}

/// The rows this step's tool calls returned, one compact JSON line each.
fn render_results(results: &[ToolResult]) -> String {
    let mut out = Vec::new();
    for (i, r) in results.iter().enumerate() {
        out.push(format!(
            "### Call {}: {} {} → {} row{}",
            i + 1,
            r.tool,
            r.table.name(),
            r.count,
            if r.count == 1 { "" } else { "s" }
        ));
        out.extend(r.notes.iter().map(|n| format!("Note: {n}")));
        out.extend(
            r.rows
                .iter()
                .take(ROWS_SHOWN)
                .map(|row| serde_json::to_string(row).unwrap_or_default()),
        );
        if r.rows.len() > ROWS_SHOWN {
            out.push(format!("…and {} more rows", r.rows.len() - ROWS_SHOWN));
        }
    }
    out.join("\n")
}

/// Summarize's user message: the reply-summary prompt, the turn's facts, and
/// what each field of the answer holds.
pub fn summarize_user_text(req: &SummarizeRequest<'_>) -> String {
    let mut facts = vec![
        format!("User said: \"{}\"", req.user_message.trim()),
        format!("Goal: {}", req.think.goal.trim()),
        format!("Decision: {}", req.think.decision.as_str()),
        format!("Conversation phase: {}", req.phase.as_str()),
    ];
    for (i, s) in req.steps.iter().enumerate() {
        facts.push(format!(
            "Step {}: [{} {}] {} → {}",
            i + 1,
            s.kind(),
            s.subdomain,
            s.description.trim(),
            s.outcome.trim()
        ));
    }
    let demoted: Vec<&str> = req
        .understand
        .entity_curation
        .demote
        .iter()
        .map(|d| d.reason.as_str())
        .filter(|r| !r.trim().is_empty())
        .collect();
    if !demoted.is_empty() {
        facts.push(format!("The user ruled out: {}", demoted.join("; ")));
    }
    let summary = if req.reply.chars().count() > SUMMARY_THRESHOLD_CHARS {
        "the one-sentence summary of the reply described above"
    } else {
        "null (the reply is short enough to keep as it is)"
    };
    let fields = format!(
        "Answer with the JSON object only:\n\
         - assistant_summary: {summary}\n\
         - tone: one word — collaborative, informative, clarifying or conversational\n\
         - what_we_acknowledged: what Alfred confirmed or presented, one short clause\n\
         - natural_next: what the user will most likely do next, one short clause\n\
         - analysis_conclusions: what the analysis concluded, or null when no analyze step ran"
    );
    [
        req.prompt.user_text(),
        tagged_block("turn_facts", &facts.join("\n")),
        tagged_block("answer_fields", &fields),
    ]
    .join("\n\n")
}

/// The system message in json_object mode: the node's instructions and the
/// schema the answer must follow, since the server will not enforce it.
pub fn system_with_schema(system: &str, name: &str, schema: &Value) -> String {
    let pretty = serde_json::to_string_pretty(schema).unwrap_or_default();
    format!(
        "{system}\n\nAnswer with one JSON object and nothing else. It must match this JSON \
         Schema (named {name}); every property is required, use null where allowed:\n{pretty}"
    )
}
