//! The events a recording is made of: plain data, serialised with bincode.
//!
//! Every event names its call site by a small per-stream id. The first time a
//! site is used in a stream a [`Event::Site`] definition precedes it, so file
//! names and labels are written once per recording, not once per event.

use serde::{Deserialize, Serialize};

/// A 3-vector as the algorithm computed it, in its own precision.
///
/// f32 values stay f32 so a viewer can show their exact bits; widening to f64
/// (see [`Vec3Data::to_f64`]) is exact.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Vec3Data {
    /// Single precision coordinates.
    F32([f32; 3]),
    /// Double precision coordinates.
    F64([f64; 3]),
}

impl Vec3Data {
    /// The coordinates widened to f64 (exact for f32).
    #[inline]
    #[must_use]
    pub fn to_f64(self) -> [f64; 3] {
        match self {
            Self::F32(v) => v.map(f64::from),
            Self::F64(v) => v,
        }
    }

    /// The precision the vector was recorded in.
    #[must_use]
    pub fn precision(self) -> Precision {
        match self {
            Self::F32(_) => Precision::F32,
            Self::F64(_) => Precision::F64,
        }
    }

    /// Whether the two vectors have the same precision and identical bits.
    #[must_use]
    pub fn bit_eq(self, other: Self) -> bool {
        match (self, other) {
            (Self::F32(a), Self::F32(b)) => a.map(f32::to_bits) == b.map(f32::to_bits),
            (Self::F64(a), Self::F64(b)) => a.map(f64::to_bits) == b.map(f64::to_bits),
            _ => false,
        }
    }
}

/// A scalar as the algorithm computed it, in its own precision.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Scalar {
    /// Single precision.
    F32(f32),
    /// Double precision.
    F64(f64),
}

impl Scalar {
    /// The value widened to f64 (exact for f32).
    #[inline]
    #[must_use]
    pub fn to_f64(self) -> f64 {
        match self {
            Self::F32(v) => f64::from(v),
            Self::F64(v) => v,
        }
    }

    /// Whether the two scalars have the same precision and identical bits.
    #[must_use]
    pub fn bit_eq(self, other: Self) -> bool {
        match (self, other) {
            (Self::F32(a), Self::F32(b)) => a.to_bits() == b.to_bits(),
            (Self::F64(a), Self::F64(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}

/// A floating-point precision: of recorded values, and the one a query runs
/// in (`"f32"` / `"f64"` in JSON; f64 by default). Not part of any event, so
/// its serde form is free of the stream format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// `f32`.
    F32,
    /// `f64` (the default).
    #[default]
    F64,
}

impl Precision {
    /// `"f32"` or `"f64"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::F64 => "f64",
        }
    }
}

impl std::fmt::Display for Precision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which view a drawable belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Space {
    /// World space: the two shapes and their witness points.
    #[default]
    Object,
    /// Configuration space: the Minkowski difference A − B and the simplex.
    Config,
}

/// An sRGBA colour, unmultiplied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rgba(pub [u8; 4]);

impl Rgba {
    /// Red: new support points, the face being expanded.
    pub const RED: Self = Self([230, 60, 50, 255]);
    /// Green: closest points, accepted results.
    pub const GREEN: Self = Self([60, 190, 80, 255]);
    /// Blue: search directions and normals.
    pub const BLUE: Self = Self([70, 120, 240, 255]);
    /// Yellow: portals and highlights.
    pub const YELLOW: Self = Self([240, 200, 40, 255]);
    /// Orange: the second shape's witnesses.
    pub const ORANGE: Self = Self([245, 140, 30, 255]);
    /// Purple: polytopes.
    pub const PURPLE: Self = Self([170, 90, 220, 255]);
    /// Grey: context that is not the focus.
    pub const GREY: Self = Self([150, 150, 150, 255]);
    /// White.
    pub const WHITE: Self = Self([255, 255, 255, 255]);
}

/// A vertex of the configuration-space simplex and the support points behind it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CsoVertex {
    /// The configuration-space point `a - b`.
    pub w: Vec3Data,
    /// Support point on shape A (world space).
    pub a: Vec3Data,
    /// Support point on shape B (world space).
    pub b: Vec3Data,
}

