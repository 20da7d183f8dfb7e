/* A small GJK distance between two convex point sets, in float, as many
 * engines write it. Compiles as C99 and as C++. */
#ifndef C_GJK_H
#define C_GJK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { float v[3]; } vec3;

/* A convex shape: the hull of `count` points (world space). */
typedef struct {
    const vec3 *points;
    size_t count;
} hull;

typedef struct {
    float distance;   /* 0 when the shapes overlap */
    vec3 point_a;     /* closest point on A */
    vec3 point_b;     /* closest point on B */
    int iterations;
} gjk_result;

gjk_result gjk_distance(const hull *a, const hull *b);

#ifdef __cplusplus
}
#endif

#endif
