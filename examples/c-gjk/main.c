/* Runs the GJK on each configuration of cases.h while recording, checks the
 * distance, and saves the recording of a failing one.
 *
 *   cc -std=c99 -O2 -DCSPACE_RECORD -I../../recorder/c main.c gjk.c -lm -o c-gjk
 *   ./c-gjk [OUT.cspace]            # default c-gjk.cspace
 *   cargo run -p cspace-viewer -- OUT.cspace
 *
 * Exits with 1 when a check failed (its recording was written), 0 otherwise. */
#define CSPACE_RECORD_IMPLEMENTATION /* the recorder's code goes into this file */
#include "cspace_record.h"

#include "cases.h"
#include "gjk.h"

#include <stdio.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "c-gjk.cspace";
    size_t i;
    int failed = 0;
    for (i = 0; i < GJK_CASE_COUNT; ++i) {
        const gjk_case *t = &gjk_cases[i];
        vec3 pa[8], pb[8];
        hull a, b;
        gjk_result r;
        cspace_buffer recording;
        double expected = box_distance(t);
        int result;
        box_corners(t->center_a, t->half_a, pa);
        box_corners(t->center_b, t->half_b, pb);
        a.points = pa;
        a.count = 8;
        b.points = pb;
        b.count = 8;

        cspace_begin(); /* record this thread's macros into memory */
        r = gjk_distance(&a, &b);
        cspace_end(&recording);

        if (distance_ok(r.distance, expected)) {
            printf("ok    %-20s distance %.9g after %d iterations\n", t->name, r.distance, r.iterations);
        } else {
            failed = 1;
            printf("FAIL  %-20s distance %.9g, expected %.9g\n", t->name, r.distance, expected);
            result = cspace_save(&recording, path);
            if (result == CSPACE_OK)
                printf("      recording: %s (open it: cargo run -p cspace-viewer -- %s)\n", path, path);
            else
                printf("      recording not saved: %s\n", cspace_error_text(result));
        }
        cspace_buffer_free(&recording);
    }
    return failed;
}
