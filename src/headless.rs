//! `alfred run`: turns without the UI. Plain output prints each reply once
//! its turn is saved; `--json` prints one turn record per line, likewise.
//!
//! Owns reading the messages (`-m` or a script) and printing; the turn itself
//! (and its commit to the kitchen and the session) is the turn runner's.
//! Nothing of a reply reaches stdout before the runner says the turn is on
//! disk: a reply streamed as it came ("Added to the shopping list") would
//! confirm a change that a crash or a refused commit then never made. While
//! a turn runs, a terminal on stderr shows which node it is in.

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
    /// Show which node a turn is in on stderr (a terminal there).
    pub progress: bool,
}

/// The node a running turn is in, as one line on stderr that the next
/// replaces and [`Progress::clear`] removes: never part of the output.
struct Progress {
    on: bool,
    shown: bool,
}

impl Progress {
    fn new(on: bool) -> Self {
        Self { on, shown: false }
    }

    fn show(&mut self, ev: &PipelineEvent) {
        if !self.on {
            return;
        }
        let what = match ev {
            PipelineEvent::NodeStarted { node, .. } => format!("{}…", node.as_str()),
            PipelineEvent::StepStarted { description, .. } => {
                format!("act: {}", crate::text::visible(description))
            }
            _ => return,
        };
        let what: String = what.chars().take(70).collect();
        eprint!("\r\x1b[2K  alfred is working · {what}");
        self.shown = true;
    }

    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[2K");
            self.shown = false;
        }
    }
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
                let _ = out.flush();
            }
            let mut progress = Progress::new(self.progress);
            while let Some(ev) = rx.recv().await {
                progress.show(&ev);
            }
            progress.clear();
            let result = match task.await {
                Ok(r) => r,
                Err(e) => {
                    failed += 1;
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
                // A failed turn's reply was never saved: stderr said why.
                Output::Plain if record.status != crate::record::TurnStatus::Ok => {
                    let _ = writeln!(out);
                }
                Output::Plain => {
                    let _ = writeln!(out, "alfred> {}", crate::text::visible(&record.reply));
                    match &record.reply_cut {
                        Some(cut) => {
                            let _ = writeln!(out, "[the reply was {cut}]\n");
                        }
                        None => {
                            let _ = writeln!(out);
                        }
                    }
                }
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
