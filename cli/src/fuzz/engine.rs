//! A user's engine as a child process: one query line in (the `cspace eval`
//! schema), one answer line out (the same field names). Every way an engine
//! can misbehave — not starting, crashing, hanging, printing garbage or
//! endless lines — is a typed [`EngineError`] for that query; the process is
//! then killed and restarted for the next one, so it never hangs the fuzzer.

use cspace::model::Query;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

/// The longest answer line read (longer lines are an error, not memory).
pub const MAX_LINE: usize = 1 << 20;

/// The environment variable set for an engine started to record: the folder
/// to write a recording in (then answer with `"recording": PATH`).
pub const RECORD_ENV: &str = "CSPACE_ENGINE_RECORD";

/// What went wrong with one query sent to an engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The command is empty.
    #[error("--engine: empty command")]
    Empty,
    /// The program could not be started.
    #[error("engine `{program}` could not start: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// Writing the query failed (the engine closed its input or exited).
    #[error("engine stopped reading its input: {0}")]
    Write(std::io::Error),
    /// No answer line within the per-query timeout.
    #[error("engine hung: no answer within {0:?} (killed and restarted)")]
    Timeout(Duration),
    /// The engine exited (or closed its output) before answering.
    #[error("engine crashed: exited before answering ({0})")]
    Exited(String),
    /// An answer line longer than [`MAX_LINE`].
    #[error("engine printed a line longer than {MAX_LINE} bytes")]
    TooLong,
    /// The answer is not a JSON object.
    #[error("engine printed garbage instead of an answer: {0}")]
    Garbage(String),
    /// The answer's `id` is not the query's.
    #[error("engine answered id {got} to query {want}")]
    WrongId {
        /// The query's id.
        want: String,
        /// The answer's id.
        got: String,
    },
}

impl EngineError {
    /// A short name for summaries (`engine-hang`, …).
    #[must_use]
    pub fn check(&self) -> &'static str {
        match self {
            Self::Empty | Self::Spawn { .. } => "engine-start",
            Self::Write(_) | Self::Exited(_) => "engine-crash",
            Self::Timeout(_) => "engine-hang",
            Self::TooLong | Self::Garbage(_) | Self::WrongId { .. } => "engine-garbage",
        }
    }
}

enum Line {
    Text(String),
    TooLong,
    Eof(String),
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
}

/// An engine command, started on demand and restarted after a failure.
pub struct Engine {
    argv: Vec<String>,
    timeout: Duration,
    record_dir: Option<std::path::PathBuf>,
    running: Option<Running>,
    /// How many times the process was (re)started.
    pub starts: u32,
}

impl Engine {
    /// The engine `command` (split at whitespace: program then arguments),
    /// answering each query within `timeout`.
    ///
    /// # Errors
    /// The command is empty.
    pub fn new(command: &str, timeout: Duration) -> Result<Self, EngineError> {
        let argv: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        if argv.is_empty() {
            return Err(EngineError::Empty);
        }
        Ok(Self {
            argv,
            timeout,
            record_dir: None,
            running: None,
            starts: 0,
        })
    }

    /// The same engine, started with [`RECORD_ENV`] set to `dir`.
    #[must_use]
    pub fn recording(&self, dir: &std::path::Path) -> Self {
        let mut e = self.fresh();
        e.record_dir = Some(dir.to_owned());
        e
    }

    /// The same command as a new, not yet started engine.
    #[must_use]
    pub fn fresh(&self) -> Self {
        Self {
            argv: self.argv.clone(),
            timeout: self.timeout,
            record_dir: self.record_dir.clone(),
            running: None,
            starts: 0,
        }
    }

    fn start(&mut self) -> Result<&mut Running, EngineError> {
        if self.running.is_none() {
            let mut cmd = Command::new(&self.argv[0]);
            cmd.args(&self.argv[1..])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null());
            if let Some(dir) = &self.record_dir {
                cmd.env(RECORD_ENV, dir);
            }
            let mut child = cmd.spawn().map_err(|source| EngineError::Spawn {
                program: self.argv[0].clone(),
                source,
            })?;
            let stdin = child.stdin.take().expect("piped stdin");
            let stdout = child.stdout.take().expect("piped stdout");
            let (tx, rx) = sync_channel(4);
            std::thread::spawn(move || read_lines(stdout, &tx));
            self.starts += 1;
            self.running = Some(Running {
                child,
                stdin,
                lines: rx,
            });
        }
        Ok(self.running.as_mut().expect("started"))
    }

    /// Kills the process (if any); the next query starts a new one.
    pub fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }

    /// Sends `q` and reads its answer object.
    ///
    /// # Errors
    /// The engine failed on this query (it is restarted for the next one).
    pub fn ask(&mut self, q: &Query) -> Result<Value, EngineError> {
        let result = self.ask_once(q);
        if result.is_err() {
            self.stop();
        }
        result
    }

    fn ask_once(&mut self, q: &Query) -> Result<Value, EngineError> {
        let timeout = self.timeout;
        let line = serde_json::to_string(q).map_err(|e| EngineError::Garbage(e.to_string()))?;
        let r = self.start()?;
        r.stdin
            .write_all(line.as_bytes())
            .and_then(|()| r.stdin.write_all(b"\n"))
            .and_then(|()| r.stdin.flush())
            .map_err(EngineError::Write)?;
        let text = match r.lines.recv_timeout(timeout) {
            Ok(Line::Text(t)) => t,
            Ok(Line::TooLong) => return Err(EngineError::TooLong),
            Ok(Line::Eof(why)) => {
                let status = r
                    .child
                    .wait()
                    .map_or_else(|_| why.clone(), |s| format!("{s}"));
                return Err(EngineError::Exited(status));
            }
            Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout(timeout)),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(EngineError::Exited("output closed".to_owned()));
            }
        };
        let value: Value = serde_json::from_str(&text).map_err(|e| {
            let shown: String = text.chars().take(80).collect();
            EngineError::Garbage(format!("{e}: {shown:?}"))
        })?;
        if !value.is_object() {
            return Err(EngineError::Garbage(
                "the answer is not a JSON object".into(),
            ));
        }
        let want = q.id.clone().map_or(Value::Null, Value::String);
        let got = value.get("id").cloned().unwrap_or(Value::Null);
        if got != want {
            return Err(EngineError::WrongId {
                want: want.to_string(),
                got: got.to_string(),
            });
        }
        Ok(value)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Reads lines of at most [`MAX_LINE`] bytes and hands them over until the
/// output closes or the receiver goes away.
fn read_lines(stdout: impl Read, tx: &std::sync::mpsc::SyncSender<Line>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = match (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(n) => n,
            Err(e) => {
                let _ = tx.send(Line::Eof(e.to_string()));
                return;
            }
        };
        if n == 0 {
            let _ = tx.send(Line::Eof("output closed".to_owned()));
            return;
        }
        let line = if buf.last() == Some(&b'\n') {
            Line::Text(String::from_utf8_lossy(&buf).trim_end().to_owned())
        } else if buf.len() > MAX_LINE {
            // Skip the rest of the line without keeping it.
            loop {
                buf.clear();
                match (&mut reader).take(64 * 1024).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if buf.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
            Line::TooLong
        } else {
            Line::Text(String::from_utf8_lossy(&buf).trim_end().to_owned())
        };
        if matches!(&line, Line::Text(t) if t.is_empty()) {
            continue;
        }
        if tx.send(line).is_err() {
            return;
        }
    }
}
