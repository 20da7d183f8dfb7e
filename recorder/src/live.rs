//! Live attach: stream recordings to a listening receiver over TCP as they happen.
//!
//! # Program side
//!
//! A [`LiveSink`] is one TCP connection per recording, carrying exactly the
//! bytes of a `.cspace` file (header, then frames), so the receiver decodes it
//! with the same [`StreamDecoder`](crate::StreamDecoder). Setting
//! `CSPACE_LIVE=127.0.0.1:PORT` makes every [`record`](crate::record) stream
//! there too; `CSPACE_LIVE_BLOCK=1` also makes each `pause!` wait until the
//! receiver steps — if the receiver steps at all (see *Protocol*).
//!
//! A program never hangs on a vanished or stuck receiver: connecting times out
//! after [`CONNECT_TIMEOUT`]; a write that cannot hand its bytes to the socket
//! within [`WRITE_TIMEOUT`] gives the connection up; at the end of a recording
//! it waits at most [`CLOSE_TIMEOUT`] for the receiver to confirm (close its
//! side); a blocked pause returns when the connection closes. Every failure (no connection, a write timeout, a
//! closed connection) is remembered for the `CSPACE_LIVE` address: recordings
//! made in the next [`RETRY_AFTER`] stream to memory only, and the back-off
//! doubles with each further failure up to [`MAX_RETRY_AFTER`]; a recording
//! that streams completely resets it. Recordings that could not be streamed are
//! counted ([`dropped`]); the in-memory (or file) recording is always complete.
//!
//! # Protocol
//!
//! Program → receiver: a `.cspace` stream, nothing else. Receiver → program:
//! single bytes. A receiver that steps (the viewer) sends [`ANNOUNCE_STEPS`]
//! right after accepting, then one [`STEP`] per step. A receiver that never
//! steps (`cspace listen`) sends nothing. A blocking sink waits at most
//! [`ANNOUNCE_TIMEOUT`] for the announcement at the recording's first pause;
//! without it, that recording does not block. Any other byte is a protocol
//! error: the sink stops blocking and gives the connection up.
//!
//! # Receiving side
//!
//! A [`Server`] listens (on loopback unless told otherwise; [`exposure_warning`]
//! says what to print otherwise) and reads each connection on its own thread,
//! within the bounds of its [`ServerOptions`]: at most
//! [`MAX_CONNECTIONS`] at once (more are closed at once and reported as
//! [`Message::Refused`]), [`IDLE_TIMEOUT`] without a byte (or
//! [`STEP_WAIT_TIMEOUT`] while a stepped program waits at a pause),
//! [`MAX_STREAM_BYTES`] per stream, [`MAX_TOTAL_BYTES`] of memory across all
//! connections. [`Delivery::Save`] writes each stream to disk as it arrives
//! and keeps no events (`cspace listen`); [`Delivery::Events`] hands decoded
//! events over, at most [`MAX_EVENTS`] per connection (the viewer). A peer that
//! breaks a bound or sends garbage is disconnected with a [`ConnectionError`]
//! naming the byte offset.

mod server;
mod sink;

pub use server::{ConnectionError, Delivery, Message, Server, ServerOptions, Summary};
pub(crate) use sink::sink_from_env;
pub use sink::{LiveSink, dropped};

use std::net::SocketAddr;
use std::time::Duration;

/// Environment variable naming the address of a listening receiver.
pub const LIVE_ENV: &str = "CSPACE_LIVE";
/// Environment variable that makes `pause!` wait for the receiver's step (`1`).
pub const BLOCK_ENV: &str = "CSPACE_LIVE_BLOCK";
/// How long a program waits to connect to a receiver.
pub const CONNECT_TIMEOUT: Duration = Duration::from_millis(250);
/// How long one write may take before a program gives the receiver up.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(2);
/// The first back-off after a failure: for this long a program streams to memory only.
pub const RETRY_AFTER: Duration = Duration::from_secs(1);
/// The longest back-off: each further failure doubles it up to this.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);
/// How long a program waits at the end of a recording for the receiver to
/// confirm it read everything; an unconfirmed recording counts as a failure.
pub const CLOSE_TIMEOUT: Duration = Duration::from_secs(1);
/// How long a blocking sink waits at the first pause for [`ANNOUNCE_STEPS`].
pub const ANNOUNCE_TIMEOUT: Duration = Duration::from_millis(250);

/// Receiver → program, once, right after accepting: "I step; block at pauses".
pub const ANNOUNCE_STEPS: u8 = b'S';
/// Receiver → program, once per step: "run on to the next pause".
pub const STEP: u8 = b'n';

/// Most bytes a server accepts in one stream before disconnecting the peer.
pub const MAX_STREAM_BYTES: u64 = 256 << 20;
/// Most events a [`Delivery::Events`] server hands over per connection by default.
pub const MAX_EVENTS: u64 = 1_000_000;
/// Most connections a server serves at once by default; more are closed at once.
pub const MAX_CONNECTIONS: usize = 64;
/// How long a server waits for a byte by default before disconnecting the peer.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a stepping server lets a program wait at a pause for a step by default.
pub const STEP_WAIT_TIMEOUT: Duration = Duration::from_secs(600);
/// Most bytes of memory a server holds for all open connections together by default.
pub const MAX_TOTAL_BYTES: u64 = 512 << 20;

/// The warning to print when a server listens on `addr`, if it is not a
/// loopback address: anyone who can reach it can stream into the receiver.
#[must_use]
pub fn exposure_warning(addr: SocketAddr) -> Option<String> {
    (!addr.ip().is_loopback()).then(|| {
        format!(
            "warning: listening on {addr}, which is not a loopback address: anyone on the \
             network who can reach it can stream recordings into this process \
             (listen on 127.0.0.1 to stay local)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_non_loopback_addresses_warn() {
        let warn = |a: &str| exposure_warning(a.parse().expect("address"));
        assert_eq!(warn("127.0.0.1:7878"), None);
        assert_eq!(warn("[::1]:7878"), None);
        let w = warn("0.0.0.0:7878").expect("warns");
        assert!(w.contains("0.0.0.0:7878") && w.contains("anyone"), "{w}");
        assert!(warn("192.168.1.2:1").is_some());
    }

    #[test]
    fn announcement_and_step_bytes_differ() {
        assert_ne!(ANNOUNCE_STEPS, STEP);
    }
}
