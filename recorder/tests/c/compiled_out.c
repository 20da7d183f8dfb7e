/* Compiled without CSPACE_RECORD: every macro must type-check its arguments
 * and evaluate none (each argument here would abort). Built as C99 and C++17
 * with -Wall -Wextra -Werror by recorder/tests/c_header.rs. */
#include "cspace_record.h"

#include <stdio.h>
#include <stdlib.h>

static int evaluated = 0;
static const double *vd(void) { evaluated++; abort(); }
static const float *vf(void) { evaluated++; abort(); }
static double x(void) { evaluated++; abort(); }
static const char *label(void) { evaluated++; abort(); }
static cspace_shape shape(void) { evaluated++; abort(); }
static int flag(void) { evaluated++; abort(); }

int main(void) {
    double upper = 1.0; /* used only by a macro: must not warn as unused */
    CSPACE_PUSH(label());
    CSPACE_POP();
    CSPACE_POP_NAMED(label());
    CSPACE_PAUSE(label());
    CSPACE_TEXT("value %g %s", x(), label());
    CSPACE_POINT(label(), CSPACE_CSO, CSPACE_RED, vd());
    CSPACE_POINTF(label(), CSPACE_OBJECT, (long long)x(), vf());
    CSPACE_LINE("l", CSPACE_CSO, CSPACE_DEFAULT_COLOR, vd(), vd());
    CSPACE_LINEF("l", CSPACE_CSO, CSPACE_DEFAULT_COLOR, vf(), vf());
    CSPACE_TRIANGLE("t", CSPACE_CSO, CSPACE_DEFAULT_COLOR, vd(), vd(), vd());
    CSPACE_TRIANGLEF("t", CSPACE_CSO, CSPACE_DEFAULT_COLOR, vf(), vf(), vf());
    CSPACE_SIMPLEX("s", (size_t)x(), vd(), vd(), vd(), 24);
    CSPACE_SIMPLEXF("s", (size_t)x(), vf(), vf(), vf(), 12);
    CSPACE_VALUE("upper", upper);
    CSPACE_VALUE("v", x());
    CSPACE_VALUEF("v", (float)x());
    CSPACE_SHAPES(shape(), cspace_sphere(x()));
    CSPACE_SHAPES_SWEEP(shape(), shape(), vd());
    CSPACE_ANSWER_DISTANCE(x(), vd(), vd(), vd());
    CSPACE_ANSWER_DISTANCEF((float)x(), vf(), vf(), vf());
    CSPACE_ANSWER_PENETRATION(x(), vd(), vd(), vd());
    CSPACE_ANSWER_PENETRATIONF((float)x(), vf(), vf(), vf());
    CSPACE_ANSWER_SWEEP(flag(), x(), vd(), vd(), vd());
    CSPACE_ANSWER_SWEEPF(flag(), (float)x(), vf(), vf(), vf());
    CSPACE_ANSWER_INTERSECT(flag(), vd());
    CSPACE_ANSWER_INTERSECT(flag(), NULL);
    CSPACE_ANSWER_INTERSECTF(flag(), vf());
    CSPACE_ANSWER_INTERSECTF(flag(), NULL);
#ifdef __cplusplus
    CSPACE_SCOPE(label());
#endif
    if (cspace_begin() != CSPACE_ERR_OFF || cspace_is_recording() || CSPACE_ON()) return 1;
    if (cspace_end(NULL) != CSPACE_ERR_OFF) return 1;
    printf("evaluated %d\n", evaluated);
    return evaluated;
}
