//! The JSON query model shared by `cspace eval`, fixtures and the viewer:
//! a [`Query`] names two placed shapes (the recorder's `ShapeDecl`), a query
//! kind, a precision and optionally an algorithm; [`run`] validates it, runs it
//! in the requested precision and returns an [`Answer`].

mod json;
mod query;
mod run;
mod validate;

pub use cspace_recorder::Precision;
pub use json::{body_from_value, body_to_value, from_value, parse, parse_value, salvage_id};
pub use query::{
    Algorithm, MAX_ABS_F32, MAX_ABS_F64, MIN_ABS_F32, MIN_ABS_F64, Query, QueryError, QueryKind,
    UNIT_TOLERANCE,
};
pub use run::{Answer, Outcome, run, run_recorded, run_timed, run_valid, signed_depth};
