//! Program side: [`LiveSink`] and the process-wide target named by `CSPACE_LIVE`.

use super::{
    ANNOUNCE_STEPS, ANNOUNCE_TIMEOUT, BLOCK_ENV, CLOSE_TIMEOUT, CONNECT_TIMEOUT, LIVE_ENV,
    MAX_RETRY_AFTER, RETRY_AFTER, STEP, WRITE_TIMEOUT,
};
use crate::record::Sink;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

static DROPPED: AtomicU64 = AtomicU64::new(0);

/// Recordings that could not be streamed (no receiver, or it vanished or
/// stalled mid-query, or the address was backing off after a failure).
#[must_use]
pub fn dropped() -> u64 {
    DROPPED.load(Ordering::Relaxed)
}

/// Program side: one recording streamed over one TCP connection.
#[derive(Debug)]
pub struct LiveSink {
    stream: TcpStream,
    block_on_pause: bool,
    /// Whether the receiver announced that it steps; `None` until the first pause asks.
    stepping: Option<bool>,
    failed: bool,
    /// Made for the `CSPACE_LIVE` target: its outcome feeds the target's back-off.
    from_env: bool,
}

impl LiveSink {
    /// Connects to a receiver at `addr` within [`CONNECT_TIMEOUT`]. With
    /// `block_on_pause`, each pause waits for a step if the receiver announces
    /// that it steps.
    ///
    /// # Errors
    /// The address does not resolve, or nobody accepts in time.
    pub fn connect(addr: impl ToSocketAddrs, block_on_pause: bool) -> io::Result<Self> {
        let mut last = io::Error::new(io::ErrorKind::NotFound, "address resolves to nothing");
        for a in addr.to_socket_addrs()? {
            match TcpStream::connect_timeout(&a, CONNECT_TIMEOUT) {
                Ok(stream) => {
                    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
                    stream.set_nodelay(true)?;
                    return Ok(Self {
                        stream,
                        block_on_pause,
                        stepping: None,
                        failed: false,
                        from_env: false,
                    });
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    fn fail(&mut self) {
        if !self.failed {
            self.failed = true;
            DROPPED.fetch_add(1, Ordering::Relaxed);
            let _ = self.stream.shutdown(Shutdown::Both);
            if self.from_env {
                with_target(Target::failed);
            }
        }
    }

    /// Writes all of `bytes` within [`WRITE_TIMEOUT`] in total (a receiver
    /// that takes a trickle every two seconds does not stall the program).
    fn write_within_deadline(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        let deadline = Instant::now() + WRITE_TIMEOUT;
        while !bytes.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("the receiver took no more bytes within {WRITE_TIMEOUT:?}"),
                ));
            }
            self.stream.set_write_timeout(Some(left))?;
            match self.stream.write(bytes) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Waits at most [`ANNOUNCE_TIMEOUT`] for [`ANNOUNCE_STEPS`].
    fn receiver_steps(&mut self) -> bool {
        if self
            .stream
            .set_read_timeout(Some(ANNOUNCE_TIMEOUT))
            .is_err()
        {
            return false;
        }
        let byte = read_byte(&mut self.stream);
        // A later wait for a step is unbounded: the user decides when to step.
        self.stream.set_read_timeout(None).is_ok() && byte == Some(ANNOUNCE_STEPS)
    }
}

/// One byte from `stream`; `None` on end of stream, error or timeout.
fn read_byte(stream: &mut TcpStream) -> Option<u8> {
    let mut byte = [0u8; 1];
    loop {
        match stream.read(&mut byte) {
            Ok(1) => return Some(byte[0]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            _ => return None,
        }
    }
}

impl Sink for LiveSink {
    fn write_frames(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.failed {
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the live receiver is gone",
            ));
        }
        let result = self.write_within_deadline(bytes);
        if result.is_err() {
            self.fail();
        }
        result
    }

    fn after_pause(&mut self) {
        if !self.block_on_pause || self.failed {
            return;
        }
        let stepping = if let Some(s) = self.stepping {
            s
        } else {
            let s = self.receiver_steps();
            self.stepping = Some(s);
            s
        };
        if !stepping {
            return;
        }
        // Wait for one step; a closed connection or a stray byte releases us.
        if read_byte(&mut self.stream) != Some(STEP) {
            self.fail();
        }
    }
}

impl LiveSink {
    /// Ends the stream and waits at most [`CLOSE_TIMEOUT`] for the receiver
    /// to close its side, reading (and discarding) what it still sends: an
    /// announcement or a step never read would make closing reset the
    /// connection, and the receiver could lose the stream's end. Returns
    /// whether the receiver confirmed.
    fn close_gracefully(&mut self) -> bool {
        if self.stream.shutdown(Shutdown::Write).is_err() {
            return false;
        }
        let deadline = Instant::now() + CLOSE_TIMEOUT;
        let mut buf = [0u8; 64];
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || self.stream.set_read_timeout(Some(left)).is_err() {
                return false;
            }
            match self.stream.read(&mut buf) {
                Ok(0) => return true,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return false,
            }
        }
    }
}

