//! Live attach: a listening [`Server`] and the queries programs stream to it.
//!
//! Programs connect with `CSPACE_LIVE=ADDR` (every `cspace_recorder::record`
//! then streams there); each connection is one query, listed as it arrives
//! and growing while it streams. With `CSPACE_LIVE_BLOCK=1` a program waits in
//! each `pause!` until [`Live::step`] releases it.

use crate::state::trace::Trace;
use cspace_recorder::live::{Message, Server};
use cspace_recorder::{DecodeError, Decoded, Event, Located};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// Where the viewer listens by default (loopback only).
pub const DEFAULT_ADDR: &str = "127.0.0.1:7878";

/// Most queries kept; the oldest finished ones go first.
pub const MAX_QUERIES: usize = 200;

/// Why listening or saving failed.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// No query with this id is kept.
    #[error("no live query #{0}")]
    NoQuery(u64),
    /// Writing the recording failed.
    #[error("cannot save {path}: {source}")]
    Save {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// How far a live query has come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveState {
    /// Still connected; events keep arriving.
    Streaming,
    /// The program finished the recording and disconnected.
    Finished,
    /// The connection was cut or sent something invalid (the message says which).
    Failed(String),
}

/// One program's recording, as received so far.
#[derive(Debug)]
pub struct LiveQuery {
    /// Connection id.
    pub id: u64,
    /// The program's address.
    pub peer: SocketAddr,
    /// The events received, in order.
    pub events: Vec<Located>,
    /// The complete (or valid-prefix) stream once the connection closed.
    pub bytes: Option<Vec<u8>>,
    /// Whether it is streaming, finished or failed.
    pub state: LiveState,
    /// The decode error of a failed connection.
    pub error: Option<DecodeError>,
    /// Events received in pauses (steps so far).
    pub steps: u32,
}

impl LiveQuery {
    /// One line for the list: id, peer, steps, events and state.
    #[must_use]
    pub fn describe(&self) -> String {
        let state = match &self.state {
            LiveState::Streaming => "streaming".to_owned(),
            LiveState::Finished => "finished".to_owned(),
            LiveState::Failed(why) => format!("failed: {why}"),
        };
        format!(
            "#{} {} · {} steps · {} events · {state}",
            self.id,
            self.peer,
            self.steps,
            self.events.len()
        )
    }

    /// Whether the program is (possibly) blocked in a pause: still connected
    /// and the last event received is a pause.
    #[must_use]
    pub fn waiting(&self) -> bool {
        self.state == LiveState::Streaming
            && self
                .events
                .last()
                .is_some_and(|l| matches!(l.event, Event::Pause { .. }))
    }

    /// The recording so far, indexed for the views.
    #[must_use]
    pub fn trace(&self) -> Trace {
        let valid_len = self
            .bytes
            .as_ref()
            .map_or(0, |b| u64::try_from(b.len()).unwrap_or(u64::MAX));
        let mut decoded = Decoded::from_events(self.events.iter().cloned());
        decoded.valid_len = valid_len;
        decoded.error.clone_from(&self.error);
        Trace::from_decoded(decoded)
    }

    /// The stream bytes: as received once closed, else the events so far re-encoded.
    #[must_use]
    pub fn stream_bytes(&self) -> Vec<u8> {
        self.bytes.clone().unwrap_or_else(|| {
            let events: Vec<Event> = self.events.iter().map(|l| l.event.clone()).collect();
            cspace_recorder::stream::encode_stream(&events)
        })
    }
}

/// The listening server and the queries received.
#[derive(Debug)]
pub struct Live {
    server: Server,
    /// Queries, oldest first.
    pub queries: Vec<LiveQuery>,
}

impl Live {
    /// Listens on `addr` (`127.0.0.1:0` picks a free loopback port).
    ///
    /// # Errors
    /// Binding failed.
    pub fn listen(addr: &str) -> Result<Self, LiveError> {
        let server = Server::bind(addr).map_err(|source| LiveError::Bind {
            addr: addr.to_owned(),
            source,
        })?;
        Ok(Self {
            server,
            queries: Vec::new(),
        })
    }

