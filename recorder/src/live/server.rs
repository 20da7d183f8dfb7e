//! Receiving side: [`Server`] accepts programs' connections and reads their
//! recordings within the bounds of its [`ServerOptions`].

use super::{
    ANNOUNCE_STEPS, IDLE_TIMEOUT, MAX_CONNECTIONS, MAX_EVENTS, MAX_STREAM_BYTES, MAX_TOTAL_BYTES,
    STEP, STEP_WAIT_TIMEOUT,
};
use crate::Event;
use crate::stream::{DecodeError, HEADER_LEN, Located, StreamDecoder};
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Bytes read from a socket at a time.
const READ_CHUNK: usize = 64 << 10;
/// How long a server waits for a step byte to leave before giving up on it.
const STEP_WRITE_TIMEOUT: Duration = Duration::from_millis(200);

/// What a [`Server`] does with each connection's stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Write each stream into folder `dir` as its bytes arrive, validated by a
    /// [`StreamDecoder`] but kept nowhere in memory: `live-ID.cspace` once
    /// complete, `live-ID.partial.cspace` (the valid prefix) when cut short.
    /// No [`Message::Events`] are sent. Memory per connection: one incomplete
    /// frame (at most [`MAX_FRAME_LEN`](crate::stream::MAX_FRAME_LEN)) and two
    /// 64 KiB buffers.
    Save {
        /// The folder (it must exist).
        dir: PathBuf,
    },
    /// Decode each stream and send its events as [`Message::Events`]; a
    /// connection is disconnected at its event beyond `max_events`.
    Events {
        /// Most events handed over per connection.
        max_events: u64,
    },
}

/// The bounds and behaviour of a [`Server`].
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// What happens to each stream.
    pub delivery: Delivery,
    /// Whether this receiver steps programs blocked in `pause!`: it then sends
    /// [`ANNOUNCE_STEPS`] on each connection and [`Server::step`] works.
    pub steps: bool,
    /// Most connections served at once; more are closed at once.
    pub max_connections: usize,
    /// How long a connection may send nothing before it is disconnected.
    pub idle_timeout: Duration,
    /// With `steps`: how long a program may wait at a pause for a step.
    pub step_wait_timeout: Duration,
    /// Most bytes in one stream.
    pub max_stream_bytes: u64,
    /// Most bytes of memory held for all open connections together: with
    /// [`Delivery::Save`] the bytes not yet decoded, with [`Delivery::Events`]
    /// the bytes received plus `size_of::<Located>()` per event handed over.
    pub max_total_bytes: u64,
}

impl ServerOptions {
    /// A receiver that shows events and steps (the viewer), with the default bounds.
    #[must_use]
    pub fn events() -> Self {
        Self {
            delivery: Delivery::Events {
                max_events: MAX_EVENTS,
            },
            steps: true,
            max_connections: MAX_CONNECTIONS,
            idle_timeout: IDLE_TIMEOUT,
            step_wait_timeout: STEP_WAIT_TIMEOUT,
            max_stream_bytes: MAX_STREAM_BYTES,
            max_total_bytes: MAX_TOTAL_BYTES,
        }
    }

    /// A receiver that only saves into `dir` and never steps (`cspace listen`),
    /// with the default bounds.
    #[must_use]
    pub fn save_to(dir: impl Into<PathBuf>) -> Self {
        Self {
            delivery: Delivery::Save { dir: dir.into() },
            steps: false,
            ..Self::events()
        }
    }
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self::events()
    }
}

/// What became of one connection's stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Bytes of the valid stream: all of it, or the valid prefix kept.
    pub valid_len: u64,
    /// Events in the valid stream (site definitions included).
    pub events: u64,
    /// Pause events among them.
    pub pauses: u64,
    /// The file it was saved in ([`Delivery::Save`]; `None` when nothing valid arrived).
    pub saved: Option<PathBuf>,
}

