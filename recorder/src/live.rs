//! Live attach: stream recordings to a listening viewer over TCP as they happen.
//!
//! The program side is a [`LiveSink`]: one TCP connection per recording,
//! carrying exactly the bytes of a `.cspace` file (header, then frames), so the
//! receiver decodes it with the same [`StreamDecoder`](crate::StreamDecoder).
//! Setting `CSPACE_LIVE=127.0.0.1:PORT` makes every [`record`](crate::record)
//! stream there too; `CSPACE_LIVE_BLOCK=1` also makes each `pause!` wait until
//! the viewer steps (it sends one byte per step).
//!
//! A program never hangs on a vanished viewer: connecting times out after
//! [`CONNECT_TIMEOUT`], writes after [`WRITE_TIMEOUT`], a failed connection is
//! not retried for [`RETRY_AFTER`], and a blocked pause returns when the
//! connection closes. Recordings that could not be streamed are counted
//! ([`dropped`]); the in-memory recording is always complete.
//!
//! The receiving side is a [`Server`]: it listens (on loopback unless told
//! otherwise), decodes each connection on its own thread with a byte budget
//! ([`MAX_STREAM_BYTES`]), and reports [`Message`]s through a channel. A peer
//! that sends garbage is disconnected with an error naming the byte offset.

use crate::record::Sink;
use crate::stream::{DecodeError, Located, StreamDecoder};
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Environment variable naming the address of a listening viewer.
pub const LIVE_ENV: &str = "CSPACE_LIVE";
/// Environment variable that makes `pause!` wait for the viewer's step (`1`).
pub const BLOCK_ENV: &str = "CSPACE_LIVE_BLOCK";
/// How long a program waits to connect to a viewer.
pub const CONNECT_TIMEOUT: Duration = Duration::from_millis(250);
/// How long a program waits for a write before it gives the viewer up.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long after a failed connection a program streams to memory only.
pub const RETRY_AFTER: Duration = Duration::from_secs(1);
/// Most bytes a server accepts in one stream before disconnecting the peer.
pub const MAX_STREAM_BYTES: u64 = 256 << 20;

static DROPPED: AtomicU64 = AtomicU64::new(0);

/// Recordings that could not be streamed (no viewer, or it vanished mid-query).
#[must_use]
pub fn dropped() -> u64 {
    DROPPED.load(Ordering::Relaxed)
}

/// Program side: one recording streamed over one TCP connection.
#[derive(Debug)]
pub struct LiveSink {
    stream: TcpStream,
    block_on_pause: bool,
    failed: bool,
}

impl LiveSink {
    /// Connects to a viewer at `addr` within [`CONNECT_TIMEOUT`].
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
                        failed: false,
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
        }
    }
}

impl Sink for LiveSink {
    fn write_frames(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.failed {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "viewer gone"));
        }
        let result = self.stream.write_all(bytes);
        if result.is_err() {
            self.fail();
        }
        result
    }

    fn after_pause(&mut self) {
        if !self.block_on_pause || self.failed {
            return;
        }
        // Wait for one step byte; a closed or broken connection releases us.
        let mut byte = [0u8; 1];
        if !matches!(self.stream.read(&mut byte), Ok(1)) {
            self.fail();
        }
    }
}

/// The live target from the environment, with the time of the last failure.
struct Target {
    addr: Option<String>,
    block: bool,
    failed_at: Option<Instant>,
}

static TARGET: Mutex<Option<Target>> = Mutex::new(None);

/// A sink to the viewer named by `CSPACE_LIVE`, if set and reachable.
pub(crate) fn sink_from_env() -> Option<Box<dyn Sink>> {
    let mut guard = TARGET
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let target = guard.get_or_insert_with(|| Target {
        addr: std::env::var(LIVE_ENV).ok().filter(|a| !a.is_empty()),
        block: std::env::var(BLOCK_ENV).is_ok_and(|v| v == "1"),
        failed_at: None,
    });
    let addr = target.addr.clone()?;
    if target.failed_at.is_some_and(|t| t.elapsed() < RETRY_AFTER) {
        DROPPED.fetch_add(1, Ordering::Relaxed);
        return None;
    }
    let block = target.block;
    drop(guard);
    if let Ok(sink) = LiveSink::connect(addr.as_str(), block) {
        return Some(Box::new(sink));
    }
    DROPPED.fetch_add(1, Ordering::Relaxed);
    if let Some(t) = TARGET
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .as_mut()
    {
        t.failed_at = Some(Instant::now());
    }
    None
}

/// What a [`Server`] reports.
#[derive(Debug)]
pub enum Message {
    /// A program connected; its recording follows under `id`.
    Connected {
        /// Connection id, counting from 0.
        id: u64,
        /// The program's address.
        peer: SocketAddr,
    },
    /// Events decoded from connection `id`, in order.
    Events {
        /// Connection id.
        id: u64,
        /// The events.
        events: Vec<Located>,
    },
    /// Connection `id` closed after a complete recording.
    Finished {
        /// Connection id.
        id: u64,
        /// The whole stream, ready to save as a `.cspace` file.
        bytes: Vec<u8>,
    },
    /// Connection `id` was cut or sent something invalid; it is closed.
    Failed {
        /// Connection id.
        id: u64,
        /// The valid prefix of the stream (may be saved; it decodes).
        bytes: Vec<u8>,
        /// What went wrong, with the byte offset.
        error: DecodeError,
    },
}

