//! `cspace eval`: JSON lines in, JSON lines out.
//!
//! Each non-blank input line is one [`Query`](cspace::model::Query); each
//! produces one output line with the same `id`: `{"id":…,"ok":true,…}` with
//! the [`Answer`] fields, or `{"id":…,"ok":false,
//! "error":"…"}` naming the offending field (prefixed by the line number
//! when the query has no id). Bad lines never stop the stream.

use cspace::model::{self as query, Answer, QueryError};
use serde_json::{Map, Value, json};
use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

/// Options of one `eval` run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Run each query this many times and report the mean `time_ns`.
    pub repeat: Option<u32>,
    /// Write one recording per query to `DIR/<id>.cspace` (or `line<N>` without
    /// id; a name taken earlier in the run gets `~2`, `~3`, … so no recording
    /// of the run overwrites another).
    pub record: Option<PathBuf>,
    /// Record every query so it streams to the viewer named by `CSPACE_LIVE`
    /// (set from the environment by [`cli`]), with or without `record`.
    pub live: bool,
    /// The longest input line read (0: [`MAX_LINE`]); a longer one is
    /// answered with an error and skipped in bounded memory.
    pub max_line: usize,
}

/// Evaluates every line of `input`, writing one output line per query.
/// Returns the number of queries that failed.
///
/// # Errors
/// Reading the input or writing the output failed.
pub fn run(
    mut input: impl BufRead,
    mut output: impl Write,
    options: &Options,
) -> io::Result<usize> {
    let mut failed = 0;
    let mut bytes = Vec::new();
    let mut taken = Taken::default();
    let max_line = if options.max_line == 0 {
        MAX_LINE
    } else {
        options.max_line
    };
    for number in 1.. {
        bytes.clear();
        if input
            .by_ref()
            .take(max_line as u64 + 1)
            .read_until(b'\n', &mut bytes)?
            == 0
        {
            break;
        }
        // A line that is not UTF-8 or too long gets its own error answer;
        // the run goes on.
        let long = bytes.len() > max_line;
        if long && bytes.last() != Some(&b'\n') {
            skip_line(&mut input)?;
        }
        let out = match std::str::from_utf8(&bytes) {
            _ if long => json!({
                "id": Value::Null,
                "ok": false,
                "error": format!("line {number}: longer than {max_line} bytes (--max-line)"),
            }),
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => eval_line(
                line.trim_end_matches(['\n', '\r']),
                number,
                options,
                &mut taken,
            ),
            Err(e) => json!({
                "id": Value::Null,
                "ok": false,
                "error": format!("line {number}: not UTF-8 at byte {}", e.valid_up_to()),
            }),
        };
        if out.get("ok") == Some(&Value::Bool(false)) {
            failed += 1;
        }
        serde_json::to_writer(&mut output, &out)?;
        output.write_all(b"\n")?;
    }
    output.flush()?;
    Ok(failed)
}

/// The longest input line `run` reads by default (256 MiB: a hull of about
/// five million points); a longer one is answered with an error and
/// skipped, in bounded memory.
pub const MAX_LINE: usize = 256 << 20;

/// Discards `input` up to and including the next newline.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            return Ok(());
        }
        let n = buf.len();
        input.consume(n);
    }
}

