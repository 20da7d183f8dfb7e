//! Record the steps of a geometric algorithm so a viewer can replay them.
//!
//! Put one macro line per idea into the algorithm; run it inside [`record`] to
//! get the steps as a compact binary stream; open the stream in `cspace-viewer`.
//!
//! ```
//! use cspace_recorder as rec;
//!
//! fn closest_on_segment(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
//!     rec::push!("segment");
//!     rec::line!(cso "segment", a, b);
//!     let ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
//!     let t = -(a[0] * ab[0] + a[1] * ab[1] + a[2] * ab[2])
//!         / (ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]);
//!     let t = t.clamp(0.0, 1.0);
//!     rec::value!("t", t);
//!     let p = [a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]];
//!     rec::point!(cso "closest", p, rec::Rgba::GREEN);
//!     rec::text!("t = {t}");
//!     rec::pause!("closest point");
//!     rec::pop!();
//!     p
//! }
//!
//! let (p, recording) = rec::record(|| closest_on_segment([-1.0, 1.0, 0.0], [1.0, 1.0, 0.0]));
//! assert_eq!(p, [0.0, 1.0, 0.0]);
//! # #[cfg(feature = "enabled")]
//! assert!(recording.events().iter().any(|e| matches!(e, rec::Event::Pause { .. })));
//! // recording.save(std::path::Path::new("segment.cspace"))?;
//! ```
//!
//! # The two switches
//! - The cargo feature `enabled` (default) decides whether the macros exist.
//!   Without it they expand to `if false { … }`: arguments are type-checked,
//!   never evaluated, and the code is removed.
//! - Compiled in, a macro records only on a thread inside [`record`] (or
//!   [`record_catching`], [`record_to`], [`record_to_file`]). Elsewhere it costs
//!   one relaxed atomic load (see `cargo bench -p cspace-recorder`).
//!
//! Threads record independently into thread-local buffers.
//!
//! # Reading
//! [`decode`] turns stream bytes into events and keeps the valid prefix of a
//! damaged stream; [`StreamDecoder`] decodes a stream that arrives in pieces.
//! The byte layout is documented in [`stream`].

mod decl;
pub mod diff;
mod event;
pub mod live;
mod macros;
mod record;
pub mod stream;

pub use decl::Param;
pub use event::{
    Answer, Certificate, CsoVertex, Event, EventKind, Precision, Rgba, Scalar, ShapeDecl,
    ShapeGeom, SiteDef, Space, Vec3Data,
};
pub use record::{
    QueryGuard, Recording, Scope, Sink, Site, emit, enter_query, is_on, record, record_catching,
    record_to, record_to_file,
};
pub use stream::{
    DecodeError, Decoded, FILE_EXTENSION, FILE_SUFFIX, Located, StreamDecoder, decode,
    decode_reader, read_file,
};

use std::io::{self, Write as _};

/// Whether the macros are compiled in (the `enabled` feature of this crate, as
/// unified across the whole build — a user's own feature flag may say otherwise).
pub const ENABLED: bool = cfg!(feature = "enabled");
use std::path::Path;

/// Anything the macros accept as a 3-vector.
pub trait IntoVec3 {
    /// The vector in its own precision.
    fn into_vec3(self) -> Vec3Data;
}

impl IntoVec3 for Vec3Data {
    #[inline]
    fn into_vec3(self) -> Vec3Data {
        self
    }
}
impl IntoVec3 for [f32; 3] {
    #[inline]
    fn into_vec3(self) -> Vec3Data {
        Vec3Data::F32(self)
    }
}
impl IntoVec3 for [f64; 3] {
    #[inline]
    fn into_vec3(self) -> Vec3Data {
        Vec3Data::F64(self)
    }
}
impl IntoVec3 for (f32, f32, f32) {
    #[inline]
    fn into_vec3(self) -> Vec3Data {
        Vec3Data::F32([self.0, self.1, self.2])
    }
}
impl IntoVec3 for (f64, f64, f64) {
    #[inline]
    fn into_vec3(self) -> Vec3Data {
        Vec3Data::F64([self.0, self.1, self.2])
    }
}
impl<T: IntoVec3 + Copy> IntoVec3 for &T {
    #[inline]
    fn into_vec3(self) -> Vec3Data {
        (*self).into_vec3()
    }
}
#[cfg(feature = "glam")]
impl IntoVec3 for glam::Vec3 {
    #[inline]
    fn into_vec3(self) -> Vec3Data {
        Vec3Data::F32(self.to_array())
    }
}
#[cfg(feature = "glam")]
impl IntoVec3 for glam::Vec3A {
    #[inline]
    fn into_vec3(self) -> Vec3Data {
        Vec3Data::F32(self.to_array())
    }
}
#[cfg(feature = "glam")]
impl IntoVec3 for glam::DVec3 {
    #[inline]
    fn into_vec3(self) -> Vec3Data {
        Vec3Data::F64(self.to_array())
    }
}

/// Anything the macros accept as a scalar.
pub trait IntoScalar {
    /// The scalar in its own precision.
    fn into_scalar(self) -> Scalar;
}
impl IntoScalar for f32 {
    #[inline]
    fn into_scalar(self) -> Scalar {
        Scalar::F32(self)
    }
}
impl IntoScalar for f64 {
    #[inline]
    fn into_scalar(self) -> Scalar {
        Scalar::F64(self)
    }
}
impl IntoScalar for Scalar {
    #[inline]
    fn into_scalar(self) -> Scalar {
        self
    }
}
impl IntoScalar for usize {
    #[inline]
    fn into_scalar(self) -> Scalar {
        Scalar::F64(self as f64)
    }
}
impl IntoScalar for u32 {
    #[inline]
    fn into_scalar(self) -> Scalar {
        Scalar::F64(f64::from(self))
    }
}

/// Collects `(w, a, b)` triples into simplex vertices (used by [`simplex!`]).
#[doc(hidden)]
pub fn cso_vertices<V: IntoVec3>(vertices: impl IntoIterator<Item = (V, V, V)>) -> Vec<CsoVertex> {
    vertices
        .into_iter()
        .map(|(w, a, b)| CsoVertex {
            w: w.into_vec3(),
            a: a.into_vec3(),
            b: b.into_vec3(),
        })
        .collect()
}

/// Writes `bytes` to `path` atomically: a uniquely named temporary file in the
/// same folder, synced, then renamed over `path`. Readers never see a partial file.
///
/// # Errors
/// Creating, writing, syncing or renaming failed; the temporary file is removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)?;
    }
    let name = path
        .file_name()
        .map_or_else(|| "cspace".into(), |n| n.to_string_lossy().into_owned());
    let tmp_name = format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let tmp = dir.map_or_else(|| Path::new(&tmp_name).to_path_buf(), |d| d.join(&tmp_name));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