/// Why a connection ended early. Every variant names the stream byte offset.
#[derive(Debug, thiserror::Error)]
pub enum ConnectionError {
    /// The bytes are not a valid stream (or end inside a frame).
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// Reading the socket failed.
    #[error("read error after byte {offset}: {source}")]
    Read {
        /// Bytes received before.
        offset: u64,
        /// The I/O error.
        source: io::Error,
    },
    /// The peer sent nothing for too long.
    #[error(
        "idle: nothing received for {waited:?} after byte {offset}{}; peer disconnected",
        if *at_pause { " while waiting at a pause for a step" } else { "" }
    )]
    Idle {
        /// Bytes received before.
        offset: u64,
        /// The timeout that ran out.
        waited: Duration,
        /// Whether the program was waiting at a pause for a step.
        at_pause: bool,
    },
    /// The stream grew beyond the per-stream limit.
    #[error("stream exceeds {max} bytes at byte {offset}; peer disconnected")]
    TooLong {
        /// Bytes received before.
        offset: u64,
        /// [`ServerOptions::max_stream_bytes`].
        max: u64,
    },
    /// The recording has more events than this receiver keeps per connection.
    #[error(
        "more than {max} events (event at byte {offset}): this receiver keeps the first {max} \
         and disconnected the program; save long recordings with `cspace listen`"
    )]
    TooManyEvents {
        /// Offset of the first event not handed over.
        offset: u64,
        /// The per-connection event limit.
        max: u64,
    },
    /// The memory budget shared by all connections is used up.
    #[error(
        "the receiver's memory budget of {max} bytes across connections is used up \
         (at byte {offset} of this stream); peer disconnected"
    )]
    Budget {
        /// Bytes received before.
        offset: u64,
        /// [`ServerOptions::max_total_bytes`].
        max: u64,
    },
    /// Writing the stream to disk failed.
    #[error("cannot save {path} at byte {offset}: {source}")]
    Save {
        /// The file.
        path: PathBuf,
        /// Bytes received before.
        offset: u64,
        /// The I/O error.
        source: io::Error,
    },
    /// The server was dropped while the connection was open.
    #[error("the receiver stopped after byte {offset}")]
    Stopped {
        /// Bytes received before.
        offset: u64,
    },
}

impl ConnectionError {
    /// The stream byte offset the error refers to.
    #[must_use]
    pub fn offset(&self) -> u64 {
        match self {
            Self::Decode(e) => e.offset(),
            Self::Read { offset, .. }
            | Self::Idle { offset, .. }
            | Self::TooLong { offset, .. }
            | Self::TooManyEvents { offset, .. }
            | Self::Budget { offset, .. }
            | Self::Save { offset, .. }
            | Self::Stopped { offset } => *offset,
        }
    }

    /// The error as a [`DecodeError`], for a decoded recording's `error`
    /// field: a decode error as it is, anything else as `Io` with this
    /// message.
    #[must_use]
    pub fn to_decode_error(&self) -> DecodeError {
        match self {
            Self::Decode(e) => e.clone(),
            other => DecodeError::Io {
                offset: other.offset(),
                message: other.to_string(),
            },
        }
    }
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
    /// A connection beyond [`ServerOptions::max_connections`] was closed at once.
    Refused {
        /// The program's address.
        peer: SocketAddr,
        /// The limit that was reached.
        limit: usize,
    },
    /// Events decoded from connection `id`, in order ([`Delivery::Events`] only).
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
        /// The stream's length, events and (when saving) file.
        summary: Summary,
    },
    /// Connection `id` was cut, idle, too large or invalid; it is closed.
    Failed {
        /// Connection id.
        id: u64,
        /// The valid prefix kept.
        summary: Summary,
        /// What went wrong, with the byte offset.
        error: ConnectionError,
    },
}

/// State shared by the server handle, its accept loop and its connections.
#[derive(Debug)]
struct Shared {
    options: ServerOptions,
    stop: AtomicBool,
    /// Connections being served.
    open: AtomicUsize,
    /// Bytes of memory charged by open connections.
    held: AtomicU64,
    /// Stepping connections: a write handle and when the last step was sent.
    steppers: Mutex<HashMap<u64, (TcpStream, Instant)>>,
}

impl Shared {
    fn steppers(&self) -> std::sync::MutexGuard<'_, HashMap<u64, (TcpStream, Instant)>> {
        self.steppers.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Receiving side: accepts programs' connections and reads their recordings.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    messages: Receiver<Message>,
    shared: Arc<Shared>,
}

impl Server {
    /// Listens on `addr` as a stepping receiver of events with the default
    /// bounds ([`ServerOptions::events`]); `127.0.0.1:0` picks a free
    /// loopback port.
    ///
    /// # Errors
    /// Binding failed (port in use, address not local).
    pub fn bind(addr: impl ToSocketAddrs) -> io::Result<Self> {
        Self::bind_with(addr, ServerOptions::events())
    }

