//! The configuration-space object `A − B` of two placed shapes, as the
//! algorithms evaluate it: [`Cso`] in A's local frame (GJK, EPA, sweeps) and
//! [`CsoSupport`] in world orientation relative to A's position (MPR).

use super::simplex::{CsoPoint, Simplex};
use crate::real::{Real, Rotation, V3, Vector};
use crate::shape::{Placed, Pose, Shape};

/// The quaternion scaled to unit length (unchanged if zero or not finite).
#[inline]
fn normalized<T: Real>(q: T::Q) -> T::Q {
    let n2 = q.length_squared();
    // Unit to within rounding already (the usual case): rescaling would move
    // each component by less than its own rounding, for a square root and a
    // division per query. One comparison, also false for NaN.
    if (n2 - T::ONE).abs() <= T::EPSILON * T::from_f64(4.0) {
        return q;
    }
    if n2 > T::ZERO && n2.is_finite() {
        q.scaled(T::ONE / n2.sqrt())
    } else {
        q
    }
}

/// A rotation as its three columns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Basis<T: Real> {
    x: V3<T>,
    y: V3<T>,
    z: V3<T>,
}

impl<T: Real> Basis<T> {
    /// The rotation matrix of `q`, normalised first as [`Cso::new`] does.
    #[inline]
    pub(crate) fn of_rotation(q: T::Q) -> Self {
        Self::from_quat(normalized::<T>(q))
    }

    /// The rotation matrix of a unit quaternion.
    fn from_quat(q: T::Q) -> Self {
        let [x, y, z, w] = q.to_xyzw();
        let two = T::TWO;
        let (xx, yy, zz) = (x * x * two, y * y * two, z * z * two);
        let (xy, xz, yz) = (x * y * two, x * z * two, y * z * two);
        let (wx, wy, wz) = (w * x * two, w * y * two, w * z * two);
        let one = T::ONE;
        Self {
            x: V3::<T>::new(one - yy - zz, xy + wz, xz - wy),
            y: V3::<T>::new(xy - wz, one - xx - zz, yz + wx),
            z: V3::<T>::new(xz + wy, yz - wx, one - xx - yy),
        }
    }

    /// The columns: the rotated unit axes.
    #[inline]
    pub(crate) fn columns(&self) -> [V3<T>; 3] {
        [self.x, self.y, self.z]
    }

    /// The rotated vector.
    #[inline]
    pub(crate) fn apply(&self, v: V3<T>) -> V3<T> {
        self.x * v.x() + self.y * v.y() + self.z * v.z()
    }

    /// The vector rotated back.
    #[inline]
    pub(crate) fn apply_inverse(&self, v: V3<T>) -> V3<T> {
        V3::<T>::new(self.x.dot(v), self.y.dot(v), self.z.dot(v))
    }
}

/// B's rotation relative to A as a matrix, B's origin in A's frame, and A's
/// normalised rotation.
#[inline]
pub(crate) fn relative<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> (Basis<T>, V3<T>, T::Q) {
    let qa = normalized::<T>(a.pose.rotation);
    // conj(qa) · qb
    let [x, y, z, w] = qa.to_xyzw();
    let qa_inv = <T::Q as Rotation<T>>::from_xyzw([-x, -y, -z, w]);
    let rot_b = Basis::from_quat(qa_inv.then(normalized::<T>(b.pose.rotation)));
    (
        rot_b,
        qa.inverse_rotate(b.pose.position - a.pose.position),
        qa,
    )
}

/// Two box cores for the `sat` module: A's half extents, B's half extents
/// and B's axes in A's frame.
pub(crate) type BoxCores<T> = (V3<T>, V3<T>, [V3<T>; 3]);

/// The configuration-space object `A − B` of two placed shapes' cores, in
/// A's local frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cso<'a, T: Real> {
    a: &'a Shape<T>,
    b: &'a Shape<T>,
    /// B's rotation relative to A.
    rot_b: Basis<T>,
    /// B's origin in A's frame.
    pos_b: V3<T>,
    /// A's pose: A's local frame to world.
    pub pose_a: Pose<T>,
    /// A's radius.
    pub radius_a: T,
    /// B's radius.
    pub radius_b: T,
    /// The larger of the shapes' scales: tolerances are relative to it.
    pub scale: T,
    /// A's and B's own scales ([`Shape::scale`]).
    pub scales: (T, T),
}

