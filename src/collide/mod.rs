//! The algorithms: GJK (distance, intersection, warm start), EPA, MPR, the
//! box–box separating-axis test and sweeps, over the simplex and the
//! configuration-space object they share.

mod centers;
mod cso;
pub mod epa;
mod feature;
pub mod gjk;
pub mod mpr;
mod polish;
mod polytope;
mod sat;
pub mod signed;
pub mod simplex;
pub mod sweep;

pub use polish::Witness;

/// How an iterative query ended. Every result carries one, so hitting an
/// iteration bound or a rounding stall is never silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The certificate meets the stated tolerance, nothing else: for GJK the
    /// upper and lower distance bounds are within the stopping gap (also
    /// when the loop ended on a rounding stall), for the other queries their
    /// own stopping criterion was met.
    Converged,
    /// The iteration bound was hit; the answer is the best bound found so far.
    MaxIterations,
    /// Rounding stopped progress before the certificate met the tolerance
    /// (the answer is the best bound found, not certified), or the input was
    /// degenerate (zero-size core, coincident points) and a closed-form
    /// answer was returned instead of iterating.
    Degenerate,
}
