//! Live attach over loopback: stream, disconnect mid-query, reconnect, a peer
//! sending garbage, a vanished receiver, `pause!` blocking until a step (and
//! not blocking for a receiver that never steps), and the receiver's bounds:
//! saving without holding events, the event limit, the shared memory budget,
//! idle timeouts, the connection limit, and the program's back-off from a
//! receiver that never reads.
#![cfg(feature = "enabled")]

use cspace_recorder::live::{
    ANNOUNCE_STEPS, ConnectionError, Delivery, LiveSink, Message, Server, ServerOptions, Summary,
    WRITE_TIMEOUT,
};
use cspace_recorder::{self as rec, DecodeError, Event};
use std::collections::HashMap;
use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(10);

fn query(n: usize) -> usize {
    rec::push!("query");
    for i in 0..n {
        rec::point!(cso "w", [i as f64, 0.0, 0.0]);
        rec::pause!("step");
    }
    rec::pop!();
    n
}

/// How one connection ended, as the server reported it.
#[derive(Debug)]
struct End {
    id: u64,
    events: Vec<Event>,
    summary: Summary,
    error: Option<ConnectionError>,
}

/// Collects messages for the next connection until it finishes or fails.
fn collect(server: &Server) -> End {
    let mut id = None;
    let mut events = Vec::new();
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline {
        match server.next_timeout(Duration::from_millis(50)) {
            Some(Message::Connected { id: i, peer }) => {
                assert!(peer.ip().is_loopback());
                id = Some(i);
            }
            Some(Message::Events { events: e, .. }) => {
                events.extend(e.into_iter().map(|l| l.event));
            }
            Some(Message::Finished { id, summary }) => {
                return End {
                    id,
                    events,
                    summary,
                    error: None,
                };
            }
            Some(Message::Failed { id, summary, error }) => {
                return End {
                    id,
                    events,
                    summary,
                    error: Some(error),
                };
            }
            Some(Message::Refused { peer, .. }) => panic!("refused {peer}"),
            None => {}
        }
    }
    panic!("no end of stream for connection {id:?} within {WAIT:?}");
}

/// A stream of `n` pauses: 3-byte frames after one site definition.
fn pauses(n: usize) -> Vec<u8> {
    let ((), recording) = rec::record(|| {
        for _ in 0..n {
            rec::pause!("tiny");
        }
    });
    recording.bytes
}

/// A fresh empty folder under the temp dir.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cspace-live-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_query_streams_to_the_server_and_equals_the_in_memory_recording() {
    let server = Server::bind("127.0.0.1:0").expect("bind loopback");
    let sink = LiveSink::connect(server.addr(), false).expect("connect");
    let (n, recording, err) = rec::record_to(Box::new(sink), || query(50));
    assert_eq!((n, err.map(|e| e.to_string())), (50, None));
    let end = collect(&server);
    assert_eq!(end.id, 0);
    assert!(end.error.is_none(), "{end:?}");
    assert_eq!(end.summary.valid_len, recording.bytes.len() as u64);
    assert_eq!(
        (end.summary.events, end.summary.pauses),
        (end.events.len() as u64, 50)
    );
    assert_eq!(
        rec::stream::encode_stream(&end.events),
        recording.bytes,
        "the events are the recording, byte for byte"
    );
    assert_eq!(end.events, recording.events());

    // Reconnect: the next query is a new connection with the next id.
    let sink = LiveSink::connect(server.addr(), false).expect("reconnect");
    let _ = rec::record_to(Box::new(sink), || query(3));
    let end = collect(&server);
    assert_eq!(end.id, 1);
    assert!(end.error.is_none());
    assert_eq!(
        end.events
            .iter()
            .filter(|e| matches!(e, Event::Pause { .. }))
            .count(),
        3
    );
}

#[test]
fn a_program_cut_off_mid_query_leaves_a_truncated_valid_prefix() {
    let server = Server::bind("127.0.0.1:0").expect("bind loopback");
    let ((), recording) = rec::record(|| {
        query(20);
    });
    // Send the header and most of the frames, stopping inside a frame, then vanish.
    let cut = recording.bytes.len() - 5;
    let mut peer = TcpStream::connect(server.addr()).expect("connect");
    peer.write_all(&recording.bytes[..cut]).expect("write");
    drop(peer);
    let end = collect(&server);
    let error = end.error.expect("stream is incomplete");
    assert!(
        matches!(&error, ConnectionError::Decode(e) if e.is_truncation()),
        "{error}"
    );
    let expected = rec::decode(&recording.bytes[..cut]);
    assert_eq!(
        end.events.len(),
        expected.events.len(),
        "every complete event arrived"
    );
    assert_eq!(end.summary.valid_len, expected.valid_len);
}