impl Drop for LiveSink {
    fn drop(&mut self) {
        if self.failed {
            return;
        }
        if self.close_gracefully() {
            if self.from_env {
                with_target(Target::succeeded);
            }
        } else {
            self.fail();
        }
    }
}

/// The live target from the environment and its back-off after failures.
struct Target {
    addr: Option<String>,
    block: bool,
    /// No streaming before this instant (after a failure).
    retry_at: Option<Instant>,
    /// The back-off the next failure applies.
    backoff: Duration,
}

impl Target {
    fn failed(&mut self) {
        self.retry_at = Some(Instant::now() + self.backoff);
        self.backoff = (self.backoff * 2).min(MAX_RETRY_AFTER);
    }

    fn succeeded(&mut self) {
        self.retry_at = None;
        self.backoff = RETRY_AFTER;
    }
}

static TARGET: Mutex<Option<Target>> = Mutex::new(None);

/// Runs `f` on the process-wide target, read from the environment on first use.
fn with_target<R>(f: impl FnOnce(&mut Target) -> R) -> R {
    let mut guard = TARGET.lock().unwrap_or_else(PoisonError::into_inner);
    f(guard.get_or_insert_with(|| Target {
        addr: std::env::var(LIVE_ENV).ok().filter(|a| !a.is_empty()),
        block: std::env::var(BLOCK_ENV).is_ok_and(|v| v == "1"),
        retry_at: None,
        backoff: RETRY_AFTER,
    }))
}

/// A sink to the receiver named by `CSPACE_LIVE`, if set, not backing off
/// after a failure, and reachable.
pub(crate) fn sink_from_env() -> Option<Box<dyn Sink>> {
    let (addr, block) = with_target(|t| {
        let addr = t.addr.clone()?;
        if t.retry_at.is_some_and(|at| Instant::now() < at) {
            DROPPED.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        Some((addr, t.block))
    })?;
    if let Ok(mut sink) = LiveSink::connect(addr.as_str(), block) {
        sink.from_env = true;
        return Some(Box::new(sink));
    }
    DROPPED.fetch_add(1, Ordering::Relaxed);
    with_target(Target::failed);
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_back_off_doubles_up_to_a_minute_and_resets_after_a_success() {
        let mut t = Target {
            addr: None,
            block: false,
            retry_at: None,
            backoff: RETRY_AFTER,
        };
        let mut seen = Vec::new();
        for _ in 0..9 {
            let before = Instant::now();
            t.failed();
            let wait = t.retry_at.expect("backing off") - before;
            seen.push((wait + Duration::from_millis(500)).as_secs());
        }
        assert_eq!(seen, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        t.succeeded();
        assert_eq!((t.retry_at, t.backoff), (None, RETRY_AFTER));
    }
}