/// The geometry of a convex shape, enough for a viewer to draw it and its
/// support function. All sizes are in the shape's local frame.
///
/// Variant and field names are the JSON query names (`"box"`,
/// `"half_extents"`); bincode encodes variants by index, so the names are
/// free of the stream format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum ShapeGeom {
    /// A single point at the local origin.
    Point,
    /// A sphere of `radius` around the local origin.
    Sphere {
        /// Radius.
        radius: f64,
    },
    /// An axis-aligned box.
    Box {
        /// Half the edge lengths along x, y, z.
        half_extents: [f64; 3],
    },
    /// A capsule along the local Y axis.
    Capsule {
        /// Half the length of the core segment.
        half_height: f64,
        /// Radius around the segment.
        radius: f64,
    },
    /// A cylinder along the local Y axis.
    Cylinder {
        /// Half the height.
        half_height: f64,
        /// Radius of the caps.
        radius: f64,
    },
    /// A cone along the local Y axis, apex at `+half_height`.
    Cone {
        /// Half the height.
        half_height: f64,
        /// Radius of the base at `-half_height`.
        radius: f64,
    },
    /// The convex hull of points (any number, degenerate sets allowed).
    Hull {
        /// The points; the hull is what they span.
        #[serde(deserialize_with = "bounded_vec")]
        points: Vec<[f64; 3]>,
    },
    /// A triangle mesh; its convex hull is the shape.
    Mesh {
        /// Vertex positions.
        #[serde(deserialize_with = "bounded_vec")]
        vertices: Vec<[f64; 3]>,
        /// Triangles as vertex indices.
        #[serde(deserialize_with = "bounded_vec")]
        triangles: Vec<[u32; 3]>,
    },
}

/// A shape placed in the world: geometry, margin and pose.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShapeDecl {
    /// The core geometry.
    pub geom: ShapeGeom,
    /// Radius of the sphere the core is Minkowski-summed with (0 for none).
    pub margin: f64,
    /// World position of the local origin.
    pub position: [f64; 3],
    /// World rotation as a unit quaternion `[x, y, z, w]`.
    pub rotation: [f64; 4],
}

/// A call site, defined once per stream and then referred to by id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteDef {
    /// The id events use for this site, dense from 0 in each stream.
    pub id: u32,
    /// Source file of the macro call.
    pub file: String,
    /// Line of the macro call.
    pub line: u32,
    /// The macro's label literal (scope name, point name, value series name).
    pub label: String,
}

