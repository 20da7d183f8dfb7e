/* Random macro sequences: random bits for every float, random bytes (invalid
 * UTF-8 included) in texts, random counts, stray pops, nested recordings.
 * Prints how many events the outer recording must hold (site definitions
 * excluded) and writes nested recordings to OUT.N.
 * Usage: fuzz_writer OUT.cspace SEED OPS */
#define CSPACE_RECORD_IMPLEMENTATION
#include "cspace_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long state;
static unsigned long long next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}
static double rd(void) {
    unsigned long long b = next();
    double d;
    if (next() % 4 == 0) return (double)(long long)(b % 2000) - 1000.0;
    memcpy(&d, &b, 8);
    return d;
}
static float rf(void) {
    unsigned int b = (unsigned int)next();
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static void rvd(double *v) { v[0] = rd(); v[1] = rd(); v[2] = rd(); }
static void rvf(float *v) { v[0] = rf(); v[1] = rf(); v[2] = rf(); }
static long long rcolor(void) { return next() % 3 == 0 ? CSPACE_DEFAULT_COLOR : (long long)(next() & 0xffffffffu); }

int main(int argc, char **argv) {
    unsigned long long expected = 0, ops, op;
    int depth = 0, nested = 0;
    static double pts[3 * 64];
    static float ptsf[3 * 64];
    static double sd[4 * 9];
    static float sf[4 * 9];
    static unsigned int tris[3 * 16];
    char text[600];
    if (argc < 4) return 2;
    state = strtoull(argv[2], 0, 10) * 2654435761ull + 1;
    ops = strtoull(argv[3], 0, 10);
    cspace_begin_file(argv[1]);
    for (op = 0; op < ops; ++op) {
        double a[3], b[3], c[3], q[4];
        float af[3], bf[3], cf[3];
        int space = (int)(next() % 2);
        size_t n, i;
        rvd(a); rvd(b); rvd(c);
        rvd(q); q[3] = rd();
        rvf(af); rvf(bf); rvf(cf);
        switch (next() % 22) {
        case 0: CSPACE_PUSH("scope"); depth++; break;
        case 1: CSPACE_POP(); depth--; break; /* may be a stray pop */
        case 2: CSPACE_PAUSE("pause"); break;
        case 3:
            n = (size_t)(next() % sizeof text);
            for (i = 0; i < n; ++i) text[i] = (char)(1 + next() % 255);
            text[n] = 0;
            CSPACE_TEXT("text %s %g %d", text, rd(), (int)next());
            break;
        case 4: CSPACE_POINT("point", space, rcolor(), a); break;
        case 5: CSPACE_POINTF("pointf", space, rcolor(), af); break;
        case 6: CSPACE_LINE("line", space, rcolor(), a, b); break;
        case 7: CSPACE_LINEF("linef", space, rcolor(), af, bf); break;
        case 8: CSPACE_TRIANGLE("triangle", space, rcolor(), a, b, c); break;
        case 9: CSPACE_TRIANGLEF("trianglef", space, rcolor(), af, bf, cf); break;
        case 10:
            n = (size_t)(next() % 5);
            for (i = 0; i < 4 * 9; ++i) sd[i] = rd();
            CSPACE_SIMPLEX("simplex", n, sd, sd + 3, sd + 6, 9 * sizeof(double));
            break;
        case 11:
            n = (size_t)(next() % 5);
            for (i = 0; i < 4 * 9; ++i) sf[i] = rf();
            CSPACE_SIMPLEXF("simplexf", n, sf, sf + 3, sf + 6, 9 * sizeof(float));
            break;
        case 12: CSPACE_VALUE("value", rd()); break;
        case 13: CSPACE_VALUEF("valuef", rf()); break;
        case 14: {
            cspace_shape s[2];
            int k;
            for (k = 0; k < 2; ++k) {
                n = (size_t)(next() % 65);
                for (i = 0; i < 3 * 64; ++i) { pts[i] = rd(); ptsf[i] = rf(); }
                for (i = 0; i < 3 * 16; ++i) tris[i] = (unsigned int)(next() >> (next() % 64));
                switch (next() % 9) {
                case 0: s[k] = cspace_point_shape(); break;
                case 1: s[k] = cspace_sphere(rd()); break;
                case 2: s[k] = cspace_box(rd(), rd(), rd()); break;
                case 3: s[k] = cspace_capsule(rd(), rd()); break;
                case 4: s[k] = cspace_cylinder(rd(), rd()); break;
                case 5: s[k] = cspace_cone(rd(), rd()); break;
                case 6: s[k] = cspace_hull(next() % 8 ? pts : NULL, n); break;
                case 7: s[k] = cspace_hull_f32(ptsf, n); break;
                default: s[k] = cspace_mesh(pts, n % 20, tris, (size_t)(next() % 17)); break;
                }
                if (next() % 2) s[k] = cspace_with_margin(s[k], rd());
                if (next() % 2) s[k] = cspace_at(s[k], a, next() % 2 ? q : NULL);
            }
            if (next() % 2) CSPACE_SHAPES(s[0], s[1]);
            else CSPACE_SHAPES_SWEEP(s[0], s[1], c);
            break;
        }
        case 15:
            if (next() % 8 == 0) {
                /* a nested recording of a few events, saved on its own */
                char path[512];
                cspace_buffer buf;
                cspace_begin();
                CSPACE_VALUE("nested", rd());
                CSPACE_PAUSE("nested pause");
                cspace_end(&buf);
                snprintf(path, sizeof path, "%s.%d", argv[1], nested++);
                if (cspace_save(&buf, path) != CSPACE_OK) return 3;
                cspace_buffer_free(&buf);
                expected--; /* nothing of it lands in the outer recording */
            } else {
                CSPACE_POINT("null", space, rcolor(), (const double *)0);
            }
            break;
        case 16: /* answers: random bits, now and then a NULL vector (a note) */
            if (next() % 2) CSPACE_ANSWER_DISTANCE(rd(), a, next() % 16 ? b : NULL, c);
            else CSPACE_ANSWER_DISTANCEF(rf(), af, bf, next() % 16 ? cf : NULL);
            break;
        case 17:
            if (next() % 2) CSPACE_ANSWER_PENETRATION(rd(), next() % 16 ? a : NULL, b, c);
            else CSPACE_ANSWER_PENETRATIONF(rf(), af, next() % 16 ? bf : NULL, cf);
            break;
        case 18:
            if (next() % 2) CSPACE_ANSWER_SWEEP((int)(next() % 3), rd(), a, b, next() % 16 ? c : NULL);
            else CSPACE_ANSWER_SWEEPF((int)(next() % 3), rf(), next() % 16 ? af : NULL, bf, cf);
            break;
        case 19:
            if (next() % 2) CSPACE_ANSWER_INTERSECT((int)(next() % 3), next() % 2 ? a : NULL);
            else CSPACE_ANSWER_INTERSECTF((int)(next() % 3), next() % 2 ? af : NULL);
            break;
        case 20: /* certificates: random bits and text, now and then no bounds, witness or bound */
            n = (size_t)(next() % sizeof text);
            for (i = 0; i < n; ++i) text[i] = (char)(1 + next() % 255);
            text[n] = 0;
            if (next() % 2)
                CSPACE_CERTIFICATE(next() % 8 ? text : NULL, (unsigned long)next(), next() % 4 ? a : NULL,
                                   next() % 4 ? text : NULL, next() % 4 ? b : NULL);
            else
                CSPACE_CERTIFICATEF(next() % 8 ? text : NULL, (unsigned long)next(), next() % 4 ? af : NULL,
                                    next() % 4 ? text : NULL, next() % 4 ? bf : NULL);
            break;
        default: CSPACE_POP_NAMED("named pop"); depth--; break;
        }
        expected++;
    }
    if (cspace_end(NULL) != CSPACE_OK) return 4;
    printf("%llu %d\n", expected, nested);
    (void)depth;
    return 0;
}