#[test]
fn a_peer_sending_garbage_is_disconnected_with_the_offset_and_others_still_work() {
    let server = Server::bind("127.0.0.1:0").expect("bind loopback");
    let mut peer = TcpStream::connect(server.addr()).expect("connect");
    peer.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    let end = collect(&server);
    assert!(end.events.is_empty());
    assert!(
        matches!(
            end.error,
            Some(ConnectionError::Decode(DecodeError::BadMagic { .. }))
        ),
        "{end:?}"
    );

    let mut peer = TcpStream::connect(server.addr()).expect("connect");
    let mut bytes = rec::stream::header().to_vec();
    bytes.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x7f]); // absurd frame length
    peer.write_all(&bytes).expect("write");
    let end = collect(&server);
    assert!(
        matches!(
            end.error,
            Some(ConnectionError::Decode(DecodeError::LengthTooLarge {
                offset: 8,
                ..
            }))
        ),
        "{end:?}"
    );

    let sink = LiveSink::connect(server.addr(), false).expect("a good peer still connects");
    let _ = rec::record_to(Box::new(sink), || query(2));
    assert!(collect(&server).error.is_none());
}

#[test]
fn a_program_whose_viewer_vanishes_keeps_running_and_keeps_its_recording() {
    let server = Server::bind("127.0.0.1:0").expect("bind loopback");
    let addr = server.addr();
    let sink = LiveSink::connect(addr, true).expect("connect");
    drop(server); // the viewer goes away before the query runs
    let before = rec::live::dropped();
    let start = Instant::now();
    let (n, recording, err) = rec::record_to(Box::new(sink), || query(2000));
    assert_eq!(n, 2000);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "no blocking on a dead viewer"
    );
    assert_eq!(
        recording
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Pause { .. }))
            .count(),
        2000,
        "the in-memory recording is complete"
    );
    assert!(err.is_some(), "the sink reports the lost viewer");
    assert!(rec::live::dropped() > before, "the lost stream is counted");
    assert!(
        LiveSink::connect(addr, false).is_err(),
        "nobody listens any more"
    );
}

#[test]
fn pause_blocks_until_the_viewer_steps() {
    let server = Server::bind("127.0.0.1:0").expect("bind loopback");
    let addr = server.addr();
    let program = std::thread::Builder::new()
        .name("program".into())
        .spawn(move || {
            let sink = LiveSink::connect(addr, true).expect("connect");
            let start = Instant::now();
            let _ = rec::record_to(Box::new(sink), || query(3));
            start.elapsed()
        })
        .expect("spawn");
    let mut id = None;
    let mut pauses = 0;
    let deadline = Instant::now() + WAIT;
    while pauses < 3 && Instant::now() < deadline {
        match server.next_timeout(Duration::from_millis(20)) {
            Some(Message::Connected { id: i, .. }) => id = Some(i),
            Some(Message::Events { events, .. }) => {
                let new = events
                    .iter()
                    .filter(|l| matches!(l.event, Event::Pause { .. }))
                    .count();
                assert!(new <= 1, "the program waits at each pause");
                pauses += new;
                if new == 1 {
                    std::thread::sleep(Duration::from_millis(100));
                    assert!(
                        server.step(id.expect("connected first")),
                        "step reaches the program"
                    );
                }
            }
            _ => {}
        }
    }
    let elapsed = program.join().expect("program thread");
    assert_eq!(pauses, 3);
    assert!(
        elapsed >= Duration::from_millis(300),
        "it waited for three steps: {elapsed:?}"
    );
}