/// One recorded event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// Defines a call site; precedes the first event that uses it.
    Site(SiteDef),
    /// Opens a scope: what is drawn until the matching [`Event::Pop`] disappears there.
    Push {
        /// Call site (its label names the scope).
        site: u32,
    },
    /// Closes the innermost open scope.
    Pop {
        /// Call site.
        site: u32,
    },
    /// A step: the viewer stops here.
    Pause {
        /// Call site (its label says why).
        site: u32,
    },
    /// A line of text for the log.
    Text {
        /// Call site.
        site: u32,
        /// The formatted text.
        text: String,
    },
    /// A point.
    Point {
        /// Call site (its label names the point).
        site: u32,
        /// Which view.
        space: Space,
        /// Colour, or the viewer's default.
        color: Option<Rgba>,
        /// Position.
        p: Vec3Data,
    },
    /// A line segment.
    Line {
        /// Call site.
        site: u32,
        /// Which view.
        space: Space,
        /// Colour, or the viewer's default.
        color: Option<Rgba>,
        /// Start.
        a: Vec3Data,
        /// End.
        b: Vec3Data,
    },
    /// A triangle.
    Triangle {
        /// Call site.
        site: u32,
        /// Which view.
        space: Space,
        /// Colour, or the viewer's default.
        color: Option<Rgba>,
        /// Vertices in counter-clockwise order seen from outside.
        v: [Vec3Data; 3],
    },
    /// The configuration-space simplex with the support points behind each vertex.
    Simplex {
        /// Call site.
        site: u32,
        /// 0 to 4 vertices.
        #[serde(deserialize_with = "bounded_vec")]
        vertices: Vec<CsoVertex>,
    },
    /// A named scalar, one sample of a per-iteration series (the site label names it).
    Value {
        /// Call site.
        site: u32,
        /// The sample.
        value: Scalar,
    },
    /// Declares the query's two shapes (and A's motion for sweeps).
    Shapes {
        /// Call site.
        site: u32,
        /// Shape A (boxed to keep `Event` small; encoded as a plain `ShapeDecl`).
        a: Box<ShapeDecl>,
        /// Shape B.
        b: Box<ShapeDecl>,
        /// Translation of A over t ∈ [0, 1] for sweeps.
        motion: Option<[f64; 3]>,
    },
    /// What the query answered (format version 2): drawn from here on, until
    /// the next query's shapes.
    Answer {
        /// Call site.
        site: u32,
        /// The answer (boxed to keep `Event` small; encoded as a plain `Answer`).
        answer: Box<Answer>,
    },
    /// How far the query's answer is proven (format version 3): follows its
    /// `Answer`, which the viewer shows it with.
    Certificate {
        /// Call site.
        site: u32,
        /// The certificate (boxed to keep `Event` small; encoded as a plain
        /// `Certificate`).
        certificate: Box<Certificate>,
    },
}

/// How far a query's answer is proven, as the query itself states it: the
/// viewer shows it beside the answer so a wrong number can be told from an
/// uncertified one. Names are the engine's own (cspace writes the names
/// `cspace eval` gives its `Status` and `Witness`: `"converged"`,
/// `"not_unique"`, …).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    /// How the query ended, e.g. `"converged"` (its certificate meets the
    /// stated tolerance; the viewer compares it without case),
    /// `"max_iterations"`, `"degenerate"`.
    pub status: String,
    /// Support evaluations made.
    pub iterations: u32,
    /// The interval proven to hold the answer's number (the distance, the
    /// depth, the time of impact), lower then upper; `None` where the query
    /// proves none (an intersect test).
    pub bounds: Option<[Scalar; 2]>,
    /// How far the answer's points and normal can be trusted, e.g.
    /// `"unique"`, `"not_unique"`, `"approximate"`; `None` where the query
    /// does not say.
    pub witness: Option<String>,
    /// A proven bound in radians on the angle between the answer's normal
    /// and every true normal (π: none); `None` where the query has none.
    pub normal_within: Option<Scalar>,
}

/// One line: the status, the bounds with their gap, what the points and
/// normal are worth, the evaluations. Every digit, as [`Answer`]'s; the
/// names with control characters escaped (a writer's `"\n"` stays on the
/// line).
impl std::fmt::Display for Certificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn s(s: &Scalar) -> String {
            match s {
                Scalar::F32(x) => format!("{x:?}f32"),
                Scalar::F64(x) => format!("{x:?}"),
            }
        }
        write!(f, "{}", self.status.escape_debug())?;
        if let Some([lo, hi]) = &self.bounds {
            let gap = hi.to_f64() - lo.to_f64();
            let gap = if gap == 0.0 {
                "0".to_owned()
            } else {
                format!("{gap:.3e}")
            };
            write!(f, " | in [{}, {}] (gap {gap})", s(lo), s(hi))?;
        }
        if let Some(w) = &self.witness {
            write!(f, " | points {}", w.escape_debug())?;
        }
        if let Some(n) = &self.normal_within {
            write!(f, " | normal within {} rad", s(n))?;
        }
        write!(f, " | {} support evaluations", self.iterations)
    }
}

