//! Alfred's prompt logs, read: every model call its app made, as its
//! prompt logger writes them (`src/alfred/llm/prompt_logger.py`). Two
//! forms: rows of the `prompt_logs` table (migration 019: `session_id`,
//! `call_number`, `node`, `model`, `system_prompt`, `user_prompt`,
//! `response`, `error`, `created_at`), and, with `ALFRED_LOG_PROMPTS=1`, a
//! `prompt_logs/<run>/` folder of markdown files named `NN_node.md`.
//!
//! The calls of one run are grouped into turns: a turn starts at its
//! `router` call, or at `understand` when the run logs no router. Each
//! prompt is cut into its `<section>`s (Alfred's prompts are laid out in
//! XML-like tags), sized with alfred's own token counter. Pure but for
//! [`read_folder`].

use std::path::Path;
use std::sync::Arc;

use crate::prompt::tokens::count_tokens;
use crate::prompt::{Prompt, PromptNode, Section};
use crate::record::{ActPromptRecord, PromptRecord, PromptsRecord};

pub use crate::kitchen::postgres::LoggedCall;

/// A part of a logged prompt: a `<name>…</name>` section, or the text
/// outside any (`prompt`), with its size in tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedSection {
    pub name: String,
    pub text: String,
    pub tokens: usize,
}

impl LoggedCall {
    /// The system and user prompts cut into their sections, in order.
    pub fn sections(&self) -> Vec<LoggedSection> {
        let mut out = sections_of(&self.system);
        out.extend(sections_of(&self.user));
        out
    }
}

/// Why a logged call could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {why}")]
pub struct LogError {
    pub file: String,
    pub why: String,
}

const SYSTEM_START: &str = "## System Prompt\n\n```\n";
const USER_START: &str = "\n```\n\n---\n\n```\n";
const RESPONSE_START: &str = "\n```\n\n---\n\n## Response\n\n";

/// Reads one markdown file of the folder form; `file` is its name
/// (`07_think.md`), which gives the call number.
pub fn parse_markdown(file: &str, text: &str) -> Result<LoggedCall, LogError> {
    let fail = |why: &str| LogError {
        file: file.to_string(),
        why: why.to_string(),
    };
    let stem = file.strip_suffix(".md").unwrap_or(file);
    let (number, node_in_name) = stem
        .split_once('_')
        .ok_or_else(|| fail("the name is not NN_node.md"))?;
    let call_number = number
        .parse()
        .map_err(|_| fail("the name does not start with the call's number"))?;
    let text = text.replace("\r\n", "\n");
    let node = field(&text, "# LLM Call: ").unwrap_or_else(|| node_in_name.to_string());
    let model = field(&text, "**Model:** ").unwrap_or_default();
    let at = field(&text, "**Time:** ");
    let system_at = text
        .find(SYSTEM_START)
        .ok_or_else(|| fail("no \"## System Prompt\" block"))?
        + SYSTEM_START.len();
    // The response marker is searched from the end, the user prompt's
    // start from the system prompt's: a prompt may itself hold fences.
    let response_at = text
        .rfind(RESPONSE_START)
        .filter(|at| *at >= system_at)
        .ok_or_else(|| fail("no \"## Response\" block"))?;
    let prompts = &text[system_at..response_at];
    let (system, user) = prompts
        .split_once(USER_START)
        .ok_or_else(|| fail("the user prompt's block is missing"))?;
    let answer = text[response_at + RESPONSE_START.len()..].trim_end();
    let (response, error) = if let Some(e) = answer.strip_prefix("**ERROR:** ") {
        (None, Some(e.trim().to_string()))
    } else if answer.starts_with("(No response yet)") {
        (None, None)
    } else {
        let body = answer
            .strip_prefix("```json\n")
            .or_else(|| answer.strip_prefix("```\n"))
            .map(|b| b.split("\n```").next().unwrap_or(b))
            .unwrap_or(answer);
        (Some(body.trim().to_string()), None)
    };
    Ok(LoggedCall {
        call_number,
        node: node.trim().to_string(),
        model: model.trim().to_string(),
        at: at.map(|a| a.trim().to_string()),
        system: system.to_string(),
        user: user.to_string(),
        response,
        error,
    })
}

/// The rest of the first line starting with `label`.
fn field(text: &str, label: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix(label))
        .map(str::to_string)
}

