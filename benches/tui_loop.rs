//! The real app loop (`tui::app::run_on`) on a `TestBackend` at 160×50,
//! with the offline brain and a session in a temporary folder:
//! - a burst of 2,000 keys sent at once: how many frames the loop draws
//!   for them (at most one every `FRAME`, 16 ms), and how long it takes;
//! - 3 s with nothing happening: frames drawn, and the process's CPU time
//!   over those seconds (from `/proc/self/stat`, 10 ms resolution).
//!
//! `cargo bench --bench tui_loop` (plain timing, `harness = false`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use alfred::fixtures::offline_app;
use alfred::tui::app::{FRAME, LoopLog, run_on};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use futures::channel::mpsc::unbounded;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The process's user + system CPU time (Linux).
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses).
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<u64> = rest
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    // utime and stime are fields 14 and 15 of the line: 11th and 12th here.
    let ticks = f.get(10).copied().unwrap_or(0) + f.get(11).copied().unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let dir = tempfile::tempdir().expect("tmp");
        let log = Arc::new(Mutex::new(LoopLog::default()));
        let (model, deps) = offline_app(dir.path(), log.clone());
        let (keys, events) = unbounded();
        let key = |c: KeyCode, m: KeyModifiers| {
            let _ = keys.unbounded_send(Ok(Event::Key(KeyEvent::new(c, m))));
        };
        let mut terminal = Terminal::new(TestBackend::new(160, 50)).expect("terminal");
        let driver = async {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let frames_before = log.lock().unwrap().frames;
            let started = Instant::now();
            for i in 0..2000 {
                key(
                    KeyCode::Char(if i % 2 == 0 { 'a' } else { 'b' }),
                    KeyModifiers::NONE,
                );
            }
            // Until the last key is drawn: the frame count settles.
            let mut last = (0, Instant::now());
            loop {
                tokio::time::sleep(FRAME).await;
                let f = log.lock().unwrap().frames;
                if f != last.0 {
                    last = (f, Instant::now());
                } else if last.1.elapsed() > FRAME * 5 {
                    break;
                }
            }
            let burst = last.1.duration_since(started);
            let burst_frames = last.0 - frames_before;
            // Idle.
            let (cpu0, frames0) = (cpu_time(), log.lock().unwrap().frames);
            tokio::time::sleep(Duration::from_secs(3)).await;
            let (cpu1, frames1) = (cpu_time(), log.lock().unwrap().frames);
            key(KeyCode::Char('c'), KeyModifiers::CONTROL);
            (burst, burst_frames, frames1 - frames0, cpu1 - cpu0)
        };
        let (result, (burst, burst_frames, idle_frames, idle_cpu)) =
            tokio::join!(run_on(&mut terminal, model, deps, events), driver);
        result.expect("the loop ran");
        println!("app loop on a TestBackend 160x50, offline brain, frame at most every {FRAME:?}");
        println!(
            "burst of 2,000 keys: {burst_frames} frames in {:.0} ms ({:.0} frames/s)",
            burst.as_secs_f64() * 1000.0,
            burst_frames as f64 / burst.as_secs_f64().max(1e-9)
        );
        println!(
            "3 s idle: {idle_frames} frames, {} ms of CPU (10 ms resolution)",
            idle_cpu.as_millis()
        );
    });
}
