//! Command output on stdout, through a buffer; a reader that went away
//! (`| head -1`) ends the command quietly, as `head` users expect.

use std::io::Write;

/// Writes command output to stdout. A reader that went away (`| head -1`)
/// ends the command quietly with status 0, as `head` users expect.
pub fn emit(text: &str) {
    emit_with(|out| out.write_all(text.as_bytes()));
}

/// Writes command output to stdout in pieces, through a buffer, as
/// [`emit`] does.
pub fn emit_with(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    if let Err(e) = write(&mut out).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: could not write the output: {e}");
        std::process::exit(1);
    }
}
