// A C interface to Jolt Physics 5.0.0's convex narrow phase, for the
// cspace-vs-jolt benchmark (src/main.rs). It builds Jolt shapes and runs,
// over a whole array of scenes in one call (so no foreign call sits inside
// the timed loop), the GJK / EPA steps of Jolt as its own convex-vs-convex
// collide path calls them (ConvexShape::sCollideConvexVsConvex): per query,
// the body transforms are turned into B's transform in A's space, the shapes'
// support objects are made with GetSupportFunction into stack buffers, B's is
// wrapped in a TransformedConvexObject, then GJKClosestPoint /
// EPAPenetrationDepth run with Jolt's default tolerances. Jolt's broad
// bounding-box test and result collection are left out: only the queries.

#include <Jolt/Jolt.h>

#include <Jolt/Core/Factory.h>
#include <Jolt/Geometry/ConvexSupport.h>
#include <Jolt/Geometry/EPAPenetrationDepth.h>
#include <Jolt/Geometry/GJKClosestPoint.h>
#include <Jolt/Physics/Collision/Shape/BoxShape.h>
#include <Jolt/Physics/Collision/Shape/CapsuleShape.h>
#include <Jolt/Physics/Collision/Shape/ConvexHullShape.h>
#include <Jolt/Physics/Collision/Shape/CylinderShape.h>
#include <Jolt/Physics/Collision/Shape/SphereShape.h>
#include <Jolt/Physics/PhysicsSettings.h>
#include <Jolt/RegisterTypes.h>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdio>

using namespace JPH;

namespace {

/// One scene, laid out as `JoltScene` in src/main.rs: two shapes and their
/// centre-of-mass transforms (rotation x, y, z, w; position), as a Jolt body
/// holds them.
struct Scene {
	const ConvexShape *a;
	const ConvexShape *b;
	float qa[4];
	float pa[3];
	float qb[4];
	float pb[3];
};

using Support = ConvexShape::Support;
using SupportBuffer = ConvexShape::SupportBuffer;
using ESupportMode = ConvexShape::ESupportMode;

/// The query kinds and variants (`Kind` in src/main.rs).
enum Kind : int {
	Intersect = 0,
	Distance = 1,
	Penetration = 2,
	Setup = 3,
};

inline Mat44 Transform(const float *q, const float *p) {
	return Mat44::sRotationTranslation(Quat(q[0], q[1], q[2], q[3]), Vec3(p[0], p[1], p[2]));
}

/// What every query starts with in sCollideConvexVsConvex: B's transform in
/// A's space and the initial axis (B's centre seen from A; X if they coincide).
struct Frame {
	Mat44 t1;
	Mat44 t21;
	Vec3 axis;

