//! Every byte the command line prints goes through here, and printing
//! never panics.
//!
//! A write that fails is remembered, not raised, so a command always runs
//! to its end (a build writes its database whether or not anyone reads
//! its report):
//!
//! - A closed pipe (`blades i18n export | head -1`): the reader went away.
//!   Nothing more is written to that stream and the exit code stays the
//!   command's own; no message, as a closed pipe is how a reader says
//!   "enough".
//! - Any other failure (a full disk): nothing more is written to that
//!   stream, [`finish`] says so once on stderr (if stderr still works) and
//!   the exit code becomes 2 (could not run), since output was lost.
//!
//! SIGPIPE stays ignored, as Rust leaves it: with it the system would kill
//! a build at its first report line, before the database is written.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Mutex;

use blades::report::shown;

use super::exit;

/// What became of one output stream.
#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    Open,
    /// The reader went away (broken pipe).
    Closed,
    /// A write failed otherwise; the error's words.
    Failed(String),
}

/// The two streams.
#[derive(Debug, Clone, Copy)]
pub enum Stream {
    Stdout,
    Stderr,
}

static STDOUT: Mutex<State> = Mutex::new(State::Open);
static STDERR: Mutex<State> = Mutex::new(State::Open);

impl Stream {
    fn state(self) -> std::sync::MutexGuard<'static, State> {
        let state = match self {
            Stream::Stdout => &STDOUT,
            Stream::Stderr => &STDERR,
        };
        // A panic elsewhere cannot leave the state half-changed.
        state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn is_open(self) -> bool {
        *self.state() == State::Open
    }

    /// Writes all of `bytes`, unless the stream already failed or closed.
    fn write(self, bytes: &[u8]) {
        self.run(|| match self {
            Stream::Stdout => io::stdout().lock().write_all(bytes),
            Stream::Stderr => io::stderr().lock().write_all(bytes),
        });
    }

    /// Formats straight into the stream (no intermediate string).
    fn write_fmt(self, args: fmt::Arguments<'_>) {
        self.run(|| match self {
            Stream::Stdout => io::stdout().lock().write_fmt(args),
            Stream::Stderr => io::stderr().lock().write_fmt(args),
        });
    }

    fn flush(self) {
        self.run(|| match self {
            Stream::Stdout => io::stdout().lock().flush(),
            Stream::Stderr => io::stderr().lock().flush(),
        });
    }

    fn run(self, write: impl FnOnce() -> io::Result<()>) {
        if !self.is_open() {
            return;
        }
        if let Err(e) = write() {
            self.failed(&e);
        }
    }

    /// Records a failed write to this stream (the first failure counts).
    pub fn failed(self, error: &io::Error) {
        let mut state = self.state();
        if *state == State::Open {
            *state = match error.kind() {
                io::ErrorKind::BrokenPipe => State::Closed,
                _ => State::Failed(words(error)),
            };
        }
    }
}

/// An error's words without the `(os error N)` the system adds.
fn words(error: &io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

/// Prints to stdout; see [`crate::cli::out`].
pub fn stdout_fmt(args: fmt::Arguments<'_>) {
    Stream::Stdout.write_fmt(args);
}

/// Prints to stderr, control characters as their pictures (stderr holds
/// only text for people; miette's reports, coloured on purpose, go through
/// [`stderr_str`]); see [`crate::cli::out`].
pub fn stderr_fmt(args: fmt::Arguments<'_>) {
    match args.as_str() {
        Some(text) => Stream::Stderr.write(shown(text).as_bytes()),
        None => Stream::Stderr.write(shown(&args.to_string()).as_bytes()),
    }
}

/// Prints text for people to stdout, control characters as their
/// pictures: card names, query text and file names come from anyone.
pub fn stdout_shown(text: &str) {
    Stream::Stdout.write(shown(text).as_bytes());
}

/// A writer of text for people: what passes through it reaches the
/// terminal with control characters as their pictures ([`shown`]).
/// `write!` hands it whole `str` pieces; bytes that are not UTF-8 on
/// their own pass as they are.
pub struct Shown<W: Write>(pub W);

impl<W: Write> Write for Shown<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match std::str::from_utf8(buf) {
            Ok(text) => self.0.write_all(shown(text).as_bytes())?,
            Err(_) => self.0.write_all(buf)?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Prints a string to stdout as it is (one write for large outputs).
pub fn stdout_str(text: &str) {
    Stream::Stdout.write(text.as_bytes());
}

/// Prints a string to stderr as it is.
pub fn stderr_str(text: &str) {
    Stream::Stderr.write(text.as_bytes());
}

/// Whether nothing more can be written to a stream (its reader went away,
/// or a write failed): a command with nothing left to do but print (a
/// rebuild loop) may stop.
pub fn gone(stream: Stream) -> bool {
    !stream.is_open()
}

/// Stdout as an `io::Write` for the commands that build their output
/// piece by piece (wrap it in a `BufWriter`). Its writes never fail: a
/// failure is recorded as for [`stdout_fmt`].
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Stream::Stdout.write(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Stream::Stdout.flush();
        Ok(())
    }
}

/// Ends a run: flushes stdout, reports a lost output once, and returns the
/// exit code: the command's own, or 2 if any output was lost otherwise
/// than by a closed pipe.
pub fn finish(code: ExitCode) -> ExitCode {
    Stream::Stdout.flush();
    Stream::Stderr.flush();
    let stdout = Stream::Stdout.state().clone();
    if let State::Failed(error) = &stdout {
        stderr_fmt(format_args!(
            "error: cannot write to standard output: {error}\n"
        ));
        Stream::Stderr.flush();
    }
    let stderr = Stream::Stderr.state().clone();
    if matches!(stdout, State::Failed(_)) || matches!(stderr, State::Failed(_)) {
        ExitCode::from(exit::CANNOT_RUN)
    } else {
        code
    }
}

/// `print!`, through [`stdout_fmt`].
macro_rules! stdout {
    ($($arg:tt)*) => {
        $crate::cli::out::stdout_fmt(format_args!($($arg)*))
    };
}

/// `println!`, through [`stdout_fmt`].
macro_rules! stdoutln {
    () => {
        $crate::cli::out::stdout_str("\n")
    };
    ($($arg:tt)*) => {
        $crate::cli::out::stdout_fmt(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprint!`, through [`stderr_fmt`].
macro_rules! stderr {
    ($($arg:tt)*) => {
        $crate::cli::out::stderr_fmt(format_args!($($arg)*))
    };
}

/// `eprintln!`, through [`stderr_fmt`].
macro_rules! stderrln {
    () => {
        $crate::cli::out::stderr_str("\n")
    };
    ($($arg:tt)*) => {
        $crate::cli::out::stderr_fmt(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {stderr, stderrln, stdout, stdoutln};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_told_without_the_system_number() {
        let e = io::Error::from_raw_os_error(28);
        assert_eq!(words(&e), "No space left on device");
        assert_eq!(words(&io::Error::other("odd (thing)")), "odd (thing)");
    }
}
