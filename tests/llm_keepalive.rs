//! A server that closes a kept-alive connection without saying so, as
//! llama.cpp's `llama-server` does after each streamed answer: the next
//! request on that connection meets a closed socket. alfred sends it once
//! more on a new connection, and the user never sees the race.
//!
//! The server here is raw HTTP/1.1 over a std `TcpListener`, so the close is
//! exact: on its first connection it answers one request and then closes as
//! soon as the second arrives, unanswered; later connections keep alive.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use support::KEY;
use support::doctor::{doctor, line};

/// One request read from `reader`: its request line, or `None` at EOF.
fn read_request(reader: &mut BufReader<TcpStream>) -> Option<String> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        if header == "\r\n" {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(line.trim_end().to_string())
}

/// The answer to a request line: `/models` is not served (404, so the
/// check asks for a one-token completion); a completion says "ok".
fn answer(request: &str) -> String {
    let (status, body) = if request.starts_with("POST") && request.contains("chat/completions") {
        (
            "200 OK",
            r#"{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"length"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}"#,
        )
    } else {
        (
            "404 Not Found",
            r#"{"error":{"message":"File Not Found","type":"not_found_error"}}"#,
        )
    };
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Starts the server; returns its base URL and how many requests were
/// dropped unanswered.
fn start() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let dropped = Arc::new(AtomicUsize::new(0));
    let counted = dropped.clone();
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(stream) = stream else { return };
            let dropped = counted.clone();
            std::thread::spawn(move || {
                let mut writer = stream.try_clone().unwrap();
                let mut reader = BufReader::new(stream);
                let mut served = 0;
                while let Some(request) = read_request(&mut reader) {
                    if n == 0 && served == 1 {
                        // Closed as the kept-alive connection is reused.
                        dropped.fetch_add(1, Ordering::SeqCst);
                        return;
                    }
                    served += 1;
                    if writer.write_all(answer(&request).as_bytes()).is_err() {
                        return;
                    }
                }
            });
        }
    });
    (format!("http://{addr}/v1"), dropped)
}

#[test]
fn a_request_on_a_connection_the_server_closed_is_sent_again() {
    let (base, dropped) = start();
    let (_, report) = doctor(&base, Some(KEY), &["--model", "m"]);
    assert_eq!(
        dropped.load(Ordering::SeqCst),
        1,
        "the completion went out on the closed connection: {report}"
    );
    let endpoint = line(&report, "endpoint");
    assert!(
        endpoint.starts_with("ok") && endpoint.contains("a 1-token completion"),
        "{report}"
    );
}
