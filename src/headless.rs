//! `alfred run`: turns without the UI. Plain output prints each reply as it
//! streams; `--json` prints one turn record per line.
//!
//! Owns reading the messages (`-m` or a script) and printing; the turn itself
//! is the pipeline's, the session file the session module's.

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use crate::context::ContextState;
use crate::kitchen::Kitchen;
use crate::pipeline::{
    Brain, PipelineEvent, TurnId, TurnRequest, TurnResult, TurnSettings, run_turn,
};
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
    pub brain: Arc<dyn Brain>,
    pub kitchen: Arc<Mutex<Kitchen>>,
    pub settings: Arc<TurnSettings>,
    pub today: String,
}

impl Headless {
    /// Runs `messages` in order on `state`, printing each turn to `out`.
    /// Calls `after_turn` with every record (failed ones too) and the state
    /// after it, so the caller can save. Returns the number of failed turns.
    pub async fn run(
        &self,
        state: &mut ContextState,
        messages: &[String],
        output: Output,
        out: &mut dyn Write,
        after_turn: &mut dyn FnMut(&TurnRecord, &ContextState),
    ) -> usize {
        let mut failed = 0;
        for (i, message) in messages.iter().enumerate() {
            let (tx, mut rx) = mpsc::unbounded_channel();
            let req = TurnRequest {
                id: TurnId(i as u64 + 1),
                message: message.clone(),
                state: state.clone(),
                today: self.today.clone(),
                started_at: jiff::Timestamp::now().to_string(),
            };
            let task = tokio::spawn(run_turn(
                self.brain.clone(),
                self.kitchen.clone(),
                self.settings.clone(),
                req,
                tx,
            ));
            if output == Output::Plain {
                let _ = writeln!(out, "you> {message}");
                let _ = write!(out, "alfred> ");
            }
            while let Some(ev) = rx.recv().await {
                if let (Output::Plain, PipelineEvent::ReplyChunk { text, .. }) = (output, &ev) {
                    let _ = write!(out, "{text}");
                    let _ = out.flush();
                }
            }
            let result = match task.await {
                Ok(r) => r,
                Err(e) => {
                    failed += 1;
                    let _ = writeln!(out);
                    eprintln!("error: turn {} crashed: {e}", state.turn + 1);
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
                        "error: turn {} failed: {}",
                        record.turn,
                        record.error.as_deref().unwrap_or("unknown reason")
                    );
                    record
                }
            };
            match output {
                Output::Plain => {
                    let _ = writeln!(out, "\n");
                }
                Output::Json => {
                    let line = serde_json::to_string(&*record).unwrap_or_default();
                    let _ = writeln!(out, "{line}");
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
