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

/// The most characters of a certificate's status or witness name shown.
pub const NAME_MAX_CHARS: usize = 64;

/// The inspector lines for an answer's certificate: the status, the proven
/// interval digit for digit with its gap (absolute, relative to the upper
/// bound, and in ULPs), what the points and normal are worth.
#[must_use]
pub fn describe_certificate(c: &cspace_recorder::Certificate) -> Vec<String> {
    let scalar = |name: &str, v: Scalar| format!("{name} = {}  {}", sig17(v.to_f64()), hex(v));
    // A writer's names are shown cut to a line (a hostile one may be megabytes).
    let name = |s: &str| super::trace::clip(s, NAME_MAX_CHARS);
    let mut lines = vec![format!("certificate: {}", name(&c.status))];
    if let Some([lo, hi]) = c.bounds {
        lines.push(scalar("  lower", lo));
        lines.push(scalar("  upper", hi));
        let gap = hi.to_f64() - lo.to_f64();
        let rel = gap / hi.to_f64().abs();
        let ulps = ulps(lo, hi).map_or_else(|| "NaN".into(), |u| u.to_string());
        if gap == 0.0 {
            lines.push("  gap = 0: the bounds meet".into());
        } else if rel.is_finite() {
            lines.push(format!(
                "  gap = {gap:.3e} ({rel:.3e} of the upper), {ulps} ULPs"
            ));
        } else {
            lines.push(format!("  gap = {gap:.3e}, {ulps} ULPs"));
        }
    } else {
        lines.push("  no proven interval".into());
    }
    if let Some(w) = &c.witness {
        lines.push(format!("  points and normal: {}", name(w)));
    }
    if let Some(n) = c.normal_within {
        let n64 = n.to_f64();
        if n64 >= std::f64::consts::PI * 0.999 {
            lines.push("  normal within π rad: no proven bound".into());
        } else {
            lines.push(format!("  normal within {n64:.3e} rad  {}", hex(n)));
        }
    }
    lines.push(format!("  {} support evaluations", c.iterations));
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
    #[test]
    fn a_certificate_lists_its_interval_gap_and_bounds() {
        use cspace_recorder::Certificate;
        let c = Certificate {
            status: "degenerate".into(),
            iterations: 40,
            bounds: Some([Scalar::F64(1.0), Scalar::F64(1.0 + 4.0 * f64::EPSILON)]),
            witness: Some("approximate".into()),
            normal_within: Some(Scalar::F64(std::f64::consts::PI)),
        };
        let lines = describe_certificate(&c);
        assert_eq!(lines[0], "certificate: degenerate");
        assert!(lines[1].starts_with("  lower = 1.0000000000000000e0  0x3ff0000000000000"));
        assert_eq!(
            lines[3],
            "  gap = 8.882e-16 (8.882e-16 of the upper), 4 ULPs"
        );
        assert_eq!(lines[4], "  points and normal: approximate");
        assert_eq!(lines[5], "  normal within π rad: no proven bound");
        assert_eq!(lines[6], "  40 support evaluations");
        let none = Certificate {
            bounds: Some([Scalar::F32(0.5), Scalar::F32(0.5)]),
            normal_within: Some(Scalar::F32(1e-4)),
            witness: None,
            ..c
        };
        let lines = describe_certificate(&none);
        assert_eq!(lines[3], "  gap = 0: the bounds meet");
        assert!(
            lines[4].starts_with("  normal within 1.000e-4 rad  0x"),
            "{lines:?}"
        );
        let hostile = Certificate {
            status: "x".repeat(1 << 20),
            witness: Some("two\nlines".into()),
            ..none.clone()
        };
        let lines = describe_certificate(&hostile);
        assert!(lines[0].len() < 120, "{}", lines[0].len());
        assert!(lines[0].ends_with("more characters)"), "{}", lines[0]);
        assert!(
            lines
                .iter()
                .any(|l| l.ends_with("two … (6 more characters)")),
            "{lines:?}"
        );
        let intersect = Certificate {
            bounds: None,
            normal_within: None,
            ..none
        };
        assert_eq!(
            describe_certificate(&intersect),
            [
                "certificate: degenerate",
                "  no proven interval",
                "  40 support evaluations"
            ]
        );
    }

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
