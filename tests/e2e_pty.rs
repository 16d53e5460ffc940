//! End to end: the built binary in a pseudo-terminal, with the offline brain
//! or the LLM brain against the local fake OpenAI-compatible server. Keys
//! in, the screen parsed with vt100.

mod support;

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, ExitStatus, MasterPty, PtySize, native_pty_system};

fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("non-zero")
}

fn pty_size(rows: u16, cols: u16) -> PtySize {
    PtySize {
        rows,
        cols,
        pixel_width: 0,
        pixel_height: 0,
    }
}

/// A running `alfred` in a pty, with its screen.
struct Tui {
    writer: Box<dyn Write + Send>,
    screen: Arc<Mutex<vt100::Parser>>,
    master: Box<dyn MasterPty + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    _dir: tempfile::TempDir,
}

impl Tui {
    /// Starts `alfred --data-dir TMP ARGS…` in a `rows`×`cols` terminal.
    fn start(rows: u16, cols: u16, args: &[&str]) -> Tui {
        Tui::start_with(rows, cols, args, &[])
    }

    /// [`Tui::start`] with environment variables set.
    fn start_with(rows: u16, cols: u16, args: &[&str], env: &[(&str, &str)]) -> Tui {
        Tui::start_in(tempfile::tempdir().unwrap(), rows, cols, args, env)
    }

    /// [`Tui::start_with`] in a data folder of its own choosing (one an
    /// earlier run left, to reopen).
    fn start_in(
        dir: tempfile::TempDir,
        rows: u16,
        cols: u16,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Tui {
        let pty = native_pty_system()
            .openpty(pty_size(rows, cols))
            .expect("open a pty");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_alfred"));
        cmd.env_clear();
        cmd.env("HOME", dir.path());
        cmd.env("TERM", "xterm-256color");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.arg("--data-dir");
        cmd.arg(dir.path());
        cmd.args(args);
        let child = pty.slave.spawn_command(cmd).expect("spawn alfred");
        let mut reader = pty.master.try_clone_reader().unwrap();
        let writer = pty.master.take_writer().unwrap();
        let screen = Arc::new(Mutex::new(vt100::Parser::new(nz(rows), nz(cols), 0)));
        let sink = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().process(&buf[..n]);
            }
        });
        Tui {
            writer,
            screen,
            master: pty.master,
            child,
            _dir: dir,
        }
    }

    /// The offline brain on a new session, with the first `turns` messages
    /// of the demo script answered.
    fn after_demo_turns(turns: usize) -> Tui {
        let mut tui = Tui::start(45, 150, &["--llm", "offline", "--new"]);
        tui.wait_for(&["Entities", "Narrative", "History", "offline"]);
        for (i, m) in demo_messages().iter().take(turns).enumerate() {
            tui.send(m);
            // Summarize is done before the turn is saved: wait until the
            // footer offers to send again.
            tui.wait_for(&[
                &format!("turn {}", i + 1),
                "Summarize ✓",
                "Enter send · Alt+Enter new line",
            ]);
        }
        tui
    }

    fn contents(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Waits until the screen shows every needle, or fails with the screen.
    fn wait_for(&self, needles: &[&str]) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.contents();
            if needles.iter().all(|n| screen.contains(n)) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {needles:?}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Resizes the terminal. The parser grows first: the app redraws as soon
    /// as it sees the new size, and a redraw parsed at the old width would
    /// wrap into garbage.
    fn resize(&mut self, rows: u16, cols: u16) {
        self.screen
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(nz(rows), nz(cols));
        self.master.resize(pty_size(rows, cols)).unwrap();
    }

    fn keys(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }

    /// Esc, then a pause so the next key does not read as Alt+key.
    fn escape(&mut self) {
        self.keys(b"\x1b");
        std::thread::sleep(Duration::from_millis(300));
    }

    fn send(&mut self, message: &str) {
        self.keys(message.as_bytes());
        self.keys(b"\r");
    }

    /// Waits (up to 10 s) for the process to exit, or fails with the screen.
    fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "alfred did not quit; screen:\n{}",
                self.contents()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn demo_messages() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/meal-planning.txt"
    ))
    .unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

#[test]
fn the_demo_conversation_shows_the_excluded_refs_on_screen() {
    let mut tui = Tui::after_demo_turns(3);
    // Zoom the Entities panel (Tab twice from the message box, then z).
    tui.keys(b"\t\t");
    tui.keys(b"z");
    tui.wait_for(&[
        "Excluded this turn",
        "recipe_5",
        "recipe_6",
        "Chai French Toast",
        "Dry Rub Wings",
    ]);
    let screen = tui.contents();
    assert!(screen.to_lowercase().contains("french toast"), "{screen}");
    // Quit cleanly: the terminal is restored and the process exits 0.
    // Esc leaves zoom; q is pressed once the panels are back (on a busy
    // machine an Esc and a q read together are Alt+q).
    tui.escape();
    tui.wait_for(&["Chat"]);
    tui.keys(b"q");
    let status = tui.wait_exit();
    assert!(status.success(), "exit status {status:?}");
}

