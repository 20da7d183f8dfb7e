//! Poses and shapes placed in them.

use super::Shape;
use crate::real::{Real, Rotation, V3, Vector};

/// Where a shape is: position of its local origin and rotation (unit quaternion).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose<T: Real> {
    /// World position.
    pub position: V3<T>,
    /// World rotation.
    pub rotation: T::Q,
}

impl<T: Real> Default for Pose<T> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<T: Real> Pose<T> {
    /// At the origin, not rotated.
    pub const IDENTITY: Self = Self {
        position: <V3<T> as Vector<T>>::ZERO,
        rotation: <T::Q as Rotation<T>>::IDENTITY,
    };

    /// A pose at `position`, not rotated.
    #[must_use]
    pub fn from_position(position: V3<T>) -> Self {
        Self {
            position,
            rotation: <T::Q as Rotation<T>>::IDENTITY,
        }
    }

    /// A pose from position and rotation.
    #[must_use]
    pub fn new(position: V3<T>, rotation: T::Q) -> Self {
        Self { position, rotation }
    }

    /// Local point to world.
    #[inline]
    #[must_use]
    pub fn transform_point(&self, p: V3<T>) -> V3<T> {
        self.rotation.rotate(p) + self.position
    }

    /// World direction to local.
    #[inline]
    #[must_use]
    pub fn inverse_transform_vector(&self, v: V3<T>) -> V3<T> {
        self.rotation.inverse_rotate(v)
    }

    /// Local direction to world.
    #[inline]
    #[must_use]
    pub fn transform_vector(&self, v: V3<T>) -> V3<T> {
        self.rotation.rotate(v)
    }
}

/// A shape in a pose: what the queries take.
#[derive(Clone, Copy, Debug)]
pub struct Placed<'a, T: Real> {
    /// The shape.
    pub shape: &'a Shape<T>,
    /// Its pose.
    pub pose: Pose<T>,
}

impl<'a, T: Real> Placed<'a, T> {
    /// `shape` in `pose`.
    #[must_use]
    pub fn new(shape: &'a Shape<T>, pose: Pose<T>) -> Self {
        Self { shape, pose }
    }

    /// The core's support point in world direction `d`, in world space.
    #[inline]
    #[must_use]
    pub fn core_support(&self, d: V3<T>) -> V3<T> {
        self.pose.transform_point(
            self.shape
                .core_support(self.pose.inverse_transform_vector(d)),
        )
    }

    /// The full shape's support point in world direction `d`, in world space.
    #[inline]
    #[must_use]
    pub fn support(&self, d: V3<T>) -> V3<T> {
        self.pose
            .transform_point(self.shape.support(self.pose.inverse_transform_vector(d)))
    }
}