/// Receiving side: accepts programs' connections and decodes their recordings.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    messages: Receiver<Message>,
    steppers: Arc<Mutex<Vec<(u64, TcpStream)>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    /// Listens on `addr` (use `127.0.0.1:0` for any free loopback port).
    ///
    /// # Errors
    /// Binding failed (port in use, address not local).
    pub fn bind(addr: impl ToSocketAddrs) -> io::Result<Self> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let (tx, messages) = mpsc::channel();
        let steppers = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (steppers2, stop2) = (steppers.clone(), stop.clone());
        std::thread::Builder::new()
            .name("cspace live accept".into())
            .spawn(move || accept_loop(&listener, &tx, &steppers2, &stop2))?;
        Ok(Self {
            addr,
            messages,
            steppers,
            stop,
        })
    }

    /// The address programs should connect to (put it in `CSPACE_LIVE`).
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The next message, if one is waiting.
    #[must_use]
    pub fn try_next(&self) -> Option<Message> {
        self.messages.try_recv().ok()
    }

    /// The next message, waiting at most `timeout`.
    #[must_use]
    pub fn next_timeout(&self, timeout: Duration) -> Option<Message> {
        self.messages.recv_timeout(timeout).ok()
    }

    /// Releases a program blocked in `pause!` on connection `id` for one step.
    /// Returns whether the connection was still there.
    pub fn step(&self, id: u64) -> bool {
        let mut steppers = self
            .steppers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(pos) = steppers.iter().position(|(i, _)| *i == id) {
            if steppers[pos].1.write_all(&[1]).is_ok() {
                return true;
            }
            steppers.remove(pos);
        }
        false
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(100));
        for (_, s) in self
            .steppers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .drain(..)
        {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

fn accept_loop(
    listener: &TcpListener,
    tx: &Sender<Message>,
    steppers: &Arc<Mutex<Vec<(u64, TcpStream)>>>,
    stop: &AtomicBool,
) {
    let mut next_id = 0u64;
    for conn in listener.incoming() {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let Ok(stream) = conn else { continue };
        let Ok(peer) = stream.peer_addr() else {
            continue;
        };
        let id = next_id;
        next_id += 1;
        if let Ok(clone) = stream.try_clone() {
            steppers
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push((id, clone));
        }
        if tx.send(Message::Connected { id, peer }).is_err() {
            return;
        }
        let tx = tx.clone();
        let steppers = steppers.clone();
        let _ = std::thread::Builder::new()
            .name(format!("cspace live {id}"))
            .spawn(move || {
                read_connection(id, stream, &tx);
                steppers
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .retain(|(i, _)| *i != id);
            });
    }
}

fn read_connection(id: u64, mut stream: TcpStream, tx: &Sender<Message>) {
    let mut decoder = StreamDecoder::new();
    let mut bytes = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    let fail = |bytes: Vec<u8>, valid: u64, error: DecodeError| {
        let mut bytes = bytes;
        bytes.truncate(usize::try_from(valid).unwrap_or(usize::MAX));
        let _ = tx.send(Message::Failed { id, bytes, error });
    };
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let offset = bytes.len() as u64;
                fail(
                    bytes,
                    decoder.offset(),
                    DecodeError::Io {
                        offset,
                        message: e.to_string(),
                    },
                );
                return;
            }
        };
        if bytes.len() as u64 + n as u64 > MAX_STREAM_BYTES {
            let _ = stream.shutdown(Shutdown::Both);
            let offset = bytes.len() as u64;
            fail(
                bytes,
                decoder.offset(),
                DecodeError::Io {
                    offset,
                    message: format!("stream exceeds {MAX_STREAM_BYTES} bytes; peer disconnected"),
                },
            );
            return;
        }
        bytes.extend_from_slice(&buf[..n]);
        decoder.feed(&buf[..n]);
        let mut events = Vec::new();
        loop {
            match decoder.next_event() {
                Ok(Some(l)) => events.push(l),
                Ok(None) => break,
                Err(error) => {
                    let _ = stream.shutdown(Shutdown::Both);
                    if !events.is_empty() {
                        let _ = tx.send(Message::Events { id, events });
                    }
                    fail(bytes, decoder.offset(), error);
                    return;
                }
            }
        }
        if !events.is_empty() && tx.send(Message::Events { id, events }).is_err() {
            return;
        }
    }
    match decoder.finish() {
        Ok(()) => {
            let _ = tx.send(Message::Finished { id, bytes });
        }
        Err(error) => fail(bytes, decoder.offset(), error),
    }
}