	explicit Frame(const Scene &s) {
		t1 = Transform(s.qa, s.pa);
		Mat44 t2 = Transform(s.qb, s.pb);
		t21 = t1.InversedRotationTranslation() * t2;
		axis = t21.GetTranslation();
		if (axis.IsNearZero())
			axis = Vec3::sAxisX();
	}
};

const Vec3 cUnitScale = Vec3::sReplicate(1.0f);

/// A world-space unit normal from an axis in A's space (or zeros).
inline void StoreNormal(const Frame &f, Vec3 axis, float *normals, size_t i) {
	if (normals == nullptr)
		return;
	Vec3 n = f.t1.Multiply3x3(axis).NormalizedOr(Vec3::sZero());
	normals[3 * i] = n.GetX();
	normals[3 * i + 1] = n.GetY();
	normals[3 * i + 2] = n.GetZ();
}

/// Intersect, variant 0: GJKClosestPoint::Intersects on the whole shapes
/// (IncludeConvexRadius supports), tolerance cDefaultCollisionTolerance.
/// Variant 1: the first step of Jolt's collide path instead,
/// EPAPenetrationDepth::GetPenetrationDepthStepGJK on the shapes' cores
/// (ExcludeConvexRadius supports) with their convex radii: colliding unless
/// it answers NotColliding.
template <int Variant>
float QueryIntersect(const Scene &s) {
	Frame f(s);
	SupportBuffer buffer_a, buffer_b;
	constexpr ESupportMode mode = Variant == 0 ? ESupportMode::IncludeConvexRadius : ESupportMode::ExcludeConvexRadius;
	const Support *a = s.a->GetSupportFunction(mode, buffer_a, cUnitScale);
	const Support *b = s.b->GetSupportFunction(mode, buffer_b, cUnitScale);
	TransformedConvexObject<Support> b_in_a(f.t21, *b);
	Vec3 v = f.axis;
	if constexpr (Variant == 0) {
		GJKClosestPoint gjk;
		return gjk.Intersects(*a, b_in_a, cDefaultCollisionTolerance, v) ? 1.0f : 0.0f;
	} else {
		EPAPenetrationDepth pen_depth;
		Vec3 point_a, point_b;
		EPAPenetrationDepth::EStatus status = pen_depth.GetPenetrationDepthStepGJK(*a, a->GetConvexRadius(), b_in_a, b->GetConvexRadius(), cDefaultCollisionTolerance, v, point_a, point_b);
		return status == EPAPenetrationDepth::EStatus::NotColliding ? 0.0f : 1.0f;
	}
}

/// Distance, variant 0: GJKClosestPoint::GetClosestPoints on the shapes'
/// cores (ExcludeConvexRadius: a sphere's centre, a capsule's segment; the
/// other shapes whole, their convex radius being 0), no distance limit,
/// tolerance cDefaultCollisionTolerance; the distance is |v| minus the convex
/// radii (NaN where the cores overlap). Variant 1: GetClosestPoints on the
/// whole shapes (IncludeConvexRadius supports).
template <int Variant>
float QueryDistance(const Scene &s) {
	Frame f(s);
	SupportBuffer buffer_a, buffer_b;
	constexpr ESupportMode mode = Variant == 0 ? ESupportMode::ExcludeConvexRadius : ESupportMode::IncludeConvexRadius;
	const Support *a = s.a->GetSupportFunction(mode, buffer_a, cUnitScale);
	const Support *b = s.b->GetSupportFunction(mode, buffer_b, cUnitScale);
	TransformedConvexObject<Support> b_in_a(f.t21, *b);
	Vec3 v = f.axis;
	Vec3 point_a, point_b;
	GJKClosestPoint gjk;
	float dist_sq = gjk.GetClosestPoints(*a, b_in_a, cDefaultCollisionTolerance, FLT_MAX, v, point_a, point_b);
	if (dist_sq <= 0.0f)
		return NAN;
	return sqrt(dist_sq) - (a->GetConvexRadius() + b->GetConvexRadius());
}

/// Penetration, variant 0: sCollideConvexVsConvex's sequence with the default
/// CollideShapeSettings (mMaxSeparationDistance 0, tolerances 1e-4):
/// GetPenetrationDepthStepGJK on the cores with their convex radii and, when
/// that is Indeterminate (the cores overlap), IncludeConvexRadius supports
/// made then and GetPenetrationDepthStepEPA (A wrapped in AddConvexRadius of
/// the separation distance, as there). Variant 1: the convenience
/// EPAPenetrationDepth::GetPenetrationDepth with all four support objects
/// made up front. The depth is |point B - point A|; NaN when Jolt finds no
/// penetration.
template <int Variant>
float QueryPenetration(const Scene &s, float *normals, size_t i) {
	Frame f(s);
	Vec3 v = f.axis;
	Vec3 point_a, point_b;
	EPAPenetrationDepth pen_depth;
	bool colliding;
	if constexpr (Variant == 0) {
		EPAPenetrationDepth::EStatus status;
		{
			SupportBuffer buffer_a, buffer_b;
			const Support *a = s.a->GetSupportFunction(ESupportMode::ExcludeConvexRadius, buffer_a, cUnitScale);
			const Support *b = s.b->GetSupportFunction(ESupportMode::ExcludeConvexRadius, buffer_b, cUnitScale);
			TransformedConvexObject<Support> b_in_a(f.t21, *b);
			status = pen_depth.GetPenetrationDepthStepGJK(*a, a->GetConvexRadius(), b_in_a, b->GetConvexRadius(), cDefaultCollisionTolerance, v, point_a, point_b);
		}
		colliding = status == EPAPenetrationDepth::EStatus::Colliding;
		if (status == EPAPenetrationDepth::EStatus::Indeterminate) {
			SupportBuffer buffer_a, buffer_b;
			const Support *a = s.a->GetSupportFunction(ESupportMode::IncludeConvexRadius, buffer_a, cUnitScale);
			const Support *b = s.b->GetSupportFunction(ESupportMode::IncludeConvexRadius, buffer_b, cUnitScale);
			AddConvexRadius<Support> a_plus_separation(*a, 0.0f);
			TransformedConvexObject<Support> b_in_a(f.t21, *b);
			colliding = pen_depth.GetPenetrationDepthStepEPA(a_plus_separation, b_in_a, cDefaultPenetrationTolerance, v, point_a, point_b);
		}
	} else {
		SupportBuffer buffer_ae, buffer_be, buffer_ai, buffer_bi;
		const Support *ae = s.a->GetSupportFunction(ESupportMode::ExcludeConvexRadius, buffer_ae, cUnitScale);
		const Support *be = s.b->GetSupportFunction(ESupportMode::ExcludeConvexRadius, buffer_be, cUnitScale);
		const Support *ai = s.a->GetSupportFunction(ESupportMode::IncludeConvexRadius, buffer_ai, cUnitScale);
		const Support *bi = s.b->GetSupportFunction(ESupportMode::IncludeConvexRadius, buffer_bi, cUnitScale);
		TransformedConvexObject<Support> be_in_a(f.t21, *be);
		TransformedConvexObject<Support> bi_in_a(f.t21, *bi);
		colliding = pen_depth.GetPenetrationDepth(*ae, *ai, ae->GetConvexRadius(), be_in_a, bi_in_a, be->GetConvexRadius(), cDefaultCollisionTolerance, cDefaultPenetrationTolerance, v, point_a, point_b);
	}
	if (!colliding)
		return NAN;
	StoreNormal(f, v, normals, i);
	return (point_b - point_a).Length();
}

/// The per-query set-up alone (transforms, two support objects), to show
/// what it costs inside the figures above.
float QuerySetup(const Scene &s) {
	Frame f(s);
	SupportBuffer buffer_a, buffer_b;
	const Support *a = s.a->GetSupportFunction(ESupportMode::ExcludeConvexRadius, buffer_a, cUnitScale);
	const Support *b = s.b->GetSupportFunction(ESupportMode::ExcludeConvexRadius, buffer_b, cUnitScale);
	return a->GetConvexRadius() + b->GetConvexRadius() + f.axis.GetX();
}

template <typename F>
void Each(const Scene *scenes, size_t n, float *out, F query) {
	for (size_t i = 0; i < n; ++i)
		out[i] = query(scenes[i], i);
}

/// Adds a reference for the caller (released by jolt_release).
const void *Keep(Shape *shape) {
	shape->AddRef();
	return shape;
}

} // namespace

