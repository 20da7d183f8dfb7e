//! Where recordings come from: files, fixtures, folders, the bundled examples,
//! the recent-files list, and a watcher that notices changes on disk.

use crate::state::trace::Trace;
use cspace::fixture::{JSON_SUFFIX, RECORDING_SUFFIX};
use notify::Watcher as _;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

/// The examples embedded at build time from `fixtures/examples/*.cspace`.
pub mod bundled {
    include!(concat!(env!("OUT_DIR"), "/examples.rs"));
}

/// Why something could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// Reading failed.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A fixture without its recording beside it.
    #[error("fixture {fixture} has no recording beside it (expected {expected})")]
    NoRecording {
        /// The fixture file.
        fixture: PathBuf,
        /// The recording it should sit beside.
        expected: PathBuf,
    },
    /// Watching for changes failed.
    #[error("cannot watch {path}: {message}")]
    Watch {
        /// The path.
        path: PathBuf,
        /// notify's error.
        message: String,
    },
}

/// Whether the file name is a recording (`.cspace`) or a fixture (`.fixture.json`).
#[must_use]
pub fn is_openable(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    !name.starts_with('.') && (name.ends_with(RECORDING_SUFFIX) || name.ends_with(JSON_SUFFIX))
}

/// The recording to read for `path`: a fixture's sibling `NAME.cspace`, else `path`.
#[must_use]
pub fn recording_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.strip_suffix(JSON_SUFFIX) {
        Some(stem) => path.with_file_name(format!("{stem}{RECORDING_SUFFIX}")),
        None => path.to_path_buf(),
    }
}

/// Reads and indexes the recording for `path` (a `.cspace` file or a fixture).
///
/// # Errors
/// The file (or a fixture's recording) cannot be read. Damaged contents are not
/// an error: the trace keeps the valid prefix and names the problem.
pub fn load(path: &Path) -> Result<Trace, OpenError> {
    let rec = recording_path(path);
    if rec != path && !rec.exists() {
        return Err(OpenError::NoRecording {
            fixture: path.to_path_buf(),
            expected: rec,
        });
    }
    let bytes = cspace_recorder::read_file(&rec).map_err(|source| OpenError::Read {
        path: rec.clone(),
        source,
    })?;
    Ok(Trace::from_bytes(&bytes))
}

/// The two recordings of a `cspace fuzz` failure folder: its `pair.json`
/// names the failing query's recording (`subject`) and what it was compared
/// with (`reference`). `None` unless both exist.
#[must_use]
pub fn fuzz_pair(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let text = std::fs::read_to_string(dir.join("pair.json")).ok()?;
    let pair: serde_json::Value = serde_json::from_str(&text).ok()?;
    let file = |key: &str| {
        let name = pair.get(key)?.as_str()?;
        // Only a plain file name beside pair.json.
        let path = dir.join(Path::new(name).file_name()?);
        path.is_file().then_some(path)
    };
    Some((file("subject")?, file("reference")?))
}

/// The recordings and fixtures in `dir`, sorted by name. A fixture whose
/// recording is also listed is left out (opening either shows the same thing).
///
/// # Errors
/// The folder cannot be read.
pub fn list_folder(dir: &Path) -> Result<Vec<PathBuf>, OpenError> {
    let read = std::fs::read_dir(dir).map_err(|source| OpenError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut files: Vec<PathBuf> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && is_openable(p))
        .collect();
    files.sort();
    let recordings: Vec<PathBuf> = files
        .iter()
        .filter(|p| recording_path(p) == **p)
        .cloned()
        .collect();
    files.retain(|p| recording_path(p) == *p || !recordings.contains(&recording_path(p)));
    Ok(files)
}

/// An entry of a folder listing for browsing: a subfolder or an openable file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path.
    pub path: PathBuf,
    /// Whether it is a folder.
    pub is_dir: bool,
}

/// The subfolders and openable files of the folder `typed` names (or of
/// its parent, or of `.`), sorted, at most 500; empty when it cannot be read.
#[must_use]
pub fn browse(typed: &str) -> Vec<Entry> {
    let dir = PathBuf::from(typed.trim());
    let dir = if dir.is_dir() {
        dir
    } else {
        dir.parent().map(Path::to_path_buf).unwrap_or_default()
    };
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut entries: Vec<Entry> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() || is_openable(p))
        .map(|path| Entry {
            is_dir: path.is_dir(),
            path,
        })
        .collect();
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    entries.truncate(500);
    entries
}

/// Watches a file or folder; [`changed`](Self::changed) reports modifications.
pub struct Watch {
    _watcher: notify::RecommendedWatcher,
    rx: mpsc::Receiver<notify::Result<notify::Event>>,
    target: PathBuf,
    folder: bool,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("target", &self.target)
            .finish_non_exhaustive()
    }
}

impl Watch {
    /// Watches `path`: a folder for files appearing, or a file (through its
    /// folder, so atomic replacement by rename is seen too). `wake` is called
    /// from the watcher thread on every event (to request a repaint).
    ///
    /// # Errors
    /// The platform watcher could not be set up.
    pub fn new(path: &Path, wake: impl Fn() + Send + 'static) -> Result<Self, OpenError> {
        let folder = path.is_dir();
        let target = if folder {
            path.to_path_buf()
        } else {
            recording_path(path)
        };
        let dir = if folder {
            target.clone()
        } else {
            target
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        };
        let (tx, rx) = mpsc::channel();
        let err = |e: notify::Error| OpenError::Watch {
            path: dir.clone(),
            message: e.to_string(),
        };
        let mut watcher = notify::recommended_watcher(move |ev| {
            let _ = tx.send(ev);
            wake();
        })
        .map_err(err)?;
        watcher
            .watch(&dir, notify::RecursiveMode::NonRecursive)
            .map_err(err)?;
        Ok(Self {
            _watcher: watcher,
            rx,
            target,
            folder,
        })
    }