/// The output object for one input line (`number` counts from 1). `taken`
/// holds the recordings' names already written in this run.
fn eval_line(line: &str, number: usize, options: &Options, taken: &mut Taken) -> Value {
    let raw = query::parse_value(line);
    let id = match &raw {
        Ok(v) => v.get("id").cloned(),
        Err(_) => query::salvage_id(line),
    }
    .unwrap_or(Value::Null);
    let fail = |e: &QueryError| {
        let where_ = if id.is_null() {
            format!("line {number}: ")
        } else {
            String::new()
        };
        json!({"id": id, "ok": false, "error": format!("{where_}{e}")})
    };
    let q = match raw.and_then(|v| query::from_value(&v)) {
        Ok(q) => q,
        Err(e) => return fail(&e),
    };
    let mut saved = None;
    let result = if options.record.is_some() || options.live {
        // Recorded: `record()` also streams to CSPACE_LIVE when it is set.
        let (answer, recording) = query::run_recorded(&q);
        let name = q.id.clone().unwrap_or_else(|| format!("line{number}"));
        if let Some(dir) = &options.record
            && answer.is_ok()
        {
            let path = recording_path(dir, &name, taken);
            if let Err(e) = recording.save(&path) {
                return json!({"id": id, "ok": false, "error": format!("writing the recording of {name} to {}: {e}", path.display())});
            }
            saved = Some(path);
        }
        match (answer, options.repeat) {
            (Ok(a), Some(n)) => query::run_timed(&q, n).map(|(_, ns)| (a, Some(ns))),
            (a, _) => a.map(|a| (a, None)),
        }
    } else {
        match options.repeat {
            Some(n) => query::run_timed(&q, n).map(|(a, ns)| (a, Some(ns))),
            None => query::run(&q).map(|a| (a, None)),
        }
    };
    match result {
        Ok((answer, ns)) => success(&id, &answer, ns, saved.as_deref()),
        Err(e) => fail(&e),
    }
}

/// The recordings' names written in one run, in lower case (as
/// case-insensitive file systems compare them), and per name the next
/// `~N` suffix to try, so repeated ids cost no more than new ones.
#[derive(Default)]
struct Taken {
    names: HashSet<String>,
    next: HashMap<String, u32>,
}

/// `DIR/<name>.cspace`, with path separators in `name` replaced, and `~2`,
/// `~3`, … appended to a name already `taken` in the run; the name chosen
/// joins `taken`.
fn recording_path(dir: &Path, name: &str, taken: &mut Taken) -> PathBuf {
    let safe: String = name
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c == '\0' {
                '_'
            } else {
                c
            }
        })
        .collect();
    let safe = if safe.is_empty() || safe == "." || safe == ".." {
        format!("_{safe}")
    } else {
        safe
    };
    let key = safe.to_lowercase();
    if taken.names.insert(key.clone()) {
        return dir.join(format!("{safe}.cspace"));
    }
    let next = taken.next.entry(key).or_insert(2);
    loop {
        let candidate = format!("{safe}~{next}");
        *next += 1;
        if taken.names.insert(candidate.to_lowercase()) {
            return dir.join(format!("{candidate}.cspace"));
        }
    }
}

fn success(id: &Value, answer: &Answer, ns: Option<f64>, recording: Option<&Path>) -> Value {
    let mut out = Map::new();
    out.insert("id".to_owned(), id.clone());
    out.insert("ok".to_owned(), Value::Bool(true));
    if let Ok(Value::Object(fields)) = serde_json::to_value(answer) {
        out.extend(fields);
    }
    if let Some(ns) = ns {
        out.insert("time_ns".to_owned(), json!(ns));
    }
    if let Some(path) = recording {
        out.insert("recording".to_owned(), json!(path.display().to_string()));
    }
    Value::Object(out)
}

/// The `cspace eval` command: reads `file` (`-` for stdin), writes to stdout.
/// Fails (exit code 1) only when the input cannot be read or the output
/// written; bad queries are reported in the output and counted on stderr.
#[must_use]
pub fn cli(file: &str, options: &Options) -> std::process::ExitCode {
    let mut options = options.clone();
    options.live = std::env::var_os(cspace_recorder::live::LIVE_ENV).is_some_and(|v| !v.is_empty());
    let options = &options;
    let stdout = io::stdout().lock();
    let result = if file == "-" {
        run(io::stdin().lock(), stdout, options)
    } else {
        match std::fs::File::open(file) {
            Ok(f) => run(io::BufReader::new(f), stdout, options),
            Err(e) => Err(e),
        }
    };
    match result {
        Ok(0) => std::process::ExitCode::SUCCESS,
        Ok(n) => {
            eprintln!("cspace eval: {n} queries failed");
            std::process::ExitCode::SUCCESS
        }
        Err(e) if file == "-" => {
            eprintln!("cspace eval: {e}");
            std::process::ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("cspace eval: {file}: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
