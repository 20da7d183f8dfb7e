//! Live attach: a listening [`Server`] and the queries programs stream to it.
//!
//! Programs connect with `CSPACE_LIVE=ADDR` (every `cspace_recorder::record`
//! then streams there); each connection is one query, listed as it arrives
//! and growing while it streams. With `CSPACE_LIVE_BLOCK=1` a program waits in
//! each `pause!` until [`Live::step`] releases it.
//!
//! Memory is bounded: the server hands over at most
//! [`MAX_EVENTS`](cspace_recorder::live::MAX_EVENTS) events per query (the
//! query then fails with a message saying so) and holds at most
//! [`MAX_TOTAL_BYTES`](cspace_recorder::live::MAX_TOTAL_BYTES) for the
//! connections open at once; of the ended queries the newest are kept, at
//! most [`MAX_QUERIES`] queries and [`MAX_KEPT_EVENTS`] events in all.

use crate::state::trace::Trace;
use cspace_recorder::live::{Message, Server, ServerOptions};
use cspace_recorder::{DecodeError, Decoded, Event, Located};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// Where the viewer listens by default (loopback only).
pub const DEFAULT_ADDR: &str = "127.0.0.1:7878";

/// Most queries kept; the oldest finished ones go first.
pub const MAX_QUERIES: usize = 200;

/// Most events kept in all queries together; the oldest finished queries go first.
pub const MAX_KEPT_EVENTS: usize = 2_000_000;

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

/// How many of a query's first events [`query_name`] looks at.
const NAME_WITHIN: usize = 4096;

/// A query's name from its first events: its shapes' kinds and its first
/// scope's label ("box–sphere · gjk iteration"), or the first text; `None`
/// until one of them has arrived.
#[must_use]
pub fn query_name(events: &[Located]) -> Option<String> {
    let label = |site: u32| {
        events.iter().find_map(|l| match &l.event {
            Event::Site(def) if def.id == site => Some(def.label.clone()),
            _ => None,
        })
    };
    let shapes = events.iter().find_map(|l| match &l.event {
        Event::Shapes { a, b, .. } => Some(format!("{}–{}", a.geom.kind(), b.geom.kind())),
        _ => None,
    });
    let what = events.iter().find_map(|l| match &l.event {
        Event::Push { site } => label(*site).filter(|s| !s.is_empty()),
        Event::Text { text, .. } => Some(crate::state::trace::clip(text, 60)),
        _ => None,
    });
    match (shapes, what) {
        (Some(s), Some(w)) => Some(format!("{s} · {w}")),
        (Some(s), None) => Some(s),
        (None, w) => w,
    }
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
    /// Bytes of the valid stream once the connection closed (0 before).
    pub valid_len: u64,
    /// Whether it is streaming, finished or failed.
    pub state: LiveState,
    /// The decode error of a failed connection.
    pub error: Option<DecodeError>,
    /// Events received in pauses (steps so far).
    pub steps: u32,
    /// What the query is, from its first events ([`query_name`]), once known.
    pub name: Option<String>,
}

impl LiveQuery {
    /// One line for the list: id, the query's name (else its peer), steps,
    /// events and state.
    #[must_use]
    pub fn describe(&self) -> String {
        let state = match &self.state {
            LiveState::Streaming => "streaming".to_owned(),
            LiveState::Finished => "finished".to_owned(),
            LiveState::Failed(why) => format!("failed: {why}"),
        };
        let name = self.name.clone().unwrap_or_else(|| self.peer.to_string());
        format!(
            "#{} {name} · {} steps · {} events · {state}",
            self.id,
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
        let mut decoded = Decoded::from_events(self.events.iter().cloned());
        decoded.valid_len = self.valid_len;
        decoded.error.clone_from(&self.error);
        Trace::from_decoded(decoded)
    }

    /// The stream bytes: the events received, encoded again (the same bytes
    /// the program sent for them; the server keeps no copy).
    #[must_use]
    pub fn stream_bytes(&self) -> Vec<u8> {
        let events: Vec<Event> = self.events.iter().map(|l| l.event.clone()).collect();
        cspace_recorder::stream::encode_stream(&events)
    }
}

/// The listening server and the queries received.
#[derive(Debug)]
pub struct Live {
    server: Server,
    /// Queries, oldest first.
    pub queries: Vec<LiveQuery>,
    /// Connections refused because too many were open, and the last one's address.
    pub refused: (u64, Option<SocketAddr>),
}

impl Live {
    /// Listens on `addr` (`127.0.0.1:0` picks a free loopback port) as a
    /// stepping receiver with the default bounds.
    ///
    /// # Errors
    /// Binding failed.
    pub fn listen(addr: &str) -> Result<Self, LiveError> {
        Self::listen_with(addr, ServerOptions::events())
    }

