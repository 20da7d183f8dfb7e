//! Recording scopes: a thread-local buffer that the macros append to.
//!
//! Recording is off unless the current thread is inside [`record`] (or one of
//! its siblings). When no thread in the process records, a macro costs one
//! relaxed atomic load; when some other thread records, one more thread-local
//! flag read.

use crate::event::{Event, SiteDef};
use crate::stream;
use std::cell::{Cell, RefCell};
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

/// Number of threads currently recording, process-wide.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);
/// Next process-wide call-site id (0 means "not assigned yet").
static NEXT_SITE: AtomicU32 = AtomicU32::new(1);

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    /// Queries running on this thread while it records (see [`QueryGuard`]).
    static QUERIES: Cell<u32> = const { Cell::new(0) };
    static RECORDER: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

/// Whether the current thread is recording. This is the check every macro makes.
#[inline]
#[must_use]
pub fn is_on() -> bool {
    ACTIVE.load(Ordering::Relaxed) != 0 && ON.with(Cell::get)
}

/// A query running on this thread, for recording its answer once: a query
/// that calls another (EPA calling GJK, a signed distance calling both)
/// records only the outermost one's answer. Made by [`enter_query`]; it
/// counts only while the thread records, so not recording it costs the one
/// check every macro makes.
#[derive(Debug)]
#[must_use]
pub struct QueryGuard {
    outermost: bool,
    counted: bool,
}

/// Enters a query on this thread (see [`QueryGuard`]); it ends when the
/// guard drops, also at an early return or a panic. Inlined: not
/// recording, it is the one check, in queries of ~30 ns.
#[inline]
pub fn enter_query() -> QueryGuard {
    if !(crate::ENABLED && is_on()) {
        return QueryGuard {
            outermost: false,
            counted: false,
        };
    }
    let depth = QUERIES.with(|q| {
        let d = q.get();
        q.set(d + 1);
        d
    });
    QueryGuard {
        outermost: depth == 0,
        counted: true,
    }
}

impl QueryGuard {
    /// Whether this query records its answer: recording, and no other query
    /// of this thread is running around it.
    #[inline]
    #[must_use]
    pub fn outermost(&self) -> bool {
        self.outermost
    }
}

impl Drop for QueryGuard {
    #[inline]
    fn drop(&mut self) {
        if self.counted {
            QUERIES.with(|q| q.set(q.get().saturating_sub(1)));
        }
    }
}

/// A macro call site: file, line and label, given a process-wide id on first use.
///
/// Each macro expansion holds one of these in a `static`, so the site costs
/// nothing until it records and its strings are written once per stream.
#[derive(Debug)]
pub struct Site {
    /// Source file, as `file!()` gives it.
    pub file: &'static str,
    /// The package the site is in and its manifest folder (`CARGO_PKG_NAME`,
    /// `CARGO_MANIFEST_DIR`), when the macros made the site: the recorded
    /// file is then `package/path-in-package` wherever the crate was built.
    pub package: Option<(&'static str, &'static str)>,
    /// Source line.
    pub line: u32,
    /// The macro's label literal.
    pub label: &'static str,
    id: AtomicU32,
}

impl Site {
    /// A site not yet given an id; `file` is recorded as given.
    #[must_use]
    pub const fn new(file: &'static str, line: u32, label: &'static str) -> Self {
        Self {
            file,
            package: None,
            line,
            label,
            id: AtomicU32::new(0),
        }
    }

    /// A site in `package`, whose manifest is in `manifest_dir` (what the
    /// macros use): its file is recorded relative to the package.
    #[must_use]
    pub const fn in_package(
        package: &'static str,
        manifest_dir: &'static str,
        file: &'static str,
        line: u32,
        label: &'static str,
    ) -> Self {
        Self {
            file,
            package: Some((package, manifest_dir)),
            line,
            label,
            id: AtomicU32::new(0),
        }
    }

    /// The file as recorded: `package/path-in-package` for a site in a
    /// package, so a recording does not depend on where the crate was built
    /// (cargo gives `file!()` relative to the workspace for workspace members
    /// and absolute otherwise); else the file as given.
    #[must_use]
    pub fn recorded_file(&self) -> String {
        match self.package {
            Some((package, manifest_dir)) => {
                format!("{package}/{}", path_in_package(self.file, manifest_dir))
            }
            None => self.file.to_owned(),
        }
    }

    #[inline]
    fn global_id(&self) -> u32 {
        let id = self.id.load(Ordering::Relaxed);
        if id != 0 {
            return id;
        }
        let fresh = NEXT_SITE.fetch_add(1, Ordering::Relaxed);
        match self
            .id
            .compare_exchange(0, fresh, Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => fresh,
            Err(won) => won,
        }
    }
}