/// Reads a run's folder (`prompt_logs/<run>/`): its `NN_node.md` files in
/// call order. Other files are left alone.
pub fn read_folder(dir: &Path) -> Result<Vec<LoggedCall>, LogError> {
    let fail = |why: String| LogError {
        file: dir.display().to_string(),
        why,
    };
    let entries = std::fs::read_dir(dir).map_err(|e| fail(format!("cannot read it: {e}")))?;
    let mut calls = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| fail(format!("cannot list it: {e}")))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let numbered =
            name.ends_with(".md") && name.chars().next().is_some_and(|c| c.is_ascii_digit());
        if !numbered {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).map_err(|e| LogError {
            file: name.clone(),
            why: format!("cannot read it: {e}"),
        })?;
        calls.push(parse_markdown(&name, &text)?);
    }
    calls.sort_by_key(|c| c.call_number);
    Ok(calls)
}

/// The calls of one run in turns: each turn from its first call (`router`,
/// or `understand` when the run has no router) to the next turn's.
pub fn turns(calls: &[LoggedCall]) -> Vec<Vec<LoggedCall>> {
    let opener = if calls.iter().any(|c| c.node == "router") {
        "router"
    } else {
        "understand"
    };
    let mut out: Vec<Vec<LoggedCall>> = Vec::new();
    for c in calls {
        match out.last_mut() {
            Some(turn) if c.node != opener => turn.push(c.clone()),
            _ => out.push(vec![c.clone()]),
        }
    }
    out
}

/// One logged turn's calls as a turn record's prompts: Understand, Think,
/// each Act call as a step of its own, Reply, and the summaries, each with
/// the response Alfred logged (or its error, marked). Calls of a node
/// alfred has no place for (`router`) are left out and named.
pub fn prompts_of(calls: &[LoggedCall]) -> (PromptsRecord, Vec<String>) {
    let mut out = PromptsRecord::default();
    let mut left_out = Vec::new();
    for c in calls {
        let node = match c.node.as_str() {
            "understand" => PromptNode::Understand,
            "think" => PromptNode::Think,
            "act" | "act_quick" => PromptNode::Act,
            "reply" => PromptNode::Reply,
            "summarize" => PromptNode::SummarizeReply,
            other => {
                left_out.push(format!("call {} ({other})", c.call_number));
                continue;
            }
        };
        let sections = sections_of(&c.user)
            .into_iter()
            .map(|s| Section {
                name: if s.name == "prompt" {
                    "message".into()
                } else {
                    s.name
                },
                // As Alfred sent it: not escaped again.
                text: Arc::from(s.text.as_str()),
                tokens: 0,
            })
            .collect();
        let prompt = Prompt::new(node, &c.system, sections);
        let response = match (&c.response, &c.error) {
            (_, Some(e)) => Some(format!("ERROR (as Alfred logged it): {e}")),
            (r, None) => r.clone(),
        };
        let record = PromptRecord::new(prompt, response, Vec::new());
        match node {
            PromptNode::Understand => out.understand = Some(record),
            PromptNode::Think => out.think = Some(record),
            PromptNode::Reply => out.reply = Some(record),
            PromptNode::Act => out.act.push(ActPromptRecord {
                step: out.act.len() + 1,
                iteration: 1,
                prompt: record,
            }),
            _ => out.summarize.push(record),
        }
    }
    (out, left_out)
}

/// The last of `turns` whose calls were made for `message` (a prompt of
/// the turn quotes it), latest first: how a logged turn is matched to the
/// conversation's turn, by what was said rather than by a clock.
pub fn turn_for<'a>(turns: &'a [Vec<LoggedCall>], message: &str) -> Option<&'a [LoggedCall]> {
    let said = message.trim();
    if said.is_empty() {
        return None;
    }
    turns
        .iter()
        .rev()
        .find(|t| {
            t.iter()
                .any(|c| c.user.contains(said) || c.system.contains(said))
        })
        .map(Vec::as_slice)
}

/// A prompt's `<name>…</name>` sections (a tag alone on its line opens and
/// closes one), with the text outside any as `prompt`.
fn sections_of(text: &str) -> Vec<LoggedSection> {
    let mut out = Vec::new();
    let mut outside = String::new();
    let mut open: Option<(String, String)> = None;
    for line in text.split_inclusive('\n') {
        let tag = line.trim();
        match &mut open {
            Some((name, body)) if tag == format!("</{name}>") => {
                out.push(section(name, body));
                open = None;
            }
            Some((_, body)) => body.push_str(line),
            None => match tag
                .strip_prefix('<')
                .and_then(|t| t.strip_suffix('>'))
                .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
            {
                Some(name) => open = Some((name.to_string(), String::new())),
                None => outside.push_str(line),
            },
        }
    }
    // An unclosed tag keeps its text.
    if let Some((name, body)) = open {
        out.push(section(&name, &body));
    }
    if !outside.trim().is_empty() {
        out.insert(0, section("prompt", &outside));
    }
    out
}

