/* Bad input through cspace_record.h: each case has a documented result that
 * recorder/tests/c_header.rs checks after decoding. Prints result codes.
 * Usage: bad_input OUT.cspace NESTED.cspace */
#define CSPACE_RECORD_IMPLEMENTATION
#include "cspace_record.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    static const double pts[3] = {1, 2, 3};
    const size_t millions = 2000000;
    double *many;
    size_t i;
    cspace_buffer nested;
    if (argc < 3) return 2;
    printf("end without begin: %d\n", cspace_end(NULL));
    printf("begin in a missing folder: %d\n", cspace_begin_file("/nonexistent-cspace-dir/x.cspace"));
    printf("its end: %d\n", cspace_end(NULL));
    many = (double *)calloc(3 * millions, sizeof *many);
    if (!many) return 3;
    for (i = 0; i < 3 * millions; ++i) many[i] = (double)i;

    printf("begin: %d\n", cspace_begin_file(argv[1]));
    CSPACE_POP(); /* a pop without push */
    CSPACE_PUSH(NULL);
    CSPACE_PAUSE("bad \xff label \xc3");
    CSPACE_TEXT("invalid \xff\xfe utf8 %s", "\xe2\x82");
    CSPACE_SHAPES(cspace_hull(pts, 0), cspace_hull(NULL, 10));
    CSPACE_SHAPES(cspace_hull(many, millions), cspace_sphere(1));
    CSPACE_POINT("null point", CSPACE_CSO, CSPACE_RED, (const double *)0);
    CSPACE_SIMPLEX("null simplex", 2, (const double *)0, pts, pts, 0);
    CSPACE_ANSWER_DISTANCE(1.0, pts, (const double *)0, pts);
    CSPACE_ANSWER_SWEEPF(1, 0.5f, (const float *)0, (const float *)0, (const float *)0);
    CSPACE_VALUE("before nested", 1.0);
    printf("nested begin: %d\n", cspace_begin());
    CSPACE_VALUE("inside nested", 2.0);
    CSPACE_PAUSE("nested pause");
    printf("nested end: %d\n", cspace_end(&nested));
    printf("nested save: %d\n", cspace_save(&nested, argv[2]));
    cspace_buffer_free(&nested);
    CSPACE_VALUE("after nested", 3.0);
    printf("end: %d\n", cspace_end(NULL));
    printf("recording after end: %d\n", cspace_is_recording());
    CSPACE_VALUE("outside", 4.0);
    free(many);
    return 0;
}
