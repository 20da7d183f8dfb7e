//! Checking a query can run, naming the field path of the first problem.
//!
//! Rejected, naming the field path (`a.shape.radius`, `b.rotation`):
//! negative sizes, non-finite numbers, magnitudes above [`MAX_ABS_F64`]
//! ([`MAX_ABS_F32`] in f32, so no intermediate product overflows) and
//! nonzero ones below [`MIN_ABS_F64`] ([`MIN_ABS_F32`]: no square
//! underflows), empty hulls,
//! rotations whose norm differs from 1 by more than [`UNIT_TOLERANCE`]
//! (accepted ones are renormalised), a sweep without `translation`, an
//! algorithm that does not answer the query, and what the algorithms
//! themselves refuse ([`input::check`]: a scene whose magnitude as a whole
//! overflows; one outside the range answered directly runs scaled).

use super::query::{
    Algorithm, MAX_ABS_F32, MAX_ABS_F64, MIN_ABS_F32, MIN_ABS_F64, Query, QueryError, QueryKind,
    UNIT_TOLERANCE,
};
use crate::input;
use crate::real::{Real, V3, Vector};
use crate::shape::{Placed, Shape};
use crate::sweep;
use cspace_recorder::{Param, Precision, ShapeDecl};

impl Query {
    /// The algorithm that will run: the given one or the query's default.
    #[must_use]
    pub fn resolved_algorithm(&self) -> Algorithm {
        self.algorithm.unwrap_or(Algorithm::default_for(self.query))
    }

    /// Checks the query can run (see the module docs for the rules).
    ///
    /// # Errors
    /// The first problem found, naming its field.
    pub fn validate(&self) -> Result<(), QueryError> {
        let limits = Limits::of(self.precision);
        let alg = self.resolved_algorithm();
        if !Algorithm::valid_for(self.query).contains(&alg) {
            let valid = Algorithm::valid_for(self.query)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            return Err(QueryError::AlgorithmNotValid {
                algorithm: alg,
                query: self.query,
                valid,
            });
        }
        validate_body(&self.a, "a", limits)?;
        validate_body(&self.b, "b", limits)?;
        match (self.query, self.translation) {
            (QueryKind::Sweep, None) => return Err(QueryError::MissingTranslation),
            (_, Some(t)) => limits.vec(|| "translation".to_owned(), &t)?,
            (_, None) => {}
        }
        match self.precision {
            Precision::F64 => self.check_input::<f64>()?,
            Precision::F32 => self.check_input::<f32>()?,
        }
        if self.query == QueryKind::Sweep && alg == Algorithm::Analytic {
            // Asked without sweeping: a sweep here would be recorded, a
            // phantom query at the origin before the real one.
            let (a, _) = Shape::<f64>::from_decl(&self.a);
            let (b, _) = Shape::<f64>::from_decl(&self.b);
            sweep::analytic_applies(&a, &b)?;
        }
        Ok(())
    }
}

impl Query {
    /// The algorithms' own input check ([`input::check`]) on the shapes as
    /// built in precision `T`: what the per-field rules leave, a scene too
    /// large or too small as a whole.
    fn check_input<T: Real>(&self) -> Result<(), QueryError> {
        let (a, pose_a) = Shape::<T>::from_decl(&self.a);
        let (b, pose_b) = Shape::<T>::from_decl(&self.b);
        let motion = match (self.query, self.translation) {
            (QueryKind::Sweep, Some(t)) => V3::<T>::from_f64(t),
            _ => V3::<T>::ZERO,
        };
        input::check(&Placed::new(&a, pose_a), &Placed::new(&b, pose_b), motion)?;
        Ok(())
    }
}

/// The magnitude limit of a precision.
#[derive(Clone, Copy)]
struct Limits {
    limit: f64,
    least: f64,
    precision: Precision,
}

impl Limits {
    fn of(precision: Precision) -> Self {
        let (least, limit) = match precision {
            Precision::F64 => (MIN_ABS_F64, MAX_ABS_F64),
            Precision::F32 => (MIN_ABS_F32, MAX_ABS_F32),
        };
        Self {
            limit,
            least,
            precision,
        }
    }

    // Paths are closures, formatted only for an error: a 2000-point hull
    // has 6000 numbers to check and no path to print.
    fn num(self, path: impl Fn() -> String, v: f64) -> Result<(), QueryError> {
        if !v.is_finite() {
            return Err(QueryError::NotFinite {
                path: path(),
                value: format!("{v}"),
            });
        }
        if v.abs() > self.limit {
            return Err(QueryError::TooLarge {
                path: path(),
                value: v,
                limit: self.limit,
                precision: self.precision.name(),
            });
        }
        if v != 0.0 && v.abs() < self.least {
            return Err(QueryError::TooSmall {
                path: path(),
                value: v,
                limit: self.least,
                precision: self.precision.name(),
            });
        }
        Ok(())
    }

    fn vec(self, path: impl Fn() -> String, v: &[f64]) -> Result<(), QueryError> {
        for (i, c) in v.iter().enumerate() {
            self.num(|| format!("{}[{i}]", path()), *c)?;
        }
        Ok(())
    }

    fn size(self, path: impl Fn() -> String, v: f64) -> Result<(), QueryError> {
        self.num(&path, v)?;
        if v < 0.0 {
            return Err(QueryError::Negative {
                path: path(),
                value: v,
            });
        }
        Ok(())
    }
}

fn validate_body(body: &ShapeDecl, name: &str, limits: Limits) -> Result<(), QueryError> {
    let path = |f: &str| format!("{name}.shape.{f}");
    for (field, param) in body.geom.params() {
        match param {
            Param::Size(v) => limits.size(|| path(field), v)?,
            Param::Sizes(v) => {
                for (i, h) in v.iter().enumerate() {
                    limits.size(|| path(&format!("{field}[{i}]")), *h)?;
                }
            }
            Param::Points(points) => {
                if points.is_empty() {
                    return Err(QueryError::EmptyHull { path: path(field) });
                }
                for (i, q) in points.iter().enumerate() {
                    limits.vec(|| path(&format!("{field}[{i}]")), q)?;
                }
            }
            // Only the vertices' hull is the shape: indices do not change it.
            Param::Triangles(_) => {}
        }
    }
    limits.size(|| path("margin"), body.margin)?;
    limits.vec(|| format!("{name}.position"), &body.position)?;
    limits.vec(|| format!("{name}.rotation"), &body.rotation)?;
    let norm = body.rotation.iter().map(|c| c * c).sum::<f64>().sqrt();
    if (norm - 1.0).abs() > UNIT_TOLERANCE {
        return Err(QueryError::NotUnit {
            path: format!("{name}.rotation"),
            norm,
        });
    }
    // The shape type's own checks, in the query's precision.
    let shape_check = match limits.precision {
        Precision::F64 => Shape::<f64>::from_decl(body).0.validate(),
        Precision::F32 => Shape::<f32>::from_decl(body).0.validate(),
    };
    shape_check.map_err(|e| QueryError::Parse {
        path: format!("{name}.shape"),
        message: e.to_string(),
    })
}
