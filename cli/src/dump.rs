//! `cspace dump` and `cspace stats`: read a recording and print it as text,
//! JSON lines, or counts.

use cspace_recorder::{DecodeError, Decoded, Event, EventKind, Scalar, ShapeDecl, Vec3Data};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why a recording could not be read in full.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS reported.
        source: io::Error,
    },
    /// The file is not a valid recording from some byte on.
    #[error("{}: {source}", path.display())]
    Decode {
        /// The file.
        path: PathBuf,
        /// What is wrong and at which byte.
        source: DecodeError,
    },
}

/// A recording read from a file.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The decoded recording (its valid prefix when damaged).
    pub recording: Decoded,
    /// Length of the file in bytes.
    pub file_len: u64,
    /// The first problem, if the file is damaged; `events` is its valid prefix.
    pub error: Option<ReadError>,
}

/// Reads and decodes the recording at `path`, keeping the valid prefix of a damaged file.
///
/// # Errors
/// The file cannot be read at all.
pub fn load(path: &Path) -> Result<Loaded, ReadError> {
    let bytes = cspace_recorder::read_file(path).map_err(|source| ReadError::Io {
        path: path.to_owned(),
        source,
    })?;
    let recording = cspace_recorder::decode(&bytes);
    let error = recording.error.clone().map(|source| ReadError::Decode {
        path: path.to_owned(),
        source,
    });
    Ok(Loaded {
        recording,
        file_len: bytes.len() as u64,
        error,
    })
}

fn v3(v: Vec3Data) -> String {
    match v {
        Vec3Data::F32([x, y, z]) => format!("({x:?}, {y:?}, {z:?})f32"),
        Vec3Data::F64([x, y, z]) => format!("({x:?}, {y:?}, {z:?})"),
    }
}

fn scalar(v: Scalar) -> String {
    match v {
        Scalar::F32(x) => format!("{x:?}f32"),
        Scalar::F64(x) => format!("{x:?}"),
    }
}

fn shape(d: &ShapeDecl) -> String {
    let [x, y, z] = d.position;
    let [qx, qy, qz, qw] = d.rotation;
    let mut s = format!("{:?}", d.geom);
    if d.margin != 0.0 {
        let _ = write!(s, " margin {:?}", d.margin);
    }
    let _ = write!(
        s,
        " at ({x:?}, {y:?}, {z:?}) rot [{qx:?}, {qy:?}, {qz:?}, {qw:?}]"
    );
    s
}

/// One event as a line of text (without indentation and call site).
#[must_use]
pub fn describe(event: &Event, label: &str) -> String {
    let space = |s: cspace_recorder::Space| match s {
        cspace_recorder::Space::Object => "",
        cspace_recorder::Space::Config => "cso ",
    };
    match event {
        Event::Site(def) => format!(
            "site {} = {}:{} {:?}",
            def.id, def.file, def.line, def.label
        ),
        Event::Push { .. } => format!("push {label:?}"),
        Event::Pop { .. } => "pop".to_owned(),
        Event::Pause { .. } => format!("pause {label:?}"),
        Event::Text { text, .. } => format!("text {text:?}"),
        Event::Point { space: s, p, .. } => format!("point {}{label:?} {}", space(*s), v3(*p)),
        Event::Line { space: s, a, b, .. } => {
            format!("line {}{label:?} {} -> {}", space(*s), v3(*a), v3(*b))
        }
        Event::Triangle { space: s, v, .. } => format!(
            "triangle {}{label:?} {} {} {}",
            space(*s),
            v3(v[0]),
            v3(v[1]),
            v3(v[2])
        ),
        Event::Simplex { vertices, .. } => {
            let ws: Vec<String> = vertices.iter().map(|v| v3(v.w)).collect();
            format!("simplex {label:?} [{}]", ws.join(", "))
        }
        Event::Value { value, .. } => format!("value {label:?} = {}", scalar(*value)),
        Event::Shapes { a, b, motion, .. } => {
            let mut s = format!("shapes A: {} | B: {}", shape(a), shape(b));
            if let Some([x, y, z]) = motion {
                let _ = write!(s, " | motion ({x:?}, {y:?}, {z:?})");
            }
            s
        }
        Event::Answer { answer, .. } => format!("answer {answer}"),
        Event::Certificate { certificate, .. } => format!("certificate {certificate}"),
    }
}