extern "C" {

/// Registers Jolt's allocator, factory and types (once).
void jolt_init() {
	static bool done = false;
	if (done)
		return;
	done = true;
	RegisterDefaultAllocator();
	Factory::sInstance = new Factory();
	RegisterTypes();
}

const void *jolt_box(float hx, float hy, float hz, float convex_radius) {
	return Keep(new BoxShape(Vec3(hx, hy, hz), convex_radius));
}

const void *jolt_cylinder(float half_height, float radius, float convex_radius) {
	return Keep(new CylinderShape(half_height, radius, convex_radius));
}

const void *jolt_capsule(float half_height, float radius) {
	return Keep(new CapsuleShape(half_height, radius));
}

const void *jolt_sphere(float radius) {
	return Keep(new SphereShape(radius));
}

/// The convex hull of `n` points (x, y, z each), or null (reported on stderr).
const void *jolt_hull(const float *xyz, int n, float convex_radius, float hull_tolerance) {
	Array<Vec3> points;
	for (int i = 0; i < n; ++i)
		points.push_back(Vec3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]));
	ConvexHullShapeSettings settings(points, convex_radius);
	settings.mHullTolerance = hull_tolerance;
	ShapeSettings::ShapeResult result = settings.Create();
	if (result.HasError()) {
		fprintf(stderr, "jolt_hull: %s\n", result.GetError().c_str());
		return nullptr;
	}
	return Keep(const_cast<Shape *>(result.Get().GetPtr()));
}

/// A shape's centre of mass in its own frame (Jolt places shapes by it), its
/// convex radius (`GetSupportFunction(ExcludeConvexRadius)`), and for a hull
/// the number of points it kept (0 for the other shapes).
int jolt_shape_info(const void *shape, float *com, float *convex_radius) {
	const ConvexShape *s = static_cast<const ConvexShape *>(shape);
	Vec3 c = s->GetCenterOfMass();
	com[0] = c.GetX();
	com[1] = c.GetY();
	com[2] = c.GetZ();
	SupportBuffer buffer;
	*convex_radius = s->GetSupportFunction(ESupportMode::ExcludeConvexRadius, buffer, cUnitScale)->GetConvexRadius();
	if (s->GetSubType() == EShapeSubType::ConvexHull)
		return int(static_cast<const ConvexHullShape *>(s)->GetNumPoints());
	return 0;
}

void jolt_release(const void *shape) {
	static_cast<const Shape *>(shape)->Release();
}

/// Runs query `kind` (variant 0 or 1) on `n` scenes, one answer each in
/// `out`: intersect 1 / 0, distance, penetration depth (NaN: none found).
/// `normals` (3 floats a scene, or null) gets the world penetration normal.
void jolt_run(int kind, int variant, const Scene *scenes, size_t n, float *out, float *normals) {
	switch (kind) {
	case Intersect:
		if (variant == 0)
			Each(scenes, n, out, [](const Scene &s, size_t) { return QueryIntersect<0>(s); });
		else
			Each(scenes, n, out, [](const Scene &s, size_t) { return QueryIntersect<1>(s); });
		break;
	case Distance:
		if (variant == 0)
			Each(scenes, n, out, [](const Scene &s, size_t) { return QueryDistance<0>(s); });
		else
			Each(scenes, n, out, [](const Scene &s, size_t) { return QueryDistance<1>(s); });
		break;
	case Penetration:
		if (variant == 0)
			Each(scenes, n, out, [normals](const Scene &s, size_t i) { return QueryPenetration<0>(s, normals, i); });
		else
			Each(scenes, n, out, [normals](const Scene &s, size_t i) { return QueryPenetration<1>(s, normals, i); });
		break;
	default:
		Each(scenes, n, out, [](const Scene &s, size_t) { return QuerySetup(s); });
		break;
	}
}

} // extern "C"