/// A query's result, as the viewer draws it at the query's end. Vectors are
/// in world space at the algorithm's precision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// A distance query.
    Distance {
        /// The distance (0 when touching or overlapping).
        distance: Scalar,
        /// The closest point on A.
        point_a: Vec3Data,
        /// The closest point on B.
        point_b: Vec3Data,
        /// Unit direction from A to B (zero when it is not defined).
        normal: Vec3Data,
    },
    /// A penetration query (overlapping shapes).
    Penetration {
        /// How far A and B overlap along `normal`.
        depth: Scalar,
        /// Unit direction along which moving B by `depth` separates them.
        normal: Vec3Data,
        /// The deepest point of A inside B.
        point_a: Vec3Data,
        /// The deepest point of B inside A.
        point_b: Vec3Data,
    },
    /// A sweep (A moving by its motion over t ∈ [0, 1]).
    Sweep {
        /// Whether A hits B before t = 1.
        hit: bool,
        /// The time of impact (1 without a hit).
        toi: Scalar,
        /// Unit contact normal from A to B at impact (zero without a hit).
        normal: Vec3Data,
        /// The contact point at impact.
        point: Vec3Data,
        /// A's position at impact.
        position_a: Vec3Data,
    },
    /// A boolean intersection test.
    Intersect {
        /// Whether the shapes overlap (touching counts).
        intersecting: bool,
        /// A separating axis from A toward B, when apart and one was found.
        axis: Option<Vec3Data>,
    },
}

/// Every digit: the shortest text that reads back to the same bits (f32
/// values marked `f32`).
impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn v(v: &Vec3Data) -> String {
            match v {
                Vec3Data::F32([x, y, z]) => format!("({x:?}, {y:?}, {z:?})f32"),
                Vec3Data::F64([x, y, z]) => format!("({x:?}, {y:?}, {z:?})"),
            }
        }
        fn s(s: &Scalar) -> String {
            match s {
                Scalar::F32(x) => format!("{x:?}f32"),
                Scalar::F64(x) => format!("{x:?}"),
            }
        }
        match self {
            Self::Distance {
                distance,
                point_a,
                point_b,
                normal,
            } => write!(
                f,
                "distance {} | on A {} | on B {} | normal {}",
                s(distance),
                v(point_a),
                v(point_b),
                v(normal)
            ),
            Self::Penetration {
                depth,
                normal,
                point_a,
                point_b,
            } => write!(
                f,
                "penetration depth {} | normal {} | on A {} | on B {}",
                s(depth),
                v(normal),
                v(point_a),
                v(point_b)
            ),
            Self::Sweep {
                hit: false,
                toi,
                position_a,
                ..
            } => write!(
                f,
                "sweep: no hit (toi {}) | A ends at {}",
                s(toi),
                v(position_a)
            ),
            Self::Sweep {
                hit: true,
                toi,
                normal,
                point,
                position_a,
            } => write!(
                f,
                "sweep hit at toi {} | normal {} | contact {} | A at {}",
                s(toi),
                v(normal),
                v(point),
                v(position_a)
            ),
            Self::Intersect { intersecting, axis } => match axis {
                Some(a) => write!(
                    f,
                    "intersect: intersecting {intersecting} | separating axis {}",
                    v(a)
                ),
                None => write!(f, "intersect: intersecting {intersecting}"),
            },
        }
    }
}

impl Answer {
    /// The query's kind, as `cspace eval` names it.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Distance { .. } => "distance",
            Self::Penetration { .. } => "penetration",
            Self::Sweep { .. } => "sweep",
            Self::Intersect { .. } => "intersect",
        }
    }
}

