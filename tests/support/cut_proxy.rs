//! A TCP proxy in front of a Postgres server that cuts the connection
//! carrying the first `COMMIT` it sees: after the server had it (the client
//! never hears the answer: the commit landed, the client cannot know), or
//! before (the server never had it: the transaction is lost with the
//! connection). Every other byte passes as it came, both ways.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

/// When the connection is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The `COMMIT` reaches the server, its answer never reaches the client.
    AfterCommit,
    /// The `COMMIT` never reaches the server.
    BeforeCommit,
    /// As [`Cut::AfterCommit`], and from then on every new connection is
    /// closed at once (the server looks down).
    AfterCommitThenDown,
}

/// A running proxy (it runs until the test process ends).
pub struct CutProxy {
    pub port: u16,
    armed: Arc<AtomicBool>,
    cuts: Arc<AtomicU32>,
}

impl CutProxy {
    /// Listens on a free port of 127.0.0.1, forwarding to `upstream_port`.
    pub fn start(upstream_port: u16, cut: Cut) -> CutProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the proxy");
        let port = listener.local_addr().expect("proxy address").port();
        let armed = Arc::new(AtomicBool::new(true));
        let cuts = Arc::new(AtomicU32::new(0));
        let (a, c) = (armed.clone(), cuts.clone());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                if cut == Cut::AfterCommitThenDown && c.load(Ordering::SeqCst) > 0 {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(server) = TcpStream::connect(("127.0.0.1", upstream_port)) else {
                    continue;
                };
                let (a, c) = (a.clone(), c.clone());
                std::thread::spawn(move || pump_pair(client, server, cut, &a, &c));
            }
        });
        CutProxy { port, armed, cuts }
    }

    /// `url` (a `postgres://…@127.0.0.1:PORT/db` URL) through this proxy.
    pub fn url(&self, url: &str, upstream_port: u16) -> String {
        url.replacen(
            &format!("127.0.0.1:{upstream_port}"),
            &format!("127.0.0.1:{}", self.port),
            1,
        )
    }

    /// How many connections were cut (at most one).
    pub fn cuts(&self) -> u32 {
        self.cuts.load(Ordering::SeqCst)
    }
}

/// The simple-query message of a bare `COMMIT`: 'Q', length, text, NUL.
fn commit_message() -> Vec<u8> {
    let text = b"COMMIT\0";
    let mut m = vec![b'Q'];
    m.extend_from_slice(&(4 + text.len() as u32).to_be_bytes());
    m.extend_from_slice(text);
    m
}

fn pump_pair(client: TcpStream, server: TcpStream, cut: Cut, armed: &AtomicBool, cuts: &AtomicU32) {
    let (Ok(client_r), Ok(server_w)) = (client.try_clone(), server.try_clone()) else {
        return;
    };
    let (server_r, client_w) = (server, client);
    // Set before the COMMIT goes on: no answer to it reaches the client.
    let muted = Arc::new(AtomicBool::new(false));
    let back = {
        let (mut from, mut to) = (
            server_r.try_clone().expect("clone"),
            client_w.try_clone().expect("clone"),
        );
        let muted = muted.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 16 * 1024];
            loop {
                let n = match from.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                if muted.load(Ordering::SeqCst) || to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            let _ = to.shutdown(Shutdown::Both);
        })
    };
    let (mut from, mut to) = (client_r, server_w);
    let needle = commit_message();
    let mut buf = [0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let chunk = &buf[..n];
        let hit = chunk.windows(needle.len()).any(|w| w == needle.as_slice());
        if hit && armed.swap(false, Ordering::SeqCst) {
            cuts.fetch_add(1, Ordering::SeqCst);
            muted.store(true, Ordering::SeqCst);
            if cut != Cut::BeforeCommit {
                let _ = to.write_all(chunk);
                // Let the server run it before the line goes dead.
                std::thread::sleep(Duration::from_millis(300));
            }
            let _ = client_w.shutdown(Shutdown::Both);
            let _ = server_r.shutdown(Shutdown::Both);
            break;
        }
        if to.write_all(chunk).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Both);
    let _ = back.join();
}
