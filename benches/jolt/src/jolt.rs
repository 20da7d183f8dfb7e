//! Jolt Physics 5.0.0 through `shim.cpp`: shapes from the scenes' specs, and
//! whole passes of a query over an array of scenes (one foreign call a pass).

use crate::scenes::{Scene, Spec};
use glam::{DQuat, DVec3};
use std::ffi::c_void;
use std::time::Instant;

/// How `build.rs` compiles Jolt (its `CMake` defaults for x86-64, Distribution).
pub const BUILD_FLAGS: &str = "g++ -std=c++17 -O3 -mavx2 -mbmi -mpopcnt -mlzcnt -mf16c -mfma -mfpmath=sse -ffp-contract=off, NDEBUG, JPH_USE_{AVX2,AVX,SSE4_1,SSE4_2,LZCNT,TZCNT,F16C,FMADD}, no profiler, no debug renderer, no LTO";

/// Jolt's `cDefaultConvexRadius`.
const DEFAULT_CONVEX_RADIUS: f32 = 0.05;
/// `ConvexHullShapeSettings::mHullTolerance`'s default.
const DEFAULT_HULL_TOLERANCE: f32 = 1e-3;

/// A query kind of `jolt_run`.
#[derive(Clone, Copy)]
pub enum Kind {
    Intersect = 0,
    Distance = 1,
    Penetration = 2,
    /// The per-query set-up alone.
    Setup = 3,
}

/// One scene as `shim.cpp`'s `Scene`: two shapes and their centre-of-mass
/// transforms (rotation x, y, z, w; position).
#[repr(C)]
pub struct RawScene {
    a: *const c_void,
    b: *const c_void,
    qa: [f32; 4],
    pa: [f32; 3],
    qb: [f32; 4],
    pb: [f32; 3],
}

mod ffi {
    use super::RawScene;
    use std::ffi::c_void;

    unsafe extern "C" {
        pub fn jolt_init();
        pub fn jolt_box(hx: f32, hy: f32, hz: f32, convex_radius: f32) -> *const c_void;
        pub fn jolt_cylinder(half_height: f32, radius: f32, convex_radius: f32) -> *const c_void;
        pub fn jolt_capsule(half_height: f32, radius: f32) -> *const c_void;
        pub fn jolt_sphere(radius: f32) -> *const c_void;
        pub fn jolt_hull(
            xyz: *const f32,
            n: i32,
            convex_radius: f32,
            hull_tolerance: f32,
        ) -> *const c_void;
        pub fn jolt_shape_info(shape: *const c_void, com: *mut f32, convex_radius: *mut f32)
        -> i32;
        pub fn jolt_release(shape: *const c_void);
        pub fn jolt_run(
            kind: i32,
            variant: i32,
            scenes: *const RawScene,
            n: usize,
            out: *mut f32,
            normals: *mut f32,
        );
    }
}

/// Registers Jolt's allocator, factory and types (once).
pub fn init() {
    // SAFETY: no arguments; the shim guards against a second registration.
    unsafe { ffi::jolt_init() }
}

/// A Jolt shape (one reference held), with its centre of mass in its own
/// frame and, for hulls, how many input points it kept.
struct JoltShape {
    ptr: *const c_void,
    com: [f32; 3],
    points: Option<(usize, usize)>,
}

impl JoltShape {
    /// Jolt's shape for `spec`: exact (convex radius 0, hull tolerance 0) or
    /// with Jolt's defaults. None for a cone (Jolt 5.0 has none).
    fn new(spec: &Spec, default_radius: bool) -> Option<Self> {
        let f = |x: f64| x as f32;
        let (radius, tolerance) = if default_radius {
            (DEFAULT_CONVEX_RADIUS, DEFAULT_HULL_TOLERANCE)
        } else {
            (0.0, 0.0)
        };
        let mut points = None;
        // SAFETY: plain values in; the shim returns a shape with one
        // reference for us, or null (a failed hull, checked below).
        let ptr = unsafe {
            match spec {
                Spec::Cuboid(h) => ffi::jolt_box(f(h[0]), f(h[1]), f(h[2]), radius),
                Spec::Cylinder(hh, r) => ffi::jolt_cylinder(f(*hh), f(*r), radius),
                Spec::Capsule(hh, r) => ffi::jolt_capsule(f(*hh), f(*r)),
                Spec::Sphere(r) => ffi::jolt_sphere(f(*r)),
                Spec::Hull(ps) => {
                    let xyz: Vec<f32> = ps.iter().flat_map(|p| p.map(f)).collect();
                    points = Some((ps.len(), 0));
                    ffi::jolt_hull(
                        xyz.as_ptr(),
                        i32::try_from(ps.len()).expect("few points"),
                        radius,
                        tolerance,
                    )
                }
                Spec::Cone(..) => return None,
            }
        };
        assert!(!ptr.is_null(), "Jolt refused a shape: {spec:?}");
        let mut com = [0.0_f32; 3];
        let mut convex_radius = 0.0_f32;
        // SAFETY: `ptr` is a live shape; the outputs are 3 and 1 floats.
        let kept = unsafe { ffi::jolt_shape_info(ptr, com.as_mut_ptr(), &raw mut convex_radius) };
        if let Some(p) = &mut points {
            p.1 = usize::try_from(kept).expect("a count");
        }
        Some(Self { ptr, com, points })
    }
}

