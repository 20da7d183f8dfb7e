//! The algorithms: GJK (distance, intersection, warm start), EPA, MPR, the
//! box–box separating-axis test and sweeps, over the simplex and the
//! configuration-space object they share; penetration normals polished on
//! the supports (`polish`) and MPR's penetration search (`recast`);
//! distance witnesses and normals polished on the support features
//! (`witness`, over `feature`); closed forms for a point core against a point, segment, box, cylinder or cone (`centers`, `project`);
//! certified bounds on penetration normals (`aim`).

mod aim;
mod answer;
mod boxes;
mod centers;
mod contact;
mod cso;
pub mod epa;
mod feature;
pub mod gjk;
mod handover;
pub mod input;
pub mod mpr;
mod outline;
mod polish;
mod polytope;
mod project;
mod recast;
mod sat;
mod separation;
mod sets;
mod shallow;
pub mod signed;
pub mod simplex;
pub mod sweep;
mod touch;
mod warm;
mod witness;

pub use witness::Witness;

/// A uniform draw in [0, 1) from an xorshift state, for the unit tests'
/// random inputs (seeded, so every run sees the same cases).
#[cfg(test)]
#[allow(clippy::cast_precision_loss)]
pub(crate) fn uniform(seed: &mut u64) -> f64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (*seed >> 11) as f64 / (1u64 << 53) as f64
}

/// How an iterative query ended. Every result carries one, so hitting an
/// iteration bound or a rounding stall is never silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The certificate meets the stated tolerance, nothing else: for GJK the
    /// upper and lower distance bounds are within the stopping gap (also
    /// when the loop ended on a rounding stall), for penetration (EPA and
    /// MPR) the bounds are within `1e-8 × scale` (f64) or `2.4e-5 × scale`
    /// (f32), for the other queries their own stopping criterion was met.
    Converged,
    /// The iteration bound was hit; the answer is the best bound found so far.
    MaxIterations,
    /// A local search ended in a local minimum its certificate does not
    /// prove global (MPR's penetration): the answer is an upper bound and
    /// its lower bound is what was proven, further apart than the tolerance.
    LocalMinimum,
    /// Rounding stopped progress before the certificate met the tolerance
    /// (the answer is the best bound found, not certified), or the input was
    /// degenerate (zero-size core, coincident points) and a closed-form
    /// answer was returned instead of iterating.
    Degenerate,
    /// The input cannot be answered (a NaN, infinite or negative size, an
    /// empty hull, a non-finite position or motion, a zero rotation, or a
    /// magnitude that overflows or is too small for the precision to
    /// scale): nothing was computed and the answer's numbers are NaN.
    /// [`input::check`] says what is wrong.
    InvalidInput,
}

impl Status {
    /// The status as `cspace eval`'s JSON and the recorded certificate name
    /// it: `"converged"`, `"max_iterations"`, `"local_minimum"`,
    /// `"degenerate"`, `"invalid_input"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Converged => "converged",
            Self::MaxIterations => "max_iterations",
            Self::LocalMinimum => "local_minimum",
            Self::Degenerate => "degenerate",
            Self::InvalidInput => "invalid_input",
        }
    }
}