    /// Listens on `addr` with `options`.
    ///
    /// # Errors
    /// Binding failed (port in use, address not local).
    pub fn bind_with(addr: impl ToSocketAddrs, options: ServerOptions) -> io::Result<Self> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let (tx, messages) = mpsc::channel();
        let shared = Arc::new(Shared {
            options,
            stop: AtomicBool::new(false),
            open: AtomicUsize::new(0),
            held: AtomicU64::new(0),
            steppers: Mutex::new(HashMap::new()),
        });
        let for_loop = shared.clone();
        std::thread::Builder::new()
            .name("cspace live accept".into())
            .spawn(move || accept_loop(&listener, &tx, &for_loop))?;
        Ok(Self {
            addr,
            messages,
            shared,
        })
    }

    /// The address programs should connect to (put it in `CSPACE_LIVE`).
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The options the server runs with.
    #[must_use]
    pub fn options(&self) -> &ServerOptions {
        &self.shared.options
    }

    /// Connections being served now.
    #[must_use]
    pub fn open_connections(&self) -> usize {
        self.shared.open.load(Ordering::Relaxed)
    }

    /// Bytes of memory charged by open connections now (see
    /// [`ServerOptions::max_total_bytes`]).
    #[must_use]
    pub fn held_bytes(&self) -> u64 {
        self.shared.held.load(Ordering::Relaxed)
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
    /// Returns whether the connection was still there (always `false` for a
    /// server without [`ServerOptions::steps`]).
    pub fn step(&self, id: u64) -> bool {
        let mut steppers = self.shared.steppers();
        if let Some((stream, last)) = steppers.get_mut(&id) {
            if stream.write_all(&[STEP]).is_ok() {
                *last = Instant::now();
                return true;
            }
            steppers.remove(&id);
        }
        false
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(100));
        for (_, (s, _)) in self.shared.steppers().drain() {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

fn accept_loop(listener: &TcpListener, tx: &Sender<Message>, shared: &Arc<Shared>) {
    let mut next_id = 0u64;
    for conn in listener.incoming() {
        if shared.stop.load(Ordering::Relaxed) {
            return;
        }
        let Ok(stream) = conn else {
            // Out of descriptors or a reset before accept: do not spin.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        let Ok(peer) = stream.peer_addr() else {
            continue;
        };
        let limit = shared.options.max_connections;
        if shared.open.load(Ordering::Relaxed) >= limit {
            let _ = stream.shutdown(Shutdown::Both);
            if tx.send(Message::Refused { peer, limit }).is_err() {
                return;
            }
            continue;
        }
        shared.open.fetch_add(1, Ordering::Relaxed);
        let open = OpenGuard(shared.clone());
        let id = next_id;
        next_id += 1;
        if tx.send(Message::Connected { id, peer }).is_err() {
            return;
        }
        let (conn_tx, conn_shared) = (tx.clone(), shared.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("cspace live {id}"))
            .spawn(move || {
                let _open = open;
                serve(id, stream, &conn_shared, &conn_tx);
                conn_shared.steppers().remove(&id);
            });
        if spawned.is_err() {
            // The guard went down with the closure: the slot is free again.
            let _ = tx.send(Message::Failed {
                id,
                summary: Summary::default(),
                error: ConnectionError::Read {
                    offset: 0,
                    source: io::Error::other("cannot start a thread for the connection"),
                },
            });
        }
    }
}

/// Frees a connection slot when the connection's thread ends.
struct OpenGuard(Arc<Shared>);

impl Drop for OpenGuard {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Bytes of the shared budget one connection holds; returned when dropped.
struct Charge<'a> {
    held: &'a AtomicU64,
    max: u64,
    amount: u64,
}

impl Charge<'_> {
    /// Charges `amount` in place of the previous amount; `false` (and no
    /// change) when that would take the total beyond the budget.
    fn set(&mut self, amount: u64) -> bool {
        if amount <= self.amount {
            self.held.fetch_sub(self.amount - amount, Ordering::Relaxed);
            self.amount = amount;
            return true;
        }
        let more = amount - self.amount;
        let before = self.held.fetch_add(more, Ordering::Relaxed);
        if before.saturating_add(more) > self.max {
            self.held.fetch_sub(more, Ordering::Relaxed);
            return false;
        }
        self.amount = amount;
        true
    }
}

impl Drop for Charge<'_> {
    fn drop(&mut self) {
        self.held.fetch_sub(self.amount, Ordering::Relaxed);
    }
}

/// Where a connection's stream goes.
enum Output {
    /// Saving: the file being written, its path and the folder.
    Save {
        file: File,
        part: PathBuf,
        dir: PathBuf,
    },
    /// Handing events over: the per-connection limit.
    Events { max_events: u64 },
}

