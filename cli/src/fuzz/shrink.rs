//! Shrinking a failing query: fewer hull points, simpler shapes, no margins,
//! smaller rotations and rounder numbers, each step kept only while the
//! query still fails the same way.

use super::geom;
use cspace::model::{Precision, Query};
use cspace_recorder::{ShapeDecl, ShapeGeom};

/// The most candidate queries one shrink tries.
pub const BUDGET: usize = 400;

/// Shrinks `q` while `fails` holds, trying at most `budget` candidates.
/// Returns the smallest failing query found and the number of steps taken.
pub fn shrink(q: &Query, budget: usize, mut fails: impl FnMut(&Query) -> bool) -> (Query, usize) {
    let mut best = q.clone();
    let mut tried = 0;
    let mut steps = 0;
    loop {
        let mut progressed = false;
        for candidate in candidates(&best) {
            if tried >= budget {
                return (best, steps);
            }
            if candidate == best || candidate.validate().is_err() {
                continue;
            }
            tried += 1;
            if fails(&candidate) {
                best = candidate;
                steps += 1;
                progressed = true;
                break;
            }
        }
        if !progressed {
            return (best, steps);
        }
    }
}

/// Simpler versions of `q`, most aggressive first.
fn candidates(q: &Query) -> Vec<Query> {
    let mut out = Vec::new();
    for which in [0, 1] {
        let d = if which == 0 { &q.a } else { &q.b };
        let mut push = |f: &dyn Fn(&mut ShapeDecl)| {
            let mut c = q.clone();
            f(if which == 0 { &mut c.a } else { &mut c.b });
            if c.precision == Precision::F32 {
                geom::round_to_f32(&mut c);
            }
            out.push(c);
        };
        // Fewer hull points: halves, then each point.
        if let ShapeGeom::Hull { points } = &d.geom {
            let n = points.len();
            if n > 1 {
                for keep in [0..n / 2, n / 2..n, 0..n.div_ceil(2) + n / 4] {
                    let kept: Vec<_> = points[keep].to_vec();
                    if !kept.is_empty() && kept.len() < n {
                        push(&|s| {
                            s.geom = ShapeGeom::Hull {
                                points: kept.clone(),
                            }
                        });
                    }
                }
                if n <= 48 {
                    for i in 0..n {
                        let mut kept = points.clone();
                        kept.remove(i);
                        push(&|s| {
                            s.geom = ShapeGeom::Hull {
                                points: kept.clone(),
                            }
                        });
                    }
                }
            }
        }
        // Simpler shapes of about the same size.
        let size = size_of(&d.geom).max(1e-3);
        let simpler = [
            ShapeGeom::Point,
            ShapeGeom::Sphere { radius: size },
            ShapeGeom::Box {
                half_extents: [size; 3],
            },
        ];
        for g in simpler {
            if rank(&g) < rank(&d.geom) {
                push(&|s| s.geom = g.clone());
            }
        }
        if d.margin != 0.0 {
            push(&|s| s.margin = 0.0);
        }
        // Smaller rotations: none, then half the angle.
        if d.rotation != ShapeDecl::IDENTITY {
            push(&|s| s.rotation = ShapeDecl::IDENTITY);
            push(&|s| s.rotation = half_rotation(s.rotation));
        }
        // Rounder numbers.
        for digits in [1, 2, 3, 6] {
            push(&|s| {
                s.position = s.position.map(|x| round(x, digits));
                round_geom(&mut s.geom, digits);
                s.margin = round(s.margin, digits);
            });
        }
    }
    if let Some(t) = q.translation {
        for digits in [1, 2, 3, 6] {
            let mut c = q.clone();
            c.translation = Some(t.map(|x| round(x, digits)));
            out.push(c);
        }
    }
    out
}

/// How complex a shape kind is: a point, a sphere, a box, anything else.
fn rank(g: &ShapeGeom) -> u8 {
    match g {
        ShapeGeom::Point => 0,
        ShapeGeom::Sphere { .. } => 1,
        ShapeGeom::Box { .. } => 2,
        _ => 3,
    }
}

/// A rough size of a shape: its largest parameter.
fn size_of(g: &ShapeGeom) -> f64 {
    g.numbers().into_iter().fold(0.0_f64, |m, x| m.max(x.abs()))
}

/// `x` rounded to `digits` significant decimal digits.
fn round(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let e = x.abs().log10().floor() as i32;
    let k = 10f64.powi(digits - 1 - e);
    let r = (x * k).round() / k;
    if r.is_finite() { r } else { x }
}

fn round_geom(g: &mut ShapeGeom, digits: i32) {
    let f = |x: f64| round(x, digits);
    match g {
        ShapeGeom::Point => {}
        ShapeGeom::Sphere { radius } => *radius = f(*radius),
        ShapeGeom::Box { half_extents } => *half_extents = half_extents.map(f),
        ShapeGeom::Capsule {
            half_height,
            radius,
        }
        | ShapeGeom::Cylinder {
            half_height,
            radius,
        }
        | ShapeGeom::Cone {
            half_height,
            radius,
        } => {
            *half_height = f(*half_height);
            *radius = f(*radius);
        }
        ShapeGeom::Hull { points }
        | ShapeGeom::Mesh {
            vertices: points, ..
        } => {
            for p in points {
                *p = p.map(f);
            }
        }
    }
}

/// The rotation by half the angle of `q` about the same axis.
fn half_rotation(q: [f64; 4]) -> [f64; 4] {
    let w = if q[3] < 0.0 { q.map(|c| -c) } else { q };
    let s = [w[0], w[1], w[2], w[3] + 1.0];
    let n = s.iter().map(|c| c * c).sum::<f64>().sqrt();
    if n > 0.0 { s.map(|c| c / n) } else { q }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace::model::QueryKind;

    #[test]
    fn rounds_to_significant_digits() {
        assert_eq!(round(1234.5678, 2), 1200.0);
        assert_eq!(round(-0.012_345, 1), -0.01);
        assert_eq!(round(0.0, 3), 0.0);
    }

    #[test]
    fn shrinks_a_hull_while_a_property_holds() {
        let points: Vec<[f64; 3]> = (0..40)
            .map(|i| {
                let t = f64::from(i) * 0.7;
                [t.sin() * 1.234_567, t.cos() * 0.987_654, (t * 0.3).sin()]
            })
            .collect();
        let q = Query {
            id: None,
            query: QueryKind::Distance,
            precision: Precision::F64,
            algorithm: None,
            a: ShapeDecl::new(ShapeGeom::Hull { points }),
            b: ShapeDecl::new(ShapeGeom::Sphere { radius: 0.5 })
                .at([3.123_456, 0.0, 0.0], ShapeDecl::IDENTITY),
            translation: None,
        };
        // "Fails" while A is a hull of at least 5 points.
        let (small, steps) = shrink(
            &q,
            BUDGET,
            |c| matches!(&c.a.geom, ShapeGeom::Hull { points } if points.len() >= 5),
        );
        assert!(steps > 0);
        let ShapeGeom::Hull { points } = &small.a.geom else {
            panic!("still a hull")
        };
        assert_eq!(points.len(), 5);
        assert_eq!(small.b.position[0], 3.0, "rounder numbers: {small:?}");
    }
}