/// Writes one line per event, indented by push depth, with its call site;
/// or, with `json`, one JSON object per line, its `text` the description
/// the text form prints (which keeps the NaN and infinities JSON cannot
/// hold: `event` has them as `null`).
///
/// # Errors
/// Writing to `out` failed.
pub fn dump(loaded: &Loaded, json: bool, out: &mut impl Write) -> io::Result<()> {
    let mut depth: usize = 0;
    for l in &loaded.recording.events {
        if matches!(l.event, Event::Site(_)) {
            continue;
        }
        if matches!(l.event, Event::Pop { .. }) {
            depth = depth.saturating_sub(1);
        }
        let site = loaded.recording.site(l.event.site());
        let (file, line, label) = site.map_or(("?", 0, ""), |s| {
            (s.file.as_str(), s.line, s.label.as_str())
        });
        if json {
            // JSON has no NaN or infinity: `event` holds them as `null`,
            // `text` (the text form's description) as `NaN`, `inf`.
            let obj = serde_json::json!({
                "offset": l.offset,
                "depth": depth,
                "kind": l.event.kind().name(),
                "file": file,
                "line": line,
                "label": label,
                "text": describe(&l.event, label),
                "event": l.event,
            });
            writeln!(out, "{obj}")?;
        } else {
            writeln!(
                out,
                "{:>8}  {:indent$}{}  @ {file}:{line}",
                l.offset,
                "",
                describe(&l.event, label),
                indent = depth * 2
            )?;
        }
        if matches!(l.event, Event::Push { .. }) {
            depth += 1;
        }
    }
    Ok(())
}

/// Event counts and sizes of one recording.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Per kind: number of events and bytes of their frames.
    pub kinds: BTreeMap<EventKind, (u64, u64)>,
    /// All events (site definitions included).
    pub events: u64,
    /// Bytes of all frames (the header excluded).
    pub frame_bytes: u64,
    /// Number of pauses: the steps a viewer shows.
    pub pauses: u64,
    /// Deepest push nesting.
    pub max_depth: u64,
    /// What a well-formed stream does not hold, each naming a byte offset:
    /// pops without a push, scopes never closed, sites used but never
    /// defined or defined twice differently. The viewer and `dump` read
    /// such streams anyway; an engine writing its own stream wants to know.
    pub problems: Vec<String>,
}