/// Whether a core has curved features (a cylinder's or cone's rim).
#[inline]
fn curved_core<T: Real>(s: &Shape<T>) -> bool {
    use crate::shape::Geom;
    matches!(s.geom, Geom::Cylinder { .. } | Geom::Cone { .. })
}

impl<'a, T: Real> Cso<'a, T> {
    /// The CSO of `a` and `b`.
    /// The rotations are normalised: queries see the nearest true rotation
    /// even when a quaternion is unit only to a lower precision.
    pub fn new(a: &Placed<'a, T>, b: &Placed<'a, T>) -> Self {
        let (rot_b, pos_b, qa) = relative(a, b);
        let (scale_a, scale_b) = (a.shape.scale(), b.shape.scale());
        Self {
            a: a.shape,
            b: b.shape,
            rot_b,
            pos_b,
            pose_a: Pose::new(a.pose.position, qa),
            radius_a: a.shape.radius(),
            radius_b: b.shape.radius(),
            scale: scale_a.max(scale_b),
            scales: (scale_a, scale_b),
        }
    }

    /// The CSO of a sweep's `a` and `b` at t = 0. Two points have no size:
    /// their tolerances are relative to their distance at t = 0 (`|·|₁`),
    /// as the closed form's are; relative to no size at all, a path
    /// meeting a point exactly (dyadic input) came out of advancement's
    /// last step 1.4e-16 past it, moving apart: a `Converged` miss.
    pub fn for_sweep(a: &Placed<'a, T>, b: &Placed<'a, T>) -> Self {
        let mut cso = Self::new(a, b);
        if cso.scale == T::ZERO {
            cso.scale = super::input::l1::<T>(cso.pos_b);
        }
        cso
    }

    /// The same CSO with A translated by `shift` (world space): only the
    /// offsets change, the relative rotation is kept (for sweeps).
    #[inline]
    pub fn shifted(&self, shift: V3<T>) -> Self {
        Self {
            pos_b: self.pos_b - self.pose_a.rotation.inverse_rotate(shift),
            pose_a: Pose::new(self.pose_a.position + shift, self.pose_a.rotation),
            ..*self
        }
    }

    /// Whether both cores are single points (spheres, points): GJK is one support call.
    #[inline]
    pub fn point_cores(&self) -> bool {
        use crate::shape::Geom;
        matches!(self.a.geom, Geom::Point | Geom::Sphere { .. })
            && matches!(self.b.geom, Geom::Point | Geom::Sphere { .. })
    }

    /// Whether a core has curved features (a cylinder's or cone's rim),
    /// where GJK converges only linearly and witnesses need polishing.
    #[inline]
    pub fn curved(&self) -> bool {
        curved_core(self.a) || curved_core(self.b)
    }

    /// Whether either core is a convex hull.
    #[inline]
    pub fn hull(&self) -> bool {
        use crate::shape::Geom;
        matches!(self.a.geom, Geom::Hull(_)) || matches!(self.b.geom, Geom::Hull(_))
    }

    /// When both cores are boxes: their half extents and B's axes in A's
    /// frame, for the separating axis tests of the `sat` module.
    pub fn boxes(&self) -> Option<BoxCores<T>> {
        use crate::shape::Geom;
        let (Geom::Box { half_extents: ha }, Geom::Box { half_extents: hb }) =
            (&self.a.geom, &self.b.geom)
        else {
            return None;
        };
        Some((*ha, *hb, self.rot_b.columns()))
    }

    /// The sum of the radii.
    #[inline]
    pub fn radius(&self) -> T {
        self.radius_a + self.radius_b
    }

    /// B's origin relative to A's, in A's frame.
    #[inline]
    pub fn offset(&self) -> V3<T> {
        self.pos_b
    }

    /// How far rounding may move a support point (B's are turned into
    /// A's frame): a few ulps of the offset and the size.
    #[inline]
    pub fn rounding(&self) -> T {
        T::EPSILON * T::from_f64(16.0) * (self.scale + self.pos_b.length())
    }

