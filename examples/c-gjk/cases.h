/* The example's test configurations: boxes as 8-corner point sets, and the
 * exact distance each pair should have (computed in double). */
#ifndef C_GJK_CASES_H
#define C_GJK_CASES_H

#include "gjk.h"

#include <math.h>

typedef struct {
    const char *name;
    double center_a[3], half_a[3], center_b[3], half_b[3];
} gjk_case;

static const gjk_case gjk_cases[] = {
    /* Unit cubes apart by (3, 4, 12): corners (1,1,1) and (4,5,13), exactly 13 apart. */
    {"corner to corner", {0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}, {4.5, 5.5, 13.5}, {0.5, 0.5, 0.5}},
    /* A box over a thin plate: face to face, 0.25 apart. */
    {"face to face", {0, 1.25, 0}, {1, 1, 1}, {0.5, -0.5, 0.25}, {4, 0.5, 4}},
    /* The same 0.001 gap 10 km from the origin: a float has 0.001 of precision
     * there, so the distance comes out wrong. This one fails its check. */
    {"far from the origin", {10000.0, 0, 0}, {1, 1, 1}, {10002.001, 0.5, 0}, {1, 1, 1}},
};
#define GJK_CASE_COUNT (sizeof gjk_cases / sizeof gjk_cases[0])

/* The 8 corners of a box, rounded to float. */
static inline void box_corners(const double *c, const double *h, vec3 *out) {
    int i, k;
    for (i = 0; i < 8; ++i)
        for (k = 0; k < 3; ++k) out[i].v[k] = (float)(c[k] + ((i >> k) & 1 ? h[k] : -h[k]));
}

/* The exact distance between two axis-aligned boxes: the length of the per-axis gaps. */
static inline double box_distance(const gjk_case *t) {
    double sum = 0;
    int k;
    for (k = 0; k < 3; ++k) {
        double gap = fabs(t->center_a[k] - t->center_b[k]) - t->half_a[k] - t->half_b[k];
        if (gap > 0) sum += gap * gap;
    }
    return sqrt(sum);
}

/* Whether GJK's answer is right to 1e-4 of the distance (plus 1e-7 for touching shapes). */
static inline int distance_ok(double got, double expected) {
    return fabs(got - expected) <= 1e-4 * expected + 1e-7;
}

#endif