/// Counts events per kind and their bytes.
#[must_use]
pub fn stats(loaded: &Loaded) -> Stats {
    let mut s = Stats::default();
    let mut depth = 0u64;
    for (i, l) in loaded.recording.events.iter().enumerate() {
        let end = loaded
            .recording
            .events
            .get(i + 1)
            .map_or(loaded.file_len, |next| next.offset);
        let end = if loaded.error.is_some() && i + 1 == loaded.recording.events.len() {
            // The damaged tail is not part of the last frame.
            end.min(
                loaded
                    .error
                    .as_ref()
                    .and_then(|e| match e {
                        ReadError::Decode { source, .. } => Some(source.offset()),
                        ReadError::Io { .. } => None,
                    })
                    .unwrap_or(end),
            )
        } else {
            end
        };
        let bytes = end.saturating_sub(l.offset);
        let entry = s.kinds.entry(l.event.kind()).or_default();
        entry.0 += 1;
        entry.1 += bytes;
        s.events += 1;
        s.frame_bytes += bytes;
        match l.event {
            Event::Pause { .. } => s.pauses += 1,
            Event::Push { .. } => {
                depth += 1;
                s.max_depth = s.max_depth.max(depth);
            }
            Event::Pop { .. } => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    s.problems = problems(loaded);
    s
}

/// The stream's structural problems (see [`Stats::problems`]).
fn problems(loaded: &Loaded) -> Vec<String> {
    let events = &loaded.recording.events;
    let mut out = Vec::new();
    let mut open = Vec::new();
    let (mut stray, mut first_stray) = (0u64, 0);
    let mut defined = BTreeMap::new();
    // Per undefined site: the first byte it is used at and how often.
    let mut undefined: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    for l in events {
        match &l.event {
            Event::Site(def) => {
                if let Some((offset, earlier)) = defined.insert(def.id, (l.offset, def))
                    && earlier != def
                {
                    out.push(format!(
                        "site {} defined at byte {offset} is defined again differently at byte {}",
                        def.id, l.offset
                    ));
                }
            }
            Event::Push { .. } => open.push(l.offset),
            Event::Pop { .. } if open.pop().is_none() => {
                if stray == 0 {
                    first_stray = l.offset;
                }
                stray += 1;
            }
            _ => {}
        }
    }
    for l in events {
        if !defined.contains_key(&l.event.site()) {
            let e = undefined.entry(l.event.site()).or_insert((l.offset, 0));
            e.1 += 1;
        }
    }
    if stray > 0 {
        out.push(format!(
            "pops without a push: {stray} (the first at byte {first_stray})"
        ));
    }
    // A damaged file ends early: its open scopes are the damage, said elsewhere.
    if let (Some(first), None) = (open.first(), &loaded.error) {
        out.push(format!(
            "pushes never popped: {} (the outermost at byte {first})",
            open.len()
        ));
    }
    for (site, (offset, n)) in undefined {
        out.push(format!(
            "site {site} is never defined ({n} events, the first at byte {offset})"
        ));
    }
    out
}

/// Prints [`Stats`] as a small table.
///
/// # Errors
/// Writing to `out` failed.
pub fn print_stats(s: &Stats, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "{:<11} {:>10} {:>12} {:>10}",
        "kind", "events", "bytes", "bytes/ev"
    )?;
    for (kind, (n, bytes)) in &s.kinds {
        writeln!(
            out,
            "{:<11} {n:>10} {bytes:>12} {:>10.1}",
            kind.name(),
            *bytes as f64 / (*n).max(1) as f64
        )?;
    }
    writeln!(
        out,
        "{:<11} {:>10} {:>12} {:>10.1}",
        "total",
        s.events,
        s.frame_bytes,
        s.frame_bytes as f64 / s.events.max(1) as f64
    )?;
    writeln!(out, "pauses: {}  max push depth: {}", s.pauses, s.max_depth)?;
    for p in &s.problems {
        writeln!(out, "problem: {p}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_recorder as rec;

    fn recorded() -> Loaded {
        let ((), r) = rec::record(|| {
            rec::push!("outer");
            rec::point!(cso "w", [1.0f64, 2.0, 3.0]);
            rec::value!("bound", 0.5f32);
            rec::pause!("step");
            rec::pop!();
        });
        Loaded {
            recording: rec::decode(&r.bytes),
            file_len: r.bytes.len() as u64,
            error: None,
        }
    }

    #[test]
    fn dump_indents_by_push_depth_and_names_call_sites() {
        let mut out = Vec::new();
        dump(&recorded(), false, &mut out).expect("write to Vec");
        let text = String::from_utf8(out).expect("utf8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[0].contains("push \"outer\"") && lines[0].contains("src/dump.rs:"));
        assert!(
            lines[1].contains("  point cso \"w\" (1.0, 2.0, 3.0)"),
            "{}",
            lines[1]
        );
        assert!(lines[2].contains("value \"bound\" = 0.5f32"));
        assert!(
            lines[4]
                .trim_start()
                .starts_with(|c: char| c.is_ascii_digit())
        );
        assert!(
            lines[4].contains("  pop  @"),
            "pop is back at depth 0: {}",
            lines[4]
        );
    }

    #[test]
    fn json_lines_parse_and_stats_count_kinds() {
        let loaded = recorded();
        let mut out = Vec::new();
        dump(&loaded, true, &mut out).expect("write to Vec");
        for line in String::from_utf8(out).expect("utf8").lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("valid JSON");
            assert!(v["kind"].is_string() && v["offset"].is_u64());
        }
        let s = stats(&loaded);
        assert_eq!(s.pauses, 1);
        assert_eq!(s.kinds[&EventKind::Site].0, 5);
        assert_eq!(s.frame_bytes, loaded.file_len - 8);
        assert_eq!(s.max_depth, 1);
        assert_eq!(s.problems, Vec::<String>::new());
    }

    /// A NaN or infinite number (what an engine's bug often records) is
    /// `null` in a JSON line's `event` but kept in its `text`.
    #[test]
    fn json_lines_keep_nan_and_infinities_in_their_text() {
        let ((), r) = rec::record(|| {
            rec::point!(cso "w", [f64::NAN, f64::INFINITY, 1.0]);
            rec::value!("bound", f32::NEG_INFINITY);
        });
        let loaded = Loaded {
            recording: rec::decode(&r.bytes),
            file_len: r.bytes.len() as u64,
            error: None,
        };
        let mut out = Vec::new();
        dump(&loaded, true, &mut out).expect("write to Vec");
        let text = String::from_utf8(out).expect("utf8");
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("valid JSON"))
            .collect();
        let point = lines
            .iter()
            .find(|v| v["kind"] == "point")
            .expect("a point");
        let value = lines
            .iter()
            .find(|v| v["kind"] == "value")
            .expect("a value");
        assert!(point["event"].to_string().contains("null"), "{point}");
        let (pt, vt) = (
            point["text"].as_str().unwrap(),
            value["text"].as_str().unwrap(),
        );
        assert!(pt.contains("NaN") && pt.contains("inf"), "{pt}");
        assert!(vt.contains("-inf"), "{vt}");
    }

    /// A stream another engine wrote by hand, with every structural slip
    /// `stats` names: each problem is reported once, with its byte offset.
    #[test]
    fn stats_names_a_hand_written_streams_slips() {
        let site = |id, label: &str| {
            Event::Site(rec::SiteDef {
                id,
                file: "engine.c".into(),
                line: 10 + id,
                label: label.into(),
            })
        };
        let events = [
            site(1, "step"),
            Event::Pop { site: 1 },
            Event::Pop { site: 1 },
            Event::Push { site: 1 },
            Event::Text {
                site: 9,
                text: "?".into(),
            },
            Event::Pause { site: 9 },
            site(1, "renamed"),
            site(1, "renamed"),
        ];
        let bytes = rec::stream::encode_stream(&events);
        let recording = rec::decode(&bytes);
        let offsets: Vec<u64> = recording.events.iter().map(|l| l.offset).collect();
        let loaded = Loaded {
            recording,
            file_len: bytes.len() as u64,
            error: None,
        };
        let s = stats(&loaded);
        assert_eq!(
            s.problems,
            [
                format!(
                    "site 1 defined at byte {} is defined again differently at byte {}",
                    offsets[0], offsets[6]
                ),
                format!("pops without a push: 2 (the first at byte {})", offsets[1]),
                format!(
                    "pushes never popped: 1 (the outermost at byte {})",
                    offsets[3]
                ),
                format!(
                    "site 9 is never defined (2 events, the first at byte {})",
                    offsets[4]
                ),
            ]
        );
        let mut out = Vec::new();
        print_stats(&s, &mut out).expect("write to Vec");
        assert_eq!(
            String::from_utf8(out)
                .expect("utf8")
                .matches("problem: ")
                .count(),
            4
        );
    }
}