#[test]
fn a_tiny_terminal_gets_a_note_not_a_panic() {
    let mut tui = Tui::start(10, 30, &[]);
    tui.wait_for(&["too small"]);
    // Growing the terminal brings the UI back.
    tui.resize(30, 100);
    tui.wait_for(&["Entities"]);
    tui.keys(b"\x03");
    let status = tui.wait_exit();
    assert!(status.success(), "{status:?}");
}

#[test]
fn the_timeline_and_the_prompt_inspector_open_in_the_built_binary() {
    let mut tui = Tui::after_demo_turns(3);
    // Focus the chat (Tab), then t: the timeline over the whole screen.
    tui.keys(b"\t");
    tui.keys(b"t");
    tui.wait_for(&[
        "Entity timeline",
        "3 turns",
        "recipe_5",
        "Chai French Toast",
        "● recent",
    ]);
    // The cursor starts on turn 3; the why of its cell is shown.
    tui.wait_for(&["· turn 3 ·"]);
    // Filter by text: only the french toast is left.
    tui.keys(b"/toast\r");
    tui.wait_for(&["1 of ", "“toast”", "excluded at turn 3"]);
    tui.escape();
    tui.wait_for(&["Chat", "Entities"]);
    // p: the prompt inspector on the latest turn.
    tui.keys(b"p");
    tui.wait_for(&[
        "Prompt inspector · turn 3",
        "Understand",
        "Think",
        "Reply",
        "128,000 context window",
        "prompt an LLM would have been sent",
    ]);
    // → selects Think; its sections are listed.
    tui.keys(b"l");
    tui.wait_for(&[
        "Think · turn 3",
        "<session_context>",
        "<standing_constraints>",
    ]);
    tui.escape();
    // [ travels back a turn: the title says so.
    tui.keys(b"[");
    tui.wait_for(&["viewing turn 2 of 3"]);
    tui.escape();
    tui.keys(b"q");
    let status = tui.wait_exit();
    assert!(status.success(), "exit status {status:?}");
}

/// The row of the first screen line holding `needle`.
fn row_of(screen: &str, needle: &str) -> Option<usize> {
    screen.lines().position(|l| l.contains(needle))
}

#[test]
fn the_narrative_panel_fills_while_a_slow_turn_runs_and_history_reads_in_order() {
    let fake = support::FakeOpenAi::start();
    support::meal_planning::script(&fake);
    let base_url = fake.base_url();
    let mut tui = Tui::start_with(
        45,
        150,
        &["--llm", "openai", "--base-url", &base_url, "--new"],
        &[("OPENAI_API_KEY", support::KEY)],
    );
    tui.wait_for(&["Entities", "Narrative", "History"]);
    tui.send("can you help me plan some meals?");
    tui.wait_for(&["turn 1", "Summarize ✓", "Enter send · Alt+Enter new line"]);
    // Every model call now takes 700 ms: the turn runs for seconds.
    fake.set_latency(Duration::from_millis(700));
    tui.send("let's not do cod this week");
    tui.wait_for(&["Turn 2 · running", "asked: “let's not do cod this week”"]);
    // After Understand: what the user expressed and the new constraint.
    tui.wait_for(&["expressed: wants to exclude cod", "standing: added no cod"]);
    // After Think: the plan, its steps waiting or running.
    tui.wait_for(&["goal: Leave out cod"]);
    let mid = tui.contents();
    assert!(
        mid.contains("(waiting)") || mid.contains("… running"),
        "steps not yet run are marked: {mid}"
    );
    assert!(
        !mid.contains("Summarize ✓"),
        "the turn is still running: {mid}"
    );
    // A step's outcome appears when it ends, before the turn is done.
    tui.wait_for(&["→ Found 9 recipes"]);
    // Then the turn ends: the running block gives way to the turn's summary.
    tui.wait_for(&["Turn 2 · narrowing", "Summarize ✓"]);
    let done = tui.contents();
    assert!(!done.contains("Turn 2 · running"), "{done}");
    // History, shown alone (Tab to it, z): one order, oldest at the top,
    // the newest turn at the bottom, nearest the input box.
    tui.keys(b"\t\t\t\t");
    tui.keys(b"z");
    tui.wait_for(&[
        "History · 2 recent",
        "User: can you help me plan some meals?",
        "User: let's not do cod this week",
    ]);
    let history = tui.contents();
    let older = row_of(&history, "User: can you help me plan some meals?");
    let newest = row_of(&history, "User: let's not do cod this week");
    assert!(
        matches!((older, newest), (Some(a), Some(b)) if a < b),
        "oldest above newest:\n{history}"
    );
    tui.escape();
    tui.keys(b"\x03");
    let status = tui.wait_exit();
    assert!(status.success(), "{status:?}");
}

