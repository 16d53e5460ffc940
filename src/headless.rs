//! `alfred run`: turns without the UI. Plain output prints each reply as it
//! streams; `--json` prints one turn record per line.
//!
//! Owns reading the messages (`-m` or a script) and printing; the turn itself
//! (and its commit to the kitchen and the session) is the turn runner's. A
//! turn is printed as done only once the runner says it is on disk.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::context::ContextState;
use crate::pipeline::{PipelineEvent, TurnId, TurnLedger, TurnRequest, TurnResult, TurnRunner};
use crate::record::TurnRecord;
use crate::scenario::parse_script;

/// Reads a script: one message a line; blank lines and `#` comments skipped.
pub fn read_script(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the script {}: {e}", path.display()))?;
    Ok(script_messages(&text))
}

/// The messages of a script's text (its `#=` expectations left aside).
pub fn script_messages(text: &str) -> Vec<String> {
    parse_script(text).into_iter().map(|t| t.message).collect()
}

/// How to print turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Replies as they stream, for people.
    Plain,
    /// One turn record per line, for machines.
    Json,
}

/// What a headless run needs.
pub struct Headless {
    pub runner: TurnRunner,
    pub today: String,
}

impl Headless {
    /// Runs `messages` in order on `state`, printing each turn to `out`.
    /// `ledger` gives the ledger each turn is recorded in (it is on disk
    /// before the turn is printed); `after_turn` gets every record (failed
    /// ones too) and the state after it. Returns the number of failed turns.
    pub async fn run(
        &self,
        state: &mut ContextState,
        messages: &[String],
        output: Output,
        out: &mut dyn Write,
        ledger: &mut dyn FnMut() -> Arc<dyn TurnLedger>,
        after_turn: &mut dyn FnMut(&TurnRecord, &ContextState),
    ) -> usize {
        let mut failed = 0;
        let total = messages.len();
        for (i, message) in messages.iter().enumerate() {
            // A failed turn leaves the session's turn number where it was:
            // messages are named by their place in the run instead.
            let which = format!("message {} of {total}", i + 1);
            let (tx, mut rx) = mpsc::unbounded_channel();
            let req = TurnRequest {
                id: TurnId(i as u64 + 1),
                message: message.clone(),
                state: state.clone(),
                today: self.today.clone(),
                started_at: jiff::Timestamp::now().to_string(),
            };
            let runner = self.runner.clone();
            let ledger = ledger();
            let task = tokio::spawn(async move { runner.run(req, ledger, tx).await });
            if output == Output::Plain {
                let _ = writeln!(out, "you> {}", crate::text::visible(message));
                let _ = write!(out, "alfred> ");
            }
            while let Some(ev) = rx.recv().await {
                if let (Output::Plain, PipelineEvent::ReplyChunk { text, .. }) = (output, &ev) {
                    let _ = write!(out, "{}", crate::text::visible(text));
                    let _ = out.flush();
                }
            }
            let result = match task.await {
                Ok(r) => r,
                Err(e) => {
                    failed += 1;
                    let _ = writeln!(out);
                    eprintln!("error: {which} crashed: {e}");
                    continue;
                }
            };
            let record = match result {
                TurnResult::Done { record, state: new } => {
                    *state = *new;
                    record
                }
                TurnResult::Failed { record } => {
                    failed += 1;
                    eprintln!(
                        "error: {which} failed: {}",
                        record.error.as_deref().unwrap_or("unknown reason")
                    );
                    record
                }
            };
            match output {
                Output::Plain => match &record.reply_cut {
                    Some(cut) => {
                        let _ = writeln!(out, "\n[the reply was {cut}]\n");
                    }
                    None => {
                        let _ = writeln!(out, "\n");
                    }
                },
                Output::Json => {
                    let line = serde_json::to_string(&*record).unwrap_or_default();
                    let _ = writeln!(out, "{}", crate::text::json_safe(&line));
                }
            }
            after_turn(&record, state);
        }
        failed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_skip_comments_and_blank_lines() {
        let text = "# a demo\nhello\n\n  #= decision propose\nno cod this week  \n";
        assert_eq!(script_messages(text), vec!["hello", "no cod this week"]);
    }
}
