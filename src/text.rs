//! Text that is safe to print to a terminal: what every CLI printer passes
//! user and model text through (the TUI draws through its own wrap, which
//! drops the same characters).
//!
//! Control characters would let a message, a reply or a kitchen row retitle
//! the terminal, clear it, write the clipboard (OSC 52) or swallow the rest
//! of the output; bidirectional overrides would make text read differently
//! from what it is. Both are made visible instead of sent: C0 controls in
//! caret notation (`^[` for ESC), DEL as `^?`, C1 controls and bidi
//! controls as `<U+202E>`. Newlines and tabs are kept where text may span
//! lines ([`visible`]) and become spaces on one line ([`one_line`]). Pure.

use std::borrow::Cow;

/// True for characters that must not reach a terminal as they are.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi(c)
}

/// Bidirectional formatting characters (embeddings, overrides, isolates,
/// marks).
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn push_visible(out: &mut String, c: char) {
    match c {
        '\u{0}'..='\u{1F}' => {
            out.push('^');
            out.push(char::from(b'@' + c as u8));
        }
        '\u{7F}' => out.push_str("^?"),
        other => out.push_str(&format!("<U+{:04X}>", other as u32)),
    }
}

/// `text` with every control character but newline and tab, and every
/// bidi control, made visible.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            push_visible(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` on one line: as [`visible`], with newlines and tabs as spaces.
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| is_unsafe(c) || c == '\n' || c == '\t' || c == '\r')
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' | '\r' => out.push(' '),
            c if is_unsafe(c) => push_visible(&mut out, c),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// JSON text with the characters a terminal would act on that JSON leaves
/// as they are (DEL, C1 controls, bidi controls: serde escapes only C0)
/// written as `\uXXXX` escapes. The value is the same; only its spelling
/// changes, so `jq` reads the same data and a terminal shows it inert.
/// (Such characters can only be inside strings: JSON's own syntax is
/// plain ASCII.)
pub fn json_safe(json: &str) -> Cow<'_, str> {
    if !json.chars().any(is_unsafe) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_unsafe(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{:04x}", u));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// serde_json's pretty layout with strings spelled as [`json_safe`] spells
/// them, for JSON written in pieces (a whole session exported) rather than
/// made into one string first. The output is byte for byte
/// `json_safe(&serde_json::to_string_pretty(value))`.
#[derive(Default)]
pub struct SafePretty(serde_json::ser::PrettyFormatter<'static>);

impl serde_json::ser::Formatter for SafePretty {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        out: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        // serde escapes quotes, backslashes and C0 controls itself; what it
        // leaves in a fragment is escaped here.
        let mut rest = fragment;
        while let Some((i, c)) = rest.char_indices().find(|(_, c)| is_unsafe(*c)) {
            out.write_all(&rest.as_bytes()[..i])?;
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                write!(out, "\\u{:04x}", u)?;
            }
            rest = &rest[i + c.len_utf8()..];
        }
        out.write_all(rest.as_bytes())
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }

    fn end_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_key(w)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// `text` without the characters a terminal would act on (for what is
/// stored, like a session title).
pub fn strip(text: &str) -> String {
    text.chars().filter(|c| !is_unsafe(*c)).collect()
}

/// A count with its noun, singular for one: "1 turn", "3 turns".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "12,345".
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_overrides_are_shown_not_sent() {
        let osc52 = "hi \u{1b}]52;c;aGVsbG8=\u{7}there";
        assert_eq!(visible(osc52), "hi ^[]52;c;aGVsbG8=^Gthere");
        assert_eq!(visible("evil\u{202E}txt.exe"), "evil<U+202E>txt.exe");
        assert_eq!(visible("a\u{9b}2J"), "a<U+009B>2J");
        assert_eq!(visible("two\nlines\tok"), "two\nlines\tok");
        assert_eq!(one_line("two\nlines\r\n"), "two lines  ");
        assert!(matches!(visible("plain"), Cow::Borrowed(_)));
        assert!(!visible(osc52).chars().any(is_unsafe));
    }

    #[test]
    fn json_keeps_its_value_and_loses_what_a_terminal_would_obey() {
        let value = serde_json::json!({"user": "a\u{7f}b\u{9b}2J \u{202e}txt \u{1b}[2J", "n": 1});
        let text = serde_json::to_string(&value).unwrap();
        assert!(text.contains('\u{202e}'), "serde leaves bidi raw");
        let safe = json_safe(&text);
        assert!(!safe.chars().any(is_unsafe), "{safe}");
        assert!(
            safe.contains("\\u202e") && safe.contains("\\u007f"),
            "{safe}"
        );
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, value);
        // Written in pieces, the same bytes.
        let mut streamed = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut streamed, SafePretty::default());
        serde::Serialize::serialize(&value, &mut ser).unwrap();
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), json_safe(&pretty));
    }
}

#[cfg(test)]
mod count_tests {
    #[test]
    fn one_is_singular() {
        assert_eq!(super::count(1, "turn", "turns"), "1 turn");
        assert_eq!(super::count(0, "turn", "turns"), "0 turns");
        assert_eq!(super::count(131, "entity", "entities"), "131 entities");
    }
}
