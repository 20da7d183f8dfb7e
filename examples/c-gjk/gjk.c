/* GJK distance (Gilbert, Johnson, Keerthi) in float, instrumented for the
 * cspace viewer: one macro line per idea. Built as C99 and as C++17. */
#include "gjk.h"

#include "cspace_record.h"

#include <math.h>

#define MAX_ITERATIONS 64

typedef struct {
    vec3 w, a, b; /* w = a - b and the support points behind it */
} vertex;

static vec3 make(float x, float y, float z) { vec3 r; r.v[0] = x; r.v[1] = y; r.v[2] = z; return r; }
static vec3 sub(vec3 p, vec3 q) { return make(p.v[0] - q.v[0], p.v[1] - q.v[1], p.v[2] - q.v[2]); }
static vec3 add(vec3 p, vec3 q) { return make(p.v[0] + q.v[0], p.v[1] + q.v[1], p.v[2] + q.v[2]); }
static vec3 scale(vec3 p, float s) { return make(p.v[0] * s, p.v[1] * s, p.v[2] * s); }
static float dot(vec3 p, vec3 q) { return p.v[0] * q.v[0] + p.v[1] * q.v[1] + p.v[2] * q.v[2]; }
static vec3 cross(vec3 p, vec3 q) {
    return make(p.v[1] * q.v[2] - p.v[2] * q.v[1], p.v[2] * q.v[0] - p.v[0] * q.v[2], p.v[0] * q.v[1] - p.v[1] * q.v[0]);
}

/* The point of `h` farthest along `d`. */
static vec3 support(const hull *h, vec3 d) {
    size_t i, best = 0;
    float best_dot = dot(h->points[0], d);
    for (i = 1; i < h->count; ++i) {
        float t = dot(h->points[i], d);
        if (t > best_dot) { best_dot = t; best = i; }
    }
    return h->points[best];
}

/* Closest point to the origin on triangle s[i], s[j], s[k] (Ericson, RTCD 5.1.5):
 * weights into lambda[i], lambda[j], lambda[k] (the others untouched). */
static void closest_on_triangle(const vertex *s, int i, int j, int k, float *lambda) {
    vec3 a = s[i].w, b = s[j].w, c = s[k].w;
    vec3 ab = sub(b, a), ac = sub(c, a);
    float d1 = -dot(ab, a), d2 = -dot(ac, a), d3 = -dot(ab, b), d4 = -dot(ac, b), d5 = -dot(ab, c), d6 = -dot(ac, c);
    float va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2, t;
    lambda[i] = lambda[j] = lambda[k] = 0.0f;
    if (d1 <= 0 && d2 <= 0) { lambda[i] = 1; return; }
    if (d3 >= 0 && d4 <= d3) { lambda[j] = 1; return; }
    if (d6 >= 0 && d5 <= d6) { lambda[k] = 1; return; }
    if (vc <= 0 && d1 >= 0 && d3 <= 0) { t = d1 / (d1 - d3); lambda[i] = 1 - t; lambda[j] = t; return; }
    if (vb <= 0 && d2 >= 0 && d6 <= 0) { t = d2 / (d2 - d6); lambda[i] = 1 - t; lambda[k] = t; return; }
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        lambda[j] = 1 - t;
        lambda[k] = t;
        return;
    }
    t = 1.0f / (va + vb + vc);
    lambda[j] = vb * t;
    lambda[k] = vc * t;
    lambda[i] = 1 - lambda[j] - lambda[k];
}

static vec3 combine(const vertex *s, int n, const float *lambda, int which) {
    vec3 r = make(0, 0, 0);
    int i;
    for (i = 0; i < n; ++i) r = add(r, scale(which == 0 ? s[i].w : which == 1 ? s[i].a : s[i].b, lambda[i]));
    return r;
}

/* Reduces the simplex to the smallest face holding its closest point to the
 * origin; returns the new vertex count (4 means the origin is inside). */
static int reduce(vertex *s, int n, float *lambda) {
    int i, kept = 0;
    if (n == 1) lambda[0] = 1;
    else if (n == 2) {
        vec3 ab = sub(s[1].w, s[0].w);
        float len2 = dot(ab, ab), t = len2 > 0 ? -dot(s[0].w, ab) / len2 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        lambda[0] = 1 - t;
        lambda[1] = t;
    } else if (n == 3) closest_on_triangle(s, 0, 1, 2, lambda);
    else {
        static const int faces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
        float best = -1, l[4];
        int f, outside = 0;
        for (f = 0; f < 4; ++f) {
            const int *fc = faces[f];
            vec3 nrm = cross(sub(s[fc[1]].w, s[fc[0]].w), sub(s[fc[2]].w, s[fc[0]].w));
            float side_origin = -dot(nrm, s[fc[0]].w), side_other = dot(nrm, sub(s[fc[3]].w, s[fc[0]].w));
            if (side_other != 0 && side_origin * side_other >= 0) continue; /* origin on the inner side */
            outside = 1;
            l[0] = l[1] = l[2] = l[3] = 0;
            closest_on_triangle(s, fc[0], fc[1], fc[2], l);
            {
                vec3 p = combine(s, 4, l, 0);
                float d2 = dot(p, p);
                if (best < 0 || d2 < best) {
                    best = d2;
                    for (i = 0; i < 4; ++i) lambda[i] = l[i];
                }
            }
        }
        if (!outside) { for (i = 0; i < 4; ++i) lambda[i] = 0.25f; return 4; }
    }
    for (i = 0; i < n; ++i)
        if (lambda[i] > 0) { s[kept] = s[i]; lambda[kept] = lambda[i]; ++kept; }
    return kept;
}

