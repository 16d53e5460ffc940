//! The server-sent events decoder the streamed reply is read with: bytes in,
//! whole events out, following the WHATWG event-stream grammar (lines ended
//! by CRLF, LF or CR; `data` lines joined with newlines; comments and
//! unknown fields ignored; an event is dispatched by a blank line).
//!
//! async-openai has a decoder, but it is private to its client, and that
//! client always wraps requests in a retry layer we may not configure (see
//! `http`), so the brain reads the HTTP body itself and decodes it here.
//! Pure: no IO, no async; chunk boundaries may fall anywhere, even inside a
//! line ending or a UTF-8 sequence.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field; `message` when the stream names none.
    pub event: String,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
}

/// Decodes an event stream incrementally.
#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of the line being received.
    line: Vec<u8>,
    /// The last byte was a CR: a following LF belongs to the same line end.
    after_cr: bool,
    /// No line seen yet (a leading BOM is dropped).
    started: bool,
    data: String,
    has_data: bool,
    event: String,
}

impl SseDecoder {
    /// Feeds bytes; returns the events they complete, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        for &b in bytes {
            match b {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    let line = std::mem::take(&mut self.line);
                    if let Some(event) = self.line_done(&line) {
                        out.push(event);
                    }
                }
                _ => {
                    self.after_cr = false;
                    self.line.push(b);
                }
            }
        }
        out
    }

    /// Handles one complete line; a blank line dispatches the event.
    fn line_done(&mut self, raw: &[u8]) -> Option<SseEvent> {
        let mut line = String::from_utf8_lossy(raw).into_owned();
        if !self.started {
            self.started = true;
            if let Some(rest) = line.strip_prefix('\u{feff}') {
                line = rest.to_string();
            }
        }
        if line.is_empty() {
            return self.dispatch();
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_str(), ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = value.to_string(),
            // `id` and `retry` matter to reconnecting clients only.
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = std::mem::take(&mut self.event);
        if !std::mem::take(&mut self.has_data) {
            return None;
        }
        Some(SseEvent {
            event: if event.is_empty() {
                "message".to_string()
            } else {
                event
            },
            data: std::mem::take(&mut self.data),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn datas(events: &[SseEvent]) -> Vec<&str> {
        events.iter().map(|e| e.data.as_str()).collect()
    }

    #[test]
    fn events_end_at_blank_lines_with_any_line_ending() {
        let mut d = SseDecoder::default();
        let events = d.feed(b"data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: {\"x\":1}\n\n");
        assert_eq!(datas(&events), ["a", "b", "c", "{\"x\":1}"]);
        assert!(events.iter().all(|e| e.event == "message"));
    }

    #[test]
    fn chunks_may_split_anything() {
        let stream =
            "\u{feff}: keep-alive\nevent: delta\ndata: héllo\ndata:  two\n\ndata: [DONE]\r\n\r\n";
        let whole = SseDecoder::default().feed(stream.as_bytes());
        assert_eq!(whole.len(), 2);
        assert_eq!(whole[0].event, "delta");
        assert_eq!(whole[0].data, "héllo\n two");
        assert_eq!(whole[1].data, "[DONE]");
        // Byte by byte (splitting the é and the CRLF) gives the same events.
        let mut d = SseDecoder::default();
        let mut bytewise = Vec::new();
        for b in stream.as_bytes() {
            bytewise.extend(d.feed(&[*b]));
        }
        assert_eq!(bytewise, whole);
    }

    #[test]
    fn incomplete_and_empty_events_are_not_dispatched() {
        let mut d = SseDecoder::default();
        assert!(d.feed(b"event: ping\n\n").is_empty(), "no data, no event");
        assert!(d.feed(b"id: 7\nretry: 10\nfoo\n\n").is_empty());
        assert!(d.feed(b"data: cut off mid-way").is_empty());
        assert_eq!(datas(&d.feed(b"\n\n")), ["cut off mid-way"]);
        assert_eq!(
            datas(&d.feed(b"data\n\n")),
            [""],
            "a bare field name is an empty value"
        );
    }
}
