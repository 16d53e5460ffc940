//! Writes a long generated session (the test fixture's turns) into a data
//! folder's sessions, as a chat would have saved it, and prints its id and
//! size: the input for measuring `alfred sessions export` on a large file.
//!
//! `cargo run --release --example big_session -- DATA_DIR [TURNS]`
//! (default 2,000 turns), then for example
//! `/usr/bin/time -v alfred --data-dir DATA_DIR sessions export ID --format json > /dev/null`.

use alfred::session::SessionStore;
use alfred::session::sample::sample_session;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(data_dir) = args.next() else {
        eprintln!("usage: big_session DATA_DIR [TURNS]");
        std::process::exit(2);
    };
    let turns: u32 = args
        .next()
        .map_or(2000, |t| t.parse().expect("a number of turns"));
    let sessions = std::path::Path::new(&data_dir).join("sessions");
    std::fs::create_dir_all(&sessions).expect("create the sessions folder");
    let store = SessionStore::new(&sessions);
    let mut session = sample_session(turns, 7);
    let (fresh, lock) = store
        .create(
            jiff::Timestamp::now(),
            session.llm.clone(),
            session.context.policy.clone(),
        )
        .expect("a new session");
    session.id = fresh.id;
    store.write_new(&session, &lock).expect("write the session");
    let size = std::fs::metadata(store.path_of(&session.id))
        .expect("stat")
        .len();
    println!(
        "{} · {turns} turns · {size} bytes ({:.1} MB)",
        session.id,
        size as f64 / 1e6
    );
}
