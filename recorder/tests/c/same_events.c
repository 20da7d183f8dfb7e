/* Emits one of every event kind, with awkward values, through the macros of
 * cspace_record.h. recorder/tests/c_header.rs emits the same sequence from Rust
 * and compares the two streams byte for byte; each macro line carries an
 * `@name` marker the test uses to find its line number.
 * Usage: same_events OUT.cspace */
#define CSPACE_RECORD_IMPLEMENTATION
#include "cspace_record.h"

#include <stdlib.h>
#include <string.h>

static double d_bits(unsigned long long b) { double d; memcpy(&d, &b, 8); return d; }
static float f_bits(unsigned int b) { float f; memcpy(&f, &b, 4); return f; }

typedef struct { double w[3], a[3], b[3]; } vertex_d;
typedef struct { float w[3], a[3], b[3]; } vertex_f;

/* 300 distinct call sites on one line: site ids past 250 take a 3-byte varint. */
#define MANY1 CSPACE_PAUSE("many");
#define MANY10 MANY1 MANY1 MANY1 MANY1 MANY1 MANY1 MANY1 MANY1 MANY1 MANY1
#define MANY100 MANY10 MANY10 MANY10 MANY10 MANY10 MANY10 MANY10 MANY10 MANY10 MANY10

int main(int argc, char **argv) {
    static const double hull_d[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    static const unsigned int tris[] = {0, 1, 2, 300, 70000, 5000000};
    const double pos[3] = {1.5, -2.25, 1e300}, rot[4] = {0.0, 0.6, 0.0, 0.8}, motion[3] = {4, 5, 6};
    const double p[3] = {1.0, -0.0, d_bits(1)};
    const float pf[3] = {0.1f, f_bits(0x7fc00001u), f_bits(0xff800000u)};
    const double a[3] = {-1, 2, -3}, b[3] = {d_bits(0x7ff8000000000123ull), 0.5, 1e-310};
    const float af[3] = {1.0f, 2.0f, 3.0f}, bf[3] = {-0.0f, 1e-40f, 3.4e38f};
    vertex_d vd[4];
    vertex_f vf[4];
    float *hull_f;
    double *big_hull;
    char *long_text, *huge_text;
    const size_t big = 700000, huge = 17u << 20;
    int i, k;
    if (argc < 2) return 2;
    for (i = 0; i < 4; ++i)
        for (k = 0; k < 3; ++k) {
            vd[i].a[k] = i + 0.25 * k;
            vd[i].b[k] = -i * 0.5 + k;
            vd[i].w[k] = vd[i].a[k] - vd[i].b[k];
            vf[i].a[k] = (float)i * 0.1f + (float)k;
            vf[i].b[k] = 1.0f / (float)(k + 3);
            vf[i].w[k] = vf[i].a[k] - vf[i].b[k];
        }
    hull_f = (float *)malloc(6 * sizeof *hull_f);
    for (i = 0; i < 6; ++i) hull_f[i] = (float)i * 0.3f - 1.0f;
    big_hull = (double *)malloc(3 * big * sizeof *big_hull);
    for (i = 0; i < (int)(3 * big); ++i) big_hull[i] = i;
    long_text = (char *)malloc(301);
    memset(long_text, 'x', 300);
    long_text[300] = 0;
    huge_text = (char *)malloc(huge + 1);
    memset(huge_text, 'y', huge);
    huge_text[huge] = 0;

    cspace_begin_file(argv[1]);
    CSPACE_SHAPES(cspace_at(cspace_with_margin(cspace_box(1, 2, 3), 0.05), pos, rot), cspace_sphere(0.5)); /* @shapes1 */
    CSPACE_SHAPES_SWEEP(cspace_hull(hull_d, 4), cspace_hull_f32(hull_f, 2), motion); /* @shapes2 */
    CSPACE_SHAPES(cspace_capsule(1, 0.5), cspace_cylinder(2, 0.25)); /* @shapes3 */
    CSPACE_SHAPES(cspace_cone(1, 2), cspace_point_shape()); /* @shapes4 */
    CSPACE_SHAPES(cspace_mesh(hull_d, 4, tris, 2), cspace_hull(NULL, 5)); /* @shapes5 */
    CSPACE_PUSH("outer"); /* @outer */
    for (i = 0; i < 3; ++i) {
        CSPACE_PUSH("iteration"); /* @iteration */
        CSPACE_POINT("w", CSPACE_CSO, CSPACE_RED, p); /* @w */
        CSPACE_POINTF("wf", CSPACE_OBJECT, CSPACE_DEFAULT_COLOR, pf); /* @wf */
        CSPACE_LINE("dir", CSPACE_CSO, CSPACE_RGBA(1, 2, 3, 4), a, b); /* @dir */
        CSPACE_LINEF("dirf", CSPACE_OBJECT, CSPACE_BLUE, af, bf); /* @dirf */
        CSPACE_TRIANGLE("face", CSPACE_CSO, CSPACE_DEFAULT_COLOR, a, b, p); /* @face */
        CSPACE_TRIANGLEF("facef", CSPACE_OBJECT, CSPACE_PURPLE, af, bf, pf); /* @facef */
        CSPACE_SIMPLEX("simplex", (size_t)i + 1, vd[0].w, vd[0].a, vd[0].b, sizeof vd[0]); /* @simplex */
        CSPACE_SIMPLEXF("simplexf", 4 - (size_t)i, vf[0].w, vf[0].a, vf[0].b, sizeof vf[0]); /* @simplexf */
        CSPACE_VALUE("upper", 1.0 / (i + 1)); /* @upper */
        CSPACE_VALUEF("upperf", (float)i * 0.1f); /* @upperf */
        CSPACE_TEXT("iteration %d: %.17g", i, 1.0 / 3.0); /* @text */
        CSPACE_PAUSE("step"); /* @step */
        CSPACE_POP_NAMED("iteration"); /* @popnamed */
    }
    CSPACE_SIMPLEX("empty", 0, NULL, NULL, NULL, 0); /* @empty */
    CSPACE_TEXT("long: %s", long_text); /* @long */
    CSPACE_TEXT("utf8: \xc3\xa9 \xe2\x88\x91 \xf0\x9f\x98\x80"); /* @utf8 */
    CSPACE_TEXT("%s", huge_text); /* @huge */
    CSPACE_SHAPES(cspace_hull(big_hull, big), cspace_sphere(1)); /* @bighull */
    CSPACE_ANSWER_DISTANCE(0.5, a, b, p); /* @distance */
    CSPACE_ANSWER_DISTANCEF(0.25f, af, bf, pf); /* @distancef */
    CSPACE_ANSWER_PENETRATION(d_bits(0x7ff8000000000123ull), p, a, b); /* @penetration */
    CSPACE_ANSWER_PENETRATIONF(f_bits(0x7fc00001u), pf, af, bf); /* @penetrationf */
    CSPACE_ANSWER_SWEEP(7, 0.75, p, a, b); /* @sweep */
    CSPACE_ANSWER_SWEEPF(0, 1.0f, bf, af, pf); /* @sweepf */
    CSPACE_ANSWER_INTERSECT(0, b); /* @intersect */
    CSPACE_ANSWER_INTERSECT(1, NULL); /* @intersectnull */
    CSPACE_ANSWER_INTERSECTF(0, af); /* @intersectf */
    CSPACE_ANSWER_INTERSECTF(1, NULL); /* @intersectfnull */
    {
        const double bounds[2] = {0.25, 0.2500000001}, within = 3e-9;
        const float boundsf[2] = {0.5f, 0.625f}, withinf = 3.14159274f;
        CSPACE_CERTIFICATE("converged", 12, bounds, "unique", &within); /* @certificate */
        CSPACE_CERTIFICATEF("degenerate", 300, boundsf, "\xff bad", &withinf); /* @certificatef */
        CSPACE_CERTIFICATE(NULL, (unsigned long)-1, NULL, NULL, NULL); /* @certificatenull */
    }
    CSPACE_POP(); /* @pop */
    MANY100 MANY100 MANY100 /* @many */
#line 70000
    CSPACE_PAUSE("far"); /* @far */
    free(hull_f);
    free(big_hull);
    free(long_text);
    free(huge_text);
    return cspace_end(NULL);
}
