//! The binary stream format: a header, then self-delimiting event frames.
//!
//! | offset | size     | field                                                        |
//! |--------|----------|--------------------------------------------------------------|
//! | 0      | 4        | magic `b"CSPC"`                                              |
//! | 4      | 2        | format version, u16 little endian (currently [`VERSION`])    |
//! | 6      | 2        | flags, u16 little endian, reserved, written as 0             |
//! | 8      | 1–5      | frame length `n`, unsigned LEB128 (7 bits per byte, low first)|
//! | …      | `n`      | event payload: bincode 1, little endian, varint integers     |
//! | …      | …        | more frames until the end of the stream                      |
//!
//! The payload is an [`Event`] as bincode 1.3 encodes it with
//! `DefaultOptions::new().with_varint_encoding().with_little_endian()`: the enum
//! tag and every integer are varints (one byte below 251), floats are their
//! IEEE-754 bits, 4 or 8 bytes little endian, strings and vectors a varint
//! length then their contents. A frame never exceeds [`MAX_FRAME_LEN`] bytes.
//!
//! A stream cut anywhere decodes to the complete frames before the cut and a
//! [`DecodeError::Truncated`]; the reader never allocates more than the bytes
//! actually present.

use crate::event::{Event, SiteDef};
use bincode::Options as _;
use std::collections::BTreeMap;
use std::io::Read;

mod read;

/// Magic bytes at offset 0 of every stream.
pub const MAGIC: [u8; 4] = *b"CSPC";
/// The file name extension of a recording, without the dot.
pub const FILE_EXTENSION: &str = "cspace";
/// The file name ending of a recording: `.` and [`FILE_EXTENSION`].
pub const FILE_SUFFIX: &str = ".cspace";
/// The format version this crate writes and the newest it reads (2 added
/// [`Event::Answer`](crate::Event::Answer), 3
/// [`Event::Certificate`](crate::Event::Certificate); older streams still
/// read).
pub const VERSION: u16 = 3;
/// Length of the stream header in bytes.
pub const HEADER_LEN: usize = 8;
/// Largest frame a writer produces and a reader accepts (16 MiB).
pub const MAX_FRAME_LEN: u32 = 16 << 20;

/// Why a stream could not be decoded, with the byte offset where it went wrong.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// The stream does not start with [`MAGIC`].
    #[error("bad magic at byte 0: expected {expected:?}, found {found:?} (not a cspace recording)")]
    BadMagic {
        /// [`MAGIC`].
        expected: [u8; 4],
        /// The first bytes of the stream.
        found: Vec<u8>,
    },
    /// The stream was written by a newer format version.
    #[error(
        "unsupported format version {found} at byte 4: this reader supports versions 1 to {supported}"
    )]
    UnsupportedVersion {
        /// The version in the header.
        found: u16,
        /// The newest version this reader understands.
        supported: u16,
    },
    /// The stream ends inside the header or inside a frame.
    #[error("truncated at byte {offset}: {what} needs {needed} bytes but only {available} remain")]
    Truncated {
        /// Byte offset of the incomplete header or frame.
        offset: u64,
        /// What is incomplete: "header", "frame length" or "event".
        what: &'static str,
        /// Bytes it needs.
        needed: u64,
        /// Bytes present.
        available: u64,
    },
    /// A frame length is larger than any frame a writer produces.
    #[error("corrupt frame length at byte {offset}: {len} bytes exceeds the maximum of {max}")]
    LengthTooLarge {
        /// Byte offset of the length field.
        offset: u64,
        /// The length it declares.
        len: u64,
        /// [`MAX_FRAME_LEN`].
        max: u32,
    },
    /// A complete frame whose payload is not a valid event.
    #[error("corrupt event at byte {offset}: {reason}")]
    Corrupt {
        /// Byte offset of the frame.
        offset: u64,
        /// What bincode reported.
        reason: String,
    },
    /// Reading the underlying file or socket failed.
    #[error("read error after byte {offset}: {message}")]
    Io {
        /// Bytes successfully read before the failure.
        offset: u64,
        /// The I/O error.
        message: String,
    },
}