/// `file` relative to the package whose manifest folder is `manifest_dir`,
/// with `/` separators. `file` is absolute (under `manifest_dir`) or relative
/// to the workspace root, which is a folder above `manifest_dir`: then the
/// longest tail of `manifest_dir` that `file` starts with is the package's
/// place in the workspace (none for the root package).
fn path_in_package(file: &str, manifest_dir: &str) -> String {
    let file = file.replace('\\', "/");
    let manifest = manifest_dir.replace('\\', "/");
    let manifest = manifest.trim_end_matches('/');
    if let Some(rest) = file.strip_prefix(manifest)
        && rest.starts_with('/')
    {
        return rest.trim_start_matches('/').to_owned();
    }
    let parts: Vec<&str> = manifest.split('/').filter(|p| !p.is_empty()).collect();
    for k in 0..parts.len() {
        let tail = parts[k..].join("/");
        if let Some(rest) = file.strip_prefix(&tail)
            && rest.starts_with('/')
        {
            return rest.trim_start_matches('/').to_owned();
        }
    }
    file
}

/// Where a recording's bytes go as they are produced.
///
/// A file sink makes a recording crash-safe; a socket sink streams it live.
pub trait Sink: Send {
    /// Takes the stream header and complete frames, in order.
    ///
    /// # Errors
    /// An I/O error stops further writes to this sink; the in-memory copy is kept.
    fn write_frames(&mut self, bytes: &[u8]) -> io::Result<()>;

    /// Called right after a pause event was written: a live viewer's sink may
    /// block here until the user steps. Does nothing by default.
    fn after_pause(&mut self) {}
}

impl Sink for std::fs::File {
    fn write_frames(&mut self, bytes: &[u8]) -> io::Result<()> {
        // An unbuffered write per call: once it returns, the bytes are the
        // kernel's, and survive the process being killed.
        self.write_all(bytes)
    }
}

impl Sink for std::net::TcpStream {
    fn write_frames(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.write_all(bytes)
    }
}

impl Sink for Vec<u8> {
    fn write_frames(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

struct Recorder {
    /// Header and frames recorded so far.
    bytes: Vec<u8>,
    /// Process-wide site id → stream-local id + 1 (0: not defined in this stream).
    local: Vec<u32>,
    next_local: u32,
    sink: Option<Box<dyn Sink>>,
    /// How much of `bytes` the sink has been given.
    sent: usize,
    sink_error: Option<io::Error>,
}

impl Recorder {
    fn new(sink: Option<Box<dyn Sink>>) -> Self {
        let mut r = Self {
            bytes: stream::header().to_vec(),
            local: Vec::new(),
            next_local: 0,
            sink,
            sent: 0,
            sink_error: None,
        };
        r.flush_to_sink();
        r
    }

    #[inline]
    fn site(&mut self, site: &Site) -> u32 {
        let g = site.global_id() as usize;
        if let Some(&l) = self.local.get(g)
            && l != 0
        {
            return l - 1;
        }
        if self.local.len() <= g {
            self.local.resize(g + 1, 0);
        }
        let id = self.next_local;
        self.next_local += 1;
        self.local[g] = id + 1;
        stream::encode_event(
            &mut self.bytes,
            &Event::Site(SiteDef {
                id,
                file: site.recorded_file(),
                line: site.line,
                label: site.label.to_owned(),
            }),
        );
        id
    }

    fn flush_to_sink(&mut self) {
        if let Some(sink) = &mut self.sink
            && self.sink_error.is_none()
            && self.sent < self.bytes.len()
        {
            if let Err(e) = sink.write_frames(&self.bytes[self.sent..]) {
                self.sink_error = Some(e);
            }
            self.sent = self.bytes.len();
        }
    }
}

/// A finished recording: the complete stream bytes (header included).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recording {
    /// The stream, ready to write to a file.
    pub bytes: Vec<u8>,
}

impl Recording {
    /// Decodes the recording's events (a recording made here always decodes fully).
    #[must_use]
    pub fn events(&self) -> Vec<Event> {
        stream::decode(&self.bytes)
            .events
            .into_iter()
            .map(|l| l.event)
            .collect()
    }

    /// Writes the stream to `path` atomically (temporary file, then rename).
    ///
    /// # Errors
    /// Creating, writing or renaming the file failed.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        crate::write_atomic(path, &self.bytes)
    }
}

/// Restores the previous recorder of this thread when a recording ends, even by panic.
struct RecordingScope {
    previous: Option<Recorder>,
    was_on: bool,
}

