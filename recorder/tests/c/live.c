/* Records to memory with CSPACE_LIVE set by the test: the receiver must get
 * the same bytes as the memory copy saved here. Usage: live OUT.cspace */
#define CSPACE_RECORD_IMPLEMENTATION
#include "cspace_record.h"

#include <stdio.h>

int main(int argc, char **argv) {
    int i, result;
    const double p[3] = {1, 2, 3};
    if (argc < 2) return 2;
    cspace_begin();
    for (i = 0; i < 5; ++i) {
        CSPACE_PUSH("iteration");
        CSPACE_POINT("p", CSPACE_CSO, CSPACE_GREEN, p);
        CSPACE_TEXT("step %d", i);
        CSPACE_PAUSE("step");
        CSPACE_POP();
    }
    result = cspace_end_save(argv[1]);
    printf("end: %d, dropped: %lu\n", result, cspace_live_dropped());
    return result;
}