    /// Listens on `addr` with `options` (their delivery should be events).
    ///
    /// # Errors
    /// Binding failed.
    pub fn listen_with(addr: &str, options: ServerOptions) -> Result<Self, LiveError> {
        let server = Server::bind_with(addr, options).map_err(|source| LiveError::Bind {
            addr: addr.to_owned(),
            source,
        })?;
        Ok(Self {
            server,
            queries: Vec::new(),
            refused: (0, None),
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
                        valid_len: 0,
                        state: LiveState::Streaming,
                        error: None,
                        steps: 0,
                        name: None,
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
                        // The name comes from the first events (shapes, then a scope,
                        // perhaps in separate batches): look no further than these.
                        if q.events.len() <= NAME_WITHIN || q.name.is_none() {
                            q.name = query_name(&q.events[..q.events.len().min(NAME_WITHIN)]);
                        }
                    }
                    id
                }
                Message::Finished { id, summary } => {
                    if let Some(q) = self.query_mut(id) {
                        q.valid_len = summary.valid_len;
                        q.state = LiveState::Finished;
                    }
                    self.trim();
                    id
                }
                Message::Failed { id, summary, error } => {
                    if let Some(q) = self.query_mut(id) {
                        q.valid_len = summary.valid_len;
                        q.state = LiveState::Failed(error.to_string());
                        q.error = Some(error.to_decode_error());
                    }
                    self.trim();
                    id
                }
                Message::Refused { peer, .. } => {
                    self.refused = (self.refused.0 + 1, Some(peer));
                    continue;
                }
            };
            if !changed.contains(&id) {
                changed.push(id);
            }
        }
        changed
    }

    /// Drops the oldest closed queries beyond [`MAX_QUERIES`] queries or
    /// [`MAX_KEPT_EVENTS`] events.
    fn trim(&mut self) {
        self.trim_to(MAX_QUERIES, MAX_KEPT_EVENTS);
    }

    fn trim_to(&mut self, max_queries: usize, max_events: usize) {
        let mut events: usize = self.queries.iter().map(|q| q.events.len()).sum();
        while self.queries.len() > max_queries || events > max_events {
            match self
                .queries
                .iter()
                .position(|q| q.state != LiveState::Streaming)
            {
                Some(i) => {
                    events -= self.queries.remove(i).events.len();
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
        assert_eq!(q.valid_len, recording.bytes.len() as u64);
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

    #[test]
    fn a_query_beyond_the_event_limit_fails_saying_so_and_keeps_the_first_events() {
        let options = ServerOptions {
            delivery: cspace_recorder::live::Delivery::Events { max_events: 100 },
            ..ServerOptions::events()
        };
        let mut live = Live::listen_with("127.0.0.1:0", options).expect("bind");
        let sink = LiveSink::connect(live.addr(), false).expect("connect");
        let _ = cspace_recorder::record_to(Box::new(sink), || {
            for i in 0..500 {
                cspace_recorder::point!("p", [f64::from(i), 0.0, 0.0]);
            }
        });
        poll_until(&mut live, |l| {
            l.query(0)
                .is_some_and(|q| matches!(q.state, LiveState::Failed(_)))
        });
        let q = live.query(0).expect("kept");
        assert_eq!(q.events.len(), 100);
        assert!(
            q.describe().contains("more than 100 events"),
            "{}",
            q.describe()
        );
        assert_eq!(q.trace().len(), 100);
        assert_eq!(q.stream_bytes().len() as u64, q.valid_len);
    }

    #[test]
    fn trimming_keeps_streaming_queries_and_the_newest_ended_ones_within_the_event_budget() {
        let mut live = Live::listen("127.0.0.1:0").expect("bind");
        let query = |id: u64, events: usize, state: LiveState| LiveQuery {
            id,
            peer: live.addr(),
            events: vec![
                Located {
                    offset: 8,
                    event: Event::Pause { site: 0 },
                };
                events
            ],
            valid_len: 0,
            state,
            error: None,
            steps: 0,
            name: None,
        };
        let queries = vec![
            query(0, 40, LiveState::Finished),
            query(1, 40, LiveState::Streaming),
            query(2, 40, LiveState::Finished),
            query(3, 40, LiveState::Finished),
        ];
        live.queries = queries;
        live.trim_to(10, 100);
        let ids: Vec<u64> = live.queries.iter().map(|q| q.id).collect();
        assert_eq!(ids, [1, 3], "the oldest ended queries went first");
        live.trim_to(1, 0);
        let ids: Vec<u64> = live.queries.iter().map(|q| q.id).collect();
        assert_eq!(ids, [1], "a streaming query stays");
    }

    #[test]
    fn a_query_is_named_by_its_shapes_and_first_scope() {
        let a = cspace_recorder::ShapeDecl::new(cspace_recorder::ShapeGeom::Box {
            half_extents: [1.0; 3],
        });
        let b = cspace_recorder::ShapeDecl::new(cspace_recorder::ShapeGeom::Sphere { radius: 1.0 });
        let ((), r) = cspace_recorder::record(|| {
            cspace_recorder::shapes!(a.clone(), b.clone());
            let _s = cspace_recorder::scope!("gjk iteration");
            cspace_recorder::pause!("after add");
        });
        let events = cspace_recorder::decode(&r.bytes).events;
        assert_eq!(
            query_name(&events).as_deref(),
            Some("box–sphere · gjk iteration")
        );
        assert_eq!(query_name(&events[..0]), None);
        let ((), r) = cspace_recorder::record(|| cspace_recorder::text!("hello"));
        assert_eq!(
            query_name(&cspace_recorder::decode(&r.bytes).events).as_deref(),
            Some("hello")
        );
    }
}