    /// The core support point of `A − B` in direction `d` (A's frame).
    /// Inlined with the shapes' supports (see [`Shape::core_support`]).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn support(&self, d: V3<T>) -> CsoPoint<T> {
        let la = self.a.core_support(d);
        let lb = self.b.core_support(self.rot_b.apply_inverse(-d));
        self.point(la, lb)
    }

    /// The CSO point of local points `la` on A and `lb` on B.
    #[inline]
    pub fn point(&self, la: V3<T>, lb: V3<T>) -> CsoPoint<T> {
        let b = self.rot_b.apply(lb) + self.pos_b;
        CsoPoint {
            w: la - b,
            a: la,
            b,
            local_a: la,
            local_b: lb,
        }
    }

    /// Shape A (its core is what the CSO's support uses).
    #[inline]
    pub fn shape_a(&self) -> &'a Shape<T> {
        self.a
    }

    /// Shape B.
    #[inline]
    pub fn shape_b(&self) -> &'a Shape<T> {
        self.b
    }

    /// A direction of A's frame in B's local frame.
    #[inline]
    pub fn b_direction(&self, d: V3<T>) -> V3<T> {
        self.rot_b.apply_inverse(d)
    }

    /// A direction of B's local frame in A's frame.
    #[inline]
    pub fn b_vector(&self, v: V3<T>) -> V3<T> {
        self.rot_b.apply(v)
    }

    /// A point of B's local frame in A's frame.
    #[inline]
    pub fn b_point(&self, p: V3<T>) -> V3<T> {
        self.rot_b.apply(p) + self.pos_b
    }

    /// A point of A's frame in B's local frame.
    #[inline]
    pub fn b_local_point(&self, p: V3<T>) -> V3<T> {
        self.rot_b.apply_inverse(p - self.pos_b)
    }

    /// A point of A's frame in world space.
    #[inline]
    pub fn world_point(&self, p: V3<T>) -> V3<T> {
        self.pose_a.transform_point(p)
    }

    /// A direction of A's frame in world space.
    #[inline]
    pub fn world_vector(&self, v: V3<T>) -> V3<T> {
        self.pose_a.transform_vector(v)
    }

    /// The simplex in world space as `(w, a, b)` triples, for recording.
    pub fn world_simplex(&self, s: &Simplex<T>) -> Vec<(V3<T>, V3<T>, V3<T>)> {
        s.points()
            .iter()
            .map(|p| {
                (
                    self.world_vector(p.w),
                    self.world_point(p.a),
                    self.world_point(p.b),
                )
            })
            .collect()
    }
}

/// The CSO support of two placed shapes in world directions. Positions (`w`
/// and the witnesses `a`, `b`) are relative to A's position, which keeps
/// precision when both shapes are far from the world origin; add
/// `a.pose.position` to the witnesses for world space. The rotations are
/// kept as matrices: two matrix products per shape and call instead of two
/// quaternion rotations.
pub(crate) struct CsoSupport<'a, T: Real> {
    a: &'a Shape<T>,
    b: &'a Shape<T>,
    rot_a: Basis<T>,
    rot_b: Basis<T>,
    /// B's position relative to A's.
    offset: V3<T>,
}

impl<'a, T: Real> CsoSupport<'a, T> {
    /// The support of `a − b`.
    pub(crate) fn new(a: &Placed<'a, T>, b: &Placed<'a, T>) -> Self {
        Self {
            a: a.shape,
            b: b.shape,
            rot_a: Basis::of_rotation(a.pose.rotation),
            rot_b: Basis::of_rotation(b.pose.rotation),
            offset: b.pose.position - a.pose.position,
        }
    }

    /// The CSO point in world direction `d`.
    #[inline]
    pub(crate) fn at(&self, d: V3<T>) -> CsoPoint<T> {
        let pa = self
            .rot_a
            .apply(self.a.support(self.rot_a.apply_inverse(d)));
        let pb = self
            .rot_b
            .apply(self.b.support(self.rot_b.apply_inverse(-d)))
            + self.offset;
        CsoPoint::new(pa, pb)
    }
}