fn section(name: &str, body: &str) -> LoggedSection {
    let text = body.trim().to_string();
    LoggedSection {
        name: name.to_string(),
        tokens: count_tokens(&text),
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call as `_log_to_file` writes it (its f-string, field by field).
    fn written(node: &str, system: &str, user: &str, answer: &str) -> String {
        format!(
            "# LLM Call: {node}\n\n**Time:** 2026-02-03T01:49:46.123456\n**Model:** gpt-4.1-mini\n\
             **Response Model:** ThinkOutput\n**Tokens:** input=1,200, output=80, total=1,280\n\n\
             ---\n\n## System Prompt\n\n```\n{system}\n```\n\n---\n\n```\n{user}\n```\n\n---\n\n\
             ## Response\n\n{answer}"
        )
    }

    #[test]
    fn a_logged_call_reads_back_whole_even_with_fences_inside() {
        let user = "<session_context>\nProfile: likes thai\n</session_context>\n\
                    <current_task>\nUser said:\n```\nplan my week\n```\n---\nDo it.\n</current_task>";
        let text = written(
            "think",
            "You are Alfred.\n<identity>\nA kitchen assistant.\n</identity>",
            user,
            "```json\n{\n  \"decision\": \"plan_direct\"\n}\n```\n",
        );
        let c = parse_markdown("07_think.md", &text).expect("parses");
        assert_eq!(
            (c.call_number, c.node.as_str(), c.model.as_str()),
            (7, "think", "gpt-4.1-mini")
        );
        assert_eq!(c.at.as_deref(), Some("2026-02-03T01:49:46.123456"));
        assert_eq!(
            c.user, user,
            "a fence and a rule inside the prompt stay in it"
        );
        assert_eq!(
            c.response.as_deref(),
            Some("{\n  \"decision\": \"plan_direct\"\n}")
        );
        let sections = c.sections();
        let names: Vec<&str> = sections.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["prompt", "identity", "session_context", "current_task"]
        );
        let task = &sections[3];
        assert!(task.text.ends_with("Do it.") && task.tokens > 5, "{task:?}");
    }

    #[test]
    fn an_error_or_no_answer_is_read_as_such_and_a_broken_file_says_what_is_missing() {
        let e = parse_markdown(
            "03_act.md",
            &written("act", "s", "u", "**ERROR:** rate limited\n"),
        )
        .expect("parses");
        assert_eq!(
            (e.error.as_deref(), e.response),
            (Some("rate limited"), None)
        );
        let none = parse_markdown(
            "04_reply.md",
            &written("reply", "s", "u", "(No response yet)\n"),
        )
        .expect("parses");
        assert_eq!((none.error, none.response), (None, None));
        let bad = parse_markdown("05_reply.md", "# LLM Call: reply\n\nnothing else").unwrap_err();
        assert_eq!(
            bad.to_string(),
            "05_reply.md: no \"## System Prompt\" block"
        );
        let named = parse_markdown("reply.md", "").unwrap_err();
        assert!(named.why.contains("NN_node.md"), "{named}");
    }

    #[test]
    fn calls_group_into_turns_at_each_router_or_understand() {
        let call = |n: u32, node: &str| LoggedCall {
            call_number: n,
            node: node.into(),
            model: String::new(),
            at: None,
            system: String::new(),
            user: String::new(),
            response: None,
            error: None,
        };
        let run = [
            call(1, "understand"),
            call(2, "think"),
            call(3, "act"),
            call(4, "reply"),
            call(5, "summarize"),
            call(6, "understand"),
            call(7, "think"),
        ];
        let grouped: Vec<Vec<u32>> = turns(&run)
            .iter()
            .map(|t| t.iter().map(|c| c.call_number).collect())
            .collect();
        assert_eq!(grouped, [vec![1, 2, 3, 4, 5], vec![6, 7]]);
        let routed = [call(1, "router"), call(2, "understand"), call(3, "router")];
        assert_eq!(turns(&routed).len(), 2, "the router opens each turn");
    }

    #[test]
    fn a_folder_reads_its_numbered_files_in_call_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("10_reply.md"),
            written("reply", "s", "u", "(No response yet)\n"),
        )
        .expect("write");
        std::fs::write(
            dir.path().join("02_think.md"),
            written("think", "s", "u", "(No response yet)\n"),
        )
        .expect("write");
        std::fs::write(dir.path().join("notes.txt"), "not a call").expect("write");
        let calls = read_folder(dir.path()).expect("reads");
        let order: Vec<(u32, &str)> = calls
            .iter()
            .map(|c| (c.call_number, c.node.as_str()))
            .collect();
        assert_eq!(order, [(2, "think"), (10, "reply")]);
    }
}