impl RecordingScope {
    fn enter(sink: Option<Box<dyn Sink>>) -> Self {
        // With no sink asked for, stream to a live viewer if CSPACE_LIVE names one.
        let sink = sink.or_else(crate::live::sink_from_env);
        let previous = RECORDER.with(|r| r.borrow_mut().replace(Recorder::new(sink)));
        let was_on = ON.with(|on| on.replace(true));
        if !was_on {
            ACTIVE.fetch_add(1, Ordering::Relaxed);
        }
        Self { previous, was_on }
    }

    fn finish(mut self) -> (Recording, Option<io::Error>) {
        let rec = RECORDER.with(|r| r.borrow_mut().take());
        let (bytes, err) = rec.map_or_else(
            || (stream::header().to_vec(), None),
            |mut rec| {
                rec.flush_to_sink();
                (rec.bytes, rec.sink_error)
            },
        );
        let previous = self.previous.take();
        RECORDER.with(|r| *r.borrow_mut() = previous);
        (Recording { bytes }, err)
    }
}

impl Drop for RecordingScope {
    fn drop(&mut self) {
        if let Some(prev) = self.previous.take() {
            RECORDER.with(|r| *r.borrow_mut() = Some(prev));
        } else if RECORDER.with(|r| r.borrow().is_some()) && !self.was_on {
            RECORDER.with(|r| *r.borrow_mut() = None);
        }
        ON.with(|on| on.set(self.was_on));
        if !self.was_on {
            ACTIVE.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// Runs `f` with recording on for the current thread and returns its result and
/// the recording. Nested calls record separately and restore the outer one.
///
/// ```
/// let (sum, recording) = cspace_recorder::record(|| {
///     cspace_recorder::text!("adding");
///     1 + 2
/// });
/// assert_eq!(sum, 3);
/// # #[cfg(feature = "enabled")]
/// assert_eq!(recording.events().len(), 2); // the site definition and the text
/// ```
pub fn record<R>(f: impl FnOnce() -> R) -> (R, Recording) {
    let scope = RecordingScope::enter(None);
    let result = f();
    (result, scope.finish().0)
}

/// Like [`record`], but catches a panic in `f` so the recording up to the
/// panic is kept (a failing query saved as a fixture).
///
/// # Errors
/// The panic payload, if `f` panicked.
pub fn record_catching<R>(f: impl FnOnce() -> R) -> (std::thread::Result<R>, Recording) {
    let scope = RecordingScope::enter(None);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    (result, scope.finish().0)
}

/// Like [`record`], and also streams every event to `sink` as it is recorded.
///
/// The in-memory recording is complete even if the sink fails; the sink's first
/// error is returned.
pub fn record_to<R>(
    sink: Box<dyn Sink>,
    f: impl FnOnce() -> R,
) -> (R, Recording, Option<io::Error>) {
    let scope = RecordingScope::enter(Some(sink));
    let result = f();
    let (recording, err) = scope.finish();
    (result, recording, err)
}

/// Records `f` straight into the file at `path`, event by event, so a process
/// killed mid-query leaves every event recorded so far readable.
///
/// # Errors
/// Creating the file failed; later write errors are returned with the result.
pub fn record_to_file<R>(
    path: &Path,
    f: impl FnOnce() -> R,
) -> io::Result<(R, Recording, Option<io::Error>)> {
    let file = std::fs::File::create(path)?;
    Ok(record_to(Box::new(file), f))
}

/// Appends an event built by `make` to the current thread's recording, if any.
/// Used by the macros; `make` receives the stream-local site id.
///
/// Inlined: marking it `#[cold] #[inline(never)]` measured slightly worse
/// (more instructions on the not-recording path) in callgrind.
#[doc(hidden)]
#[inline]
pub fn emit(site: &Site, make: impl FnOnce(u32) -> Event) {
    RECORDER.with(|r| {
        if let Ok(mut guard) = r.try_borrow_mut()
            && let Some(rec) = guard.as_mut()
        {
            let id = rec.site(site);
            let event = make(id);
            stream::encode_event(&mut rec.bytes, &event);
            if rec.sink.is_some() {
                rec.flush_to_sink();
                if matches!(event, Event::Pause { .. })
                    && rec.sink_error.is_none()
                    && let Some(sink) = rec.sink.as_mut()
                {
                    sink.after_pause();
                }
            }
        }
    });
}

/// An open scope, made by [`scope!`](crate::scope!): records its pop when dropped.
#[must_use = "a scope closes when dropped: bind it, e.g. `let _iteration = scope!(…);`"]
#[derive(Debug)]
pub struct Scope {
    pop: Option<&'static Site>,
}

impl Scope {
    /// Records the push at the first site and keeps the second for the pop;
    /// `None` opens nothing. Called by [`scope!`](crate::scope!).
    #[doc(hidden)]
    pub fn open(sites: Option<(&'static Site, &'static Site)>) -> Self {
        let pop = sites.map(|(push, pop)| {
            emit(push, |site| Event::Push { site });
            pop
        });
        Self { pop }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        if let Some(pop) = self.pop {
            emit(pop, |site| Event::Pop { site });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static SITE: Site = Site::new("record.rs", 1, "t");

    #[test]
    fn off_outside_a_scope_and_restored_after_a_panic() {
        assert!(!is_on());
        let (r, rec) = record_catching(|| {
            assert!(is_on());
            emit(&SITE, |site| Event::Pause { site });
            panic!("query blew up");
        });
        assert!(r.is_err());
        assert!(!is_on());
        assert_eq!(
            rec.events().len(),
            2,
            "site definition and pause survive the panic"
        );
    }

    #[test]
    fn nested_scopes_record_separately() {
        use crate::EventKind::{Pause, Pop, Site};
        let ((), outer) = record(|| {
            emit(&SITE, |site| Event::Pause { site });
            let ((), inner) = record(|| emit(&SITE, |site| Event::Push { site }));
            assert_eq!(inner.events().len(), 2);
            assert!(is_on());
            emit(&SITE, |site| Event::Pop { site });
        });
        let kinds: Vec<_> = outer.events().iter().map(Event::kind).collect();
        assert_eq!(kinds, vec![Site, Pause, Pop]);
    }

    /// A scope closes where its guard drops: at an early return and when the
    /// closure panics, and `scope!(label, false)` records nothing.
    #[cfg(feature = "enabled")]
    #[test]
    fn scopes_close_on_early_return_and_panic() {
        fn early(stop: bool) -> u32 {
            let _scope = crate::scope!("outer");
            if stop {
                return 1;
            }
            crate::pause!("inside");
            2
        }
        let kinds = |r: &Recording| -> Vec<&'static str> {
            r.events()
                .iter()
                .filter(|e| !matches!(e, Event::Site(_)))
                .map(|e| match e {
                    Event::Push { .. } => "push",
                    Event::Pop { .. } => "pop",
                    Event::Pause { .. } => "pause",
                    _ => "other",
                })
                .collect()
        };
        let (_, r) = record(|| early(true));
        assert_eq!(kinds(&r), ["push", "pop"]);
        let (_, r) = record(|| early(false));
        assert_eq!(kinds(&r), ["push", "pause", "pop"]);
        let (result, r) = record_catching(|| {
            let _scope = crate::scope!("panics");
            panic!("inside a scope");
        });
        assert!(result.is_err());
        assert_eq!(kinds(&r), ["push", "pop"]);
        let ((), r) = record(|| {
            let _off = crate::scope!("off", false);
        });
        assert!(kinds(&r).is_empty());
    }

    /// A site records the same file whether cargo gave `file!()` relative to
    /// the workspace (a member) or absolute (a dependency built elsewhere).
    #[test]
    fn recorded_files_do_not_depend_on_where_the_crate_was_built() {
        let in_workspace = Site::in_package("cspace", "/work/main", "src/collide/gjk.rs", 1, "");
        let as_dependency = Site::in_package(
            "cspace",
            "/home/u/.cargo/git/checkouts/cspace/main",
            "/home/u/.cargo/git/checkouts/cspace/main/src/collide/gjk.rs",
            1,
            "",
        );
        assert_eq!(in_workspace.recorded_file(), "cspace/src/collide/gjk.rs");
        assert_eq!(as_dependency.recorded_file(), in_workspace.recorded_file());
        let member = Site::in_package(
            "cspace-recorder",
            "/w/ws/recorder",
            "recorder/src/record.rs",
            1,
            "",
        );
        let member_elsewhere = Site::in_package(
            "cspace-recorder",
            "/x/recorder",
            "/x/recorder/src/record.rs",
            1,
            "",
        );
        assert_eq!(member.recorded_file(), "cspace-recorder/src/record.rs");
        assert_eq!(member_elsewhere.recorded_file(), member.recorded_file());
        let windows = Site::in_package(
            "cspace",
            "C:\\w\\cspace",
            "C:\\w\\cspace\\src\\gjk.rs",
            1,
            "",
        );
        assert_eq!(windows.recorded_file(), "cspace/src/gjk.rs");
        assert_eq!(Site::new("engine.c", 3, "").recorded_file(), "engine.c");
    }
}