impl DecodeError {
    /// The byte offset the error refers to.
    #[must_use]
    pub fn offset(&self) -> u64 {
        match self {
            Self::BadMagic { .. } => 0,
            Self::UnsupportedVersion { .. } => 4,
            Self::Truncated { offset, .. }
            | Self::LengthTooLarge { offset, .. }
            | Self::Corrupt { offset, .. }
            | Self::Io { offset, .. } => *offset,
        }
    }

    /// Whether more bytes could complete the stream (a file still growing).
    #[must_use]
    pub fn is_truncation(&self) -> bool {
        matches!(self, Self::Truncated { .. })
    }
}

fn options() -> impl bincode::Options {
    bincode::DefaultOptions::new()
        .with_varint_encoding()
        .with_little_endian()
}

/// The 8-byte header of a stream of the current version.
#[must_use]
pub fn header() -> [u8; HEADER_LEN] {
    let v = VERSION.to_le_bytes();
    [MAGIC[0], MAGIC[1], MAGIC[2], MAGIC[3], v[0], v[1], 0, 0]
}

/// Appends one framed event to `out`.
///
/// The writer never produces what the reader refuses: an event whose frame
/// would exceed [`MAX_FRAME_LEN`] (a hull of millions of points, megabytes of
/// text) is replaced by a [`Event::Text`] at the same call site saying what was
/// left out and why.
pub fn encode_event(out: &mut Vec<u8>, event: &Event) {
    let start = out.len();
    let len = encode_frame(out, event);
    if len > MAX_FRAME_LEN as usize {
        out.truncate(start);
        let note = Event::Text {
            site: event.site(),
            text: format!(
                "{} event left out: its frame of {len} bytes exceeds the stream's limit of {MAX_FRAME_LEN} bytes",
                event.kind().name()
            ),
        };
        encode_frame(out, &note);
    }
}

/// Appends `event` as a frame and returns its payload length.
fn encode_frame(out: &mut Vec<u8>, event: &Event) -> usize {
    // Reserve one length byte, encode in place, and widen the length field only
    // when the payload turns out to be 128 bytes or more (rare).
    let start = out.len();
    out.push(0);
    options()
        .serialize_into(&mut *out, event)
        .expect("serialising into a Vec cannot fail"); // invariant: Vec writes are infallible
    let len = out.len() - start - 1;
    if len < 0x80 {
        out[start] = len as u8;
    } else {
        let mut prefix = [0u8; 5];
        // Lengths past u32 are cut off by the caller's limit check, not here.
        let n = leb128(u32::try_from(len).unwrap_or(u32::MAX), &mut prefix);
        out.splice(start..=start, prefix[..n].iter().copied());
    }
    len
}

/// Encodes events into a complete stream: header then frames.
#[must_use]
pub fn encode_stream(events: &[Event]) -> Vec<u8> {
    let mut out = header().to_vec();
    for event in events {
        encode_event(&mut out, event);
    }
    out
}

fn leb128(mut v: u32, out: &mut [u8; 5]) -> usize {
    let mut n = 0;
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out[n] = byte;
            return n + 1;
        }
        out[n] = byte | 0x80;
        n += 1;
    }
}

