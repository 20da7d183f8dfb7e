use cspace::{Placed, Pose, Shape, mpr};
use glam::{DQuat, DVec3};
#[test]
fn dbg() {
    let a_s = Shape::sphere(0.27823547365232537);
    let b_s = Shape::sphere(0.3741555710583241);
    let a = Placed::new(&a_s, Pose::new(DVec3::new(1.790026998454083, -0.8617326716199925, -1.3283209810108336), DQuat::from_xyzw(0.04924666214473621, -0.011219478919300568, 0.018989487115826723, -0.9985430831663997)));
    let b = Placed::new(&b_s, Pose::new(DVec3::new(1.6130915107211017, -0.7435694790337872, -0.8643108932661292), DQuat::from_xyzw(-0.4006740741051118, -0.6169642915799625, -0.676551049229992, 0.033076079589995006)));
    let (s, r) = cspace_recorder::record(|| mpr::penetration(&a, &b));
    let mut k = 0;
    for e in r.events() { match e { cspace_recorder::Event::Value { value, .. } => print!("{:.3e} ", value.to_f64()), cspace_recorder::Event::Text{text,..} => println!("{text}"), cspace_recorder::Event::Triangle{v,..} => { k+=1; if k < 12 { println!("{:?}", v.map(|x| x.to_f64())) } }, _ => {} } }
    println!("\n{s:?}");
}