#[test]
fn a_saving_server_writes_tiny_frames_to_disk_and_hands_over_no_events() {
    let dir = temp_dir("save");
    let server =
        Server::bind_with("127.0.0.1:0", ServerOptions::save_to(&dir)).expect("bind loopback");
    let n = 1_000_000; // ~3 MB of 3-byte frames
    let bytes = pauses(n);
    let mut peer = TcpStream::connect(server.addr()).expect("connect");
    peer.write_all(&bytes).expect("write");
    drop(peer);
    let end = collect(&server);
    assert!(end.error.is_none(), "{end:?}");
    assert!(
        end.events.is_empty(),
        "a saving server hands over no events"
    );
    assert_eq!(
        (
            end.summary.valid_len,
            end.summary.events,
            end.summary.pauses
        ),
        (bytes.len() as u64, n as u64 + 1, n as u64)
    );
    let saved = end.summary.saved.expect("saved");
    assert_eq!(saved, dir.join(format!("live-{}.cspace", end.id)));
    assert_eq!(std::fs::read(&saved).expect("saved file"), bytes);

    // Cut inside a frame: the valid prefix is saved as a partial recording.
    let cut = (1000..1003)
        .find(|&c| rec::decode(&bytes[..c]).error.is_some())
        .expect("one of three cuts is inside a frame");
    let mut peer = TcpStream::connect(server.addr()).expect("connect");
    peer.write_all(&bytes[..cut]).expect("write");
    drop(peer);
    let end = collect(&server);
    assert!(end.error.is_some());
    let saved = end.summary.saved.expect("partial saved");
    assert!(saved.ends_with(format!("live-{}.partial.cspace", end.id)));
    let prefix = std::fs::read(&saved).expect("partial file");
    assert_eq!(prefix.len() as u64, end.summary.valid_len);
    assert_eq!(rec::decode(&prefix).error, None, "the partial file decodes");

    // Garbage from byte 0 saves nothing and leaves no file behind.
    let mut peer = TcpStream::connect(server.addr()).expect("connect");
    peer.write_all(b"garbage!garbage!").expect("write");
    drop(peer);
    let end = collect(&server);
    assert!(end.summary.saved.is_none());
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 2);
    assert_eq!(server.held_bytes(), 0, "closed connections hold nothing");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_event_receiver_disconnects_a_program_at_its_event_limit_with_a_clear_message() {
    let options = ServerOptions {
        delivery: Delivery::Events { max_events: 1000 },
        ..ServerOptions::events()
    };
    let server = Server::bind_with("127.0.0.1:0", options).expect("bind loopback");
    let sink = LiveSink::connect(server.addr(), false).expect("connect");
    let (_, recording, err) = rec::record_to(Box::new(sink), || query(5000));
    assert_eq!(recording.events().len(), 10_006, "the program keeps it all");
    let end = collect(&server);
    assert_eq!(end.events.len(), 1000, "exactly the first 1000 events");
    let error = end.error.expect("cut at the limit");
    assert!(
        matches!(error, ConnectionError::TooManyEvents { max: 1000, .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("more than 1000 events") && message.contains("cspace listen"),
        "{message}"
    );
    assert_eq!(
        end.summary.valid_len,
        rec::stream::encode_stream(&end.events).len() as u64
    );
    let _ = err; // the program may or may not notice before it finishes
}

#[test]
fn the_memory_budget_is_shared_by_open_connections_and_returned_when_they_close() {
    let options = ServerOptions {
        max_total_bytes: 1 << 20,
        ..ServerOptions::events()
    };
    let server = Server::bind_with("127.0.0.1:0", options).expect("bind loopback");
    let ((), big) = rec::record(|| {
        let text = "x".repeat(400 << 10);
        rec::text!("{text}");
    });
    // Two open connections of ~400 KiB each fit in 1 MiB; a third does not.
    let mut open = Vec::new();
    for _ in 0..2 {
        let mut peer = TcpStream::connect(server.addr()).expect("connect");
        peer.write_all(&big.bytes).expect("write");
        let deadline = Instant::now() + WAIT;
        // Wait for the text itself (its site definition comes first).
        while !matches!(
            server.next_timeout(Duration::from_millis(50)),
            Some(Message::Events { events, .. })
                if events.iter().any(|l| matches!(l.event, Event::Text { .. }))
        ) {
            assert!(Instant::now() < deadline, "no events");
        }
        open.push(peer);
    }
    assert!(server.held_bytes() > 800 << 10, "{}", server.held_bytes());
    let mut third = TcpStream::connect(server.addr()).expect("connect");
    third.write_all(&big.bytes).expect("write");
    let end = collect(&server);
    let error = end.error.expect("over budget");
    assert!(
        matches!(error, ConnectionError::Budget { max, .. } if max == 1 << 20),
        "{error:?}"
    );
    assert!(error.to_string().contains("budget"), "{error}");
    // Closing the two returns their share: the next connection fits.
    for mut peer in open.drain(..) {
        // End the stream, then read the announcement until the server closes:
        // closing with unread bytes would reset the connection.
        peer.shutdown(std::net::Shutdown::Write).expect("shutdown");
        let _ = peer.read_to_end(&mut Vec::new());
        let end = collect(&server);
        assert!(end.error.is_none(), "{end:?}");
    }
    let sink = LiveSink::connect(server.addr(), false).expect("connect");
    let _ = rec::record_to(Box::new(sink), || {
        let text = "x".repeat(400 << 10);
        rec::text!("{text}");
    });
    assert!(collect(&server).error.is_none());
}

/// What a server reported about many connections.
#[derive(Default)]
struct Tally {
    peers: HashMap<u64, SocketAddr>,
    failed: Vec<(u64, ConnectionError)>,
    refused: usize,
}

impl Tally {
    /// Takes messages until `until` holds or a connection finishes (its id).
    fn take(&mut self, server: &Server, until: impl Fn(&Self) -> bool) -> Option<u64> {
        let deadline = Instant::now() + WAIT;
        while !until(self) {
            assert!(Instant::now() < deadline, "timed out: {:?}", self.failed);
            match server.next_timeout(Duration::from_millis(20)) {
                Some(Message::Connected { id, peer }) => {
                    self.peers.insert(id, peer);
                }
                Some(Message::Refused { limit, .. }) => {
                    assert_eq!(limit, 8);
                    self.refused += 1;
                }
                Some(Message::Failed { id, error, .. }) => self.failed.push((id, error)),
                Some(Message::Finished { id, .. }) => return Some(id),
                _ => {}
            }
        }
        None
    }
}

#[test]
fn idle_peers_are_disconnected_naming_the_offset_and_peers_beyond_the_limit_are_refused() {
    let idle_timeout = Duration::from_secs(2);
    let options = ServerOptions {
        max_connections: 8,
        idle_timeout,
        ..ServerOptions::events()
    };
    let server = Server::bind_with("127.0.0.1:0", options).expect("bind loopback");
    let start = Instant::now();
    // Six idle peers: three silent, three stopping inside the header.
    let mut expected_offset: HashMap<SocketAddr, u64> = HashMap::new();
    let mut idle = Vec::new();
    for i in 0..6 {
        let mut peer = TcpStream::connect(server.addr()).expect("connect");
        let sent = if i % 2 == 0 { &b""[..] } else { &b"CSP"[..] };
        peer.write_all(sent).expect("write");
        expected_offset.insert(peer.local_addr().expect("addr"), sent.len() as u64);
        idle.push(peer);
    }
    let mut tally = Tally::default();
    // A real recording gets through while the idle peers are connected.
    let sink = LiveSink::connect(server.addr(), false).expect("connect");
    let _ = rec::record_to(Box::new(sink), || query(50));
    assert!(
        tally.take(&server, |_| false).is_some(),
        "the recording finished"
    );
    assert!(
        tally.failed.is_empty() && start.elapsed() < idle_timeout,
        "before any idle peer timed out ({:?})",
        start.elapsed()
    );
    let deadline = Instant::now() + WAIT;
    while server.open_connections() > 6 {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(5));
    }

    // Twelve more: two fill the limit of eight, ten are closed at once.
    let mut more = Vec::new();
    for _ in 0..12 {
        let peer = TcpStream::connect(server.addr()).expect("connect");
        expected_offset.insert(peer.local_addr().expect("addr"), 0);
        more.push(peer);
    }
    let _ = tally.take(&server, |t| t.refused == 10);
    let mut closed = 0;
    for peer in &mut more {
        peer.set_read_timeout(Some(Duration::from_secs(1)))
            .expect("timeout");
        let mut byte = [0u8; 1];
        match peer.read(&mut byte) {
            Ok(1) => assert_eq!(
                byte[0], ANNOUNCE_STEPS,
                "an accepted peer hears the announcement"
            ),
            Ok(_) | Err(_) => closed += 1,
        }
    }
    assert_eq!(closed, 10, "refused peers are closed at once");

    // All eight idle peers are disconnected, each error naming its offset.
    let _ = tally.take(&server, |t| t.failed.len() == 8);
    for (id, error) in &tally.failed {
        let offset = expected_offset[&tally.peers[id]];
        assert!(
            matches!(error, ConnectionError::Idle { offset: o, at_pause: false, .. } if *o == offset),
            "{error:?}"
        );
        assert!(
            error.to_string().contains(&format!("after byte {offset}")),
            "{error}"
        );
    }
    // And the next recording gets through.
    let sink = LiveSink::connect(server.addr(), false).expect("connect");
    let _ = rec::record_to(Box::new(sink), || query(5));
    assert!(collect(&server).error.is_none());
    drop((idle, more));
}

#[test]
fn blocking_pauses_do_not_wait_for_a_receiver_that_never_steps() {
    // `cspace listen`'s kind of server, and a socket that only reads.
    let dir = temp_dir("nostep");
    let saving =
        Server::bind_with("127.0.0.1:0", ServerOptions::save_to(&dir)).expect("bind loopback");
    let silent = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let silent_addr = silent.local_addr().expect("addr");
    std::thread::spawn(move || {
        if let Ok((mut s, _)) = silent.accept() {
            let _ = std::io::copy(&mut s, &mut std::io::sink());
        }
    });
    // A stepping server announces itself at once; a saving one says nothing.
    let stepping = Server::bind("127.0.0.1:0").expect("bind loopback");
    let read_first = |addr: SocketAddr| {
        let mut s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_millis(500)))
            .expect("timeout");
        let mut byte = [0u8; 1];
        matches!(s.read(&mut byte), Ok(1)).then_some(byte[0])
    };
    assert_eq!(read_first(stepping.addr()), Some(ANNOUNCE_STEPS));
    assert_eq!(read_first(saving.addr()), None);
    let _ = collect(&saving); // that probe's (empty) connection

    for addr in [saving.addr(), silent_addr] {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let sink = LiveSink::connect(addr, true).expect("connect");
            let start = Instant::now();
            let (_, recording, err) = rec::record_to(Box::new(sink), || query(100));
            let _ = tx.send((start.elapsed(), recording, err.map(|e| e.to_string())));
        });
        let (elapsed, recording, err) = rx
            .recv_timeout(WAIT)
            .expect("the program does not wait for steps that never come");
        assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");
        assert_eq!(err, None);
        if addr == saving.addr() {
            let end = collect(&saving);
            let saved = end.summary.saved.expect("saved");
            assert_eq!(std::fs::read(saved).expect("file"), recording.bytes);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Environment of the child process in the back-off test.
const BACKOFF_CHILD_ENV: &str = "CSPACE_TEST_BACKOFF_CHILD";
/// Recordings the child makes.
const BACKOFF_RECORDINGS: u64 = 10;

#[test]
fn backoff_child() {
    if std::env::var_os(BACKOFF_CHILD_ENV).is_none() {
        return; // only does something when spawned by the back-off test below
    }
    for _ in 0..BACKOFF_RECORDINGS {
        // 16 MiB: more than the socket buffers take from a receiver that never reads.
        let ((), recording) = rec::record(|| {
            let text = "x".repeat(1 << 20);
            for _ in 0..16 {
                rec::text!("{text}");
            }
        });
        assert_eq!(recording.events().len(), 17, "the recording is complete");
    }
    assert_eq!(rec::live::dropped(), BACKOFF_RECORDINGS, "none streamed");
}

#[test]
fn recordings_against_a_receiver_that_never_reads_back_off_and_stay_complete() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    listener.set_nonblocking(true).expect("nonblocking");
    let addr = listener.local_addr().expect("addr");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop2 = stop.clone();
    let holder = std::thread::spawn(move || {
        let mut held = Vec::new(); // accepted, never read
        while !stop2.load(std::sync::atomic::Ordering::Relaxed) {
            match listener.accept() {
                Ok((s, _)) => held.push(s),
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        }
        held.len()
    });
    let start = Instant::now();
    let status = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "backoff_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(BACKOFF_CHILD_ENV, "1")
        .env(rec::live::LIVE_ENV, addr.to_string())
        .env_remove(rec::live::BLOCK_ENV)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("spawn child");
    let elapsed = start.elapsed();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let connections = holder.join().expect("holder");
    assert!(status.success(), "the child's recordings are complete");
    // Without the back-off every recording waits out its write timeout:
    // at least 10 × 2 s. With it, one or two do.
    let bound = WRITE_TIMEOUT * 5;
    assert!(
        elapsed < bound,
        "{BACKOFF_RECORDINGS} recordings took {elapsed:?} (bound {bound:?}); {connections} connections"
    );
    assert!(connections < 4, "{connections} connections");
}