/// Checks a stream header and returns its version.
///
/// # Errors
/// [`DecodeError::Truncated`] when fewer than [`HEADER_LEN`] bytes are given,
/// [`DecodeError::BadMagic`], or [`DecodeError::UnsupportedVersion`].
pub fn check_header(bytes: &[u8]) -> Result<u16, DecodeError> {
    let magic_len = bytes.len().min(4);
    if bytes[..magic_len] != MAGIC[..magic_len] {
        return Err(DecodeError::BadMagic {
            expected: MAGIC,
            found: bytes[..magic_len].to_vec(),
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(DecodeError::Truncated {
            offset: 0,
            what: "header",
            needed: HEADER_LEN as u64,
            available: bytes.len() as u64,
        });
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version == 0 || version > VERSION {
        return Err(DecodeError::UnsupportedVersion {
            found: version,
            supported: VERSION,
        });
    }
    Ok(version)
}

/// Result of decoding one frame from a byte slice.
enum Frame {
    /// A complete event and the bytes it used (length field included).
    Event(Event, usize),
    /// Not enough bytes yet.
    Incomplete(DecodeError),
}

/// Decodes the frame starting at `bytes[0]`, which sits at stream offset `offset`.
fn decode_frame(bytes: &[u8], offset: u64) -> Result<Frame, DecodeError> {
    let mut len: u64 = 0;
    let mut used = 0;
    loop {
        let Some(&byte) = bytes.get(used) else {
            return Ok(Frame::Incomplete(DecodeError::Truncated {
                offset,
                what: "frame length",
                needed: used as u64 + 1,
                available: bytes.len() as u64,
            }));
        };
        len |= u64::from(byte & 0x7f) << (7 * used);
        used += 1;
        if byte & 0x80 == 0 {
            break;
        }
        if used == 5 {
            return Err(DecodeError::LengthTooLarge {
                offset,
                len,
                max: MAX_FRAME_LEN,
            });
        }
    }
    if len > u64::from(MAX_FRAME_LEN) {
        return Err(DecodeError::LengthTooLarge {
            offset,
            len,
            max: MAX_FRAME_LEN,
        });
    }
    let available = (bytes.len() - used) as u64;
    if len > available {
        return Ok(Frame::Incomplete(DecodeError::Truncated {
            offset,
            what: "event",
            needed: len,
            available,
        }));
    }
    let payload = &bytes[used..used + len as usize];
    // The frequent kinds without serde; anything else (or anything wrong) through bincode.
    if let Some(event) = read::event(payload) {
        return Ok(Frame::Event(event, used + payload.len()));
    }
    let event: Event = options()
        .with_limit(len)
        .deserialize(payload)
        .map_err(|e| DecodeError::Corrupt {
            offset,
            reason: reason(&e),
        })?;
    // A frame must be exactly one event: trailing bytes mean corruption.
    let re_len = options()
        .serialized_size(&event)
        .map_err(|e| DecodeError::Corrupt {
            offset,
            reason: reason(&e),
        })?;
    if re_len != len {
        return Err(DecodeError::Corrupt {
            offset,
            reason: format!("frame holds {len} bytes but its event uses {re_len}"),
        });
    }
    Ok(Frame::Event(event, used + len as usize))
}

/// A bincode error as a reason that is never empty: bincode reports reading
/// past the end of a frame as an I/O error without a message.
fn reason(e: &bincode::Error) -> String {
    match e.as_ref() {
        bincode::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            "the event ends before its last field (the frame is shorter than what it declares)"
                .to_owned()
        }
        bincode::ErrorKind::SizeLimit => {
            "a length inside the event exceeds the bytes left in its frame".to_owned()
        }
        _ => {
            let text = e.to_string();
            if text.trim_end().ends_with(':') {
                format!("{text} (no detail given)")
            } else {
                text
            }
        }
    }
}

/// An event and the stream offset of its frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// Byte offset of the frame in the stream.
    pub offset: u64,
    /// The event.
    pub event: Event,
}

/// A decoded recording: the valid prefix of a stream with its call sites
/// resolved, and, if it stopped early, why. The one model of a decoded
/// recording: `cspace dump`, [`diff`](crate::diff) and the viewer read it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decoded {
    /// Every complete, valid event before the first problem (site definitions included).
    pub events: Vec<Located>,
    /// The call sites defined so far, by stream-local id.
    pub sites: BTreeMap<u32, SiteDef>,
    /// Bytes that the valid prefix covers (header included).
    pub valid_len: u64,
    /// The first problem, if any.
    pub error: Option<DecodeError>,
}

impl Decoded {
    /// Decoded events without damage (a valid length of 0: they came from memory).
    #[must_use]
    pub fn from_events(events: impl IntoIterator<Item = Located>) -> Self {
        let mut decoded = Self::default();
        for e in events {
            decoded.push(e);
        }
        decoded
    }

    /// Appends an event, resolving it first if it defines a call site.
    pub fn push(&mut self, located: Located) {
        if let Event::Site(def) = &located.event {
            self.sites.insert(def.id, def.clone());
        }
        self.events.push(located);
    }

    /// The call site an event names, if the stream defined it.
    #[must_use]
    pub fn site(&self, id: u32) -> Option<&SiteDef> {
        self.sites.get(&id)
    }

