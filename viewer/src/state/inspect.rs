//! Exact number formatting for the inspector: 17 significant digits, the bits
//! in hexadecimal (f32 values as f32), distances and ULP differences.

use cspace_recorder::{Scalar, Vec3Data};

/// A value with 17 significant digits (enough to round-trip an f64).
#[must_use]
pub fn sig17(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    format!("{v:.16e}")
}

/// A scalar's bits in hexadecimal, at its own width.
#[must_use]
pub fn hex(v: Scalar) -> String {
    match v {
        Scalar::F32(x) => format!("0x{:08x}", x.to_bits()),
        Scalar::F64(x) => format!("0x{:016x}", x.to_bits()),
    }
}

/// The coordinates of a vector as scalars at their own precision.
#[must_use]
pub fn components(v: Vec3Data) -> [Scalar; 3] {
    match v {
        Vec3Data::F32(a) => a.map(Scalar::F32),
        Vec3Data::F64(a) => a.map(Scalar::F64),
    }
}

/// Euclidean distance of `v` from the origin, computed in f64.
#[must_use]
pub fn distance_to_origin(v: Vec3Data) -> f64 {
    let [x, y, z] = v.to_f64();
    (x * x + y * y + z * z).sqrt()
}

/// The number of representable values between `a` and `b` (signed, `b − a`),
/// in f32 units when both are f32, else in f64 units; `None` if either is NaN.
#[must_use]
pub fn ulps(a: Scalar, b: Scalar) -> Option<i128> {
    cspace_recorder::diff::ulp_difference(a, b)
}

/// The inspector lines for a vector: each coordinate with 17 digits and its
/// bits, then the distance to the origin.
#[must_use]
pub fn describe_vec(v: Vec3Data) -> Vec<String> {
    let precision = match v {
        Vec3Data::F32(_) => "f32",
        Vec3Data::F64(_) => "f64",
    };
    let mut lines: Vec<String> = components(v)
        .iter()
        .zip(["x", "y", "z"])
        .map(|(s, axis)| format!("{axis} = {:>24}  {}", sig17(s.to_f64()), hex(*s)))
        .collect();
    lines.push(format!(
        "|p| = {}  ({precision})",
        sig17(distance_to_origin(v))
    ));
    lines
}

/// The inspector lines for a query's answer: every number with 17 digits
/// and its bits, every vector as [`describe_vec`] shows it.
#[must_use]
pub fn describe_answer(a: &cspace_recorder::Answer) -> Vec<String> {
    use cspace_recorder::Answer;
    let scalar = |name: &str, v: Scalar| format!("{name} = {}  {}", sig17(v.to_f64()), hex(v));
    let vector = |name: &str, v: Vec3Data| {
        std::iter::once(format!("{name}:"))
            .chain(describe_vec(v).into_iter().map(|l| format!("  {l}")))
            .collect::<Vec<_>>()
    };
    let mut lines = vec![format!("answer ({})", a.kind())];
    match a {
        Answer::Distance {
            distance,
            point_a,
            point_b,
            normal,
        } => {
            lines.push(scalar("distance", *distance));
            lines.extend(vector("closest on A", *point_a));
            lines.extend(vector("closest on B", *point_b));
            lines.extend(vector("normal", *normal));
        }
        Answer::Penetration {
            depth,
            normal,
            point_a,
            point_b,
        } => {
            lines.push(scalar("depth", *depth));
            lines.extend(vector("normal", *normal));
            lines.extend(vector("deepest on A", *point_a));
            lines.extend(vector("deepest on B", *point_b));
        }
        Answer::Sweep {
            hit,
            toi,
            normal,
            point,
            position_a,
        } => {
            lines.push(format!("hit = {hit}"));
            lines.push(scalar("toi", *toi));
            lines.extend(vector("normal", *normal));
            lines.extend(vector("contact", *point));
            lines.extend(vector("A at impact", *position_a));
        }
        Answer::Intersect { intersecting, axis } => {
            lines.push(format!("intersecting = {intersecting}"));
            if let Some(x) = axis {
                lines.extend(vector("separating axis", *x));
            }
        }
    }
    lines
}

/// The per-coordinate ULP differences `b − a`.
#[must_use]
pub fn describe_ulps(a: Vec3Data, b: Vec3Data) -> String {
    let parts: Vec<String> = components(a)
        .iter()
        .zip(components(b))
        .zip(["x", "y", "z"])
        .map(|((x, y), axis)| match ulps(*x, y) {
            Some(u) => format!("{axis} {u:+}"),
            None => format!("{axis} NaN"),
        })
        .collect();
    format!("ULPs b − a: {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(sig17(0.1), "1.0000000000000001e-1");
        assert_eq!(sig17(0.0), "0");
        assert_eq!(hex(Scalar::F32(1.0)), "0x3f800000");
        assert_eq!(hex(Scalar::F64(1.0)), "0x3ff0000000000000");
        let lines = describe_vec(Vec3Data::F32([3.0, 4.0, 0.0]));
        assert!(lines[0].contains("0x40400000"));
        assert!(lines[3].starts_with("|p| = 5.0000000000000000e0"));
        assert!(lines[3].contains("f32"));
    }

    #[test]
    fn ulp_differences() {
        let one = 1.0f64;
        let next = f64::from_bits(one.to_bits() + 3);
        assert_eq!(ulps(Scalar::F64(one), Scalar::F64(next)), Some(3));
        assert_eq!(ulps(Scalar::F64(next), Scalar::F64(one)), Some(-3));
        assert_eq!(ulps(Scalar::F64(-0.0), Scalar::F64(0.0)), Some(0));
        let tiny = f64::from_bits(1);
        assert_eq!(ulps(Scalar::F64(-tiny), Scalar::F64(tiny)), Some(2));
        assert_eq!(
            ulps(
                Scalar::F32(1.0),
                Scalar::F32(f32::from_bits(1.0f32.to_bits() + 1))
            ),
            Some(1)
        );
        assert_eq!(ulps(Scalar::F32(f32::NAN), Scalar::F32(1.0)), None);
        assert_eq!(
            ulps(Scalar::F64(f64::MIN), Scalar::F64(f64::MAX)).map(i128::signum),
            Some(1)
        );
        let s = describe_ulps(
            Vec3Data::F64([1.0, 2.0, 3.0]),
            Vec3Data::F64([1.0, 2.0, next + 2.0]),
        );
        assert!(s.starts_with("ULPs b − a: x +0, y +0, z +"));
    }
}
