//! Live attach over loopback: stream, disconnect mid-query, reconnect, a peer
//! sending garbage, a vanished viewer, and `pause!` blocking until a step.
#![cfg(feature = "enabled")]

use cspace_recorder::live::{LiveSink, Message, Server};
use cspace_recorder::{self as rec, DecodeError, Event};
use std::io::Write as _;
use std::net::TcpStream;
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

/// Collects messages for connection `id` until it finishes or fails.
fn collect(server: &Server) -> (u64, Vec<Event>, Result<Vec<u8>, DecodeError>) {
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
            Some(Message::Finished { id: i, bytes }) => return (i, events, Ok(bytes)),
            Some(Message::Failed {
                id: i,
                error,
                bytes,
            }) => {
                assert!(
                    bytes.is_empty() || rec::decode(&bytes).error.is_none(),
                    "the kept prefix decodes cleanly"
                );
                return (i, events, Err(error));
            }
            None => {}
        }
    }
    panic!("no end of stream for connection {id:?} within {WAIT:?}");
}

#[test]
fn a_query_streams_to_the_server_and_equals_the_in_memory_recording() {
    let server = Server::bind("127.0.0.1:0").expect("bind loopback");
    let sink = LiveSink::connect(server.addr(), false).expect("connect");
    let (n, recording, err) = rec::record_to(Box::new(sink), || query(50));
    assert_eq!((n, err.map(|e| e.to_string())), (50, None));
    let (id, events, bytes) = collect(&server);
    assert_eq!(id, 0);
    assert_eq!(
        bytes.expect("complete stream"),
        recording.bytes,
        "same bytes as a file"
    );
    assert_eq!(events, recording.events());

    // Reconnect: the next query is a new connection with the next id.
    let sink = LiveSink::connect(server.addr(), false).expect("reconnect");
    let _ = rec::record_to(Box::new(sink), || query(3));
    let (id, events, bytes) = collect(&server);
    assert_eq!(id, 1);
    assert!(bytes.is_ok());
    assert_eq!(
        events
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
    let (_, events, result) = collect(&server);
    let error = result.expect_err("stream is incomplete");
    assert!(error.is_truncation(), "{error}");
    let expected = rec::decode(&recording.bytes[..cut]).events.len();
    assert_eq!(events.len(), expected, "every complete event arrived");
}

#[test]
fn a_peer_sending_garbage_is_disconnected_with_the_offset_and_others_still_work() {
    let server = Server::bind("127.0.0.1:0").expect("bind loopback");
    let mut peer = TcpStream::connect(server.addr()).expect("connect");
    peer.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    let (_, events, result) = collect(&server);
    assert!(events.is_empty());
    assert!(
        matches!(result, Err(DecodeError::BadMagic { .. })),
        "{result:?}"
    );

    let mut peer = TcpStream::connect(server.addr()).expect("connect");
    let mut bytes = rec::stream::header().to_vec();
    bytes.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x7f]); // absurd frame length
    peer.write_all(&bytes).expect("write");
    let (_, _, result) = collect(&server);
    assert!(
        matches!(result, Err(DecodeError::LengthTooLarge { offset: 8, .. })),
        "{result:?}"
    );

    let sink = LiveSink::connect(server.addr(), false).expect("a good peer still connects");
    let _ = rec::record_to(Box::new(sink), || query(2));
    assert!(collect(&server).2.is_ok());
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