    /// The label of a call site (empty if undefined).
    #[must_use]
    pub fn label(&self, id: u32) -> &str {
        self.site(id).map_or("", |s| s.label.as_str())
    }
}

/// Decodes a complete stream, keeping the valid prefix when it is damaged.
#[must_use]
pub fn decode(bytes: &[u8]) -> Decoded {
    let mut decoded = Decoded::default();
    if let Err(e) = check_header(bytes) {
        decoded.error = Some(e);
        return decoded;
    }
    let mut pos = HEADER_LEN;
    decoded.valid_len = pos as u64;
    while pos < bytes.len() {
        match decode_frame(&bytes[pos..], pos as u64) {
            Ok(Frame::Event(event, used)) => {
                decoded.push(Located {
                    offset: pos as u64,
                    event,
                });
                pos += used;
                decoded.valid_len = pos as u64;
            }
            Ok(Frame::Incomplete(e)) | Err(e) => {
                decoded.error = Some(e);
                break;
            }
        }
    }
    decoded
}

/// Reads a recording file, its header first: a file that is not a
/// recording of a supported version (or `/dev/zero`) is refused after its
/// first [`HEADER_LEN`] bytes, which [`decode`] then names, instead of read
/// whole into memory.
///
/// # Errors
/// The file's I/O errors.
pub fn read_file(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let mut bytes = Vec::with_capacity(HEADER_LEN);
    (&mut file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut bytes)?;
    if check_header(&bytes).is_ok() {
        file.read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

/// Reads and decodes a whole file or other reader.
///
/// I/O errors become [`DecodeError::Io`] after the bytes read so far were decoded.
#[must_use]
pub fn decode_reader(mut reader: impl Read) -> Decoded {
    let mut bytes = Vec::new();
    match reader.read_to_end(&mut bytes) {
        Ok(_) => decode(&bytes),
        Err(e) => {
            let mut decoded = decode(&bytes);
            if decoded.error.is_none()
                || decoded
                    .error
                    .as_ref()
                    .is_some_and(DecodeError::is_truncation)
            {
                decoded.error = Some(DecodeError::Io {
                    offset: bytes.len() as u64,
                    message: e.to_string(),
                });
            }
            decoded
        }
    }
}

/// An incremental decoder for a stream that arrives in pieces (a growing file,
/// a socket). Feed bytes as they come; take events as they complete.
#[derive(Debug, Default)]
pub struct StreamDecoder {
    buf: Vec<u8>,
    /// Offset in `buf` of the next undecoded byte.
    pos: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    header_ok: bool,
    failed: bool,
}

impl StreamDecoder {
    /// A decoder expecting a header first.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends bytes that arrived.
    pub fn feed(&mut self, bytes: &[u8]) {
        // Drop what is already decoded before growing, so memory stays bounded
        // by one incomplete frame plus the new bytes.
        if self.pos > 0 && self.pos == self.buf.len() {
            self.base += self.pos as u64;
            self.buf.clear();
            self.pos = 0;
        } else if self.pos > (1 << 16) {
            self.base += self.pos as u64;
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Stream offset of the next byte to decode: everything before it was valid.
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// The next complete event, `Ok(None)` when more bytes are needed.
    ///
    /// # Errors
    /// Any [`DecodeError`] but truncation; after an error the decoder stays failed.
    pub fn next_event(&mut self) -> Result<Option<Located>, DecodeError> {
        if self.failed {
            return Ok(None);
        }
        if !self.header_ok {
            match check_header(&self.buf) {
                Ok(_) => {
                    self.header_ok = true;
                    self.pos = HEADER_LEN;
                }
                Err(DecodeError::Truncated { .. }) => return Ok(None),
                Err(e) => {
                    self.failed = true;
                    return Err(e);
                }
            }
        }
        if self.pos >= self.buf.len() {
            return Ok(None);
        }
        let offset = self.offset();
        match decode_frame(&self.buf[self.pos..], offset) {
            Ok(Frame::Event(event, used)) => {
                self.pos += used;
                Ok(Some(Located { offset, event }))
            }
            Ok(Frame::Incomplete(_)) => Ok(None),
            Err(e) => {
                self.failed = true;
                Err(e)
            }
        }
    }

    /// Declares the end of the stream: leftover bytes are a truncation.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`] naming the incomplete header or frame.
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.failed {
            return Ok(());
        }
        if !self.header_ok {
            return check_header(&self.buf).map(|_| ());
        }
        if self.pos < self.buf.len() {
            return match decode_frame(&self.buf[self.pos..], self.offset()) {
                Ok(Frame::Incomplete(e)) | Err(e) => Err(e),
                Ok(Frame::Event(..)) => Ok(()),
            };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Space, Vec3Data};

    #[test]
    fn a_file_that_is_not_a_recording_is_read_no_further_than_its_header() {
        let dir = std::env::temp_dir().join(format!("cspace-read-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let zeros = dir.join("zeros.cspace");
        std::fs::write(&zeros, vec![0u8; 1 << 20]).expect("written");
        let bytes = read_file(&zeros).expect("read");
        assert_eq!(bytes.len(), HEADER_LEN);
        assert!(matches!(
            decode(&bytes).error,
            Some(DecodeError::BadMagic { .. })
        ));
        // A recording is read whole.
        let mut rec = header().to_vec();
        rec.extend_from_slice(&[7u8; 100]);
        let file = dir.join("rec.cspace");
        std::fs::write(&file, &rec).expect("written");
        assert_eq!(read_file(&file).expect("read"), rec);
        // A file shorter than a header is read as it is.
        std::fs::write(&file, b"CSP").expect("written");
        assert_eq!(read_file(&file).expect("read"), b"CSP");
        std::fs::remove_dir_all(&dir).ok();
    }

    fn sample() -> Vec<Event> {
        vec![
            Event::Site(crate::event::SiteDef {
                id: 0,
                file: "x.rs".into(),
                line: 3,
                label: "p".into(),
            }),
            Event::Point {
                site: 0,
                space: Space::Config,
                color: None,
                p: Vec3Data::F64([1.0, -0.0, f64::MIN_POSITIVE]),
            },
            Event::Text {
                site: 0,
                text: "x".repeat(300),
            },
            Event::Pause { site: 0 },
        ]
    }

    #[test]
    fn round_trips_and_long_frames_use_multi_byte_lengths() {
        let events = sample();
        let bytes = encode_stream(&events);
        let decoded = decode(&bytes);
        assert_eq!(decoded.error, None);
        assert_eq!(decoded.valid_len, bytes.len() as u64);
        let got: Vec<Event> = decoded.events.into_iter().map(|l| l.event).collect();
        assert_eq!(got, events);
    }

    #[test]
    fn bad_magic_and_newer_version_are_named() {
        let mut bytes = encode_stream(&sample());
        bytes[4] = 4;
        let e = decode(&bytes).error.expect("version 4 must be refused");
        assert!(
            matches!(
                e,
                DecodeError::UnsupportedVersion {
                    found: 4,
                    supported: 3
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("version 4"));
        // Version 1 and 2 streams still read.
        for v in [1, 2] {
            bytes[4] = v;
            assert_eq!(decode(&bytes).error, None);
        }
        let e = decode(b"PK\x03\x04zip").error.expect("zip is not a stream");
        assert!(matches!(e, DecodeError::BadMagic { .. }), "{e}");
    }

    #[test]
    fn huge_length_field_is_rejected_without_allocating() {
        let mut bytes = header().to_vec();
        bytes.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]);
        let e = decode(&bytes).error.expect("length must be refused");
        assert!(
            matches!(e, DecodeError::LengthTooLarge { offset: 8, .. }),
            "{e}"
        );
    }

    #[test]
    fn incremental_decoder_matches_whole_decode_byte_by_byte() {
        let bytes = encode_stream(&sample());
        let mut dec = StreamDecoder::new();
        let mut got = Vec::new();
        for b in &bytes {
            dec.feed(std::slice::from_ref(b));
            while let Some(l) = dec.next_event().expect("valid stream") {
                got.push(l);
            }
        }
        dec.finish().expect("complete stream");
        assert_eq!(got, decode(&bytes).events);
    }
}