impl Drop for JoltShape {
    fn drop(&mut self) {
        // SAFETY: releases the reference taken in `new`, once.
        unsafe { ffi::jolt_release(self.ptr) }
    }
}

/// Jolt's copy of a scene set: its shapes and the scenes pointing at them.
pub struct Scenes {
    raw: Vec<RawScene>,
    /// Owns the shapes `raw` points at.
    shapes: Vec<JoltShape>,
}

/// A pose as Jolt's body holds it: rotation and centre-of-mass position
/// (A's origin plus its rotated centre of mass, computed in f64).
fn body(pose: &([f64; 3], [f64; 4]), com: [f32; 3]) -> ([f32; 4], [f32; 3]) {
    let q = DQuat::from_array(pose.1).normalize();
    let p = DVec3::from_array(pose.0) + q * DVec3::from_array(com.map(f64::from));
    (
        q.to_array().map(|x| x as f32),
        p.to_array().map(|x| x as f32),
    )
}

impl Scenes {
    /// Jolt's shapes and poses for `sc` (which must hold no cone).
    pub fn new(sc: &[Scene], default_radius: bool) -> Self {
        let mut shapes = Vec::with_capacity(2 * sc.len());
        let mut raw = Vec::with_capacity(sc.len());
        for s in sc {
            let a = JoltShape::new(&s.a, default_radius).expect("no cones here");
            let b = JoltShape::new(&s.b, default_radius).expect("no cones here");
            let (qa, pa) = body(&s.pa, a.com);
            let (qb, pb) = body(&s.pb, b.com);
            raw.push(RawScene {
                a: a.ptr,
                b: b.ptr,
                qa,
                pa,
                qb,
                pb,
            });
            shapes.push(a);
            shapes.push(b);
        }
        Self { raw, shapes }
    }

    /// How many hull input points Jolt's hulls dropped, if any.
    pub fn hull_points_lost(&self) -> Option<usize> {
        let lost: usize = self
            .shapes
            .iter()
            .filter_map(|s| s.points)
            .map(|(given, kept)| given - kept)
            .sum();
        (lost > 0).then_some(lost)
    }

    /// One pass of `kind` (variant 0 or 1) over the scenes, an answer per
    /// scene in `out`, the world normal in `normals` (penetration).
    pub fn run(&self, kind: Kind, variant: i32, out: &mut [f32], normals: Option<&mut [f32]>) {
        assert_eq!(out.len(), self.raw.len());
        let normals = normals.map_or(std::ptr::null_mut(), |n| {
            assert_eq!(n.len(), 3 * self.raw.len());
            n.as_mut_ptr()
        });
        // SAFETY: the scenes point at shapes `self` owns; `out` has one
        // float per scene and `normals` three, or is null.
        unsafe {
            ffi::jolt_run(
                kind as i32,
                variant,
                self.raw.as_ptr(),
                self.raw.len(),
                out.as_mut_ptr(),
                normals,
            );
        }
    }

    /// Best-of-`passes` ns per query of the set-up alone.
    pub fn setup_ns(&self, passes: usize) -> f64 {
        let mut out = vec![0.0_f32; self.raw.len()];
        let mut best = f64::INFINITY;
        for _ in 0..passes {
            let t = Instant::now();
            self.run(Kind::Setup, 0, &mut out, None);
            best = best.min(t.elapsed().as_secs_f64() * 1e9 / self.raw.len() as f64);
        }
        best
    }
}