/// One connection being read.
struct Connection<'a> {
    id: u64,
    stream: TcpStream,
    shared: &'a Shared,
    tx: &'a Sender<Message>,
    output: Output,
    decoder: StreamDecoder,
    /// Bytes received.
    received: u64,
    /// Events decoded (and, with events delivery, handed over).
    events: u64,
    pauses: u64,
    /// Whether the last event was a pause.
    at_pause: bool,
    last_data: Instant,
    charge: Charge<'a>,
}

fn serve(id: u64, stream: TcpStream, shared: &Shared, tx: &Sender<Message>) {
    let options = &shared.options;
    let output = match &options.delivery {
        Delivery::Events { max_events } => Output::Events {
            max_events: *max_events,
        },
        Delivery::Save { dir } => {
            let part = dir.join(format!(".live-{id}.cspace.part"));
            match File::create(&part) {
                Ok(file) => Output::Save {
                    file,
                    part,
                    dir: dir.clone(),
                },
                Err(source) => {
                    let _ = stream.shutdown(Shutdown::Both);
                    let _ = tx.send(Message::Failed {
                        id,
                        summary: Summary::default(),
                        error: ConnectionError::Save {
                            path: part,
                            offset: 0,
                            source,
                        },
                    });
                    return;
                }
            }
        }
    };
    // A short read timeout is the idle clock's tick (and lets a dropped server stop us).
    let tick = (options.idle_timeout / 4).clamp(Duration::from_millis(10), Duration::from_secs(1));
    let ready = stream.set_read_timeout(Some(tick)).and_then(|()| {
        if options.steps {
            stream.set_write_timeout(Some(STEP_WRITE_TIMEOUT))?;
            (&stream).write_all(&[ANNOUNCE_STEPS])?;
            shared
                .steppers()
                .insert(id, (stream.try_clone()?, Instant::now()));
        }
        Ok(())
    });
    let mut conn = Connection {
        id,
        stream,
        shared,
        tx,
        output,
        decoder: StreamDecoder::new(),
        received: 0,
        events: 0,
        pauses: 0,
        at_pause: false,
        last_data: Instant::now(),
        charge: Charge {
            held: &shared.held,
            max: options.max_total_bytes,
            amount: 0,
        },
    };
    let result = match ready {
        Ok(()) => conn.read_all(),
        Err(source) => Err(Ended {
            error: ConnectionError::Read { offset: 0, source },
            valid_len: 0,
        }),
    };
    let _ = conn.stream.shutdown(Shutdown::Both);
    conn.finish(result);
}

/// How reading ended early: the error and the length of the valid prefix kept.
struct Ended {
    error: ConnectionError,
    valid_len: u64,
}

