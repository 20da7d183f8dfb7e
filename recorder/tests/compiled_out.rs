//! With the `enabled` feature off, every macro type-checks its arguments but
//! never evaluates them. Run with `cargo test -p cspace-recorder --no-default-features`
//! (CI does); in a default build this file is empty.
#![cfg(not(feature = "enabled"))]

use cspace_recorder as rec;

fn boom<T>() -> T {
    panic!("a compiled-out macro evaluated its argument")
}

#[test]
fn compiled_out_macros_never_evaluate_their_arguments() {
    let ((), recording) = rec::record(|| {
        rec::push!("scope");
        rec::point!("p", boom::<[f64; 3]>());
        rec::point!(cso "p", boom::<[f32; 3]>(), boom::<rec::Rgba>());
        rec::line!("l", boom::<[f64; 3]>(), boom::<[f64; 3]>());
        rec::triangle!(cso "t", boom::<[f64; 3]>(), boom::<[f64; 3]>(), boom::<[f64; 3]>());
        rec::simplex!("s", boom::<Vec<([f64; 3], [f64; 3], [f64; 3])>>());
        rec::value!("v", boom::<f64>());
        rec::text!("text {}", boom::<u32>());
        rec::shapes!(boom::<rec::ShapeDecl>(), boom::<rec::ShapeDecl>());
        rec::answer!(boom::<rec::Answer>());
        rec::pause!("step");
        rec::pop!();
        let _scope = rec::scope!("scope");
        let _hot = rec::scope!("hot", boom::<bool>());
    });
    assert!(recording.events().is_empty(), "nothing is recorded");
}
