/* What the macros cost: compiled out, compiled in but not recording, and
 * recording. Build and run both variants with `make bench` (see Makefile). */
#define CSPACE_RECORD_IMPLEMENTATION
#include "cspace_record.h"

#include "cases.h"
#include "gjk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define ROUNDS 7

/* ns per iteration of a loop of `n` dependent multiply-adds, with or without a macro. */
static double loop_ns(long n, int with_macro, double *sink) {
    double best = 1e30, acc = 0;
    int round;
    for (round = 0; round < ROUNDS; ++round) {
        double t = now();
        long i;
        if (with_macro)
            for (i = 0; i < n; ++i) {
                acc = acc * 0.999 + (double)i;
                CSPACE_VALUE("acc", acc);
            }
        else
            for (i = 0; i < n; ++i) acc = acc * 0.999 + (double)i;
        t = (now() - t) * 1e9 / (double)n;
        if (t < best) best = t;
    }
    *sink += acc;
    return best;
}

static double gjk_ns(const hull *a, const hull *b, long n, int record, double *sink) {
    double best = 1e30;
    int round;
    for (round = 0; round < ROUNDS; ++round) {
        double t = now();
        long i;
        for (i = 0; i < n; ++i) {
            gjk_result r;
            cspace_buffer buf;
            if (record) cspace_begin();
            r = gjk_distance(a, b);
            if (record) {
                cspace_end(&buf);
                cspace_buffer_free(&buf);
            }
            *sink += r.distance;
        }
        t = (now() - t) * 1e9 / (double)n;
        if (t < best) best = t;
    }
    return best;
}

#ifdef CSPACE_RECORD
/* Events (site definitions excluded) in a recording: the macro calls it took. */
static long count_events(const cspace_buffer *b) {
    size_t pos = 8;
    long n = 0;
    while (pos < b->len) {
        size_t len = 0;
        int shift = 0;
        while (b->data[pos] & 0x80) { len |= (size_t)(b->data[pos++] & 0x7f) << shift; shift += 7; }
        len |= (size_t)b->data[pos++] << shift;
        n += b->data[pos] != 0; /* tag 0: a site definition */
        pos += len;
    }
    return n;
}

/* Millions of events recorded per second (best round), points (f64) or lines (f32). */
static double events_per_s(long n, int lines) {
    double best = 0;
    int round;
    for (round = 0; round < ROUNDS; ++round) {
        double p[3] = {1, 2, 3}, t;
        float a[3] = {1, 2, 3}, b[3] = {4, 5, 6};
        long i;
        cspace_begin();
        t = now();
        for (i = 0; i < n; ++i) {
            p[0] += 1.0;
            a[1] += 1.0f;
            if (lines) CSPACE_LINEF("line", CSPACE_CSO, CSPACE_BLUE, a, b);
            else CSPACE_POINT("point", CSPACE_CSO, CSPACE_RED, p);
        }
        t = now() - t;
        cspace_end(NULL);
        if (n / t / 1e6 > best) best = n / t / 1e6;
    }
    return best;
}
#endif

/* `bench` runs everything; `bench gjk` only the not-recording GJK loop (for
 * instruction counts: perf stat -e instructions:u ./bench-on gjk). */
int main(int argc, char **argv) {
    const gjk_case *t = &gjk_cases[1]; /* face to face: 5 iterations */
    vec3 pa[8], pb[8];
    hull a, b;
    double sink = 0, with, without;
    box_corners(t->center_a, t->half_a, pa);
    box_corners(t->center_b, t->half_b, pb);
    a.points = pa;
    a.count = 8;
    b.points = pb;
    b.count = 8;
    if (argc > 1 && strcmp(argv[1], "gjk") == 0) {
        long n = argc > 2 ? atol(argv[2]) : 1000000;
        printf("gjk_distance: %.1f ns/query\n", gjk_ns(&a, &b, n, 0, &sink));
        return sink == 12345.678 ? 1 : 0;
    }
#ifdef CSPACE_RECORD
    printf("macros compiled in (-DCSPACE_RECORD), this thread not recording:\n");
#else
    printf("macros compiled out (no CSPACE_RECORD):\n");
#endif
    without = loop_ns(100000000, 0, &sink);
    with = loop_ns(100000000, 1, &sink);
    printf("  loop of 1e8 multiply-adds: %.3f ns/iteration, %.3f ns with a CSPACE_VALUE each: %+.3f ns per call\n",
           without, with, with - without);
    printf("  gjk_distance (face to face): %.1f ns/query\n", gjk_ns(&a, &b, 1000000, 0, &sink));
#ifdef CSPACE_RECORD
    {
        cspace_buffer one;
        cspace_begin();
        sink += gjk_distance(&a, &b).distance;
        cspace_end(&one);
        printf("  (%ld macro calls per query)\n", count_events(&one));
        cspace_buffer_free(&one);
    }
    printf("recording:\n");
    printf("  gjk_distance, each query recorded to memory: %.1f ns/query\n", gjk_ns(&a, &b, 200000, 1, &sink));
    printf("  CSPACE_POINT (f64) to memory: %.1f M events/s\n", events_per_s(2000000, 0));
    printf("  CSPACE_LINEF (f32) to memory: %.1f M events/s\n", events_per_s(2000000, 1));
#endif
    return sink == 12345.678 ? 1 : 0; /* keep the results alive */
}