#[test]
fn quitting_with_a_turn_that_could_not_be_saved_says_so_after_the_screen_is_back() {
    let mut tui = Tui::start(45, 150, &["--llm", "offline", "--new"]);
    tui.wait_for(&["Entities", "Narrative", "History", "offline"]);
    tui.send("what's in my fridge?");
    tui.wait_for(&["turn 1", "Summarize ✓", "Enter send · Alt+Enter new line"]);
    // The sessions folder goes away under the running app (as a full or
    // unmounted disk would make it): a file stands where it was.
    let sessions = tui._dir.path().join("sessions");
    std::fs::rename(&sessions, tui._dir.path().join("sessions.away")).unwrap();
    std::fs::write(&sessions, "not a folder").unwrap();
    tui.send("add 2 lemons to my fridge");
    std::thread::sleep(Duration::from_secs(2));
    tui.keys(b"\x03");
    let status = tui.wait_exit();
    assert!(!status.success(), "a quit that lost turns is not a success");
    let screen = tui.contents();
    assert!(
        screen.contains("error: ") && screen.contains("sessions"),
        "the reason is on the restored screen:\n{screen}"
    );
    assert!(
        !screen.contains("Entities ·"),
        "printed after the UI left the screen:\n{screen}"
    );
}

/// A new user's path: the footer names the keys of the focused panel; a
/// turn that fails (HTTP 500) says which key retries it from the message
/// box, and that key works; after switching sessions and quitting, a plain
/// `alfred` reopens the session they were in, its last turn's bar and
/// change markers on screen.
#[test]
fn a_new_user_reads_the_keys_retries_with_the_named_key_and_reopens_where_they_were() {
    let fake = support::FakeOpenAi::start();
    support::meal_planning::script(&fake);
    fake.fault_on(support::Node::Understand, support::Fault::ServerError);
    let base_url = fake.base_url();
    let dir = tempfile::tempdir().unwrap();
    // No retries inside a call: the 500 fails the turn at once.
    std::fs::write(dir.path().join("config.toml"), "[llm]\nmax_retries = 0\n").unwrap();
    let llm = ["--llm", "openai", "--base-url", base_url.as_str()];
    let env = [("OPENAI_API_KEY", support::KEY)];
    let mut tui = Tui::start_in(dir, 45, 150, &[&llm[..], &["--new"]].concat(), &env);
    tui.wait_for(&["Entities", "Narrative", "History"]);
    tui.wait_for(&["Enter send · Alt+Enter new line", "Tab focus"]);

    // A panel's keys, in the footer.
    tui.keys(b"\t\t");
    tui.wait_for(&["d diff", "t timeline", "p prompts", "w what-if", "z zoom"]);
    tui.keys(b"\t\t\t");
    tui.wait_for(&["Enter send · Alt+Enter new line"]);

    // A failed turn names the key that retries from the message box.
    tui.send("can you help me plan some meals?");
    tui.wait_for(&["press Ctrl+R to retry", "Ctrl+R retry"]);
    assert!(
        !tui.contents().contains("press r to retry"),
        "no key that would type into the box:\n{}",
        tui.contents()
    );
    tui.keys(b"\x12");
    // The footer offers to send only while no turn runs.
    let idle = "Enter send · Alt+Enter new line";
    tui.wait_for(&["Summarize ✓", idle]);
    tui.send("let's not do cod this week");
    tui.wait_for(&["turn 2 · window 2 · +", "Summarize ✓", idle]);
    let markers = tui.contents();

    // Another session, then back to the first, then quit.
    tui.send("/new");
    tui.wait_for(&["opened a new session"]);
    tui.send("hello there");
    tui.wait_for(&["hello there", "Summarize ✓", idle]);
    tui.send("/sessions");
    tui.wait_for(&["can you help me plan some meals?"]);
    tui.keys(b"j");
    tui.keys(b"\r");
    tui.wait_for(&["opened can you help me plan some meals?"]);
    tui.keys(b"\x03");
    assert!(tui.wait_exit().success());

    // Plain `alfred` reopens it (not the session written last), as it was.
    let dir = std::mem::replace(&mut tui._dir, tempfile::tempdir().unwrap());
    let tui = Tui::start_in(dir, 45, 150, &llm, &env);
    tui.wait_for(&["alfred · can you help me plan some meals?", "Summarize ✓"]);
    let screen = tui.contents();
    let header = |s: &str| {
        s.lines().find_map(|l| {
            l.split("turn 2 · window 2 · ")
                .nth(1)
                .map(|h| h.split('│').next().unwrap_or("").trim().to_string())
        })
    };
    assert!(
        header(&markers).is_some_and(|h| h.starts_with('+')),
        "{markers}"
    );
    assert_eq!(
        header(&screen),
        header(&markers),
        "the markers are back:\n{screen}"
    );
    assert!(!screen.contains("hello there"), "{screen}");
}