gjk_result gjk_distance(const hull *a, const hull *b) {
    static const float origin[3] = {0, 0, 0};
    gjk_result r;
    vertex s[4];
    float lambda[4] = {1, 0, 0, 0}, lower = 0;
    int n = 1, i;
    vec3 v, toward_b;
    CSPACE_SHAPES(cspace_hull_f32(a->points[0].v, a->count), cspace_hull_f32(b->points[0].v, b->count));
    s[0].a = a->points[0];
    s[0].b = b->points[0];
    s[0].w = sub(s[0].a, s[0].b);
    v = s[0].w;
    CSPACE_SIMPLEXF("start", 1, s[0].w.v, s[0].a.v, s[0].b.v, sizeof s[0]);
    CSPACE_PAUSE("start");
    for (r.iterations = 1; r.iterations <= MAX_ITERATIONS; ++r.iterations) {
        vertex w;
        float vv = dot(v, v), vw, minus_v[3];
        int duplicate = 0;
        CSPACE_PUSH("iteration");
        CSPACE_VALUEF("upper bound", sqrtf(vv));
        w.a = support(a, scale(v, -1));
        w.b = support(b, v);
        w.w = sub(w.a, w.b);
        vw = dot(v, w.w);
        if (vw > 0 && vw * vw / vv > lower * lower) lower = vw / sqrtf(vv);
        CSPACE_VALUEF("lower bound", lower);
        minus_v[0] = -v.v[0]; minus_v[1] = -v.v[1]; minus_v[2] = -v.v[2];
        CSPACE_LINEF("search direction", CSPACE_CSO, CSPACE_BLUE, origin, minus_v);
        CSPACE_POINTF("support a", CSPACE_OBJECT, CSPACE_RED, w.a.v);
        CSPACE_POINTF("support b", CSPACE_OBJECT, CSPACE_ORANGE, w.b.v);
        CSPACE_POINTF("w", CSPACE_CSO, CSPACE_RED, w.w.v);
        CSPACE_PAUSE("new support point");
        for (i = 0; i < n; ++i) duplicate |= s[i].w.v[0] == w.w.v[0] && s[i].w.v[1] == w.w.v[1] && s[i].w.v[2] == w.w.v[2];
        if (duplicate || vv - vw <= 1e-6f * vv) {
            CSPACE_TEXT("converged: |v|^2 - v.w = %g <= 1e-6 |v|^2 (or w repeats a vertex)", vv - vw);
            CSPACE_POP();
            break;
        }
        s[n++] = w;
        n = reduce(s, n, lambda);
        v = combine(s, n, lambda, 0);
        CSPACE_SIMPLEXF("reduced", (size_t)n, s[0].w.v, s[0].a.v, s[0].b.v, sizeof s[0]);
        CSPACE_POINTF("closest", CSPACE_CSO, CSPACE_GREEN, v.v);
        CSPACE_PAUSE("closest point");
        CSPACE_POP();
        if (n == 4 || dot(v, v) <= 1e-12f) {
            CSPACE_TEXT("overlap: the simplex holds the origin");
            v = make(0, 0, 0);
            break;
        }
    }
    if (r.iterations > MAX_ITERATIONS) CSPACE_TEXT("stopped after %d iterations", MAX_ITERATIONS);
    r.distance = sqrtf(dot(v, v));
    r.point_a = combine(s, n, lambda, 1);
    r.point_b = n == 4 ? r.point_a : combine(s, n, lambda, 2);
    CSPACE_LINEF("closest points", CSPACE_OBJECT, CSPACE_GREEN, r.point_a.v, r.point_b.v);
    CSPACE_VALUEF("distance", r.distance);
    CSPACE_PAUSE("done");
    toward_b = r.distance > 0 ? scale(v, -1.0f / r.distance) : make(0, 0, 0); /* unit A -> B: -v / |v| */
    CSPACE_ANSWER_DISTANCEF(r.distance, r.point_a.v, r.point_b.v, toward_b.v);
    {
        /* What the loop proved: the distance lies between the best support
         * plane's separation and |v| (overlap: both 0). */
        const float bounds[2] = {lower < r.distance ? lower : r.distance, r.distance};
        const int stopped = r.iterations > MAX_ITERATIONS;
        CSPACE_CERTIFICATEF(stopped ? "max_iterations" : "converged",
                            (unsigned long)(stopped ? MAX_ITERATIONS : r.iterations), bounds, NULL, NULL);
    }
    return r;
}