impl Event {
    /// The call site the event refers to (for a definition, the site it defines).
    #[must_use]
    pub fn site(&self) -> u32 {
        match self {
            Self::Site(def) => def.id,
            Self::Push { site }
            | Self::Pop { site }
            | Self::Pause { site }
            | Self::Text { site, .. }
            | Self::Point { site, .. }
            | Self::Line { site, .. }
            | Self::Triangle { site, .. }
            | Self::Simplex { site, .. }
            | Self::Value { site, .. }
            | Self::Shapes { site, .. }
            | Self::Answer { site, .. }
            | Self::Certificate { site, .. } => *site,
        }
    }

    /// A short lowercase name of the event kind, as `cspace stats` prints it.
    #[must_use]
    pub fn kind(&self) -> EventKind {
        match self {
            Self::Site(_) => EventKind::Site,
            Self::Push { .. } => EventKind::Push,
            Self::Pop { .. } => EventKind::Pop,
            Self::Pause { .. } => EventKind::Pause,
            Self::Text { .. } => EventKind::Text,
            Self::Point { .. } => EventKind::Point,
            Self::Line { .. } => EventKind::Line,
            Self::Triangle { .. } => EventKind::Triangle,
            Self::Simplex { .. } => EventKind::Simplex,
            Self::Value { .. } => EventKind::Value,
            Self::Shapes { .. } => EventKind::Shapes,
            Self::Answer { .. } => EventKind::Answer,
            Self::Certificate { .. } => EventKind::Certificate,
        }
    }
}

/// The kind of an [`Event`], without its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventKind {
    /// [`Event::Site`]
    Site,
    /// [`Event::Push`]
    Push,
    /// [`Event::Pop`]
    Pop,
    /// [`Event::Pause`]
    Pause,
    /// [`Event::Text`]
    Text,
    /// [`Event::Point`]
    Point,
    /// [`Event::Line`]
    Line,
    /// [`Event::Triangle`]
    Triangle,
    /// [`Event::Simplex`]
    Simplex,
    /// [`Event::Value`]
    Value,
    /// [`Event::Shapes`]
    Shapes,
    /// [`Event::Answer`]
    Answer,
    /// [`Event::Certificate`]
    Certificate,
}

impl EventKind {
    /// Every kind, in stream-tag order.
    pub const ALL: [Self; 13] = [
        Self::Site,
        Self::Push,
        Self::Pop,
        Self::Pause,
        Self::Text,
        Self::Point,
        Self::Line,
        Self::Triangle,
        Self::Simplex,
        Self::Value,
        Self::Shapes,
        Self::Answer,
        Self::Certificate,
    ];

    /// Lowercase name, e.g. `"point"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Site => "site",
            Self::Push => "push",
            Self::Pop => "pop",
            Self::Pause => "pause",
            Self::Text => "text",
            Self::Point => "point",
            Self::Line => "line",
            Self::Triangle => "triangle",
            Self::Simplex => "simplex",
            Self::Value => "value",
            Self::Shapes => "shapes",
            Self::Answer => "answer",
            Self::Certificate => "certificate",
        }
    }
}

/// Deserialises a sequence without trusting its declared length for the
/// allocation: elements are pushed as they decode (from a small start), so a
/// corrupt length inside a short frame costs what the frame holds, not what
/// it claims. (serde's own `Vec` reserves up to 1 MiB from the claim.)
fn bounded_vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Elements<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Elements<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(16));
            while let Some(x) = seq.next_element()? {
                out.push(x);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Elements(std::marker::PhantomData))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_prints_on_one_line_with_every_digit() {
        let c = Certificate {
            status: "two\nlines".into(),
            iterations: 9,
            bounds: Some([Scalar::F32(0.5), Scalar::F32(0.75)]),
            witness: Some("tab\there".into()),
            normal_within: Some(Scalar::F64(1e-9)),
        };
        assert_eq!(
            c.to_string(),
            "two\\nlines | in [0.5f32, 0.75f32] (gap 2.500e-1) | points tab\\there \
             | normal within 1e-9 rad | 9 support evaluations"
        );
    }
}
