//! End to end: the built binary in a pseudo-terminal with the offline brain.
//! Keys in, the screen parsed with vt100, nothing mocked.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("non-zero")
}

/// A running `alfred` in a pty, with its screen.
struct Tui {
    writer: Box<dyn Write + Send>,
    screen: Arc<Mutex<vt100::Parser>>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    _dir: tempfile::TempDir,
}

impl Tui {
    fn start(args: &[&str]) -> Tui {
        let dir = tempfile::tempdir().unwrap();
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 45,
                cols: 150,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pty");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_alfred"));
        cmd.env_clear();
        cmd.env("HOME", dir.path());
        cmd.env("TERM", "xterm-256color");
        cmd.arg("--data-dir");
        cmd.arg(dir.path());
        cmd.args(["--llm", "offline"]);
        cmd.args(args);
        let child = pty.slave.spawn_command(cmd).expect("spawn alfred");
        let mut reader = pty.master.try_clone_reader().unwrap();
        let writer = pty.master.take_writer().unwrap();
        let screen = Arc::new(Mutex::new(vt100::Parser::new(nz(45), nz(150), 0)));
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
            child,
            _dir: dir,
        }
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

    fn keys(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }

    fn send(&mut self, message: &str) {
        self.keys(message.as_bytes());
        self.keys(b"\r");
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
    let mut tui = Tui::start(&["--new"]);
    tui.wait_for(&["Entities", "Narrative", "History", "offline"]);
    let messages = demo_messages();
    for (i, m) in messages.iter().take(3).enumerate() {
        tui.send(m);
        tui.wait_for(&[&format!("turn {}", i + 1), "Summarize ✓"]);
    }
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
    // Esc leaves zoom; a pause keeps it from reading as Alt+q.
    tui.keys(b"\x1b");
    std::thread::sleep(Duration::from_millis(300));
    tui.keys(b"q");
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = tui.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "alfred did not quit; screen:\n{}",
            tui.contents()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "exit status {status:?}");
}

#[test]
fn a_tiny_terminal_gets_a_note_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 10,
            cols: 30,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_alfred"));
    cmd.env_clear();
    cmd.env("HOME", dir.path());
    cmd.env("TERM", "xterm-256color");
    cmd.arg("--data-dir");
    cmd.arg(dir.path());
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    let mut reader = pty.master.try_clone_reader().unwrap();
    let mut writer = pty.master.take_writer().unwrap();
    let screen = Arc::new(Mutex::new(vt100::Parser::new(nz(10), nz(30), 0)));
    let sink = screen.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().process(&buf[..n]);
        }
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    while !screen
        .lock()
        .unwrap()
        .screen()
        .contents()
        .contains("too small")
    {
        assert!(
            Instant::now() < deadline,
            "no note: {}",
            screen.lock().unwrap().screen().contents()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Growing the terminal brings the UI back. The parser grows first: the
    // app redraws as soon as it sees the new size, and a redraw parsed at the
    // old width would wrap into garbage.
    screen
        .lock()
        .unwrap()
        .screen_mut()
        .set_size(nz(30), nz(100));
    pty.master
        .resize(PtySize {
            rows: 30,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !screen
        .lock()
        .unwrap()
        .screen()
        .contents()
        .contains("Entities")
    {
        assert!(
            Instant::now() < deadline,
            "no UI after resize: {}",
            screen.lock().unwrap().screen().contents()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    writer.write_all(b"\x03").unwrap();
    writer.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{status:?}");
            break;
        }
        assert!(Instant::now() < deadline, "alfred did not quit on Ctrl-C");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_timeline_and_the_prompt_inspector_open_in_the_built_binary() {
    let mut tui = Tui::start(&["--new"]);
    tui.wait_for(&["Entities", "Narrative", "History", "offline"]);
    let messages = demo_messages();
    for (i, m) in messages.iter().take(3).enumerate() {
        tui.send(m);
        tui.wait_for(&[&format!("turn {}", i + 1), "Summarize ✓"]);
    }
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
    tui.keys(b"\x1b");
    std::thread::sleep(Duration::from_millis(300));
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
    tui.wait_for(&["Think · turn 3", "<entity_context>", "<turn_narrative>"]);
    tui.keys(b"\x1b");
    std::thread::sleep(Duration::from_millis(300));
    // [ travels back a turn: the title says so.
    tui.keys(b"[");
    tui.wait_for(&["viewing turn 2 of 3"]);
    tui.keys(b"\x1b");
    std::thread::sleep(Duration::from_millis(300));
    tui.keys(b"q");
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = tui.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "alfred did not quit; screen:\n{}",
            tui.contents()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "exit status {status:?}");
}