    /// The address programs connect to (`CSPACE_LIVE=…`).
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.server.addr()
    }

    /// The query with connection id `id`.
    #[must_use]
    pub fn query(&self, id: u64) -> Option<&LiveQuery> {
        self.queries.iter().find(|q| q.id == id)
    }

    fn query_mut(&mut self, id: u64) -> Option<&mut LiveQuery> {
        self.queries.iter_mut().find(|q| q.id == id)
    }

    /// Takes every waiting message; returns the ids of queries that changed.
    pub fn poll(&mut self) -> Vec<u64> {
        let mut changed = Vec::new();
        while let Some(message) = self.server.try_next() {
            let id = match message {
                Message::Connected { id, peer } => {
                    self.queries.push(LiveQuery {
                        id,
                        peer,
                        events: Vec::new(),
                        bytes: None,
                        state: LiveState::Streaming,
                        error: None,
                        steps: 0,
                    });
                    self.trim();
                    id
                }
                Message::Events { id, events } => {
                    if let Some(q) = self.query_mut(id) {
                        q.steps += u32::try_from(
                            events
                                .iter()
                                .filter(|l| matches!(l.event, Event::Pause { .. }))
                                .count(),
                        )
                        .unwrap_or(u32::MAX);
                        q.events.extend(events);
                    }
                    id
                }
                Message::Finished { id, bytes } => {
                    if let Some(q) = self.query_mut(id) {
                        q.bytes = Some(bytes);
                        q.state = LiveState::Finished;
                    }
                    id
                }
                Message::Failed { id, bytes, error } => {
                    if let Some(q) = self.query_mut(id) {
                        q.bytes = Some(bytes);
                        q.state = LiveState::Failed(error.to_string());
                        q.error = Some(error);
                    }
                    id
                }
            };
            if !changed.contains(&id) {
                changed.push(id);
            }
        }
        changed
    }

    /// Drops the oldest closed queries beyond [`MAX_QUERIES`].
    fn trim(&mut self) {
        while self.queries.len() > MAX_QUERIES {
            match self
                .queries
                .iter()
                .position(|q| q.state != LiveState::Streaming)
            {
                Some(i) => {
                    self.queries.remove(i);
                }
                None => break,
            }
        }
    }

    /// Releases the program of query `id` blocked in a pause for one step.
    /// Returns whether its connection was still there.
    pub fn step(&self, id: u64) -> bool {
        self.server.step(id)
    }

    /// Writes query `id`'s recording to `path` as a `.cspace` file (atomically).
    ///
    /// # Errors
    /// No such query, or writing failed.
    pub fn save(&self, id: u64, path: &Path) -> Result<(), LiveError> {
        let q = self.query(id).ok_or(LiveError::NoQuery(id))?;
        cspace_recorder::write_atomic(path, &q.stream_bytes()).map_err(|source| LiveError::Save {
            path: path.to_path_buf(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_recorder::live::LiveSink;
    use std::io::Write as _;
    use std::time::{Duration, Instant};

    fn poll_until(live: &mut Live, done: impl Fn(&Live) -> bool) {
        let until = Instant::now() + Duration::from_secs(10);
        while !done(live) && Instant::now() < until {
            live.poll();
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(done(live), "timed out: {:?}", live.queries);
    }

    #[test]
    fn streams_steps_saves_and_survives_garbage() {
        let mut live = Live::listen("127.0.0.1:0").expect("bind");
        assert!(live.addr().ip().is_loopback());
        let addr = live.addr();
        let program = std::thread::spawn(move || {
            let sink = LiveSink::connect(addr, true).expect("connect");
            cspace_recorder::record_to(Box::new(sink), || {
                for i in 0..3 {
                    cspace_recorder::point!("p", [f64::from(i), 0.0, 0.0]);
                    cspace_recorder::pause!("step");
                }
            })
            .1
        });
        // The program blocks at its first pause until we step.
        poll_until(&mut live, |l| l.query(0).is_some_and(LiveQuery::waiting));
        assert_eq!(live.query(0).map(|q| q.steps), Some(1));
        assert_eq!(live.query(0).map(|q| q.trace().steps()), Some(1));
        assert!(live.step(0));
        poll_until(&mut live, |l| l.query(0).is_some_and(|q| q.steps == 2));
        assert!(live.step(0));
        poll_until(&mut live, |l| l.query(0).is_some_and(|q| q.steps == 3));
        assert!(live.step(0));
        let recording = program.join().expect("program ran");
        poll_until(&mut live, |l| {
            l.query(0).is_some_and(|q| q.state == LiveState::Finished)
        });
        let q = live.query(0).expect("kept");
        assert_eq!(q.bytes.as_deref(), Some(&recording.bytes[..]));
        assert_eq!(q.stream_bytes(), recording.bytes);
        assert!(q.describe().contains("finished"));
        let path =
            std::env::temp_dir().join(format!("cspace-viewer-live-{}.cspace", std::process::id()));
        live.save(0, &path).expect("saved");
        assert_eq!(std::fs::read(&path).expect("written"), recording.bytes);
        let _ = std::fs::remove_file(&path);
        assert!(matches!(live.save(9, &path), Err(LiveError::NoQuery(9))));
        // A peer sending garbage fails with a message; nothing crashes.
        let mut bad = std::net::TcpStream::connect(addr).expect("connect");
        bad.write_all(b"this is not a cspace stream at all")
            .expect("write");
        drop(bad);
        poll_until(&mut live, |l| {
            l.query(1)
                .is_some_and(|q| matches!(q.state, LiveState::Failed(_)))
        });
        assert!(
            live.query(1)
                .is_some_and(|q| q.describe().contains("failed"))
        );
        // Binding a taken port is a typed error.
        assert!(matches!(
            Live::listen(&addr.to_string()),
            Err(LiveError::Bind { .. })
        ));
    }
}