    /// Whether the watched file (or anything openable in the folder) changed
    /// since the last call.
    pub fn changed(&self) -> bool {
        let mut changed = false;
        while let Ok(ev) = self.rx.try_recv() {
            let Ok(ev) = ev else { continue };
            if matches!(ev.kind, notify::EventKind::Access(_)) {
                continue;
            }
            changed |= ev.paths.iter().any(|p| {
                if self.folder {
                    is_openable(p)
                } else {
                    p.file_name() == self.target.file_name()
                }
            });
        }
        changed
    }
}

/// The recently opened paths, newest first, kept in a small text file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    /// The paths.
    pub paths: Vec<PathBuf>,
    file: Option<PathBuf>,
}

impl Recent {
    /// Most entries kept.
    pub const MAX: usize = 10;

    /// The default list file: `$XDG_CONFIG_HOME/cspace-viewer/recent.txt` or `~/.config/…`.
    #[must_use]
    pub fn default_file() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
        Some(base.join("cspace-viewer").join("recent.txt"))
    }

    /// Loads the list from `file` (empty when it does not exist or is unreadable).
    #[must_use]
    pub fn load(file: Option<PathBuf>) -> Self {
        let paths = file
            .as_deref()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .map(|s| {
                s.lines()
                    .filter(|l| !l.is_empty())
                    .map(PathBuf::from)
                    .take(Self::MAX)
                    .collect()
            })
            .unwrap_or_default();
        Self { paths, file }
    }

    /// Moves `path` to the front and saves; saving errors are ignored (the list is a convenience).
    pub fn add(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.paths.retain(|p| *p != path);
        self.paths.insert(0, path);
        self.paths.truncate(Self::MAX);
        if let Some(file) = &self.file {
            if let Some(dir) = file.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let mut text = String::new();
            for p in &self.paths {
                let _ = writeln!(text, "{}", p.display());
            }
            let _ = std::fs::write(file, text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cspace-viewer-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn bytes() -> Vec<u8> {
        let ((), r) = cspace_recorder::record(|| {
            cspace_recorder::pause!("one");
        });
        r.bytes
    }

    #[test]
    fn files_fixtures_and_folders() {
        let dir = temp_dir("open");
        std::fs::write(dir.join("a.cspace"), bytes()).unwrap();
        std::fs::write(dir.join("a.fixture.json"), "{}").unwrap();
        std::fs::write(dir.join("b.fixture.json"), "{}").unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        assert_eq!(
            list_folder(&dir).unwrap(),
            vec![dir.join("a.cspace"), dir.join("b.fixture.json")]
        );
        assert_eq!(load(&dir.join("a.fixture.json")).unwrap().steps(), 1);
        assert!(matches!(
            load(&dir.join("b.fixture.json")),
            Err(OpenError::NoRecording { .. })
        ));
        assert!(matches!(
            load(&dir.join("missing.cspace")),
            Err(OpenError::Read { .. })
        ));
        assert!(list_folder(&dir.join("nope")).is_err());
        // Garbage is not an error: it opens empty with a banner.
        std::fs::write(dir.join("bad.cspace"), b"garbage").unwrap();
        assert!(load(&dir.join("bad.cspace")).unwrap().error.is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn browse_lists_folders_and_openable_files() {
        let dir = temp_dir("browse");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("b.cspace"), bytes()).unwrap();
        std::fs::write(dir.join("a.fixture.json"), "{}").unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        let names = |typed: &str| -> Vec<(PathBuf, bool)> {
            browse(typed)
                .into_iter()
                .map(|e| (e.path, e.is_dir))
                .collect()
        };
        let all = vec![
            (dir.join("a.fixture.json"), false),
            (dir.join("b.cspace"), false),
            (dir.join("sub"), true),
        ];
        assert_eq!(names(&dir.display().to_string()), all);
        // A partly typed name lists its folder.
        assert_eq!(names(&dir.join("b.cs").display().to_string()), all);
        assert!(names(&dir.join("nope/x").display().to_string()).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn watch_sees_replacement_and_new_files() {
        let dir = temp_dir("watch");
        let file = dir.join("r.cspace");
        std::fs::write(&file, bytes()).unwrap();
        let watch = Watch::new(&file, || {}).unwrap();
        let folder = Watch::new(&dir, || {}).unwrap();
        cspace_recorder::write_atomic(&file, &bytes()).unwrap();
        std::fs::write(dir.join("new.cspace"), bytes()).unwrap();
        let until = Instant::now() + Duration::from_secs(5);
        let (mut f, mut d) = (false, false);
        while Instant::now() < until && !(f && d) {
            std::thread::sleep(Duration::from_millis(50));
            f |= watch.changed();
            d |= folder.changed();
        }
        assert!(f && d, "file {f} folder {d}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn recent_files() {
        let dir = temp_dir("recent");
        let list = dir.join("sub/recent.txt");
        let mut r = Recent::load(Some(list.clone()));
        assert!(r.paths.is_empty());
        for i in 0..12 {
            r.add(&dir.join(format!("{i}.cspace")));
        }
        r.add(&dir.join("3.cspace"));
        assert_eq!(r.paths.len(), Recent::MAX);
        assert_eq!(r.paths[0], dir.join("3.cspace"));
        assert_eq!(Recent::load(Some(list)).paths, r.paths);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bundled_examples_decode() {
        for (name, bytes) in bundled::EXAMPLES {
            let t = Trace::from_bytes(bytes);
            assert!(t.error.is_none(), "{name}: {:?}", t.error);
        }
    }
}
