//! The engine's own vector type. The recorder's macros take it once it
//! implements [`cspace_recorder::IntoVec3`] (glam vectors, `[f32; 3]`,
//! `[f64; 3]` and tuples work without this).

use std::ops::{Add, Mul, Neg, Sub};

/// A 3-vector in double precision.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct V3 {
    /// x coordinate.
    pub x: f64,
    /// y coordinate.
    pub y: f64,
    /// z coordinate.
    pub z: f64,
}

impl V3 {
    /// The origin.
    pub const ZERO: Self = Self::new(0.0, 0.0, 0.0);

    /// The vector `(x, y, z)`.
    #[must_use]
    pub const fn new(x: f64, y: f64, z: f64) -> Self {
        Self { x, y, z }
    }

    /// Dot product.
    #[must_use]
    pub fn dot(self, o: Self) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Cross product.
    #[must_use]
    pub fn cross(self, o: Self) -> Self {
        Self::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    /// Squared length.
    #[must_use]
    pub fn length_squared(self) -> f64 {
        self.dot(self)
    }

    /// Length.
    #[must_use]
    pub fn length(self) -> f64 {
        self.length_squared().sqrt()
    }

    /// Whether all coordinates have identical bits.
    #[must_use]
    pub fn bit_eq(self, o: Self) -> bool {
        self.x.to_bits() == o.x.to_bits()
            && self.y.to_bits() == o.y.to_bits()
            && self.z.to_bits() == o.z.to_bits()
    }
}

impl Add for V3 {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Self::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl Sub for V3 {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Self::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl Neg for V3 {
    type Output = Self;
    fn neg(self) -> Self {
        Self::new(-self.x, -self.y, -self.z)
    }
}

impl Mul<f64> for V3 {
    type Output = Self;
    fn mul(self, s: f64) -> Self {
        Self::new(self.x * s, self.y * s, self.z * s)
    }
}

impl From<[f64; 3]> for V3 {
    fn from([x, y, z]: [f64; 3]) -> Self {
        Self::new(x, y, z)
    }
}

/// The one line that lets every recorder macro take a `V3`.
impl cspace_recorder::IntoVec3 for V3 {
    #[inline]
    fn into_vec3(self) -> cspace_recorder::Vec3Data {
        cspace_recorder::Vec3Data::F64([self.x, self.y, self.z])
    }
}