impl Connection<'_> {
    fn error(&self, error: ConnectionError) -> Ended {
        Ended {
            error,
            valid_len: self.decoder.offset(),
        }
    }

    /// Reads until the peer closes the stream or something ends it early.
    fn read_all(&mut self) -> Result<(), Ended> {
        let mut buf = vec![0u8; READ_CHUNK];
        loop {
            if self.shared.stop.load(Ordering::Relaxed) {
                return Err(self.error(ConnectionError::Stopped {
                    offset: self.received,
                }));
            }
            let n = match self.stream.read(&mut buf) {
                // A reset ends the stream like a close: a program that exits
                // without reading a step or announcement resets the
                // connection; what it sent before is what counts.
                Ok(0) => return self.decoder.finish().map_err(|e| self.error(e.into())),
                Err(e) if e.kind() == io::ErrorKind::ConnectionReset => {
                    return self.decoder.finish().map_err(|e| self.error(e.into()));
                }
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    self.check_idle()?;
                    continue;
                }
                Err(source) => {
                    return Err(self.error(ConnectionError::Read {
                        offset: self.received,
                        source,
                    }));
                }
            };
            let max = self.shared.options.max_stream_bytes;
            if self.received + n as u64 > max {
                return Err(self.error(ConnectionError::TooLong {
                    offset: self.received,
                    max,
                }));
            }
            self.last_data = Instant::now();
            if let Output::Save { file, part, .. } = &mut self.output
                && let Err(source) = file.write_all(&buf[..n])
            {
                let path = part.clone();
                return Err(self.error(ConnectionError::Save {
                    path,
                    offset: self.received,
                    source,
                }));
            }
            self.received += n as u64;
            self.decoder.feed(&buf[..n]);
            self.decode_available()?;
        }
    }

    /// Memory this connection holds (an estimate, see [`ServerOptions::max_total_bytes`]).
    fn held(&self) -> u64 {
        match self.output {
            Output::Save { .. } => self.received - self.decoder.offset() + 2 * READ_CHUNK as u64,
            Output::Events { .. } => {
                self.received + self.events * std::mem::size_of::<Located>() as u64
            }
        }
    }

    /// Ends the connection if it has been idle beyond its timeout.
    fn check_idle(&self) -> Result<(), Ended> {
        let options = &self.shared.options;
        let waiting = options.steps && self.at_pause;
        let (since, limit) = if waiting {
            let stepped = self.shared.steppers().get(&self.id).map(|(_, at)| *at);
            let since = stepped.map_or(self.last_data, |s| s.max(self.last_data));
            (since, options.step_wait_timeout)
        } else {
            (self.last_data, options.idle_timeout)
        };
        if since.elapsed() < limit {
            return Ok(());
        }
        Err(self.error(ConnectionError::Idle {
            offset: self.received,
            waited: limit,
            at_pause: waiting,
        }))
    }

    /// Decodes every complete event, counts it, charges the memory held and
    /// (when delivering events) hands the events over, up to the limit.
    fn decode_available(&mut self) -> Result<(), Ended> {
        let mut batch = Vec::new();
        let decoded = loop {
            let located = match self.decoder.next_event() {
                Ok(Some(l)) => l,
                Ok(None) => break Ok(()),
                Err(e) => break Err(self.error(e.into())),
            };
            if let Output::Events { max_events } = self.output
                && self.events >= max_events
            {
                break Err(Ended {
                    error: ConnectionError::TooManyEvents {
                        offset: located.offset,
                        max: max_events,
                    },
                    valid_len: located.offset,
                });
            }
            self.events += 1;
            self.at_pause = matches!(located.event, Event::Pause { .. });
            if self.at_pause {
                self.pauses += 1;
            }
            if matches!(self.output, Output::Events { .. }) {
                batch.push(located);
            }
        };
        let charged = self.charge.set(self.held());
        if !batch.is_empty()
            && self
                .tx
                .send(Message::Events {
                    id: self.id,
                    events: batch,
                })
                .is_err()
        {
            // Nobody listens to this server any more.
            return Err(self.error(ConnectionError::Stopped {
                offset: self.received,
            }));
        }
        decoded?;
        if charged {
            Ok(())
        } else {
            Err(self.error(ConnectionError::Budget {
                offset: self.received,
                max: self.shared.options.max_total_bytes,
            }))
        }
    }

    /// Saves (when saving) and reports how the connection ended.
    fn finish(mut self, result: Result<(), Ended>) {
        // Nothing is held once the stream ends (before anyone hears of it).
        self.charge.set(0);
        let (mut error, valid_len) = match result {
            Ok(()) => (None, self.received),
            Err(Ended { error, valid_len }) => (Some(error), valid_len),
        };
        let mut summary = Summary {
            valid_len,
            events: self.events,
            pauses: self.pauses,
            saved: None,
        };
        if let Output::Save { file, part, dir } = self.output {
            match keep(file, &part, &dir, self.id, valid_len, error.is_none()) {
                Ok(saved) => summary.saved = saved,
                Err(e) => error = Some(e),
            }
        }
        let message = match error {
            None => Message::Finished {
                id: self.id,
                summary,
            },
            Some(error) => Message::Failed {
                id: self.id,
                summary,
                error,
            },
        };
        let _ = self.tx.send(message);
    }
}

/// Gives a saved stream its final name: `live-ID.cspace` when complete, else
/// its valid prefix as `live-ID.partial.cspace` (nothing when no valid header
/// arrived). Returns the file kept.
fn keep(
    file: File,
    part: &Path,
    dir: &Path,
    id: u64,
    valid_len: u64,
    complete: bool,
) -> Result<Option<PathBuf>, ConnectionError> {
    if !complete && valid_len < HEADER_LEN as u64 {
        drop(file);
        let _ = std::fs::remove_file(part);
        return Ok(None);
    }
    let save_error = |path: &Path, source| ConnectionError::Save {
        path: path.to_path_buf(),
        offset: valid_len,
        source,
    };
    if !complete {
        file.set_len(valid_len).map_err(|e| save_error(part, e))?;
    }
    drop(file);
    let name = if complete {
        format!("live-{id}.cspace")
    } else {
        format!("live-{id}.partial.cspace")
    };
    let path = dir.join(name);
    std::fs::rename(part, &path).map_err(|e| save_error(&path, e))?;
    Ok(Some(path))
}
